/* tc5 — the special-function unit: the PTX ISA's approximate instructions
 * (ex2, rcp, rsqrt, sqrt, lg2, sin, cos, tanh, div.approx, div.full) bit for
 * bit as NVIDIA's GPUs compute them.
 *
 * The model was measured on an H100 (sm_90a): every one-input f32 form on
 * all 2^32 inputs, the f16/bf16 forms on all 2^16 (and their x2 forms on
 * all 2^32), the f64 forms on every high word, the divisions on every
 * divisor (docs/fidelity.md, `gpu/run.sh sfu`): 0 differences. The MUFU
 * cores are the quadratic interpolator of NVIDIA's G80 design (Oberman &
 * Siu, ARITH 2005) with coefficient tables solved from the H100's outputs;
 * the forms around them (subnormal scaling, the divisions' reciprocal and
 * product) are the instruction sequences ptxas 13.0 emits. The sm_100a
 * machine code of every form is the same as sm_90a's; tc5 uses this model
 * for every target (docs/spec-departures.md: an inference).
 *
 * Operands and results are bit patterns of the instruction's type (f32 in
 * the low 32 bits, f16/bf16 in the low 16, the x2 forms two halves in 32,
 * f64 in 64). */
#ifndef TC5_SFU_H
#define TC5_SFU_H
#include <stdint.h>

#include "tc5/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tc5_sfu_op {
  TC5_SFU_EX2_APPROX_FTZ_F32 = 0,
  TC5_SFU_EX2_APPROX_F32,
  TC5_SFU_RCP_APPROX_FTZ_F32,
  TC5_SFU_RCP_APPROX_F32,
  TC5_SFU_RSQRT_APPROX_FTZ_F32,
  TC5_SFU_RSQRT_APPROX_F32,
  TC5_SFU_SQRT_APPROX_FTZ_F32,
  TC5_SFU_SQRT_APPROX_F32,
  TC5_SFU_LG2_APPROX_FTZ_F32,
  TC5_SFU_LG2_APPROX_F32,
  TC5_SFU_SIN_APPROX_FTZ_F32,
  TC5_SFU_SIN_APPROX_F32,
  TC5_SFU_COS_APPROX_FTZ_F32,
  TC5_SFU_COS_APPROX_F32,
  TC5_SFU_TANH_APPROX_F32,
  TC5_SFU_EX2_APPROX_F16,
  TC5_SFU_EX2_APPROX_F16X2,
  TC5_SFU_EX2_APPROX_FTZ_BF16,
  TC5_SFU_EX2_APPROX_FTZ_BF16X2,
  TC5_SFU_TANH_APPROX_F16,
  TC5_SFU_TANH_APPROX_F16X2,
  TC5_SFU_TANH_APPROX_BF16,
  TC5_SFU_TANH_APPROX_BF16X2,
  TC5_SFU_RCP_APPROX_FTZ_F64,
  TC5_SFU_RSQRT_APPROX_FTZ_F64,
  TC5_SFU_RSQRT_APPROX_F64,
  TC5_SFU_DIV_APPROX_FTZ_F32, /* two operands: a / b */
  TC5_SFU_DIV_APPROX_F32,
  TC5_SFU_DIV_FULL_FTZ_F32,
  TC5_SFU_DIV_FULL_F32,
  TC5_SFU_COUNT
} tc5_sfu_op;

typedef struct tc5_sfu_info {
  const char *ptx;  /* the instruction as PTX writes it: "ex2.approx.ftz.f32" */
  unsigned nargs;   /* 1, or 2 for the divisions                              */
  unsigned bits;    /* width of an operand and of the result: 16, 32 or 64    */
} tc5_sfu_info;

/* The instruction `ptx` names (modifiers in the ISA's order, as in
 * "div.full.ftz.f32"): its op. TC5_EUNSUPPORTED (with a message naming it)
 * for an approximate instruction tc5 has no model of, TC5_EINVAL for NULL. */
tc5_status tc5_sfu_lookup(const char *ptx, tc5_sfu_op *op, tc5_diag *diag);
/* What an op is. TC5_EINVAL for an op out of range or NULL. */
tc5_status tc5_sfu_info_get(tc5_sfu_op op, const tc5_sfu_info **info);
/* *d = op(a) or op(a, b), bit for bit as the H100 computes it (b is ignored
 * by the one-operand ops). TC5_EINVAL for an op out of range or NULL d. */
tc5_status tc5_sfu_eval(tc5_sfu_op op, uint64_t a, uint64_t b, uint64_t *d);

#ifdef __cplusplus
}
#endif
#endif
