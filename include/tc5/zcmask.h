/* tc5 — the zero-column mask of tcgen05.mma.ws (spec 9.7.16.4.3): generate
 * the N-bit mask of a descriptor, explain it, and synthesise the descriptor
 * that generates a wanted mask.
 *
 * Semantics (what the spec's Examples 2-4 and CUTLASS's make_column_zero_mask
 * show; Table 45's Skip/Use descriptions say the opposite, see README):
 *   - the N-bit mask splits into 1, 2 or 4 equal sub-masks for M = 128, 64,
 *     32; sub-mask i covers columns [i*N/s, (i+1)*N/s) and uses fs_i, sc_i;
 *   - a sub-mask is a window on an endless pattern of runs: Skip Span + 1
 *     ones (zeroed columns) alternate with Use Span + 1 zeros (used
 *     columns); First Span is the value of the first run; Start Count is the
 *     number of pattern bits skipped before column 0 of the sub-mask;
 *   - Non-Zero Mask = 0 gives an all-zero mask (every column used);
 *   - bit j of the mask is column j of the MMA; 1 = the column of B reads as 0.
 * The MMA reads B columns [Column Shift, Column Shift + N).
 */
#ifndef TC5_ZCMASK_H
#define TC5_ZCMASK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tc5/descriptors.h"
#include "tc5/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TC5_ZCMASK_MAX_N 256

/* An N-bit column mask: bit j (word j/64, bit j%64) is column j. */
typedef struct tc5_colmask {
  uint64_t w[TC5_ZCMASK_MAX_N / 64];
  unsigned n;
} tc5_colmask;

/* Value of column j (0 or 1). */
static inline unsigned tc5_colmask_bit(const tc5_colmask *m, unsigned j) {
  return (unsigned)(m->w[j >> 6] >> (j & 63)) & 1u;
}

/* Number of sub-masks for M (1, 2, 4), 0 when M has no zero-column mask. */
unsigned tc5_zcmask_submasks(unsigned m);

/* The mask of a descriptor for an M x N MMA (M = 32, 64, 128; 1 <= N <= 256,
 * N divisible by the number of sub-masks). Fast: word-level, no per-bit
 * loop. Rejects invalid descriptors (reserved bits, column shift above the
 * limit for M) with the rule in diag. */
tc5_status tc5_zcmask_generate(const tc5_zcmask_desc *d, unsigned m, unsigned n,
                               tc5_colmask *out, tc5_diag *diag);

/* The masks of `count` descriptors for one M x N (e.g. every tile and filter
 * tap of a convolution): M and N are checked once. On an invalid descriptor
 * it stops and returns its status, with *done (if not NULL) = its index. */
tc5_status tc5_zcmask_generate_many(const tc5_zcmask_desc *d, size_t count,
                                    unsigned m, unsigned n, tc5_colmask *out,
                                    size_t *done, tc5_diag *diag);

/* The same, computed bit by bit exactly as the spec's examples read:
 * emit runs of First Span's value, then alternate, skip Start Count bits.
 * Kept as the reference the fast generator is tested against. */
tc5_status tc5_zcmask_generate_reference(const tc5_zcmask_desc *d, unsigned m,
                                         unsigned n, tc5_colmask *out,
                                         tc5_diag *diag);

/* The descriptor that generates exactly `wanted` for an M x N MMA (N =
 * wanted->n), with column shift `shift`. Considers every value of every
 * field analytically (no search over descriptors). When no descriptor
 * generates the mask, returns TC5_ENOTREPR and sets *first_bad (if not NULL)
 * to the first column k such that no descriptor agrees with `wanted` on
 * columns 0..k; the reason goes into diag. */
tc5_status tc5_zcmask_synthesize(unsigned m, const tc5_colmask *wanted,
                                 unsigned shift, tc5_zcmask_desc *out,
                                 unsigned *first_bad, tc5_diag *diag);

/* Rule that ties the mask to the instruction descriptor: the column shift
 * may not exceed the .ws maximum shift of the idesc (Table 42 bits 30-31:
 * none, 8, 16 or 32 columns). */
tc5_status tc5_zcmask_check_shift(const tc5_zcmask_desc *d, const tc5_idesc *id,
                                  tc5_diag *diag);

/* The mask an implicit-GEMM convolution needs, CUTLASS's use of .ws
 * (UMMA::make_column_zero_mask; ../shared/oracle/cutlass/zcmask-conv.txt):
 * B's columns are output pixels flattened row after row, rows q pixels
 * wide; for filter tap `tap` with left padding `pad`, column j of the tile
 * that starts at pixel col0 reads input pixel (col0 + j) % q + tap - pad of
 * its row, and is zeroed when that falls outside [0, q). n: 1..256. */
tc5_status tc5_zcmask_conv(unsigned q, unsigned pad, unsigned col0, unsigned tap, unsigned n,
                           tc5_colmask *out, tc5_diag *diag);

/* Mask as text: "1" = zeroed column, "." = used column, column 0 first. */
tc5_status tc5_colmask_format(const tc5_colmask *m, char one, char zero,
                              char *buf, size_t cap, size_t *needed);
/* Parses a string of 0/1 (or 1/.) characters, column 0 first. */
tc5_status tc5_colmask_parse(const char *text, tc5_colmask *m);

/* Explains a descriptor's mask: per sub-mask its columns, First Span, Start
 * Count and the resulting runs, drawn as rows of 1/. with column indices,
 * and which B columns are read. */
tc5_status tc5_zcmask_explain(const tc5_zcmask_desc *d, unsigned m, unsigned n,
                              char *buf, size_t cap, size_t *needed);
/* JSON: descriptor fields, sub-masks and the mask string. */
tc5_status tc5_zcmask_json(const tc5_zcmask_desc *d, unsigned m, unsigned n,
                           char *buf, size_t cap, size_t *needed);

#ifdef __cplusplus
}
#endif
#endif
