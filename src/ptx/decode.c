/* tc5 PTX runner — the decoder: the table of opcodes (ptx/opcodes.def),
 * each row with the function that takes its modifiers and operands (the
 * decoders live beside the semantics, in exec_*.c, and are reached only
 * through the table), the traits the modifiers decide, and ptx_decode. The
 * helpers the decoders share are decode_helpers.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/decode_impl.h"

/* ---- the opcode table (ptx/opcodes.def): one row per instruction (name:
 * the opcode's first one or two dot-separated parts), its decoder and its
 * static traits ---- */
typedef struct optrow {
  const char *name;
  ptx_dec_fn dec;
  insn_traits traits;
  const char *test;
} optrow;
static const optrow optable[] = {
#define OP(id, name, dec, group, tclass, flags, test) {name, dec, {(flags), OPC_##id, IG_##group, TC_##tclass, 0, 0, 0, 0}, #test},
#include "ptx/opcodes.def"
#undef OP
};

/* the traits the modifiers decide (insn/insn_traits.h), from the row's and
 * the opcode's tokens, before the decoder runs (a decoder may refine them):
 * strong or weak, state space, scope, semantics (the PTX default where the
 * opcode leaves them out), the timing class of typed and memory rows */
static int tok_is(const char *s, const char *const *opts) {
  for (int j = 0; opts[j]; j++)
    if (!strcmp(s, opts[j])) return j;
  return -1;
}
void d_traits(dctx *d, const insn_traits *row) {
  static const char *const sems[] = {"weak", "relaxed", "acquire", "release", "acq_rel", "sc", "volatile", "mmio", NULL};
  static const uint8_t semv[] = {ISEM_WEAK, ISEM_RELAXED, ISEM_ACQUIRE, ISEM_RELEASE, ISEM_ACQ_REL, ISEM_SC,
                                 ISEM_VOLATILE, ISEM_MMIO};
  static const char *const scopes[] = {"cta", "cluster", "gpu", "sys", "gl", NULL};
  static const uint8_t scopev[] = {ISC_CTA, ISC_CLUSTER, ISC_GPU, ISC_SYS, ISC_GPU};
  static const char *const spaces[] = {"global", "shared", "shared::cta", "shared::cluster", "local", "const",
                                       "param", "param::entry", "param::func", NULL};
  static const uint8_t spacev[] = {IS_GLOBAL, IS_SHARED, IS_SHARED, IS_SHARED_CLUSTER, IS_LOCAL, IS_CONST,
                                   IS_PARAM, IS_PARAM, IS_PARAM};
  insn_traits *t = &d->in->traits;
  *t = *row;
  ptx_type type = PT_NONE;
  bool func_param = false;
  for (unsigned k = 1; k < d->ntok; k++) {
    const char *s = d->tok[k];
    int j;
    /* strong: as the memory model's strong operations, and what names an mbarrier */
    if (!strncmp(s, "volatile", 8) || !strncmp(s, "relaxed", 7) || !strncmp(s, "acquire", 7) ||
        !strncmp(s, "release", 7) || strstr(s, "mbarrier"))
      t->flags |= IT_STRONG;
    if ((j = tok_is(s, sems)) >= 0 && !(t->set & ITS_SEM)) t->sem = semv[j], t->set |= ITS_SEM;
    else if ((j = tok_is(s, scopes)) >= 0 && !(t->set & ITS_SCOPE)) t->scope = scopev[j], t->set |= ITS_SCOPE;
    else if ((j = tok_is(s, spaces)) >= 0 && !t->space) t->space = spacev[j], func_param = j == 8;
    else if (type == PT_NONE) type = ptx_type_parse(s, strlen(s));
  }
  const char *sub = d->ntok > 1 ? d->tok[1] : "";
  bool memop = (t->flags & (IT_READ | IT_WRITE)) && t->group == IG_MEM;
  if ((memop || t->group == IG_MBARRIER) && (t->flags & (IT_READ | IT_WRITE)) && !t->space) t->space = IS_GENERIC;
  /* the PTX defaults of semantics and scope */
  if (!(t->set & ITS_SEM)) {
    if (t->flags & IT_ATOMIC && t->group == IG_MEM) t->sem = ISEM_RELAXED;
    else if (memop) t->sem = ISEM_WEAK;
    else if (t->group == IG_FENCE && !strcmp(d->tok[0], "membar")) t->sem = ISEM_SC;
    else if (t->group == IG_FENCE && strcmp(sub, "proxy")) t->sem = ISEM_ACQ_REL;
    else if (t->group == IG_MBARRIER && !strncmp(sub, "arrive", 6)) t->sem = ISEM_RELEASE;
    else if (t->group == IG_MBARRIER && (!strcmp(sub, "test_wait") || !strcmp(sub, "try_wait"))) t->sem = ISEM_ACQUIRE;
  }
  if (!(t->set & ITS_SCOPE) && t->sem > ISEM_WEAK && t->sem != ISEM_VOLATILE && t->sem != ISEM_MMIO)
    t->scope = t->group == IG_MBARRIER ? ISC_CTA : ISC_GPU;
  if (t->sem == ISEM_VOLATILE && !(t->set & ITS_SCOPE)) t->scope = ISC_SYS;
  /* the timing class */
  char cls = type != PT_NONE ? ptx_types[type].cls : 0;
  bool f64 = type == PT_F64, half = type == PT_F16 || type == PT_F16X2 || type == PT_BF16 || type == PT_BF16X2;
  switch (t->tclass) {
  case TC_TYPED:
    t->tclass = f64 ? TC_FP64 : half ? TC_FP16X2 : cls == 'f' ? TC_FP32 : TC_INT;
    break;
  case TC_SFU:
    if (f64) t->tclass = TC_FP64;
    break;
  case TC_LDST_GLOBAL:
    if (t->space == IS_SHARED || t->space == IS_SHARED_CLUSTER) t->tclass = TC_LDST_SHARED;
    else if (t->space == IS_LOCAL || func_param) t->tclass = TC_LDST_LOCAL;
    else if (t->space == IS_CONST || t->space == IS_PARAM) t->tclass = TC_MOVE;
    break;
  default:
    break;
  }
  if (t->group == IG_WGMMA) {
    if (!strcmp(sub, "mma_async")) t->flags |= IT_READ | IT_ASYNC, t->space = IS_SHARED;
    else t->tclass = TC_FENCE;
  } else if (t->group == IG_TCGEN05) {
    static const char *const subs[] = {"mma", "ld", "st", "cp", "shift", "commit", "fence", "wait", NULL};
    static const uint8_t subc[] = {TC_MMA, TC_TMEM, TC_TMEM, TC_TMEM, TC_TMEM, TC_MBARRIER, TC_FENCE, TC_FENCE};
    static const uint32_t subf[] = {IT_READ | IT_WRITE, IT_READ, IT_WRITE, IT_READ | IT_WRITE, IT_READ | IT_WRITE,
                                    IT_BARRIER, IT_FENCE, IT_FENCE};
    int j = tok_is(sub, subs);
    if (j >= 0) {
      t->tclass = subc[j];
      t->flags |= subf[j];
      if (j <= 4) t->space = IS_TMEM;
    }
  } else if (t->group == IG_MMA) {
    t->space = IS_NONE;
  }
}

/* the opcode's row: the longest name that matches its first parts (those
 * after the first taken); of two rows of one name, the FLOAT one for a
 * form with a float type */
static const optrow *find_row(dctx *d) {
  const optrow *row = NULL;
  unsigned parts = 0;
  bool fl = d_has_float_type(d);
  for (size_t k = 0; k < sizeof optable / sizeof optable[0]; k++) {
    const char *n = optable[k].name;
    unsigned np = 0;
    for (;; np++) {
      if (np >= d->ntok) break;
      size_t len = strlen(d->tok[np]);
      if (strncmp(n, d->tok[np], len) || (n[len] && n[len] != '.')) break;
      n += len;
      if (!*n) {
        np++;
        break;
      }
      n++;
    }
    if (*n || !np || np < parts) continue; /* no match, or a shorter one */
    if (np == parts && row && (row->traits.group == IG_FLOAT) == fl) continue;
    row = &optable[k];
    parts = np;
  }
  for (unsigned k = 1; k < parts; k++) d->used[k] = true;
  return row;
}

tc5_status ptx_decode(tc5_ptx_module *m, const ptx_raw *raw, const ptx_resolver *res, ptx_insn *out,
                      tc5_diag *diag) {
  dctx d;
  memset(&d, 0, sizeof d);
  d.m = m;
  d.r = raw;
  d.res = res;
  d.in = out;
  d.diag = diag;
  /* split the opcode at '.' */
  size_t b = 0;
  for (size_t k = 0; k <= raw->oplen; k++) {
    if (k == raw->oplen || raw->op[k] == '.') {
      if (d.ntok >= DEC_MAX_TOK || k - b >= sizeof d.tok[0])
        return d_fail(&d, TC5_EUNSUPPORTED, "opcode with too many or too long modifiers");
      memcpy(d.tok[d.ntok], raw->op + b, k - b);
      d.tok[d.ntok][k - b] = 0;
      d.ntok++;
      b = k + 1;
    }
  }
  out->guard = raw->guard;
  out->guard_neg = raw->guard_neg;
  out->line = raw->line;
  out->col = raw->col;
  out->loc = raw->loc;
  out->vec = 1;
  out->nops = (uint8_t)raw->nops;
  const optrow *row = find_row(&d);
  if (!row) return d_fail(&d, TC5_EUNSUPPORTED, "instruction '%s' is not modelled", d.tok[0]);
  d_traits(&d, &row->traits);
  tc5_status st = row->dec(&d);
  if (!st) st = d_done(&d);
  if (!st && !out->fn) st = d_fail(&d, TC5_EUNSUPPORTED, "this form is not modelled");
  return st;
}
