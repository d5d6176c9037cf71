/* tc5 — the fused dot-product-add of every MMA kind, exact, in integers.
 * The model and its parameters are described in include/tc5/arith.h; the
 * per-architecture parameters are in arith_models.c. This file is the
 * reference: one output element at a time, plainly. tc5_gemm (arith_gemm.c)
 * computes the same results faster and is tested against this. */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "arith/arith_impl.h"
#include "util/strbuf.h"
#include "spec/spec_tables.h"

tc5_status tc5_dot_opts_init(tc5_dot_opts *o) {
  if (!o) return TC5_EINVAL;
  memset(o, 0, sizeof *o);
  o->enable_input_d = true;
  return TC5_OK;
}

/* ---- validation -------------------------------------------------------------- */

static bool is_float_elem(tc5_type t) {
  const tc5_type_info *ti = tc5_spec_type(t);
  return ti && ti->is_float && ti->bits <= 32 && t != TC5_UE8M0 && t != TC5_UE4M3 &&
         t != TC5_F32;
}

tc5_status tc5_dot_check(const tc5_dot *m, size_t k, const tc5_dot_opts *o, tc5_diag *diag) {
  if (!m) return tc5_diag_add(diag, TC5_EINVAL, "model", 0, "arith: no model (NULL)");
  if ((unsigned)m->out > TC5_OUT_S32)
    return tc5_diag_add(diag, TC5_EINVAL, "out", (uint64_t)m->out,
                        "arith: output rounding %d is not a tc5_out_round", (int)m->out);
  bool integer = m->out == TC5_OUT_S32;
  const tc5_type ab[2] = {m->atype, m->btype};
  for (int i = 0; i < 2; i++) {
    bool ok = integer ? (ab[i] == TC5_S8 || ab[i] == TC5_U8) : is_float_elem(ab[i]);
    if (!ok)
      return tc5_diag_add(diag, TC5_EINVAL, i ? "btype" : "atype", (uint64_t)ab[i],
                          "arith: %s %s is not an element type of a%s MMA", i ? "btype" : "atype",
                          tc5_type_name(ab[i]), integer ? "n integer" : " floating-point");
  }
  tc5_type want_c = integer ? TC5_S32 : m->out == TC5_OUT_RNE_F16 ? TC5_F16 : TC5_F32;
  if (m->ctype != want_c)
    return tc5_diag_add(diag, TC5_EINVAL, "ctype", (uint64_t)m->ctype,
                        "arith: ctype %s does not match the output rounding (needs %s)",
                        tc5_type_name(m->ctype), tc5_type_name(want_c));
  if (m->chunk > tc5__max_chunk(m))
    return tc5_diag_add(diag, TC5_ERANGE, "chunk", m->chunk,
                        "arith: chunk %u exceeds %u products per step%s", m->chunk, tc5__max_chunk(m),
                        m->group ? " (grouped)" : "");
  if (!integer && (m->frac_bits < 1 || m->frac_bits > 40))
    return tc5_diag_add(diag, TC5_ERANGE, "frac_bits", m->frac_bits,
                        "arith: frac_bits %u is outside [1, 40]", m->frac_bits);
  if (!integer && (m->zero_exp < -600 || m->zero_exp > 0))
    return tc5_diag_add(diag, TC5_ERANGE, "zero_exp", (uint64_t)(int64_t)m->zero_exp,
                        "arith: zero_exp %d is outside [-600, 0]", m->zero_exp);
  if (m->group > 64)
    return tc5_diag_add(diag, TC5_ERANGE, "group", m->group, "arith: group %u exceeds 64 products", m->group);
  if (m->group && (!m->chunk || m->chunk % m->group || (k && k % m->group)))
    return tc5_diag_add(diag, TC5_EILLEGAL, "group", m->group,
                        "arith: group %u must divide the chunk (%u) and K (%zu)", m->group,
                        m->chunk, k);
  bool scaled = m->stype != TC5_TYPE_NONE;
  if (scaled && m->stype != TC5_UE8M0 && m->stype != TC5_UE4M3)
    return tc5_diag_add(diag, TC5_EINVAL, "stype", (uint64_t)m->stype,
                        "arith: scale type %s is not ue8m0 or ue4m3", tc5_type_name(m->stype));
  if (scaled && integer)
    return tc5_diag_add(diag, TC5_EILLEGAL, "stype", (uint64_t)m->stype,
                        "arith: integer MMAs have no scale factors");
  if (scaled && m->block != 16 && m->block != 32)
    return tc5_diag_add(diag, TC5_EILLEGAL, "block", m->block,
                        "arith: scale block %u is not 16 or 32", m->block);
  if (!scaled && m->block)
    return tc5_diag_add(diag, TC5_EILLEGAL, "block", m->block,
                        "arith: scale block %u without a scale type", m->block);
  if (scaled && m->group && m->block % m->group)
    return tc5_diag_add(diag, TC5_EILLEGAL, "group", m->group,
                        "arith: group %u does not divide the scale block %u (a group is scaled by one factor)",
                        m->group, m->block);
  if (scaled && k % m->block)
    return tc5_diag_add(diag, TC5_EILLEGAL, "K", k,
                        "arith: K %zu is not a multiple of the scale block %u", k, m->block);
  if (o && o->scale_input_d > 15)
    return tc5_diag_add(diag, TC5_ERANGE, "scale_input_d", o->scale_input_d,
                        "arith: scale-input-d %u is outside [0, 15]", o->scale_input_d);
  if (o && o->scale_input_d && m->atype != TC5_F16 && m->atype != TC5_BF16 && m->atype != TC5_TF32)
    return tc5_diag_add(diag, TC5_EILLEGAL, "scale_input_d", o->scale_input_d,
                        "arith: scale-input-d is only for .kind::f16 and .kind::tf32 (A is %s)",
                        tc5_type_name(m->atype));
  return TC5_OK;
}

tc5_status tc5__dot_begin(const tc5_dot *m, size_t k, const tc5_dot_opts **o, tc5_dot_opts *def) {
  tc5_status st = tc5_dot_check(m, k, *o, NULL);
  if (st) return st;
  if (!*o) {
    tc5_dot_opts_init(def);
    *o = def;
  }
  return TC5_OK;
}

/* ---- decomposition of a code ---------------------------------------------- */

void tc5__term_of(tc5_type t, uint32_t code, tc5_term *r) {
  const tc5_type_info *ti = tc5_spec_type(t);
  memset(r, 0, sizeof *r);
  if (ti->special == TC5_SPECIAL_E8M0) {
    if (code == 0xFF) r->cls = TC5_TERM_NAN;
    r->m = 1;
    r->x = r->e = (int)code - 127;
    return;
  }
  unsigned mb = ti->man_bits, eb = ti->exp_bits;
  uint32_t c = code;
  if (t == TC5_TF32) c >>= 13;
  if (t == TC5_UE4M3) c &= 0x7F;
  unsigned sign = ti->has_sign ? (c >> (eb + mb)) & 1u : 0;
  unsigned E = (c >> mb) & ((1u << eb) - 1u), M = c & ((1u << mb) - 1u);
  unsigned emaxf = (1u << eb) - 1u;
  r->sign = (int)sign;
  if (ti->special == TC5_SPECIAL_IEEE && E == emaxf) {
    r->cls = M ? TC5_TERM_NAN : TC5_TERM_INF;
    return;
  }
  if (ti->special == TC5_SPECIAL_FN && E == emaxf && M == (1u << mb) - 1u) {
    r->cls = TC5_TERM_NAN;
    return;
  }
  int emin = 1 - ti->bias;
  if (E == 0) {
    r->m = M;
    r->e = emin;
  } else {
    r->m = (1u << mb) + M;
    r->e = (int)E - ti->bias;
  }
  r->x = r->e - (int)mb;
}

/* ---- one step ------------------------------------------------------------------ */

typedef struct step {
  tc5_term t[80];
  int n;
} step;

/* combines specials: returns the class of the result (NAN wins, Inf*0 and
 * Inf-Inf are NaN), and the sign of an Inf result in *isign */
static int special_class(const step *s, int *isign) {
  bool pinf = false, ninf = false;
  for (int i = 0; i < s->n; i++) {
    if (s->t[i].cls == TC5_TERM_NAN) return TC5_TERM_NAN;
    if (s->t[i].cls == TC5_TERM_INF) {
      if (s->t[i].sign) ninf = true;
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

/* rounds sign * mag * 2^x to the output format */
uint32_t tc5__round_out(tc5_out_round out, int sign, uint64_t mag, int x) {
  if (mag == 0) return 0; /* +0: the sum of the truncated terms is +0 */
  int msb = 63 - __builtin_clzll(mag);
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
    kept = 0;
    if (out == TC5_OUT_RNE_F16 && shift == 64 && (mag >> 63)) kept = 0; /* < half ulp */
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
  if (kept == 0) { /* underflow: f16 keeps the sign; f32 (toward zero) is +0, as the H100 gives it
                      (docs/arithmetic.md, "Zero results") */
    if (out == TC5_OUT_RNE_F16) return sign ? 0x8000u : 0;
    return 0;
  }
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

static uint32_t special_out(tc5_type ctype, int cls, int isign) {
  if (ctype == TC5_F16) return cls == TC5_TERM_NAN ? 0x7FFFu : (isign ? 0xFC00u : 0x7C00u);
  return cls == TC5_TERM_NAN ? 0x7FFFFFFFu : (isign ? 0xFF800000u : 0x7F800000u);
}

/* The truncated fused sum of the terms of one step, rounded; with ex, what
 * happened, term by term (tc5_dot_explain). */
static uint32_t fused_sum(const tc5_dot *m, const step *s, tc5_sb *ex) {
  int isign = 0;
  int cls = special_class(s, &isign);
  if (cls != TC5_TERM_FINITE) {
    uint32_t r = special_out(m->ctype, cls, isign);
    if (ex) tc5_sb_printf(ex, "  a NaN or an infinity among the terms: the result is 0x%08x\n", r);
    return r;
  }
  int emax = INT_MIN;
  for (int i = 0; i < s->n; i++)
    if (s->t[i].e > emax) emax = s->t[i].e;
  int64_t sum = 0;
  int lsb = emax - (int)m->frac_bits; /* exponent of 2^-F at emax */
  if (ex)
    tc5_sb_printf(ex, "  alignment: the largest nominal exponent E = %d; each term is truncated toward zero to "
                      "a multiple of 2^(E - F) = 2^%d (F = %u)\n", emax, lsb, m->frac_bits);
  for (int i = 0; i < s->n; i++) {
    const tc5_term *t = &s->t[i];
    int sh = t->x - lsb;
    uint64_t v = 0;
    if (t->m) {
      if (sh >= 0) v = t->m << sh; /* < 2^(F + 12): fits */
      else v = -sh >= 64 ? 0 : t->m >> -sh;
      sum += t->sign ? -(int64_t)v : (int64_t)v;
    }
    if (ex)
      tc5_sb_printf(ex, "  term %2d%s: %s%llu * 2^%d (nominal exponent %d) -> %s%llu * 2^%d%s\n", i,
                    i == s->n - 1 ? " (C)" : "", t->sign ? "-" : "+", (unsigned long long)t->m, t->x, t->e,
                    t->sign ? "-" : "+", (unsigned long long)v, lsb,
                    t->m && (sh >= 0 ? 0 : (-sh >= 64 ? t->m : t->m & ((1ull << -sh) - 1))) ? " (bits dropped)" : "");
  }
  int sign = sum < 0;
  uint64_t mag = sign ? (uint64_t)(-sum) : (uint64_t)sum;
  uint32_t r = tc5__round_out(m->out, sign, mag, lsb);
  if (ex)
    tc5_sb_printf(ex, "  exact sum of the truncated terms: %lld * 2^%d; rounded (%s) to 0x%08x\n", (long long)sum, lsb,
                  m->out == TC5_OUT_RNE_F16 ? "to nearest even, f16" : m->out == TC5_OUT_RZ_E8M13 ? "toward zero, 13 fraction bits" : "toward zero, f32",
                  r);
  return r;
}

static void add_c(const tc5_dot *m, uint32_t c, const tc5_dot_opts *o, step *s) {
  tc5_term *t = &s->t[s->n++];
  if (!o->enable_input_d) {
    memset(t, 0, sizeof *t);
    t->e = m->zero_exp;
    return;
  }
  tc5__term_of(m->ctype, c, t);
  t->x -= (int)o->scale_input_d;
  t->e -= (int)o->scale_input_d;
  if (!t->m) t->e = m->zero_exp;
}

/* products of one step without a pre-summed group */
static void add_products(const tc5_dot *m, size_t k0, size_t n, const uint32_t *a,
                         const uint32_t *b, const uint32_t *sa, const uint32_t *sb,
                         const tc5_dot_opts *o, step *s) {
  for (size_t k = k0; k < k0 + n; k++) {
    tc5_term ta, tb, *t = &s->t[s->n++];
    tc5__term_of(m->atype, a[k], &ta);
    tc5__term_of(m->btype, b[k], &tb);
    t->cls = ta.cls > tb.cls ? ta.cls : tb.cls;
    if (t->cls == TC5_TERM_INF && (ta.cls == TC5_TERM_FINITE ? !ta.m : tb.cls == TC5_TERM_FINITE && !tb.m))
      t->cls = TC5_TERM_NAN; /* Inf * 0 */
    t->sign = ta.sign ^ tb.sign ^ (int)o->negate_a ^ (int)o->negate_b;
    t->m = ta.m * tb.m;
    t->x = ta.x + tb.x;
    t->e = ta.e + tb.e;
    if (sa) {
      tc5_term ua, ub;
      tc5__term_of(m->stype, sa[k / m->block], &ua);
      tc5__term_of(m->stype, sb[k / m->block], &ub);
      if (ua.cls == TC5_TERM_NAN || ub.cls == TC5_TERM_NAN) t->cls = TC5_TERM_NAN;
      t->m *= ua.m * ub.m;
      t->x += ua.x + ub.x;
      t->e += ua.e + ub.e;
    }
    if (!t->m) t->e = m->zero_exp;
  }
}

/* mxf4/mxf4nvf4: groups of `group` products summed exactly, scaled, aligned
 * at the scales' exponents */
static void add_groups(const tc5_dot *m, size_t k0, size_t n, const uint32_t *a,
                       const uint32_t *b, const uint32_t *sa, const uint32_t *sb,
                       const tc5_dot_opts *o, step *s) {
  for (size_t g = k0; g < k0 + n; g += m->group) {
    int64_t p = 0;
    bool all_zero = true;
    int xlsb = INT_MAX;
    tc5_term ta[64], tb[64];
    for (size_t k = 0; k < m->group; k++) {
      tc5__term_of(m->atype, a[g + k], &ta[k]);
      tc5__term_of(m->btype, b[g + k], &tb[k]);
      if (ta[k].x + tb[k].x < xlsb) xlsb = ta[k].x + tb[k].x;
    }
    for (size_t k = 0; k < m->group; k++) {
      uint64_t v = (ta[k].m * tb[k].m) << (ta[k].x + tb[k].x - xlsb);
      if (v) all_zero = false;
      int neg = ta[k].sign ^ tb[k].sign ^ (int)o->negate_a ^ (int)o->negate_b;
      p += neg ? -(int64_t)v : (int64_t)v;
    }
    tc5_term ua, ub, *t = &s->t[s->n++];
    tc5__term_of(m->stype, sa[g / m->block], &ua);
    tc5__term_of(m->stype, sb[g / m->block], &ub);
    memset(t, 0, sizeof *t);
    if (ua.cls == TC5_TERM_NAN || ub.cls == TC5_TERM_NAN) t->cls = TC5_TERM_NAN;
    t->sign = p < 0;
    t->m = (uint64_t)(p < 0 ? -p : p) * ua.m * ub.m;
    t->x = xlsb + ua.x + ub.x;
    /* the group's exponent is its scales' (the zero exponent only when
     * every product or a scale is zero; a sum that cancels keeps it) */
    t->e = (all_zero || !ua.m || !ub.m) ? m->zero_exp : ua.e + ub.e;
  }
}

/* .kind::i8: exact; each MMA step (chunk) wraps modulo 2^32 or, with the
 * idesc's saturate bit, clamps to the s32 range */
static uint32_t int_dot(const tc5_dot *m, size_t k, const uint32_t *a, const uint32_t *b,
                        uint32_t c, const tc5_dot_opts *o) {
  int64_t acc = o->enable_input_d ? (int64_t)(int32_t)c : 0;
  size_t chunk = m->chunk ? m->chunk : (k ? k : 1);
  for (size_t k0 = 0; k0 < k; k0 += chunk) {
    for (size_t i = k0; i < k0 + chunk && i < k; i++) {
      double x, y;
      tc5_fmt_decode(m->atype, a[i], &x, NULL);
      tc5_fmt_decode(m->btype, b[i], &y, NULL);
      acc += (int64_t)x * (int64_t)y;
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

/* tc5_dot_run, and with ex its explanation step by step */
static tc5_status dot_run(const tc5_dot *m, size_t k, const uint32_t *a, const uint32_t *b, const uint32_t *sa,
                          const uint32_t *sb, uint32_t c, const tc5_dot_opts *o, uint32_t *d, tc5_sb *ex) {
  if (!m || !d || (k && (!a || !b))) return TC5_EINVAL;
  tc5_dot_opts def;
  tc5_status st = tc5__dot_begin(m, k, &o, &def);
  if (st) return st;
  if (m->out == TC5_OUT_S32) {
    *d = int_dot(m, k, a, b, c, o);
    if (ex) tc5_sb_printf(ex, "integer kind: the exact sum of the products and C, %s: 0x%08x\n",
                          m->saturate ? "saturated to s32" : "wrapped to s32", *d);
    return TC5_OK;
  }
  bool scaled = m->stype != TC5_TYPE_NONE;
  if (scaled && (!sa || !sb)) return TC5_EINVAL;
  size_t chunk = m->chunk ? m->chunk : k;
  if (chunk > tc5__max_chunk(m)) return TC5_EUNSUPPORTED; /* one step of more products than the model fuses */
  uint32_t acc = c;
  tc5_dot_opts oo = *o;
  if (k == 0) {
    step s = {.n = 0};
    add_c(m, acc, &oo, &s);
    *d = fused_sum(m, &s, ex);
    return TC5_OK;
  }
  for (size_t k0 = 0; k0 < k; k0 += chunk) {
    size_t n = k - k0 < chunk ? k - k0 : chunk;
    step s = {.n = 0};
    if (m->group) add_groups(m, k0, n, a, b, sa, sb, &oo, &s);
    else add_products(m, k0, n, a, b, scaled ? sa : NULL, sb, &oo, &s);
    add_c(m, acc, &oo, &s);
    if (ex)
      tc5_sb_printf(ex, "step %zu: products %zu..%zu%s, then C = 0x%08x\n", k0 / chunk, k0, k0 + n - 1,
                    m->group ? " (in groups)" : "", acc);
    acc = fused_sum(m, &s, ex);
    /* later steps accumulate onto the previous result, unscaled */
    oo.enable_input_d = true;
    oo.scale_input_d = 0;
  }
  *d = acc;
  return TC5_OK;
}

tc5_status tc5_dot_run(const tc5_dot *m, size_t k, const uint32_t *a, const uint32_t *b, const uint32_t *sa,
                       const uint32_t *sb, uint32_t c, const tc5_dot_opts *o, uint32_t *d) {
  return dot_run(m, k, a, b, sa, sb, c, o, d, NULL);
}

tc5_status tc5_dot_explain(const tc5_dot *m, size_t k, const uint32_t *a, const uint32_t *b, const uint32_t *sa,
                           const uint32_t *sb, uint32_t c, const tc5_dot_opts *o, uint32_t *d, char *buf,
                           size_t cap, size_t *needed) {
  tc5_sb sb_;
  tc5_sb_init(&sb_);
  tc5_status st = dot_run(m, k, a, b, sa, sb, c, o, d, &sb_);
  if (st) {
    tc5_sb_free(&sb_);
    return st;
  }
  return tc5_sb_finish(&sb_, buf, cap, needed);
}
