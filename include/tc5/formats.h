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

#ifdef __cplusplus
}
#endif
#endif
