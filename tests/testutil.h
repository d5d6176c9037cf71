/* tc5 tests — shared helpers: deterministic PRNG, oracle location, and the
 * cmocka includes in the order cmocka needs. */
#ifndef TC5_TESTUTIL_H
#define TC5_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* xoshiro256** seeded by splitmix64: fast, reproducible. */
typedef struct rng {
  uint64_t s[4];
} rng;

static inline uint64_t rng_splitmix(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static inline void rng_seed(rng *r, uint64_t seed) {
  for (int i = 0; i < 4; i++) r->s[i] = rng_splitmix(&seed);
}

static inline uint64_t rng_next(rng *r) {
  uint64_t *s = r->s;
  uint64_t x = s[1] * 5;
  uint64_t res = ((x << 7) | (x >> 57)) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = (s[3] << 45) | (s[3] >> 19);
  return res;
}

/* Uniform in [0, n). */
static inline uint64_t rng_below(rng *r, uint64_t n) { return n ? rng_next(r) % n : 0; }

/* Iteration counts can be scaled down with TC5_TEST_SCALE (e.g. 0.1 under
 * slow sanitizers); never below 1. */
static inline uint64_t test_iters(uint64_t n) {
  const char *s = getenv("TC5_TEST_SCALE");
  double f = s ? atof(s) : 1.0;
  if (f <= 0) f = 1.0;
  uint64_t r = (uint64_t)((double)n * f);
  return r ? r : 1;
}

/* Directory of the reference data (../shared/oracle by default). */
static inline const char *oracle_dir(void) {
  const char *e = getenv("TC5_ORACLE_DIR");
#ifdef TC5_ORACLE_DIR_DEFAULT
  return e ? e : TC5_ORACLE_DIR_DEFAULT;
#else
  return e ? e : "../shared/oracle";
#endif
}

/* Path of an oracle file, or NULL (with a skip) when the data is absent. */
static inline const char *oracle_path(const char *rel, char *buf, size_t cap) {
  snprintf(buf, cap, "%s/%s", oracle_dir(), rel);
  FILE *f = fopen(buf, "r");
  if (!f) return NULL;
  fclose(f);
  return buf;
}

#endif
