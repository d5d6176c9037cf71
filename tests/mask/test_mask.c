/* Tests: attention masks as intervals and bitmasks.
 *  - per-row bitmasks in SM100 order (bit = column) and in SM90 wgmma
 *    fragment order (4 lane groups) against the element-by-element
 *    definition, over >= 10^6 random (spec, tile, row) cases each;
 *  - tile classification against a brute force; branch-free apply;
 *  - hand cases, pictures and every error path. */
#include "testutil.h"

#include "tc5/mask.h"

static rng R;

static void random_spec(tc5_mask_spec *s) {
  int32_t sq = (int32_t)rng_below(&R, 600), sk = (int32_t)rng_below(&R, 600);
  tc5_mask_spec_init(s, sq, sk);
  switch (rng_below(&R, 3)) {
  case 0: break;
  case 1: s->causal = true; break;
  default:
    s->local = true;
    s->window_left = rng_below(&R, 4) ? (int32_t)rng_below(&R, 200) : TC5_MASK_UNBOUNDED;
    s->window_right = rng_below(&R, 4) ? (int32_t)rng_below(&R, 200) : TC5_MASK_UNBOUNDED;
  }
  if (rng_below(&R, 3) == 0) s->offset = (int32_t)rng_below(&R, 400) - 200;
}

static void test_row_bits_vs_definition(void **state) {
  (void)state;
  rng_seed(&R, 21);
  uint64_t cases = test_iters(1100000), elems = 0;
  for (uint64_t c = 0; c < cases; c++) {
    tc5_mask_spec s;
    random_spec(&s);
    int64_t i = (int64_t)rng_below(&R, 700) - 50;
    int64_t n0 = 32 * ((int64_t)rng_below(&R, 24) - 2) + (rng_below(&R, 4) ? 0 : (int64_t)rng_below(&R, 32));
    uint32_t w[4];
    assert_int_equal(tc5_mask_row_bits(&s, i, n0, 4, w), TC5_OK);
    for (unsigned col = 0; col < 128; col++) {
      bool ok;
      tc5_mask_allowed(&s, i, n0 + col, &ok);
      if (((w[col / 32] >> (col % 32)) & 1) != ok)
        fail_msg("sm100 case %llu row %lld column %lld: bit %u, definition %d", (unsigned long long)c,
                 (long long)i, (long long)(n0 + col), (w[col / 32] >> (col % 32)) & 1, ok);
    }
    elems += 128;
  }
  print_message("SM100 order: %llu cases, %llu elements\n", (unsigned long long)cases, (unsigned long long)elems);
}

static void test_sm90_bits_vs_definition(void **state) {
  (void)state;
  rng_seed(&R, 22);
  uint64_t cases = test_iters(1100000);
  const uint32_t widths[] = {8, 16, 64, 128, 192, 256};
  for (uint64_t c = 0; c < cases; c++) {
    tc5_mask_spec s;
    random_spec(&s);
    int64_t i = (int64_t)rng_below(&R, 700) - 50;
    uint32_t n = widths[rng_below(&R, 6)];
    int64_t n0 = (int64_t)n * ((int64_t)rng_below(&R, 8) - 1);
    uint32_t q = (uint32_t)rng_below(&R, 4), w[2] = {0, 0};
    assert_int_equal(tc5_mask_row_bits_sm90(&s, i, n0, n, q, w), TC5_OK);
    for (unsigned e = 0; e < n / 4; e++) {
      int64_t col = n0 + 8 * (e / 2) + 2 * q + e % 2; /* the wgmma accumulator fragment */
      bool ok;
      tc5_mask_allowed(&s, i, col, &ok);
      if (((w[e / 32] >> (e % 32)) & 1) != ok)
        fail_msg("sm90 case %llu row %lld q %u element %u (column %lld): bit %u, definition %d",
                 (unsigned long long)c, (long long)i, q, e, (long long)col, (w[e / 32] >> (e % 32)) & 1, ok);
    }
  }
}

static void test_tiles_vs_brute_force(void **state) {
  (void)state;
  rng_seed(&R, 23);
  uint64_t cases = test_iters(60000);
  for (uint64_t c = 0; c < cases; c++) {
    tc5_mask_spec s;
    random_spec(&s);
    uint32_t tm = 16 << rng_below(&R, 3), tn = 16 << rng_below(&R, 4);
    int64_t m0 = (int64_t)tm * (int64_t)rng_below(&R, 40), n0 = (int64_t)tn * (int64_t)rng_below(&R, 40);
    tc5_tile_class cls;
    assert_int_equal(tc5_mask_tile(&s, m0, tm, n0, tn, &cls), TC5_OK);
    bool any = false, all = true;
    for (uint32_t r = 0; r < tm; r++)
      for (uint32_t k = 0; k < tn; k++) {
        bool ok;
        tc5_mask_allowed(&s, m0 + r, n0 + k, &ok);
        any |= ok;
        all &= ok;
      }
    tc5_tile_class want = all ? TC5_TILE_FULL : any ? TC5_TILE_PARTIAL : TC5_TILE_EMPTY;
    if (cls != want) fail_msg("tile %llu: %s, brute force %s", (unsigned long long)c, tc5_tile_class_name(cls),
                              tc5_tile_class_name(want));
  }
}

static void test_hand_cases(void **state) {
  (void)state;
  tc5_mask_spec s;
  /* causal, square: row 3 sees columns 0..3 */
  tc5_mask_spec_init(&s, 128, 128);
  s.causal = true;
  uint32_t w[4];
  assert_int_equal(tc5_mask_row_bits(&s, 3, 0, 1, w), TC5_OK);
  assert_int_equal(w[0], 0xF);
  int64_t lo, hi;
  assert_int_equal(tc5_mask_row_range(&s, 3, &lo, &hi), TC5_OK);
  assert_true(lo == 0 && hi == 4);
  /* bottom-right alignment: 64 queries over 128 keys, row 0 sees 0..64 */
  tc5_mask_spec_init(&s, 64, 128);
  s.causal = true;
  assert_int_equal(tc5_mask_row_bits(&s, 0, 64, 1, w), TC5_OK);
  assert_int_equal(w[0], 1);
  /* SM90, q = 1: elements are columns 2, 3, 10, 11, ...; limit 11 keeps
   * columns 2, 3, 10 -> elements 0, 1, 2 */
  tc5_mask_spec_init(&s, 64, 11);
  assert_int_equal(tc5_mask_row_bits_sm90(&s, 0, 0, 128, 1, w), TC5_OK);
  assert_int_equal(w[0], 0x7);
  /* local window (2, 1) around column 40 of row 40 (offset 0) */
  tc5_mask_spec_init(&s, 256, 256);
  s.local = true;
  s.window_left = 2;
  s.window_right = 1;
  assert_int_equal(tc5_mask_row_bits(&s, 40, 32, 1, w), TC5_OK);
  assert_int_equal(w[0], 0xFu << 6); /* columns 38..41 */
  tc5_tile_class c;
  assert_int_equal(tc5_mask_tile(&s, 0, 64, 128, 64, &c), TC5_OK);
  assert_int_equal(c, TC5_TILE_EMPTY);
  assert_int_equal(tc5_mask_tile(&s, 0, 64, 0, 64, &c), TC5_OK);
  assert_int_equal(c, TC5_TILE_PARTIAL);
  tc5_mask_spec_init(&s, 256, 256);
  assert_int_equal(tc5_mask_tile(&s, 0, 64, 0, 64, &c), TC5_OK);
  assert_int_equal(c, TC5_TILE_FULL);
  assert_string_equal(tc5_tile_class_name(TC5_TILE_FULL), "full");
  /* apply: cleared bits become -Inf, others unchanged */
  uint32_t sc[40], bits[2] = {0x0000FFFFu, 0x1u};
  for (unsigned e = 0; e < 40; e++) sc[e] = 0x3F800000u + e;
  assert_int_equal(tc5_mask_apply(bits, 40, sc), TC5_OK);
  assert_int_equal(sc[0], 0x3F800000u);
  assert_int_equal(sc[15], 0x3F80000Fu);
  assert_int_equal(sc[16], 0xFF800000u);
  assert_int_equal(sc[32], 0x3F800020u);
  assert_int_equal(sc[33], 0xFF800000u);
  /* a row past the query length is empty */
  assert_int_equal(tc5_mask_row_bits(&s, 300, 0, 1, w), TC5_OK);
  assert_int_equal(w[0], 0);
}

static void test_errors_and_render(void **state) {
  (void)state;
  tc5_mask_spec s;
  tc5_diag dg;
  assert_int_equal(tc5_mask_spec_init(NULL, 1, 1), TC5_EINVAL);
  tc5_mask_spec_init(&s, -1, 4);
  tc5_diag_init(&dg);
  assert_int_equal(tc5_mask_spec_check(&s, &dg), TC5_ERANGE);
  assert_non_null(strstr(dg.issue[0].message, "query length -1"));
  tc5_mask_spec_init(&s, 4, -2);
  assert_int_equal(tc5_mask_spec_check(&s, NULL), TC5_ERANGE);
  tc5_mask_spec_init(&s, 4, 4);
  s.local = true;
  s.window_left = -5;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_mask_spec_check(&s, &dg), TC5_ERANGE);
  assert_non_null(strstr(dg.issue[0].message, "left window -5"));
  s.window_left = 0;
  s.window_right = -3;
  assert_int_equal(tc5_mask_spec_check(&s, NULL), TC5_ERANGE);
  s.window_right = 0;
  s.causal = true;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_mask_spec_check(&s, &dg), TC5_EILLEGAL);
  assert_non_null(strstr(dg.issue[0].message, "causal and local"));
  bool ok;
  uint32_t w[2];
  int64_t lo, hi;
  tc5_tile_class c;
  assert_int_equal(tc5_mask_allowed(&s, 0, 0, &ok), TC5_EILLEGAL);
  assert_int_equal(tc5_mask_row_range(&s, 0, &lo, &hi), TC5_EILLEGAL);
  assert_int_equal(tc5_mask_tile(&s, 0, 8, 0, 8, &c), TC5_EILLEGAL);
  assert_int_equal(tc5_mask_row_bits(&s, 0, 0, 1, w), TC5_EILLEGAL);
  assert_int_equal(tc5_mask_row_bits_sm90(&s, 0, 0, 8, 0, w), TC5_EILLEGAL);
  tc5_mask_spec_init(&s, 4, 4);
  assert_int_equal(tc5_mask_allowed(NULL, 0, 0, &ok), TC5_EINVAL);
  assert_int_equal(tc5_mask_row_range(&s, 0, NULL, &hi), TC5_EINVAL);
  assert_int_equal(tc5_mask_tile(&s, 0, 0, 0, 8, &c), TC5_EINVAL);
  assert_int_equal(tc5_mask_row_bits(&s, 0, 0, 0, w), TC5_EINVAL);
  assert_int_equal(tc5_mask_row_bits_sm90(&s, 0, 0, 12, 0, w), TC5_EINVAL);
  assert_int_equal(tc5_mask_row_bits_sm90(&s, 0, 0, 8, 4, w), TC5_EINVAL);
  assert_int_equal(tc5_mask_apply(NULL, 1, w), TC5_EINVAL);
  assert_string_equal(tc5_tile_class_name((tc5_tile_class)9), "?");
  /* pictures */
  static char buf[1 << 16];
  size_t need;
  tc5_mask_spec_init(&s, 64, 64);
  s.causal = true;
  assert_int_equal(tc5_mask_render(&s, 0, 4, 0, 8, false, buf, sizeof buf, &need, NULL), TC5_OK);
  assert_non_null(strstr(buf, "partial"));
  assert_non_null(strstr(buf, "     2 111....."));
  assert_int_equal(tc5_mask_render(&s, 0, 4, 0, 8, true, buf, sizeof buf, &need, NULL), TC5_OK);
  assert_int_equal(strncmp(buf, "<svg", 4), 0);
  char small[4];
  assert_int_equal(tc5_mask_render(&s, 0, 4, 0, 8, false, small, sizeof small, &need, NULL), TC5_ETRUNC);
  tc5_diag_init(&dg);
  assert_int_equal(tc5_mask_render(&s, 0, 600, 0, 8, false, buf, sizeof buf, &need, &dg), TC5_ERANGE);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_row_bits_vs_definition), cmocka_unit_test(test_sm90_bits_vs_definition),
      cmocka_unit_test(test_tiles_vs_brute_force),   cmocka_unit_test(test_hand_cases),
      cmocka_unit_test(test_errors_and_render),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
