/* tc5 internal — the zero-column mask generators shared by the per-call
 * and the batch entry points (src/zcmask.c, src/zcmask_batch.c). */
#ifndef TC5_ZCMASK_IMPL_H
#define TC5_ZCMASK_IMPL_H

#include <stdbool.h>

#include "tc5/zcmask.h"

/* The mask of a valid descriptor with non_zero set, ORed into out->w (which
 * the caller zeroed): lg = log2 of the sub-masks (0, 1, 2), n columns. */
void tc5__zcmask_words(const tc5_zcmask_desc *d, unsigned lg, unsigned n, tc5_colmask *out);

/* The masks of 8 descriptors at once, lanes of vectors (out[j].w and .n
 * written whole), for n = 64, 128 or 256 with sub-masks of at least 16
 * columns; false, writing nothing, when one of them breaks a rule (the
 * caller then goes one by one). Lanes whose period is 64 or less go
 * through tc5__zcmask_words. */
bool tc5__zcmask_gen8(const tc5_zcmask_desc *d, unsigned lg, unsigned n, tc5_colmask *out);

#endif
