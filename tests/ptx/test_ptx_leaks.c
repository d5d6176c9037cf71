/* tc5 tests — issue 39: allocations that an error path used to drop. Each
 * test is the smallest input that reaches one such path; the sanitizer build
 * runs them with detect_leaks=1, so a leak fails the test at exit. The
 * allocation-failure paths (reachable only when malloc fails) are
 * test_ptx_oom's. */
#include "testutil.h"
#include "tc5/ptx.h"

static bool has(const tc5_diag *dg, const char *s) {
  for (unsigned k = 0; k < dg->count; k++)
    if (strstr(dg->issue[k].message, s)) return true;
  return false;
}

static tc5_status load_text(const char *text, tc5_diag *dg) {
  tc5_ptx_module *m = NULL;
  tc5_diag_init(dg);
  tc5_status st = tc5_ptx_load(text, strlen(text), "t.ptx", &m, dg);
  tc5_ptx_free(m);
  return st;
}

/* the fuzzer's reproducer (tests/data/fuzz/ptx/leak-branchtargets.ptx):
 * a .branchtargets list whose second target is no name; the table's target
 * array was allocated for the first and dropped with the error */
static void test_branchtargets_reproducer(void **state) {
  (void)state;
  char path[1024];
  snprintf(path, sizeof path, "%s/fuzz/ptx/leak-branchtargets.ptx", TC5_TEST_DATA_DIR);
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  static char text[1 << 12];
  size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = 0;
  tc5_diag dg;
  assert_int_equal(load_text(text, &dg), TC5_EPARSE);
  assert_true(has(&dg, "t.ptx:10:28: expected a name: '.branchtargets $L__BB0_1, @$L__BB0_1;'"));
}

#define HEAD ".version 8.0\n.target sm_90a\n.address_size 64\n"
#define PRE HEAD ".visible .entry k() {\n .reg .b32 %r<2>;\n"
#define POST "\n ret;\n}\n"
#define ENTRY(body) PRE body POST

/* the same path at each point of the list: the first target, past the
 * array's first growth (9 targets), a name too long, a missing ';' */
static void test_branchtargets_every_error(void **state) {
  (void)state;
  tc5_diag dg;
  assert_int_equal(load_text(ENTRY("L: T: .branchtargets @L;"), &dg), TC5_EPARSE);
  assert_true(has(&dg, "t.ptx:6:22: expected a name"));
  assert_int_equal(load_text(ENTRY("L: T: .branchtargets L, L, L, L, L, L, L, L, L, {;"), &dg), TC5_EPARSE);
  assert_true(has(&dg, "expected a name"));
  static char text[1 << 13];
  static char name[5000]; /* past TC5_PTX_NAME_MAX */
  memset(name, 'x', sizeof name - 1);
  name[sizeof name - 1] = 0;
  snprintf(text, sizeof text, "%sL: T: .branchtargets L, %s;%s", PRE, name, POST);
  assert_int_equal(load_text(text, &dg), TC5_EUNSUPPORTED);
  assert_true(has(&dg, "name longer than"));
  assert_int_equal(load_text(ENTRY("L: T: .branchtargets L, L ret;"), &dg), TC5_EPARSE);
  assert_true(has(&dg, "expected ';'"));
  /* the table complete, then an error later in the body: freed with the others */
  assert_int_equal(load_text(ENTRY("L: T: .branchtargets L, L; frobnicate;"), &dg), TC5_EUNSUPPORTED);
  assert_true(has(&dg, "instruction 'frobnicate' is not modelled"));
  /* and a table in each of two functions */
  assert_int_equal(load_text(HEAD ".visible .entry a() { L: T: .branchtargets L; ret; }\n"
                                  ".visible .entry b() { L: T: .branchtargets L, ; ret; }\n",
                             &dg),
                   TC5_EPARSE);
}

/* a vector destination holding a sink ('_') reads a register of its own */
static void test_sink_in_vector(void **state) {
  (void)state;
  tc5_diag dg;
  tc5_ptx_module *m = NULL;
  const char *text = HEAD ".visible .entry k(.param .u64 p) {\n .reg .b32 %r<4>; .reg .b64 %rd<2>;\n"
                          " ld.param.u64 %rd1, [p];\n ld.global.v2.u32 {%r1, _}, [%rd1];\n"
                          " st.global.u32 [%rd1+8], %r1;\n ret;\n}\n";
  tc5_diag_init(&dg);
  assert_int_equal(tc5_ptx_load(text, strlen(text), "t.ptx", &m, &dg), TC5_OK);
  uint32_t buf[4] = {7, 8, 0, 0};
  tc5_ptx_arg a = {.kind = TC5_PTX_ARG_BUFFER, .data = buf, .bytes = sizeof buf};
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  cfg.block[0] = 1;
  cfg.threads = 1;
  assert_int_equal(tc5_ptx_launch(m, &cfg, &a, 1, NULL, &dg), TC5_OK);
  assert_int_equal(buf[2], 7);
  tc5_ptx_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_branchtargets_reproducer),
      cmocka_unit_test(test_branchtargets_every_error),
      cmocka_unit_test(test_sink_in_vector),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
