/* tc5 timing model — the GPU parameter tables (params_*.def) as data. */
#include <stddef.h>
#include <string.h>
#include "timing/timing_impl.h"

#define TM_PARAM(name, value, unit, prov) {#name, (double)(value), unit, prov},
static const tm_param_row rows_b200[] = {
#include "timing/params_b200.def"
};
static const tm_param_row rows_h100[] = {
#include "timing/params_h100.def"
};
static const tm_param_row rows_h200[] = {
#include "timing/params_h200.def"
};
#undef TM_PARAM

static const struct {
  const char *name;
  const tm_param_row *rows;
  unsigned n;
  const char *family; /* the targets it runs */
} gpus[] = {
    {"b200", rows_b200, sizeof rows_b200 / sizeof *rows_b200, "sm_100"},
    {"h100", rows_h100, sizeof rows_h100 / sizeof *rows_h100, "sm_90"},
    {"h200", rows_h200, sizeof rows_h200 / sizeof *rows_h200, "sm_90"},
};

const char *tc5_timing_gpus(void) { return "b200 h100 h200"; }

static int gpu_index(const char *gpu) {
  if (!gpu) return -1;
  for (unsigned k = 0; k < sizeof gpus / sizeof *gpus; k++)
    if (!strcmp(gpu, gpus[k].name)) return (int)k;
  return -1;
}

tc5_status tc5_timing_param(const char *gpu, unsigned index, const char **name, double *value, const char **unit,
                            const char **provenance) {
  int g = gpu_index(gpu);
  if (g < 0 || index >= gpus[g].n) return TC5_EINVAL;
  const tm_param_row *r = &gpus[g].rows[index];
  if (name) *name = r->name;
  if (value) *value = r->value;
  if (unit) *unit = r->unit;
  if (provenance) *provenance = r->prov;
  return TC5_OK;
}

/* the target's SM number ("sm_90a" -> 90); 0 when not sm_NN */
static unsigned sm_of(const char *target) {
  if (!target || strncmp(target, "sm_", 3)) return 0;
  unsigned v = 0;
  for (const char *p = target + 3; *p >= '0' && *p <= '9'; p++) v = v * 10 + (unsigned)(*p - '0');
  return v;
}

tc5_status tc5_timing_check(const char *gpu, const char *target, tc5_diag *diag) {
  int g = gpu_index(gpu);
  if (g < 0)
    return tc5_diag_add(diag, TC5_EINVAL, "timing", 0, "timing: no parameter table for GPU '%.40s' (the tables: %s)",
                        gpu ? gpu : "(null)", tc5_timing_gpus());
  unsigned sm = sm_of(target);
  bool ok = g == 0 ? sm == 100 : sm >= 70 && sm <= 90;
  if (!ok)
    return tc5_diag_add(diag, TC5_EINVAL, "timing", sm,
                        "timing: %s cannot run PTX for .target %.32s (%s runs %s%s)", gpu, target && *target ? target : "(none)",
                        gpu, gpus[g].family, g == 0 ? ", sm_100a, sm_100f" : ", sm_90a and older sm_7x/sm_8x");
  return TC5_OK;
}

tc5_status tm_params_load(const char *gpu, tm_params *p) {
  int g = gpu_index(gpu);
  if (g < 0) return TC5_EINVAL;
  memset(p, 0, sizeof *p);
  for (unsigned k = 0; k < gpus[g].n; k++) {
    const tm_param_row *r = &gpus[g].rows[k];
#define TM_FIELD(f) if (!strcmp(r->name, #f)) p->f = r->value;
    TM_FIELDS
#undef TM_FIELD
  }
  p->gpu = gpus[g].name;
  return TC5_OK;
}
