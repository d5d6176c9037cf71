/* tc5 — tcgen05.mma (9.7.16.10): gather the operands, run the exact
 * arithmetic core, place D in Tensor Memory by the data-path layout. */
#include "tc5/mma.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec_tables.h"
#include "tc5/arith.h"
#include "tc5/layout.h"
#include "tc5/zcmask.h"

tc5_status tc5_mma_args_init(tc5_mma_args *a, tc5_kind kind) {
  if (!a) return TC5_EINVAL;
  memset(a, 0, sizeof *a);
  a->enable_input_d = true;
  return tc5_mma_variant_init(&a->variant, kind);
}

/* ---- 9.7.16.10.5 data-path layouts (CUTLASS mma_traits_sm100_frag.hpp:
 * tmem_frg_1sm M=64 ((16,4),N):((1,32),128) and M=128 (128,N):(1,128);
 * tmem_frg_2sm M_MMA=64 (64,(N/2,2)):(1,(128,64)) and 128; tmem_frg_ws
 * M=32 (32,(N/4,4)):(1,(128,32)), M=64 (64,(N/2,2)):(1,(128,64)); in
 * CuTe's "virtual" addressing lane stride 1, column stride 128) ---- */

tc5_status tc5_mma_d_cell(unsigned m_total, unsigned cta_group, bool ws, unsigned n_total, unsigned m,
                          unsigned n, uint32_t *lane, uint32_t *col, char *layout) {
  if (!lane || !col || (cta_group != 1 && cta_group != 2) || !n_total || n >= n_total) return TC5_EINVAL;
  unsigned rows = m_total / cta_group;
  if (m >= rows) return TC5_EINVAL;
  char id;
  if (cta_group == 2) {
    if (m_total == 256) id = 'A', *lane = m, *col = n;
    else if (m_total == 128) id = 'B', *lane = m + 64 * (n / (n_total / 2)), *col = n % (n_total / 2);
    else return TC5_EINVAL;
  } else if (m_total == 128) {
    id = 'D', *lane = m, *col = n;
  } else if (m_total == 64 && !ws) {
    id = 'F', *lane = m % 16 + 32 * (m / 16), *col = n;
  } else if (m_total == 64) {
    id = 'E', *lane = m + 64 * (n / (n_total / 2)), *col = n % (n_total / 2);
  } else if (m_total == 32 && ws) {
    id = 'G', *lane = m + 32 * (n / (n_total / 4)), *col = n % (n_total / 4);
  } else {
    return TC5_EINVAL;
  }
  if (layout) *layout = id;
  return TC5_OK;
}

/* the lanes x columns D occupies, and the lane alignments allowed */
static void d_extent(unsigned M, unsigned cg, bool ws, unsigned N, uint32_t *nlanes, uint32_t *ncols,
                     bool *align16) {
  char id = 0;
  uint32_t l, c;
  tc5_mma_d_cell(M, cg, ws, N, 0, 0, &l, &c, &id);
  *align16 = id == 'F';
  switch (id) {
    case 'B': case 'E': *nlanes = 128, *ncols = N / 2; break;
    case 'G': *nlanes = 128, *ncols = N / 4; break;
    case 'F': *nlanes = 112, *ncols = N; break; /* lanes 0..111 from the base */
    default: *nlanes = M / cg, *ncols = N; break;
  }
}

static uint64_t fnv(const uint32_t *v, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) h = (h ^ v[i]) * 1099511628211ull;
  return h;
}

/* A from Tensor Memory: the rows at D's lanes, K elements packed in 32-bit
 * columns (CUTLASS tmem_frg_1sm<a_type, a_type>: 32/bits elements a column,
 * element k at bit (k * bits) % 32; fp6/fp4 of f8f6f4 in 8-bit containers). */
static tc5_status gather_a_tmem(const tc5_tmem *t, uint32_t taddr, unsigned M, unsigned cg, unsigned K,
                                tc5_type at, bool ashift, uint32_t *A, tc5_diag *diag) {
  const tc5_type_info *ti = tc5_spec_type(at);
  unsigned bits = ti->bits >= 16 ? ti->bits : 8;
  const tc5_container8 *c8 = ti->bits < 8 ? tc5_spec_container8(at) : NULL;
  unsigned rows = M / cg, per = 32 / bits;
  uint64_t uninit = 0;
  uint32_t first = 0;
  for (unsigned m = 0; m < rows; m++) {
    uint32_t lane, col;
    /* .ashift: row m of A is the row above it in Tensor Memory, the first
     * row stays (nothing shifts into it; the last row is not shifted on) */
    tc5_mma_d_cell(M, cg, false, 8, ashift && m ? m - 1 : m, 0, &lane, &col, NULL);
    lane += TC5_TMEM_LANE(taddr);
    for (unsigned k = 0; k < K; k++) {
      uint32_t w;
      bool wr;
      if (tc5_tmem_peek(t, lane, TC5_TMEM_COL(taddr) + k / per, &w, &wr)) return TC5_EBOUNDS;
      if (!wr && !uninit++) first = TC5_TMEM_ADDR(lane, TC5_TMEM_COL(taddr) + k / per);
      uint32_t code = bits == 32 ? w : (w >> (bits * (k % per))) & ((1u << bits) - 1);
      if (c8) code = (code >> c8->shift) & ((1u << c8->width) - 1);
      A[(size_t)m * K + k] = code;
    }
  }
  if (uninit)
    return tc5_diag_add(diag, TC5_EUNINIT, "a-tmem", first,
                        "tcgen05.mma: A in Tensor Memory: %llu cells read never written; first: lane %u column %u",
                        (unsigned long long)uninit, TC5_TMEM_LANE(first), TC5_TMEM_COL(first));
  return TC5_OK;
}

static tc5_status gather_smem(const tc5_smem *s, uint64_t raw, const tc5_operand *op, unsigned rows, unsigned K,
                              uint32_t *codes, const char *which, tc5_diag *diag) {
  tc5_smem_desc d;
  tc5_status st = tc5_smem_desc_decode(raw, &d, diag);
  if (st) return st;
  st = tc5_layout_gather(s, &d, op, rows, K, codes, diag);
  if (st && diag && diag->count) {
    /* name the operand in the last message */
    tc5_issue *is = &diag->issue[diag->count - 1];
    char tmp[sizeof is->message];
    snprintf(tmp, sizeof tmp, "%s: %s", which, is->message);
    memcpy(is->message, tmp, sizeof tmp);
  }
  return st;
}

/* collector: 0 = a, 1..4 = b0..b3 */
static tc5_status collector(tc5_cta *c, const tc5_mma_variant *v, uint64_t source, uint64_t sum, tc5_diag *diag) {
  int i = v->ws ? (v->collector_buf >= TC5_COLLECTOR_BUF_B0 ? (int)(v->collector_buf - TC5_COLLECTOR_BUF_B0) + 1 : 1)
                : 0;
  const char *name[5] = {"a", "b0", "b1", "b2", "b3"};
  tc5_collector *b = &c->coll[i];
  switch (v->collector_op) {
    case TC5_COLLECTOR_FILL:
      b->valid = true, b->source = source, b->sum = sum;
      return TC5_OK;
    case TC5_COLLECTOR_USE:
    case TC5_COLLECTOR_LASTUSE:
      if (!b->valid)
        return tc5_diag_add(diag, TC5_ESTATE, "collector", (uint64_t)i,
                            "tcgen05.mma: .collector::%s::%s without a valid fill of buffer %s (9.7.16.10.9.1)",
                            name[i], v->collector_op == TC5_COLLECTOR_USE ? "use" : "lastuse", name[i]);
      if (b->source != source || b->sum != sum)
        return tc5_diag_add(diag, TC5_ESTATE, "collector", (uint64_t)i,
                            "tcgen05.mma: .collector::%s: the %s matrix differs from the one filled (its source "
                            "must not change while in the collector buffer; reuse is opportunistic)",
                            name[i], i ? "B" : "A");
      if (v->collector_op == TC5_COLLECTOR_LASTUSE) b->valid = false;
      return TC5_OK;
    default:
      b->valid = false;
      return TC5_OK;
  }
}

/* ---- the issue queue ---------------------------------------------------- */

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
  uint32_t *A, *B; /* resolved when the queue completes */
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
};

/* words of the arena; SIZE_MAX when memory runs out */
static size_t arena_take(struct tc5_mma_queue *q, size_t words) {
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

#define ARENA(q, off) ((uint32_t *)(void *)((q)->arena + (off)))

static struct tc5_mma_queue *queue_of(tc5_cta *c) {
  if (!c->queue) c->queue = calloc(1, sizeof *c->queue);
  return c->queue;
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

tc5_status tc5_mma_issue(tc5_cta *ctas, unsigned nctas, const tc5_mma_args *a, tc5_diag *diag) {
  if (!ctas || !a) return TC5_EINVAL;
  const tc5_mma_variant *v = &a->variant;
  const char *what = "tcgen05.mma";
  unsigned cg = v->cta_group;
  if ((cg != 1 && cg != 2) || nctas != cg)
    return tc5_diag_add(diag, TC5_EINVAL, "cta_group", cg,
                        "%s: .cta_group::%u needs %u CTA%s, %u given", what, cg, cg, cg == 2 ? "s (a pair)" : "", nctas);
  for (unsigned i = 0; i < nctas; i++)
    if (!ctas[i].smem || !ctas[i].tmem) return TC5_EINVAL;
  if (cg == 2 && (ctas[0].tmem->cluster_rank ^ ctas[1].tmem->cluster_rank) != 1)
    return tc5_diag_add(diag, TC5_EILLEGAL, "cluster_ctarank", ctas[1].tmem->cluster_rank,
                        "%s: CTAs %u and %u are not a CTA pair (9.7.16.5.1)", what, ctas[0].tmem->cluster_rank,
                        ctas[1].tmem->cluster_rank);
  if (v->sparse || v->block_scale || v->kind == TC5_KIND_MXF8F6F4 || v->kind == TC5_KIND_MXF4 ||
      v->kind == TC5_KIND_MXF4NVF4)
    return tc5_diag_add(diag, TC5_EUNSUPPORTED, "variant", (uint64_t)v->kind,
                        "%s: .sp and the block-scaled kinds are not modelled yet", what);
  /* the instruction descriptor against the variant (Tables 39, 49, 50, ...) */
  tc5_idesc d;
  tc5_status st = tc5_idesc_decode(a->idesc, v->kind, &d, diag);
  if (!st) st = tc5_idesc_check(&d, v, diag);
  if (st) return st;
  tc5_type at, bt, dt;
  unsigned K, M = d.m, N = d.n;
  tc5_idesc_atype(&d, &at);
  tc5_idesc_btype(&d, &bt);
  tc5_idesc_dtype(&d, &dt);
  tc5_idesc_k(&d, &K);
  if (v->ashift && !a->a_in_tmem)
    return tc5_diag_add(diag, TC5_EILLEGAL, "ashift", 1,
                        "%s: .ashift shifts the rows of A in Tensor Memory: A must be [a-tmem]", what);
  if (v->ashift && M != 128 && M != 256)
    return tc5_diag_add(diag, TC5_EILLEGAL, "ashift", M, "%s: .ashift is only allowed with M = 128 or 256, not %u",
                        what, M);
  if (a->scale_input_d && v->kind != TC5_KIND_F16 && v->kind != TC5_KIND_TF32)
    return tc5_diag_add(diag, TC5_EILLEGAL, "scale-input-d", a->scale_input_d,
                        "%s: scale-input-d is only valid for .kind::tf32 and .kind::f16", what);
  if (a->scale_input_d > 15)
    return tc5_diag_add(diag, TC5_ERANGE, "scale-input-d", a->scale_input_d,
                        "%s: scale-input-d %u is outside [0, 15]", what, a->scale_input_d);
  if (a->has_zcmask && !v->ws)
    return tc5_diag_add(diag, TC5_EILLEGAL, "zero-column-mask-desc", a->zcmask,
                        "%s: a zero-column mask descriptor is an operand of tcgen05.mma.ws only", what);
  if (a->a_in_tmem && v->ws && M != 128)
    return tc5_diag_add(diag, TC5_EUNSUPPORTED, "a-tmem", a->a_tmem,
                        "%s.ws: A in Tensor Memory with M = %u is not modelled yet", what, M);
  for (unsigned i = 0; i < nctas; i++) {
    st = tc5_tmem_use_cta_group(ctas[i].tmem, cg, what, diag);
    if (st) return st;
  }
  mma_job J;
  memset(&J, 0, sizeof J);
  /* the arithmetic */
  st = tc5_dot_model(TC5_MODEL_BLACKWELL, v->kind, at, bt, dt, TC5_TYPE_NONE, 0, d.saturate, &J.dot, diag);
  if (st) return st;
  tc5_dot_opts_init(&J.o);
  J.o.negate_a = d.negate_a, J.o.negate_b = d.negate_b;
  J.o.enable_input_d = a->enable_input_d;
  J.o.scale_input_d = a->scale_input_d;
  st = tc5_dot_check(&J.dot, K, &J.o, diag);
  if (st) return st;
  /* zero-column mask and column shift (.ws) */
  tc5_colmask zm;
  memset(&zm, 0, sizeof zm);
  unsigned shift = 0;
  if (a->has_zcmask) {
    tc5_zcmask_desc zd;
    st = tc5_zcmask_desc_decode(a->zcmask, &zd, diag);
    if (!st) st = tc5_zcmask_generate(&zd, M, N, &zm, diag);
    if (st) return st;
    if (!st) st = tc5_zcmask_check_shift(&zd, &d, diag);
    if (st) return st;
    shift = zd.column_shift;
  }
  unsigned rows = M / cg, bcols = N / cg;
  tc5_operand opa, opb;
  st = tc5_operand_for(v->kind, at, d.transpose_a ? TC5_MAJOR_MN : TC5_MAJOR_K, &opa);
  if (!st) st = tc5_operand_for(v->kind, bt, d.transpose_b ? TC5_MAJOR_MN : TC5_MAJOR_K, &opb);
  if (st) return tc5_diag_add(diag, st, "type", (uint64_t)at, "%s: operand types not readable from shared memory", what);
  size_t nA = (size_t)rows * K, nB = (size_t)(bcols + shift) * K;
  struct tc5_mma_queue *q = queue_of(&ctas[0]);
  if (!q) return TC5_ENOMEM;
  size_t mark = q->used, bt_off;
  J.a_off = arena_take(q, nA * cg);
  J.b_off = arena_take(q, (size_t)K * N);
  bt_off = arena_take(q, nB * cg); /* B^T as read, given back below */
  if (J.a_off == SIZE_MAX || J.b_off == SIZE_MAX || bt_off == SIZE_MAX) {
    st = TC5_ENOMEM;
    goto fail;
  }
  J.A = ARENA(q, J.a_off), J.B = ARENA(q, J.b_off);
  uint32_t *Bt = ARENA(q, bt_off);
  /* B: each CTA's columns, side by side (B^T rows from gather) */
  for (unsigned c = 0; c < cg; c++) {
    st = gather_smem(ctas[c].smem, a->b_desc, &opb, bcols + shift, K, Bt + c * nB, "B (b-desc)", diag);
    if (st) goto fail;
  }
  for (unsigned c = 0; c < cg; c++)
    for (unsigned j = 0; j < bcols; j++) {
      unsigned n = c * bcols + j;
      bool zero = tc5_colmask_bit(&zm, n);
      const uint32_t *src = Bt + c * nB + (size_t)(j + shift) * K;
      for (unsigned k = 0; k < K; k++) J.B[(size_t)k * N + n] = zero ? 0 : src[k];
    }
  for (unsigned c = 0; c < cg; c++) {
    if (a->a_in_tmem)
      st = gather_a_tmem(ctas[c].tmem, a->a_tmem, M, cg, K, at, v->ashift, J.A + c * nA, diag);
    else
      st = gather_smem(ctas[c].smem, a->a_desc, &opa, rows, K, J.A + c * nA, "A (a-desc)", diag);
    if (st) goto fail;
  }
  /* Tensor Memory: D's range and lane alignment */
  uint32_t nl, nc;
  bool al16;
  d_extent(M, cg, v->ws, N, &nl, &nc, &al16);
  uint32_t dl = TC5_TMEM_LANE(a->d_tmem), dc = TC5_TMEM_COL(a->d_tmem);
  if (dl != 0 && !(al16 && dl == 16)) {
    st = tc5_diag_add(diag, TC5_EALIGN, "d-tmem", a->d_tmem,
                      "%s: d-tmem lane %u: the data-path layout of M = %u%s needs lane alignment %s (9.7.16.10.5)",
                      what, dl, M, v->ws ? " .ws" : "", al16 ? "0 or 16" : "0");
    goto fail;
  }
  if (a->a_in_tmem && TC5_TMEM_LANE(a->a_tmem) != dl) {
    st = tc5_diag_add(diag, TC5_EALIGN, "a-tmem", a->a_tmem,
                      "%s: a-tmem lane %u differs from d-tmem lane %u: A and D must use the same lane alignment",
                      what, TC5_TMEM_LANE(a->a_tmem), dl);
    goto fail;
  }
  for (unsigned c = 0; c < cg; c++) {
    st = tc5_tmem_check_range(ctas[c].tmem, dl, nl, dc, nc, "tcgen05.mma: D (d-tmem)", diag);
    if (st) goto fail;
  }
  /* collector buffers: A (non-.ws) or B (.ws) */
  bool summed = v->collector_op == TC5_COLLECTOR_FILL || v->collector_op == TC5_COLLECTOR_USE ||
                v->collector_op == TC5_COLLECTOR_LASTUSE;
  for (unsigned c = 0; c < cg; c++) {
    uint64_t src = v->ws ? a->b_desc : a->a_in_tmem ? a->a_tmem : a->a_desc;
    uint64_t sum = !summed ? 0 : v->ws ? fnv(Bt + c * nB, nB) : fnv(J.A + c * nA, nA);
    st = collector(&ctas[c], v, src, sum, diag);
    if (st) goto fail;
  }
  /* queue it */
  if (q->n == q->cap) {
    unsigned cap = q->cap ? 2 * q->cap : 16;
    mma_job *nj = realloc(q->job, cap * sizeof *nj);
    if (!nj) {
      st = TC5_ENOMEM;
      goto fail;
    }
    q->job = nj, q->cap = cap;
  }
  for (unsigned c = 0; c < cg; c++) J.cta[c] = &ctas[c];
  J.cg = cg, J.M = M, J.N = N, J.K = K, J.rows = rows, J.seq = ++q->issued;
  J.ws = v->ws, J.f16d = dt == TC5_F16, J.dl = dl, J.dc = dc;
  J.has_dol = a->has_disable_output_lane;
  memcpy(J.dol, a->disable_output_lane, sizeof J.dol);
  q->job[q->n++] = J;
  q->used = bt_off;
  return TC5_OK;
fail:
  q->used = mark;
  return st;
}

/* ---- completion ------------------------------------------------------------ */

/* j accumulates onto h (the last MMA of a group) in the same D with the
 * same arithmetic, so the group's K loop is one call of the core */
static bool fusable(const mma_job *h, const mma_job *j) {
  unsigned L = h->dot.chunk;
  return j->cta[0] == h->cta[0] && j->cta[1] == h->cta[1] && j->cg == h->cg && j->M == h->M && j->N == h->N &&
         j->ws == h->ws && j->dl == h->dl && j->dc == h->dc && !memcmp(&j->dot, &h->dot, sizeof j->dot) &&
         j->o.negate_a == h->o.negate_a && j->o.negate_b == h->o.negate_b && j->o.enable_input_d &&
         !j->o.scale_input_d && !h->has_dol && !j->has_dol && L && h->K % L == 0 && j->K % L == 0;
}

/* D's lanes x columns in the CTAs of j and i overlap */
static bool overlaps(const mma_job *i, const mma_job *j) {
  bool shared = false;
  for (unsigned a = 0; a < i->cg; a++)
    for (unsigned b = 0; b < j->cg; b++) shared |= i->cta[a] == j->cta[b];
  if (!shared) return false;
  uint32_t li, ci, lj, cj;
  bool al;
  d_extent(i->M, i->cg, i->ws, i->N, &li, &ci, &al);
  d_extent(j->M, j->cg, j->ws, j->N, &lj, &cj, &al);
  return i->dl < j->dl + lj && j->dl < i->dl + li && i->dc < j->dc + cj && j->dc < i->dc + ci;
}

/* Two K loops (n jobs each) that differ only in A and D: the same B, shape
 * and arithmetic, so one call of the core computes both (a CTA's D tiles
 * along M: A stacked, B decoded once). */
static bool same_b(mma_job *const *g, mma_job *const *h, unsigned n) {
  for (unsigned i = 0; i < n; i++) {
    const mma_job *x = g[i], *y = h[i];
    if (x->cta[0] != y->cta[0] || x->cta[1] != y->cta[1] || x->cg != y->cg || x->M != y->M || x->N != y->N ||
        x->K != y->K || x->ws != y->ws || memcmp(&x->dot, &y->dot, sizeof x->dot) ||
        x->o.negate_a != y->o.negate_a || x->o.negate_b != y->o.negate_b ||
        x->o.enable_input_d != y->o.enable_input_d || x->o.scale_input_d != y->o.scale_input_d ||
        x->has_dol || y->has_dol || memcmp(x->B, y->B, (size_t)x->K * x->N * sizeof *x->B))
      return false;
  }
  return true;
}

/* ng K loops of n jobs each (jobs[g * n + i]) as one call of the core per
 * CTA: A rows stacked group after group, K concatenated */
static void resolve(struct tc5_mma_queue *q) {
  for (unsigned i = 0; i < q->n; i++) q->job[i].A = ARENA(q, q->job[i].a_off), q->job[i].B = ARENA(q, q->job[i].b_off);
}

static tc5_status run_batch(struct tc5_mma_queue *q, mma_job *const *jobs, unsigned n, unsigned ng, tc5_diag *diag) {
  const mma_job *h = jobs[0];
  unsigned cg = h->cg, rows = h->rows, N = h->N, K = 0, R = ng * rows;
  for (unsigned i = 0; i < n; i++) K += jobs[i]->K;
  bool direct = n == 1 && ng == 1; /* the job's own A and B */
  size_t mark = q->used, o_a = direct ? 0 : arena_take(q, (size_t)R * K), o_b = n == 1 ? 0 : arena_take(q, (size_t)K * N),
         o_d = arena_take(q, (size_t)R * N), o_l = arena_take(q, rows + 2 * (size_t)N);
  if (o_a == SIZE_MAX || o_b == SIZE_MAX || o_d == SIZE_MAX || o_l == SIZE_MAX) {
    q->used = mark;
    return TC5_ENOMEM;
  }
  resolve(q); /* the arena may have moved */
  uint32_t *A = direct ? NULL : ARENA(q, o_a), *B = n == 1 ? h->B : ARENA(q, o_b), *D = ARENA(q, o_d);
  uint32_t *lane_m = ARENA(q, o_l), *lane_n = lane_m + rows, *col_n = lane_n + N;
  tc5_status st;
  for (unsigned i = 0, k0 = 0; n > 1 && i < n; k0 += jobs[i]->K, i++)
    memcpy(B + (size_t)k0 * N, jobs[i]->B, (size_t)jobs[i]->K * N * sizeof *B);
  d_map(h->M, cg, h->ws, N, lane_m, lane_n, col_n);
  for (unsigned c = 0; c < cg; c++) {
    tc5_tmem *t = h->cta[c]->tmem;
    for (unsigned g = 0; g < ng && !direct; g++)
      for (unsigned i = 0, k0 = 0; i < n; k0 += jobs[i]->K, i++) {
        const mma_job *J = jobs[g * n + i];
        for (unsigned r = 0; r < rows; r++)
          memcpy(A + ((size_t)g * rows + r) * K + k0, J->A + ((size_t)c * rows + r) * J->K, J->K * sizeof *A);
      }
    for (unsigned g = 0; g < ng && h->o.enable_input_d; g++) { /* C: D as the MMAs before left it */
      const mma_job *J = jobs[g * n];
      uint64_t uninit = 0;
      uint32_t first = 0;
      for (unsigned m = 0; m < rows; m++)
        for (unsigned nn = 0; nn < N; nn++) {
          size_t cell = (size_t)(J->dl + lane_m[m] + lane_n[nn]) * TC5_TMEM_COLS + J->dc + col_n[nn];
          if (t->written[cell] != 3 && !uninit++) first = (uint32_t)cell;
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
    st = tc5_gemm(&h->dot, R, N, K, direct ? h->A + (size_t)c * rows * K : A, B, NULL, NULL, D, &h->o, 1);
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
  resolve(q);
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
      bool ok = !done[h] && size[h] == sz && same_b(&mem[head[g]], &mem[head[h]], sz);
      for (unsigned k = g; ok && k < h; k++) /* h moves before the K loops between */
        if ((!done[k] || k == g) && overlaps(mem[head[k]], mem[head[h]])) ok = false;
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

tc5_status tc5_mma(tc5_cta *ctas, unsigned nctas, const tc5_mma_args *a, tc5_diag *diag) {
  tc5_status st = tc5_mma_issue(ctas, nctas, a, diag);
  return st ? st : tc5_mma_complete(&ctas[0], diag);
}
