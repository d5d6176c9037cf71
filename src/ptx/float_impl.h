/* tc5 PTX runner — a register's bits as a float value, shared by the
 * float instructions (exec_float.c) and the comparisons of exec_alu.c
 * (setp, testp): header-level, so that no family calls another (issue 51;
 * moved here whole from exec_float.c). */
#ifndef TC5_PTX_FLOAT_IMPL_H
#define TC5_PTX_FLOAT_IMPL_H
#include <math.h>
#include <string.h>

#include "formats/half_impl.h"
#include "ptx/ptx_impl.h"
#include "tc5/formats.h"

static inline float f32_of(uint64_t b) {
  uint32_t x = (uint32_t)b;
  float f;
  memcpy(&f, &x, 4);
  return f;
}
static inline double f64_of(uint64_t b) {
  double d;
  memcpy(&d, &b, 8);
  return d;
}
static inline float ftz32(float f) {
  return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.0f, f) : f;
}
static inline double dec16(uint64_t bits, bool bf) {
  return tc5__half_decode((uint32_t)bits & 0xffff, bf, NULL); /* tc5_fmt_decode's value, inlined */
}

/* cvt.f32.f16 of one lane by the bits (issue 50, bc: FlagGems' upsample_bicubic2d_aa widens 25 f16 loads an
 * iteration): the f32 that bits_f32((float)tc5__half_decode(h)) gives, without the double: a normal's
 * exponent rebiased (+112) and significand moved up 13 bits, a subnormal m * 2^-24 (exact in f32), Inf,
 * the sign kept (-0 too); a NaN of either sign canon_f32's 0x7fffffff. Branch-free, so the compiler vectorises
 * a warp's loop; tests/ptx/fastpath_bicubic compares every code with the CLI before it */
static inline uint32_t f32_bits_of_f16(uint32_t h) {
  uint32_t s = (h & 0x8000u) << 16, e = h & 0x7c00u, m = h & 0x3ffu;
  uint32_t norm = ((h & 0x7fffu) << 13) + (112u << 23);
  float f = (float)(int32_t)m * 0x1p-24f;
  uint32_t sub;
  memcpy(&sub, &f, 4);
  uint32_t z = 0u - (uint32_t)(e == 0), top = 0u - (uint32_t)(e == 0x7c00u), nan = top & (0u - (uint32_t)(m != 0));
  uint32_t r = s | (norm & ~z & ~top) | (sub & z) | (0x7f800000u & top); /* masks: no branch */
  return (r & ~nan) | (0x7fffffffu & nan);
}
/* a float operand of type t as a double */
static inline double ptx_fval(uint64_t bits, unsigned type, bool ftz) {
  switch (type) {
  case PT_F32: {
    float f = f32_of(bits);
    return ftz ? ftz32(f) : f;
  }
  case PT_F64: return f64_of(bits);
  case PT_F16: return dec16(bits, false);
  case PT_BF16: return dec16(bits, true);
  default: return 0;
  }
}

#endif
