/* tc5 — the tcgen05.mma instruction (spec 9.7.16.10): operands from shared
 * memory through descriptors or A from Tensor Memory, D in Tensor Memory by
 * the data-path layouts of 9.7.16.10.5, computed by the exact arithmetic
 * core (tc5/arith.h).
 *
 * Modelled: kinds f16, tf32, f8f6f4 and i8; dense; cta_group::1 (M = 64,
 * 128) and cta_group::2 (M = 128, 256: a CTA pair, each CTA supplying half
 * of A's rows and half of B's columns through the same descriptors, and
 * holding its rows of D); .ws (M = 32, 64, 128) with the optional
 * zero-column mask descriptor and column shift; enable-input-d,
 * scale-input-d, disable-output-lane, negate/transpose (instruction
 * descriptor); collector buffers a and b0-b3 (fill/use/lastuse/discard);
 * .ashift (A from Tensor Memory, rows shifted down by one).
 * Block scaling (9.7.16.10.7): .kind::mxf8f6f4, mxf4 and mxf4nvf4 with
 * scale factors A and B read from Tensor Memory at issue (see
 * tc5_mma_sf_cell; K = 96 of sm_103a is not modelled: TC5_EUNSUPPORTED).
 * Sparse A (.sp, 9.7.16.10.8): the 2:4 kinds f16, f8f6f4, i8 and mxf8f6f4,
 * 1:2 tf32 and 4:8-in-pairs mxf4/mxf4nvf4: M = 128, or 256 with
 * cta_group::2, and .ws M = 32, 64, 128; sparsity selector 0; A holds K/2 elements a row (shared or Tensor
 * Memory), the metadata in Tensor Memory at [sp-meta-tmem] (see
 * tc5_mma_sp_meta_cell) places them among the K. The arithmetic, settled on
 * the H100 (docs/arithmetic.md, "Sparse MMA"): a step takes the dense
 * step's count of kept products (the products of twice its logical K) and
 * an elided element is a zero product (tf32 and the mxf4 kinds' groups of
 * 16 kept products by analogy: not measured); a scale factor covers `block`
 * kept elements. M = 64 without .ws and non-zero selectors: TC5_EUNSUPPORTED.
 *
 * The data-path layouts (figures 205-218, missing from the spec's text) are
 * CUTLASS's (include/cute/atom/mma_traits_sm100_frag.hpp, UMMA::tmem_frg and
 * tmem_frg_ws): see tc5_mma_d_cell.
 *
 * Completion (9.7.16.6.2): tcgen05.mma is asynchronous. tc5_mma_issue
 * checks every rule and takes the operands from shared / Tensor Memory when
 * the MMA is issued, then queues it on the issuing CTA; the queue completes
 * in issue order (the pipelined pairing mma -> mma of 9.7.16.6.2) when
 * tc5_mma_complete runs, which tcgen05.commit does before it arrives on its
 * mbarrier (tc5/sync.h). Until then D in Tensor Memory holds its old
 * values, as a tcgen05.ld not ordered after the MMA's completion may see.
 * Consecutive MMAs that accumulate into the same D with the same shape and
 * types (a kernel's K loop) complete as one call of the arithmetic core
 * over the concatenated K: the same result bit for bit, since each MMA's K
 * is a whole number of the core's fused steps and every step rounds.
 */
#ifndef TC5_MMA_H
#define TC5_MMA_H

#include <stdbool.h>
#include <stdint.h>

#include "tc5/descriptors.h"
#include "tc5/kind.h"
#include "tc5/smem.h"
#include "tc5/status.h"
#include "tc5/tmem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a collector buffer holds: the matrix filled, identified by its
 * descriptor (or TMEM address) and a checksum of its element codes. */
typedef struct tc5_collector {
  bool valid;
  uint64_t source;
  uint64_t sum;
} tc5_collector;

struct tc5_mma_queue; /* MMAs issued by a CTA and not yet complete */

/* One CTA as tcgen05.mma sees it. Zero-initialise, set smem and tmem;
 * after the first MMA it holds the engine's memory (the queue and an arena
 * for operands, kept between K loops) until tc5_cta_free. */
typedef struct tc5_cta {
  tc5_smem *smem;
  tc5_tmem *tmem;
  tc5_collector coll[5]; /* a, b0, b1, b2, b3 */
  struct tc5_mma_queue *queue;
} tc5_cta;

/* Frees the engine's memory, dropping MMAs issued and never completed
 * (the CTA can be used again). */
tc5_status tc5_cta_free(tc5_cta *cta);

typedef struct tc5_mma_args {
  tc5_mma_variant variant;   /* kind, cta_group, .ws, collector usage        */
  uint32_t idesc;            /* instruction descriptor (raw)                 */
  uint32_t d_tmem;           /* [d-tmem]                                      */
  bool a_in_tmem;            /* [a-tmem] instead of a-desc                    */
  uint64_t a_desc;           /* shared-memory descriptor of A                 */
  uint32_t a_tmem;
  uint64_t b_desc;           /* shared-memory descriptor of B                 */
  bool enable_input_d;       /* false: D = A*B                                */
  unsigned scale_input_d;    /* D = A*B + D * 2^-s, 0..15 (f16, tf32 only)    */
  bool has_disable_output_lane;
  uint32_t disable_output_lane[8]; /* bit l of word w: lane 32w+l not written
                                      (4 words for ::1; ::2: words 0-3 the even
                                      CTA, 4-7 the odd one)                    */
  bool has_zcmask;           /* .ws: zero-column mask descriptor given        */
  uint64_t zcmask;
  uint32_t sfa_tmem;         /* .block_scale: [scale-A-tmem] (bits 30-31, the
                                byte offset CUTLASS keeps there, are ignored:
                                the idesc's scale factor IDs select bytes)    */
  uint32_t sfb_tmem;         /* .block_scale: [scale-B-tmem]                  */
  uint32_t sp_meta_tmem;     /* .sp: [sp-meta-tmem], the sparsity metadata    */
} tc5_mma_args;

/* Zero arguments for a variant of `kind` (cta_group::1, enable-input-d). */
tc5_status tc5_mma_args_init(tc5_mma_args *a, tc5_kind kind);

/* Where element (m, n) of D lives in the Tensor Memory of its CTA, relative
 * to [d-tmem] (m counts the CTA's own rows: 0 .. M/cta_group - 1), for the
 * data-path layout of M x cta_group x .ws:
 *   D  (M 128, ::1) and A (M 256, ::2): lane m, column n
 *   F  (M 64, ::1):   lane (m % 16) + 32 (m / 16), column n
 *   B  (M 128, ::2) and E (M 64, .ws): lane m + 64 (n / (N/2)), column n % (N/2)
 *   G  (M 32, .ws):   lane m + 32 (n / (N/4)), column n % (N/4)
 * *layout gets the layout's letter. */
tc5_status tc5_mma_d_cell(unsigned m_total, unsigned cta_group, bool ws, unsigned n_total,
                          unsigned m, unsigned n, uint32_t *lane, uint32_t *col, char *layout);

/* Where scale factor `s` (0 .. K/block - 1) of row m of A (b false) or of
 * column n of B (b true) lives, relative to [scale-A-tmem] /
 * [scale-B-tmem], in replica r of the data paths that read it (9.7.16.10.7;
 * the figures 231-252 are missing from the text: the layout is CUTLASS's,
 * include/cute/atom/mma_traits_sm100.hpp, UMMA::tmem_sf_frg):
 *   4x1 (A always; B unless below): index i (m or n) at lane 32 r + i % 32,
 *     column i / 32, r = 0..3 (duplicated in every 32-lane partition);
 *   2x2 (B of cta_group::2 with M = 128, TmemAllocMode
 *     ScaleFactorDuplicated2by2): half h = n / (N/2) and j = n % (N/2) at
 *     lane 64 h + 32 r + j % 32, column j / 32, r = 0..1;
 * the byte of the 32-bit cell is the scale factor ID (idesc) + s.
 * `count` is the rows of A in one CTA (M / cta_group) or N; *replicas gets
 * 4 or 2. */
tc5_status tc5_mma_sf_cell(bool b, unsigned m_total, unsigned cta_group, unsigned count, unsigned i,
                           unsigned s, unsigned id, unsigned r, uint32_t *lane, uint32_t *col, unsigned *byte,
                           unsigned *replicas);

/* Where the metadata bit of logical element k of row m (m < 128) of a
 * sparse MMA lives, relative to [sp-meta-tmem] (the figures 262-267 are
 * missing from the text: CUTLASS's UMMA::tmem_e_frg, mma_traits_sm100.hpp,
 * one bit a logical element, the nibble of group k/4 from the bit of
 * k = 4 (k/4); selector 0):
 *   16-bit A (.kind::f16, K = 32): lane m % 8 + 8 (k / 16) + 16 (m / 16),
 *     column 0, bit k % 16 + 16 ((m / 8) % 2);
 *   tf32 (K = 16, two bits an element, a nibble a pair): lane m % 8 +
 *     8 (k / 8) + 16 (m / 16), column 0, bit 2 (k % 8) + 16 ((m / 8) % 2);
 *   8-bit A (f8f6f4, i8, mxf8f6f4, K = 64): lane m, column k / 32, bit k % 32;
 *   fp4 A (mxf4, mxf4nvf4, K = 128, a nibble a group of 8): lane m, column
 *     k / 64, bit (k % 64) / 2;
 * and for .ws with M = 32 / 64 (UMMA::tmem_e_frg_ws) the same cell of row
 * m < M, copied at lane + M r in each of the 128 / M lane groups. */
tc5_status tc5_mma_sp_meta_cell(tc5_kind kind, unsigned m, unsigned k, uint32_t *lane, uint32_t *col, unsigned *bit);

/* Issues one tcgen05.mma from a thread of ctas[0] (cta_group::1) or of
 * the CTA pair ctas[0..1] (cta_group::2; ctas[0] issues). Every rule is
 * checked and nothing is queued when one fails: the variant and instruction
 * descriptor (tc5_idesc_check), .ashift (A in Tensor Memory, M = 128 or
 * 256), the descriptors and operand layouts (tc5_layout_check through
 * gather), Tensor Memory ranges, allocation and lane alignment, the
 * zero-column mask and its shift against the maximum shift, collector
 * buffer use without a valid fill (or whose source changed since the
 * fill). A and B are read now; the CTAs must outlive the queued MMA. */
tc5_status tc5_mma_issue(tc5_cta *ctas, unsigned nctas, const tc5_mma_args *a, tc5_diag *diag);

/* Completes, in issue order, every MMA the CTA issued: reads C (with
 * enable-input-d: TC5_EUNINIT when a cell was never written, naming the MMA
 * "#i", the i-th issued since the previous completion), computes, writes D.
 * On an error the MMAs before the failing one have completed and the rest
 * are dropped. */
tc5_status tc5_mma_complete(tc5_cta *issuer, tc5_diag *diag);

/* MMAs issued by the CTA and not yet complete. */
tc5_status tc5_mma_pending(const tc5_cta *issuer, unsigned *count);

/* tc5_mma_issue, then tc5_mma_complete: one MMA run to completion. */
tc5_status tc5_mma(tc5_cta *ctas, unsigned nctas, const tc5_mma_args *a, tc5_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
