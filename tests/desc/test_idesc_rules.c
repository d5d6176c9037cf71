/* Tests: legality of descriptors and variants — every legal shape of Table 39
 * accepted, everything else rejected, and >= 100 illegal descriptors each
 * rejected with a message that names the field, the value and the rule. */
#include "testutil.h"

#include "tc5/descriptors.h"

/* Table 39, restated independently of src/spec_tables.c. */
static bool t39_m(tc5_kind k, bool ws, unsigned cta, bool sp, unsigned m) {
  bool mx = k == TC5_KIND_MXF8F6F4 || k == TC5_KIND_MXF4 || k == TC5_KIND_MXF4NVF4;
  if (ws) return !mx && cta == 1 && (m == 32 || m == 64 || m == 128);
  if (mx) {
    if (cta == 1) return m == 128;
    return sp ? m == 256 : (m == 128 || m == 256);
  }
  return cta == 1 ? (m == 64 || m == 128) : (m == 128 || m == 256);
}

static bool t39_n(tc5_kind k, bool ws, unsigned cta, bool sp, unsigned n) {
  if (ws) return sp ? (n == 64 || n == 128) : (n == 64 || n == 128 || n == 256);
  if (k == TC5_KIND_I8) {
    if (cta == 1) return (n >= 8 && n <= 32 && n % 8 == 0) || (n >= 48 && n <= 256 && n % 16 == 0);
    return n >= 32 && n <= 256 && n % 32 == 0;
  }
  if (cta == 1) return n >= 8 && n <= 256 && n % 8 == 0;
  return n >= 16 && n <= 256 && n % 16 == 0;
}

static void base_desc(tc5_idesc *d, tc5_kind k) {
  tc5_idesc_init(d, k);
  switch (k) {
  case TC5_KIND_F16: tc5_idesc_set_types(d, TC5_BF16, TC5_BF16, TC5_F32); break;
  case TC5_KIND_TF32: tc5_idesc_set_types(d, TC5_TF32, TC5_TF32, TC5_F32); break;
  case TC5_KIND_F8F6F4: tc5_idesc_set_types(d, TC5_E4M3, TC5_E5M2, TC5_F32); break;
  case TC5_KIND_I8: tc5_idesc_set_types(d, TC5_S8, TC5_U8, TC5_S32); break;
  case TC5_KIND_MXF8F6F4: tc5_idesc_set_types(d, TC5_E4M3, TC5_E2M1, TC5_F32); break;
  default: tc5_idesc_set_types(d, TC5_E2M1, TC5_E2M1, TC5_F32); break;
  }
}

static void variant(tc5_mma_variant *v, tc5_kind k, bool ws, unsigned cta, bool sp) {
  tc5_mma_variant_init(v, k);
  v->ws = ws;
  v->cta_group = (uint8_t)cta;
  v->sparse = sp;
  if (k == TC5_KIND_MXF4NVF4) v->block = 32;
}

/* Every (kind, ws, cta_group, sparsity, M, N): accepted exactly when Table 39
 * says so. */
static void test_table39_sweep(void **state) {
  (void)state;
  unsigned legal = 0, illegal = 0;
  for (int kk = 0; kk < TC5_KIND_COUNT; kk++)
    for (int ws = 0; ws < 2; ws++)
      for (unsigned cta = 1; cta <= 2; cta++)
        for (int sp = 0; sp < 2; sp++) {
          tc5_kind k = (tc5_kind)kk;
          bool mx = tc5_kind_is_block_scaled(k);
          tc5_mma_variant v;
          variant(&v, k, ws, cta, sp);
          bool form_ok = !(ws && (cta == 2 || mx));
          for (unsigned m = mx ? 128 : 16; m <= (mx ? 384u : 496u); m += mx ? 128 : 16)
            for (unsigned n = 8; n <= 504; n += 8) {
              tc5_idesc d;
              base_desc(&d, k);
              d.m = (uint16_t)m;
              d.n = (uint16_t)n;
              d.sparse = (uint8_t)sp;
              bool want = form_ok && t39_m(k, ws, cta, sp, m) && t39_n(k, ws, cta, sp, n);
              tc5_diag dg;
              tc5_diag_init(&dg);
              tc5_status st = tc5_idesc_check(&d, &v, &dg);
              if ((st == TC5_OK) != want)
                fail_msg("kind %s ws %d cta %u sp %d M %u N %u: got %s (%s), want %s",
                         tc5_kind_name(k), ws, cta, sp, m, n, tc5_status_name(st),
                         dg.count ? dg.issue[0].message : "", want ? "legal" : "illegal");
              if (want) legal++;
              else illegal++;
            }
        }
  assert_true(legal > 1000);
  assert_true(illegal > 10000);
}

/* K = 96: mxf4/mxf4nvf4, M = 256, dense, cta_group::2, sm_103a. */
static void test_k96(void **state) {
  (void)state;
  tc5_idesc d;
  tc5_mma_variant v;
  base_desc(&d, TC5_KIND_MXF4NVF4);
  d.m = 256;
  d.n = 128;
  d.k96 = 1;
  variant(&v, TC5_KIND_MXF4NVF4, false, 2, false);
  v.arch = TC5_ARCH_SM103A;
  assert_int_equal(tc5_idesc_check(&d, &v, NULL), TC5_OK);
  v.arch = TC5_ARCH_SM100A;
  assert_int_equal(tc5_idesc_check(&d, &v, NULL), TC5_EILLEGAL);
  v.arch = TC5_ARCH_SM103A;
  d.m = 128;
  assert_int_equal(tc5_idesc_check(&d, &v, NULL), TC5_EILLEGAL);
  d.m = 256;
  v.cta_group = 1;
  assert_int_equal(tc5_idesc_check(&d, &v, NULL), TC5_EILLEGAL);
}

typedef struct bad_case {
  const char *what;     /* "smem", "idesc", "zcmask", "variant" */
  uint64_t raw;         /* descriptor value */
  const char *kind;     /* idesc layout / variant for idesc checks */
  const char *variant;  /* tcgen05.mma opcode (idesc check) or NULL */
  unsigned m;           /* zcmask: M for the shift limit */
  tc5_status status;    /* expected status of one of the issues */
  const char *field;    /* expected issue field */
  const char *message;  /* substring naming field, value and rule */
} bad_case;

/* idesc raw builders (Table 42 / 43 / 44 bit positions) */
#define N_(n) ((uint32_t)((n) >> 3) << 17)
#define M4(m) ((uint32_t)((m) >> 4) << 24)
#define M7(m) ((uint32_t)((m) >> 7) << 27)
#define DT(c) ((uint32_t)(c) << 4)
#define AT(c) ((uint32_t)(c) << 7)
#define BT(c) ((uint32_t)(c) << 10)
#define F16_OK (DT(1) | AT(1) | BT(1) | M4(128) | N_(128))           /* bf16 -> f32 */
#define TF32_OK (DT(1) | AT(2) | BT(2) | M4(128) | N_(128))
#define F8_OK (DT(1) | AT(0) | BT(1) | M4(128) | N_(128))            /* e4m3 x e5m2 */
#define I8_OK (DT(2) | AT(1) | BT(0) | M4(128) | N_(128))            /* s8 x u8 */
#define MX8_OK ((1u << 23) | AT(0) | BT(5) | M7(128) | N_(128))      /* e4m3 x e2m1 */
#define MX4_OK ((1u << 23) | AT(1) | BT(1) | M7(128) | N_(128))
#define V1(k) "tcgen05.mma.cta_group::1.kind::" k
#define V2(k) "tcgen05.mma.cta_group::2.kind::" k
#define VWS(k) "tcgen05.mma.ws.cta_group::1.kind::" k

static const bad_case cases[] = {
    /* ---- shared memory descriptor (decode) ---- */
    {"smem", 0x6000400000000000ull, 0, 0, 0, TC5_ERESERVED, "swizzle mode", "swizzle mode 3 is reserved"},
    {"smem", 0xA000400000000000ull, 0, 0, 0, TC5_ERESERVED, "swizzle mode", "swizzle mode 5 is reserved"},
    {"smem", 0xE000400000000000ull, 0, 0, 0, TC5_ERESERVED, "swizzle mode", "swizzle mode 7 is reserved"},
    {"smem", 0x0000000000000000ull, 0, 0, 0, TC5_ERESERVED, "fixed bits 46-48", "bits 46-48 are 0b000, must be the fixed constant 0b001"},
    {"smem", 0x0000800000000000ull, 0, 0, 0, TC5_ERESERVED, "fixed bits 46-48", "bits 46-48 are 0b010"},
    {"smem", 0x0000C00000000000ull, 0, 0, 0, TC5_ERESERVED, "fixed bits 46-48", "bits 46-48 are 0b011"},
    {"smem", 0x0001000000000000ull, 0, 0, 0, TC5_ERESERVED, "fixed bits 46-48", "bits 46-48 are 0b100"},
    {"smem", 0x0001400000000000ull, 0, 0, 0, TC5_ERESERVED, "fixed bits 46-48", "bits 46-48 are 0b101"},
    {"smem", 0x0001800000000000ull, 0, 0, 0, TC5_ERESERVED, "fixed bits 46-48", "bits 46-48 are 0b110"},
    {"smem", 0x0001C00000000000ull, 0, 0, 0, TC5_ERESERVED, "fixed bits 46-48", "bits 46-48 are 0b111"},
    {"smem", 0x0020400000000000ull, 0, 0, 0, TC5_ERESERVED, "fixed bits 53-60", "bits 53-60 are 0x01, must be the fixed constant 0"},
    {"smem", 0x0040400000000000ull, 0, 0, 0, TC5_ERESERVED, "fixed bits 53-60", "bits 53-60 are 0x02"},
    {"smem", 0x0080400000000000ull, 0, 0, 0, TC5_ERESERVED, "fixed bits 53-60", "bits 53-60 are 0x04"},
    {"smem", 0x0100400000000000ull, 0, 0, 0, TC5_ERESERVED, "fixed bits 53-60", "bits 53-60 are 0x08"},
    {"smem", 0x0200400000000000ull, 0, 0, 0, TC5_ERESERVED, "fixed bits 53-60", "bits 53-60 are 0x10"},
    {"smem", 0x0400400000000000ull, 0, 0, 0, TC5_ERESERVED, "fixed bits 53-60", "bits 53-60 are 0x20"},
    {"smem", 0x0800400000000000ull, 0, 0, 0, TC5_ERESERVED, "fixed bits 53-60", "bits 53-60 are 0x40"},
    {"smem", 0x1000400000000000ull, 0, 0, 0, TC5_ERESERVED, "fixed bits 53-60", "bits 53-60 are 0x80"},
    {"smem", 0x0000400000004000ull, 0, 0, 0, TC5_ERESERVED, "bits 14-15", "bits 14-15 are 1"},
    {"smem", 0x0000400000008000ull, 0, 0, 0, TC5_ERESERVED, "bits 14-15", "bits 14-15 are 2"},
    {"smem", 0x000040000000C000ull, 0, 0, 0, TC5_ERESERVED, "bits 14-15", "bits 14-15 are 3"},
    {"smem", 0x0000400040000000ull, 0, 0, 0, TC5_ERESERVED, "bits 30-31", "bits 30-31 are 1"},
    {"smem", 0x0000400080000000ull, 0, 0, 0, TC5_ERESERVED, "bits 30-31", "bits 30-31 are 2"},
    {"smem", 0x00004000C0000000ull, 0, 0, 0, TC5_ERESERVED, "bits 30-31", "bits 30-31 are 3"},
    {"smem", 0x0010400000000000ull, 0, 0, 0, TC5_EILLEGAL, "leading dimension stride mode", "swizzle mode 0 (none): only 128B swizzling with 16B atomicity"},
    {"smem", 0x2010400000000000ull, 0, 0, 0, TC5_EILLEGAL, "leading dimension stride mode", "swizzle mode 1 (128B_base32B)"},
    {"smem", 0x8010400000000000ull, 0, 0, 0, TC5_EILLEGAL, "leading dimension stride mode", "swizzle mode 4 (64B)"},
    {"smem", 0xC010400000000000ull, 0, 0, 0, TC5_EILLEGAL, "leading dimension stride mode", "swizzle mode 6 (32B)"},
    {"smem", 0x4016400000000000ull, 0, 0, 0, TC5_EILLEGAL, "base offset", "base offset 3 with an absolute leading-dimension address: must be 0"},
    /* ---- zero-column mask descriptor ---- */
    {"zcmask", 1ull << 36, 0, 0, 0, TC5_ERESERVED, "reserved bits 36-38", "reserved bits 36-38 are 1, must be 0"},
    {"zcmask", 1ull << 37, 0, 0, 0, TC5_ERESERVED, "reserved bits 36-38", "reserved bits 36-38 are 2"},
    {"zcmask", 1ull << 38, 0, 0, 0, TC5_ERESERVED, "reserved bits 36-38", "reserved bits 36-38 are 4"},
    {"zcmask", 1ull << 62, 0, 0, 0, TC5_ERESERVED, "bits 62-63", "bits 62-63 are 1"},
    {"zcmask", 1ull << 63, 0, 0, 0, TC5_ERESERVED, "bits 62-63", "bits 62-63 are 2"},
    {"zcmask", 33ull << 56, 0, 0, 0, TC5_ERANGE, "column shift", "column shift 33 exceeds the maximum shift amount 32"},
    {"zcmask", 63ull << 56, 0, 0, 0, TC5_ERANGE, "column shift", "column shift 63 exceeds"},
    {"zcmask", 17ull << 56, 0, 0, 32, TC5_ERANGE, "column shift", "column shift 17 exceeds the maximum shift amount 16 for M = 32"},
    {"zcmask", 32ull << 56, 0, 0, 32, TC5_ERANGE, "column shift", "column shift 32 exceeds the maximum shift amount 16 for M = 32"},
    {"zcmask", 40ull << 56, 0, 0, 64, TC5_ERANGE, "column shift", "column shift 40 exceeds the maximum shift amount 32"},
    {"zcmask", 0, 0, 0, 48, TC5_EINVAL, "M", "M 48 has no zero-column mask"},
    /* ---- instruction descriptor: codes and reserved bits (decode) ---- */
    {"idesc", F16_OK | (1u << 6), "f16", 0, 0, TC5_ERESERVED, "reserved", "reserved bit 6 is set"},
    {"idesc", F16_OK | (1u << 23), "f16", 0, 0, TC5_ERESERVED, "reserved", "reserved bit 23 is set"},
    {"idesc", F16_OK | (1u << 29), "f16", 0, 0, TC5_ERESERVED, "reserved", "reserved bit 29 is set"},
    {"idesc", MX8_OK | 1u, "mxf8f6f4", 0, 0, TC5_ERESERVED, "reserved", "reserved bit 0 is set (Table 43"},
    {"idesc", MX8_OK | 2u, "mxf8f6f4", 0, 0, TC5_ERESERVED, "reserved", "reserved bit 1 is set"},
    {"idesc", MX8_OK | 8u, "mxf8f6f4", 0, 0, TC5_ERESERVED, "reserved", "reserved bit 3 is set"},
    {"idesc", MX8_OK | (1u << 6), "mxf8f6f4", 0, 0, TC5_ERESERVED, "reserved", "reserved bit 6 is set"},
    {"idesc", MX8_OK | (1u << 24), "mxf8f6f4", 0, 0, TC5_ERESERVED, "reserved", "reserved bit 24 is set"},
    {"idesc", MX8_OK | (1u << 25), "mxf8f6f4", 0, 0, TC5_ERESERVED, "reserved", "reserved bit 25 is set"},
    {"idesc", MX8_OK | (1u << 26), "mxf8f6f4", 0, 0, TC5_ERESERVED, "reserved", "reserved bit 26 is set"},
    {"idesc", MX8_OK | (1u << 31), "mxf8f6f4", 0, 0, TC5_ERESERVED, "reserved", "reserved bit 31 is set (Table 43"},
    {"idesc", MX4_OK | (1u << 12), "mxf4", 0, 0, TC5_ERESERVED, "reserved", "reserved bit 12 is set (Table 44"},
    {"idesc", MX4_OK | (1u << 24), "mxf4nvf4", 0, 0, TC5_ERESERVED, "reserved", "reserved bit 24 is set (Table 44"},
    {"idesc", (F16_OK & ~AT(7)) | AT(2), "f16", 0, 0, TC5_ERESERVED, "atype", "atype code 2 is not defined for .kind::f16 (Table 42: f16 = 0, bf16 = 1)"},
    {"idesc", (F16_OK & ~BT(7)) | BT(7), "f16", 0, 0, TC5_ERESERVED, "btype", "btype code 7 is not defined for .kind::f16"},
    {"idesc", (F16_OK & ~DT(3)) | DT(2), "f16", 0, 0, TC5_ERESERVED, "dtype", "dtype code 2 is not defined for .kind::f16"},
    {"idesc", (F16_OK & ~DT(3)) | DT(3), "f16", 0, 0, TC5_ERESERVED, "dtype", "dtype code 3 is not defined"},
    {"idesc", (TF32_OK & ~AT(7)) | AT(0), "tf32", 0, 0, TC5_ERESERVED, "atype", "atype code 0 is not defined for .kind::tf32 (Table 42: tf32 = 2)"},
    {"idesc", (TF32_OK & ~DT(3)), "tf32", 0, 0, TC5_ERESERVED, "dtype", "dtype code 0 is not defined for .kind::tf32 (Table 42: f32 = 1)"},
    {"idesc", (F8_OK & ~AT(7)) | AT(2), "f8f6f4", 0, 0, TC5_ERESERVED, "atype", "atype code 2 is not defined for .kind::f8f6f4"},
    {"idesc", (F8_OK & ~AT(7)) | AT(6), "f8f6f4", 0, 0, TC5_ERESERVED, "atype", "atype code 6 is not defined for .kind::f8f6f4"},
    {"idesc", (F8_OK & ~BT(7)) | BT(7), "f8f6f4", 0, 0, TC5_ERESERVED, "btype", "btype code 7 is not defined for .kind::f8f6f4"},
    {"idesc", (F8_OK & ~DT(3)) | DT(2), "f8f6f4", 0, 0, TC5_ERESERVED, "dtype", "dtype code 2 is not defined for .kind::f8f6f4"},
    {"idesc", (I8_OK & ~AT(7)) | AT(2), "i8", 0, 0, TC5_ERESERVED, "atype", "atype code 2 is not defined for .kind::i8 (Table 42: u8 = 0, s8 = 1)"},
    {"idesc", (I8_OK & ~DT(3)) | DT(1), "i8", 0, 0, TC5_ERESERVED, "dtype", "dtype code 1 is not defined for .kind::i8 (Table 42: s32 = 2)"},
    {"idesc", (MX8_OK & ~AT(7)) | AT(2), "mxf8f6f4", 0, 0, TC5_ERESERVED, "atype", "atype code 2 is not defined for .kind::mxf8f6f4 (Table 43"},
    {"idesc", (MX4_OK & ~AT(7)) | AT(0), "mxf4", 0, 0, TC5_ERESERVED, "atype", "atype code 0 is not defined for .kind::mxf4 (Table 44: e2m1 = 1)"},
    {"idesc", (MX4_OK & ~BT(3)) | BT(2), "mxf4nvf4", 0, 0, TC5_ERESERVED, "btype", "btype code 2 is not defined for .kind::mxf4nvf4"},
    /* ---- instruction descriptor: Table 39 shapes ---- */
    {"idesc", (F16_OK & ~M4(496)) | M4(32), "f16", V1("f16"), 0, TC5_EILLEGAL, "M", "M 32 is not legal for .kind::f16 cta_group::1 dense (Table 39: M = 64, 128)"},
    {"idesc", (F16_OK & ~M4(496)) | M4(256), "f16", V1("f16"), 0, TC5_EILLEGAL, "M", "M 256 is not legal for .kind::f16 cta_group::1 dense"},
    {"idesc", (F16_OK & ~M4(496)) | M4(96), "f16", V1("f16"), 0, TC5_EILLEGAL, "M", "M 96 is not legal"},
    {"idesc", (F16_OK & ~M4(496)) | M4(64), "f16", V2("f16"), 0, TC5_EILLEGAL, "M", "M 64 is not legal for .kind::f16 cta_group::2 dense (Table 39: M = 128, 256)"},
    {"idesc", (F16_OK & ~M4(496)) | M4(256), "f16", VWS("f16"), 0, TC5_EILLEGAL, "M", "M 256 is not legal for .kind::f16 .ws cta_group::1 dense (Table 39: M = 32, 64, 128)"},
    {"idesc", (F16_OK & ~N_(504)) | N_(264), "f16", V1("f16"), 0, TC5_EILLEGAL, "N", "N 264 is not legal for .kind::f16 cta_group::1 dense (Table 39: N = 8..256 step 8)"},
    {"idesc", (F16_OK & ~N_(504)), "f16", V1("f16"), 0, TC5_EILLEGAL, "N", "N 0 is not legal"},
    {"idesc", (F16_OK & ~N_(504)) | N_(24), "f16", V2("f16"), 0, TC5_EILLEGAL, "N", "N 24 is not legal for .kind::f16 cta_group::2 dense (Table 39: N = 16..256 step 16)"},
    {"idesc", (F16_OK & ~N_(504)) | N_(192), "f16", VWS("f16"), 0, TC5_EILLEGAL, "N", "N 192 is not legal for .kind::f16 .ws cta_group::1 dense (Table 39: N = 64, 128, 256)"},
    {"idesc", (F16_OK & ~N_(504)) | N_(256) | (1u << 2), "f16", "tcgen05.mma.ws.sp.cta_group::1.kind::f16", 0, TC5_EILLEGAL, "N", "N 256 is not legal for .kind::f16 .ws cta_group::1 sparse (Table 39: N = 64..128 step 64)"},
    {"idesc", (TF32_OK & ~N_(504)) | N_(504), "tf32", V1("tf32"), 0, TC5_EILLEGAL, "N", "N 504 is not legal for .kind::tf32"},
    {"idesc", (TF32_OK & ~M4(496)) | M4(16), "tf32", V1("tf32"), 0, TC5_EILLEGAL, "M", "M 16 is not legal for .kind::tf32"},
    {"idesc", (F8_OK & ~M4(496)) | M4(480), "f8f6f4", V2("f8f6f4"), 0, TC5_EILLEGAL, "M", "M 480 is not legal for .kind::f8f6f4 cta_group::2"},
    {"idesc", (I8_OK & ~N_(504)) | N_(40), "i8", V1("i8"), 0, TC5_EILLEGAL, "N", "N 40 is not legal for .kind::i8 cta_group::1 dense (Table 39: N = 8..32 step 8, 48..256 step 16)"},
    {"idesc", (I8_OK & ~N_(504)) | N_(56), "i8", V1("i8"), 0, TC5_EILLEGAL, "N", "N 56 is not legal for .kind::i8"},
    {"idesc", (I8_OK & ~N_(504)) | N_(48) | M4(128), "i8", V2("i8"), 0, TC5_EILLEGAL, "N", "N 48 is not legal for .kind::i8 cta_group::2 dense (Table 39: N = 32..256 step 32)"},
    {"idesc", (MX8_OK & ~M7(384)) | M7(256), "mxf8f6f4", V1("mxf8f6f4.block_scale"), 0, TC5_EILLEGAL, "M", "M 256 is not legal for .kind::mxf8f6f4 cta_group::1 dense (Table 39: M = 128)"},
    {"idesc", (MX8_OK & ~M7(384)) | M7(384), "mxf8f6f4", V2("mxf8f6f4.block_scale"), 0, TC5_EILLEGAL, "M", "M 384 is not legal"},
    {"idesc", (MX8_OK & ~M7(384)) | M7(128) | (1u << 2), "mxf8f6f4", "tcgen05.mma.sp.cta_group::2.kind::mxf8f6f4.block_scale", 0, TC5_EILLEGAL, "M", "M 128 is not legal for .kind::mxf8f6f4 cta_group::2 sparse (Table 39: M = 256)"},
    {"idesc", (MX4_OK & ~M7(384)), "mxf4", V1("mxf4.block_scale"), 0, TC5_EILLEGAL, "M", "M 0 is not legal for .kind::mxf4"},
    {"idesc", (MX4_OK & ~N_(504)) | N_(8), "mxf4nvf4", V2("mxf4nvf4.block_scale.block32"), 0, TC5_EILLEGAL, "N", "N 8 is not legal for .kind::mxf4nvf4 cta_group::2"},
    {"idesc", F16_OK, "f16", "tcgen05.mma.ws.cta_group::2.kind::f16", 0, TC5_EILLEGAL, "cta_group", ".ws with cta_group::2 is invalid (Table 39"},
    {"idesc", MX8_OK, "mxf8f6f4", "tcgen05.mma.ws.cta_group::1.kind::mxf8f6f4.block_scale", 0, TC5_EILLEGAL, "kind", ".ws with .kind::mxf8f6f4 is invalid (Table 39"},
    /* ---- types (Table 39) ---- */
    {"idesc", (F16_OK & ~(AT(7) | BT(7))) | AT(0) | BT(1), "f16", V1("f16"), 0, TC5_EILLEGAL, "btype", "btype bf16 differs from atype f16; .kind::f16 needs A and B of one type"},
    {"idesc", (F16_OK & ~DT(3)) | DT(0), "f16", V1("f16"), 0, TC5_EILLEGAL, "dtype", "dtype f16 with bf16 inputs"},
    /* ---- Table 42 flags, Table 49, Table 50, Table 52 ---- */
    {"idesc", F16_OK | (1u << 3), "f16", V1("f16"), 0, TC5_EILLEGAL, "saturate", "saturate set for .kind::f16"},
    {"idesc", TF32_OK | (1u << 3), "tf32", V1("tf32"), 0, TC5_EILLEGAL, "saturate", "saturate set for .kind::tf32"},
    {"idesc", F8_OK | (1u << 3), "f8f6f4", V1("f8f6f4"), 0, TC5_EILLEGAL, "saturate", "saturate set for .kind::f8f6f4"},
    {"idesc", I8_OK | (1u << 13), "i8", V1("i8"), 0, TC5_EILLEGAL, "negate A", "negate A for .kind::i8: Table 49"},
    {"idesc", I8_OK | (1u << 14), "i8", V1("i8"), 0, TC5_EILLEGAL, "negate B", "negate B for .kind::i8: Table 49"},
    {"idesc", MX4_OK | (1u << 15), "mxf4", V1("mxf4.block_scale"), 0, TC5_EILLEGAL, "transpose A", "transpose A for .kind::mxf4: Table 49"},
    {"idesc", MX4_OK | (1u << 16), "mxf4nvf4", V1("mxf4nvf4.block_scale.block32"), 0, TC5_EILLEGAL, "transpose B", "transpose B for .kind::mxf4nvf4: Table 49"},
    {"idesc", (F8_OK & ~N_(504)) | N_(8) | (1u << 16), "f8f6f4", V1("f8f6f4"), 0, TC5_EILLEGAL, "N", "N 8 with 8-bit transpose B (e5m2) and cta_group::1: Table 50 allows 16 <= N <= 256, step 16"},
    {"idesc", (F8_OK & ~N_(504)) | N_(24) | (1u << 16), "f8f6f4", V1("f8f6f4"), 0, TC5_EILLEGAL, "N", "N 24 with 8-bit transpose B"},
    {"idesc", (I8_OK & ~N_(504)) | N_(48) | (1u << 16) | M4(128), "i8", V2("i8"), 0, TC5_EILLEGAL, "N", "Table 50 allows 32 <= N <= 256, step 32"},
    /* ---- sparsity ---- */
    {"idesc", F16_OK | (1u << 2), "f16", V1("f16"), 0, TC5_EILLEGAL, "sparsity", "sparsity bit 1 but the instruction is dense"},
    {"idesc", F16_OK, "f16", "tcgen05.mma.sp.cta_group::1.kind::f16", 0, TC5_EILLEGAL, "sparsity", "sparsity bit 0 but the instruction is sparse"},
    {"idesc", F16_OK | 2u, "f16", V1("f16"), 0, TC5_EILLEGAL, "sparsity selector", "sparsity selector 2 on a dense MMA"},
    {"idesc", I8_OK | 1u | (1u << 2), "i8", "tcgen05.mma.sp.cta_group::1.kind::i8", 0, TC5_EILLEGAL, "sparsity selector", "sparsity selector 1 for .kind::i8: must be 0"},
    {"idesc", F8_OK | 3u | (1u << 2), "f8f6f4", "tcgen05.mma.sp.cta_group::1.kind::f8f6f4", 0, TC5_EILLEGAL, "sparsity selector", "sparsity selector 3 for .kind::f8f6f4: must be 0"},
    /* ---- .ws maximum shift ---- */
    {"idesc", F16_OK | (1u << 30), "f16", V1("f16"), 0, TC5_EILLEGAL, "maximum shift", "maximum shift code 1 (8 columns) without .ws"},
    {"idesc", F16_OK | (3u << 30), "f16", V2("f16"), 0, TC5_EILLEGAL, "maximum shift", "maximum shift code 3 (32 columns) without .ws"},
    /* ---- block scaling: Tables 43/44, 54, 55 ---- */
    {"idesc", MX8_OK & ~(1u << 23), "mxf8f6f4", V1("mxf8f6f4.block_scale"), 0, TC5_EILLEGAL, "scale type", "scale type 0 (ue4m3) is not valid for .kind::mxf8f6f4"},
    {"idesc", MX4_OK & ~(1u << 23), "mxf4", V1("mxf4.block_scale"), 0, TC5_EILLEGAL, "scale type", "scale type 0 (ue4m3) is not valid for .kind::mxf4"},
    {"idesc", MX4_OK & ~(1u << 23), "mxf4nvf4", V1("mxf4nvf4.block_scale.block32"), 0, TC5_EILLEGAL, "scale type", "scale type ue4m3 with block size 32 is not a valid combination for .kind::mxf4nvf4 (Table 55)"},
    {"idesc", MX4_OK | (1u << 29), "mxf4", V1("mxf4.block_scale"), 0, TC5_EILLEGAL, "A scale factor ID", "A scale factor ID 1 for .kind::mxf4: Table 44 allows 0 or 2"},
    {"idesc", MX4_OK | (3u << 4), "mxf4", V1("mxf4.block_scale"), 0, TC5_EILLEGAL, "B scale factor ID", "B scale factor ID 3 for .kind::mxf4: Table 44 allows 0 or 2"},
    {"idesc", MX4_OK | (2u << 29), "mxf4nvf4", V1("mxf4nvf4.block_scale.block16"), 0, TC5_EILLEGAL, "A scale factor ID", "A scale factor ID 2 with .scale_vec::4X/.block16: must be 0"},
    {"idesc", MX4_OK | (2u << 4), "mxf4nvf4", V1("mxf4nvf4.block_scale.scale_vec::4X"), 0, TC5_EILLEGAL, "B scale factor ID", "B scale factor ID 2 with .scale_vec::4X/.block16: must be 0"},
    {"idesc", MX4_OK | (1u << 31) | M7(256), "mxf4nvf4", V2("mxf4nvf4.block_scale.block32"), 0, TC5_EILLEGAL, "K dimension", "K = 96 (bit 31) is supported on sm_103a only, not sm_100a"},
    {"idesc", MX4_OK | (1u << 31), "mxf4", V1("mxf4.block_scale"), 0, TC5_EILLEGAL, "K dimension", "K = 96 is not available for .kind::mxf4 cta_group::1 dense"},
    {"idesc", MX4_OK | (1u << 31) | (1u << 2) | M7(256), "mxf4", "tcgen05.mma.sp.cta_group::2.kind::mxf4.block_scale", 0, TC5_EILLEGAL, "K dimension", "K = 96 with sparsity"},
    {"idesc", MX4_OK | (1u << 31) | M7(256), "mxf4nvf4", V2("mxf4nvf4.block_scale.scale_vec::2X"), 0, TC5_EILLEGAL, "K dimension", "K = 96 with .scale_vec::2X"},
    /* ---- variants alone ---- */
    {"variant", 0, 0, "tcgen05.mma.cta_group::1.kind::mxf8f6f4", 0, TC5_EILLEGAL, "block_scale", ".kind::mxf8f6f4 requires .block_scale"},
    {"variant", 0, 0, "tcgen05.mma.cta_group::1.kind::f16.block_scale", 0, TC5_EILLEGAL, "block_scale", ".block_scale is only for .kind::mxf8f6f4, mxf4 and mxf4nvf4, not .kind::f16"},
    {"variant", 0, 0, "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale", 0, TC5_EILLEGAL, "scale_vectorsize", ".kind::mxf4nvf4 requires an explicit .scale_vectorsize"},
    {"variant", 0, 0, "tcgen05.mma.cta_group::1.kind::mxf4.block_scale.block16", 0, TC5_EILLEGAL, "scale_vectorsize", ".block16 is not valid for .kind::mxf4 (Table 55)"},
    {"variant", 0, 0, "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::2X", 0, TC5_EILLEGAL, "scale_vectorsize", ".scale_vec::2X is not valid for .kind::mxf8f6f4 (Table 54)"},
    {"variant", 0, 0, "tcgen05.mma.cta_group::1.kind::mxf4.block_scale.scale_vec::4X", 0, TC5_EILLEGAL, "scale_vectorsize", ".scale_vec::4X is not valid for .kind::mxf4"},
    {"variant", 0, 0, "tcgen05.mma.cta_group::1.kind::f16.block16", 0, TC5_EILLEGAL, "scale_vectorsize", "a scale vector size needs a block-scaled kind, not .kind::f16"},
    {"variant", 0, 0, "tcgen05.mma.cta_group::1.kind::f16.ashift.collector::a::fill", 0, TC5_EILLEGAL, "collector_usage", ".collector::a::fill with .ashift is illegal"},
    {"variant", 0, 0, "tcgen05.mma.cta_group::1.kind::f16.ashift.collector::a::use", 0, TC5_EILLEGAL, "collector_usage", ".collector::a::use with .ashift is illegal"},
    {"variant", 0, 0, "tcgen05.mma.ws.cta_group::1.kind::f16.collector::a::fill", 0, TC5_EILLEGAL, "collector_usage", "tcgen05.mma.ws uses collector buffers b0..b3, not ::a"},
    {"variant", 0, 0, "tcgen05.mma.cta_group::1.kind::f16.collector::b1::use", 0, TC5_EILLEGAL, "collector_usage", "collector buffer ::b1 belongs to tcgen05.mma.ws"},
    {"variant", 0, 0, "tcgen05.mma.ws.cta_group::1.kind::tf32.ashift", 0, TC5_EILLEGAL, "ashift", ".ashift is not part of tcgen05.mma.ws"},
    {"variant", 0, 0, "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16.scale_vec::4X", 0, TC5_EILLEGAL, "scale_vectorsize", "give one of .scale_vec::NX and .blockN, not both"},
    {"variant", 0, 0, "tcgen05.mma.cta_group::1.kind::f32", 0, TC5_EPARSE, "qualifier", "unknown qualifier '.kind::f32'"},
    {"variant", 0, 0, "tcgen05.mma.kind::f16", 0, TC5_EPARSE, "cta_group", ".cta_group is mandatory"},
    {"variant", 0, 0, "tcgen05.mma.cta_group::1", 0, TC5_EPARSE, "kind", ".kind is mandatory"},
    {"variant", 0, 0, "tcgen05.cp.cta_group::1.128x256b", 0, TC5_EPARSE, "opcode", "is not a tcgen05.mma instruction"},
    {"variant", 0, 0, "wgmma.mma_async", 0, TC5_EPARSE, "opcode", "does not start with tcgen05.mma"},
};

/* Transposed 4-bit and 6-bit A/B with .kind::f8f6f4 and .kind::mxf8f6f4: Table 52
 * lists none, CUTLASS (all four layouts, unit-tested) and Triton 3.9 (fp4 packed
 * along N, B200) run them (docs/spec-departures.md); accepted. */
static void test_transposed_f4f6(void **state) {
  (void)state;
  static const struct { uint32_t raw; const char *kind, *variant; } ok[] = {
      {(F8_OK & ~AT(7)) | AT(5) | (1u << 15), "f8f6f4", V1("f8f6f4")},
      {(F8_OK & ~BT(7)) | BT(3) | (1u << 16), "f8f6f4", V1("f8f6f4")},
      {(MX8_OK & ~BT(7)) | BT(4) | (1u << 16), "mxf8f6f4", V1("mxf8f6f4.block_scale")},
      {(MX8_OK & ~BT(7)) | BT(5) | (1u << 15) | (1u << 16), "mxf8f6f4", V1("mxf8f6f4.block_scale")},
  };
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    tc5_kind k;
    assert_int_equal(tc5_kind_parse(ok[i].kind, &k), TC5_OK);
    tc5_idesc d;
    assert_int_equal(tc5_idesc_decode(ok[i].raw, k, &d, NULL), TC5_OK);
    tc5_mma_variant v;
    assert_int_equal(tc5_mma_variant_parse(ok[i].variant, &v, NULL), TC5_OK);
    tc5_diag dg;
    tc5_diag_init(&dg);
    if (tc5_idesc_check(&d, &v, &dg) != TC5_OK) fail_msg("0x%08x %s: %s", ok[i].raw, ok[i].variant, dg.issue[0].message);
  }
}

static void check_case(const bad_case *c) {
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_status st = TC5_OK;
  if (!strcmp(c->what, "smem")) {
    tc5_smem_desc d;
    st = tc5_smem_desc_decode(c->raw, &d, &dg);
    /* the same value must be refused by encode */
    uint64_t raw;
    assert_int_not_equal(tc5_smem_desc_encode(&d, &raw, NULL), TC5_OK);
  } else if (!strcmp(c->what, "zcmask")) {
    tc5_zcmask_desc d;
    st = tc5_zcmask_desc_decode(c->raw, &d, c->m ? NULL : &dg);
    if (c->m) st = tc5_zcmask_desc_check(&d, c->m, &dg);
  } else if (!strcmp(c->what, "idesc")) {
    tc5_kind k;
    assert_int_equal(tc5_kind_parse(c->kind, &k), TC5_OK);
    tc5_idesc d;
    if (!c->variant) {
      st = tc5_idesc_decode((uint32_t)c->raw, k, &d, &dg);
      uint32_t raw;
      assert_int_not_equal(tc5_idesc_encode(&d, &raw, NULL), TC5_OK);
    } else {
      tc5_idesc_decode((uint32_t)c->raw, k, &d, NULL);
      tc5_mma_variant v;
      tc5_status ps = tc5_mma_variant_parse(c->variant, &v, NULL);
      if (ps == TC5_EPARSE) fail_msg("cannot parse %s", c->variant);
      st = tc5_idesc_check(&d, &v, &dg);
    }
  } else {
    tc5_mma_variant v;
    st = tc5_mma_variant_parse(c->variant, &v, &dg);
  }
  if (st == TC5_OK) fail_msg("%s 0x%llx %s: accepted, expected '%s'", c->what,
                             (unsigned long long)c->raw, c->variant ? c->variant : "", c->message);
  for (unsigned i = 0; i < dg.count; i++) {
    const tc5_issue *is = &dg.issue[i];
    if (is->status == c->status && !strcmp(is->field, c->field) && strstr(is->message, c->message))
      return;
  }
  for (unsigned i = 0; i < dg.count; i++)
    print_error("  got: [%s] %s: %s\n", tc5_status_name(dg.issue[i].status), dg.issue[i].field,
                dg.issue[i].message);
  fail_msg("%s 0x%llx %s: no issue [%s] %s containing '%s'", c->what, (unsigned long long)c->raw,
           c->variant ? c->variant : "", tc5_status_name(c->status), c->field, c->message);
}

static void test_illegal_descriptors(void **state) {
  (void)state;
  size_t n = sizeof cases / sizeof cases[0];
  assert_true(n >= 100);
  for (size_t i = 0; i < n; i++) check_case(&cases[i]);
}

/* Encode rejects struct values that cannot be represented. */
static void test_encode_rejects(void **state) {
  (void)state;
  tc5_diag dg;
  uint64_t raw;
  uint32_t r32;
  tc5_smem_desc s;
  tc5_smem_desc_init(&s);
  s.start_address = 8;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_smem_desc_encode(&s, &raw, &dg), TC5_EALIGN);
  assert_non_null(strstr(dg.issue[0].message, "start address 8 (0x8) is not 16-byte aligned"));
  s.start_address = 1u << 18;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_smem_desc_encode(&s, &raw, &dg), TC5_ERANGE);
  assert_non_null(strstr(dg.issue[0].message, "outside the 18-bit window"));
  s.start_address = 0;
  s.lbo = 24;
  s.sbo = 1u << 20;
  tc5_diag_init(&dg);
  assert_int_not_equal(tc5_smem_desc_encode(&s, &raw, &dg), TC5_OK);
  assert_int_equal(dg.count, 2);
  assert_non_null(strstr(dg.issue[0].message, "leading dimension byte offset 24"));
  assert_non_null(strstr(dg.issue[1].message, "stride dimension byte offset 1048576"));
  s.lbo = s.sbo = 0;
  s.base_offset = 8;
  s.swizzle = 2;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_smem_desc_encode(&s, &raw, &dg), TC5_ERANGE);
  assert_non_null(strstr(dg.issue[0].message, "base offset 8 does not fit bits 49-51"));
  s.base_offset = 0;
  s.swizzle = 9;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_smem_desc_encode(&s, &raw, &dg), TC5_ERANGE);
  s.swizzle = 0;
  s.lbo_mode = 2;
  assert_int_equal(tc5_smem_desc_encode(&s, &raw, NULL), TC5_ERANGE);

  tc5_idesc d;
  tc5_idesc_init(&d, TC5_KIND_F16);
  d.n = 100;
  d.m = 128;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_idesc_encode(&d, &r32, &dg), TC5_EALIGN);
  assert_non_null(strstr(dg.issue[0].message, "N 100 is not a multiple of 8 (Table 42 stores N >> 3 in bits 17-22)"));
  d.n = 512;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_idesc_encode(&d, &r32, &dg), TC5_ERANGE);
  assert_non_null(strstr(dg.issue[0].message, "N 512 does not fit bits 17-22"));
  d.n = 64;
  d.m = 72;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_idesc_encode(&d, &r32, &dg), TC5_EALIGN);
  tc5_idesc_init(&d, TC5_KIND_MXF4);
  d.atype = d.btype = 1;
  d.m = 192;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_idesc_encode(&d, &r32, &dg), TC5_EALIGN);
  assert_non_null(strstr(dg.issue[0].message, "M 192 is not a multiple of 128 (Table 44 stores M >> 7"));
  d.m = 128;
  d.saturate = 1;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_idesc_encode(&d, &r32, &dg), TC5_EILLEGAL);
  assert_non_null(strstr(dg.issue[0].message, "Table 44 (.kind::mxf4) has no saturate field"));
  d.saturate = 0;
  d.sfa_id = 4;
  assert_int_equal(tc5_idesc_encode(&d, &r32, NULL), TC5_ERANGE);
  d.sfa_id = 0;
  d.reserved_bits = 1u << 12;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_idesc_encode(&d, &r32, &dg), TC5_ERESERVED);
  d.reserved_bits = 1u << 7; /* not a reserved position */
  assert_int_equal(tc5_idesc_encode(&d, &r32, NULL), TC5_EINVAL);
  d.kind = TC5_KIND_COUNT;
  assert_int_equal(tc5_idesc_encode(&d, &r32, NULL), TC5_EINVAL);
  assert_int_equal(tc5_idesc_decode(0, TC5_KIND_COUNT, &d, NULL), TC5_EINVAL);

  tc5_zcmask_desc z;
  tc5_zcmask_desc_init(&z);
  z.first_span[2] = 2;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_zcmask_desc_encode(&z, &raw, &dg), TC5_ERANGE);
  assert_non_null(strstr(dg.issue[0].message, "first span fs2 2 is not 0 or 1 (bit 34)"));
  z.first_span[2] = 0;
  z.non_zero = 3;
  assert_int_equal(tc5_zcmask_desc_encode(&z, &raw, NULL), TC5_ERANGE);
  z.non_zero = 1;
  z.column_shift = 64;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_zcmask_desc_encode(&z, &raw, &dg), TC5_ERANGE);
  assert_non_null(strstr(dg.issue[0].message, "column shift 64 does not fit bits 56-61"));
}

/* A base offset without swizzling is accepted (it has no effect there):
 * Triton 3.9's tutorial 10 issues tcgen05.cp with such descriptors and runs
 * on B200s (docs/spec-departures.md). */
static void test_base_offset_without_swizzle(void **state) {
  (void)state;
  for (unsigned bo = 1; bo < 8; bo++) {
    tc5_smem_desc d;
    tc5_diag dg;
    tc5_diag_init(&dg);
    assert_int_equal(tc5_smem_desc_decode(0x0000400000000000ull | (uint64_t)bo << 49, &d, &dg), TC5_OK);
    assert_int_equal(d.base_offset, bo);
    assert_int_equal(tc5_smem_desc_check(&d, &dg), TC5_OK);
  }
}

/* Legal examples from real kernels pass the legality check. */
static void test_legal_examples(void **state) {
  (void)state;
  static const struct {
    uint32_t raw;
    const char *variant;
  } ok[] = {
      {0x08200490, V1("f16")},
      {0x10400490, V2("f16")},
      {0x02100010, VWS("f16")},
      {(0x82100010u & ~(1u << 31)) | (2u << 30), VWS("f16")}, /* max shift 2 */
      {TF32_OK | (1u << 15), V1("tf32")},
      {I8_OK, V1("i8")},
      {I8_OK | (1u << 3), V1("i8")}, /* saturate on i8 */
      {0x08c00000, V1("mxf8f6f4.block_scale")},
      {0x68c00010, V1("mxf8f6f4.block_scale.block32")},
      {0x08200480, V1("mxf4nvf4.block_scale.block16")},
      {0x50c004a0, V2("mxf4.block_scale")},
      {0x289111a4 & ~(1u << 16), "tcgen05.mma.sp.cta_group::1.kind::mxf8f6f4.block_scale"},
  };
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    tc5_mma_variant v;
    assert_int_equal(tc5_mma_variant_parse(ok[i].variant, &v, NULL), TC5_OK);
    tc5_idesc d;
    tc5_diag dg;
    tc5_diag_init(&dg);
    tc5_idesc_decode(ok[i].raw, v.kind, &d, NULL);
    if (tc5_idesc_check(&d, &v, &dg) != TC5_OK)
      fail_msg("0x%08x %s: %s", ok[i].raw, ok[i].variant, dg.issue[0].message);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table39_sweep),
      cmocka_unit_test(test_k96), cmocka_unit_test(test_transposed_f4f6),
      cmocka_unit_test(test_illegal_descriptors),
      cmocka_unit_test(test_encode_rejects),
      cmocka_unit_test(test_legal_examples),
      cmocka_unit_test(test_base_offset_without_swizzle),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
