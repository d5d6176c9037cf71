/* tc5 internal — one output element of the model (docs/arithmetic.md) as
 * plain inline functions that compile for the host (arith.c: tc5_dot_run,
 * the reference every other path is tested against) and, under nvcc, for
 * the GPU (gpu/gemm_cuda.cu: tc5_gemm_cuda): the model's logic in one
 * place. No library calls; the element formats come as tc5_fmt (a compact
 * copy of the spec table's fields, tc5__fmt_of). */
#ifndef TC5_ARITH_STEP_H
#define TC5_ARITH_STEP_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "arith/arith_impl.h"
#include "spec/spec_tables.h"

#ifdef __CUDACC__
#define TC5_HD __host__ __device__ static inline
#ifdef __CUDA_ARCH__
#define TC5_CLZLL(x) __clzll((long long)(x))
#else
#define TC5_CLZLL(x) __builtin_clzll(x)
#endif
#else
#define TC5_HD static inline
#define TC5_CLZLL(x) __builtin_clzll(x)
#endif

/* an element format: the fields of tc5_type_info the model reads */
typedef struct tc5_fmt {
  uint8_t special;  /* tc5_special */
  uint8_t has_sign, exp_bits, man_bits;
  uint8_t tf32;     /* the code's low 13 bits are not part of it */
  uint8_t ue4m3;    /* the code's bit 7 is not part of it */
  int16_t bias;
} tc5_fmt;

/* The model of tc5_dot with its formats resolved (tc5__model_of; not the
 * architecture enum tc5_model). */
typedef struct tc5_arith_model {
  tc5_fmt a, b, c, s;
  bool scaled, saturate, c_f16;
  unsigned block, frac_bits, chunk, group;
  tc5_out_round out;
  int zero_exp;
  bool a_signed_int, b_signed_int; /* .kind::i8: s8 (else u8) */
} tc5_arith_model;

#ifndef __CUDACC__
/* the model with its formats resolved (arith.c) */
void tc5__model_of(const tc5_dot *d, tc5_arith_model *m);
#endif

/* decomposes a code (NaN/Inf classes, zero as m = 0) */
TC5_HD void tc5__term_decode(const tc5_fmt *f, uint32_t code, tc5_term *r) {
  r->sign = 0, r->cls = TC5_TERM_FINITE, r->m = 0, r->x = 0, r->e = 0;
  if (f->special == TC5_SPECIAL_E8M0) {
    if (code == 0xFF) r->cls = TC5_TERM_NAN;
    r->m = 1;
    r->x = r->e = (int)code - 127;
    return;
  }
  unsigned mb = f->man_bits, eb = f->exp_bits;
  uint32_t c = code;
  if (f->tf32) c >>= 13;
  if (f->ue4m3) c &= 0x7F;
  unsigned sign = f->has_sign ? (c >> (eb + mb)) & 1u : 0;
  unsigned E = (c >> mb) & ((1u << eb) - 1u), M = c & ((1u << mb) - 1u);
  unsigned emaxf = (1u << eb) - 1u;
  r->sign = (int)sign;
  if (f->special == TC5_SPECIAL_IEEE && E == emaxf) {
    r->cls = M ? TC5_TERM_NAN : TC5_TERM_INF;
    return;
  }
  if (f->special == TC5_SPECIAL_FN && E == emaxf && M == (1u << mb) - 1u) {
    r->cls = TC5_TERM_NAN;
    return;
  }
  int emin = 1 - f->bias;
  if (E == 0) {
    r->m = M;
    r->e = emin;
  } else {
    r->m = (1u << mb) + M;
    r->e = (int)E - f->bias;
  }
  r->x = r->e - (int)mb;
}

/* combines specials: returns the class of the result (NaN wins, Inf * 0 and
 * Inf - Inf are NaN), and the sign of an Inf result in *isign */
TC5_HD int tc5__special_class(const tc5_term *t, int n, int *isign) {
  bool pinf = false, ninf = false;
  for (int i = 0; i < n; i++) {
    if (t[i].cls == TC5_TERM_NAN) return TC5_TERM_NAN;
    if (t[i].cls == TC5_TERM_INF) {
      if (t[i].sign) ninf = true;
      else pinf = true;
    }
  }
  if (pinf && ninf) return TC5_TERM_NAN;
  if (pinf || ninf) {
    *isign = ninf;
    return TC5_TERM_INF;
  }
  return TC5_TERM_FINITE;
}

/* rounds (-1)^sign * mag * 2^x to the output format */
TC5_HD uint32_t tc5__round_code(tc5_out_round out, int sign, uint64_t mag, int x) {
  if (mag == 0) return 0; /* +0: the sum of the truncated terms is +0 */
  int msb = 63 - TC5_CLZLL(mag);
  int ev = msb + x; /* exponent of the leading bit */
  unsigned fbits = out == TC5_OUT_RNE_F16 ? 10 : out == TC5_OUT_RZ_E8M13 ? 13 : 23;
  int emin = out == TC5_OUT_RNE_F16 ? -14 : -126;
  int emaxv = out == TC5_OUT_RNE_F16 ? 15 : 127;
  int q = (ev < emin ? emin : ev) - (int)fbits; /* exponent of one ulp */
  uint64_t kept;
  int shift = q - x; /* bits dropped */
  if (shift <= 0) {
    kept = mag << -shift;
  } else if (shift >= 64) {
    kept = 0; /* below half an ulp */
  } else {
    kept = mag >> shift;
    if (out == TC5_OUT_RNE_F16) {
      uint64_t rem = mag & ((1ull << shift) - 1), half = 1ull << (shift - 1);
      if (rem > half || (rem == half && (kept & 1))) kept++;
    }
  }
  /* kept * 2^q, kept < 2^(fbits + 1) (+ a carry after rounding) */
  if (kept >> (fbits + 1)) {
    kept >>= 1;
    q++;
  }
  if (kept == 0) /* underflow: +0 whatever the sign, f32 (toward zero) and f16 (to nearest) alike, as the
                    H100 gives it (docs/arithmetic.md, "Zero results"; f16: issue 38, class [3]) */
    return 0;
  unsigned E;
  uint32_t M;
  if (kept >> fbits) {
    E = (unsigned)(q + (int)fbits - emin + 1);
    M = (uint32_t)(kept - (1ull << fbits));
  } else {
    E = 0;
    M = (uint32_t)kept;
  }
  if (out == TC5_OUT_RNE_F16) {
    if ((int)E > emaxv + 15) return sign ? 0xFC00u : 0x7C00u;
    return ((uint32_t)sign << 15) | (E << 10) | M;
  }
  if ((int)E > emaxv + 127) return sign ? 0xFF800000u : 0x7F800000u;
  if (out == TC5_OUT_RZ_E8M13) M <<= 10;
  return ((uint32_t)sign << 31) | (E << 23) | M;
}

TC5_HD uint32_t tc5__special_code(bool f16, int cls, int isign) {
  if (f16) return cls == TC5_TERM_NAN ? 0x7FFFu : (isign ? 0xFC00u : 0x7C00u);
  return cls == TC5_TERM_NAN ? 0x7FFFFFFFu : (isign ? 0xFF800000u : 0x7F800000u);
}

/* the terms of a step aligned: with E the largest nominal exponent, term i
 * truncated toward zero to a multiple of 2^lsb, lsb = E - F */
TC5_HD int tc5__step_lsb(const tc5_arith_model *m, const tc5_term *t, int n) {
  int emax = INT_MIN;
  for (int i = 0; i < n; i++)
    if (t[i].e > emax) emax = t[i].e;
  return emax - (int)m->frac_bits;
}
TC5_HD uint64_t tc5__term_at(const tc5_term *t, int lsb) {
  int sh = t->x - lsb;
  if (!t->m) return 0;
  if (sh >= 0) return t->m << sh; /* < 2^(F + 12): fits */
  return -sh >= 64 ? 0 : t->m >> -sh;
}

/* What tc5_dot_explain tells (NULL everywhere else, the GPU included):
 * each step before its sum (index, first product, count, the incoming C),
 * and each sum: its terms, their class (a NaN or infinity among them, or
 * finite), the alignment 2^lsb, the exact sum and the rounded result. */
typedef struct tc5_step_trace {
  void (*step)(void *ctx, size_t index, size_t k0, size_t n, uint32_t c);
  void (*sum)(void *ctx, const tc5_term *t, int nt, int cls, int lsb, int64_t sum, uint32_t result);
  void *ctx;
} tc5_step_trace;

/* The truncated fused sum of the terms of one step, rounded. */
TC5_HD uint32_t tc5__fused(const tc5_arith_model *m, const tc5_term *t, int n, const tc5_step_trace *trace) {
  int isign = 0;
  int cls = tc5__special_class(t, n, &isign);
  if (cls != TC5_TERM_FINITE) {
    uint32_t r = tc5__special_code(m->c_f16, cls, isign);
    if (trace) trace->sum(trace->ctx, t, n, cls, 0, 0, r);
    return r;
  }
  int lsb = tc5__step_lsb(m, t, n);
  int64_t sum = 0;
  for (int i = 0; i < n; i++) {
    uint64_t v = tc5__term_at(&t[i], lsb);
    sum += t[i].sign ? -(int64_t)v : (int64_t)v;
  }
  int sign = sum < 0;
  uint32_t r = tc5__round_code(m->out, sign, sign ? (uint64_t)(-sum) : (uint64_t)sum, lsb);
  if (trace) trace->sum(trace->ctx, t, n, cls, lsb, sum, r);
  return r;
}

/* the accumulator as a step's last term */
TC5_HD void tc5__c_term(const tc5_arith_model *m, uint32_t c, bool enable, unsigned scale, tc5_term *t) {
  if (!enable) {
    t->sign = 0, t->cls = TC5_TERM_FINITE, t->m = 0, t->x = 0;
    t->e = m->zero_exp;
    return;
  }
  tc5__term_decode(&m->c, c, t);
  t->x -= (int)scale;
  t->e -= (int)scale;
  if (!t->m) t->e = m->zero_exp;
}

/* one product term a * b (* the scales sa, sb when given) */
TC5_HD void tc5__product_term(const tc5_arith_model *m, uint32_t a, uint32_t b, const uint32_t *sa, const uint32_t *sb,
                              bool neg, tc5_term *t) {
  tc5_term ta, tb;
  tc5__term_decode(&m->a, a, &ta);
  tc5__term_decode(&m->b, b, &tb);
  t->cls = ta.cls > tb.cls ? ta.cls : tb.cls;
  if (t->cls == TC5_TERM_INF && (ta.cls == TC5_TERM_FINITE ? !ta.m : tb.cls == TC5_TERM_FINITE && !tb.m))
    t->cls = TC5_TERM_NAN; /* Inf * 0 */
  t->sign = ta.sign ^ tb.sign ^ (int)neg;
  t->m = ta.m * tb.m;
  t->x = ta.x + tb.x;
  t->e = ta.e + tb.e;
  if (sa) {
    tc5_term ua, ub;
    tc5__term_decode(&m->s, *sa, &ua);
    tc5__term_decode(&m->s, *sb, &ub);
    if (ua.cls == TC5_TERM_NAN || ub.cls == TC5_TERM_NAN) t->cls = TC5_TERM_NAN;
    t->m *= ua.m * ub.m;
    t->x += ua.x + ub.x;
    t->e += ua.e + ub.e;
  }
  if (!t->m) t->e = m->zero_exp;
}

/* mxf4/mxf4nvf4: `group` products summed exactly, scaled, aligned at the
 * scales' exponents (a[k], b[k * bstride] for k < group) */
TC5_HD void tc5__group_term(const tc5_arith_model *m, const uint32_t *a, const uint32_t *b, size_t bstride, uint32_t sa,
                            uint32_t sb, bool negate, tc5_term *t) {
  int64_t p = 0;
  bool all_zero = true;
  int xlsb = INT_MAX;
  for (size_t k = 0; k < m->group; k++) {
    tc5_term ta, tb;
    tc5__term_decode(&m->a, a[k], &ta);
    tc5__term_decode(&m->b, b[k * bstride], &tb);
    if (ta.x + tb.x < xlsb) xlsb = ta.x + tb.x;
  }
  for (size_t k = 0; k < m->group; k++) {
    tc5_term ta, tb;
    tc5__term_decode(&m->a, a[k], &ta);
    tc5__term_decode(&m->b, b[k * bstride], &tb);
    uint64_t v = (ta.m * tb.m) << (ta.x + tb.x - xlsb);
    if (v) all_zero = false;
    int neg = ta.sign ^ tb.sign ^ (int)negate;
    p += neg ? -(int64_t)v : (int64_t)v;
  }
  tc5_term ua, ub;
  tc5__term_decode(&m->s, sa, &ua);
  tc5__term_decode(&m->s, sb, &ub);
  t->cls = (ua.cls == TC5_TERM_NAN || ub.cls == TC5_TERM_NAN) ? TC5_TERM_NAN : TC5_TERM_FINITE;
  t->sign = p < 0;
  t->m = (uint64_t)(p < 0 ? -p : p) * ua.m * ub.m;
  t->x = xlsb + ua.x + ub.x;
  /* the group's exponent is its scales' (the zero exponent only when every
   * product or a scale is zero; a sum that cancels keeps it) */
  t->e = (all_zero || !ua.m || !ub.m) ? m->zero_exp : ua.e + ub.e;
}

/* .kind::i8: exact; each MMA step (chunk) wraps modulo 2^32 or, with the
 * saturate bit, clamps to the s32 range (a[k], b[k * bstride]) */
TC5_HD uint32_t tc5__int_dot(const tc5_arith_model *m, size_t k, const uint32_t *a, const uint32_t *b, size_t bstride,
                             uint32_t c, bool enable) {
  int64_t acc = enable ? (int64_t)(int32_t)c : 0;
  size_t chunk = m->chunk ? m->chunk : (k ? k : 1);
  for (size_t k0 = 0; k0 < k; k0 += chunk) {
    for (size_t i = k0; i < k0 + chunk && i < k; i++) {
      int64_t x = m->a_signed_int ? (int64_t)(int8_t)a[i] : (int64_t)(uint8_t)a[i];
      int64_t y = m->b_signed_int ? (int64_t)(int8_t)b[i * bstride] : (int64_t)(uint8_t)b[i * bstride];
      acc += x * y;
    }
    if (m->saturate) {
      if (acc > INT32_MAX) acc = INT32_MAX;
      if (acc < INT32_MIN) acc = INT32_MIN;
    } else {
      acc = (int64_t)(int32_t)(uint32_t)acc; /* wraps modulo 2^32 */
    }
  }
  return (uint32_t)acc;
}

/* One step of an output element: the n products from k0 (a[k], b[k *
 * bstride], scale factors sa[k / block], sb[(k / block) * bstride]) and the
 * accumulator acc as the C term (enable, scale: the first step's), fused
 * and rounded. `terms` has room for the model's step (tc5__max_chunk + 1
 * terms); trace (NULL but for tc5_dot_explain) is told the step. The GPU's
 * steps kernel (gpu/gemm_tiled.cu) falls back on it should a step with a
 * NaN or infinity among its codes not come out special. */
TC5_HD uint32_t tc5__dot_step(const tc5_arith_model *m, size_t index, size_t k0, size_t n, const uint32_t *a,
                              const uint32_t *b, size_t bstride, const uint32_t *sa, const uint32_t *sb, uint32_t acc,
                              bool enable, unsigned scale, bool negate, tc5_term *terms, const tc5_step_trace *trace) {
  int nt = 0;
  if (m->group) {
    for (size_t g = k0; g < k0 + n; g += m->group)
      tc5__group_term(m, a + g, b + g * bstride, bstride, sa[g / m->block], sb[(g / m->block) * bstride], negate,
                      &terms[nt++]);
  } else {
    for (size_t i = k0; i < k0 + n; i++)
      tc5__product_term(m, a[i], b[i * bstride], m->scaled ? &sa[i / m->block] : NULL,
                        m->scaled ? &sb[(i / m->block) * bstride] : NULL, negate, &terms[nt++]);
  }
  tc5__c_term(m, acc, enable, scale, &terms[nt++]);
  if (trace) trace->step(trace->ctx, index, k0, n, acc);
  return tc5__fused(m, terms, nt, trace);
}

/* One output element: the K products of row a (a[k]) and column b (b[k *
 * bstride]), scale factors sa[k / block] and sb[(k / block) * bstride] when
 * scaled, onto c, step by step (tc5__dot_step). */
TC5_HD uint32_t tc5__dot_elem(const tc5_arith_model *m, size_t k, const uint32_t *a, const uint32_t *b, size_t bstride,
                              const uint32_t *sa, const uint32_t *sb, uint32_t c, bool enable, unsigned scale,
                              bool negate, tc5_term *terms, const tc5_step_trace *trace) {
  if (m->out == TC5_OUT_S32) return tc5__int_dot(m, k, a, b, bstride, c, enable);
  size_t chunk = m->chunk ? m->chunk : k;
  uint32_t acc = c;
  if (k == 0) {
    tc5__c_term(m, acc, enable, scale, &terms[0]);
    return tc5__fused(m, terms, 1, trace);
  }
  for (size_t k0 = 0; k0 < k; k0 += chunk) {
    size_t n = k - k0 < chunk ? k - k0 : chunk;
    acc = tc5__dot_step(m, k0 / chunk, k0, n, a, b, bstride, sa, sb, acc, enable, scale, negate, terms, trace);
    /* later steps accumulate onto the previous result, unscaled */
    enable = true;
    scale = 0;
  }
  return acc;
}

#endif
