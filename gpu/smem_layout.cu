// Where the hardware puts shared memory: the shared-window address of static
// .shared variables (in declaration order, with their alignment) and of the
// dynamic (extern) array, as %cvta.to.shared gives them, for the layout that
// tc5 run uses (docs: README "Memory as the hardware lays it out").
// gpu/run.sh smem prints one line per kernel.
#include <cstdio>
#include <cstdint>

__device__ uint32_t saddr(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

__global__ void one_static(uint32_t *out) {
  __shared__ __align__(8) char a[10];
  extern __shared__ __align__(16) char dyn[];
  a[threadIdx.x] = 1;
  out[0] = saddr(a);
  out[1] = saddr(dyn);
}
__global__ void two_static(uint32_t *out) {
  __shared__ __align__(4) char a[12];
  __shared__ __align__(128) char b[3];
  extern __shared__ __align__(16) char dyn[];
  a[threadIdx.x] = 1;
  b[threadIdx.x] = 1;
  out[0] = saddr(a);
  out[1] = saddr(b);
  out[2] = saddr(dyn);
}
__global__ void dyn_only(uint32_t *out) {
  extern __shared__ __align__(16) char dyn[];
  out[0] = saddr(dyn);
}
__global__ void big_static(uint32_t *out) {
  __shared__ __align__(16) char a[5000];
  extern __shared__ __align__(1024) char dyn[];
  a[threadIdx.x] = 1;
  out[0] = saddr(a);
  out[1] = saddr(dyn);
}

int main() {
  uint32_t *d, h[4];
  cudaMalloc(&d, 16);
  struct { const char *name; void (*k)(uint32_t *); int n; } ks[] = {
      {"one_static (a[10] align 8)", one_static, 2},
      {"two_static (a[12] align 4, b[3] align 128)", two_static, 3},
      {"dyn_only", dyn_only, 1},
      {"big_static (a[5000] align 16, dyn align 1024)", big_static, 2}};
  for (auto &k : ks) {
    cudaMemset(d, 0, 16);
    k.k<<<1, 1, 256>>>(d);
    cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost);
    printf("%-48s", k.name);
    for (int i = 0; i < k.n; i++) printf(" 0x%04x", h[i]);
    printf("\n");
  }
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
