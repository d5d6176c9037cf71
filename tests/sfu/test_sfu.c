/* tc5 tests — the special-function unit (tc5/sfu.h) against the H100's own
 * outputs, committed as data:
 *   - tests/data/sfu/h100_f16_forms.bin: ex2.approx.f16, ex2.approx.ftz.bf16,
 *     tanh.approx.f16, tanh.approx.bf16 on all 2^16 inputs (u16 results, in
 *     that order); the x2 forms are the scalar ones on each half;
 *   - tests/data/sfu/h100_block_hashes.txt: for every one-input f32 form and
 *     the f64 forms, the hashes of 47 blocks of 2^16 inputs (every 2048th
 *     block and the blocks of the special values).
 * The whole input space of every form is compared on the GPU itself
 * (`gpu/run.sh sfu`: 4.0e11 inputs, 0 differ; docs/fidelity.md). Also the
 * API's error paths and the names of every op. */
#include "testutil.h"
#include "tc5/sfu.h"

static uint64_t mix64(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static FILE *data(const char *name) {
  char p[512];
  snprintf(p, sizeof p, "%s/sfu/%s", TC5_TEST_DATA_DIR, name);
  FILE *f = fopen(p, "rb");
  if (!f) fail_msg("cannot read %s", p);
  return f;
}

static void test_f16_forms_all_inputs(void **state) {
  (void)state;
  static uint16_t h[4][65536];
  FILE *f = data("h100_f16_forms.bin");
  assert_int_equal(fread(h, 2, 4 * 65536, f), 4 * 65536);
  fclose(f);
  static const tc5_sfu_op ops[4] = {TC5_SFU_EX2_APPROX_F16, TC5_SFU_EX2_APPROX_FTZ_BF16, TC5_SFU_TANH_APPROX_F16,
                                    TC5_SFU_TANH_APPROX_BF16};
  static const tc5_sfu_op x2[4] = {TC5_SFU_EX2_APPROX_F16X2, TC5_SFU_EX2_APPROX_FTZ_BF16X2,
                                   TC5_SFU_TANH_APPROX_F16X2, TC5_SFU_TANH_APPROX_BF16X2};
  for (unsigned o = 0; o < 4; o++)
    for (uint32_t x = 0; x < 65536; x++) {
      uint64_t d;
      assert_int_equal(tc5_sfu_eval(ops[o], x, 0, &d), TC5_OK);
      if (d != h[o][x]) {
        const tc5_sfu_info *in;
        tc5_sfu_info_get(ops[o], &in);
        fail_msg("%s of 0x%04x: 0x%04llx, the H100 0x%04x", in->ptx, x, (unsigned long long)d, h[o][x]);
      }
      /* the x2 form: x in the low half, a neighbour in the high */
      uint32_t y = (x * 40503u + 17) & 0xffff;
      assert_int_equal(tc5_sfu_eval(x2[o], x | y << 16, 0, &d), TC5_OK);
      assert_true(d == ((uint64_t)h[o][x] | (uint64_t)h[o][y] << 16));
    }
}

static void test_block_hashes(void **state) {
  (void)state;
  FILE *f = data("h100_block_hashes.txt");
  char line[256];
  unsigned n = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#') continue;
    char name[64];
    unsigned block;
    unsigned long long want;
    if (sscanf(line, "%63s %x %llx", name, &block, &want) != 3) fail_msg("bad line: %s", line);
    tc5_sfu_op op;
    assert_int_equal(tc5_sfu_lookup(name, &op, NULL), TC5_OK);
    const tc5_sfu_info *in;
    assert_int_equal(tc5_sfu_info_get(op, &in), TC5_OK);
    uint64_t s = 0;
    for (uint32_t k = 0; k < 65536; k++) {
      uint32_t x = block << 16 | k;
      uint64_t y;
      if (in->bits == 64) {
        tc5_sfu_eval(op, (uint64_t)x << 32, 0, &y);
        s += mix64((uint64_t)x << 32 | y >> 32) + mix64((uint64_t)~x << 32 | (y & 0xffffffffu));
      } else {
        tc5_sfu_eval(op, x, 0, &y);
        s += mix64((uint64_t)x << 32 | y);
      }
    }
    if (s != want) fail_msg("%s, inputs 0x%04x0000..0x%04xffff: the block differs from the H100's", name, block, block);
    n++;
  }
  fclose(f);
  assert_int_equal(n, 18 * 47);
}

/* a few values worked out by hand from the model's rules */
static void test_known_values(void **state) {
  (void)state;
  static const struct {
    tc5_sfu_op op;
    uint64_t a, b, d;
  } v[] = {
      {TC5_SFU_EX2_APPROX_FTZ_F32, 0x00000000, 0, 0x3f800000},  /* 2^0 = 1 exactly */
      {TC5_SFU_EX2_APPROX_FTZ_F32, 0x40400000, 0, 0x41000000},  /* 2^3 = 8 exactly */
      {TC5_SFU_EX2_APPROX_FTZ_F32, 0xff800000, 0, 0x00000000},  /* 2^-inf = +0 */
      {TC5_SFU_EX2_APPROX_FTZ_F32, 0x7f800000, 0, 0x7f800000},  /* 2^inf = inf */
      {TC5_SFU_EX2_APPROX_FTZ_F32, 0x7fc00000, 0, 0x7fffffff},  /* NaN: the canonical NaN */
      {TC5_SFU_RCP_APPROX_FTZ_F32, 0x3f800000, 0, 0x3f800000},  /* 1/1 */
      {TC5_SFU_RCP_APPROX_FTZ_F32, 0x00000001, 0, 0x7f800000},  /* a subnormal is flushed: 1/0 */
      {TC5_SFU_RCP_APPROX_FTZ_F32, 0x80000000, 0, 0xff800000},  /* 1/-0 = -inf */
      {TC5_SFU_RSQRT_APPROX_FTZ_F32, 0x40800000, 0, 0x3f000000}, /* 1/sqrt(4) = 0.5 (a power of four) */
      {TC5_SFU_RSQRT_APPROX_FTZ_F32, 0xbf800000, 0, 0x7fffffff}, /* negative: NaN */
      {TC5_SFU_LG2_APPROX_FTZ_F32, 0x3f800000, 0, 0x00000000},  /* lg2 1 = 0 */
      {TC5_SFU_LG2_APPROX_FTZ_F32, 0x00000000, 0, 0xff800000},  /* lg2 0 = -inf */
      {TC5_SFU_SIN_APPROX_FTZ_F32, 0x80000000, 0, 0x80000000},  /* sin -0 = -0 */
      {TC5_SFU_COS_APPROX_FTZ_F32, 0x00000000, 0, 0x3f800000},  /* cos 0 = 1 */
      {TC5_SFU_TANH_APPROX_F32, 0x41000000, 0, 0x3f800000},     /* tanh 8 = 1 */
      {TC5_SFU_TANH_APPROX_F32, 0x3b000000, 0, 0x3b000000},     /* tanh x = x below 2^-8 */
      {TC5_SFU_DIV_FULL_F32, 0x40c00000, 0x40400000, 0x40000000}, /* 6 / 3 */
  };
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    uint64_t d;
    assert_int_equal(tc5_sfu_eval(v[i].op, v[i].a, v[i].b, &d), TC5_OK);
    if (d != v[i].d) {
      const tc5_sfu_info *in;
      tc5_sfu_info_get(v[i].op, &in);
      fail_msg("%s(0x%llx, 0x%llx): 0x%llx, not 0x%llx", in->ptx, (unsigned long long)v[i].a, (unsigned long long)v[i].b,
               (unsigned long long)d, (unsigned long long)v[i].d);
    }
  }
}

/* the GB200's ex2.approx words (flash-attention issue #2263): each is what
 * tc5 gives for a float that prints as the published input, with as many
 * candidate floats and matches as the H100 showed */
static void test_gb200_ex2_words(void **state) {
  (void)state;
  FILE *f = data("gb200_ex2_words.txt");
  char line[256];
  unsigned n = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#') continue;
    char text[32];
    unsigned word, nfloats, ngiving;
    if (sscanf(line, "%31s %x %u %u", text, &word, &nfloats, &ngiving) != 4) fail_msg("bad line: %s", line);
    float c = strtof(text, NULL);
    uint32_t cb;
    memcpy(&cb, &c, 4);
    unsigned cand = 0, giving = 0;
    for (int d = -64; d <= 64; d++) { /* the floats near it that print the same */
      uint32_t b = cb + (uint32_t)d;
      float x;
      memcpy(&x, &b, 4);
      char p[32];
      snprintf(p, sizeof p, "%.6f", (double)x);
      if (strcmp(p, text)) continue;
      cand++;
      uint64_t y;
      tc5_sfu_eval(TC5_SFU_EX2_APPROX_FTZ_F32, b, 0, &y);
      giving += y == word;
    }
    if (cand != nfloats || giving != ngiving)
      fail_msg("%s: %u floats print so, %u give 0x%08x (want %u, %u)", text, cand, giving, word, nfloats, ngiving);
    n++;
  }
  fclose(f);
  assert_int_equal(n, 10);
}

/* every op has a name that looks it up again; every error path */
static void test_api(void **state) {
  (void)state;
  for (unsigned k = 0; k < TC5_SFU_COUNT; k++) {
    const tc5_sfu_info *in;
    assert_int_equal(tc5_sfu_info_get((tc5_sfu_op)k, &in), TC5_OK);
    tc5_sfu_op op;
    assert_int_equal(tc5_sfu_lookup(in->ptx, &op, NULL), TC5_OK);
    assert_int_equal(op, k);
    assert_true(in->nargs == (strncmp(in->ptx, "div.", 4) ? 1u : 2u));
    assert_true(in->bits == 16 || in->bits == 32 || in->bits == 64);
  }
  tc5_sfu_op op;
  tc5_diag dg;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_sfu_lookup("ex2.approx.f64", &op, &dg), TC5_EUNSUPPORTED);
  assert_non_null(strstr(dg.issue[0].message, "ex2.approx.f64"));
  assert_int_equal(tc5_sfu_lookup(NULL, &op, NULL), TC5_EINVAL);
  assert_int_equal(tc5_sfu_lookup("rcp.approx.f32", NULL, NULL), TC5_EINVAL);
  const tc5_sfu_info *in;
  assert_int_equal(tc5_sfu_info_get(TC5_SFU_COUNT, &in), TC5_EINVAL);
  assert_int_equal(tc5_sfu_info_get(TC5_SFU_EX2_APPROX_F32, NULL), TC5_EINVAL);
  uint64_t d;
  assert_int_equal(tc5_sfu_eval(TC5_SFU_COUNT, 0, 0, &d), TC5_EINVAL);
  assert_int_equal(tc5_sfu_eval((tc5_sfu_op)-1, 0, 0, &d), TC5_EINVAL);
  assert_int_equal(tc5_sfu_eval(TC5_SFU_EX2_APPROX_F32, 0, 0, NULL), TC5_EINVAL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_f16_forms_all_inputs),
      cmocka_unit_test(test_block_hashes),
      cmocka_unit_test(test_known_values),
      cmocka_unit_test(test_gb200_ex2_words),
      cmocka_unit_test(test_api),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
