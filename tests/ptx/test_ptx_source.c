/* tc5 tests — source lines (issue 35): the parser keeps .loc and .file, so
 * tc5_ptx_source_at maps a PTX line to the line a compiler recorded (the
 * outermost inlined_at for inlined code), a kernel error carries a "source"
 * issue and a checker finding its src/src2. */
#include "testutil.h"
#include "tc5/ptx.h"

static bool has(const tc5_diag *dg, const char *field, const char *s) {
  for (unsigned k = 0; k < dg->count; k++)
    if ((!field || !strcmp(dg->issue[k].field, field)) && strstr(dg->issue[k].message, s)) return true;
  return false;
}

/* line 11: a store past the buffer (.loc 1 16); line 9 inlined from std.py */
static const char *oob = ".version 8.7\n.target sm_100a\n.address_size 64\n"            /* 1-3 */
                         ".visible .entry k(.param .u64 out) {\n"                       /* 4 */
                         " .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"                        /* 5 */
                         " ld.param.u64 %rd1, [out];\n"                                 /* 6 */
                         "\t.loc\t1 10 3 // k.py:10:3\n"                                /* 7 */
                         "\t.loc\t2 43 13, function_name $L__info_string0, inlined_at 1 12 5 // std.py\n"
                         " mov.u32 %r1, %tid.x;\n"                                      /* 9 */
                         "\t.loc\t1 16 9\n"                                             /* 10 */
                         " mul.wide.u32 %rd2, %r1, 4; add.s64 %rd3, %rd1, %rd2; st.global.u32 [%rd3+4096], %r1;\n"
                         " ret;\n}\n"                                                   /* 12-13 */
                         "\t.file\t1 \"/src/k.py\"\n"
                         "\t.file\t2 \"/lib/triton/language/std.py\", 1700000000, 1234\n";

static void test_source_at(void **state) {
  (void)state;
  tc5_ptx_module *m = NULL;
  tc5_diag dg;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_ptx_load(oob, strlen(oob), "k.ptx", &m, &dg), TC5_OK);
  tc5_ptx_source s;
  /* before any .loc: no source */
  assert_int_equal(tc5_ptx_source_at(m, 6, &s), TC5_OK);
  assert_int_equal(s.line, 0);
  assert_string_equal(s.file, "");
  /* inlined: the .loc's own position and the caller's */
  assert_int_equal(tc5_ptx_source_at(m, 9, &s), TC5_OK);
  assert_string_equal(s.file, "/lib/triton/language/std.py");
  assert_int_equal(s.line, 43);
  assert_int_equal(s.col, 13);
  assert_string_equal(s.at_file, "/src/k.py");
  assert_int_equal(s.at_line, 12);
  assert_int_equal(s.at_col, 5);
  assert_int_equal(tc5_ptx_source_at(m, 11, &s), TC5_OK);
  assert_string_equal(s.file, "/src/k.py");
  assert_int_equal(s.line, 16);
  assert_int_equal(s.at_line, 0);
  /* no instruction on a directive's line; bad arguments */
  assert_int_equal(tc5_ptx_source_at(m, 10, &s), TC5_EINVAL);
  assert_int_equal(tc5_ptx_source_at(NULL, 11, &s), TC5_EINVAL);
  assert_int_equal(tc5_ptx_source_at(m, 11, NULL), TC5_EINVAL);
  /* a kernel error names the source line in an issue of its own */
  uint32_t out[32];
  tc5_ptx_arg a = {.kind = TC5_PTX_ARG_BUFFER, .data = out, .bytes = sizeof out};
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  cfg.block[0] = 32;
  cfg.threads = 1;
  assert_int_equal(tc5_ptx_launch(m, &cfg, &a, 1, NULL, &dg), TC5_EBOUNDS);
  assert_true(has(&dg, "instruction", "k.ptx:11: st.global.u32"));
  assert_true(has(&dg, "source", "k.ptx:11 is /src/k.py:16"));
  tc5_ptx_free(m);
}

/* a tcgen05.ld of a column a tcgen05.st wrote, before wait::st (line 16,
 * inlined at f.py:22; the store at f.py:21) */
static const char *unwaited = ".version 8.7\n.target sm_100a\n.address_size 64\n"
                              ".visible .entry f() {\n"
                              " .reg .b32 %r<5>;\n"
                              " .shared .align 4 .b32 slot;\n"
                              " mov.u32 %r1, %tid.x;\n"
                              " mov.u32 %r2, slot;\n"
                              "\t.loc\t1 20 5\n"
                              " tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r2], 32;\n"
                              " bar.sync 0;\n"
                              " ld.shared.b32 %r3, [slot];\n"
                              "\t.loc\t1 21 5\n"
                              " tcgen05.st.sync.aligned.32x32b.x1.b32 [%r3], {%r1};\n"
                              "\t.loc\t2 7 1, function_name $L__info_string0, inlined_at 1 22 9\n"
                              " tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r4}, [%r3];\n"
                              " tcgen05.wait::ld.sync.aligned;\n"
                              " tcgen05.wait::st.sync.aligned;\n"
                              " tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r3, 32;\n"
                              " tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n"
                              " ret;\n}\n"
                              "\t.file\t1 \"/src/f.py\"\n"
                              "\t.file\t2 \"/lib/std.py\"\n";

static tc5_check_finding got;
static unsigned ngot;
static void on_finding(void *ctx, const tc5_check_finding *f) {
  (void)ctx;
  if (!ngot++) got = *f;
}

static void test_finding_src(void **state) {
  (void)state;
  tc5_ptx_module *m = NULL;
  tc5_diag dg;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_ptx_load(unwaited, strlen(unwaited), "f.ptx", &m, &dg), TC5_OK);
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  cfg.block[0] = 32;
  cfg.threads = 1;
  cfg.on_finding = on_finding;
  ngot = 0;
  assert_int_equal(tc5_ptx_launch(m, &cfg, NULL, 0, NULL, &dg), TC5_EHAZARD);
  assert_int_equal(ngot, 1);
  assert_int_equal(got.line, 16);
  assert_int_equal(got.line2, 14);
  assert_string_equal(got.src, "/src/f.py:22 (in std.py:7)");
  assert_string_equal(got.src2, "/src/f.py:21");
  tc5_ptx_free(m);
}

/* malformed or absent line information is ignored, as before */
static void test_odd_directives(void **state) {
  (void)state;
  static const char *t = ".version 8.7\n.target sm_100a\n.address_size 64\n"
                         ".file 1\n.file x \"a\"\n.file 3 \"unterminated\n"
                         ".visible .entry e() {\n"
                         "\t.loc\n\t.loc 1\n\t.loc 9 99999999999 1\n"
                         " ret;\n}\n";
  tc5_ptx_module *m = NULL;
  tc5_diag dg;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_ptx_load(t, strlen(t), "e.ptx", &m, &dg), TC5_OK);
  tc5_ptx_source s;
  assert_int_equal(tc5_ptx_source_at(m, 11, &s), TC5_OK);
  assert_int_equal(s.line, UINT32_MAX); /* saturated */
  assert_string_equal(s.file, "");      /* no .file 9 */
  tc5_ptx_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_source_at),
      cmocka_unit_test(test_finding_src),
      cmocka_unit_test(test_odd_directives),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
