/* tc5 tests — a CTA pair for the MMA engine's tests (test_mma, test_cp):
 * two CTAs' shared memory, Tensor Memory (cluster ranks 0 and 1) and
 * engine state. Include after testutil.h. */
#ifndef TC5_TESTS_MMA_WORLD_H
#define TC5_TESTS_MMA_WORLD_H
#include "tc5/mma.h"

typedef struct world {
  tc5_smem s[2];
  tc5_tmem t[2];
  tc5_cta c[2];
} world;

static inline void world_init(world *w, uint32_t smem_bytes) {
  memset(w, 0, sizeof *w);
  for (int i = 0; i < 2; i++) {
    assert_int_equal(tc5_smem_init(&w->s[i], smem_bytes), TC5_OK);
    assert_int_equal(tc5_tmem_init(&w->t[i], (uint32_t)i), TC5_OK);
    w->c[i].smem = &w->s[i];
    w->c[i].tmem = &w->t[i];
  }
}

static inline void world_free(world *w) {
  for (int i = 0; i < 2; i++) {
    assert_int_equal(tc5_cta_free(&w->c[i]), TC5_OK);
    tc5_smem_free(&w->s[i]);
    tc5_tmem_free(&w->t[i]);
  }
}

/* all 512 columns of the CTA (cta_group::1) or of the pair (::2) */
static inline void alloc_all(world *w, unsigned cg) {
  uint32_t taddr;
  if (cg == 2) {
    tc5_tmem *pair[2] = {&w->t[0], &w->t[1]};
    assert_int_equal(tc5_tmem_alloc2(pair, 512, &taddr, NULL), TC5_OK);
  } else {
    assert_int_equal(tc5_tmem_alloc(&w->t[0], 512, &taddr, NULL), TC5_OK);
  }
}
/* the test's own statement of CUTLASS's tmem_sf_frg (mma_traits_sm100.hpp):
 * SF s of index i (row of A / column of B) at column i / 32, byte id + s,
 * lanes 32 r + i % 32 for r < 4; B of cta_group::2 M = 128 (2x2): half h
 * of N at lanes 64 h + 32 r + j % 32 (r < 2), column j / 32 */
static inline void poke_sf(tc5_tmem *t, uint32_t col0, bool two_by_two, unsigned count, unsigned i, unsigned byte,
                    uint32_t code) {
  unsigned half = count / 2, h = two_by_two ? i / half : 0, j = two_by_two ? i % half : i;
  for (unsigned r = 0; r < (two_by_two ? 2u : 4u); r++) {
    uint32_t lane = two_by_two ? 64 * h + 32 * r + j % 32 : 32 * r + i % 32, w = 0;
    bool wr;
    tc5_tmem_peek(t, lane, col0 + j / 32, &w, &wr);
    if (!wr) w = 0;
    w = (w & ~(0xFFu << 8 * byte)) | code << 8 * byte;
    tc5_tmem_poke(t, lane, col0 + j / 32, w);
  }
}

/* the test's own statement of CUTLASS's tmem_e_frg: the bit of logical
 * element k of row m */
static inline void meta_cell(tc5_kind kind, unsigned m, unsigned k, uint32_t *lane, uint32_t *col, unsigned *bit) {
  if (kind == TC5_KIND_F16) {
    unsigned m0 = m % 8, m1 = (m / 8) % 2, m2 = m / 16, k0 = k % 16, k1 = k / 16;
    *lane = m0 + 8 * k1 + 16 * m2, *col = 0, *bit = k0 + 16 * m1;
  } else if (kind == TC5_KIND_TF32) { /* atom ((8,2,8),(8,2)):((1,1024,16),(128,8)), 2-bit elements */
    unsigned m0 = m % 8, m1 = (m / 8) % 2, m2 = m / 16, k0 = k % 8, k1 = k / 8;
    *lane = m0 + 8 * k1 + 16 * m2, *col = 0, *bit = 2 * (k0 + 8 * m1);
  } else if (kind == TC5_KIND_MXF4 || kind == TC5_KIND_MXF4NVF4) { /* F4 atom (128,128):(1,128), half-bit elements */
    *lane = m, *col = k / 64, *bit = (k % 64) / 2;
  } else {
    *lane = m, *col = k / 32, *bit = k % 32;
  }
}

#endif
