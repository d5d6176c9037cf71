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

/* the rows of the opcode table (ptx/opcodes.def): OPC_<id> */
enum ptx_opcode {
#define OP(id, ...) OPC_##id,
#include "ptx/opcodes.def"
#undef OP
  OPC_COUNT
};

/* the traits of the row and of the modifiers (decode.c, before the decoder
 * runs; a decoder may refine d->in->traits) */
void d_traits(dctx *d, const insn_traits *row);

/* the decoders: one prototype per row of ptx/opcodes.def (a decoder serving
 * several rows is declared once per row) */
#define PTX_DEC(name) tc5_status name(dctx *d)
#define OP(id, name, dec, ...) PTX_DEC(dec);
#include "ptx/opcodes.def"
#undef OP
/* exec_tma.c's own: cp.async.bulk* after "bulk" was taken (reduce: cp.reduce.async.bulk*) */
tc5_status ptx_dec_bulk(dctx *d, bool reduce);

#endif
