/* tc5 tests — tcgen05.mma: for a sweep of kinds, M, N, majors, swizzles,
 * CTA groups and .ws, D from the engine equals the arithmetic core's GEMM on
 * the same operands, bit for bit; and every rule the engine checks. */
#include "testutil.h"

#include "tc5/arith.h"
#include "tc5/layout.h"
#include "tc5/mma.h"
#include "tc5/sync.h"
#include "tc5/zcmask.h"
#include "mma/mma_world.h"

typedef struct kcase {
  tc5_kind kind;
  tc5_type a, b, d;
} kcase;

static const kcase kinds[] = {
    {TC5_KIND_F16, TC5_BF16, TC5_BF16, TC5_F32}, {TC5_KIND_F16, TC5_F16, TC5_F16, TC5_F16},
    {TC5_KIND_TF32, TC5_TF32, TC5_TF32, TC5_F32}, {TC5_KIND_F8F6F4, TC5_E4M3, TC5_E5M2, TC5_F32},
    {TC5_KIND_F8F6F4, TC5_E2M1, TC5_E3M2, TC5_F16}, {TC5_KIND_I8, TC5_S8, TC5_U8, TC5_S32},
};

static uint32_t rand_code(rng *g, tc5_type t) {
  unsigned bits = t == TC5_TF32 ? 32 : t == TC5_BF16 || t == TC5_F16 ? 16 : t == TC5_E2M1 ? 4
                : t == TC5_E3M2 || t == TC5_E2M3 ? 6 : 8;
  uint32_t v = (uint32_t)rng_next(g);
  if (t == TC5_TF32) v &= ~0x1FFFu;
  return bits == 32 ? v : v & ((1u << bits) - 1);
}

static unsigned n_checked, n_cases, n_elided;

/* one MMA; returns false when the combination is illegal (skipped) */
static bool run_case(const kcase *kc, unsigned cg, bool ws, unsigned M, unsigned N, tc5_major amaj,
                     tc5_major bmaj, tc5_swizzle sw, bool acc, bool zmask, rng *g) {
  tc5_mma_args a;
  tc5_mma_args_init(&a, kc->kind);
  a.variant.cta_group = (uint8_t)cg;
  a.variant.ws = ws;
  tc5_idesc d;
  tc5_idesc_init(&d, kc->kind);
  tc5_idesc_set_types(&d, kc->a, kc->b, kc->d);
  d.m = (uint16_t)M;
  d.n = (uint16_t)N;
  d.transpose_a = amaj == TC5_MAJOR_MN;
  d.transpose_b = bmaj == TC5_MAJOR_MN;
  if (ws && zmask) d.max_shift = 3; /* 32 columns */
  if (tc5_idesc_check(&d, &a.variant, NULL) != TC5_OK) return false;
  if (tc5_idesc_encode(&d, &a.idesc, NULL) != TC5_OK) return false;
  unsigned K;
  tc5_idesc_k(&d, &K);
  tc5_operand opa, opb;
  if (tc5_operand_for(kc->kind, kc->a, amaj, &opa) || tc5_operand_for(kc->kind, kc->b, bmaj, &opb)) return false;
  if (sw == TC5_SWIZZLE_128B_BASE32B && (amaj == TC5_MAJOR_K || bmaj == TC5_MAJOR_K)) return false; /* Table 52 */
  unsigned rows = M / cg, bcols = N / cg, shift = 0;
  tc5_colmask zm;
  memset(&zm, 0, sizeof zm);
  if (zmask) {
    tc5_zcmask_desc zd;
    memset(&zd, 0, sizeof zd);
    zd.non_zero = 1;
    zd.skip_span = (uint8_t)rng_below(g, 4);
    zd.use_span = (uint8_t)rng_below(g, 6);
    zd.column_shift = (uint8_t)(rng_below(g, 3) * 8);
    for (int i = 0; i < 4; i++) zd.start_count[i] = (uint8_t)rng_below(g, 4), zd.first_span[i] = (uint8_t)rng_below(g, 2);
    if (tc5_zcmask_desc_encode(&zd, &a.zcmask, NULL) || tc5_zcmask_generate(&zd, M, N, &zm, NULL)) return false;
    a.has_zcmask = true;
    shift = zd.column_shift;
  }
  uint32_t *A = malloc((size_t)M * K * 4), *Bt = malloc((size_t)(N + 2 * shift) * K * 4), *B = malloc((size_t)K * N * 4),
           *D = malloc((size_t)M * N * 4);
  for (size_t i = 0; i < (size_t)M * K; i++) A[i] = rand_code(g, kc->a);
  for (size_t i = 0; i < (size_t)(N + 2 * shift) * K; i++) Bt[i] = rand_code(g, kc->b);
  /* each CTA: its A rows at 0, its B columns (+ shift) at 64 KB */
  world w;
  world_init(&w, 128 * 1024);
  bool ok = true;
  for (unsigned c = 0; c < cg && ok; c++) {
    tc5_smem_desc da, db;
    uint64_t ra, rb;
    ok = tc5_layout_scatter(&w.s[c], 0, sw, &opa, rows, K, A + (size_t)c * rows * K, &da, NULL) == TC5_OK &&
         tc5_layout_scatter(&w.s[c], 65536, sw, &opb, bcols + shift, K, Bt + (size_t)c * (bcols + shift) * K, &db,
                            NULL) == TC5_OK &&
         tc5_smem_desc_encode(&da, &ra, NULL) == TC5_OK && tc5_smem_desc_encode(&db, &rb, NULL) == TC5_OK;
    a.a_desc = ra;
    a.b_desc = rb;
  }
  if (!ok) { /* layout illegal for this type/major/swizzle (Table 52) */
    world_free(&w);
    free(A), free(Bt), free(B), free(D);
    return false;
  }
  for (unsigned k = 0; k < K; k++)
    for (unsigned n = 0; n < N; n++) {
      unsigned c = n / bcols, j = n % bcols;
      B[(size_t)k * N + n] = tc5_colmask_bit(&zm, n) ? 0 : Bt[((size_t)c * (bcols + shift) + j + shift) * K + k];
    }
  alloc_all(&w, cg);
  bool al16 = cg == 1 && M == 64 && !ws && rng_below(g, 2);
  a.d_tmem = TC5_TMEM_ADDR(al16 ? 16 : 0, 64);
  /* C: random, placed by the layout */
  for (unsigned c = 0; c < cg; c++)
    for (unsigned m = 0; m < rows; m++)
      for (unsigned n = 0; n < N; n++) {
        uint32_t l, col, v = rand_code(g, kc->d == TC5_S32 ? TC5_TF32 : kc->d);
        if (kc->d == TC5_S32) v = (uint32_t)rng_next(g);
        assert_int_equal(tc5_mma_d_cell(M, cg, ws, N, m, n, &l, &col, NULL), TC5_OK);
        tc5_tmem_poke(&w.t[c], TC5_TMEM_LANE(a.d_tmem) + l, 64 + col, v);
        D[((size_t)c * rows + m) * N + n] = v;
      }
  a.enable_input_d = acc;
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_status st = tc5_mma(w.c, cg, &a, &dg);
  if (st == TC5_EILLEGAL && dg.count && strstr(dg.issue[0].message, "Table 52")) { /* layout illegal: rejected */
    world_free(&w);
    free(A), free(Bt), free(B), free(D);
    return false;
  }
  if (st) fail_msg("kind %u M %u N %u cg %u ws %d: %s", kc->kind, M, N, cg, ws, dg.count ? dg.issue[0].message : "?");
  /* the reference: the core on the whole matrices */
  tc5_dot dot;
  assert_int_equal(tc5_dot_model(TC5_MODEL_BLACKWELL, kc->kind, kc->a, kc->b, kc->d, TC5_TYPE_NONE, 0, false, &dot, NULL),
                   TC5_OK);
  tc5_dot_opts o;
  tc5_dot_opts_init(&o);
  o.enable_input_d = acc;
  assert_int_equal(tc5_gemm(&dot, M, N, K, A, B, NULL, NULL, D, &o, 1), TC5_OK);
  for (unsigned c = 0; c < cg; c++)
    for (unsigned m = 0; m < rows; m++)
      for (unsigned n = 0; n < N; n++) {
        uint32_t l, col, v;
        tc5_mma_d_cell(M, cg, ws, N, m, n, &l, &col, NULL);
        tc5_tmem_peek(&w.t[c], TC5_TMEM_LANE(a.d_tmem) + l, 64 + col, &v, NULL);
        uint32_t want = D[((size_t)c * rows + m) * N + n];
        if (v != want)
          fail_msg("kind %u %s M %u N %u cg %u ws %d majors %d/%d sw %d: D[%u][%u] = 0x%08x, core 0x%08x", kc->kind,
                   tc5_type_name(kc->a), M, N, cg, ws, amaj, bmaj, sw, c * rows + m, n, v, want);
        n_checked++;
      }
  /* layout D read back the way a kernel does: 4 warps x 32x32b */
  if (cg == 1 && M == 128 && !ws && N <= 128) {
    tc5_tmem_ldst ld = {TC5_TMEM_32x32b, N, false, 0, TC5_TMEM_RED_NONE, TC5_TMEM_RED_F32, false, false};
    uint32_t *r = malloc(32 * (size_t)N * 4);
    for (uint32_t wq = 0; wq < 4; wq++) {
      assert_int_equal(tc5_tmem_ld(&w.t[0], &ld, wq, TC5_TMEM_ADDR(32 * wq, 64), r, NULL, NULL), TC5_OK);
      for (unsigned t = 0; t < 32; t++)
        for (unsigned n = 0; n < N; n++) assert_int_equal(r[t * N + n], D[(size_t)(32 * wq + t) * N + n]);
    }
    free(r);
  }
  n_cases++;
  world_free(&w);
  free(A), free(Bt), free(B), free(D);
  return true;
}

static void test_sweep(void **state) {
  (void)state;
  rng g;
  rng_seed(&g, 11);
  const tc5_swizzle sws[] = {TC5_SWIZZLE_NONE, TC5_SWIZZLE_32B, TC5_SWIZZLE_64B, TC5_SWIZZLE_128B,
                             TC5_SWIZZLE_128B_BASE32B};
  const unsigned ns[] = {32, 64, 256};
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
    for (unsigned cg = 1; cg <= 2; cg++)
      for (unsigned mi = 0; mi < 2; mi++)
        for (size_t ni = 0; ni < 3; ni++)
          for (int maj = 0; maj < 3; maj++) {
            unsigned M = cg == 1 ? (mi ? 128 : 64) : (mi ? 256 : 128);
            tc5_major am = maj == 1 ? TC5_MAJOR_MN : TC5_MAJOR_K, bm = maj == 2 ? TC5_MAJOR_MN : TC5_MAJOR_K;
            tc5_swizzle sw = sws[rng_below(&g, 5)];
            if (!run_case(&kinds[k], cg, false, M, ns[ni], am, bm, sw, rng_below(&g, 2), false, &g))
              run_case(&kinds[k], cg, false, M, ns[ni], am, bm, TC5_SWIZZLE_128B, true, false, &g);
          }
  /* .ws: M 32/64/128 x N 64/128/256, with and without zero-column masks */
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
    for (unsigned M = 32; M <= 128; M *= 2)
      for (unsigned N = 64; N <= 256; N *= 2)
        for (int z = 0; z < 2; z++) run_case(&kinds[k], 1, true, M, N, TC5_MAJOR_K, TC5_MAJOR_K, TC5_SWIZZLE_128B, true, z, &g);
  print_message("%u MMAs, %u D elements equal the core's GEMM\n", n_cases, n_checked);
  assert_true(n_cases >= 150);
}

static void test_layouts(void **state) {
  (void)state;
  uint32_t l, c;
  char id;
  assert_int_equal(tc5_mma_d_cell(128, 1, false, 256, 5, 7, &l, &c, &id), TC5_OK);
  assert_true(id == 'D' && l == 5 && c == 7);
  assert_int_equal(tc5_mma_d_cell(64, 1, false, 64, 17, 3, &l, &c, &id), TC5_OK);
  assert_true(id == 'F' && l == 33 && c == 3);
  assert_int_equal(tc5_mma_d_cell(64, 1, true, 128, 10, 70, &l, &c, &id), TC5_OK);
  assert_true(id == 'E' && l == 74 && c == 6);
  assert_int_equal(tc5_mma_d_cell(32, 1, true, 128, 3, 100, &l, &c, &id), TC5_OK);
  assert_true(id == 'G' && l == 99 && c == 4);
  assert_int_equal(tc5_mma_d_cell(128, 2, false, 256, 63, 200, &l, &c, &id), TC5_OK);
  assert_true(id == 'B' && l == 127 && c == 72);
  assert_int_equal(tc5_mma_d_cell(256, 2, false, 64, 127, 63, &l, &c, &id), TC5_OK);
  assert_true(id == 'A' && l == 127 && c == 63);
  assert_int_equal(tc5_mma_d_cell(256, 2, false, 64, 128, 0, &l, &c, &id), TC5_EINVAL);
  assert_int_equal(tc5_mma_d_cell(32, 1, false, 64, 0, 0, &l, &c, &id), TC5_EINVAL);
}

/* a legal bf16 128x64 MMA in CTA 0, to break one rule at a time */
static void setup(world *w, tc5_mma_args *a) {
  world_init(w, 128 * 1024);
  tc5_mma_args_init(a, TC5_KIND_F16);
  tc5_idesc d;
  tc5_idesc_init(&d, TC5_KIND_F16);
  tc5_idesc_set_types(&d, TC5_BF16, TC5_BF16, TC5_F32);
  d.m = 128;
  d.n = 64;
  tc5_idesc_encode(&d, &a->idesc, NULL);
  tc5_operand op;
  tc5_operand_for(TC5_KIND_F16, TC5_BF16, TC5_MAJOR_K, &op);
  static uint32_t codes[128 * 16];
  for (int i = 0; i < 128 * 16; i++) codes[i] = 0x3F80u + (uint32_t)(i % 7);
  tc5_smem_desc da, db;
  assert_int_equal(tc5_layout_scatter(&w->s[0], 0, TC5_SWIZZLE_128B, &op, 128, 16, codes, &da, NULL), TC5_OK);
  assert_int_equal(tc5_layout_scatter(&w->s[0], 32768, TC5_SWIZZLE_128B, &op, 64, 16, codes, &db, NULL), TC5_OK);
  tc5_smem_desc_encode(&da, &a->a_desc, NULL);
  tc5_smem_desc_encode(&db, &a->b_desc, NULL);
  uint32_t t;
  assert_int_equal(tc5_tmem_alloc(&w->t[0], 128, &t, NULL), TC5_OK);
  a->d_tmem = t;
  a->enable_input_d = false;
}

static void expect_err(world *w, tc5_mma_args *a, tc5_status want, const char *text) {
  tc5_diag d;
  tc5_diag_init(&d);
  tc5_status st = tc5_mma(w->c, a->variant.cta_group, a, &d);
  bool found = false;
  for (unsigned i = 0; i < d.count; i++) found = found || strstr(d.issue[i].message, text);
  if (st != want || !found) fail_msg("status %d (want %d), message \"%s\"", st, want, d.count ? d.issue[0].message : "");
}

static void test_rules(void **state) {
  (void)state;
  world w;
  tc5_mma_args a;
  setup(&w, &a);
  assert_int_equal(tc5_mma(w.c, 1, &a, NULL), TC5_OK);
  /* C never written, with enable-input-d: the first MMA wrote it; a fresh column range is not */
  a.enable_input_d = true;
  assert_int_equal(tc5_mma(w.c, 1, &a, NULL), TC5_OK);
  a.d_tmem = 64;
  expect_err(&w, &a, TC5_EUNINIT, "were never written");
  a.d_tmem = 96; /* columns 96..159: 128..159 not allocated */
  a.enable_input_d = false;
  expect_err(&w, &a, TC5_ESTATE, "column 128 is not allocated");
  a.d_tmem = TC5_TMEM_ADDR(16, 0);
  expect_err(&w, &a, TC5_EALIGN, "needs lane alignment 0");
  a.d_tmem = 0;
  a.scale_input_d = 16;
  expect_err(&w, &a, TC5_ERANGE, "outside [0, 15]");
  a.scale_input_d = 0;
  /* collector: use without fill, then fill/use/lastuse, then use again */
  a.variant.collector_buf = TC5_COLLECTOR_BUF_A;
  a.variant.collector_op = TC5_COLLECTOR_USE;
  expect_err(&w, &a, TC5_ESTATE, "without a valid fill of buffer a");
  a.variant.collector_op = TC5_COLLECTOR_FILL;
  assert_int_equal(tc5_mma(w.c, 1, &a, NULL), TC5_OK);
  a.variant.collector_op = TC5_COLLECTOR_USE;
  assert_int_equal(tc5_mma(w.c, 1, &a, NULL), TC5_OK);
  uint8_t z = 0x11;
  tc5_smem_write(&w.s[0], 0, &z, 1, NULL); /* A changes under the collector */
  expect_err(&w, &a, TC5_ESTATE, "differs from the one filled");
  a.variant.collector_op = TC5_COLLECTOR_FILL;
  assert_int_equal(tc5_mma(w.c, 1, &a, NULL), TC5_OK);
  a.variant.collector_op = TC5_COLLECTOR_LASTUSE;
  assert_int_equal(tc5_mma(w.c, 1, &a, NULL), TC5_OK);
  a.variant.collector_op = TC5_COLLECTOR_USE;
  expect_err(&w, &a, TC5_ESTATE, "without a valid fill");
  a.variant.collector_op = TC5_COLLECTOR_DEFAULT;
  a.variant.collector_buf = TC5_COLLECTOR_BUF_NONE;
  /* the instruction descriptor against the variant */
  a.variant.cta_group = 2;
  tc5_diag dd;
  tc5_diag_init(&dd);
  assert_int_equal(tc5_mma(w.c, 1, &a, &dd), TC5_EINVAL);
  assert_non_null(strstr(dd.issue[0].message, "needs 2 CTAs"));
  a.variant.cta_group = 1;
  a.variant.kind = TC5_KIND_I8;
  expect_err(&w, &a, TC5_ERESERVED, "");
  a.variant.kind = TC5_KIND_F16;
  a.has_zcmask = true;
  expect_err(&w, &a, TC5_EILLEGAL, "tcgen05.mma.ws only");
  a.has_zcmask = false;
  /* B's descriptor pointing outside shared memory */
  tc5_smem_desc db;
  tc5_smem_desc_decode(a.b_desc, &db, NULL);
  uint64_t keep = a.b_desc;
  db.start_address = 128 * 1024 - 1024;
  tc5_smem_desc_encode(&db, &a.b_desc, NULL);
  expect_err(&w, &a, TC5_EBOUNDS, "B (b-desc)");
  a.b_desc = keep;
  /* disable-output-lane: lanes 0-31 keep their old value */
  uint32_t before, after;
  tc5_tmem_peek(&w.t[0], 40, 5, &before, NULL); /* rows 32+ do not change (A changed in row 0 only) */
  tc5_tmem_poke(&w.t[0], 3, 5, 0x12345678u);
  a.has_disable_output_lane = true;
  a.disable_output_lane[0] = 0xFFFFFFFFu;
  assert_int_equal(tc5_mma(w.c, 1, &a, NULL), TC5_OK);
  tc5_tmem_peek(&w.t[0], 3, 5, &after, NULL);
  assert_int_equal(after, 0x12345678u);
  tc5_tmem_peek(&w.t[0], 40, 5, &after, NULL);
  assert_int_equal(after, before);
  /* mixed cta_group in one kernel */
  a.variant.cta_group = 2;
  tc5_tmem_alloc(&w.t[1], 128, &after, NULL);
  expect_err(&w, &a, TC5_EILLEGAL, "");
  world_free(&w);
  /* .ws: column shift above the maximum shift of the instruction descriptor */
  setup(&w, &a);
  a.variant.ws = true;
  tc5_zcmask_desc zd;
  memset(&zd, 0, sizeof zd);
  zd.column_shift = 16;
  tc5_zcmask_desc_encode(&zd, &a.zcmask, NULL);
  a.has_zcmask = true;
  expect_err(&w, &a, TC5_EILLEGAL, "column shift 16 exceeds the instruction descriptor's .ws maximum shift (no shift");
  world_free(&w);
}

/* ---- completion: a K loop queued and committed once equals the same MMAs
 * completed one by one, bit for bit, whatever the interleaving ---------- */

/* K of the MMA for a kind (dense) */
static unsigned kind_k(tc5_kind k) {
  return k == TC5_KIND_TF32 ? 8 : k == TC5_KIND_F16 ? 16 : 32;
}

/* a random program of MMAs over D tiles (some overlapping) of one CTA
 * (cta_group::1, M = 128) or a pair (cta_group::2, M = 256), with A and B
 * blocks already in shared memory; run through the queue with one commit,
 * and one MMA at a time */
static void k_loop_program(const kcase *kc, unsigned cg, rng *g) {
  unsigned M = 128 * cg, N = 64, K = kind_k(kc->kind), rows = M / cg;
  tc5_mma_args a;
  tc5_mma_args_init(&a, kc->kind);
  a.variant.cta_group = (uint8_t)cg;
  tc5_idesc d;
  tc5_idesc_init(&d, kc->kind);
  tc5_idesc_set_types(&d, kc->a, kc->b, kc->d);
  d.m = (uint16_t)M;
  d.n = (uint16_t)N;
  uint32_t idesc[2];
  d.negate_a = 0;
  assert_int_equal(tc5_idesc_encode(&d, &idesc[0], NULL), TC5_OK);
  d.negate_a = kc->kind != TC5_KIND_I8; /* a second arithmetic: never fused with the first */
  assert_int_equal(tc5_idesc_encode(&d, &idesc[1], NULL), TC5_OK);
  tc5_operand opa, opb;
  assert_int_equal(tc5_operand_for(kc->kind, kc->a, TC5_MAJOR_K, &opa), TC5_OK);
  assert_int_equal(tc5_operand_for(kc->kind, kc->b, TC5_MAJOR_K, &opb), TC5_OK);
  world w[2];
  uint64_t adesc[4], bdesc[3];
  uint32_t *codes = malloc((size_t)rows * K * 4);
  for (int i = 0; i < 2; i++) world_init(&w[i], 128 * 1024);
  for (unsigned c = 0; c < cg; c++) {
    for (int blk = 0; blk < 7; blk++) {
      unsigned r = blk < 4 ? rows : N / cg;
      for (size_t e = 0; e < (size_t)r * K; e++) codes[e] = rand_code(g, blk < 4 ? kc->a : kc->b);
      tc5_smem_desc sd;
      for (int i = 0; i < 2; i++)
        assert_int_equal(tc5_layout_scatter(&w[i].s[c], (uint32_t)blk * 16384u, TC5_SWIZZLE_128B, blk < 4 ? &opa : &opb,
                                            r, K, codes, &sd, NULL),
                         TC5_OK);
      assert_int_equal(tc5_smem_desc_encode(&sd, blk < 4 ? &adesc[blk] : &bdesc[blk - 4], NULL), TC5_OK);
    }
    /* Tensor Memory: 256 columns, every cell random (C of any first MMA) */
    for (int i = 0; i < 2; i++) {
      uint32_t t;
      if (cg == 2) {
        tc5_tmem *pair[2] = {&w[i].t[0], &w[i].t[1]};
        if (c == 0) assert_int_equal(tc5_tmem_alloc2(pair, 256, &t, NULL), TC5_OK);
      } else {
        assert_int_equal(tc5_tmem_alloc(&w[i].t[c], 256, &t, NULL), TC5_OK);
      }
    }
    for (uint32_t l = 0; l < 128; l++)
      for (uint32_t col = 0; col < 256; col++) {
        uint32_t v = kc->d == TC5_S32 ? (uint32_t)rng_next(g) : rand_code(g, kc->d == TC5_F16 ? TC5_F16 : TC5_TF32);
        for (int i = 0; i < 2; i++) tc5_tmem_poke(&w[i].t[c], l, col, v);
      }
  }
  free(codes);
  static const uint32_t tile_col[4] = {0, 64, 32, 128}; /* the third overlaps the first two */
  unsigned count = 8 + (unsigned)rng_below(g, 24);
  tc5_mbarrier mb;
  tc5_mbarrier *mbp = &mb;
  assert_int_equal(tc5_mbarrier_init(&mb, 1, NULL), TC5_OK);
  for (unsigned i = 0; i < count; i++) {
    /* mostly K loops: a tile, its A rows, B blocks in turn, accumulating */
    a.d_tmem = tile_col[rng_below(g, rng_below(g, 4) ? 2 : 4)];
    a.a_desc = adesc[rng_below(g, 4)];
    a.b_desc = bdesc[rng_below(g, 3)];
    a.idesc = idesc[rng_below(g, 8) == 0];
    a.enable_input_d = rng_below(g, 6) != 0;
    a.scale_input_d = kc->kind == TC5_KIND_F16 && rng_below(g, 6) == 0 ? (unsigned)rng_below(g, 16) : 0;
    a.has_disable_output_lane = rng_below(g, 8) == 0;
    for (int q = 0; q < 8; q++) a.disable_output_lane[q] = (uint32_t)rng_next(g);
    tc5_diag dg;
    tc5_diag_init(&dg);
    if (tc5_mma_issue(w[0].c, cg, &a, &dg)) fail_msg("issue: %s", dg.count ? dg.issue[0].message : "?");
    if (tc5_mma(w[1].c, cg, &a, &dg)) fail_msg("mma: %s", dg.count ? dg.issue[0].message : "?");
  }
  unsigned pending;
  assert_int_equal(tc5_mma_pending(&w[0].c[0], &pending), TC5_OK);
  assert_int_equal(pending, count);
  bool done;
  assert_int_equal(tc5_mbarrier_test_wait(&mb, 0, &done, NULL), TC5_OK);
  assert_false(done);
  assert_int_equal(tc5_commit(&w[0].c[0], cg, &mbp, 1, NULL), TC5_OK);
  assert_int_equal(tc5_mbarrier_test_wait(&mb, 0, &done, NULL), TC5_OK);
  assert_true(done);
  assert_int_equal(tc5_mma_pending(&w[0].c[0], &pending), TC5_OK);
  assert_int_equal(pending, 0);
  for (unsigned c = 0; c < cg; c++) {
    size_t cells = (size_t)TC5_TMEM_LANES * TC5_TMEM_COLS;
    for (size_t e = 0; e < cells; e++)
      if (w[0].t[c].cells[e] != w[1].t[c].cells[e] || w[0].t[c].written[e] != w[1].t[c].written[e])
        fail_msg("kind %u %s cg %u, %u MMAs: lane %zu column %zu: queued 0x%08x, one by one 0x%08x", kc->kind,
                 tc5_type_name(kc->a), cg, count, e / TC5_TMEM_COLS, e % TC5_TMEM_COLS, w[0].t[c].cells[e],
                 w[1].t[c].cells[e]);
  }
  for (int i = 0; i < 2; i++) world_free(&w[i]);
}

/* An f16 D is the low 16 bits of each cell: a C zeroed by tcgen05.st
 * .unpack::16b (which writes only those, as Triton zeroes an f16
 * accumulator) is written for an f16 D, and still not for an f32 D (issue 37:
 * Triton's test_dot[...-float16-float16-...] at 64 x 64 x 64 was stopped by a
 * false tmem-uninit-read) */
static void test_f16_d_unpacked_c(void **state) {
  (void)state;
  for (int f16 = 1; f16 >= 0; f16--) {
    world w;
    tc5_mma_args a;
    setup(&w, &a);
    tc5_idesc d;
    tc5_idesc_init(&d, TC5_KIND_F16);
    tc5_idesc_set_types(&d, f16 ? TC5_F16 : TC5_BF16, f16 ? TC5_F16 : TC5_BF16, f16 ? TC5_F16 : TC5_F32);
    d.m = 128;
    d.n = 64;
    assert_int_equal(tc5_idesc_encode(&d, &a.idesc, NULL), TC5_OK);
    /* C = 0 by 32x32b.x32.unpack::16b: 64 columns of each warp's 32 lanes, low halves */
    tc5_tmem_ldst st = {TC5_TMEM_32x32b, 32, true, 0, TC5_TMEM_RED_NONE, TC5_TMEM_RED_F32, false, false};
    static uint32_t zeros[32 * 32];
    for (uint32_t wq = 0; wq < 4; wq++)
      assert_int_equal(tc5_tmem_st(&w.t[0], &st, wq, TC5_TMEM_ADDR(32 * wq, 0), zeros, NULL), TC5_OK);
    a.enable_input_d = true;
    if (f16) {
      tc5_diag dg;
      tc5_diag_init(&dg);
      tc5_status r = tc5_mma(w.c, 1, &a, &dg);
      if (r) fail_msg("f16 D over an .unpack::16b C: %s", dg.count ? dg.issue[0].message : tc5_strerror(r));
    } else {
      expect_err(&w, &a, TC5_EUNINIT, "were never written");
    }
    world_free(&w);
  }
}

static void test_completion(void **state) {
  (void)state;
  rng g;
  rng_seed(&g, 0x5eed);
  for (int trial = 0; trial < 36; trial++) k_loop_program(&kinds[trial % 6], 1 + (unsigned)(trial / 6 % 2), &g);
}

/* completion errors name the MMA; tc5_cta_free drops what never completed */
static void test_completion_rules(void **state) {
  (void)state;
  world w;
  tc5_mma_args a;
  setup(&w, &a);
  assert_int_equal(tc5_mma_issue(w.c, 1, &a, NULL), TC5_OK); /* #1 writes columns 0-63 */
  a.enable_input_d = true;
  assert_int_equal(tc5_mma_issue(w.c, 1, &a, NULL), TC5_OK); /* #2 reads what #1 writes: fine */
  a.d_tmem = 64;
  assert_int_equal(tc5_mma_issue(w.c, 1, &a, NULL), TC5_OK); /* #3 reads columns never written */
  tc5_diag dg;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_mma_complete(&w.c[0], &dg), TC5_EUNINIT);
  assert_non_null(strstr(dg.issue[0].message, "tcgen05.mma #3: enable-input-d reads D"));
  uint32_t v;
  bool wr;
  assert_int_equal(tc5_tmem_peek(&w.t[0], 0, 0, &v, &wr), TC5_OK);
  assert_true(wr); /* #1 and #2 completed */
  unsigned pending = 9;
  assert_int_equal(tc5_mma_pending(&w.c[0], &pending), TC5_OK);
  assert_int_equal(pending, 0);
  /* a commit whose MMAs fail does not arrive */
  tc5_mbarrier mb;
  tc5_mbarrier *mbp = &mb;
  assert_int_equal(tc5_mbarrier_init(&mb, 1, NULL), TC5_OK);
  assert_int_equal(tc5_mma_issue(w.c, 1, &a, NULL), TC5_OK);
  assert_int_equal(tc5_commit(&w.c[0], 1, &mbp, 1, NULL), TC5_EUNINIT);
  bool done;
  assert_int_equal(tc5_mbarrier_test_wait(&mb, 0, &done, NULL), TC5_OK);
  assert_false(done);
  /* dropped by tc5_cta_free */
  assert_int_equal(tc5_mma_issue(w.c, 1, &a, NULL), TC5_OK);
  assert_int_equal(tc5_cta_free(&w.c[0]), TC5_OK);
  assert_int_equal(tc5_mma_pending(&w.c[0], &pending), TC5_OK);
  assert_int_equal(pending, 0);
  assert_int_equal(tc5_mma_complete(&w.c[0], NULL), TC5_OK);
  assert_int_equal(tc5_cta_free(NULL), TC5_EINVAL);
  assert_int_equal(tc5_mma_issue(NULL, 1, &a, NULL), TC5_EINVAL);
  assert_int_equal(tc5_mma_issue(w.c, 1, NULL, NULL), TC5_EINVAL);
  assert_int_equal(tc5_mma(NULL, 1, &a, NULL), TC5_EINVAL);
  tc5_smem *keep = w.c[0].smem;
  w.c[0].smem = NULL;
  assert_int_equal(tc5_mma_issue(w.c, 1, &a, NULL), TC5_EINVAL);
  w.c[0].smem = keep;
  assert_int_equal(tc5_mma_args_init(NULL, TC5_KIND_F16), TC5_EINVAL);
  assert_int_equal(tc5_mma_pending(NULL, &pending), TC5_EINVAL);
  assert_int_equal(tc5_mma_complete(NULL, NULL), TC5_EINVAL);
  world_free(&w);
}

/* .ashift: A from Tensor Memory with its rows moved down by one, the first
 * row kept; equals A from shared memory with the rows so arranged */
static void test_ashift(void **state) {
  (void)state;
  world w;
  tc5_mma_args a;
  setup(&w, &a); /* bf16 128 x 64, A at smem 0 (rows of codes 0x3F80 + i % 7) */
  rng g;
  rng_seed(&g, 77);
  static uint32_t A[128 * 16], As[128 * 16];
  for (int i = 0; i < 128 * 16; i++) A[i] = rand_code(&g, TC5_BF16);
  for (int m = 0; m < 128; m++)
    for (int k = 0; k < 16; k++) As[m * 16 + k] = A[(m ? m - 1 : 0) * 16 + k];
  /* A in columns 64..71 of Tensor Memory: two bf16 a column */
  for (uint32_t m = 0; m < 128; m++)
    for (uint32_t c = 0; c < 8; c++) tc5_tmem_poke(&w.t[0], m, 64 + c, A[m * 16 + 2 * c] | A[m * 16 + 2 * c + 1] << 16);
  tc5_operand op;
  tc5_operand_for(TC5_KIND_F16, TC5_BF16, TC5_MAJOR_K, &op);
  tc5_smem_desc da;
  assert_int_equal(tc5_layout_scatter(&w.s[0], 0, TC5_SWIZZLE_128B, &op, 128, 16, As, &da, NULL), TC5_OK);
  assert_int_equal(tc5_smem_desc_encode(&da, &a.a_desc, NULL), TC5_OK);
  assert_int_equal(tc5_mma(w.c, 1, &a, NULL), TC5_OK); /* reference in columns 0..63 */
  a.variant.ashift = true;
  a.a_in_tmem = true;
  a.a_tmem = 64;
  a.d_tmem = 72;
  tc5_tmem_alloc(&w.t[0], 128, &a.d_tmem, NULL); /* columns 128.. */
  assert_int_equal(tc5_mma(w.c, 1, &a, NULL), TC5_OK);
  for (uint32_t l = 0; l < 128; l++)
    for (uint32_t c = 0; c < 64; c++) {
      uint32_t x, y;
      tc5_tmem_peek(&w.t[0], l, c, &x, NULL);
      tc5_tmem_peek(&w.t[0], l, 128 + c, &y, NULL);
      assert_int_equal(x, y);
    }
  a.a_in_tmem = false;
  expect_err(&w, &a, TC5_EILLEGAL, "A must be [a-tmem]");
  a.a_in_tmem = true;
  tc5_idesc d;
  tc5_idesc_init(&d, TC5_KIND_F16);
  tc5_idesc_set_types(&d, TC5_BF16, TC5_BF16, TC5_F32);
  d.m = 64;
  d.n = 64;
  tc5_idesc_encode(&d, &a.idesc, NULL);
  expect_err(&w, &a, TC5_EILLEGAL, "only allowed with M = 128 or 256");
  world_free(&w);
}

/* ---- block scaling (9.7.16.10.7): the engine against the core ----------- */

typedef struct bscase {
  tc5_kind kind;
  tc5_type a, b, s;
  unsigned block;
} bscase;

static const bscase bskinds[] = {
    {TC5_KIND_MXF8F6F4, TC5_E4M3, TC5_E2M1, TC5_UE8M0, 32}, {TC5_KIND_MXF8F6F4, TC5_E3M2, TC5_E5M2, TC5_UE8M0, 32},
    {TC5_KIND_MXF4, TC5_E2M1, TC5_E2M1, TC5_UE8M0, 32},     {TC5_KIND_MXF4NVF4, TC5_E2M1, TC5_E2M1, TC5_UE4M3, 16},
    {TC5_KIND_MXF4NVF4, TC5_E2M1, TC5_E2M1, TC5_UE8M0, 16}, {TC5_KIND_MXF4NVF4, TC5_E2M1, TC5_E2M1, TC5_UE8M0, 32},
};

/* a K loop of `nk` block-scaled MMAs (A and B blocks and scale factors
 * each their own) queued and committed once; D equals tc5_gemm over the
 * whole K with the same scales */
static void bs_case(const bscase *bc, unsigned cg, unsigned M, unsigned N, unsigned nk, tc5_major amaj, rng *g) {
  tc5_mma_args a;
  tc5_mma_args_init(&a, bc->kind);
  a.variant.cta_group = (uint8_t)cg;
  a.variant.block = (uint8_t)bc->block;
  tc5_idesc d;
  tc5_idesc_init(&d, bc->kind);
  assert_int_equal(tc5_idesc_set_types(&d, bc->a, bc->b, TC5_F32), TC5_OK);
  d.m = (uint16_t)M, d.n = (uint16_t)N;
  d.scale_type = bc->s == TC5_UE8M0;
  d.transpose_a = amaj == TC5_MAJOR_MN;
  unsigned K, rows = M / cg, bcols = N / cg;
  tc5_idesc_k(&d, &K);
  unsigned ns = K / bc->block, KT = K * nk, NS = ns * nk;
  bool two = cg == 2 && M == 128;
  tc5_operand opa, opb;
  assert_int_equal(tc5_operand_for(bc->kind, bc->a, amaj, &opa), TC5_OK);
  assert_int_equal(tc5_operand_for(bc->kind, bc->b, TC5_MAJOR_K, &opb), TC5_OK);
  uint32_t *A = malloc((size_t)M * KT * 4), *B = malloc((size_t)KT * N * 4), *D = malloc((size_t)M * N * 4);
  uint32_t *SA = malloc((size_t)M * NS * 4), *SB = malloc((size_t)NS * N * 4), *blk = malloc((size_t)256 * K * 4);
  for (size_t i = 0; i < (size_t)M * KT; i++) A[i] = rand_code(g, bc->a);
  for (size_t i = 0; i < (size_t)KT * N; i++) B[i] = rand_code(g, bc->b);
  /* scales near 1 with some spread (ue4m3 0x38 = 1.0, ue8m0 127 = 1.0) */
  for (size_t i = 0; i < (size_t)M * NS; i++)
    SA[i] = bc->s == TC5_UE8M0 ? 120 + (uint32_t)rng_below(g, 14) : 0x30 + (uint32_t)rng_below(g, 16);
  for (size_t i = 0; i < (size_t)NS * N; i++)
    SB[i] = bc->s == TC5_UE8M0 ? 120 + (uint32_t)rng_below(g, 14) : 0x30 + (uint32_t)rng_below(g, 16);
  world w;
  world_init(&w, 128 * 1024);
  alloc_all(&w, cg);
  tc5_mbarrier mb;
  tc5_mbarrier *mbp = &mb;
  assert_int_equal(tc5_mbarrier_init(&mb, 1, NULL), TC5_OK);
  a.d_tmem = 0;
  a.enable_input_d = false;
  for (unsigned kb = 0; kb < nk; kb++) {
    /* the scale factor IDs this MMA uses: any byte a K of 1X/2X allows */
    unsigned id = ns == 1 ? (unsigned)rng_below(g, 4) : ns == 2 ? 2 * (unsigned)rng_below(g, 2) : 0;
    d.sfa_id = (uint8_t)id, d.sfb_id = (uint8_t)(ns == 1 ? (id + 1) % 4 : id);
    assert_int_equal(tc5_idesc_encode(&d, &a.idesc, NULL), TC5_OK);
    uint32_t sfa_col = 256 + 16 * kb, sfb_col = 256 + 16 * kb + 4;
    a.sfa_tmem = sfa_col | (uint32_t)id << 30; /* CUTLASS's byte bits: ignored */
    a.sfb_tmem = sfb_col;
    for (unsigned c = 0; c < cg; c++) {
      tc5_smem_desc da, db;
      for (unsigned r = 0; r < rows; r++)
        memcpy(blk + (size_t)r * K, A + ((size_t)c * rows + r) * KT + (size_t)kb * K, K * 4);
      assert_int_equal(tc5_layout_scatter(&w.s[c], 32768u * (kb % 2), TC5_SWIZZLE_128B, &opa, rows, K, blk, &da, NULL),
                       TC5_OK);
      for (unsigned j = 0; j < bcols; j++)
        for (unsigned k = 0; k < K; k++) blk[(size_t)j * K + k] = B[((size_t)kb * K + k) * N + c * bcols + j];
      assert_int_equal(
          tc5_layout_scatter(&w.s[c], 65536 + 16384u * (kb % 2), TC5_SWIZZLE_128B, &opb, bcols, K, blk, &db, NULL),
          TC5_OK);
      assert_int_equal(tc5_smem_desc_encode(&da, &a.a_desc, NULL), TC5_OK);
      assert_int_equal(tc5_smem_desc_encode(&db, &a.b_desc, NULL), TC5_OK);
      for (unsigned r = 0; r < rows; r++)
        for (unsigned s = 0; s < ns; s++)
          poke_sf(&w.t[c], sfa_col, false, rows, r, d.sfa_id + s, SA[((size_t)c * rows + r) * NS + kb * ns + s]);
      for (unsigned n = 0; n < N; n++)
        for (unsigned s = 0; s < ns; s++)
          poke_sf(&w.t[c], sfb_col, two, N, n, d.sfb_id + s, SB[((size_t)kb * ns + s) * N + n]);
    }
    tc5_diag dg;
    tc5_diag_init(&dg);
    if (tc5_mma_issue(w.c, cg, &a, &dg))
      fail_msg("%s %s x %s cg %u M %u N %u: %s", tc5_kind_name(bc->kind), tc5_type_name(bc->a), tc5_type_name(bc->b),
               cg, M, N, dg.count ? dg.issue[0].message : "?");
    if (kb % 2) assert_int_equal(tc5_mma_complete(&w.c[0], NULL), TC5_OK); /* smem reused every other block */
    a.enable_input_d = true;
  }
  assert_int_equal(tc5_commit(&w.c[0], cg, &mbp, 1, NULL), TC5_OK);
  tc5_dot dot;
  assert_int_equal(tc5_dot_model(TC5_MODEL_BLACKWELL, bc->kind, bc->a, bc->b, TC5_F32, bc->s, bc->block, false, &dot, NULL),
                   TC5_OK);
  tc5_dot_opts o;
  tc5_dot_opts_init(&o);
  o.enable_input_d = false;
  assert_int_equal(tc5_gemm(&dot, M, N, KT, A, B, SA, SB, D, &o, 1), TC5_OK);
  for (unsigned c = 0; c < cg; c++)
    for (unsigned m = 0; m < rows; m++)
      for (unsigned n = 0; n < N; n++) {
        uint32_t l, col, v;
        tc5_mma_d_cell(M, cg, false, N, m, n, &l, &col, NULL);
        tc5_tmem_peek(&w.t[c], l, col, &v, NULL);
        uint32_t want = D[((size_t)c * rows + m) * N + n];
        if (v != want)
          fail_msg("%s %s x %s %s block %u cg %u M %u N %u: D[%u][%u] = 0x%08x, tc5_gemm 0x%08x",
                   tc5_kind_name(bc->kind), tc5_type_name(bc->a), tc5_type_name(bc->b), tc5_type_name(bc->s),
                   bc->block, cg, M, N, c * rows + m, n, v, want);
        n_checked++;
      }
  n_cases++;
  world_free(&w);
  free(A), free(B), free(D), free(SA), free(SB), free(blk);
}

static void test_block_scaled(void **state) {
  (void)state;
  rng g;
  rng_seed(&g, 0xb5);
  n_cases = n_checked = 0;
  const unsigned ns[] = {16, 64, 256};
  for (size_t k = 0; k < sizeof bskinds / sizeof bskinds[0]; k++)
    for (unsigned cg = 1; cg <= 2; cg++)
      for (unsigned mi = 0; mi < (cg == 2 ? 2u : 1u); mi++)
        for (unsigned ni = 0; ni < 3; ni++) {
          unsigned M = cg == 1 ? 128 : mi ? 256 : 128;
          tc5_major am = bskinds[k].a == TC5_E4M3 && ni == 1 ? TC5_MAJOR_MN : TC5_MAJOR_K;
          bs_case(&bskinds[k], cg, M, ns[ni], 1 + (unsigned)rng_below(&g, 4), am, &g);
        }
  print_message("%u block-scaled K loops, %u D elements equal tc5_gemm with the same scales\n", n_cases, n_checked);
}

/* the scale-factor rules: lane, replicas, never written, K = 96 */
static void test_block_scaled_rules(void **state) {
  (void)state;
  world w;
  world_init(&w, 128 * 1024);
  uint32_t taddr;
  assert_int_equal(tc5_tmem_alloc(&w.t[0], 512, &taddr, NULL), TC5_OK);
  tc5_mma_args a;
  tc5_mma_args_init(&a, TC5_KIND_MXF4NVF4);
  a.variant.block = 16;
  tc5_idesc d;
  tc5_idesc_init(&d, TC5_KIND_MXF4NVF4);
  tc5_idesc_set_types(&d, TC5_E2M1, TC5_E2M1, TC5_F32);
  d.m = 128, d.n = 64, d.scale_type = 0; /* ue4m3 */
  assert_int_equal(tc5_idesc_encode(&d, &a.idesc, NULL), TC5_OK);
  tc5_operand op;
  tc5_operand_for(TC5_KIND_MXF4NVF4, TC5_E2M1, TC5_MAJOR_K, &op);
  uint32_t *z = calloc(128 * 64, 4);
  tc5_smem_desc sd;
  assert_int_equal(tc5_layout_scatter(&w.s[0], 0, TC5_SWIZZLE_128B, &op, 128, 64, z, &sd, NULL), TC5_OK);
  assert_int_equal(tc5_smem_desc_encode(&sd, &a.a_desc, NULL), TC5_OK);
  a.b_desc = a.a_desc;
  a.d_tmem = 0, a.sfa_tmem = 256, a.sfb_tmem = 260;
  a.enable_input_d = false;
  tc5_diag dg;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_mma_issue(w.c, 1, &a, &dg), TC5_EUNINIT);
  assert_non_null(strstr(dg.issue[0].message, "scale factor 0 of row 0 is read at lane 0 column 256, never written"));
  for (unsigned i = 0; i < 128; i++)
    for (unsigned s = 0; s < 4; s++) poke_sf(&w.t[0], 256, false, 128, i, s, 0x38);
  for (unsigned i = 0; i < 64; i++)
    for (unsigned s = 0; s < 4; s++) poke_sf(&w.t[0], 260, false, 64, i, s, 0x38);
  assert_int_equal(tc5_mma(w.c, 1, &a, NULL), TC5_OK);
  /* one replica differs: lane 96 + 5 holds another scale for row 101's block */
  uint32_t v;
  tc5_tmem_peek(&w.t[0], 101, 259, &v, NULL);
  tc5_tmem_poke(&w.t[0], 101, 259, v ^ 0x100);
  tc5_diag_init(&dg);
  assert_int_equal(tc5_mma_issue(w.c, 1, &a, &dg), TC5_EILLEGAL);
  assert_non_null(strstr(dg.issue[0].message, "scale factor 1 of row 101 is 0x38 at lane 5 but 0x39 at lane 101"));
  assert_non_null(strstr(dg.issue[0].message, "duplicated to all 32-lane partitions"));
  tc5_tmem_poke(&w.t[0], 101, 259, v);
  a.sfb_tmem = TC5_TMEM_ADDR(32, 260);
  tc5_diag_init(&dg);
  assert_int_equal(tc5_mma_issue(w.c, 1, &a, &dg), TC5_EALIGN);
  assert_non_null(strstr(dg.issue[0].message, "[scale-B-tmem] lane 32"));
  a.sfb_tmem = 510; /* columns 510..511 of 2 needed: fits; 511 would not */
  tc5_diag_init(&dg);
  a.sfb_tmem = 511;
  assert_int_equal(tc5_mma_issue(w.c, 1, &a, &dg), TC5_EBOUNDS);
  a.sfb_tmem = 260;
  /* K = 96 (sm_103a) */
  a.variant.arch = TC5_ARCH_SM103A;
  a.variant.cta_group = 2;
  tc5_mma_args b = a;
  tc5_idesc d96 = d;
  d96.k96 = 1, d96.m = 256;
  b.variant.block = 16;
  assert_int_equal(tc5_idesc_encode(&d96, &b.idesc, NULL), TC5_OK);
  tc5_tmem_relinquish(&w.t[0], NULL);
  tc5_diag_init(&dg);
  assert_int_equal(tc5_mma_issue(w.c, 2, &b, &dg), TC5_EUNSUPPORTED);
  assert_non_null(strstr(dg.issue[dg.count - 1].message, "K = 96"));
  free(z);
  world_free(&w);
}

/* ---- sparse A (9.7.16.10.8): the engine against the dense core on A with
 * the elided elements zero and the step settled on the H100 ------------- */

static void sp_case(const bscase *bc, tc5_type dtype, unsigned cg, unsigned M, unsigned N, bool ws, rng *g) {
  static const uint32_t nibs[7] = {0x4, 0x8, 0xC, 0x9, 0xD, 0x6, 0xE};
  tc5_mma_args a;
  tc5_mma_args_init(&a, bc->kind);
  a.variant.cta_group = (uint8_t)cg;
  a.variant.ws = ws;
  a.variant.sparse = true;
  a.variant.block = (uint8_t)bc->block;
  tc5_idesc d;
  tc5_idesc_init(&d, bc->kind);
  assert_int_equal(tc5_idesc_set_types(&d, bc->a, bc->b, dtype), TC5_OK);
  d.m = (uint16_t)M, d.n = (uint16_t)N, d.sparse = 1;
  d.scale_type = bc->s == TC5_UE8M0;
  tc5_diag dg;
  tc5_diag_init(&dg);
  if (tc5_idesc_encode(&d, &a.idesc, &dg) || tc5_idesc_check(&d, &a.variant, &dg))
    fail_msg("%s sp M %u N %u: %s", tc5_kind_name(bc->kind), M, N, dg.count ? dg.issue[0].message : "?");
  unsigned K, rows = M / cg, bcols = N / cg;
  tc5_idesc_k(&d, &K);
  /* scales: stored one a `block` kept elements (nk a row); the core sees logical blocks of
   * min(2 block, 32), each stored scale standing for dup of them */
  unsigned lblock = bc->block ? (2 * bc->block > 32 ? 32 : 2 * bc->block) : 0;
  unsigned ns = bc->block ? K / lblock : 0, nk = bc->block ? K / 2 / bc->block : 0, dup = nk ? ns / nk : 1;
  tc5_operand opa, opb;
  assert_int_equal(tc5_operand_for(bc->kind, bc->a, TC5_MAJOR_K, &opa), TC5_OK);
  assert_int_equal(tc5_operand_for(bc->kind, bc->b, TC5_MAJOR_K, &opb), TC5_OK);
  uint32_t *Ac = malloc((size_t)M * K / 2 * 4), *A = calloc((size_t)M * K, 4), *B = malloc((size_t)K * N * 4),
           *Bt = malloc((size_t)N * K * 4), *D = malloc((size_t)M * N * 4), *SA = malloc((size_t)M * ns * 4 + 4),
           *SB = malloc((size_t)ns * N * 4 + 4), *meta = malloc((size_t)M * K / 2 * 4);
  uint8_t *kept = calloc((size_t)M * K, 1); /* the test's own record of the kept positions */
  for (size_t i = 0; i < (size_t)M * K / 2; i++) Ac[i] = rand_code(g, bc->a);
  bool tf32 = bc->kind == TC5_KIND_TF32, f4 = bc->kind == TC5_KIND_MXF4 || bc->kind == TC5_KIND_MXF4NVF4;
  unsigned gw = tf32 ? 2 : f4 ? 8 : 4, ng = K / gw; /* logical elements a group, groups a row */
  for (size_t i = 0; i < (size_t)M * ng; i++) meta[i] = tf32 ? (rng_below(g, 2) ? 0xEu : 0x4u) : nibs[rng_below(g, 7)];
  for (unsigned m = 0; m < M; m++) /* the test's own expansion */
    for (unsigned q = 0; q < ng; q++) {
      uint32_t nb = meta[(size_t)m * ng + q];
      if (tf32) {
        A[(size_t)m * K + 2 * q + (nb == 0xE)] = Ac[(size_t)m * (K / 2) + q];
        kept[(size_t)m * K + 2 * q + (nb == 0xE)] = 1;
        continue;
      }
      if (f4) { /* the indices name pairs of two */
        for (unsigned x = 0; x < 2; x++) {
          A[(size_t)m * K + 8 * q + 2 * (nb & 3) + x] = Ac[(size_t)m * (K / 2) + 4 * q + x];
          A[(size_t)m * K + 8 * q + 2 * (nb >> 2) + x] = Ac[(size_t)m * (K / 2) + 4 * q + 2 + x];
          kept[(size_t)m * K + 8 * q + 2 * (nb & 3) + x] = kept[(size_t)m * K + 8 * q + 2 * (nb >> 2) + x] = 1;
        }
        continue;
      }
      A[(size_t)m * K + 4 * q + (nb & 3)] = Ac[(size_t)m * (K / 2) + 2 * q];
      A[(size_t)m * K + 4 * q + (nb >> 2)] = Ac[(size_t)m * (K / 2) + 2 * q + 1];
      kept[(size_t)m * K + 4 * q + (nb & 3)] = kept[(size_t)m * K + 4 * q + (nb >> 2)] = 1;
    }
  for (size_t i = 0; i < (size_t)N * K; i++) Bt[i] = rand_code(g, bc->b);
  for (unsigned k = 0; k < K; k++)
    for (unsigned n = 0; n < N; n++) B[(size_t)k * N + n] = Bt[(size_t)n * K + k];
  /* one scale a `block` kept elements (the spec's scale_vec table: 1X is M x 1 at sparse K = 64 too); the
   * reference sees it on both logical blocks it covers */
  for (unsigned m = 0; m < M; m++)
    for (unsigned s2 = 0; s2 < nk; s2++) {
      uint32_t v = bc->s == TC5_UE8M0 ? 120 + (uint32_t)rng_below(g, 14) : 0x30 + (uint32_t)rng_below(g, 16);
      for (unsigned x = 0; x < dup; x++) SA[(size_t)m * ns + dup * s2 + x] = v;
    }
  for (unsigned s2 = 0; s2 < nk; s2++)
    for (unsigned n = 0; n < N; n++) {
      uint32_t v = bc->s == TC5_UE8M0 ? 120 + (uint32_t)rng_below(g, 14) : 0x30 + (uint32_t)rng_below(g, 16);
      for (unsigned x = 0; x < dup; x++) SB[(size_t)(dup * s2 + x) * N + n] = v;
    }
  world w;
  world_init(&w, 128 * 1024);
  alloc_all(&w, cg);
  a.d_tmem = 0, a.sp_meta_tmem = 300, a.sfa_tmem = 320, a.sfb_tmem = 328;
  a.enable_input_d = false;
  for (unsigned c = 0; c < cg; c++) {
    tc5_smem_desc da, db;
    assert_int_equal(tc5_layout_scatter(&w.s[c], 0, TC5_SWIZZLE_128B, &opa, rows, K / 2, Ac + (size_t)c * rows * K / 2,
                                        &da, NULL),
                     TC5_OK);
    assert_int_equal(
        tc5_layout_scatter(&w.s[c], 65536, TC5_SWIZZLE_128B, &opb, bcols, K, Bt + (size_t)c * bcols * K, &db, NULL),
        TC5_OK);
    assert_int_equal(tc5_smem_desc_encode(&da, &a.a_desc, NULL), TC5_OK);
    assert_int_equal(tc5_smem_desc_encode(&db, &a.b_desc, NULL), TC5_OK);
    for (unsigned m = 0; m < rows; m++)
      for (unsigned q = 0; q < ng; q++) {
        uint32_t l, col, v = 0;
        unsigned bit;
        bool wr;
        meta_cell(bc->kind, m, gw * q, &l, &col, &bit);
        for (unsigned r = 0; r < 128 / rows; r++) { /* .ws M < 128: a copy in each lane group (tmem_e_frg_ws) */
          tc5_tmem_peek(&w.t[c], l + rows * r, 300 + col, &v, &wr);
          if (!wr) v = 0;
          v |= meta[((size_t)c * rows + m) * ng + q] << bit;
          tc5_tmem_poke(&w.t[c], l + rows * r, 300 + col, v);
        }
      }
    for (unsigned m = 0; m < rows; m++)
      for (unsigned s2 = 0; s2 < nk; s2++) poke_sf(&w.t[c], 320, false, rows, m, s2, SA[((size_t)c * rows + m) * ns + dup * s2]);
    for (unsigned n = 0; n < N; n++)
      for (unsigned s2 = 0; s2 < nk; s2++) poke_sf(&w.t[c], 328, false, N, n, s2, SB[(size_t)dup * s2 * N + n]);
  }
  tc5_diag_init(&dg);
  if (tc5_mma(w.c, cg, &a, &dg))
    fail_msg("%s sp cg %u M %u N %u ws %d: %s", tc5_kind_name(bc->kind), cg, M, N, ws, dg.count ? dg.issue[0].message : "?");
  tc5_dot dot;
  assert_int_equal(tc5_dot_model(TC5_MODEL_BLACKWELL, bc->kind, bc->a, bc->b, dtype, bc->s, bc->block, false, &dot, NULL),
                   TC5_OK);
  dot.chunk *= 2, dot.group *= 2; /* settled on the H100: the step counts kept products (groups by analogy) */
  if (bc->block) dot.block = lblock;
  tc5_dot_opts o;
  tc5_dot_opts_init(&o);
  o.enable_input_d = false;
  assert_int_equal(tc5_gemm(&dot, M, N, K, A, B, ns ? SA : NULL, ns ? SB : NULL, D, &o, 1), TC5_OK);
  /* the elided pairs are absent (issue 38, class [1]): where a row elides a NaN or an infinity of B, the
   * reference reads B there as zero */
  uint32_t *bz = malloc((size_t)K * 4 + 4), *sa1 = malloc((size_t)ns * 4 + 4), *sb1 = malloc((size_t)ns * 4 + 4);
  for (unsigned m = 0; m < M; m++)
    for (unsigned n = 0; n < N; n++) {
      bool hit = false;
      for (unsigned k = 0; k < K; k++) {
        tc5_fclass fc = TC5_FCLASS_ZERO;
        bz[k] = kept[(size_t)m * K + k] ? B[(size_t)k * N + n] : 0;
        if (!kept[(size_t)m * K + k] && tc5_type_is_float(bc->b) &&
            !tc5_fmt_decode(bc->b, B[(size_t)k * N + n], NULL, &fc))
          hit |= fc == TC5_FCLASS_NAN || fc == TC5_FCLASS_INF;
      }
      if (!hit) continue;
      for (unsigned j = 0; j < ns; j++) sa1[j] = SA[(size_t)m * ns + j], sb1[j] = SB[(size_t)j * N + n];
      assert_int_equal(tc5_dot_run(&dot, K, A + (size_t)m * K, bz, sa1, sb1, 0, &o, &D[(size_t)m * N + n]), TC5_OK);
      n_elided++;
    }
  free(bz), free(sa1), free(sb1), free(kept);
  for (unsigned c = 0; c < cg; c++)
    for (unsigned m = 0; m < rows; m++)
      for (unsigned n = 0; n < N; n++) {
        uint32_t l, col, v;
        tc5_mma_d_cell(M, cg, ws, N, m, n, &l, &col, NULL);
        tc5_tmem_peek(&w.t[c], l, col, &v, NULL);
        if (dtype == TC5_F16) v &= 0xFFFF;
        uint32_t want = D[((size_t)c * rows + m) * N + n];
        if (v != want)
          fail_msg("%s %s sp cg %u M %u N %u ws %d: D[%u][%u] = 0x%08x, dense core 0x%08x", tc5_kind_name(bc->kind),
                   tc5_type_name(bc->a), cg, M, N, ws, c * rows + m, n, v, want);
        n_checked++;
      }
  n_cases++;
  world_free(&w);
  free(Ac), free(A), free(B), free(Bt), free(D), free(SA), free(SB), free(meta);
}

static void test_sparse(void **state) {
  (void)state;
  rng g;
  rng_seed(&g, 0x5b);
  n_cases = n_checked = n_elided = 0;
  const struct {
    bscase k;
    tc5_type d;
  } sk[] = {
      {{TC5_KIND_F16, TC5_BF16, TC5_BF16, TC5_TYPE_NONE, 0}, TC5_F32},
      {{TC5_KIND_TF32, TC5_TF32, TC5_TF32, TC5_TYPE_NONE, 0}, TC5_F32},
      {{TC5_KIND_F16, TC5_F16, TC5_F16, TC5_TYPE_NONE, 0}, TC5_F16},
      {{TC5_KIND_F8F6F4, TC5_E4M3, TC5_E2M1, TC5_TYPE_NONE, 0}, TC5_F32},
      {{TC5_KIND_I8, TC5_S8, TC5_U8, TC5_TYPE_NONE, 0}, TC5_S32},
      {{TC5_KIND_MXF8F6F4, TC5_E4M3, TC5_E5M2, TC5_UE8M0, 32}, TC5_F32},
      {{TC5_KIND_MXF4NVF4, TC5_E2M1, TC5_E2M1, TC5_UE4M3, 16}, TC5_F32},
      {{TC5_KIND_MXF4, TC5_E2M1, TC5_E2M1, TC5_UE8M0, 32}, TC5_F32},
  };
  for (size_t i = 0; i < sizeof sk / sizeof sk[0]; i++) {
    sp_case(&sk[i].k, sk[i].d, 1, 128, 64, false, &g);
    sp_case(&sk[i].k, sk[i].d, 1, 128, 256, false, &g);
    sp_case(&sk[i].k, sk[i].d, 2, 256, 128, false, &g);
    if (!sk[i].k.block) /* .ws: M = 128, 64, 32 */
      for (unsigned M = 128; M >= 32; M /= 2) sp_case(&sk[i].k, sk[i].d, 1, M, 128, true, &g);
  }
  print_message("%u sparse MMAs, %u D elements equal the dense core on expanded A (%u of them with a NaN or an "
                "infinity of B at an elided position, absent)\n", n_cases, n_checked, n_elided);
  /* .ws M = 64: metadata in the first lane group only */
  world w;
  world_init(&w, 128 * 1024);
  alloc_all(&w, 1);
  tc5_mma_args a;
  tc5_mma_args_init(&a, TC5_KIND_F16);
  a.variant.ws = true, a.variant.sparse = true;
  tc5_idesc d;
  tc5_idesc_init(&d, TC5_KIND_F16);
  tc5_idesc_set_types(&d, TC5_F16, TC5_F16, TC5_F32);
  d.m = 64, d.n = 64, d.sparse = 1;
  assert_int_equal(tc5_idesc_encode(&d, &a.idesc, NULL), TC5_OK);
  uint32_t *z = calloc(64 * 32, 4);
  tc5_operand op;
  tc5_operand_for(TC5_KIND_F16, TC5_F16, TC5_MAJOR_K, &op);
  tc5_smem_desc sd;
  assert_int_equal(tc5_layout_scatter(&w.s[0], 0, TC5_SWIZZLE_128B, &op, 64, 32, z, &sd, NULL), TC5_OK);
  assert_int_equal(tc5_smem_desc_encode(&sd, &a.b_desc, NULL), TC5_OK);
  assert_int_equal(tc5_layout_scatter(&w.s[0], 16384, TC5_SWIZZLE_128B, &op, 64, 16, z, &sd, NULL), TC5_OK);
  assert_int_equal(tc5_smem_desc_encode(&sd, &a.a_desc, NULL), TC5_OK);
  for (uint32_t l = 0; l < 64; l++) tc5_tmem_poke(&w.t[0], l, 300, 0x44444444u);
  a.sp_meta_tmem = 300, a.d_tmem = 0, a.enable_input_d = false;
  tc5_diag dg;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_mma(w.c, 1, &a, &dg), TC5_EUNINIT);
  assert_non_null(strstr(dg.issue[0].message, "never written at lane 64"));
  for (uint32_t l = 64; l < 128; l++) tc5_tmem_poke(&w.t[0], l, 300, l == 70 ? 0x44444448u : 0x44444444u);
  tc5_diag_init(&dg);
  assert_int_equal(tc5_mma(w.c, 1, &a, &dg), TC5_EILLEGAL);
  assert_non_null(strstr(dg.issue[0].message, "differs at lane 70"));
  tc5_tmem_poke(&w.t[0], 70, 300, 0x44444444u);
  assert_int_equal(tc5_mma(w.c, 1, &a, NULL), TC5_OK);
  free(z);
  world_free(&w);
}

/* .ws with A in Tensor Memory for M = 32 / 64: A's row m copied into every
 * lane group of D's row (m + M j), as tc5 infers; D equals the core */
/* a K loop of four sparse f16 MMAs (K = 32 each) into one D, completed
 * together (one call of the core over K = 128, A and the elided positions
 * concatenated), with NaN and infinities of B where rows elide: D equals
 * tc5_gemm_sparse over the whole K (the elided pairs absent) */
static void test_sparse_kloop_elided(void **state) {
  (void)state;
  enum { M = 128, N = 32, KI = 32, NK = 4, KT = KI * NK };
  static const uint8_t nibs[7] = {0x4, 0x8, 0xC, 0x9, 0xD, 0x6, 0xE};
  rng g;
  rng_seed(&g, 0x38);
  uint32_t *Ac = malloc((size_t)M * KT / 2 * 4), *B = malloc((size_t)KT * N * 4), *D = calloc((size_t)M * N, 4),
           *blk = malloc((size_t)M * KI * 4);
  uint8_t *meta = malloc((size_t)M * KT / 4);
  for (size_t i = 0; i < (size_t)M * KT / 2; i++) Ac[i] = 0x3000u + (uint32_t)rng_below(&g, 0x1000);
  for (size_t i = 0; i < (size_t)KT * N; i++) {
    uint64_t r = rng_below(&g, 400);
    B[i] = r == 0 ? 0x7E00u : r == 1 ? 0x7C00u : r == 2 ? 0xFC00u : 0x3000u + (uint32_t)rng_below(&g, 0x1000);
  }
  for (size_t i = 0; i < (size_t)M * KT / 4; i++) meta[i] = nibs[rng_below(&g, 7)];
  world w;
  world_init(&w, 128 * 1024);
  alloc_all(&w, 1);
  tc5_mma_args a;
  tc5_mma_args_init(&a, TC5_KIND_F16);
  a.variant.sparse = true;
  tc5_idesc d;
  tc5_idesc_init(&d, TC5_KIND_F16);
  assert_int_equal(tc5_idesc_set_types(&d, TC5_F16, TC5_F16, TC5_F32), TC5_OK);
  d.m = M, d.n = N, d.sparse = 1;
  assert_int_equal(tc5_idesc_encode(&d, &a.idesc, NULL), TC5_OK);
  tc5_operand op;
  assert_int_equal(tc5_operand_for(TC5_KIND_F16, TC5_F16, TC5_MAJOR_K, &op), TC5_OK);
  a.d_tmem = 0;
  for (unsigned kb = 0; kb < NK; kb++) {
    tc5_smem_desc sd;
    for (unsigned m = 0; m < M; m++) memcpy(blk + (size_t)m * KI / 2, Ac + (size_t)m * KT / 2 + kb * KI / 2, KI / 2 * 4);
    assert_int_equal(tc5_layout_scatter(&w.s[0], 16384u * kb, TC5_SWIZZLE_128B, &op, M, KI / 2, blk, &sd, NULL), TC5_OK);
    assert_int_equal(tc5_smem_desc_encode(&sd, &a.a_desc, NULL), TC5_OK);
    for (unsigned n = 0; n < N; n++)
      for (unsigned k = 0; k < KI; k++) blk[(size_t)n * KI + k] = B[((size_t)kb * KI + k) * N + n];
    assert_int_equal(tc5_layout_scatter(&w.s[0], 65536 + 8192u * kb, TC5_SWIZZLE_128B, &op, N, KI, blk, &sd, NULL),
                     TC5_OK);
    assert_int_equal(tc5_smem_desc_encode(&sd, &a.b_desc, NULL), TC5_OK);
    a.sp_meta_tmem = 300 + 2 * kb;
    for (unsigned m = 0; m < M; m++)
      for (unsigned q = 0; q < KI / 4; q++) {
        uint32_t l, col, v = 0;
        unsigned bit;
        bool wr;
        meta_cell(TC5_KIND_F16, m, 4 * q, &l, &col, &bit);
        tc5_tmem_peek(&w.t[0], l, a.sp_meta_tmem + col, &v, &wr);
        if (!wr) v = 0;
        tc5_tmem_poke(&w.t[0], l, a.sp_meta_tmem + col, v | (uint32_t)meta[(size_t)m * KT / 4 + kb * KI / 4 + q] << bit);
      }
    a.enable_input_d = kb > 0;
    tc5_diag dg;
    tc5_diag_init(&dg);
    if (tc5_mma_issue(w.c, 1, &a, &dg)) fail_msg("sparse K loop: %s", dg.count ? dg.issue[0].message : "?");
  }
  unsigned pending = 0;
  assert_int_equal(tc5_mma_pending(&w.c[0], &pending), TC5_OK);
  assert_int_equal(pending, NK);
  assert_int_equal(tc5_mma_complete(&w.c[0], NULL), TC5_OK);
  tc5_dot m;
  assert_int_equal(
      tc5_dot_model(TC5_MODEL_BLACKWELL, TC5_KIND_F16, TC5_F16, TC5_F16, TC5_F32, TC5_TYPE_NONE, 0, false, &m, NULL),
      TC5_OK);
  tc5_dot_opts o;
  tc5_dot_opts_init(&o);
  o.enable_input_d = false;
  assert_int_equal(tc5_gemm_sparse(&m, TC5_KIND_F16, M, N, KT, Ac, meta, B, NULL, NULL, D, &o, 1, NULL), TC5_OK);
  unsigned finite = 0;
  for (unsigned r = 0; r < M; r++)
    for (unsigned n = 0; n < N; n++) {
      uint32_t l, col, v;
      tc5_mma_d_cell(M, 1, false, N, r, n, &l, &col, NULL);
      tc5_tmem_peek(&w.t[0], l, col, &v, NULL);
      if (v != D[(size_t)r * N + n]) fail_msg("sparse K loop: D[%u][%u] = 0x%08x, tc5_gemm_sparse 0x%08x", r, n, v, D[(size_t)r * N + n]);
      finite += (v & 0x7F800000u) != 0x7F800000u;
    }
  /* most columns hold a NaN or an infinity somewhere: the outputs stay finite where every one is elided */
  print_message("sparse K loop of %u MMAs: %u D elements equal tc5_gemm_sparse, %u finite\n", NK, M * N, finite);
  assert_true(finite > 100 && finite < M * N);
  world_free(&w);
  free(Ac), free(B), free(D), free(blk), free(meta);
}

static void test_ws_a_tmem(void **state) {
  (void)state;
  rng g;
  rng_seed(&g, 0x3a);
  for (unsigned M = 32; M <= 64; M *= 2) {
    const unsigned N = 128, K = 16;
    world w;
    world_init(&w, 128 * 1024);
    uint32_t taddr;
    assert_int_equal(tc5_tmem_alloc(&w.t[0], 512, &taddr, NULL), TC5_OK);
    tc5_mma_args a;
    tc5_mma_args_init(&a, TC5_KIND_F16);
    a.variant.ws = true;
    tc5_idesc d;
    tc5_idesc_init(&d, TC5_KIND_F16);
    tc5_idesc_set_types(&d, TC5_BF16, TC5_BF16, TC5_F32);
    d.m = (uint16_t)M, d.n = N;
    assert_int_equal(tc5_idesc_encode(&d, &a.idesc, NULL), TC5_OK);
    uint32_t A[64 * 16], Bt[128 * 16], B[16 * 128], D[64 * 128];
    for (unsigned i = 0; i < M * K; i++) A[i] = rand_code(&g, TC5_BF16);
    for (unsigned i = 0; i < N * K; i++) Bt[i] = rand_code(&g, TC5_BF16);
    for (unsigned k = 0; k < K; k++)
      for (unsigned n = 0; n < N; n++) B[k * N + n] = Bt[n * K + k];
    tc5_operand op;
    tc5_operand_for(TC5_KIND_F16, TC5_BF16, TC5_MAJOR_K, &op);
    tc5_smem_desc db;
    assert_int_equal(tc5_layout_scatter(&w.s[0], 0, TC5_SWIZZLE_128B, &op, N, K, Bt, &db, NULL), TC5_OK);
    assert_int_equal(tc5_smem_desc_encode(&db, &a.b_desc, NULL), TC5_OK);
    for (unsigned m = 0; m < M; m++) /* two bf16 a column, every lane group */
      for (unsigned j = 0; j < 128 / M; j++)
        for (unsigned c = 0; c < K / 2; c++)
          tc5_tmem_poke(&w.t[0], m + M * j, 256 + c, A[m * K + 2 * c] | A[m * K + 2 * c + 1] << 16);
    a.a_in_tmem = true, a.a_tmem = 256, a.d_tmem = 0, a.enable_input_d = false;
    tc5_diag dg;
    tc5_diag_init(&dg);
    if (tc5_mma(w.c, 1, &a, &dg)) fail_msg("ws M %u A in tmem: %s", M, dg.count ? dg.issue[0].message : "?");
    tc5_dot dot;
    tc5_dot_model(TC5_MODEL_BLACKWELL, TC5_KIND_F16, TC5_BF16, TC5_BF16, TC5_F32, TC5_TYPE_NONE, 0, false, &dot, NULL);
    tc5_dot_opts o;
    tc5_dot_opts_init(&o);
    o.enable_input_d = false;
    assert_int_equal(tc5_gemm(&dot, M, N, K, A, B, NULL, NULL, D, &o, 1), TC5_OK);
    for (unsigned m = 0; m < M; m++)
      for (unsigned n = 0; n < N; n++) {
        uint32_t l, col, v;
        tc5_mma_d_cell(M, 1, true, N, m, n, &l, &col, NULL);
        tc5_tmem_peek(&w.t[0], l, col, &v, NULL);
        assert_int_equal(v, D[m * N + n]);
      }
    /* a copy that differs */
    tc5_tmem_poke(&w.t[0], 5 + M, 257, 0x3f803f80);
    tc5_diag_init(&dg);
    assert_int_equal(tc5_mma(w.c, 1, &a, &dg), TC5_EILLEGAL);
    assert_non_null(strstr(dg.issue[0].message, "copy A into every"));
    world_free(&w);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_layouts),
      cmocka_unit_test(test_rules),
      cmocka_unit_test(test_f16_d_unpacked_c),
      cmocka_unit_test(test_sweep),
      cmocka_unit_test(test_completion),
      cmocka_unit_test(test_completion_rules),
      cmocka_unit_test(test_ashift),
      cmocka_unit_test(test_block_scaled),
      cmocka_unit_test(test_block_scaled_rules),
      cmocka_unit_test(test_sparse),
      cmocka_unit_test(test_sparse_kloop_elided),
      cmocka_unit_test(test_ws_a_tmem),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
