/* tc5 — tcgen05.mma completion (9.7.16.6.2): the queue of MMAs a CTA
 * issued, and running it in issue order as K loops of the arithmetic core
 * (see tc5/mma.h, "Completion"). */
#include <stdlib.h>
#include <string.h>

#include "arith/arith_impl.h"
#include "mma/mma_impl.h"

/* ---- the queue and its arena ---------------------------------------------- */

size_t tc5__mma_arena_take(struct tc5_mma_queue *q, size_t words) {
  size_t bytes = words * sizeof(uint32_t), need = q->used + bytes;
  if (need > q->size) {
    size_t size = q->size ? q->size : 1u << 16;
    while (size < need) size *= 2;
    uint8_t *a = realloc(q->arena, size);
    if (!a) return SIZE_MAX;
    q->arena = a, q->size = size;
  }
  size_t off = q->used;
  q->used = need;
  return off;
}

struct tc5_mma_queue *tc5__mma_queue_of(tc5_cta *c) {
  if (!c->queue) c->queue = calloc(1, sizeof *c->queue);
  return c->queue;
}

tc5_status tc5__mma_threads(tc5_cta *c, unsigned threads) {
  if (threads <= 1 && !c->queue) return TC5_OK; /* the default */
  struct tc5_mma_queue *q = tc5__mma_queue_of(c);
  if (!q) return TC5_ENOMEM;
  q->threads = threads;
  return TC5_OK;
}

tc5_status tc5_cta_free(tc5_cta *cta) {
  if (!cta) return TC5_EINVAL;
  if (cta->queue) {
    free(cta->queue->job);
    free(cta->queue->arena);
    free(cta->queue);
    cta->queue = NULL;
  }
  return TC5_OK;
}

tc5_status tc5_mma_pending(const tc5_cta *issuer, unsigned *count) {
  if (!issuer || !count) return TC5_EINVAL;
  *count = issuer->queue ? issuer->queue->n : 0;
  return TC5_OK;
}

tc5_status tc5__mma_enqueue(struct tc5_mma_queue *q, mma_job *J) {
  if (q->n == q->cap) {
    unsigned cap = q->cap ? 2 * q->cap : 16;
    mma_job *nj = realloc(q->job, cap * sizeof *nj);
    if (!nj) return TC5_ENOMEM;
    q->job = nj, q->cap = cap;
  }
  J->seq = ++q->issued;
  q->job[q->n++] = *J;
  return TC5_OK;
}

/* D's place in Tensor Memory split as lane = lane_m[m] + lane_n[n],
 * column = col_n[n] (true of every layout A-G) */
static void d_map(unsigned M, unsigned cg, bool ws, unsigned N, uint32_t *lane_m, uint32_t *lane_n, uint32_t *col_n) {
  uint32_t l0, c;
  for (unsigned m = 0; m < M / cg; m++) tc5_mma_d_cell(M, cg, ws, N, m, 0, &lane_m[m], &c, NULL);
  tc5_mma_d_cell(M, cg, ws, N, 0, 0, &l0, &c, NULL);
  for (unsigned n = 0; n < N; n++) {
    tc5_mma_d_cell(M, cg, ws, N, 0, n, &lane_n[n], &col_n[n], NULL);
    lane_n[n] -= l0;
  }
}

/* ---- completion ------------------------------------------------------------ */

/* the same CTAs, shape and arithmetic: MMAs whose A and B may share one
 * call of the core */
static bool same_arith(const mma_job *x, const mma_job *y) {
  return x->cta[0] == y->cta[0] && x->cta[1] == y->cta[1] && x->cg == y->cg && x->M == y->M && x->N == y->N &&
         x->ws == y->ws && !memcmp(&x->dot, &y->dot, sizeof x->dot) && x->o.negate_a == y->o.negate_a &&
         x->o.negate_b == y->o.negate_b && !x->has_dol && !y->has_dol;
}

/* j accumulates onto h (the last MMA of a group) in the same D with the
 * same arithmetic, so the group's K loop is one call of the core */
static bool fusable(const mma_job *h, const mma_job *j) {
  unsigned L = h->dot.chunk;
  return same_arith(h, j) && j->dl == h->dl && j->dc == h->dc && j->o.enable_input_d && !j->o.scale_input_d && L &&
         h->K % L == 0 && j->K % L == 0;
}

/* i's D, in any of its CTAs' Tensor Memory t, meets lanes [lane, lane +
 * nlanes) x columns [col, col + ncols) */
static bool d_meets(const mma_job *i, const tc5_tmem *t, uint32_t lane, uint32_t nlanes, uint32_t col,
                    uint32_t ncols) {
  bool here = false;
  for (unsigned a = 0; a < i->cg; a++) here |= i->cta[a]->tmem == t;
  uint32_t li, ci;
  bool al;
  tc5__mma_d_extent(i->M, i->cg, i->ws, i->N, &li, &ci, &al);
  return here && i->dl < lane + nlanes && lane < i->dl + li && i->dc < col + ncols && col < i->dc + ci;
}

/* D's lanes x columns in the CTAs of j and i overlap */
static bool overlaps(const mma_job *i, const mma_job *j) {
  uint32_t lj, cj;
  bool al;
  tc5__mma_d_extent(j->M, j->cg, j->ws, j->N, &lj, &cj, &al);
  bool meet = false;
  for (unsigned b = 0; b < j->cg; b++) meet |= d_meets(i, j->cta[b]->tmem, j->dl, lj, j->dc, cj);
  return meet;
}

/* Two K loops (n jobs each) that differ only in A and D: the same B, shape
 * and arithmetic, so one call of the core computes both (a CTA's D tiles
 * along M: A stacked, B decoded once). */
static bool same_b(const struct tc5_mma_queue *q, mma_job *const *g, mma_job *const *h, unsigned n) {
  for (unsigned i = 0; i < n; i++) {
    const mma_job *x = g[i], *y = h[i];
    if (!same_arith(x, y) || x->K != y->K || x->o.enable_input_d != y->o.enable_input_d ||
        x->o.scale_input_d != y->o.scale_input_d ||
        memcmp(ARENA(q, x->b_off), ARENA(q, y->b_off), (size_t)x->K * x->N * sizeof(uint32_t)) ||
        (x->ns && memcmp(ARENA(q, x->sb_off), ARENA(q, y->sb_off), (size_t)x->cg * x->ns * x->N * sizeof(uint32_t))))
      return false;
  }
  return true;
}

/* ng K loops of n jobs each (jobs[g * n + i]) as one call of the core per
 * CTA: A rows stacked group after group, K concatenated */
static tc5_status run_batch(struct tc5_mma_queue *q, mma_job *const *jobs, unsigned n, unsigned ng, tc5_diag *diag) {
  const mma_job *h = jobs[0];
  unsigned cg = h->cg, rows = h->rows, N = h->N, K = 0, KS = 0, R = ng * rows;
  bool sparse = false; /* .sp among the jobs: the core learns the elided positions */
  for (unsigned i = 0; i < n; i++) K += jobs[i]->K, KS += jobs[i]->ns;
  for (unsigned i = 0; i < n * ng; i++) sparse |= jobs[i]->sparse;
  bool direct = n == 1 && ng == 1; /* the job's own A and B */
  size_t mark = q->used;
  size_t o_a = direct ? 0 : tc5__mma_arena_take(q, (size_t)R * K);
  size_t o_b = n == 1 ? 0 : tc5__mma_arena_take(q, (size_t)K * N);
  size_t o_d = tc5__mma_arena_take(q, (size_t)R * N), o_l = tc5__mma_arena_take(q, rows + 2 * (size_t)N);
  /* block scaling: SA (R x KS) and SB (KS x N), concatenated like A and B */
  size_t o_sa = KS ? tc5__mma_arena_take(q, (size_t)R * KS) : 0, o_sb = KS ? tc5__mma_arena_take(q, (size_t)KS * N) : 0;
  size_t o_el = sparse && !direct ? tc5__mma_arena_take(q, ((size_t)R * K + 3) / 4) : 0;
  if (o_a == SIZE_MAX || o_b == SIZE_MAX || o_d == SIZE_MAX || o_l == SIZE_MAX || o_sa == SIZE_MAX ||
      o_sb == SIZE_MAX || o_el == SIZE_MAX) {
    q->used = mark;
    return TC5_ENOMEM;
  }
  /* pointers into the arena only now: taking from it may have moved it */
  uint32_t *A = direct ? ARENA(q, h->a_off) : ARENA(q, o_a), *B = ARENA(q, n == 1 ? h->b_off : o_b), *D = ARENA(q, o_d);
  uint32_t *lane_m = ARENA(q, o_l), *lane_n = lane_m + rows, *col_n = lane_n + N;
  tc5_status st;
  for (unsigned i = 0, k0 = 0; n > 1 && i < n; k0 += jobs[i]->K, i++)
    memcpy(B + (size_t)k0 * N, ARENA(q, jobs[i]->b_off), (size_t)jobs[i]->K * N * sizeof *B);
  d_map(h->M, cg, h->ws, N, lane_m, lane_n, col_n);
  for (unsigned c = 0; c < cg; c++) {
    tc5_tmem *t = h->cta[c]->tmem;
    uint8_t *EL = !sparse ? NULL
                  : direct    ? (uint8_t *)ARENA(q, h->el_off) + (size_t)c * rows * K
                              : (uint8_t *)ARENA(q, o_el);
    for (unsigned g = 0; g < ng && !direct; g++)
      for (unsigned i = 0, k0 = 0; i < n; k0 += jobs[i]->K, i++) {
        const mma_job *J = jobs[g * n + i];
        for (unsigned r = 0; r < rows; r++) {
          memcpy(A + ((size_t)g * rows + r) * K + k0, ARENA(q, J->a_off) + ((size_t)c * rows + r) * J->K,
                 J->K * sizeof *A);
          if (!sparse) continue;
          uint8_t *e = EL + ((size_t)g * rows + r) * K + k0;
          if (J->sparse)
            memcpy(e, (const uint8_t *)ARENA(q, J->el_off) + ((size_t)c * rows + r) * J->K, J->K);
          else
            memset(e, 0, J->K);
        }
      }
    for (unsigned g = 0; g < ng && h->o.enable_input_d; g++) { /* C: D as the MMAs before left it */
      const mma_job *J = jobs[g * n];
      uint64_t uninit = 0;
      uint32_t first = 0;
      /* an f16 D is the low 16 bits of each cell: those must be written (tcgen05.st
       * .unpack::16b writes only them: Triton zeroes an f16 accumulator so) */
      uint8_t need = J->f16d ? 1 : 3;
      for (unsigned m = 0; m < rows; m++)
        for (unsigned nn = 0; nn < N; nn++) {
          size_t cell = (size_t)(J->dl + lane_m[m] + lane_n[nn]) * TC5_TMEM_COLS + J->dc + col_n[nn];
          bool unwritten = (t->written[cell] & need) != need;
          if (unwritten && t->uninit)
            tc5_uninit_note(t->uninit, true, TC5_TMEM_ADDR(cell / TC5_TMEM_COLS, cell % TC5_TMEM_COLS));
          else if (unwritten && !uninit++) first = (uint32_t)cell;
          D[((size_t)g * rows + m) * N + nn] = J->f16d ? t->cells[cell] & 0xFFFFu : t->cells[cell];
        }
      if (uninit) {
        st = tc5_diag_add(diag, TC5_EUNINIT, "d-tmem", TC5_TMEM_ADDR(first / TC5_TMEM_COLS, first % TC5_TMEM_COLS),
                          "tcgen05.mma #%u: enable-input-d reads D, but %llu of its cells in CTA %u were never "
                          "written; first: lane %u column %u",
                          J->seq, (unsigned long long)uninit, t->cluster_rank, first / TC5_TMEM_COLS,
                          first % TC5_TMEM_COLS);
        goto out;
      }
    }
    uint32_t *SA = KS ? ARENA(q, o_sa) : NULL, *SB = KS ? ARENA(q, o_sb) : NULL;
    for (unsigned g = 0; g < ng && KS; g++)
      for (unsigned i = 0, s0 = 0; i < n; s0 += jobs[i]->ns, i++) {
        const mma_job *J = jobs[g * n + i];
        unsigned ns = J->ns;
        for (unsigned r = 0; r < rows; r++)
          memcpy(SA + ((size_t)g * rows + r) * KS + s0, ARENA(q, J->sa_off) + ((size_t)c * rows + r) * ns,
                 ns * sizeof *SA);
        if (!g) memcpy(SB + (size_t)s0 * N, ARENA(q, J->sb_off) + (size_t)c * ns * N, (size_t)ns * N * sizeof *SB);
      }
    /* .sp: the elided pairs are absent (B there never classified) */
    st = tc5__gemm_elided(&h->dot, R, N, K, direct ? A + (size_t)c * rows * K : A, EL, B, SA, SB, D, &h->o,
                          q->threads > 1 ? q->threads : 1);
    if (st) goto out;
    for (unsigned g = 0; g < ng; g++) {
      const mma_job *J = jobs[g * n];
      for (unsigned m = 0; m < rows; m++) {
        const uint32_t *dr = D + ((size_t)g * rows + m) * N;
        size_t base = (size_t)(J->dl + lane_m[m]) * TC5_TMEM_COLS + J->dc;
        if (!J->has_dol && lane_n[N - 1] == 0) { /* one lane: D's row is a run of columns */
          for (unsigned nn = 0; nn < N; nn++) t->cells[base + col_n[nn]] = dr[nn];
          memset(t->written + base + col_n[0], 3, N);
          continue;
        }
        for (unsigned nn = 0; nn < N; nn++) {
          uint32_t lane = J->dl + lane_m[m] + lane_n[nn];
          if (J->has_dol && (J->dol[4 * c + lane / 32] >> (lane % 32) & 1)) continue;
          t->cells[base + (size_t)lane_n[nn] * TC5_TMEM_COLS + col_n[nn]] = dr[nn];
          t->written[base + (size_t)lane_n[nn] * TC5_TMEM_COLS + col_n[nn]] = 3;
        }
      }
    }
  }
  st = TC5_OK;
out:
  q->used = mark;
  return st;
}

/* Runs the queue as K loops: a job joins the latest K loop into whose D it
 * accumulates (fusable) when every K loop formed after that one writes other
 * Tensor Memory cells (MMAs on disjoint cells commute); then K loops with
 * the same B whose D do not overlap anything between them run as one batch;
 * batches run in the order of their first job. */
tc5_status tc5_mma_complete(tc5_cta *issuer, tc5_diag *diag) {
  if (!issuer) return TC5_EINVAL;
  struct tc5_mma_queue *q = issuer->queue;
  if (!q || !q->n) return TC5_OK;
  unsigned n = q->n, ng = 0;
  unsigned *gid = malloc((n + 1) * sizeof *gid), *head = malloc((n + 1) * sizeof *head),
           *last = malloc((n + 1) * sizeof *last), *size = calloc(n + 1, sizeof *size);
  bool *done = calloc(n + 1, sizeof *done);
  mma_job **mem = malloc((n + 1) * sizeof *mem), **batch = malloc((n + 1) * sizeof *batch);
  tc5_status st = TC5_ENOMEM;
  if (!gid || !head || !last || !size || !done || !mem || !batch) goto out;
  for (unsigned j = 0; j < n; j++) {
    const mma_job *J = &q->job[j];
    unsigned g = ng;
    for (unsigned k = ng; k-- > 0;) {
      if (fusable(&q->job[last[k]], J)) {
        g = k;
        break;
      }
      if (overlaps(&q->job[head[k]], J)) break;
    }
    if (g == ng) head[ng++] = j;
    gid[j] = g, last[g] = j, size[g]++;
  }
  /* mem: each K loop's jobs, K loop after K loop (head[g] becomes the offset) */
  for (unsigned g = 0, off = 0; g < ng; off += size[g], g++) {
    unsigned m = 0;
    for (unsigned j = head[g]; j < n; j++)
      if (gid[j] == g) mem[off + m++] = &q->job[j];
    head[g] = off;
  }
  st = TC5_OK;
  for (unsigned g = 0; g < ng && !st; g++) {
    if (done[g]) continue;
    unsigned nb = 0, sz = size[g];
    for (unsigned i = 0; i < sz; i++) batch[nb++] = mem[head[g] + i];
    for (unsigned h = g + 1; h < ng; h++) {
      bool ok = !done[h] && size[h] == sz && same_b(q, &mem[head[g]], &mem[head[h]], sz);
      /* h moves before the K loops between that have not run (a K loop
       * already in an earlier batch ran before this one), and must not
       * touch the D of those in the batch (g's included) */
      for (unsigned k = g + 1; ok && k < h; k++)
        if (!done[k] && overlaps(mem[head[k]], mem[head[h]])) ok = false;
      for (unsigned b = 0; ok && b < nb; b += sz) ok = !overlaps(batch[b], mem[head[h]]);
      if (!ok) continue;
      for (unsigned i = 0; i < sz; i++) batch[nb++] = mem[head[h] + i];
      done[h] = true;
    }
    st = run_batch(q, batch, sz, nb / sz, diag);
  }
out:
  free(gid);
  free(head);
  free(last);
  free(size);
  free(done);
  free(mem);
  free(batch);
  q->n = 0, q->used = 0, q->issued = 0; /* the arena stays for the next K loop */
  return st;
}

tc5_status tc5__mma_settle(tc5_cta *issuer, const tc5_tmem *target, uint32_t lane, uint32_t nlanes, uint32_t col,
                           uint32_t ncols, tc5_diag *diag) {
  struct tc5_mma_queue *q = issuer->queue;
  for (unsigned j = 0; q && j < q->n; j++)
    if (d_meets(&q->job[j], target, lane, nlanes, col, ncols)) return tc5_mma_complete(issuer, diag);
  return TC5_OK;
}
