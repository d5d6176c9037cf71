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
