/* tc5 PTX runner — building a module and reading it back (issue 51): its
 * registers, constant registers, variables' uses; an instruction's text and
 * source position; the checker's view of its instructions (chk_code). The
 * parser (parse.c), the decoders, the machine and the driver call them;
 * they call none of those. Moved here whole from parse.c and run.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_impl.h"

const char *ptx_insn_text(const tc5_ptx_module *m, const ptx_insn *in) { return m->strings + in->text; }

uint32_t ptx_new_reg(tc5_ptx_module *m, unsigned bits) {
  if (m->nregs >= m->regs_cap) {
    uint32_t nc = m->regs_cap ? m->regs_cap * 2 : 256;
    uint8_t *nb = realloc(m->reg_bits, nc);
    if (!nb) return PTX_NOREG;
    m->reg_bits = nb;
    m->regs_cap = nc;
  }
  m->reg_bits[m->nregs] = (uint8_t)(bits > 255 ? 255 : bits);
  return m->nregs++;
}

const struct ptx_const *ptx_const_of(const tc5_ptx_module *m, uint32_t reg) {
  for (uint32_t k = 0; k < m->nconsts; k++)
    if (m->consts[k].reg == reg) return &m->consts[k];
  return NULL;
}

uint32_t ptx_const_reg(tc5_ptx_module *m, uint8_t kind, uint64_t value, int64_t off) {
  for (uint32_t k = 0; k < m->nconsts; k++)
    if (m->consts[k].value == value && m->consts[k].kind == kind && m->consts[k].off == off)
      return m->consts[k].reg;
  if (m->nconsts >= m->consts_cap) {
    uint32_t nc = m->consts_cap ? m->consts_cap * 2 : 64;
    struct ptx_const *np = realloc(m->consts, nc * sizeof *np);
    if (!np) return PTX_NOREG;
    m->consts = np;
    m->consts_cap = nc;
  }
  uint32_t r = ptx_new_reg(m, 64);
  if (r == PTX_NOREG) return r;
  m->consts[m->nconsts].reg = r;
  m->consts[m->nconsts].kind = kind;
  m->consts[m->nconsts].value = value;
  m->consts[m->nconsts].off = off;
  m->nconsts++;
  return r;
}

void ptx_var_use(tc5_ptx_module *m, unsigned k, unsigned f) { m->vars[k].used_by |= 1ull << (f < 63 ? f : 63); }

void ptx_shared_layout(const tc5_ptx_module *m, unsigned f, uint32_t *addr, uint32_t *static_bytes,
                       uint32_t *dyn_base) {
  uint64_t bit = 1ull << (f < 63 ? f : 63);
  uint32_t sh = 1024, ext = 0;
  for (unsigned k = 0; k < m->nvars; k++) {
    const ptx_var *v = &m->vars[k];
    if (v->space != PS_SHARED || !(v->used_by & bit)) continue;
    uint32_t a = v->align ? v->align : 1;
    if (v->is_extern) {
      if (a > ext) ext = a;
      continue;
    }
    sh = (sh + a - 1) / a * a;
    if (addr) addr[k] = sh;
    sh += v->size;
  }
  if (!ext) ext = 16;
  uint32_t dyn = (sh + ext - 1) / ext * ext;
  for (unsigned k = 0; addr && k < m->nvars; k++)
    if (m->vars[k].space == PS_SHARED && m->vars[k].is_extern) addr[k] = dyn;
  if (static_bytes) *static_bytes = sh - 1024;
  if (dyn_base) *dyn_base = dyn;
}

static const char *src_path(const tc5_ptx_module *m, uint32_t num) {
  for (uint32_t k = m->nfiles; k-- > 0;) /* a later .file of the same number wins */
    if (m->files[k].num == num) return m->strings + m->files[k].path;
  return "";
}

tc5_status tc5_ptx_source_at(const tc5_ptx_module *m, uint32_t ptx_line, tc5_ptx_source *src) {
  if (!m || !src) return TC5_EINVAL;
  memset(src, 0, sizeof *src);
  src->file = src->at_file = "";
  for (uint32_t k = 0; k < m->ncode; k++) {
    const ptx_insn *in = &m->code[k];
    if (in->line != ptx_line) continue;
    if (!in->loc.line) return TC5_OK;
    src->file = src_path(m, in->loc.file);
    src->line = in->loc.line;
    src->col = in->loc.col;
    if (in->loc.at_line) {
      src->at_file = src_path(m, in->loc.at_file);
      src->at_line = in->loc.at_line;
      src->at_col = in->loc.at_col;
    }
    return TC5_OK;
  }
  return TC5_EINVAL;
}

static const char *base_name(const char *path) {
  const char *b = strrchr(path, '/');
  return b ? b + 1 : path;
}

char *ptx_insn_source(const tc5_ptx_module *m, const ptx_insn *in, char *out, size_t cap) {
  if (!cap) return out;
  out[0] = 0;
  if (!m || !in || !in->loc.line) return out;
  const char *f = src_path(m, in->loc.file);
  char tmp[1024];
  if (in->loc.at_line)
    snprintf(tmp, sizeof tmp, "%s:%u (in %s:%u)", src_path(m, in->loc.at_file), in->loc.at_line, base_name(f),
             in->loc.line);
  else
    snprintf(tmp, sizeof tmp, "%s:%u", f, in->loc.line);
  size_t n = strlen(tmp);
  if (n < cap) {
    memcpy(out, tmp, n + 1);
  } else { /* the path's end: "...tail" */
    size_t keep = cap - 4;
    memcpy(out, "...", 3);
    memcpy(out + 3, tmp + n - keep, keep + 1);
  }
  return out;
}

tc5_status tc5_ptx_entry_count(const tc5_ptx_module *m, unsigned *count) {
  if (!m || !count) return TC5_EINVAL;
  unsigned c = 0;
  for (unsigned k = 0; k < m->nfuncs; k++) c += m->funcs[k].is_entry && m->funcs[k].defined;
  *count = c;
  return TC5_OK;
}

tc5_status tc5_ptx_entry_info(const tc5_ptx_module *m, unsigned index, const char **name,
                              unsigned *nparams, tc5_ptx_param_info *params, unsigned cap,
                              uint32_t *static_shared, uint32_t *reqntid) {
  if (!m) return TC5_EINVAL;
  unsigned c = 0;
  for (unsigned k = 0; k < m->nfuncs; k++) {
    const ptx_func *f = &m->funcs[k];
    if (!f->is_entry || !f->defined) continue;
    if (c++ != index) continue;
    if (name) *name = f->name;
    if (nparams) *nparams = f->nparams;
    for (unsigned j = 0; params && j < f->nparams && j < cap; j++) {
      snprintf(params[j].name, sizeof params[j].name, "%s", f->params[j].name);
      params[j].size = f->params[j].size;
      params[j].align = f->params[j].align;
      params[j].is_ptr = f->params[j].is_ptr;
    }
    ptx_shared_layout(m, k, NULL, static_shared, NULL);
    if (reqntid) memcpy(reqntid, f->reqntid, sizeof f->reqntid);
    return TC5_OK;
  }
  return TC5_ERANGE;
}

/* the checker's view of the module's instructions (check/check_event.h):
 * texts and source paths as the module's own strings, the registers each
 * names in operand order */
tc5_status ptx_chk_code(const tc5_ptx_module *m, chk_code *out) {
  memset(out, 0, sizeof *out);
  size_t nr = 0;
  for (uint32_t i = 0; i < m->ncode; i++) {
    const ptx_insn *in = &m->code[i];
    for (unsigned o = 0; o < in->nops; o++) {
      const ptx_opnd *x = &in->o[o];
      if (x->kind == PO_VEC) nr += x->n;
      else if (x->kind == PO_REG || x->kind == PO_ADDR) nr += 1 + (x->kind == PO_REG && x->reg2 != PTX_NOREG);
    }
  }
  out->insn = calloc(m->ncode ? m->ncode : 1, sizeof *out->insn);
  out->regs = calloc(nr ? nr : 1, sizeof *out->regs);
  if (!out->insn || !out->regs) {
    ptx_chk_code_free(out);
    return TC5_ENOMEM;
  }
  uint32_t r = 0;
  for (uint32_t i = 0; i < m->ncode; i++) {
    const ptx_insn *in = &m->code[i];
    chk_insn *c = &out->insn[i];
    c->text = ptx_insn_text(m, in);
    c->line = in->line;
    c->file = in->loc.line ? src_path(m, in->loc.file) : "";
    c->src_line = in->loc.line;
    c->at_line = in->loc.line ? in->loc.at_line : 0;
    c->at_file = c->at_line ? src_path(m, in->loc.at_file) : "";
    c->guard = in->guard == PTX_NOREG ? CHK_NOREG : in->guard;
    c->guard_neg = in->guard_neg;
    c->nops = in->nops;
    c->op3 = in->nops >= 4 ? in->o[3].reg : CHK_NOREG;
    c->traits = in->traits;
    c->regs = out->regs + r;
    uint32_t r0 = r;
    for (unsigned o = 0; o < in->nops; o++) {
      const ptx_opnd *x = &in->o[o];
      uint8_t dst = o == 0 && x->kind != PO_ADDR ? CHK_R_DST : 0;
      if (x->kind == PO_VEC) {
        for (unsigned e = 0; e < x->n; e++) out->regs[r++] = (chk_reg){m->vregs[x->vec + e], (uint8_t)o, dst | CHK_R_VEC};
      } else if (x->kind == PO_REG || x->kind == PO_ADDR) {
        out->regs[r++] = (chk_reg){x->reg, (uint8_t)o, dst};
        if (x->kind == PO_REG && x->reg2 != PTX_NOREG) out->regs[r++] = (chk_reg){x->reg2, (uint8_t)o, dst | CHK_R_SECOND};
      }
    }
    c->nregs = (uint16_t)(r - r0);
    for (uint32_t j = r0; j < r; j++) c->ndst += (out->regs[j].flags & CHK_R_DST) != 0;
  }
  out->n = m->ncode, out->nregs = r;
  return TC5_OK;
}

void ptx_chk_code_free(chk_code *c) {
  free(c->insn);
  free(c->regs);
  memset(c, 0, sizeof *c);
}
