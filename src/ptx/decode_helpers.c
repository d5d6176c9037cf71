/* tc5 PTX runner — what the instruction decoders share (decode_impl.h):
 * the types, the special registers' names, the .target test, and the d_*
 * helpers that take modifiers and operands. The families (exec_*.c) and
 * the decoder (decode.c) call them; they call no family (issue 51: moved
 * here whole from decode.c). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/decode_impl.h"

const ptx_type_info ptx_types[PT_COUNT] = {
    [PT_NONE] = {"", 0, 0},          [PT_B8] = {"b8", 8, 'b'},
    [PT_B16] = {"b16", 16, 'b'},     [PT_B32] = {"b32", 32, 'b'},
    [PT_B64] = {"b64", 64, 'b'},     [PT_B128] = {"b128", 128, 'b'},
    [PT_U8] = {"u8", 8, 'u'},        [PT_U16] = {"u16", 16, 'u'},
    [PT_U32] = {"u32", 32, 'u'},     [PT_U64] = {"u64", 64, 'u'},
    [PT_S8] = {"s8", 8, 's'},        [PT_S16] = {"s16", 16, 's'},
    [PT_S32] = {"s32", 32, 's'},     [PT_S64] = {"s64", 64, 's'},
    [PT_F16] = {"f16", 16, 'f'},     [PT_F16X2] = {"f16x2", 32, 'f'},
    [PT_BF16] = {"bf16", 16, 'f'},   [PT_BF16X2] = {"bf16x2", 32, 'f'},
    [PT_F32] = {"f32", 32, 'f'},     [PT_F32X2] = {"f32x2", 64, 'f'},
    [PT_F64] = {"f64", 64, 'f'},
    [PT_TF32] = {"tf32", 32, 'f'},   [PT_E4M3] = {"e4m3", 8, 'f'},
    [PT_E5M2] = {"e5m2", 8, 'f'},    [PT_E4M3X2] = {"e4m3x2", 16, 'f'},
    [PT_E5M2X2] = {"e5m2x2", 16, 'f'}, [PT_E2M1X2] = {"e2m1x2", 8, 'f'},
    [PT_E2M3X2] = {"e2m3x2", 16, 'f'}, [PT_E3M2X2] = {"e3m2x2", 16, 'f'},
    [PT_UE8M0X2] = {"ue8m0x2", 16, 'f'}, [PT_PRED] = {"pred", 1, 'p'},
};

ptx_type ptx_type_parse(const char *s, size_t n) {
  for (int t = 1; t < PT_COUNT; t++)
    if (strlen(ptx_types[t].name) == n && !memcmp(ptx_types[t].name, s, n)) return (ptx_type)t;
  return PT_NONE;
}

const char *const ptx_sreg_names[SR_COUNT] = {
    "%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y", "%ntid.z",
    "%ctaid.x", "%ctaid.y", "%ctaid.z", "%nctaid.x", "%nctaid.y", "%nctaid.z",
    "%laneid", "%warpid", "%nwarpid", "%smid", "%nsmid", "%gridid",
    "%lanemask_eq", "%lanemask_le", "%lanemask_lt", "%lanemask_ge", "%lanemask_gt",
    "%clusterid.x", "%clusterid.y", "%clusterid.z", "%nclusterid.x", "%nclusterid.y", "%nclusterid.z",
    "%cluster_ctaid.x", "%cluster_ctaid.y", "%cluster_ctaid.z",
    "%cluster_nctaid.x", "%cluster_nctaid.y", "%cluster_nctaid.z",
    "%cluster_ctarank", "%cluster_nctarank", "%is_explicit_cluster",
    "%dynamic_smem_size", "%total_smem_size",
    "%clock", "%clock64", "%globaltimer",
};

bool ptx_target_in(const tc5_ptx_module *m, const char *targets) {
  size_t tl = strcspn(m->target, " ,");
  for (const char *t = targets; *t;) {
    size_t n = strcspn(t, " ");
    /* "sm_103f": sm_103f and sm_103a; an exact name otherwise */
    if (n == tl && !strncmp(t, m->target, n)) return true;
    if (n > 1 && t[n - 1] == 'f' && tl == n && !strncmp(t, m->target, n - 1) && m->target[n - 1] == 'a') return true;
    t += n;
    while (*t == ' ') t++;
  }
  return false;
}

tc5_status d_fail(dctx *d, tc5_status st, const char *fmt, ...) {
  if (d->st) return d->st;
  char msg[200];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  tc5_diag_add(d->diag, st, "line", d->r->line, "%s:%u:%u: %.*s: %s", d->m->name, d->r->line, d->r->col,
               (int)(d->r->oplen > 100 ? 100 : d->r->oplen), d->r->op, msg);
  d->st = st;
  return st;
}

bool d_take(dctx *d, const char *mod) {
  for (unsigned k = 1; k < d->ntok; k++)
    if (!d->used[k] && !strcmp(d->tok[k], mod)) {
      d->used[k] = true;
      return true;
    }
  return false;
}

int d_take_one(dctx *d, const char *const *opts) {
  for (unsigned k = 1; k < d->ntok; k++) {
    if (d->used[k]) continue;
    for (int j = 0; opts[j]; j++)
      if (!strcmp(d->tok[k], opts[j])) {
        d->used[k] = true;
        return j;
      }
  }
  return -1;
}

bool d_has_float_type(const dctx *d) {
  for (unsigned k = 1; k < d->ntok; k++) {
    ptx_type t = ptx_type_parse(d->tok[k], strlen(d->tok[k]));
    if (t != PT_NONE && ptx_types[t].cls == 'f') return true;
  }
  return false;
}

ptx_type d_take_type(dctx *d) {
  for (unsigned k = 1; k < d->ntok; k++) {
    if (d->used[k]) continue;
    ptx_type t = ptx_type_parse(d->tok[k], strlen(d->tok[k]));
    if (t != PT_NONE) {
      d->used[k] = true;
      return t;
    }
  }
  return PT_NONE;
}

const char *d_take_prefix(dctx *d, const char *prefix) {
  size_t n = strlen(prefix);
  for (unsigned k = 1; k < d->ntok; k++)
    if (!d->used[k] && !strncmp(d->tok[k], prefix, n)) {
      d->used[k] = true;
      return d->tok[k] + n;
    }
  return NULL;
}

int d_take_space(dctx *d) {
  static const char *const sp[] = {"global", "shared::cta", "shared::cluster", "shared", "local",
                                   "const", "param", "param::entry", "param::func", NULL};
  static const int map[] = {PS_GLOBAL, PS_SHARED, PS_SHARED_CLUSTER, PS_SHARED, PS_LOCAL,
                            PS_CONST, PS_PARAM, PS_PARAM, PS_PARAM_LOCAL};
  int k = d_take_one(d, sp);
  return k < 0 ? -1 : map[k];
}

int d_var(dctx *d, const char *name) {
  unsigned k;
  return d->res->var(d->res->ctx, d->r->func, d->r->scope, name, &k) ? (int)k : -1;
}

bool d_nops(dctx *d, unsigned lo, unsigned hi) {
  if (d->r->nops < lo || d->r->nops > hi) {
    if (lo == hi) d_fail(d, TC5_EPARSE, "takes %u operands, not %u", lo, d->r->nops);
    else d_fail(d, TC5_EPARSE, "takes %u to %u operands, not %u", lo, hi, d->r->nops);
    return false;
  }
  return true;
}

tc5_status d_done(dctx *d) {
  if (d->st) return d->st;
  for (unsigned k = 1; k < d->ntok; k++)
    if (!d->used[k]) return d_fail(d, TC5_EUNSUPPORTED, "modifier .%s is not modelled here", d->tok[k]);
  return TC5_OK;
}

bool d_dst(dctx *d, unsigned i, ptx_opnd *o) {
  const ptx_raw_opnd *ro = &d->r->ops[i];
  memset(o, 0, sizeof *o);
  if (ro->kind == RO_SINK) {
    o->kind = PO_REG;
    o->reg = ptx_new_reg(d->m, 64);
    o->reg2 = ro->reg2; /* _|%p: the pair's second register */
    return o->reg != PTX_NOREG || !d_fail(d, TC5_ENOMEM, "out of memory");
  }
  if (ro->kind != RO_REG) {
    d_fail(d, TC5_EPARSE, "operand %u must be a register", i + 1);
    return false;
  }
  o->kind = PO_REG;
  o->reg = ro->reg;
  o->reg2 = ro->reg2;
  o->neg = ro->neg;
  return true;
}

bool d_reg128(dctx *d, unsigned i, ptx_opnd *o) {
  const ptx_raw_opnd *ro = &d->r->ops[i];
  if (ro->kind != RO_REG || d->m->reg_bits[ro->reg] != 128) {
    d_fail(d, TC5_EPARSE, "operand %u of %s must be a .b128 register", i + 1, d->tok[0]);
    return false;
  }
  memset(o, 0, sizeof *o);
  o->kind = PO_REG;
  o->reg = ro->reg;
  o->reg2 = PTX_NOREG;
  return true;
}

static uint64_t literal_bits(dctx *d, const ptx_raw_opnd *ro, ptx_type t) {
  unsigned bits = ptx_types[t].bits;
  char cls = ptx_types[t].cls;
  if (cls == 'f' && (t == PT_F32 || t == PT_F64 || t == PT_TF32)) {
    double v;
    if (ro->kind == RO_INT) {
      /* an integer literal for a float operand: its bits (PTX allows hex
       * integer literals as raw bit patterns only through 0f/0d) */
      d_fail(d, TC5_EPARSE, "a float operand needs a float literal (0f..., 0d... or 1.0)");
      return 0;
    }
    if (ro->kind == RO_F32) {
      if (t != PT_F64) return ro->bits;
      float f;
      uint32_t b = (uint32_t)ro->bits;
      memcpy(&f, &b, 4);
      v = f;
    } else {
      memcpy(&v, &ro->bits, 8);
    }
    if (t == PT_F64) {
      uint64_t b;
      memcpy(&b, &v, 8);
      return b;
    }
    float f = (float)v;
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
  }
  uint64_t v = ro->kind == RO_INT ? (uint64_t)ro->ival : ro->bits;
  if (bits < 64 && bits > 1) v &= (1ull << bits) - 1;
  if (cls == 'p') v = v != 0;
  return v;
}

bool d_src_raw(dctx *d, const ptx_raw_opnd *ro, ptx_type t, ptx_opnd *o) {
  memset(o, 0, sizeof *o);
  o->kind = PO_REG;
  o->reg2 = PTX_NOREG;
  o->neg = ro->neg;
  switch (ro->kind) {
  case RO_REG:
    o->reg = ro->reg;
    o->reg2 = ro->reg2;
    if ((t == PT_PRED) != (d->m->reg_bits[ro->reg] == 1)) {
      d_fail(d, TC5_EPARSE, "%s a predicate register where the instruction needs %s",
             t == PT_PRED ? "not" : "", t == PT_PRED ? "a predicate" : "a value");
      return false;
    }
    return true;
  case RO_INT:
  case RO_F32:
  case RO_F64:
    o->reg = ptx_const_reg(d->m, PC_VALUE, literal_bits(d, ro, t), 0);
    break;
  case RO_SREG:
    if (ro->ival >= SR_NCONST) {
      o->kind = PO_SREG;
      o->imm = ro->ival;
      return true;
    }
    o->reg = ptx_const_reg(d->m, PC_SREG, (uint64_t)ro->ival, 0);
    break;
  case RO_SYM: {
    /* the address of a variable (in its own state space), or of an entry's
     * parameter (its offset in the parameter space) */
    const ptx_func *f = &d->m->funcs[d->r->func];
    for (unsigned j = 0; f->is_entry && j < f->nparams; j++)
      if (!strcmp(f->params[j].name, ro->sym)) {
        o->reg = ptx_const_reg(d->m, PC_VALUE, f->params[j].offset, 0);
        goto done;
      }
    int k = d_var(d, ro->sym);
    if (k >= 0) {
      o->reg = ptx_const_reg(d->m, PC_VAR, (unsigned)k, 0);
      ptx_var_use(d->m, (unsigned)k, d->r->func);
      goto done;
    }
    d_fail(d, TC5_EPARSE, "'%s' is not a register, a variable or a special register", ro->sym);
    return false;
  }
  case RO_SINK:
    d_fail(d, TC5_EPARSE, "'_' is not a source operand");
    return false;
  default:
    d_fail(d, TC5_EPARSE, "expected a register or a literal");
    return false;
  }
done:
  if (o->reg == PTX_NOREG) {
    d_fail(d, TC5_ENOMEM, "out of memory");
    return false;
  }
  return !d->st;
}

bool d_src(dctx *d, unsigned i, ptx_type t, ptx_opnd *o) {
  if (i >= d->r->nops) {
    d_fail(d, TC5_EPARSE, "operand %u is missing", i + 1);
    return false;
  }
  return d_src_raw(d, &d->r->ops[i], t, o);
}

static bool addr_base(dctx *d, const ptx_raw_opnd *ro, ptx_opnd *o, uint8_t *space_hint);
bool d_addr(dctx *d, unsigned i, ptx_opnd *o, uint8_t *space_hint) {
  const ptx_raw_opnd *ro = &d->r->ops[i];
  if (ro->kind != RO_ADDR || ro->n) {
    d_fail(d, TC5_EPARSE, "operand %u must be an address [...]%s", i + 1, ro->n ? " without coordinates" : "");
    return false;
  }
  return addr_base(d, ro, o, space_hint);
}
/* [base + offset] of an address operand */
static bool addr_base(dctx *d, const ptx_raw_opnd *ro, ptx_opnd *o, uint8_t *space_hint) {
  memset(o, 0, sizeof *o);
  o->kind = PO_ADDR;
  o->imm = ro->ival;
  o->reg = ro->reg != PTX_NOREG ? ro->reg : d->m->zero_reg;
  if (ro->sym) {
    const ptx_func *f = &d->m->funcs[d->r->func];
    for (unsigned k = 0; k < f->nparams; k++)
      if (!strcmp(f->params[k].name, ro->sym)) {
        /* an entry's parameters: the launch's parameter buffer; a .func's:
         * its frame, where call copies the arguments */
        o->imm += f->params[k].offset + (f->is_entry ? 0 : f->frame_base);
        if (space_hint) *space_hint = f->is_entry ? PS_PARAM : PS_PARAM_LOCAL;
        return true;
      }
    for (unsigned k = 0; k < f->nrets; k++)
      if (!strcmp(f->rets[k].name, ro->sym)) {
        o->imm += f->rets[k].offset + f->frame_base;
        if (space_hint) *space_hint = PS_PARAM_LOCAL;
        return true;
      }
    int k = d_var(d, ro->sym);
    if (k >= 0) {
      o->reg = ptx_const_reg(d->m, PC_VAR, (unsigned)k, 0);
      ptx_var_use(d->m, (unsigned)k, d->r->func);
      if (space_hint) *space_hint = d->m->vars[k].space;
      if (o->reg == PTX_NOREG) { /* the failure named, or the decoder reads "not modelled" */
        d_fail(d, TC5_ENOMEM, "out of memory");
        return false;
      }
      return true;
    }
    d_fail(d, TC5_EPARSE, "'%s' in an address is not a variable or a parameter", ro->sym);
    return false;
  }
  return true;
}

bool d_push_vreg(dctx *d, uint32_t reg) {
  tc5_ptx_module *m = d->m;
  if (m->nvregs >= m->vregs_cap) {
    uint32_t nc = m->vregs_cap ? m->vregs_cap * 2 : 1024;
    uint32_t *np = realloc(m->vregs, nc * sizeof *np);
    if (!np) {
      d_fail(d, TC5_ENOMEM, "out of memory");
      return false;
    }
    m->vregs = np;
    m->vregs_cap = nc;
  }
  m->vregs[m->nvregs++] = reg;
  return true;
}

static bool vec_elems(dctx *d, const ptx_raw_opnd *ro, unsigned i, unsigned n, bool dst, ptx_type t, ptx_opnd *o);
bool d_vec(dctx *d, unsigned i, unsigned n, bool dst, ptx_type t, ptx_opnd *o) {
  const ptx_raw_opnd *ro = &d->r->ops[i];
  memset(o, 0, sizeof *o);
  if (ro->kind != RO_VEC) {
    d_fail(d, TC5_EPARSE, "operand %u must be a vector {...}", i + 1);
    return false;
  }
  return vec_elems(d, ro, i, n, dst, t, o);
}
bool d_tensor_addr(dctx *d, unsigned i, unsigned n, ptx_opnd *addr, ptx_opnd *coords) {
  const ptx_raw_opnd *ro = &d->r->ops[i];
  if (ro->kind != RO_ADDR || ro->n == 0) {
    d_fail(d, TC5_EPARSE, "operand %u must be [tensorMap, {coordinates}]", i + 1);
    return false;
  }
  memset(coords, 0, sizeof *coords);
  if (!vec_elems(d, ro, i, n, false, PT_S32, coords)) return false;
  return addr_base(d, ro, addr, NULL);
}
static bool vec_elems(dctx *d, const ptx_raw_opnd *ro, unsigned i, unsigned n, bool dst, ptx_type t, ptx_opnd *o) {
  if (n && ro->n != n) {
    d_fail(d, TC5_EPARSE, "operand %u must have %u elements, not %u", i + 1, n, ro->n);
    return false;
  }
  o->kind = PO_VEC;
  o->n = ro->n;
  o->vec = d->m->nvregs;
  for (unsigned k = 0; k < ro->n; k++) {
    const ptx_raw_opnd *e = &d->r->elems[ro->first + k];
    ptx_opnd x;
    memset(&x, 0, sizeof x); /* a destination sets only x.reg; x.kind is read below */
    if (dst) {
      if (e->kind == RO_SINK) {
        x.reg = ptx_new_reg(d->m, 64);
        if (x.reg == PTX_NOREG) {
          d_fail(d, TC5_ENOMEM, "out of memory");
          return false;
        }
      } else if (e->kind == RO_REG) {
        x.reg = e->reg;
      } else {
        d_fail(d, TC5_EPARSE, "element %u of operand %u must be a register", k + 1, i + 1);
        return false;
      }
    } else if (!d_src_raw(d, e, t, &x)) {
      return false;
    }
    if (x.kind == PO_SREG) {
      d_fail(d, TC5_EUNSUPPORTED, "%s inside a vector is not modelled", ptx_sreg_names[x.imm]);
      return false;
    }
    if (!d_push_vreg(d, x.reg)) return false;
  }
  return true;
}

bool d_label(dctx *d, unsigned i, ptx_opnd *o) {
  const ptx_raw_opnd *ro = &d->r->ops[i];
  memset(o, 0, sizeof *o);
  uint32_t pc;
  if (ro->kind != RO_SYM || !d->res->label(d->res->ctx, d->r->scope, ro->sym, &pc)) {
    d_fail(d, TC5_EPARSE, "operand %u must be a label of this function", i + 1);
    return false;
  }
  o->kind = PO_LABEL;
  o->imm = pc;
  return true;
}

bool d_imm(dctx *d, unsigned i, int64_t *v) {
  const ptx_raw_opnd *ro = &d->r->ops[i];
  if (i >= d->r->nops || ro->kind != RO_INT) {
    d_fail(d, TC5_EPARSE, "operand %u must be an integer literal", i + 1);
    return false;
  }
  *v = ro->ival;
  return true;
}
