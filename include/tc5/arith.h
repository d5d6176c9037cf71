/* tc5 — bit-accurate MMA arithmetic: the fused dot-product-add that one
 * output element of a Tensor Core MMA computes.
 *
 * Model (MMA-Sim, arXiv 2511.10909, github.com/microsoft/MMA-Sim): for a
 * step of up to `chunk` products plus the accumulator c, every term is an
 * exact significand s with a nominal exponent e (the sum of the inputs'
 * exponents, subnormal inputs counted at their format's minimum exponent);
 * with E = max e over the terms, each term is truncated toward zero to F
 * fraction bits at E (trunc(s * 2^(e - E + F)) * 2^-F), the truncated terms
 * are summed exactly, and the sum is rounded once to the output format
 * (round toward zero to f32, round to nearest even to f16, or toward zero to
 * 13 fraction bits for Hopper's fp8 "e8m13"). Longer dot products chain
 * steps, the output of one being c of the next. Block-scaled kinds fold the
 * scale factors into the terms; mxf4/mxf4nvf4 first sum groups of 16 fp4
 * products exactly and align the groups by their scales' exponents, with
 * F = 35. Integer kinds sum exactly and wrap or saturate to s32.
 * NaN in, Inf*0, or +Inf + -Inf gives the canonical NaN; other Infs pass.
 */
#ifndef TC5_ARITH_H
#define TC5_ARITH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tc5/formats.h"
#include "tc5/kind.h"
#include "tc5/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tc5_model {
  TC5_MODEL_BLACKWELL = 0, /* tcgen05.mma (sm_100)   */
  TC5_MODEL_HOPPER         /* wgmma.mma_async (sm_90) */
} tc5_model;

const char *tc5_model_name(tc5_model m);
tc5_status tc5_model_parse(const char *text, tc5_model *m);

typedef enum tc5_out_round {
  TC5_OUT_RZ_F32 = 0, /* toward zero to f32                              */
  TC5_OUT_RNE_F16,    /* to nearest even to f16                          */
  TC5_OUT_RZ_E8M13,   /* toward zero to 13 fraction bits, f32 range      */
  TC5_OUT_S32         /* integer: wrap, or saturate when `saturate`      */
} tc5_out_round;

/* The parameters of one MMA's arithmetic. */
typedef struct tc5_dot {
  tc5_type atype, btype;  /* element types of A and B                         */
  tc5_type ctype;         /* type of C and D: f32, f16 or s32                 */
  tc5_type stype;         /* scale-factor type (UE8M0, UE4M3), NONE unscaled  */
  unsigned block;         /* elements per scale factor (16, 32), 0 unscaled   */
  unsigned frac_bits;     /* F: fraction bits kept at the largest exponent    */
  unsigned chunk;         /* products fused by one step (K of the MMA)        */
  unsigned group;         /* products summed exactly before scaling (mxf4: 16)*/
  tc5_out_round out;      /* rounding of the result                           */
  bool saturate;          /* integer kinds: saturate instead of wrap          */
  int zero_exp;           /* nominal exponent of zero terms                   */
} tc5_dot;

/* The model of an MMA: architecture, kind and types (the scale type and
 * block size for block-scaled kinds; `saturate` for .kind::i8). Hopper
 * supports the wgmma kinds f16 (f16/bf16), tf32, and fp8 (e4m3/e5m2 through
 * TC5_KIND_F8F6F4). TC5_EILLEGAL for a combination the hardware has not. */
tc5_status tc5_dot_model(tc5_model arch, tc5_kind kind, tc5_type atype, tc5_type btype,
                         tc5_type ctype, tc5_type stype, unsigned block, bool saturate,
                         tc5_dot *out, tc5_diag *diag);

/* Per-MMA operands that are not element data. */
typedef struct tc5_dot_opts {
  bool negate_a, negate_b;  /* idesc negate bits                                */
  bool enable_input_d;      /* false: D = A*B (c ignored)                       */
  unsigned scale_input_d;   /* D = A*B + D * 2^-s, s in [0, 15] (f16/tf32 kinds) */
} tc5_dot_opts;

/* enable_input_d = true, no negation, no scaling */
tc5_status tc5_dot_opts_init(tc5_dot_opts *o);

/* Checks a model (hand-made or from tc5_dot_model) and options for K
 * products: types, rounding, chunk (<= 64, or <= 128 with groups), group, scale type and block
 * (K a multiple of it), scale-input-d (<= 15, f16/tf32 kinds
 * only). tc5_dot_run and tc5_gemm return the same status without a message;
 * this says why. o may be NULL. */
tc5_status tc5_dot_check(const tc5_dot *m, size_t k, const tc5_dot_opts *o, tc5_diag *diag);

/* One output element: d = sum_k a[k] * b[k] (* scales) + c, over k < K,
 * in steps of `chunk` products. Codes are raw bit patterns (fp4 one per
 * element). sa, sb hold K / block scale codes (NULL when unscaled). o may be
 * NULL (defaults). A chunk of 0 means one step of all K products (K <= 64).
 * Errors: TC5_EINVAL (NULL pointers), or tc5_dot_check's status. */
tc5_status tc5_dot_run(const tc5_dot *m, size_t k, const uint32_t *a, const uint32_t *b,
                       const uint32_t *sa, const uint32_t *sb, uint32_t c,
                       const tc5_dot_opts *o, uint32_t *d);

/* tc5_dot_run, explained: the same result in *d, and into buf (snprintf
 * semantics: TC5_ETRUNC and *needed when cap is too small; buf may be NULL
 * with cap 0) the steps as the model computes them: each step's terms
 * (products and C) as integer * 2^x with their nominal exponents, the
 * alignment exponent E, each term truncated to a multiple of 2^(E - F), the
 * exact sum and its rounding. */
tc5_status tc5_dot_explain(const tc5_dot *m, size_t k, const uint32_t *a, const uint32_t *b,
                           const uint32_t *sa, const uint32_t *sb, uint32_t c, const tc5_dot_opts *o,
                           uint32_t *d, char *buf, size_t cap, size_t *needed);

/* The whole matrix: D (M x N, row-major) = A (M x K, row-major) *
 * B (K x N, row-major) + C, every element through the exact model (the same
 * results as tc5_dot_run, computed much faster). C is read from D (in place)
 * unless enable_input_d is false. SA is M x (K / block), SB is (K / block) x N.
 * `threads` 0 = one per available core. */
tc5_status tc5_gemm(const tc5_dot *m, unsigned M, unsigned N, unsigned K, const uint32_t *A,
                    const uint32_t *B, const uint32_t *SA, const uint32_t *SB, uint32_t *D,
                    const tc5_dot_opts *o, unsigned threads);

/* ---- sparse A (tcgen05.mma.sp; Hopper's wgmma.mma_async.sp) -------------
 *
 * A is stored as its kept elements, K/2 a row, and metadata places them
 * among the K logical ones. The metadata is given one nibble a byte (the low
 * four bits), a row's groups in order, M x K/g bytes:
 *   .kind::tf32 (1:2), g = 2: a nibble a pair, 0b0100 keeps the first
 *     element, 0b1110 the second;
 *   .kind::f16, f8f6f4, mxf8f6f4, i8 (2:4), g = 4: a nibble a group of four,
 *     the kept positions i0 (bits 0-1) < i1 (bits 2-3): 0b0100, 0b1000,
 *     0b1100, 0b1001, 0b1101, 0b0110 or 0b1110;
 *   .kind::mxf4, mxf4nvf4 (4:8 in pairs), g = 8: a nibble a group of eight,
 *     the same values naming the two kept pairs.
 * The arithmetic (docs/arithmetic.md, "Sparse MMA"): the dense kind's, a step
 * taking the dense step's count of kept products, an elided position a zero
 * product whose B is never read: a NaN or an infinity of B there does not
 * reach D (docs/fidelity.md, class [1]). A scale factor covers `block` kept
 * elements (2 x block logical ones). */

/* g above: the logical elements one metadata nibble covers (2, 4 or 8). */
tc5_status tc5_sparse_group(tc5_kind kind, unsigned *elements);

/* The sparse form of a dense model: chunk and group doubled (a step, a
 * group, of the dense count of kept products), block min(2 block, 32)
 * logical elements (a scale of 64 logical elements stands for two blocks of
 * 32). tc5_gemm_sparse applies it itself. */
tc5_status tc5_dot_sparse(tc5_dot *m);

/* Places M rows of kept element codes Ac (M x K/2) among K by the metadata
 * meta (M x K/g bytes), zeros elsewhere, into A (M x K); elided (M x K
 * bytes, or NULL) gets 1 where an element is elided, 0 where kept.
 * TC5_EILLEGAL, naming the row, elements and nibble, for a value the kind
 * leaves undefined; TC5_EINVAL for K not a multiple of g. */
tc5_status tc5_sparse_expand(tc5_kind kind, unsigned M, unsigned K, const uint32_t *Ac, const uint8_t *meta,
                             uint32_t *A, uint8_t *elided, tc5_diag *diag);

/* tc5_gemm for a sparse A: m is the dense kind's model (tc5_dot_model),
 * Ac the M x K/2 kept elements, meta their metadata, B K x N, K logical.
 * Block-scaled kinds: SA holds M x K/(2 block) scale codes and SB
 * K/(2 block) x N, one a `block` kept elements (K a multiple of 2 block).
 * The elided pairs are absent: B's elements there are never classified.
 * Errors as tc5_gemm's, and tc5_sparse_expand's; diag (may be NULL) says
 * why. */
tc5_status tc5_gemm_sparse(const tc5_dot *m, tc5_kind kind, unsigned M, unsigned N, unsigned K, const uint32_t *Ac,
                           const uint8_t *meta, const uint32_t *B, const uint32_t *SA, const uint32_t *SB,
                           uint32_t *D, const tc5_dot_opts *o, unsigned threads, tc5_diag *diag);

/* tc5_gemm keeps its workspace (up to 64 MiB) for the calling thread's next
 * call; this frees it now (it is freed anyway when the thread exits).
 * Always TC5_OK. */
tc5_status tc5_gemm_release(void);

#ifdef __cplusplus
}
#endif
#endif
