/* tc5 — synchronisation: the mbarrier object and tcgen05.commit, the
 * mbarrier-based completion mechanism of the asynchronous tcgen05
 * operations (spec 9.7.16.6.2.1.1 and 9.7.16.12.1).
 *
 * The mbarrier follows PTX's mbarrier section (outside the tcgen05 chapter):
 * a current phase, an expected arrival count set by mbarrier.init, a pending
 * arrival count and a tx-count. A phase completes when its pending count is
 * 0 and its tx-count 0; the barrier then moves to the next phase, pending
 * back to the expected count. mbarrier.test_wait/try_wait.parity P is true
 * once the phase of parity P has completed, i.e. while the current phase's
 * parity differs from P.
 *
 * tcgen05.commit makes the mbarrier track the completion of every prior
 * asynchronous tcgen05 operation of the issuing thread; tc5 completes them
 * when the commit executes (tc5_mma_complete) and then arrives once on the
 * mbarrier (on each CTA's mbarrier of the ctaMask with .multicast::cluster).
 */
#ifndef TC5_SYNC_H
#define TC5_SYNC_H

#include <stdbool.h>
#include <stdint.h>

#include "tc5/mma.h"
#include "tc5/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Arrival counts of an mbarrier: [1, 2^20 - 1] (PTX mbarrier.init). */
#define TC5_MBARRIER_MAX_COUNT ((1u << 20) - 1)

typedef struct tc5_mbarrier {
  bool initialized;
  uint32_t expected; /* arrivals a phase needs (mbarrier.init count)  */
  uint32_t pending;  /* arrivals the current phase still needs       */
  int64_t tx;        /* tx-count of the current phase                */
  uint32_t phase;    /* phases completed so far (parity: phase & 1)  */
} tc5_mbarrier;

/* mbarrier.init: count in [1, 2^20 - 1]; phase 0, pending = count, tx 0. */
tc5_status tc5_mbarrier_init(tc5_mbarrier *mb, uint32_t count, tc5_diag *diag);

/* mbarrier.arrive with a count (>= 1, at most the pending arrivals): may
 * complete the phase. *phase_before (may be NULL) gets the phase number
 * before the arrival, the "state" PTX returns. */
tc5_status tc5_mbarrier_arrive(tc5_mbarrier *mb, uint32_t count, uint32_t *phase_before, tc5_diag *diag);

/* mbarrier.expect_tx (tx-count += bytes) and complete_tx (tx-count -=
 * bytes, what a TMA copy does as its bytes land); complete_tx may complete
 * the phase. */
tc5_status tc5_mbarrier_expect_tx(tc5_mbarrier *mb, uint32_t bytes, tc5_diag *diag);
tc5_status tc5_mbarrier_complete_tx(tc5_mbarrier *mb, uint32_t bytes, tc5_diag *diag);

/* mbarrier.test_wait.parity: *done when the phase of parity `parity`
 * (0 or 1) has completed. */
tc5_status tc5_mbarrier_test_wait(const tc5_mbarrier *mb, unsigned parity, bool *done, tc5_diag *diag);

/* tcgen05.commit.cta_group::cg.mbarrier::arrive::one[.multicast::cluster]
 * by a thread of `issuer`: the CTA's tcgen05 instructions must all use
 * .cta_group::cg; every MMA it issued completes (tc5_mma_complete), then
 * each of the nmbar mbarriers (1 without .multicast; one per CTA of the
 * ctaMask with it, 1 to 16) gets one arrival. When completing fails the
 * mbarriers are not signalled. */
tc5_status tc5_commit(tc5_cta *issuer, unsigned cta_group, tc5_mbarrier *const *mbar, unsigned nmbar,
                      tc5_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
