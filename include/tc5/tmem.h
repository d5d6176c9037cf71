/* tc5 — Tensor Memory (spec 9.7.16.1, 9.7.16.7, 9.7.16.8).
 *
 * Per CTA, Tensor Memory is 128 lanes x 512 columns of 32-bit cells,
 * addressed as lane << 16 | column (9.7.16.1.1). This module models it with
 * every rule of the spec as a named error:
 *
 *   allocation (9.7.16.7.1): tcgen05.alloc / dealloc /
 *     relinquish_alloc_permit, cta_group::1 and the cta_group::2 pair;
 *   tcgen05.ld / tcgen05.st (9.7.16.8.3, 9.7.16.8.4) for a whole warp: the
 *     shapes of 9.7.16.2.3, .num (Tables 47/48), .pack::16b / .unpack::16b,
 *     .16x32bx2's immHalfSplitoff and tcgen05.ld.red;
 *   the access restriction (9.7.16.8.1): warp w of a warpgroup reaches lanes
 *     32w .. 32w + 31 only;
 *   reads of cells never written (TC5_EUNINIT), accesses to columns not
 *     allocated (TC5_ESTATE) or outside the memory (TC5_EBOUNDS).
 *
 * The fragment layouts (which thread's register holds which cell) are the
 * spec's Figures 183-187, missing from its text; tc5 takes them from
 * CUTLASS's SM100 TMEM copy atoms (include/cute/atom/copy_traits_sm100.hpp,
 * Copy_Traits<SM100_TMEM_LOAD_{32dp32b,16dp64b,16dp128b,16dp256b,16dp32b}Nx>
 * and their _16b variants): see tc5_tmem_frag_cell.
 */
#ifndef TC5_TMEM_H
#define TC5_TMEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tc5/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TC5_TMEM_LANES 128u
#define TC5_TMEM_COLS 512u
#define TC5_TMEM_ALLOC_UNIT 32u /* columns */
#define TC5_TMEM_ADDR(lane, col) ((uint32_t)(lane) << 16 | (uint32_t)(col))
#define TC5_TMEM_LANE(addr) ((uint32_t)(addr) >> 16)
#define TC5_TMEM_COL(addr) ((uint32_t)(addr) & 0xFFFFu)

/* ---- the memory of one CTA and its allocations ---- */

#define TC5_TMEM_MAX_ALLOCS (TC5_TMEM_COLS / TC5_TMEM_ALLOC_UNIT)

typedef struct tc5_tmem_alloc_rec {
  uint16_t col;   /* first column                                  */
  uint16_t ncols; /* columns; 0 = free record                      */
} tc5_tmem_alloc_rec;

typedef struct tc5_tmem {
  uint32_t *cells;   /* TC5_TMEM_LANES x TC5_TMEM_COLS, lane-major          */
  uint8_t *written;  /* per cell: bit 0 low 16 bits written, bit 1 high 16  */
  tc5_uninit_log *uninit; /* non-NULL: never-written reads tolerated, counted */
  uint32_t cluster_rank; /* %cluster_ctarank (for cta_group::2 pairs)       */
  uint8_t cta_group;     /* 0 until a tcgen05 instruction names one          */
  bool relinquished;     /* tcgen05.relinquish_alloc_permit executed         */
  bool exited;           /* tc5_tmem_exit called                             */
  uint16_t last_alloc;   /* nCols of the latest tcgen05.alloc, 0 before one  */
  tc5_tmem_alloc_rec alloc[TC5_TMEM_MAX_ALLOCS];
} tc5_tmem;

/* Allocates the model's storage for a CTA with the given %cluster_ctarank:
 * nothing allocated, every cell unwritten. */
tc5_status tc5_tmem_init(tc5_tmem *t, uint32_t cluster_rank);
/* Frees the storage (a zeroed or freed tc5_tmem is fine). */
tc5_status tc5_tmem_free(tc5_tmem *t);

/* Records that an instruction of this CTA uses .cta_group::cg (1 or 2):
 * all tcgen05 instructions of a kernel must use the same value (9.7.16.7.1).
 * `what` names the instruction in the message. The MMA and copy models
 * call it too. */
tc5_status tc5_tmem_use_cta_group(tc5_tmem *t, unsigned cg, const char *what, tc5_diag *diag);

/* tcgen05.alloc.cta_group::1: nCols a power of two in [32, 512], not more
 * columns than the previous allocation of this CTA, not after
 * relinquish_alloc_permit. When no free block is large enough the
 * instruction would block: TC5_EWOULDBLOCK, with what is held in the
 * message. The block is placed at the lowest free column aligned to its
 * size (the spec leaves placement to the hardware; programs must use the
 * returned address). *taddr = lane 0, first column. The cells of the block
 * become unwritten. */
tc5_status tc5_tmem_alloc(tc5_tmem *t, uint32_t ncols, uint32_t *taddr, tc5_diag *diag);
/* tcgen05.dealloc.cta_group::1: taddr must be the address returned by an
 * allocation that is still held, and nCols its size. */
tc5_status tc5_tmem_dealloc(tc5_tmem *t, uint32_t taddr, uint32_t ncols, tc5_diag *diag);
/* tcgen05.relinquish_alloc_permit.cta_group::1. */
tc5_status tc5_tmem_relinquish(tc5_tmem *t, tc5_diag *diag);

/* The .cta_group::2 forms, executed by one warp of each CTA of a CTA pair:
 * pair[0] and pair[1] are the two CTAs (either order); both must be given
 * ("the peer CTA must take part"), be active (not exited), and form a pair
 * (%cluster_ctarank differing in the last bit only, 9.7.16.5.1). The same
 * columns are allocated in both. */
tc5_status tc5_tmem_alloc2(tc5_tmem *pair[2], uint32_t ncols, uint32_t *taddr, tc5_diag *diag);
tc5_status tc5_tmem_dealloc2(tc5_tmem *pair[2], uint32_t taddr, uint32_t ncols, tc5_diag *diag);
tc5_status tc5_tmem_relinquish2(tc5_tmem *pair[2], tc5_diag *diag);

/* The CTA exits: TC5_ESTATE when Tensor Memory is still allocated (it must
 * all be deallocated before the kernel exits). Marks the CTA exited. */
tc5_status tc5_tmem_exit(tc5_tmem *t, tc5_diag *diag);

/* Columns held now, and the description of the allocations
 * ("0-127 (128), 256-287 (32)"), snprintf semantics. */
tc5_status tc5_tmem_held(const tc5_tmem *t, uint32_t *ncols, char *buf, size_t cap);

/* TC5_OK when lanes [lane, lane + nlanes) x columns [col, col + ncols) are
 * inside the memory and allocated; otherwise the named error (`what`
 * prefixes the message). For instruction models (MMA, cp). */
tc5_status tc5_tmem_check_range(const tc5_tmem *t, uint32_t lane, uint32_t nlanes, uint32_t col,
                                uint32_t ncols, const char *what, tc5_diag *diag);

/* Direct cell access with no rules (debuggers, instruction models that
 * have checked the range): the value and whether both halves were written. */
tc5_status tc5_tmem_peek(const tc5_tmem *t, uint32_t lane, uint32_t col, uint32_t *value,
                         bool *written);
/* The same, with which halves of the cell were written: bit 0 the low 16
 * bits, bit 1 the high (a tcgen05.st .unpack::16b writes low halves). */
tc5_status tc5_tmem_peek_halves(const tc5_tmem *t, uint32_t lane, uint32_t col, uint32_t *value,
                                unsigned *halves);
tc5_status tc5_tmem_poke(tc5_tmem *t, uint32_t lane, uint32_t col, uint32_t value);

/* ---- tcgen05.ld / tcgen05.st ---- */

typedef enum tc5_tmem_shape {
  TC5_TMEM_32x32b = 0,
  TC5_TMEM_16x64b,
  TC5_TMEM_16x128b,
  TC5_TMEM_16x256b,
  TC5_TMEM_16x32bx2,
  TC5_TMEM_NSHAPES
} tc5_tmem_shape;

/* ".32x32b" without the dot, "?" for an invalid value */
const char *tc5_tmem_shape_name(tc5_tmem_shape s);
tc5_status tc5_tmem_shape_parse(const char *name, tc5_tmem_shape *s);

typedef enum tc5_tmem_redop { TC5_TMEM_RED_NONE = 0, TC5_TMEM_RED_MIN, TC5_TMEM_RED_MAX } tc5_tmem_redop;
typedef enum tc5_tmem_redtype { TC5_TMEM_RED_F32 = 0, TC5_TMEM_RED_U32, TC5_TMEM_RED_S32 } tc5_tmem_redtype;

typedef struct tc5_tmem_ldst {
  tc5_tmem_shape shape;
  uint32_t num;         /* .x1 ... .x128                                       */
  bool pack16;          /* .pack::16b (ld) / .unpack::16b (st)                 */
  uint32_t half_split;  /* immHalfSplitoff of .16x32bx2 (columns); else 0      */
  tc5_tmem_redop red;   /* tcgen05.ld.red: .min / .max (ld only)               */
  tc5_tmem_redtype red_type;
  bool red_abs, red_nan; /* .abs, .NaN (f32 only)                              */
} tc5_tmem_ldst;

/* Every rule of the instruction's form: .num of Table 47/48 (NA cells
 * rejected), immHalfSplitoff only with .16x32bx2, .red only with .32x32b or
 * .16x32bx2 and .num >= .x2, .abs/.NaN only with .f32, no .pack with .red.
 * `store` selects tcgen05.st (no .red). */
tc5_status tc5_tmem_ldst_check(const tc5_tmem_ldst *op, bool store, tc5_diag *diag);

/* Registers per thread (Tables 47/48), lanes accessed (32 or 16), and the
 * columns spanned from the address (including the split half). */
tc5_status tc5_tmem_ldst_size(const tc5_tmem_ldst *op, uint32_t *nregs, uint32_t *nlanes,
                              uint32_t *ncols);

/* Where register `reg` of thread `thread` (0..31 in the warp) lives,
 * relative to the instruction's address: lane offset and first column
 * offset, and the number of columns it covers: 1 (all 32 bits of the
 * cell) or, with .pack::16b, 2 (bits 0-15 of the register are the low 16
 * bits of column `col`, bits 16-31 the low 16 bits of column `col + 1`).
 *
 * From CUTLASS's atoms (copy_traits_sm100.hpp; DstLayout and ValID), with
 * t = thread, r = reg and N = .num:
 *   .32x32b    lane t,                     column r
 *   .16x64b    lane t/4 + 8 (t%2),         column 2r + (t/2)%2
 *   .16x128b   lane t/4 + 8 (r%2),         column 4 (r/2) + t%4
 *   .16x256b   lane t/4 + 8 ((r/2)%2),     column 8 (r/4) + 2 (t%4) + r%2
 *   .16x32bx2  lane t%16,                  column r + (t/16) immHalfSplitoff
 * and .pack::16b doubles the column (2c, 2c + 1). */
tc5_status tc5_tmem_frag_cell(const tc5_tmem_ldst *op, uint32_t thread, uint32_t reg, uint32_t *lane,
                              uint32_t *col, uint32_t *ncols);

/* tcgen05.ld by warp `warp` of the CTA (threadIdx.x / 32; its warp in the
 * warpgroup is warp % 4) at taddr. regs[thread * nregs + i] receives
 * register i of each of the 32 threads; with .red, redval[thread] receives
 * the reduction of that thread's registers (may be NULL otherwise). Errors:
 * the instruction's form, the access restriction (naming warp and lane),
 * cells outside the memory or not allocated (nothing is read), and cells
 * never written (TC5_EUNINIT after the read, those bits read as 0). */
tc5_status tc5_tmem_ld(const tc5_tmem *t, const tc5_tmem_ldst *op, uint32_t warp, uint32_t taddr,
                       uint32_t *regs, uint32_t *redval, tc5_diag *diag);
/* tcgen05.st: the same mapping, writing. With .unpack::16b each register
 * fills the low halves of two cells; the high halves are not defined by the
 * spec: tc5 writes 0 there and leaves them unwritten, so that a later
 * 32-bit read of them is reported. */
tc5_status tc5_tmem_st(tc5_tmem *t, const tc5_tmem_ldst *op, uint32_t warp, uint32_t taddr,
                       const uint32_t *regs, tc5_diag *diag);

/* The reduction of tcgen05.ld.red over n values: min/max as u32, s32 or
 * f32; for f32, .abs takes magnitudes first, -0 < +0, a NaN input is ignored
 * unless .NaN is given (then the result is the canonical NaN 0x7fffffff),
 * and the result is the canonical NaN when every input is NaN. */
tc5_status tc5_tmem_reduce(const tc5_tmem_ldst *op, const uint32_t *v, uint32_t n, uint32_t *out);

#ifdef __cplusplus
}
#endif
#endif
