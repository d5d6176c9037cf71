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
               "wgmma.mma_async.sync.aligned.m64n256k16.f32." ab "." ab " " TC5_WG_REGS ", %128, %129, p, 1, 1, 0, 0;\n}\n" \
               : TC5_WG_OPS                                                                                       \
               : "l"(da), "l"(db))
#define TC5_WG_REGS "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79,%80,%81,%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95,%96,%97,%98,%99,%100,%101,%102,%103,%104,%105,%106,%107,%108,%109,%110,%111,%112,%113,%114,%115,%116,%117,%118,%119,%120,%121,%122,%123,%124,%125,%126,%127}"
#define TC5_WG_OPS \
      "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
      "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), \
      "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), \
      "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), \
      "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), \
      "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), \
      "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), \
      "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), \
      "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), \
      "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), \
      "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), \
      "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), \
      "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), \
      "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), \
      "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), \
      "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])

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

bool tc5__wgmma_ok(const tc5_dot *d, unsigned K, const tc5_dot_opts *o) {
  if (!(d->atype == d->btype && (d->atype == TC5_BF16 || d->atype == TC5_F16) && d->ctype == TC5_F32 &&
        d->out == TC5_OUT_RZ_F32 && d->frac_bits == 25 && d->chunk == 16 && d->group == 0 &&
        d->stype == TC5_TYPE_NONE && d->zero_exp == -133 && K % BK == 0 && K > 0 && o->scale_input_d == 0))
    return false;
  int dev = 0, major = 0, minor = 0;
  if (cudaGetDevice(&dev) || cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev))
    return false;
  return major == 9 && minor == 0;
}

tc5_status tc5__gemm_wgmma(const tc5_dot *d, unsigned M, unsigned N, unsigned K, const uint32_t *A, const uint32_t *B,
                           uint32_t *D, const tc5_dot_opts *o) {
  if (!tc5__wgmma_ok(d, K, o) || (M + BM - 1) / BM > 65535 || (K + 31) / 32 > 65535) return TC5_EUNSUPPORTED;
  unsigned Mp = (M + BM - 1) / BM * BM, Np = (N + BN - 1) / BN * BN;
  uint16_t *Ap = NULL, *Bp = NULL;
  cudaError_t e = cudaMallocAsync(&Ap, (size_t)Mp * K * 2, 0);
  if (!e) e = cudaMallocAsync(&Bp, (size_t)Np * K * 2, 0);
  if (e) {
    cudaFreeAsync(Ap, 0);
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
