/* tc5 — status names and the diagnostics list. */
#include "tc5/status.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const struct {
  const char *name;
  const char *text;
} status_table[] = {
    [TC5_OK] = {"TC5_OK", "success"},
    [TC5_EINVAL] = {"TC5_EINVAL", "invalid argument"},
    [TC5_ERANGE] = {"TC5_ERANGE", "value out of range"},
    [TC5_ERESERVED] = {"TC5_ERESERVED", "reserved value or bits"},
    [TC5_EALIGN] = {"TC5_EALIGN", "misaligned address or offset"},
    [TC5_EILLEGAL] = {"TC5_EILLEGAL", "combination rejected by the spec"},
    [TC5_ENOTREPR] = {"TC5_ENOTREPR", "not representable"},
    [TC5_ETRUNC] = {"TC5_ETRUNC", "output buffer too small"},
    [TC5_ENOMEM] = {"TC5_ENOMEM", "out of memory"},
    [TC5_EPARSE] = {"TC5_EPARSE", "parse error"},
    [TC5_EIO] = {"TC5_EIO", "input/output error"},
    [TC5_EMISMATCH] = {"TC5_EMISMATCH", "mismatch against reference"},
    [TC5_EWOULDBLOCK] = {"TC5_EWOULDBLOCK", "instruction would block"},
    [TC5_ESTATE] = {"TC5_ESTATE", "not allowed in the current state"},
    [TC5_EACCESS] = {"TC5_EACCESS", "access restriction broken"},
    [TC5_EUNINIT] = {"TC5_EUNINIT", "read of uninitialised memory"},
    [TC5_EBOUNDS] = {"TC5_EBOUNDS", "address out of bounds"},
    [TC5_EUNSUPPORTED] = {"TC5_EUNSUPPORTED", "not modelled by tc5"},
    [TC5_EHAZARD] = {"TC5_EHAZARD", "tcgen05 ordering rule broken (checker finding)"},
    [TC5_ECANCELED] = {"TC5_ECANCELED", "stopped by the caller"},
};

const char *tc5_status_name(tc5_status s) {
  if ((unsigned)s < sizeof status_table / sizeof status_table[0])
    return status_table[s].name;
  return "TC5_E?";
}

const char *tc5_strerror(tc5_status s) {
  if ((unsigned)s < sizeof status_table / sizeof status_table[0])
    return status_table[s].text;
  return "unknown status";
}

tc5_status tc5_diag_init(tc5_diag *d) {
  if (!d) return TC5_EINVAL;
  d->count = 0;
  d->total = 0;
  return TC5_OK;
}

tc5_status tc5_diag_first(const tc5_diag *d) {
  if (!d || d->count == 0) return TC5_OK;
  return d->issue[0].status;
}

tc5_status tc5_diag_add(tc5_diag *d, tc5_status status, const char *field,
                        uint64_t value, const char *fmt, ...) {
  if (!d) return status;
  d->total++;
  if (d->count >= TC5_DIAG_CAP) return status;
  tc5_issue *is = &d->issue[d->count++];
  is->status = status;
  is->value = value;
  snprintf(is->field, sizeof is->field, "%s", field ? field : "");
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(is->message, sizeof is->message, fmt, ap);
  va_end(ap);
  return status;
}
