/* tc5 tests — the tcgen05 checker through the C API: the rule table, the
 * mode names, findings handed to on_finding (rule, lines, count), the
 * statuses (TC5_EHAZARD with the first finding in the diag), modes none and
 * strict, and a bad mode rejected. The seeded-bug catalogue of whole kernels
 * runs as CTest cases (tests/check/catalogue.sh). */
#include "testutil.h"
#include "tc5/check.h"
#include "tc5/ptx.h"

/* one warp: alloc, tcgen05.st of 7 to lane l column 0, (wait::st when the
 * parameter is not 0), tcgen05.ld back, wait::ld, store it, dealloc */
static const char *kernel =
    ".version 8.7\n.target sm_100a\n.address_size 64\n"
    ".visible .entry k(.param .u64 out, .param .u32 wait) {\n"
    " .reg .pred %p<2>; .reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
    " .shared .align 4 .b32 taddr;\n"
    " mov.u32 %r1, taddr;\n"
    " tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r1], 32;\n"
    " ld.shared.b32 %r2, [%r1];\n"
    " mov.b32 %r3, 7;\n"
    " tcgen05.st.sync.aligned.32x32b.x1.b32 [%r2], {%r3};\n"
    " ld.param.u32 %r4, [wait];\n"
    " setp.ne.u32 %p1, %r4, 0;\n"
    " @%p1 tcgen05.wait::st.sync.aligned;\n"
    " tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r5}, [%r2];\n"
    " tcgen05.wait::ld.sync.aligned;\n"
    " ld.param.u64 %rd1, [out]; mov.u32 %r6, %tid.x; mul.wide.u32 %rd2, %r6, 4; add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.b32 [%rd3], %r5;\n"
    " tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r2, 32;\n"
    " tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n"
    " ret;\n}\n";

static tc5_check_finding got[8];
static unsigned ngot;
static void on_finding(void *ctx, const tc5_check_finding *f) {
  (void)ctx;
  if (ngot < 8) got[ngot++] = *f;
}

static tc5_status run(uint32_t wait, tc5_check_mode mode, tc5_ptx_stats *stats, tc5_diag *dg) {
  tc5_ptx_module *m;
  tc5_diag_init(dg);
  tc5_status st = tc5_ptx_load(kernel, strlen(kernel), "c.ptx", &m, dg);
  if (st) return st;
  uint32_t out[32];
  tc5_ptx_arg args[2] = {{.kind = TC5_PTX_ARG_BUFFER, .data = out, .bytes = sizeof out}, {.kind = TC5_PTX_ARG_VALUE, .size = 4, .bits = wait}};
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  cfg.block[0] = 32;
  cfg.threads = 1;
  cfg.check = mode;
  cfg.on_finding = on_finding;
  ngot = 0;
  st = tc5_ptx_launch(m, &cfg, args, 2, stats, dg);
  tc5_ptx_free(m);
  if (!st) assert_int_equal(out[5], 7);
  return st;
}

static void test_rules_table(void **s) {
  (void)s;
  unsigned n, idx;
  assert_int_equal(tc5_check_rule_count(&n), TC5_OK);
  assert_true(n >= 20);
  for (unsigned k = 0; k < n; k++) {
    const tc5_check_rule *r;
    assert_int_equal(tc5_check_rule_get(k, &r), TC5_OK);
    assert_non_null(r->id);
    assert_true(strlen(r->spec) > 20 && strlen(r->fix) > 10 && strlen(r->broken) > 10);
    /* tcgen05 (9.7.16), and the named barriers its kernels use (9.7.13.1, issue 34) */
    assert_true(!strncmp(r->section, "9.7.16.", 7) || !strcmp(r->section, "9.7.13.1") ||
                !strcmp(r->section, "9.7.15 (wgmma)"));
    assert_int_equal(tc5_check_rule_find(r->id, &idx), TC5_OK);
    assert_int_equal(idx, k); /* ids are unique */
  }
  const tc5_check_rule *r;
  assert_int_equal(tc5_check_rule_get(n, &r), TC5_EINVAL);
  assert_int_equal(tc5_check_rule_find("no-such-rule", &idx), TC5_EINVAL);
  assert_int_equal(tc5_check_rule_count(NULL), TC5_EINVAL);
  tc5_check_mode m;
  assert_int_equal(tc5_check_mode_parse("strict", &m), TC5_OK);
  assert_int_equal(m, TC5_CHECK_STRICT);
  assert_int_equal(tc5_check_mode_parse("none", &m), TC5_OK);
  assert_int_equal(m, TC5_CHECK_NONE);
  assert_int_equal(tc5_check_mode_parse("default", &m), TC5_OK);
  assert_int_equal(m, TC5_CHECK_DEFAULT);
  assert_int_equal(tc5_check_mode_parse("loud", &m), TC5_EINVAL);
  assert_string_equal(tc5_status_name(TC5_EHAZARD), "TC5_EHAZARD");
}

static void test_finding(void **s) {
  (void)s;
  tc5_diag dg;
  tc5_ptx_stats st;
  /* correct: no finding in any mode */
  assert_int_equal(run(1, TC5_CHECK_STRICT, &st, &dg), TC5_OK);
  assert_int_equal(ngot, 0);
  assert_int_equal(st.findings + st.warnings, 0);
  /* the tcgen05.st not waited for before the tcgen05.ld (and never: the
   * dealloc frees its columns too) */
  assert_int_equal(run(0, TC5_CHECK_DEFAULT, &st, &dg), TC5_EHAZARD);
  assert_int_equal(ngot, 2);
  unsigned want;
  tc5_check_rule_find("tmem-st-unwaited", &want);
  assert_int_equal(got[0].rule, want);
  assert_false(got[0].warning);
  assert_int_equal(got[0].line, 15); /* the tcgen05.ld */
  assert_int_equal(got[0].line2, 11); /* the tcgen05.st */
  assert_int_equal(got[0].count, 1);
  assert_non_null(strstr(got[0].text, "[tmem-st-unwaited]"));
  assert_non_null(strstr(got[0].text, "fix:"));
  assert_non_null(strstr(got[0].text, "threads 0-31"));
  tc5_check_rule_find("dealloc-inflight", &want);
  assert_int_equal(got[1].rule, want);
  assert_int_equal(got[1].line, 19);
  assert_int_equal(st.findings, 2);
  assert_true(dg.count >= 1);
  assert_int_equal(dg.issue[0].status, TC5_EHAZARD);
  assert_non_null(strstr(dg.issue[0].message, "tmem-st-unwaited"));
  /* --check=none: no hazard tracking */
  assert_int_equal(run(0, TC5_CHECK_NONE, &st, &dg), TC5_OK);
  assert_int_equal(ngot, 0);
  assert_int_equal(st.findings, 0);
  /* a mode out of range */
  assert_int_equal(run(1, (tc5_check_mode)7, NULL, &dg), TC5_EINVAL);
  assert_non_null(strstr(dg.issue[0].message, "check mode 7"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rules_table),
      cmocka_unit_test(test_finding),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
