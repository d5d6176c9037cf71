/* tc5 tests — the special-function unit within the PTX ISA's stated error
 * bounds (tests/sfu/sfu_bounds.h: the bounds as data, each with the ISA's
 * section and words):
 *   - the f16/bf16 forms on all 2^16 inputs;
 *   - the f32 forms on a deterministic sample: every 8191st word (524,288
 *     inputs, all exponents and signs) and the special words;
 *   - the divisions on 2^18 random pairs and every pair of special words;
 *   - TC5_SFU_BOUNDS_FULL=1: the f32 forms on all 2^32 inputs (threads: one
 *     per core; the same run as `gpu/run.sh sfu` makes on the H100; about a
 *     minute per form on 16 cores); TC5_SFU_BOUNDS_OP=NAME: that form only;
 *   - the ISA's special-value tables (Input -> Result) of every instruction,
 *     and div.approx's rule for 2^126 < |b| < 2^128;
 *   - the .f64 forms' stated semantics (no numeric bound is stated): the low
 *     word of the result is zero and only the high word of the input is read.
 * Where tc5 (the H100: gpu/run.sh sfu, 0 differences on every input) exceeds
 * a bound, the row's `found` records the exhaustive run's worst error and its
 * input: the test reproduces that input's error and requires every other
 * input to stay within `found` (a finding, docs/sfu.md and
 * docs/spec-departures.md); elsewhere every input must be within the bound. */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "testutil.h"
#include "sfu/sfu_bounds.h"

static uint64_t mix64(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static uint32_t ev(tc5_sfu_op op, uint32_t a, uint32_t b) {
  uint64_t d = 0;
  tc5_sfu_eval(op, a, b, &d);
  return (uint32_t)d;
}
static const char *name(tc5_sfu_op op) {
  const tc5_sfu_info *in;
  tc5_sfu_info_get(op, &in);
  return in->ptx;
}

static const uint32_t special[] = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000, 0x3f800000,
    0xbf800000, 0x3f000000, 0x40000000, 0x3f7fffff, 0x3f800001, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000,
    0x7fc00000, 0x3effffff, 0x3f3504f3, 0x3fb504f3, 0x42fe0000, 0x43000000, 0xc2fc0000, 0xc3000000, 0xc3160000,
    0x40c90fdb, 0xc0c90fdb, 0x439d1463, 0xc39d1463, 0x7e800000, 0x00400000, 0x0d800000, 0x72800000, 0x5f000000,
    0x41000000, 0x3b000000, 0x40490fdb, 0x3fc90fdb};
#define NSPECIAL (sizeof special / sizeof special[0])

typedef struct {
  double worst;
  uint32_t worst_a, worst_b;
  uint64_t covered, over;
} tally;

static void take(const sfu_bound *r, uint32_t a, uint32_t b, tally *t) {
  int div = r->op >= TC5_SFU_DIV_APPROX_FTZ_F32;
  uint32_t y = div ? ev(r->op, a, b) : ev(r->op, a, 0);
  double e = sb_error(r, a, b, y);
  if (e < 0) return;
  t->covered++;
  if (e > sb_limit(r)) t->over++;
  if (e > t->worst) t->worst = e, t->worst_a = a, t->worst_b = b;
}

/* a row's verdict: within the bound, or within the recorded finding */
static void judge(const sfu_bound *r, const tally *t, const char *what) {
  double lim = sb_limit(r);
  print_message("  %-22s %-20s %s: %llu inputs, worst %.4g (bound %.4g) at 0x%08x%s, %llu above the bound\n",
                name(r->op), r->section, what, (unsigned long long)t->covered, t->worst, lim, t->worst_a,
                r->op >= TC5_SFU_DIV_APPROX_FTZ_F32 ? " (dividend)" : "", (unsigned long long)t->over);
  assert_true(t->covered > 0);
  if (r->found == 0) {
    if (t->over)
      fail_msg("%s (%s): 0x%08x/0x%08x: error %.6g, above the ISA's bound %.6g (\"%s\")", name(r->op), r->section,
               t->worst_a, t->worst_b, t->worst, lim, r->quote);
  } else {
    if (t->worst > r->found * (1 + 1e-6))
      fail_msg("%s (%s): 0x%08x: error %.6g, above even the recorded finding %.6g", name(r->op), r->section,
               t->worst_a, t->worst, r->found);
  }
}

/* a recorded finding: its input gives the error recorded, above the bound */
static void test_findings(void **state) {
  (void)state;
  for (unsigned i = 0; i < SFU_NBOUNDS; i++) {
    const sfu_bound *r = &sfu_bounds[i];
    if (r->found == 0) continue;
    int div = r->op >= TC5_SFU_DIV_APPROX_FTZ_F32;
    uint32_t a = div ? r->found_b : r->found_at, b = div ? r->found_at : 0;
    double e = sb_error(r, a, b, div ? ev(r->op, a, b) : ev(r->op, a, 0));
    print_message("  %-22s finding at 0x%08x: %.6g, bound %.6g\n", name(r->op), r->found_at, e, sb_limit(r));
    assert_true(e > sb_limit(r));
    assert_true(fabs(e - r->found) <= 1e-6 * r->found);
  }
}

static void test_half_forms_all_inputs(void **state) {
  (void)state;
  for (unsigned i = 0; i < SFU_NBOUNDS; i++) {
    const sfu_bound *r = &sfu_bounds[i];
    if (sb_fmt(r->op) == SB_F32) continue;
    tally t = {0};
    for (uint32_t x = 0; x < 65536; x++) take(r, x, 0, &t);
    judge(r, &t, "all 2^16");
  }
}

static void test_f32_forms_sample(void **state) {
  (void)state;
  for (unsigned i = 0; i < SFU_NBOUNDS; i++) {
    const sfu_bound *r = &sfu_bounds[i];
    if (sb_fmt(r->op) != SB_F32 || r->op >= TC5_SFU_DIV_APPROX_FTZ_F32) continue;
    tally t = {0};
    for (uint32_t k = 0; k < 1u << 19; k++) take(r, k * 8191u, 0, &t);
    for (unsigned s = 0; s < NSPECIAL; s++) take(r, special[s], 0, &t), take(r, special[s] + 1, 0, &t);
    judge(r, &t, "every 8191st");
  }
}

static void test_divisions_sample(void **state) {
  (void)state;
  for (unsigned i = 0; i < SFU_NBOUNDS; i++) {
    const sfu_bound *r = &sfu_bounds[i];
    if (r->op < TC5_SFU_DIV_APPROX_FTZ_F32) continue;
    tally t = {0};
    for (uint32_t k = 0; k < 1u << 18; k++) {
      uint64_t z = mix64(k + 0x5f0);
      take(r, (uint32_t)z, (uint32_t)(z >> 32), &t);
    }
    for (unsigned s = 0; s < NSPECIAL; s++)
      for (unsigned u = 0; u < NSPECIAL; u++) take(r, special[s], special[u], &t);
    judge(r, &t, "random pairs");
  }
}

/* the ISA's special-value tables, Input -> Result (NaN: any NaN) */
#define NAN_ANY 0xffffffffu
static void test_special_tables(void **state) {
  (void)state;
  static const struct {
    const char *ptx;
    uint32_t in, out;
  } v[] = {
      /* 9.7.3.13 rcp */
      {"rcp.approx.f32", 0xff800000, 0x80000000}, {"rcp.approx.f32", 0x80000000, 0xff800000},
      {"rcp.approx.f32", 0x00000000, 0x7f800000}, {"rcp.approx.f32", 0x7f800000, 0x00000000},
      {"rcp.approx.f32", 0x7fc00000, NAN_ANY},
      {"rcp.approx.ftz.f32", 0xff800000, 0x80000000}, {"rcp.approx.ftz.f32", 0x80000000, 0xff800000},
      {"rcp.approx.ftz.f32", 0x00000000, 0x7f800000}, {"rcp.approx.ftz.f32", 0x7f800000, 0x00000000},
      {"rcp.approx.ftz.f32", 0x7fc00000, NAN_ANY},
      /* 9.7.3.15 sqrt */
      {"sqrt.approx.f32", 0xff800000, NAN_ANY}, {"sqrt.approx.f32", 0xbf800000, NAN_ANY},
      {"sqrt.approx.f32", 0x80000000, 0x80000000}, {"sqrt.approx.f32", 0x00000000, 0x00000000},
      {"sqrt.approx.f32", 0x7f800000, 0x7f800000}, {"sqrt.approx.f32", 0x7fc00000, NAN_ANY},
      {"sqrt.approx.ftz.f32", 0xff800000, NAN_ANY}, {"sqrt.approx.ftz.f32", 0xbf800000, NAN_ANY},
      {"sqrt.approx.ftz.f32", 0x80000000, 0x80000000}, {"sqrt.approx.ftz.f32", 0x00000000, 0x00000000},
      {"sqrt.approx.ftz.f32", 0x7f800000, 0x7f800000}, {"sqrt.approx.ftz.f32", 0x7fc00000, NAN_ANY},
      /* 9.7.3.16 rsqrt */
      {"rsqrt.approx.f32", 0xff800000, NAN_ANY}, {"rsqrt.approx.f32", 0xbf800000, NAN_ANY},
      {"rsqrt.approx.f32", 0x80000000, 0xff800000}, {"rsqrt.approx.f32", 0x00000000, 0x7f800000},
      {"rsqrt.approx.f32", 0x7f800000, 0x00000000}, {"rsqrt.approx.f32", 0x7fc00000, NAN_ANY},
      {"rsqrt.approx.ftz.f32", 0xff800000, NAN_ANY}, {"rsqrt.approx.ftz.f32", 0xbf800000, NAN_ANY},
      {"rsqrt.approx.ftz.f32", 0x80000000, 0xff800000}, {"rsqrt.approx.ftz.f32", 0x00000000, 0x7f800000},
      {"rsqrt.approx.ftz.f32", 0x7f800000, 0x00000000}, {"rsqrt.approx.ftz.f32", 0x7fc00000, NAN_ANY},
      /* 9.7.3.18 sin, 9.7.3.19 cos */
      {"sin.approx.f32", 0xff800000, NAN_ANY}, {"sin.approx.f32", 0x80000000, 0x80000000},
      {"sin.approx.f32", 0x00000000, 0x00000000}, {"sin.approx.f32", 0x7f800000, NAN_ANY},
      {"sin.approx.f32", 0x7fc00000, NAN_ANY},
      {"sin.approx.ftz.f32", 0x80000000, 0x80000000}, {"sin.approx.ftz.f32", 0x00000000, 0x00000000},
      {"cos.approx.f32", 0xff800000, NAN_ANY}, {"cos.approx.f32", 0x80000000, 0x3f800000},
      {"cos.approx.f32", 0x00000000, 0x3f800000}, {"cos.approx.f32", 0x7f800000, NAN_ANY},
      {"cos.approx.f32", 0x7fc00000, NAN_ANY},
      {"cos.approx.ftz.f32", 0x80000000, 0x3f800000}, {"cos.approx.ftz.f32", 0x00000000, 0x3f800000},
      /* 9.7.3.20 lg2 */
      {"lg2.approx.f32", 0xff800000, NAN_ANY}, {"lg2.approx.f32", 0xbf800000, NAN_ANY},
      {"lg2.approx.f32", 0x80000000, 0xff800000}, {"lg2.approx.f32", 0x00000000, 0xff800000},
      {"lg2.approx.f32", 0x7f800000, 0x7f800000}, {"lg2.approx.f32", 0x7fc00000, NAN_ANY},
      {"lg2.approx.ftz.f32", 0x80000000, 0xff800000}, {"lg2.approx.ftz.f32", 0x00000000, 0xff800000},
      {"lg2.approx.ftz.f32", 0x7f800000, 0x7f800000}, {"lg2.approx.ftz.f32", 0xbf800000, NAN_ANY},
      /* 9.7.3.21 ex2 */
      {"ex2.approx.f32", 0xff800000, 0x00000000}, {"ex2.approx.f32", 0x80000000, 0x3f800000},
      {"ex2.approx.f32", 0x00000000, 0x3f800000}, {"ex2.approx.f32", 0x7f800000, 0x7f800000},
      {"ex2.approx.f32", 0x7fc00000, NAN_ANY},
      {"ex2.approx.ftz.f32", 0xff800000, 0x00000000}, {"ex2.approx.ftz.f32", 0x80000000, 0x3f800000},
      {"ex2.approx.ftz.f32", 0x00000000, 0x3f800000}, {"ex2.approx.ftz.f32", 0x7f800000, 0x7f800000},
      {"ex2.approx.ftz.f32", 0x7fc00000, NAN_ANY},
      /* 9.7.3.22 tanh: subnormal inputs pass through */
      {"tanh.approx.f32", 0xff800000, 0xbf800000}, {"tanh.approx.f32", 0x80000000, 0x80000000},
      {"tanh.approx.f32", 0x00000000, 0x00000000}, {"tanh.approx.f32", 0x7f800000, 0x3f800000},
      {"tanh.approx.f32", 0x7fc00000, NAN_ANY}, {"tanh.approx.f32", 0x00000001, 0x00000001},
      {"tanh.approx.f32", 0x807fffff, 0x807fffff},
      /* 9.7.4.9 tanh (half) */
      {"tanh.approx.f16", 0xfc00, 0xbc00}, {"tanh.approx.f16", 0x8000, 0x8000}, {"tanh.approx.f16", 0x0000, 0x0000},
      {"tanh.approx.f16", 0x7c00, 0x3c00}, {"tanh.approx.f16", 0x7e00, NAN_ANY},
      {"tanh.approx.bf16", 0xff80, 0xbf80}, {"tanh.approx.bf16", 0x8000, 0x8000},
      {"tanh.approx.bf16", 0x0000, 0x0000}, {"tanh.approx.bf16", 0x7f80, 0x3f80}, {"tanh.approx.bf16", 0x7fc0, NAN_ANY},
      /* 9.7.4.10 ex2 (half) */
      {"ex2.approx.ftz.bf16", 0xff80, 0x0000}, {"ex2.approx.ftz.bf16", 0x8001, 0x3f80},
      {"ex2.approx.ftz.bf16", 0x8000, 0x3f80}, {"ex2.approx.ftz.bf16", 0x0000, 0x3f80},
      {"ex2.approx.ftz.bf16", 0x0001, 0x3f80}, {"ex2.approx.ftz.bf16", 0x7f80, 0x7f80},
      {"ex2.approx.ftz.bf16", 0x7fc0, NAN_ANY},
      {"ex2.approx.f16", 0xfc00, 0x0000}, {"ex2.approx.f16", 0x8000, 0x3c00}, {"ex2.approx.f16", 0x0000, 0x3c00},
      {"ex2.approx.f16", 0x7c00, 0x7c00}, {"ex2.approx.f16", 0x7e00, NAN_ANY},
  };
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    tc5_sfu_op op;
    assert_int_equal(tc5_sfu_lookup(v[i].ptx, &op, NULL), TC5_OK);
    const tc5_sfu_info *in;
    tc5_sfu_info_get(op, &in);
    uint32_t y = ev(op, v[i].in, 0);
    int isnan = in->bits == 16 ? (y & 0x7fff) > 0x7c00 && !(sb_fmt(op) == SB_BF16 && (y & 0x7fff) <= 0x7f80)
                               : (y & 0x7fffffff) > 0x7f800000;
    if (sb_fmt(op) == SB_BF16) isnan = (y & 0x7fff) > 0x7f80;
    if (v[i].out == NAN_ANY ? !isnan : y != v[i].out)
      fail_msg("%s of 0x%08x: 0x%08x; the ISA's table gives %s0x%08x", v[i].ptx, v[i].in, y,
               v[i].out == NAN_ANY ? "a NaN, not " : "", v[i].out == NAN_ANY ? y : v[i].out);
  }
  /* div.approx.f32: "For 2^126 < |b| < 2^128, if a is infinity, div.approx.f32 returns NaN, otherwise it
   * returns a sign-preserving zero" */
  static const tc5_sfu_op dv[2] = {TC5_SFU_DIV_APPROX_F32, TC5_SFU_DIV_APPROX_FTZ_F32};
  for (unsigned o = 0; o < 2; o++)
    for (uint32_t k = 0; k < 4096; k++) {
      uint32_t b = 0x7e800001u + (uint32_t)(mix64(k) % (0x7f7fffffu - 0x7e800000u)), sb = (uint32_t)k << 31;
      uint32_t a = k < 64 ? 0x7f800000u : (uint32_t)mix64(k + 99) & 0x7f7fffffu, sa = (uint32_t)(k >> 1) << 31;
      uint32_t y = ev(dv[o], a | sa, b | sb);
      if (k < 64) {
        if ((y & 0x7fffffff) <= 0x7f800000u) fail_msg("%s(0x%08x, 0x%08x): 0x%08x, not NaN", name(dv[o]), a | sa, b | sb, y);
      } else if (y != ((sa ^ sb) & 0x80000000u)) {
        fail_msg("%s(0x%08x, 0x%08x): 0x%08x, not a zero of sign %u", name(dv[o]), a | sa, b | sb, y, (sa ^ sb) >> 31);
      }
    }
}

/* rcp.approx.ftz.f64, rsqrt.approx.ftz.f64: "d[63:32] = 1.0 / tmp; d[31:0] = 0x00000000" with tmp the upper
 * word of a (9.7.3.14, 9.7.3.17): the low word of the result is zero, the low word of the input unread; NaNs
 * map to 0x7fffffff00000000; the special tables */
static void test_f64_semantics(void **state) {
  (void)state;
  static const tc5_sfu_op ops[2] = {TC5_SFU_RCP_APPROX_FTZ_F64, TC5_SFU_RSQRT_APPROX_FTZ_F64};
  for (unsigned o = 0; o < 2; o++)
    for (uint32_t k = 0; k < 1u << 16; k++) {
      uint64_t a = mix64(k), d0, d1;
      tc5_sfu_eval(ops[o], a, 0, &d0);
      tc5_sfu_eval(ops[o], a ^ (mix64(k + 7) & 0xffffffffu), 0, &d1);
      assert_true((d0 & 0xffffffffu) == 0 && d0 == d1);
    }
  static const struct {
    tc5_sfu_op op;
    uint64_t in, out;
  } v[] = {
      {TC5_SFU_RCP_APPROX_FTZ_F64, 0xfff0000000000000ull, 0x8000000000000000ull},
      {TC5_SFU_RCP_APPROX_FTZ_F64, 0x800fffff00000000ull, 0xfff0000000000000ull},
      {TC5_SFU_RCP_APPROX_FTZ_F64, 0x8000000000000000ull, 0xfff0000000000000ull},
      {TC5_SFU_RCP_APPROX_FTZ_F64, 0x0000000000000000ull, 0x7ff0000000000000ull},
      {TC5_SFU_RCP_APPROX_FTZ_F64, 0x0000000100000000ull, 0x7ff0000000000000ull},
      {TC5_SFU_RCP_APPROX_FTZ_F64, 0x7ff0000000000000ull, 0x0000000000000000ull},
      {TC5_SFU_RCP_APPROX_FTZ_F64, 0x7ff8000000000000ull, 0x7fffffff00000000ull},
      {TC5_SFU_RCP_APPROX_FTZ_F64, 0xfff8000000000001ull, 0x7fffffff00000000ull},
      {TC5_SFU_RSQRT_APPROX_FTZ_F64, 0xfff0000000000000ull, 0x7fffffff00000000ull},
      {TC5_SFU_RSQRT_APPROX_FTZ_F64, 0x800fffff00000000ull, 0xfff0000000000000ull},
      {TC5_SFU_RSQRT_APPROX_FTZ_F64, 0x8000000000000000ull, 0xfff0000000000000ull},
      {TC5_SFU_RSQRT_APPROX_FTZ_F64, 0x0000000000000000ull, 0x7ff0000000000000ull},
      {TC5_SFU_RSQRT_APPROX_FTZ_F64, 0x0000000100000000ull, 0x7ff0000000000000ull},
      {TC5_SFU_RSQRT_APPROX_FTZ_F64, 0x7ff0000000000000ull, 0x0000000000000000ull},
      {TC5_SFU_RSQRT_APPROX_FTZ_F64, 0x7ff8000000000000ull, 0x7fffffff00000000ull},
  };
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    uint64_t d;
    tc5_sfu_eval(v[i].op, v[i].in, 0, &d);
    if (d != v[i].out)
      fail_msg("%s of 0x%016llx: 0x%016llx; the ISA's table gives 0x%016llx", name(v[i].op),
               (unsigned long long)v[i].in, (unsigned long long)d, (unsigned long long)v[i].out);
  }
}

/* TC5_SFU_BOUNDS_FULL=1: every f32 input of every one-input f32 row, on all cores */
typedef struct {
  const sfu_bound *r;
  uint32_t lo, n;
  tally t;
} slice;
static void *run_slice(void *p) {
  slice *s = p;
  for (uint32_t k = 0; k < s->n; k++) take(s->r, s->lo + k, 0, &s->t);
  return NULL;
}
static void test_f32_forms_full(void **state) {
  (void)state;
  const char *e = getenv("TC5_SFU_BOUNDS_FULL");
  if (!e || !atoi(e)) {
    print_message("  all 2^32 inputs: set TC5_SFU_BOUNDS_FULL=1 (gpu/run.sh sfu does it on the H100)\n");
    skip();
  }
  const char *only = getenv("TC5_SFU_BOUNDS_OP"); /* one instruction, as PTX writes it */
  long nc = sysconf(_SC_NPROCESSORS_ONLN);
  unsigned nt = nc < 1 ? 1 : nc > 64 ? 64 : (unsigned)nc;
  for (unsigned i = 0; i < SFU_NBOUNDS; i++) {
    const sfu_bound *r = &sfu_bounds[i];
    if (sb_fmt(r->op) != SB_F32 || r->op >= TC5_SFU_DIV_APPROX_FTZ_F32) continue;
    if (only && strcmp(only, name(r->op))) continue;
    tally t = {0};
    for (uint32_t part = 0; part < 16; part++) {
      slice s[64];
      pthread_t th[64];
      uint32_t per = (1u << 28) / nt;
      for (unsigned j = 0; j < nt; j++) {
        memset(&s[j], 0, sizeof s[j]);
        s[j].r = r;
        s[j].lo = part << 28 | j * per;
        s[j].n = j + 1 == nt ? (1u << 28) - j * per : per;
        pthread_create(&th[j], NULL, run_slice, &s[j]);
      }
      for (unsigned j = 0; j < nt; j++) {
        pthread_join(th[j], NULL);
        t.covered += s[j].t.covered, t.over += s[j].t.over;
        if (s[j].t.worst > t.worst) t.worst = s[j].t.worst, t.worst_a = s[j].t.worst_a;
      }
    }
    judge(r, &t, "all 2^32");
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_findings),        cmocka_unit_test(test_half_forms_all_inputs),
      cmocka_unit_test(test_f32_forms_sample), cmocka_unit_test(test_divisions_sample),
      cmocka_unit_test(test_special_tables),  cmocka_unit_test(test_f64_semantics),
      cmocka_unit_test(test_f32_forms_full),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
