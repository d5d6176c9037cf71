/* tc5 on silicon: the start of the two TMA latency programs, gpu/timing_tma_loaded.cu and
 * gpu/tma_latency.cu (one thread a CTA, one CTA an SM, results as OUT.tsv lines). Host code only.
 * One copy since g55: each program had its own. */
#ifndef TC5_KERNELS_TMA_BENCH_CUH
#define TC5_KERNELS_TMA_BENCH_CUH

#include <cstdio>

#include "../cuda_check.h" /* CK(call) */
#include "sm_clock.cuh"    /* sm_clock_mhz */

/* `usage: NAME OUT.tsv` unless argv is NAME OUT.tsv; opens OUT.tsv, names device 0 on stdout, allocates
 * *dout (3 x 4096 words of device scratch: 3 a CTA), measures the SM clock (sm_clock_mhz) and writes it
 * as OUT.tsv's comment line and on stdout, OUT.tsv's column line `columns` between; *nsm: the SMs.
 * Returns OUT.tsv, or NULL on a bad usage or an OUT.tsv it cannot open (the caller exits 2). */
static FILE *tma_bench_open(int argc, char **argv, const char *name, const char *columns, int *nsm,
                            unsigned long long **dout) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s OUT.tsv\n", name);
    return NULL;
  }
  FILE *tsv = fopen(argv[1], "w");
  if (!tsv) return NULL;
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  *nsm = prop.multiProcessorCount;
  printf("device %s, %d SMs, L2 %d B\n", prop.name, *nsm, prop.l2CacheSize);
  CK(cudaMalloc(dout, 3 * 4096 * 8));
  double mhz = sm_clock_mhz(*dout, *nsm);
  fprintf(tsv, "# %s, %d SMs, SM clock %.0f MHz (clock64 / globaltimer, every SM busy 50 ms, median SM)\n", prop.name,
          *nsm, mhz);
  fputs(columns, tsv);
  printf("SM clock %.0f MHz\n", mhz);
  return tsv;
}

#endif
