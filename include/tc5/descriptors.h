/* tc5 — the three tcgen05 matrix descriptors (spec 9.7.16.4):
 *   9.7.16.4.1 shared memory descriptor       (Table 40, 41)
 *   9.7.16.4.2 instruction descriptor         (Tables 42, 43, 44)
 *   9.7.16.4.3 zero-column mask descriptor    (Table 45)
 *
 * For each descriptor: a struct whose members are the spec's fields in the
 * units a person thinks in (bytes, elements), `encode` (struct -> raw, every
 * field validated), `decode` (raw -> struct, every broken rule reported, the
 * fields still filled), `describe` (text, one field a line) and `json`.
 * Legality of an instruction descriptor for one tcgen05.mma variant (Table 39,
 * 49, 50, 54, 55) is `tc5_idesc_check`.
 */
#ifndef TC5_DESCRIPTORS_H
#define TC5_DESCRIPTORS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tc5/formats.h"
#include "tc5/kind.h"
#include "tc5/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- 9.7.16.4.1 Shared memory descriptor -------------------------------- */

typedef enum tc5_swizzle {
  TC5_SWIZZLE_NONE = 0,          /* no swizzling (interleaved)              */
  TC5_SWIZZLE_128B_BASE32B = 1,  /* 128-byte swizzle with 32-byte atomicity */
  TC5_SWIZZLE_128B = 2,          /* 128-byte swizzle                        */
  TC5_SWIZZLE_64B = 4,           /* 64-byte swizzle                         */
  TC5_SWIZZLE_32B = 6            /* 32-byte swizzle                         */
} tc5_swizzle;

/* "none", "128B_base32B", "128B", "64B", "32B"; "reserved" for 3, 5, 7. */
const char *tc5_swizzle_name(unsigned mode);
/* Accepts the names above, "128B-32B", "sw128", "interleave", or the code. */
tc5_status tc5_swizzle_parse(const char *text, tc5_swizzle *mode);
/* true for 0, 1, 2, 4, 6. */
bool tc5_swizzle_is_valid(unsigned mode);

typedef struct tc5_smem_desc {
  uint32_t start_address; /* bytes, 16-byte aligned, within the 18-bit window */
  uint32_t lbo;           /* leading dimension byte offset (lbo_mode 0) or
                             byte address of the second chunk (lbo_mode 1)  */
  uint32_t sbo;           /* stride dimension byte offset, bytes            */
  uint8_t base_offset;    /* bits 49-51                                      */
  uint8_t lbo_mode;       /* bit 52: 0 relative offset, 1 absolute address  */
  uint8_t swizzle;        /* bits 61-63: a tc5_swizzle; 3, 5, 7 reserved     */
  uint8_t fixed_46_48;    /* bits 46-48: must be 0b001                       */
  uint8_t fixed_53_60;    /* bits 53-60: must be 0                           */
  uint8_t unused_14_15;   /* bits 14-15, not defined by Table 40: must be 0  */
  uint8_t unused_30_31;   /* bits 30-31, not defined by Table 40: must be 0  */
} tc5_smem_desc;

/* Zeroes every field and sets the fixed constant bits 46-48 to 0b001. */
tc5_status tc5_smem_desc_init(tc5_smem_desc *d);
/* Validates every field (alignment, 18-bit window, base offset range,
 * swizzle mode, fixed bits) and packs it. *raw is written only on success. */
tc5_status tc5_smem_desc_encode(const tc5_smem_desc *d, uint64_t *raw,
                                tc5_diag *diag);
/* Unpacks every field and reports every rule the value breaks. */
tc5_status tc5_smem_desc_decode(uint64_t raw, tc5_smem_desc *d, tc5_diag *diag);
/* The validation that encode and decode share. */
tc5_status tc5_smem_desc_check(const tc5_smem_desc *d, tc5_diag *diag);
/* Table 41: base offset for a swizzle pattern that starts at `pattern_start`
 * (0 when the pattern starts on its boundary, else (addr >> 7) & 7). */
tc5_status tc5_smem_base_offset(uint32_t pattern_start, tc5_swizzle mode,
                                uint8_t *base_offset);
/* Bytes after which the swizzle pattern of `mode` repeats (Table 41:
 * 1024, 512, 256; 1024 for 128B with 32B atoms; 16 for no swizzle). */
tc5_status tc5_swizzle_pattern_bytes(tc5_swizzle mode, uint32_t *bytes);
/* Rules that involve the instruction descriptor too (restrictions on the
 * leading-dimension absolute address, 9.7.16.3.1.2.1): 128B swizzle only,
 * K-major only, base offset 0, sm_103a only. `transposed` is the transpose
 * bit of the matrix this descriptor describes. */
tc5_status tc5_smem_desc_check_lbo_mode(const tc5_smem_desc *d, bool transposed,
                                        tc5_arch arch, tc5_diag *diag);

/* Hopper's wgmma matrix descriptor (PTX "Matrix Descriptor Format" of
 * wgmma.mma_async): start address, LBO and SBO in the same bits as here,
 * base offset in 49-51, the layout in bits 62-63 (0 none, 1 128B, 2 64B,
 * 3 32B); no 32B-atom mode, no fixed bits, no absolute LBO mode. The same
 * canonical layouts: tc5 uses it to check its layouts on sm_90 silicon.
 * from_wgmma ignores the bits outside those fields, as wgmma does on the
 * H200 (issue 52, docs/fidelity.md "Descriptor fields on silicon"). */
tc5_status tc5_smem_desc_to_wgmma(const tc5_smem_desc *d, uint64_t *raw, tc5_diag *diag);
tc5_status tc5_smem_desc_from_wgmma(uint64_t raw, tc5_smem_desc *d, tc5_diag *diag);

/* A shared memory descriptor as tcgen05.mma and tcgen05.cp read it: the
 * fields of tc5_smem_desc_decode, bits 14-15 and 30-31 ignored (no field
 * there, as in wgmma's descriptor, whose unfielded bits the H200 ignores)
 * and bits 46-48 0b000 taken as the fixed 0b001 (the descriptors of
 * Triton 3.3-3.5, which ran on B200s). Issue 52, docs/spec-departures.md. */
tc5_status tc5_smem_desc_decode_mma(uint64_t raw, tc5_smem_desc *d, tc5_diag *diag);

tc5_status tc5_smem_desc_describe(const tc5_smem_desc *d, char *buf,
                                  size_t cap, size_t *needed);
/* JSON object with every field and the diagnostics (diag may be NULL). */
tc5_status tc5_smem_desc_json(const tc5_smem_desc *d, uint64_t raw,
                              const tc5_diag *diag, char *buf, size_t cap,
                              size_t *needed);

/* ---- 9.7.16.4.2 Instruction descriptor ---------------------------------- */

typedef struct tc5_idesc {
  tc5_kind kind;           /* selects the layout: Table 42 (tf32, f16,
                              f8f6f4, i8), 43 (mxf8f6f4), 44 (mxf4, mxf4nvf4) */
  uint8_t sparse_selector; /* bits 0-1 (Table 42)                           */
  uint8_t sparse;          /* bit 2: 0 dense, 1 sparse                      */
  uint8_t saturate;        /* bit 3 (Table 42; integer kinds only)          */
  uint8_t dtype;           /* bits 4-5 code (Table 42)                      */
  uint8_t atype;           /* bits 7-9 code                                 */
  uint8_t btype;           /* bits 10-12 code (10-11 in Table 44)           */
  uint8_t negate_a;        /* bit 13                                        */
  uint8_t negate_b;        /* bit 14                                        */
  uint8_t transpose_a;     /* bit 15: 1 = A is M-major                      */
  uint8_t transpose_b;     /* bit 16: 1 = B is N-major                      */
  uint16_t n;              /* N, elements (bits 17-22 hold N >> 3)          */
  uint16_t m;              /* M, elements (M >> 4 at 24-28, or M >> 7 at
                              27-28 in Tables 43/44)                        */
  uint8_t max_shift;       /* bits 30-31 code (Table 42): 0 none, 1: 8,
                              2: 16, 3: 32 columns                          */
  uint8_t scale_type;      /* bit 23 (Tables 43/44): 1 UE8M0, 0 UE4M3       */
  uint8_t sfa_id;          /* bits 29-30 (Tables 43/44)                     */
  uint8_t sfb_id;          /* bits 4-5 (Tables 43/44)                       */
  uint8_t k96;             /* bit 31 (Table 44): 1 = dense K = 96           */
  uint32_t reserved_bits;  /* reserved bits found set, at their positions   */
} tc5_idesc;

/* Zeroes the descriptor and selects the layout of `kind`. */
tc5_status tc5_idesc_init(tc5_idesc *d, tc5_kind kind);
tc5_status tc5_idesc_encode(const tc5_idesc *d, uint32_t *raw, tc5_diag *diag);
/* Decodes under the layout of `kind` (the layout depends on the kind). */
tc5_status tc5_idesc_decode(uint32_t raw, tc5_kind kind, tc5_idesc *d,
                            tc5_diag *diag);
/* Field validation shared by encode and decode: codes defined for the kind,
 * widths, M/N divisibility, reserved bits. (Legality for an instruction
 * variant is tc5_idesc_check.) */
tc5_status tc5_idesc_validate(const tc5_idesc *d, tc5_diag *diag);
/* When the kind is unknown: guesses it from a raw value (dtype S32 -> i8,
 * atype TF32 -> tf32, fp6/fp4 codes -> f8f6f4, else f16). *certain is false
 * when more than one kind reads the value the same way. */
tc5_status tc5_idesc_guess_kind(uint32_t raw, tc5_kind *kind, bool *certain);

/* Type of A, B and D under the descriptor's kind (TC5_ERESERVED when the
 * code is not defined for the kind). dtype is F32 for the mx kinds. */
tc5_status tc5_idesc_atype(const tc5_idesc *d, tc5_type *t);
tc5_status tc5_idesc_btype(const tc5_idesc *d, tc5_type *t);
tc5_status tc5_idesc_dtype(const tc5_idesc *d, tc5_type *t);
/* Scale-factor type of the mx kinds (UE8M0 or UE4M3). */
tc5_status tc5_idesc_scale_type(const tc5_idesc *d, tc5_type *t);
/* Sets the type codes from types (TC5_EILLEGAL when the kind has no code for
 * a type). For the mx kinds `dtype` must be F32 or TC5_TYPE_NONE. */
tc5_status tc5_idesc_set_types(tc5_idesc *d, tc5_type atype, tc5_type btype,
                               tc5_type dtype);
/* Columns of the .ws maximum shift code (0, 8, 16, 32). */
unsigned tc5_idesc_max_shift_columns(unsigned code);
/* K of the MMA (Table 39): implied by kind, sparsity and the K=96 bit. */
tc5_status tc5_idesc_k(const tc5_idesc *d, unsigned *k);

/* Is this descriptor legal for this tcgen05.mma variant? Checks Table 39
 * (M, N, K, dtype, atype/btype for kind x .ws x cta_group x sparsity), Table
 * 49 (transpose/negate per kind), Table 50 (8-bit transpose-B N ranges),
 * Tables 54/55 (scale type and vector size), the K=96 and scale-factor-ID
 * rules, saturate, sparsity flag and selector, the .ws maximum shift, and
 * the variant's own qualifier rules. Every broken rule goes into diag. */
tc5_status tc5_idesc_check(const tc5_idesc *d, const tc5_mma_variant *v,
                           tc5_diag *diag);

tc5_status tc5_idesc_describe(const tc5_idesc *d, char *buf, size_t cap,
                              size_t *needed);
tc5_status tc5_idesc_json(const tc5_idesc *d, uint32_t raw,
                          const tc5_diag *diag, char *buf, size_t cap,
                          size_t *needed);

/* ---- 9.7.16.4.3 Zero-column mask descriptor ----------------------------- */

typedef struct tc5_zcmask_desc {
  uint8_t start_count[4]; /* sc0..sc3: pattern bits skipped before column 0 of
                             sub-mask i                                      */
  uint8_t first_span[4];  /* fs0..fs3: value (0/1) of the first run          */
  uint8_t non_zero;       /* bit 39: 0 = the mask is all zeros               */
  uint8_t skip_span;      /* bits 40-47: (length of a run of 1s) - 1, i.e. of
                             zeroed columns (see README: the spec's table says
                             the opposite, its examples say this)            */
  uint8_t use_span;       /* bits 48-55: (length of a run of 0s) - 1, i.e. of
                             columns of B that are used                      */
  uint8_t column_shift;   /* bits 56-61: B columns [shift, shift+N) are read */
  uint8_t reserved_36_38; /* must be 0                                       */
  uint8_t reserved_62_63; /* must be 0                                       */
} tc5_zcmask_desc;

tc5_status tc5_zcmask_desc_init(tc5_zcmask_desc *d);
tc5_status tc5_zcmask_desc_encode(const tc5_zcmask_desc *d, uint64_t *raw,
                                  tc5_diag *diag);
tc5_status tc5_zcmask_desc_decode(uint64_t raw, tc5_zcmask_desc *d,
                                  tc5_diag *diag);
/* Field rules; `m` (32, 64 or 128, or 0 when unknown) adds the column-shift
 * limit of Table 45: 16 for M = 32, 32 otherwise. */
tc5_status tc5_zcmask_desc_check(const tc5_zcmask_desc *d, unsigned m,
                                 tc5_diag *diag);
tc5_status tc5_zcmask_desc_describe(const tc5_zcmask_desc *d, char *buf,
                                    size_t cap, size_t *needed);
tc5_status tc5_zcmask_desc_json(const tc5_zcmask_desc *d, uint64_t raw,
                                const tc5_diag *diag, char *buf, size_t cap,
                                size_t *needed);

#ifdef __cplusplus
}
#endif
#endif
