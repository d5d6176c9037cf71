/* tc5 tests — launches that fuzz_launch (tests/fuzz/fuzz_launch.c, issue 39)
 * found crashing or misread, each as a test of its own (the fuzzer's inputs,
 * tests/data/fuzz/launch, depend on its recipe list): every one must end in
 * an error that names the argument, the value and the rule. */
#include "testutil.h"
#include "tc5/ptx.h"

static bool has(const tc5_diag *dg, const char *s) {
  for (unsigned k = 0; k < dg->count; k++)
    if (strstr(dg->issue[k].message, s)) return true;
  return false;
}

/* k(out, n): out[tid] = n (a load of out[tid] first) */
static const char *text = ".version 8.7\n.target sm_100a\n.address_size 64\n"
                          ".visible .entry k(.param .u64 out, .param .u32 n) {\n"
                          " .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
                          " ld.param.u64 %rd1, [out]; ld.param.u32 %r2, [n]; mov.u32 %r1, %tid.x;\n"
                          " mul.wide.u32 %rd2, %r1, 4; add.s64 %rd3, %rd1, %rd2;\n"
                          " ld.global.u32 %r3, [%rd3]; st.global.u32 [%rd3], %r2;\n ret;\n}\n";

static tc5_status launch(tc5_ptx_arg *a, unsigned n, uint32_t grid_x, tc5_diag *dg) {
  tc5_ptx_module *m = NULL;
  tc5_diag_init(dg);
  assert_int_equal(tc5_ptx_load(text, strlen(text), "k.ptx", &m, dg), TC5_OK);
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  cfg.grid[0] = grid_x;
  cfg.block[0] = 32;
  cfg.threads = 1;
  cfg.max_steps = 1000;
  tc5_status st = tc5_ptx_launch(m, &cfg, a, n, NULL, dg);
  tc5_ptx_free(m);
  return st;
}

/* a buffer argument of N bytes whose data is NULL: the kernel's first load
 * read NULL + offset (fuzz_launch's first finding, UBSan) */
static void test_null_buffer(void **state) {
  (void)state;
  tc5_ptx_arg a[2];
  memset(a, 0, sizeof a);
  a[0].kind = TC5_PTX_ARG_BUFFER;
  a[0].bytes = 128;
  a[1].kind = TC5_PTX_ARG_VALUE;
  a[1].size = 4;
  tc5_diag dg;
  assert_int_equal(launch(a, 2, 1, &dg), TC5_EINVAL);
  assert_true(has(&dg, "argument 1: a buffer of 128 bytes needs its memory (data is NULL)"));
  /* a global buffer (no parameter) the same */
  uint32_t out[32];
  tc5_ptx_arg g[3];
  memset(g, 0, sizeof g);
  g[0].kind = TC5_PTX_ARG_GLOBAL;
  g[0].bytes = 64;
  g[1].kind = TC5_PTX_ARG_BUFFER;
  g[1].data = out;
  g[1].bytes = sizeof out;
  g[2].kind = TC5_PTX_ARG_VALUE;
  g[2].size = 4;
  assert_int_equal(launch(g, 3, 1, &dg), TC5_EINVAL);
  assert_true(has(&dg, "argument 1: a buffer of 64 bytes needs its memory"));
  /* NULL with 0 bytes is an empty buffer: the kernel's load is out of bounds */
  a[0].bytes = 0;
  assert_int_equal(launch(a, 2, 1, &dg), TC5_EBOUNDS);
}

/* an argument kind past the enumeration was taken for a value */
static void test_unknown_kind(void **state) {
  (void)state;
  uint32_t out[32];
  tc5_ptx_arg a[2];
  memset(a, 0, sizeof a);
  a[0].kind = TC5_PTX_ARG_BUFFER;
  a[0].data = out;
  a[0].bytes = sizeof out;
  a[1].kind = (tc5_ptx_arg_kind)5;
  a[1].size = 4;
  tc5_diag dg;
  assert_int_equal(launch(a, 2, 1, &dg), TC5_EINVAL);
  assert_true(has(&dg, "argument 2: kind 5 is none of VALUE, BUFFER, TENSORMAP, BYTES, GLOBAL"));
  a[1].kind = TC5_PTX_ARG_VALUE;
  a[1].bits = 9;
  assert_int_equal(launch(a, 2, 1, &dg), TC5_OK);
  assert_int_equal(out[31], 9);
}

/* grid x past CUDA's 2^31 - 1 (tc5.run_ptx(grid=-1) launched 2^32 - 1 CTAs) */
static void test_grid_x(void **state) {
  (void)state;
  uint32_t out[32];
  tc5_ptx_arg a[2];
  memset(a, 0, sizeof a);
  a[0].kind = TC5_PTX_ARG_BUFFER;
  a[0].data = out;
  a[0].bytes = sizeof out;
  a[1].kind = TC5_PTX_ARG_VALUE;
  a[1].size = 4;
  tc5_diag dg;
  assert_int_equal(launch(a, 2, 0x80000000u, &dg), TC5_EINVAL);
  assert_true(has(&dg, "grid x is 1 to 2^31 - 1 (CUDA's maxGridSize), not 2147483648"));
  assert_int_equal(launch(a, 2, 0xffffffffu, &dg), TC5_EINVAL);
}

/* a buffer smaller than a load of it, after a narrower load succeeded: the
 * warp's fast path for the buffer it used last computed size - n without
 * n <= size and read past the host buffer (found by reviewing the launch
 * for issue 39; ASan's heap-buffer-overflow) */
static void test_load_wider_than_buffer(void **state) {
  (void)state;
  static const char *const loads[] = {"ld.global.u8 %h1, [%rd1]; ld.global.u32 %r1, [%rd1];",
                                      "ld.global.u8 %h1, [%rd1]; st.global.u32 [%rd1], %r1;",
                                      "ld.global.u16 %h1, [%rd1]; ld.global.u64 %rd2, [%rd1];",
                                      "sub.s64 %rd2, %rd1, 16; ld.global.u32 %r1, [%rd2];"};
  /* the message names the nearest buffer (issue 49): the parameter's name, its size, the overrun */
  static const char *const nearest[] = {
      "; nearest: p (2 bytes at 0x200000000): the access at its byte 0 ends 2 bytes past its end",
      "; nearest: p (2 bytes at 0x200000000): the access at its byte 0 ends 2 bytes past its end",
      "; nearest: p (2 bytes at 0x200000000): the access at its byte 0 ends 6 bytes past its end",
      "; nearest: p (2 bytes at 0x200000000), 16 bytes before its start"};
  for (unsigned k = 0; k < 4; k++) {
    char t[512];
    snprintf(t, sizeof t,
             ".version 8.7\n.target sm_100a\n.address_size 64\n.visible .entry k(.param .u64 p) {\n"
             " .reg .b32 %%r<4>; .reg .b64 %%rd<4>; .reg .b16 %%h<2>;\n ld.param.u64 %%rd1, [p];\n %s\n ret;\n}\n",
             loads[k]);
    tc5_ptx_module *m = NULL;
    tc5_diag dg;
    tc5_diag_init(&dg);
    assert_int_equal(tc5_ptx_load(t, strlen(t), "k.ptx", &m, &dg), TC5_OK);
    uint8_t *buf = malloc(2); /* exactly 2 bytes: ASan sees the byte past it */
    assert_non_null(buf);
    buf[0] = buf[1] = 0;
    tc5_ptx_arg a = {.kind = TC5_PTX_ARG_BUFFER, .data = buf, .bytes = 2};
    tc5_ptx_launch_cfg cfg;
    tc5_ptx_launch_init(&cfg);
    cfg.threads = 1;
    assert_int_equal(tc5_ptx_launch(m, &cfg, &a, 1, NULL, &dg), TC5_EBOUNDS);
    assert_true(has(&dg, k < 3 ? "global address 0x200000000 (" : "global address 0x1fffffff0 ("));
    assert_true(has(&dg, "bytes) is outside every buffer and variable"));
    assert_true(has(&dg, nearest[k]));
    free(buf);
    tc5_ptx_free(m);
  }
}

/* cfg.host_addresses: buffers at their host addresses, so a pointer array
 * the host filled is valid in the kernel (Triton's grouped GEMM); views of
 * one allocation are one region; the generic windows are refused */
static const char *ptrs_text = ".version 8.7\n.target sm_100a\n.address_size 64\n"
                               ".visible .entry k(.param .u64 ptrs) {\n"
                               " .reg .b32 %r<4>; .reg .b64 %rd<6>;\n"
                               " ld.param.u64 %rd1, [ptrs]; mov.u32 %r1, %ctaid.x; mov.u32 %r2, %tid.x;\n"
                               " mul.wide.u32 %rd2, %r1, 8; add.s64 %rd3, %rd1, %rd2; ld.global.u64 %rd4, [%rd3];\n"
                               " mul.wide.u32 %rd2, %r2, 4; add.s64 %rd5, %rd4, %rd2; st.global.u32 [%rd5], %r2;\n ret;\n}\n";

static tc5_status launch_host(tc5_ptx_arg *a, unsigned n, uint32_t grid_x, tc5_diag *dg) {
  tc5_ptx_module *m = NULL;
  tc5_diag_init(dg);
  assert_int_equal(tc5_ptx_load(ptrs_text, strlen(ptrs_text), "k.ptx", &m, dg), TC5_OK);
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  cfg.grid[0] = grid_x;
  cfg.block[0] = 32;
  cfg.threads = 1;
  cfg.host_addresses = true;
  tc5_status st = tc5_ptx_launch(m, &cfg, a, n, NULL, dg);
  tc5_ptx_free(m);
  return st;
}

static void test_host_addresses(void **state) {
  (void)state;
  uint32_t x[32] = {0}, y[32] = {0}, big[48] = {0};
  uint64_t p[2] = {(uint64_t)(uintptr_t)x, (uint64_t)(uintptr_t)y};
  tc5_ptx_arg a[3];
  memset(a, 0, sizeof a);
  a[0] = (tc5_ptx_arg){.kind = TC5_PTX_ARG_BUFFER, .data = p, .bytes = sizeof p};
  a[1] = (tc5_ptx_arg){.kind = TC5_PTX_ARG_GLOBAL, .data = x, .bytes = sizeof x};
  a[2] = (tc5_ptx_arg){.kind = TC5_PTX_ARG_GLOBAL, .data = y, .bytes = sizeof y};
  tc5_diag dg;
  assert_int_equal(launch_host(a, 3, 2, &dg), TC5_OK);
  assert_int_equal(a[0].device_address, (uint64_t)(uintptr_t)p);
  for (unsigned t = 0; t < 32; t++) assert_true(x[t] == t && y[t] == t);
  /* two views of big, [0, 64) and [32, 192) bytes: the kernel's 128 bytes
   * from big cross from one into the other */
  p[0] = (uint64_t)(uintptr_t)big;
  a[1] = (tc5_ptx_arg){.kind = TC5_PTX_ARG_GLOBAL, .data = big, .bytes = 64};
  a[2] = (tc5_ptx_arg){.kind = TC5_PTX_ARG_GLOBAL, .data = (uint8_t *)big + 32, .bytes = 160};
  assert_int_equal(launch_host(a, 3, 1, &dg), TC5_OK);
  assert_int_equal(big[31], 31);
  /* a pointer to memory no argument names: out of bounds, the address named */
  uint32_t other[32];
  p[0] = (uint64_t)(uintptr_t)other;
  assert_int_equal(launch_host(a, 3, 1, &dg), TC5_EBOUNDS);
  char want[64];
  snprintf(want, sizeof want, "global address 0x%llx", (unsigned long long)(uintptr_t)other);
  assert_true(has(&dg, want));
  /* a buffer in the generic windows: refused before the launch */
  a[1].data = (void *)(uintptr_t)0x7d0000000000ull;
  assert_int_equal(launch_host(a, 3, 1, &dg), TC5_EINVAL);
  assert_true(has(&dg, "argument 2: a buffer at host address 0x7d0000000000 (64 bytes) overlaps the generic windows"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_null_buffer),
      cmocka_unit_test(test_unknown_kind),
      cmocka_unit_test(test_grid_x),
      cmocka_unit_test(test_load_wider_than_buffer),
      cmocka_unit_test(test_host_addresses),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
