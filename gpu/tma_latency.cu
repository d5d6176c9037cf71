// A 2-D TMA load's latency from L2 against from HBM on the lent H200 (issue 47, t47u: the timing
// model's one `tma_latency` for hits and misses; docs/timing.md "TMA latency from L2 and from HBM").
// usage: tma_latency OUT.tsv                          (gpu/run.sh tma-lat)
// One thread per CTA (one CTA per SM: the shared memory forces it) issues a chain of dependent
// loads: one 2-D tensor-map load (cp.async.bulk.tensor.2d, 64 f16 x R rows = R x 128 B, 128-byte
// swizzle, L2 promotion 128 B as gpu/timing_tma_loaded.cu) on an mbarrier, waits for it, then issues
// the next; each load's latency is clock64 from just before the expect_tx to the cycle its wait
// succeeded (the same span as timing_tma_loaded.cu's one-in-flight rows). Sources:
//   l2:  a 4 MiB set, read whole by the same kernel just before (every box a hit), boxes cycled;
//   hbm: a 2 GiB set after a 512 MiB write pass over another buffer (L2 holds none of it), each
//        load a box never read before, 64 KiB apart (no two loads share a DRAM page's 128-byte
//        promotion or a line), every CTA its own boxes.
// 1 CTA (one SM alone: the unloaded latency) and one CTA on every SM (one box in flight each: the
// loaded latency timing_tma_loaded.cu's one-stage rows measure). Each line of OUT.tsv: source,
// CTAs, box bytes, loads per CTA, then over the CTAs' mean latencies: the median, the least and the
// most (clk, SM clock), and the median CTA's least single load; the SM clock is measured as in
// gpu/timing_micro.cu (clock64 ticks over %globaltimer, every SM busy 50 ms).
#include <cuda.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "cuda_check.h" /* CK(call) */
#include "kernels/tma_bench.cuh" /* tma_bench_open (the SM clock: kernels/sm_clock.cuh) */

/* load i of CTA b reads the box at row ((i x G + b) x stride_rows) mod nrows (G: the grid);
 * warm: loads before the timed ones (the l2 source's pass over its set). out[3 b]: the sum of the
 * timed latencies, [3 b + 1]: the least, [3 b + 2]: loads */
__global__ void chain_kernel(const __grid_constant__ CUtensorMap tm, unsigned nrows, unsigned stride_rows,
                             unsigned box_bytes, int warm, int iters, unsigned long long *out) {
  extern __shared__ __align__(1024) char sm2[];
  __shared__ uint64_t bar;
  if (threadIdx.x != 0) return;
  uint32_t base = ((uint32_t)__cvta_generic_to_shared(sm2) + 1023) & ~1023u;
  uint32_t b = (uint32_t)__cvta_generic_to_shared(&bar);
  asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(b));
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  unsigned long long sum = 0, least = ~0ull;
  for (int i = 0; i < warm + iters; i++) {
    int k = i < warm ? i : i - warm;
    unsigned row = (unsigned)((((unsigned long long)k * gridDim.x + blockIdx.x) * stride_rows) % nrows);
    uint64_t t0 = clock64();
    asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" ::"r"(b), "r"(box_bytes) : "memory");
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
            base),
        "l"(&tm), "r"(0), "r"(row), "r"(b)
        : "memory");
    asm volatile("{.reg .pred p;\nW: mbarrier.try_wait.parity.shared.b64 p, [%0], %1;\n@!p bra W;}\n" ::"r"(b),
                 "r"((uint32_t)(i & 1))
                 : "memory");
    uint64_t t1 = clock64();
    if (i >= warm) {
      sum += t1 - t0;
      if (t1 - t0 < least) least = t1 - t0;
    }
  }
  out[3 * blockIdx.x] = sum;
  out[3 * blockIdx.x + 1] = least;
  out[3 * blockIdx.x + 2] = (unsigned long long)iters;
}

int main(int argc, char **argv) {
  int nsm;
  unsigned long long *dout;
  FILE *tsv = tma_bench_open(argc, argv, "tma_latency", "source\tctas\tbox_bytes\tloads\tlat_median_clk\tlat_min_cta_clk\tlat_max_cta_clk\tlat_least_load_clk\n", &nsm, &dout);
  if (!tsv) return 2;
  size_t big = (size_t)2 << 30, l2set = (size_t)4 << 20, flush = (size_t)512 << 20;
  char *buf, *fl;
  CK(cudaMalloc(&buf, big));
  CK(cudaMalloc(&fl, flush));
  CK(cudaMemset(buf, 1, big));
  const int smem = 200 * 1024; /* one CTA per SM */
  CK(cudaFuncSetAttribute(chain_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  for (int l2 = 1; l2 >= 0; l2--) {
    for (unsigned rows : {8u, 32u, 64u, 128u, 256u}) {
      unsigned box_bytes = rows * 128;
      size_t set = l2 ? l2set : big;
      cuuint64_t grows = set / 128;
      CUtensorMap tm;
      cuuint64_t dims[2] = {64, grows}, strides[1] = {128};
      cuuint32_t boxd[2] = {64, rows}, es[2] = {1, 1};
      CK(cuTensorMapEncodeTiled(&tm, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, buf, dims, strides, boxd, es,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
      for (int one = 1; one >= 0; one--) {
        int g = one ? 1 : nsm;
        /* l2: boxes packed (stride = the box), the set's boxes cycled after a warm pass over all of
         * them; hbm: 64 KiB apart, each once (2 GiB / 64 KiB = 32768 boxes for all CTAs) */
        unsigned stride_rows = l2 ? rows : (64u << 10) / 128;
        unsigned nbox = (unsigned)(grows / stride_rows);
        int iters = l2 ? 256 : (int)std::min<unsigned>(nbox / g, 256u);
        int warm = l2 ? (int)(nbox / g + 1) : 0;
        if (!l2) CK(cudaMemset(fl, 2, flush)); /* evict: L2 holds the flush buffer, none of buf */
        CK(cudaDeviceSynchronize());
        chain_kernel<<<g, 32, smem>>>(tm, (unsigned)grows, stride_rows, box_bytes, warm, iters, dout);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        std::vector<unsigned long long> h(3 * g);
        CK(cudaMemcpy(h.data(), dout, h.size() * 8, cudaMemcpyDeviceToHost));
        std::vector<std::pair<double, double>> lat;
        for (int k = 0; k < g; k++) lat.push_back({(double)h[3 * k] / (double)h[3 * k + 2], (double)h[3 * k + 1]});
        std::sort(lat.begin(), lat.end());
        double med = lat[g / 2].first, lo = lat.front().first, hi = lat.back().first, least = lat[g / 2].second;
        fprintf(tsv, "%s\t%d\t%u\t%d\t%.1f\t%.1f\t%.1f\t%.0f\n", l2 ? "l2" : "hbm", g, box_bytes, iters, med, lo, hi,
                least);
        printf("%-4s ctas %3d box %6u loads %3d: latency median %7.1f clk (CTAs %7.1f .. %7.1f), least load %5.0f\n",
               l2 ? "l2" : "hbm", g, box_bytes, iters, med, lo, hi, least);
        fflush(tsv);
      }
    }
  }
  CK(cudaFree(buf));
  CK(cudaFree(fl));
  CK(cudaFree(dout));
  fclose(tsv);
  return 0;
}
