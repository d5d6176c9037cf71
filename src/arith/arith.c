/* tc5 — the fused dot-product-add of every MMA kind, exact, in integers.
 * The model and its parameters are described in include/tc5/arith.h; the
 * per-architecture parameters are in arith_models.c. This file is the
 * reference: one output element at a time, plainly. tc5_gemm (arith_gemm.c)
 * computes the same results faster and is tested against this. */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "arith/arith_impl.h"
#include "arith/arith_step.h"
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

/* ---- the model's formats (arith_step.h holds the model's step) ---------- */

static void fmt_of(tc5_type t, tc5_fmt *f) {
  const tc5_type_info *ti = tc5_spec_type(t);
  memset(f, 0, sizeof *f);
  if (!ti) return;
  f->special = (uint8_t)ti->special;
  f->has_sign = ti->has_sign, f->exp_bits = ti->exp_bits, f->man_bits = ti->man_bits;
  f->tf32 = t == TC5_TF32, f->ue4m3 = t == TC5_UE4M3;
  f->bias = ti->bias;
}

void tc5__model_of(const tc5_dot *d, tc5_arith_model *m) {
  memset(m, 0, sizeof *m);
  fmt_of(d->atype, &m->a);
  fmt_of(d->btype, &m->b);
  fmt_of(d->ctype, &m->c);
  fmt_of(d->stype, &m->s);
  m->scaled = d->stype != TC5_TYPE_NONE;
  m->saturate = d->saturate;
  m->c_f16 = d->ctype == TC5_F16;
  m->block = d->block, m->frac_bits = d->frac_bits, m->chunk = d->chunk, m->group = d->group;
  m->out = d->out;
  m->zero_exp = d->zero_exp;
  m->a_signed_int = d->atype == TC5_S8, m->b_signed_int = d->btype == TC5_S8;
}

void tc5__term_of(tc5_type t, uint32_t code, tc5_term *r) {
  tc5_fmt f;
  fmt_of(t, &f);
  tc5__term_decode(&f, code, r);
}

uint32_t tc5__round_out(tc5_out_round out, int sign, uint64_t mag, int x) { return tc5__round_code(out, sign, mag, x); }

/* tc5_dot_explain: what tc5__dot_elem tells its trace, in words */
typedef struct explain_ctx {
  const tc5_arith_model *m;
  tc5_sb *ex;
} explain_ctx;
static void explain_step(void *ctx, size_t index, size_t k0, size_t n, uint32_t c) {
  explain_ctx *e = ctx;
  tc5_sb_printf(e->ex, "step %zu: products %zu..%zu%s, then C = 0x%08x\n", index, k0, k0 + n - 1,
                e->m->group ? " (in groups)" : "", c);
}
static void explain_sum(void *ctx, const tc5_term *t, int nt, int cls, int lsb, int64_t sum, uint32_t r) {
  explain_ctx *e = ctx;
  const tc5_arith_model *m = e->m;
  if (cls != TC5_TERM_FINITE) {
    tc5_sb_printf(e->ex, "  a NaN or an infinity among the terms: the result is 0x%08x\n", r);
    return;
  }
  tc5_sb_printf(e->ex, "  alignment: the largest nominal exponent E = %d; each term is truncated toward zero to "
                       "a multiple of 2^(E - F) = 2^%d (F = %u)\n", lsb + (int)m->frac_bits, lsb, m->frac_bits);
  for (int i = 0; i < nt; i++) {
    uint64_t v = tc5__term_at(&t[i], lsb);
    int sh = t[i].x - lsb;
    tc5_sb_printf(e->ex, "  term %2d%s: %s%llu * 2^%d (nominal exponent %d) -> %s%llu * 2^%d%s\n", i,
                  i == nt - 1 ? " (C)" : "", t[i].sign ? "-" : "+", (unsigned long long)t[i].m, t[i].x, t[i].e,
                  t[i].sign ? "-" : "+", (unsigned long long)v, lsb,
                  t[i].m && (sh >= 0 ? 0 : (-sh >= 64 ? t[i].m : t[i].m & ((1ull << -sh) - 1))) ? " (bits dropped)" : "");
  }
  tc5_sb_printf(e->ex, "  exact sum of the truncated terms: %lld * 2^%d; rounded (%s) to 0x%08x\n", (long long)sum, lsb,
                m->out == TC5_OUT_RNE_F16     ? "to nearest even, f16"
                : m->out == TC5_OUT_RZ_E8M13 ? "toward zero, 13 fraction bits"
                                             : "toward zero, f32",
                r);
}

/* tc5_dot_run, and with ex its explanation step by step */
static tc5_status dot_run(const tc5_dot *d, size_t k, const uint32_t *a, const uint32_t *b, const uint32_t *sa,
                          const uint32_t *sb, uint32_t c, const tc5_dot_opts *o, uint32_t *out, tc5_sb *ex) {
  if (!d || !out || (k && (!a || !b))) return TC5_EINVAL;
  tc5_dot_opts def;
  tc5_status st = tc5__dot_begin(d, k, &o, &def);
  if (st) return st;
  tc5_arith_model m;
  tc5__model_of(d, &m);
  if (d->out == TC5_OUT_S32) {
    *out = tc5__int_dot(&m, k, a, b, 1, c, o->enable_input_d);
    if (ex) tc5_sb_printf(ex, "integer kind: the exact sum of the products and C, %s: 0x%08x\n",
                          d->saturate ? "saturated to s32" : "wrapped to s32", *out);
    return TC5_OK;
  }
  if (m.scaled && (!sa || !sb)) return TC5_EINVAL;
  if (!tc5__step_fits(d, k)) return TC5_EUNSUPPORTED;
  explain_ctx ec = {&m, ex};
  const tc5_step_trace trace = {explain_step, explain_sum, &ec};
  tc5_term terms[80];
  *out = tc5__dot_elem(&m, k, a, b, 1, sa, sb, c, o->enable_input_d, o->scale_input_d, o->negate_a ^ o->negate_b,
                       terms, ex ? &trace : NULL);
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
