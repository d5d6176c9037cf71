// Loaded TMA latency against concurrency on the lent H200 (issue 47, the
// timing model's Blackwell side: the mechanism "a TMA load's latency grows
// with the bytes the SM and the chip have in flight" is measured here and
// its form carried to the B200, whose unloaded figures come from published
// microbenchmarks; docs/timing.md "Loaded TMA latency").
// usage: timing_tma_loaded OUT.tsv          (gpu/run.sh timing-tma-loaded)
// One thread per CTA, one CTA per SM (the shared memory forces it), keeps
// `stages` 2-D tensor-map loads (cp.async.bulk.tensor.2d, 64 f16 x R rows,
// 128-byte swizzle) in flight on its own mbarriers, `iters` loads in all.
// Each line of OUT.tsv: source (l2: a 16 MiB set read once before, so L2
// hits; hbm: a 2 GiB set, each box read once), CTAs (1 or every SM), box
// bytes, stages, then per SM (median SM, clock64): cycles per box (the
// period), bytes per cycle, and the mean latency of a load (issue to the
// cycle its wait succeeded; the thread waits for the oldest load only, so
// this is its completion), plus the SM clock measured the same way as
// gpu/timing_micro.cu (clock64 ticks over %globaltimer).
#include <cuda.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "cuda_check.h" /* CK(call) */
#include "kernels/tma_bench.cuh" /* tma_bench_open (the SM clock: kernels/sm_clock.cuh) */

/* out[3 b + 0]: cycles of the whole loop, [3 b + 1]: the sum of the loads'
 * latencies, [3 b + 2]: loads */
__global__ void loaded_kernel(const __grid_constant__ CUtensorMap tm, unsigned nbox, unsigned rows_per_box,
                              unsigned box_bytes, int iters, int stages, unsigned long long *out) {
  extern __shared__ __align__(1024) char sm2[];
  __shared__ uint64_t bars[8];
  __shared__ unsigned long long issued[8];
  if (threadIdx.x != 0) return;
  uint32_t base = ((uint32_t)__cvta_generic_to_shared(sm2) + 1023) & ~1023u;
  for (int s = 0; s < stages; s++)
    asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"((uint32_t)__cvta_generic_to_shared(&bars[s])));
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  /* each CTA its own run of boxes: every box of a pass is read once */
  unsigned box = (unsigned)(((unsigned long long)blockIdx.x * nbox) / gridDim.x);
  unsigned long long lat = 0, n = 0;
  uint64_t c0 = clock64();
  for (int i = 0; i < iters + stages; i++) {
    int s = i % stages;
    uint32_t b = (uint32_t)__cvta_generic_to_shared(&bars[s]);
    if (i >= stages) {
      uint32_t ph = ((i - stages) / stages) & 1;
      asm volatile("{.reg .pred p;\nW: mbarrier.try_wait.parity.shared.b64 p, [%0], %1;\n@!p bra W;}\n" ::"r"(b), "r"(ph)
                   : "memory");
      lat += clock64() - issued[s];
      n++;
    }
    if (i < iters) {
      int row = (int)((box++ % nbox) * rows_per_box);
      issued[s] = clock64();
      asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" ::"r"(b), "r"(box_bytes) : "memory");
      asm volatile(
          "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
              base + s * box_bytes),
          "l"(&tm), "r"(0), "r"(row), "r"(b)
          : "memory");
    }
  }
  uint64_t c1 = clock64();
  out[3 * blockIdx.x] = c1 - c0;
  out[3 * blockIdx.x + 1] = lat;
  out[3 * blockIdx.x + 2] = n;
}

int main(int argc, char **argv) {
  int nsm;
  unsigned long long *dout;
  FILE *tsv = tma_bench_open(argc, argv, "timing_tma_loaded", "source\tctas\tbox_bytes\tstages\tcyc_per_box\tbytes_per_clk_sm\tlatency_clk\n", &nsm, &dout);
  if (!tsv) return 2;
  size_t big = (size_t)2 << 30, l2set = (size_t)16 << 20;
  char *buf;
  CK(cudaMalloc(&buf, big));
  CK(cudaMemset(buf, 1, big));
  const int smem = 200 * 1024; /* one CTA per SM */
  CK(cudaFuncSetAttribute(loaded_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  for (int l2 = 1; l2 >= 0; l2--) {
    for (unsigned rows : {32u, 64u, 128u, 256u}) {
      unsigned box_bytes = rows * 128;
      CUtensorMap tm;
      size_t set = l2 ? l2set : big;
      cuuint64_t grows = set / 128;
      cuuint64_t dims[2] = {64, grows}, strides[1] = {128};
      cuuint32_t boxd[2] = {64, rows}, es[2] = {1, 1};
      CK(cuTensorMapEncodeTiled(&tm, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, buf, dims, strides, boxd, es,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
      unsigned nbox = (unsigned)(grows / rows);
      for (int one = 1; one >= 0; one--) {
        int g = one ? 1 : nsm;
        for (int stages : {1, 2, 3, 4, 6, 8}) {
          if ((unsigned)stages * box_bytes > 160u * 1024) continue;
          /* HBM: every box of the pass once (no L2 reuse); L2: 256 loads */
          int iters = l2 ? 256 : (int)std::min<unsigned>(nbox / g, 4096u);
          if (l2) loaded_kernel<<<g, 32, smem>>>(tm, nbox, rows, box_bytes, 64, stages, dout); /* warm */
          loaded_kernel<<<g, 32, smem>>>(tm, nbox, rows, box_bytes, iters, stages, dout);
          CK(cudaGetLastError());
          CK(cudaDeviceSynchronize());
          std::vector<unsigned long long> h(3 * g);
          CK(cudaMemcpy(h.data(), dout, h.size() * 8, cudaMemcpyDeviceToHost));
          std::vector<double> per, lat;
          for (int k = 0; k < g; k++) {
            per.push_back((double)h[3 * k] / iters);
            lat.push_back(h[3 * k + 2] ? (double)h[3 * k + 1] / (double)h[3 * k + 2] : 0);
          }
          std::sort(per.begin(), per.end());
          std::sort(lat.begin(), lat.end());
          double p = per[g / 2], L = lat[g / 2];
          fprintf(tsv, "%s\t%d\t%u\t%d\t%.1f\t%.2f\t%.1f\n", l2 ? "l2" : "hbm", g, box_bytes, stages, p, box_bytes / p, L);
          printf("%-4s ctas %3d box %6u stages %d: %8.1f clk/box %7.2f B/clk/SM latency %8.1f clk\n", l2 ? "l2" : "hbm",
                 g, box_bytes, stages, p, box_bytes / p, L);
          fflush(tsv);
        }
      }
    }
  }
  CK(cudaFree(buf));
  CK(cudaFree(dout));
  fclose(tsv);
  return 0;
}
