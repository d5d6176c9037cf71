// Unit-level microbenchmarks of the H200's SM and memory system, the only
// calibration source of tc5's Hopper timing parameters (issue 47;
// src/timing/params_h200.def cites each line by its key).
// usage: timing_micro OUT.tsv     (gpu/run.sh timing-micro)
// Each line of OUT.tsv (and stdout): key, value, unit, how it was measured.
// Cycles are read by clock64() inside the kernel (one SM's clock); whole-chip
// rates by CUDA events; the SM clock the kernels ran at is measured too
// (clock64 ticks over %globaltimer nanoseconds, key clock_mhz).
#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <map>

#include "cuda_check.h" /* CK(call) */
#include "kernels/sm_clock.cuh" /* gtime, clock_kernel, sm_clock_mhz: the SM clock */
#include "kernels/micro_emit.h" /* tsv, micro_emit */

static double clock_ghz = 1.98; /* replaced by the measurement */
static int nsm = 132;

static void emit(const char *key, double v, const char *unit, const char *how) {
  micro_emit(28, 14, 16, key, v, unit, how);
}

/* ---- issue rates: 8 chains a thread, coupled so that nothing folds ---- */
#define CH8(stmt) stmt(0, 1) stmt(1, 2) stmt(2, 3) stmt(3, 4) stmt(4, 5) stmt(5, 6) stmt(6, 7) stmt(7, 0)
enum { OP_FFMA, OP_HFMA2, OP_DFMA, OP_IADD, OP_IMAD, OP_LOP3, OP_EX2, OP_RCP, OP_TANH, OP_CVT_F16, OP_CVT_I, OP_SHFL, OP_N };
static const char *op_name[OP_N] = {"fp32_fma",  "fp16x2_fma",   "fp64_fma",     "int_add", "int_mad", "int_lop3",
                                    "sfu_ex2",   "sfu_rsqrt",      "sfu_tanh",     "cvt_f16_pair", "cvt_f32_s32", "shfl_bfly"};
/* instructions per statement: the cvt pairs are two conversions */
static const int op_insns[OP_N] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 1};

template <int OP> __device__ __forceinline__ void step8(uint32_t (&r)[8]) {
#define S(a, b)                                                                                                    \
  if (OP == OP_FFMA) asm volatile("fma.rn.f32 %0, %0, %1, 0f3F000000;" : "+r"(r[a]) : "r"(r[b]));                 \
  if (OP == OP_HFMA2) asm volatile("fma.rn.f16x2 %0, %0, %1, %0;" : "+r"(r[a]) : "r"(r[b]));                      \
  if (OP == OP_IADD) asm volatile("add.u32 %0, %0, %1;" : "+r"(r[a]) : "r"(r[b]));                                 \
  if (OP == OP_IMAD) asm volatile("mad.lo.u32 %0, %0, %1, %0;" : "+r"(r[a]) : "r"(r[b]));                         \
  if (OP == OP_LOP3) asm volatile("lop3.b32 %0, %0, %1, 0x5bd1e995, 0x96;" : "+r"(r[a]) : "r"(r[b]));            \
  if (OP == OP_EX2) asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+r"(r[a]));                                      \
  if (OP == OP_RCP) asm volatile("rsqrt.approx.ftz.f32 %0, %0;" : "+r"(r[a]));                                      \
  if (OP == OP_TANH) asm volatile("tanh.approx.f32 %0, %0;" : "+r"(r[a]));                                        \
  if (OP == OP_CVT_F16)                                                                                            \
    asm volatile("{.reg .b16 h; cvt.rn.f16.f32 h, %0; cvt.f32.f16 %0, h;}" : "+r"(r[a]));                          \
  if (OP == OP_CVT_I) asm volatile("{.reg .s32 i; cvt.rni.s32.f32 i, %0; cvt.rn.f32.s32 %0, i;}" : "+r"(r[a]));    \
  if (OP == OP_SHFL) asm volatile("shfl.sync.bfly.b32 %0, %0, 1, 0x1f, -1;" : "+r"(r[a]));
  CH8(S)
#undef S
}

template <int OP> __device__ __forceinline__ void step8d(double (&r)[8]) {
#define S(a, b) asm volatile("fma.rn.f64 %0, %0, %1, 0d3FE0000000000000;" : "+d"(r[a]) : "d"(r[b]));
  CH8(S)
#undef S
}

template <int OP>
__global__ void __launch_bounds__(1024) issue_kernel(int iters, unsigned long long *cyc, uint32_t *sink) {
  uint32_t r[8];
  double d[8];
  for (int i = 0; i < 8; i++) {
    r[i] = 0x3f000000u + threadIdx.x * 8 + i;
    d[i] = 0.5 + threadIdx.x + i;
  }
  __syncthreads();
  uint64_t c0 = clock64();
  for (int it = 0; it < iters; it++) {
#pragma unroll
    for (int u = 0; u < 16; u++) {
      if (OP == OP_DFMA) step8d<OP>(d);
      else step8<OP>(r);
    }
  }
  __syncthreads();
  uint64_t c1 = clock64();
  if (threadIdx.x == 0) cyc[blockIdx.x] = c1 - c0;
  uint32_t s = 0;
  for (int i = 0; i < 8; i++) s ^= r[i] ^ (uint32_t)__double_as_longlong(d[i]);
  if (s == 0x12345678u) sink[0] = s;
}

/* latency: one warp, one dependent chain */
template <int OP> __global__ void lat_kernel(int iters, unsigned long long *cyc, uint32_t *sink) {
  uint32_t x = 0x3f000000u + threadIdx.x;
  double dx = 0.5;
  uint32_t y = 0x3f800001u;
  double dy = 1.0000001;
  uint64_t c0 = clock64();
  for (int it = 0; it < iters; it++) {
#pragma unroll
    for (int u = 0; u < 32; u++) {
      if (OP == OP_FFMA) asm volatile("fma.rn.f32 %0, %0, %1, 0f3F000000;" : "+r"(x) : "r"(y));
      if (OP == OP_IMAD) asm volatile("mad.lo.u32 %0, %0, %1, %0;" : "+r"(x) : "r"(y));
      if (OP == OP_DFMA) asm volatile("fma.rn.f64 %0, %0, %1, 0d3FE0000000000000;" : "+d"(dx) : "d"(dy));
      if (OP == OP_EX2) asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+r"(x));
      if (OP == OP_CVT_I) asm volatile("{.reg .s32 i; cvt.rni.s32.f32 i, %0; cvt.rn.f32.s32 %0, i;}" : "+r"(x));
      if (OP == OP_SHFL) asm volatile("shfl.sync.bfly.b32 %0, %0, 1, 0x1f, -1;" : "+r"(x));
    }
  }
  uint64_t c1 = clock64();
  if (threadIdx.x == 0) cyc[0] = c1 - c0;
  if ((x ^ (uint32_t)__double_as_longlong(dx)) == 0x12345678u) sink[0] = x;
}

/* ---- shared memory: latency (pointer chase), bandwidth (v4), bank conflicts ---- */
__global__ void smem_lat_kernel(int iters, unsigned long long *cyc, uint32_t *sink) {
  __shared__ uint32_t s[4096];
  for (int i = threadIdx.x; i < 4096; i += blockDim.x) s[i] = (i * 97 + 13) & 4095; /* one cycle of 4096 */
  __syncthreads();
  uint32_t p = 0;
  uint64_t c0 = clock64();
  for (int it = 0; it < iters; it++) {
#pragma unroll
    for (int u = 0; u < 32; u++) asm volatile("ld.shared.u32 %0, [%1];" : "=r"(p) : "r"((uint32_t)__cvta_generic_to_shared(s) + 4 * p));
  }
  uint64_t c1 = clock64();
  if (threadIdx.x == 0) cyc[0] = c1 - c0;
  if (p == 0xffffffffu) sink[0] = p;
}

/* every thread of the block reads: stride (in 4-byte words) between lanes; v4 = 16-byte loads */
template <bool V4> __global__ void __launch_bounds__(1024) smem_bw_kernel(int iters, int stride, unsigned long long *cyc, uint32_t *sink) {
  extern __shared__ uint32_t s[];
  for (int i = threadIdx.x; i < 32768; i += blockDim.x) s[i] = i;
  __syncthreads();
  uint32_t base = (uint32_t)__cvta_generic_to_shared(s);
  int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  uint32_t a = base + 4 * ((V4 ? lane * 4 : (lane * stride) & 8191) + (w & 3) * 8192);
  uint32_t acc = 0;
  __syncthreads();
  uint64_t c0 = clock64();
  for (int it = 0; it < iters; it++) {
#pragma unroll
    for (int u = 0; u < 16; u++) {
      uint32_t x0, x1, x2, x3;
      if (V4) {
        asm volatile("ld.volatile.shared.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(x0), "=r"(x1), "=r"(x2), "=r"(x3) : "r"(a + u * 512));
        acc ^= x0 ^ x1 ^ x2 ^ x3;
      } else {
        asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(x0) : "r"(a + (u & 1) * 4));
        acc += x0;
      }
    }
  }
  __syncthreads();
  uint64_t c1 = clock64();
  if (threadIdx.x == 0) cyc[blockIdx.x] = c1 - c0;
  if (acc == 0x12345678u) sink[0] = acc;
}

/* ---- global memory: read bandwidth (16-byte loads, .cg: L2), pointer-chase latency ---- */
__global__ void read_kernel(const uint4 *p, size_t n16, int reps, uint32_t *sink) {
  uint32_t acc = 0;
  for (int r = 0; r < reps; r++)
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n16; i += (size_t)gridDim.x * blockDim.x) {
      uint4 v = __ldcg(p + i);
      acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
  if (acc == 0x12345678u) sink[0] = acc;
}
/* 8 independent 16-byte loads in flight per thread (the plain loop above keeps about one) */
__global__ void read8_kernel(const uint4 *p, size_t n16, int reps, uint32_t *sink) {
  uint32_t acc = 0;
  size_t T = (size_t)gridDim.x * blockDim.x, t0 = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  for (int r = 0; r < reps; r++)
    for (size_t i = t0; i + 7 * T < n16; i += 8 * T) {
      uint4 v[8];
#pragma unroll
      for (int j = 0; j < 8; j++) v[j] = __ldcg(p + i + j * T);
#pragma unroll
      for (int j = 0; j < 8; j++) acc ^= v[j].x ^ v[j].y ^ v[j].z ^ v[j].w;
    }
  if (acc == 0x12345678u) sink[0] = acc;
}
__global__ void copy_kernel(const uint4 *p, uint4 *q, size_t n16) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n16; i += (size_t)gridDim.x * blockDim.x) q[i] = p[i];
}
/* slot i (stride bytes apart) holds the address of slot (a i + c) mod n: a full-period LCG (n a power of 2) */
__global__ void chain_kernel(uint64_t *base, size_t n, size_t stride) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    size_t j = (i * 1664525ull + 1013904223ull) & (n - 1);
    *(uint64_t *)((char *)base + i * stride) = (uint64_t)((char *)base + j * stride);
  }
}
/* warm: steps taken first, untimed (0: none, the timed loads are first touches) */
__global__ void chase_kernel(uint64_t *start, int warm, int steps, unsigned long long *cyc, uint64_t *sink) {
  uint64_t p = (uint64_t)start;
  for (int i = 0; i < warm; i++) asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p));
  uint64_t c0 = clock64();
  for (int i = 0; i < steps; i++) asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p));
  uint64_t c1 = clock64();
  cyc[0] = c1 - c0;
  if (p == 1) sink[0] = p;
}
__global__ void atomic_lat_kernel(unsigned *a, int steps, unsigned long long *cyc, unsigned *sink) {
  unsigned x = 0;
  uint64_t c0 = clock64();
  for (int i = 0; i < steps; i++) x = atomicAdd(a + (x & 1), 1u);
  uint64_t c1 = clock64();
  cyc[0] = c1 - c0;
  sink[1] = x;
}

/* ---- barriers ---- */
__global__ void bar_kernel(int iters, unsigned long long *cyc) {
  __syncthreads();
  uint64_t c0 = clock64();
  for (int i = 0; i < iters; i++) asm volatile("bar.sync 0;" ::: "memory");
  uint64_t c1 = clock64();
  if (threadIdx.x == 0) cyc[0] = c1 - c0;
}
/* one thread: arrive on an mbarrier of count 1 (completing its phase), wait on that phase */
__global__ void mbar_kernel(int iters, unsigned long long *cyc) {
  __shared__ uint64_t bar;
  uint32_t b = (uint32_t)__cvta_generic_to_shared(&bar);
  asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(b));
  uint64_t c0 = clock64();
  for (int i = 0; i < iters; i++) {
    asm volatile(
        "{.reg .b64 st; .reg .pred p;\n"
        "mbarrier.arrive.shared.b64 st, [%0];\n"
        "W: mbarrier.try_wait.parity.shared.b64 p, [%0], %1;\n"
        "@!p bra W;}\n" ::"r"(b),
        "r"(i & 1)
        : "memory");
  }
  uint64_t c1 = clock64();
  cyc[0] = c1 - c0;
}

/* ---- TMA (bulk copy engine): cp.async.bulk global -> shared, completion on an mbarrier ---- */
__global__ void tma_kernel(const char *src, size_t src_bytes, unsigned bytes, int iters, int stages,
                           unsigned long long *cyc) {
  extern __shared__ __align__(128) char sm[];
  __shared__ uint64_t bars[8];
  if (threadIdx.x != 0) return;
  for (int s = 0; s < stages; s++)
    asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"((uint32_t)__cvta_generic_to_shared(&bars[s])));
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  size_t nchunks = src_bytes / bytes;
  size_t chunk = (size_t)blockIdx.x * 7919;
  uint64_t c0 = clock64();
  for (int i = 0; i < iters + stages; i++) {
    int s = i % stages;
    uint32_t b = (uint32_t)__cvta_generic_to_shared(&bars[s]);
    if (i >= stages) {
      uint32_t ph = ((i - stages) / stages) & 1;
      asm volatile(
          "{.reg .pred p;\nW: mbarrier.try_wait.parity.shared.b64 p, [%0], %1;\n@!p bra W;}\n" ::"r"(b), "r"(ph)
          : "memory");
    }
    if (i < iters) {
      const char *g = src + (chunk++ % nchunks) * bytes;
      asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" ::"r"(b), "r"(bytes) : "memory");
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                       (uint32_t)__cvta_generic_to_shared(sm + s * bytes)),
                   "l"(g), "r"(bytes), "r"(b)
                   : "memory");
    }
  }
  uint64_t c1 = clock64();
  cyc[blockIdx.x] = c1 - c0;
}

/* 2-D tensor-map TMA (cp.async.bulk.tensor.2d): boxes of 64 f16 x 128 rows (16 KiB, 128-byte swizzle) */
__global__ void tma2d_kernel(const __grid_constant__ CUtensorMap tm, unsigned rows, int iters, int stages,
                             unsigned long long *cyc) {
  extern __shared__ __align__(1024) char sm2[];
  __shared__ uint64_t bars[8];
  if (threadIdx.x != 0) return;
  uint32_t base = ((uint32_t)__cvta_generic_to_shared(sm2) + 1023) & ~1023u;
  for (int s = 0; s < stages; s++)
    asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"((uint32_t)__cvta_generic_to_shared(&bars[s])));
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  unsigned nbox = rows / 128, box = (blockIdx.x * 7919u) % nbox;
  uint64_t c0 = clock64();
  for (int i = 0; i < iters + stages; i++) {
    int s = i % stages;
    uint32_t b = (uint32_t)__cvta_generic_to_shared(&bars[s]);
    if (i >= stages) {
      uint32_t ph = ((i - stages) / stages) & 1;
      asm volatile("{.reg .pred p;\nW: mbarrier.try_wait.parity.shared.b64 p, [%0], %1;\n@!p bra W;}\n" ::"r"(b), "r"(ph)
                   : "memory");
    }
    if (i < iters) {
      int row = (int)((box++ % nbox) * 128);
      asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" ::"r"(b), "r"(16384) : "memory");
      asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
                       base + s * 16384),
                   "l"(&tm), "r"(0), "r"(row), "r"(b)
                   : "memory");
    }
  }
  uint64_t c1 = clock64();
  cyc[blockIdx.x] = c1 - c0;
}

/* ---- launch overhead ---- */
__global__ void empty_kernel() {}

/* ---- wgmma ---- */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 900 && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TC5_WGMMA 1
#endif
enum { T_F16, T_BF16, T_TF32, T_E4M3, T_S8 };
static const char *tname[] = {"f16", "bf16", "tf32", "e4m3", "s8"};
static const int tk[] = {16, 16, 8, 32, 32};

#ifdef TC5_WGMMA
/* K-major, 128-byte swizzle, stride between 8-row groups 1024 bytes (as gpu/gemm_wgmma.cu) */
__device__ __forceinline__ uint64_t wdesc(uint32_t smem) {
  return (uint64_t)((smem & 0x3FFFF) >> 4) | 1ull << 16 | 64ull << 32 | 1ull << 62;
}
template <int T, int N> __device__ __forceinline__ void wg(uint32_t *d, uint64_t da, uint64_t db);
#endif

/* the generated list of (type, N) pairs and their asm: see below */
#include "timing_wgmma.cuh"

template <int T, int N>
__global__ void __launch_bounds__(384, 1) wgmma_kernel(int iters, int per_commit, int latency_mode, unsigned long long *cyc,
                                                        uint32_t *sink) {
#ifdef TC5_WGMMA
  extern __shared__ __align__(1024) unsigned char smw[];
  uint32_t base = ((uint32_t)__cvta_generic_to_shared(smw) + 1023) & ~1023u;
  unsigned char *gb = smw + (base - (uint32_t)__cvta_generic_to_shared(smw));
  /* A: 64 rows x 128 B; B: 256 rows x 128 B; values uniform in [-1, 1) of the type (bits for s8, e4m3) */
  for (int i = threadIdx.x; i < 40960 / 4; i += blockDim.x) {
    uint32_t h = (uint32_t)i * 2654435761u ^ 0x9e3779b9u;
    h ^= h >> 15;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    uint32_t v;
    if (T == T_F16) v = 0x38003800u | (h & 0x83ff83ffu);        /* +-[0.5, 1) */
    else if (T == T_BF16) v = 0x3f003f00u | (h & 0x807f807fu);  /* +-[0.5, 1) */
    else if (T == T_TF32) v = 0x3f000000u | (h & 0x807fe000u);  /* +-[0.5, 1) */
    else if (T == T_E4M3) v = 0x30303030u | (h & 0x87878787u);  /* +-[0.5, 1) */
    else v = h & 0x7f7f7f7fu;
    ((uint32_t *)gb)[i] = v;
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  uint32_t acc[128];
  for (int i = 0; i < 128; i++) acc[i] = 0;
  uint64_t da = wdesc(base), db = wdesc(base + 8192);
  __syncthreads();
  uint64_t c0 = clock64();
  for (int it = 0; it < iters; it++) {
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    for (int j = 0; j < per_commit; j++) wg<T, N>(acc, da, db);
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    if (latency_mode) asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    else asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
  }
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  uint64_t c1 = clock64();
  __syncthreads();
  if (threadIdx.x == 0) cyc[blockIdx.x] = c1 - c0;
  uint32_t s = 0;
  for (int i = 0; i < N / 2; i++) s ^= acc[i];
  if (s == 0x12345678u) sink[0] = s;
#endif
}


/* ---- issue 47, Hopper side (t47h): the units the tutorial GEMMs and vector adds lean on ---- */
/* mma.sync m16n8k16 f16 -> f32 (Triton's non-wgmma GEMM configs): CHAINS independent accumulators a warp */
template <int CHAINS> __global__ void __launch_bounds__(1024) mma_sync_kernel(int iters, unsigned long long *cyc, uint32_t *sink) {
  uint32_t a0 = 0x3c003c00u + threadIdx.x, a1 = a0 ^ 1, a2 = a0 ^ 2, a3 = a0 ^ 3, b0 = 0x38003800u, b1 = 0x38003801u;
  float c[CHAINS][4];
  for (int j = 0; j < CHAINS; j++)
    for (int k = 0; k < 4; k++) c[j][k] = 0.f;
  __syncthreads();
  uint64_t c0 = clock64();
  for (int it = 0; it < iters; it++) {
#pragma unroll
    for (int u = 0; u < 8; u++)
#pragma unroll
      for (int j = 0; j < CHAINS; j++)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                     : "+f"(c[j][0]), "+f"(c[j][1]), "+f"(c[j][2]), "+f"(c[j][3])
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  }
  __syncthreads();
  uint64_t c1 = clock64();
  if (threadIdx.x == 0) cyc[blockIdx.x] = c1 - c0;
  float s = 0;
  for (int j = 0; j < CHAINS; j++) s += c[j][0] + c[j][1] + c[j][2] + c[j][3];
  if (s == 1234.5f) sink[0] = 1;
}

/* ldmatrix.x4 (512 B a warp): lanes' row addresses 16 B apart (conflict-free), every warp its own 512 B */
__global__ void __launch_bounds__(1024) ldmatrix_kernel(int iters, unsigned long long *cyc, uint32_t *sink) {
  extern __shared__ __align__(128) uint32_t sl[];
  for (int i = threadIdx.x; i < 16384; i += blockDim.x) sl[i] = i;
  __syncthreads();
  uint32_t a = (uint32_t)__cvta_generic_to_shared(sl) + ((threadIdx.x >> 5) & 31) * 512 + (threadIdx.x & 31) * 16;
  uint32_t acc = 0;
  uint64_t c0 = clock64();
  for (int it = 0; it < iters; it++) {
#pragma unroll
    for (int u = 0; u < 16; u++) {
      uint32_t x0, x1, x2, x3;
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                   : "=r"(x0), "=r"(x1), "=r"(x2), "=r"(x3)
                   : "r"(a + (u & 1) * 16384));
      acc ^= x0 ^ x1 ^ x2 ^ x3;
    }
  }
  __syncthreads();
  uint64_t c1 = clock64();
  if (threadIdx.x == 0) cyc[blockIdx.x] = c1 - c0;
  if (acc == 0x12345678u) sink[0] = acc;
}

/* cp.async.cg 16 B pipelines (Triton's GEMM mainloop's loads): each thread PT copies a stage, STAGES
 * stages in flight (commit, wait_group STAGES-1), every warp on its own; stage s of CTA b reads chunk
 * (b * 7919 + i) of the source set */
template <int STAGES>
__global__ void __launch_bounds__(1024) cpasync_kernel(const char *src, size_t set_bytes, int pt, int iters, unsigned long long *cyc) {
  extern __shared__ __align__(128) char sc[];
  uint32_t sbase = (uint32_t)__cvta_generic_to_shared(sc);
  size_t stage = (size_t)blockDim.x * pt * 16, nchunks = set_bytes / stage, chunk = (size_t)blockIdx.x * 7919;
  uint64_t c0 = clock64();
  for (int i = 0; i < iters; i++) {
    const char *g = src + ((chunk + i) % nchunks) * stage;
    uint32_t s = sbase + (uint32_t)((i % STAGES) * stage);
    for (int v = 0; v < pt; v++) {
      uint32_t off = (uint32_t)((v * blockDim.x + threadIdx.x) * 16);
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s + off), "l"(g + off) : "memory");
    }
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.wait_group %0;" ::"n"(STAGES - 1) : "memory");
  }
  asm volatile("cp.async.wait_all;" ::: "memory");
  __syncthreads();
  uint64_t c1 = clock64();
  if (threadIdx.x == 0) cyc[blockIdx.x] = c1 - c0;
}

/* streams for the L2-residency sweep: every thread 4 independent 16-byte elements, one pass */
__global__ void __launch_bounds__(256) stream_read_kernel(const uint4 *p, size_t n16, uint32_t *sink) {
  size_t i = (size_t)blockIdx.x * 1024 + threadIdx.x;
  uint32_t acc = 0;
#pragma unroll
  for (int j = 0; j < 4; j++)
    if (i + j * 256 < n16) {
      uint4 v = p[i + j * 256];
      acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
  if (acc == 0x12345678u) sink[0] = acc;
}
__global__ void __launch_bounds__(256) stream_add_kernel(const float4 *__restrict__ a, const float4 *__restrict__ b, float4 *__restrict__ c, size_t n16) {
  size_t i = (size_t)blockIdx.x * 1024 + threadIdx.x;
#pragma unroll
  for (int j = 0; j < 4; j++)
    if (i + j * 256 < n16) {
      float4 x = a[i + j * 256], y = b[i + j * 256];
      c[i + j * 256] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
}



/* ---- t47h2's sections: the softmax row's units (rowchain), cp.async zero-fill (zfill), re-launched
 * write and copy streams (l2write) ---- */

/* one Triton softmax row of 1024 f32 by 256 threads (tutorial 02's loop body, PTX as Triton 3.9 writes
 * it): ld.shared.v4, a max over 4, 5 shfl.bfly, st.shared of the warp's max, bar.sync, ld.shared, 3
 * shfl.bfly, x - max, * log2 e, 4 ex2.approx.f32, bar.sync, the same reduction for the sum, 4
 * div.full.f32, and the row's store (OUT 0: st.shared.v4; OUT 1: st.global.v4 to the CTA's own 4 KiB,
 * L2-resident). No global load: the row's data is in shared memory. ITERS rows back to back. */
__device__ __forceinline__ float shfl_x(float v, int o) {
  float r;
  asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 31, -1;" : "=f"(r) : "f"(v), "r"(o));
  return r;
}
__device__ __forceinline__ float ex2f(float x) {
  float r;
  asm volatile("ex2.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}
__device__ __forceinline__ float divf(float a, float b) {
  float r;
  asm volatile("div.full.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
}
template <int OUT>
__global__ void __launch_bounds__(256) rowchain_kernel(int iters, float4 *gout, unsigned long long *cyc) {
  __shared__ __align__(16) float row[1024];
  __shared__ __align__(16) float out[1024];
  __shared__ float red[8];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += 256) row[i] = (float)((i * 37) % 101) * 0.01f;
  __syncthreads();
  uint64_t c0 = clock64();
  for (int it = 0; it < iters; it++) {
    __syncthreads();
    float4 v = ((float4 *)row)[t];
    float m = fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w));
    for (int o = 16; o; o >>= 1) m = fmaxf(m, shfl_x(m, o));
    red[t >> 5] = m;
    __syncthreads();
    float m2 = red[t & 7];
    for (int o = 4; o; o >>= 1) m2 = fmaxf(m2, shfl_x(m2, o));
    const float l2e = 1.44269504f;
    float e0 = ex2f((v.x - m2) * l2e), e1 = ex2f((v.y - m2) * l2e), e2 = ex2f((v.z - m2) * l2e), e3 = ex2f((v.w - m2) * l2e);
    __syncthreads();
    float s = (e0 + e1) + (e2 + e3);
    for (int o = 16; o; o >>= 1) s += shfl_x(s, o);
    red[t >> 5] = s;
    __syncthreads();
    float s2 = red[t & 7];
    for (int o = 4; o; o >>= 1) s2 += shfl_x(s2, o);
    float4 r = make_float4(divf(e0, s2), divf(e1, s2), divf(e2, s2), divf(e3, s2));
    if (OUT) gout[(size_t)blockIdx.x * 256 + t] = r;
    else ((float4 *)out)[t] = r;
  }
  __syncthreads();
  uint64_t c1 = clock64();
  if (t == 0) cyc[blockIdx.x] = c1 - c0;
  if (!OUT && out[t] == 12345.f) gout[0] = make_float4(0, 0, 0, 0);
}

/* bar.sync back to back in CTAS_PER_SM co-resident CTAs of THREADS on every SM */
__global__ void bar_occ_kernel(int iters, unsigned long long *cyc) {
  __syncthreads();
  uint64_t c0 = clock64();
  for (int i = 0; i < iters; i++) asm volatile("bar.sync 0;" ::: "memory");
  uint64_t c1 = clock64();
  if (threadIdx.x == 0) cyc[blockIdx.x] = c1 - c0;
}

/* cp.async.cg 16 B with a source size (16: a copy; 0: a zero-fill, Triton's prologue past a CTA's last
 * row), STAGES in flight, as cpasync_kernel */
template <int STAGES>
__global__ void __launch_bounds__(1024) cpasync_zf_kernel(const char *src, size_t set_bytes, int pt, int iters, int srcsize,
                                                          unsigned long long *cyc) {
  extern __shared__ __align__(128) char sc[];
  uint32_t sbase = (uint32_t)__cvta_generic_to_shared(sc);
  size_t stage = (size_t)blockDim.x * pt * 16, nchunks = set_bytes / stage, chunk = (size_t)blockIdx.x * 7919;
  uint64_t c0 = clock64();
  for (int i = 0; i < iters; i++) {
    const char *g = src + ((chunk + i) % nchunks) * stage;
    uint32_t s = sbase + (uint32_t)((i % STAGES) * stage);
    for (int v = 0; v < pt; v++) {
      uint32_t off = (uint32_t)((v * blockDim.x + threadIdx.x) * 16);
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(s + off), "l"(g + off), "r"(srcsize) : "memory");
    }
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.wait_group %0;" ::"n"(STAGES - 1) : "memory");
  }
  asm volatile("cp.async.wait_all;" ::: "memory");
  __syncthreads();
  uint64_t c1 = clock64();
  if (threadIdx.x == 0) cyc[blockIdx.x] = c1 - c0;
}

/* re-launched streams with writes: every thread 4 independent 16-byte elements, one pass */
__global__ void __launch_bounds__(256) stream_write_kernel(uint4 *p, size_t n16) {
  size_t i = (size_t)blockIdx.x * 1024 + threadIdx.x;
#pragma unroll
  for (int j = 0; j < 4; j++)
    if (i + j * 256 < n16) p[i + j * 256] = make_uint4((uint32_t)i, j, 1, 2);
}
__global__ void __launch_bounds__(256) stream_copy_kernel(const uint4 *__restrict__ a, uint4 *__restrict__ c, size_t n16) {
  size_t i = (size_t)blockIdx.x * 1024 + threadIdx.x;
#pragma unroll
  for (int j = 0; j < 4; j++)
    if (i + j * 256 < n16) c[i + j * 256] = a[i + j * 256];
}

/* L1 hits of ld.global (.ca): every CTA re-reads its own SET bytes (first pass untimed), 16-byte loads */
__global__ void __launch_bounds__(1024) l1_read_kernel(const char *src, int set, int iters, unsigned long long *cyc, uint32_t *sink) {
  const char *base = src + (size_t)blockIdx.x * set;
  uint32_t acc = 0, n = set / 16;
  for (uint32_t i = threadIdx.x; i < n; i += blockDim.x) {
    uint32_t x, y, z, w;
    asm volatile("ld.global.ca.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "l"(base + 16 * i));
    acc ^= x ^ y ^ z ^ w;
  }
  __syncthreads();
  uint64_t c0 = clock64();
  for (int it = 0; it < iters; it++)
    for (uint32_t i = threadIdx.x; i < n; i += blockDim.x) {
      uint32_t x, y, z, w;
      asm volatile("ld.global.ca.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "l"(base + 16 * i));
      acc ^= x ^ y ^ z ^ w;
    }
  __syncthreads();
  uint64_t c1 = clock64();
  if (threadIdx.x == 0) cyc[blockIdx.x] = c1 - c0;
  if (acc == 0x12345678u) sink[0] = acc;
}
/* L1-hit latency: a pointer chase with ld.global.ca over a 16 KiB set walked first */
__global__ void l1_chase_kernel(uint64_t *start, int steps, unsigned long long *cyc, uint64_t *sink) {
  uint64_t p = (uint64_t)start;
  for (int i = 0; i < steps; i++) asm volatile("ld.global.ca.u64 %0, [%0];" : "+l"(p));
  uint64_t c0 = clock64();
  for (int i = 0; i < steps; i++) asm volatile("ld.global.ca.u64 %0, [%0];" : "+l"(p));
  uint64_t c1 = clock64();
  cyc[0] = c1 - c0;
  if (p == 1) sink[0] = p;
}


/* ---- t47r's section: issue/latency interference (intf) ----
 * One warp per SM sub-partition per CTA (128 threads: warp w on scheduler w mod 4, as the R2P mask
 * kernels' CTAs), C CTAs an SM (the dynamic shared memory caps occupancy at exactly C; grid = SMs x C,
 * all co-resident). Each thread runs ITERS iterations of 16 links of a dependent chain (CH 0: FFMA,
 * latency ~4 clk; CH 1: MUFU.EX2, ~17 clk, on the SFU pipe) with J independent operations after each
 * link (CH 2: ld.shared.u32 pointer chase, ~29 clk, one LSU op), on 8 rotating registers: MIX 0 FFMA; MIX 1 setp.lt.s32 + selp.b32 (compare masking as ptxas
 * emits it: ISETP + SEL on the ALU pipe); MIX 2 mad.lo.u32 (IMAD). One CTA alone measures the warp's
 * path P; C CTAs share each scheduler's issue slot. clk per iteration per CTA (median CTA, clock64). */
/* t47r2: each CTA's start and end (clock64, the SM's own counter) and its SM, for the SM's span and mean
 * CTA (a row's median CTA is one rank of the SM's finishing order, docs/timing.md run 6) */
#define INTF_MAX_CTA 4096
__device__ unsigned long long intf_t[2 * INTF_MAX_CTA];
__device__ unsigned intf_sm[INTF_MAX_CTA];
/* the end of a timed loop (intf, mufu, alushare): the CTA's cycles (cyc) and, for intf_sm_rows, its
 * start, end (clock64) and SM. A macro, not a function: the kernels' PTX stays as it was (an inlined
 * __device__ function renumbers their registers) */
#define INTF_RECORD(cyc, c0)                                                                    \
  do {                                                                                          \
    __syncthreads();                                                                            \
    uint64_t c1 = clock64();                                                                    \
    if (threadIdx.x == 0) {                                                                     \
      cyc[blockIdx.x] = c1 - c0;                                                                \
      if (blockIdx.x < INTF_MAX_CTA) {                                                          \
        unsigned sm;                                                                            \
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));                                         \
        intf_t[2 * blockIdx.x] = c0, intf_t[2 * blockIdx.x + 1] = c1, intf_sm[blockIdx.x] = sm; \
      }                                                                                         \
    }                                                                                           \
  } while (0)
template <int CH, int MIX, int J>
__global__ void __launch_bounds__(128) intf_kernel(int iters, unsigned long long *cyc, uint32_t *sink) {
  extern __shared__ uint32_t intf_pad[];
  uint32_t x = 0x3f000000u + threadIdx.x, a = 0x3f7fbe77u /* 0.999 */, b = 0x3f000000u, hi = 1000 + threadIdx.x,
           k = 7u * threadIdx.x;
  uint32_t y[8];
  for (int i = 0; i < 8; i++) y[i] = 0x3f000000u + threadIdx.x * 8 + i;
  if (CH == 2) {
    x = (uint32_t)__cvta_generic_to_shared(&intf_pad[threadIdx.x]);
    intf_pad[threadIdx.x] = x; /* each lane chases its own word */
  }
  __syncthreads();
  uint64_t c0 = clock64();
#pragma unroll 1
  for (int it = 0; it < iters; it++) {
#pragma unroll
    for (int l = 0; l < 16; l++) {
      if (CH == 0) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+r"(x) : "r"(a), "r"(b));
      else if (CH == 1) asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+r"(x));
      else asm volatile("ld.volatile.shared.u32 %0, [%0];" : "+r"(x) :: "memory");
#pragma unroll
      for (int j = 0; j < J; j++) {
        const int r = (l * J + j) % 8;
        if (MIX == 0) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+r"(y[r]) : "r"(a), "r"(b));
        if (MIX == 1) asm volatile("{.reg .pred p; setp.lt.s32 p, %0, %1; selp.b32 %0, %0, %2, p;}" : "+r"(y[r]) : "r"(hi), "r"(k));
        if (MIX == 2) asm volatile("mad.lo.u32 %0, %0, %1, %0;" : "+r"(y[r]) : "r"(a));
      }
    }
  }
  INTF_RECORD(cyc, c0);
  uint32_t s = x;
  for (int i = 0; i < 8; i++) s ^= y[i];
  if (s == 0x12345678u) sink[0] = s + intf_pad[0];
}


/* ---- t47r's section: issue rates of the compare/select/min/max SASS (alu): 8 coupled chains a
 * thread as issue_kernel, 32 warps an SM; one PTX statement a link: FSEL (selp.f32 on a fixed
 * predicate), FMNMX (max.f32), SEL (selp.b32), IMNMX (max.s32), FSETP+FSEL and ISETP+SEL pairs
 * (setp then selp on its predicate: compare masking), SHF (shf.l.wrap), PRMT, FADD, FMUL ---- */
/* t47s (run 8): FADD/FMUL on values that stay finite (8 independent chains adding a runtime 0.0 or
 * multiplying by a runtime 1.0: run 6/7's coupled chains overflow to Inf or underflow to 0 within a
 * trip), and two pipe-sharing mixes, alternate chains: IMAD with LOP3 (IMAD on the ALU pipe with LOP3:
 * 2 clk an instruction; on another pipe: 1) and IMAD with FFMA */
enum { A_FSEL, A_FMNMX, A_SEL, A_IMNMX, A_FSETP_FSEL, A_ISETP_SEL, A_SHF, A_PRMT, A_FADD, A_FMUL,
       A_FADD_FIN, A_FMUL_FIN, A_IMAD_LOP3, A_IMAD_FFMA, A_N };
static const char *alu_name[A_N] = {"fsel", "fmnmx", "sel", "imnmx", "fsetp_fsel", "isetp_sel", "shf", "prmt", "fadd", "fmul",
                                    "fadd_finite", "fmul_finite", "imad_lop3", "imad_ffma"};
static const int alu_insns[A_N] = {1, 1, 1, 1, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1};
template <int OP> __global__ void __launch_bounds__(1024) alu_kernel(int iters, unsigned long long *cyc, uint32_t *sink) {
  uint32_t r[8];
  for (int i = 0; i < 8; i++) r[i] = 0x3f000000u + threadIdx.x * 8 + i;
  uint32_t pv = threadIdx.x & 1;
  const uint32_t zero = iters < 0 ? 1u : 0u, f0 = zero ? 0x3f800000u : 0u /* 0.0f */, f1 = zero ? 0u : 0x3f800000u /* 1.0f */;
  __syncthreads();
  uint64_t c0 = clock64();
#pragma unroll 1
  for (int it = 0; it < iters; it++) {
#pragma unroll
    for (int u = 0; u < 16; u++) {
#define S(a, b)                                                                                                            \
  if (OP == A_FSEL) asm volatile("{.reg .pred p; setp.ne.u32 p, %2, 0; selp.f32 %0, %0, %1, p;}" : "+r"(r[a]) : "r"(r[b]), "r"(pv)); \
  if (OP == A_FMNMX) asm volatile("max.f32 %0, %0, %1;" : "+r"(r[a]) : "r"(r[b]));                                       \
  if (OP == A_SEL) asm volatile("{.reg .pred p; setp.ne.u32 p, %2, 0; selp.b32 %0, %0, %1, p;}" : "+r"(r[a]) : "r"(r[b]), "r"(pv)); \
  if (OP == A_IMNMX) asm volatile("max.s32 %0, %0, %1;" : "+r"(r[a]) : "r"(r[b]));                                       \
  if (OP == A_FSETP_FSEL) asm volatile("{.reg .pred p; setp.lt.f32 p, %0, %1; selp.f32 %0, %0, %1, p;}" : "+r"(r[a]) : "r"(r[b])); \
  if (OP == A_ISETP_SEL) asm volatile("{.reg .pred p; setp.lt.s32 p, %0, %1; selp.b32 %0, %2, %0, p;}" : "+r"(r[a]) : "r"(r[b]), "r"(pv)); \
  if (OP == A_SHF) asm volatile("shf.l.wrap.b32 %0, %0, %1, %1;" : "+r"(r[a]) : "r"(r[b]));                                \
  if (OP == A_PRMT) asm volatile("prmt.b32 %0, %0, %1, 0x5140;" : "+r"(r[a]) : "r"(r[b]));                                 \
  if (OP == A_FADD) asm volatile("add.f32 %0, %0, %1;" : "+r"(r[a]) : "r"(r[b]));                                         \
  if (OP == A_FMUL) asm volatile("mul.f32 %0, %0, %1;" : "+r"(r[a]) : "r"(r[b]));                                         \
  if (OP == A_FADD_FIN) asm volatile("add.f32 %0, %0, %1;" : "+r"(r[a]) : "r"(f0));                                        \
  if (OP == A_FMUL_FIN) asm volatile("mul.f32 %0, %0, %1;" : "+r"(r[a]) : "r"(f1));                                        \
  if (OP == A_IMAD_LOP3 && (a & 1)) asm volatile("mad.lo.u32 %0, %0, %1, %0;" : "+r"(r[a]) : "r"(r[b]));                 \
  if (OP == A_IMAD_LOP3 && !(a & 1)) asm volatile("lop3.b32 %0, %0, %1, 0x5bd1e995, 0x96;" : "+r"(r[a]) : "r"(r[b]));    \
  if (OP == A_IMAD_FFMA && (a & 1)) asm volatile("mad.lo.u32 %0, %0, %1, %0;" : "+r"(r[a]) : "r"(r[b]));                 \
  if (OP == A_IMAD_FFMA && !(a & 1)) asm volatile("fma.rn.f32 %0, %0, %1, 0f3F000000;" : "+r"(r[a]) : "r"(r[b]));
      CH8(S)
#undef S
    }
  }
  __syncthreads();
  uint64_t c1 = clock64();
  if (threadIdx.x == 0) cyc[blockIdx.x] = c1 - c0;
  uint32_t s = 0;
  for (int i = 0; i < 8; i++) s ^= r[i];
  if (s == 0x12345678u) sink[0] = s;
}

/* ---------------- host ---------------- */
static unsigned long long *dcyc;
static uint32_t *dsink;

static double median_cyc(int n) {
  std::vector<unsigned long long> h(n);
  CK(cudaMemcpy(h.data(), dcyc, n * 8, cudaMemcpyDeviceToHost));
  std::sort(h.begin(), h.end());
  return (double)h[n / 2];
}

/* an issue rate (run 3's issue_* and run 6's alu sections, one logic since t47s): KERNEL(iters, cyc,
 * sink) on every SM, 1024 threads, 16 x 8 statements of INSNS instructions a trip; clk per
 * warp-instruction per scheduler from clock64 (median SM), and with EVENTS also from CUDA events */
typedef void (*rate_kernel)(int, unsigned long long *, uint32_t *);
static void issue_rate(rate_kernel k, const char *name, int insns, const char *unit_of_stmt, int iters, bool events) {
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  k<<<nsm, 1024>>>(2, dcyc, dsink);
  CK(cudaEventRecord(e0));
  k<<<nsm, 1024>>>(iters, dcyc, dsink);
  CK(cudaEventRecord(e1));
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  float ms = 0;
  CK(cudaEventElapsedTime(&ms, e0, e1));
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
  double c = median_cyc(nsm), winsn = 32.0 * iters * 16 * 8 * insns; /* warp-instructions per SM */
  char key[64], how[300];
  if (events) { /* t47s: the launch's wall time (CUDA events) at the measured clock, beside clock64 */
    snprintf(key, sizeof key, "issue_%s_events", name);
    emit(key, ms * 1e-3 * clock_ghz * 1e9 * 4 / winsn, "clk/warp-insn",
         "the same launch timed by CUDA events (launch included) at clock_mhz: an upper bound on clock64's figure");
  }
  snprintf(key, sizeof key, "issue_%s", name);
  snprintf(how, sizeof how,
           "%d SMs x 1024 threads, 8 coupled chains a thread, %d %s; clk per warp-insn per scheduler "
           "(4 schedulers/SM), clock64 median over SMs",
           nsm, insns, unit_of_stmt);
  emit(key, c * 4 / winsn, "clk/warp-insn", how);
}

template <int OP> static void issue(int iters) { issue_rate(issue_kernel<OP>, op_name[OP], op_insns[OP], "PTX insns/stmt", iters, false); }

template <int OP> static void latency(int iters, int insns) {
  lat_kernel<OP><<<1, 32>>>(2, dcyc, dsink);
  lat_kernel<OP><<<1, 32>>>(iters, dcyc, dsink);
  CK(cudaDeviceSynchronize());
  double c = median_cyc(1);
  char key[64];
  snprintf(key, sizeof key, "lat_%s", op_name[OP]);
  emit(key, c / (iters * 32.0 * insns), "clk", "one warp, one dependent chain (clock64), per instruction");
}

template <int T, int N> static void wgmma_one(double *lat_out, double *thr_out) {
  auto k = wgmma_kernel<T, N>;
  int smem = 40960 + 1024;
  CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  /* latency: one warpgroup, one wgmma per commit, waited */
  k<<<1, 128, smem>>>(4, 1, 1, dcyc, dsink);
  k<<<1, 128, smem>>>(256, 1, 1, dcyc, dsink);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  double lat = median_cyc(1) / 256;
  /* throughput: every SM, W warpgroups, 16 wgmmas per commit, wait_group 1 */
  double best = 0;
  for (int W = 1; W <= 2; W++) {
    int iters = 64;
    k<<<nsm, 128 * W, smem>>>(iters, 16, 0, dcyc, dsink);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    double c = median_cyc(nsm);
    double flop = 2.0 * 64 * N * tk[T] * 16 * iters * W;
    double f = flop / c;
    char key[64], how[200];
    snprintf(key, sizeof key, "wgmma_%s_n%d_w%d", tname[T], N, W);
    snprintf(how, sizeof how, "m64n%dk%d, A and B in shared memory, %d warpgroup(s)/SM, 16 per commit, %d SMs", N, tk[T], W,
             nsm);
    emit(key, f, "FLOP/clk/SM", how);
    best = std::max(best, f);
  }
  char key[64];
  snprintf(key, sizeof key, "wgmma_%s_n%d_lat", tname[T], N);
  emit(key, lat, "clk", "one wgmma, commit, wait_group 0, repeated (clock64), one warpgroup");
  *lat_out = lat;
  *thr_out = best;
}


/* ---- t47h's sections: mma.sync, ldmatrix, cp.async pipelines, L2 residency across re-launches ---- */
static void sec_mma() {
  /* throughput: 32 warps/SM, 4 chains each; one warp per scheduler, 8 chains; latency: one chain */
  struct {
    const char *key;
    int threads, chains;
  } cfg[] = {{"mma_sync_f16_w32", 1024, 4}, {"mma_sync_f16_w4", 128, 8}};
  for (auto &c : cfg) {
    int iters = 32;
    if (c.chains == 4) {
      mma_sync_kernel<4><<<nsm, c.threads>>>(2, dcyc, dsink);
      mma_sync_kernel<4><<<nsm, c.threads>>>(iters, dcyc, dsink);
    } else {
      mma_sync_kernel<8><<<nsm, c.threads>>>(2, dcyc, dsink);
      mma_sync_kernel<8><<<nsm, c.threads>>>(iters, dcyc, dsink);
    }
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    double cyc = median_cyc(nsm), n = (c.threads / 32.0) * iters * 8 * c.chains; /* mma.sync per SM */
    char how[200];
    snprintf(how, sizeof how, "mma.sync.m16n8k16.row.col.f32.f16.f16.f32, %d warps/SM x %d independent accumulators, every SM (clock64)",
             c.threads / 32, c.chains);
    emit(c.key, 4096.0 * n / cyc, "FLOP/clk/SM", how);
    char key[64];
    snprintf(key, sizeof key, "%s_issue", c.key);
    emit(key, cyc * 4 / n, "clk/warp-insn", "the same: clk per mma.sync per scheduler (4 schedulers/SM)");
  }
  mma_sync_kernel<1><<<1, 32>>>(2, dcyc, dsink);
  mma_sync_kernel<1><<<1, 32>>>(64, dcyc, dsink);
  CK(cudaDeviceSynchronize());
  emit("mma_sync_f16_lat", median_cyc(1) / (64.0 * 8), "clk", "mma.sync m16n8k16 f16->f32, one warp, one dependent accumulator chain");
  /* ldmatrix.x4 */
  CK(cudaFuncSetAttribute(ldmatrix_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
  ldmatrix_kernel<<<nsm, 1024, 65536>>>(2, dcyc, dsink);
  ldmatrix_kernel<<<nsm, 1024, 65536>>>(64, dcyc, dsink);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  double c = median_cyc(nsm), n = 32.0 * 64 * 16;
  emit("ldmatrix_x4_bytes_per_clk", 512.0 * n / c, "B/clk/SM", "ldmatrix.sync.m8n8.x4.shared.b16, 32 warps/SM, conflict-free rows, every SM (clock64)");
  emit("ldmatrix_x4_clk_per_insn_sm", c / n, "clk/warp-insn/SM", "the same: SM clk per ldmatrix.x4 (512 B)");
}

static void warm_l2(const char *buf, size_t bytes) {
  read_kernel<<<nsm * 4, 512>>>((const uint4 *)buf, bytes / 16, 2, dsink);
  CK(cudaDeviceSynchronize());
}

template <int S> static double cpasync_run(const char *src, size_t set, int grid, int threads, int pt, int iters) {
  int smem = S * threads * pt * 16;
  CK(cudaFuncSetAttribute(cpasync_kernel<S>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  cpasync_kernel<S><<<grid, threads, smem>>>(src, set, pt, iters, dcyc);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  return median_cyc(grid);
}

static void sec_cpasync(char *buf, size_t big) {
  size_t l2set = (size_t)16 << 20;
  struct {
    const char *key;
    int sms, per_sm, threads, pt, stages, hbm, iters;
  } cfg[] = {
      /* latency: one stage, waited */
      {"cpasync_lat_512_l2", 1, 1, 32, 1, 1, 0, 256},
      {"cpasync_lat_16k_l2", 1, 1, 128, 8, 1, 0, 256},
      {"cpasync_lat_512_hbm", 1, 1, 32, 1, 1, 1, 256},
      {"cpasync_lat_16k_hbm", 1, 1, 128, 8, 1, 1, 256},
      /* one SM alone: 16 KiB stages (128 threads x 8 x 16 B), 2, 4, 8 in flight */
      {"cpasync_1sm_s2_l2", 1, 1, 128, 8, 2, 0, 512},
      {"cpasync_1sm_s4_l2", 1, 1, 128, 8, 4, 0, 512},
      {"cpasync_1sm_s8_l2", 1, 1, 128, 8, 8, 0, 512},
      {"cpasync_1sm_s4_hbm", 1, 1, 128, 8, 4, 1, 512},
      {"cpasync_1sm_s8_hbm", 1, 1, 128, 8, 8, 1, 512},
      /* every SM */
      {"cpasync_allsm_s2_l2", 0, 1, 128, 8, 2, 0, 512},
      {"cpasync_allsm_s4_l2", 0, 1, 128, 8, 4, 0, 512},
      {"cpasync_allsm_s8_l2", 0, 1, 128, 8, 8, 0, 512},
      {"cpasync_allsm_2cta_s4_l2", 0, 2, 128, 8, 4, 0, 512},
      {"cpasync_allsm_3cta_s4_l2", 0, 3, 128, 8, 4, 0, 512},
      {"cpasync_allsm_8cta64_s4_l2", 0, 8, 64, 4, 4, 0, 512},
      {"cpasync_allsm_s4_hbm", 0, 1, 128, 8, 4, 1, 512},
      {"cpasync_allsm_s8_hbm", 0, 1, 128, 8, 8, 1, 512},
  };
  for (auto &c : cfg) {
    int grid = (c.sms ? c.sms : nsm) * c.per_sm;
    const char *src = c.hbm ? buf : buf + big - l2set;
    size_t set = c.hbm ? big - l2set : l2set;
    if (!c.hbm) warm_l2(src, set);
    double cyc = 0;
    switch (c.stages) {
    case 1: cyc = cpasync_run<1>(src, set, grid, c.threads, c.pt, c.iters); break;
    case 2: cyc = cpasync_run<2>(src, set, grid, c.threads, c.pt, c.iters); break;
    case 4: cyc = cpasync_run<4>(src, set, grid, c.threads, c.pt, c.iters); break;
    default: cyc = cpasync_run<8>(src, set, grid, c.threads, c.pt, c.iters); break;
    }
    double stage = (double)c.threads * c.pt * 16;
    char how[240];
    if (c.stages == 1) {
      snprintf(how, sizeof how, "cp.async.cg 16 B x %d threads x %d (%.0f B), commit, wait_group 0, repeated; one CTA, source %s (clock64)",
               c.threads, c.pt, stage, c.hbm ? "a 4 GiB set (DRAM)" : "a 16 MiB L2-resident set");
      emit(c.key, cyc / c.iters, "clk", how);
    } else {
      snprintf(how, sizeof how,
               "cp.async.cg 16 B, %d CTA(s)/SM x %d threads x %d per stage (%.0f B), %d stages in flight (wait_group %d), %s, source %s (clock64)",
               c.per_sm, c.threads, c.pt, stage, c.stages, c.stages - 1, c.sms ? "one SM" : "every SM",
               c.hbm ? "a 4 GiB set" : "a 16 MiB L2-resident set");
      emit(c.key, c.per_sm * stage * c.iters / cyc, "B/clk/SM", how);
    }
  }
}

/* a graph of k launches of one kernel on the same buffers, replayed: per-launch microseconds (median) */
template <class F> static double graph_us(F launch, int k) {
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaGraph_t gr;
  cudaGraphExec_t ge;
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  for (int i = 0; i < k; i++) launch(s);
  CK(cudaStreamEndCapture(s, &gr));
  CK(cudaGraphInstantiate(&ge, gr, 0));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  std::vector<float> v;
  for (int r = 0; r < 13; r++) {
    CK(cudaEventRecord(e0, s));
    CK(cudaGraphLaunch(ge, s));
    CK(cudaEventRecord(e1, s));
    CK(cudaEventSynchronize(e1));
    float ms;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    if (r >= 3) v.push_back(ms);
  }
  std::sort(v.begin(), v.end());
  CK(cudaGraphExecDestroy(ge));
  CK(cudaGraphDestroy(gr));
  CK(cudaStreamDestroy(s));
  return v[v.size() / 2] * 1000.0 / k;
}

/* L2 residency across re-launches: a read stream and an add stream (c = a + b) over working sets of
 * W MiB, launched back to back on the same buffers (CUDA-graph replay, no flush) */
static void sec_l2warm(char *buf) {
  int mib[] = {2, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 48, 64, 96, 128, 256};
  for (int m : mib) {
    size_t bytes = (size_t)m << 20, n16 = bytes / 16;
    unsigned grid = (unsigned)((n16 + 1023) / 1024);
    double us = graph_us([&](cudaStream_t s) { stream_read_kernel<<<grid, 256, 0, s>>>((const uint4 *)buf, n16, dsink); }, 20);
    char key[64], how[240];
    snprintf(key, sizeof key, "l2warm_read_us_%dmib", m);
    snprintf(how, sizeof how, "read stream of %d MiB (ld.global.v4, 4 a thread, %u CTAs of 256), 20 launches on the same buffer in a CUDA graph, median of 10 replays, per launch", m, grid);
    emit(key, us, "us", how);
    size_t a16 = n16 / 3; /* three arrays: the working set is a + b + c */
    unsigned g3 = (unsigned)((a16 + 1023) / 1024);
    float4 *a = (float4 *)buf, *b = a + a16, *c = b + a16;
    us = graph_us([&](cudaStream_t s) { stream_add_kernel<<<g3, 256, 0, s>>>(a, b, c, a16); }, 20);
    snprintf(key, sizeof key, "l2warm_add_us_%dmib", m);
    snprintf(how, sizeof how, "c = a + b over three arrays of %d MiB together (%u CTAs of 256), 20 launches on the same buffers in a CUDA graph, median of 10 replays, per launch", m, g3);
    emit(key, us, "us", how);
  }
}


/* ---- t47h2's host sections ---- */
static void sec_rowchain() {
  float4 *gout;
  CK(cudaMalloc(&gout, (size_t)nsm * 8 * 4096));
  int iters = 64;
  for (int out = 0; out < 2; out++)
    for (int per_sm : {1, 2, 4, 8}) {
      int grid = nsm * per_sm;
      for (int it : {2, iters}) {
        if (out) rowchain_kernel<1><<<grid, 256>>>(it, gout, dcyc);
        else rowchain_kernel<0><<<grid, 256>>>(it, gout, dcyc);
      }
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      char key[64], how[300];
      snprintf(key, sizeof key, "rowchain_%s_%dcta_clk", out ? "stg" : "sts", per_sm);
      snprintf(how, sizeof how,
               "tutorial 02's softmax row (1024 f32, 256 threads: ld.shared.v4, max, 5+3 shfl.bfly, 2 st/ld.shared, 4 bar.sync, 4 ex2, sum, "
               "4 div.full, st.%s.v4) from shared memory, %d CTA(s)/SM on every SM, clk per row per CTA (median CTA, clock64)",
               out ? "global" : "shared", per_sm);
      emit(key, median_cyc(grid) / iters, "clk", how);
    }
  /* whole launches of the same row loop under graph replay: 8 CTAs/SM x 132 SMs (1056 CTAs) of 4 rows,
   * and an empty kernel of the same grid (the launch's own cost) */
  {
    int grid = nsm * 8;
    double us = graph_us([&](cudaStream_t s) { rowchain_kernel<1><<<grid, 256, 0, s>>>(4, gout, dcyc); }, 20);
    char how[260];
    snprintf(how, sizeof how, "rowchain_stg (above), 4 rows a CTA, %d CTAs of 256 (8 a SM), 20 launches in a CUDA graph, median of 10 replays, per launch", grid);
    emit("rowchain_stg_launch4_us", us, "us", how);
    us = graph_us([&](cudaStream_t s) { rowchain_kernel<1><<<grid, 256, 0, s>>>(16, gout, dcyc); }, 20);
    snprintf(how, sizeof how, "the same, 16 rows a CTA");
    emit("rowchain_stg_launch16_us", us, "us", how);
    us = graph_us([&](cudaStream_t s) { bar_occ_kernel<<<grid, 256, 0, s>>>(0, dcyc); }, 20);
    snprintf(how, sizeof how, "an (almost) empty kernel, %d CTAs of 256 threads, 20 launches in a CUDA graph, median of 10 replays, per launch", grid);
    emit("launch_us_grid1056_256", us, "us", how);
  }
  CK(cudaFree(gout));
  for (int per_sm : {1, 8}) {
    int grid = nsm * per_sm;
    bar_occ_kernel<<<grid, 256>>>(16, dcyc);
    bar_occ_kernel<<<grid, 256>>>(4096, dcyc);
    CK(cudaDeviceSynchronize());
    char key[64], how[200];
    snprintf(key, sizeof key, "lat_bar_256_%dcta", per_sm);
    snprintf(how, sizeof how, "bar.sync 0 back to back, 256 threads a CTA, %d CTA(s)/SM on every SM (clock64, median CTA)", per_sm);
    emit(key, median_cyc(grid) / 4096, "clk", how);
  }
}

template <int S> static double cpasync_zf_run(const char *src, size_t set, int grid, int threads, int pt, int iters, int srcsize) {
  int smem = S * threads * pt * 16;
  CK(cudaFuncSetAttribute(cpasync_zf_kernel<S>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  cpasync_zf_kernel<S><<<grid, threads, smem>>>(src, set, pt, iters, srcsize, dcyc);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  return median_cyc(grid);
}
static void sec_zfill(char *buf, size_t big) {
  size_t l2set = (size_t)16 << 20;
  const char *src = buf + big - l2set;
  warm_l2(src, l2set);
  struct {
    const char *key;
    int per_sm, threads, srcsize;
  } cfg[] = {{"cpasync_allsm_8cta256_s4_l2", 8, 256, 16}, {"cpasync_allsm_8cta256_s4_zfill", 8, 256, 0},
             {"cpasync_allsm_1cta_s4_l2", 1, 128, 16},   {"cpasync_allsm_1cta_s4_zfill", 1, 128, 0}};
  for (auto &c : cfg) {
    int grid = nsm * c.per_sm, pt = c.threads == 256 ? 1 : 8;
    double cyc = cpasync_zf_run<4>(src, l2set, grid, c.threads, pt, 512, c.srcsize);
    double stage = (double)c.threads * pt * 16;
    char how[260];
    snprintf(how, sizeof how,
             "cp.async.cg 16 B, src-size %d, %d CTA(s)/SM x %d threads x %d per stage (%.0f B), 4 stages in flight (wait_group 3), every SM, "
             "source a 16 MiB L2-resident set (clock64)",
             c.srcsize, c.per_sm, c.threads, pt, stage);
    emit(c.key, c.per_sm * stage * 512 / cyc, "B/clk/SM", how);
  }
  /* latency of one zero-fill group: one warp, 512 B, wait_group 0 */
  {
    cpasync_zf_run<1>(src, l2set, 1, 32, 1, 16, 0);
    double cyc = cpasync_zf_run<1>(src, l2set, 1, 32, 1, 256, 0);
    emit("cpasync_lat_512_zfill", cyc / 256, "clk",
         "cp.async.cg 16 B src-size 0 x 32 threads (512 B zero-fill), commit, wait_group 0, repeated; one CTA (clock64)");
  }
}

static void sec_l2write(char *buf) {
  for (int m : {4, 8, 16, 24, 32, 36}) {
    size_t bytes = (size_t)m << 20, n16 = bytes / 16;
    unsigned grid = (unsigned)((n16 + 1023) / 1024);
    double us = graph_us([&](cudaStream_t s) { stream_write_kernel<<<grid, 256, 0, s>>>((uint4 *)buf, n16); }, 20);
    char key[64], how[260];
    snprintf(key, sizeof key, "l2warm_write_us_%dmib", m);
    snprintf(how, sizeof how, "write stream of %d MiB (st.global.v4, 4 a thread, %u CTAs of 256), 20 launches on the same buffer in a CUDA graph, median of 10 replays, per launch", m, grid);
    emit(key, us, "us", how);
    size_t h16 = n16 / 2; /* two arrays: read a, write c, the working set a + c */
    unsigned g2 = (unsigned)((h16 + 1023) / 1024);
    uint4 *a = (uint4 *)buf, *c = a + h16;
    us = graph_us([&](cudaStream_t s) { stream_copy_kernel<<<g2, 256, 0, s>>>(a, c, h16); }, 20);
    snprintf(key, sizeof key, "l2warm_copy_us_%dmib", m);
    snprintf(how, sizeof how, "c = a over two arrays of %d MiB together (%u CTAs of 256), 20 launches on the same buffers in a CUDA graph, median of 10 replays, per launch", m, g2);
    emit(key, us, "us", how);
  }
}

static void sec_l1(char *buf) {
  for (int set : {16384, 65536}) {
    l1_read_kernel<<<nsm, 1024>>>(buf, set, 64, dcyc, dsink);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    char key[64], how[200];
    snprintf(key, sizeof key, "l1_hit_bytes_per_clk_%dk", set / 1024);
    snprintf(how, sizeof how, "ld.global.ca.v4 re-reading the CTA's own %d KiB (read once first), 1024 threads/SM, every SM (clock64)", set / 1024);
    emit(key, 64.0 * set / median_cyc(nsm), "B/clk/SM", how);
  }
  chain_kernel<<<64, 256>>>((uint64_t *)buf, 128, 128); /* 128 slots 128 B apart: 16 KiB */
  CK(cudaDeviceSynchronize());
  l1_chase_kernel<<<1, 1>>>((uint64_t *)buf, 4096, dcyc, (uint64_t *)dsink);
  CK(cudaDeviceSynchronize());
  emit("l1_latency", median_cyc(1) / 4096, "clk", "ld.global.ca.u64 pointer chase, one thread, 128 slots 128 B apart (16 KiB), walked once first (L1 hits)");
}



template <int OP> static void alu_one(int iters) {
  issue_rate(alu_kernel<OP>, alu_name[OP], alu_insns[OP], "SASS a statement (the loop's SASS checked with nvdisasm)", iters,
             OP >= A_FADD);
}
static void sec_alu() {
  alu_one<A_FSEL>(64);
  alu_one<A_FMNMX>(64);
  alu_one<A_SEL>(64);
  alu_one<A_IMNMX>(64);
  alu_one<A_FSETP_FSEL>(64);
  alu_one<A_ISETP_SEL>(64);
  alu_one<A_SHF>(64);
  alu_one<A_PRMT>(64);
  alu_one<A_FADD>(64);
  alu_one<A_FMUL>(64);
  alu_one<A_FADD_FIN>(64);
  alu_one<A_FMUL_FIN>(64);
  alu_one<A_IMAD_LOP3>(64);
  alu_one<A_IMAD_FFMA>(64);
}

/* ---- t47s's section (run 8): a taken branch's cost against a chain's latency (loop). One warp on
 * every SM, one dependent FFMA chain of U links a loop trip (#pragma unroll 1 outside): a trip takes
 * U x L + b clk, so trips of U = 8, 16, 32, 64 separate FFMA's latency L from b (the loop's back
 * edge; ptxas puts the counter's UIADD3/ISETP beside the chain). Per trip, median SM (clock64). ---- */
template <int U> __global__ void loop_kernel(int iters, unsigned long long *cyc, uint32_t *sink) {
  uint32_t x = 0x3f000000u + threadIdx.x, a = 0x3f7fbe77u, b = 0x3f000000u;
  uint64_t c0 = clock64();
#pragma unroll 1
  for (int it = 0; it < iters; it++) {
#pragma unroll
    for (int l = 0; l < U; l++) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+r"(x) : "r"(a), "r"(b));
  }
  uint64_t c1 = clock64();
  if (threadIdx.x == 0) cyc[blockIdx.x] = c1 - c0;
  if (x == 0x12345678u) sink[0] = x;
}
template <int U> static void loop_one() {
  int iters = 16384 / U;
  loop_kernel<U><<<nsm, 32>>>(2, dcyc, dsink);
  loop_kernel<U><<<nsm, 32>>>(iters, dcyc, dsink);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  char key[64], how[200];
  snprintf(key, sizeof key, "loop_ffma_u%d", U);
  snprintf(how, sizeof how, "one warp an SM, every SM, a dependent FFMA chain of %d links a loop trip, %d trips; clk a trip (clock64, median SM)", U, iters);
  emit(key, median_cyc(nsm) / iters, "clk", how);
}
static void sec_loop() {
  loop_one<8>();
  loop_one<16>();
  loop_one<32>();
  loop_one<64>();
}

/* ---- t47r's host section: issue/latency interference ---- */
/* t47r2: per SM, the span (last end - first start of its CTAs) and the mean CTA, per iteration; the median
 * over the SMs holding exactly C CTAs. Rows KEY_span and KEY_mean beside KEY (the median CTA) */
static void intf_sm_rows(const char *key, int grid, int iters, int c) {
  int n = std::min(grid, INTF_MAX_CTA);
  std::vector<unsigned long long> t(2 * n);
  std::vector<unsigned> sm(n);
  CK(cudaMemcpyFromSymbol(t.data(), intf_t, sizeof(unsigned long long) * 2 * n));
  CK(cudaMemcpyFromSymbol(sm.data(), intf_sm, sizeof(unsigned) * n));
  std::map<unsigned, std::vector<int>> by;
  for (int b = 0; b < n; b++) by[sm[b]].push_back(b);
  std::vector<double> span, mean;
  for (auto &e : by) {
    if ((int)e.second.size() != c) continue;
    unsigned long long lo = ~0ull, hi = 0;
    double sum = 0;
    for (int b : e.second) lo = std::min(lo, t[2 * b]), hi = std::max(hi, t[2 * b + 1]), sum += (double)(t[2 * b + 1] - t[2 * b]);
    span.push_back((double)(hi - lo) / iters);
    mean.push_back(sum / c / iters);
  }
  if (span.empty()) return;
  std::sort(span.begin(), span.end());
  std::sort(mean.begin(), mean.end());
  char k2[96], how[200];
  snprintf(k2, sizeof k2, "%s_span", key);
  snprintf(how, sizeof how, "the same launch: per SM holding %d CTAs (%zu SMs), last CTA end - first CTA start (clock64) per iteration, median SM", c, span.size());
  emit(k2, span[span.size() / 2], "clk", how);
  snprintf(k2, sizeof k2, "%s_mean", key);
  snprintf(how, sizeof how, "the same launch: per SM holding %d CTAs (%zu SMs), the mean CTA (clock64) per iteration, median SM", c, mean.size());
  emit(k2, mean[mean.size() / 2], "clk", how);
}

template <int CH, int MIX, int J> static void intf_one() {
  auto kf = intf_kernel<CH, MIX, J>;
  static const char *chn[] = {"ffma", "ex2", "lds"}, *mixn[] = {"ffma", "isetp_sel", "imad"};
  /* about 300k clk a CTA at 16 CTAs an SM */
  int per_it = 16 * (1 + J * (MIX == 1 ? 2 : 1)) * (MIX == 2 ? 2 : 1) + (CH == 1 ? 128 : 0);
  int iters = std::max(48, 300000 / (16 * std::max(per_it, 16 * (CH == 2 ? 30 : CH ? 18 : 5))));
  int smem_sm = 233472 - 1024;
  for (int c : {1, 2, 3, 4, 6, 8, 12, 16}) {
    int smem = smem_sm / c - 1024; /* at least 13 KiB: CH 2 chases in its first 512 B */
    if (smem > 232448) smem = 232448;
    smem &= ~127;
    CK(cudaFuncSetAttribute(kf, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    int occ = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, kf, 128, smem));
    int grid = nsm * c;
    kf<<<grid, 128, smem>>>(2, dcyc, dsink);
    kf<<<grid, 128, smem>>>(iters, dcyc, dsink);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    char key[64], how[320];
    snprintf(key, sizeof key, "intf_%s_%s_j%d_c%d", chn[CH], mixn[MIX], J, c);
    snprintf(how, sizeof how,
             "16 links of a dependent %s chain, %d independent %s after each link, 1 warp a scheduler a CTA (128 threads), %d "
             "CTAs/SM (occupancy %d by %d B shared), every SM; clk per iteration per CTA (median CTA, clock64), %d iterations",
             CH == 2 ? "ld.shared" : CH ? "MUFU.EX2" : "FFMA", J, MIX == 1 ? "setp+selp pairs" : (MIX ? "IMAD" : "FFMA"), c, occ, smem, iters);
    emit(key, median_cyc(grid) / iters, "clk", how);
    intf_sm_rows(key, grid, iters, c);
  }
}
static void sec_intf() {
  intf_one<0, 0, 0>();
  intf_one<0, 0, 1>();
  intf_one<0, 0, 2>();
  intf_one<0, 0, 3>();
  intf_one<0, 0, 4>();
  intf_one<0, 0, 6>();
  intf_one<0, 0, 8>();
  intf_one<0, 0, 12>();
  intf_one<0, 1, 1>();
  intf_one<0, 1, 2>();
  intf_one<0, 1, 3>();
  intf_one<0, 1, 4>();
  intf_one<0, 1, 6>();
  intf_one<0, 2, 1>();
  intf_one<0, 2, 2>();
  intf_one<0, 2, 4>();
  intf_one<1, 0, 2>();
  intf_one<1, 0, 4>();
  intf_one<1, 0, 8>();
  intf_one<1, 0, 12>();
  intf_one<1, 1, 2>();
  intf_one<1, 1, 4>();
  intf_one<1, 1, 8>();
  intf_one<2, 0, 0>();
  intf_one<2, 0, 2>();
  intf_one<2, 0, 4>();
  intf_one<2, 0, 8>();
  intf_one<2, 0, 16>();
  intf_one<2, 1, 2>();
  intf_one<2, 1, 4>();
  intf_one<2, 1, 8>();
}

/* mufu's and alushare's launch (a kernel of intf's shape): C CTAs of 128 threads on every SM, dynamic
 * shared memory capping the SM at C CTAs (as intf), trips for about 400k clk at per_trip clk a trip a CTA
 * (iters at least 64); a warm launch of 2 trips, then the timed one between CUDA events */
struct share_launch {
  int iters, smem, occ, grid;
  float ms;
};
static share_launch share_run(void (*kf)(int, unsigned long long *, uint32_t *), int c, int per_trip) {
  share_launch L;
  int smem_sm = 233472 - 1024;
  L.iters = std::max(64, 400000 / (c * per_trip));
  L.smem = smem_sm / c - 1024;
  if (L.smem > 232448) L.smem = 232448;
  L.smem &= ~127;
  CK(cudaFuncSetAttribute(kf, cudaFuncAttributeMaxDynamicSharedMemorySize, L.smem));
  L.occ = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&L.occ, kf, 128, L.smem));
  L.grid = nsm * c;
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  kf<<<L.grid, 128, L.smem>>>(2, dcyc, dsink);
  CK(cudaEventRecord(e0));
  kf<<<L.grid, 128, L.smem>>>(L.iters, dcyc, dsink);
  CK(cudaEventRecord(e1));
  CK(cudaGetLastError());
  CK(cudaEventSynchronize(e1));
  L.ms = 0;
  CK(cudaEventElapsedTime(&L.ms, e0, e1));
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
  return L;
}
/* its rows: KEY (the median CTA, clk a trip), KEY_span and KEY_mean (intf_sm_rows), KEY_events */
static void share_emit(const char *key, const char *how, int c, const share_launch &L) {
  emit(key, median_cyc(L.grid) / L.iters, "clk", how);
  intf_sm_rows(key, L.grid, L.iters, c);
  char k2[96];
  snprintf(k2, sizeof k2, "%s_events", key);
  emit(k2, (double)L.ms * 1e3 * clock_ghz * 1e3 / L.iters, "clk",
       "the same launch timed by CUDA events (launch included), ms x clock_mhz / trips: clk a trip");
}

/* ---- t47v's section (run 10): the MUFU share at a fixed dispatch count (mufu). Each loop trip is
 * 4 groups of 16 slots; in each group K slots are MUFU.EX2 (ex2.approx.ftz.f32 on 8 rotating
 * independent chains) and 16 - K are MIX 0 FFMA or MIX 1 SEL (selp.b32 on a loop-invariant predicate:
 * ptxas hoists the setp), also on 8 rotating independent chains, the K MUFU spread evenly over the
 * group. So a trip is 64 warp-instructions (plus the loop's UIADD3/ISETP/branch) whatever K: the
 * dispatch count is fixed, the SFU work is 4K x issue_sfu. CTAs of 128 threads (one warp a scheduler),
 * C = 1, 4, 8, 16 CTAs an SM (capped by dynamic shared memory as intf), every SM. Rows: clk a trip a
 * CTA (median CTA, clock64), the SM's span (last end - first start) a trip (median SM, clock64), and
 * the launch by CUDA events at the measured clock, a trip; the span and events divided by C are clk
 * a warp-trip per scheduler. The EX2 chains overflow to +Inf within a few links (as intf's EX2 chain,
 * run 7): the timing of MUFU.EX2 on +Inf is what was measured. ---- */
template <int K, int MIX>
__global__ void __launch_bounds__(128) mufu_kernel(int iters, unsigned long long *cyc, uint32_t *sink) {
  extern __shared__ uint32_t mufu_pad[];
  uint32_t a = 0x3f7fbe77u /* 0.999 */, b = 0x3f000000u, pv = threadIdx.x & 1;
  uint32_t x[8], y[8];
  for (int i = 0; i < 8; i++) x[i] = 0x3e000000u + threadIdx.x * 8 + i, y[i] = 0x3f000000u + threadIdx.x * 8 + i;
  __syncthreads();
  uint64_t c0 = clock64();
#pragma unroll 1
  for (int it = 0; it < iters; it++) {
#pragma unroll
    for (int s = 0; s < 64; s++) {
      const int g = s % 16, q = s / 16;
      const bool mufu = ((g + 1) * K) / 16 > (g * K) / 16;
      const int nm = q * K + (g * K) / 16, no = q * (16 - K) + g - (g * K) / 16; /* this slot's rank in its kind */
      if (mufu) asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+r"(x[nm % 8]));
      else if (MIX == 0) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+r"(y[no % 8]) : "r"(a), "r"(b));
      else asm volatile("{.reg .pred p; setp.ne.u32 p, %2, 0; selp.b32 %0, %0, %1, p;}" : "+r"(y[no % 8]) : "r"(y[(no + 1) % 8]), "r"(pv));
    }
  }
  INTF_RECORD(cyc, c0);
  uint32_t r = 0;
  for (int i = 0; i < 8; i++) r ^= x[i] ^ y[i];
  if (r == 0x12345678u) sink[0] = r + mufu_pad[0];
}
template <int K, int MIX> static void mufu_one() {
  static const char *mixn[] = {"ffma", "sel"};
  for (int c : {1, 4, 8, 16}) {
    /* about 400k clk a launch: a trip is at least 66 dispatch clk, or 32 K SFU clk, a warp a scheduler */
    share_launch L = share_run(mufu_kernel<K, MIX>, c, std::max(66, 32 * K));
    char key[64], how[400];
    snprintf(key, sizeof key, "mufu_%s_k%d_c%d", mixn[MIX], K, c);
    snprintf(how, sizeof how,
             "a trip: 4 x (%d MUFU.EX2 + %d %s) on independent chains, 1 warp a scheduler a CTA (128 threads), %d CTAs/SM "
             "(occupancy %d by %d B shared), every SM; clk a trip a CTA (median CTA, clock64), %d trips",
             K, 16 - K, MIX ? "SEL" : "FFMA", c, L.occ, L.smem, L.iters);
    share_emit(key, how, c, L);
  }
}
template <int MIX> static void mufu_mix() {
  mufu_one<0, MIX>();
  mufu_one<1, MIX>();
  mufu_one<2, MIX>();
  mufu_one<3, MIX>();
  mufu_one<4, MIX>();
  mufu_one<6, MIX>();
  mufu_one<8, MIX>();
  mufu_one<12, MIX>();
  mufu_one<16, MIX>();
}
static void sec_mufu() {
  mufu_mix<0>();
  mufu_mix<1>();
}

/* ---- t47y's section (run 11): the ALU-pipe share at a fixed dispatch count (alushare). Each loop trip is
 * 64 slots; N = 0, 4, 8, 16, 24, 32, 40, 48 of them (share a = N/64 = 0 .. 3/4) are integer-ALU-pipe
 * instructions spread evenly over the trip, the rest FFMA (fma.rn.f32 on 8 rotating independent chains,
 * as mufu's MIX 0). The ALU slots rotate over LOP3 (xor), SHF (shf.l.wrap), IADD3 (a three-input add.u32 pair, which IMAD cannot take: ptxas turned two-input adds into IMAD.IADD) and an
 * ISETP + SEL pair (setp.lt.u32 on two chain values, selp.b32 against a loop-invariant register: not a
 * min/max, so ptxas keeps the two), on 8 rotating independent integer chains, each op reading the next
 * chain (no op folds into another: each result is read by two later ops). So a trip is 64
 * warp-instructions (plus the loop's UIADD3/ISETP/branch) whatever N (gpu/run.sh timing-alu-share
 * checks it in the SASS). CTAs of 128 threads (one warp a scheduler), C = 1, 2, 4, 5, 8 CTAs an SM
 * (capped by dynamic shared memory as intf); C = 5 is the shape of r2p_mask's local kernels (4 warps a
 * CTA, 19-20 warps an SM). Rows as mufu: the median CTA, the SM's span and mean (clock64, median SM),
 * and the launch by CUDA events at the measured clock, all a trip. Run 12 (alushare_KIND_nN_cC): the same trip
 * with one ALU kind alone (KIND 0 LOP3, 1 SHF, 2 IADD3, 3 ISETP+SEL pairs), N = 16, 32, 48, C = 4, 8. ---- */
template <int N, int KIND>
__global__ void __launch_bounds__(128) alushare_kernel(int iters, unsigned long long *cyc, uint32_t *sink) {
  extern __shared__ uint32_t alushare_pad[];
  uint32_t a = 0x3f7fbe77u /* 0.999 */, b = 0x3f000000u, inv = 0x9e3779b9u ^ threadIdx.x;
  uint32_t z[8], y[8];
  for (int i = 0; i < 8; i++) z[i] = 0x01234567u * (threadIdx.x * 8 + i + 1), y[i] = 0x3f000000u + threadIdx.x * 8 + i;
  __syncthreads();
  uint64_t c0 = clock64();
#pragma unroll 1
  for (int it = 0; it < iters; it++) {
#pragma unroll
    for (int s = 0; s < 64; s++) {
      const bool alu = ((s + 1) * N) / 64 > (s * N) / 64;
      const int r = (s * N) / 64, f = s - r; /* this slot's rank in its kind */
      const int kind = KIND == 3 ? 3 + r % 2 : KIND >= 0 ? KIND : (r % 5 == 3 && r == N - 1) ? 0 : r % 5;
      uint32_t &d = z[r % 8], &n = z[(r + 1) % 8];
      if (!alu) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+r"(y[f % 8]) : "r"(a), "r"(b));
      else if (kind == 0) asm volatile("xor.b32 %0, %0, %1;" : "+r"(d) : "r"(n));
      else if (kind == 1) asm volatile("shf.l.wrap.b32 %0, %0, %1, 7;" : "+r"(d) : "r"(n));
      else if (kind == 2) asm volatile("{.reg .u32 t; add.u32 t, %0, %1; add.u32 %0, t, %2;}" : "+r"(d) : "r"(n), "r"(inv));
      else if (kind == 3) asm volatile("{.reg .pred p; setp.lt.u32 p, %0, %1; selp.b32 %0, %0, %2, p;}" : "+r"(d) : "r"(n), "r"(inv));
      /* kind 4: the SEL of the pair above, already emitted */
    }
  }
  INTF_RECORD(cyc, c0);
  uint32_t res = 0;
  for (int i = 0; i < 8; i++) res ^= z[i] ^ y[i];
  if (res == 0x12345678u) sink[0] = res + alushare_pad[0];
}
template <int N, int KIND = -1> static void alushare_one(std::initializer_list<int> cs = {1, 2, 4, 5, 8}) {
  static const char *kn[] = {"lop3", "shf", "iadd3", "isetp_sel"};
  for (int c : cs) {
    /* about 400k clk a launch: a trip is at least 66 dispatch clk, or 2N ALU clk, a warp a scheduler */
    share_launch L = share_run(alushare_kernel<N, KIND>, c, std::max(66, 2 * N));
    char key[64], how[400];
    if (KIND < 0) snprintf(key, sizeof key, "alushare_n%d_c%d", N, c);
    else snprintf(key, sizeof key, "alushare_%s_n%d_c%d", kn[KIND], N, c);
    snprintf(how, sizeof how,
             "a trip: %d ALU-pipe (%s) + %d FFMA on independent chains, 1 warp a scheduler a CTA (128 "
             "threads), %d CTAs/SM (occupancy %d by %d B shared), every SM; clk a trip a CTA (median CTA, clock64), %d trips",
             N, KIND < 0 ? "LOP3/SHF/IADD3/ISETP+SEL" : kn[KIND], 64 - N, c, L.occ, L.smem, L.iters);
    share_emit(key, how, c, L);
  }
}
static void sec_alushare() {
  alushare_one<0>();
  alushare_one<4>();
  alushare_one<8>();
  alushare_one<16>();
  alushare_one<24>();
  alushare_one<32>();
  alushare_one<40>();
  alushare_one<48>();
  /* run 12: one ALU kind alone against FFMA (which of them the mix's excess belongs to) */
  alushare_one<16, 0>({4, 8});
  alushare_one<32, 0>({4, 8});
  alushare_one<48, 0>({4, 8});
  alushare_one<16, 1>({4, 8});
  alushare_one<32, 1>({4, 8});
  alushare_one<48, 1>({4, 8});
  alushare_one<16, 2>({4, 8});
  alushare_one<32, 2>({4, 8});
  alushare_one<48, 2>({4, 8});
  alushare_one<16, 3>({4, 8});
  alushare_one<32, 3>({4, 8});
  alushare_one<48, 3>({4, 8});
}
/* ---- t47i's section (run 13): the IMAD pipe's wide and high forms (imadw). Tutorial 04's Philox is 127
 * IMAD.HI.U32 and 111 IMAD of 520 SASS a warp; no run had measured the .HI / .WIDE forms. Each loop trip
 * is 64 slots on 8 rotating independent chains a thread; even slots are kind KA, odd slots kind KB (KA ==
 * KB: one kind alone; a mix puts both kinds on the same chain, one after the other: 4 links of each a chain
 * a trip). n is a loop-invariant register. Kinds: 0 IMAD (mad.lo.u32 d, d, K, n), 1 IMAD.HI.U32 (mad.hi.u32
 * d, d, K, n: Philox's register x immediate form; the addend keeps the values from decaying to 0; in SASS the
 * addend of IMAD.HI is a register pair, {0, n}), 2 IMAD.HI (signed, mad.hi.s32), 3 IMAD.WIDE.U32
 * (mul.wide.u32 w, lo(w), hi(w): both halves read, else
 * ptxas makes the links IMAD and folds a constant multiplier's powers; ptxas splits a 64-bit addend of a
 * loop-carried mad.wide into IMAD.WIDE ..., RZ + IADD3 + IADD3.X, so the RZ form is what a loop can time;
 * alone, the values reach 0 within a few dozen links: its rate is at zero operands after that; with kind 7
 * they do not),
 * 4 IMAD.WIDE (signed, mul.wide.s32), 5 LOP3 (xor with n: Philox's x = hi(x K) ^ key), 6 FFMA (separate f32
 * chains), 7 LOP3 on the high half of a wide chain (xor with n: keeps the IMAD.WIDE operands from 0). The SASS of
 * every loop body is recorded (gpu/run.sh timing-imad). CTAs of 128 threads (one warp a scheduler), C = 1,
 * 2, 4, 8 CTAs an SM on every SM (C warps a scheduler); rows as alushare (median CTA, the SM's span and
 * mean, CUDA events), all clk a trip; a warp-instruction per scheduler is the span / (64 C). LAT 1: one
 * warp alone, one dependent chain of KA (the addend loop-invariant), 64 links a trip: clk a link
 * (the loop's UIADD3/ISETP/BRA and the back edge included: run 8 puts those at about 6 clk a trip). ---- */
template <int KIND>
__device__ __forceinline__ void imadw_op(uint32_t &d, uint32_t n, unsigned long long &w, uint32_t &y, uint32_t a, uint32_t b) {
  if (KIND == 0) asm volatile("mad.lo.u32 %0, %0, 0xD2511F53, %1;" : "+r"(d) : "r"(n));
  if (KIND == 1) asm volatile("mad.hi.u32 %0, %0, 0xD2511F53, %1;" : "+r"(d) : "r"(n));
  if (KIND == 2) asm volatile("mad.hi.s32 %0, %0, 0xD2511F53, %1;" : "+r"(d) : "r"(n));
  if (KIND == 3) asm volatile("{.reg .u32 l, h; mov.b64 {l, h}, %0; mul.wide.u32 %0, l, h;}" : "+l"(w));
  if (KIND == 4) asm volatile("{.reg .u32 l, h; mov.b64 {l, h}, %0; mul.wide.s32 %0, l, h;}" : "+l"(w));
  if (KIND == 5) asm volatile("xor.b32 %0, %0, %1;" : "+r"(d) : "r"(n));
  if (KIND == 7) asm volatile("{.reg .u32 l, h; mov.b64 {l, h}, %0; xor.b32 h, h, %1; mov.b64 %0, {l, h};}" : "+l"(w) : "r"(n));
  if (KIND == 6) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+r"(y) : "r"(a), "r"(b));
}
template <int KA, int KB, int LAT>
__global__ void __launch_bounds__(128) imadw_kernel(int iters, unsigned long long *cyc, uint32_t *sink) {
  extern __shared__ uint32_t imadw_pad[];
  uint32_t a = 0x3f7fbe77u /* 0.999 */, b = 0x3f000000u, inv = 0x9e3779b9u ^ threadIdx.x;
  uint32_t z[8], y[8];
  unsigned long long w[8];
  for (int i = 0; i < 8; i++)
    z[i] = 0x01234567u * (threadIdx.x * 8 + i + 1), y[i] = 0x3f000000u + threadIdx.x * 8 + i,
    w[i] = 0x0123456789abcdefull * (threadIdx.x * 8 + i + 1) | 1;
  __syncthreads();
  uint64_t c0 = clock64();
#pragma unroll 1
  for (int it = 0; it < iters; it++) {
#pragma unroll
    for (int s = 0; s < 64; s++) {
      const int c = LAT ? 0 : KA == KB ? s % 8 : (s >> 1) % 8;
      const uint32_t n = inv;
      if (LAT || !(s & 1)) imadw_op<KA>(z[c], n, w[c], y[c], a, b);
      else imadw_op<KB>(z[c], n, w[c], y[c], a, b);
    }
  }
  INTF_RECORD(cyc, c0);
  uint32_t res = 0;
  for (int i = 0; i < 8; i++) res ^= z[i] ^ y[i] ^ (uint32_t)w[i] ^ (uint32_t)(w[i] >> 32);
  if (res == 0x12345678u) sink[0] = res + imadw_pad[0];
}
static const char *imadw_kn[] = {"imad", "imad_hi_u32", "imad_hi_s32", "imad_wide_u32", "imad_wide_s32", "lop3", "ffma", "lop3"};
template <int KA, int KB> static void imadw_one() {
  char key[64], how[400];
  if (KA == KB) snprintf(key, sizeof key, "imadw_%s", imadw_kn[KA]);
  else snprintf(key, sizeof key, "imadw_%s_%s", imadw_kn[KA], imadw_kn[KB]);
  for (int c : {1, 2, 4, 8}) {
    share_launch L = share_run(imadw_kernel<KA, KB, 0>, c, 256);
    char k2[80];
    snprintf(k2, sizeof k2, "%s_c%d", key, c);
    snprintf(how, sizeof how,
             "a trip: 32 %s + 32 %s alternating on 8 independent chains, 1 warp a scheduler a CTA (128 threads), %d CTAs/SM "
             "(occupancy %d by %d B shared), every SM; clk a trip a CTA (median CTA, clock64), %d trips",
             imadw_kn[KA], imadw_kn[KB], c, L.occ, L.smem, L.iters);
    share_emit(k2, how, c, L);
  }
  if (KA == KB && KA <= 4) {
    imadw_kernel<KA, KA, 1><<<1, 32, 0>>>(2, dcyc, dsink);
    imadw_kernel<KA, KA, 1><<<1, 32, 0>>>(1024, dcyc, dsink);
    CK(cudaDeviceSynchronize());
    char k3[80];
    snprintf(k3, sizeof k3, "%s_lat", key);
    emit(k3, median_cyc(1) / (1024.0 * 64), "clk",
         "one warp alone, one dependent chain, 64 links a trip, 1024 trips (clock64): clk a link, the loop's 3 SASS and back edge included");
  }
}
static void sec_imadw() {
  imadw_one<0, 0>();
  imadw_one<1, 1>();
  imadw_one<2, 2>();
  imadw_one<3, 3>();
  imadw_one<4, 4>();
  imadw_one<1, 5>(); /* Philox's mix: IMAD.HI.U32 with LOP3 */
  imadw_one<1, 6>(); /* IMAD.HI.U32 with FFMA: the FMA pipe? */
  imadw_one<1, 0>(); /* IMAD.HI.U32 with IMAD: one pipe? */
  imadw_one<3, 7>(); /* IMAD.WIDE.U32 with LOP3 (on the product's high half) */
  imadw_one<3, 6>(); /* IMAD.WIDE.U32 with FFMA */
}
int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: timing_micro OUT.tsv [SECTION...]   (sections: base mma cpasync l2warm l1 rowchain zfill l2write intf alu loop mufu alushare imadw; default all)\n");
/* ---- t47l's sections (run 14, issue 47): HBM read/write mixes (hbmmix) and L2 reuse against the
 * bytes in between (l2reuse) ---- */

/* a stream of NR read and NW write arrays, element i of each (16 B, 4 independent a thread, one pass):
 * NR 1 NW 0 reads, NR 0 NW 1 writes, NR 1 NW 1 a copy, NR 2 NW 1 c = a ^ b, NR 1 NW 2 c = d = a */
template <int NR, int NW>
__global__ void __launch_bounds__(256) mix_kernel(const uint4 *__restrict__ r0, const uint4 *__restrict__ r1, uint4 *__restrict__ w0,
                                                  uint4 *__restrict__ w1, size_t n16, uint32_t *sink) {
  size_t i = (size_t)blockIdx.x * 1024 + threadIdx.x;
  uint32_t acc = 0;
  uint4 v[4];
#pragma unroll
  for (int j = 0; j < 4; j++) {
    v[j] = make_uint4((uint32_t)i, j, 1, 2);
    if (NR >= 1) v[j] = r0[i + j * 256];
    if (NR >= 2) {
      uint4 u = r1[i + j * 256];
      v[j].x ^= u.x, v[j].y ^= u.y, v[j].z ^= u.z, v[j].w ^= u.w;
    }
  }
#pragma unroll
  for (int j = 0; j < 4; j++) {
    if (NW >= 1) w0[i + j * 256] = v[j];
    if (NW >= 2) w1[i + j * 256] = v[j];
    if (NW == 0) acc ^= v[j].x ^ v[j].y ^ v[j].z ^ v[j].w;
  }
  if (NW == 0 && acc == 0x12345678u) sink[0] = acc;
}

/* the timed re-read: a persistent grid (4 CTAs of 512 an SM, every SM) reads N bytes grid-strided, 4
 * independent 16-byte loads a thread in flight; each CTA writes its clock64 span to cyc[b] and its
 * %globaltimer start and end to gt[2b], gt[2b+1] */
__global__ void __launch_bounds__(512) reread_kernel(const uint4 *p, size_t n16, unsigned long long *cyc, unsigned long long *gt,
                                                     uint32_t *sink) {
  __syncthreads();
  uint64_t g0 = gtime(), c0 = clock64();
  size_t stride = (size_t)gridDim.x * blockDim.x, i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t acc = 0;
  for (; i + 3 * stride < n16; i += 4 * stride) {
    uint4 v[4];
#pragma unroll
    for (int j = 0; j < 4; j++) v[j] = p[i + j * stride];
#pragma unroll
    for (int j = 0; j < 4; j++) acc ^= v[j].x ^ v[j].y ^ v[j].z ^ v[j].w;
  }
  for (; i < n16; i += stride) {
    uint4 v = p[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  __syncthreads();
  uint64_t c1 = clock64(), g1 = gtime();
  if (threadIdx.x == 0) cyc[blockIdx.x] = c1 - c0, gt[2 * blockIdx.x] = g0, gt[2 * blockIdx.x + 1] = g1;
  if (acc == 0x12345678u) sink[0] = acc;
}

template <int NR, int NW> static void mix_one(char *buf, size_t S, const char *name) {
  size_t n16 = S / 16;
  unsigned grid = (unsigned)(n16 / 1024);
  const uint4 *r0 = (const uint4 *)buf, *r1 = (const uint4 *)(buf + S);
  uint4 *w0 = (uint4 *)(buf + 2 * S), *w1 = (uint4 *)(buf + 3 * S);
  double us = graph_us([&](cudaStream_t s) { mix_kernel<NR, NW><<<grid, 256, 0, s>>>(r0, r1, w0, w1, n16, dsink); }, 4);
  double bytes = (double)(NR + NW) * S;
  char key[64], how[300];
  snprintf(key, sizeof key, "hbmmix_%s_bytes_per_s", name);
  snprintf(how, sizeof how,
           "%d read and %d write arrays of %zu MiB each (16 B elements, 4 a thread, %u CTAs of 256), 4 launches in a CUDA graph, "
           "median of 10 replays; read + write bytes %.0f MiB a launch over its time",
           NR, NW, S >> 20, grid, bytes / 1048576);
  emit(key, bytes / (us * 1e-6), "B/s", how);
  snprintf(key, sizeof key, "hbmmix_%s_us", name);
  emit(key, us, "us", "the same, per launch");
}

static void sec_hbmmix(char *buf) {
  size_t S = (size_t)1 << 30; /* every array 1 GiB: 21 times L2 */
  mix_one<1, 0>(buf, S, "r");
  mix_one<0, 1>(buf, S, "w");
  mix_one<1, 1>(buf, S, "r1w1");
  mix_one<2, 1>(buf, S, "r2w1");
  mix_one<1, 2>(buf, S, "r1w2");
  mix_one<2, 0>(buf, S, "r2");
  mix_one<0, 2>(buf, S, "w2");
}

/* L2 reuse: after a flush (a 512 MiB read of a region of its own), X (N bytes) is read, then D bytes
 * of other, cold traffic (a read or a write stream over Y), then X is re-read and timed (reread_kernel).
 * Cold reference: flush, then the timed read (no first read). The share of the re-read served from L2,
 * hit = (t_cold - t) / (t_cold - t_l2), t_l2 = N at the L2 rate of the 8 MiB D = 0 re-read. */
static unsigned long long *dgt;
static double reread_us(const char *x, size_t N, double *us_gt) {
  int G = nsm * 4;
  reread_kernel<<<G, 512>>>((const uint4 *)x, N / 16, dcyc, dgt, dsink);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<unsigned long long> c(G), g(2 * G);
  CK(cudaMemcpy(c.data(), dcyc, G * 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(g.data(), dgt, 2 * G * 8, cudaMemcpyDeviceToHost));
  unsigned long long cmax = 0, g0 = ~0ull, g1 = 0;
  for (int b = 0; b < G; b++) cmax = std::max(cmax, c[b]), g0 = std::min(g0, g[2 * b]), g1 = std::max(g1, g[2 * b + 1]);
  *us_gt = (g1 - g0) * 1e-3;
  return cmax / (clock_ghz * 1e3);
}
static void other_traffic(char *y, size_t D, int write) {
  if (!D) return;
  size_t n16 = D / 16;
  unsigned grid = (unsigned)((n16 + 1023) / 1024);
  if (write) stream_write_kernel<<<grid, 256>>>((uint4 *)y, n16);
  else stream_read_kernel<<<grid, 256>>>((const uint4 *)y, n16, dsink);
}
static void flush_l2(const char *f) {
  size_t n16 = ((size_t)512 << 20) / 16;
  stream_read_kernel<<<(unsigned)(n16 / 1024), 256>>>((const uint4 *)f, n16, dsink);
}
/* median of 3: kind 0 read between, 1 write between, 2 cold (flush only) */
static double reuse_point(char *buf, size_t N, size_t D, int kind, double *gt_med) {
  char *f = buf, *x = buf + ((size_t)1 << 30), *y = buf + ((size_t)2 << 30);
  std::vector<double> v, w;
  for (int r = 0; r < 3; r++) {
    flush_l2(f);
    if (kind < 2) {
      stream_read_kernel<<<(unsigned)((N / 16 + 1023) / 1024), 256>>>((const uint4 *)x, N / 16, dsink);
      other_traffic(y, D, kind);
    }
    double g, us = reread_us(x, N, &g);
    v.push_back(us), w.push_back(g);
  }
  std::sort(v.begin(), v.end()), std::sort(w.begin(), w.end());
  *gt_med = w[1];
  return v[1];
}
static void sec_l2reuse(char *buf) {
  CK(cudaMalloc(&dgt, 2 * 4096 * 8));
  const int Ns[] = {4, 8, 16, 24, 32, 40, 48, 64};
  const int Ds[] = {0, 2, 4, 8, 12, 16, 20, 24, 32, 40, 48, 64, 96, 128};
  double g, rate_l2 = 0;
  {
    size_t N = (size_t)8 << 20;
    double us = reuse_point(buf, N, 0, 0, &g);
    rate_l2 = N / us; /* B/us */
  }
  for (int n : Ns) {
    size_t N = (size_t)n << 20;
    double t_cold = reuse_point(buf, N, 0, 2, &g), t_l2 = N / rate_l2;
    char key[80], how[400];
    snprintf(key, sizeof key, "l2reuse_cold_n%d_us", n);
    snprintf(how, sizeof how,
             "re-read of %d MiB (4 CTAs of 512 an SM, every SM, 4 loads a thread in flight) after a 512 MiB flush read, no first read: max CTA clock64 "
             "span / clock (median of 3; %%globaltimer span %.2f us)",
             n, g);
    emit(key, t_cold, "us", how);
    for (int kind = 0; kind < 2; kind++)
      for (int d : Ds) {
        if (kind == 1 && d == 0) continue; /* D = 0 is the same point for both kinds */
        size_t D = (size_t)d << 20;
        double t = reuse_point(buf, N, D, kind, &g);
        snprintf(key, sizeof key, "l2reuse_%s_n%d_d%d_us", kind ? "w" : "r", n, d);
        snprintf(how, sizeof how,
                 "flush, read X (%d MiB), %s %d MiB of other cold data (one pass, 16 B a thread x 4), re-read X timed as l2reuse_cold "
                 "(median of 3; %%globaltimer span %.2f us)",
                 n, kind ? "write" : "read", d, g);
        emit(key, t, "us", how);
        snprintf(key, sizeof key, "l2reuse_%s_n%d_d%d_hit", kind ? "w" : "r", n, d);
        snprintf(how, sizeof how,
                 "share of the re-read served from L2: (t_cold - t) / (t_cold - t_l2), t_cold %.2f us, t_l2 %.2f us (N at the 8 MiB D 0 "
                 "re-read's rate, %.0f B/us)",
                 t_cold, t_l2, rate_l2);
        emit(key, (t_cold - t) / (t_cold - t_l2), "fraction", how);
      }
  }
  CK(cudaFree(dgt));
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: timing_micro OUT.tsv [SECTION...]   (sections: base mma cpasync l2warm l1 rowchain zfill l2write intf alu loop mufu alushare hbmmix l2reuse; default all)\n");
    return 2;
  }
  auto want = [&](const char *sec) {
    if (argc == 2) return true;
    for (int i = 2; i < argc; i++)
      if (!strcmp(argv[i], sec)) return true;
    return false;
  };
  tsv = fopen(argv[1], "w");
  if (!tsv) return 2;
  fprintf(tsv, "key\tvalue\tunit\thow\n");
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  nsm = prop.multiProcessorCount;
  printf("device %s, %d SMs, L2 %d B\n", prop.name, nsm, prop.l2CacheSize);
  CK(cudaMalloc(&dcyc, 4096 * 8));
  CK(cudaMalloc(&dsink, 4096));

  /* clock, under load on every SM */
  {
    double mhz = sm_clock_mhz((unsigned long long *)dcyc, nsm);
    clock_ghz = mhz / 1e3;
    emit("clock_mhz", mhz, "MHz", "clock64 ticks / %globaltimer ns, every SM busy for 50 ms (median SM)");
  }

  if (want("base")) {
  /* issue rates and latencies */
  issue<OP_FFMA>(64);
  issue<OP_HFMA2>(64);
  issue<OP_DFMA>(16);
  issue<OP_IADD>(64);
  issue<OP_IMAD>(64);
  issue<OP_LOP3>(64);
  issue<OP_EX2>(16);
  issue<OP_RCP>(16);
  issue<OP_TANH>(16);
  issue<OP_CVT_F16>(16);
  issue<OP_CVT_I>(16);
  issue<OP_SHFL>(16);
  latency<OP_FFMA>(64, 1);
  latency<OP_DFMA>(16, 1);
  latency<OP_EX2>(16, 1);
  latency<OP_CVT_I>(16, 2);
  latency<OP_SHFL>(16, 1);

  /* shared memory */
  smem_lat_kernel<<<1, 32>>>(4, dcyc, dsink);
  smem_lat_kernel<<<1, 32>>>(64, dcyc, dsink);
  CK(cudaDeviceSynchronize());
  emit("lat_smem", median_cyc(1) / (64 * 32.0), "clk", "ld.shared.u32 pointer chase, one thread (clock64)");
  CK(cudaFuncSetAttribute(smem_bw_kernel<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, 131072));
  CK(cudaFuncSetAttribute(smem_bw_kernel<false>, cudaFuncAttributeMaxDynamicSharedMemorySize, 131072));
  smem_bw_kernel<true><<<nsm, 1024, 131072>>>(64, 1, dcyc, dsink);
  CK(cudaDeviceSynchronize());
  emit("smem_bytes_per_clk", 1024.0 * 16 * 64 * 16 / median_cyc(nsm), "B/clk/SM",
       "ld.shared.v4.u32, 1024 threads/SM, conflict-free, every SM (clock64)");
  for (int stride = 1; stride <= 32; stride *= 2) {
    smem_bw_kernel<false><<<nsm, 1024, 131072>>>(64, stride, dcyc, dsink);
    CK(cudaDeviceSynchronize());
    char key[64];
    snprintf(key, sizeof key, "smem_u32_stride%d", stride);
    emit(key, median_cyc(nsm) * 4 / (32.0 * 64 * 16), "clk/warp-load",
         "ld.shared.u32, lanes STRIDE words apart, 32 warps/SM, clk per warp-load per scheduler");
  }

  /* L2 and HBM */
  {
    size_t big = (size_t)4 << 30, l2set = (size_t)16 << 20;
    char *buf;
    CK(cudaMalloc(&buf, big + 256));
    CK(cudaMemset(buf, 0x5a, big + 256));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    float ms;
    int grid = nsm * 4;
    read_kernel<<<grid, 512>>>((const uint4 *)buf, l2set / 16, 2, dsink);
    CK(cudaEventRecord(e0));
    read_kernel<<<grid, 512>>>((const uint4 *)buf, l2set / 16, 40, dsink);
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    CK(cudaEventElapsedTime(&ms, e0, e1));
    double l2bw = 40.0 * l2set / (ms * 1e-3);
    emit("l2_read_bytes_per_s", l2bw, "B/s", "ld.global.cg.v4 over a 16 MiB set read 40 times, every SM (events)");
    emit("l2_bytes_per_clk", l2bw / (clock_ghz * 1e9), "B/clk", "l2_read_bytes_per_s / clock_mhz");
    /* the same with 8 loads in flight per thread: every SM, then one SM alone */
    for (int one = 0; one < 2; one++) {
      int g = one ? 1 : grid, reps = one ? 2 : 40;
      read8_kernel<<<g, 512>>>((const uint4 *)buf, l2set / 16, 1, dsink);
      CK(cudaEventRecord(e0));
      read8_kernel<<<g, 512>>>((const uint4 *)buf, l2set / 16, reps, dsink);
      CK(cudaEventRecord(e1));
      CK(cudaEventSynchronize(e1));
      CK(cudaEventElapsedTime(&ms, e0, e1));
      double bw = (double)reps * l2set / (ms * 1e-3);
      if (one) {
        emit("l2_read8_bytes_per_clk_1sm", bw / (clock_ghz * 1e9), "B/clk/SM",
             "8 independent ld.global.cg.v4 per thread, 512 threads on ONE SM, 16 MiB L2-resident set (events)");
      } else {
        emit("l2_read8_bytes_per_s", bw, "B/s", "8 independent ld.global.cg.v4 per thread in flight, 16 MiB set read 40 times, every SM (events)");
        emit("l2_read8_bytes_per_clk", bw / (clock_ghz * 1e9), "B/clk", "l2_read8_bytes_per_s / clock_mhz");
      }
    }
    read8_kernel<<<grid, 512>>>((const uint4 *)buf, big / 16, 1, dsink);
    CK(cudaEventRecord(e0));
    read8_kernel<<<grid, 512>>>((const uint4 *)buf, big / 16, 1, dsink);
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    CK(cudaEventElapsedTime(&ms, e0, e1));
    emit("hbm_read8_bytes_per_s", big / (ms * 1e-3), "B/s", "8 independent ld.global.cg.v4 per thread, 4 GiB once, every SM (events)");
    read_kernel<<<grid, 512>>>((const uint4 *)buf, big / 16, 1, dsink);
    CK(cudaEventRecord(e0));
    read_kernel<<<grid, 512>>>((const uint4 *)buf, big / 16, 1, dsink);
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    CK(cudaEventElapsedTime(&ms, e0, e1));
    emit("hbm_read_bytes_per_s", big / (ms * 1e-3), "B/s", "ld.global.cg.v4 over 4 GiB once, every SM (events)");
    copy_kernel<<<grid, 512>>>((const uint4 *)buf, (uint4 *)(buf + big / 2), big / 32);
    CK(cudaEventRecord(e0));
    copy_kernel<<<grid, 512>>>((const uint4 *)buf, (uint4 *)(buf + big / 2), big / 32);
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    CK(cudaEventElapsedTime(&ms, e0, e1));
    emit("hbm_copy_bytes_per_s", big / (ms * 1e-3), "B/s", "2 GiB copied (read + write bytes counted), every SM (events)");
    /* latency: pointer chases */
    /* L2: a set written then walked whole once (warm), then timed; DRAM: a 64 MiB set (32 pages of
       2 MiB: no TLB misses to speak of) written, then 1 GiB of other data read to evict it from L2,
       then walked from cold (every timed load a first touch) */
    struct {
      const char *key;
      size_t n, stride;
      int warm;
    } ch[] = {{"l2_latency_1mib", 1 << 12, 256, 1 << 12}, {"l2_latency", 1 << 15, 256, 1 << 15},
              {"dram_latency", 1 << 13, 8192, 0}, {"dram_latency_tlb", 1 << 18, 8192, 0}};
    for (auto &c : ch) {
      chain_kernel<<<1024, 256>>>((uint64_t *)buf, c.n, c.stride);
      if (!c.warm) read_kernel<<<grid, 512>>>((const uint4 *)(buf + big / 2), ((size_t)1 << 30) / 16, 1, dsink);
      CK(cudaDeviceSynchronize());
      int steps = 4096;
      chase_kernel<<<1, 1>>>((uint64_t *)buf, c.warm, steps, dcyc, (uint64_t *)dsink);
      CK(cudaDeviceSynchronize());
      char how[200];
      snprintf(how, sizeof how, "ld.global.cg.u64 pointer chase, one thread, %zu slots %zu B apart (%.0f MiB), %s", c.n,
               c.stride, c.n * c.stride / 1048576.0, c.warm ? "walked whole first (L2 hits)" : "evicted by 1 GiB of reads, cold");
      emit(c.key, median_cyc(1) / steps, "clk", how);
    }
    atomic_lat_kernel<<<1, 1>>>((unsigned *)buf, 1024, dcyc, dsink);
    CK(cudaDeviceSynchronize());
    emit("lat_atomic", median_cyc(1) / 1024, "clk", "atomicAdd on global, dependent chain, one thread");

    /* TMA (bulk copy) */
    CK(cudaFuncSetAttribute(tma_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 8 * 16384));
    unsigned sizes[] = {1024, 4096, 16384};
    for (unsigned b : sizes) {
      tma_kernel<<<1, 32, 8 * 16384>>>(buf, l2set, b, 8, 1, dcyc);
      tma_kernel<<<1, 32, 8 * 16384>>>(buf, l2set, b, 256, 1, dcyc);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      char key[64];
      snprintf(key, sizeof key, "tma_latency_%u", b);
      emit(key, median_cyc(1) / 256, "clk", "cp.async.bulk global->shared of B bytes, L2-resident, issue to mbarrier completion, one at a time");
    }
    for (int one = 1; one >= 0; one--) {
      for (int l2 = 1; l2 >= 0; l2--) {
        int g = one ? 1 : nsm, iters = 512;
        tma_kernel<<<g, 32, 8 * 16384>>>(buf, l2 ? l2set : big, 16384, iters, 8, dcyc);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        char key[64], how[200];
        snprintf(key, sizeof key, "tma_bytes_per_clk_%s_%s", one ? "1sm" : "allsm", l2 ? "l2" : "hbm");
        snprintf(how, sizeof how, "cp.async.bulk 16 KiB, 8 in flight, %d CTA(s), source %s (clock64)", g,
                 l2 ? "16 MiB L2-resident" : "4 GiB");
        emit(key, 16384.0 * iters / median_cyc(g), "B/clk/SM", how);
      }
    }
    /* 2-D tensor-map TMA throughput and latency */
    CK(cudaFuncSetAttribute(tma2d_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 8 * 16384 + 1024));
    for (int l2 = 1; l2 >= 0; l2--) {
      CUtensorMap tm;
      cuuint64_t rows = (l2 ? l2set : big) / 128;
      cuuint64_t dims[2] = {64, rows}, strides[1] = {128};
      cuuint32_t boxd[2] = {64, 128}, es[2] = {1, 1};
      CK(cuTensorMapEncodeTiled(&tm, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, buf, dims, strides, boxd, es,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
      for (int one = 1; one >= 0; one--) {
        int g = one ? 1 : nsm, iters = 512;
        tma2d_kernel<<<g, 32, 8 * 16384 + 1024>>>(tm, (unsigned)rows, iters, 8, dcyc);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        char key[64], how[200];
        snprintf(key, sizeof key, "tma2d_bytes_per_clk_%s_%s", one ? "1sm" : "allsm", l2 ? "l2" : "hbm");
        snprintf(how, sizeof how, "cp.async.bulk.tensor.2d, 64x128 f16 boxes (16 KiB, 128B swizzle), 8 in flight, %d CTA(s), %s", g,
                 l2 ? "16 MiB L2-resident" : "4 GiB");
        emit(key, 16384.0 * iters / median_cyc(g), "B/clk/SM", how);
      }
      if (l2) {
        tma2d_kernel<<<1, 32, 8 * 16384 + 1024>>>(tm, (unsigned)rows, 256, 1, dcyc);
        CK(cudaDeviceSynchronize());
        emit("tma2d_latency_16384", median_cyc(1) / 256, "clk",
             "cp.async.bulk.tensor.2d of one 16 KiB box from L2, issue to mbarrier completion, one at a time");
      }
    }
    CK(cudaFree(buf));
  }

  /* barriers */
  for (int t : {128, 256, 1024}) {
    bar_kernel<<<1, t>>>(16, dcyc);
    bar_kernel<<<1, t>>>(4096, dcyc);
    CK(cudaDeviceSynchronize());
    char key[64];
    snprintf(key, sizeof key, "lat_bar_%d", t);
    emit(key, median_cyc(1) / 4096, "clk", "bar.sync 0 back to back, THREADS threads in one CTA (clock64)");
  }
  mbar_kernel<<<1, 1>>>(16, dcyc);
  mbar_kernel<<<1, 1>>>(4096, dcyc);
  CK(cudaDeviceSynchronize());
  emit("lat_mbar", median_cyc(1) / 4096, "clk", "mbarrier.arrive (count 1) then try_wait.parity on that phase, one thread");

  /* wgmma */
  {
    double l, t;
#define WGRUN(T, N) wgmma_one<T, N>(&l, &t);
    WGMMA_LIST(WGRUN)
  }

  /* launch overhead under graph replay */
  {
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    for (int g : {1, nsm, nsm * 16}) {
      cudaGraph_t gr;
      cudaGraphExec_t ge;
      CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
      for (int i = 0; i < 1000; i++) empty_kernel<<<g, 128, 0, s>>>();
      CK(cudaStreamEndCapture(s, &gr));
      CK(cudaGraphInstantiate(&ge, gr, 0));
      cudaEvent_t e0, e1;
      CK(cudaEventCreate(&e0));
      CK(cudaEventCreate(&e1));
      std::vector<float> v;
      for (int r = 0; r < 12; r++) {
        CK(cudaEventRecord(e0, s));
        CK(cudaGraphLaunch(ge, s));
        CK(cudaEventRecord(e1, s));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (r >= 2) v.push_back(ms);
      }
      std::sort(v.begin(), v.end());
      char key[64], how[160];
      snprintf(key, sizeof key, "launch_us_grid%d", g);
      snprintf(how, sizeof how, "empty kernel, %d CTAs of 128 threads, 1000 launches in one CUDA graph, median of 10 replays", g);
      emit(key, v[v.size() / 2] * 1000.0 / 1000, "us", how);
    }
  }
  } /* base */
  if (want("mma")) sec_mma();
  if (want("rowchain")) sec_rowchain();
  if (want("intf")) sec_intf();
  if (want("alu")) sec_alu();
  if (want("loop")) sec_loop();
  if (want("mufu")) sec_mufu();
  if (want("alushare")) sec_alushare();
  if (want("imadw")) sec_imadw();
  if (want("hbmmix") || want("l2reuse")) {
    size_t big = (size_t)4 << 30;
    char *buf;
    CK(cudaMalloc(&buf, big));
    CK(cudaMemset(buf, 0x3c, big));
    if (want("hbmmix")) sec_hbmmix(buf);
    if (want("l2reuse")) sec_l2reuse(buf);
    CK(cudaFree(buf));
  }
  if (want("cpasync") || want("l2warm") || want("l1") || want("zfill") || want("l2write")) {
    size_t big = (size_t)4 << 30;
    char *buf;
    CK(cudaMalloc(&buf, big));
    CK(cudaMemset(buf, 0x3c, big));
    if (want("cpasync")) sec_cpasync(buf, big);
    if (want("l2warm")) sec_l2warm(buf);
    if (want("l1")) sec_l1(buf);
    if (want("zfill")) sec_zfill(buf, big);
    if (want("l2write")) sec_l2write(buf);
    CK(cudaFree(buf));
  }
  fclose(tsv);
  return 0;
}
