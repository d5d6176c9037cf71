/* tc5 — MMA kinds and tcgen05.mma variants (spec 9.7.16.10, 9.7.16.10.9). */
#include "tc5/kind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/spec_tables.h"
#include "util/strbuf.h"

const char *tc5_kind_name(tc5_kind k) {
  const tc5_kind_info *ki = tc5_spec_kind(k);
  return ki ? ki->name : "?";
}

tc5_status tc5_kind_parse(const char *text, tc5_kind *k) {
  if (!text || !k) return TC5_EINVAL;
  if (*text == '.') text++;
  if (strncmp(text, "kind::", 6) == 0) text += 6;
  for (int i = 0; i < TC5_KIND_COUNT; i++) {
    if (strcmp(text, tc5_spec_kind((tc5_kind)i)->name) == 0) {
      *k = (tc5_kind)i;
      return TC5_OK;
    }
  }
  return TC5_EINVAL;
}

bool tc5_kind_is_block_scaled(tc5_kind k) {
  const tc5_kind_info *ki = tc5_spec_kind(k);
  return ki && ki->idesc_table != 42;
}

const char *tc5_arch_name(tc5_arch a) {
  switch (a) {
  case TC5_ARCH_SM100A: return "sm_100a";
  case TC5_ARCH_SM103A: return "sm_103a";
  }
  return "?";
}

tc5_status tc5_arch_parse(const char *text, tc5_arch *a) {
  if (!text || !a) return TC5_EINVAL;
  if (!strcmp(text, "sm_100a") || !strcmp(text, "sm_100f") ||
      !strcmp(text, "sm100")) {
    *a = TC5_ARCH_SM100A;
    return TC5_OK;
  }
  if (!strcmp(text, "sm_103a") || !strcmp(text, "sm_103f") ||
      !strcmp(text, "sm103")) {
    *a = TC5_ARCH_SM103A;
    return TC5_OK;
  }
  return TC5_EINVAL;
}

tc5_status tc5_mma_variant_init(tc5_mma_variant *v, tc5_kind kind) {
  if (!v || (unsigned)kind >= TC5_KIND_COUNT) return TC5_EINVAL;
  memset(v, 0, sizeof *v);
  v->kind = kind;
  v->cta_group = 1;
  v->block_scale = tc5_kind_is_block_scaled(kind);
  v->arch = TC5_ARCH_SM100A;
  return TC5_OK;
}

static const char *collector_op_name(tc5_collector_op op) {
  switch (op) {
  case TC5_COLLECTOR_FILL: return "fill";
  case TC5_COLLECTOR_USE: return "use";
  case TC5_COLLECTOR_LASTUSE: return "lastuse";
  case TC5_COLLECTOR_DISCARD: return "discard";
  default: return "";
  }
}

static const char *collector_buf_name(tc5_collector_buf b) {
  switch (b) {
  case TC5_COLLECTOR_BUF_A: return "a";
  case TC5_COLLECTOR_BUF_B0: return "b0";
  case TC5_COLLECTOR_BUF_B1: return "b1";
  case TC5_COLLECTOR_BUF_B2: return "b2";
  case TC5_COLLECTOR_BUF_B3: return "b3";
  default: return "";
  }
}

/* "collector::b2::use" */
static bool parse_collector(const char *tok, tc5_mma_variant *v) {
  static const char *ops[] = {"fill", "use", "lastuse", "discard"};
  static const char *bufs[] = {"a", "b0", "b1", "b2", "b3"};
  if (strncmp(tok, "collector::", 11) != 0) return false;
  const char *p = tok + 11;
  const char *sep = strstr(p, "::");
  if (!sep) return false;
  size_t blen = (size_t)(sep - p);
  int bi = -1, oi = -1;
  for (int i = 0; i < 5; i++)
    if (strlen(bufs[i]) == blen && strncmp(p, bufs[i], blen) == 0) bi = i;
  for (int i = 0; i < 4; i++)
    if (strcmp(sep + 2, ops[i]) == 0) oi = i;
  if (bi < 0 || oi < 0) return false;
  v->collector_buf = (tc5_collector_buf)(TC5_COLLECTOR_BUF_A + bi);
  v->collector_op = (tc5_collector_op)(TC5_COLLECTOR_FILL + oi);
  return true;
}

tc5_status tc5_mma_variant_parse(const char *text, tc5_mma_variant *v,
                                 tc5_diag *diag) {
  if (!text || !v) return TC5_EINVAL;
  tc5_mma_variant r;
  memset(&r, 0, sizeof r);
  r.cta_group = 0;
  r.arch = TC5_ARCH_SM100A;
  bool have_kind = false;
  tc5_status st = TC5_OK;

  char buf[256];
  if (strlen(text) >= sizeof buf)
    return tc5_diag_add(diag, TC5_EPARSE, "variant", 0,
                        "variant: text longer than %zu characters",
                        sizeof buf - 1);
  snprintf(buf, sizeof buf, "%s", text);
  char *save = NULL;
  char *tok = strtok_r(buf, ".", &save);
  if (!tok || strcmp(tok, "tcgen05") != 0) {
    st = tc5_diag_add(diag, TC5_EPARSE, "opcode", 0,
                      "variant: '%s' does not start with tcgen05.mma", text);
    return st;
  }
  tok = strtok_r(NULL, ".", &save);
  if (!tok || strcmp(tok, "mma") != 0)
    return tc5_diag_add(diag, TC5_EPARSE, "opcode", 0,
                        "variant: '%s' is not a tcgen05.mma instruction", text);
  while ((tok = strtok_r(NULL, ".", &save)) != NULL) {
    tc5_kind k;
    if (!strcmp(tok, "ws")) {
      r.ws = true;
    } else if (!strcmp(tok, "sp")) {
      r.sparse = true;
    } else if (!strcmp(tok, "cta_group::1")) {
      r.cta_group = 1;
    } else if (!strcmp(tok, "cta_group::2")) {
      r.cta_group = 2;
    } else if (strncmp(tok, "kind::", 6) == 0 && tc5_kind_parse(tok, &k) == TC5_OK) {
      r.kind = k;
      have_kind = true;
    } else if (!strcmp(tok, "block_scale")) {
      r.block_scale = true;
    } else if (!strcmp(tok, "scale_vec::1X")) {
      r.scale_vec = 1;
    } else if (!strcmp(tok, "scale_vec::2X")) {
      r.scale_vec = 2;
    } else if (!strcmp(tok, "scale_vec::4X")) {
      r.scale_vec = 4;
    } else if (!strcmp(tok, "block16")) {
      r.block = 16;
    } else if (!strcmp(tok, "block32")) {
      r.block = 32;
    } else if (!strcmp(tok, "ashift")) {
      r.ashift = true;
    } else if (parse_collector(tok, &r)) {
      /* parsed */
    } else if (!strcmp(tok, "sm_100a") || !strcmp(tok, "sm_103a")) {
      tc5_arch_parse(tok, &r.arch);
    } else {
      st = tc5_diag_add(diag, TC5_EPARSE, "qualifier", 0,
                        "variant: unknown qualifier '.%s'", tok);
    }
  }
  if (!have_kind)
    st = tc5_diag_add(diag, TC5_EPARSE, "kind", 0,
                      "variant: .kind is mandatory (f16, tf32, f8f6f4, i8, "
                      "mxf8f6f4, mxf4, mxf4nvf4)");
  if (r.cta_group == 0)
    st = tc5_diag_add(diag, TC5_EPARSE, "cta_group", 0,
                      "variant: .cta_group is mandatory (cta_group::1 or ::2)");
  if (st != TC5_OK) return st;
  *v = r;
  return tc5_mma_variant_check(v, diag);
}

tc5_status tc5_mma_variant_check(const tc5_mma_variant *v, tc5_diag *diag) {
  if (!v) return TC5_EINVAL;
  const tc5_kind_info *ki = tc5_spec_kind(v->kind);
  if (!ki) return tc5_diag_add(diag, TC5_EINVAL, "kind", (uint64_t)v->kind,
                               "variant: kind %d is not a tcgen05 kind", (int)v->kind);
  tc5_status st = TC5_OK;
  const char *kn = ki->name;
  bool mx = tc5_kind_is_block_scaled(v->kind);
  if (v->cta_group != 1 && v->cta_group != 2)
    st = tc5_diag_add(diag, TC5_ERANGE, "cta_group", v->cta_group,
                      "variant: cta_group %u is not 1 or 2", v->cta_group);
  if (v->ws && v->cta_group == 2)
    st = tc5_diag_add(diag, TC5_EILLEGAL, "cta_group", 2,
                      "variant: .ws with cta_group::2 is invalid (Table 39; "
                      "tcgen05.mma.ws exists only for cta_group::1)");
  if (v->ws && mx)
    st = tc5_diag_add(diag, TC5_EILLEGAL, "kind", (uint64_t)v->kind,
                      "variant: .ws with .kind::%s is invalid (Table 39: "
                      ".ws only for f16, tf32, f8f6f4 and i8)", kn);
  if (mx && !v->block_scale)
    st = tc5_diag_add(diag, TC5_EILLEGAL, "block_scale", 0,
                      "variant: .kind::%s requires .block_scale "
                      "(9.7.16.10.9.1 syntax form 2)", kn);
  if (!mx && v->block_scale)
    st = tc5_diag_add(diag, TC5_EILLEGAL, "block_scale", 1,
                      "variant: .block_scale is only for .kind::mxf8f6f4, "
                      "mxf4 and mxf4nvf4, not .kind::%s", kn);
  if (!mx && (v->scale_vec || v->block))
    st = tc5_diag_add(diag, TC5_EILLEGAL, "scale_vectorsize",
                      v->scale_vec ? v->scale_vec : v->block,
                      "variant: a scale vector size needs a block-scaled kind, "
                      "not .kind::%s", kn);
  if (v->scale_vec && v->block)
    st = tc5_diag_add(diag, TC5_EILLEGAL, "scale_vectorsize", v->block,
                      "variant: give one of .scale_vec::NX and .blockN, not both");
  if (mx) {
    /* Table 54/55: which vector sizes a kind accepts */
    unsigned n = 0;
    const tc5_scale_row *rows = tc5_spec_scale_rows(v->kind, &n);
    if (v->scale_vec) {
      bool ok = false;
      for (unsigned i = 0; i < n; i++)
        if (rows[i].scale_vec_k == v->scale_vec) ok = true;
      if (!ok)
        st = tc5_diag_add(diag, TC5_EILLEGAL, "scale_vectorsize", v->scale_vec,
                          "variant: .scale_vec::%uX is not valid for .kind::%s "
                          "(Table 54)", v->scale_vec, kn);
    }
    if (v->block) {
      bool ok = false;
      for (unsigned i = 0; i < n; i++)
        if (rows[i].block == v->block) ok = true;
      if (!ok)
        st = tc5_diag_add(diag, TC5_EILLEGAL, "scale_vectorsize", v->block,
                          "variant: .block%u is not valid for .kind::%s "
                          "(Table 55)", v->block, kn);
    }
    if (v->kind == TC5_KIND_MXF4NVF4 && !v->scale_vec && !v->block)
      st = tc5_diag_add(diag, TC5_EILLEGAL, "scale_vectorsize", 0,
                        "variant: .kind::mxf4nvf4 requires an explicit "
                        ".scale_vectorsize (9.7.16.10.9.1)");
  }
  if (v->ashift && v->ws)
    st = tc5_diag_add(diag, TC5_EILLEGAL, "ashift", 1,
                      "variant: .ashift is not part of tcgen05.mma.ws");
  if (v->ashift && (v->collector_op == TC5_COLLECTOR_FILL ||
                    v->collector_op == TC5_COLLECTOR_USE))
    st = tc5_diag_add(diag, TC5_EILLEGAL, "collector_usage",
                      (uint64_t)v->collector_op,
                      "variant: .collector::a::%s with .ashift is illegal "
                      "(9.7.16.10.9.1)", collector_op_name(v->collector_op));
  if (v->collector_buf == TC5_COLLECTOR_BUF_A && v->ws)
    st = tc5_diag_add(diag, TC5_EILLEGAL, "collector_usage", 0,
                      "variant: tcgen05.mma.ws uses collector buffers b0..b3, "
                      "not ::a");
  if (v->collector_buf >= TC5_COLLECTOR_BUF_B0 && !v->ws)
    st = tc5_diag_add(diag, TC5_EILLEGAL, "collector_usage", 0,
                      "variant: collector buffer ::%s belongs to tcgen05.mma.ws; "
                      "the non-.ws form has buffer ::a",
                      collector_buf_name(v->collector_buf));
  return st;
}

tc5_status tc5_mma_variant_format(const tc5_mma_variant *v, char *buf,
                                  size_t cap, size_t *needed) {
  if (!v || (unsigned)v->kind >= TC5_KIND_COUNT) return TC5_EINVAL;
  tc5_sb b;
  tc5_sb_init(&b);
  tc5_sb_puts(&b, "tcgen05.mma");
  if (v->ws) tc5_sb_puts(&b, ".ws");
  if (v->sparse) tc5_sb_puts(&b, ".sp");
  tc5_sb_printf(&b, ".cta_group::%u.kind::%s", v->cta_group,
                tc5_kind_name(v->kind));
  if (v->block_scale) tc5_sb_puts(&b, ".block_scale");
  if (v->scale_vec) tc5_sb_printf(&b, ".scale_vec::%uX", v->scale_vec);
  if (v->block) tc5_sb_printf(&b, ".block%u", v->block);
  if (v->ashift) tc5_sb_puts(&b, ".ashift");
  if (v->collector_buf != TC5_COLLECTOR_BUF_NONE)
    tc5_sb_printf(&b, ".collector::%s::%s", collector_buf_name(v->collector_buf),
                  collector_op_name(v->collector_op));
  return tc5_sb_finish(&b, buf, cap, needed);
}

tc5_status tc5_mma_variant_block(const tc5_mma_variant *v, unsigned *block) {
  if (!v || !block) return TC5_EINVAL;
  unsigned b = tc5_kind_is_block_scaled(v->kind) ? v->block : 0;
  if (tc5_kind_is_block_scaled(v->kind) && !b && v->scale_vec) {
    unsigned n = 0;
    const tc5_scale_row *rows = tc5_spec_scale_rows(v->kind, &n);
    for (unsigned i = 0; i < n; i++)
      if (rows[i].scale_vec_k == v->scale_vec) b = rows[i].block;
  }
  if (!b && (v->kind == TC5_KIND_MXF8F6F4 || v->kind == TC5_KIND_MXF4)) b = 32;
  *block = b;
  return TC5_OK;
}
