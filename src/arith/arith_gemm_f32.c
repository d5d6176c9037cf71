/* tc5 — tc5_gemm's AVX-512 kernel: the portable kernel's results
 * (arith_gemm.c) with 16 products per vector instead of 8.
 *
 * A step sums the terms t = a * b truncated toward zero at u = 2^(E - F)
 * (E: the largest nominal exponent among the terms and C). Per step, every
 * row of A is scaled by 2^-alpha (alpha: the row's largest exponent in the
 * step) and every column of B by 2^-beta, into floats a', b' (|a'|, |b'| < 2).
 * Then t / u = a' * b' * S with S = 2^(alpha + beta + F - E), a power of
 * two, and
 *   - pass 1 finds E - alpha - beta as the largest of (ea - alpha) +
 *     (eb - beta) over the step, in signed bytes (each clamped to -64): 64
 *     lanes per instruction, 4 rows x 16 columns. It is exact when the
 *     largest is above -64 (the pair that reaches it was not clamped);
 *     otherwise the lane's step is "unsafe" and runs the portable way;
 *   - pass 2 forms a' * b' * S in float (exact: significands of at most
 *     11 bits give products of at most 22, and every term that can reach u
 *     is far from float's subnormals since S <= 2^(F + 63)), truncates it
 *     with vcvttps2dq (toward zero: the model's truncation) and sums int32s
 *     (each term is below 2^(F + 2); at most 2^(29 - F) of them are summed
 *     at a time, so the sum cannot overflow);
 *   - C, kept as a significand cs in [1, 2) (or 0, or below 1 after a
 *     subnormal result) and its exponent, is truncated the same way, and
 *     the step's exact integer V is converted with vcvtdq2ps {rz-sae}:
 *     toward zero to 24 bits, the f32 output's rounding, exact while the
 *     result is normal (else the portable way).
 * Layouts (gemm_job): af row-major; ae8 one 32-bit word per 4 rows and k,
 * a byte per row; bf in B's panels (BIDX); be8 64 bytes per panel and k,
 * column w's byte at 4w .. 4w + 3, so that a broadcast word of ae8 adds row
 * r's exponent to column w's in byte 4w + r. */
#include <math.h>

#include "arith/arith_gemm_impl.h"

#define CLAMP (-64) /* exponents relative to the step's largest, from here on "far below" */

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#include <immintrin.h>

#define TGT __attribute__((target("avx512f,avx512dq,avx512bw,avx512vl")))
#define RZ (_MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC)

/* ---- operands ---------------------------------------------------------------------- */

/* whether a type's codes convert to float in vectors (all its values are
 * floats): bf16, f16, tf32 directly, the 8-bit and narrower ones by table */
static bool vec_type(tc5_type t) {
  return t == TC5_BF16 || t == TC5_F16 || t == TC5_TF32 || t == TC5_E4M3 || t == TC5_E5M2 ||
         t == TC5_E2M3 || t == TC5_E3M2 || t == TC5_E2M1;
}

/* whether to_float reads a type's codes from a table (the 8-bit and narrower ones) */
static bool table_type(tc5_type t) {
  return vec_type(t) && t != TC5_BF16 && t != TC5_F16 && t != TC5_TF32;
}

/* a table of the 256 codes' values of a type (NaN/Inf: a float NaN, as the vector path sees them) */
static void code_table(const gemm_job *J, const fdec *f, float tab[256]) {
  for (unsigned c = 0; c < 256; c++) {
    double v;
    int32_t e;
    bool sp = false;
    tc5__gemm_decode(J, f, c, false, NULL, &v, &e, &sp);
    tab[c] = sp ? NAN : (float)v;
  }
}

/* the vector paths' choice, and the tables of the types that use one: bf16, f16
 * and tf32 convert by shifts and masks, so a job of them (mma.sync's 16 x 8 x 8
 * tiles, one tc5_gemm an instruction) decodes no 512 codes it never reads */
void tc5__gemm_f32_init(gemm_job *J) {
  const tc5_dot *m = J->m;
  J->veca = !m->block && vec_type(m->atype);
  J->vecb = !m->block && vec_type(m->btype);
  if (J->veca && table_type(m->atype)) code_table(J, &J->fa, J->tab_a);
  if (J->vecb && table_type(m->btype)) code_table(J, &J->fb, J->tab_b);
}

/* 16 codes of type t to floats, exactly (negated when neg) */
TGT static inline __m512 to_float(tc5_type t, const float *tab, __m512i codes, bool neg) {
  __m512 f;
  if (t == TC5_BF16) f = _mm512_castsi512_ps(_mm512_slli_epi32(codes, 16));
  else if (t == TC5_F16) f = _mm512_cvtph_ps(_mm512_cvtepi32_epi16(codes));
  else if (t == TC5_TF32) f = _mm512_castsi512_ps(_mm512_and_si512(codes, _mm512_set1_epi32((int32_t)0xFFFFE000u)));
  else f = _mm512_i32gather_ps(_mm512_and_si512(codes, _mm512_set1_epi32(0xFF)), tab, 4);
  return neg ? _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(f), _mm512_set1_epi32(INT32_MIN))) : f;
}

/* the nominal exponents of 16 floats of a type whose smallest normal
 * exponent is emin (ZMARK: zero), and the NaN/Inf lanes */
TGT static inline __m512i nominal_exp(__m512 f, int emin, __mmask16 *special) {
  __m512i b = _mm512_castps_si512(f);
  __m512i ef = _mm512_and_si512(_mm512_srli_epi32(b, 23), _mm512_set1_epi32(0xFF));
  *special = _mm512_cmpeq_epi32_mask(ef, _mm512_set1_epi32(0xFF));
  __m512i e = _mm512_max_epi32(_mm512_sub_epi32(ef, _mm512_set1_epi32(127)), _mm512_set1_epi32(emin));
  return _mm512_mask_mov_epi32(_mm512_set1_epi32(ZMARK), _mm512_test_epi32_mask(b, _mm512_set1_epi32(INT32_MAX)), e);
}

/* a mask of the first n (at most 16) lanes */
static inline __mmask16 lanes(unsigned n) {
  return n >= 16 ? 0xFFFF : (__mmask16)((1u << n) - 1u);
}

/* exponents relative to the step's largest, as pass 1 sees them: clamped
 * at CLAMP, and CLAMP for a zero */
TGT static inline __m512i rel_exp(__m512i e, __m512i top) {
  __m512i d = _mm512_max_epi32(_mm512_sub_epi32(e, top), _mm512_set1_epi32(CLAMP));
  return _mm512_mask_mov_epi32(d, _mm512_cmpeq_epi32_mask(e, _mm512_set1_epi32(ZMARK)), _mm512_set1_epi32(CLAMP));
}

/* a mask as 16 bytes of 0 / 1, and back (the portable step's flags) */
TGT static inline void mask_to_bytes(uint8_t b[TW], __mmask16 m) {
  _mm_storeu_si128((__m128i *)b, _mm_and_si128(_mm_movm_epi8(m), _mm_set1_epi8(1)));
}
TGT static inline __mmask16 bytes_to_mask(const uint8_t b[TW]) {
  return _mm_test_epi8_mask(_mm_loadu_si128((const __m128i *)b), _mm_set1_epi8(-1));
}

/* element (i, k) of A / (k, j) of B, exactly, with its scale (the slow way) */
static void elem_a(const gemm_job *J, unsigned i, unsigned k, double *v, int32_t *e, bool *sp) {
  const tc5_dot *m = J->m;
  unsigned nb = m->block ? J->K / m->block : 0;
  tc5__gemm_decode(J, &J->fa, J->A[(size_t)i * J->K + k], J->o->negate_a,
                   nb ? &J->SA[(size_t)i * nb + k / m->block] : NULL, v, e, sp);
}
static void elem_b(const gemm_job *J, unsigned k, unsigned j, double *v, int32_t *e, bool *sp) {
  const tc5_dot *m = J->m;
  *v = 0, *e = ZMARK;
  if (j < J->N)
    tc5__gemm_decode(J, &J->fb, J->B[(size_t)k * J->N + j], J->o->negate_b,
                     m->block ? &J->SB[(size_t)(k / m->block) * J->N + j] : NULL, v, e, sp);
}

TGT void tc5__gemm_f32_prepare_a(gemm_job *J, unsigned r0) {
  const unsigned K = J->K, L = J->L;
  for (unsigned i = r0; i < r0 + TR && i < J->M; i++) {
    bool sp = false;
    for (unsigned ch = 0, k0 = 0; k0 < K; ch++, k0 += L) {
      unsigned n = K - k0 < L ? K - k0 : L;
      float fv[64 + 16];
      double dv[64];
      int32_t e[64 + 16];
      __m512i top = _mm512_set1_epi32(ZMARK);
      if (J->veca) {
        for (unsigned k = 0; k < n; k += 16) {
          __mmask16 in = lanes(n - k), spm;
          __m512i codes = _mm512_maskz_loadu_epi32(in, J->A + (size_t)i * K + k0 + k);
          __m512 f = to_float(J->m->atype, J->tab_a, codes, J->o->negate_a);
          __m512i ev = nominal_exp(f, J->fa.emin, &spm);
          sp |= (spm & in) != 0;
          top = _mm512_mask_max_epi32(top, in, top, ev);
          _mm512_storeu_ps(fv + k, f);
          _mm512_storeu_si512(e + k, ev);
        }
      } else {
        for (unsigned k = 0; k < n; k++) elem_a(J, i, k0 + k, &dv[k], &e[k], &sp);
        for (unsigned k = 0; k < n; k += 16) {
          __mmask16 in = lanes(n - k);
          top = _mm512_mask_max_epi32(top, in, top, _mm512_maskz_loadu_epi32(in, e + k));
        }
      }
      int32_t alpha = _mm512_reduce_max_epi32(top);
      size_t x = (size_t)i * J->nchunks + ch;
      J->aall[x] = alpha == ZMARK ? -1 : 0;
      alpha = alpha == ZMARK ? 0 : alpha;
      J->alpha[x] = alpha;
      float *af = J->af + (size_t)i * K + k0;
      if (J->veca) {
        __m512 p = _mm512_scalef_ps(_mm512_set1_ps(1.0f), _mm512_set1_ps((float)-alpha));
        for (unsigned k = 0; k < n; k += 16) {
          __mmask16 in = lanes(n - k);
          _mm512_mask_storeu_ps(af + k, in, _mm512_mul_ps(_mm512_loadu_ps(fv + k), p));
        }
      } else {
        for (unsigned k = 0; k < n; k++) af[k] = (float)(dv[k] * pow2d(-alpha));
      }
      int8_t *a8 = (int8_t *)(J->ae8 + (size_t)(i / 4) * K + k0) + i % 4;
      for (unsigned k = 0; k < n; k += 16) {
        int32_t d[16];
        _mm512_storeu_si512(d, rel_exp(_mm512_maskz_loadu_epi32(lanes(n - k), e + k), _mm512_set1_epi32(alpha)));
        for (unsigned w = 0; w < 16 && k + w < n; w++) {
          if (e[k + w] == ZMARK) J->azero[x] = -1;
          a8[4 * (k + w)] = (int8_t)d[w];
        }
      }
    }
    J->rowsp[i] = sp;
  }
}

TGT void tc5__gemm_f32_prepare_b(gemm_job *J, unsigned j0) {
  const unsigned K = J->K, L = J->L, N = J->N;
  const __mmask16 cols = lanes(N - j0);
  const __m512i zmark = _mm512_set1_epi32(ZMARK);
  /* byte 0 of each 32-bit lane into all four */
  const __m512i rep = _mm512_set_epi8(60, 60, 60, 60, 56, 56, 56, 56, 52, 52, 52, 52, 48, 48, 48, 48, 44, 44,
                                      44, 44, 40, 40, 40, 40, 36, 36, 36, 36, 32, 32, 32, 32, 28, 28, 28, 28,
                                      24, 24, 24, 24, 20, 20, 20, 20, 16, 16, 16, 16, 12, 12, 12, 12, 8, 8, 8, 8,
                                      4, 4, 4, 4, 0, 0, 0, 0);
  __mmask16 sp = 0;
  for (unsigned ch = 0, k0 = 0; k0 < K; ch++, k0 += L) {
    unsigned n = K - k0 < L ? K - k0 : L;
    __m512 fv[64];
    __m512i ev[64];
    double dv[64][TW];
    __m512i top = zmark;
    __mmask16 anyz = 0, allz = 0xFFFF;
    for (unsigned k = 0; k < n; k++) {
      if (J->vecb) {
        __mmask16 spm;
        __m512i codes = _mm512_maskz_loadu_epi32(cols, J->B + (size_t)(k0 + k) * N + j0);
        fv[k] = to_float(J->m->btype, J->tab_b, codes, J->o->negate_b);
        ev[k] = nominal_exp(fv[k], J->fb.emin, &spm);
        sp |= spm & cols;
      } else {
        int32_t e[TW];
        for (unsigned w = 0; w < TW; w++) {
          bool s = false;
          elem_b(J, k0 + k, j0 + w, &dv[k][w], &e[w], &s);
          sp |= (__mmask16)(s << w);
        }
        ev[k] = _mm512_loadu_si512(e);
      }
      ev[k] = _mm512_mask_mov_epi32(ev[k], (__mmask16)~cols, zmark);
      __mmask16 z = _mm512_cmpeq_epi32_mask(ev[k], zmark);
      anyz |= z;
      allz &= z;
      top = _mm512_max_epi32(top, ev[k]);
    }
    __m512i beta = _mm512_mask_mov_epi32(top, allz, _mm512_setzero_si512());
    size_t x = (size_t)ch * J->Np + j0;
    _mm512_storeu_si512(J->beta + x, beta);
    _mm512_storeu_si512(J->ball + x, _mm512_movm_epi32(allz));
    _mm512_storeu_si512(J->bzero + x, _mm512_movm_epi32(anyz));
    __m512 p = _mm512_scalef_ps(_mm512_set1_ps(1.0f), _mm512_cvtepi32_ps(_mm512_sub_epi32(_mm512_setzero_si512(), beta)));
    int32_t bt[TW];
    _mm512_storeu_si512(bt, beta);
    for (unsigned k = 0; k < n; k++) {
      float *bf = J->bf + BIDX(k0 + k, j0, K);
      if (J->vecb) {
        _mm512_store_ps(bf, _mm512_mul_ps(fv[k], p));
      } else {
        for (unsigned w = 0; w < TW; w++) bf[w] = (float)(dv[k][w] * pow2d(-bt[w]));
      }
      _mm512_store_si512(J->be8 + ((size_t)(j0 / TW) * K + k0 + k) * 64, _mm512_shuffle_epi8(rel_exp(ev[k], beta), rep));
    }
  }
  for (unsigned w = 0; w < TW; w++) J->colsp[j0 + w] = (sp >> w) & 1;
}

bool tc5__gemm_f32_usable(const tc5_dot *m) {
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512dq") ||
      !__builtin_cpu_supports("avx512bw") || !__builtin_cpu_supports("avx512vl"))
    return false;
  const tc5_type_info *a = tc5_spec_type(m->atype), *b = tc5_spec_type(m->btype);
  /* f32 out toward zero; products exact in float; S <= 2^(F + 63) */
  return m->out == TC5_OUT_RZ_F32 && m->ctype == TC5_F32 && m->frac_bits <= 25 && a->man_bits + b->man_bits <= 22 &&
         a->special != TC5_SPECIAL_INT;
}

/* a step's exact operands (B's decoded once per step and tile) */
typedef struct slow_ops {
  bool have_b;
  double a[64], b[64 * TW];
  int32_t ae[64], be[64 * TW];
} slow_ops;

/* one step of row i the portable way, on its operands decoded exactly:
 * cs, ce (C as significand and exponent) in and out */
__attribute__((noinline)) static void slow_step(gemm_job *J, unsigned i, unsigned j0, unsigned k0, unsigned n,
                                                slow_ops *x, float cs[TW], int32_t ce[TW], uint8_t bad[TW]) {
  __atomic_fetch_add(&J->slow_steps, 1, __ATOMIC_RELAXED);
  bool sp = false;
  if (!x->have_b) {
    for (unsigned k = 0; k < n; k++)
      for (unsigned w = 0; w < TW; w++) elem_b(J, k0 + k, j0 + w, &x->b[k * TW + w], &x->be[k * TW + w], &sp);
    x->have_b = true;
  }
  for (unsigned k = 0; k < n; k++) elem_a(J, i, k0 + k, &x->a[k], &x->ae[k], &sp);
  double c[TW];
  for (unsigned w = 0; w < TW; w++) c[w] = (double)cs[w] * pow2d(ce[w]);
  tc5__gemm_step_exact(J, x->a, x->ae, x->b, x->be, TW, n, c, ce, bad);
  for (unsigned w = 0; w < TW; w++) cs[w] = (float)(c[w] * pow2d(-ce[w]));
}

/* pass 2 over k in [kb, ke): out[r] = the sum of row r's terms
 * a * b * S[r] truncated toward zero (b: TW floats per k from bp) */
TGT static inline void pass2(const float *const arow[TR], const float *bp, const __m512 S[TR], unsigned kb,
                             unsigned ke, int32_t out[TR][TW]) {
  __m512i acc[TR];
  for (unsigned r = 0; r < TR; r++) acc[r] = _mm512_setzero_si512();
  for (unsigned k = kb; k < ke; k++, bp += TW) {
    __m512 b = _mm512_load_ps(bp);
    for (unsigned r = 0; r < TR; r++)
      acc[r] = _mm512_add_epi32(_mm512_cvttps_epi32(_mm512_mul_ps(_mm512_mul_ps(_mm512_set1_ps(arow[r][k]), b), S[r])),
                                acc[r]);
  }
  for (unsigned r = 0; r < TR; r++) _mm512_storeu_si512(out[r], acc[r]);
}

/* pass 1 over n k: the largest of row exponent + column exponent in
 * bytes, 4 rows x 16 columns per vector (a0: rows 0-3; a1: rows 4-7 when
 * `two`; b: 64 bytes per k); two chains per group for the adds' latency */
TGT static inline void pass1(const uint32_t *a0, const uint32_t *a1, const int8_t *b, unsigned n, bool two,
                             __m512i *mx0, __m512i *mx1) {
  const __m512i lo = _mm512_set1_epi8(-128);
  __m512i x0 = lo, x1 = lo, y0 = lo, y1 = lo, b1 = lo;
  for (unsigned k = 0; k < n; k += 2, b += 128) {
    bool pair = k + 1 < n;
    __m512i b0 = _mm512_load_si512(b);
    if (pair) b1 = _mm512_load_si512(b + 64);
    x0 = _mm512_max_epi8(x0, _mm512_add_epi8(_mm512_set1_epi32((int32_t)a0[k]), b0));
    if (pair) x1 = _mm512_max_epi8(x1, _mm512_add_epi8(_mm512_set1_epi32((int32_t)a0[k + 1]), b1));
    if (two) {
      y0 = _mm512_max_epi8(y0, _mm512_add_epi8(_mm512_set1_epi32((int32_t)a1[k]), b0));
      if (pair) y1 = _mm512_max_epi8(y1, _mm512_add_epi8(_mm512_set1_epi32((int32_t)a1[k + 1]), b1));
    }
  }
  *mx0 = _mm512_max_epi8(x0, x1);
  *mx1 = _mm512_max_epi8(y0, y1);
}

/* *v += a (16 int32s); the lanes where that overflowed */
TGT static inline __mmask16 add_ovf(int32_t v[TW], __m512i a) {
  __m512i x = _mm512_loadu_si512(v), s = _mm512_add_epi32(x, a);
  _mm512_storeu_si512(v, s);
  /* a signed overflow: x and a agree in sign, s does not */
  return _mm512_movepi32_mask(_mm512_ternarylogic_epi32(x, a, s, 0x42));
}

/* C (f32 codes) of rows i0.. and columns j0.. of a tile as significand cs
 * and exponent ce (scale-input-d applied); bad: the elements the reference
 * computes (NaN/Inf in C, its row or its column); done: those an earlier
 * block of k already gave to the reference. After the first block of k, C
 * is the running value and the flags are the last block's. */
TGT static inline void load_c(gemm_job *J, unsigned i0, unsigned nr, unsigned j0, __mmask16 cols, bool first,
                              bool enable, int32_t scale, float cs[TR][TW], int32_t ce[TR][TW],
                              uint8_t bad[TR][TW], __mmask16 done[TR]) {
  const unsigned N = J->N, Np = J->Np;
  const __m512i zexp = _mm512_set1_epi32(J->m->zero_exp), ff = _mm512_set1_epi32(0xFF);
  const __m512i sigm = _mm512_set1_epi32((int32_t)0x807FFFFF), onef = _mm512_set1_epi32(0x3F800000);
  const __m512i absm = _mm512_set1_epi32(0x7FFFFFFF);
  const __mmask16 colsp = bytes_to_mask(J->colsp + j0);
  if (enable && j0 + TW < N) /* the next tile's C: the next panel, these rows */
    for (unsigned r = 0; r < nr; r++) _mm_prefetch((const char *)(J->D + (size_t)(i0 + r) * N + j0 + TW), _MM_HINT_T0);
  for (unsigned r = 0; r < TR; r++) {
    __m512i code = _mm512_setzero_si512();
    if (r < nr && enable)
      code = _mm512_maskz_loadu_epi32(cols, J->D + (size_t)(i0 + r) * N + j0);
    __m512i ef = _mm512_and_si512(_mm512_srli_epi32(code, 23), ff);
    __m512i mant = _mm512_and_si512(code, _mm512_set1_epi32(0x7FFFFF));
    __mmask16 normal = _mm512_test_epi32_mask(ef, ef), nz = _mm512_test_epi32_mask(code, absm);
    /* normal: 1.m and e - 127; subnormal: 0.m and -126; zero: 0 and zero_exp */
    __m512 sub = _mm512_mul_ps(_mm512_cvtepi32_ps(mant), _mm512_set1_ps(0x1p-23f));
    sub = _mm512_castsi512_ps(_mm512_or_si512(_mm512_castps_si512(sub),
                                              _mm512_and_si512(code, _mm512_set1_epi32((int32_t)0x80000000u)))); /* the sign */
    __m512 sig = _mm512_castsi512_ps(_mm512_ternarylogic_epi32(code, sigm, onef, 0xEA));
    __m512i e = _mm512_mask_blend_epi32(normal, _mm512_set1_epi32(-126), _mm512_sub_epi32(ef, _mm512_set1_epi32(127)));
    e = _mm512_sub_epi32(e, _mm512_set1_epi32(scale));
    _mm512_storeu_ps(cs[r], _mm512_maskz_mov_ps(nz, _mm512_mask_blend_ps(normal, sub, sig)));
    _mm512_storeu_si512(ce[r], _mm512_mask_blend_epi32(nz, zexp, e));
    done[r] = !first && r < nr ? bytes_to_mask(J->kbad + (size_t)(i0 + r) * Np + j0) : 0;
    __mmask16 badm = first ? _mm512_cmpeq_epi32_mask(ef, ff) | colsp | (r < nr && J->rowsp[i0 + r] ? 0xFFFF : 0)
                           : done[r];
    mask_to_bytes(bad[r], badm);
  }
}

/* the results (or the running C between blocks) into D, and the elements
 * the reference takes over */
TGT static inline void store_d(gemm_job *J, unsigned i0, unsigned nr, unsigned j0, uint32_t *col, unsigned kbeg,
                               bool last, __mmask16 cols, float cs[TR][TW], int32_t ce[TR][TW],
                               uint8_t bad[TR][TW], const __mmask16 done[TR]) {
  const unsigned N = J->N, Np = J->Np;
  const __m512i sigm = _mm512_set1_epi32((int32_t)0x807FFFFF), onef = _mm512_set1_epi32(0x3F800000);
  const __m512i absm = _mm512_set1_epi32(0x7FFFFFFF), e253 = _mm512_set1_epi32(253);
  /* the results (or the running C between blocks): f32 codes, a subnormal
   * one from its double. Where bad, the reference takes over from this
   * block's first k to the end of K, from the C in D (the caller's, or the
   * running C that the last block left), and the next blocks skip it. */
  for (unsigned r = 0; r < nr; r++) {
    uint32_t *d = J->D + (size_t)(i0 + r) * N + j0;
    __m512i sb = _mm512_loadu_si512(cs[r]), e = _mm512_loadu_si512(ce[r]);
    __mmask16 nz = _mm512_test_epi32_mask(sb, absm), bm = bytes_to_mask(bad[r]);
    /* cs in [1, 2) and a normal exponent */
    __mmask16 normal = _mm512_cmpeq_epi32_mask(_mm512_and_si512(sb, _mm512_set1_epi32(0x7F800000)), onef) &
                       _mm512_cmple_epu32_mask(_mm512_add_epi32(e, _mm512_set1_epi32(126)), e253);
    __mmask16 plain = (__mmask16)(cols & ~bm & (normal | ~nz));
    __m512i code = _mm512_ternarylogic_epi32(sb, sigm, _mm512_slli_epi32(_mm512_add_epi32(e, _mm512_set1_epi32(127)), 23), 0xEA);
    _mm512_mask_storeu_epi32(d, plain, _mm512_maskz_mov_epi32(nz, code)); /* a zero is +0 (tc5__round_out) */
    if (!last) mask_to_bytes(J->kbad + (size_t)(i0 + r) * Np + j0, bm);
    for (unsigned w = 0; w < TW && j0 + w < N; w++) {
      if (plain >> w & 1) continue;
      if (bm >> w & 1) {
        if (!(done[r] >> w & 1)) tc5__gemm_reference_elem(J, i0 + r, j0 + w, col, kbeg);
        continue;
      }
      float f = (float)((double)cs[r][w] * pow2d(ce[r][w])); /* exact: an f32 value */
      memcpy(&d[w], &f, 4);
    }
  }
}

/* rows of a tile run in two groups of 4 (pass 1's bytes: 4 rows x 16) */
TGT void tc5__gemm_tile_f32(gemm_job *J, unsigned i0, unsigned nr, unsigned j0, uint32_t *col, unsigned kbeg,
                            unsigned kend) {
  const tc5_dot *m = J->m;
  const unsigned L = J->L, K = J->K, Np = J->Np;
  const int F = (int)m->frac_bits;
  /* terms summed in one int32: each is below 2^(F + 2) */
  const unsigned nacc = F >= 29 ? 1 : (1u << (29 - F)) < L ? (1u << (29 - F)) : L;
  const __m512i zexp = _mm512_set1_epi32(m->zero_exp), zmark = _mm512_set1_epi32(ZMARK);
  const __m512i clamp = _mm512_set1_epi32(CLAMP), one = _mm512_set1_epi32(1);
  const __m512i e254 = _mm512_set1_epi32(254), e253 = _mm512_set1_epi32(253);
  const __m512i ff = _mm512_set1_epi32(0xFF), sigm = _mm512_set1_epi32((int32_t)0x807FFFFF);
  const __m512i onef = _mm512_set1_epi32(0x3F800000);
  const unsigned panel = j0 / TW;
  const unsigned N = J->N;
  const __mmask16 cols = lanes(N - j0);
  const bool first = kbeg == 0, last = kend == K;
  const bool enable = !first || J->o->enable_input_d;
  const int32_t scale = first ? (int32_t)J->o->scale_input_d : 0;
  float cs[TR][TW];
  int32_t ce[TR][TW];
  uint8_t bad[TR][TW];
  __mmask16 done[TR]; /* elements an earlier block of k gave to the reference */
  load_c(J, i0, nr, j0, cols, first, enable, scale, cs, ce, bad, done);
  slow_ops xs; /* the exact operands of a step that runs the portable way */
  const float *arow[TR];
  for (unsigned r = 0; r < TR; r++) arow[r] = J->af + (size_t)(i0 + (r < nr ? r : 0)) * K;
  const uint32_t *a8 = J->ae8 + (size_t)(i0 / 4) * K;
  for (unsigned k0 = kbeg, ch = kbeg / L; k0 < kend; k0 += L, ch++) {
    unsigned n = kend - k0 < L ? kend - k0 : L;
    /* pass 1: (E - alpha - beta) for 4 rows x 16 columns per vector */
    __m512i mx0, mx1;
    pass1(a8 + k0, nr > 4 ? a8 + K + k0 : a8 + k0, J->be8 + ((size_t)panel * K + k0) * 64, n, nr > 4, &mx0, &mx1);
    const size_t bx = (size_t)ch * Np + j0;
    const __m512i beta = _mm512_loadu_si512(J->beta + bx);
    const __m512i betaf = _mm512_add_epi32(beta, _mm512_set1_epi32(F + 127));
    const __mmask16 ballm = _mm512_movepi32_mask(_mm512_loadu_si512(J->ball + bx));
    const __mmask16 bzm = _mm512_movepi32_mask(_mm512_loadu_si512(J->bzero + bx));
    int32_t E[TR][TW];
    __m512 S[TR];
    __mmask16 slow[TR]; /* lanes whose step runs the portable way */
#pragma GCC unroll 8
    for (unsigned r = 0; r < TR; r++) {
      size_t x = (size_t)(i0 + (r < nr ? r : 0)) * J->nchunks + ch;
      /* row r's byte of each column, sign-extended */
      __m512i d = _mm512_srai_epi32(_mm512_sll_epi32(r < 4 ? mx0 : mx1, _mm_cvtsi32_si128(24 - 8 * (int)(r % 4))), 24);
      /* lanes where every term is zero: no terms; where some is: zero_exp */
      __mmask16 allz = J->aall[x] ? 0xFFFF : ballm, somez = J->azero[x] ? 0xFFFF : bzm;
      slow[r] = _mm512_mask_cmple_epi32_mask((__mmask16)~allz, d, clamp);
      __m512i al = _mm512_set1_epi32(J->alpha[x]);
      /* E: the terms' largest, C's, zero_exp */
      __m512i e = _mm512_add_epi32(_mm512_add_epi32(beta, al), d);
      if (allz) e = _mm512_mask_mov_epi32(e, allz, zmark);
      e = _mm512_max_epi32(e, _mm512_loadu_si512(ce[r]));
      if (somez) e = _mm512_mask_max_epi32(e, somez, e, zexp);
      _mm512_storeu_si512(E[r], e);
      /* S = 2^(alpha + beta + F - E), clamped into float's normal range
       * (below it every term truncates to 0 anyway) */
      __m512i sx = _mm512_sub_epi32(_mm512_add_epi32(betaf, al), e);
      sx = _mm512_min_epi32(_mm512_max_epi32(sx, one), e254);
      S[r] = _mm512_castsi512_ps(_mm512_slli_epi32(sx, 23));
    }
    /* pass 2: the terms, in blocks that cannot overflow */
    int32_t V[TR][TW];
    for (unsigned kb = k0; kb < k0 + n; kb += nacc) {
      unsigned ke = kb + nacc < k0 + n ? kb + nacc : k0 + n;
      int32_t blk[TR][TW];
      pass2(arow, J->bf + BIDX(kb, j0, K), S, kb, ke, kb == k0 ? V : blk);
      if (kb != k0)
        for (unsigned r = 0; r < TR; r++) slow[r] |= add_ovf(V[r], _mm512_loadu_si512(blk[r]));
    }
    /* round V * 2^(E - F) toward zero to f32 */
    xs.have_b = false;
#pragma GCC unroll 8
    for (unsigned r = 0; r < TR; r++) {
      if (r >= nr) break;
      /* plus C truncated: cs * 2^(F - (E - ce)) */
      __m512i e = _mm512_loadu_si512(E[r]), c0 = _mm512_loadu_si512(ce[r]);
      __m512i sx = _mm512_max_epi32(_mm512_sub_epi32(_mm512_set1_epi32(F + 127), _mm512_sub_epi32(e, c0)), one);
      __m512i ci = _mm512_cvttps_epi32(_mm512_mul_ps(_mm512_loadu_ps(cs[r]), _mm512_castsi512_ps(_mm512_slli_epi32(sx, 23))));
      __m512i v = _mm512_loadu_si512(V[r]), sum = _mm512_add_epi32(v, ci);
      __mmask16 bad_r = slow[r] | _mm512_movepi32_mask(_mm512_ternarylogic_epi32(v, ci, sum, 0x42)); /* overflow */
      __m512 vf = _mm512_cvt_roundepi32_ps(sum, RZ);
      __m512i vb = _mm512_castps_si512(vf);
      __mmask16 nz = _mm512_test_epi32_mask(sum, sum);
      /* the result's exponent: vf's, plus E - F */
      __m512i rexp = _mm512_add_epi32(_mm512_and_si512(_mm512_srli_epi32(vb, 23), ff),
                                      _mm512_sub_epi32(e, _mm512_set1_epi32(F + 127)));
      /* normal f32: -126 <= rexp <= 127 */
      __mmask16 normal = _mm512_cmple_epu32_mask(_mm512_add_epi32(rexp, _mm512_set1_epi32(126)), e253);
      if ((__mmask16)(bad_r | (nz & ~normal))) {
        slow_step(J, i0 + r, j0, k0, n, &xs, cs[r], ce[r], bad[r]);
        continue;
      }
      __m512i sig = _mm512_ternarylogic_epi32(vb, sigm, onef, 0xEA); /* (vb & sigm) | onef */
      _mm512_storeu_ps(cs[r], _mm512_maskz_mov_ps(nz, _mm512_castsi512_ps(sig)));
      _mm512_storeu_si512(ce[r], _mm512_mask_blend_epi32(nz, zexp, rexp));
    }
  }
  store_d(J, i0, nr, j0, col, kbeg, last, cols, cs, ce, bad, done);
}

#else /* no AVX-512 kernel on this platform: the portable one runs */

bool tc5__gemm_f32_usable(const tc5_dot *m) {
  (void)m;
  return false;
}

void tc5__gemm_tile_f32(gemm_job *J, unsigned i0, unsigned nr, unsigned j0, uint32_t *col, unsigned kbeg,
                        unsigned kend) {
  (void)J, (void)i0, (void)nr, (void)j0, (void)col, (void)kbeg, (void)kend;
}
void tc5__gemm_f32_init(gemm_job *J) { (void)J; }
void tc5__gemm_f32_prepare_a(gemm_job *J, unsigned r0) { (void)J, (void)r0; }
void tc5__gemm_f32_prepare_b(gemm_job *J, unsigned j0) { (void)J, (void)j0; }

#endif
