/* Benchmark: zero-column masks generated per second on one core, the fast
 * word-level generator against the per-bit reference, same descriptors, same
 * run. Usage: bench_zcmask [seconds per measurement, default 1] */
#include <stdio.h>
#include <stdlib.h>

#include "bench_util.h"
#include "tc5/zcmask.h"

#define NDESC 4096

typedef tc5_status (*gen_fn)(const tc5_zcmask_desc *, unsigned, unsigned, tc5_colmask *,
                             tc5_diag *);

/* masks per second of one generator; the loop does nothing else */
static double rate(gen_fn gen, const tc5_zcmask_desc *d, unsigned m, unsigned n,
                   double seconds) {
  uint64_t count = 0, acc = 0;
  double t0 = bench_now(), t;
  do {
    for (int i = 0; i < NDESC; i++) {
      tc5_colmask out;
      gen(&d[i], m, n, &out, NULL);
      acc += out.w[0] ^ out.w[1];
    }
    count += NDESC;
    t = bench_now();
  } while (t - t0 < seconds);
  bench_sink(acc);
  return (double)count / (t - t0);
}

/* masks per second of the batch entry point */
static double rate_many(const tc5_zcmask_desc *d, unsigned m, unsigned n, double seconds) {
  static tc5_colmask out[NDESC];
  uint64_t count = 0, acc = 0;
  double t0 = bench_now(), t;
  do {
    tc5_zcmask_generate_many(d, NDESC, m, n, out, NULL, NULL);
    acc += out[count % NDESC].w[0];
    count += NDESC;
    t = bench_now();
  } while (t - t0 < seconds);
  bench_sink(acc);
  return (double)count / (t - t0);
}

int main(int argc, char **argv) {
  double seconds = argc > 1 ? atof(argv[1]) : 1.0;
  if (seconds <= 0) seconds = 1.0;
  static tc5_zcmask_desc d[NDESC];
  uint64_t s = 42;
  for (int i = 0; i < NDESC; i++) {
    uint64_t raw = bench_rand(&s) & ~((7ull << 36) | (0xFFull << 56));
    raw |= 1ull << 39;
    tc5_zcmask_desc_decode(raw, &d[i], NULL);
  }
  printf("zero-column mask generation, one core, %d random descriptors (non-zero masks);\n"
         "reference = per-bit generator, fast = tc5_zcmask_generate per call,\n"
         "fast batch = tc5_zcmask_generate_many over the %d descriptors\n", NDESC, NDESC);
  printf("%4s %4s %14s %14s %14s %10s %10s\n", "M", "N", "reference /s", "fast /s",
         "fast batch /s", "fast/ref", "batch/ref");
  static const unsigned ms[3] = {128, 64, 32}, ns[3] = {128, 64, 256};
  for (int ni = 0; ni < 3; ni++)
    for (int mi = 0; mi < 3; mi++) {
      /* best of 3 short runs each: the machine's speed varies */
      double r = 0, f = 0, b = 0;
      for (int rep = 0; rep < 3; rep++) {
        double x = rate(tc5_zcmask_generate_reference, d, ms[mi], ns[ni], seconds / 6);
        double y = rate(tc5_zcmask_generate, d, ms[mi], ns[ni], seconds / 3);
        double z = rate_many(d, ms[mi], ns[ni], seconds / 3);
        r = x > r ? x : r;
        f = y > f ? y : f;
        b = z > b ? z : b;
      }
      printf("%4u %4u %14.3e %14.3e %14.3e %9.1fx %9.1fx\n", ms[mi], ns[ni], r, f, b, f / r, b / r);
    }
  return 0;
}
