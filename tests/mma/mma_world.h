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
#endif
