/* tc5 — vectors format "smem-layouts" (not yet implemented in this build). */
#include <stdio.h>

#include "vectors_impl.h"

static tc5_status begin(void *ctx, const char *name, const char *header,
                        tc5_vectors_report *rep, tc5_diag *diag) {
  (void)ctx, (void)header, (void)rep;
  return tc5_diag_add(diag, TC5_EUNSUPPORTED, "format", 0,
                      "vectors: %s: format smem-layouts is not supported yet",
                      name ? name : "input");
}

static tc5_status check(void *ctx, const tc5_vline *l, char *why, size_t cap,
                        bool *noted) {
  (void)ctx, (void)l, (void)noted;
  snprintf(why, cap, "unsupported");
  return TC5_EUNSUPPORTED;
}

const tc5_vformat tc5_vformat_smem = {"smem-layouts", "smem_desc", NULL, 0, begin, check, NULL};
