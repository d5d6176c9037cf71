/* Tests: the GPU GEMM's host side, with or without a GPU (built when CMake
 * finds nvcc; include/tc5/gemm_cuda.h, gpu/gemm_paths.h):
 *  - every error path of tc5_gemm_cuda_matrices's checks (no matrix, an
 *    element size other than 1, 2, 4; the scale matrices of a block-scaled
 *    model), each message naming the matrix and the value;
 *  - which kernel tc5_gemm_cuda_device takes for a model and K
 *    (tc5__gemm_cuda_path): steps for f8f6f4/mxf8f6f4/Hopper fp8 with K a
 *    multiple of 32, groups for mxf4/mxf4nvf4 with K a multiple of 64,
 *    wgmma for f16/bf16 -> f32 on an sm_90 GPU only, elements otherwise
 *    (and where a tiled kernel's grid would not hold M).
 * The kernels' bits are checked on the H100 by gpu/run.sh gemm
 * (docs/gpu.md). */
#include <string.h>

#include "testutil.h"

#include "gemm_paths.h"
#include "tc5/arith.h"

static tc5_dot model(tc5_model arch, tc5_kind kind, tc5_type a, tc5_type b, tc5_type c, tc5_type s, unsigned block) {
  tc5_dot d;
  assert_int_equal(tc5_dot_model(arch, kind, a, b, c, s, block, false, &d, NULL), TC5_OK);
  return d;
}

static void test_matrices_errors(void **state) {
  (void)state;
  tc5_dot d = model(TC5_MODEL_BLACKWELL, TC5_KIND_F8F6F4, TC5_E4M3, TC5_E4M3, TC5_F32, TC5_TYPE_NONE, 0);
  static uint32_t buf[64];
  tc5_cuda_matrix ok = {buf, 4, 8, 1}, three = {buf, 3, 8, 1}, none = {NULL, 4, 8, 1};
  tc5_diag dg;
  assert_int_equal(tc5_gemm_cuda_matrices(NULL, 8, 8, 8, &ok, &ok, NULL, NULL, &ok, NULL, NULL), TC5_EINVAL);
  struct {
    const tc5_cuda_matrix *a, *b, *d;
    const char *needle;
  } cases[] = {
      {&three, &ok, &ok, "A: elements of 3 bytes; codes come in elements of 1, 2 or 4 bytes"},
      {&ok, &three, &ok, "B: elements of 3 bytes"},
      {&ok, &ok, &three, "D: elements of 3 bytes"},
      {&none, &ok, &ok, "A: no matrix"},
      {&ok, NULL, &ok, "B: no matrix"},
      {&ok, &ok, &none, "D: no matrix"},
  };
  for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tc5_diag_init(&dg);
    assert_int_equal(tc5_gemm_cuda_matrices(&d, 8, 8, 32, cases[i].a, cases[i].b, NULL, NULL, cases[i].d, NULL, &dg),
                     TC5_EINVAL);
    assert_int_equal(dg.count, 1);
    if (!strstr(dg.issue[0].message, cases[i].needle)) fail_msg("case %u: %s", i, dg.issue[0].message);
  }
  /* block-scaled: SA and SB are required, and checked like the others */
  tc5_dot nv = model(TC5_MODEL_BLACKWELL, TC5_KIND_MXF4NVF4, TC5_E2M1, TC5_E2M1, TC5_F32, TC5_UE4M3, 16);
  tc5_diag_init(&dg);
  assert_int_equal(tc5_gemm_cuda_matrices(&nv, 8, 8, 64, &ok, &ok, NULL, &ok, &ok, NULL, &dg), TC5_EINVAL);
  assert_non_null(strstr(dg.issue[0].message, "SA: no matrix"));
  tc5_diag_init(&dg);
  assert_int_equal(tc5_gemm_cuda_matrices(&nv, 8, 8, 64, &ok, &ok, &ok, &three, &ok, NULL, &dg), TC5_EINVAL);
  assert_non_null(strstr(dg.issue[0].message, "SB: elements of 3 bytes"));
}

static int have_sm90(void) {
  tc5_dot d = model(TC5_MODEL_BLACKWELL, TC5_KIND_F16, TC5_BF16, TC5_BF16, TC5_F32, TC5_TYPE_NONE, 0);
  return !strcmp(tc5__gemm_cuda_path(&d, 256, 64, NULL), "wgmma");
}

static void test_paths(void **state) {
  (void)state;
  const tc5_model B = TC5_MODEL_BLACKWELL, H = TC5_MODEL_HOPPER;
  const tc5_type N = TC5_TYPE_NONE;
  struct {
    tc5_model arch;
    tc5_kind kind;
    tc5_type a, b, c, s;
    unsigned block, K;
    const char *path;
  } cases[] = {
      {B, TC5_KIND_F8F6F4, TC5_E4M3, TC5_E4M3, TC5_F32, N, 0, 64, "steps"},
      {B, TC5_KIND_F8F6F4, TC5_E5M2, TC5_E2M1, TC5_F16, N, 0, 32, "steps"},
      {B, TC5_KIND_F8F6F4, TC5_E4M3, TC5_E4M3, TC5_F32, N, 0, 48, "elements"}, /* K no multiple of a step */
      {B, TC5_KIND_MXF8F6F4, TC5_E4M3, TC5_E2M3, TC5_F32, TC5_UE8M0, 32, 128, "steps"},
      {H, TC5_KIND_F8F6F4, TC5_E4M3, TC5_E5M2, TC5_F32, N, 0, 64, "steps"},
      {B, TC5_KIND_MXF4NVF4, TC5_E2M1, TC5_E2M1, TC5_F32, TC5_UE4M3, 16, 128, "groups"},
      {B, TC5_KIND_MXF4, TC5_E2M1, TC5_E2M1, TC5_F32, TC5_UE8M0, 32, 64, "groups"},
      {B, TC5_KIND_MXF4NVF4, TC5_E2M1, TC5_E2M1, TC5_F32, TC5_UE8M0, 32, 96, "elements"},
      {B, TC5_KIND_TF32, TC5_TF32, TC5_TF32, TC5_F32, N, 0, 64, "elements"},
      {B, TC5_KIND_F16, TC5_F16, TC5_F16, TC5_F16, N, 0, 64, "elements"},
      {B, TC5_KIND_I8, TC5_S8, TC5_U8, TC5_S32, N, 0, 64, "elements"},
      {B, TC5_KIND_F16, TC5_BF16, TC5_BF16, TC5_F32, N, 0, 48, "elements"}, /* K no multiple of 64 */
  };
  for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tc5_dot d = model(cases[i].arch, cases[i].kind, cases[i].a, cases[i].b, cases[i].c, cases[i].s, cases[i].block);
    const char *p = tc5__gemm_cuda_path(&d, 256, cases[i].K, NULL);
    if (strcmp(p, cases[i].path)) fail_msg("case %u: %s, expected %s", i, p, cases[i].path);
  }
  /* more rows than the tiled kernels' grid holds (65535 tiles of 64) */
  tc5_dot big = model(B, TC5_KIND_F8F6F4, TC5_E4M3, TC5_E4M3, TC5_F32, N, 0);
  assert_string_equal(tc5__gemm_cuda_path(&big, 65535u * 64, 64, NULL), "steps");
  assert_string_equal(tc5__gemm_cuda_path(&big, 65535u * 64 + 1, 64, NULL), "elements");
  /* a hand-made model the tiled kernels were not shown exact for */
  tc5_dot d = model(B, TC5_KIND_F8F6F4, TC5_E4M3, TC5_E4M3, TC5_F32, N, 0);
  d.chunk = 16;
  assert_string_equal(tc5__gemm_cuda_path(&d, 256, 64, NULL), "elements");
  d = model(B, TC5_KIND_F8F6F4, TC5_E4M3, TC5_E4M3, TC5_F32, N, 0);
  d.frac_bits = 30; /* the 16-product halves would overflow 32 bits */
  assert_string_equal(tc5__gemm_cuda_path(&d, 256, 64, NULL), "elements");
  /* f16/bf16 -> f32: wgmma on an sm_90 GPU, elements elsewhere; never with scale-input-d */
  d = model(H, TC5_KIND_F16, TC5_F16, TC5_F16, TC5_F32, N, 0);
  assert_string_equal(tc5__gemm_cuda_path(&d, 256, 128, NULL), have_sm90() ? "wgmma" : "elements");
  tc5_dot_opts o;
  tc5_dot_opts_init(&o);
  o.scale_input_d = 3;
  assert_string_equal(tc5__gemm_cuda_path(&d, 256, 128, &o), "elements");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_matrices_errors),
      cmocka_unit_test(test_paths),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
