/* tc5 tests — every allocation of the PTX front-end and of a launch made to
 * fail in turn (SQLite's malloc test): tc5_ptx_load and tc5_ptx_launch must
 * return TC5_ENOMEM (or succeed, where a failed allocation has a fallback),
 * never crash, and free what they had allocated: the sanitizer build runs
 * this with detect_leaks=1 (issue 39: the allocation-failure paths that drop
 * a half-built table entry's memory). The test binary links the library
 * with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=aligned_alloc
 * (tests/CMakeLists.txt): every allocation of the library comes here. */
#include "testutil.h"
#include "tc5/ptx.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__real_aligned_alloc(size_t align, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_aligned_alloc(size_t align, size_t n);

/* the allocation that fails: the fail_at-th one since arming (1-based; 0: none) */
static unsigned long fail_at, calls;
static bool failed;
static bool fail_now(void) {
  if (!fail_at || ++calls != fail_at) return false;
  failed = true;
  return true;
}
void *__wrap_malloc(size_t n) { return fail_now() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t size) { return fail_now() ? NULL : __real_calloc(n, size); }
void *__wrap_realloc(void *p, size_t n) { return fail_now() ? NULL : __real_realloc(p, n); }
void *__wrap_aligned_alloc(size_t align, size_t n) { return fail_now() ? NULL : __real_aligned_alloc(align, n); }

/* A module that grows every table of the parser past its first size:
 * registers (reg_bits past 256), constants (past 64), instructions (raws
 * past 64), labels and names (the name tables past 32 entries), list
 * elements (the pool past 256), a .branchtargets table past 8 targets,
 * variables with initialisers (past 16), a prototype defined later, a .func
 * with .local and .param variables, a call, a vector with a sink. */
static char *module_text(size_t *len) {
  size_t cap = 1 << 17, n = 0;
  char *t = __real_malloc(cap);
  assert_non_null(t);
#define P(...) (n += (size_t)snprintf(t + n, cap - n, __VA_ARGS__), assert_true(n < cap))
  P(".version 8.7\n.target sm_100a\n.address_size 64\n");
  P(".extern .func (.param .b32 r) twice (.param .b32 a);\n");
  for (int k = 0; k < 20; k++) P(".global .align 4 .u32 g%d[2] = {%d, %d};\n", k, k, k + 1);
  P(".const .align 8 .f64 c0 = 0d3FF0000000000000;\n");
  P(".shared .align 8 .b64 bar0;\n");
  P(".func (.param .b32 r) twice (.param .b32 a) {\n .reg .b32 %%x<2>; .local .align 4 .b32 l[4]; .param .b32 q;\n"
    " ld.param.b32 %%x0, [a]; add.u32 %%x1, %%x0, %%x0; st.local.b32 [l], %%x1; ld.local.b32 %%x1, [l];\n"
    " st.param.b32 [r], %%x1;\n ret;\n}\n");
  P(".visible .entry k(.param .u64 out) {\n .reg .pred %%p<4>; .reg .b32 %%r<300>; .reg .b64 %%rd<8>;\n");
  P(" ld.param.u64 %%rd1, [out]; mov.u32 %%r1, %%tid.x; and.b32 %%r2, %%r1, 7;\n");
  /* one thread initialises the mbarrier (a second warp's init would be
   * mbarrier-reinit, 9.7.13.15.9) */
  P(" mov.u64 %%rd4, bar0; setp.eq.u32 %%p3, %%r1, 0; @%%p3 mbarrier.init.shared.b64 [%%rd4], 1;\n");
  P("TAB:\n .branchtargets ");
  for (int k = 0; k < 12; k++) P("%sB%d", k ? ", " : "", k);
  P(";\n brx.idx %%r2, TAB;\n");
  for (int k = 0; k < 12; k++) P("B%d: add.u32 %%r3, %%r2, %d; bra J;\n", k, 1000 + k);
  P("J:\n");
  for (int k = 0; k < 90; k++) P(" add.u32 %%r%d, %%r%d, %d;\n", 4 + k % 200, 3 + k % 200, 70000 + k);
  for (int k = 0; k < 20; k++) P(" ld.global.u32 %%r%d, [g%d+4];\n", 210 + k, k);
  P(" mov.b32 %%r250, 0; mov.b32 %%r251, 0; mov.b32 %%r252, 0; mov.b32 %%r253, 0;\n");
  for (int k = 0; k < 80; k++) P(" mov.b64 %%rd5, {%%r250, %%r251}; mov.b64 {%%r252, %%r253}, %%rd5;\n");
  P(" { .reg .b32 t; .param .b32 pa; .param .b32 pr; st.param.b32 [pa], %%r3;\n"
    "   call (pr), twice, (pa); ld.param.b32 t, [pr]; mov.u32 %%r5, t; }\n");
  P(" ld.global.v2.u32 {%%r6, _}, [%%rd1];\n");
  P(" mul.wide.u32 %%rd2, %%r1, 4; add.s64 %%rd3, %%rd1, %%rd2; st.global.u32 [%%rd3], %%r5;\n ret;\n}\n");
#undef P
  *len = n;
  return t;
}

/* load, then launch: the status of whichever failed first */
static tc5_status load_and_run(const char *text, size_t len, uint32_t *out, size_t bytes, tc5_check_mode check) {
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_ptx_module *m = NULL;
  tc5_status st = tc5_ptx_load(text, len, "oom.ptx", &m, &dg);
  if (st && st != TC5_ENOMEM) {
    print_message("load: status %s after allocation %lu failed:\n", tc5_status_name(st), fail_at);
    for (unsigned k = 0; k < dg.count; k++) print_message("  %s\n", dg.issue[k].message);
  }
  if (st) return st;
  tc5_ptx_arg a = {.kind = TC5_PTX_ARG_BUFFER, .data = out, .bytes = bytes};
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  cfg.block[0] = 64;
  cfg.threads = 1;
  cfg.max_steps = 100000;
  cfg.check = check;
  st = tc5_ptx_launch(m, &cfg, &a, 1, NULL, &dg);
  if (st && st != TC5_ENOMEM) {
    print_message("status %s after allocation %lu failed:\n", tc5_status_name(st), fail_at);
    for (unsigned k = 0; k < dg.count; k++) print_message("  %s\n", dg.issue[k].message);
  }
  tc5_ptx_free(m);
  return st;
}

static void each_allocation_fails(tc5_check_mode check) {
  size_t len;
  char *text = module_text(&len);
  static uint32_t out[64];
  /* the run that fails nothing: the count of allocations, and the result */
  fail_at = 0;
  assert_int_equal(load_and_run(text, len, out, sizeof out, check), TC5_OK);
  assert_int_equal(out[9], 2 * (1000 + 9 % 8 + 1)); /* thread 9: 2 * (1000 + 1 + (9 & 7)) */
  unsigned long n;
  for (n = 1;; n++) {
    fail_at = n;
    calls = 0;
    failed = false;
    tc5_status st = load_and_run(text, len, out, sizeof out, check);
    fail_at = 0;
    if (!failed) {
      assert_int_equal(st, TC5_OK); /* past the last allocation: nothing failed */
      break;
    }
    if (st != TC5_OK && st != TC5_ENOMEM) fail_msg("allocation %lu failed: status %s, not TC5_ENOMEM", n, tc5_status_name(st));
  }
  print_message("check mode %d: %lu allocations, each made to fail\n", (int)check, n - 1);
  assert_true(n > 50);
  free(text);
}

static void test_oom_check_none(void **state) {
  (void)state;
  each_allocation_fails(TC5_CHECK_NONE);
}
static void test_oom_check_default(void **state) {
  (void)state;
  each_allocation_fails(TC5_CHECK_DEFAULT);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_oom_check_none),
      cmocka_unit_test(test_oom_check_default),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
