// The model's GEMM on CUDA cores, tiled (gpu/gemm_paths.h): the step
// structure of docs/arithmetic.md mapped to the GPU the way the AVX-512
// kernel maps it to vectors.
//
// Steps of 32 products (f8f6f4, mxf8f6f4 with ue8m0, Hopper fp8): an
// element of these formats is exact as a float, and so is a product of
// two; the step's largest nominal exponent E (a max-plus product over the
// step) gives the alignment 2^(E - F); each product times 2^(F - E) is
// converted to an integer toward zero (__float2int_rz: exactly the model's
// truncation, as the scaled product has at most 8 significant bits and is
// below 2^(F + 2)), and the integers are summed exactly (two 16-product
// halves in 32 bits, F <= 25). The C term and the rounding are the
// reference's own inline functions (src/arith/arith_step.h).
//
// Groups of 16 fp4 products (mxf4, mxf4nvf4): twice an e2m1 value is an
// integer in [-12, 12], so a group's exact sum is four __dp4a of packed
// bytes; the group term, its scales and the step's alignment (F = 35) are
// then integer arithmetic on 64 bits.
//
// A step with a NaN or an infinity among its codes, scales or C takes the
// class of its terms (tc5__special_class's rules): for the steps kernel
// that is the IEEE float sum of the exact float products and C (NaN wins,
// Inf * 0 and Inf - Inf are NaN, and no finite product or sum of these
// formats overflows a float), for the groups kernel a NaN scale's group or
// C. Were the float sum finite, tc5__dot_step (the reference's step, from
// the codes in global memory) would decide.
#include <cuda_runtime.h>

#include <climits>
#include <cmath>

#include "gemm_paths.h"

namespace {

constexpr int ZE = -100; // a zero element's exponent here: any product with it is below -64

__device__ __forceinline__ float pow2f(int t) { // 2^t, t clamped to the normal range
  t = t < -126 ? -126 : t > 127 ? 127 : t;
  return __int_as_float((t + 127) << 23);
}

/* a thread's TM x TN outputs at rows r0 + i, columns c0 + j: C from D
 * (0 when ignored or outside D), and D written back */
template <int TM, int TN>
__device__ __forceinline__ void acc_load(uint32_t (&acc)[TM][TN], const uint32_t *D, unsigned M, unsigned N,
                                         unsigned r0, unsigned c0, bool enable) {
  for (int i = 0; i < TM; i++)
    for (int j = 0; j < TN; j++) {
      unsigned r = r0 + i, c = c0 + j;
      acc[i][j] = enable && r < M && c < N ? D[(size_t)r * N + c] : 0;
    }
}
template <int TM, int TN>
__device__ __forceinline__ void acc_store(const uint32_t (&acc)[TM][TN], uint32_t *D, unsigned M, unsigned N,
                                          unsigned r0, unsigned c0) {
  for (int i = 0; i < TM; i++)
    for (int j = 0; j < TN; j++) {
      unsigned r = r0 + i, c = c0 + j;
      if (r < M && c < N) D[(size_t)r * N + c] = acc[i][j];
    }
}

/* ---- steps of 32 products ------------------------------------------------ */

/* a decoded element as a float: exact for these formats; infinities and
 * NaN as themselves (the special steps' class is their float sum) */
__device__ __forceinline__ float element_value(const tc5_term *u, bool negate) {
  float v = u->cls == TC5_TERM_NAN ? __int_as_float(0x7FC00000) : u->cls == TC5_TERM_INF ? INFINITY : ldexpf((float)u->m, u->x);
  return u->sign ^ negate ? -v : v;
}

constexpr int SBM = 64, SBN = 128, STM = 4, STN = 8, SKC = 32;

struct StepSmem {
  float va[256], vb[256];    // element values (A's sign flipped when negated)
  signed char ea[256], eb[256]; // nominal exponents, ZE for zero
  unsigned char xa[256], xb[256]; // NaN or infinity
  float fa[SKC][SBM + 1];    // this step's A values, k-major
  float fb[SKC][SBN];
  signed char ga[SKC][SBM + 4], gb[SKC][SBN];
  int sa[SBM], sb[SBN];      // the step's scale exponents (0 unscaled)
  unsigned char rx[SBM], cx[2][SBN]; // a NaN/Inf code or scale in the row's / column's step
  unsigned char rz[SBM], cz[2][SBN]; // a zero element in it (a zero product takes part in E)
  unsigned char rn[SBM], cn[SBN];    // a NaN scale factor
};

__global__ void __launch_bounds__(256, 1) steps_kernel(tc5_arith_model m, unsigned M, unsigned N, unsigned K,
                                                    const uint32_t *__restrict__ A, const uint32_t *__restrict__ B,
                                                    const uint32_t *__restrict__ SA, const uint32_t *__restrict__ SB,
                                                    uint32_t *D, bool enable, unsigned scale, bool negate) {
  __shared__ StepSmem s;
  const int t = threadIdx.x, tx = t % 16, ty = t / 16;
  const unsigned r0 = blockIdx.y * SBM, c0 = blockIdx.x * SBN;
  {
    tc5_term u;
    tc5__term_decode(&m.a, (uint32_t)t, &u);
    s.va[t] = element_value(&u, negate);
    s.ea[t] = (signed char)(u.m ? u.e : ZE);
    s.xa[t] = u.cls != TC5_TERM_FINITE;
    tc5__term_decode(&m.b, (uint32_t)t, &u);
    s.vb[t] = element_value(&u, false);
    s.eb[t] = (signed char)(u.m ? u.e : ZE);
    s.xb[t] = u.cls != TC5_TERM_FINITE;
  }
  uint32_t acc[STM][STN];
  acc_load(acc, D, M, N, r0 + ty * STM, c0 + tx * STN, enable);
  const unsigned nsb = m.scaled ? K / m.block : 0;
  bool en = enable;
  unsigned sc = scale;
  tc5_term terms[SKC + 1];
  for (unsigned k0 = 0; k0 < K; k0 += SKC) {
    __syncthreads(); // the previous step's reads are done
    /* A: a warp reads one row's 32 codes */
    for (int i = 0; i < SBM * SKC / 256; i++) {
      int idx = t + 256 * i, r = idx / SKC, k = idx % SKC;
      unsigned gr = r0 + r;
      uint32_t code = gr < M ? A[(size_t)gr * K + k0 + k] & 0xFF : 0;
      float v = gr < M ? s.va[code] : 0.f;
      int e = gr < M ? s.ea[code] : ZE;
      s.fa[k][r] = v;
      s.ga[k][r] = (signed char)e;
      bool x = gr < M && s.xa[code], z = e == ZE;
      if (m.scaled && k == 0 && gr < M) {
        tc5_term u;
        tc5__term_decode(&m.s, SA[(size_t)gr * nsb + k0 / m.block], &u);
        s.sa[r] = u.e;
        s.rn[r] = u.cls != TC5_TERM_FINITE;
        x |= u.cls != TC5_TERM_FINITE;
      } else if (k == 0) {
        s.sa[r] = 0, s.rn[r] = 0;
      }
      x = __any_sync(0xFFFFFFFFu, x), z = __any_sync(0xFFFFFFFFu, z);
      if (k == 0) s.rx[r] = x, s.rz[r] = z;
    }
    /* B: thread t reads column t % 128, half of the step's rows */
    {
      int c = t % SBN, h = t / SBN;
      unsigned gc = c0 + c;
      bool x = false, z = false;
      for (int k = h; k < SKC; k += 2) {
        uint32_t code = gc < N ? B[(size_t)(k0 + k) * N + gc] & 0xFF : 0;
        float v = gc < N ? s.vb[code] : 0.f;
        int e = gc < N ? s.eb[code] : ZE;
        s.fb[k][c] = v;
        s.gb[k][c] = (signed char)e;
        x |= gc < N && s.xb[code];
        z |= e == ZE;
      }
      if (h == 0) {
        s.sb[c] = 0, s.cn[c] = 0;
        if (m.scaled && gc < N) {
          tc5_term u;
          tc5__term_decode(&m.s, SB[(size_t)(k0 / m.block) * N + gc], &u);
          s.sb[c] = u.e;
          s.cn[c] = u.cls != TC5_TERM_FINITE;
          x |= u.cls != TC5_TERM_FINITE;
        }
      }
      s.cx[h][c] = x, s.cz[h][c] = z;
    }
    __syncthreads();
    /* E: the largest product exponent of the step, a max-plus product */
    int E[STM][STN];
    for (int i = 0; i < STM; i++)
      for (int j = 0; j < STN; j++) E[i][j] = 2 * ZE;
#pragma unroll 4
    for (int k = 0; k < SKC; k++) {
      int a[STM], b[STN];
      for (int i = 0; i < STM; i++) a[i] = s.ga[k][ty * STM + i];
      for (int j = 0; j < STN; j++) b[j] = s.gb[k][tx * STN + j];
      for (int i = 0; i < STM; i++)
        for (int j = 0; j < STN; j++) E[i][j] = max(E[i][j], a[i] + b[j]);
    }
    /* the alignment: lsb = E - F with E over the products, C and (when a
     * product is zero) the zero exponent; each product is then taken at
     * 2^(S - lsb), S the scales' exponents */
    float f[STM][STN];
    for (int i = 0; i < STM; i++)
      for (int j = 0; j < STN; j++) {
        int r = ty * STM + i, c = tx * STN + j, S = s.sa[r] + s.sb[c];
        tc5_term ct;
        tc5__c_term(&m, acc[i][j], en, sc, &ct);
        int Ep = E[i][j] < -64 ? INT_MIN / 2 : E[i][j] + S;
        int Es = max(Ep, ct.e);
        if (s.rz[r] | s.cz[0][c] | s.cz[1][c]) Es = max(Es, m.zero_exp);
        int lsb = Es - (int)m.frac_bits;
        E[i][j] = lsb;
        f[i][j] = pow2f(S - lsb);
      }
    int lo[STM][STN], hi[STM][STN];
    for (int i = 0; i < STM; i++)
      for (int j = 0; j < STN; j++) lo[i][j] = hi[i][j] = 0;
#pragma unroll 2
    for (int k = 0; k < SKC / 2; k++) {
      float a[STM], b[STN];
      for (int i = 0; i < STM; i++) a[i] = s.fa[k][ty * STM + i];
      for (int j = 0; j < STN; j++) b[j] = s.fb[k][tx * STN + j];
      for (int i = 0; i < STM; i++)
        for (int j = 0; j < STN; j++) lo[i][j] += __float2int_rz(a[i] * b[j] * f[i][j]);
    }
#pragma unroll 2
    for (int k = SKC / 2; k < SKC; k++) {
      float a[STM], b[STN];
      for (int i = 0; i < STM; i++) a[i] = s.fa[k][ty * STM + i];
      for (int j = 0; j < STN; j++) b[j] = s.fb[k][tx * STN + j];
      for (int i = 0; i < STM; i++)
        for (int j = 0; j < STN; j++) hi[i][j] += __float2int_rz(a[i] * b[j] * f[i][j]);
    }
    for (int i = 0; i < STM; i++)
      for (int j = 0; j < STN; j++) {
        int r = ty * STM + i, c = tx * STN + j;
        unsigned gr = r0 + r, gc = c0 + c;
        if (gr >= M || gc >= N) continue;
        tc5_term ct;
        tc5__c_term(&m, acc[i][j], en, sc, &ct);
        if (s.rx[r] | s.cx[0][c] | s.cx[1][c] | (ct.cls != TC5_TERM_FINITE)) {
          /* a NaN or an infinity: the result is the class of the terms
           * (tc5__special_class's rules are IEEE float arithmetic's on the
           * products and C: NaN wins, Inf * 0 and Inf - Inf are NaN; no
           * finite product or sum of these formats overflows a float) */
          float f = ct.cls == TC5_TERM_NAN ? __int_as_float(0x7FC00000) : ct.cls == TC5_TERM_INF ? (ct.sign ? -INFINITY : INFINITY) : 0.f;
          for (int k = 0; k < SKC; k++) f += s.fa[k][r] * s.fb[k][c];
          if (s.rn[r] | s.cn[c] || isnan(f)) {
            acc[i][j] = tc5__special_code(m.c_f16, TC5_TERM_NAN, 0);
          } else if (isinf(f)) {
            acc[i][j] = tc5__special_code(m.c_f16, TC5_TERM_INF, f < 0);
          } else { /* not expected: the reference's step decides */
            acc[i][j] = tc5__dot_step(&m, k0 / SKC, k0, SKC, A + (size_t)gr * K, B + gc, N,
                                      m.scaled ? SA + (size_t)gr * nsb : NULL, m.scaled ? SB + gc : NULL, acc[i][j],
                                      en, sc, negate, terms, NULL);
          }
          continue;
        }
        int lsb = E[i][j];
        int64_t sum = (int64_t)lo[i][j] + hi[i][j];
        int64_t cv = (int64_t)tc5__term_at(&ct, lsb);
        sum += ct.sign ? -cv : cv;
        int neg = sum < 0;
        acc[i][j] = tc5__round_code(m.out, neg, neg ? (uint64_t)-sum : (uint64_t)sum, lsb);
      }
    en = true, sc = 0;
  }
  acc_store(acc, D, M, N, r0 + ty * STM, c0 + tx * STN);
}

/* ---- groups of 16 fp4 products --------------------------------------------- */

constexpr int GBM = 64, GBN = 64, GTM = 4, GTN = 4, GKC = 64, GQ = GKC / 4;

struct GroupSmem {
  int wa[GQ][GBM + 1]; // 4 bytes of 2 x value along K (A's sign flipped when negated)
  int wb[GQ][GBN];
  unsigned short za[4][GBM], zb[4][GBN];  // which products' factors are nonzero, a bit per k
  int ma[4][GBM], xa[4][GBM], ea[4][GBM]; // the group's scale factor: m, x, e
  int mb[4][GBN], xb[4][GBN], eb[4][GBN];
  unsigned char na[GBM], nb[GBN]; // a NaN scale in the step
};

__device__ __forceinline__ int twice_e2m1(uint32_t code, bool neg) { // 2 x an e2m1 value
  int E = code >> 1 & 3, v = E ? (2 + (code & 1)) << (E - 1) : code & 1;
  return (code >> 3 & 1) ^ neg ? -v : v;
}

__global__ void __launch_bounds__(256, 1) groups_kernel(tc5_arith_model m, unsigned M, unsigned N, unsigned K,
                                                     const uint32_t *__restrict__ A, const uint32_t *__restrict__ B,
                                                     const uint32_t *__restrict__ SA, const uint32_t *__restrict__ SB,
                                                     uint32_t *D, bool enable, unsigned scale, bool negate) {
  __shared__ GroupSmem s;
  const int t = threadIdx.x, tx = t % 16, ty = t / 16;
  const unsigned r0 = blockIdx.y * GBM, c0 = blockIdx.x * GBN;
  uint32_t acc[GTM][GTN];
  acc_load(acc, D, M, N, r0 + ty * GTM, c0 + tx * GTN, enable);
  const unsigned nsb = K / m.block;
  bool en = enable;
  unsigned sc = scale;
  for (unsigned k0 = 0; k0 < K; k0 += GKC) {
    __syncthreads();
    { /* A: thread t reads the 16 codes of row t / 4, group t % 4 */
      int r = t / 4, g = t % 4;
      unsigned gr = r0 + r;
      unsigned short z = 0;
      for (int q = 0; q < 4; q++) {
        const uint32_t *a = A + (size_t)gr * K + k0 + 16 * g + 4 * q;
        uint32_t c[4] = {0, 0, 0, 0};
        if (gr < M) c[0] = a[0], c[1] = a[1], c[2] = a[2], c[3] = a[3];
        int w = 0;
        for (int d = 0; d < 4; d++) {
          w |= (twice_e2m1(c[d], negate) & 0xFF) << (8 * d);
          z |= (unsigned short)((c[d] & 7) != 0) << (4 * q + d);
        }
        s.wa[4 * g + q][r] = w;
      }
      s.za[g][r] = z;
      tc5_term u = {0, 0, 0, 0, 0};
      if (gr < M) tc5__term_decode(&m.s, SA[(size_t)gr * nsb + (k0 + 16 * g) / m.block], &u);
      s.ma[g][r] = (int)u.m, s.xa[g][r] = u.x, s.ea[g][r] = u.e;
      unsigned nanrow = __ballot_sync(0xFFFFFFFFu, u.cls == TC5_TERM_NAN); // lanes 4i..4i+3: a row's groups
      if (g == 0) s.na[r] = (nanrow >> (t % 32)) & 0xF ? 1 : 0;
    }
    { /* B: thread t reads the 16 codes of column t % 64, group t / 64 */
      int c = t % GBN, g = t / GBN;
      unsigned gc = c0 + c;
      unsigned short z = 0;
      for (int q = 0; q < 4; q++) {
        int w = 0;
        for (int d = 0; d < 4; d++) {
          uint32_t code = gc < N ? B[(size_t)(k0 + 16 * g + 4 * q + d) * N + gc] : 0;
          w |= (twice_e2m1(code, false) & 0xFF) << (8 * d);
          z |= (unsigned short)((code & 7) != 0) << (4 * q + d);
        }
        s.wb[4 * g + q][c] = w;
      }
      s.zb[g][c] = z;
      tc5_term u = {0, 0, 0, 0, 0};
      if (gc < N) tc5__term_decode(&m.s, SB[(size_t)((k0 + 16 * g) / m.block) * N + gc], &u);
      s.mb[g][c] = (int)u.m, s.xb[g][c] = u.x, s.eb[g][c] = u.e;
      if (g == 0) s.nb[c] = 0;
      __syncthreads(); // (every thread reaches this: the branch is the block's)
      if (u.cls == TC5_TERM_NAN) s.nb[c] = 1;
    }
    __syncthreads();
    int lsb[GTM][GTN];
    for (int i = 0; i < GTM; i++)
      for (int j = 0; j < GTN; j++) {
        int r = ty * GTM + i, c = tx * GTN + j;
        tc5_term ct;
        tc5__c_term(&m, acc[i][j], en, sc, &ct);
        int E = ct.e;
        for (int g = 0; g < 4; g++) {
          bool nz = (s.za[g][r] & s.zb[g][c]) && s.ma[g][r] && s.mb[g][c];
          E = max(E, nz ? s.ea[g][r] + s.eb[g][c] : m.zero_exp);
        }
        lsb[i][j] = E - (int)m.frac_bits;
      }
    int64_t sum[GTM][GTN];
    for (int i = 0; i < GTM; i++)
      for (int j = 0; j < GTN; j++) sum[i][j] = 0;
    for (int g = 0; g < 4; g++) {
      int a[GTM][4], b[GTN][4];
      for (int i = 0; i < GTM; i++)
        for (int q = 0; q < 4; q++) a[i][q] = s.wa[4 * g + q][ty * GTM + i];
      for (int j = 0; j < GTN; j++)
        for (int q = 0; q < 4; q++) b[j][q] = s.wb[4 * g + q][tx * GTN + j];
      for (int i = 0; i < GTM; i++)
        for (int j = 0; j < GTN; j++) {
          int p = 0; // 4 x the group's exact sum
          for (int q = 0; q < 4; q++) p = __dp4a(a[i][q], b[j][q], p);
          int r = ty * GTM + i, c = tx * GTN + j;
          uint64_t v = (uint64_t)(p < 0 ? -p : p) * (uint64_t)(s.ma[g][r] * s.mb[g][c]);
          int sh = s.xa[g][r] + s.xb[g][c] - 2 - lsb[i][j];
          v = sh >= 0 ? v << sh : sh > -64 ? v >> -sh : 0;
          sum[i][j] += p < 0 ? -(int64_t)v : (int64_t)v;
        }
    }
    for (int i = 0; i < GTM; i++)
      for (int j = 0; j < GTN; j++) {
        int r = ty * GTM + i, c = tx * GTN + j;
        unsigned gr = r0 + r, gc = c0 + c;
        if (gr >= M || gc >= N) continue;
        tc5_term ct;
        tc5__c_term(&m, acc[i][j], en, sc, &ct);
        if (s.na[r] | s.nb[c] | (ct.cls != TC5_TERM_FINITE)) {
          /* the only NaN or infinity: a scale factor's (its group's term is
           * NaN, which wins) or C's (every group term is finite) */
          acc[i][j] = s.na[r] | s.nb[c] ? tc5__special_code(m.c_f16, TC5_TERM_NAN, 0)
                                        : tc5__special_code(m.c_f16, ct.cls, ct.sign);
          continue;
        }
        int64_t cv = (int64_t)tc5__term_at(&ct, lsb[i][j]), tot = sum[i][j] + (ct.sign ? -cv : cv);
        int neg = tot < 0;
        acc[i][j] = tc5__round_code(m.out, neg, neg ? (uint64_t)-tot : (uint64_t)tot, lsb[i][j]);
      }
    en = true, sc = 0;
  }
  acc_store(acc, D, M, N, r0 + ty * GTM, c0 + tx * GTN);
}

bool small_float(tc5_type t) {
  return t == TC5_E4M3 || t == TC5_E5M2 || t == TC5_E2M3 || t == TC5_E3M2 || t == TC5_E2M1;
}

} // namespace

bool tc5__steps_ok(const tc5_dot *d, unsigned M, unsigned K) {
  return (M + SBM - 1) / SBM <= 65535 && d->group == 0 && d->chunk == SKC && K % SKC == 0 && d->frac_bits <= 25 && small_float(d->atype) &&
         small_float(d->btype) && (d->ctype == TC5_F32 || d->ctype == TC5_F16) &&
         (d->out == TC5_OUT_RZ_F32 || d->out == TC5_OUT_RNE_F16 || d->out == TC5_OUT_RZ_E8M13) &&
         (d->stype == TC5_TYPE_NONE || (d->stype == TC5_UE8M0 && d->block == SKC)) && d->zero_exp > -200;
}

bool tc5__groups_ok(const tc5_dot *d, unsigned M, unsigned K) {
  return (M + GBM - 1) / GBM <= 65535 && d->group == 16 && d->chunk == GKC && K % GKC == 0 && d->frac_bits <= 40 && d->atype == TC5_E2M1 &&
         d->btype == TC5_E2M1 && d->ctype == TC5_F32 && d->out == TC5_OUT_RZ_F32 &&
         (d->stype == TC5_UE8M0 || d->stype == TC5_UE4M3) && (d->block == 16 || d->block == 32) &&
         d->zero_exp > -200;
}

tc5_status tc5__gemm_steps(const tc5_dot *d, const tc5_arith_model *am, unsigned M, unsigned N, unsigned K,
                           const uint32_t *A, const uint32_t *B, const uint32_t *SA, const uint32_t *SB, uint32_t *D,
                           const tc5_dot_opts *o) {
  dim3 grid((N + SBN - 1) / SBN, (M + SBM - 1) / SBM);
  steps_kernel<<<grid, 256>>>(*am, M, N, K, A, B, SA, SB, D, o->enable_input_d, o->scale_input_d,
                              o->negate_a ^ o->negate_b);
  return TC5_OK;
}

tc5_status tc5__gemm_groups(const tc5_dot *d, const tc5_arith_model *am, unsigned M, unsigned N, unsigned K,
                            const uint32_t *A, const uint32_t *B, const uint32_t *SA, const uint32_t *SB, uint32_t *D,
                            const tc5_dot_opts *o) {
  dim3 grid((N + GBN - 1) / GBN, (M + GBM - 1) / GBM);
  groups_kernel<<<grid, 256>>>(*am, M, N, K, A, B, SA, SB, D, o->enable_input_d, o->scale_input_d,
                               o->negate_a ^ o->negate_b);
  return TC5_OK;
}
