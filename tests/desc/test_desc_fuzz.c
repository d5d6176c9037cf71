/* Tests: decode never crashes and never lies, over >= 10^7 random raw values
 * of each descriptor (run under ASan+UBSan in CI). A value either decodes
 * cleanly and re-encodes to itself, or is rejected with at least one issue
 * whose message is not empty; describe and JSON always succeed. */
#include "testutil.h"

#include "tc5/descriptors.h"

static char buf[8192];

static void test_smem_fuzz(void **state) {
  (void)state;
  rng r;
  rng_seed(&r, 11);
  uint64_t iters = test_iters(10000000), clean = 0;
  for (uint64_t i = 0; i < iters; i++) {
    uint64_t raw = rng_next(&r);
    /* bias half of the values towards the valid region */
    if (i & 1) {
      static const uint64_t modes[5] = {0, 1, 2, 4, 6};
      raw = (raw & ~(0x7FFFull << 46) & ~(3ull << 14) & ~(3ull << 30)) | (1ull << 46) |
            (modes[rng_below(&r, 5)] << 61);
      if ((raw >> 61) == 0) raw &= ~(7ull << 49);
    }
    tc5_smem_desc d;
    bool detail = (i % 64) == 0;
    tc5_diag dg;
    tc5_diag_init(&dg);
    tc5_status st = tc5_smem_desc_decode(raw, &d, detail ? &dg : NULL);
    if (st == TC5_OK) {
      uint64_t back;
      assert_int_equal(tc5_smem_desc_encode(&d, &back, NULL), TC5_OK);
      assert_true(back == raw);
      clean++;
    } else if (detail) {
      assert_true(dg.count > 0);
      assert_true(dg.issue[0].message[0] != '\0');
    }
    if (detail) {
      assert_int_equal(tc5_smem_desc_describe(&d, buf, sizeof buf, NULL), TC5_OK);
      assert_int_equal(tc5_smem_desc_json(&d, raw, &dg, buf, sizeof buf, NULL), TC5_OK);
    }
  }
  assert_true(clean > iters / 8);
}

static void test_idesc_fuzz(void **state) {
  (void)state;
  rng r;
  rng_seed(&r, 12);
  uint64_t iters = test_iters(10000000), clean = 0;
  tc5_mma_variant v[TC5_KIND_COUNT];
  for (int k = 0; k < TC5_KIND_COUNT; k++) {
    tc5_mma_variant_init(&v[k], (tc5_kind)k);
    if (k == TC5_KIND_MXF4NVF4) v[k].block = 16;
  }
  for (uint64_t i = 0; i < iters; i++) {
    uint32_t raw = (uint32_t)rng_next(&r);
    tc5_kind kind = (tc5_kind)(i % TC5_KIND_COUNT);
    if (i & 1) {
      /* steer towards the valid region: clear reserved bits, pick valid codes */
      static const uint32_t reserved[3] = {
          (1u << 6) | (1u << 23) | (1u << 29),
          0x3u | (1u << 3) | (1u << 6) | (7u << 24) | (1u << 31),
          0x3u | (1u << 3) | (1u << 6) | (1u << 12) | (7u << 24)};
      static const uint8_t codes[TC5_KIND_COUNT][2] = {{0, 1}, {2, 2}, {0, 5}, {0, 1},
                                                       {0, 5}, {1, 1}, {1, 1}};
      int t = kind == TC5_KIND_MXF8F6F4 ? 1 : kind >= TC5_KIND_MXF4 ? 2 : 0;
      raw &= ~reserved[t];
      uint32_t c = codes[kind][rng_below(&r, 2)];
      if (c == 2 && kind == TC5_KIND_F8F6F4) c = 1;
      raw = (raw & ~(0x3Fu << 7)) | (c << 7) | (c << 10);
      if (t == 0) raw = (raw & ~(3u << 4)) | (kind == TC5_KIND_I8 ? 2u : 1u) << 4;
    }
    tc5_idesc d;
    bool detail = (i % 64) == 0;
    tc5_diag dg;
    tc5_diag_init(&dg);
    tc5_status st = tc5_idesc_decode(raw, kind, &d, detail ? &dg : NULL);
    if (st == TC5_OK) {
      uint32_t back;
      assert_int_equal(tc5_idesc_encode(&d, &back, NULL), TC5_OK);
      assert_int_equal(back, raw);
      clean++;
    } else if (detail) {
      assert_true(dg.count > 0);
    }
    /* the legality check never crashes either */
    tc5_status cs = tc5_idesc_check(&d, &v[kind], detail ? &dg : NULL);
    if (st != TC5_OK) assert_int_not_equal(cs, TC5_OK);
    if (detail) {
      assert_int_equal(tc5_idesc_describe(&d, buf, sizeof buf, NULL), TC5_OK);
      assert_int_equal(tc5_idesc_json(&d, raw, &dg, buf, sizeof buf, NULL), TC5_OK);
    }
  }
  assert_true(clean > iters / 32);
}

static void test_zcmask_fuzz(void **state) {
  (void)state;
  rng r;
  rng_seed(&r, 13);
  uint64_t iters = test_iters(10000000), clean = 0;
  for (uint64_t i = 0; i < iters; i++) {
    uint64_t raw = rng_next(&r);
    if (i & 1) raw &= ~((7ull << 36) | (0x3Full << 58));
    tc5_zcmask_desc d;
    bool detail = (i % 64) == 0;
    tc5_diag dg;
    tc5_diag_init(&dg);
    tc5_status st = tc5_zcmask_desc_decode(raw, &d, detail ? &dg : NULL);
    if (st == TC5_OK) {
      uint64_t back;
      assert_int_equal(tc5_zcmask_desc_encode(&d, &back, NULL), TC5_OK);
      assert_true(back == raw);
      clean++;
    } else if (detail) {
      assert_true(dg.count > 0);
    }
    if (detail) {
      assert_int_equal(tc5_zcmask_desc_describe(&d, buf, sizeof buf, NULL), TC5_OK);
      assert_int_equal(tc5_zcmask_desc_json(&d, raw, &dg, buf, sizeof buf, NULL), TC5_OK);
    }
  }
  assert_true(clean > iters / 8);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_smem_fuzz),
      cmocka_unit_test(test_idesc_fuzz),
      cmocka_unit_test(test_zcmask_fuzz),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
