/* tc5 internal — the spec's tables, as data, in one place.
 *
 * Every rule tc5 checks that is a table in the PTX ISA chapter on tcgen05
 * (../shared/spec/ptx-tcgen05-chapter.md) lives here once: element types,
 * instruction-descriptor type codes (Tables 42-44), legal shapes (Table 39),
 * transpose/negate support (Table 49), 8-bit transpose-B N ranges (Table 50),
 * type size x major-ness x swizzle (Table 52), swizzle pattern boundaries
 * (Table 41) and atoms (Table 53), scale vector sizes (Tables 54/55),
 * tcgen05.ld/st register counts (Tables 47/48). Modules read them through
 * the accessors below; nothing else restates them.
 */
#ifndef TC5_SPEC_TABLES_H
#define TC5_SPEC_TABLES_H

#include <stdbool.h>
#include <stdint.h>

#include "tc5/descriptors.h"
#include "tc5/formats.h"
#include "tc5/kind.h"
#include "tc5/tmem.h"

/* ---- element types ---- */
typedef enum tc5_special {
  TC5_SPECIAL_IEEE,  /* all-ones exponent: Inf (M = 0) and NaN                */
  TC5_SPECIAL_FN,    /* e4m3: no Inf; NaN = all ones (exponent and mantissa)  */
  TC5_SPECIAL_NONE,  /* fp6, fp4: every code is a finite number               */
  TC5_SPECIAL_E8M0,  /* ue8m0: 2^(x-127), no zero, 0xFF = NaN                 */
  TC5_SPECIAL_INT    /* two's complement or unsigned integer                  */
} tc5_special;

typedef struct tc5_type_info {
  tc5_type type;
  const char *name;
  uint8_t bits;      /* storage width of a code                              */
  bool is_float;
  bool has_sign;     /* sign bit (ue8m0, ue4m3 and u8 have none)             */
  uint8_t exp_bits, man_bits;
  int16_t bias;
  tc5_special special;
} tc5_type_info;

const tc5_type_info *tc5_spec_type(tc5_type t); /* NULL for NONE/invalid */

/* Place of an element in an 8-bit container (9.7.16.10.4.3, figures 199-201,
 * and the tcgen05.cp decompression, figures 195-198): bits [shift, shift +
 * width). 8-bit types fill the byte. NULL for types without a container. */
typedef struct tc5_container8 {
  tc5_type type;
  uint8_t shift, width;
} tc5_container8;
const tc5_container8 *tc5_spec_container8(tc5_type t);

/* ---- instruction descriptor codes, Tables 42-44 ---- */
typedef struct tc5_code_type {
  uint8_t code;
  tc5_type type;
} tc5_code_type;

#define TC5_MAX_CODES 6

typedef struct tc5_kind_info {
  tc5_kind kind;
  const char *name;       /* "f16" */
  uint8_t idesc_table;    /* 42, 43 or 44 */
  /* codes of atype (bits 7-9) and btype (bits 10-12; 10-11 in Table 44) */
  tc5_code_type ab_codes[TC5_MAX_CODES];
  uint8_t n_ab_codes;
  uint8_t btype_bits;     /* 3, or 2 in Table 44 */
  /* codes of dtype (bits 4-5); Tables 43/44 have no dtype field (F32) */
  tc5_code_type d_codes[3];
  uint8_t n_d_codes;
  /* Table 39 dtype x atype/btype: allowed dtypes for each A type; when
   * same_ab, B must have A's type. */
  bool same_ab;
  bool f16_d_requires_f16_ab; /* .kind::f16: dtype f16 needs f16 inputs */
  /* Table 49 */
  bool transpose_ok;
  bool negate_ok;
  /* Table 42 saturate column: valid only for .kind::i8 */
  bool saturate_ok;
  /* scale-input-d (9.7.16.10.9.1): .kind::tf32 and .kind::f16 only */
  bool scale_input_d_ok;
  /* dense K (Table 39); sparse K is twice this */
  uint16_t k_dense;
  /* scale types allowed (Tables 43/44, 55); bit (1 << scale code) */
  uint8_t scale_codes;
} tc5_kind_info;

const tc5_kind_info *tc5_spec_kind(tc5_kind k);

/* ---- Table 39: shapes ---- */
typedef struct tc5_nseg {
  uint16_t first, last, step;
} tc5_nseg;

typedef struct tc5_shape_row {
  tc5_kind kind;
  bool ws;
  uint8_t cta_group;
  bool sparse;
  bool valid;            /* false: the table says "Invalid"            */
  uint16_t m[4];         /* legal M (0-terminated)                      */
  tc5_nseg n[3];         /* legal N as segments (step 0 ends the list)  */
  uint16_t k;            /* K                                           */
  uint16_t k96_m;        /* M for which dense K = 96 exists (sm_103a)  */
} tc5_shape_row;

/* The row of Table 39 for a combination; NULL if the combination is not in
 * the table (cannot happen for valid enum values). */
const tc5_shape_row *tc5_spec_shape_row(tc5_kind kind, bool ws,
                                        unsigned cta_group, bool sparse);
/* true when N is in one of the row's segments. */
bool tc5_spec_n_legal(const tc5_shape_row *row, unsigned n);
/* "N = 8..256 step 8" style text of a row's N rule, into buf. */
void tc5_spec_n_text(const tc5_shape_row *row, char *buf, unsigned cap);

/* ---- Table 50: N for 8-bit transpose B ---- */
typedef struct tc5_t50_row {
  uint8_t cta_group;
  tc5_nseg n;
} tc5_t50_row;
const tc5_t50_row *tc5_spec_table50(unsigned cta_group);

/* ---- Table 41 / Table 53: swizzle modes ---- */
typedef struct tc5_swizzle_info {
  uint8_t mode;           /* tc5_swizzle code                          */
  const char *name;       /* "128B"                                    */
  uint16_t pattern_bytes; /* Table 41 repeat boundary                  */
  uint8_t bytes;          /* swizzle width: 0 (none), 32, 64, 128      */
  uint8_t atomicity;      /* 16 or 32 bytes                            */
  /* Table 53 swizzle atoms in 128-bit elements, as extents along MN and
   * along K, for MN-major and for K-major layouts (0 = no such atom). */
  uint8_t mnmajor_mn, mnmajor_k;
  uint8_t kmajor_mn, kmajor_k;
} tc5_swizzle_info;
const tc5_swizzle_info *tc5_spec_swizzle(unsigned mode); /* NULL: reserved */

/* ---- Table 52: type size x major-ness x swizzle ---- */
/* Bit (1 << swizzle code) of every mode supported for an element of
 * `bits` bits, transposed (MN-major) or not. 0 = no mode (unsupported). */
uint8_t tc5_spec_table52(unsigned bits, bool transposed);

/* ---- Tables 54/55: scale vector sizes ---- */
typedef struct tc5_scale_row {
  tc5_kind kind;
  uint8_t scale_code;   /* 1 UE8M0, 0 UE4M3 */
  uint8_t block;        /* 16 or 32 (elements per scale factor) */
  uint8_t scale_vec_k;  /* .scale_vec::NX for K = 32/64/128 (not 96) */
} tc5_scale_row;
/* Rows valid for a kind (Table 55); count in *n. */
const tc5_scale_row *tc5_spec_scale_rows(tc5_kind kind, unsigned *n);

/* ---- Tables 47/48: tcgen05.ld/st register counts ---- */
/* Registers per thread for a shape (0: .32x32b, .16x64b, .16x32bx2;
 * 1: .16x128b; 2: .16x256b) and .num = 2^lognum; 0 where the table says NA. */
unsigned tc5_spec_ldst_regs(unsigned shape_class, unsigned lognum);

/* ---- 9.7.16.2.3: tcgen05.ld/st data movement shapes ---- */
typedef struct tc5_ldst_shape_info {
  const char *name;     /* "32x32b" */
  uint8_t lanes;        /* lanes accessed: 32 or 16 */
  uint16_t bits;        /* bits per lane per .num (per half for 16x32bx2) */
  uint8_t regs_class;   /* column of Tables 47/48 */
  bool red;             /* tcgen05.ld.red allowed (shape3/shape4) */
  bool split;           /* takes immHalfSplitoff (shape2/shape4) */
} tc5_ldst_shape_info;
/* NULL for an invalid shape */
const tc5_ldst_shape_info *tc5_spec_ldst_shape(tc5_tmem_shape s);

#endif
