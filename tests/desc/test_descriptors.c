/* Tests: the three matrix descriptors (spec 9.7.16.4) — spec examples,
 * encode/decode round trips, describe and JSON. */
#include "testutil.h"

#include "tc5/descriptors.h"

/* ---- shared memory descriptor ------------------------------------------- */

static uint64_t smem(uint32_t start, uint32_t lbo, uint32_t sbo, unsigned sw) {
  tc5_smem_desc d;
  tc5_smem_desc_init(&d);
  d.start_address = start;
  d.lbo = lbo;
  d.sbo = sbo;
  d.swizzle = (uint8_t)sw;
  uint64_t raw = 0;
  assert_int_equal(tc5_smem_desc_encode(&d, &raw, NULL), TC5_OK);
  return raw;
}

#define LBO_FIELD(r) (((r) >> 16) & 0x3FFF)
#define SBO_FIELD(r) (((r) >> 32) & 0x3FFF)

/* 9.7.16.3.3 Canonical Layouts: every worked example's LBO/SBO encoding. */
static void test_spec_canonical_examples(void **state) {
  (void)state;
  /* K-major, no swizzling, tf32: LBO = 64*sizeof(tf32), SBO = 32*sizeof(tf32) */
  uint64_t r = smem(0, 64 * 4, 32 * 4, TC5_SWIZZLE_NONE);
  assert_int_equal(LBO_FIELD(r), 16);
  assert_int_equal(SBO_FIELD(r), 8);
  /* K-major, 32B swizzling, tf32: LBO not used ("1 (assumed)"), SBO = 64*4 */
  r = smem(0, 16, 64 * 4, TC5_SWIZZLE_32B);
  assert_int_equal(LBO_FIELD(r), 1);
  assert_int_equal(SBO_FIELD(r), 16);
  /* MN-major, no swizzling, bf16: LBO = 128*2, SBO = 64*2 */
  r = smem(0, 128 * 2, 64 * 2, TC5_SWIZZLE_NONE);
  assert_int_equal(LBO_FIELD(r), 16);
  assert_int_equal(SBO_FIELD(r), 8);
  /* MN-major, 32B swizzling, bf16: LBO = 128*2, SBO = 256*2 */
  r = smem(0, 128 * 2, 256 * 2, TC5_SWIZZLE_32B);
  assert_int_equal(LBO_FIELD(r), 16);
  assert_int_equal(SBO_FIELD(r), 32);
  /* MN-major, 64B swizzling, bf16: LBO = 256*2, SBO = 512*2 */
  r = smem(0, 256 * 2, 512 * 2, TC5_SWIZZLE_64B);
  assert_int_equal(LBO_FIELD(r), 32);
  assert_int_equal(SBO_FIELD(r), 64);
}

static void test_smem_fixed_bits_and_layout(void **state) {
  (void)state;
  uint64_t r = smem(0x3FFF0, 0x3FFF0, 0x3FFF0, TC5_SWIZZLE_32B);
  assert_int_equal(r & 0x3FFF, 0x3FFF);
  assert_int_equal((r >> 46) & 7, 1);          /* fixed 0b001 */
  assert_int_equal((r >> 53) & 0xFF, 0);       /* fixed 0 */
  assert_int_equal(r >> 61, TC5_SWIZZLE_32B);  /* swizzle */
  /* CUTLASS K_SW128 f16 K-block 1 (oracle smem-layouts.txt line 8) */
  assert_true(smem(32, 16, 1024, TC5_SWIZZLE_128B) == 0x4000404000010002ull);
}

static void test_smem_base_offset_rule(void **state) {
  (void)state;
  uint8_t bo;
  /* Table 41: 0 on the boundary, else (addr >> 7) & 7 */
  assert_int_equal(tc5_smem_base_offset(0x2000, TC5_SWIZZLE_128B, &bo), TC5_OK);
  assert_int_equal(bo, 0);
  tc5_smem_base_offset(0x1180, TC5_SWIZZLE_128B, &bo);
  assert_int_equal(bo, 3);
  tc5_smem_base_offset(0x400, TC5_SWIZZLE_64B, &bo);
  assert_int_equal(bo, 0);
  tc5_smem_base_offset(0x300, TC5_SWIZZLE_64B, &bo);
  assert_int_equal(bo, 6);
  tc5_smem_base_offset(0x100, TC5_SWIZZLE_32B, &bo);
  assert_int_equal(bo, 0);
  tc5_smem_base_offset(0x180, TC5_SWIZZLE_32B, &bo);
  assert_int_equal(bo, 3);
  tc5_smem_base_offset(0x180, TC5_SWIZZLE_NONE, &bo);
  assert_int_equal(bo, 0);
  assert_int_equal(tc5_smem_base_offset(0, (tc5_swizzle)3, &bo), TC5_EINVAL);
  uint32_t pb;
  tc5_swizzle_pattern_bytes(TC5_SWIZZLE_128B_BASE32B, &pb);
  assert_int_equal(pb, 1024);
}

/* Every combination of the small fields, with random addresses. */
static void test_smem_roundtrip_exhaustive_small(void **state) {
  (void)state;
  rng r;
  rng_seed(&r, 1);
  static const unsigned modes[] = {0, 1, 2, 4, 6};
  unsigned n = 0;
  for (unsigned m = 0; m < 5; m++)
    for (unsigned bo = 0; bo < 8; bo++)
      for (unsigned lm = 0; lm < 2; lm++)
        for (unsigned rep = 0; rep < 64; rep++) {
          tc5_smem_desc d, e;
          tc5_smem_desc_init(&d);
          d.swizzle = (uint8_t)modes[m];
          d.base_offset = (uint8_t)bo;
          d.lbo_mode = (uint8_t)lm;
          d.start_address = (uint32_t)rng_below(&r, 1u << 14) << 4;
          d.lbo = (uint32_t)rng_below(&r, 1u << 14) << 4;
          d.sbo = (uint32_t)rng_below(&r, 1u << 14) << 4;
          uint64_t raw;
          tc5_diag dg;
          tc5_diag_init(&dg);
          tc5_status st = tc5_smem_desc_encode(&d, &raw, &dg);
          /* a base offset without swizzling is legal (no effect: docs/spec-departures.md) */
          bool legal = !(lm && (modes[m] != 2 || bo));
          if (!legal) {
            assert_int_not_equal(st, TC5_OK);
            continue;
          }
          assert_int_equal(st, TC5_OK);
          assert_int_equal(tc5_smem_desc_decode(raw, &e, NULL), TC5_OK);
          assert_memory_equal(&d, &e, sizeof d);
          n++;
        }
  assert_true(n > 1000);
}

static void test_smem_roundtrip_random(void **state) {
  (void)state;
  rng r;
  rng_seed(&r, 2);
  static const unsigned modes[] = {0, 1, 2, 4, 6};
  uint64_t iters = test_iters(1000000);
  for (uint64_t i = 0; i < iters; i++) {
    tc5_smem_desc d, e;
    tc5_smem_desc_init(&d);
    d.swizzle = (uint8_t)modes[rng_below(&r, 5)];
    d.base_offset = d.swizzle ? (uint8_t)rng_below(&r, 8) : 0;
    d.start_address = (uint32_t)rng_below(&r, 1u << 14) << 4;
    d.lbo = (uint32_t)rng_below(&r, 1u << 14) << 4;
    d.sbo = (uint32_t)rng_below(&r, 1u << 14) << 4;
    uint64_t raw;
    assert_int_equal(tc5_smem_desc_encode(&d, &raw, NULL), TC5_OK);
    assert_int_equal(tc5_smem_desc_decode(raw, &e, NULL), TC5_OK);
    assert_memory_equal(&d, &e, sizeof d);
  }
}

static void test_smem_describe_json(void **state) {
  (void)state;
  tc5_smem_desc d;
  tc5_diag dg;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_smem_desc_decode(0x4000404000010002ull, &d, &dg), TC5_OK);
  char buf[4096];
  size_t need = 0;
  assert_int_equal(tc5_smem_desc_describe(&d, buf, sizeof buf, &need), TC5_OK);
  assert_non_null(strstr(buf, "start address"));
  assert_non_null(strstr(buf, "32 bytes"));
  assert_non_null(strstr(buf, "1024 bytes"));
  assert_non_null(strstr(buf, "128-byte swizzling"));
  /* too small a buffer: TC5_ETRUNC with the size needed */
  char small[16];
  assert_int_equal(tc5_smem_desc_describe(&d, small, sizeof small, &need), TC5_ETRUNC);
  assert_true(need > sizeof small);
  assert_int_equal(strlen(small), sizeof small - 1);
  assert_int_equal(tc5_smem_desc_json(&d, 0x4000404000010002ull, &dg, buf, sizeof buf, NULL),
                   TC5_OK);
  assert_non_null(strstr(buf, "\"stride_byte_offset\":1024"));
  assert_non_null(strstr(buf, "\"valid\":true"));
  assert_non_null(strstr(buf, "\"issues\":[]"));
}

static void test_smem_null_args(void **state) {
  (void)state;
  tc5_smem_desc d;
  uint64_t raw;
  assert_int_equal(tc5_smem_desc_init(NULL), TC5_EINVAL);
  assert_int_equal(tc5_smem_desc_encode(NULL, &raw, NULL), TC5_EINVAL);
  assert_int_equal(tc5_smem_desc_encode(&d, NULL, NULL), TC5_EINVAL);
  assert_int_equal(tc5_smem_desc_decode(0, NULL, NULL), TC5_EINVAL);
  assert_int_equal(tc5_smem_desc_check(NULL, NULL), TC5_EINVAL);
  assert_int_equal(tc5_smem_desc_describe(NULL, NULL, 0, NULL), TC5_EINVAL);
  assert_int_equal(tc5_smem_desc_json(NULL, 0, NULL, NULL, 0, NULL), TC5_EINVAL);
  assert_int_equal(tc5_smem_base_offset(0, TC5_SWIZZLE_128B, NULL), TC5_EINVAL);
  assert_int_equal(tc5_swizzle_pattern_bytes(TC5_SWIZZLE_NONE, NULL), TC5_EINVAL);
  assert_int_equal(tc5_smem_desc_check_lbo_mode(NULL, false, TC5_ARCH_SM100A, NULL), TC5_EINVAL);
}

static void test_swizzle_names(void **state) {
  (void)state;
  tc5_swizzle m;
  assert_int_equal(tc5_swizzle_parse("128B", &m), TC5_OK);
  assert_int_equal(m, TC5_SWIZZLE_128B);
  assert_int_equal(tc5_swizzle_parse("128B_base32B", &m), TC5_OK);
  assert_int_equal(m, TC5_SWIZZLE_128B_BASE32B);
  assert_int_equal(tc5_swizzle_parse("none", &m), TC5_OK);
  assert_int_equal(m, TC5_SWIZZLE_NONE);
  assert_int_equal(tc5_swizzle_parse("sw64", &m), TC5_OK);
  assert_int_equal(m, TC5_SWIZZLE_64B);
  assert_int_equal(tc5_swizzle_parse("96B", &m), TC5_EINVAL);
  assert_string_equal(tc5_swizzle_name(3), "reserved");
  assert_string_equal(tc5_swizzle_name(6), "32B");
  for (unsigned i = 0; i < 8; i++)
    assert_int_equal(tc5_swizzle_is_valid(i), i == 0 || i == 1 || i == 2 || i == 4 || i == 6);
}

static void test_smem_lbo_absolute(void **state) {
  (void)state;
  tc5_smem_desc d;
  tc5_smem_desc_init(&d);
  d.swizzle = TC5_SWIZZLE_128B;
  d.lbo_mode = 1;
  d.lbo = 0x1040;
  uint64_t raw;
  assert_int_equal(tc5_smem_desc_encode(&d, &raw, NULL), TC5_OK);
  assert_int_equal((raw >> 52) & 1, 1);
  assert_int_equal(LBO_FIELD(raw), 0x104);
  tc5_diag dg;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_smem_desc_check_lbo_mode(&d, false, TC5_ARCH_SM103A, &dg), TC5_OK);
  assert_int_equal(tc5_smem_desc_check_lbo_mode(&d, false, TC5_ARCH_SM100A, &dg), TC5_EILLEGAL);
  assert_non_null(strstr(dg.issue[0].message, "sm_103a"));
  tc5_diag_init(&dg);
  assert_int_equal(tc5_smem_desc_check_lbo_mode(&d, true, TC5_ARCH_SM103A, &dg), TC5_EILLEGAL);
  assert_non_null(strstr(dg.issue[0].message, "K-major"));
}

/* ---- instruction descriptor ---------------------------------------------- */

static void test_idesc_known_encodings(void **state) {
  (void)state;
  /* CUTLASS oracle idesc.txt: f16 x f16 -> f32, M=64 N=8, K-major */
  tc5_idesc d;
  tc5_idesc_init(&d, TC5_KIND_F16);
  assert_int_equal(tc5_idesc_set_types(&d, TC5_F16, TC5_F16, TC5_F32), TC5_OK);
  d.m = 64;
  d.n = 8;
  uint32_t raw;
  assert_int_equal(tc5_idesc_encode(&d, &raw, NULL), TC5_OK);
  assert_int_equal(raw, 0x04020010);
  /* a MN-major, negate A */
  d.transpose_a = 1;
  d.negate_a = 1;
  assert_int_equal(tc5_idesc_encode(&d, &raw, NULL), TC5_OK);
  assert_int_equal(raw, 0x0402a010);
  /* block scaled e4m3, M=128, N=256, sfa 3, sfb 1 (oracle idesc_bs=68c00010) */
  tc5_idesc_init(&d, TC5_KIND_MXF8F6F4);
  assert_int_equal(tc5_idesc_set_types(&d, TC5_E4M3, TC5_E4M3, TC5_TYPE_NONE), TC5_OK);
  d.m = 128;
  d.n = 256;
  d.sfa_id = 3;
  d.sfb_id = 1;
  assert_int_equal(tc5_idesc_encode(&d, &raw, NULL), TC5_OK);
  assert_int_equal(raw, 0x68c00010);
  /* mxf4nvf4 with ue4m3 (oracle idesc_bs=08200480) */
  tc5_idesc_init(&d, TC5_KIND_MXF4NVF4);
  tc5_idesc_set_types(&d, TC5_E2M1, TC5_E2M1, TC5_F32);
  d.scale_type = 0;
  d.m = 128;
  d.n = 128;
  assert_int_equal(tc5_idesc_encode(&d, &raw, NULL), TC5_OK);
  assert_int_equal(raw, 0x08200480);
}

static void test_idesc_types(void **state) {
  (void)state;
  tc5_idesc d;
  tc5_type t;
  tc5_idesc_init(&d, TC5_KIND_F8F6F4);
  assert_int_equal(tc5_idesc_set_types(&d, TC5_E2M3, TC5_E3M2, TC5_F16), TC5_OK);
  assert_int_equal(d.atype, 3);
  assert_int_equal(d.btype, 4);
  assert_int_equal(d.dtype, 0);
  assert_int_equal(tc5_idesc_atype(&d, &t), TC5_OK);
  assert_int_equal(t, TC5_E2M3);
  assert_int_equal(tc5_idesc_btype(&d, &t), TC5_OK);
  assert_int_equal(t, TC5_E3M2);
  d.atype = 2; /* undefined in f8f6f4 */
  assert_int_equal(tc5_idesc_atype(&d, &t), TC5_ERESERVED);
  assert_int_equal(tc5_idesc_set_types(&d, TC5_BF16, TC5_E4M3, TC5_F32), TC5_EILLEGAL);
  tc5_idesc_init(&d, TC5_KIND_I8);
  assert_int_equal(tc5_idesc_set_types(&d, TC5_U8, TC5_S8, TC5_S32), TC5_OK);
  assert_int_equal(d.atype, 0);
  assert_int_equal(d.btype, 1);
  assert_int_equal(d.dtype, 2);
  tc5_idesc_init(&d, TC5_KIND_MXF4);
  assert_int_equal(tc5_idesc_dtype(&d, &t), TC5_OK);
  assert_int_equal(t, TC5_F32);
  assert_int_equal(tc5_idesc_scale_type(&d, &t), TC5_OK);
  assert_int_equal(t, TC5_UE8M0);
  assert_int_equal(tc5_idesc_set_types(&d, TC5_E2M1, TC5_E2M1, TC5_F16), TC5_EILLEGAL);
  unsigned k;
  tc5_idesc_init(&d, TC5_KIND_TF32);
  tc5_idesc_k(&d, &k);
  assert_int_equal(k, 8);
  d.sparse = 1;
  tc5_idesc_k(&d, &k);
  assert_int_equal(k, 16);
  tc5_idesc_init(&d, TC5_KIND_MXF4NVF4);
  d.k96 = 1;
  tc5_idesc_k(&d, &k);
  assert_int_equal(k, 96);
  assert_int_equal(tc5_idesc_max_shift_columns(3), 32);
  assert_int_equal(tc5_idesc_max_shift_columns(1), 8);
  assert_int_equal(tc5_idesc_max_shift_columns(9), 0);
}

/* All values of every field of every layout: every assignment of the bits
 * that are not M, N or reserved (2^18 per Table 42 kind, 2^16 per Table
 * 43/44 kind), and every encodable M and N. */
static void test_idesc_roundtrip_exhaustive(void **state) {
  (void)state;
  static const uint32_t reserved[3] = {
      (1u << 6) | (1u << 23) | (1u << 29),                              /* Table 42 */
      0x3u | (1u << 3) | (1u << 6) | (7u << 24) | (1u << 31),           /* Table 43 */
      0x3u | (1u << 3) | (1u << 6) | (1u << 12) | (7u << 24)};          /* Table 44 */
  unsigned long n = 0;
  for (int kk = 0; kk < TC5_KIND_COUNT; kk++) {
    tc5_kind kind = (tc5_kind)kk;
    int t = kind == TC5_KIND_MXF8F6F4 ? 1 : (kind == TC5_KIND_MXF4 || kind == TC5_KIND_MXF4NVF4) ? 2 : 0;
    bool mx = t != 0;
    uint32_t mn_mask = mx ? ((0x3Fu << 17) | (3u << 27)) : ((0x3Fu << 17) | (0x1Fu << 24));
    uint32_t other = ~mn_mask & ~reserved[t];
    unsigned long valid = 0, total = 0;
    for (uint32_t raw = 0;; raw = ((raw | ~other) + 1) & other) {
      tc5_idesc d;
      total++;
      if (tc5_idesc_decode(raw, kind, &d, NULL) == TC5_OK) {
        uint32_t back;
        assert_int_equal(tc5_idesc_encode(&d, &back, NULL), TC5_OK);
        assert_int_equal(back, raw);
        valid++;
      }
      if (raw == other) break;
    }
    assert_int_equal(total, 1ul << __builtin_popcount(other));
    assert_true(valid > 0);
    n += valid;
    for (uint32_t mn = 0;; mn = ((mn | ~mn_mask) + 1) & mn_mask) {
      tc5_idesc d;
      uint32_t raw = mn | (mx ? (1u << 23) : 0) | (kind == TC5_KIND_TF32 ? (2u << 7) | (2u << 10) | (1u << 4) : 0)
                     | (kind == TC5_KIND_I8 ? (2u << 4) : 0) | (kind == TC5_KIND_MXF4 || kind == TC5_KIND_MXF4NVF4 ? (1u << 7) | (1u << 10) : 0);
      assert_int_equal(tc5_idesc_decode(raw, kind, &d, NULL), TC5_OK);
      uint32_t back;
      assert_int_equal(tc5_idesc_encode(&d, &back, NULL), TC5_OK);
      assert_int_equal(back, raw);
      n++;
      if (mn == mn_mask) break;
    }
  }
  assert_true(n > 100000);
}

static void test_idesc_roundtrip_random(void **state) {
  (void)state;
  rng r;
  rng_seed(&r, 3);
  uint64_t iters = test_iters(1000000), ok = 0;
  for (uint64_t i = 0; i < iters; i++) {
    tc5_kind kind = (tc5_kind)rng_below(&r, TC5_KIND_COUNT);
    uint32_t raw = (uint32_t)rng_next(&r);
    tc5_idesc d, e;
    if (tc5_idesc_decode(raw, kind, &d, NULL) != TC5_OK) {
      /* clear what makes it invalid by re-drawing from legal fields */
      tc5_idesc_init(&d, kind);
      bool mx = tc5_kind_is_block_scaled(kind);
      d.n = (uint16_t)(rng_below(&r, 64) * 8);
      d.m = (uint16_t)(mx ? rng_below(&r, 4) * 128 : rng_below(&r, 32) * 16);
      d.sparse = (uint8_t)rng_below(&r, 2);
      d.negate_a = (uint8_t)rng_below(&r, 2);
      d.negate_b = (uint8_t)rng_below(&r, 2);
      d.transpose_a = (uint8_t)rng_below(&r, 2);
      d.transpose_b = (uint8_t)rng_below(&r, 2);
      if (mx) {
        d.scale_type = (uint8_t)rng_below(&r, 2);
        d.sfa_id = (uint8_t)rng_below(&r, 4);
        d.sfb_id = (uint8_t)rng_below(&r, 4);
        if (kind != TC5_KIND_MXF8F6F4) d.k96 = (uint8_t)rng_below(&r, 2);
      } else {
        d.sparse_selector = (uint8_t)rng_below(&r, 4);
        d.saturate = (uint8_t)rng_below(&r, 2);
        d.max_shift = (uint8_t)rng_below(&r, 4);
      }
      static const tc5_type all[] = {TC5_F16, TC5_BF16, TC5_TF32, TC5_E4M3, TC5_E5M2,
                                     TC5_E2M3, TC5_E3M2, TC5_E2M1, TC5_S8, TC5_U8};
      static const tc5_type dts[] = {TC5_F16, TC5_F32, TC5_S32};
      while (tc5_idesc_set_types(&d, all[rng_below(&r, 10)], all[rng_below(&r, 10)],
                                 mx ? TC5_TYPE_NONE : dts[rng_below(&r, 3)]) != TC5_OK) {
      }
      assert_int_equal(tc5_idesc_encode(&d, &raw, NULL), TC5_OK);
    }
    assert_int_equal(tc5_idesc_decode(raw, kind, &e, NULL), TC5_OK);
    tc5_idesc_decode(raw, kind, &d, NULL);
    assert_memory_equal(&d, &e, sizeof d);
    uint32_t back;
    assert_int_equal(tc5_idesc_encode(&e, &back, NULL), TC5_OK);
    assert_int_equal(back, raw);
    ok++;
  }
  assert_int_equal(ok, iters);
}

static void test_idesc_guess_kind(void **state) {
  (void)state;
  tc5_kind k;
  bool sure;
  assert_int_equal(tc5_idesc_guess_kind(0x04020020, &k, &sure), TC5_OK); /* dtype s32 */
  assert_int_equal(k, TC5_KIND_I8);
  assert_true(sure);
  tc5_idesc_guess_kind(0x04020910, &k, &sure); /* atype/btype tf32 */
  assert_int_equal(k, TC5_KIND_TF32);
  tc5_idesc_guess_kind(0x04021190, &k, &sure); /* e2m3 */
  assert_int_equal(k, TC5_KIND_F8F6F4);
  tc5_idesc_guess_kind(0x04020010, &k, &sure);
  assert_int_equal(k, TC5_KIND_F16);
  assert_false(sure);
}

static void test_idesc_describe_json(void **state) {
  (void)state;
  tc5_idesc d;
  tc5_diag dg;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_idesc_decode(0x289111a4, TC5_KIND_MXF8F6F4, &d, &dg), TC5_OK);
  char buf[4096];
  assert_int_equal(tc5_idesc_describe(&d, buf, sizeof buf, NULL), TC5_OK);
  assert_non_null(strstr(buf, "Table 43"));
  assert_non_null(strstr(buf, "e2m3"));
  assert_non_null(strstr(buf, "e3m2"));
  assert_non_null(strstr(buf, "64 elements"));
  assert_int_equal(tc5_idesc_json(&d, 0x289111a4, &dg, buf, sizeof buf, NULL), TC5_OK);
  assert_non_null(strstr(buf, "\"sfa_id\":1"));
  assert_non_null(strstr(buf, "\"sfb_id\":2"));
  assert_non_null(strstr(buf, "\"btype_name\":\"e3m2\""));
  assert_non_null(strstr(buf, "\"K\":64"));
}

/* ---- zero-column mask descriptor ----------------------------------------- */

static void test_zcmask_desc_spec_example4(void **state) {
  (void)state;
  /* Example 4: sc {sc3..sc0} = {1,2,1,0}, fs {fs3..fs0} = {0,0,1,1},
   * non-zero 1, skip 2, use 3, shift 2 */
  tc5_zcmask_desc d, e;
  tc5_zcmask_desc_init(&d);
  d.start_count[0] = 0;
  d.start_count[1] = 1;
  d.start_count[2] = 2;
  d.start_count[3] = 1;
  d.first_span[0] = 1;
  d.first_span[1] = 1;
  d.non_zero = 1;
  d.skip_span = 2;
  d.use_span = 3;
  d.column_shift = 2;
  uint64_t raw;
  assert_int_equal(tc5_zcmask_desc_encode(&d, &raw, NULL), TC5_OK);
  assert_true(raw == 0x0203028301020100ull);
  assert_int_equal(tc5_zcmask_desc_decode(raw, &e, NULL), TC5_OK);
  assert_memory_equal(&d, &e, sizeof d);
  assert_int_equal(tc5_zcmask_desc_check(&d, 32, NULL), TC5_OK);
}

static void test_zcmask_desc_roundtrip(void **state) {
  (void)state;
  rng r;
  rng_seed(&r, 4);
  uint64_t iters = test_iters(1000000);
  for (uint64_t i = 0; i < iters; i++) {
    uint64_t raw = rng_next(&r) & ~((7ull << 36) | (3ull << 62));
    if (((raw >> 56) & 63) > 32) raw &= ~(32ull << 56);
    tc5_zcmask_desc d;
    assert_int_equal(tc5_zcmask_desc_decode(raw, &d, NULL), TC5_OK);
    uint64_t back;
    assert_int_equal(tc5_zcmask_desc_encode(&d, &back, NULL), TC5_OK);
    assert_true(back == raw);
  }
  /* exhaustive over the small fields */
  for (unsigned fs = 0; fs < 16; fs++)
    for (unsigned nz = 0; nz < 2; nz++)
      for (unsigned sh = 0; sh <= 32; sh++) {
        tc5_zcmask_desc d, e;
        tc5_zcmask_desc_init(&d);
        for (int k = 0; k < 4; k++) d.first_span[k] = (uint8_t)((fs >> k) & 1);
        d.non_zero = (uint8_t)nz;
        d.column_shift = (uint8_t)sh;
        uint64_t raw;
        assert_int_equal(tc5_zcmask_desc_encode(&d, &raw, NULL), TC5_OK);
        assert_int_equal(tc5_zcmask_desc_decode(raw, &e, NULL), TC5_OK);
        assert_memory_equal(&d, &e, sizeof d);
        assert_int_equal(tc5_zcmask_desc_check(&d, 128, NULL), TC5_OK);
        assert_int_equal(tc5_zcmask_desc_check(&d, 32, NULL),
                         sh <= 16 ? TC5_OK : TC5_ERANGE);
      }
}

static void test_zcmask_desc_describe(void **state) {
  (void)state;
  tc5_zcmask_desc d;
  tc5_zcmask_desc_decode(0x0103008000000003ull, &d, NULL);
  char buf[2048];
  assert_int_equal(tc5_zcmask_desc_describe(&d, buf, sizeof buf, NULL), TC5_OK);
  assert_non_null(strstr(buf, "runs of 1 zeroed columns"));
  assert_non_null(strstr(buf, "runs of 4 used columns"));
  assert_non_null(strstr(buf, "[1, 1+N)"));
  assert_int_equal(tc5_zcmask_desc_json(&d, 0x0103008000000003ull, NULL, buf, sizeof buf, NULL),
                   TC5_OK);
  assert_non_null(strstr(buf, "\"start_count\":[3,0,0,0]"));
  assert_non_null(strstr(buf, "\"use_span\":3"));
}

/* ---- variants -------------------------------------------------------------- */

static void test_variant_parse_format(void **state) {
  (void)state;
  static const char *ok[] = {
      "tcgen05.mma.cta_group::1.kind::f16",
      "tcgen05.mma.cta_group::2.kind::tf32",
      "tcgen05.mma.ws.cta_group::1.kind::i8.collector::b2::use",
      "tcgen05.mma.ws.sp.cta_group::1.kind::f8f6f4",
      "tcgen05.mma.cta_group::2.kind::mxf4nvf4.block_scale.block16",
      "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X",
      "tcgen05.mma.cta_group::1.kind::mxf4.block_scale",
      "tcgen05.mma.cta_group::1.kind::f16.ashift.collector::a::lastuse",
      "tcgen05.mma.sp.cta_group::1.kind::f16.collector::a::fill",
  };
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    tc5_mma_variant v;
    tc5_diag dg;
    tc5_diag_init(&dg);
    tc5_status st = tc5_mma_variant_parse(ok[i], &v, &dg);
    if (st != TC5_OK) print_error("%s: %s\n", ok[i], dg.issue[0].message);
    assert_int_equal(st, TC5_OK);
    char buf[256];
    assert_int_equal(tc5_mma_variant_format(&v, buf, sizeof buf, NULL), TC5_OK);
    tc5_mma_variant w;
    assert_int_equal(tc5_mma_variant_parse(buf, &w, NULL), TC5_OK);
    assert_memory_equal(&v, &w, sizeof v);
  }
  tc5_mma_variant v;
  assert_int_equal(tc5_mma_variant_parse("tcgen05.mma.cta_group::1.kind::f16", &v, NULL), TC5_OK);
  assert_int_equal(v.kind, TC5_KIND_F16);
  assert_int_equal(v.cta_group, 1);
  assert_false(v.ws);
  assert_int_equal(tc5_mma_variant_parse("tcgen05.mma.ws.cta_group::1.kind::i8.collector::b2::use",
                                         &v, NULL), TC5_OK);
  assert_true(v.ws);
  assert_int_equal(v.collector_buf, TC5_COLLECTOR_BUF_B2);
  assert_int_equal(v.collector_op, TC5_COLLECTOR_USE);
  assert_int_equal(tc5_mma_variant_init(&v, TC5_KIND_MXF4), TC5_OK);
  assert_true(v.block_scale);
  assert_int_equal(tc5_mma_variant_init(&v, TC5_KIND_COUNT), TC5_EINVAL);
}

static void test_kind_arch_type_names(void **state) {
  (void)state;
  tc5_kind k;
  assert_int_equal(tc5_kind_parse(".kind::mxf4nvf4", &k), TC5_OK);
  assert_int_equal(k, TC5_KIND_MXF4NVF4);
  assert_int_equal(tc5_kind_parse("f32", &k), TC5_EINVAL);
  assert_string_equal(tc5_kind_name(TC5_KIND_F8F6F4), "f8f6f4");
  assert_string_equal(tc5_kind_name(TC5_KIND_COUNT), "?");
  tc5_arch a;
  assert_int_equal(tc5_arch_parse("sm_103a", &a), TC5_OK);
  assert_int_equal(a, TC5_ARCH_SM103A);
  assert_int_equal(tc5_arch_parse("sm_90a", &a), TC5_EINVAL);
  tc5_type t;
  assert_int_equal(tc5_type_parse("E4M3", &t), TC5_OK);
  assert_int_equal(t, TC5_E4M3);
  assert_int_equal(tc5_type_parse(".bf16", &t), TC5_OK);
  assert_int_equal(t, TC5_BF16);
  assert_int_equal(tc5_type_parse("fp8", &t), TC5_EINVAL);
  assert_int_equal(tc5_type_bits(TC5_E2M3), 6);
  assert_int_equal(tc5_type_bits(TC5_E2M1), 4);
  assert_int_equal(tc5_type_bits(TC5_TF32), 32);
  assert_true(tc5_type_is_float(TC5_UE8M0));
  assert_false(tc5_type_is_float(TC5_S32));
  assert_string_equal(tc5_status_name(TC5_ERESERVED), "TC5_ERESERVED");
  assert_string_equal(tc5_status_name((tc5_status)999), "TC5_E?");
  assert_non_null(tc5_strerror(TC5_EWOULDBLOCK));
}

static void test_diag_capacity(void **state) {
  (void)state;
  tc5_diag dg;
  tc5_diag_init(&dg);
  for (int i = 0; i < TC5_DIAG_CAP + 10; i++)
    assert_int_equal(tc5_diag_add(&dg, TC5_ERANGE, "f", (uint64_t)i, "m %d", i), TC5_ERANGE);
  assert_int_equal(dg.count, TC5_DIAG_CAP);
  assert_int_equal(dg.total, TC5_DIAG_CAP + 10);
  assert_int_equal(tc5_diag_first(&dg), TC5_ERANGE);
  assert_int_equal(tc5_diag_add(NULL, TC5_EALIGN, "f", 0, "x"), TC5_EALIGN);
  assert_int_equal(tc5_diag_init(NULL), TC5_EINVAL);
  assert_int_equal(tc5_diag_first(NULL), TC5_OK);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_spec_canonical_examples),
      cmocka_unit_test(test_smem_fixed_bits_and_layout),
      cmocka_unit_test(test_smem_base_offset_rule),
      cmocka_unit_test(test_smem_roundtrip_exhaustive_small),
      cmocka_unit_test(test_smem_roundtrip_random),
      cmocka_unit_test(test_smem_describe_json),
      cmocka_unit_test(test_smem_null_args),
      cmocka_unit_test(test_swizzle_names),
      cmocka_unit_test(test_smem_lbo_absolute),
      cmocka_unit_test(test_idesc_known_encodings),
      cmocka_unit_test(test_idesc_types),
      cmocka_unit_test(test_idesc_roundtrip_exhaustive),
      cmocka_unit_test(test_idesc_roundtrip_random),
      cmocka_unit_test(test_idesc_guess_kind),
      cmocka_unit_test(test_idesc_describe_json),
      cmocka_unit_test(test_zcmask_desc_spec_example4),
      cmocka_unit_test(test_zcmask_desc_roundtrip),
      cmocka_unit_test(test_zcmask_desc_describe),
      cmocka_unit_test(test_variant_parse_format),
      cmocka_unit_test(test_kind_arch_type_names),
      cmocka_unit_test(test_diag_capacity),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
