/* tc5 benchmarks — timing helpers. Benchmarks print ratios against a
 * baseline measured in the same process, never absolute pass/fail. */
#ifndef TC5_BENCH_UTIL_H
#define TC5_BENCH_UTIL_H

#include <stdint.h>
#include <time.h>

static inline double bench_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline uint64_t bench_rand(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* sleeps for about `seconds` */
static inline void bench_pause(double seconds) {
  struct timespec ts = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
  nanosleep(&ts, NULL);
}

/* keeps a value alive so the optimiser cannot drop the work */
static inline void bench_sink(uint64_t v) {
  static volatile uint64_t sink;
  sink ^= v;
}

#endif
