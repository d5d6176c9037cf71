/* tc5 PTX runner — what the instruction decoders share (decode.c): the
 * opcode's modifiers as tokens to take one by one, operands turned into
 * registers. A decoder takes every modifier it understands; one left over
 * is an error naming it (TC5_EUNSUPPORTED), never ignored. */
#ifndef TC5_PTX_DECODE_IMPL_H
#define TC5_PTX_DECODE_IMPL_H
#include "ptx/ptx_impl.h"

#define DEC_MAX_TOK 24
typedef struct dctx {
  tc5_ptx_module *m;
  const ptx_raw *r;
  const ptx_resolver *res;
  ptx_insn *in;
  tc5_diag *diag;
  char tok[DEC_MAX_TOK][48]; /* the opcode text split at '.' (tok[0] the name) */
  bool used[DEC_MAX_TOK];
  unsigned ntok;
  tc5_status st;
} dctx;

typedef tc5_status (*ptx_dec_fn)(dctx *d);

tc5_status d_fail(dctx *d, tc5_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* takes modifier `mod` (no dot) when present */
bool d_take(dctx *d, const char *mod);
/* takes the first of `opts` (NULL-terminated) present: its index, or -1 */
int d_take_one(dctx *d, const char *const *opts);
/* whether a type modifier is a float type (add, abs... choose their decoder by it) */
bool d_has_float_type(const dctx *d);
/* takes the next type modifier (PT_NONE when none is left) */
ptx_type d_take_type(dctx *d);
/* takes a modifier starting with `prefix` ("cta_group::"): the rest, or NULL */
const char *d_take_prefix(dctx *d, const char *prefix);
/* takes a state space: PS_* or -1 */
int d_take_space(dctx *d);
/* the variable `name` as seen from the instruction's block: its index in
 * module->vars, or -1 */
int d_var(dctx *d, const char *name);
/* operand count in [lo, hi] */
bool d_nops(dctx *d, unsigned lo, unsigned hi);
/* operand i as a destination register (a sink gets a scratch register) */
bool d_dst(dctx *d, unsigned i, ptx_opnd *o);
/* operand i as a source register of type t (literals, special registers and
 * variables become constant registers) */
bool d_src(dctx *d, unsigned i, ptx_type t, ptx_opnd *o);
/* a raw scalar (operand or vector element) as a source register */
bool d_src_raw(dctx *d, const ptx_raw_opnd *ro, ptx_type t, ptx_opnd *o);
/* operand i as a .b128 register (its halves in reg and reg + 1) */
bool d_reg128(dctx *d, unsigned i, ptx_opnd *o);
/* operand i as [address]; *space_hint gets the variable's space when the
 * base is a variable (else unchanged) */
bool d_addr(dctx *d, unsigned i, ptx_opnd *o, uint8_t *space_hint);
/* operand i as [tensorMap, {c0, ...}]: the map's address and n (0: any)
 * coordinate registers */
bool d_tensor_addr(dctx *d, unsigned i, unsigned n, ptx_opnd *addr, ptx_opnd *coords);
/* operand i as a vector {a, b, ...} of n (0: any) registers */
bool d_vec(dctx *d, unsigned i, unsigned n, bool dst, ptx_type t, ptx_opnd *o);
/* appends a value to the module's vector pool (module->vregs) */
bool d_push_vreg(dctx *d, uint32_t v);
/* operand i as a label */
bool d_label(dctx *d, unsigned i, ptx_opnd *o);
/* operand i as an integer literal */
bool d_imm(dctx *d, unsigned i, int64_t *v);
/* every modifier taken? (the error names the first one left) */
tc5_status d_done(dctx *d);

/* the decoders, by file */
#define PTX_DEC(name) tc5_status name(dctx *d)
/* exec_alu.c */
PTX_DEC(dec_intbin);   /* add sub mul mad div rem min max ... */
PTX_DEC(dec_logic);    /* and or xor not cnot */
PTX_DEC(dec_shift);    /* shl shr */
PTX_DEC(dec_bits);     /* popc clz brev bfind bfe bfi prmt lop3 shf */
PTX_DEC(dec_setp);
PTX_DEC(dec_testp);  /* testp.{finite,...}.{f32,f64} */
PTX_DEC(dec_copysign);  /* copysign.{f32,f64} */
PTX_DEC(dec_addc);  /* addc subc madc: carry in (9.7.2) */
PTX_DEC(dec_selp);
PTX_DEC(dec_mov);
PTX_DEC(dec_abs_neg);
PTX_DEC(dec_sad);
/* exec_float.c */
PTX_DEC(dec_fbin);     /* add sub mul fma mad div min max for floats */
PTX_DEC(dec_funary);   /* rcp sqrt rsqrt ex2 lg2 sin cos tanh abs neg */
PTX_DEC(dec_cvt);
/* exec_mem.c */
PTX_DEC(dec_ld);
PTX_DEC(dec_st);
PTX_DEC(dec_atom);
PTX_DEC(dec_cvta);
PTX_DEC(dec_mapa);     /* mapa, getctarank */
PTX_DEC(dec_createpolicy);  /* createpolicy.fractional */
PTX_DEC(dec_ldmatrix);
PTX_DEC(dec_stmatrix);
PTX_DEC(dec_cp_async);
PTX_DEC(dec_nop);      /* prefetch, membar, nanosleep ... */
PTX_DEC(dec_fence);    /* fence (fence.proxy.async is followed by the checker) */
/* exec_tma.c */
PTX_DEC(dec_cp_reduce); /* cp.reduce.async.bulk */
PTX_DEC(dec_tensormap); /* tensormap.replace, tensormap.cp_fenceproxy */
/* cp.async.bulk* after "bulk" was taken (reduce: cp.reduce.async.bulk*) */
tc5_status ptx_dec_bulk(dctx *d, bool reduce);
/* exec_warp.c */
PTX_DEC(dec_bra);
PTX_DEC(dec_brx);    /* brx.idx through a .branchtargets table */
PTX_DEC(dec_exit);
PTX_DEC(dec_bar);
PTX_DEC(dec_elect);
PTX_DEC(dec_shfl);
PTX_DEC(dec_redux);    /* redux.sync */
PTX_DEC(dec_vote);
PTX_DEC(dec_match);
PTX_DEC(dec_activemask);
PTX_DEC(dec_mbarrier);
PTX_DEC(dec_clc);      /* clusterlaunchcontrol.try_cancel / query_cancel (exec_clc.c) */
PTX_DEC(dec_call);
PTX_DEC(dec_trap);
PTX_DEC(dec_isspacep);
/* exec_mma.c */
PTX_DEC(dec_mma);      /* mma.sync.aligned */
/* exec_wgmma.c */
PTX_DEC(dec_wgmma);
/* exec_tcgen05.c */
PTX_DEC(dec_tcgen05);

#endif
