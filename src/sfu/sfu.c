/* tc5 — the special-function unit (tc5/sfu.h): a bit-exact model of the
 * H100's MUFU and of the PTX approximate instructions built on it, measured
 * on silicon (docs/fidelity.md, `gpu/run.sh sfu`: 0 differences on every
 * input of every one-input f32 form).
 *
 * The MUFU cores (mufu_*) are the quadratic interpolator of NVIDIA's G80
 * design (Oberman & Siu, ARITH 2005): 64 or 128 slices indexed by the top
 * significand bits, C0 + C1 lo + C2 sq17(lo) with a truncated squarer,
 * fixed-point sums and a final shift; the tables are data (sfu_tables.c,
 * with their provenance). Each PTX instruction is one function (sfu_*)
 * mirroring the SASS ptxas 13.0 emits for it (FSETP/FMUL scaling of
 * subnormals, FMUL.RZ by 1/2pi for sin/cos, MUFU.RCP and FMUL for the
 * divisions); sm_100a's machine code is the same. This file needs IEEE
 * binary32 with subnormals and no contraction of a * b + c (the build uses
 * -ffp-contract=off). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "sfu/sfu_impl.h"
#include "sfu/sfu_model.h"

/* ---- the registry: one row per instruction ---- */
static uint64_t r_ex2_ftz(uint64_t a, uint64_t b) { (void)b; return sfu_ex2_approx_ftz_f32((uint32_t)a); }
static uint64_t r_ex2(uint64_t a, uint64_t b) { (void)b; return sfu_ex2_approx_f32((uint32_t)a); }
static uint64_t r_rcp_ftz(uint64_t a, uint64_t b) { (void)b; return sfu_rcp_approx_ftz_f32((uint32_t)a); }
static uint64_t r_rcp(uint64_t a, uint64_t b) { (void)b; return sfu_rcp_approx_f32((uint32_t)a); }
static uint64_t r_rsqrt_ftz(uint64_t a, uint64_t b) { (void)b; return sfu_rsqrt_approx_ftz_f32((uint32_t)a); }
static uint64_t r_rsqrt(uint64_t a, uint64_t b) { (void)b; return sfu_rsqrt_approx_f32((uint32_t)a); }
static uint64_t r_sqrt_ftz(uint64_t a, uint64_t b) { (void)b; return sfu_sqrt_approx_ftz_f32((uint32_t)a); }
static uint64_t r_sqrt(uint64_t a, uint64_t b) { (void)b; return sfu_sqrt_approx_f32((uint32_t)a); }
static uint64_t r_lg2_ftz(uint64_t a, uint64_t b) { (void)b; return sfu_lg2_approx_ftz_f32((uint32_t)a); }
static uint64_t r_lg2(uint64_t a, uint64_t b) { (void)b; return sfu_lg2_approx_f32((uint32_t)a); }
static uint64_t r_sin_ftz(uint64_t a, uint64_t b) { (void)b; return sfu_sin_approx_ftz_f32((uint32_t)a); }
static uint64_t r_sin(uint64_t a, uint64_t b) { (void)b; return sfu_sin_approx_f32((uint32_t)a); }
static uint64_t r_cos_ftz(uint64_t a, uint64_t b) { (void)b; return sfu_cos_approx_ftz_f32((uint32_t)a); }
static uint64_t r_cos(uint64_t a, uint64_t b) { (void)b; return sfu_cos_approx_f32((uint32_t)a); }
static uint64_t r_tanh(uint64_t a, uint64_t b) { (void)b; return sfu_tanh_approx_f32((uint32_t)a); }
/* the 16-bit forms, and their x2 forms one half at a time */
#define HALF(name, f)                                                                                    \
  static uint64_t name(uint64_t a, uint64_t b) { (void)b; return f((uint16_t)a); }                      \
  static uint64_t name##x2(uint64_t a, uint64_t b) {                                                     \
    (void)b;                                                                                             \
    return (uint64_t)f((uint16_t)a) | (uint64_t)f((uint16_t)(a >> 16)) << 16;                           \
  }
HALF(r_ex2_f16, sfu_ex2_approx_f16)
HALF(r_ex2_bf16, sfu_ex2_approx_ftz_bf16)
HALF(r_tanh_f16, sfu_tanh_approx_f16)
HALF(r_tanh_bf16, sfu_tanh_approx_bf16)
static uint64_t r_rcp64_ftz(uint64_t a, uint64_t b) { (void)b; return sfu_rcp_approx_ftz_f64(a); }
static uint64_t r_rsqrt64_ftz(uint64_t a, uint64_t b) { (void)b; return sfu_rsqrt_approx_ftz_f64(a); }
static uint64_t r_rsqrt64(uint64_t a, uint64_t b) { (void)b; return sfu_rsqrt_approx_f64(a); }
static uint64_t r_div_approx_ftz(uint64_t a, uint64_t b) { return sfu_div_approx_ftz_f32((uint32_t)a, (uint32_t)b); }
static uint64_t r_div_approx(uint64_t a, uint64_t b) { return sfu_div_approx_f32((uint32_t)a, (uint32_t)b); }
static uint64_t r_div_full_ftz(uint64_t a, uint64_t b) { return sfu_div_full_ftz_f32((uint32_t)a, (uint32_t)b); }
static uint64_t r_div_full(uint64_t a, uint64_t b) { return sfu_div_full_f32((uint32_t)a, (uint32_t)b); }

/* div.full.f32 of 32 lanes: sfu_div_full_f32 of each (the divisor's reciprocal once for a run of
 * lanes of one divisor, as the runner's loop), the dividend's step in a loop the compiler
 * vectorises; d may be a or b */
void tc5__sfu_div_full_rows(const uint64_t *a, const uint64_t *b, uint64_t *d) {
  uint32_t r[32], x[32], y[32], t[32], same = 1;
  for (unsigned l = 0; l < 32; l++) x[l] = (uint32_t)a[l], y[l] = (uint32_t)b[l];
  uint32_t dx = 0;
  for (unsigned l = 0; l < 32; l++) same &= y[l] == y[0];
  for (unsigned l = 0; l < 32; l++) dx |= x[l] ^ x[0];
  if (same && !dx) { /* one quotient (a row of equal values, as a large-row test's zeros): once */
    uint32_t q = sfu_div_full_by_f32(x[0], y[0], sfu_div_full_rcp_f32(y[0]));
    for (unsigned l = 0; l < 32; l++) d[l] = q;
    return;
  }
  if (same) { /* one divisor (a row's sum): its reciprocal once */
    uint32_t r0 = sfu_div_full_rcp_f32(y[0]);
    for (unsigned l = 0; l < 32; l++) r[l] = r0;
  } else {
    for (unsigned l = 0; l < 32; l++) r[l] = l && y[l] == y[l - 1] ? r[l - 1] : sfu_div_full_rcp_f32(y[l]);
  }
  for (unsigned l = 0; l < 32; l++) t[l] = sfu_div_full_by_f32(x[l], y[l], r[l]);
  for (unsigned l = 0; l < 32; l++) d[l] = t[l];
}
/* ex2.approx{.ftz}.f32 of 32 values (a warp's lanes): sfu_ex2_approx{_ftz}_f32 of each, the
 * MUFU's squarer for all of them at once (sfu_sq17_32); d may be a */
void tc5__sfu_ex2_rows(const uint64_t *a, uint64_t *d, bool ftz) {
  uint32_t x[32], r[32], F[32], lo[32], sq[32], fin[32], half[32];
  int ex[32];
  uint32_t diff = 0;
  for (unsigned l = 0; l < 32; l++) diff |= (uint32_t)a[l] ^ (uint32_t)a[0]; /* a loop the compiler vectorises */
  if (!diff) { /* one value in every lane (a row of equal values, as a large-row test's zeros): once */
    uint32_t v = ftz ? sfu_ex2_approx_ftz_f32((uint32_t)a[0]) : sfu_ex2_approx_f32((uint32_t)a[0]);
    for (unsigned l = 0; l < 32; l++) d[l] = v;
    return;
  }
  for (unsigned l = 0; l < 32; l++) {
    x[l] = (uint32_t)a[l];
    /* sfu_ex2_approx_f32: below -126 (and NaN), ex2 of half the value, squared */
    half[l] = !ftz && !(m_u2f(x[l]) >= -126.0f);
    uint32_t in = half[l] ? m_f2u(m_u2f(x[l]) * 0.5f) : x[l];
    ex[l] = 0, F[l] = 0, r[l] = 0;
    fin[l] = (uint32_t)mufu_ex2_pre(in, &r[l], &ex[l], &F[l]);
    lo[l] = F[l] & 0x1ffff;
  }
  sfu_sq17_32(lo, sq);
  for (unsigned l = 0; l < 32; l++) {
    uint32_t v = fin[l] ? r[l] : mufu_ex2_fin(ex[l], F[l], sq[l]);
    if (half[l]) {
      float h = m_u2f(v);
      v = m_f2u(h * h);
    }
    d[l] = v;
  }
}

static const struct {
  tc5_sfu_info info;
  tc5__sfu_fn fn;
} ops[TC5_SFU_COUNT] = {
    [TC5_SFU_EX2_APPROX_FTZ_F32] = {{"ex2.approx.ftz.f32", 1, 32}, r_ex2_ftz},
    [TC5_SFU_EX2_APPROX_F32] = {{"ex2.approx.f32", 1, 32}, r_ex2},
    [TC5_SFU_RCP_APPROX_FTZ_F32] = {{"rcp.approx.ftz.f32", 1, 32}, r_rcp_ftz},
    [TC5_SFU_RCP_APPROX_F32] = {{"rcp.approx.f32", 1, 32}, r_rcp},
    [TC5_SFU_RSQRT_APPROX_FTZ_F32] = {{"rsqrt.approx.ftz.f32", 1, 32}, r_rsqrt_ftz},
    [TC5_SFU_RSQRT_APPROX_F32] = {{"rsqrt.approx.f32", 1, 32}, r_rsqrt},
    [TC5_SFU_SQRT_APPROX_FTZ_F32] = {{"sqrt.approx.ftz.f32", 1, 32}, r_sqrt_ftz},
    [TC5_SFU_SQRT_APPROX_F32] = {{"sqrt.approx.f32", 1, 32}, r_sqrt},
    [TC5_SFU_LG2_APPROX_FTZ_F32] = {{"lg2.approx.ftz.f32", 1, 32}, r_lg2_ftz},
    [TC5_SFU_LG2_APPROX_F32] = {{"lg2.approx.f32", 1, 32}, r_lg2},
    [TC5_SFU_SIN_APPROX_FTZ_F32] = {{"sin.approx.ftz.f32", 1, 32}, r_sin_ftz},
    [TC5_SFU_SIN_APPROX_F32] = {{"sin.approx.f32", 1, 32}, r_sin},
    [TC5_SFU_COS_APPROX_FTZ_F32] = {{"cos.approx.ftz.f32", 1, 32}, r_cos_ftz},
    [TC5_SFU_COS_APPROX_F32] = {{"cos.approx.f32", 1, 32}, r_cos},
    [TC5_SFU_TANH_APPROX_F32] = {{"tanh.approx.f32", 1, 32}, r_tanh},
    [TC5_SFU_EX2_APPROX_F16] = {{"ex2.approx.f16", 1, 16}, r_ex2_f16},
    [TC5_SFU_EX2_APPROX_F16X2] = {{"ex2.approx.f16x2", 1, 32}, r_ex2_f16x2},
    [TC5_SFU_EX2_APPROX_FTZ_BF16] = {{"ex2.approx.ftz.bf16", 1, 16}, r_ex2_bf16},
    [TC5_SFU_EX2_APPROX_FTZ_BF16X2] = {{"ex2.approx.ftz.bf16x2", 1, 32}, r_ex2_bf16x2},
    [TC5_SFU_TANH_APPROX_F16] = {{"tanh.approx.f16", 1, 16}, r_tanh_f16},
    [TC5_SFU_TANH_APPROX_F16X2] = {{"tanh.approx.f16x2", 1, 32}, r_tanh_f16x2},
    [TC5_SFU_TANH_APPROX_BF16] = {{"tanh.approx.bf16", 1, 16}, r_tanh_bf16},
    [TC5_SFU_TANH_APPROX_BF16X2] = {{"tanh.approx.bf16x2", 1, 32}, r_tanh_bf16x2},
    [TC5_SFU_RCP_APPROX_FTZ_F64] = {{"rcp.approx.ftz.f64", 1, 64}, r_rcp64_ftz},
    [TC5_SFU_RSQRT_APPROX_FTZ_F64] = {{"rsqrt.approx.ftz.f64", 1, 64}, r_rsqrt64_ftz},
    [TC5_SFU_RSQRT_APPROX_F64] = {{"rsqrt.approx.f64", 1, 64}, r_rsqrt64},
    [TC5_SFU_DIV_APPROX_FTZ_F32] = {{"div.approx.ftz.f32", 2, 32}, r_div_approx_ftz},
    [TC5_SFU_DIV_APPROX_F32] = {{"div.approx.f32", 2, 32}, r_div_approx},
    [TC5_SFU_DIV_FULL_FTZ_F32] = {{"div.full.ftz.f32", 2, 32}, r_div_full_ftz},
    [TC5_SFU_DIV_FULL_F32] = {{"div.full.f32", 2, 32}, r_div_full},
};

tc5__sfu_fn tc5__sfu_fn_of(tc5_sfu_op op) { return (unsigned)op < TC5_SFU_COUNT ? ops[op].fn : NULL; }

void tc5__sfu_div_steps(tc5_sfu_op op, tc5__sfu_rcp_fn *rcp, tc5__sfu_by_fn *by) {
  *rcp = op == TC5_SFU_DIV_FULL_F32 ? sfu_div_full_rcp_f32 : op == TC5_SFU_DIV_FULL_FTZ_F32 ? sfu_div_full_ftz_rcp_f32 : NULL;
  *by = op == TC5_SFU_DIV_FULL_F32 ? sfu_div_full_by_f32 : op == TC5_SFU_DIV_FULL_FTZ_F32 ? sfu_div_full_ftz_by_f32 : NULL;
}

tc5_status tc5_sfu_lookup(const char *ptx, tc5_sfu_op *op, tc5_diag *diag) {
  if (!ptx || !op) return TC5_EINVAL;
  for (unsigned k = 0; k < TC5_SFU_COUNT; k++)
    if (!strcmp(ops[k].info.ptx, ptx)) {
      *op = (tc5_sfu_op)k;
      return TC5_OK;
    }
  return tc5_diag_add(diag, TC5_EUNSUPPORTED, "instruction", 0,
                      "%.100s: no model of this approximate instruction (the special-function unit models the "
                      "forms measured on the H100: docs/fidelity.md)", ptx);
}

tc5_status tc5_sfu_info_get(tc5_sfu_op op, const tc5_sfu_info **info) {
  if ((unsigned)op >= TC5_SFU_COUNT || !info) return TC5_EINVAL;
  *info = &ops[op].info;
  return TC5_OK;
}

tc5_status tc5_sfu_eval(tc5_sfu_op op, uint64_t a, uint64_t b, uint64_t *d) {
  if ((unsigned)op >= TC5_SFU_COUNT || !d) return TC5_EINVAL;
  *d = ops[op].fn(a, b);
  return TC5_OK;
}
