// What the H100 gives as shared-memory addresses in a cluster: for each CTA
// of a cluster of 4, the .shared::cta address of a shared variable
// (cvta.to.shared), its generic address, and mapa's .shared::cluster and
// generic addresses of the same variable in every rank, with getctarank of
// each. tc5's address model of distributed shared memory (docs/tma.md,
// "Clusters") follows what this prints. Run by `gpu/run.sh cluster`.
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>

__global__ void __cluster_dims__(4, 1, 1) probe(unsigned long long *out) {
  __shared__ __align__(16) uint32_t x[4];
  uint32_t rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  if (threadIdx.x) return;
  x[0] = rank;
  unsigned long long *o = out + blockIdx.x * 32;
  uint32_t s;
  s = (uint32_t)__cvta_generic_to_shared(x);
  o[0] = rank;
  o[1] = s;
  o[2] = (unsigned long long)x;
  for (uint32_t r = 0; r < 4; r++) {
    uint32_t ms, rk1, rk2;
    unsigned long long mg;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(ms) : "r"(s), "r"(r));
    asm volatile("mapa.u64 %0, %1, %2;" : "=l"(mg) : "l"(x), "r"(r));
    asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(rk1) : "r"(ms));
    asm volatile("getctarank.u64 %0, %1;" : "=r"(rk2) : "l"(mg));
    o[3 + 4 * r] = ms;
    o[4 + 4 * r] = mg;
    o[5 + 4 * r] = rk1;
    o[6 + 4 * r] = rk2;
  }
  uint32_t own;
  asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(own) : "r"(s));
  o[19] = own;
  /* a .shared::cta load through the 32-bit address, and a .shared::cluster one */
  uint32_t v1, v2;
  asm volatile("ld.shared::cta.u32 %0, [%1];" : "=r"(v1) : "r"(s));
  asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v2) : "r"(s));
  o[20] = v1;
  o[21] = v2;
}

int main() {
  unsigned long long *d, h[4 * 32];
  cudaMalloc(&d, sizeof h);
  cudaMemset(d, 0, sizeof h);
  probe<<<4, 32>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  if (e) { printf("error: %s\n", cudaGetErrorString(e)); return 2; }
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int b = 0; b < 4; b++) {
    unsigned long long *o = h + b * 32;
    printf("CTA %d: rank %llu  shared::cta 0x%llx  generic 0x%llx  getctarank(own) %llu  ld.shared::cta %llu  ld.shared::cluster %llu\n",
           b, o[0], o[1], o[2], o[19], o[20], o[21]);
    for (int r = 0; r < 4; r++)
      printf("   mapa to rank %d: shared::cluster 0x%llx (getctarank %llu)  generic 0x%llx (getctarank %llu)\n", r,
             o[3 + 4 * r], o[5 + 4 * r], o[4 + 4 * r], o[6 + 4 * r]);
  }
  return 0;
}
