// f16/bf16 -> f32 GEMM on the H100's own wgmma (gpu/gemm_paths.h).
//
// Why this is the model: tc5's Hopper and Blackwell models of .kind::f16
// are the same (F = 25, a step of 16 products and the accumulator, f32
// toward zero; src/arith/arith_models.c, after MMA-Sim), and
// gpu/wgmma_arith.cu showed the H100's wgmma computing exactly those bits:
// 102,236,160 outputs, 0 mismatches (docs/fidelity.md). One m64nNk16 wgmma
// is one step; K is chained in order on the f32 accumulator registers, C
// loaded into them (+0 when enable_input_d is false: the model's zero term
// either way). The H100 run of gpu/run.sh gemm checks the whole kernel
// against tc5_gemm on the CPU.
//
// The codes (32-bit words) are first packed on the GPU into 16-bit K-major
// copies of A and B (B transposed; negation flips A's sign bits, which is
// the model's negation), padded to the tile; a CTA of two warpgroups
// computes 128 x 256 of D from 64-wide K slices brought into shared memory
// by cp.async in the 128-byte swizzle (4 stages). Layout facts (PTX ISA,
// wgmma "Shared Memory Matrix Layout" and "Matrix Descriptor"): K-major
// with the 128-byte swizzle stores row r's 16-byte chunk c at
// r * 128 + ((c ^ (r % 8)) * 16) in 1024-byte atoms of 8 rows; the
// descriptor holds start >> 4, LBO >> 4 (unused here, 1), SBO >> 4 = 64
// (the next 8 rows) and layout type 1 in bits 62-63; the k-th 16-element
// slice starts 32 k bytes further. The accumulator fragment: gpu_util.cuh.
#include <cuda_runtime.h>

#include "gemm_paths.h"
#include "wgmma_regs.cuh"

namespace {

constexpr int BM = 128, BN = 256, BK = 64, STAGES = 4;
constexpr int A_BYTES = BM * BK * 2, B_BYTES = BN * BK * 2, STAGE_BYTES = A_BYTES + B_BYTES;

__global__ void pack_a(const uint32_t *__restrict__ A, uint16_t *__restrict__ P, unsigned M, unsigned K, unsigned Mp,
                       uint16_t flip) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x, n = (size_t)Mp * K;
  for (; i < n; i += (size_t)gridDim.x * blockDim.x) {
    size_t r = i / K;
    P[i] = r < M ? (uint16_t)(A[i] ^ flip) : 0;
  }
}

/* P (Np x K) = the transpose of B (K x N), zero beyond N */
__global__ void pack_b(const uint32_t *__restrict__ B, uint16_t *__restrict__ P, unsigned K, unsigned N) {
  __shared__ uint16_t tile[32][33];
  unsigned n0 = blockIdx.x * 32, k0 = blockIdx.y * 32;
  for (int y = threadIdx.y; y < 32; y += 8) {
    unsigned k = k0 + y, n = n0 + threadIdx.x;
    tile[y][threadIdx.x] = k < K && n < N ? (uint16_t)B[(size_t)k * N + n] : 0;
  }
  __syncthreads();
  for (int y = threadIdx.y; y < 32; y += 8) {
    unsigned n = n0 + y, k = k0 + threadIdx.x;
    if (k < K) P[(size_t)n * K + k] = tile[threadIdx.x][y];
  }
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 900 && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TC5_WGMMA 1
#endif

#ifdef TC5_WGMMA /* the device code for sm_90a only: wgmma is Hopper's */
__device__ __forceinline__ uint64_t desc(uint32_t smem) {
  return (uint64_t)((smem & 0x3FFFF) >> 4) | 1ull << 16 | 64ull << 32 | 1ull << 62;
}

/* one m64n256k16 wgmma, D += A B: A and B from shared memory (descriptors),
 * scale-d = 1, imm-scale-a/b = 1, K-major (imm-trans-a/b = 0) */
#define TC5_WGMMA_ASM(ab)                                                                                        \
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"                                                         \
               "wgmma.mma_async.sync.aligned.m64n256k16.f32." ab "." ab " " WG_D128 ", %128, %129, p, 1, 1, 0, 0;\n}\n" \
               : WG_O128(d)                                                                                       \
               : "l"(da), "l"(db))

template <bool BF16> __device__ __forceinline__ void wgmma(float (&d)[128], uint64_t da, uint64_t db) {
  if (BF16)
    TC5_WGMMA_ASM("bf16");
  else
    TC5_WGMMA_ASM("f16");
}

__device__ __forceinline__ void fence_regs(float (&d)[128]) {
  for (int i = 0; i < 128; i++) asm volatile("" : "+f"(d[i])::"memory");
}

__device__ __forceinline__ void load_stage(uint32_t sA, uint32_t sB, const uint16_t *Ap, const uint16_t *Bp, unsigned K,
                                           unsigned m0, unsigned n0, unsigned k0, int t) {
  for (int i = 0; i < BM * 8 / 256; i++) {
    int c = t + 256 * i, r = c / 8, ch = c % 8;
    const uint16_t *g = Ap + (size_t)(m0 + r) * K + k0 + ch * 8;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sA + r * 128 + ((ch ^ (r % 8)) * 16)), "l"(g));
  }
  for (int i = 0; i < BN * 8 / 256; i++) {
    int c = t + 256 * i, r = c / 8, ch = c % 8;
    const uint16_t *g = Bp + (size_t)(n0 + r) * K + k0 + ch * 8;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sB + r * 128 + ((ch ^ (r % 8)) * 16)), "l"(g));
  }
}
#endif

/* C_IN: D's old values start the accumulators (enable_input_d); without,
 * the accumulators start at +0 (the model's zero term either way), which
 * also lets ptxas keep the wgmmas in flight across the K loop (loaded
 * accumulators make it serialize them: its C7515) */
template <bool BF16, bool C_IN>
__global__ void __launch_bounds__(256, 1) wgmma_kernel(const uint16_t *__restrict__ Ap, const uint16_t *__restrict__ Bp,
                                                       uint32_t *D, unsigned M, unsigned N, unsigned K) {
#ifdef TC5_WGMMA
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  uint32_t base = (uint32_t)__cvta_generic_to_shared(smem_raw);
  base = (base + 1023) & ~1023u;
  const int t = threadIdx.x, wg = t / 128, tw = t % 128;
  const unsigned m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  float d[128];
  for (int i = 0; i < 128; i++) {
    unsigned r = m0 + wg * 64 + 16 * (tw / 32) + (tw % 32) / 4 + 8 * ((i / 2) % 2);
    unsigned c = n0 + 8 * (i / 4) + 2 * (tw % 4) + i % 2;
    d[i] = C_IN && r < M && c < N ? __uint_as_float(D[(size_t)r * N + c]) : 0.f;
  }
  const unsigned KT = K / BK;
  for (int s = 0; s < STAGES - 1; s++) {
    if ((unsigned)s < KT) load_stage(base + s * STAGE_BYTES, base + s * STAGE_BYTES + A_BYTES, Ap, Bp, K, m0, n0, s * BK, t);
    asm volatile("cp.async.commit_group;\n" ::);
  }
  for (unsigned kt = 0; kt < KT; kt++) {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(STAGES - 2));
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    __syncthreads();
    uint32_t sA = base + (kt % STAGES) * STAGE_BYTES, sB = sA + A_BYTES;
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
    for (int kk = 0; kk < BK / 16; kk++) wgmma<BF16>(d, desc(sA + wg * 64 * 128 + kk * 32), desc(sB + kk * 32));
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
    __syncthreads(); // both warpgroups are done with step kt - 1's stage
    unsigned next = kt + STAGES - 1;
    if (next < KT) {
      uint32_t s2 = base + (next % STAGES) * STAGE_BYTES;
      load_stage(s2, s2 + A_BYTES, Ap, Bp, K, m0, n0, next * BK, t);
    }
    asm volatile("cp.async.commit_group;\n" ::);
  }
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
  fence_regs(d);
  for (int i = 0; i < 128; i++) {
    unsigned r = m0 + wg * 64 + 16 * (tw / 32) + (tw % 32) / 4 + 8 * ((i / 2) % 2);
    unsigned c = n0 + 8 * (i / 4) + 2 * (tw % 4) + i % 2;
    if (r < M && c < N) D[(size_t)r * N + c] = __float_as_uint(d[i]);
  }
#endif
}

} // namespace

bool tc5__wgmma_ok(const tc5_dot *d, unsigned M, unsigned K, const tc5_dot_opts *o) {
  if (!(d->atype == d->btype && (d->atype == TC5_BF16 || d->atype == TC5_F16) && d->ctype == TC5_F32 &&
        d->out == TC5_OUT_RZ_F32 && d->frac_bits == 25 && d->chunk == 16 && d->group == 0 &&
        d->stype == TC5_TYPE_NONE && d->zero_exp == -133 && K % BK == 0 && K > 0 && o->scale_input_d == 0 &&
        (M + BM - 1) / BM <= 65535 && (K + 31) / 32 <= 65535)) /* the grids' y */
    return false;
  int dev = 0, major = 0, minor = 0;
  if (cudaGetDevice(&dev) || cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev))
    return false;
  return major == 9 && minor == 0;
}

tc5_status tc5__gemm_wgmma(const tc5_dot *d, unsigned M, unsigned N, unsigned K, const uint32_t *A, const uint32_t *B,
                           uint32_t *D, const tc5_dot_opts *o) {
  unsigned Mp = (M + BM - 1) / BM * BM, Np = (N + BN - 1) / BN * BN;
  uint16_t *Ap = NULL, *Bp = NULL;
  cudaError_t e = cudaMallocAsync(&Ap, (size_t)Mp * K * 2, 0);
  if (!e) e = cudaMallocAsync(&Bp, (size_t)Np * K * 2, 0);
  if (e) {
    if (Ap) cudaFreeAsync(Ap, 0);
    cudaGetLastError(); /* the failed allocation is reported as TC5_ENOMEM, not left for the next call */
    return TC5_ENOMEM;
  }
  bool bf16 = d->atype == TC5_BF16;
  pack_a<<<1024, 256>>>(A, Ap, M, K, Mp, (uint16_t)(o->negate_a ^ o->negate_b ? 0x8000 : 0));
  pack_b<<<dim3(Np / 32, (K + 31) / 32), dim3(32, 8)>>>(B, Bp, K, N);
  size_t smem = (size_t)STAGES * STAGE_BYTES + 1024;
  auto kernel = bf16 ? (o->enable_input_d ? wgmma_kernel<true, true> : wgmma_kernel<true, false>)
                     : (o->enable_input_d ? wgmma_kernel<false, true> : wgmma_kernel<false, false>);
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  kernel<<<dim3(Np / BN, Mp / BM), 256, smem>>>(Ap, Bp, D, M, N, K);
  e = cudaPeekAtLastError();
  cudaFreeAsync(Ap, 0);
  cudaFreeAsync(Bp, 0);
  return e ? TC5_ESTATE : TC5_OK;
}
