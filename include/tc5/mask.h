/* tc5 — attention-score masking with bitmasks (the "R2P" technique).
 *
 * An attention kernel masks scores S[i][j] (query row i, key column j) that
 * a mask forbids: keys past the key length, rows past the query length,
 * causal (j <= i + offset), or a sliding window (i + offset - left <= j <=
 * i + offset + right). Per row the allowed columns are one interval, so
 * FlashAttention on SM90 turns the interval into a 32-bit mask per 32
 * columns and lets one R2P instruction turn a byte of it into 7 predicates
 * instead of one ISETP per element (../shared/spec/sm90-r2p-masking-notes.md).
 *
 * This module is the host-side model: the mask's definition, tile
 * classification for block skipping, per-row bitmasks in the order of a
 * thread's fragment on SM100 (after a 32x32b tcgen05.ld a thread owns
 * consecutive columns: bit e is column e) and on SM90 (a wgmma accumulator
 * row of a thread holds columns 2q, 2q+1, 8+2q, 9+2q, ... with q = lane % 4;
 * the interval's limits are transformed into fragment indices, the data is
 * not moved), and applying a bitmask to a row of f32 scores branch-free.
 */
#ifndef TC5_MASK_H
#define TC5_MASK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tc5/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TC5_MASK_UNBOUNDED (-1)

typedef struct tc5_mask_spec {
  int32_t seqlen_q;     /* rows i >= seqlen_q are masked entirely              */
  int32_t seqlen_k;     /* columns j >= seqlen_k are masked                    */
  bool causal;          /* j <= i + offset                                      */
  bool local;           /* i + offset - window_left <= j <= i + offset +
                           window_right (a bound of TC5_MASK_UNBOUNDED is none) */
  int32_t window_left, window_right;
  int32_t offset;       /* the key column aligned with query row 0 (FlashAttention
                           aligns the ends: seqlen_k - seqlen_q)                */
} tc5_mask_spec;

/* A spec with the given lengths, no causal/local mask, FlashAttention's
 * offset seqlen_k - seqlen_q. */
tc5_status tc5_mask_spec_init(tc5_mask_spec *s, int32_t seqlen_q, int32_t seqlen_k);
/* Lengths >= 0, windows >= 0 or unbounded, no causal together with local
 * (causal is the local window (unbounded, 0)). */
tc5_status tc5_mask_spec_check(const tc5_mask_spec *s, tc5_diag *diag);

/* The definition, element by element. */
tc5_status tc5_mask_allowed(const tc5_mask_spec *s, int64_t i, int64_t j, bool *allowed);
/* The allowed columns of row i: [lo, hi) (empty when hi <= lo). */
tc5_status tc5_mask_row_range(const tc5_mask_spec *s, int64_t i, int64_t *lo, int64_t *hi);

typedef enum tc5_tile_class {
  TC5_TILE_EMPTY = 0, /* nothing allowed: the tile can be skipped            */
  TC5_TILE_PARTIAL,   /* some allowed: apply the mask                        */
  TC5_TILE_FULL       /* everything allowed: no mask needed                  */
} tc5_tile_class;
const char *tc5_tile_class_name(tc5_tile_class c);

/* The rows [m0, m0 + tm) x columns [n0, n0 + tn) tile. */
tc5_status tc5_mask_tile(const tc5_mask_spec *s, int64_t m0, uint32_t tm, int64_t n0, uint32_t tn,
                         tc5_tile_class *cls);

/* Row i, columns [n0, n0 + 32 * nwords): bit c of words[w] is column
 * n0 + 32 w + c (SM100's fragment order after a 32x32b load). */
tc5_status tc5_mask_row_bits(const tc5_mask_spec *s, int64_t i, int64_t n0, uint32_t nwords,
                             uint32_t *words);

/* The same for a thread's row of an SM90 wgmma accumulator tile of
 * n columns from n0 (n a multiple of 8, <= 256): bit e of words[e / 32] is
 * fragment element e, which is column n0 + 8 (e / 2) + 2 q + e % 2 with
 * q = lane % 4. Computed from the row's limits transformed into fragment
 * indices, never per element. */
tc5_status tc5_mask_row_bits_sm90(const tc5_mask_spec *s, int64_t i, int64_t n0, uint32_t n,
                                  uint32_t q, uint32_t *words);

/* Applies a bitmask to n f32 scores (bit patterns), branch-free: a cleared
 * bit makes the score -Inf (0xff800000). */
tc5_status tc5_mask_apply(const uint32_t *words, uint32_t n, uint32_t *scores);

/* The mask of a tile as text (a line per row: 1 allowed, . masked, with the
 * tile's class) or SVG (cells coloured, 32-column chunks marked). snprintf
 * semantics: TC5_ETRUNC and *needed when cap is too small. */
tc5_status tc5_mask_render(const tc5_mask_spec *s, int64_t m0, uint32_t tm, int64_t n0, uint32_t tn,
                           bool svg, char *buf, size_t cap, size_t *needed, tc5_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
