/* tc5 — mbarrier objects and tcgen05.commit (9.7.16.12.1). */
#include "tc5/sync.h"

#include <string.h>

static tc5_status ready(const tc5_mbarrier *mb, const char *what, tc5_diag *diag) {
  if (!mb) return TC5_EINVAL;
  if (!mb->initialized)
    return tc5_diag_add(diag, TC5_ESTATE, "mbarrier", 0, "%s: the mbarrier object was never initialised (mbarrier.init)",
                        what);
  return TC5_OK;
}

/* the phase completes when every arrival and every byte is in */
static void maybe_complete(tc5_mbarrier *mb) {
  if (mb->pending == 0 && mb->tx == 0) {
    mb->phase++;
    mb->pending = mb->expected;
  }
}

tc5_status tc5_mbarrier_init(tc5_mbarrier *mb, uint32_t count, tc5_diag *diag) {
  if (!mb) return TC5_EINVAL;
  if (count < 1 || count > TC5_MBARRIER_MAX_COUNT)
    return tc5_diag_add(diag, TC5_ERANGE, "count", count, "mbarrier.init: count %u is outside [1, 2^20 - 1]", count);
  memset(mb, 0, sizeof *mb);
  mb->initialized = true;
  mb->expected = mb->pending = count;
  return TC5_OK;
}

tc5_status tc5_mbarrier_arrive(tc5_mbarrier *mb, uint32_t count, uint32_t *phase_before, tc5_diag *diag) {
  tc5_status st = ready(mb, "mbarrier.arrive", diag);
  if (st) return st;
  if (count < 1 || count > mb->pending)
    return tc5_diag_add(diag, TC5_ESTATE, "count", count,
                        "mbarrier.arrive: count %u, but phase %u awaits %u more arrival%s (arrivals beyond the "
                        "expected count are undefined)",
                        count, mb->phase, mb->pending, mb->pending == 1 ? "" : "s");
  if (phase_before) *phase_before = mb->phase;
  mb->pending -= count;
  maybe_complete(mb);
  return TC5_OK;
}

tc5_status tc5_mbarrier_expect_tx(tc5_mbarrier *mb, uint32_t bytes, tc5_diag *diag) {
  tc5_status st = ready(mb, "mbarrier.expect_tx", diag);
  if (st) return st;
  mb->tx += bytes;
  return TC5_OK;
}

tc5_status tc5_mbarrier_complete_tx(tc5_mbarrier *mb, uint32_t bytes, tc5_diag *diag) {
  tc5_status st = ready(mb, "mbarrier.complete_tx", diag);
  if (st) return st;
  mb->tx -= bytes;
  maybe_complete(mb);
  return TC5_OK;
}

tc5_status tc5_mbarrier_test_wait(const tc5_mbarrier *mb, unsigned parity, bool *done, tc5_diag *diag) {
  tc5_status st = ready(mb, "mbarrier.test_wait", diag);
  if (st) return st;
  if (!done) return TC5_EINVAL;
  if (parity > 1)
    return tc5_diag_add(diag, TC5_ERANGE, "phaseParity", parity, "mbarrier.test_wait.parity: parity %u is not 0 or 1",
                        parity);
  *done = (mb->phase & 1u) != parity;
  return TC5_OK;
}

tc5_status tc5_commit(tc5_cta *issuer, unsigned cta_group, tc5_mbarrier *const *mbar, unsigned nmbar,
                      tc5_diag *diag) {
  const char *what = "tcgen05.commit";
  if (!issuer || !issuer->tmem || (nmbar && !mbar)) return TC5_EINVAL;
  if (cta_group != 1 && cta_group != 2)
    return tc5_diag_add(diag, TC5_EINVAL, "cta_group", cta_group, "%s: .cta_group::%u is not 1 or 2", what, cta_group);
  if (nmbar < 1 || nmbar > 16)
    return tc5_diag_add(diag, TC5_ERANGE, "mbar", nmbar,
                        "%s: %u mbarriers: one, or with .multicast::cluster one per CTA of the 16-bit ctaMask", what,
                        nmbar);
  for (unsigned i = 0; i < nmbar; i++) {
    tc5_status st = ready(mbar[i], what, diag);
    if (st) return st;
  }
  tc5_status st = tc5_tmem_use_cta_group(issuer->tmem, cta_group, what, diag);
  if (!st) st = tc5_mma_complete(issuer, diag);
  for (unsigned i = 0; !st && i < nmbar; i++) st = tc5_mbarrier_arrive(mbar[i], 1, NULL, diag);
  return st;
}
