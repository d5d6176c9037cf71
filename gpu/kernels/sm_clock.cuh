/* tc5 on silicon: the SM clock the microbenchmarks ran at, measured as clock64 ticks over
 * %globaltimer nanoseconds while threads spin; shared by gpu/timing_micro.cu,
 * gpu/timing_tma_loaded.cu and gpu/tma_latency.cu (clock_kernel on every SM, sm_clock_mhz: the
 * median SM) and gpu/tmem_micro.cu (clock_spin in its one-warp kernel; it defines
 * TC5_SM_CLOCK_SPIN_ONLY). One copy since g55: each program had its own (the PTX of each
 * unchanged). */
#ifndef TC5_KERNELS_SM_CLOCK_CUH
#define TC5_KERNELS_SM_CLOCK_CUH

#include <algorithm>
#include <cstdint>
#include <vector>

#include "../cuda_check.h" /* CK(call) */

__device__ __forceinline__ uint64_t gtime() {
  uint64_t t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}

/* spin at least ns of %globaltimer (a chain of FMAs between reads): c0, c1 the clock64 and g0, g1 the
 * %globaltimer before and after; returns the chain's value (the caller stores it under a never-true
 * test, so that the chain stays) */
__device__ __forceinline__ float clock_spin(uint64_t ns, uint64_t &c0, uint64_t &c1, uint64_t &g0, uint64_t &g1) {
  g0 = gtime(), c0 = clock64();
  float x = threadIdx.x;
  do {
    for (int i = 0; i < 64; i++) x = fmaf(x, 0.999f, 0.5f);
    g1 = gtime();
  } while (g1 - g0 < ns);
  c1 = clock64();
  return x;
}

#ifndef TC5_SM_CLOCK_SPIN_ONLY
/* every CTA spins; thread 0 of CTA b writes out[2 b] (ticks) and out[2 b + 1] (ns) */
__global__ void clock_kernel(unsigned long long *out, uint64_t ns) {
  uint64_t c0, c1, g0, g1;
  float x = clock_spin(ns, c0, c1, g0, g1);
  if (threadIdx.x == 0) {
    out[2 * blockIdx.x] = c1 - c0;
    out[2 * blockIdx.x + 1] = g1 - g0;
  }
  if (x == 12345.f) out[0] = 0;
}

/* the SM clock in MHz: clock_kernel on nsm CTAs of 256 threads (one an SM), every SM busy 50 ms, the
 * median SM; out: device scratch of 2 nsm words */
static double sm_clock_mhz(unsigned long long *out, int nsm) {
  clock_kernel<<<nsm, 256>>>(out, 50000000ull);
  CK(cudaDeviceSynchronize());
  std::vector<unsigned long long> h(2 * nsm);
  CK(cudaMemcpy(h.data(), out, h.size() * 8, cudaMemcpyDeviceToHost));
  std::vector<double> v;
  for (int i = 0; i < nsm; i++) v.push_back(1e3 * h[2 * i] / (double)h[2 * i + 1]);
  std::sort(v.begin(), v.end());
  return v[nsm / 2];
}
#endif

#endif
