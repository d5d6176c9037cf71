/* tc5 PTX runner — each instruction's timing class for the timing model
 * (src/timing/timing_event.h), made once per launch with timing on.
 *
 * The class is the opcode table's timing-class trait (ptx/opcodes.def,
 * insn/insn_traits.h: in->traits.tclass, set by the row and the decoder),
 * split where the model needs finer classes than the trait gives: the
 * commits and waits of asynchronous groups (the runner's own PF_GROUP /
 * PF_LATE / PF_FLUSH_WARP flags), loads from stores (IT_READ / IT_WRITE),
 * conversions between float widths from the others (the cvt's two types),
 * and, for the few sub-operations no trait or flag separates (wgmma.commit
 * vs wait vs fence, tcgen05.wait vs fence, cp.async.mbarrier.arrive), the
 * opcode's sub-name: the runner knows opcodes; the model never reads text. */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "ptx/ptx_impl.h"
#include "timing/timing_event.h"

static bool starts(const char *op, const char *pre) { return !strncmp(op, pre, strlen(pre)); }

/* a tcgen05 sub-operation the decoder's sub-name table leaves unclassed (t47c): the decoder matches the
 * whole second token, and `tcgen05.wait::ld` / `wait::st` have a token of their own ("wait::ld"), so
 * they reached the model as TM_C_TCGEN05 and no warp ever waited for its Tensor Memory loads and
 * stores (PTX ISA, tcgen05.wait: the executing thread blocks until all prior tcgen05.ld / tcgen05.st
 * it issued complete). The checker's traits are left as they are; only the timing class is split. */
static uint8_t tcgen05_other(const char *op) { return starts(op, "tcgen05.wait::") ? TM_C_TMEM_WAIT : TM_C_TCGEN05; }
/* f32 compares, selects, min and max: ptxas makes FSETP, FSEL (or SEL) and
 * FMNMX of them, which the H200 issues at half the FP32 rate (t47r2, run 6's
 * issue_fsel/fmnmx/fsetp_fsel rows); the other f32 arithmetic is FFMA/FADD/FMUL */
static bool fsel_op(const char *op) {
  return starts(op, "setp.") || starts(op, "selp.") || starts(op, "min.") || starts(op, "max.");
}

/* integer multiplies and multiply-adds: ptxas makes IMAD (IMAD.WIDE, IMAD.HI)
 * of them, which the H200 issues on a pipe of its own, not the integer
 * ALU's (t47s, run 8's issue_imad_lop3: IMAD and LOP3 alternating at 1.04
 * clk a warp-instruction, each 2.0 alone) */
static bool imad_op(const char *op) { return starts(op, "mul.") || starts(op, "mad."); }
/* their high-half and wide forms of 32-bit operands (mul/mad .hi, .wide): ptxas makes IMAD.HI(.U32) and
 * IMAD.WIDE(.U32) of them, which the H200 issues at half IMAD's rate (t47i, run 13: 4.07-4.18 clk a
 * warp-instruction a scheduler against IMAD's 2.02-2.07; tutorial 04's Philox is mul.hi.u32) */
static bool imad_wide_op(const ptx_insn *in, const char *op) {
  return (starts(op, "mul.hi.") || starts(op, "mad.hi.") || starts(op, "mul.wide.") || starts(op, "mad.wide.")) &&
         ptx_types[in->type < PT_COUNT ? in->type : 0].bits == 32;
}

static uint8_t class_of(const ptx_insn *in, const char *op) {
  const insn_traits *t = &in->traits;
  bool rd = t->flags & IT_READ, wr = t->flags & IT_WRITE;
  switch ((insn_tclass)t->tclass) {
  case TC_INT: return imad_wide_op(in, op) ? TM_C_IMAD_WIDE : imad_op(op) ? TM_C_IMAD : TM_C_INT;
  case TC_FP32: return fsel_op(op) ? TM_C_FSEL : TM_C_FP32;
  case TC_FP16X2: return TM_C_FP16X2;
  case TC_FP64: return TM_C_FP64;
  case TC_SFU: return TM_C_SFU;
  case TC_CVT: { /* between float widths of at most 32 bits (F2FP, HADD2.F32) the fast form; with an integer or f64: F2I/I2F/F2F */
    const ptx_type_info *d = &ptx_types[in->type < PT_COUNT ? in->type : 0], *s = &ptx_types[in->type2 < PT_COUNT ? in->type2 : 0];
    return d->cls == 'f' && s->cls == 'f' && d->bits <= 32 && s->bits <= 32 ? TM_C_CONV_FLOAT : TM_C_CONV;
  }
  case TC_MOVE: return TM_C_MOVE;
  case TC_LDST_SHARED: return wr && !rd ? TM_C_ST_SHARED : TM_C_LD_SHARED;
  case TC_LDST_GLOBAL: return wr && !rd ? TM_C_ST_GLOBAL : TM_C_LD_GLOBAL;
  case TC_LDST_LOCAL: return TM_C_LOCAL;
  case TC_ATOMIC: return TM_C_ATOMIC;
  case TC_WARP: return TM_C_SHFL;
  case TC_BAR: return TM_C_BAR;
  case TC_MBARRIER: return t->group == IG_TCGEN05 ? TM_C_TCGEN05 : TM_C_MBAR; /* tcgen05.commit: tm_commit times it */
  case TC_BRANCH: return TM_C_BRANCH;
  case TC_TMA:
    if (in->flags & PF_GROUP) return in->flags & PF_LATE ? TM_C_BULK_COMMIT : TM_C_BULK_WAIT;
    return TM_C_TMA;
  case TC_CP_ASYNC:
    if (in->flags & PF_GROUP) return in->flags & PF_LATE ? TM_C_CP_COMMIT : TM_C_CP_WAIT;
    if (starts(op, "cp.async.wait_all")) return TM_C_CP_WAIT;
    if (starts(op, "cp.async.commit_group")) return TM_C_CP_COMMIT;
    if (starts(op, "cp.async.mbarrier")) return TM_C_CP_ASYNC_ARRIVE;
    return TM_C_CP_ASYNC;
  case TC_MMA: return t->group == IG_MMA ? TM_C_MMA_SYNC : TM_C_MMA;
  case TC_TMEM: return rd && !wr ? TM_C_TMEM_LD : TM_C_TMEM_ST;
  case TC_FENCE:
    if (t->group == IG_WGMMA) return starts(op, "wgmma.commit_group") ? TM_C_WG_COMMIT : starts(op, "wgmma.wait_group") ? TM_C_WG_WAIT : TM_C_FENCE;
    if (t->group == IG_TCGEN05) return starts(op, "tcgen05.wait") ? TM_C_TMEM_WAIT : TM_C_FENCE;
    return TM_C_FENCE;
  case TC_OTHER: return t->group == IG_TCGEN05 ? tcgen05_other(op) : TM_C_OTHER;
  default: return TM_C_OTHER;
  }
}

/* ldmatrix / stmatrix: bytes a lane moves, from the shape: m8n8 .x1/.x2/.x4
 * one, two, four b32 registers a lane (8x8 b16 matrices, 128 B each a
 * warp); m16n16 (.b8) twice that (t47h: the type's 2 bytes undercounted an
 * .x4's 512 B a warp eightfold) */
static unsigned matrix_bytes(const char *op) {
  char name[96];
  size_t n = strcspn(op, " \t");
  snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), op); /* the opcode, not its operands */
  unsigned regs = strstr(name, ".x4") ? 4 : strstr(name, ".x2") ? 2 : 1;
  if (strstr(name, ".m16n16")) regs *= 2;
  return 4 * regs;
}

/* a `mov` whose every operand is a declared register (a vector of them
 * included: the packs and unpacks `mov.b64 %rd, {%r, %r}`), not an
 * immediate or special register (constant registers), and unguarded:
 * ptxas gives source and destination one register or folds the move
 * into its users (t47b2: Gluon 07's 319 PTX movs leave 3 MOV and 11
 * IMAD.MOV in its sm_100a SASS) */
static bool reg_move(const tc5_ptx_module *m, const ptx_insn *in, const char *op, const uint8_t *isconst) {
  if (!starts(op, "mov") || (op[3] != '.' && op[3] != ' ' && op[3] != '\t') || in->guard != PTX_NOREG || in->nops != 2)
    return false;
  for (unsigned k = 0; k < in->nops; k++) {
    const ptx_opnd *o = &in->o[k];
    if (o->kind == PO_REG) {
      if (o->reg >= m->nregs || isconst[o->reg]) return false;
    } else if (o->kind == PO_VEC) {
      for (unsigned j = 0; j < o->n; j++) {
        uint32_t r = o->vec + j < m->nvregs ? m->vregs[o->vec + j] : PTX_NOREG;
        if (r >= m->nregs || isconst[r]) return false;
      }
    } else return false;
  }
  return true;
}

tc5_status ptx_timing_code(const tc5_ptx_module *m, tm_insn **out) {
  tm_insn *t = calloc(m->ncode ? m->ncode : 1, sizeof *t);
  uint8_t *isconst = calloc(m->nregs ? m->nregs : 1, 1);
  if (!t || !isconst) {
    free(t);
    free(isconst);
    return TC5_ENOMEM;
  }
  for (uint32_t k = 0; k < m->nconsts; k++)
    if (m->consts[k].reg < m->nregs) isconst[m->consts[k].reg] = 1;
  for (uint32_t pc = 0; pc < m->ncode; pc++) {
    const ptx_insn *in = &m->code[pc];
    const char *op = ptx_insn_text(m, in);
    size_t n = strcspn(op, " \t");
    t[pc].cls = class_of(in, op);
    if (t[pc].cls == TM_C_MOVE && reg_move(m, in, op, isconst)) t[pc].cls = TM_C_REG_MOVE;
    t[pc].text = op;
    t[pc].line = in->line;
    unsigned bits = ptx_types[in->type < PT_COUNT ? in->type : 0].bits;
    unsigned b = (bits ? bits / 8 : 4) * (in->vec ? in->vec : 1);
    t[pc].bytes = (uint8_t)(b > 255 ? 255 : b);
    if (t[pc].cls == TM_C_MMA) t[pc].bytes = starts(op, "tcgen05") ? 1 : 0; /* 1: tcgen05.mma, 0: wgmma */
    if (t[pc].cls == TM_C_CP_ASYNC) t[pc].bytes = 16;
    if (starts(op, "ldmatrix") || starts(op, "stmatrix")) t[pc].bytes = (uint8_t)matrix_bytes(op);
    if (t[pc].cls == TM_C_CP_ASYNC_ARRIVE) t[pc].bytes = 0; /* cp-size: at most 16; the operand is not kept */
    if (t[pc].cls == TM_C_MMA_SYNC) { /* mma.sync.m16n8k16: 2*16*8*16 FLOPs; others by their shape text */
      unsigned M = 16, N = 8, K = 16;
      const char *s = strstr(op, ".m");
      if (s && s < op + n) {
        unsigned a, b2, c;
        if (sscanf(s, ".m%un%uk%u", &a, &b2, &c) == 3) M = a, N = b2, K = c;
      }
      t[pc].flops = (uint16_t)(2u * M * N * K / 64);
    }
  }
  free(isconst);
  *out = t;
  return TC5_OK;
}

/* the value of register `reg` where the entry f makes it constant: a
 * constant register (an immediate), or a register whose every write in f
 * is a `mov` of one and the same immediate (nvcc's `mov.b32 %r23, 64;`
 * before `tcgen05.alloc ... [%r22], %r23;`); false otherwise */
static bool const_value(const tc5_ptx_module *m, const ptx_func *f, const chk_insn *ck, uint32_t reg, uint64_t *v) {
  const struct ptx_const *k = ptx_const_of(m, reg);
  if (k) {
    *v = k->value;
    return k->kind == PC_VALUE;
  }
  bool seen = false;
  for (uint32_t pc = f->first; pc < f->first + f->count; pc++) {
    const chk_insn *c = &ck[pc];
    bool writes = false;
    for (unsigned j = 0; j < c->nregs; j++)
      if (c->regs[j].reg == reg && (c->regs[j].flags & CHK_R_DST)) writes = true;
    if (!writes) continue;
    const ptx_insn *in = &m->code[pc];
    const char *op = ptx_insn_text(m, in);
    uint64_t x;
    if (!starts(op, "mov") || in->nops != 2 || in->o[1].kind != PO_REG || in->o[1].reg == reg ||
        !const_value(m, f, ck, in->o[1].reg, &x) || (seen && x != *v))
      return false;
    *v = x, seen = true;
  }
  return seen;
}

/* The Tensor Memory columns a CTA of entry f holds at most (t47u, issue
 * 47: occupancy by Tensor Memory): the sum of nCols over f's
 * tcgen05.alloc instructions, each taken as held for the CTA's life (an
 * upper bound when a CTA deallocates before it allocates again); a
 * .cta_group::2 allocation takes nCols in each CTA of the pair, and each
 * CTA executes the instruction, so it counts like a ::1. *line: the PTX
 * line of the first allocation whose nCols the PTX does not make constant,
 * or that lies in a called .func (0: every one is known). */
void ptx_timing_tmem(const tc5_ptx_module *m, const ptx_func *f, const chk_insn *ck, uint32_t *cols, uint32_t *line) {
  uint64_t sum = 0;
  *line = 0;
  for (uint32_t pc = 0; pc < m->ncode; pc++) {
    const ptx_insn *in = &m->code[pc];
    if (!starts(ptx_insn_text(m, in), "tcgen05.alloc")) continue;
    const ptx_func *g = in->func < m->nfuncs ? &m->funcs[in->func] : NULL;
    if (g == f) {
      uint64_t v;
      if (in->nops >= 2 && in->o[1].kind == PO_REG && const_value(m, f, ck, in->o[1].reg, &v)) {
        sum += v;
        continue;
      }
    } else if (!g || g->is_entry) {
      continue; /* another entry's */
    }
    if (!*line) *line = in->line;
  }
  *cols = (uint32_t)(sum > 0xFFFFFFFFu ? 0xFFFFFFFFu : sum);
}
