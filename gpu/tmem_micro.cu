// Unit-level microbenchmarks of a B200's Tensor Memory path and of the SM units around it
// (issue 47): the figures no publication gives (docs/timing.md, "Tensor Memory rates: what is
// published") and on which tutorial 06's rows on sm_100a depend (docs/timing.md, "What decides
// tutorial 06's rows"). NEEDS A B200 (sm_100a: tcgen05); it builds here (nvcc 13,
// gpu/run.sh tmem --build-only) but the lent H200 cannot run it.
// usage: tmem_micro OUT.tsv        (gpu/run.sh tmem [OUTDIR])
// Each line of OUT.tsv (and stdout): key, value, unit, how it was measured; src/timing/params_b200.def
// would cite a line by its key. Cycles are clock64() inside the kernel (one SM's clock); the clock
// the kernels ran at is measured too (key clock_mhz: clock64 ticks over %globaltimer ns).
//
// What each section settles, and the rule that turns it into a parameter of params_b200.def
// (the model: a warp's tcgen05.ld/st of b bytes, b = 32 lanes x 4 B x registers, completes
// tmem_ld_latency + b / tmem_bytes_per_clk after it issues, per warp, with no port shared between
// the warps of an SM; tcgen05.wait::ld/st waits for the warp's own):
//   chain    tcgen05.ld (st) 32x32b.xN then tcgen05.wait::ld (::st) and a use of the data, one warp,
//            N = 1 ... 128, a constant address (as tutorial 06's: key tmem_ld_xN_chain) and, as a
//            bound, each address from the previous load's data (tmem_ld_xN_chain_dep: loads that
//            cannot overlap whatever ptxas makes of wait::ld, plus the address's LOP3, IADD and
//            R2UR); the loop's own cost (key tmem_base_loop) subtracted.
//            Rule: least squares of the constant-address cycles against b = 128 N bytes:
//            the same fit of the model's own prediction of these lines
//            (tests/data/timing/b200_tmem_micro_predicted.tsv: the loop around a load overlaps part
//            of it in both) gives 27.8 clk and 485.8 B/clk at today's 40 clk / 512 B/clk, so
//            tmem_ld_latency = 40 + (tmem_ld_fit_latency - 27.8) and tmem_bytes_per_clk =
//            512 x tmem_ld_fit_bytes_per_clk / 485.8 (re-predict after changing them: the fit must
//            then match); the store lines the same (tmem_st_fit_*; the model's 30.9 clk, 188 B/clk):
//            if they differ from the loads', the model needs separate store rows.
//   tput     W = 1, 2, 4, 8, 16 warps a CTA, one CTA on every SM, each warp tcgen05.ld (st)
//            32x32b.x128 (16 KiB) + wait in a loop, on its own lanes (warp % 4) and columns:
//            bytes a clock an SM. Rule: if W = 4 delivers 4x W = 1 (the four lane quarters
//            independent) and W = 8, 16 no more than W = 4 x (chain's rate), the model's per-warp
//            rule stands; a ceiling below that is a port shared by the SM, which the model does
//            not have (a mechanism to add, with this line as its rate).
//   rt       tutorial 06's correction step on one warpgroup: tcgen05.ld x64 (S) or x128 (O),
//            wait::ld, one FMUL a register, tcgen05.st of the same, wait::st; cycles an iteration.
//            No parameter: the composite the model predicts from the two above (a check).
//   sfu/fma  ex2.approx.ftz.f32, fma.rn.f32 and fma.rn.f32x2 (FFMA2), 8 independent chains a
//            thread, W = 4 ... 32 warps an SM: cycles per warp-instruction per sub-partition
//            at saturation. Rule: issue_sfu = the ex2 line at W = 16 (params_b200.def's 8 is derived
//            from the FA4 authors' statement, not measured), issue_fp32 = the fma line;
//            the f32x2 line checks tm_fp32_lanes (2 x issue_fp32 a packed instruction).
//   lat      one dependent fma.rn.f32 chain (lat_fp32_fma: rule lat_alu) and bar.sync of 4 warps in a
//            loop (lat_bar_128: rule lat_bar), both carried from the H200 today.
//   mbar     two warps of one CTA ping-pong through two mbarriers (arrive / try_wait.parity):
//            cycles one way. Rule: lat_mbar (carried from the H200 today).
//   tma      cp.async.bulk.tensor.2d of one box of 64 f16 x R rows (R = 16 ... 128: 2 ... 16 KiB,
//            128-byte swizzle, tutorial 06's K/V box at R = 64, 128) at a time, issue to mbarrier
//            completion, from an L2-resident 16 MiB tensor and from a 4 GiB one, on one SM and on
//            every SM. Rule: tma_latency = the zero-byte intercept of the every-SM L2 line
//            (tutorial 06's K/V are L2 hits: its query blocks share them), as t47x derived the
//            H200's; today the B200 row is microbench-blackwell's HBM intercept (933 clk), which
//            no published figure splits into L2 hit and miss.
#include <cuda.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "cuda_check.h" /* CK(call) */
#include "kernels/tmem_ops.cuh"
#define TC5_SM_CLOCK_SPIN_ONLY /* its clock kernel is one warp's */
#include "kernels/sm_clock.cuh" /* gtime, clock_spin */
#include "kernels/micro_emit.h" /* tsv, micro_emit */

static double clock_ghz = 1.9; /* replaced by the measurement */
static int nsm = 148;

static void emit(const char *key, double v, const char *unit, const char *how) {
  micro_emit(30, 12, 14, key, v, unit, how);
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

/* ---- device helpers ---- */
/* one warp allocates all 512 columns (one CTA an SM: the measurement owns the SM's Tensor Memory) */
__device__ __forceinline__ void tmem_alloc512(uint32_t *slot) {
  uint32_t s = (uint32_t)__cvta_generic_to_shared(slot);
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 512;" ::"r"(s) : "memory");
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::: "memory");
}
__device__ __forceinline__ void tmem_dealloc512(uint32_t taddr) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 512;" ::"r"(taddr) : "memory");
}
__device__ __forceinline__ void fence_before() { asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory"); }
__device__ __forceinline__ void fence_after() { asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory"); }
__device__ __forceinline__ void wait_ld() { asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wait_st() { asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory"); }

template <int N> __device__ __forceinline__ void ld(uint32_t a, uint32_t *v) {
  if constexpr (N == 1) tmem_ld_x1(a, v);
  else if constexpr (N == 2) tmem_ld_x2(a, v);
  else if constexpr (N == 4) tmem_ld_x4(a, v);
  else if constexpr (N == 8) tmem_ld_x8(a, v);
  else if constexpr (N == 16) tmem_ld_x16(a, v);
  else if constexpr (N == 32) tmem_ld_x32(a, v);
  else if constexpr (N == 64) tmem_ld_x64(a, v);
  else tmem_ld_x128(a, v);
}
template <int N> __device__ __forceinline__ void st(uint32_t a, const uint32_t *v) {
  if constexpr (N == 1) tmem_st_x1(a, v);
  else if constexpr (N == 2) tmem_st_x2(a, v);
  else if constexpr (N == 4) tmem_st_x4(a, v);
  else if constexpr (N == 8) tmem_st_x8(a, v);
  else if constexpr (N == 16) tmem_st_x16(a, v);
  else if constexpr (N == 32) tmem_st_x32(a, v);
  else if constexpr (N == 64) tmem_st_x64(a, v);
  else tmem_st_x128(a, v);
}

/* the CTA's Tensor Memory: warp 0 allocates, everyone reads the address after the fences */
__device__ __forceinline__ uint32_t cta_tmem(uint32_t *slot) {
  if (threadIdx.x < 32) tmem_alloc512(slot);
  fence_before();
  __syncthreads();
  fence_after();
  return *slot;
}
__device__ __forceinline__ void cta_tmem_free(uint32_t base) {
  fence_before();
  __syncthreads();
  fence_after();
  if (threadIdx.x < 32) tmem_dealloc512(base);
}

/* ---- chain: one warp, ld(N) -> wait -> use -> ld ... (MODE 0: the next address from this load's
 * data, so the loads cannot overlap whatever ptxas does with wait::ld, at the cost of the address's
 * LOP3 + IADD + R2UR in the recurrence; 3: a constant address, as tutorial 06's are, serialized by
 * wait::ld and the consumer alone; 1: st -> wait::st; 2: the loop alone) ---- */
template <int N, int MODE>
__global__ void chain_kernel(unsigned long long *out, uint32_t zero, int iters) {
  __shared__ uint32_t slot;
  uint32_t base = cta_tmem(&slot);
  uint32_t v[N];
#pragma unroll
  for (int i = 0; i < N; i++) v[i] = threadIdx.x * 1000u + i;
  st<N>(base, v);
  wait_st();
  uint32_t off = 0, acc = 0;
  uint64_t t0 = 0;
#pragma unroll 1
  for (int it = -8; it < iters; it++) { /* 8 warm-up iterations */
    if (it == 0) t0 = clock64();
    if (MODE == 0) {
      ld<N>(base + off, v);
      wait_ld();
      off = v[N - 1] & zero; /* the next address depends on this load's data */
      acc += v[0];
    } else if (MODE == 3) {
      ld<N>(base, v);
      wait_ld();
      acc += v[0] ^ v[N - 1];
    } else if (MODE == 1) {
      st<N>(base + off, v);
      wait_st();
      v[0] += zero;
      off = v[0] & zero;
    } else {
      off = (acc ^ (uint32_t)it) & zero; /* the loop alone */
      acc += off + 1;
    }
  }
  uint64_t t1 = clock64();
  cta_tmem_free(base);
  if (threadIdx.x == 0) out[0] = t1 - t0, out[1] = acc;
}

/* ---- tput: W warps (blockDim), every SM, x128 loads (MODE 0) or stores (1) in a loop ---- */
template <int MODE>
__global__ void tput_kernel(unsigned long long *out, uint32_t zero, int iters) {
  __shared__ uint32_t slot;
  uint32_t base = cta_tmem(&slot);
  uint32_t warp = threadIdx.x / 32;
  /* the warp's lanes (warp % 4: the lane quarter it may access) and its 128 columns (warp / 4) */
  uint32_t a = base + ((warp % 4) * 32u << 16) + (warp / 4 % 4) * 128u;
  uint32_t v[128];
#pragma unroll
  for (int i = 0; i < 128; i++) v[i] = threadIdx.x + i;
  st<128>(a, v); /* the loads read what was written (tc5's checker: tmem-uninit-read otherwise) */
  wait_st();
  uint32_t acc = 0;
  __syncthreads();
  uint64_t t0 = clock64();
  for (int it = 0; it < iters; it++) {
    if (MODE == 0) {
      ld<128>(a + (acc & zero), v);
      wait_ld();
      acc += v[0] ^ v[127];
    } else {
      st<128>(a + (acc & zero), v);
      wait_st();
      v[0] += zero;
      acc += v[0];
    }
  }
  __syncthreads();
  uint64_t t1 = clock64();
  cta_tmem_free(base);
  if (threadIdx.x == 0) out[2 * blockIdx.x] = t1 - t0, out[2 * blockIdx.x + 1] = acc;
}

/* ---- rt: tutorial 06's correction step, one warpgroup: ld xN, wait, FMUL each, st xN, wait ---- */
template <int N>
__global__ void rt_kernel(unsigned long long *out, uint32_t zero, int iters) {
  __shared__ uint32_t slot;
  uint32_t base = cta_tmem(&slot);
  uint32_t warp = threadIdx.x / 32;
  uint32_t a = base + ((warp % 4) * 32u << 16);
  uint32_t v[N];
#pragma unroll
  for (int i = 0; i < N; i++) v[i] = __float_as_uint(1.0f + i);
  st<N>(a, v);
  wait_st();
  float scale = __uint_as_float(0x3f800000u | zero); /* 1.0, unknown to the compiler */
  __syncthreads();
  uint64_t t0 = clock64();
  for (int it = 0; it < iters; it++) {
    ld<N>(a, v);
    wait_ld();
#pragma unroll
    for (int i = 0; i < N; i++) v[i] = __float_as_uint(__uint_as_float(v[i]) * scale);
    st<N>(a, v);
    wait_st();
  }
  __syncthreads();
  uint64_t t1 = clock64();
  cta_tmem_free(base);
  if (threadIdx.x == 0) out[0] = t1 - t0, out[1] = v[0];
}

/* ---- sfu / fma rates: 8 independent chains a thread ---- */
enum { OP_EX2, OP_FMA, OP_FMA2, OP_N };
static const char *op_key[OP_N] = {"sfu_ex2", "fp32_fma", "fp32x2_fma"};
template <int OP>
__global__ void rate_kernel(unsigned long long *out, int iters) {
  uint32_t r[8];
  uint64_t q[8];
#pragma unroll
  for (int i = 0; i < 8; i++) r[i] = __float_as_uint(-1.0f - threadIdx.x * 1e-3f - i), q[i] = ((uint64_t)r[i] << 32) | r[i];
  __syncthreads();
  uint64_t t0 = clock64();
  for (int it = 0; it < iters; it++) {
#pragma unroll
    for (int i = 0; i < 8; i++) {
      if (OP == OP_EX2) asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+r"(r[i]));
      if (OP == OP_FMA) asm volatile("fma.rn.f32 %0, %0, %1, 0f3F000000;" : "+r"(r[i]) : "r"(r[(i + 1) % 8]));
      if (OP == OP_FMA2) asm volatile("fma.rn.f32x2 %0, %0, %1, %0;" : "+l"(q[i]) : "l"(q[(i + 1) % 8]));
    }
  }
  __syncthreads();
  uint64_t t1 = clock64();
  uint32_t x = 0;
#pragma unroll
  for (int i = 0; i < 8; i++) x ^= r[i] ^ (uint32_t)q[i];
  if (threadIdx.x == 0) out[2 * blockIdx.x] = t1 - t0, out[2 * blockIdx.x + 1] = x;
}

/* ---- lat: one warp, one dependent chain: fma.rn.f32 (OP 0) or bar.sync of 4 warps (OP 1) ---- */
template <int OP>
__global__ void lat_kernel(unsigned long long *out, int iters) {
  uint32_t r = __float_as_uint(1.0f + threadIdx.x);
  __syncthreads();
  uint64_t t0 = clock64();
  for (int it = 0; it < iters; it++) {
    if (OP == 0) {
#pragma unroll
      for (int k = 0; k < 16; k++) asm volatile("fma.rn.f32 %0, %0, %0, 0f3F000000;" : "+r"(r));
    } else {
      asm volatile("bar.sync 1, 128;" ::: "memory");
    }
  }
  uint64_t t1 = clock64();
  if (threadIdx.x == 0) out[0] = t1 - t0, out[1] = r;
}

/* ---- mbar: two warps ping-pong through two mbarriers (count 1) ---- */
__device__ __forceinline__ void mb_arrive(uint64_t *mb) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"((uint32_t)__cvta_generic_to_shared(mb)) : "memory");
}
__device__ __forceinline__ void mb_wait(uint64_t *mb, uint32_t parity) {
  asm volatile("{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n @!p bra W;\n}" ::"r"(
                   (uint32_t)__cvta_generic_to_shared(mb)),
               "r"(parity)
               : "memory");
}
__global__ void mbar_kernel(unsigned long long *out, int iters) {
  __shared__ uint64_t mb[2];
  if (threadIdx.x == 0) {
    for (int i = 0; i < 2; i++)
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"((uint32_t)__cvta_generic_to_shared(&mb[i])) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  uint64_t t0 = clock64();
  for (int it = 0; it < iters; it++) {
    if (warp == 0) {
      if (lane == 0) mb_arrive(&mb[0]);
      mb_wait(&mb[1], it & 1);
    } else {
      mb_wait(&mb[0], it & 1);
      if (lane == 0) mb_arrive(&mb[1]);
    }
  }
  uint64_t t1 = clock64();
  if (threadIdx.x == 0) out[0] = t1 - t0;
}

/* ---- tma: one 2-D box at a time, issue to mbarrier completion ---- */
__global__ void tma_lat_kernel(const __grid_constant__ CUtensorMap tm, unsigned boxes, unsigned rows, int iters,
                               unsigned long long *cyc) {
  extern __shared__ __align__(1024) char dyn[];
  __shared__ uint64_t bar;
  if (threadIdx.x != 0) return;
  uint32_t dst = ((uint32_t)__cvta_generic_to_shared(dyn) + 1023) & ~1023u;
  uint32_t b = (uint32_t)__cvta_generic_to_shared(&bar);
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  unsigned box = (blockIdx.x * 7919u) % boxes;
  uint64_t total = 0;
  for (int i = 0; i < iters; i++) {
    int row = (int)((box = (box + 1) % boxes) * rows);
    uint64_t c0 = clock64();
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(rows * 128) : "memory");
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
                 "l"(&tm), "r"(0), "r"(row), "r"(b)
                 : "memory");
    asm volatile("{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n @!p bra W;\n}" ::"r"(b),
                 "r"(i & 1)
                 : "memory");
    total += clock64() - c0;
  }
  cyc[blockIdx.x] = total;
}

/* ---- the SM clock: clock64 over globaltimer ---- */
__global__ void clock_kernel(unsigned long long *out, uint64_t ns) {
  uint64_t c0, c1, g0, g1;
  float x = clock_spin(ns, c0, c1, g0, g1);
  if (threadIdx.x == 0) out[0] = c1 - c0, out[1] = g1 - g0;
  if (x == 12345.f) out[0] = 0;
}

/* ---- host ---- */
static unsigned long long *dout;
static const int REPS = 5;

template <int N, int MODE> static double chain_clk(int iters) {
  std::vector<double> s;
  for (int r = 0; r < REPS; r++) {
    chain_kernel<N, MODE><<<1, 32>>>(dout, 0, iters);
    CK(cudaGetLastError());
    unsigned long long h[2];
    CK(cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost));
    s.push_back((double)h[0] / iters);
  }
  return median(s);
}

template <int N> static void chain_pair(double base, std::vector<double> &b, std::vector<double> &cl, std::vector<double> &cs) {
  const int iters = 4096;
  double d = chain_clk<N, 0>(iters) - base, l = chain_clk<N, 3>(iters) - base, s = chain_clk<N, 1>(iters) - base;
  char key[64];
  snprintf(key, sizeof key, "tmem_ld_x%d_chain_dep", N);
  emit(key, d, "clk", "tcgen05.ld.32x32b + wait::ld, one warp, next address from the data (+ LOP3, IADD, R2UR), minus tmem_base_loop");
  snprintf(key, sizeof key, "tmem_ld_x%d_chain", N);
  emit(key, l, "clk", "tcgen05.ld.32x32b + wait::ld + one IADD of the data, one warp, constant address, minus tmem_base_loop");
  snprintf(key, sizeof key, "tmem_st_x%d_chain", N);
  emit(key, s, "clk", "tcgen05.st.32x32b + wait::st, one warp, minus tmem_base_loop");
  b.push_back(128.0 * N), cl.push_back(l), cs.push_back(s);
}

static void fit(const char *what, const std::vector<double> &x, const std::vector<double> &y) {
  double n = x.size(), sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t i = 0; i < x.size(); i++) sx += x[i], sy += y[i], sxx += x[i] * x[i], sxy += x[i] * y[i];
  double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx), icpt = (sy - slope * sx) / n;
  char key[64];
  snprintf(key, sizeof key, "tmem_%s_fit_latency", what);
  emit(key, icpt, "clk", "least squares of the chain lines against bytes (128 N): intercept");
  snprintf(key, sizeof key, "tmem_%s_fit_bytes_per_clk", what);
  emit(key, slope > 0 ? 1.0 / slope : 0, "B/clk", "the same fit: 1 / slope (one warp's rate)");
}

template <int MODE> static void tput(int warps) {
  const int iters = 2048;
  std::vector<double> s;
  std::vector<unsigned long long> h(2 * nsm);
  for (int r = 0; r < REPS; r++) {
    tput_kernel<MODE><<<nsm, 32 * warps>>>(dout, 0, iters);
    CK(cudaGetLastError());
    CK(cudaMemcpy(h.data(), dout, h.size() * sizeof h[0], cudaMemcpyDeviceToHost));
    for (int b = 0; b < nsm; b++) s.push_back(16384.0 * warps * iters / h[2 * b]);
  }
  char key[64];
  snprintf(key, sizeof key, "tmem_%s_x128_tput_w%d", MODE ? "st" : "ld", warps);
  emit(key, median(s), "B/clk/SM", "x128 (16 KiB) + wait in a loop, W warps a CTA, a CTA on every SM: median over SMs");
}

template <int N> static void rt() {
  const int iters = 2048;
  std::vector<double> s;
  for (int r = 0; r < REPS; r++) {
    rt_kernel<N><<<1, 128>>>(dout, 0, iters);
    CK(cudaGetLastError());
    unsigned long long h[2];
    CK(cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost));
    s.push_back((double)h[0] / iters);
  }
  char key[64];
  snprintf(key, sizeof key, "tmem_rt_x%d_wg", N);
  emit(key, median(s), "clk", "one warpgroup: ld xN, wait::ld, N FMUL, st xN, wait::st, an iteration");
}

template <int OP> static void rate(int warps) {
  const int iters = 4096;
  std::vector<double> s;
  std::vector<unsigned long long> h(2 * nsm);
  for (int r = 0; r < REPS; r++) {
    rate_kernel<OP><<<nsm, 32 * warps>>>(dout, iters);
    CK(cudaGetLastError());
    CK(cudaMemcpy(h.data(), dout, h.size() * sizeof h[0], cudaMemcpyDeviceToHost));
    /* warp-instructions per sub-partition: warps x iters x 8 / 4 */
    for (int b = 0; b < nsm; b++) s.push_back(h[2 * b] / (warps * iters * 8.0 / 4));
  }
  char key[64];
  snprintf(key, sizeof key, "%s_w%d", op_key[OP], warps);
  emit(key, median(s), "clk/warp-insn", "8 independent chains a thread, a CTA of W warps on every SM: cycles per warp-instruction per sub-partition");
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s OUT.tsv\n", argv[0]);
    return 2;
  }
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  if (prop.major != 10 || prop.minor != 0) {
    fprintf(stderr, "tmem_micro: %s is sm_%d%d; these microbenchmarks need a B200 or GB200 (sm_100a: tcgen05)\n",
            prop.name, prop.major, prop.minor);
    return 2;
  }
  nsm = prop.multiProcessorCount;
  tsv = fopen(argv[1], "w");
  if (!tsv) {
    perror(argv[1]);
    return 2;
  }
  fprintf(tsv, "# tmem_micro on %s, %d SMs\n", prop.name, nsm);
  CK(cudaMalloc(&dout, 2 * 1024 * sizeof(unsigned long long))); /* >= 2 x SMs */

  unsigned long long hc[2];
  clock_kernel<<<1, 32>>>(dout, 200000000ull);
  CK(cudaMemcpy(hc, dout, sizeof hc, cudaMemcpyDeviceToHost));
  clock_ghz = (double)hc[0] / hc[1];
  emit("clock_mhz", clock_ghz * 1000, "MHz", "clock64 ticks over globaltimer ns, one warp spinning 0.2 s");

  double base = chain_clk<1, 2>(4096);
  emit("tmem_base_loop", base, "clk", "the chain loop without Tensor Memory (subtracted from the chain lines)");
  std::vector<double> b, cl, cs;
  chain_pair<1>(base, b, cl, cs);
  chain_pair<2>(base, b, cl, cs);
  chain_pair<4>(base, b, cl, cs);
  chain_pair<8>(base, b, cl, cs);
  chain_pair<16>(base, b, cl, cs);
  chain_pair<32>(base, b, cl, cs);
  chain_pair<64>(base, b, cl, cs);
  chain_pair<128>(base, b, cl, cs);
  fit("ld", b, cl);
  fit("st", b, cs);

  for (int w : {1, 2, 4, 8, 16}) tput<0>(w);
  for (int w : {1, 2, 4, 8, 16}) tput<1>(w);
  rt<64>();
  rt<128>();

  for (int w : {4, 8, 16, 32}) rate<OP_EX2>(w);
  for (int w : {4, 8, 16, 32}) rate<OP_FMA>(w);
  for (int w : {4, 8, 16, 32}) rate<OP_FMA2>(w);

  for (int op = 0; op < 2; op++) {
    const int iters = 4096;
    std::vector<double> s;
    for (int r = 0; r < REPS; r++) {
      if (op == 0) lat_kernel<0><<<1, 32>>>(dout, iters);
      else lat_kernel<1><<<1, 128>>>(dout, iters);
      CK(cudaGetLastError());
      unsigned long long h;
      CK(cudaMemcpy(&h, dout, sizeof h, cudaMemcpyDeviceToHost));
      s.push_back((double)h / iters / (op == 0 ? 16 : 1));
    }
    if (op == 0) emit("lat_fp32_fma", median(s), "clk", "one warp, one dependent fma.rn.f32 chain: cycles an FFMA (rule: lat_alu)");
    else emit("lat_bar_128", median(s), "clk", "4 warps, bar.sync 1, 128 in a loop: cycles a barrier (rule: lat_bar)");
  }
  {
    const int iters = 4096;
    std::vector<double> s;
    for (int r = 0; r < REPS; r++) {
      mbar_kernel<<<1, 64>>>(dout, iters);
      CK(cudaGetLastError());
      unsigned long long h;
      CK(cudaMemcpy(&h, dout, sizeof h, cudaMemcpyDeviceToHost));
      s.push_back((double)h / iters / 2);
    }
    emit("mbar_pingpong", median(s), "clk", "two warps, two mbarriers (arrive / try_wait.parity): one way");
  }
  {
    /* tma (the driver API: -lcuda) */
    const size_t l2set = 16ull << 20, big = 4ull << 30;
    void *buf;
    CK(cudaMalloc(&buf, big));
    CK(cudaMemset(buf, 0, big));
    CK(cudaFuncSetAttribute(tma_lat_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 16384 + 1024));
    std::vector<unsigned long long> h(nsm);
    for (int l2 = 1; l2 >= 0; l2--)
      for (unsigned rows : {16u, 32u, 64u, 128u}) {
        CUtensorMap tm;
        cuuint64_t all = (l2 ? l2set : big) / 128;
        cuuint64_t dims[2] = {64, all}, strides[1] = {128};
        cuuint32_t boxd[2] = {64, rows}, es[2] = {1, 1};
        CK(cuTensorMapEncodeTiled(&tm, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, buf, dims, strides, boxd, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                  CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
        for (int one = 1; one >= 0; one--) {
          int g = one ? 1 : nsm, iters = 256;
          if (l2) tma_lat_kernel<<<g, 32, 16384 + 1024>>>(tm, (unsigned)(all / rows), rows, iters, dout); /* warm L2 */
          tma_lat_kernel<<<g, 32, 16384 + 1024>>>(tm, (unsigned)(all / rows), rows, iters, dout);
          CK(cudaGetLastError());
          CK(cudaMemcpy(h.data(), dout, g * sizeof h[0], cudaMemcpyDeviceToHost));
          std::vector<double> s;
          for (int b = 0; b < g; b++) s.push_back((double)h[b] / iters);
          char key[64], how[200];
          snprintf(key, sizeof key, "tma2d_latency_%u_%s_%s", rows * 128, l2 ? "l2" : "hbm", one ? "1sm" : "allsm");
          snprintf(how, sizeof how, "cp.async.bulk.tensor.2d 64x%u f16 box (128B swizzle), one at a time, issue to mbarrier; %s; %s",
                   rows, l2 ? "16 MiB L2-resident" : "4 GiB", one ? "one SM" : "every SM (median)");
          emit(key, median(s), "clk", how);
        }
      }
    CK(cudaFree(buf));
  }
  CK(cudaDeviceSynchronize());
  fclose(tsv);
  return 0;
}
