/* tc5 internal — the tcgen05.mma engine's queue of issued MMAs, shared by
 * issue (src/mma.c) and completion (src/mma_queue.c). */
#ifndef TC5_MMA_IMPL_H
#define TC5_MMA_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tc5/arith.h"
#include "tc5/mma.h"

/* One issued MMA: what it computes, with its operands as read at issue. */
typedef struct mma_job {
  tc5_cta *cta[2];
  unsigned cg, M, N, K, rows, seq;
  bool ws, f16d, has_dol;
  uint32_t dl, dc, dol[8];
  tc5_dot dot;
  tc5_dot_opts o;
  size_t a_off; /* in the arena: cg blocks of rows x K codes */
  size_t b_off; /* K x N codes */
  unsigned ns;  /* block scaling: scale factors a row of A (K / block), else 0 */
  size_t sa_off; /* cg blocks of rows x ns scale codes */
  size_t sb_off; /* cg blocks of ns x N scale codes */
  bool sparse;   /* .sp: el_off holds the elided positions */
  size_t el_off; /* cg blocks of rows x K bytes, 1 where the metadata elides */
} mma_job;

/* The queue and an arena that holds the operands of the queued MMAs and
 * the scratch of their completion: kept from one completion to the next
 * so that a kernel's steady state allocates nothing (offsets, not
 * pointers, as the arena may move when it grows). */
struct tc5_mma_queue {
  mma_job *job;
  unsigned n, cap, issued;
  uint8_t *arena;
  size_t used, size;
  unsigned threads; /* host threads a K loop's arithmetic may use (tc5_gemm's; 0: 1) */
};

/* Lets the K loops of the CTA's MMAs (the even CTA's, for a pair) run
 * their arithmetic on `threads` host threads (the runner: the threads a
 * launch has beyond one a cluster it runs); the results are the same.
 * TC5_ENOMEM when the queue cannot be made. */
tc5_status tc5__mma_threads(tc5_cta *c, unsigned threads);

/* words of the arena (an offset); SIZE_MAX when memory runs out */
size_t tc5__mma_arena_take(struct tc5_mma_queue *q, size_t words);
#define ARENA(q, off) ((uint32_t *)(void *)((q)->arena + (off)))
/* the CTA's queue, created on first use; NULL when memory runs out */
struct tc5_mma_queue *tc5__mma_queue_of(tc5_cta *c);
/* appends a copy of *J, numbering it (J->seq) */
tc5_status tc5__mma_enqueue(struct tc5_mma_queue *q, mma_job *J);
/* Columns from [sp-meta-tmem] that a sparse MMA's metadata takes
 * (tc5_mma_sp_meta_cell), and from [scale-A/B-tmem] that `count` rows of A
 * or columns of B take (tc5_mma_sf_cell): what the engine and the checker
 * both read. */
unsigned tc5__mma_sp_meta_cols(tc5_kind kind, unsigned K);
/* Columns from [a-tmem] that K elements of A of type `at` take for `kind`:
 * 32 / bits elements a column (fp6/fp4 of f8f6f4 in 8-bit containers, the
 * fp4 of mxf4/mxf4nvf4 two a byte), as the engine reads them (gather_a_tmem)
 * and the checker follows them. */
unsigned tc5__mma_a_tmem_cols(tc5_kind kind, tc5_type at, unsigned K);
unsigned tc5__mma_sf_cols(bool b, unsigned m_total, unsigned cta_group, unsigned count);
/* Completes the issuer's pending MMAs when one of them writes D cells of
 * `target` in lanes [lane, lane + nlanes) x columns [col, col + ncols):
 * what tcgen05.cp and shift do before writing there (tc5/cp.h). */
tc5_status tc5__mma_settle(tc5_cta *issuer, const tc5_tmem *target, uint32_t lane, uint32_t nlanes, uint32_t col,
                           uint32_t ncols, tc5_diag *diag);
/* the lanes x columns D occupies from [d-tmem], and whether its lane
 * alignment may be 16 (layout F) */
void tc5__mma_d_extent(unsigned M, unsigned cg, bool ws, unsigned N, uint32_t *nlanes, uint32_t *ncols, bool *align16);

#endif
