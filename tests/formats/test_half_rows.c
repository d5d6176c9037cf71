/* The runner's whole-warp 16-bit float rows (src/ptx/half_rows_impl.h: bf16_rows, f16_rows, the f32
 * fast paths of add/sub/mul) against the general way (the exact value rounded to odd in double, then
 * once to f16/bf16: round_odd + tc5__half_encode_rn), and f32 -> f16/bf16 by bits against
 * tc5__half_encode_rn. By default every code a against rows of b chosen to meet zeros, subnormals,
 * cancellation (b near a and near -a), Inf/NaN and a hash (about 3e7 pairs an op and format);
 * f16_rows also in its AVX2 build where the host has it; TC5_HALF_EXHAUSTIVE=1: every one of the 2^32 operand pairs of each op and format and every one of
 * the 2^32 f32 inputs (about 10 minutes on one core). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ptx/half_rows_impl.h"

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
/* the AVX2 build of the same loops, as exec_float.c's f16_rows_avx2 compiles them */
__attribute__((target("avx2"))) static void f16_rows_avx2(unsigned fop, unsigned op, unsigned n, const uint64_t *a,
                                                        const uint64_t *b, uint64_t *d) {
  f16_rows(fop, op, n, a, b, d);
}
static bool have_avx2(void) { return __builtin_cpu_supports("avx2"); }
#else
static void f16_rows_avx2(unsigned fop, unsigned op, unsigned n, const uint64_t *a, const uint64_t *b, uint64_t *d) {
  f16_rows(fop, op, n, a, b, d);
}
static bool have_avx2(void) { return false; }
#endif

static int exhaustive(void) {
  const char *e = getenv("TC5_HALF_EXHAUSTIVE");
  return e && e[0] == '1';
}

/* one row: a against b0 .. b0 + 31, each op, the format bf */
static void row(bool bf, uint32_t a, uint32_t b0, uint64_t *mism) {
  static const unsigned ops[3] = {OP_ADD, OP_SUB, OP_MUL};
  uint64_t A[32], B[32], D[32];
  for (unsigned l = 0; l < 32; l++) A[l] = a, B[l] = (b0 + l) & 0xffffu;
  for (unsigned fop = 0; fop < 3; fop++) {
    uint64_t V[32];
    if (bf) bf16_rows(fop, ops[fop], 1, A, B, D);
    else f16_rows(fop, ops[fop], 1, A, B, D);
    if (!bf && have_avx2()) f16_rows_avx2(fop, ops[fop], 1, A, B, V);
    else memcpy(V, D, sizeof V);
    for (unsigned l = 0; l < 32; l++) {
      uint32_t b = (uint32_t)B[l], want = h16_general(ops[fop], a, b, bf), c = 0;
      bool fast = bf ? tc5__bf16_arith_fast(fop, a, b, &c) : tc5__f16_arith_fast(fop, a, b, &c);
      if (D[l] != want || V[l] != want || (fast && c != want)) {
        if ((*mism)++ < 8)
          print_error("%s op %u: 0x%04x, 0x%04x: rows 0x%04x (AVX2 0x%04x), fast %d 0x%04x, the general way 0x%04x\n",
                      bf ? "bf16" : "f16", fop, a, b, (unsigned)D[l], (unsigned)V[l], fast, c, want);
      }
    }
  }
}

static void test_rows_general(void **state) {
  (void)state;
  for (int bf = 0; bf < 2; bf++) {
    uint64_t mism = 0;
    for (uint32_t a = 0; a < 0x10000u; a++) {
      if (exhaustive()) {
        for (uint32_t b0 = 0; b0 < 0x10000u; b0 += 32) row(bf, a, b0, &mism);
        continue;
      }
      const uint32_t near = a & ~31u, opp = (a ^ 0x8000u) & ~31u, hash = (a * 2654435761u >> 16) & ~31u;
      const uint32_t rows[] = {0, 0x8000u, near, opp, hash, bf ? 0x7f80u : 0x7c00u};
      for (unsigned k = 0; k < sizeof rows / sizeof rows[0]; k++) row(bf, a, rows[k], &mism);
    }
    assert_int_equal(mism, 0);
  }
}

static void test_f32_to_half(void **state) {
  (void)state;
  uint64_t mism = 0;
  /* every input (TC5_HALF_EXHAUSTIVE), else every rounding boundary's neighbourhood: each high half
   * with low halves around the f16 and bf16 rounding bits, and a stride over all of them */
  static const uint32_t low[] = {0, 1, 0x0fff, 0x1000, 0x1001, 0x1fff, 0x2000, 0x2001, 0x3fff, 0x4000,
                                 0x4001, 0x7fff, 0x8000, 0x8001, 0xbfff, 0xc000, 0xdfff, 0xe000, 0xffff};
  uint64_t n = exhaustive() ? (1ull << 32) : 0x10000u * (sizeof low / sizeof low[0]) + (1ull << 32) / 65521 + 1;
  for (uint64_t i = 0; i < n; i++) {
    uint32_t b;
    if (exhaustive()) b = (uint32_t)i;
    else if (i < 0x10000u * (sizeof low / sizeof low[0])) b = (uint32_t)(i / (sizeof low / sizeof low[0])) << 16 | low[i % (sizeof low / sizeof low[0])];
    else b = (uint32_t)((i - 0x10000u * (sizeof low / sizeof low[0])) * 65521u);
    float f;
    memcpy(&f, &b, 4);
    uint32_t h = tc5__f16_rn_of_f32(b), hw = tc5__half_encode_rn((double)f, false);
    uint32_t g = tc5__bf16_rn_of_f32(b), gw = tc5__half_encode_rn((double)f, true);
    if (h != hw || g != gw) {
      if (mism++ < 8) print_error("f32 0x%08x: f16 0x%04x (want 0x%04x), bf16 0x%04x (want 0x%04x)\n", b, h, hw, g, gw);
    }
  }
  assert_int_equal(mism, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rows_general),
      cmocka_unit_test(test_f32_to_half),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
