/* tc5 — tcgen05.mma (9.7.16.10): gather the operands, run the exact
 * arithmetic core, place D in Tensor Memory by the data-path layout. */
#include "tc5/mma.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mma/mma_impl.h"
#include "spec/spec_tables.h"
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
void tc5__mma_d_extent(unsigned M, unsigned cg, bool ws, unsigned N, uint32_t *nlanes, uint32_t *ncols,
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
/* .ws with M < 128 (layouts E and G): the data paths of D's row m sit in
 * lanes m + M j (j < 128 / M), each needing A's row m: tc5 reads it from
 * lane m and requires the copies in the other lane groups to be equal (an
 * inference from the layout: no public code shows this form's A). */
/* the bits an element of A takes in Tensor Memory: its own from 16 up,
 * 8 below (fp6/fp4 of f8f6f4 in 8-bit containers, 9.7.16.10.4.3), but 4 for
 * the fp4 of .kind::mxf4/mxf4nvf4, two a byte (9.7.16.10.4.5; Gluon's
 * test_tcgen05_mma_scaled_lhs_tmem stores K/2 bytes a row) */
static bool a_tmem_packed4(tc5_kind kind) { return kind == TC5_KIND_MXF4 || kind == TC5_KIND_MXF4NVF4; }
static unsigned a_tmem_bits(tc5_kind kind, tc5_type at) {
  const tc5_type_info *ti = tc5_spec_type(at);
  return a_tmem_packed4(kind) ? 4 : ti->bits >= 16 ? ti->bits : 8;
}

unsigned tc5__mma_a_tmem_cols(tc5_kind kind, tc5_type at, unsigned K) {
  unsigned per = 32 / a_tmem_bits(kind, at);
  return (K + per - 1) / per;
}

static tc5_status gather_a_tmem(const tc5_tmem *t, uint32_t taddr, unsigned M, unsigned cg, bool ws, unsigned K,
                                tc5_kind kind, tc5_type at, bool ashift, uint32_t *A, tc5_diag *diag) {
  const tc5_type_info *ti = tc5_spec_type(at);
  unsigned bits = a_tmem_bits(kind, at);
  const tc5_container8 *c8 = ti->bits < 8 && !a_tmem_packed4(kind) ? tc5_spec_container8(at) : NULL;
  unsigned rows = M / cg, per = 32 / bits;
  uint64_t uninit = 0;
  uint32_t first = 0;
  for (unsigned m = 0; m < rows; m++) {
    uint32_t lane, col;
    /* .ashift: row m of A is the row above it in Tensor Memory, the first
     * row stays (nothing shifts into it; the last row is not shifted on) */
    bool wsr = ws && M < 128; /* replicated rows */
    if (wsr) lane = m, col = 0;
    else tc5_mma_d_cell(M, cg, false, 8, ashift && m ? m - 1 : m, 0, &lane, &col, NULL);
    lane += TC5_TMEM_LANE(taddr);
    for (unsigned k = 0; k < K; k++) {
      uint32_t w;
      bool wr;
      if (tc5_tmem_peek(t, lane, TC5_TMEM_COL(taddr) + k / per, &w, &wr)) return TC5_EBOUNDS;
      if (!wr && t->uninit) tc5_uninit_note(t->uninit, true, TC5_TMEM_ADDR(lane, TC5_TMEM_COL(taddr) + k / per));
      else if (!wr && !uninit++) first = TC5_TMEM_ADDR(lane, TC5_TMEM_COL(taddr) + k / per);
      for (unsigned j = 1; wsr && k % per == 0 && j < 128 / M; j++) {
        uint32_t w2;
        bool wr2;
        if (tc5_tmem_peek(t, lane + M * j, TC5_TMEM_COL(taddr) + k / per, &w2, &wr2)) return TC5_EBOUNDS;
        if (!wr2 && t->uninit) tc5_uninit_note(t->uninit, true, TC5_TMEM_ADDR(lane + M * j, TC5_TMEM_COL(taddr) + k / per));
        else if (!wr2 && !uninit++) first = TC5_TMEM_ADDR(lane + M * j, TC5_TMEM_COL(taddr) + k / per);
        if (wr && wr2 && w2 != w)
          return tc5_diag_add(diag, TC5_EILLEGAL, "a-tmem", TC5_TMEM_ADDR(lane + M * j, TC5_TMEM_COL(taddr) + k / per),
                              "tcgen05.mma.ws: M = %u, A in Tensor Memory: row %u is 0x%08x at lane %u but 0x%08x at "
                              "lane %u (column %u): the lanes of D's row, m + %u j, each need the row (tc5's "
                              "inference for this form: copy A into every %u-lane group)",
                              M, m, w, lane, w2, lane + M * j, TC5_TMEM_COL(taddr) + k / per, M, M);
      }
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

unsigned tc5__mma_sf_cols(bool b, unsigned m_total, unsigned cta_group, unsigned count) {
  unsigned ncols = 0, byte;
  uint32_t l, c;
  for (unsigned i = 0; i < count; i++)
    if (!tc5_mma_sf_cell(b, m_total, cta_group, count, i, 0, 0, 0, &l, &c, &byte, NULL) && c + 1 > ncols) ncols = c + 1;
  return ncols;
}

unsigned tc5__mma_sp_meta_cols(tc5_kind kind, unsigned K) {
  return kind == TC5_KIND_TF32 ? 1 : kind == TC5_KIND_MXF4 || kind == TC5_KIND_MXF4NVF4 ? K / 64 : K / 32;
}

/* A value kept in several lane groups (scale factors, a .ws sparse
 * metadata): bits [shift, shift + width) of the cell at (lane, col) and of
 * its copies at lane + stride r, r < n. 0: every copy written and equal,
 * the value in *v; 1: copy *r_bad never written; 2: copy *r_bad holds
 * *v_bad instead. */
static int read_copies(const tc5_tmem *t, uint32_t lane, uint32_t stride, unsigned n, uint32_t col, unsigned shift,
                       uint32_t mask, uint32_t *v, unsigned *r_bad, uint32_t *v_bad) {
  /* the halves of the cell the value lies in must be written: a scale factor is a byte, and a
   * tcgen05.st .unpack::16b writes the low half of each cell alone (Triton's constant scales) */
  uint64_t bits = (uint64_t)mask << shift;
  unsigned need = (bits & 0xFFFFu ? 1u : 0u) | (bits & 0xFFFF0000u ? 2u : 0u), halves;
  for (unsigned r = 0; r < n; r++) {
    uint32_t w;
    if (tc5_tmem_peek_halves(t, lane + stride * r, col, &w, &halves)) return *r_bad = r, 1;
    bool wr = (halves & need) == need;
    *r_bad = r, *v_bad = w >> shift & mask;
    if (!wr && t->uninit) tc5_uninit_note(t->uninit, true, TC5_TMEM_ADDR(lane + stride * r, col));
    else if (!wr) return 1;
    if (!r) *v = *v_bad;
    else if (*v_bad != *v) return 2;
  }
  return 0;
}

/* ---- 9.7.16.10.7 block scaling: the scale factors in Tensor Memory ---- */

tc5_status tc5_mma_sf_cell(bool b, unsigned m_total, unsigned cta_group, unsigned count, unsigned i,
                           unsigned s, unsigned id, unsigned r, uint32_t *lane, uint32_t *col, unsigned *byte,
                           unsigned *replicas) {
  if (!lane || !col || !byte || !count || i >= count || id + s > 3) return TC5_EINVAL;
  bool two = b && cta_group == 2 && m_total == 128;
  unsigned reps = two ? 2 : 4;
  if (r >= reps) return TC5_EINVAL;
  if (two) {
    unsigned half = count / 2, h = i / half, j = i % half;
    *lane = 64 * h + 32 * r + j % 32, *col = j / 32;
  } else {
    *lane = 32 * r + i % 32, *col = i / 32;
  }
  *byte = id + s;
  if (replicas) *replicas = reps;
  return TC5_OK;
}

/* The scale factors of A (b false: out[i * ns + s], i < count rows) or B
 * (b true: out[s * count + i], i < N) from one CTA's Tensor Memory, every
 * replica read: never written is TC5_EUNINIT, replicas that differ
 * TC5_EILLEGAL (the spec: duplicated to all 32-lane partitions). */
static tc5_status gather_sf(const tc5_tmem *t, uint32_t taddr, bool b, unsigned M, unsigned cg, unsigned count,
                            unsigned ns, unsigned id, uint32_t *out, tc5_diag *diag) {
  const char *name = b ? "scale-B-tmem" : "scale-A-tmem";
  taddr &= 0x3FFFFFFFu; /* bits 30-31: CUTLASS's byte offset, the idesc's ID rules */
  uint32_t lane0 = TC5_TMEM_LANE(taddr), col0 = TC5_TMEM_COL(taddr), l, c;
  unsigned byte, reps, ncols = 0;
  if (lane0)
    return tc5_diag_add(diag, TC5_EALIGN, name, taddr,
                        "tcgen05.mma: [%s] lane %u: scale factors fill all 128 lanes (duplicated in every 32-lane "
                        "partition, 9.7.16.10.7): the lane must be 0", name, lane0);
  tc5_mma_sf_cell(b, M, cg, count, 0, 0, id, 0, &l, &c, &byte, &reps);
  ncols = tc5__mma_sf_cols(b, M, cg, count);
  char what[64];
  snprintf(what, sizeof what, "tcgen05.mma: scale factors %s ([%s])", b ? "B" : "A", name);
  tc5_status st = tc5_tmem_check_range(t, 0, TC5_TMEM_LANES, col0, ncols, what, diag);
  if (st) return st;
  for (unsigned i = 0; i < count; i++)
    for (unsigned s = 0; s < ns; s++) {
      uint32_t v = 0, vb;
      unsigned r;
      tc5_mma_sf_cell(b, M, cg, count, i, s, id, 0, &l, &c, &byte, NULL); /* the copies: 32 lanes apart */
      int bad = read_copies(t, l, 32, reps, col0 + c, 8 * byte, 0xFF, &v, &r, &vb);
      if (bad == 1)
        return tc5_diag_add(diag, TC5_EUNINIT, name, TC5_TMEM_ADDR(l + 32 * r, col0 + c),
                            "tcgen05.mma: scale factor %u of %s %u is read at lane %u column %u, never written",
                            s, b ? "column" : "row", i, l + 32 * r, col0 + c);
      if (bad == 2)
        return tc5_diag_add(diag, TC5_EILLEGAL, name, TC5_TMEM_ADDR(l + 32 * r, col0 + c),
                            "tcgen05.mma: scale factor %u of %s %u is 0x%02x at lane %u but 0x%02x at lane %u "
                            "(column %u, byte %u): scale factors must be duplicated to all 32-lane partitions "
                            "(9.7.16.10.7)",
                            s, b ? "column" : "row", i, v, l, vb, l + 32 * r, col0 + c, byte);
      out[b ? (size_t)s * count + i : (size_t)i * ns + s] = v;
    }
  return TC5_OK;
}

/* ---- 9.7.16.10.8 sparse A: the metadata in Tensor Memory ---------------- */

tc5_status tc5_mma_sp_meta_cell(tc5_kind kind, unsigned m, unsigned k, uint32_t *lane, uint32_t *col, unsigned *bit) {
  if (!lane || !col || !bit || m >= 128) return TC5_EINVAL;
  if (kind == TC5_KIND_F16) {
    if (k >= 32) return TC5_EINVAL;
    *lane = m % 8 + 8 * (k / 16) + 16 * (m / 16), *col = 0, *bit = k % 16 + 16 * ((m / 8) % 2);
    return TC5_OK;
  }
  if (kind == TC5_KIND_TF32) { /* two bits a logical element (a nibble a pair) */
    if (k >= 16) return TC5_EINVAL;
    *lane = m % 8 + 8 * (k / 8) + 16 * (m / 16), *col = 0, *bit = 2 * (k % 8) + 16 * ((m / 8) % 2);
    return TC5_OK;
  }
  if (kind == TC5_KIND_F8F6F4 || kind == TC5_KIND_I8 || kind == TC5_KIND_MXF8F6F4) {
    if (k >= 64) return TC5_EINVAL;
    *lane = m, *col = k / 32, *bit = k % 32;
    return TC5_OK;
  }
  if (kind == TC5_KIND_MXF4 || kind == TC5_KIND_MXF4NVF4) { /* half a bit an element: a nibble a group of 8 */
    if (k >= 128) return TC5_EINVAL;
    *lane = m, *col = k / 64, *bit = k % 64 / 2;
    return TC5_OK;
  }
  return TC5_EINVAL;
}

/* The K/2 kept elements of each of `rows` rows (Ac, rows x K/2) placed
 * among K by the metadata (A, rows x K, elided elements 0): each group of
 * four takes its two elements at the positions of the nibble's 2-bit
 * indices (bits 0-1 for the first, 2-3 for the second; 9.7.16.10.8.2). */
static tc5_status expand_sparse(const tc5_tmem *t, uint32_t taddr, tc5_kind kind, unsigned rows, unsigned K,
                                const uint32_t *Ac, uint32_t *A, uint8_t *elided, tc5_diag *diag) {
  uint32_t lane0 = TC5_TMEM_LANE(taddr), col0 = TC5_TMEM_COL(taddr), l, c;
  unsigned bit;
  if (lane0)
    return tc5_diag_add(diag, TC5_EALIGN, "sp-meta-tmem", taddr,
                        "tcgen05.mma.sp: [sp-meta-tmem] lane %u: the metadata of 128 rows fills all 128 lanes: the "
                        "lane must be 0", lane0);
  bool tf32 = kind == TC5_KIND_TF32; /* 1:2: a nibble a pair, 0b0100 keeps the first, 0b1110 the second */
  bool f4 = kind == TC5_KIND_MXF4 || kind == TC5_KIND_MXF4NVF4; /* 4:8 in pairs: the indices name pairs */
  unsigned gw = tf32 ? 2 : f4 ? 8 : 4;                          /* logical elements a group */
  tc5_status st = tc5_tmem_check_range(t, 0, TC5_TMEM_LANES, col0, tc5__mma_sp_meta_cols(kind, K),
                                       "tcgen05.mma.sp: metadata ([sp-meta-tmem])", diag);
  if (st) return st;
  for (unsigned m = 0; m < rows; m++)
    for (unsigned g = 0; g < K / gw; g++) {
      uint32_t nib = 0, vb;
      unsigned r;
      tc5_mma_sp_meta_cell(kind, m, gw * g, &l, &c, &bit);
      /* .ws with M = 32 / 64 (tmem_e_frg_ws): a copy in each lane group of M */
      int bad = read_copies(t, l, rows, rows < 128 ? 128 / rows : 1, col0 + c, bit, 0xF, &nib, &r, &vb);
      if (bad == 1 && r == 0)
        return tc5_diag_add(diag, TC5_EUNINIT, "sp-meta-tmem", TC5_TMEM_ADDR(l, col0 + c),
                            "tcgen05.mma.sp: the metadata of row %u, elements %u-%u, is read at lane %u column %u, "
                            "never written", m, gw * g, gw * g + gw - 1, l, col0 + c);
      if (bad)
        return tc5_diag_add(diag, bad == 2 ? TC5_EILLEGAL : TC5_EUNINIT, "sp-meta-tmem",
                            TC5_TMEM_ADDR(l + rows * r, col0 + c),
                            "tcgen05.mma.ws.sp: M = %u: the metadata of row %u, elements %u-%u, is 0x%x at lane %u "
                            "but %s at lane %u (column %u): CUTLASS's tmem_e_frg_ws copies it into every %u-lane "
                            "group", rows, m, gw * g, gw * g + gw - 1, nib, l, bad == 2 ? "differs" : "never written",
                            l + rows * r, col0 + c, rows);
      unsigned i0 = nib & 3, i1 = nib >> 2;
      if (tf32) {
        if (nib != 0x4 && nib != 0xE)
          return tc5_diag_add(diag, TC5_EILLEGAL, "sp-meta-tmem", nib,
                              "tcgen05.mma.sp: metadata 0b%u%u%u%u of row %u, elements %u-%u (lane %u column %u, "
                              "bit %u): .kind::tf32 has only 0b0100 and 0b1110, the rest undefined behaviour "
                              "(9.7.16.10.8.1)",
                              nib >> 3 & 1, nib >> 2 & 1, nib >> 1 & 1, nib & 1, m, 2 * g, 2 * g + 1, l, col0 + c, bit);
        A[(size_t)m * K + 2 * g] = nib == 0x4 ? Ac[(size_t)m * (K / 2) + g] : 0;
        A[(size_t)m * K + 2 * g + 1] = nib == 0xE ? Ac[(size_t)m * (K / 2) + g] : 0;
        elided[(size_t)m * K + 2 * g] = nib != 0x4, elided[(size_t)m * K + 2 * g + 1] = nib != 0xE;
        continue;
      }
      /* the meaningful values: 0b0100, 0b1000, 0b1100, 0b1001, 0b1101, 0b0110, 0b1110 */
      if (!(0x7350u >> nib & 1))
        return tc5_diag_add(diag, TC5_EILLEGAL, "sp-meta-tmem", nib,
                            "tcgen05.mma.sp: metadata 0b%u%u%u%u of row %u, elements %u-%u (lane %u column %u, bit "
                            "%u): only 0b0100, 0b1000, 0b1100, 0b1001, 0b1101, 0b0110 and 0b1110 are meaningful, the "
                            "rest undefined behaviour (9.7.16.10.8.%s)",
                            nib >> 3 & 1, nib >> 2 & 1, nib >> 1 & 1, nib & 1, m, gw * g, gw * g + gw - 1, l, col0 + c,
                            bit, f4 ? "3" : "2");
      unsigned w2 = f4 ? 2 : 1; /* elements a position */
      uint32_t *row = A + (size_t)m * K + gw * g;
      const uint32_t *kept = Ac + (size_t)m * (K / 2) + gw / 2 * g;
      uint8_t *el = elided + (size_t)m * K + gw * g;
      for (unsigned x = 0; x < gw; x++) row[x] = 0, el[x] = 1;
      for (unsigned x = 0; x < w2; x++) {
        row[w2 * i0 + x] = kept[x], row[w2 * i1 + x] = kept[w2 + x];
        el[w2 * i0 + x] = el[w2 * i1 + x] = 0;
      }
    }
  return TC5_OK;
}

static tc5_status gather_smem(const tc5_smem *s, uint64_t raw, const tc5_operand *op, unsigned rows, unsigned K,
                              uint32_t *codes, const char *which, tc5_diag *diag) {
  tc5_smem_desc d;
  tc5_status st = tc5_smem_desc_decode_mma(raw, &d, diag);
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

/* ---- issue ------------------------------------------------------------------ */

/* The rules of the variant and its arguments that need no memory: the CTA
 * group, the instruction descriptor against the variant (Tables 39, 49, 50,
 * ...), .ashift, scale-input-d, the zero-column mask operand. Fills the
 * decoded descriptor and its types and K. */
static tc5_status issue_rules(tc5_cta *ctas, unsigned nctas, const tc5_mma_args *a, tc5_idesc *d, tc5_type *at,
                              tc5_type *bt, tc5_type *dt, unsigned *K, tc5_diag *diag) {
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
  tc5_status st = tc5_idesc_decode(a->idesc, v->kind, d, diag);
  if (!st) st = tc5_idesc_check(d, v, diag);
  if (st) return st;
  if (v->sparse && d->m / cg != 128 && !v->ws)
    return tc5_diag_add(diag, TC5_EUNSUPPORTED, "M", d->m,
                        "%s.sp: M = %u with cta_group::%u (%u rows of A a CTA) is not modelled: CUTLASS's metadata "
                        "layout (tmem_e_frg) is for 128 rows a CTA (and tmem_e_frg_ws for .ws)", what, d->m, cg,
                        d->m / cg);
  if (v->sparse && d->sparse_selector)
    return tc5_diag_add(diag, TC5_EUNSUPPORTED, "sparsity selector", d->sparse_selector,
                        "%s.sp: sparsity selector %u is not modelled: the sub-columns it selects are in figures "
                        "262-267, missing from the text (selector 0 is CUTLASS's layout)", what, d->sparse_selector);
  if (d->k96)
    return tc5_diag_add(diag, TC5_EUNSUPPORTED, "K dimension", 96,
                        "%s: K = 96 (sm_103a) is not modelled: its scale-factor layouts (figures 234-252) are "
                        "missing from the text", what);
  unsigned M = d->m;
  tc5_idesc_atype(d, at);
  tc5_idesc_btype(d, bt);
  tc5_idesc_dtype(d, dt);
  tc5_idesc_k(d, K);
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
  for (unsigned i = 0; i < nctas; i++) {
    st = tc5_tmem_use_cta_group(ctas[i].tmem, cg, what, diag);
    if (st) return st;
  }
  return TC5_OK;
}

/* D's place in Tensor Memory: its lane alignment, A's lanes when A is
 * there, and the columns allocated in every CTA of the group */
static tc5_status d_range_rules(tc5_cta *ctas, const tc5_mma_args *a, unsigned M, unsigned N, uint32_t *dl,
                                uint32_t *dc, tc5_diag *diag) {
  const tc5_mma_variant *v = &a->variant;
  const char *what = "tcgen05.mma";
  uint32_t nl, nc;
  bool al16;
  tc5__mma_d_extent(M, v->cta_group, v->ws, N, &nl, &nc, &al16);
  *dl = TC5_TMEM_LANE(a->d_tmem), *dc = TC5_TMEM_COL(a->d_tmem);
  if (*dl != 0 && !(al16 && *dl == 16))
    return tc5_diag_add(diag, TC5_EALIGN, "d-tmem", a->d_tmem,
                        "%s: d-tmem lane %u: the data-path layout of M = %u%s needs lane alignment %s (9.7.16.10.5)",
                        what, *dl, M, v->ws ? " .ws" : "", al16 ? "0 or 16" : "0");
  if (a->a_in_tmem && TC5_TMEM_LANE(a->a_tmem) != *dl)
    return tc5_diag_add(diag, TC5_EALIGN, "a-tmem", a->a_tmem,
                        "%s: a-tmem lane %u differs from d-tmem lane %u: A and D must use the same lane alignment",
                        what, TC5_TMEM_LANE(a->a_tmem), *dl);
  for (unsigned c = 0; c < v->cta_group; c++) {
    tc5_status st = tc5_tmem_check_range(ctas[c].tmem, *dl, nl, *dc, nc, "tcgen05.mma: D (d-tmem)", diag);
    if (st) return st;
  }
  return TC5_OK;
}

tc5_status tc5_mma_issue(tc5_cta *ctas, unsigned nctas, const tc5_mma_args *a, tc5_diag *diag) {
  if (!ctas || !a) return TC5_EINVAL;
  const tc5_mma_variant *v = &a->variant;
  const char *what = "tcgen05.mma";
  unsigned cg = v->cta_group;
  tc5_idesc d;
  tc5_type at, bt, dt;
  unsigned K;
  tc5_status st = issue_rules(ctas, nctas, a, &d, &at, &bt, &dt, &K, diag);
  if (st) return st;
  unsigned M = d.m, N = d.n;
  mma_job J;
  memset(&J, 0, sizeof J);
  /* the arithmetic; block scaling: the scale type and block in force */
  tc5_type stype = TC5_TYPE_NONE;
  unsigned block = 0;
  if (tc5_kind_is_block_scaled(v->kind)) {
    tc5_idesc_scale_type(&d, &stype);
    tc5_mma_variant_block(v, &block);
  }
  st = tc5_dot_model(TC5_MODEL_BLACKWELL, v->kind, at, bt, dt, stype, block, d.saturate, &J.dot, diag);
  if (st) return st;
  /* .sp: a step takes the dense step's count of kept products, a group (mxf4)
   * its count of kept products, a scale factor covers `block` kept elements:
   * twice as many logical ones (up to 32 logical a block, the core's; a
   * scale factor of 64 logical elements stands for two blocks of 32) */
  unsigned lblock = block;
  if (v->sparse) {
    tc5_dot_sparse(&J.dot);
    lblock = J.dot.block;
  }
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
  struct tc5_mma_queue *q = tc5__mma_queue_of(&ctas[0]);
  if (!q) return TC5_ENOMEM;
  size_t mark = q->used, bt_off;
  J.a_off = tc5__mma_arena_take(q, nA * cg);
  J.b_off = tc5__mma_arena_take(q, (size_t)K * N);
  unsigned ns = block ? K / lblock : 0; /* scale factors a row as the core sees them (logical blocks) */
  J.ns = ns;
  if (ns) {
    J.sa_off = tc5__mma_arena_take(q, (size_t)cg * rows * ns);
    J.sb_off = tc5__mma_arena_take(q, (size_t)cg * ns * N);
  }
  /* .sp: the elided positions, a byte each, kept with the job */
  J.sparse = v->sparse;
  J.el_off = v->sparse ? tc5__mma_arena_take(q, ((size_t)cg * nA + 3) / 4) : 0;
  bt_off = tc5__mma_arena_take(q, nB * cg); /* B^T as read, given back below */
  size_t ac_off = v->sparse ? tc5__mma_arena_take(q, (size_t)rows * (K / 2)) : 0; /* .sp: A as stored, too */
  if (J.a_off == SIZE_MAX || J.b_off == SIZE_MAX || bt_off == SIZE_MAX || J.sa_off == SIZE_MAX ||
      J.sb_off == SIZE_MAX || ac_off == SIZE_MAX || J.el_off == SIZE_MAX) {
    st = TC5_ENOMEM;
    goto fail;
  }
  /* scale factors A and B: each CTA's rows of A, all of N, from its own
   * Tensor Memory (both CTAs' data paths scale what they compute) */
  /* .sp: a scale factor covers `block` kept elements (the scale_vec table:
   * 1X is M x 1 for every K, sparse K = 64 included), i.e. 2 block logical
   * ones: read K/2/block, each then stands for two logical blocks */
  unsigned nsr = v->sparse && block ? K / 2 / block : ns; /* as stored: a scale a `block` kept elements */
  for (unsigned c = 0; c < cg && ns; c++) {
    uint32_t *sa = ARENA(q, J.sa_off) + (size_t)c * rows * ns, *sb = ARENA(q, J.sb_off) + (size_t)c * ns * N;
    st = gather_sf(ctas[c].tmem, a->sfa_tmem, false, M, cg, rows, nsr, d.sfa_id, sa, diag);
    if (!st) st = gather_sf(ctas[c].tmem, a->sfb_tmem, true, M, cg, N, nsr, d.sfb_id, sb, diag);
    if (st) goto fail;
    for (size_t x = (size_t)rows * nsr; nsr != ns && x-- > 0;) /* in place, from the end */
      sa[2 * x] = sa[2 * x + 1] = sa[x];
    for (size_t x = (size_t)nsr * N; nsr != ns && x-- > 0;) {
      size_t s2 = x / N, n = x % N;
      sb[(2 * s2) * N + n] = sb[(2 * s2 + 1) * N + n] = sb[x];
    }
  }
  uint32_t *A = ARENA(q, J.a_off), *B = ARENA(q, J.b_off), *Bt = ARENA(q, bt_off);
  /* B: each CTA's columns, side by side (B^T rows from gather) */
  for (unsigned c = 0; c < cg; c++) {
    st = gather_smem(ctas[c].smem, a->b_desc, &opb, bcols + shift, K, Bt + c * nB, "B (b-desc)", diag);
    if (st) goto fail;
  }
  for (unsigned c = 0; c < cg; c++) /* row by row of B: contiguous stores */
    for (unsigned k = 0; k < K; k++) {
      const uint32_t *src = Bt + c * nB + (size_t)shift * K + k;
      uint32_t *dst = B + (size_t)k * N + c * bcols;
      for (unsigned j = 0; j < bcols; j++) dst[j] = src[(size_t)j * K];
    }
  if (a->has_zcmask)
    for (unsigned n = 0; n < N; n++)
      if (tc5_colmask_bit(&zm, n))
        for (unsigned k = 0; k < K; k++) B[(size_t)k * N + n] = 0;
  /* A: K elements a row, or K/2 placed among K by the metadata (.sp) */
  unsigned KA = v->sparse ? K / 2 : K;
  for (unsigned c = 0; c < cg; c++) {
    uint32_t *Ac = v->sparse ? ARENA(q, ac_off) : A + c * nA;
    if (a->a_in_tmem)
      st = gather_a_tmem(ctas[c].tmem, a->a_tmem, M, cg, v->ws, KA, v->kind, at, v->ashift, Ac, diag);
    else
      st = gather_smem(ctas[c].smem, a->a_desc, &opa, rows, KA, Ac, "A (a-desc)", diag);
    if (!st && v->sparse)
      st = expand_sparse(ctas[c].tmem, a->sp_meta_tmem, v->kind, rows, K, Ac, A + c * nA,
                         (uint8_t *)ARENA(q, J.el_off) + c * nA, diag);
    if (st) goto fail;
  }
  /* Tensor Memory: D's range and lane alignment */
  uint32_t dl, dc;
  st = d_range_rules(ctas, a, M, N, &dl, &dc, diag);
  if (st) goto fail;
  /* collector buffers: A (non-.ws) or B (.ws) */
  bool summed = v->collector_op == TC5_COLLECTOR_FILL || v->collector_op == TC5_COLLECTOR_USE ||
                v->collector_op == TC5_COLLECTOR_LASTUSE;
  for (unsigned c = 0; c < cg; c++) {
    uint64_t src = v->ws ? a->b_desc : a->a_in_tmem ? a->a_tmem : a->a_desc;
    uint64_t sum = !summed ? 0 : v->ws ? fnv(Bt + c * nB, nB) : fnv(A + c * nA, nA);
    st = collector(&ctas[c], v, src, sum, diag);
    if (st) goto fail;
  }
  /* queue it */
  for (unsigned c = 0; c < cg; c++) J.cta[c] = &ctas[c];
  J.cg = cg, J.M = M, J.N = N, J.K = K, J.rows = rows;
  J.ws = v->ws, J.f16d = dt == TC5_F16, J.dl = dl, J.dc = dc;
  J.has_dol = a->has_disable_output_lane;
  memcpy(J.dol, a->disable_output_lane, sizeof J.dol);
  st = tc5__mma_enqueue(q, &J);
  if (st) goto fail;
  q->used = bt_off;
  return TC5_OK;
fail:
  q->used = mark;
  return st;
}

tc5_status tc5_mma(tc5_cta *ctas, unsigned nctas, const tc5_mma_args *a, tc5_diag *diag) {
  tc5_status st = tc5_mma_issue(ctas, nctas, a, diag);
  return st ? st : tc5_mma_complete(&ctas[0], diag);
}
