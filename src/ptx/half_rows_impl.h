/* tc5 PTX runner — 16-bit float add/sub/mul/fma rounded once: the general
 * way (the exact value rounded to odd in double, then to f16 or bf16) and the
 * whole-warp row loops that take f32 where its result is exact. Header-level
 * (moved whole from exec_float.c, issue 50 session 13) so that
 * tests/formats/test_half_rows.c compares the row loops with the general way
 * on the same code the runner runs. */
#ifndef TC5_PTX_HALF_ROWS_IMPL_H
#define TC5_PTX_HALF_ROWS_IMPL_H
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "formats/half_impl.h"
#include "ptx/float_impl.h"

/* the float ops (in->aux2 of exec_float.c's instructions) */
enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MIN, OP_MAX, OP_FMA };

/* x op y (op + - * or fma) in double rounded to odd: toward zero, and the
 * last bit set when inexact. Rounding that to 8 or 11 significant bits to
 * nearest is the correctly rounded result (53 >= 2p + 2); a plain double
 * rounding is not: the H100's fma.rn.bf16 of 0x2094 * 0x6bd0 + 0x2094 rounds
 * up from just above a tie that double rounding would see as the tie.
 * x, y, z are f16 or bf16 values, so x * y is exact in double (16 or 22
 * significant bits, exponents far inside double's range) and a sum's error
 * is exact too (TwoSum): no floating-point environment to set and test
 * (feclearexcept and fesetround took a sixth of the launch fuzzer's time;
 * the same bits as the fenv version on 1.6e8 random f16/bf16 operand
 * triples, every op, NaN and infinities included). */
static inline double round_odd(unsigned op, double x, double y, double z) {
  double a, b;
  switch (op) {
  case OP_ADD: a = x, b = y; break;
  case OP_SUB: a = x, b = -y; break;
  case OP_MUL: return x * y; /* exact */
  default: a = x * y, b = z; break; /* x * y exact: fma's one rounding is the sum's */
  }
  double s = a + b;
  if (!isfinite(s)) return s;
  double bb = s - a, err = (a - (s - bb)) + (b - bb); /* a + b = s + err exactly */
  if (err == 0) return s;
  if ((err > 0) != (s > 0)) s = nextafter(s, 0.0); /* s was rounded away from zero */
  uint64_t u;
  memcpy(&u, &s, 8);
  u |= 1;
  memcpy(&s, &u, 8);
  return s;
}

/* bf16 (bf) or f16 add/sub/mul of the codes xa, xb the general way: the exact value rounded to odd in double,
 * then to the format */
static inline uint32_t h16_general(unsigned op, uint32_t xa, uint32_t xb, bool bf) {
  return tc5__half_encode_rn(round_odd(op, dec16(xa, bf), dec16(xb, bf), 0.0), bf);
}
/* bf16 add/sub/mul of a whole warp, by rows (loops the compiler vectorises):
 * tc5__bf16_arith_fast's f32 result and its test for each lane without a
 * branch, then the general way for the lanes it does not take; the same codes
 * lane by lane (d may be a or b: every lane's operands read before d is written) */
static inline void bf16_rows(unsigned fop, unsigned op, unsigned n, const uint64_t *a, const uint64_t *b, uint64_t *d) {
  uint32_t r[32];
  for (unsigned k = 0; k < n; k++) {
    float x[32], y[32], s[32];
    uint32_t code[32], ok[32];
    for (unsigned l = 0; l < 32; l++) {
      uint32_t ab = (uint32_t)(a[l] >> (16 * k)) << 16, bb = (uint32_t)(b[l] >> (16 * k)) << 16;
      memcpy(&x[l], &ab, 4);
      memcpy(&y[l], &bb, 4);
    }
    if (fop == 2) {
      for (unsigned l = 0; l < 32; l++) s[l] = x[l] * y[l];
      for (unsigned l = 0; l < 32; l++) {
        uint32_t u;
        memcpy(&u, &s[l], 4);
        uint32_t m = u & 0x7fffffffu; /* |s| a normal f32 (2^-126 <= |s| <= FLT_MAX) or zero */
        ok[l] = (m - 1u >= 0x007fffffu) & (m <= 0x7f7fffffu);
      }
    } else {
      if (fop == 1)
        for (unsigned l = 0; l < 32; l++) y[l] = -y[l];
      for (unsigned l = 0; l < 32; l++) {
        float t, err;
        uint32_t u;
        s[l] = x[l] + y[l];
        t = s[l] - x[l];
        err = (x[l] - (s[l] - t)) + (y[l] - t);
        memcpy(&u, &s[l], 4);
        ok[l] = (u & 0x7fffffffu) <= 0x7f7fffffu && err == 0.0f; /* |s| <= FLT_MAX, an exact sum */
      }
    }
    for (unsigned l = 0; l < 32; l++) {
      uint32_t u;
      memcpy(&u, &s[l], 4);
      code[l] = tc5__bf16_rn_of_f32(u);
    }
    uint32_t all = 1;
    for (unsigned l = 0; l < 32; l++) all &= ok[l];
    for (unsigned l = 0; !all && l < 32; l++)
      if (!ok[l]) {
        code[l] = h16_general(op, (uint32_t)(a[l] >> (16 * k)), (uint32_t)(b[l] >> (16 * k)), true);
      }
    if (k == 0)
      for (unsigned l = 0; l < 32; l++) r[l] = code[l] & 0xffffu;
    else
      for (unsigned l = 0; l < 32; l++) r[l] |= (code[l] & 0xffffu) << (16 * k);
  }
  for (unsigned l = 0; l < 32; l++) d[l] = r[l];
}

/* f16 add/sub/mul of a whole warp, by rows (loops the compiler vectorises, as bf16_rows):
 * tc5__f16_arith_fast's f32 result, its test and tc5__f16_rn_of_f32 for each lane without a
 * branch (an f16 widened by its bits: f32_bits_of_f16), then
 * the general way for the lanes it does not take (a NaN or Inf operand, an inexact sum); the
 * same codes lane by lane (d may be a or b) */
static inline __attribute__((always_inline)) void f16_rows(unsigned fop, unsigned op, unsigned n, const uint64_t *a,
                                                           const uint64_t *b, uint64_t *d) {
  uint32_t r[32];
  for (unsigned k = 0; k < n; k++) {
    float x[32], y[32], s[32];
    uint32_t ha[32], hb[32], code[32], ok[32];
    for (unsigned l = 0; l < 32; l++) {
      ha[l] = (uint32_t)(a[l] >> (16 * k)) & 0xffffu;
      hb[l] = (uint32_t)(b[l] >> (16 * k)) & 0xffffu;
    }
    for (unsigned l = 0; l < 32; l++) {
      ok[l] = ((ha[l] & 0x7c00u) != 0x7c00u) & ((hb[l] & 0x7c00u) != 0x7c00u); /* no Inf nor NaN */
      uint32_t ua = f32_bits_of_f16(ha[l]), ub = f32_bits_of_f16(hb[l]);
      memcpy(&x[l], &ua, 4);
      memcpy(&y[l], &ub, 4);
    }
    if (fop == 2) {
      for (unsigned l = 0; l < 32; l++) s[l] = x[l] * y[l]; /* exact */
    } else {
      if (fop == 1)
        for (unsigned l = 0; l < 32; l++) y[l] = -y[l];
      for (unsigned l = 0; l < 32; l++) {
        float t, err;
        s[l] = x[l] + y[l];
        t = s[l] - x[l];
        err = (x[l] - (s[l] - t)) + (y[l] - t);
        ok[l] &= err == 0.0f;
      }
    }
    for (unsigned l = 0; l < 32; l++) {
      uint32_t u;
      memcpy(&u, &s[l], 4);
      code[l] = tc5__f16_rn_of_f32(u);
    }
    uint32_t all = 1;
    for (unsigned l = 0; l < 32; l++) all &= ok[l];
    for (unsigned l = 0; !all && l < 32; l++)
      if (!ok[l]) code[l] = h16_general(op, ha[l], hb[l], false);
    if (k == 0)
      for (unsigned l = 0; l < 32; l++) r[l] = code[l];
    else
      for (unsigned l = 0; l < 32; l++) r[l] |= code[l] << 16;
  }
  for (unsigned l = 0; l < 32; l++) d[l] = r[l];
}

#endif
