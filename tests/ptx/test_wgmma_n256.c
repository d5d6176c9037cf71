/* tc5 tests — wgmma.mma_async m64n256k16 (the largest N): Triton tutorial
 * 03's 128x256x64 config compiled for sm_90a (tests/data/timing/h200, the
 * timing corpus) on a 128 x 256 x 64 problem of small integers, whose f16
 * products and f32 sums are exact, against the integer product. N was kept
 * in 8 bits and read as 0 before (every n256 wgmma failed). */
#include "testutil.h"
#include "tc5/ptx.h"

static uint16_t half_of(int v) { /* exact for |v| < 2048 */
  if (!v) return 0;
  uint16_t s = v < 0 ? 0x8000 : 0;
  unsigned a = (unsigned)(v < 0 ? -v : v), e = 0;
  while ((a >> (e + 1)) != 0) e++;
  return (uint16_t)(s | (e + 15) << 10 | ((a << (10 - e)) & 0x3ff));
}
static int int_of(uint16_t h) {
  if (!(h & 0x7fff)) return 0;
  int e = (h >> 10 & 31) - 15;
  int m = (h & 0x3ff) | 0x400;
  int v = e >= 10 ? m << (e - 10) : m >> (10 - e);
  return h & 0x8000 ? -v : v;
}

static void test_n256(void **state) {
  (void)state;
  const char *path = TC5_TEST_DATA_DIR "/timing/h200/t03_matmul_fp16_1024x1024x1024_128x256x64_w8s3.ptx";
  FILE *f = fopen(path, "rb");
  if (!f) skip();
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc((size_t)len);
  assert_true(fread(text, 1, (size_t)len, f) == (size_t)len);
  fclose(f);
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_ptx_module *m;
  assert_int_equal(tc5_ptx_load(text, (size_t)len, "t03.ptx", &m, &dg), TC5_OK);
  enum { M = 128, N = 256, K = 64 };
  static uint16_t a[M * K], b[K * N], c[M * N];
  for (int i = 0; i < M; i++)
    for (int k = 0; k < K; k++) a[i * K + k] = half_of((i + 2 * k) % 5 - 2);
  for (int k = 0; k < K; k++)
    for (int j = 0; j < N; j++) b[k * N + j] = half_of((3 * k + j) % 7 - 3);
  tc5_ptx_arg args[11];
  memset(args, 0, sizeof args);
  args[0] = (tc5_ptx_arg){.kind = TC5_PTX_ARG_BUFFER, .data = a, .bytes = sizeof a};
  args[1] = (tc5_ptx_arg){.kind = TC5_PTX_ARG_BUFFER, .data = b, .bytes = sizeof b};
  args[2] = (tc5_ptx_arg){.kind = TC5_PTX_ARG_BUFFER, .data = c, .bytes = sizeof c};
  const uint32_t v[6] = {M, N, K, K, N, N}; /* M N K stride_am stride_bk stride_cm */
  for (int k = 0; k < 6; k++) args[3 + k] = (tc5_ptx_arg){.kind = TC5_PTX_ARG_VALUE, .size = 4, .bits = v[k]};
  args[9] = args[10] = (tc5_ptx_arg){.kind = TC5_PTX_ARG_VALUE, .size = 8, .bits = 0};
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  cfg.block[0] = 256;
  cfg.dynamic_shared = 147456;
  cfg.threads = 1;
  tc5_status st = tc5_ptx_launch(m, &cfg, args, 11, NULL, &dg);
  if (st) fprintf(stderr, "%s\n", dg.count ? dg.issue[0].message : "");
  assert_int_equal(st, TC5_OK);
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      int want = 0;
      for (int k = 0; k < K; k++) want += ((i + 2 * k) % 5 - 2) * ((3 * k + j) % 7 - 3);
      assert_int_equal(int_of(c[i * N + j]), want);
    }
  tc5_ptx_free(m);
  free(text);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_n256)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
