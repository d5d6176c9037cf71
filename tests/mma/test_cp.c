/* tc5 tests — tcgen05.cp and tcgen05.shift (9.7.16.9): for every shape x
 * decompression x CTA group x swizzle, the Tensor Memory image of random
 * data equals the test's own statement of the shape's mapping (CUTLASS
 * copy_traits_sm100.hpp, SM100_UTCCP_*) and of the decompression (9.7.16.9.1);
 * round trips through tcgen05.ld; the order with MMAs; every rule. */
#include "testutil.h"

#include "tc5/cp.h"
#include "tc5/layout.h"
#include "tc5/mma.h"
#include "tc5/sync.h"
#include "mma/mma_world.h"

/* the CTA pair, all its Tensor Memory allocated (cta_group::cg) */
static void cp_world(world *w, unsigned cg) {
  world_init(w, 64 * 1024);
  alloc_all(w, cg);
}

/* the shapes in the test's own words: source rows, bytes a row, and the
 * lanes of row r (CUTLASS SM100_UTCCP_* ValID) */
static const struct {
  const char *text;
  unsigned rows, bytes, nrep;
} S[] = {
    {"128x256b", 128, 32, 1}, {"4x256b", 4, 32, 1}, {"128x128b", 128, 16, 1},
    {"64x128b.warpx2::02_13", 64, 16, 2}, {"64x128b.warpx2::01_23", 64, 16, 2}, {"32x128b.warpx4", 32, 16, 4},
};
static unsigned lane_of(unsigned shape, unsigned r, unsigned q) {
  switch (shape) {
    case 0: case 2: return r;                         /* 128 lanes, one row each          */
    case 1: return 32 * r;                            /* 4 rows: first lane of each warp  */
    case 3: return r + 64 * q;                        /* warps 0,2 get 0-31; 1,3 32-63   */
    case 4: return r < 32 ? r + 32 * q : 64 + (r - 32) + 32 * q; /* warps 0,1 rows 0-31; 2,3 rows 32-63 */
    default: return r + 32 * q;                       /* all four warps the same 32 rows  */
  }
}

/* 9.7.16.9.1: 16 elements of w bits packed from bit 0 of the 16 source
 * bytes; fp6 to bits [5:0] of its container, fp4 to bits [5:2] */
static void decompress(unsigned w, const uint8_t *src, uint8_t *dst) {
  for (unsigned i = 0; i < 16; i++) {
    unsigned bit = w * i, v = 0;
    for (unsigned b = 0; b < w; b++) v |= (unsigned)(src[(bit + b) / 8] >> ((bit + b) % 8) & 1) << b;
    dst[i] = (uint8_t)(w == 4 ? v << 2 : v);
  }
}

static unsigned n_images;

static void one(unsigned shape, int fmt, unsigned cg, tc5_swizzle sw, rng *g) {
  char text[128];
  snprintf(text, sizeof text, "tcgen05.cp.cta_group::%u.%s%s", cg, S[shape].text,
           fmt == 0 ? "" : fmt == 1 ? ".b8x16.b6x16_p32" : ".b8x16.b4x16_p64");
  tc5_cp_args a;
  tc5_diag dg;
  tc5_diag_init(&dg);
  if (tc5_cp_parse(text, &a, &dg)) fail_msg("%s: %s", text, dg.issue[0].message);
  unsigned rows = S[shape].rows, bytes = S[shape].bytes;
  world w;
  cp_world(&w, cg);
  uint8_t src[2][128 * 32];
  tc5_operand op;
  tc5_operand_for(TC5_KIND_F8F6F4, TC5_E4M3, TC5_MAJOR_K, &op);
  for (unsigned c = 0; c < cg; c++) {
    uint32_t codes[128 * 32];
    for (unsigned i = 0; i < rows * bytes; i++) codes[i] = src[c][i] = (uint8_t)rng_next(g);
    tc5_smem_desc sd;
    assert_int_equal(tc5_layout_scatter(&w.s[c], 4096, sw, &op, rows, bytes, codes, &sd, NULL), TC5_OK);
    assert_int_equal(tc5_smem_desc_encode(&sd, &a.sdesc, NULL), TC5_OK);
  }
  uint32_t lane0 = shape == 1 ? (uint32_t)rng_below(g, 32) : 0, col0 = 8 * (uint32_t)rng_below(g, 60);
  a.taddr = TC5_TMEM_ADDR(lane0, col0);
  tc5_diag_init(&dg);
  if (tc5_cp(w.c, cg, &a, &dg)) fail_msg("%s: %s", text, dg.count ? dg.issue[0].message : "?");
  for (unsigned c = 0; c < cg; c++) {
    /* the expected image: every other cell stays unwritten */
    static uint32_t want[128][512];
    static bool has[128][512];
    memset(has, 0, sizeof has);
    for (unsigned r = 0; r < rows; r++) {
      uint8_t row[32];
      memcpy(row, src[c] + r * bytes, bytes);
      for (unsigned b = 0; fmt && b < bytes; b += 16) {
        uint8_t o[16];
        decompress(fmt == 1 ? 6 : 4, row + b, o);
        memcpy(row + b, o, 16);
      }
      for (unsigned q = 0; q < S[shape].nrep; q++)
        for (unsigned j = 0; j < bytes / 4; j++) {
          unsigned l = lane0 + lane_of(shape, r, q);
          want[l][col0 + j] = (uint32_t)row[4 * j] | (uint32_t)row[4 * j + 1] << 8 | (uint32_t)row[4 * j + 2] << 16 |
                              (uint32_t)row[4 * j + 3] << 24;
          has[l][col0 + j] = true;
        }
    }
    for (unsigned l = 0; l < 128; l++)
      for (unsigned col = 0; col < 512; col++) {
        uint32_t v;
        bool wr;
        tc5_tmem_peek(&w.t[c], l, col, &v, &wr);
        if (wr != has[l][col] || (wr && v != want[l][col]))
          fail_msg("%s sw %d CTA %u: lane %u column %u: %s 0x%08x, expected %s 0x%08x", text, sw, c, l, col,
                   wr ? "written" : "unwritten", v, has[l][col] ? "written" : "unwritten", want[l][col]);
      }
    /* round trip: each warp loads its lane quarter with tcgen05.ld.32x32b */
    if (!fmt && rows == 128) {
      tc5_tmem_ldst ld = {TC5_TMEM_32x32b, bytes / 4, false, 0, TC5_TMEM_RED_NONE, TC5_TMEM_RED_F32, false, false};
      uint32_t regs[32 * 8];
      for (uint32_t wq = 0; wq < 4; wq++) {
        assert_int_equal(tc5_tmem_ld(&w.t[c], &ld, wq, TC5_TMEM_ADDR(32 * wq, col0), regs, NULL, NULL), TC5_OK);
        for (unsigned t = 0; t < 32; t++)
          assert_memory_equal(&regs[t * (bytes / 4)], src[c] + (32 * wq + t) * bytes, bytes);
      }
    }
  }
  n_images++;
  world_free(&w);
}

static void test_shapes(void **state) {
  (void)state;
  rng g;
  rng_seed(&g, 0xc0);
  const tc5_swizzle sws[] = {TC5_SWIZZLE_NONE, TC5_SWIZZLE_32B, TC5_SWIZZLE_64B, TC5_SWIZZLE_128B};
  for (unsigned s = 0; s < 6; s++)
    for (int fmt = 0; fmt < 3; fmt++)
      for (unsigned cg = 1; cg <= 2; cg++)
        for (int k = 0; k < 4; k++) one(s, fmt, cg, sws[k], &g);
  print_message("%u tcgen05.cp images equal the shapes' mappings\n", n_images);
  assert_int_equal(n_images, 6 * 3 * 2 * 4);
}

static void test_lanes(void **state) {
  (void)state;
  for (unsigned s = 0; s < TC5_CP_SHAPE_COUNT; s++) {
    const tc5_cp_shape_info *i = tc5_cp_shape_get((tc5_cp_shape)s);
    assert_non_null(i);
    assert_int_equal(i->rows, S[s].rows);
    assert_int_equal(i->bits, 8 * S[s].bytes);
    assert_int_equal(i->replicas, S[s].nrep);
    for (unsigned r = 0; r < i->rows; r++)
      for (unsigned q = 0; q < i->replicas; q++) {
        uint32_t l;
        assert_int_equal(tc5_cp_lane((tc5_cp_shape)s, r, q, &l), TC5_OK);
        assert_int_equal(l, lane_of(s, r, q));
      }
  }
  uint32_t l;
  assert_int_equal(tc5_cp_lane(TC5_CP_4x256b, 4, 0, &l), TC5_EINVAL);
  assert_int_equal(tc5_cp_lane(TC5_CP_SHAPE_COUNT, 0, 0, &l), TC5_EINVAL);
  assert_null(tc5_cp_shape_get(TC5_CP_SHAPE_COUNT));
}

static void parse_err(const char *text, tc5_status want, const char *msg) {
  tc5_cp_args a;
  tc5_diag dg;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_cp_parse(text, &a, &dg), want);
  bool found = false;
  for (unsigned i = 0; i < dg.count; i++) found |= strstr(dg.issue[i].message, msg) != NULL;
  if (!found) fail_msg("%s: no message with '%s' (%s)", text, msg, dg.count ? dg.issue[0].message : "none");
}

static void test_rules(void **state) {
  (void)state;
  parse_err("tcgen05.cp.cta_group::1.64x128b", TC5_EILLEGAL, ".64x128b requires .warpx2::02_13 or .warpx2::01_23");
  parse_err("tcgen05.cp.cta_group::1.32x128b.warpx2::01_23", TC5_EILLEGAL, ".32x128b requires .warpx4");
  parse_err("tcgen05.cp.cta_group::1.128x256b.warpx4", TC5_EILLEGAL, "takes no multicast qualifier");
  parse_err("tcgen05.cp.cta_group::1.128x256b.b8x16", TC5_EILLEGAL, "needs both .dst_fmt");
  parse_err("tcgen05.cp.cta_group::1.128x256b.b6x16_p32", TC5_EILLEGAL, "needs both .dst_fmt");
  parse_err("tcgen05.cp.cta_group::3.128x256b", TC5_EPARSE, "needs .cta_group::1 or ::2");
  parse_err("tcgen05.cp.cta_group::1.128x512b", TC5_EPARSE, "unknown qualifier .128x512b");
  parse_err("tcgen05.cp.cta_group::1", TC5_EPARSE, "has no .shape");
  parse_err("tcgen05.mma.cta_group::1", TC5_EPARSE, "is not tcgen05.cp");
  tc5_cp_args a;
  assert_int_equal(tc5_cp_parse("tcgen05.cp.cta_group::2.64x128b.warpx2::01_23.b8x16.b4x16_p64", &a, NULL), TC5_OK);
  assert_true(a.cta_group == 2 && a.shape == TC5_CP_64x128b_WARPX2_01_23 && a.decompress && a.src_fmt == TC5_CP_B4X16_P64);

  world w;
  cp_world(&w, 1);
  assert_int_equal(tc5_cp_parse("tcgen05.cp.cta_group::1.128x256b", &a, NULL), TC5_OK);
  tc5_operand op;
  tc5_operand_for(TC5_KIND_F8F6F4, TC5_E4M3, TC5_MAJOR_K, &op);
  uint32_t z[128 * 32] = {0};
  tc5_smem_desc sd;
  assert_int_equal(tc5_layout_scatter(&w.s[0], 0, TC5_SWIZZLE_128B, &op, 128, 32, z, &sd, NULL), TC5_OK);
  assert_int_equal(tc5_smem_desc_encode(&sd, &a.sdesc, NULL), TC5_OK);
  tc5_diag dg;
  /* columns past the allocation */
  tc5_tmem_dealloc(&w.t[0], 0, 512, NULL);
  uint32_t taddr;
  assert_int_equal(tc5_tmem_alloc(&w.t[0], 32, &taddr, NULL), TC5_OK);
  a.taddr = TC5_TMEM_ADDR(0, 28);
  tc5_diag_init(&dg);
  assert_int_equal(tc5_cp(w.c, 1, &a, &dg), TC5_ESTATE); /* not allocated */
  assert_non_null(strstr(dg.issue[0].message, "tcgen05.cp.128x256b"));
  /* lanes past 128 */
  a.taddr = TC5_TMEM_ADDR(32, 0);
  assert_int_equal(tc5_cp(w.c, 1, &a, NULL), TC5_EBOUNDS);
  /* the CTA group: two CTAs for ::1, then a ::2 after ::1 */
  a.taddr = 0;
  assert_int_equal(tc5_cp(w.c, 2, &a, NULL), TC5_EINVAL);
  assert_int_equal(tc5_cp(w.c, 1, &a, NULL), TC5_OK);
  tc5_cp_args b = a;
  b.cta_group = 2;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_cp(w.c, 2, &b, &dg), TC5_EILLEGAL);
  /* a descriptor whose fixed bits are wrong (0b010); 0b000, Triton 3.3-3.5's,
   * reads as 0b001 (issue 52, docs/spec-departures.md) */
  uint64_t good = a.sdesc;
  a.sdesc = (good & ~(7ull << 46)) | 2ull << 46;
  tc5_diag_init(&dg);
  assert_int_not_equal(tc5_cp(w.c, 1, &a, &dg), TC5_OK);
  a.sdesc = good & ~(7ull << 46);
  assert_int_equal(tc5_cp(w.c, 1, &a, NULL), TC5_OK);
  a.sdesc = good;
  /* shift: lane alignment and range */
  tc5_diag_init(&dg);
  assert_int_equal(tc5_shift(w.c, 1, 1, TC5_TMEM_ADDR(16, 0), &dg), TC5_EALIGN);
  assert_non_null(strstr(dg.issue[0].message, "aligned to 32"));
  assert_int_equal(tc5_shift(w.c, 1, 1, TC5_TMEM_ADDR(0, 28), NULL), TC5_ESTATE);
  assert_int_equal(tc5_shift(w.c, 1, 1, TC5_TMEM_ADDR(96, 24), NULL), TC5_OK);
  world_free(&w);
}

static void test_shift(void **state) {
  (void)state;
  rng g;
  rng_seed(&g, 0x5f);
  world w;
  cp_world(&w, 1);
  static uint32_t before[128][512];
  for (unsigned l = 0; l < 128; l++)
    for (unsigned c = 0; c < 512; c++) tc5_tmem_poke(&w.t[0], l, c, before[l][c] = (uint32_t)rng_next(&g));
  assert_int_equal(tc5_shift(w.c, 1, 1, TC5_TMEM_ADDR(64, 40), NULL), TC5_OK);
  for (unsigned l = 0; l < 128; l++)
    for (unsigned c = 0; c < 512; c++) {
      uint32_t v;
      tc5_tmem_peek(&w.t[0], l, c, &v, NULL);
      bool in = l > 64 && l < 96 && c >= 40 && c < 48; /* rows 1..31 get the row above */
      assert_int_equal(v, in ? before[l - 1][c] : before[l][c]);
    }
  world_free(&w);
}

/* order with MMAs: a cp into the D of a pending MMA lands after it; an MMA
 * issued after a cp reads what the cp wrote (A in Tensor Memory) */
static void test_order(void **state) {
  (void)state;
  world w;
  cp_world(&w, 1);
  tc5_operand opb, op8;
  tc5_operand_for(TC5_KIND_F8F6F4, TC5_E4M3, TC5_MAJOR_K, &op8);
  tc5_operand_for(TC5_KIND_F8F6F4, TC5_E4M3, TC5_MAJOR_K, &opb);
  uint32_t ones[128 * 32], two[128 * 32];
  for (unsigned i = 0; i < 128 * 32; i++) ones[i] = 0x38, two[i] = 0x40; /* e4m3 1.0, 2.0 */
  tc5_smem_desc sa, sb, sc;
  assert_int_equal(tc5_layout_scatter(&w.s[0], 0, TC5_SWIZZLE_128B, &op8, 128, 32, ones, &sa, NULL), TC5_OK);
  assert_int_equal(tc5_layout_scatter(&w.s[0], 16384, TC5_SWIZZLE_128B, &opb, 64, 32, ones, &sb, NULL), TC5_OK);
  assert_int_equal(tc5_layout_scatter(&w.s[0], 32768, TC5_SWIZZLE_128B, &op8, 128, 32, two, &sc, NULL), TC5_OK);
  tc5_mma_args m;
  tc5_mma_args_init(&m, TC5_KIND_F8F6F4);
  tc5_idesc d;
  tc5_idesc_init(&d, TC5_KIND_F8F6F4);
  tc5_idesc_set_types(&d, TC5_E4M3, TC5_E4M3, TC5_F32);
  d.m = 128, d.n = 64;
  assert_int_equal(tc5_idesc_encode(&d, &m.idesc, NULL), TC5_OK);
  assert_int_equal(tc5_smem_desc_encode(&sa, &m.a_desc, NULL), TC5_OK);
  assert_int_equal(tc5_smem_desc_encode(&sb, &m.b_desc, NULL), TC5_OK);
  m.enable_input_d = false;
  m.d_tmem = 0;
  assert_int_equal(tc5_mma_issue(w.c, 1, &m, NULL), TC5_OK); /* D = 32.0 in columns 0..63 */
  tc5_cp_args a;
  assert_int_equal(tc5_cp_parse("tcgen05.cp.cta_group::1.128x256b", &a, NULL), TC5_OK);
  assert_int_equal(tc5_smem_desc_encode(&sc, &a.sdesc, NULL), TC5_OK);
  a.taddr = 8; /* columns 8..15: inside the pending MMA's D */
  assert_int_equal(tc5_cp(w.c, 1, &a, NULL), TC5_OK);
  unsigned pending;
  assert_int_equal(tc5_mma_pending(&w.c[0], &pending), TC5_OK);
  assert_int_equal(pending, 0); /* completed first */
  uint32_t v;
  tc5_tmem_peek(&w.t[0], 5, 9, &v, NULL);
  assert_int_equal(v, 0x40404040u);
  tc5_tmem_peek(&w.t[0], 5, 16, &v, NULL);
  assert_int_equal(v, 0x42000000u); /* 32.0f */
  /* A in Tensor Memory from the cp (columns 64..71, all 2.0): an MMA issued
   * after it reads it */
  a.taddr = 64;
  assert_int_equal(tc5_cp(w.c, 1, &a, NULL), TC5_OK);
  m.a_in_tmem = true, m.a_tmem = 64, m.d_tmem = 128;
  assert_int_equal(tc5_mma_issue(w.c, 1, &m, NULL), TC5_OK);
  a.taddr = 64; /* overwritten after the issue: the MMA read 2.0 already */
  a.sdesc = 0;
  assert_int_equal(tc5_smem_desc_encode(&sa, &a.sdesc, NULL), TC5_OK);
  assert_int_equal(tc5_cp(w.c, 1, &a, NULL), TC5_OK);
  tc5_mbarrier mb, *mbp = &mb;
  tc5_mbarrier_init(&mb, 1, NULL);
  assert_int_equal(tc5_commit(&w.c[0], 1, &mbp, 1, NULL), TC5_OK);
  tc5_tmem_peek(&w.t[0], 100, 130, &v, NULL);
  assert_int_equal(v, 0x42800000u); /* 64.0f = 32 x 2.0 x 1.0 */
  world_free(&w);
}

/* tc5_cp_sf_source + tcgen05.cp.32x128b.warpx4 leave the scale factors
 * where tcgen05.mma reads them (tc5_mma_sf_cell) */
static void test_sf_source(void **state) {
  (void)state;
  world w;
  cp_world(&w, 1);
  uint32_t sc[128 * 6], src[32 * 16];
  for (unsigned i = 0; i < 128 * 6; i++) sc[i] = (i * 37 + 11) & 0xFF;
  assert_int_equal(tc5_cp_sf_source(NULL, 6, 1, 0, 6, src), TC5_EINVAL);
  tc5_cp_args a;
  assert_int_equal(tc5_cp_parse("tcgen05.cp.cta_group::1.32x128b.warpx4", &a, NULL), TC5_OK);
  tc5_operand op;
  tc5_operand_for(TC5_KIND_F8F6F4, TC5_E4M3, TC5_MAJOR_K, &op);
  for (unsigned wd = 0; wd < 2; wd++) { /* scales 0-3, then 4-5 and two zeros */
    assert_int_equal(tc5_cp_sf_source(sc, 6, 1, wd, 6, src), TC5_OK);
    tc5_smem_desc sd;
    assert_int_equal(tc5_layout_scatter(&w.s[0], 0, TC5_SWIZZLE_NONE, &op, 32, 16, src, &sd, NULL), TC5_OK);
    assert_int_equal(tc5_smem_desc_encode(&sd, &a.sdesc, NULL), TC5_OK);
    a.taddr = 100 + 4 * wd;
    assert_int_equal(tc5_cp(w.c, 1, &a, NULL), TC5_OK);
    for (unsigned m = 0; m < 128; m++)
      for (unsigned s2 = 0; s2 < 4; s2++)
        for (unsigned r = 0; r < 4; r++) {
          uint32_t l, col, v;
          unsigned byte;
          assert_int_equal(tc5_mma_sf_cell(false, 128, 1, 128, m, s2, 0, r, &l, &col, &byte, NULL), TC5_OK);
          tc5_tmem_peek(&w.t[0], l, a.taddr + col, &v, NULL);
          unsigned s = 4 * wd + s2;
          assert_int_equal(v >> 8 * byte & 0xFF, s < 6 ? sc[m * 6 + s] : 0);
        }
  }
  world_free(&w);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lanes), cmocka_unit_test(test_shapes), cmocka_unit_test(test_rules),
      cmocka_unit_test(test_shift), cmocka_unit_test(test_order), cmocka_unit_test(test_sf_source),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
