/* tc5 PTX runner — floating-point instructions and cvt (PTX ISA
 * "Floating-Point Instructions", "Half Precision Floating-Point
 * Instructions", "Data Movement: cvt").
 *
 * Exact rounding: f32 and f64 operations run on the host's IEEE
 * arithmetic under the instruction's rounding mode (fesetround; this file
 * is compiled with -frounding-math), which is what PTX specifies (.rn .rz
 * .rm .rp are IEEE 754's roundings). .ftz flushes subnormal inputs and
 * results to zero of the same sign; .sat clamps to [0, 1] (NaN to 0). A NaN
 * result is the canonical NaN (f32 0x7fffffff). f16 / bf16 operations are
 * computed exactly in double (every sum or product of two such values is
 * exact there) and rounded once to the format by tc5_fmt_encode.
 * Conversions go through tc5_fmt_encode, the model of CUDA's conversions.
 * The approximate instructions (ex2, rcp, rsqrt, sqrt, lg2, sin, cos, tanh
 * .approx, div.approx, div.full) are the special-function unit's
 * (src/sfu/, measured on the H100); a form it has no model of is refused
 * (TC5_EUNSUPPORTED), never given an undocumented definition. */
#include <fenv.h>
#include <math.h>
#include <string.h>
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

#include "ptx/decode_impl.h"
#include "ptx/float_impl.h"
#include "ptx/f64_nan.h"
#include "sfu/sfu_impl.h"
#include "tc5/formats.h"

enum { F_FTZ = 1u << 0, F_SAT = 1u << 1, F_RELU = 1u << 2, F_SATFINITE = 1u << 3 };
/* in->aux: the IEEE rounding mode (FE_*), in->aux2: operation */

/* an f32's bits with any NaN the canonical one (0x7fffffff) */
static inline uint32_t canon_f32(uint32_t x) {
  return (x & 0x7fffffffu) > 0x7f800000u ? 0x7fffffffu : x; /* a NaN: all-ones exponent, a nonzero fraction */
}
static inline uint64_t bits_f32(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  return canon_f32(x);
}
static inline uint64_t bits_f64(double d) {
  uint64_t x;
  memcpy(&x, &d, 8);
  if ((x & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (x & 0xfffffffffffffull))
    x = 0x7fffffffffffffffull;
  return x;
}
/* .sat: NaN and every value <= 0 (-0 included: the H100 gives +0) to +0 */
static inline float sat32(float f) { return !(f > 0.0f) ? 0.0f : f > 1.0f ? 1.0f : f; }

static uint32_t enc(tc5_type t, double x, tc5_round r, bool satf) {
  if ((t == TC5_BF16 || t == TC5_F16) && r == TC5_ROUND_RN && !satf)
    return tc5__half_encode_rn(x, t == TC5_BF16); /* tc5_fmt_encode's code, inlined */
  uint32_t c = 0;
  tc5_fmt_encode(t, x, r, satf, &c);
  return c;
}
/* a value converted from an f32 source: CUDA's float conversions
 * (tc5_fmt_encode_f32; e.g. a NaN into e5m2 is 0x7f, as on the H100) */
static uint32_t enc_from(tc5_type t, double x, unsigned st, tc5_round r, bool satf) {
  if (st != PT_F32) return enc(t, x, r, satf);
  float f = (float)x;
  uint32_t b, c = 0;
  memcpy(&b, &f, 4);
  tc5_fmt_encode_f32(t, b, r, satf, &c);
  return c;
}

/* ---- f32 / f64 binary and ternary operations ---- */
#include "ptx/half_rows_impl.h" /* OP_ADD.., round_odd, {bf16,f16}_rows */

#define WITH_ROUND(mode, body)                  \
  do {                                          \
    int r__ = (int)(mode);                      \
    if (r__ != FE_TONEAREST) fesetround(r__);   \
    body;                                       \
    if (r__ != FE_TONEAREST) fesetround(FE_TONEAREST); \
  } while (0)

static inline float fmin_ptx(float a, float b) {
  if (a != a) return b;
  if (b != b) return a;
  if (a == b) return signbit(a) ? a : b;
  return a < b ? a : b;
}
static inline float fmax_ptx(float a, float b) {
  if (a != a) return b;
  if (b != b) return a;
  if (a == b) return signbit(a) ? b : a;
  return a > b ? a : b;
}
static inline double dmin_ptx(double a, double b) {
  if (a != a) return b;
  if (b != b) return a;
  if (a == b) return signbit(a) ? a : b;
  return a < b ? a : b;
}
static inline double dmax_ptx(double a, double b) {
  if (a != a) return b;
  if (b != b) return a;
  if (a == b) return signbit(a) ? b : a;
  return a > b ? a : b;
}

/* one f32 operation of add/sub/mul/div/min/max/fma (three-input min/max:
 * z is the third input), under the caller's rounding mode */
enum { F_NAN = 1u << 4, F_ABS = 1u << 5, F_XORSIGN = 1u << 6, F_THREE = 1u << 7 };
static inline float f32_apply(unsigned op, uint32_t mods, float x, float y, float z) {
  if (mods & F_FTZ) x = ftz32(x), y = ftz32(y), z = ftz32(z);
  float r;
  switch (op) {
  case OP_ADD: r = x + y; break;
  case OP_SUB: r = x - y; break;
  case OP_MUL: r = x * y; break;
  case OP_DIV: r = x / y; break;
  case OP_MIN:
  case OP_MAX: {
    /* .NaN: any NaN input gives the canonical NaN; otherwise NaN inputs are
     * ignored. .xorsign.abs: the magnitudes' min/max with the XOR of a's and
     * b's signs; .abs (three inputs): the magnitudes' */
    bool three = mods & F_THREE;
    if ((mods & F_NAN) && (x != x || y != y || (three && z != z))) return NAN;
    bool neg = signbit(x) != signbit(y);
    if (mods & (F_ABS | F_XORSIGN)) x = fabsf(x), y = fabsf(y), z = fabsf(z);
    r = op == OP_MIN ? fmin_ptx(x, y) : fmax_ptx(x, y);
    if (three) r = op == OP_MIN ? fmin_ptx(r, z) : fmax_ptx(r, z);
    if ((mods & F_XORSIGN) && r == r) r = neg ? -r : r;
    break;
  }
  default: r = fmaf(x, y, z); break;
  }
  if (mods & F_FTZ) r = ftz32(r);
  if (mods & F_SAT) r = sat32(r);
  return r;
}
/* add, sub, mul, fma, min and max to nearest without modifiers, one loop
 * each (the common forms; f32_apply's result for them) */
#define F32_PLAIN(n, lo_of, hi_of, put)                                                      \
  do {                                                                                      \
    switch (op) {                                                                           \
    case OP_ADD: PTX_LANES(mask, put(n, F32_IN(lo_of(a)) + F32_IN(lo_of(b)), F32_IN(hi_of(a)) + F32_IN(hi_of(b)))); break; \
    case OP_SUB: PTX_LANES(mask, put(n, F32_IN(lo_of(a)) - F32_IN(lo_of(b)), F32_IN(hi_of(a)) - F32_IN(hi_of(b)))); break; \
    case OP_MUL: PTX_LANES(mask, put(n, F32_IN(lo_of(a)) * F32_IN(lo_of(b)), F32_IN(hi_of(a)) * F32_IN(hi_of(b)))); break; \
    case OP_MIN: PTX_LANES(mask, put(n, fmin_ptx(F32_IN(lo_of(a)), F32_IN(lo_of(b))), fmin_ptx(F32_IN(hi_of(a)), F32_IN(hi_of(b))))); break; \
    case OP_MAX: PTX_LANES(mask, put(n, fmax_ptx(F32_IN(lo_of(a)), F32_IN(lo_of(b))), fmax_ptx(F32_IN(hi_of(a)), F32_IN(hi_of(b))))); break; \
    default:                                                                                \
      PTX_LANES(mask, put(n, fmaf(F32_IN(lo_of(a)), F32_IN(lo_of(b)), F32_IN(lo_of(c))),     \
                          fmaf(F32_IN(hi_of(a)), F32_IN(hi_of(b)), F32_IN(hi_of(c)))));      \
      break;                                                                                \
    }                                                                                       \
  } while (0)
/* the operand and result of a plain form (.ftz: subnormals to zero of their sign, in and out) */
#define F32_IN(x) (ftz ? f32_of(ftz_bits((uint32_t)(x))) : f32_of(x))
#define F32_OUT(f) (ftz ? bits_f32(f32_of(ftz_bits(f32_bits(f)))) : bits_f32(f))
/* ftz32 on the bits: a zero exponent keeps the sign alone */
static inline uint32_t ftz_bits(uint32_t u) { return (u & 0x7f800000u) ? u : u & 0x80000000u; }
static inline uint32_t f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
#define F32_LO(x) ((x)[l])
#define F32_HI(x) ((x)[l] >> 32)
#define F32_PUT1(n, lo, hi) (d[l] = F32_OUT(lo))
#define F32_PUT2(n, lo, hi) (d[l] = F32_OUT(hi) << 32 | F32_OUT(lo))
static bool f32_plain(unsigned op, uint32_t mods, unsigned rnd) {
  return (mods & ~(uint32_t)F_FTZ) == 0 && rnd == FE_TONEAREST && op != OP_DIV;
}

/* fmin_ptx / fmax_ptx's choice between two operands' bits (the float it returns: one of them) */
static inline uint32_t minmax_pick(bool max, uint32_t ua, uint32_t ub) {
  float x = f32_of(ua), y = f32_of(ub);
  uint32_t r = (max ? x > y : x < y) ? ua : ub;          /* a > b ? a : b (a < b for min) */
  r = x == y ? (((ua >> 31) != 0) == max ? ub : ua) : r; /* equal: by a's sign (+0 / -0) */
  r = y != y ? ua : r;                                   /* b NaN: a */
  r = x != x ? ub : r;                                   /* a NaN: b */
  return r;
}
/* min/max.f32 without .ftz of a whole warp, two inputs or three (c NULL: two;
 * f32_apply's fmin_ptx/fmax_ptx of a and b, then of that and c), by rows (a loop
 * the compiler vectorises); the result's bits as bits_f32 makes them (a NaN
 * canonical); d may be a, b or c */
static void minmax_rows(bool max, const uint64_t *a, const uint64_t *b, const uint64_t *c, uint64_t *d) {
  uint32_t t[32];
  if (c)
    for (unsigned l = 0; l < 32; l++) t[l] = minmax_pick(max, minmax_pick(max, (uint32_t)a[l], (uint32_t)b[l]), (uint32_t)c[l]);
  else
    for (unsigned l = 0; l < 32; l++) t[l] = minmax_pick(max, (uint32_t)a[l], (uint32_t)b[l]);
  for (unsigned l = 0; l < 32; l++) {
    d[l] = canon_f32(t[l]); /* bits_f32 */
  }
}
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
/* (session 13, bc) written out by eight lanes a row: the compiler's loops over float arrays took a fifth
 * of upsample_bicubic2d_aa's time. f32_lo8: lanes l..l+7's low halves (their f32 bits) in lane order;
 * f32_canon8: canon_f32 of each; f32_put8: each zero-extended into its lane */
__attribute__((target("avx2"))) static inline __m256 f32_lo8(const uint64_t *p) {
  const __m256i ix = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7); /* a row's low halves into its low 128 bits */
  __m256i x0 = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(const void *)p), ix);
  __m256i x1 = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(p + 4)), ix);
  return _mm256_castsi256_ps(_mm256_permute2x128_si256(x0, x1, 0x20));
}
__attribute__((target("avx2"))) static inline __m256i f32_canon8(__m256 r) {
  __m256i u = _mm256_castps_si256(r);
  __m256i nan = _mm256_cmpgt_epi32(_mm256_and_si256(u, _mm256_set1_epi32(0x7fffffff)), _mm256_set1_epi32(0x7f800000));
  return _mm256_blendv_epi8(u, _mm256_set1_epi32(0x7fffffff), nan);
}
__attribute__((target("avx2"))) static inline void f32_put8(uint64_t *p, __m256i u) {
  _mm256_storeu_si256((__m256i *)(void *)p, _mm256_cvtepu32_epi64(_mm256_castsi256_si128(u)));
  _mm256_storeu_si256((__m256i *)(void *)(p + 4), _mm256_cvtepu32_epi64(_mm256_extracti128_si256(u, 1)));
}
/* add/sub/mul/fma.f32 to nearest without modifiers, a whole warp, by rows in AVX2 with FMA
 * where the host has them (fma: the fused multiply-add's one rounding, as fmaf's; each
 * operation alone: no contraction can join them); the result's bits as bits_f32 makes them
 * (a NaN canonical); d may be a, b or c. false: not such a host, nothing done */
__attribute__((target("avx2,fma"))) static void f32_rows_avx2(unsigned op, const uint64_t *a, const uint64_t *b,
                                                             const uint64_t *c, uint64_t *d) {
  for (unsigned l = 0; l < 32; l += 8) { /* a row's lanes read before they are written: d may be a, b or c */
    __m256 x = f32_lo8(a + l), y = f32_lo8(b + l), r;
    switch (op) {
    case OP_ADD: r = _mm256_add_ps(x, y); break;
    case OP_SUB: r = _mm256_sub_ps(x, y); break;
    case OP_MUL: r = _mm256_mul_ps(x, y); break;
    default: r = _mm256_fmadd_ps(x, y, f32_lo8(c + l)); break;
    }
    f32_put8(d + l, f32_canon8(r));
  }
}
static bool f32_rows(unsigned op, const uint64_t *a, const uint64_t *b, const uint64_t *c, uint64_t *d) {
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) return false;
  f32_rows_avx2(op, a, b, c, d);
  return true;
}
#else
static bool f32_rows(unsigned op, const uint64_t *a, const uint64_t *b, const uint64_t *c, uint64_t *d) {
  (void)op, (void)a, (void)b, (void)c, (void)d;
  return false;
}
#endif
PTX_EXEC_L0(x_f32op) {
  uint64_t *d = PTX_RL(w, in->o[0].reg);
  const uint64_t *a = PTX_RL(w, in->o[1].reg), *b = PTX_RL(w, in->o[2].reg);
  const uint64_t *c = in->nops > 3 ? PTX_RL(w, in->o[3].reg) : b;
  unsigned op = in->aux2;
  uint32_t mods = in->mods;
  if ((op == OP_MIN || op == OP_MAX) && mask == 0xFFFFFFFFu && (mods == 0 || mods == F_THREE)) {
    minmax_rows(op == OP_MAX, a, b, mods == F_THREE ? c : NULL, d); /* the rounding mode changes nothing of them */
    return PX_NEXT;
  }
  if (f32_plain(op, mods, in->aux)) {
    if (mods == 0 && mask == 0xFFFFFFFFu && op != OP_MIN && op != OP_MAX && f32_rows(op, a, b, c, d)) return PX_NEXT;
    bool ftz = mods & F_FTZ; /* two loops: the compiler keeps the test out of them */
    if (ftz) F32_PLAIN(1, F32_LO, F32_LO, F32_PUT1);
    else F32_PLAIN(1, F32_LO, F32_LO, F32_PUT1);
    return PX_NEXT;
  }
  WITH_ROUND(in->aux, PTX_LANES(mask, { d[l] = bits_f32(f32_apply(op, mods, f32_of(a[l]), f32_of(b[l]), f32_of(c[l]))); }));
  return PX_NEXT;
}
/* mixed precision (PTX ISA 8.6, sm_100): add/sub{.rnd}{.sat}.f32.{f16,bf16}
 * d, a, c and fma.rnd{.sat}.f32.{f16,bf16} d, a, b, c: the 16-bit a (and b)
 * taken exactly as f32 (a product of two of them is exact in f32 too), one
 * IEEE rounding; in->type2 the 16-bit type */
PTX_EXEC_L0(x_f32mixed) {
  uint64_t *d = PTX_RL(w, in->o[0].reg);
  bool bf = in->type2 == PT_BF16, fma = in->aux2 == OP_FMA;
  const uint64_t *a = PTX_RL(w, in->o[1].reg), *b = PTX_RL(w, in->o[2].reg);
  const uint64_t *c = PTX_RL(w, in->o[fma ? 3 : 2].reg);
  unsigned op = in->aux2;
  uint32_t mods = in->mods;
  WITH_ROUND(in->aux, PTX_LANES(mask, {
    float x = (float)dec16(a[l], bf), y = fma ? (float)dec16(b[l], bf) : 0.0f;
    d[l] = bits_f32(f32_apply(op, mods, x, fma ? y : f32_of(c[l]), f32_of(c[l])));
  }));
  return PX_NEXT;
}
/* add/sub/mul/fma.f32x2 to nearest without modifiers, a whole warp: the 64 halves
 * as one row of floats (a register's low half first, as in memory), the
 * operation on each, NaN canonical (F32_PLAIN with F32_PUT2: bits_f32 of each
 * half; fma: fmaf's one rounding); a loop the compiler vectorises; d may be a, b or c */
__attribute__((always_inline)) static inline void f32x2_lanes(unsigned op, const uint64_t *a, const uint64_t *b, const uint64_t *c, uint64_t *d) {
  float x[64], y[64], z[64], r[64];
  uint32_t u[64];
  for (unsigned l = 0; l < 32; l++) {
    x[2 * l] = f32_of(a[l]), x[2 * l + 1] = f32_of(a[l] >> 32);
    y[2 * l] = f32_of(b[l]), y[2 * l + 1] = f32_of(b[l] >> 32);
  }
  if (op == OP_FMA) /* c only where it is read */
    for (unsigned l = 0; l < 32; l++) z[2 * l] = f32_of(c[l]), z[2 * l + 1] = f32_of(c[l] >> 32);
  if (op == OP_ADD)
    for (unsigned i = 0; i < 64; i++) r[i] = x[i] + y[i];
  else if (op == OP_SUB)
    for (unsigned i = 0; i < 64; i++) r[i] = x[i] - y[i];
  else if (op == OP_MUL)
    for (unsigned i = 0; i < 64; i++) r[i] = x[i] * y[i];
  else
    for (unsigned i = 0; i < 64; i++) r[i] = __builtin_fmaf(x[i], y[i], z[i]);
  for (unsigned i = 0; i < 64; i++) {
    uint32_t v;
    memcpy(&v, &r[i], 4);
    u[i] = canon_f32(v); /* bits_f32 */
  }
  for (unsigned l = 0; l < 32; l++) d[l] = (uint64_t)u[2 * l + 1] << 32 | u[2 * l];
}
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
/* (issue 50, bc: upsample_bicubic2d_aa's 15 fma.rn.f32x2 an iteration) in AVX2 with FMA where the host has
 * them: fmaf one vfmadd a pair of lanes instead of a call */
__attribute__((target("avx2,fma"))) static void f32x2_lanes_avx2(unsigned op, const uint64_t *a, const uint64_t *b,
                                                                 const uint64_t *c, uint64_t *d) {
  /* (session 13, bc) written out: four lanes' eight halves a row, in memory's order (low half first) */
  for (unsigned l = 0; l < 32; l += 4) { /* a row's lanes read before they are written: d may be a, b or c */
    __m256 x = _mm256_loadu_ps((const float *)(const void *)(a + l)), y = _mm256_loadu_ps((const float *)(const void *)(b + l)), r;
    switch (op) {
    case OP_ADD: r = _mm256_add_ps(x, y); break;
    case OP_SUB: r = _mm256_sub_ps(x, y); break;
    case OP_MUL: r = _mm256_mul_ps(x, y); break;
    default: r = _mm256_fmadd_ps(x, y, _mm256_loadu_ps((const float *)(const void *)(c + l))); break;
    }
    _mm256_storeu_si256((__m256i *)(void *)(d + l), f32_canon8(r));
  }
}
static void f32x2_rows(unsigned op, const uint64_t *a, const uint64_t *b, const uint64_t *c, uint64_t *d) {
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) f32x2_lanes_avx2(op, a, b, c, d);
  else f32x2_lanes(op, a, b, c, d);
}
#else
static void f32x2_rows(unsigned op, const uint64_t *a, const uint64_t *b, const uint64_t *c, uint64_t *d) {
  f32x2_lanes(op, a, b, c, d);
}
#endif
/* .f32x2 (sm_100): the same operation on each 32-bit half of .b64 registers */
static PTX_EXEC(x_f32x2op) {
  uint64_t *d = PTX_R(w, in->o[0].reg);
  const uint64_t *a = PTX_R(w, in->o[1].reg), *b = PTX_R(w, in->o[2].reg);
  const uint64_t *c = in->nops > 3 ? PTX_R(w, in->o[3].reg) : b;
  unsigned op = in->aux2;
  uint32_t mods = in->mods;
  if (f32_plain(op, mods, in->aux) && mods == 0 && mask == 0xFFFFFFFFu &&
      (op == OP_ADD || op == OP_SUB || op == OP_MUL || op == OP_FMA)) {
    f32x2_rows(op, a, b, c, d);
    return PX_NEXT;
  }
  if (f32_plain(op, mods, in->aux)) {
    bool ftz = mods & F_FTZ;
    if (ftz) F32_PLAIN(2, F32_LO, F32_HI, F32_PUT2);
    else F32_PLAIN(2, F32_LO, F32_HI, F32_PUT2);
    return PX_NEXT;
  }
  WITH_ROUND(in->aux, PTX_LANES(mask, {
    uint64_t lo = bits_f32(f32_apply(op, mods, f32_of(a[l]), f32_of(b[l]), f32_of(c[l])));
    uint64_t hi = bits_f32(f32_apply(op, mods, f32_of(a[l] >> 32), f32_of(b[l] >> 32), f32_of(c[l] >> 32)));
    d[l] = hi << 32 | lo;
  }));
  return PX_NEXT;
}
PTX_EXEC_L0(x_f64op) {
  uint64_t *d = PTX_RL(w, in->o[0].reg);
  const uint64_t *a = PTX_RL(w, in->o[1].reg), *b = PTX_RL(w, in->o[2].reg);
  const uint64_t *c = in->aux2 == OP_FMA ? PTX_RL(w, in->o[3].reg) : b;
  unsigned op = in->aux2;
  WITH_ROUND(in->aux, PTX_LANES(mask, {
    double x = f64_of(a[l]), y = f64_of(b[l]), r;
    if (op == OP_MIN || op == OP_MAX) {
      /* one NaN: the other operand; two: b quieted */
      if (f64_is_nan(a[l]) && f64_is_nan(b[l])) d[l] = b[l] | F64_QUIET;
      else d[l] = f64_made(op == OP_MIN ? dmin_ptx(x, y) : dmax_ptx(x, y));
      continue;
    }
    /* the operand order in which a NaN is taken (f64_nan.h) */
    uint64_t ops[3] = {b[l], a[l], 0}, nan;
    unsigned n = 2;
    if (op == OP_FMA) ops[1] = c[l], ops[2] = a[l], n = 3;
    if (op == OP_DIV) ops[0] = a[l], ops[1] = b[l];
    if (f64_nan_operand(ops, n, &nan)) {
      d[l] = nan;
      continue;
    }
    switch (op) {
    case OP_ADD: r = x + y; break;
    case OP_SUB: r = x - y; break;
    case OP_MUL: r = x * y; break;
    case OP_DIV: r = x / y; break;
    default: r = fma(x, y, f64_of(c[l])); break;
    }
    d[l] = f64_made(r);
  }));
  return PX_NEXT;
}
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
/* f16_rows in AVX2 where the host has it (the same loops, vectorised 8 lanes a step) */
__attribute__((target("avx2"))) static void f16_rows_avx2(unsigned fop, unsigned op, unsigned n, const uint64_t *a,
                                                        const uint64_t *b, uint64_t *d) {
  f16_rows(fop, op, n, a, b, d);
}
static void f16_rows_host(unsigned fop, unsigned op, unsigned n, const uint64_t *a, const uint64_t *b, uint64_t *d) {
  if (PTX_HAS_AVX2()) f16_rows_avx2(fop, op, n, a, b, d);
  else f16_rows(fop, op, n, a, b, d);
}
#else
static void f16_rows_host(unsigned fop, unsigned op, unsigned n, const uint64_t *a, const uint64_t *b, uint64_t *d) {
  f16_rows(fop, op, n, a, b, d);
}
#endif
/* f16 / bf16 (and the x2 forms: in->vec = 2): rounded once, from the
 * double rounded to odd */
static PTX_EXEC(x_h16op) {
  uint64_t *d = PTX_R(w, in->o[0].reg);
  const uint64_t *a = PTX_R(w, in->o[1].reg), *b = PTX_R(w, in->o[2].reg);
  const uint64_t *c = in->aux2 == OP_FMA ? PTX_R(w, in->o[3].reg) : b;
  bool bf = in->type == PT_BF16 || in->type == PT_BF16X2;
  unsigned n = in->vec, op = in->aux2;
  bool relu = in->mods & F_RELU, sat = in->mods & F_SAT, nan = in->mods & F_NAN, xs = in->mods & F_XORSIGN;
  tc5_type t = bf ? TC5_BF16 : TC5_F16;
  if (!relu && !sat && !nan && !xs && op != OP_MIN && op != OP_MAX) {
    /* the plain forms: one loop an operator (round_odd inlined for it), the same results */
#define H16_LOOP(OPC, ZOF)                                                                       \
  PTX_LANES(mask, {                                                                             \
    uint64_t r = 0;                                                                             \
    for (unsigned k = 0; k < n; k++) {                                                          \
      double x = dec16(a[l] >> (16 * k), bf), y = dec16(b[l] >> (16 * k), bf), z = ZOF;         \
      r |= (uint64_t)tc5__half_encode_rn(round_odd(OPC, x, y, z), bf) << (16 * k);              \
    }                                                                                           \
    d[l] = r;                                                                                   \
  })
    if (op == OP_ADD || op == OP_SUB || op == OP_MUL) {
      /* f16 and bf16 add/sub/mul: in f32 when that result is exact (tc5__f16_arith_fast,
       * tc5__bf16_arith_fast), the general way otherwise; the same codes (every operand pair
       * compared: test_half_rows) */
      unsigned fop = op == OP_ADD ? 0 : op == OP_SUB ? 1 : 2;
      if (mask == 0xFFFFFFFFu) {
        if (bf) bf16_rows(fop, op, n, a, b, d);
        else f16_rows_host(fop, op, n, a, b, d);
        return PX_NEXT;
      }
      PTX_LANES(mask, {
        uint64_t r = 0;
        for (unsigned k = 0; k < n; k++) {
          uint32_t code, xa = (uint32_t)(a[l] >> (16 * k)), xb = (uint32_t)(b[l] >> (16 * k));
          if (!(bf ? tc5__bf16_arith_fast(fop, xa, xb, &code) : tc5__f16_arith_fast(fop, xa, xb, &code)))
            code = h16_general(op, xa, xb, bf);
          r |= (uint64_t)code << (16 * k);
        }
        d[l] = r;
      });
      return PX_NEXT;
    }
    switch (op) {
    case OP_ADD: H16_LOOP(OP_ADD, 0.0); break;
    case OP_SUB: H16_LOOP(OP_SUB, 0.0); break;
    case OP_MUL: H16_LOOP(OP_MUL, 0.0); break;
    default: H16_LOOP(op, dec16(c[l] >> (16 * k), bf)); break;
    }
#undef H16_LOOP
    return PX_NEXT;
  }
  PTX_LANES(mask, {
    uint64_t r = 0;
    for (unsigned k = 0; k < n; k++) {
      double x = dec16(a[l] >> (16 * k), bf), y = dec16(b[l] >> (16 * k), bf), z = dec16(c[l] >> (16 * k), bf), v;
      if (op == OP_MIN || op == OP_MAX) {
        bool neg = signbit(x) != signbit(y);
        if (xs) x = fabs(x), y = fabs(y);
        v = op == OP_MIN ? dmin_ptx(x, y) : dmax_ptx(x, y);
        if (xs && v == v && neg) v = -v;
        if (nan && (x != x || y != y)) v = NAN;
      } else {
        v = round_odd(op, x, y, z);
      }
      if (sat) v = !(v > 0) ? 0 : v > 1 ? 1 : v;
      if (relu && !(v > 0) && v == v) v = 0;
      r |= (uint64_t)enc(t, v, TC5_ROUND_RN, false) << (16 * k);
    }
    d[l] = r;
  });
  return PX_NEXT;
}

/* an approximate instruction: the special-function unit's function for
 * every lane (in->aux: the tc5_sfu_op; a second operand for the divisions) */
static PTX_EXEC(x_sfu) {
  tc5__sfu_fn f = tc5__sfu_fn_of((tc5_sfu_op)in->aux);
  uint64_t *d = PTX_R(w, in->o[0].reg);
  if (mask == 0xFFFFFFFFu && (in->aux == TC5_SFU_EX2_APPROX_F32 || in->aux == TC5_SFU_EX2_APPROX_FTZ_F32)) {
    tc5__sfu_ex2_rows(PTX_R(w, in->o[1].reg), d, in->aux == TC5_SFU_EX2_APPROX_FTZ_F32); /* f of each lane */
    return PX_NEXT;
  }
  const uint64_t *a = PTX_R(w, in->o[1].reg), *b = in->nops > 2 ? PTX_R(w, in->o[2].reg) : a;
  tc5__sfu_rcp_fn rcp;
  tc5__sfu_by_fn by;
  tc5__sfu_div_steps((tc5_sfu_op)in->aux, &rcp, &by);
  if (mask == 0xFFFFFFFFu && in->aux == TC5_SFU_DIV_FULL_F32) {
    tc5__sfu_div_full_rows(a, b, d); /* the same, the dividends' step vectorised */
    return PX_NEXT;
  }
  if (rcp) { /* div.full: the divisor's reciprocal once for lanes of one divisor (a row's sum) */
    uint32_t last = 0, r = 0;
    bool have = false;
    PTX_LANES(mask, {
      uint32_t bl = (uint32_t)b[l];
      if (!have || bl != last) r = rcp(bl), last = bl, have = true;
      d[l] = by((uint32_t)a[l], bl, r);
    });
    return PX_NEXT;
  }
  PTX_LANES(mask, d[l] = f(a[l], b[l]));
  return PX_NEXT;
}
/* the special-function unit's op for `name` ("ex2.approx.ftz.f32"), its
 * operands (nsrc sources of type t) and x_sfu */
static tc5_status dec_sfu(dctx *d, const char *name, ptx_type t, unsigned nsrc) {
  ptx_insn *in = d->in;
  tc5_sfu_op op;
  tc5_diag dg;
  tc5_diag_init(&dg);
  if (tc5_sfu_lookup(name, &op, &dg)) return d_fail(d, TC5_EUNSUPPORTED, "%s", dg.count ? dg.issue[0].message : name);
  if (!d_nops(d, nsrc + 1, nsrc + 1) || !d_dst(d, 0, &in->o[0])) return d->st;
  for (unsigned k = 1; k <= nsrc; k++)
    if (!d_src(d, k, t, &in->o[k])) return d->st;
  in->type = (uint8_t)t;
  in->aux = (uint32_t)op;
  in->nops = (uint8_t)(nsrc + 1);
  in->fn = x_sfu;
  return TC5_OK;
}

static const char *const rnd_names[] = {"rn", "rz", "rm", "rp", NULL};
static const int rnd_fe[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};

PTX_DEC(dec_fbin) {
  ptx_insn *in = d->in;
  const char *op = d->tok[0];
  int r = d_take_one(d, rnd_names);
  bool ftz = d_take(d, "ftz"), sat = d_take(d, "sat"), relu = d_take(d, "relu");
  bool approx = d_take(d, "approx"), full = d_take(d, "full");
  bool nan = d_take(d, "NaN"), xorsign = d_take(d, "xorsign"), abs = d_take(d, "abs");
  ptx_type t = d_take_type(d), t2 = d_take_type(d);
  if (t == PT_NONE) return d_fail(d, TC5_EPARSE, "needs a type");
  in->type = (uint8_t)t;
  in->aux = (uint32_t)rnd_fe[r < 0 ? 0 : r];
  in->aux2 = !strcmp(op, "add")   ? OP_ADD
             : !strcmp(op, "sub") ? OP_SUB
             : !strcmp(op, "mul") ? OP_MUL
             : !strcmp(op, "div") ? OP_DIV
             : !strcmp(op, "min") ? OP_MIN
             : !strcmp(op, "max") ? OP_MAX
                                  : OP_FMA;
  bool minmax = in->aux2 == OP_MIN || in->aux2 == OP_MAX;
  if (t2 != PT_NONE) { /* add/sub/fma .f32.{f16,bf16}: mixed precision */
    if (t != PT_F32 || (t2 != PT_F16 && t2 != PT_BF16) ||
        (in->aux2 != OP_ADD && in->aux2 != OP_SUB && in->aux2 != OP_FMA))
      return d_fail(d, TC5_EILLEGAL, "a second type belongs to add/sub/fma .f32.f16/.f32.bf16, not %s.%s.%s", op,
                    ptx_types[t].name, ptx_types[t2].name);
    if (in->aux2 == OP_FMA && r < 0) return d_fail(d, TC5_EILLEGAL, "fma.f32.%s needs a rounding modifier", ptx_types[t2].name);
    if (ftz || relu || approx || full || nan || abs || xorsign)
      return d_fail(d, TC5_EILLEGAL, "mixed-precision %s takes a rounding modifier and .sat only", op);
    unsigned nm = in->aux2 == OP_FMA ? 4 : 3;
    if (!d_nops(d, nm, nm) || !d_dst(d, 0, &in->o[0]) || !d_src(d, 1, t2, &in->o[1])) return d->st;
    if (nm == 4 && !d_src(d, 2, t2, &in->o[2])) return d->st;
    if (!d_src(d, nm - 1, PT_F32, &in->o[nm - 1])) return d->st;
    in->type2 = (uint8_t)t2;
    in->nops = (uint8_t)nm;
    if (sat) in->mods |= F_SAT;
    in->fn = x_f32mixed;
    return TC5_OK;
  }
  if (approx || full) { /* div.approx{.ftz}.f32, div.full{.ftz}.f32: the special-function unit */
    if (in->aux2 != OP_DIV || r >= 0 || sat || relu || nan || abs || xorsign || t2 != PT_NONE)
      return d_fail(d, TC5_EILLEGAL, ".approx/.full belong to div.approx{.ftz}.f32 and div.full{.ftz}.f32 alone");
    char name[64];
    snprintf(name, sizeof name, "div.%s%s.%.8s", approx ? "approx" : "full", ftz ? ".ftz" : "", ptx_types[t].name);
    return dec_sfu(d, name, t, 2);
  }
  if (in->aux2 == OP_DIV && r < 0 && t == PT_F32)
    return d_fail(d, TC5_EILLEGAL, "div.f32 needs .rn/.rz/.rm/.rp, .full or .approx");
  if (in->aux2 == OP_FMA && r < 0) return d_fail(d, TC5_EILLEGAL, "%s.%s needs a rounding modifier", op, ptx_types[t].name);
  if (minmax && r >= 0) return d_fail(d, TC5_EILLEGAL, "%s takes no rounding modifier", op);
  if ((nan || xorsign || abs) && !minmax) return d_fail(d, TC5_EILLEGAL, ".NaN/.xorsign/.abs belong to min and max");
  if (xorsign && !abs) return d_fail(d, TC5_EILLEGAL, ".xorsign needs .abs (min/max .xorsign.abs)");
  /* three-input min/max (PTX ISA 8.8, sm_100): .f32 only, .abs without .xorsign */
  unsigned n = in->aux2 == OP_FMA ? 4 : 3;
  if (minmax && d->r->nops == 4) {
    if (t != PT_F32) return d_fail(d, TC5_EILLEGAL, "three-input %s takes .f32 only, not .%s", op, ptx_types[t].name);
    if (xorsign) return d_fail(d, TC5_EILLEGAL, "three-input %s takes .abs, not .xorsign.abs", op);
    in->mods |= F_THREE;
    n = 4;
  } else if (abs && !xorsign) {
    return d_fail(d, TC5_EILLEGAL, "two-input %s takes .xorsign.abs, not .abs alone", op);
  }
  if (ftz) in->mods |= F_FTZ;
  if (sat) in->mods |= F_SAT;
  if (relu) in->mods |= F_RELU;
  if (nan) in->mods |= F_NAN;
  if (abs) in->mods |= F_ABS;
  if (xorsign) in->mods |= F_XORSIGN;
  if (!d_nops(d, n, n) || !d_dst(d, 0, &in->o[0])) return d->st;
  for (unsigned k = 1; k < n; k++)
    if (!d_src(d, k, t == PT_F32X2 ? PT_B64 : t, &in->o[k])) return d->st;
  in->nops = (uint8_t)n;
  if (t == PT_F32 || t == PT_F32X2) {
    if (relu) return d_fail(d, TC5_EUNSUPPORTED, ".relu is not modelled for f32");
    if (t == PT_F32X2) {
      /* add/sub/mul{.rnd}{.ftz}.f32x2, fma.rnd{.ftz}.f32x2 on .b64
       * registers (PTX ISA 8.6); add/sub/mul without a rounding modifier
       * are .rn; no .sat (ptxas refuses it) */
      if (in->aux2 == OP_DIV || minmax) return d_fail(d, TC5_EILLEGAL, "%s has no .f32x2 form", op);
      if (sat) return d_fail(d, TC5_EILLEGAL, ".f32x2 takes no .sat");
      in->fn = x_f32x2op;
    } else {
      in->fn = x_f32op;
    }
  } else if (t == PT_F64) {
    if (ftz || sat || relu || nan || abs) return d_fail(d, TC5_EILLEGAL, ".ftz/.sat/.relu/.NaN/.abs do not apply to f64");
    in->fn = x_f64op;
  } else if (t == PT_F16 || t == PT_BF16 || t == PT_F16X2 || t == PT_BF16X2) {
    if (r > 0) return d_fail(d, TC5_EUNSUPPORTED, "only .rn is modelled for .%s", ptx_types[t].name);
    if (ftz) return d_fail(d, TC5_EUNSUPPORTED, ".ftz is not modelled for .%s", ptx_types[t].name);
    if (in->aux2 == OP_DIV) return d_fail(d, TC5_EILLEGAL, "div has no .%s form", ptx_types[t].name);
    in->vec = (t == PT_F16X2 || t == PT_BF16X2) ? 2 : 1;
    in->fn = x_h16op;
  } else {
    return d_fail(d, TC5_EUNSUPPORTED, "%s.%s is not modelled", op, ptx_types[t].name);
  }
  return TC5_OK;
}

/* ---- unary: abs neg (exact), rcp sqrt (IEEE-rounded) ---- */
enum { U_ABS, U_NEG, U_RCP, U_SQRT };
PTX_EXEC_L0(x_funary) {
  uint64_t *d = PTX_RL(w, in->o[0].reg);
  const uint64_t *a = PTX_RL(w, in->o[1].reg);
  unsigned op = in->aux2;
  bool ftz = in->mods & F_FTZ;
  if (in->type == PT_F32 && op <= U_NEG && !ftz) { /* the loop's abs/neg without .ftz: the bits, a NaN canonical */
    uint32_t keep = op == U_ABS ? 0x7fffffffu : 0xffffffffu, flip = op == U_NEG ? 0x80000000u : 0;
    PTX_LANES(mask, {
      uint32_t u = (uint32_t)a[l];
      d[l] = (u & 0x7fffffffu) > 0x7f800000u ? 0x7fffffffu : (u & keep) ^ flip;
    });
  } else if (in->type == PT_F32) {
    WITH_ROUND(in->aux, PTX_LANES(mask, {
      float x = f32_of(a[l]), r;
      if (ftz) x = ftz32(x);
      switch (op) {
      case U_ABS: r = fabsf(x); break;
      case U_NEG: r = -x; break;
      case U_RCP: r = 1.0f / x; break;
      default: r = sqrtf(x); break;
      }
      if (ftz) r = ftz32(r);
      /* abs/neg are sign operations, but a NaN comes out as the canonical
       * NaN (the H100: abs.f32 and neg.f32 of 0x7fc00000 give 0x7fffffff) */
      d[l] = op <= U_NEG ? (a[l] & 0xffffffffu) ^ (op == U_NEG ? 0x80000000u : 0) : bits_f32(r);
      if (op == U_ABS) d[l] = (ftz && fpclassify(f32_of(a[l])) == FP_SUBNORMAL) ? 0 : a[l] & 0x7fffffffu;
      if (op == U_NEG && ftz && fpclassify(f32_of(a[l])) == FP_SUBNORMAL) d[l] = (~a[l]) & 0x80000000u;
      if (x != x) d[l] = 0x7fffffffu;
    }));
  } else if (in->type == PT_F64) {
    WITH_ROUND(in->aux, PTX_LANES(mask, {
      double x = f64_of(a[l]);
      /* a NaN comes out quieted, its sign kept, from abs and neg too (f64_nan.h) */
      if (f64_is_nan(a[l])) {
        d[l] = a[l] | F64_QUIET;
        continue;
      }
      switch (op) {
      case U_ABS: d[l] = a[l] & 0x7fffffffffffffffull; break;
      case U_NEG: d[l] = a[l] ^ 0x8000000000000000ull; break;
      case U_RCP: d[l] = f64_made(1.0 / x); break;
      default: d[l] = f64_made(sqrt(x)); break;
      }
    }));
  } else { /* f16 / bf16 / x2: sign operations; a NaN half comes out as 0x7fff (the H100) */
    bool bf = in->type == PT_BF16 || in->type == PT_BF16X2;
    uint16_t em = bf ? 0x7f80 : 0x7c00, mm = bf ? 0x007f : 0x03ff;
    PTX_LANES(mask, {
      uint64_t r = 0;
      for (unsigned k = 0; k < in->vec; k++) {
        uint16_t h = (uint16_t)(a[l] >> (16 * k));
        if ((h & em) == em && (h & mm)) h = 0x7fff;
        else h = op == U_ABS ? h & 0x7fff : h ^ 0x8000;
        r |= (uint64_t)h << (16 * k);
      }
      d[l] = r;
    });
  }
  return PX_NEXT;
}
PTX_DEC(dec_funary) {
  ptx_insn *in = d->in;
  const char *op = d->tok[0];
  int r = d_take_one(d, rnd_names);
  bool ftz = d_take(d, "ftz"), approx = d_take(d, "approx");
  ptx_type t = d_take_type(d);
  if (t == PT_NONE) return d_fail(d, TC5_EPARSE, "needs a type");
  in->type = (uint8_t)t;
  in->aux = (uint32_t)rnd_fe[r < 0 ? 0 : r];
  if (!strcmp(op, "abs")) in->aux2 = U_ABS;
  else if (!strcmp(op, "neg")) in->aux2 = U_NEG;
  else if (!strcmp(op, "rcp") && !approx) in->aux2 = U_RCP;
  else if (!strcmp(op, "sqrt") && !approx) in->aux2 = U_SQRT;
  else { /* ex2 rcp rsqrt sqrt lg2 sin cos tanh .approx: the special-function unit */
    if (!approx) return d_fail(d, TC5_EILLEGAL, "%s needs .approx", op);
    if (r >= 0) return d_fail(d, TC5_EILLEGAL, "%s.approx takes no rounding modifier", op);
    char name[64];
    snprintf(name, sizeof name, "%.16s.approx%s.%.8s", op, ftz ? ".ftz" : "", ptx_types[t].name);
    return dec_sfu(d, name, t == PT_F16X2 || t == PT_BF16X2 ? PT_B32 : t, 1);
  }
  if ((in->aux2 == U_RCP || in->aux2 == U_SQRT) && r < 0)
    return d_fail(d, TC5_EILLEGAL, "%s needs .rn/.rz/.rm/.rp (or .approx)", op);
  if (ftz) in->mods |= F_FTZ;
  if (t == PT_F16 || t == PT_BF16 || t == PT_F16X2 || t == PT_BF16X2) {
    if (in->aux2 > U_NEG) return d_fail(d, TC5_EUNSUPPORTED, "%s.%s is not modelled", op, ptx_types[t].name);
    in->vec = (t == PT_F16X2 || t == PT_BF16X2) ? 2 : 1;
  } else if (t != PT_F32 && t != PT_F64) {
    return d_fail(d, TC5_EUNSUPPORTED, "%s.%s is not modelled", op, ptx_types[t].name);
  }
  if (!d_nops(d, 2, 2) || !d_dst(d, 0, &in->o[0]) || !d_src(d, 1, t, &in->o[1])) return d->st;
  in->fn = x_funary;
  return TC5_OK;
}

/* ---- cvt ---- */
/* in->type = destination, in->type2 = source; in->aux = rounding (0-3 as
 * rnd_names, 4 = rna; +8 for the integer roundings rni rzi rmi rpi);
 * in->mods: F_FTZ F_SAT F_RELU F_SATFINITE */
static tc5_round tc5_rnd(unsigned r) {
  static const tc5_round map[] = {TC5_ROUND_RN, TC5_ROUND_RZ, TC5_ROUND_RM, TC5_ROUND_RP, TC5_ROUND_RNA};
  return map[r & 7];
}
static tc5_type fmt_of(unsigned t) {
  switch (t) {
  case PT_F32: return TC5_F32;
  case PT_F16: case PT_F16X2: return TC5_F16;
  case PT_BF16: case PT_BF16X2: return TC5_BF16;
  case PT_TF32: return TC5_TF32;
  case PT_E4M3: case PT_E4M3X2: return TC5_E4M3;
  case PT_E5M2: case PT_E5M2X2: return TC5_E5M2;
  case PT_E2M1X2: return TC5_E2M1;
  case PT_E2M3X2: return TC5_E2M3;
  case PT_E3M2X2: return TC5_E3M2;
  case PT_UE8M0X2: return TC5_UE8M0;
  default: return TC5_TYPE_NONE;
  }
}
static unsigned code_bits(unsigned t) {
  switch (t) {
  case PT_E2M1X2: return 4;
  case PT_E2M3X2: case PT_E3M2X2: case PT_E4M3X2: case PT_E5M2X2: case PT_UE8M0X2: return 8;
  case PT_F16X2: case PT_BF16X2: return 16;
  default: return ptx_types[t].bits;
  }
}

/* the source value as a double (ints exactly up to 2^53; wider ints are
 * converted separately) */
static double src_val(uint64_t v, unsigned t, bool ftz) {
  char c = ptx_types[t].cls;
  unsigned W = ptx_types[t].bits;
  if (c == 'f') {
    if (t == PT_F32) {
      float f = f32_of(v);
      return ftz ? ftz32(f) : f;
    }
    if (t == PT_F64) return f64_of(v);
    double x = 0;
    tc5_fmt_decode(fmt_of(t), (uint32_t)v & ((1u << code_bits(t)) - 1), &x, NULL);
    return x;
  }
  if (c == 's') return (double)(W >= 64 ? (int64_t)v : (int64_t)(v << (64 - W)) >> (64 - W));
  return (double)v;
}

static uint64_t to_int(double x, unsigned t, unsigned irnd, bool have_irnd) {
  char c = ptx_types[t].cls;
  unsigned W = ptx_types[t].bits;
  if (x != x) return (c == 's' && W == 64) ? 0x8000000000000000ull : 0; /* the H100: NaN to s64 is INT64_MIN */
  if (have_irnd) {
    switch (irnd) {
    case 0: x = nearbyint(x); break; /* to nearest even in the default mode */
    case 1: x = trunc(x); break;
    case 2: x = floor(x); break;
    default: x = ceil(x); break;
    }
  }
  if (c == 's') {
    double lo = -ldexp(1, (int)W - 1), hi = ldexp(1, (int)W - 1);
    if (x < lo) return (uint64_t)(int64_t)lo & (W >= 64 ? ~0ull : (1ull << W) - 1);
    if (x >= hi) return ((1ull << (W - 1)) - 1);
    int64_t i = (int64_t)x;
    return (uint64_t)i & (W >= 64 ? ~0ull : (1ull << W) - 1);
  }
  if (x <= 0) return 0;
  if (x >= ldexp(1, (int)W)) return W >= 64 ? ~0ull : (1ull << W) - 1;
  return (uint64_t)x;
}

/* an unsigned integer as a double rounded to odd at 53 bits: exact below
 * 2^53; above, the bits shifted out become a sticky last bit, so that one
 * later rounding to 51 bits or fewer is the correctly rounded result */
static double odd_double(uint64_t v) {
  if (v < (1ull << 53)) return (double)v;
  unsigned s = 64 - 53 - (unsigned)__builtin_clzll(v);
  uint64_t m = v >> s | ((v & ((1ull << s) - 1)) != 0);
  return ldexp((double)m, (int)s);
}

/* cvt.rn.bf16.f32 of a's lanes (b NULL) or cvt.rn.bf16x2.f32 of a's and b's, by the bits */
static inline void bf16_rn_lanes(uint64_t *d, const uint64_t *a, const uint64_t *b, uint32_t mask) {
  if (b)
    PTX_LANES(mask, d[l] = (uint64_t)tc5__bf16_rn_of_f32((uint32_t)a[l]) << 16 | tc5__bf16_rn_of_f32((uint32_t)b[l]));
  else
    PTX_LANES(mask, d[l] = tc5__bf16_rn_of_f32((uint32_t)a[l]));
}
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
/* the same for a whole warp compiled for AVX2 (issue 50, size: by rows), where the host has it */
__attribute__((target("avx2"))) static void bf16_rn_lanes_avx2(uint64_t *d, const uint64_t *a, const uint64_t *b) {
  bf16_rn_lanes(d, a, b, 0xFFFFFFFFu);
}
static void bf16_rn_rows(uint64_t *d, const uint64_t *a, const uint64_t *b, uint32_t mask) {
  if (PTX_ROWS_AVX2(mask)) bf16_rn_lanes_avx2(d, a, b);
  else bf16_rn_lanes(d, a, b, mask);
}
#else
static void bf16_rn_rows(uint64_t *d, const uint64_t *a, const uint64_t *b, uint32_t mask) {
  bf16_rn_lanes(d, a, b, mask);
}
#endif
static inline void f16_f32_lanes(uint64_t *d, const uint64_t *a, uint32_t mask) {
  if (mask != 0xFFFFFFFFu) {
    PTX_LANES(mask, d[l] = f32_bits_of_f16((uint32_t)a[l] & 0xffffu));
    return;
  }
  uint32_t x[32];
  for (unsigned l = 0; l < 32; l++) x[l] = (uint32_t)a[l] & 0xffffu;
  for (unsigned l = 0; l < 32; l++) x[l] = f32_bits_of_f16(x[l]);
  for (unsigned l = 0; l < 32; l++) d[l] = x[l];
}
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
/* (session 13, bc) by eight lanes a row with F16C's vcvtph2ps where the host has it: a half widened to f32
 * is exact (subnormals, infinities, zeros of both signs), a NaN canonical after it as f32_bits_of_f16's
 * (the compiler's loop of f32_bits_of_f16 took an eighth of the f16 kernel's time) */
__attribute__((target("avx2,f16c"))) static void f16_f32_lanes_avx2(uint64_t *d, const uint64_t *a) {
  for (unsigned l = 0; l < 32; l += 8) { /* a row's lanes read before they are written: d may be a */
    __m256i x = _mm256_and_si256(_mm256_castps_si256(f32_lo8(a + l)), _mm256_set1_epi32(0xffff));
    __m128i h = _mm_packus_epi32(_mm256_castsi256_si128(x), _mm256_extracti128_si256(x, 1)); /* (each below 2^16) */
    f32_put8(d + l, f32_canon8(_mm256_cvtph_ps(h)));
  }
}
/* F16C on the host, asked once (cpuid leaf 1, ECX bit 29): Clang 14's __builtin_cpu_supports knows no "f16c" */
static bool has_f16c(void) {
  static int known; /* 0: not asked yet, 1: no, 2: yes (relaxed atomics: every thread finds the same) */
  int k = __atomic_load_n(&known, __ATOMIC_RELAXED);
  if (!k) {
    unsigned eax, ebx, ecx, edx;
    k = __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & (1u << 29)) ? 2 : 1;
    __atomic_store_n(&known, k, __ATOMIC_RELAXED);
  }
  return k == 2;
}
static void f16_f32_rows(uint64_t *d, const uint64_t *a, uint32_t mask) {
  if (PTX_ROWS_AVX2(mask) && has_f16c()) f16_f32_lanes_avx2(d, a);
  else f16_f32_lanes(d, a, mask);
}
#else
static void f16_f32_rows(uint64_t *d, const uint64_t *a, uint32_t mask) {
  f16_f32_lanes(d, a, mask);
}
#endif
/* the conversions of Triton's bf16/f16 kernels, each lane as x_cvt's
 * general path computes it: a 16-bit float widened to f32 (cvt.f32.bf16:
 * the bits; cvt.f32.f16: exact, a NaN the canonical one), and an f32
 * narrowed to nearest even (cvt.rn.{bf16,f16}{,x2}.f32, no .ftz/.sat/.relu/
 * .satfinite). false: not one of these (x_cvt's loop does it) */
static bool x_cvt_half(ptx_warp *w, const ptx_insn *in, uint32_t mask) {
  unsigned dt = in->type, st = in->type2;
  uint64_t *d = PTX_R(w, in->o[0].reg);
  const uint64_t *a = PTX_R(w, in->o[1].reg);
  if (in->mods & F_RELU) return false;
  if (st == PT_BF16 && dt == PT_F32) {
    PTX_LANES(mask, d[l] = (a[l] & 0xffff) << 16);
    return true;
  }
  if (in->mods || (in->aux & 15) != 0) return false; /* .ftz .sat .satfinite; not .rn, or .rni... */
  if (st == PT_F16 && dt == PT_F32) {
    f16_f32_rows(d, a, mask); /* = bits_f32((float)tc5__half_decode(a & 0xffff, false, NULL)) */
    return true;
  }
  if (st != PT_F32) return false;
  bool bf = dt == PT_BF16 || dt == PT_BF16X2;
  if (!bf && dt != PT_F16 && dt != PT_F16X2) return false;
  if (bf) { /* f32 to bf16 by its bits (tc5__bf16_rn_of_f32: the same codes as tc5__half_encode_rn) */
    bf16_rn_rows(d, a, in->vec == 2 ? PTX_R(w, in->o[2].reg) : NULL, mask);
  } else if (in->vec == 2) { /* cvt.rn.f16x2.f32 d, a, b: a to the upper half (tc5__f16_rn_of_f32: the
                               * same codes as tc5__half_encode_rn of the f32) */
    const uint64_t *b = PTX_R(w, in->o[2].reg);
    PTX_LANES(mask, d[l] = (uint64_t)tc5__f16_rn_of_f32((uint32_t)a[l]) << 16 | tc5__f16_rn_of_f32((uint32_t)b[l]));
  } else {
    PTX_LANES(mask, d[l] = tc5__f16_rn_of_f32((uint32_t)a[l]));
  }
  return true;
}

/* cvt.{rni,rzi,rmi,rpi}{.ftz}.s32.f32 of a warp (issue 50, bc: the index arithmetic of FlagGems'
 * upsample_bicubic2d_aa's kernels, 8 an iteration of the general one): what to_int(src_val()) gives, in
 * float: an f32 rounded to an integral value is the same number in float as in double (an f32 of 2^23 or
 * more is one already); NaN 0, below -2^31 INT32_MIN, from 2^31 INT32_MAX, the result's 32 bits
 * zero-extended as to_int's mask leaves them; branch-free so the loop vectorises. (.ftz keeps the general
 * path: a subnormal rounds up or down to 1 or -1 where its flushed zero gives 0) */
static inline uint64_t s32_of_rounded_f32(float t) {
  uint32_t r = t >= 2147483648.0f ? 0x7fffffffu : t < -2147483648.0f ? 0x80000000u : (uint32_t)(int32_t)t;
  return t != t ? 0 : r;
}
#define CVT_F2I_LOOP(fn, mask) PTX_LANES(mask, d[l] = s32_of_rounded_f32(fn(f32_of(a[l]))))
__attribute__((always_inline)) static inline void cvt_s32_f32_lanes(uint64_t *d, const uint64_t *a, unsigned rnd,
                                                                     uint32_t mask) {
  switch (rnd) {
  case 0: CVT_F2I_LOOP(nearbyintf, mask); break; /* to nearest even in the default mode, as to_int's nearbyint */
  case 1: CVT_F2I_LOOP(truncf, mask); break;
  case 2: CVT_F2I_LOOP(floorf, mask); break;
  default: CVT_F2I_LOOP(ceilf, mask); break;
  }
}
#undef CVT_F2I_LOOP
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
__attribute__((target("avx2"))) static void cvt_s32_f32_lanes_avx2(uint64_t *d, const uint64_t *a, unsigned rnd) {
  cvt_s32_f32_lanes(d, a, rnd, 0xFFFFFFFFu);
}
static void cvt_s32_f32_rows(uint64_t *d, const uint64_t *a, unsigned rnd, uint32_t mask) {
  if (PTX_ROWS_AVX2(mask)) cvt_s32_f32_lanes_avx2(d, a, rnd);
  else cvt_s32_f32_lanes(d, a, rnd, mask);
}
#else
static void cvt_s32_f32_rows(uint64_t *d, const uint64_t *a, unsigned rnd, uint32_t mask) {
  cvt_s32_f32_lanes(d, a, rnd, mask);
}
#endif

static PTX_EXEC(x_cvt) {
  if (x_cvt_half(w, in, mask)) return PX_NEXT; /* (first: it reads nothing of the below) */
  if (in->type == PT_S32 && in->type2 == PT_F32 && (in->aux & 8) && !in->mods) { /* no .ftz nor .sat */
    cvt_s32_f32_rows(PTX_R(w, in->o[0].reg), PTX_R(w, in->o[1].reg), in->aux & 7, mask);
    return PX_NEXT;
  }
  if (in->type == PT_F32 && in->aux == 0 && !in->mods && ptx_types[in->type2].cls != 'f') {
    /* cvt.rn.f32.{s,u}N (no .sat): the loop's integer-to-float conversion in the default mode, no
     * WITH_ROUND, the source's width fixed (issue 50, bc: 9 an iteration of upsample_bicubic2d_aa's general
     * kernel); never a NaN, so bits_f32's canonical test changes nothing */
    uint64_t *d = PTX_R(w, in->o[0].reg);
    const uint64_t *a = PTX_R(w, in->o[1].reg);
    unsigned SW = ptx_types[in->type2].bits;
    if (ptx_types[in->type2].cls == 's' && SW == 32) PTX_LANES(mask, d[l] = f32_bits((float)(int32_t)(uint32_t)a[l]));
    else if (ptx_types[in->type2].cls == 's') PTX_LANES(mask, d[l] = f32_bits((float)sx(a[l], SW)));
    else PTX_LANES(mask, d[l] = f32_bits((float)a[l]));
    return PX_NEXT;
  }
  uint64_t *d = PTX_R(w, in->o[0].reg);
  const uint64_t *a = PTX_R(w, in->o[1].reg);
  const uint64_t *b = in->nops > 2 ? PTX_R(w, in->o[2].reg) : NULL;
  unsigned dt = in->type, st = in->type2, rnd = in->aux & 7;
  bool irnd = in->aux & 8;
  bool ftz = in->mods & F_FTZ, sat = in->mods & F_SAT, relu = in->mods & F_RELU, satf = in->mods & F_SATFINITE;
  char dc = ptx_types[dt].cls, sc = ptx_types[st].cls;
  unsigned DW = ptx_types[dt].bits, SW = ptx_types[st].bits;
  uint64_t dm = wmask(DW), rm = wmask(w->cta->L->m->reg_bits[in->o[0].reg]);
  PTX_LANES(mask, {
    uint64_t v = a[l], r;
    if (dc != 'f' && sc != 'f') {
      /* integer to integer with .sat (dec_cvt gives the others to x_cvt_int): the source extended,
       * saturated to the destination's range */
      int64_t sv = sc == 's' ? sx(v, SW) : 0;
      if (dc == 's') {
        int64_t lo = DW >= 64 ? INT64_MIN : -(1ll << (DW - 1)), hi = DW >= 64 ? INT64_MAX : (1ll << (DW - 1)) - 1;
        if (sc == 's') r = (uint64_t)(sv < lo ? lo : sv > hi ? hi : sv) & dm;
        else r = v > (uint64_t)hi ? (uint64_t)hi : v;
      } else {
        uint64_t hi = dm;
        if (sc == 's') r = sv < 0 ? 0 : (uint64_t)sv > hi ? hi : (uint64_t)sv;
        else r = v > hi ? hi : v;
      }
      /* a signed result narrower than its register is sign-extended to it
       * (the H100: cvt.sat.s8.s32 into a .b32 register gives 0xffffff80) */
      if (dc == 's' && DW < 64 && ((r >> (DW - 1)) & 1)) r |= ~dm;
      r &= rm;
    } else if (dc != 'f') {
      r = to_int(src_val(v, st, ftz), dt, rnd, irnd);
    } else if (sc != 'f') {
      /* integer to float under the rounding mode */
      int64_t sv = sc == 's' ? sx(v, SW) : 0;
      if (dt == PT_F32) {
        float f;
        WITH_ROUND(rnd_fe[rnd], f = sc == 's' ? (float)sv : (float)v);
        if (sat) f = sat32(f);
        r = bits_f32(f);
      } else if (dt == PT_F64) {
        double f;
        WITH_ROUND(rnd_fe[rnd], f = sc == 's' ? (double)sv : (double)v);
        r = bits_f64(f);
      } else {
        /* f16 / bf16: an integer of up to 64 bits rounded once (odd_double
         * keeps it exact enough for an 8- or 11-bit significand) */
        bool ng = sc == 's' && sv < 0;
        double x = odd_double(sc == 's' ? (ng ? 0 - (uint64_t)sv : (uint64_t)sv) : v);
        if (ng) x = -x;
        if (sat) x = x < 0 ? 0 : x > 1 ? 1 : x;
        r = enc(fmt_of(dt), x, tc5_rnd(rnd), satf);
      }
    } else {
      /* float to float; bf16 to f32 is exact, NaN payloads too (the H100) */
      double x = src_val(v, st, ftz);
      if (st == PT_BF16 && dt == PT_F32 && !relu) {
        d[l] = (v & 0xffff) << 16;
        continue;
      }
      if (irnd) { /* round to an integral value in the same type */
        switch (rnd) {
        case 0: x = nearbyint(x); break;
        case 1: x = trunc(x); break;
        case 2: x = floor(x); break;
        default: x = ceil(x); break;
        }
      }
      if (relu && !(x > 0) && x == x) x = 0; /* -0 too: the H100 gives +0 */
      if (dt == PT_F64) {
        r = bits_f64(x);
        /* an f32 NaN keeps its sign and payload, quieted (the H100, f64_nan.h) */
        if (st == PT_F32 && x != x) r = (v >> 31 & 1) << 63 | 0x7ff0000000000000ull | (v & 0x7fffffull) << 29 | F64_QUIET;
      } else if (in->vec == 2) {
        /* cvt.rn.f16x2.f32 d, a, b: a to the upper half, b to the lower */
        double y = src_val(b[l], st, ftz);
        if (relu && !(y > 0) && y == y) y = 0;
        unsigned cb = code_bits(dt);
        uint64_t hi = enc_from(fmt_of(dt), x, st, tc5_rnd(rnd), satf), lo = enc_from(fmt_of(dt), y, st, tc5_rnd(rnd), satf);
        r = hi << cb | lo;
      } else if (dt == PT_F32) {
        float f;
        if (st == PT_F64) r = enc(TC5_F32, x, tc5_rnd(rnd), false);
        else {
          f = (float)x;
          r = bits_f32(f);
        }
        f = f32_of(r);
        if (ftz) f = ftz32(f);
        if (sat) f = sat32(f);
        r = bits_f32(f);
        /* an f64 NaN keeps its sign and the payload's top 22 bits, quieted
         * (the H100, cvt.rn.f32.f64; f64_nan.h) */
        if (st == PT_F64 && f64_is_nan(v) && !sat) r = (v >> 63) << 31 | 0x7fc00000u | (uint32_t)(v >> 29 & 0x3fffffu);
      } else {
        r = enc_from(fmt_of(dt), x, st, tc5_rnd(rnd), satf);
        if (sat && dt != PT_TF32) {
          double y = 0;
          tc5_fmt_decode(fmt_of(dt), (uint32_t)r, &y, NULL);
          if (y != y || y < 0) r = 0;
          else if (y > 1) r = enc(fmt_of(dt), 1.0, TC5_ROUND_RN, false);
        }
      }
    }
    d[l] = r;
  });
  return PX_NEXT;
}

/* cvt between integers without .sat (cvt.s64.s32, cvt.u64.u32, cvt.u32.u64: the index arithmetic of
 * Triton's kernels), chosen by dec_cvt (x_cvt takes those with .sat), the instruction's types fixed before
 * the loop (p53): the source sign- or zero-extended from its width,
 * cut to the destination's, a signed destination narrower than 64 bits sign-extended, cut to the register */
PTX_EXEC_L0(x_cvt_int) {
  uint64_t *d = PTX_RL(w, in->o[0].reg);
  const uint64_t *a = PTX_RL(w, in->o[1].reg);
  unsigned DW = ptx_types[in->type].bits, SW = ptx_types[in->type2].bits;
  uint64_t dm = wmask(DW), rm = wmask(w->cta->L->m->reg_bits[in->o[0].reg]);
  bool ss = ptx_types[in->type2].cls == 's', ds = ptx_types[in->type].cls == 's' && DW < 64;
  if (!ss && !ds) {
    uint64_t m = dm & rm;
    PTX_LANES(mask, d[l] = a[l] & m);
  } else if (ss && !ds && SW == 32 && DW == 64) {
    PTX_LANES(mask, d[l] = (uint64_t)(int64_t)(int32_t)(uint32_t)a[l] & rm);
  } else {
    PTX_LANES(mask, {
      uint64_t r = (ss ? (uint64_t)sx(a[l], SW) : a[l]) & dm;
      d[l] = (ds ? (uint64_t)sx(r, DW) : r) & rm;
    });
  }
  return PX_NEXT;
}

/* cvt.f32.f16x2-style unpacking (cvt.rn.f16x2.e4m3x2 d, a): n codes of
 * the source into n halves of the destination */
static PTX_EXEC(x_cvt_unpack) {
  uint64_t *d = PTX_R(w, in->o[0].reg);
  const uint64_t *a = PTX_R(w, in->o[1].reg);
  unsigned dt = in->type, st = in->type2;
  unsigned sb = code_bits(st), db = ptx_types[dt].bits / 2;
  bool relu = in->mods & F_RELU;
  PTX_LANES(mask, {
    uint64_t r = 0;
    for (unsigned k = 0; k < 2; k++) {
      double x = 0;
      tc5_fmt_decode(fmt_of(st), (uint32_t)(a[l] >> (sb * k)) & ((1u << sb) - 1), &x, NULL);
      if (relu && x < 0) x = 0;
      r |= (uint64_t)enc(fmt_of(dt), x, TC5_ROUND_RN, false) << (db * k);
    }
    d[l] = r;
  });
  return PX_NEXT;
}

/* cvt.rn{.relu}{.satfinite}.{e4m3x2,e5m2x2}.{f16x2,bf16x2} d, a: each half of a to a code, the
 * lower half to the lower byte, rounded once. Every f16 and bf16 is an f32, and converts as an
 * f32 does (enc_from: a NaN half gives 0x7f whatever its sign and payload, as the H100 gives it);
 * the f16x2 forms checked on the H100 (tests/data/ptx/f64nan/half_pack.ptx), bf16x2 is sm_100's */
static PTX_EXEC(x_cvt_pack) {
  uint64_t *d = PTX_R(w, in->o[0].reg);
  const uint64_t *a = PTX_R(w, in->o[1].reg);
  unsigned dt = in->type, se = in->type2 == PT_F16X2 ? PT_F16 : PT_BF16, cb = code_bits(dt);
  bool relu = in->mods & F_RELU, satf = in->mods & F_SATFINITE;
  PTX_LANES(mask, {
    uint64_t r = 0;
    for (unsigned k = 0; k < 2; k++) {
      double x = src_val(a[l] >> (16 * k) & 0xffff, se, false);
      if (relu && !(x > 0) && x == x) x = 0;
      r |= (uint64_t)enc_from(fmt_of(dt), x, PT_F32, tc5_rnd(in->aux & 7), satf) << (cb * k);
    }
    d[l] = r;
  });
  return PX_NEXT;
}

PTX_DEC(dec_cvt) {
  ptx_insn *in = d->in;
  static const char *const rn[] = {"rn", "rz", "rm", "rp", "rna", "rni", "rzi", "rmi", "rpi", NULL};
  int r = d_take_one(d, rn);
  bool ftz = d_take(d, "ftz"), sat = d_take(d, "sat"), relu = d_take(d, "relu"), satf = d_take(d, "satfinite");
  ptx_type dt = d_take_type(d), st = d_take_type(d);
  if (dt == PT_NONE || st == PT_NONE) return d_fail(d, TC5_EPARSE, "cvt needs two types");
  in->type = (uint8_t)dt;
  in->type2 = (uint8_t)st;
  if (r >= 5) in->aux = (uint32_t)(r - 5) | 8;
  else in->aux = r < 0 ? 0 : (uint32_t)r;
  if (ftz) in->mods |= F_FTZ;
  if (sat) in->mods |= F_SAT;
  if (relu) in->mods |= F_RELU;
  if (satf) in->mods |= F_SATFINITE;
  char dc = ptx_types[dt].cls, sc = ptx_types[st].cls;
  bool dx2 = dt == PT_F16X2 || dt == PT_BF16X2 || dt == PT_E4M3X2 || dt == PT_E5M2X2 || dt == PT_E2M1X2 ||
             dt == PT_E2M3X2 || dt == PT_E3M2X2 || dt == PT_UE8M0X2;
  if (dc == 'p' || sc == 'p') return d_fail(d, TC5_EILLEGAL, "cvt does not take .pred");
  if (dc == 'b' || sc == 'b') return d_fail(d, TC5_EILLEGAL, "cvt takes .u/.s/.f types, not .b");
  /* which conversions need a rounding modifier (PTX ISA, cvt) */
  if (dc == 'f' && sc == 'f') {
    bool narrowing = ptx_types[dt].bits < ptx_types[st].bits || dx2 || dt == PT_TF32 ||
                     (dt == PT_BF16 && st == PT_F16) || (dt == PT_F16 && st == PT_BF16);
    if (narrowing && r < 0 && !(st == PT_E4M3X2 || st == PT_E5M2X2 || st == PT_E2M1X2 || st == PT_E2M3X2 || st == PT_E3M2X2))
      return d_fail(d, TC5_EILLEGAL, "a narrowing float conversion needs a rounding modifier");
    if (!narrowing && r >= 0 && r < 5 && dt != st)
      return d_fail(d, TC5_EILLEGAL, "a widening float conversion takes no .rn/.rz/.rm/.rp");
  } else if (dc != 'f' && sc == 'f') {
    if (r < 5) return d_fail(d, TC5_EILLEGAL, "float to integer needs .rni/.rzi/.rmi/.rpi");
    if (st != PT_F32 && st != PT_F64 && st != PT_F16 && st != PT_BF16)
      return d_fail(d, TC5_EUNSUPPORTED, "cvt from .%s to an integer is not modelled", ptx_types[st].name);
  } else if (dc == 'f' && sc != 'f') {
    if (r < 0 || r >= 4) return d_fail(d, TC5_EILLEGAL, "integer to float needs .rn/.rz/.rm/.rp");
    if (dt != PT_F32 && dt != PT_F64 && dt != PT_F16 && dt != PT_BF16)
      return d_fail(d, TC5_EILLEGAL, "an integer converts to .f16/.bf16/.f32/.f64, not .%s", ptx_types[dt].name);
  } else if (r >= 0) {
    return d_fail(d, TC5_EILLEGAL, "integer to integer takes no rounding modifier");
  }
  if (dt == PT_B128 || st == PT_B128) return d_fail(d, TC5_EUNSUPPORTED, "128-bit cvt is not modelled");
  bool sx2 = st == PT_E4M3X2 || st == PT_E5M2X2 || st == PT_E2M1X2 || st == PT_E2M3X2 || st == PT_E3M2X2 ||
             st == PT_F16X2 || st == PT_BF16X2;
  if (sx2) {
    /* a pair to a pair: fp8 pairs unpacked to f16x2/bf16x2, or f16x2/bf16x2 packed to fp8 pairs */
    bool pack = (st == PT_F16X2 || st == PT_BF16X2) && (dt == PT_E4M3X2 || dt == PT_E5M2X2);
    if (pack && r != 0)
      return d_fail(d, TC5_EILLEGAL, "cvt to .%s from .%s rounds .rn only", ptx_types[dt].name, ptx_types[st].name);
    if (!pack && !(dt == PT_F16X2 || dt == PT_BF16X2)) return d_fail(d, TC5_EUNSUPPORTED, "this unpacking cvt is not modelled");
    if (!d_nops(d, 2, 2) || !d_dst(d, 0, &in->o[0]) || !d_src(d, 1, st, &in->o[1])) return d->st;
    in->fn = pack ? x_cvt_pack : x_cvt_unpack;
    return TC5_OK;
  }
  if (dx2) {
    in->vec = 2;
    if (!d_nops(d, 3, 3) || !d_dst(d, 0, &in->o[0]) || !d_src(d, 1, st, &in->o[1]) || !d_src(d, 2, st, &in->o[2]))
      return d->st;
  } else if (!d_nops(d, 2, 2) || !d_dst(d, 0, &in->o[0]) || !d_src(d, 1, st, &in->o[1])) {
    return d->st;
  }
  in->fn = dc != 'f' && sc != 'f' && !sat ? x_cvt_int : x_cvt;
  return TC5_OK;
}

/* the functions built for lane 0 too (PTX_EXEC_L0) and those builds: run.c's run of hits */
ptx_exec_fn ptx_float_lane0(ptx_exec_fn fn) {
  static const ptx_lane0_pair t[] = {
    {x_cvt_int, x_cvt_int_l0},
    {x_f32op, x_f32op_l0},
    {x_f32mixed, x_f32mixed_l0},
    {x_f64op, x_f64op_l0},
    {x_funary, x_funary_l0},
  };
  return ptx_lane0_find(t, sizeof t / sizeof t[0], fn);
}
