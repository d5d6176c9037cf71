/* tc5 — element formats of tcgen05 (spec 9.7.16.10 kinds, 9.7.16.10.4
 * packing formats, 9.7.16.9.1 decompression).
 *
 * Codes are raw bit patterns in the low bits of a uint32_t. Values are exact
 * doubles (every value of every type here is a dyadic rational that a double
 * holds exactly).
 */
#ifndef TC5_FORMATS_H
#define TC5_FORMATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tc5/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tc5_type {
  TC5_TYPE_NONE = 0,
  TC5_F32,   /* binary32                                                     */
  TC5_TF32,  /* f32 container; the low 13 mantissa bits are ignored          */
  TC5_F16,   /* binary16                                                     */
  TC5_BF16,  /* bfloat16                                                     */
  TC5_E4M3,  /* fp8 e4m3fn: no Inf, NaN = S.1111.111                         */
  TC5_E5M2,  /* fp8 e5m2: IEEE-like, Inf and NaN                             */
  TC5_E2M3,  /* fp6: no Inf/NaN                                              */
  TC5_E3M2,  /* fp6: no Inf/NaN                                              */
  TC5_E2M1,  /* fp4: no Inf/NaN                                              */
  TC5_UE8M0, /* unsigned scale 2^(x-127); 0xFF = NaN                         */
  TC5_UE4M3, /* unsigned e4m3 scale; 0x7F = NaN                              */
  TC5_S8,
  TC5_U8,
  TC5_S32,
  TC5_TYPE_COUNT
} tc5_type;

/* "f32", "tf32", "f16", "bf16", "e4m3", ... Never NULL. */
const char *tc5_type_name(tc5_type t);
/* Accepts the names above (case-insensitive) and the PTX spellings ".e4m3". */
tc5_status tc5_type_parse(const char *name, tc5_type *t);
/* Storage width of one code in bits (tf32: 32, e2m1: 4, e2m3: 6, ...). */
unsigned tc5_type_bits(tc5_type t);
/* true for the floating-point types (scale types included). */
bool tc5_type_is_float(tc5_type t);

/* ---- values and classes -------------------------------------------------- */

typedef enum tc5_fclass {
  TC5_FCLASS_ZERO = 0,
  TC5_FCLASS_SUBNORMAL,
  TC5_FCLASS_NORMAL,
  TC5_FCLASS_INF,
  TC5_FCLASS_NAN
} tc5_fclass;

const char *tc5_fclass_name(tc5_fclass c);

/* Exact value of a code (integers too). `code` uses the low tc5_type_bits
 * bits; higher bits must be 0 (TC5_ERANGE). ue4m3 ignores its bit 7 (the
 * absent sign), tf32 its low 13 bits. NaN decodes to a quiet NaN double,
 * Inf to +-Inf. `value` and/or `cls` may be NULL. */
tc5_status tc5_fmt_decode(tc5_type t, uint32_t code, double *value, tc5_fclass *cls);

/* The fields of a floating-point code: sign (0 for unsigned types), the
 * exponent and mantissa fields as stored, and the unbiased exponent of the
 * value (subnormals report the minimum exponent). */
typedef struct tc5_fmt_fields {
  unsigned sign, exponent, mantissa;
  int unbiased;
  unsigned exp_bits, man_bits;
  int bias;
} tc5_fmt_fields;
tc5_status tc5_fmt_fields_of(tc5_type t, uint32_t code, tc5_fmt_fields *f);

/* ---- conversion ------------------------------------------------------------ */

typedef enum tc5_round {
  TC5_ROUND_RN = 0, /* to nearest, ties to even (CUDA _rn, cudaRoundNearest) */
  TC5_ROUND_RZ,     /* toward zero (cudaRoundZero)                           */
  TC5_ROUND_RP,     /* toward +Inf (cudaRoundPosInf)                         */
  TC5_ROUND_RM,     /* toward -Inf (cudaRoundMinInf)                         */
  TC5_ROUND_RNA     /* to nearest, ties away from zero (PTX cvt.rna)         */
} tc5_round;

const char *tc5_round_name(tc5_round r);
tc5_status tc5_round_parse(const char *text, tc5_round *r);

/* Converts a double to a code of type t, exactly as CUDA's host conversions
 * do (cuda_fp16.h, cuda_bf16.h, cuda_fp8.h, cuda_fp6.h, cuda_fp4.h):
 *  - satfinite = false: overflow gives Inf where the type has one (f32, f16,
 *    bf16, e5m2), NaN for e4m3 and ue4m3 (no Inf), NaN for ue8m0;
 *  - satfinite = true: overflow and Inf give the largest finite value of the
 *    same sign (ue8m0: 2^127);
 *  - fp6 and fp4 always saturate, and NaN gives +MAXNORM (they have no NaN);
 *  - NaN gives the canonical positive NaN code otherwise (0x7FFF for f16/bf16,
 *    0x7F for fp8 and ue4m3, 0xFF for ue8m0, 0x7FFFFFFF for f32, 0x7FFFE000
 *    for tf32) — except that a NaN double into fp8 keeps its sign (and, for
 *    e5m2, its two top payload bits) as __nv_cvt_double_to_fp8 does, while
 *    tc5_fmt_encode_f32 follows __nv_cvt_float_to_fp8 (always 0x7F);
 *  - ue8m0 rounds |x| to a power of two (RZ or RP), clipping below 2^-127;
 *  - ue4m3 converts |x| (it has no sign bit);
 *  - tf32 rounds to 10 fraction bits and returns the f32 container;
 *  - s8, u8, s32 round to an integer and saturate, NaN gives 0.
 * TC5_EUNSUPPORTED for a rounding mode the type's conversion has not. */
tc5_status tc5_fmt_encode(tc5_type t, double x, tc5_round r, bool satfinite,
                          uint32_t *code);
/* The same from the bits of an f32 (every f32 is an exact double). */
tc5_status tc5_fmt_encode_f32(tc5_type t, uint32_t f32_bits, tc5_round r,
                              bool satfinite, uint32_t *code);

/* Largest finite value of a floating-point type (NaN/Inf excluded). */
tc5_status tc5_fmt_maxnorm(tc5_type t, double *v);

#ifdef __cplusplus
}
#endif
#endif
