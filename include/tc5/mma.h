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
 * descriptor); collector buffers a and b0-b3 (fill/use/lastuse/discard).
 * Not yet: .sp, .block_scale kinds, .ashift (TC5_EUNSUPPORTED).
 *
 * The data-path layouts (figures 205-218, missing from the spec's text) are
 * CUTLASS's (include/cute/atom/mma_traits_sm100_frag.hpp, UMMA::tmem_frg and
 * tmem_frg_ws): see tc5_mma_d_cell. Each MMA completes before the next
 * starts (issue order within the pipeline); the asynchronous rules are the
 * synchronisation module's business.
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

/* One CTA as tcgen05.mma sees it. */
typedef struct tc5_cta {
  tc5_smem *smem;
  tc5_tmem *tmem;
  tc5_collector coll[5]; /* a, b0, b1, b2, b3 */
} tc5_cta;

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

/* Executes one tcgen05.mma issued by a thread of ctas[0] (cta_group::1)
 * or of the CTA pair ctas[0..1] (cta_group::2). Every rule is checked
 * before anything is written: the variant and instruction descriptor
 * (tc5_idesc_check), the descriptors and operand layouts (tc5_layout_check
 * through gather), Tensor Memory ranges, allocation and lane alignment, C
 * never written while enable-input-d, the zero-column mask and its shift
 * against the maximum shift, collector buffer use without a valid fill
 * (or whose source changed since the fill). */
tc5_status tc5_mma(tc5_cta *ctas, unsigned nctas, const tc5_mma_args *a, tc5_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
