/* tc5 internal — checks that report every broken rule keep the first
 * status: tc5__note(&first, tc5_diag_add(...)). */
#ifndef TC5_NOTE_H
#define TC5_NOTE_H

#include "tc5/status.h"

static inline void tc5__note(tc5_status *first, tc5_status st) {
  if (st && !*first) *first = st;
}

#endif
