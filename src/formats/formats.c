/* tc5 — element formats: exact decode, classification and CUDA-exact
 * encode of every tcgen05 element type. The formats' parameters (widths,
 * bias, Inf/NaN rules) are data in spec_tables.c; this file has one decoder
 * and one rounder that read them. */
#include <math.h>
#include <string.h>
#include <strings.h>

#include "formats/half_impl.h"
#include "spec/spec_tables.h"
#include "tc5/formats.h"

const char *tc5_fclass_name(tc5_fclass c) {
  switch (c) {
  case TC5_FCLASS_ZERO: return "zero";
  case TC5_FCLASS_SUBNORMAL: return "subnormal";
  case TC5_FCLASS_NORMAL: return "normal";
  case TC5_FCLASS_INF: return "infinity";
  case TC5_FCLASS_NAN: return "NaN";
  }
  return "?";
}

const char *tc5_round_name(tc5_round r) {
  switch (r) {
  case TC5_ROUND_RN: return "rn";
  case TC5_ROUND_RZ: return "rz";
  case TC5_ROUND_RP: return "rp";
  case TC5_ROUND_RM: return "rm";
  case TC5_ROUND_RNA: return "rna";
  }
  return "?";
}

tc5_status tc5_round_parse(const char *text, tc5_round *r) {
  static const char *names[] = {"rn", "rz", "rp", "rm", "rna"};
  if (!text || !r) return TC5_EINVAL;
  for (int i = 0; i < 5; i++)
    if (!strcasecmp(text, names[i])) {
      *r = (tc5_round)i;
      return TC5_OK;
    }
  return TC5_EINVAL;
}

/* the code's usable bits: tf32 keeps the f32 container, ue4m3 drops bit 7 */
static bool code_in_range(const tc5_type_info *ti, uint32_t code) {
  return ti->bits >= 32 || (code >> ti->bits) == 0;
}

tc5_status tc5_fmt_fields_of(tc5_type t, uint32_t code, tc5_fmt_fields *f) {
  const tc5_type_info *ti = tc5_spec_type(t);
  if (!ti || !f) return TC5_EINVAL;
  if (!ti->is_float) return TC5_EINVAL;
  if (!code_in_range(ti, code)) return TC5_ERANGE;
  memset(f, 0, sizeof *f);
  unsigned m = ti->man_bits, e = ti->exp_bits;
  uint32_t c = code;
  if (t == TC5_TF32) c >>= 13; /* read the f32 container as 1.8.10 */
  if (t == TC5_UE4M3) c &= 0x7F;
  f->exp_bits = e;
  f->man_bits = m;
  f->bias = ti->bias;
  f->sign = ti->has_sign ? (c >> (e + m)) & 1u : 0;
  f->exponent = (c >> m) & ((1u << e) - 1u);
  f->mantissa = c & ((1u << m) - 1u);
  f->unbiased = (f->exponent ? (int)f->exponent : 1) - ti->bias;
  return TC5_OK;
}

tc5_status tc5_fmt_decode(tc5_type t, uint32_t code, double *value, tc5_fclass *cls) {
  if ((t == TC5_BF16 || t == TC5_F16) && code <= 0xffffu) { /* half_impl.h: the same value and class */
    double v = tc5__half_decode(code, t == TC5_BF16, cls);
    if (value) *value = v;
    return TC5_OK;
  }
  return tc5__fmt_decode_generic(t, code, value, cls);
}

tc5_status tc5__fmt_decode_generic(tc5_type t, uint32_t code, double *value, tc5_fclass *cls) {
  const tc5_type_info *ti = tc5_spec_type(t);
  if (!ti) return TC5_EINVAL;
  if (!code_in_range(ti, code)) return TC5_ERANGE;
  double v;
  tc5_fclass c;
  switch (ti->special) {
  case TC5_SPECIAL_INT:
    if (t == TC5_S8) v = (double)(int8_t)(uint8_t)code;
    else if (t == TC5_U8) v = (double)code;
    else v = (double)(int32_t)code;
    c = v == 0 ? TC5_FCLASS_ZERO : TC5_FCLASS_NORMAL;
    break;
  case TC5_SPECIAL_E8M0:
    if (code == 0xFF) {
      v = NAN;
      c = TC5_FCLASS_NAN;
    } else {
      v = ldexp(1.0, (int)code - 127);
      c = TC5_FCLASS_NORMAL;
    }
    break;
  default: {
    tc5_fmt_fields f;
    tc5_fmt_fields_of(t, code, &f);
    unsigned emax = (1u << f.exp_bits) - 1u, mmax = (1u << f.man_bits) - 1u;
    if (ti->special == TC5_SPECIAL_IEEE && f.exponent == emax) {
      c = f.mantissa ? TC5_FCLASS_NAN : TC5_FCLASS_INF;
      v = f.mantissa ? NAN : INFINITY;
    } else if (ti->special == TC5_SPECIAL_FN && f.exponent == emax && f.mantissa == mmax) {
      c = TC5_FCLASS_NAN;
      v = NAN;
    } else if (f.exponent == 0) {
      c = f.mantissa ? TC5_FCLASS_SUBNORMAL : TC5_FCLASS_ZERO;
      v = ldexp((double)f.mantissa, 1 - f.bias - (int)f.man_bits);
    } else {
      c = TC5_FCLASS_NORMAL;
      v = ldexp((double)((1u << f.man_bits) + f.mantissa),
                (int)f.exponent - f.bias - (int)f.man_bits);
    }
    if (f.sign) v = -v;
  }
  }
  if (value) *value = v;
  if (cls) *cls = c;
  return TC5_OK;
}

/* ---- encode ------------------------------------------------------------------ */

/* magnitude rounding of a non-negative double to an integer */
typedef enum { MAG_NEAREST_EVEN, MAG_NEAREST_AWAY, MAG_DOWN, MAG_UP } mag_round;

static mag_round mag_mode(tc5_round r, bool neg) {
  switch (r) {
  case TC5_ROUND_RN: return MAG_NEAREST_EVEN;
  case TC5_ROUND_RNA: return MAG_NEAREST_AWAY;
  case TC5_ROUND_RZ: return MAG_DOWN;
  case TC5_ROUND_RP: return neg ? MAG_DOWN : MAG_UP;
  case TC5_ROUND_RM: return neg ? MAG_UP : MAG_DOWN;
  }
  return MAG_NEAREST_EVEN;
}

static double round_mag(double a, mag_round m) {
  double f = floor(a), frac = a - f; /* exact: a < 2^53 here */
  switch (m) {
  case MAG_DOWN: return f;
  case MAG_UP: return frac > 0 ? f + 1 : f;
  case MAG_NEAREST_AWAY: return frac >= 0.5 ? f + 1 : f;
  case MAG_NEAREST_EVEN:
    if (frac > 0.5) return f + 1;
    if (frac < 0.5) return f;
    return fmod(f, 2.0) == 0 ? f : f + 1;
  }
  return f;
}

/* does this overflow give Inf (true) or the largest finite value (false),
 * before saturation is applied (IEEE 754 7.4) */
static bool overflow_to_inf(mag_round m) { return m != MAG_DOWN; }

tc5_status tc5_fmt_maxnorm(tc5_type t, double *v) {
  const tc5_type_info *ti = tc5_spec_type(t);
  if (!ti || !v) return TC5_EINVAL;
  switch (ti->special) {
  case TC5_SPECIAL_INT:
    *v = t == TC5_S8 ? 127 : t == TC5_U8 ? 255 : 2147483647.0;
    return TC5_OK;
  case TC5_SPECIAL_E8M0: *v = ldexp(1.0, 127); return TC5_OK;
  case TC5_SPECIAL_IEEE:
    *v = ldexp((double)((2u << ti->man_bits) - 1u), (1 << ti->exp_bits) - 2 - ti->bias - ti->man_bits);
    return TC5_OK;
  case TC5_SPECIAL_FN:
    *v = ldexp((double)((2u << ti->man_bits) - 2u), (1 << ti->exp_bits) - 1 - ti->bias - ti->man_bits);
    return TC5_OK;
  case TC5_SPECIAL_NONE:
    *v = ldexp((double)((2u << ti->man_bits) - 1u), (1 << ti->exp_bits) - 1 - ti->bias - ti->man_bits);
    return TC5_OK;
  }
  return TC5_EINVAL;
}

static uint32_t pack(const tc5_type_info *ti, unsigned sign, unsigned e, unsigned m) {
  uint32_t c = ((uint32_t)sign << (ti->exp_bits + ti->man_bits)) | ((uint32_t)e << ti->man_bits) | m;
  return ti->type == TC5_TF32 ? c << 13 : c;
}

static uint32_t maxnorm_code(const tc5_type_info *ti, unsigned sign) {
  unsigned emax = (1u << ti->exp_bits) - 1u, mmax = (1u << ti->man_bits) - 1u;
  switch (ti->special) {
  case TC5_SPECIAL_IEEE: return pack(ti, sign, emax - 1, mmax);
  case TC5_SPECIAL_FN: return pack(ti, sign, emax, mmax - 1);
  default: return pack(ti, sign, emax, mmax);
  }
}

static uint32_t nan_code(const tc5_type_info *ti, unsigned sign) {
  return pack(ti, sign, (1u << ti->exp_bits) - 1u, (1u << ti->man_bits) - 1u);
}

static tc5_status encode_int(const tc5_type_info *ti, double x, tc5_round r, uint32_t *code) {
  double lo = ti->type == TC5_S8 ? -128 : ti->type == TC5_U8 ? 0 : -2147483648.0;
  double hi = ti->type == TC5_S8 ? 127 : ti->type == TC5_U8 ? 255 : 2147483647.0;
  double v;
  if (isnan(x)) v = 0;
  else if (x <= lo) v = lo;
  else if (x >= hi) v = hi;
  else {
    bool neg = x < 0;
    v = round_mag(fabs(x), mag_mode(r, neg));
    if (neg) v = -v;
    if (v < lo) v = lo;
    if (v > hi) v = hi;
  }
  int64_t iv = (int64_t)v;
  *code = ti->type == TC5_S8 ? (uint32_t)(uint8_t)(int8_t)iv
          : ti->type == TC5_U8 ? (uint32_t)iv
                               : (uint32_t)(int32_t)iv;
  return TC5_OK;
}

static tc5_status encode_e8m0(double x, tc5_round r, bool sat, uint32_t *code) {
  if (r != TC5_ROUND_RZ && r != TC5_ROUND_RP) return TC5_EUNSUPPORTED;
  if (isnan(x)) {
    *code = 0xFF;
    return TC5_OK;
  }
  double a = fabs(x);
  if (isinf(a)) {
    *code = sat ? 0xFE : 0xFF;
    return TC5_OK;
  }
  if (a == 0) {
    *code = 0; /* clipped to 2^-127 */
    return TC5_OK;
  }
  int ex;
  double f = frexp(a, &ex); /* a = f 2^ex, f in [0.5, 1) */
  int e = ex - 1;
  if (r == TC5_ROUND_RP && f != 0.5) e++;
  int c = e + 127;
  if (c < 0) c = 0;
  if (c > 254) c = sat ? 254 : 255;
  *code = (uint32_t)c;
  return TC5_OK;
}

/* NaN of a double into fp8 as CUDA's __nv_cvt_double_to_fp8 does it
 * (cuda_fp8.hpp): the sign is kept; e4m3 gives S.1111.111, e5m2 gives
 * S.11111.1x with the double's two top payload bits ORed in. Its float path
 * (__nv_cvt_float_to_fp8) returns 0x7F for every NaN instead. */
static uint32_t fp8_nan_from_double(tc5_type t, double x) {
  uint64_t b;
  memcpy(&b, &x, sizeof b);
  uint32_t sign = (uint32_t)(b >> 63) << 7;
  if (t == TC5_E4M3) return 0x7Fu | sign;
  return 0x7Eu | (uint32_t)((b >> 50) & 3u) | sign;
}

static tc5_status encode(tc5_type t, double x, tc5_round r, bool sat, bool from_double,
                         uint32_t *code) {
  const tc5_type_info *ti = tc5_spec_type(t);
  if (!ti || !code || (unsigned)r > TC5_ROUND_RNA) return TC5_EINVAL;
  if (ti->special == TC5_SPECIAL_INT) return encode_int(ti, x, r, code);
  if (ti->special == TC5_SPECIAL_E8M0) return encode_e8m0(x, r, sat, code);
  bool always_sat = ti->special == TC5_SPECIAL_NONE; /* fp6, fp4 */
  if (isnan(x) && from_double && (t == TC5_E4M3 || t == TC5_E5M2)) {
    *code = fp8_nan_from_double(t, x);
    return TC5_OK;
  }
  if (!ti->has_sign) x = fabs(x); /* ue4m3 */
  if (isnan(x)) {
    *code = always_sat ? maxnorm_code(ti, 0) : nan_code(ti, 0);
    return TC5_OK;
  }
  unsigned sign = signbit(x) ? 1u : 0u;
  double a = fabs(x);
  mag_round mm = mag_mode(r, sign);
  unsigned m = ti->man_bits, emaxf = (1u << ti->exp_bits) - 1u;
  bool overflow = false;
  unsigned E = 0, M = 0;
  if (isinf(a)) {
    overflow = true;
  } else if (a == 0) {
    *code = pack(ti, sign, 0, 0);
    return TC5_OK;
  } else {
    int ex;
    frexp(a, &ex);
    int emin = 1 - ti->bias;
    int qe = (ex - 1 > emin ? ex - 1 : emin) - (int)m; /* exponent of one ulp */
    double q = round_mag(ldexp(a, -qe), mm);        /* q < 2^(m+2): exact */
    if (q == 0) {
      *code = pack(ti, sign, 0, 0);
      return TC5_OK;
    }
    if (q >= ldexp(1.0, (int)m + 1)) { /* rounded up into the next binade */
      q /= 2;
      qe++;
    }
    uint32_t qi = (uint32_t)q;
    if (qi >> m) {
      long be = (long)qe + (long)m + ti->bias;
      if (be > (long)emaxf) overflow = true;
      else {
        E = (unsigned)be;
        M = qi - (1u << m);
      }
    } else {
      E = 0;
      M = qi;
    }
    if (!overflow) {
      if (ti->special == TC5_SPECIAL_IEEE && E == emaxf) overflow = true;
      if (ti->special == TC5_SPECIAL_FN && E == emaxf && M == (1u << m) - 1u) overflow = true;
    }
  }
  if (overflow) {
    if (sat || always_sat || !overflow_to_inf(isinf(a) ? MAG_UP : mm)) {
      *code = maxnorm_code(ti, sign);
    } else if (ti->special == TC5_SPECIAL_FN) {
      *code = nan_code(ti, sign); /* e4m3 has no Inf: CUDA gives NaN, sign kept */
    } else {
      *code = pack(ti, sign, emaxf, 0); /* Inf */
    }
    return TC5_OK;
  }
  *code = pack(ti, sign, E, M);
  return TC5_OK;
}

/* f16 and bf16 to nearest even, unsaturated: half_impl.h's rounder (the same codes) */
static bool half_rn(tc5_type t, double x, tc5_round r, bool sat, uint32_t *code) {
  if ((t != TC5_BF16 && t != TC5_F16) || r != TC5_ROUND_RN || sat || !code) return false;
  *code = tc5__half_encode_rn(x, t == TC5_BF16);
  return true;
}

tc5_status tc5_fmt_encode(tc5_type t, double x, tc5_round r, bool sat, uint32_t *code) {
  if (half_rn(t, x, r, sat, code)) return TC5_OK;
  return encode(t, x, r, sat, true, code);
}

tc5_status tc5_fmt_encode_f32(tc5_type t, uint32_t f32_bits, tc5_round r, bool sat,
                              uint32_t *code) {
  float f;
  memcpy(&f, &f32_bits, sizeof f);
  if (half_rn(t, (double)f, r, sat, code)) return TC5_OK;
  return encode(t, (double)f, r, sat, false, code);
}

tc5_status tc5__fmt_encode_generic(tc5_type t, double x, tc5_round r, bool sat, uint32_t *code) {
  return encode(t, x, r, sat, true, code);
}
