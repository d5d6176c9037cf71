/* tc5 PTX runner — each instruction's timing class for the timing model
 * (src/timing/timing_event.h), made once per launch with timing on.
 *
 * INTERIM (issue 47): the opcode table of issue 51 (src/ptx/opcodes.def)
 * will carry a timing-class trait per opcode; until it lands, this file
 * maps the opcode's text to a class here, on the runner's side (the runner
 * knows opcodes; the model never reads opcode text). Replace the prefix
 * table below with the trait when it is on main. */
#include <stdlib.h>
#include <string.h>
#include "ptx/ptx_impl.h"
#include "timing/timing_event.h"

static bool has(const char *op, size_t n, const char *part) {
  size_t k = strlen(part);
  for (size_t i = 0; i + k <= n; i++)
    if (!memcmp(op + i, part, k)) return true;
  return false;
}
static bool starts(const char *op, const char *pre) { return !strncmp(op, pre, strlen(pre)); }

static uint8_t class_of(const tc5_ptx_module *m, const ptx_insn *in, const char *op, size_t n) {
  const ptx_type_info *t = &ptx_types[in->type < PT_COUNT ? in->type : 0];
  if (starts(op, "tcgen05.mma")) return TM_C_MMA;
  if (starts(op, "wgmma.mma_async")) return TM_C_MMA;
  if (starts(op, "wgmma.commit_group")) return TM_C_WG_COMMIT;
  if (starts(op, "wgmma.wait_group")) return TM_C_WG_WAIT;
  if (starts(op, "tcgen05.ld")) return TM_C_TMEM_LD;
  if (starts(op, "tcgen05.st") || starts(op, "tcgen05.cp") || starts(op, "tcgen05.shift")) return TM_C_TMEM_ST;
  if (starts(op, "tcgen05.wait")) return TM_C_TMEM_WAIT;
  if (starts(op, "tcgen05.")) return TM_C_TCGEN05;
  if (starts(op, "cp.async.bulk.commit_group")) return TM_C_BULK_COMMIT;
  if (starts(op, "cp.async.bulk.wait_group")) return TM_C_BULK_WAIT;
  if (starts(op, "cp.async.bulk") || starts(op, "cp.reduce.async.bulk") || starts(op, "cp.async.bulk.prefetch")) return TM_C_TMA;
  if (starts(op, "cp.async.commit_group")) return TM_C_CP_COMMIT;
  if (starts(op, "cp.async.wait_group") || starts(op, "cp.async.wait_all")) return TM_C_CP_WAIT;
  if (starts(op, "cp.async")) return TM_C_CP_ASYNC;
  if (starts(op, "mma.sync") || starts(op, "wmma.mma")) return TM_C_MMA_SYNC;
  if (starts(op, "mbarrier.")) return TM_C_MBAR;
  if (starts(op, "bar.") || starts(op, "bar ") || starts(op, "barrier.")) return TM_C_BAR;
  if (starts(op, "bra") || starts(op, "call") || starts(op, "ret") || starts(op, "exit") || starts(op, "brx")) return TM_C_BRANCH;
  if (starts(op, "fence") || starts(op, "membar")) return TM_C_FENCE;
  if (starts(op, "atom") || starts(op, "red.")) return TM_C_ATOMIC;
  if (starts(op, "shfl") || starts(op, "vote") || starts(op, "redux") || starts(op, "match") || starts(op, "activemask") ||
      starts(op, "elect"))
    return TM_C_SHFL;
  if (starts(op, "ld") || starts(op, "st") || starts(op, "prefetch")) {
    bool ld = starts(op, "ld");
    switch (in->space) {
    case PS_SHARED: case PS_SHARED_CLUSTER: return ld ? TM_C_LD_SHARED : TM_C_ST_SHARED;
    case PS_LOCAL: case PS_PARAM_LOCAL: return TM_C_LOCAL;
    case PS_PARAM: return TM_C_MOVE;
    default: return ld ? TM_C_LD_GLOBAL : TM_C_ST_GLOBAL; /* global, const, generic */
    }
  }
  if (starts(op, "ex2") || starts(op, "lg2") || starts(op, "rsqrt") || starts(op, "sin") || starts(op, "cos") ||
      starts(op, "tanh") || (starts(op, "rcp") && has(op, n, ".approx")) || (starts(op, "sqrt") && has(op, n, ".approx")))
    return TM_C_SFU;
  if (starts(op, "cvt") || starts(op, "cvta")) return starts(op, "cvta") ? TM_C_INT : TM_C_CONV;
  if (starts(op, "mov") || starts(op, "selp") || starts(op, "setp") || starts(op, "set.") || starts(op, "prmt") ||
      starts(op, "isspacep") || starts(op, "mapa") || starts(op, "getctarank"))
    return starts(op, "setp") && t->cls == 'f' ? TM_C_FP32 : TM_C_MOVE;
  (void)m;
  if (t->cls == 'f') {
    if (in->type == PT_F64) return TM_C_FP64;
    if (in->type == PT_F16X2 || in->type == PT_BF16X2 || in->type == PT_F16 || in->type == PT_BF16) return TM_C_FP16X2;
    if (starts(op, "div") || starts(op, "rcp") || starts(op, "sqrt")) return TM_C_SFU; /* IEEE div/rcp/sqrt: an SFU seed and Newton steps */
    return TM_C_FP32;
  }
  return TM_C_INT;
}

tc5_status ptx_timing_code(const tc5_ptx_module *m, tm_insn **out) {
  tm_insn *t = calloc(m->ncode ? m->ncode : 1, sizeof *t);
  if (!t) return TC5_ENOMEM;
  for (uint32_t pc = 0; pc < m->ncode; pc++) {
    const ptx_insn *in = &m->code[pc];
    const char *op = ptx_insn_text(m, in);
    size_t n = strcspn(op, " \t");
    t[pc].cls = class_of(m, in, op, n);
    t[pc].text = op;
    t[pc].line = in->line;
    unsigned bits = ptx_types[in->type < PT_COUNT ? in->type : 0].bits;
    unsigned b = (bits ? bits / 8 : 4) * (in->vec ? in->vec : 1);
    t[pc].bytes = (uint8_t)(b > 255 ? 255 : b);
    if (t[pc].cls == TM_C_MMA) t[pc].bytes = starts(op, "tcgen05") ? 1 : 0; /* 1: tcgen05.mma, 0: wgmma */
    if (t[pc].cls == TM_C_CP_ASYNC) t[pc].bytes = 16; /* cp-size: at most 16; the operand is not kept */
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
  *out = t;
  return TC5_OK;
}
