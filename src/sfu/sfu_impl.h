/* tc5 — the special-function unit, internals: the coefficient tables
 * (sfu_tables.h, with the model in sfu_model.h) and each op's function for the PTX runner, which calls it
 * for every lane in a tight loop. */
#ifndef TC5_SFU_IMPL_H
#define TC5_SFU_IMPL_H
#include <stdbool.h>
#include <stdint.h>

#include "tc5/sfu.h"

/* one instruction: the result's bits from the operands' */
typedef uint64_t (*tc5__sfu_fn)(uint64_t a, uint64_t b);
/* op's function (NULL for an op out of range) */
tc5__sfu_fn tc5__sfu_fn_of(tc5_sfu_op op);
/* a division's two steps (sfu_model.h: the divisor's reciprocal, then the dividend's product),
 * for a runner that shares the first between lanes of one divisor: both NULL for other ops */
typedef uint32_t (*tc5__sfu_rcp_fn)(uint32_t b);
typedef uint32_t (*tc5__sfu_by_fn)(uint32_t a, uint32_t b, uint32_t rcp);
void tc5__sfu_div_steps(tc5_sfu_op op, tc5__sfu_rcp_fn *rcp, tc5__sfu_by_fn *by);
/* ex2.approx{.ftz}.f32 of a warp's 32 lanes at once (op's function of each; d may be a) */
void tc5__sfu_ex2_rows(const uint64_t *a, uint64_t *d, bool ftz);
/* div.full.f32 of a warp's 32 lanes at once (sfu_div_full_f32 of each; d may be a or b) */
void tc5__sfu_div_full_rows(const uint64_t *a, const uint64_t *b, uint64_t *d);

#endif
