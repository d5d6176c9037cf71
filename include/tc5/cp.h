/* tc5 — Tensor Memory data movement (spec 9.7.16.9): tcgen05.cp (copy from
 * shared memory into Tensor Memory, with optional decompression of 4- and
 * 6-bit elements into 8-bit containers, 9.7.16.9.1) and tcgen05.shift
 * (rows of a warp's 32 lanes shifted down by one).
 *
 * The shapes (9.7.16.2.3, "lane x size"; their figures are missing from the
 * text) follow CUTLASS's copy traits (include/cute/atom/copy_traits_sm100.hpp,
 * SM100_UTCCP_*: ValID maps [core_matrix_strided, core_matrix_leading,
 * broadcast, repeat] to Tensor Memory): the source is a matrix of `rows`
 * rows of `bits` bits that the shared-memory descriptor describes like a
 * K-major operand of 8-bit elements (rows = its M/N, the row's bytes = its
 * K); source row r goes, in every replica q, to lane
 *   (r / rb) * rs + q * qs + r % rb
 * relative to [taddr], its bytes to columns [taddr] + 0 .. bits/32 - 1 (byte
 * 4j + i of the row in byte i of column j):
 *   .128x256b               rows 128, rb 128                    (lane r)
 *   .128x128b               rows 128, rb 128                    (lane r)
 *   .4x256b                 rows 4,   rb 1, rs 32               (lane 32 r)
 *   .32x128b.warpx4         rows 32,  rb 32, qs 32, 4 replicas  (32 q + r)
 *   .64x128b.warpx2::02_13  rows 64,  rb 64, qs 64, 2 replicas  (r + 64 q)
 *   .64x128b.warpx2::01_23  rows 64,  rb 32, rs 64, qs 32, 2 replicas
 * With decompression (.b8x16.b6x16_p32 / .b8x16.b4x16_p64) each 16 source
 * bytes become 16 8-bit containers (tc5/packing.h: tc5_cp_decompress; where
 * fp4 sits in its container is tc5's inference, see docs/formats.md).
 * .cta_group::2 copies in both CTAs of the pair, each from its own shared
 * memory at the descriptor's address into its own Tensor Memory (as
 * tcgen05.mma.cta_group::2 reads each CTA's operands).
 *
 * Completion: tcgen05.cp and shift are asynchronous and complete through
 * tcgen05.commit like an MMA, in order with the MMAs the same thread
 * issued (9.7.16.6.2). tc5 performs them when they are issued, after
 * completing first the issuing CTA's pending MMAs whose D overlaps the
 * cells they write (an MMA reads its Tensor Memory operands at issue, so an
 * MMA issued later sees the copy, one issued earlier does not): the same
 * result as issue order, and tc5_commit then has nothing more to do for
 * them. */
#ifndef TC5_CP_H
#define TC5_CP_H

#include <stdbool.h>
#include <stdint.h>

#include "tc5/mma.h"
#include "tc5/packing.h"
#include "tc5/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tc5_cp_shape {
  TC5_CP_128x256b = 0,
  TC5_CP_4x256b,
  TC5_CP_128x128b,
  TC5_CP_64x128b_WARPX2_02_13,
  TC5_CP_64x128b_WARPX2_01_23,
  TC5_CP_32x128b_WARPX4,
  TC5_CP_SHAPE_COUNT
} tc5_cp_shape;

/* The shape's geometry (the table above, as data). */
typedef struct tc5_cp_shape_info {
  tc5_cp_shape shape;
  const char *name;      /* "128x256b", "64x128b.warpx2::02_13", ...          */
  unsigned rows, bits;   /* source rows, bits a row                          */
  unsigned rb, rs, qs;   /* lane = (r / rb) * rs + q * qs + r % rb           */
  unsigned replicas;
} tc5_cp_shape_info;

const tc5_cp_shape_info *tc5_cp_shape_get(tc5_cp_shape s);

typedef struct tc5_cp_args {
  tc5_cp_shape shape;
  unsigned cta_group;    /* 1 or 2                                            */
  bool decompress;       /* .b8x16.<src_fmt>                                  */
  tc5_cp_src_fmt src_fmt;
  uint32_t taddr;        /* [taddr]                                           */
  uint64_t sdesc;        /* s-desc: the source's shared-memory descriptor     */
} tc5_cp_args;

/* Parses the opcode text, e.g. "tcgen05.cp.cta_group::1.128x256b",
 * "tcgen05.cp.cta_group::2.64x128b.warpx2::02_13.b8x16.b6x16_p32": every
 * qualifier rule of 9.7.16.9.2 (the shapes that need a multicast, .dst_fmt
 * and .src_fmt together) named in diag. taddr and sdesc are zeroed. */
tc5_status tc5_cp_parse(const char *text, tc5_cp_args *a, tc5_diag *diag);

/* Lane (relative to [taddr]) of source row r in replica q. */
tc5_status tc5_cp_lane(tc5_cp_shape s, unsigned r, unsigned q, uint32_t *lane);

/* tcgen05.cp issued by a thread of ctas[0] (cta_group::1) or of the pair
 * ctas[0..1] (cta_group::2): checks the descriptor and layout (through
 * tc5/layout.h), the cells against the allocation and the CTA group, then
 * copies (see "Completion"). Nothing is written when a rule fails. */
tc5_status tc5_cp(tc5_cta *ctas, unsigned nctas, const tc5_cp_args *a, tc5_diag *diag);

/* What a producer puts in shared memory (32 rows of 16 bytes, one code a
 * byte in `out`) for one tcgen05.cp.32x128b.warpx4 to leave, from the
 * copy's column, scale factors 4w .. 4w + 3 of 128 rows of A (or columns of
 * B) in the layout tc5_mma_sf_cell gives (4x1): byte 4j + b of row r is
 * scale factor 4w + b of row r + 32j, read from
 * scales[row * row_stride + s * k_stride]; those at s >= nsf are 0. As
 * CUTLASS's block-scaled GEMMs bring scale factors in. */
tc5_status tc5_cp_sf_source(const uint32_t *scales, size_t row_stride, size_t k_stride, unsigned w, unsigned nsf,
                            uint32_t out[32 * 16]);

/* tcgen05.shift.cta_group::N.down [taddr]: in lanes [taddr] .. +31 (the
 * lane aligned to 32) and 8 columns (the implicit .31x256b shape), each of
 * the first 31 rows moves down one lane; the first row keeps its value. */
tc5_status tc5_shift(tc5_cta *ctas, unsigned nctas, unsigned cta_group, uint32_t taddr, tc5_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
