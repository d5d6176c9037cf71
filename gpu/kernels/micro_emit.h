/* tc5 on silicon: the result rows of the unit-level microbenchmarks (gpu/timing_micro.cu on the
 * H200, gpu/tmem_micro.cu on a B200): a row is key, value, unit and how it was measured, on stdout
 * in columns (each program its widths) and as a tab-separated line of the program's OUT.tsv
 * (tsv, opened by main), flushed at once so that a fault keeps the rows before it. Host code
 * only. One copy since g55: each program had its own. */
#ifndef TC5_KERNELS_MICRO_EMIT_H
#define TC5_KERNELS_MICRO_EMIT_H

#include <cstdio>

static FILE *tsv;

/* kw, vw, uw: the stdout widths of the key, the value (4 decimals) and the unit */
static void micro_emit(int kw, int vw, int uw, const char *key, double v, const char *unit, const char *how) {
  printf("%-*s %*.4f %-*s %s\n", kw, key, vw, v, uw, unit, how);
  fprintf(tsv, "%s\t%.6g\t%s\t%s\n", key, v, unit, how);
  fflush(stdout);
  fflush(tsv);
}

#endif
