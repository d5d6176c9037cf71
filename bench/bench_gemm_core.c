/* tc5 benchmark — the exact MMA arithmetic's portable kernel (tc5_gemm
 * without AVX-512: arith_gemm.c's tile_float), the shape FlashAttention-4's
 * forward gives each tcgen05.mma K loop (bf16 x bf16 -> f32, Blackwell's
 * .kind::f16 model, M = N = K = 128: S = Q K^T and O += P V of one CTA),
 * in the same process:
 *   sums: pass 2 summing the truncated terms in doubles (now) against
 *         converting each to int64 first (before; tc5__gemm_int64_sums),
 *         one thread each;
 *   threads: the same GEMM on 2 threads against 1 (what the runner's MMA
 *         queue does with a host thread to spare, docs/timing.md "Cost").
 * Inputs are random bf16 of both signs over 2^-8 .. 2^8 (mixed exponents:
 * every truncation matters), C random f32; outputs must be bit-identical
 * between the variants (exit 1 otherwise). Each ratio: 7 runs, each the
 * best of 5 of both (by wall time; its CPU time beside it: on a loaded
 * machine the CPU ratio is the steadier one); the medians printed.
 * usage: bench_gemm_core [rounds]   (rounds 1: a check, not a timing) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arith/arith_gemm_impl.h"
#include "bench_util.h"
#include "tc5/arith.h"

#define M 128
#define N 128
#define K 128

static int cmpd(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return a < b ? -1 : a > b;
}

static uint32_t A[M * K], B[K * N], C[M * N], D0[M * N], D1[M * N];

static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* the best of 5 of one variant (wall seconds; *cpu: the process's CPU
 * seconds of the same run), its output in D */
static double best(const tc5_dot *m, const tc5_dot_opts *o, bool int64_sums, unsigned threads, uint32_t *D,
                   double *cpu) {
  const tc5__gemm_ctl ctl = {true, 0}; /* the portable kernel, also where AVX-512 is */
  double b = 1e30;
  for (int i = 0; i < 5; i++) {
    memcpy(D, C, sizeof C);
    double c0 = cpu_now(), t0 = bench_now();
    if (int64_sums ? tc5__gemm_int64_sums(m, M, N, K, A, B, NULL, NULL, D, o, threads, &ctl)
                   : tc5__gemm(m, M, N, K, A, B, NULL, NULL, D, o, threads, &ctl, NULL))
      return -1;
    double t = bench_now() - t0, c = cpu_now() - c0;
    if (t < b) b = t, *cpu = c;
  }
  return b;
}

static int ratio(const char *name, const tc5_dot *m, const tc5_dot_opts *o, bool base, unsigned tbase, bool now,
                 unsigned tnow, int rounds) {
  double r[16], rc[16], tb = 0, tn = 0, cb = 0, cn = 0;
  for (int i = 0; i < rounds; i++) {
    tb = best(m, o, base, tbase, D0, &cb);
    tn = best(m, o, now, tnow, D1, &cn);
    if (tb < 0 || tn < 0) return fprintf(stderr, "bench_gemm_core: tc5__gemm failed\n"), 1;
    if (memcmp(D0, D1, sizeof D0)) return fprintf(stderr, "bench_gemm_core: %s: outputs differ\n", name), 1;
    r[i] = tb / tn, rc[i] = cb / cn;
  }
  qsort(r, (size_t)rounds, sizeof r[0], cmpd);
  qsort(rc, (size_t)rounds, sizeof rc[0], cmpd);
  printf("%-8s %ux%ux%u bf16, %u thread%s against %u: wall %.4f s against %.4f s: %.2fx faster; CPU %.2fx "
         "(medians of %d; outputs identical)\n",
         name, M, N, K, tnow, tnow > 1 ? "s" : "", tbase, tn, tb, r[rounds / 2], rc[rounds / 2], rounds);
  return 0;
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 7;
  if (rounds < 1 || rounds > 15) rounds = 7;
  uint64_t seed = 7;
  for (int i = 0; i < M * K; i++) A[i] = (uint32_t)((bench_rand(&seed) & 0x807F) | (0x77u + bench_rand(&seed) % 16) << 7);
  for (int i = 0; i < K * N; i++) B[i] = (uint32_t)((bench_rand(&seed) & 0x807F) | (0x77u + bench_rand(&seed) % 16) << 7);
  for (int i = 0; i < M * N; i++) C[i] = (uint32_t)((bench_rand(&seed) & 0x807FFFFFu) | (0x7Bu + bench_rand(&seed) % 8) << 23);
  tc5_dot m;
  tc5_dot_opts o;
  if (tc5_dot_model(TC5_MODEL_BLACKWELL, TC5_KIND_F16, TC5_BF16, TC5_BF16, TC5_F32, TC5_TYPE_NONE, 0, false, &m, NULL))
    return 1;
  tc5_dot_opts_init(&o);
  int bad = ratio("sums", &m, &o, true, 1, false, 1, rounds);
  bad |= ratio("threads", &m, &o, false, 1, false, 2, rounds);
  return bad;
}
