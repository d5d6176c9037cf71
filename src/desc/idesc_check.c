/* tc5 — legality of an instruction descriptor for one tcgen05.mma variant.
 *
 * Rules, each reported with the table or section it comes from:
 *   Table 39   kind x .ws x cta_group x sparsity -> M, N, K, dtype, atype/btype
 *   Table 42   saturate (i8 only), sparsity selector, .ws maximum shift
 *   Table 49   transpose / negate support per kind
 *   Table 50   N for 8-bit transpose B
 *   Table 52   transposed 4/6-bit elements have no layout
 *   Tables 43/44, 54, 55   scale type, scale vector size, scale factor IDs, K=96
 */
#include <stdio.h>

#include "spec/spec_tables.h"
#include "tc5/descriptors.h"

static void mlist_text(const tc5_shape_row *r, char *buf, size_t cap) {
  size_t len = 0;
  buf[0] = '\0';
  for (int i = 0; i < 4 && r->m[i]; i++) {
    int w = snprintf(buf + len, cap - len, "%s%u", i ? ", " : "", r->m[i]);
    if (w < 0 || (size_t)w >= cap - len) return;
    len += (size_t)w;
  }
}

static const char *form_name(const tc5_mma_variant *v, char *buf, size_t cap) {
  snprintf(buf, cap, ".kind::%s%s cta_group::%u %s", tc5_kind_name(v->kind),
           v->ws ? " .ws" : "", v->cta_group, v->sparse ? "sparse" : "dense");
  return buf;
}

static tc5_status check_types(const tc5_idesc *d, const tc5_kind_info *ki,
                              tc5_diag *diag) {
  tc5_type at, bt, dt;
  if (tc5_idesc_atype(d, &at) != TC5_OK || tc5_idesc_btype(d, &bt) != TC5_OK ||
      tc5_idesc_dtype(d, &dt) != TC5_OK)
    return TC5_ERESERVED; /* already reported by validate */
  tc5_status st = TC5_OK;
  if (ki->same_ab && at != bt)
    st = tc5_diag_add(diag, TC5_EILLEGAL, "btype", d->btype,
                      "idesc: btype %s differs from atype %s; .kind::%s needs "
                      "A and B of one type (Table 39)", tc5_type_name(bt),
                      tc5_type_name(at), ki->name);
  if (ki->f16_d_requires_f16_ab && dt == TC5_F16 && (at != TC5_F16 || bt != TC5_F16))
    st = tc5_diag_add(diag, TC5_EILLEGAL, "dtype", d->dtype,
                      "idesc: dtype f16 with %s inputs; .kind::f16 produces f16 "
                      "only from f16 A and B (Table 39: bf16 needs dtype f32)",
                      tc5_type_name(at != TC5_F16 ? at : bt));
  /* Table 52 lists no transposed 4-bit or 6-bit layout; CUTLASS and Triton run
   * them with .kind::f8f6f4/.kind::mxf8f6f4 (tc5_spec_table52,
   * docs/spec-departures.md); .kind::mxf4/mxf4nvf4 refuse transposes (Table 49). */
  return st;
}

static tc5_status check_table50(const tc5_idesc *d, const tc5_mma_variant *v,
                                tc5_diag *diag) {
  tc5_type bt;
  if (!d->transpose_b || tc5_idesc_btype(d, &bt) != TC5_OK || tc5_type_bits(bt) != 8)
    return TC5_OK;
  const tc5_t50_row *r = tc5_spec_table50(v->cta_group);
  if (!r) return TC5_OK;
  if (d->n < r->n.first || d->n > r->n.last || (d->n - r->n.first) % r->n.step)
    return tc5_diag_add(diag, TC5_EILLEGAL, "N", d->n,
                        "idesc: N %u with 8-bit transpose B (%s) and "
                        "cta_group::%u: Table 50 allows %u <= N <= %u, step %u",
                        d->n, tc5_type_name(bt), v->cta_group, r->n.first,
                        r->n.last, r->n.step);
  return TC5_OK;
}

static tc5_status check_block_scale(const tc5_idesc *d, const tc5_mma_variant *v,
                                    unsigned k, tc5_diag *diag) {
  const tc5_kind_info *ki = tc5_spec_kind(d->kind);
  const char *kn = ki->name;
  tc5_status st = TC5_OK;
  if (!(ki->scale_codes >> (d->scale_type & 1) & 1u))
    st = tc5_diag_add(diag, TC5_EILLEGAL, "scale type", d->scale_type,
                      "idesc: scale type %u (%s) is not valid for .kind::%s "
                      "(Tables 43/44, 55: %s)", d->scale_type,
                      d->scale_type ? "ue8m0" : "ue4m3", kn,
                      d->kind == TC5_KIND_MXF4NVF4 ? "ue8m0 or ue4m3" : "ue8m0 only");
  /* The scale vector size in force: written, or the kind's default. */
  unsigned block = 0;
  tc5_mma_variant vk = *v;
  vk.kind = d->kind;
  tc5_mma_variant_block(&vk, &block);
  if (block) {
    unsigned n = 0;
    bool ok = false;
    const tc5_scale_row *rows = tc5_spec_scale_rows(d->kind, &n);
    for (unsigned i = 0; i < n; i++)
      if (rows[i].block == block && rows[i].scale_code == (d->scale_type & 1)) ok = true;
    if (!ok)
      st = tc5_diag_add(diag, TC5_EILLEGAL, "scale type", d->scale_type,
                        "idesc: scale type %s with block size %u is not a valid "
                        "combination for .kind::%s (Table 55)",
                        d->scale_type ? "ue8m0" : "ue4m3", block, kn);
  }
  if (k == 96 && v->scale_vec)
    st = tc5_diag_add(diag, TC5_EILLEGAL, "K dimension", 96,
                      "idesc: K = 96 with .scale_vec::%uX: K = 96 is expressed "
                      "with .block16 or .block32 only (Table 54)", v->scale_vec);
  /* Scale factor IDs: byte offset (1X, 3X), half-word offset (2X), 0 (4X). */
  unsigned vec = block ? ((d->sparse ? k / 2 : k) / block) : 0; /* .sp: a scale a block of kept elements */
  if (d->kind == TC5_KIND_MXF4 || d->kind == TC5_KIND_MXF4NVF4) {
    if (vec == 4) {
      if (d->sfa_id)
        st = tc5_diag_add(diag, TC5_EILLEGAL, "A scale factor ID", d->sfa_id,
                          "idesc: A scale factor ID %u with .scale_vec::4X/"
                          ".block16: must be 0 (9.7.16.10.7.2.3)", d->sfa_id);
      if (d->sfb_id)
        st = tc5_diag_add(diag, TC5_EILLEGAL, "B scale factor ID", d->sfb_id,
                          "idesc: B scale factor ID %u with .scale_vec::4X/"
                          ".block16: must be 0 (9.7.16.10.7.3.3)", d->sfb_id);
    } else if (vec == 2) {
      if (d->sfa_id & 1)
        st = tc5_diag_add(diag, TC5_EILLEGAL, "A scale factor ID", d->sfa_id,
                          "idesc: A scale factor ID %u for .kind::%s: Table 44 "
                          "allows 0 or 2 (a half-word offset)", d->sfa_id, kn);
      if (d->sfb_id & 1)
        st = tc5_diag_add(diag, TC5_EILLEGAL, "B scale factor ID", d->sfb_id,
                          "idesc: B scale factor ID %u for .kind::%s: Table 44 "
                          "allows 0 or 2 (a half-word offset)", d->sfb_id, kn);
    }
  }
  if (d->k96) {
    if (v->arch != TC5_ARCH_SM103A)
      st = tc5_diag_add(diag, TC5_EILLEGAL, "K dimension", 1,
                        "idesc: K = 96 (bit 31) is supported on sm_103a only, "
                        "not %s (9.7.16.2.1.1)", tc5_arch_name(v->arch));
    if (d->sparse)
      st = tc5_diag_add(diag, TC5_EILLEGAL, "K dimension", 1,
                        "idesc: K = 96 with sparsity: K = 96 is dense only "
                        "(Table 44: sparse K = 128)");
  }
  return st;
}

tc5_status tc5_idesc_check(const tc5_idesc *d, const tc5_mma_variant *v,
                           tc5_diag *diag) {
  if (!d || !v) return TC5_EINVAL;
  tc5_status st = TC5_OK, s;
  if ((s = tc5_mma_variant_check(v, diag)) != TC5_OK) st = s;
  if (d->kind != v->kind)
    return tc5_diag_add(diag, TC5_EILLEGAL, "kind", (uint64_t)d->kind,
                        "idesc: descriptor has the .kind::%s layout but the "
                        "instruction is .kind::%s", tc5_kind_name(d->kind),
                        tc5_kind_name(v->kind));
  if ((s = tc5_idesc_validate(d, diag)) != TC5_OK) st = st ? st : s;
  const tc5_kind_info *ki = tc5_spec_kind(d->kind);
  char form[96] = "", txt[96] = "";
  if (diag) form_name(v, form, sizeof form); /* message text only when recorded */
  if ((s = check_types(d, ki, diag)) != TC5_OK && s != TC5_ERESERVED) st = st ? st : s;

  /* sparsity flag vs .sp, selector */
  if (d->sparse != (v->sparse ? 1 : 0))
    st = tc5_diag_add(diag, TC5_EILLEGAL, "sparsity", d->sparse,
                      "idesc: sparsity bit %u but the instruction is %s "
                      "(tcgen05.mma%s)", d->sparse, v->sparse ? "sparse" : "dense",
                      v->sparse ? ".sp" : " without .sp");
  if (d->sparse_selector && !d->sparse)
    st = tc5_diag_add(diag, TC5_EILLEGAL, "sparsity selector", d->sparse_selector,
                      "idesc: sparsity selector %u on a dense MMA (bits 0-1 apply "
                      "only when sparsity is enabled; must be 0)", d->sparse_selector);
  if (d->sparse_selector && (d->kind == TC5_KIND_I8 || d->kind == TC5_KIND_F8F6F4))
    st = tc5_diag_add(diag, TC5_EILLEGAL, "sparsity selector", d->sparse_selector,
                      "idesc: sparsity selector %u for .kind::%s: must be 0 "
                      "(9.7.16.10.8.4.5/6)", d->sparse_selector, ki->name);

  /* Table 42 saturate, Table 49 negate/transpose */
  if (d->saturate && !ki->saturate_ok)
    st = tc5_diag_add(diag, TC5_EILLEGAL, "saturate", 1,
                      "idesc: saturate set for .kind::%s: saturation exists for "
                      "integer types only (Table 42: NA, must be 0)", ki->name);
  if ((d->negate_a || d->negate_b) && !ki->negate_ok)
    st = tc5_diag_add(diag, TC5_EILLEGAL, d->negate_a ? "negate A" : "negate B", 1,
                      "idesc: negate %s for .kind::%s: Table 49 does not support "
                      "negate for this kind", d->negate_a ? "A" : "B", ki->name);
  if ((d->transpose_a || d->transpose_b) && !ki->transpose_ok)
    st = tc5_diag_add(diag, TC5_EILLEGAL, d->transpose_a ? "transpose A" : "transpose B",
                      1, "idesc: transpose %s for .kind::%s: Table 49 does not "
                      "support transpose for this kind", d->transpose_a ? "A" : "B",
                      ki->name);
  if ((s = check_table50(d, v, diag)) != TC5_OK) st = st ? st : s;

  /* .ws maximum shift */
  if (d->max_shift && !v->ws)
    st = tc5_diag_add(diag, TC5_EILLEGAL, "maximum shift", d->max_shift,
                      "idesc: maximum shift code %u (%u columns) without .ws: the "
                      "field applies to B-matrix reuse in tcgen05.mma.ws only "
                      "(Table 42)", d->max_shift, tc5_idesc_max_shift_columns(d->max_shift));

  /* Table 39 */
  const tc5_shape_row *row = tc5_spec_shape_row(v->kind, v->ws, v->cta_group, v->sparse);
  unsigned k = 0;
  tc5_idesc_k(d, &k);
  if (!row || !row->valid) {
    st = tc5_diag_add(diag, TC5_EILLEGAL, "variant", 0,
                      "idesc: %s is invalid (Table 39)", form);
  } else {
    bool m_ok = false;
    for (int i = 0; i < 4 && row->m[i]; i++)
      if (row->m[i] == d->m) m_ok = true;
    if (d->k96 && d->m != row->k96_m) m_ok = false;
    if (!m_ok) {
      if (diag) mlist_text(row, txt, sizeof txt);
      if (d->k96 && row->k96_m)
        st = tc5_diag_add(diag, TC5_EILLEGAL, "M", d->m,
                          "idesc: M %u with K = 96 for %s: Table 39 allows M = %u",
                          d->m, form, row->k96_m);
      else
        st = tc5_diag_add(diag, TC5_EILLEGAL, "M", d->m,
                          "idesc: M %u is not legal for %s (Table 39: M = %s)",
                          d->m, form, txt);
    }
    if (!tc5_spec_n_legal(row, d->n)) {
      if (diag) tc5_spec_n_text(row, txt, sizeof txt);
      st = tc5_diag_add(diag, TC5_EILLEGAL, "N", d->n,
                        "idesc: N %u is not legal for %s (Table 39: N = %s)",
                        d->n, form, txt);
    }
    if (d->k96 && !row->k96_m)
      st = tc5_diag_add(diag, TC5_EILLEGAL, "K dimension", 1,
                        "idesc: K = 96 is not available for %s (Table 39: only "
                        "mxf4/mxf4nvf4 256xNx96, dense, cta_group::2)", form);
  }
  if (tc5_kind_is_block_scaled(d->kind) &&
      (s = check_block_scale(d, v, k, diag)) != TC5_OK)
    st = st ? st : s;
  return st;
}
