/* tc5 tests — Tensor Memory: the tcgen05.ld/st fragment layouts against
 * CUTLASS's SM100 TMEM copy atoms, st/ld round trips in every form, every
 * allocation rule, the access restriction and uninitialised reads. */
#include "testutil.h"

#include "tc5/tmem.h"

/* ---- CUTLASS's atoms, as data -------------------------------------------
 * From NVIDIA/cutlass include/cute/atom/copy_traits_sm100.hpp,
 * Copy_Traits<SM100_TMEM_LOAD_<atom>Nx>: DstLayout = (thread modes):(strides)
 * x (value modes):(strides) mapping (thread, register bit) to a logical bit,
 * and ValID = (bits per lane, lanes):(1, TMEM::DP_b), i.e. logical bit L is
 * lane L / bpl, bit L % bpl of the lane (column = that / 32). The _16b
 * (pack::16b) atoms have the same DstLayout and ValID ((16, bpl/16), lanes):
 * ((1, 32), DP_b): 16-bit chunk j of a lane is the low half of column j.
 * 16dp32b is .16x32bx2 with immHalfSplitoff = the span of a half (CUTLASS
 * issues "tcgen05.ld...16x32bx2.xN... N"). Rows copied as numbers; CuTe
 * layouts are column-major (the first mode varies fastest). */
typedef struct cute_layout {
  int rank;
  uint32_t shape[4], stride[4];
} cute_layout;

typedef struct atom_row {
  tc5_tmem_shape shape;
  uint32_t num;
  uint32_t bpl; /* ValID's first mode: logical bits per lane */
  cute_layout thr, val;
} atom_row;

static const atom_row cutlass_atoms[] = {
    /* 32dp32b: DstLayout (32, 32N):(32N, 1) */
    {TC5_TMEM_32x32b, 1, 32, {1, {32}, {32}}, {1, {32}, {1}}},
    {TC5_TMEM_32x32b, 2, 64, {1, {32}, {64}}, {1, {64}, {1}}},
    /* 16dp32b: ((16,2),32N):((64N,32N),1) */
    {TC5_TMEM_16x32bx2, 1, 64, {2, {16, 2}, {64, 32}}, {1, {32}, {1}}},
    {TC5_TMEM_16x32bx2, 2, 128, {2, {16, 2}, {128, 64}}, {1, {64}, {1}}},
    {TC5_TMEM_16x32bx2, 4, 256, {2, {16, 2}, {256, 128}}, {1, {128}, {1}}},
    {TC5_TMEM_16x32bx2, 8, 512, {2, {16, 2}, {512, 256}}, {1, {256}, {1}}},
    {TC5_TMEM_16x32bx2, 16, 1024, {2, {16, 2}, {1024, 512}}, {1, {512}, {1}}},
    {TC5_TMEM_16x32bx2, 32, 2048, {2, {16, 2}, {2048, 1024}}, {1, {1024}, {1}}},
    /* 16dp64b: ((2,2,8),(32,N)):((512N,32,64N),(1,64)) */
    {TC5_TMEM_16x64b, 1, 64, {3, {2, 2, 8}, {512, 32, 64}}, {1, {32}, {1}}},
    {TC5_TMEM_16x64b, 2, 128, {3, {2, 2, 8}, {1024, 32, 128}}, {2, {32, 2}, {1, 64}}},
    {TC5_TMEM_16x64b, 4, 256, {3, {2, 2, 8}, {2048, 32, 256}}, {2, {32, 4}, {1, 64}}},
    {TC5_TMEM_16x64b, 8, 512, {3, {2, 2, 8}, {4096, 32, 512}}, {2, {32, 8}, {1, 64}}},
    {TC5_TMEM_16x64b, 16, 1024, {3, {2, 2, 8}, {8192, 32, 1024}}, {2, {32, 16}, {1, 64}}},
    {TC5_TMEM_16x64b, 32, 2048, {3, {2, 2, 8}, {16384, 32, 2048}}, {2, {32, 32}, {1, 64}}},
    {TC5_TMEM_16x64b, 64, 4096, {3, {2, 2, 8}, {32768, 32, 4096}}, {2, {32, 64}, {1, 64}}},
    {TC5_TMEM_16x64b, 128, 8192, {3, {2, 2, 8}, {65536, 32, 8192}}, {2, {32, 128}, {1, 64}}},
    /* 16dp128b: ((4,8),(32,2,N)):((32,128N),(1,1024N,128)) */
    {TC5_TMEM_16x128b, 1, 128, {2, {4, 8}, {32, 128}}, {2, {32, 2}, {1, 1024}}},
    {TC5_TMEM_16x128b, 2, 256, {2, {4, 8}, {32, 256}}, {3, {32, 2, 2}, {1, 2048, 128}}},
    {TC5_TMEM_16x128b, 4, 512, {2, {4, 8}, {32, 512}}, {3, {32, 2, 4}, {1, 4096, 128}}},
    {TC5_TMEM_16x128b, 8, 1024, {2, {4, 8}, {32, 1024}}, {3, {32, 2, 8}, {1, 8192, 128}}},
    {TC5_TMEM_16x128b, 64, 8192, {2, {4, 8}, {32, 8192}}, {3, {32, 2, 64}, {1, 65536, 128}}},
    /* 16dp256b: ((4,8),(64,2,N)):((64,256N),(1,2048N,256)) */
    {TC5_TMEM_16x256b, 1, 256, {2, {4, 8}, {64, 256}}, {2, {64, 2}, {1, 2048}}},
    {TC5_TMEM_16x256b, 2, 512, {2, {4, 8}, {64, 512}}, {3, {64, 2, 2}, {1, 4096, 256}}},
    {TC5_TMEM_16x256b, 4, 1024, {2, {4, 8}, {64, 1024}}, {3, {64, 2, 4}, {1, 8192, 256}}},
    {TC5_TMEM_16x256b, 8, 2048, {2, {4, 8}, {64, 2048}}, {3, {64, 2, 8}, {1, 16384, 256}}},
    {TC5_TMEM_16x256b, 16, 4096, {2, {4, 8}, {64, 4096}}, {3, {64, 2, 16}, {1, 32768, 256}}},
    {TC5_TMEM_16x256b, 32, 8192, {2, {4, 8}, {64, 8192}}, {3, {64, 2, 32}, {1, 65536, 256}}},
};

static uint32_t cute_eval(const cute_layout *l, uint32_t idx) {
  uint32_t off = 0;
  for (int m = 0; m < l->rank; m++) {
    off += (idx % l->shape[m]) * l->stride[m];
    idx /= l->shape[m];
  }
  return off;
}

/* The general rows of the families above, for every .num (the literal rows
 * pin the pattern). */
static atom_row family(tc5_tmem_shape s, uint32_t n) {
  atom_row a = {s, n, 0, {0, {0}, {0}}, {0, {0}, {0}}};
  switch (s) {
    case TC5_TMEM_32x32b:
      a.bpl = 32 * n, a.thr = (cute_layout){1, {32}, {32 * n}}, a.val = (cute_layout){1, {32 * n}, {1}};
      break;
    case TC5_TMEM_16x32bx2:
      a.bpl = 64 * n, a.thr = (cute_layout){2, {16, 2}, {64 * n, 32 * n}};
      a.val = (cute_layout){1, {32 * n}, {1}};
      break;
    case TC5_TMEM_16x64b:
      a.bpl = 64 * n, a.thr = (cute_layout){3, {2, 2, 8}, {512 * n, 32, 64 * n}};
      a.val = (cute_layout){2, {32, n}, {1, 64}};
      break;
    case TC5_TMEM_16x128b:
      a.bpl = 128 * n, a.thr = (cute_layout){2, {4, 8}, {32, 128 * n}};
      a.val = (cute_layout){3, {32, 2, n}, {1, 1024 * n, 128}};
      break;
    default:
      a.bpl = 256 * n, a.thr = (cute_layout){2, {4, 8}, {64, 256 * n}};
      a.val = (cute_layout){3, {64, 2, n}, {1, 2048 * n, 256}};
      break;
  }
  return a;
}

/* every (thread, register bit) of an atom row vs tc5_tmem_frag_cell */
static void check_atom(const atom_row *a, bool pack) {
  tc5_tmem_ldst op = {a->shape, a->num, pack, 0, TC5_TMEM_RED_NONE, TC5_TMEM_RED_F32, false, false};
  uint32_t nregs, span;
  if (tc5_tmem_ldst_size(&op, &nregs, NULL, &span)) return; /* NA cell */
  if (a->shape == TC5_TMEM_16x32bx2) op.half_split = span; /* CUTLASS's split: one half's span */
  for (uint32_t t = 0; t < 32; t++)
    for (uint32_t r = 0; r < nregs; r++) {
      uint32_t l, c, k;
      assert_int_equal(tc5_tmem_frag_cell(&op, t, r, &l, &c, &k), TC5_OK);
      for (uint32_t b = 0; b < 32; b++) {
        uint32_t L = cute_eval(&a->thr, t) + cute_eval(&a->val, 32 * r + b);
        uint32_t lane = L / a->bpl, w = L % a->bpl;
        uint32_t col = pack ? w / 16 : w / 32, bit = pack ? w % 16 : w % 32;
        uint32_t mc = pack ? c + b / 16 : c, mb = pack ? b % 16 : b;
        if (lane != l || col != mc || bit != mb)
          fail_msg("%s.x%u%s thread %u reg %u bit %u: CUTLASS lane %u col %u bit %u, tc5 lane %u col %u bit %u",
                   tc5_tmem_shape_name(a->shape), a->num, pack ? ".pack::16b" : "", t, r, b, lane, col, bit, l,
                   mc, mb);
      }
    }
}

static void test_frag_vs_cutlass(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof cutlass_atoms / sizeof cutlass_atoms[0]; i++) {
    /* the literal rows and the family agree */
    atom_row f = family(cutlass_atoms[i].shape, cutlass_atoms[i].num);
    for (uint32_t t = 0; t < 32; t++) assert_int_equal(cute_eval(&f.thr, t), cute_eval(&cutlass_atoms[i].thr, t));
    assert_int_equal(f.bpl, cutlass_atoms[i].bpl);
    for (uint32_t v = 0; v < f.bpl; v++) assert_int_equal(cute_eval(&f.val, v), cute_eval(&cutlass_atoms[i].val, v));
    check_atom(&cutlass_atoms[i], false);
    check_atom(&cutlass_atoms[i], true);
  }
  for (unsigned s = 0; s < TC5_TMEM_NSHAPES; s++)
    for (uint32_t n = 1; n <= 128; n *= 2) {
      atom_row f = family((tc5_tmem_shape)s, n);
      check_atom(&f, false);
      check_atom(&f, true);
    }
}

/* ---- st then ld, every form ---- */

static void setup_full(tc5_tmem *t) {
  assert_int_equal(tc5_tmem_init(t, 0), TC5_OK);
  uint32_t a;
  assert_int_equal(tc5_tmem_alloc(t, 512, &a, NULL), TC5_OK);
  assert_int_equal(a, 0);
}

static void test_roundtrip_every_form(void **state) {
  (void)state;
  tc5_tmem t;
  setup_full(&t);
  rng g;
  rng_seed(&g, 7);
  static uint32_t in[32 * 128], out[32 * 128];
  unsigned forms = 0;
  for (unsigned s = 0; s < TC5_TMEM_NSHAPES; s++)
    for (uint32_t n = 1; n <= 128; n *= 2)
      for (int pack = 0; pack < 2; pack++)
        for (uint32_t split = 0; split <= (s == TC5_TMEM_16x32bx2 ? 1u : 0u); split++) {
          tc5_tmem_ldst op = {(tc5_tmem_shape)s, n, pack, 0, TC5_TMEM_RED_NONE, TC5_TMEM_RED_F32, false, false};
          uint32_t nregs, nlanes, span;
          if (tc5_tmem_ldst_size(&op, &nregs, &nlanes, &span)) continue;
          if (split) op.half_split = span; /* halves side by side */
          tc5_tmem_ldst_size(&op, NULL, NULL, &span);
          if (span > 512) continue;
          forms++;
          /* the cells are distinct and fill lanes x span (x2 halves side by side) */
          static uint8_t seen[32][512];
          memset(seen, 0, sizeof seen);
          uint32_t cells = 0;
          for (uint32_t th = 0; th < 32; th++)
            for (uint32_t r = 0; r < nregs; r++) {
              uint32_t l, c, k;
              assert_int_equal(tc5_tmem_frag_cell(&op, th, r, &l, &c, &k), TC5_OK);
              for (uint32_t j = 0; j < k; j++) {
                assert_true(l < nlanes && c + j < span);
                if (s != TC5_TMEM_16x32bx2 || split) assert_int_equal(seen[l][c + j], 0);
                seen[l][c + j] = 1;
                cells++;
              }
            }
          if (s != TC5_TMEM_16x32bx2 || split) assert_int_equal(cells, nlanes * span);
          for (uint32_t w = 0; w < 8; w++) {
            uint32_t lane0 = 32 * (w % 4) + (nlanes == 16 && (w & 4) ? 16 : 0);
            uint32_t col0 = (uint32_t)rng_below(&g, 512 - span + 1);
            for (uint32_t i = 0; i < 32 * nregs; i++) in[i] = (uint32_t)rng_next(&g);
            if (s == TC5_TMEM_16x32bx2 && !split)
              for (uint32_t i = 0; i < 16 * nregs; i++) in[16 * nregs + i] = in[i]; /* same cells */
            assert_int_equal(tc5_tmem_st(&t, &op, w, TC5_TMEM_ADDR(lane0, col0), in, NULL), TC5_OK);
            memset(out, 0xA5, sizeof out);
            assert_int_equal(tc5_tmem_ld(&t, &op, w, TC5_TMEM_ADDR(lane0, col0), out, NULL, NULL), TC5_OK);
            if (memcmp(in, out, 32 * nregs * sizeof(uint32_t)))
              fail_msg("%s.x%u%s split %u warp %u: ld after st differs", tc5_tmem_shape_name(op.shape), n,
                       pack ? " pack" : "", op.half_split, w);
          }
        }
  assert_true(forms >= 70);
  /* unpack::16b then a plain 32x32b load: the low halves, and the high
   * halves are reported as never written */
  tc5_tmem_ldst un = {TC5_TMEM_32x32b, 2, true, 0, TC5_TMEM_RED_NONE, TC5_TMEM_RED_F32, false, false};
  tc5_tmem_ldst plain = {TC5_TMEM_32x32b, 4, false, 0, TC5_TMEM_RED_NONE, TC5_TMEM_RED_F32, false, false};
  uint32_t a;
  tc5_tmem_dealloc(&t, 0, 512, NULL);
  assert_int_equal(tc5_tmem_alloc(&t, 256, &a, NULL), TC5_OK);
  for (uint32_t i = 0; i < 64; i++) in[i] = 0x11110000u * (i & 3) + i;
  assert_int_equal(tc5_tmem_st(&t, &un, 0, 0, in, NULL), TC5_OK);
  tc5_diag d;
  tc5_diag_init(&d);
  assert_int_equal(tc5_tmem_ld(&t, &plain, 0, 0, out, NULL, &d), TC5_EUNINIT);
  assert_non_null(strstr(d.issue[0].message, "high 16 bits"));
  assert_int_equal(out[0], in[0] & 0xFFFF);
  assert_int_equal(out[1], in[0] >> 16);
  tc5_tmem_free(&t);
}

/* ---- allocation rules ---- */

static void expect(tc5_status got, tc5_status want, const tc5_diag *d, const char *text) {
  assert_int_equal(got, want);
  assert_true(d->count >= 1);
  for (unsigned i = 0; i < d->count; i++)
    if (strstr(d->issue[i].message, text)) return;
  fail_msg("message \"%s\" lacks \"%s\"", d->issue[0].message, text);
}

static void test_alloc_rules(void **state) {
  (void)state;
  tc5_tmem t;
  tc5_diag d;
  uint32_t a, b, c;
  assert_int_equal(tc5_tmem_init(&t, 0), TC5_OK);
  /* nCols a power of two in [32, 512] */
  uint32_t bad[] = {0, 16, 31, 48, 96, 1024, 0xFFFFFFFFu};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    tc5_diag_init(&d);
    expect(tc5_tmem_alloc(&t, bad[i], &a, &d), TC5_ERANGE, &d, "not a power of two in [32, 512]");
  }
  /* allocations are placed and do not overlap */
  assert_int_equal(tc5_tmem_alloc(&t, 256, &a, NULL), TC5_OK);
  assert_int_equal(tc5_tmem_alloc(&t, 128, &b, NULL), TC5_OK);
  assert_int_equal(tc5_tmem_alloc(&t, 64, &c, NULL), TC5_OK);
  assert_true(a == 0 && b == 256 && c == 384);
  char buf[256];
  uint32_t held;
  assert_int_equal(tc5_tmem_held(&t, &held, buf, sizeof buf), TC5_OK);
  assert_int_equal(held, 448);
  assert_string_equal(buf, "columns 0-255 (256), columns 256-383 (128), columns 384-447 (64)");
  /* more than is free: would block, saying what is held */
  tc5_diag_init(&d);
  assert_int_equal(tc5_tmem_alloc(&t, 64, &a, NULL), TC5_OK); /* 448-511 */
  expect(tc5_tmem_alloc(&t, 32, &a, &d), TC5_EWOULDBLOCK, &d, "would block in CTA 0: 512 of 512 columns held");
  /* dealloc: not allocated, wrong size, wrong lane */
  tc5_diag_init(&d);
  expect(tc5_tmem_dealloc(&t, 32, 32, &d), TC5_ESTATE, &d, "is not the address of an allocation");
  tc5_diag_init(&d);
  expect(tc5_tmem_dealloc(&t, 256, 64, &d), TC5_EILLEGAL, &d, "has 128 columns");
  tc5_diag_init(&d);
  expect(tc5_tmem_dealloc(&t, TC5_TMEM_ADDR(32, 256), 128, &d), TC5_ESTATE, &d, "lane 32, column 256");
  assert_int_equal(tc5_tmem_dealloc(&t, 256, 128, NULL), TC5_OK);
  tc5_diag_init(&d);
  expect(tc5_tmem_dealloc(&t, 256, 128, &d), TC5_ESTATE, &d, "not the address"); /* twice */
  /* 256-383 free, 448-511 held: a 64 takes the lowest aligned block; after
   * it nCols must not increase: 32 is fine, 128 is not */
  assert_int_equal(tc5_tmem_alloc(&t, 64, &a, NULL), TC5_OK);
  assert_int_equal(a, 256);
  tc5_diag_init(&d);
  expect(tc5_tmem_alloc(&t, 128, &a, &d), TC5_EILLEGAL, &d, "should not increase");
  assert_int_equal(tc5_tmem_alloc(&t, 32, &a, NULL), TC5_OK);
  assert_int_equal(a, 320);
  assert_int_equal(tc5_tmem_dealloc(&t, 320, 32, NULL), TC5_OK);
  assert_int_equal(tc5_tmem_dealloc(&t, 256, 64, NULL), TC5_OK);
  assert_int_equal(tc5_tmem_dealloc(&t, 384, 64, NULL), TC5_OK);
  assert_int_equal(tc5_tmem_alloc(&t, 32, &a, NULL), TC5_OK);
  assert_int_equal(a, 256); /* the lowest free column aligned to the size */
  /* relinquish: no alloc after it; dealloc still fine */
  assert_int_equal(tc5_tmem_relinquish(&t, NULL), TC5_OK);
  tc5_diag_init(&d);
  expect(tc5_tmem_alloc(&t, 32, &a, &d), TC5_ESTATE, &d, "relinquish_alloc_permit");
  /* exit with memory held */
  tc5_diag_init(&d);
  expect(tc5_tmem_exit(&t, &d), TC5_ESTATE, &d,
         "still holds 352 columns of Tensor Memory (columns 0-255 (256), columns 256-287 (32), columns 448-511 (64))");
  tc5_diag_init(&d);
  expect(tc5_tmem_exit(&t, &d), TC5_ESTATE, &d, "already exited");
  tc5_diag_init(&d);
  expect(tc5_tmem_dealloc(&t, 0, 256, &d), TC5_ESTATE, &d, "has exited");
  tc5_tmem_free(&t);
  /* a clean kernel */
  assert_int_equal(tc5_tmem_init(&t, 0), TC5_OK);
  assert_int_equal(tc5_tmem_alloc(&t, 32, &a, NULL), TC5_OK);
  assert_int_equal(tc5_tmem_dealloc(&t, a, 32, NULL), TC5_OK);
  assert_int_equal(tc5_tmem_relinquish(&t, NULL), TC5_OK);
  assert_int_equal(tc5_tmem_exit(&t, NULL), TC5_OK);
  tc5_diag_init(&d);
  expect(tc5_tmem_alloc(&t, 32, &a, &d), TC5_ESTATE, &d, "has exited");
  tc5_tmem_free(&t);
}

static void test_fragmented_would_block(void **state) {
  (void)state;
  /* Enough columns free, but no free block aligned to the size. Under the
   * order rule (nCols never above the previous allocation's) a CTA cannot
   * get there: every hole left is at least as large as, and aligned to, the
   * latest size. First that: 128-255 and 256-383 are free, but asking for
   * 256 breaks the order rule before placement is tried. */
  tc5_tmem t;
  tc5_diag d;
  uint32_t a;
  assert_int_equal(tc5_tmem_init(&t, 0), TC5_OK);
  assert_int_equal(tc5_tmem_alloc(&t, 256, &a, NULL), TC5_OK); /* 0-255 */
  assert_int_equal(tc5_tmem_alloc(&t, 128, &a, NULL), TC5_OK); /* 256-383 */
  assert_int_equal(tc5_tmem_alloc(&t, 128, &a, NULL), TC5_OK); /* 384-511 */
  assert_int_equal(tc5_tmem_dealloc(&t, 0, 256, NULL), TC5_OK);
  assert_int_equal(tc5_tmem_alloc(&t, 128, &a, NULL), TC5_OK); /* 0-127 */
  assert_int_equal(tc5_tmem_dealloc(&t, 256, 128, NULL), TC5_OK);
  tc5_diag_init(&d);
  expect(tc5_tmem_alloc(&t, 256, &a, &d), TC5_EILLEGAL, &d, "should not increase");
  tc5_tmem_free(&t);
  assert_int_equal(tc5_tmem_init(&t, 0), TC5_OK);
  assert_int_equal(tc5_tmem_alloc(&t, 128, &a, NULL), TC5_OK); /* 0-127 */
  assert_int_equal(tc5_tmem_alloc(&t, 128, &a, NULL), TC5_OK); /* 128-255 */
  assert_int_equal(tc5_tmem_alloc(&t, 128, &a, NULL), TC5_OK); /* 256-383 */
  assert_int_equal(tc5_tmem_alloc(&t, 64, &a, NULL), TC5_OK);  /* 384-447 */
  assert_int_equal(tc5_tmem_dealloc(&t, 128, 128, NULL), TC5_OK);
  assert_int_equal(tc5_tmem_alloc(&t, 64, &a, NULL), TC5_OK); /* 128-191 */
  /* free: 192-255 (64) and 448-511 (64): 128 columns, no aligned 128 */
  assert_int_equal(tc5_tmem_dealloc(&t, 0, 128, NULL), TC5_OK);
  assert_int_equal(tc5_tmem_alloc(&t, 64, &a, NULL), TC5_OK); /* 0-63 */
  assert_int_equal(tc5_tmem_alloc(&t, 32, &a, NULL), TC5_OK); /* 64-95 */
  assert_int_equal(tc5_tmem_alloc(&t, 32, &a, NULL), TC5_OK); /* 96-127 */
  /* free: 192-255, 448-511; held 384. The message's alignment clause is
   * checked by lifting the order rule's memory of the last size. */
  t.last_alloc = 128;
  tc5_diag_init(&d);
  expect(tc5_tmem_alloc(&t, 128, &a, &d), TC5_EWOULDBLOCK, &d, "no free block of that size is aligned to it");
  tc5_tmem_free(&t);
}

static void test_cta_group_and_pairs(void **state) {
  (void)state;
  tc5_tmem e, o, x;
  tc5_diag d;
  uint32_t a;
  assert_int_equal(tc5_tmem_init(&e, 4), TC5_OK);
  assert_int_equal(tc5_tmem_init(&o, 5), TC5_OK);
  assert_int_equal(tc5_tmem_init(&x, 6), TC5_OK);
  tc5_tmem *pair[2] = {&e, &o}, *notpair[2] = {&o, &x}, *alone[2] = {&e, NULL};
  tc5_diag_init(&d);
  expect(tc5_tmem_alloc2(notpair, 32, &a, &d), TC5_EILLEGAL, &d, "are not a CTA pair");
  tc5_diag_init(&d);
  expect(tc5_tmem_alloc2(alone, 32, &a, &d), TC5_ESTATE, &d, "peer CTA 5) must perform it collectively");
  /* both get the same columns, even where one CTA is fuller */
  assert_int_equal(tc5_tmem_alloc2(pair, 128, &a, NULL), TC5_OK);
  assert_int_equal(a, 0);
  assert_int_equal(tc5_tmem_alloc2(pair, 128, &a, NULL), TC5_OK);
  assert_int_equal(a, 128);
  /* mixed cta_group in one kernel */
  tc5_diag_init(&d);
  expect(tc5_tmem_alloc(&e, 32, &a, &d), TC5_EILLEGAL, &d, "must specify the same .cta_group");
  tc5_diag_init(&d);
  expect(tc5_tmem_dealloc(&e, 0, 128, &d), TC5_EILLEGAL, &d, ".cta_group::1 after .cta_group::2");
  tc5_diag_init(&d);
  expect(tc5_tmem_use_cta_group(&e, 3, "tcgen05.mma", &d), TC5_ERANGE, &d, "does not exist");
  /* dealloc must be collective too, and exact */
  tc5_diag_init(&d);
  expect(tc5_tmem_dealloc2(pair, 0, 64, &d), TC5_EILLEGAL, &d, "has 128 columns");
  assert_int_equal(tc5_tmem_dealloc2(pair, 0, 128, NULL), TC5_OK);
  /* the peer exits early */
  assert_int_equal(tc5_tmem_relinquish2(pair, NULL), TC5_OK);
  tc5_diag_init(&d);
  expect(tc5_tmem_alloc2(pair, 32, &a, &d), TC5_ESTATE, &d, "relinquish_alloc_permit");
  tc5_diag_init(&d);
  expect(tc5_tmem_exit(&o, &d), TC5_ESTATE, &d, "still holds 128 columns");
  tc5_diag_init(&d);
  expect(tc5_tmem_dealloc2(pair, 128, 128, &d), TC5_ESTATE, &d, "has exited; the peer CTA must be active");
  tc5_tmem_free(&e);
  tc5_tmem_free(&o);
  tc5_tmem_free(&x);
}

/* ---- access restriction, ranges, uninitialised cells, forms ---- */

static void test_access(void **state) {
  (void)state;
  tc5_tmem t;
  tc5_diag d;
  uint32_t a, regs[32 * 128] = {0};
  assert_int_equal(tc5_tmem_init(&t, 0), TC5_OK);
  assert_int_equal(tc5_tmem_alloc(&t, 256, &a, NULL), TC5_OK);
  tc5_tmem_ldst op = {TC5_TMEM_32x32b, 4, false, 0, TC5_TMEM_RED_NONE, TC5_TMEM_RED_F32, false, false};
  /* warp 1 of a warpgroup may not touch lanes 0-31 */
  tc5_diag_init(&d);
  expect(tc5_tmem_st(&t, &op, 1, 0, regs, &d), TC5_EACCESS, &d,
         "warp 1 (warp 1 of its warpgroup) accesses lane 0; it may access lanes 32-63 only");
  tc5_diag_init(&d);
  expect(tc5_tmem_ld(&t, &op, 6, TC5_TMEM_ADDR(32, 0), regs, NULL, &d), TC5_EACCESS, &d,
         "warp 6 (warp 2 of its warpgroup) accesses lane 32; it may access lanes 64-95 only");
  assert_int_equal(tc5_tmem_st(&t, &op, 5, TC5_TMEM_ADDR(32, 0), regs, NULL), TC5_OK);
  /* a 16-lane shape straddling two warps' lanes */
  tc5_tmem_ldst s16 = {TC5_TMEM_16x64b, 1, false, 0, TC5_TMEM_RED_NONE, TC5_TMEM_RED_F32, false, false};
  tc5_diag_init(&d);
  expect(tc5_tmem_st(&t, &s16, 0, TC5_TMEM_ADDR(24, 0), regs, &d), TC5_EACCESS, &d, "accesses lane 32");
  assert_int_equal(tc5_tmem_st(&t, &s16, 0, TC5_TMEM_ADDR(16, 0), regs, NULL), TC5_OK);
  /* columns not allocated / outside the memory */
  tc5_diag_init(&d);
  expect(tc5_tmem_st(&t, &op, 0, 254, regs, &d), TC5_ESTATE, &d, "column 256 is not allocated");
  tc5_diag_init(&d);
  expect(tc5_tmem_st(&t, &op, 0, 510, regs, &d), TC5_EBOUNDS, &d, "column 513 is outside");
  tc5_diag_init(&d);
  expect(tc5_tmem_ld(&t, &op, 0, TC5_TMEM_ADDR(128, 0), regs, NULL, &d), TC5_EACCESS, &d, "lane 128");
  /* the second half of .16x32bx2 past the allocation */
  tc5_tmem_ldst x2 = {TC5_TMEM_16x32bx2, 2, false, 255, TC5_TMEM_RED_NONE, TC5_TMEM_RED_F32, false, false};
  tc5_diag_init(&d);
  expect(tc5_tmem_st(&t, &x2, 0, 0, regs, &d), TC5_ESTATE, &d, "column 256 is not allocated");
  /* reading what was never written */
  tc5_diag_init(&d);
  expect(tc5_tmem_ld(&t, &op, 0, 100, regs, NULL, &d), TC5_EUNINIT, &d,
         "128 cells read never written; first: lane 0 column 100");
  /* a fresh allocation is unwritten again */
  assert_int_equal(tc5_tmem_st(&t, &op, 0, 100, regs, NULL), TC5_OK);
  assert_int_equal(tc5_tmem_ld(&t, &op, 0, 100, regs, NULL, NULL), TC5_OK);
  assert_int_equal(tc5_tmem_dealloc(&t, 0, 256, NULL), TC5_OK);
  assert_int_equal(tc5_tmem_alloc(&t, 256, &a, NULL), TC5_OK);
  tc5_diag_init(&d);
  expect(tc5_tmem_ld(&t, &op, 0, 100, regs, NULL, &d), TC5_EUNINIT, &d, "never written");
  /* peek/poke */
  uint32_t v;
  bool w;
  assert_int_equal(tc5_tmem_poke(&t, 3, 7, 0xDEADBEEF), TC5_OK);
  assert_int_equal(tc5_tmem_peek(&t, 3, 7, &v, &w), TC5_OK);
  assert_true(v == 0xDEADBEEF && w);
  assert_int_equal(tc5_tmem_peek(&t, 128, 0, &v, &w), TC5_EBOUNDS);
  assert_int_equal(tc5_tmem_poke(&t, 0, 512, 1), TC5_EBOUNDS);
  /* which halves: .unpack::16b writes the low half of each cell alone */
  unsigned h;
  tc5_tmem_ldst u16 = {TC5_TMEM_32x32b, 2, true, 0, TC5_TMEM_RED_NONE, TC5_TMEM_RED_F32, false, false};
  uint32_t pair[32 * 2];
  for (unsigned i = 0; i < 64; i++) pair[i] = 0x00050007u + i;
  assert_int_equal(tc5_tmem_st(&t, &u16, 0, 200, pair, NULL), TC5_OK);
  assert_int_equal(tc5_tmem_peek_halves(&t, 0, 200, &v, &h), TC5_OK);
  assert_int_equal(h, 1);
  assert_int_equal(tc5_tmem_peek(&t, 0, 200, &v, &w), TC5_OK);
  assert_false(w);
  assert_int_equal(tc5_tmem_peek_halves(&t, 3, 7, &v, &h), TC5_OK);
  assert_true(v == 0xDEADBEEF && h == 3);
  assert_int_equal(tc5_tmem_peek_halves(&t, 9, 250, &v, &h), TC5_OK);
  assert_int_equal(h, 0);
  assert_int_equal(tc5_tmem_peek_halves(&t, 3, 7, &v, NULL), TC5_OK);
  assert_int_equal(tc5_tmem_peek_halves(&t, 0, 512, &v, &h), TC5_EBOUNDS);
  assert_int_equal(tc5_tmem_peek_halves(&t, 128, 0, &v, &h), TC5_EBOUNDS);
  assert_int_equal(tc5_tmem_peek_halves(&t, 0, 0, NULL, &h), TC5_EINVAL);
  assert_int_equal(tc5_tmem_peek_halves(NULL, 0, 0, &v, &h), TC5_EINVAL);
  assert_int_equal(tc5_tmem_check_range(&t, 0, 128, 0, 256, "tcgen05.mma", NULL), TC5_OK);
  tc5_tmem_free(&t);
}

static void test_forms(void **state) {
  (void)state;
  struct {
    tc5_tmem_ldst op;
    bool store;
    tc5_status want;
    const char *text;
  } cases[] = {
      {{TC5_TMEM_32x32b, 3, false, 0, 0, 0, false, false}, false, TC5_ERANGE, ".x3 does not exist"},
      {{TC5_TMEM_32x32b, 256, false, 0, 0, 0, false, false}, false, TC5_ERANGE, ".x256 does not exist"},
      {{TC5_TMEM_16x256b, 64, false, 0, 0, 0, false, false}, false, TC5_EILLEGAL, ".16x256b.x64 is NA in Table 47"},
      {{TC5_TMEM_16x256b, 128, false, 0, 0, 0, false, false}, true, TC5_EILLEGAL, "NA in Table 48"},
      {{TC5_TMEM_16x128b, 128, false, 0, 0, 0, false, false}, false, TC5_EILLEGAL, ".16x128b.x128 is NA"},
      {{TC5_TMEM_32x32b, 2, false, 4, 0, 0, false, false}, false, TC5_EILLEGAL, "only .16x32bx2 takes one"},
      {{TC5_TMEM_NSHAPES, 2, false, 0, 0, 0, false, false}, false, TC5_ERANGE, "does not exist"},
      {{TC5_TMEM_32x32b, 2, false, 0, TC5_TMEM_RED_MIN, 0, false, false}, true, TC5_EILLEGAL, "tcgen05.st has no .red"},
      {{TC5_TMEM_16x64b, 2, false, 0, TC5_TMEM_RED_MIN, 0, false, false}, false, TC5_EILLEGAL, ".16x64b is not allowed"},
      {{TC5_TMEM_32x32b, 1, false, 0, TC5_TMEM_RED_MAX, 0, false, false}, false, TC5_EILLEGAL, "at least .x2"},
      {{TC5_TMEM_32x32b, 2, true, 0, TC5_TMEM_RED_MAX, 0, false, false}, false, TC5_EILLEGAL, "no .pack::16b form"},
      {{TC5_TMEM_32x32b, 2, false, 0, TC5_TMEM_RED_MAX, TC5_TMEM_RED_U32, true, false}, false, TC5_EILLEGAL,
       "for .f32 only, not .u32"},
      {{TC5_TMEM_32x32b, 2, false, 0, TC5_TMEM_RED_MAX, TC5_TMEM_RED_S32, false, true}, false, TC5_EILLEGAL,
       "not .s32"},
      {{TC5_TMEM_32x32b, 2, false, 0, 7, 0, false, false}, false, TC5_ERANGE, "is not .min or .max"},
      {{TC5_TMEM_32x32b, 2, false, 0, TC5_TMEM_RED_MAX, 9, false, false}, false, TC5_ERANGE, "is not .f32"},
      {{TC5_TMEM_32x32b, 2, false, 0, 0, 0, true, false}, false, TC5_EILLEGAL, "qualifiers of tcgen05.ld.red only"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tc5_diag d;
    tc5_diag_init(&d);
    tc5_status st = tc5_tmem_ldst_check(&cases[i].op, cases[i].store, &d);
    if (st != cases[i].want || !strstr(d.issue[0].message, cases[i].text))
      fail_msg("case %zu: status %d, message \"%s\"", i, st, d.count ? d.issue[0].message : "");
  }
  /* every legal form is accepted, every register count is Table 47's */
  unsigned legal = 0;
  for (unsigned s = 0; s < TC5_TMEM_NSHAPES; s++)
    for (uint32_t n = 1; n <= 128; n *= 2) {
      tc5_tmem_ldst op = {(tc5_tmem_shape)s, n, false, 0, 0, 0, false, false};
      uint32_t nregs;
      tc5_status st = tc5_tmem_ldst_size(&op, &nregs, NULL, NULL);
      uint32_t want = (s == TC5_TMEM_16x128b ? 2 : s == TC5_TMEM_16x256b ? 4 : 1) * n;
      if (want > 128) {
        assert_int_equal(st, TC5_EILLEGAL);
        continue;
      }
      assert_int_equal(st, TC5_OK);
      assert_int_equal(nregs, want);
      assert_int_equal(tc5_tmem_ldst_check(&op, false, NULL), TC5_OK);
      assert_int_equal(tc5_tmem_ldst_check(&op, true, NULL), TC5_OK);
      legal++;
    }
  assert_int_equal(legal, 8 + 8 + 7 + 6 + 8);
  tc5_tmem_shape sh;
  assert_int_equal(tc5_tmem_shape_parse(".16x32bx2", &sh), TC5_OK);
  assert_int_equal(sh, TC5_TMEM_16x32bx2);
  assert_int_equal(tc5_tmem_shape_parse("16x16b", &sh), TC5_EINVAL);
  assert_string_equal(tc5_tmem_shape_name(TC5_TMEM_16x256b), "16x256b");
  assert_string_equal(tc5_tmem_shape_name(TC5_TMEM_NSHAPES), "?");
}

static void test_reduce(void **state) {
  (void)state;
  tc5_tmem_ldst mn = {TC5_TMEM_32x32b, 4, false, 0, TC5_TMEM_RED_MIN, TC5_TMEM_RED_F32, false, false};
  tc5_tmem_ldst mx = mn;
  mx.red = TC5_TMEM_RED_MAX;
  uint32_t r;
  const uint32_t f[4] = {0x3F800000u /* 1 */, 0xC0000000u /* -2 */, 0x7FC00000u /* NaN */, 0x40400000u /* 3 */};
  assert_int_equal(tc5_tmem_reduce(&mn, f, 4, &r), TC5_OK);
  assert_int_equal(r, 0xC0000000u); /* NaN ignored */
  assert_int_equal(tc5_tmem_reduce(&mx, f, 4, &r), TC5_OK);
  assert_int_equal(r, 0x40400000u);
  mn.red_nan = true;
  assert_int_equal(tc5_tmem_reduce(&mn, f, 4, &r), TC5_OK);
  assert_int_equal(r, 0x7FFFFFFFu); /* .NaN: canonical NaN */
  mn.red_nan = false;
  mn.red_abs = true;
  assert_int_equal(tc5_tmem_reduce(&mn, f, 4, &r), TC5_OK);
  assert_int_equal(r, 0x3F800000u); /* |-2| = 2 > 1 */
  mx.red_abs = true;
  assert_int_equal(tc5_tmem_reduce(&mx, f, 4, &r), TC5_OK);
  assert_int_equal(r, 0x40400000u);
  const uint32_t z[2] = {0x00000000u, 0x80000000u}, nn[2] = {0x7F800001u, 0xFFC00000u};
  mn.red_abs = mx.red_abs = false;
  assert_int_equal(tc5_tmem_reduce(&mn, z, 2, &r), TC5_OK);
  assert_int_equal(r, 0x80000000u); /* -0 < +0 */
  assert_int_equal(tc5_tmem_reduce(&mx, z, 2, &r), TC5_OK);
  assert_int_equal(r, 0x00000000u);
  assert_int_equal(tc5_tmem_reduce(&mx, nn, 2, &r), TC5_OK);
  assert_int_equal(r, 0x7FFFFFFFu); /* all NaN */
  /* -Inf and +Inf order */
  const uint32_t inf[3] = {0xFF800000u, 0x7F800000u, 0x00000001u};
  assert_int_equal(tc5_tmem_reduce(&mn, inf, 3, &r), TC5_OK);
  assert_int_equal(r, 0xFF800000u);
  assert_int_equal(tc5_tmem_reduce(&mx, inf, 3, &r), TC5_OK);
  assert_int_equal(r, 0x7F800000u);
  /* u32 vs s32 */
  const uint32_t iv[3] = {5, 0xFFFFFFFFu, 0x80000000u};
  mn.red_type = mx.red_type = TC5_TMEM_RED_U32;
  assert_int_equal(tc5_tmem_reduce(&mn, iv, 3, &r), TC5_OK);
  assert_int_equal(r, 5);
  assert_int_equal(tc5_tmem_reduce(&mx, iv, 3, &r), TC5_OK);
  assert_int_equal(r, 0xFFFFFFFFu);
  mn.red_type = mx.red_type = TC5_TMEM_RED_S32;
  assert_int_equal(tc5_tmem_reduce(&mn, iv, 3, &r), TC5_OK);
  assert_int_equal(r, 0x80000000u);
  assert_int_equal(tc5_tmem_reduce(&mx, iv, 3, &r), TC5_OK);
  assert_int_equal(r, 5);
  assert_int_equal(tc5_tmem_reduce(&mx, iv, 0, &r), TC5_EINVAL);
  /* through tcgen05.ld.red: each thread reduces its own registers */
  tc5_tmem t;
  uint32_t a, in[32 * 8], out[32 * 8], red[32];
  assert_int_equal(tc5_tmem_init(&t, 0), TC5_OK);
  assert_int_equal(tc5_tmem_alloc(&t, 32, &a, NULL), TC5_OK);
  tc5_tmem_ldst st = {TC5_TMEM_16x32bx2, 8, false, 8, TC5_TMEM_RED_NONE, TC5_TMEM_RED_F32, false, false};
  rng g;
  rng_seed(&g, 3);
  for (int i = 0; i < 32 * 8; i++) in[i] = (uint32_t)rng_next(&g) & 0xBFFFFFFFu; /* finite */
  assert_int_equal(tc5_tmem_st(&t, &st, 0, 0, in, NULL), TC5_OK);
  tc5_tmem_ldst ld = st;
  ld.red = TC5_TMEM_RED_MAX;
  ld.red_type = TC5_TMEM_RED_S32;
  assert_int_equal(tc5_tmem_ld(&t, &ld, 0, 0, out, NULL, NULL), TC5_EINVAL); /* redval needed */
  assert_int_equal(tc5_tmem_ld(&t, &ld, 0, 0, out, red, NULL), TC5_OK);
  for (int th = 0; th < 32; th++) {
    int32_t m = INT32_MIN;
    for (int i = 0; i < 8; i++) m = (int32_t)in[th * 8 + i] > m ? (int32_t)in[th * 8 + i] : m;
    assert_int_equal(red[th], (uint32_t)m);
  }
  assert_memory_equal(in, out, sizeof in);
  tc5_tmem_free(&t);
}

static void test_bad_args(void **state) {
  (void)state;
  tc5_tmem t;
  memset(&t, 0, sizeof t);
  uint32_t a;
  assert_int_equal(tc5_tmem_init(NULL, 0), TC5_EINVAL);
  assert_int_equal(tc5_tmem_alloc(&t, 32, &a, NULL), TC5_EINVAL); /* not initialised */
  assert_int_equal(tc5_tmem_free(&t), TC5_OK);
  assert_int_equal(tc5_tmem_free(NULL), TC5_EINVAL);
  assert_int_equal(tc5_tmem_init(&t, 0), TC5_OK);
  assert_int_equal(tc5_tmem_alloc(&t, 32, NULL, NULL), TC5_EINVAL);
  tc5_tmem *none[2] = {NULL, NULL};
  assert_int_equal(tc5_tmem_alloc2(none, 32, &a, NULL), TC5_EINVAL);
  assert_int_equal(tc5_tmem_alloc2(NULL, 32, &a, NULL), TC5_EINVAL);
  tc5_tmem *same[2] = {&t, &t};
  assert_int_equal(tc5_tmem_alloc2(same, 32, &a, NULL), TC5_EINVAL);
  tc5_tmem_ldst op = {TC5_TMEM_32x32b, 1, false, 0, 0, 0, false, false};
  uint32_t l, c, k;
  assert_int_equal(tc5_tmem_frag_cell(&op, 32, 0, &l, &c, &k), TC5_EINVAL);
  assert_int_equal(tc5_tmem_frag_cell(&op, 0, 1, &l, &c, &k), TC5_EINVAL);
  assert_int_equal(tc5_tmem_ld(&t, &op, 0, 0, NULL, NULL, NULL), TC5_EINVAL);
  assert_int_equal(tc5_tmem_st(&t, NULL, 0, 0, &a, NULL), TC5_EINVAL);
  assert_int_equal(tc5_tmem_held(&t, NULL, NULL, 4), TC5_EINVAL);
  char small[4];
  assert_int_equal(tc5_tmem_held(&t, NULL, small, sizeof small), TC5_ETRUNC);
  assert_int_equal(tc5_tmem_check_range(&t, 0, 0, 0, 1, "x", NULL), TC5_EINVAL);
  tc5_tmem_free(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_frag_vs_cutlass),     cmocka_unit_test(test_roundtrip_every_form),
      cmocka_unit_test(test_alloc_rules),         cmocka_unit_test(test_fragmented_would_block),
      cmocka_unit_test(test_cta_group_and_pairs), cmocka_unit_test(test_access),
      cmocka_unit_test(test_forms),               cmocka_unit_test(test_reduce),
      cmocka_unit_test(test_bad_args),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
