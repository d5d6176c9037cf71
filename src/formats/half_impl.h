/* tc5 — f16 and bf16 decode and round-to-nearest-even encode by bit
 * manipulation: the same values, classes and codes as formats.c's one
 * decoder and rounder (which read the formats' parameters from the spec
 * tables), without their table look-ups, ldexp and floor/fmod. They are the
 * runner's hottest conversions (every bf16 load a Triton kernel widens, every
 * result it narrows); formats.c takes them for these two types, and the
 * PTX runner's float instructions inline them (src/ptx/float_impl.h).
 * tests/formats/test_formats.c compares them with the generic paths on every
 * 16-bit code and on doubles at every rounding boundary; test_formats_cuda
 * compares the encoder with CUDA's own conversions. */
#ifndef TC5_FORMATS_HALF_IMPL_H
#define TC5_FORMATS_HALF_IMPL_H
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "tc5/formats.h"

/* formats.c's generic decoder and rounder (every type; tests compare) */
tc5_status tc5__fmt_decode_generic(tc5_type t, uint32_t code, double *value, tc5_fclass *cls);
tc5_status tc5__fmt_encode_generic(tc5_type t, double x, tc5_round r, bool sat, uint32_t *code);

/* the value of a 16-bit code (bf: bfloat16, else binary16); a NaN is
 * NAN with the code's sign, as formats.c's decoder gives it */
static inline double tc5__half_decode(uint32_t code, bool bf, tc5_fclass *cls) {
  unsigned mb = bf ? 7 : 10, emax = bf ? 0xffu : 0x1fu;
  unsigned e = (code >> mb) & emax, m = code & ((1u << mb) - 1u);
  bool neg = (code >> 15) & 1u;
  double v;
  tc5_fclass c;
  if (e == emax) {
    c = m ? TC5_FCLASS_NAN : TC5_FCLASS_INF;
    v = m ? NAN : INFINITY;
  } else if (bf) { /* a bf16 is the top half of an f32: exact as a double */
    uint32_t b = (code & 0x7fffu) << 16;
    float f;
    memcpy(&f, &b, 4);
    v = f;
    c = e ? TC5_FCLASS_NORMAL : m ? TC5_FCLASS_SUBNORMAL : TC5_FCLASS_ZERO;
  } else if (e == 0) {
    v = (double)m * 0x1p-24;
    c = m ? TC5_FCLASS_SUBNORMAL : TC5_FCLASS_ZERO;
  } else {
    uint64_t b = (uint64_t)(e - 15u + 1023u) << 52 | (uint64_t)m << 42;
    memcpy(&v, &b, 8);
    c = TC5_FCLASS_NORMAL;
  }
  if (neg) v = -v;
  if (cls) *cls = c;
  return v;
}

/* x rounded once to nearest even into bf16 (bf) or f16, no saturation:
 * a NaN gives 0x7fff, an overflow Inf (IEEE 754, as formats.c's rounder) */
static inline uint32_t tc5__half_encode_rn(double x, bool bf) {
  uint64_t u;
  memcpy(&u, &x, 8);
  uint32_t sign = (uint32_t)(u >> 63) << 15;
  u &= 0x7fffffffffffffffull;
  uint32_t inf = bf ? 0x7f80u : 0x7c00u;
  if (u > 0x7ff0000000000000ull) return 0x7fffu;
  unsigned mb = bf ? 7 : 10, shift = 52 - mb;
  int bias = bf ? 127 : 15;
  uint64_t emin = (uint64_t)(1023 - bias + 1) << 52;       /* the least normal */
  uint64_t over = (uint64_t)(1023 + bias + 1) << 52;       /* 2^(emax + 1) */
  if (u >= over) return sign | inf;
  if (u >= emin) {
    uint64_t r = u + ((1ull << (shift - 1)) - 1u) + ((u >> shift) & 1u);
    return sign | (uint32_t)((r >> shift) - ((uint64_t)(1023 - bias) << mb)); /* a carry to Inf is Inf's code */
  }
  /* subnormal (or rounding up to the least normal): the multiple of the
   * least subnormal, rounded to nearest even; every step exact */
  double y = fabs(x) * (bf ? 0x1p133 : 0x1p24);
  uint64_t n = (uint64_t)y;
  double frac = y - (double)n;
  if (frac > 0.5 || (frac == 0.5 && (n & 1u))) n++;
  return sign | (uint32_t)n;
}

/* an f32 (its bits) rounded once to nearest even into bf16: what
 * tc5__half_encode_rn((double)f, true) gives (an f32 is exact as a double;
 * bf16 has f32's exponent range, so the rounding is on the bits alone, a
 * carry into the exponent included, an Inf stays Inf), NaN 0x7fff; every
 * one of the 2^32 inputs compared (test_formats::test_half_fast_paths) */
static inline uint32_t tc5__bf16_rn_of_f32(uint32_t b) {
  /* by masks, no branch (a warp's loop of it vectorises: the runner's bf16_rows); a non-NaN's sum
   * stays below 2^32 (0xff800000 + 0x8000 at most), a NaN's is replaced */
  uint32_t nan = 0u - (uint32_t)((b & 0x7fffffffu) > 0x7f800000u);
  return (((b + 0x7fffu + ((b >> 16) & 1u)) >> 16) & ~nan) | (0x7fffu & nan);
}

/* an f32 (its bits) rounded once to nearest even into f16: what
 * tc5__half_encode_rn((double)f, false) gives (an f32 is exact as a double),
 * NaN 0x7fff. Normal f16 results by the bits (a carry into the exponent
 * included, 65520 and up to Inf); subnormal and zero ones by one f32 addition
 * of 0.5, whose rounding to nearest even (the host's mode must be so) leaves
 * the f16 code in the low bits (F. Giesen's float_to_half_fast3_rtne). The
 * cases picked by masks, no branch, so that a warp's loop of it vectorises
 * (the runner's f16_rows). Every one of the 2^32 inputs compared
 * (tests/formats/test_half_rows.c: TC5_HALF_EXHAUSTIVE=1; by default every
 * rounding boundary's neighbourhood) */
static inline uint32_t tc5__f16_rn_of_f32(uint32_t b) {
  uint32_t sign = (b >> 16) & 0x8000u, a = b & 0x7fffffffu;
  float f;
  memcpy(&f, &a, 4);
  f += 0.5f; /* below 2^-14 (an f16 subnormal or zero): 0.5 + |x| rounded to a multiple of 2^-24, f32's ulp at 0.5 */
  uint32_t q;
  memcpy(&q, &f, 4);
  uint32_t nrm = (a - 0x38000000u + 0xfffu + ((a >> 13) & 1u)) >> 13; /* rebiased by 112 */
  uint32_t big = 0u - (uint32_t)(a >= 0x47800000u), sub = 0u - (uint32_t)(a < 0x38800000u);
  uint32_t nan = 0u - (uint32_t)(a > 0x7f800000u);
  nrm = (0x7c00u & big) | (nrm & ~big); /* 2^16 and up (Inf too) */
  uint32_t r = sign | ((q - 0x3f000000u) & sub) | (nrm & ~sub);
  return (r & ~nan) | (0x7fffu & nan);
}

/* f16 add (op 0), sub (1), mul (2) of the codes a and b, rounded once to
 * nearest even, when the f32 result is the exact one: a product of two f16
 * values (11-bit significands, exponents 2^-24..2^15) is always exact in f32;
 * a sum is when f32's two-sum error is 0. Then rounding that f32 to f16
 * (tc5__f16_rn_of_f32) gives the code the runner's general path gives (the
 * exact value rounded to odd in double, then to f16; every one of the 2^32
 * operand pairs of each operation compared: tests/formats/test_half_rows.c,
 * TC5_HALF_EXHAUSTIVE=1). false: not so (a NaN or Inf operand, an inexact sum), the general
 * path's turn. The host's rounding mode must be to nearest. */
static inline bool tc5__f16_arith_fast(unsigned op, uint32_t a, uint32_t b, uint32_t *code) {
  if ((a & 0x7c00u) == 0x7c00u || (b & 0x7c00u) == 0x7c00u) return false;
  float x = (float)tc5__half_decode(a & 0xffffu, false, NULL), y = (float)tc5__half_decode(b & 0xffffu, false, NULL), s;
  if (op == 2) {
    s = x * y;
  } else {
    if (op == 1) y = -y;
    s = x + y;
    float t = s - x, err = (x - (s - t)) + (y - t);
    if (err != 0.0f) return false;
  }
  uint32_t u;
  memcpy(&u, &s, 4);
  *code = tc5__f16_rn_of_f32(u);
  return true;
}

/* bf16 add (op 0), sub (1), mul (2) of the codes a and b, rounded once to
 * nearest even, when the f32 result is the exact one: a product of two bf16
 * significands (8 bits each) is exact in f32 when it is a normal f32, and its
 * bf16 is the f32's signed zero when that is zero (issue 50 sm); a sum is
 * when f32's two-sum error is 0 (no overflow). Then rounding that f32 to bf16
 * (tc5__bf16_rn_of_f32) gives the code the runner's general path gives (the
 * exact value rounded to odd in double, then to bf16; every one of the 2^32
 * operand pairs of each operation compared, issue 50 s50c). false: not so
 * (NaN, Inf, overflow, underflow, an inexact sum), the general path's turn.
 * The host's rounding mode must be to nearest (the runner's plain forms). */
static inline bool tc5__bf16_arith_fast(unsigned op, uint32_t a, uint32_t b, uint32_t *code) {
  uint32_t ab = (a & 0xffffu) << 16, bb = (b & 0xffffu) << 16;
  float x, y, s;
  memcpy(&x, &ab, 4);
  memcpy(&y, &bb, 4);
  if (op == 2) {
    s = x * y; /* a normal f32 is the exact product; a zero f32 one of at most 2^-150, below half of
                * bf16's least subnormal (2^-133), so its bf16 is that signed zero too */
    if (!((fabsf(s) >= 0x1p-126f && fabsf(s) <= 0x1.fffffep127f) || s == 0.0f)) return false;
  } else {
    if (op == 1) y = -y;
    s = x + y;
    if (!(fabsf(s) <= 0x1.fffffep127f)) return false;
    float t = s - x, err = (x - (s - t)) + (y - t);
    if (err != 0.0f) return false;
  }
  uint32_t u;
  memcpy(&u, &s, 4);
  *code = tc5__bf16_rn_of_f32(u);
  return true;
}

#endif
