/* Tests: the golden-vector checker — the oracle files pass through
 * tc5_vectors_check_file with 0 mismatches, and corrupted vectors are caught
 * (the checker is not a rubber stamp). */
#include "testutil.h"

#include "testvectors.h"

static tc5_vectors_report rep;

static void check_oracle_file(const char *rel, uint64_t min_vectors) {
  char path[1024];
  if (!oracle_path(rel, path, sizeof path)) {
    print_message("oracle file %s/%s absent: skipped\n", oracle_dir(), rel);
    skip();
  }
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_status st = tc5_vectors_check_file(path, &rep, &dg);
  for (unsigned i = 0; i < rep.shown; i++) print_error("%s\n", rep.failure[i]);
  if (dg.count) print_error("%s\n", dg.issue[0].message);
  assert_int_equal(st, TC5_OK);
  assert_int_equal(rep.failed, 0);
  assert_true(rep.checked >= min_vectors);
}

static void test_oracle_idesc(void **state) {
  (void)state;
  check_oracle_file("cutlass/idesc.txt", 285);
  assert_string_equal(rep.format, "idesc");
  assert_int_equal(rep.noted, 28); /* the float_e2m1_t lines */
}

static void test_oracle_zcmask(void **state) {
  (void)state;
  check_oracle_file("cutlass/zcmask-conv.txt", 4374);
  assert_string_equal(rep.format, "zcmask-conv");
  assert_int_equal(rep.noted, 2); /* the geometry= lines */
}

static void test_zcmask_corruption_caught(void **state) {
  (void)state;
  const char *good = "zcmask=0202018100000001 m=128 n=64 conv_q=5 pad=0 cta=1 tap=2 "
                     "mask=1000110001100011000110001100011000110001100011000110001100011000\n";
  assert_int_equal(tc5_vectors_check_text(good, "t", &rep, NULL), TC5_OK);
  static const char *bad[] = {
      /* one mask bit flipped */
      "zcmask=0202018100000001 m=128 n=64 mask=1000110001100011000110001100011000110001100011000110001100011001\n",
      /* the same descriptor read as M = 64 (two sub-masks) */
      "zcmask=0202018100000001 m=64 n=64 mask=1000110001100011000110001100011000110001100011000110001100011000\n",
      /* mask of the wrong length */
      "zcmask=0202018100000001 m=128 n=64 mask=10001100011\n",
      /* reserved bit 36 */
      "zcmask=0202019100000001 m=128 n=64 mask=1000110001100011000110001100011000110001100011000110001100011000\n",
  };
  assert_each_caught(bad, sizeof bad / sizeof bad[0], "t", &rep);
}

static void test_idesc_corruption_caught(void **state) {
  (void)state;
  const char *good =
      "idesc=04020010 a=f16 b=f16 d=f32 m=64 n=8 a_major=K b_major=K neg_a=0 neg_b=0 sat=0 sparse=0 max_shift=0\n"
      "idesc_bs=68c00010 a=e4m3 b=e4m3 scale=ue8m0 m=128 n=256 a_major=K b_major=K sparse=0 sfa_id=3 sfb_id=1\n";
  assert_int_equal(tc5_vectors_check_text(good, "t", &rep, NULL), TC5_OK);
  assert_int_equal(rep.checked, 2);
  static const char *bad[] = {
      "idesc=04020010 a=f16 b=f16 d=f32 m=128 n=8 a_major=K b_major=K\n",    /* m */
      "idesc=04020010 a=f16 b=f16 d=f32 m=64 n=16\n",                        /* n */
      "idesc=04020010 a=bf16 b=f16 d=f32 m=64 n=8\n",                        /* a */
      "idesc=04020010 a=f16 b=f16 d=f16 m=64 n=8\n",                         /* d */
      "idesc=04020010 a=f16 b=f16 d=f32 m=64 n=8 a_major=MN\n",              /* major */
      "idesc=04020010 a=f16 b=f16 d=f32 m=64 n=8 neg_b=1\n",                 /* negate */
      "idesc=04020050 a=f16 b=f16 d=f32 m=64 n=8\n",                         /* reserved bit 6 */
      "idesc_bs=68c00010 a=e4m3 b=e4m3 scale=ue4m3 m=128 n=256\n",           /* scale */
      "idesc_bs=68c00010 a=e4m3 b=e4m3 scale=ue8m0 m=128 n=256 sfa_id=2\n",  /* sf id */
      "idesc=04020010 a=e2m1 b=e2m1 d=f32 m=64 n=8\n",                       /* e2m1 code 1 vs 0 */
  };
  assert_each_caught(bad, sizeof bad / sizeof bad[0], "t", &rep);
}

/* tc5_vectors_report.gemm: each whole MMA-Sim call also runs through it
 * (the GPU GEMM's hook); here the CPU's tc5_gemm, then one that breaks an
 * element, which must be caught */
static unsigned gemm_seen;
static tc5_status cpu_gemm(void *ctx, const tc5_dot *m, unsigned M, unsigned N, unsigned K, const uint32_t *A,
                           const uint32_t *B, const uint32_t *SA, const uint32_t *SB, uint32_t *D,
                           const tc5_dot_opts *o) {
  gemm_seen++;
  tc5_status st = tc5_gemm(m, M, N, K, A, B, SA, SB, D, o, 1);
  if (ctx && !st) D[M * N - 1] ^= 1; /* a wrong last element */
  return st;
}
static void test_gemm_hook(void **state) {
  (void)state;
  char path[1024];
  if (!oracle_path("mmasim/blackwell.m128n8k64.block16.f32.e2m1.e2m1.ue4m3.txt", path, sizeof path)) {
    print_message("oracle file absent: skipped\n");
    skip();
  }
  tc5_diag dg;
  tc5_diag_init(&dg);
  rep.gemm = cpu_gemm, rep.gemm_ctx = NULL;
  gemm_seen = 0;
  assert_int_equal(tc5_vectors_check_file(path, &rep, &dg), TC5_OK);
  assert_int_equal(rep.gemm_calls, 16);
  assert_int_equal(gemm_seen, 16);
  assert_ptr_equal(rep.gemm, cpu_gemm); /* kept */
  rep.gemm_ctx = &rep; /* break one element a call */
  assert_int_equal(tc5_vectors_check_file(path, &rep, &dg), TC5_EMISMATCH);
  assert_int_equal(rep.failed, 16);
  assert_non_null(strstr(rep.failure[0], "through the GEMM: element (127, 7)"));
  memset(&rep, 0, sizeof rep);
}

static void test_vectors_errors(void **state) {
  (void)state;
  tc5_diag dg;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_vectors_check_file("/nonexistent/file", &rep, &dg), TC5_EIO);
  tc5_diag_init(&dg);
  assert_int_equal(tc5_vectors_check_text("# only comments\n", "t", &rep, &dg), TC5_EPARSE);
  tc5_diag_init(&dg);
  assert_int_equal(tc5_vectors_check_text("foo=1 bar=2\n", "t", &rep, &dg), TC5_EUNSUPPORTED);
  assert_non_null(strstr(dg.issue[0].message, "unknown format"));
  assert_int_equal(tc5_vectors_check_text(NULL, "t", &rep, NULL), TC5_EINVAL);
  assert_int_equal(tc5_vectors_check_file(NULL, &rep, NULL), TC5_EINVAL);
  /* a malformed line is a failure, not a crash */
  assert_int_equal(tc5_vectors_check_text("idesc=04020010 a=f16 b=f16 d=f32 m=64 n=8\ngarbage\n",
                                          "t", &rep, NULL), TC5_EMISMATCH);
  assert_int_equal(rep.failed, 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_oracle_idesc),
      cmocka_unit_test(test_idesc_corruption_caught),
      cmocka_unit_test(test_oracle_zcmask),
      cmocka_unit_test(test_zcmask_corruption_caught),
      cmocka_unit_test(test_vectors_errors),
      cmocka_unit_test(test_gemm_hook),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
