/* tc5 tests — a helper for the vector-format tests: corrupted lines must
 * each be caught. Include after testutil.h. */
#ifndef TC5_TESTVECTORS_H
#define TC5_TESTVECTORS_H

#include "tc5/vectors.h"

/* Each of the n texts in bad[], checked as a file called `name`, must be
 * one vector that fails (and is shown). */
static inline void assert_each_caught(const char *const *bad, size_t n, const char *name,
                                      tc5_vectors_report *rep) {
  for (size_t i = 0; i < n; i++) {
    if (tc5_vectors_check_text(bad[i], name, rep, NULL) != TC5_EMISMATCH) fail_msg("not caught: %s", bad[i]);
    assert_int_equal(rep->failed, 1);
    assert_int_equal(rep->shown, 1);
  }
}

#endif
