/* tc5 tests — sparse A in the arithmetic library (tc5/arith.h):
 * tc5_sparse_group, tc5_dot_sparse, tc5_sparse_expand (every metadata form,
 * the elided mask, refusals naming row, elements and value) and
 * tc5_gemm_sparse against the test's own statement of the rule: A placed by
 * the metadata, steps of the dense step's kept products, a scale a `block`
 * kept elements, and the elided pairs absent — a NaN or an infinity of B
 * there never reaches D (issue 38, class [1]). */
#include "testutil.h"

#include "tc5/arith.h"
#include "tc5/formats.h"

static void test_groups(void **state) {
  (void)state;
  unsigned g = 0;
  assert_int_equal(tc5_sparse_group(TC5_KIND_TF32, &g), TC5_OK);
  assert_int_equal(g, 2);
  assert_int_equal(tc5_sparse_group(TC5_KIND_F16, &g), TC5_OK);
  assert_int_equal(g, 4);
  assert_int_equal(tc5_sparse_group(TC5_KIND_I8, &g), TC5_OK);
  assert_int_equal(g, 4);
  assert_int_equal(tc5_sparse_group(TC5_KIND_MXF4NVF4, &g), TC5_OK);
  assert_int_equal(g, 8);
  assert_int_equal(tc5_sparse_group(TC5_KIND_COUNT, &g), TC5_EINVAL);
  assert_int_equal(tc5_sparse_group(TC5_KIND_F16, NULL), TC5_EINVAL);
  tc5_dot m;
  assert_int_equal(tc5_dot_model(TC5_MODEL_BLACKWELL, TC5_KIND_MXF4NVF4, TC5_E2M1, TC5_E2M1, TC5_F32, TC5_UE4M3, 16,
                                 false, &m, NULL),
                   TC5_OK);
  unsigned chunk = m.chunk, group = m.group;
  assert_int_equal(tc5_dot_sparse(&m), TC5_OK);
  assert_int_equal(m.chunk, 2 * chunk);
  assert_int_equal(m.group, 2 * group);
  assert_int_equal(m.block, 32);
  assert_int_equal(tc5_dot_model(TC5_MODEL_BLACKWELL, TC5_KIND_MXF8F6F4, TC5_E4M3, TC5_E4M3, TC5_F32, TC5_UE8M0, 32,
                                 false, &m, NULL),
                   TC5_OK);
  assert_int_equal(tc5_dot_sparse(&m), TC5_OK);
  assert_int_equal(m.block, 32); /* 64 logical elements: two blocks of 32 */
  assert_int_equal(tc5_dot_sparse(NULL), TC5_EINVAL);
}

static void test_expand(void **state) {
  (void)state;
  uint32_t ac[8] = {1, 2, 3, 4, 5, 6, 7, 8}, a[16];
  uint8_t el[16];
  /* 2:4, K = 8: 0b1001 keeps 1 and 2, 0b1100 keeps 0 and 3 */
  uint8_t m24[2] = {0x9, 0xC};
  assert_int_equal(tc5_sparse_expand(TC5_KIND_F16, 1, 8, ac, m24, a, el, NULL), TC5_OK);
  const uint32_t want24[8] = {0, 1, 2, 0, 3, 0, 0, 4};
  const uint8_t el24[8] = {1, 0, 0, 1, 0, 1, 1, 0};
  assert_memory_equal(a, want24, sizeof want24);
  assert_memory_equal(el, el24, sizeof el24);
  /* tf32 1:2, K = 4: 0b0100 the first, 0b1110 the second */
  uint8_t m12[2] = {0x4, 0xE};
  assert_int_equal(tc5_sparse_expand(TC5_KIND_TF32, 1, 4, ac, m12, a, el, NULL), TC5_OK);
  const uint32_t want12[4] = {1, 0, 0, 2};
  const uint8_t el12[4] = {0, 1, 1, 0};
  assert_memory_equal(a, want12, sizeof want12);
  assert_memory_equal(el, el12, sizeof el12);
  /* 4:8 pairs, K = 16: 0b1101 keeps pairs 1 and 3, 0b0100 pairs 0 and 1 */
  uint8_t m48[2] = {0xD, 0x4};
  assert_int_equal(tc5_sparse_expand(TC5_KIND_MXF4, 1, 16, ac, m48, a, el, NULL), TC5_OK);
  const uint32_t want48[16] = {0, 0, 1, 2, 0, 0, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0};
  assert_memory_equal(a, want48, sizeof want48);
  for (unsigned k = 0; k < 16; k++) assert_int_equal(el[k], want48[k] == 0);
  /* elided may be NULL */
  assert_int_equal(tc5_sparse_expand(TC5_KIND_F16, 1, 8, ac, m24, a, NULL, NULL), TC5_OK);
  /* refusals: the field, the value and the rule */
  tc5_diag dg;
  tc5_diag_init(&dg);
  uint8_t bad[4] = {0x4, 0x4, 0x4, 0x3};
  assert_int_equal(tc5_sparse_expand(TC5_KIND_F16, 2, 8, ac, bad, a, el, &dg), TC5_EILLEGAL);
  assert_non_null(strstr(dg.issue[0].message, "row 1, elements 4-7, is 0x3"));
  assert_non_null(strstr(dg.issue[0].message, "0b0100, 0b1000"));
  tc5_diag_init(&dg);
  uint8_t badt[2] = {0x4, 0x8};
  assert_int_equal(tc5_sparse_expand(TC5_KIND_TF32, 1, 4, ac, badt, a, el, &dg), TC5_EILLEGAL);
  assert_non_null(strstr(dg.issue[0].message, "elements 2-3, is 0x8: a pair's nibble is 0b0100"));
  tc5_diag_init(&dg);
  assert_int_equal(tc5_sparse_expand(TC5_KIND_MXF4, 1, 12, ac, m48, a, el, &dg), TC5_EINVAL);
  assert_non_null(strstr(dg.issue[0].message, "K 12 is not a multiple of 8"));
  assert_int_equal(tc5_sparse_expand(TC5_KIND_F16, 1, 8, NULL, m24, a, el, NULL), TC5_EINVAL);
}

static uint32_t rand_code(rng *g, tc5_type t) {
  unsigned bits = t == TC5_TF32 ? 32 : tc5_type_bits(t);
  uint32_t v = (uint32_t)rng_next(g);
  if (t == TC5_TF32) v &= ~0x1FFFu;
  return bits >= 32 ? v : v & ((1u << bits) - 1);
}

/* a NaN or an infinity of t, or a random code */
static uint32_t b_code(rng *g, tc5_type t) {
  if (rng_below(g, 6)) return rand_code(g, t);
  switch (t) {
  case TC5_BF16: return rng_below(g, 2) ? 0x7FC0u : 0xFF80u;
  case TC5_F16: return rng_below(g, 2) ? 0x7E00u : 0x7C00u;
  case TC5_TF32: return rng_below(g, 2) ? 0x7FC00000u : 0xFF800000u;
  case TC5_E4M3: return 0x7Fu;
  case TC5_E5M2: return rng_below(g, 2) ? 0x7Eu : 0xFCu;
  default: return rand_code(g, t);
  }
}

typedef struct spcase {
  tc5_kind kind;
  tc5_type a, b, d, s;
  unsigned block, K;
} spcase;

static void test_gemm_sparse(void **state) {
  (void)state;
  static const spcase cs[] = {
      {TC5_KIND_F16, TC5_BF16, TC5_BF16, TC5_F32, TC5_TYPE_NONE, 0, 96},
      {TC5_KIND_F16, TC5_F16, TC5_F16, TC5_F16, TC5_TYPE_NONE, 0, 64},
      {TC5_KIND_TF32, TC5_TF32, TC5_TF32, TC5_F32, TC5_TYPE_NONE, 0, 48},
      {TC5_KIND_F8F6F4, TC5_E4M3, TC5_E5M2, TC5_F32, TC5_TYPE_NONE, 0, 128},
      {TC5_KIND_I8, TC5_S8, TC5_U8, TC5_S32, TC5_TYPE_NONE, 0, 128},
      {TC5_KIND_MXF8F6F4, TC5_E5M2, TC5_E4M3, TC5_F32, TC5_UE8M0, 32, 128},
      {TC5_KIND_MXF4, TC5_E2M1, TC5_E2M1, TC5_F32, TC5_UE8M0, 32, 256},
      {TC5_KIND_MXF4NVF4, TC5_E2M1, TC5_E2M1, TC5_F32, TC5_UE4M3, 16, 256},
  };
  static const uint8_t nibs[7] = {0x4, 0x8, 0xC, 0x9, 0xD, 0x6, 0xE};
  enum { M = 9, N = 7 };
  rng g;
  rng_seed(&g, 0x38);
  unsigned n_out = 0, n_absent = 0;
  for (size_t ci = 0; ci < sizeof cs / sizeof cs[0]; ci++) {
    const spcase *c = &cs[ci];
    unsigned K = c->K, gw;
    tc5_sparse_group(c->kind, &gw);
    tc5_dot m, ms;
    assert_int_equal(tc5_dot_model(TC5_MODEL_BLACKWELL, c->kind, c->a, c->b, c->d, c->s, c->block, false, &m, NULL),
                     TC5_OK);
    ms = m;
    ms.chunk *= 2, ms.group *= 2; /* the test's own statement of the sparse model */
    unsigned lb = c->block ? (2 * c->block > 32 ? 32 : 2 * c->block) : 0;
    if (c->block) ms.block = lb;
    unsigned nsr = c->block ? K / (2 * c->block) : 0, ns = c->block ? K / lb : 0;
    uint32_t *Ac = malloc((size_t)M * K / 2 * 4), *A = calloc((size_t)M * K, 4), *B = malloc((size_t)K * N * 4);
    uint32_t *D = malloc((size_t)M * N * 4), *C = malloc((size_t)M * N * 4), *SA = malloc(M * 16 * 4),
             *SB = malloc(16 * N * 4), b[256], sa[16], sb[16];
    uint8_t *meta = malloc((size_t)M * K / gw), *kept = calloc((size_t)M * K, 1);
    for (size_t i = 0; i < (size_t)M * K / 2; i++) Ac[i] = rand_code(&g, c->a);
    for (size_t i = 0; i < (size_t)K * N; i++) B[i] = b_code(&g, c->b);
    for (size_t i = 0; i < (size_t)M * N; i++) C[i] = D[i] = c->d == TC5_F16 ? (uint32_t)rng_below(&g, 0x7C00) : 0x3F800000u;
    for (size_t i = 0; i < (size_t)M * nsr; i++) SA[i] = c->s == TC5_UE8M0 ? 120 + (uint32_t)rng_below(&g, 14) : 0x30 + (uint32_t)rng_below(&g, 16);
    for (size_t i = 0; i < (size_t)N * nsr; i++) SB[i] = c->s == TC5_UE8M0 ? 120 + (uint32_t)rng_below(&g, 14) : 0x30 + (uint32_t)rng_below(&g, 16);
    for (unsigned r = 0; r < M; r++) /* the test's own placement */
      for (unsigned q = 0; q < K / gw; q++) {
        uint8_t nb = gw == 2 ? (rng_below(&g, 2) ? 0xE : 0x4) : nibs[rng_below(&g, 7)];
        meta[(size_t)r * (K / gw) + q] = nb;
        unsigned w = gw == 8 ? 2 : 1, np = gw == 2 ? 1 : 2, pos[2] = {gw == 2 ? (nb == 0xE) : nb & 3u, nb >> 2 & 3u};
        for (unsigned p = 0; p < np; p++)
          for (unsigned x = 0; x < w; x++) {
            size_t k = (size_t)r * K + gw * q + w * pos[p] + x;
            A[k] = Ac[(size_t)r * (K / 2) + gw / 2 * q + w * p + x];
            kept[k] = 1;
          }
      }
    tc5_dot_opts o;
    tc5_dot_opts_init(&o);
    tc5_diag dg;
    tc5_diag_init(&dg);
    if (tc5_gemm_sparse(&m, c->kind, M, N, K, Ac, meta, B, c->block ? SA : NULL, c->block ? SB : NULL, D, &o, 2, &dg))
      fail_msg("%s: %s", tc5_kind_name(c->kind), dg.count ? dg.issue[0].message : "?");
    for (unsigned r = 0; r < M; r++)
      for (unsigned n = 0; n < N; n++) {
        bool absent = false;
        for (unsigned k = 0; k < K; k++) {
          tc5_fclass fc = TC5_FCLASS_ZERO;
          b[k] = kept[(size_t)r * K + k] ? B[(size_t)k * N + n] : 0;
          if (!kept[(size_t)r * K + k] && tc5_type_is_float(c->b) && !tc5_fmt_decode(c->b, B[(size_t)k * N + n], NULL, &fc))
            absent |= fc == TC5_FCLASS_NAN || fc == TC5_FCLASS_INF;
        }
        for (unsigned j = 0; j < ns; j++) /* a stored scale a `block` kept elements */
          sa[j] = SA[(size_t)r * nsr + (size_t)j * nsr / ns], sb[j] = SB[((size_t)j * nsr / ns) * N + n];
        uint32_t want;
        assert_int_equal(tc5_dot_run(&ms, K, A + (size_t)r * K, b, sa, sb, C[(size_t)r * N + n], &o, &want), TC5_OK);
        if (D[(size_t)r * N + n] != want)
          fail_msg("%s %s: D[%u][%u] = 0x%x, want 0x%x", tc5_kind_name(c->kind), tc5_type_name(c->a), r, n,
                   D[(size_t)r * N + n], want);
        n_out++, n_absent += absent;
      }
    free(Ac), free(A), free(B), free(D), free(C), free(SA), free(SB), free(meta), free(kept);
  }
  print_message("%u sparse outputs equal the rule (%u with a NaN or an infinity of B where elided)\n", n_out, n_absent);
  assert_true(n_absent > 20);
}

/* the minimal case of class [1]: tf32 1:2 with a NaN or an infinity of B at an elided position */
static void test_gemm_sparse_class1(void **state) {
  (void)state;
  tc5_dot m;
  assert_int_equal(tc5_dot_model(TC5_MODEL_BLACKWELL, TC5_KIND_TF32, TC5_TF32, TC5_TF32, TC5_F32, TC5_TYPE_NONE, 0,
                                 false, &m, NULL),
                   TC5_OK);
  uint32_t ac[8], b[16], d;
  uint8_t meta[8];
  for (int i = 0; i < 8; i++) ac[i] = 0x3F800000u, meta[i] = 0x4, b[2 * i] = 0x3F800000u, b[2 * i + 1] = 0;
  const uint32_t specials[3] = {0x7FC00000u, 0x7F800000u, 0xFF800000u};
  for (int s = 0; s < 3; s++) {
    b[1] = specials[s], d = 0;
    assert_int_equal(tc5_gemm_sparse(&m, TC5_KIND_TF32, 1, 1, 16, ac, meta, b, NULL, NULL, &d, NULL, 1, NULL), TC5_OK);
    assert_int_equal(d, 0x41000000u); /* 8.0: the pair is absent */
  }
  meta[0] = 0xE; /* the special now kept (times 1.0) */
  b[1] = 0x7FC00000u, d = 0;
  assert_int_equal(tc5_gemm_sparse(&m, TC5_KIND_TF32, 1, 1, 16, ac, meta, b, NULL, NULL, &d, NULL, 1, NULL), TC5_OK);
  assert_int_equal(d, 0x7FFFFFFFu);
  /* errors */
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_dot mx;
  assert_int_equal(tc5_dot_model(TC5_MODEL_BLACKWELL, TC5_KIND_MXF8F6F4, TC5_E4M3, TC5_E4M3, TC5_F32, TC5_UE8M0, 32,
                                 false, &mx, NULL),
                   TC5_OK);
  uint32_t sa = 0x7F;
  assert_int_equal(tc5_gemm_sparse(&mx, TC5_KIND_MXF8F6F4, 1, 1, 32, ac, meta, b, &sa, &sa, &d, NULL, 1, &dg),
                   TC5_EINVAL);
  assert_non_null(strstr(dg.issue[0].message, "K 32 is not a multiple of 2 x block = 64"));
  assert_int_equal(tc5_gemm_sparse(&mx, TC5_KIND_MXF8F6F4, 1, 1, 64, ac, meta, b, NULL, NULL, &d, NULL, 1, NULL),
                   TC5_EINVAL);
  assert_int_equal(tc5_gemm_sparse(NULL, TC5_KIND_TF32, 1, 1, 16, ac, meta, b, NULL, NULL, &d, NULL, 1, NULL),
                   TC5_EINVAL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_groups),
      cmocka_unit_test(test_expand),
      cmocka_unit_test(test_gemm_sparse),
      cmocka_unit_test(test_gemm_sparse_class1),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
