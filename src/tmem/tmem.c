/* tc5 — Tensor Memory of a CTA and its allocation rules (9.7.16.1,
 * 9.7.16.7.1). The tcgen05.ld/st data movement is in tmem_ldst.c. */
#include "tc5/tmem.h"

#include <stdlib.h>
#include <string.h>

#include "util/note.h"
#include "util/strbuf.h"

#define NCELLS (TC5_TMEM_LANES * TC5_TMEM_COLS)

tc5_status tc5_tmem_init(tc5_tmem *t, uint32_t cluster_rank) {
  if (!t) return TC5_EINVAL;
  memset(t, 0, sizeof *t);
  t->cells = calloc(NCELLS, sizeof *t->cells);
  t->written = calloc(NCELLS, 1);
  if (!t->cells || !t->written) {
    tc5_tmem_free(t);
    return TC5_ENOMEM;
  }
  t->cluster_rank = cluster_rank;
  return TC5_OK;
}

tc5_status tc5_tmem_free(tc5_tmem *t) {
  if (!t) return TC5_EINVAL;
  free(t->cells);
  free(t->written);
  t->cells = NULL;
  t->written = NULL;
  return TC5_OK;
}

static bool ready(const tc5_tmem *t) { return t && t->cells && t->written; }

tc5_status tc5_tmem_use_cta_group(tc5_tmem *t, unsigned cg, const char *what, tc5_diag *diag) {
  if (!ready(t) || !what) return TC5_EINVAL;
  if (cg != 1 && cg != 2)
    return tc5_diag_add(diag, TC5_ERANGE, "cta_group", cg, "%s: .cta_group::%u does not exist (1 or 2)", what, cg);
  if (t->cta_group && t->cta_group != cg)
    return tc5_diag_add(diag, TC5_EILLEGAL, "cta_group", cg,
                        "%s: .cta_group::%u after .cta_group::%u in this kernel: all tcgen05 instructions "
                        "of a kernel must specify the same .cta_group (9.7.16.7.1)",
                        what, cg, t->cta_group);
  t->cta_group = (uint8_t)cg;
  return TC5_OK;
}

/* ---- what is held ---- */

static uint32_t held_cols(const tc5_tmem *t) {
  uint32_t n = 0;
  for (unsigned i = 0; i < TC5_TMEM_MAX_ALLOCS; i++) n += t->alloc[i].ncols;
  return n;
}

static void held_text(const tc5_tmem *t, tc5_sb *b) {
  /* in column order */
  bool any = false;
  for (uint32_t c = 0; c < TC5_TMEM_COLS; c += TC5_TMEM_ALLOC_UNIT)
    for (unsigned i = 0; i < TC5_TMEM_MAX_ALLOCS; i++)
      if (t->alloc[i].ncols && t->alloc[i].col == c) {
        tc5_sb_printf(b, "%scolumns %u-%u (%u)", any ? ", " : "", c, c + t->alloc[i].ncols - 1,
                      t->alloc[i].ncols);
        any = true;
      }
  if (!any) tc5_sb_puts(b, "nothing");
}

tc5_status tc5_tmem_held(const tc5_tmem *t, uint32_t *ncols, char *buf, size_t cap) {
  if (!ready(t) || (!buf && cap)) return TC5_EINVAL;
  if (ncols) *ncols = held_cols(t);
  tc5_sb b;
  tc5_sb_init(&b);
  held_text(t, &b);
  return tc5_sb_finish(&b, buf, cap, NULL);
}

static bool col_free(const tc5_tmem *t, uint32_t col, uint32_t n) {
  for (unsigned i = 0; i < TC5_TMEM_MAX_ALLOCS; i++) {
    const tc5_tmem_alloc_rec *a = &t->alloc[i];
    if (a->ncols && col < (uint32_t)a->col + a->ncols && a->col < col + n) return false;
  }
  return true;
}

static int find_rec(const tc5_tmem *t, uint32_t col) {
  for (unsigned i = 0; i < TC5_TMEM_MAX_ALLOCS; i++)
    if (t->alloc[i].ncols && t->alloc[i].col == col) return (int)i;
  return -1;
}

static void take(tc5_tmem *t, uint32_t col, uint32_t n) {
  for (unsigned i = 0; i < TC5_TMEM_MAX_ALLOCS; i++)
    if (!t->alloc[i].ncols) {
      t->alloc[i].col = (uint16_t)col;
      t->alloc[i].ncols = (uint16_t)n;
      break;
    }
  /* the new block's contents are undefined */
  for (uint32_t l = 0; l < TC5_TMEM_LANES; l++) {
    memset(&t->written[l * TC5_TMEM_COLS + col], 0, n);
    /* never-written cells read as poison where reads of them are tolerated */
    memset(&t->cells[l * TC5_TMEM_COLS + col], t->uninit ? 0xFF : 0, n * sizeof(uint32_t));
  }
  t->last_alloc = (uint16_t)n;
}

/* ---- the rules of tcgen05.alloc, for one CTA (without placement) ---- */

static tc5_status alloc_rules(tc5_tmem *t, uint32_t ncols, unsigned cg, const char *what, tc5_diag *diag) {
  tc5_status first = TC5_OK;
  if (ncols < 32 || ncols > 512 || (ncols & (ncols - 1)))
    tc5__note(&first, tc5_diag_add(diag, TC5_ERANGE, "nCols", ncols,
                      "%s: nCols %u is not a power of two in [32, 512] (9.7.16.7.1)", what, ncols));
  tc5__note(&first, tc5_tmem_use_cta_group(t, cg, what, diag));
  if (t->exited)
    tc5__note(&first, tc5_diag_add(diag, TC5_ESTATE, "CTA", t->cluster_rank, "%s: CTA %u has exited", what,
                      t->cluster_rank));
  if (t->relinquished)
    tc5__note(&first, tc5_diag_add(diag, TC5_ESTATE, "nCols", ncols,
                      "%s: the CTA executed tcgen05.relinquish_alloc_permit; it may not allocate any more "
                      "(9.7.16.7.1)",
                      what));
  if (t->last_alloc && ncols > t->last_alloc && !(ncols & (ncols - 1)))
    tc5__note(&first, tc5_diag_add(diag, TC5_EILLEGAL, "nCols", ncols,
                      "%s: nCols %u after an allocation of %u: the number of columns allocated should not "
                      "increase between two allocations of a CTA (9.7.16.7.1)",
                      what, ncols, t->last_alloc));
  return first;
}

static tc5_status would_block(const tc5_tmem *t, uint32_t ncols, const char *what, tc5_diag *diag) {
  tc5_sb b;
  tc5_sb_init(&b);
  held_text(t, &b);
  uint32_t held = held_cols(t);
  tc5_status st = tc5_diag_add(
      diag, TC5_EWOULDBLOCK, "nCols", ncols,
      "%s: nCols %u would block in CTA %u: %u of 512 columns held%s: %s", what, ncols, t->cluster_rank, held,
      held + ncols <= TC5_TMEM_COLS ? " (no free block of that size is aligned to it)" : "", b.p ? b.p : "");
  tc5_sb_free(&b);
  return st;
}

static bool lowest_block(tc5_tmem *const *ts, unsigned n, uint32_t ncols, uint32_t *col) {
  for (uint32_t c = 0; c + ncols <= TC5_TMEM_COLS; c += ncols) {
    bool ok = true;
    for (unsigned i = 0; i < n; i++) ok = ok && col_free(ts[i], c, ncols);
    if (ok) {
      *col = c;
      return true;
    }
  }
  return false;
}

tc5_status tc5_tmem_alloc(tc5_tmem *t, uint32_t ncols, uint32_t *taddr, tc5_diag *diag) {
  if (!ready(t) || !taddr) return TC5_EINVAL;
  const char *what = "tcgen05.alloc.cta_group::1";
  tc5_status st = alloc_rules(t, ncols, 1, what, diag);
  if (st) return st;
  uint32_t col;
  if (!lowest_block(&t, 1, ncols, &col)) return would_block(t, ncols, what, diag);
  take(t, col, ncols);
  *taddr = TC5_TMEM_ADDR(0, col);
  return TC5_OK;
}

/* ---- dealloc ---- */

static tc5_status dealloc_rules(tc5_tmem *t, uint32_t taddr, uint32_t ncols, unsigned cg, const char *what,
                                tc5_diag *diag, int *rec) {
  tc5_status st = tc5_tmem_use_cta_group(t, cg, what, diag);
  if (st) return st;
  if (t->exited)
    return tc5_diag_add(diag, TC5_ESTATE, "CTA", t->cluster_rank, "%s: CTA %u has exited", what, t->cluster_rank);
  int i = TC5_TMEM_LANE(taddr) ? -1 : find_rec(t, TC5_TMEM_COL(taddr));
  if (i < 0) {
    tc5_sb b;
    tc5_sb_init(&b);
    held_text(t, &b);
    st = tc5_diag_add(diag, TC5_ESTATE, "taddr", taddr,
                      "%s: taddr 0x%08x (lane %u, column %u) is not the address of an allocation held by CTA "
                      "%u (held: %s); taddr must point to a previous allocation (9.7.16.7.1)",
                      what, taddr, TC5_TMEM_LANE(taddr), TC5_TMEM_COL(taddr), t->cluster_rank, b.p ? b.p : "");
    tc5_sb_free(&b);
    return st;
  }
  if (t->alloc[i].ncols != ncols)
    return tc5_diag_add(diag, TC5_EILLEGAL, "nCols", ncols,
                        "%s: nCols %u, but the allocation at column %u has %u columns", what, ncols,
                        TC5_TMEM_COL(taddr), t->alloc[i].ncols);
  *rec = i;
  return TC5_OK;
}

tc5_status tc5_tmem_dealloc(tc5_tmem *t, uint32_t taddr, uint32_t ncols, tc5_diag *diag) {
  if (!ready(t)) return TC5_EINVAL;
  int i;
  tc5_status st = dealloc_rules(t, taddr, ncols, 1, "tcgen05.dealloc.cta_group::1", diag, &i);
  if (st) return st;
  t->alloc[i].ncols = 0;
  return TC5_OK;
}

tc5_status tc5_tmem_relinquish(tc5_tmem *t, tc5_diag *diag) {
  if (!ready(t)) return TC5_EINVAL;
  const char *what = "tcgen05.relinquish_alloc_permit.cta_group::1";
  tc5_status st = tc5_tmem_use_cta_group(t, 1, what, diag);
  if (st) return st;
  if (t->exited)
    return tc5_diag_add(diag, TC5_ESTATE, "CTA", t->cluster_rank, "%s: CTA %u has exited", what, t->cluster_rank);
  t->relinquished = true;
  return TC5_OK;
}

/* ---- cta_group::2: a CTA pair ---- */

static tc5_status pair_rules(tc5_tmem *pair[2], const char *what, tc5_diag *diag) {
  if (!pair || (!pair[0] && !pair[1])) return TC5_EINVAL;
  if (!pair[0] || !pair[1]) {
    const tc5_tmem *one = pair[0] ? pair[0] : pair[1];
    return tc5_diag_add(diag, TC5_ESTATE, "peer CTA", one->cluster_rank ^ 1u,
                        "%s: only CTA %u executes it; with .cta_group::2 one warp of each CTA of the pair "
                        "(CTA %u and its peer CTA %u) must perform it collectively (9.7.16.5)",
                        what, one->cluster_rank, one->cluster_rank, one->cluster_rank ^ 1u);
  }
  if (!ready(pair[0]) || !ready(pair[1]) || pair[0] == pair[1]) return TC5_EINVAL;
  uint32_t a = pair[0]->cluster_rank, b = pair[1]->cluster_rank;
  if ((a ^ b) != 1u)
    return tc5_diag_add(diag, TC5_EILLEGAL, "cluster_ctarank", b,
                        "%s: CTAs %u and %u are not a CTA pair: their %%cluster_ctarank must differ in the "
                        "last bit only (9.7.16.5.1)",
                        what, a, b);
  for (int i = 0; i < 2; i++)
    if (pair[i]->exited)
      return tc5_diag_add(diag, TC5_ESTATE, "peer CTA", pair[i]->cluster_rank,
                          "%s: CTA %u of the pair has exited; the peer CTA must be active (9.7.16.5)", what,
                          pair[i]->cluster_rank);
  return TC5_OK;
}

tc5_status tc5_tmem_alloc2(tc5_tmem *pair[2], uint32_t ncols, uint32_t *taddr, tc5_diag *diag) {
  if (!taddr) return TC5_EINVAL;
  const char *what = "tcgen05.alloc.cta_group::2";
  tc5_status st = pair_rules(pair, what, diag);
  if (st) return st;
  tc5_status s0 = alloc_rules(pair[0], ncols, 2, what, diag);
  tc5_status s1 = alloc_rules(pair[1], ncols, 2, what, diag);
  if (s0 || s1) return s0 ? s0 : s1;
  uint32_t col;
  if (!lowest_block(pair, 2, ncols, &col)) {
    uint32_t c;
    return would_block(lowest_block(&pair[0], 1, ncols, &c) ? pair[1] : pair[0], ncols, what, diag);
  }
  take(pair[0], col, ncols);
  take(pair[1], col, ncols);
  *taddr = TC5_TMEM_ADDR(0, col);
  return TC5_OK;
}

tc5_status tc5_tmem_dealloc2(tc5_tmem *pair[2], uint32_t taddr, uint32_t ncols, tc5_diag *diag) {
  const char *what = "tcgen05.dealloc.cta_group::2";
  tc5_status st = pair_rules(pair, what, diag);
  if (st) return st;
  int i0, i1;
  tc5_status s0 = dealloc_rules(pair[0], taddr, ncols, 2, what, diag, &i0);
  tc5_status s1 = dealloc_rules(pair[1], taddr, ncols, 2, what, diag, &i1);
  if (s0 || s1) return s0 ? s0 : s1;
  pair[0]->alloc[i0].ncols = 0;
  pair[1]->alloc[i1].ncols = 0;
  return TC5_OK;
}

tc5_status tc5_tmem_relinquish2(tc5_tmem *pair[2], tc5_diag *diag) {
  const char *what = "tcgen05.relinquish_alloc_permit.cta_group::2";
  tc5_status st = pair_rules(pair, what, diag);
  if (st) return st;
  tc5_status s0 = tc5_tmem_use_cta_group(pair[0], 2, what, diag);
  tc5_status s1 = tc5_tmem_use_cta_group(pair[1], 2, what, diag);
  if (s0 || s1) return s0 ? s0 : s1;
  pair[0]->relinquished = pair[1]->relinquished = true;
  return TC5_OK;
}

tc5_status tc5_tmem_exit(tc5_tmem *t, tc5_diag *diag) {
  if (!ready(t)) return TC5_EINVAL;
  if (t->exited)
    return tc5_diag_add(diag, TC5_ESTATE, "CTA", t->cluster_rank, "CTA %u has already exited", t->cluster_rank);
  t->exited = true;
  uint32_t held = held_cols(t);
  if (!held) return TC5_OK;
  tc5_sb b;
  tc5_sb_init(&b);
  held_text(t, &b);
  tc5_status st = tc5_diag_add(diag, TC5_ESTATE, "nCols", held,
                               "kernel exit: CTA %u still holds %u columns of Tensor Memory (%s); all of it must "
                               "be deallocated with tcgen05.dealloc before the kernel exits (9.7.16.1.2)",
                               t->cluster_rank, held, b.p ? b.p : "");
  tc5_sb_free(&b);
  return st;
}

/* ---- ranges and cells ---- */

tc5_status tc5_tmem_check_range(const tc5_tmem *t, uint32_t lane, uint32_t nlanes, uint32_t col,
                                uint32_t ncols, const char *what, tc5_diag *diag) {
  if (!ready(t) || !what || !nlanes || !ncols) return TC5_EINVAL;
  if ((uint64_t)lane + nlanes > TC5_TMEM_LANES)
    return tc5_diag_add(diag, TC5_EBOUNDS, "lane", (uint64_t)lane + nlanes - 1,
                        "%s: lane %llu is outside Tensor Memory (lanes 0-127)", what,
                        (unsigned long long)lane + nlanes - 1);
  if ((uint64_t)col + ncols > TC5_TMEM_COLS)
    return tc5_diag_add(diag, TC5_EBOUNDS, "column", (uint64_t)col + ncols - 1,
                        "%s: column %llu is outside Tensor Memory (columns 0-511)", what,
                        (unsigned long long)col + ncols - 1);
  for (uint32_t c = col; c < col + ncols; c++) {
    bool in = false;
    for (unsigned i = 0; i < TC5_TMEM_MAX_ALLOCS && !in; i++)
      in = t->alloc[i].ncols && c >= t->alloc[i].col && c < (uint32_t)t->alloc[i].col + t->alloc[i].ncols;
    if (!in) {
      tc5_sb b;
      tc5_sb_init(&b);
      held_text(t, &b);
      tc5_status st = tc5_diag_add(diag, TC5_ESTATE, "column", c,
                                   "%s: column %u is not allocated (held: %s)", what, c, b.p ? b.p : "");
      tc5_sb_free(&b);
      return st;
    }
  }
  return TC5_OK;
}

tc5_status tc5_tmem_peek_halves(const tc5_tmem *t, uint32_t lane, uint32_t col, uint32_t *value,
                                unsigned *halves) {
  if (!ready(t) || !value) return TC5_EINVAL;
  if (lane >= TC5_TMEM_LANES || col >= TC5_TMEM_COLS) return TC5_EBOUNDS;
  *value = t->cells[lane * TC5_TMEM_COLS + col];
  if (halves) *halves = t->written[lane * TC5_TMEM_COLS + col];
  return TC5_OK;
}

tc5_status tc5_tmem_peek(const tc5_tmem *t, uint32_t lane, uint32_t col, uint32_t *value, bool *written) {
  unsigned h;
  tc5_status st = tc5_tmem_peek_halves(t, lane, col, value, &h);
  if (!st && written) *written = h == 3;
  return st;
}

tc5_status tc5_tmem_poke(tc5_tmem *t, uint32_t lane, uint32_t col, uint32_t value) {
  if (!ready(t)) return TC5_EINVAL;
  if (lane >= TC5_TMEM_LANES || col >= TC5_TMEM_COLS) return TC5_EBOUNDS;
  t->cells[lane * TC5_TMEM_COLS + col] = value;
  t->written[lane * TC5_TMEM_COLS + col] = 3;
  return TC5_OK;
}
