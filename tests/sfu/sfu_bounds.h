/* tc5 tests — the PTX ISA's stated error bounds of the approximate
 * instructions, as data, and the error measure of each (one header, compiled
 * by test_sfu_bounds.c for the host and by gpu/sfu_bounds.cu for the H100).
 *
 * Each row: an instruction (tc5_sfu_op), the kind of bound, its value, the
 * inputs it covers, the ISA's section and its words. The source is the PTX
 * ISA (docs.nvidia.com/cuda/parallel-thread-execution, ISA 8.8/9.x),
 * "Floating Point Instructions" (9.7.3.x) and "Half Precision Floating Point
 * Instructions" (9.7.4.x), each instruction's Notes. What a kind means:
 *   SB_ULP_CR  the result's distance, in floats, from the correctly rounded
 *              value ("N ulp from correctly rounded result");
 *   SB_ULP     |y - f(x)| in units of the last place of f(x)'s binade in the
 *              result's format ("the maximum ulp error is N"; the CUDA
 *              Programming Guide's measure, where correct rounding is 0.5);
 *   SB_REL     |y - f(x)| / |f(x)|;   SB_ABS  |y - f(x)|.
 * f(x) is the exact value (double precision: its own error, about 2^-53, is
 * far below every bound). The inputs where the ISA's special-value table
 * decides the result (NaN, infinities, zeros where f is infinite) are left to
 * that table (test_sfu_bounds's test_special_tables); an .ftz form reads a
 * subnormal input as zero of its sign and may flush a result below the
 * format's smallest normal to zero, as its Notes say ("flushes subnormal
 * inputs and results to sign-preserving zero"); a result the format cannot
 * hold (the correctly rounded value is infinite) must be that infinity.
 * `found` is what the exhaustive run (gpu/run.sh sfu: every input on the
 * H100, the model compiled for the GPU; or TC5_SFU_BOUNDS_FULL=1 on the host)
 * measured where it exceeds the ISA's bound: a finding, with its input
 * (docs/sfu.md, docs/spec-departures.md); 0 where the bound holds. */
#ifndef TC5_SFU_BOUNDS_H
#define TC5_SFU_BOUNDS_H
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "tc5/sfu.h"

#ifdef __CUDACC__
#define SB_FN static __host__ __device__ inline
#else
#define SB_FN static inline
#endif

enum { SB_ULP_CR, SB_ULP, SB_REL, SB_ABS };
enum { SB_F32, SB_F16, SB_BF16 }; /* the result's format */

typedef struct sfu_bound {
  tc5_sfu_op op;
  int kind;
  double value;     /* SB_ULP*: ulps; SB_REL, SB_ABS: log2 of the bound      */
  double lo, hi;    /* inputs covered: lo <= x <= hi (open: lo < x < hi)     */
  int open;         /* 1: the open interval                                 */
  int outside;      /* 1: positive finite x NOT in the interval (lg2's rel)  */
  const char *section;
  const char *quote;
  double found;     /* the exhaustive run's worst where above the bound      */
  uint32_t found_at; /* its input (the divisions: the divisor)               */
  uint32_t found_b;  /* the divisions: the dividend                          */
} sfu_bound;

#define SB_INF HUGE_VAL
#define SB_PI 3.14159265358979323846
static const sfu_bound sfu_bounds[] = {
    {TC5_SFU_EX2_APPROX_FTZ_F32, SB_ULP_CR, 2, -SB_INF, SB_INF, 0, 0, "9.7.3.21 ex2",
     "The maximum ulp error is 2 ulp from correctly rounded result across the full range of inputs.", 0, 0, 0},
    {TC5_SFU_EX2_APPROX_F32, SB_ULP_CR, 2, -SB_INF, SB_INF, 0, 0, "9.7.3.21 ex2",
     "The maximum ulp error is 2 ulp from correctly rounded result across the full range of inputs.", 0, 0, 0},
    {TC5_SFU_RCP_APPROX_FTZ_F32, SB_ULP, 1, -SB_INF, SB_INF, 0, 0, "9.7.3.13 rcp",
     "rcp.approx.f32 implements a fast approximation to reciprocal. The maximum ulp error is 1 across the full "
     "range of inputs.", 0, 0, 0},
    {TC5_SFU_RCP_APPROX_F32, SB_ULP, 1, -SB_INF, SB_INF, 0, 0, "9.7.3.13 rcp",
     "rcp.approx.f32 implements a fast approximation to reciprocal. The maximum ulp error is 1 across the full "
     "range of inputs.", 0, 0, 0},
    {TC5_SFU_RSQRT_APPROX_FTZ_F32, SB_REL, -22.9, 0, SB_INF, 1, 0, "9.7.3.16 rsqrt",
     "The maximum relative error for rsqrt.f32 over the entire positive finite floating-point range is 2^-22.9.",
     0, 0, 0},
    {TC5_SFU_RSQRT_APPROX_F32, SB_REL, -22.9, 0, SB_INF, 1, 0, "9.7.3.16 rsqrt",
     "The maximum relative error for rsqrt.f32 over the entire positive finite floating-point range is 2^-22.9.",
     0, 0, 0},
    {TC5_SFU_SQRT_APPROX_FTZ_F32, SB_REL, -23, 0, SB_INF, 1, 0, "9.7.3.15 sqrt",
     "sqrt.approx.f32 implements a fast approximation to square root. The maximum relative error over the entire "
     "positive finite floating-point range is 2^-23.", 0, 0, 0},
    {TC5_SFU_SQRT_APPROX_F32, SB_REL, -23, 0, SB_INF, 1, 0, "9.7.3.15 sqrt",
     "sqrt.approx.f32 implements a fast approximation to square root. The maximum relative error over the entire "
     "positive finite floating-point range is 2^-23.", 0, 0, 0},
    {TC5_SFU_LG2_APPROX_FTZ_F32, SB_ABS, -22, 0.5, 2, 1, 0, "9.7.3.20 lg2",
     "The maximum absolute error is 2^-22 when the input operand is in the range (0.5, 2).", 0, 0, 0},
    {TC5_SFU_LG2_APPROX_FTZ_F32, SB_REL, -22, 0.5, 2, 1, 1, "9.7.3.20 lg2",
     "For positive finite inputs outside of this interval, maximum relative error is 2^-22.", 0, 0, 0},
    {TC5_SFU_LG2_APPROX_F32, SB_ABS, -22, 0.5, 2, 1, 0, "9.7.3.20 lg2",
     "The maximum absolute error is 2^-22 when the input operand is in the range (0.5, 2).", 0, 0, 0},
    {TC5_SFU_LG2_APPROX_F32, SB_REL, -22, 0.5, 2, 1, 1, "9.7.3.20 lg2",
     "For positive finite inputs outside of this interval, maximum relative error is 2^-22.", 0, 0, 0},
    {TC5_SFU_SIN_APPROX_FTZ_F32, SB_ABS, -20.5, -2 * SB_PI, 2 * SB_PI, 0, 0, "9.7.3.18 sin",
     "The maximum absolute error over input range is as follows: [-2pi .. 2pi] 2^-20.5", 0, 0, 0},
    {TC5_SFU_SIN_APPROX_FTZ_F32, SB_ABS, -14.7, -100 * SB_PI, 100 * SB_PI, 0, 0, "9.7.3.18 sin",
     "[-100pi .. +100pi] 2^-14.7. Outside of the range [-100pi .. +100pi], only best effort is provided.", 0, 0, 0},
    {TC5_SFU_SIN_APPROX_F32, SB_ABS, -20.5, -2 * SB_PI, 2 * SB_PI, 0, 0, "9.7.3.18 sin",
     "The maximum absolute error over input range is as follows: [-2pi .. 2pi] 2^-20.5", 0, 0, 0},
    {TC5_SFU_SIN_APPROX_F32, SB_ABS, -14.7, -100 * SB_PI, 100 * SB_PI, 0, 0, "9.7.3.18 sin",
     "[-100pi .. +100pi] 2^-14.7. Outside of the range [-100pi .. +100pi], only best effort is provided.", 0, 0, 0},
    {TC5_SFU_COS_APPROX_FTZ_F32, SB_ABS, -20.5, -2 * SB_PI, 2 * SB_PI, 0, 0, "9.7.3.19 cos",
     "The maximum absolute error over input range is as follows: [-2pi .. 2pi] 2^-20.5", 7.09457311e-07, 0xc09ccdb6, 0x00000000},
    {TC5_SFU_COS_APPROX_FTZ_F32, SB_ABS, -14.7, -100 * SB_PI, 100 * SB_PI, 0, 0, "9.7.3.19 cos",
     "[-100pi .. +100pi] 2^-14.7. Outside of the range [-100pi .. +100pi], only best effort is provided.", 0, 0, 0},
    {TC5_SFU_COS_APPROX_F32, SB_ABS, -20.5, -2 * SB_PI, 2 * SB_PI, 0, 0, "9.7.3.19 cos",
     "The maximum absolute error over input range is as follows: [-2pi .. 2pi] 2^-20.5", 7.09457311e-07, 0xc09ccdb6, 0x00000000},
    {TC5_SFU_COS_APPROX_F32, SB_ABS, -14.7, -100 * SB_PI, 100 * SB_PI, 0, 0, "9.7.3.19 cos",
     "[-100pi .. +100pi] 2^-14.7. Outside of the range [-100pi .. +100pi], only best effort is provided.", 0, 0, 0},
    {TC5_SFU_TANH_APPROX_F32, SB_REL, -11, -SB_INF, SB_INF, 0, 0, "9.7.3.22 tanh",
     "The maximum relative error over the entire floating point range is 2^-11.", 0, 0, 0},
    {TC5_SFU_EX2_APPROX_F16, SB_REL, -9.9, -SB_INF, SB_INF, 0, 0, "9.7.4.10 ex2 (half)",
     "The maximum relative error for .f16 type is 2^-9.9.", 1, 0x0000e432, 0x00000000},
    {TC5_SFU_EX2_APPROX_FTZ_BF16, SB_REL, -7, -SB_INF, SB_INF, 0, 0, "9.7.4.10 ex2 (half)",
     "The maximum relative error for .bf16 type is 2^-7.", 0, 0, 0},
    {TC5_SFU_TANH_APPROX_F16, SB_ABS, -10.987, -SB_INF, SB_INF, 0, 0, "9.7.4.9 tanh (half)",
     "The maximum absolute error for .f16 type is 2^-10.987.", 0, 0, 0},
    {TC5_SFU_TANH_APPROX_BF16, SB_ABS, -8, -SB_INF, SB_INF, 0, 0, "9.7.4.9 tanh (half)",
     "The maximum absolute error for .bf16 type is 2^-8.", 0.00390650518, 0x0000bf3f, 0x00000000},
    {TC5_SFU_DIV_APPROX_FTZ_F32, SB_ULP, 2, 0x1p-126, 0x1p126, 0, 0, "9.7.3.8 div",
     "div.approx.f32 implements a fast approximation to divide, computed as d = a * (1/b). For |b| in "
     "[2^-126, 2^126], the maximum ulp error is 2.", 8388608, 0xe44f1c2a, 0x254f1c2a},
    {TC5_SFU_DIV_APPROX_F32, SB_ULP, 2, 0x1p-126, 0x1p126, 0, 0, "9.7.3.8 div",
     "div.approx.f32 implements a fast approximation to divide, computed as d = a * (1/b). For |b| in "
     "[2^-126, 2^126], the maximum ulp error is 2.", 2.14310145, 0x3fecfdfd, 0xfeecdf1e},
    {TC5_SFU_DIV_FULL_FTZ_F32, SB_ULP, 2, -SB_INF, SB_INF, 0, 0, "9.7.3.8 div",
     "div.full.f32 implements a relatively fast, full-range approximation that scales operands to achieve better "
     "accuracy ... The maximum ulp error is 2 across the full range of inputs.", 8388608, 0xe44f1c2a, 0x254f1c2a},
    {TC5_SFU_DIV_FULL_F32, SB_ULP, 2, -SB_INF, SB_INF, 0, 0, "9.7.3.8 div",
     "div.full.f32 implements a relatively fast, full-range approximation that scales operands to achieve better "
     "accuracy ... The maximum ulp error is 2 across the full range of inputs.", 2.14310145, 0x3fecfdfd, 0xfeecdf1e},
};
#define SFU_NBOUNDS (sizeof sfu_bounds / sizeof sfu_bounds[0])

/* ---- the measure ---- */
SB_FN float sb_f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
SB_FN uint32_t sb_u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
SB_FN double sb_half(uint32_t h, int fmt) { /* f16 / bf16 bits to double, exactly */
  if (fmt == SB_BF16) return (double)sb_f(h << 16);
  int e = h >> 10 & 31, m = h & 1023;
  double v = e == 31 ? (m ? NAN : SB_INF) : e ? ldexp(1024.0 + m, e - 25) : ldexp((double)m, -24);
  return h >> 15 ? -v : v;
}
SB_FN int sb_fmt(tc5_sfu_op op) {
  switch (op) {
  case TC5_SFU_EX2_APPROX_F16: case TC5_SFU_TANH_APPROX_F16: return SB_F16;
  case TC5_SFU_EX2_APPROX_FTZ_BF16: case TC5_SFU_TANH_APPROX_BF16: return SB_BF16;
  default: return SB_F32;
  }
}
SB_FN int sb_ftz(tc5_sfu_op op) {
  switch (op) {
  case TC5_SFU_EX2_APPROX_FTZ_F32: case TC5_SFU_RCP_APPROX_FTZ_F32: case TC5_SFU_RSQRT_APPROX_FTZ_F32:
  case TC5_SFU_SQRT_APPROX_FTZ_F32: case TC5_SFU_LG2_APPROX_FTZ_F32: case TC5_SFU_SIN_APPROX_FTZ_F32:
  case TC5_SFU_COS_APPROX_FTZ_F32: case TC5_SFU_EX2_APPROX_FTZ_BF16: case TC5_SFU_DIV_APPROX_FTZ_F32:
  case TC5_SFU_DIV_FULL_FTZ_F32: return 1;
  default: return 0;
  }
}
/* the format's smallest normal, largest finite, and the exponent of its last place at 1 */
SB_FN double sb_min_normal(int fmt) { return fmt == SB_F16 ? 0x1p-14 : 0x1p-126; }
SB_FN double sb_max(int fmt) { return fmt == SB_F16 ? 65504.0 : fmt == SB_BF16 ? 0x1.fep127 : 0x1.fffffep127; }
SB_FN int sb_mant(int fmt) { return fmt == SB_F16 ? 10 : fmt == SB_BF16 ? 7 : 23; }
/* the last place of |v|'s binade in the format (subnormals: the smallest step) */
SB_FN double sb_ulp(double v, int fmt) {
  int e;
  frexp(fabs(v), &e); /* |v| in [2^(e-1), 2^e) */
  double mn = sb_min_normal(fmt);
  if (fabs(v) < mn) return ldexp(mn, -sb_mant(fmt));
  return ldexp(1.0, e - 1 - sb_mant(fmt));
}
/* round v to the format, to nearest even (the correctly rounded result) */
SB_FN double sb_round(double v, int fmt) {
  if (fmt == SB_F32) return (double)(float)v;
  if (v != v || fabs(v) == SB_INF) return v;
  double u = sb_ulp(v, fmt), q = v / u, r = rint(q) * u; /* exact: v / u scales by a power of two */
  return fabs(r) > sb_max(fmt) ? copysign(SB_INF, v) : r;
}
/* the exact value of op at x (as double); b: the divisor */
SB_FN double sb_exact(tc5_sfu_op op, double x, double b) {
  switch (op) {
  case TC5_SFU_EX2_APPROX_FTZ_F32: case TC5_SFU_EX2_APPROX_F32: case TC5_SFU_EX2_APPROX_F16:
  case TC5_SFU_EX2_APPROX_FTZ_BF16: return exp2(x);
  case TC5_SFU_RCP_APPROX_FTZ_F32: case TC5_SFU_RCP_APPROX_F32: return 1.0 / x;
  case TC5_SFU_RSQRT_APPROX_FTZ_F32: case TC5_SFU_RSQRT_APPROX_F32: return 1.0 / sqrt(x);
  case TC5_SFU_SQRT_APPROX_FTZ_F32: case TC5_SFU_SQRT_APPROX_F32: return sqrt(x);
  case TC5_SFU_LG2_APPROX_FTZ_F32: case TC5_SFU_LG2_APPROX_F32: return log2(x);
  case TC5_SFU_SIN_APPROX_FTZ_F32: case TC5_SFU_SIN_APPROX_F32: return sin(x);
  case TC5_SFU_COS_APPROX_FTZ_F32: case TC5_SFU_COS_APPROX_F32: return cos(x);
  case TC5_SFU_TANH_APPROX_F32: case TC5_SFU_TANH_APPROX_F16: case TC5_SFU_TANH_APPROX_BF16: return tanh(x);
  default: return x / b; /* the divisions */
  }
}
/* the ordinal of an f32 / f16 / bf16 word: adjacent values differ by one */
SB_FN int64_t sb_ord(uint32_t w, int fmt) {
  uint32_t s = fmt == SB_F32 ? 31 : 15, mag = w & ((1u << s) - 1);
  return w >> s & 1 ? -(int64_t)mag : (int64_t)mag;
}
SB_FN uint32_t sb_word(double v, int fmt) { /* v already representable in fmt */
  if (fmt == SB_F32) return sb_u((float)v);
  uint32_t f = sb_u((float)v);
  if (fmt == SB_BF16) return f >> 16;
  /* f16: exact by construction */
  uint32_t s = f >> 16 & 0x8000;
  double a = fabs(v);
  if (a == SB_INF) return s | 0x7c00;
  if (a < 0x1p-14) return s | (uint32_t)(a * 0x1p24);
  int e;
  double m = frexp(a, &e); /* a = m 2^e, m in [0.5, 1) */
  return s | (uint32_t)(e + 14) << 10 | ((uint32_t)(m * 2048.0) & 1023);
}

/* The error of result word y of `op` at input word x (b: the divisor's word),
 * in the row's unit; -1 where the row does not cover the input (outside its
 * interval, or a case of the special-value table). */
SB_FN double sb_error(const sfu_bound *r, uint32_t x, uint32_t b, uint32_t y) {
  int fmt = sb_fmt(r->op), ftz = sb_ftz(r->op);
  int div = r->op >= TC5_SFU_DIV_APPROX_FTZ_F32;
  double mn = sb_min_normal(fmt);
  double xv = fmt == SB_F32 ? (double)sb_f(x) : sb_half(x, fmt), bv = div ? (double)sb_f(b) : 0;
  double yv = fmt == SB_F32 ? (double)sb_f(y) : sb_half(y, fmt);
  if (xv != xv || bv != bv) return -1;
  if (ftz && fabs(xv) < mn) xv = copysign(0.0, xv); /* subnormal inputs read as zero */
  if (ftz && div && fabs(bv) < 0x1p-126) bv = copysign(0.0, bv);
  /* the interval: for the divisions it bounds |b| */
  double t = div ? fabs(bv) : xv;
  if (div && (t != t)) return -1;
  if (r->outside) {
    if (!(xv > 0) || xv == SB_INF || (xv > r->lo && xv < r->hi)) return -1;
  } else if (r->open ? !(t > r->lo && t < r->hi) : !(t >= r->lo && t <= r->hi)) {
    return -1;
  }
  if (fabs(xv) == SB_INF || (div && fabs(bv) == SB_INF)) return -1; /* the special-value tables */
  double f = sb_exact(r->op, xv, bv);
  int ex2 = r->op == TC5_SFU_EX2_APPROX_FTZ_F32 || r->op == TC5_SFU_EX2_APPROX_F32;
  if (ex2 && f == SB_INF) return y == 0x7f800000u ? 0 : SB_INF; /* 2^x beyond double's range */
  if (f != f || fabs(f) == SB_INF) return -1; /* 1/0, lg2 0, 0/0: the tables */
  double cr = sb_round(f, fmt);
  if (fabs(cr) == SB_INF) return yv == cr ? 0 : SB_INF; /* the format overflows */
  if (yv != yv || fabs(yv) == SB_INF) return SB_INF;
  /* a flushed result: tiny before rounding, or after (FMUL.FTZ judges at 24 bits, exponent unbounded) */
  if (ftz && yv == 0 && (fabs(f) < mn || fabs(cr) < mn)) return 0;
  switch (r->kind) {
  case SB_ULP_CR: {
    double c = ftz && fabs(cr) < mn ? copysign(0.0, cr) : cr;
    int64_t d = sb_ord(y, fmt) - sb_ord(sb_word(c, fmt), fmt);
    return (double)(d < 0 ? -d : d);
  }
  case SB_ULP: return fabs(yv - f) / sb_ulp(f, fmt);
  case SB_REL: return f == 0 ? (yv == 0 ? 0 : SB_INF) : fabs(yv - f) / fabs(f);
  default: return fabs(yv - f);
  }
}
/* the row's bound in its unit */
SB_FN double sb_limit(const sfu_bound *r) { return r->kind <= SB_ULP ? r->value : exp2(r->value); }

#endif
