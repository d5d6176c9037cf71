/* tc5 — 9.7.16.4.2 Instruction descriptor: Tables 42 (.kind::tf32, f16,
 * f8f6f4, i8), 43 (.kind::mxf8f6f4) and 44 (.kind::mxf4, mxf4nvf4).
 *
 * The bit positions of each table are data (layouts[] below); encode and
 * decode walk that data, so a field's position is written once. */
#include <stdio.h>
#include <string.h>

#include "spec/spec_tables.h"
#include "util/strbuf.h"
#include "tc5/descriptors.h"

typedef enum fid {
  F_SPSEL, F_SPARSE, F_SAT, F_DTYPE, F_ATYPE, F_BTYPE, F_NEGA, F_NEGB,
  F_TRA, F_TRB, F_N, F_M, F_MAXSHIFT, F_SCALE, F_SFA, F_SFB, F_K96, F_COUNT
} fid;

typedef struct field_pos {
  fid id;
  uint8_t lo, width, shift; /* stored value = member >> shift */
  const char *name;         /* the spec's name */
} field_pos;

typedef struct layout {
  uint8_t table;
  field_pos f[14];
  uint8_t nf;
  uint32_t reserved_mask;
} layout;

#define COMMON_AB(BW)                                                          \
  {F_ATYPE, 7, 3, 0, "atype"}, {F_BTYPE, 10, BW, 0, "btype"},                  \
      {F_NEGA, 13, 1, 0, "negate A"}, {F_NEGB, 14, 1, 0, "negate B"},          \
      {F_TRA, 15, 1, 0, "transpose A"}, {F_TRB, 16, 1, 0, "transpose B"},      \
      {F_N, 17, 6, 3, "N"}

static const layout layouts[3] = {
    {42,
     {{F_SPSEL, 0, 2, 0, "sparsity selector"},
      {F_SPARSE, 2, 1, 0, "sparsity"},
      {F_SAT, 3, 1, 0, "saturate"},
      {F_DTYPE, 4, 2, 0, "dtype"},
      COMMON_AB(3),
      {F_M, 24, 5, 4, "M"},
      {F_MAXSHIFT, 30, 2, 0, "maximum shift"}},
     13,
     (1u << 6) | (1u << 23) | (1u << 29)},
    {43,
     {{F_SPARSE, 2, 1, 0, "sparsity"},
      {F_SFB, 4, 2, 0, "B scale factor ID"},
      COMMON_AB(3),
      {F_SCALE, 23, 1, 0, "scale type"},
      {F_M, 27, 2, 7, "M"},
      {F_SFA, 29, 2, 0, "A scale factor ID"}},
     12,
     0x3u | (1u << 3) | (1u << 6) | (7u << 24) | (1u << 31)},
    {44,
     {{F_SPARSE, 2, 1, 0, "sparsity"},
      {F_SFB, 4, 2, 0, "B scale factor ID"},
      COMMON_AB(2),
      {F_SCALE, 23, 1, 0, "scale type"},
      {F_M, 27, 2, 7, "M"},
      {F_SFA, 29, 2, 0, "A scale factor ID"},
      {F_K96, 31, 1, 0, "K dimension"}},
     13,
     0x3u | (1u << 3) | (1u << 6) | (1u << 12) | (7u << 24)},
};

static const char *field_names[F_COUNT] = {
    "sparsity selector", "sparsity", "saturate", "dtype", "atype", "btype",
    "negate A", "negate B", "transpose A", "transpose B", "N", "M",
    "maximum shift", "scale type", "A scale factor ID", "B scale factor ID",
    "K dimension"};

static const char *json_keys[F_COUNT] = {
    "sparsity_selector", "sparse", "saturate", "dtype", "atype", "btype",
    "negate_a", "negate_b", "transpose_a", "transpose_b", "n", "m",
    "max_shift", "scale_type", "sfa_id", "sfb_id", "k96"};

static const layout *layout_of(tc5_kind k) {
  const tc5_kind_info *ki = tc5_spec_kind(k);
  if (!ki) return NULL;
  return &layouts[ki->idesc_table - 42];
}

static unsigned get_member(const tc5_idesc *d, fid id) {
  switch (id) {
  case F_SPSEL: return d->sparse_selector;
  case F_SPARSE: return d->sparse;
  case F_SAT: return d->saturate;
  case F_DTYPE: return d->dtype;
  case F_ATYPE: return d->atype;
  case F_BTYPE: return d->btype;
  case F_NEGA: return d->negate_a;
  case F_NEGB: return d->negate_b;
  case F_TRA: return d->transpose_a;
  case F_TRB: return d->transpose_b;
  case F_N: return d->n;
  case F_M: return d->m;
  case F_MAXSHIFT: return d->max_shift;
  case F_SCALE: return d->scale_type;
  case F_SFA: return d->sfa_id;
  case F_SFB: return d->sfb_id;
  case F_K96: return d->k96;
  default: return 0;
  }
}

static void set_member(tc5_idesc *d, fid id, unsigned v) {
  switch (id) {
  case F_SPSEL: d->sparse_selector = (uint8_t)v; break;
  case F_SPARSE: d->sparse = (uint8_t)v; break;
  case F_SAT: d->saturate = (uint8_t)v; break;
  case F_DTYPE: d->dtype = (uint8_t)v; break;
  case F_ATYPE: d->atype = (uint8_t)v; break;
  case F_BTYPE: d->btype = (uint8_t)v; break;
  case F_NEGA: d->negate_a = (uint8_t)v; break;
  case F_NEGB: d->negate_b = (uint8_t)v; break;
  case F_TRA: d->transpose_a = (uint8_t)v; break;
  case F_TRB: d->transpose_b = (uint8_t)v; break;
  case F_N: d->n = (uint16_t)v; break;
  case F_M: d->m = (uint16_t)v; break;
  case F_MAXSHIFT: d->max_shift = (uint8_t)v; break;
  case F_SCALE: d->scale_type = (uint8_t)v; break;
  case F_SFA: d->sfa_id = (uint8_t)v; break;
  case F_SFB: d->sfb_id = (uint8_t)v; break;
  case F_K96: d->k96 = (uint8_t)v; break;
  default: break;
  }
}

tc5_status tc5_idesc_init(tc5_idesc *d, tc5_kind kind) {
  if (!d || !tc5_spec_kind(kind)) return TC5_EINVAL;
  memset(d, 0, sizeof *d);
  d->kind = kind;
  if (tc5_kind_is_block_scaled(kind)) d->scale_type = 1; /* UE8M0 */
  return TC5_OK;
}

/* ---- type codes ---------------------------------------------------------- */

static tc5_status code_to_type(const tc5_code_type *tab, unsigned n, unsigned code,
                               tc5_type *t) {
  for (unsigned i = 0; i < n; i++)
    if (tab[i].code == code) {
      *t = tab[i].type;
      return TC5_OK;
    }
  return TC5_ERESERVED;
}

static void codes_text(const tc5_code_type *tab, unsigned n, char *buf, size_t cap) {
  size_t len = 0;
  buf[0] = '\0';
  for (unsigned i = 0; i < n; i++) {
    int w = snprintf(buf + len, cap - len, "%s%s = %u", i ? ", " : "",
                     tc5_type_name(tab[i].type), tab[i].code);
    if (w < 0 || (size_t)w >= cap - len) return;
    len += (size_t)w;
  }
}

tc5_status tc5_idesc_atype(const tc5_idesc *d, tc5_type *t) {
  if (!d || !t) return TC5_EINVAL;
  const tc5_kind_info *ki = tc5_spec_kind(d->kind);
  if (!ki) return TC5_EINVAL;
  return code_to_type(ki->ab_codes, ki->n_ab_codes, d->atype, t);
}

tc5_status tc5_idesc_btype(const tc5_idesc *d, tc5_type *t) {
  if (!d || !t) return TC5_EINVAL;
  const tc5_kind_info *ki = tc5_spec_kind(d->kind);
  if (!ki) return TC5_EINVAL;
  return code_to_type(ki->ab_codes, ki->n_ab_codes, d->btype, t);
}

tc5_status tc5_idesc_dtype(const tc5_idesc *d, tc5_type *t) {
  if (!d || !t) return TC5_EINVAL;
  const tc5_kind_info *ki = tc5_spec_kind(d->kind);
  if (!ki) return TC5_EINVAL;
  if (ki->n_d_codes == 0) {
    *t = TC5_F32; /* Tables 43/44: D is f32 (Table 39) */
    return TC5_OK;
  }
  return code_to_type(ki->d_codes, ki->n_d_codes, d->dtype, t);
}

tc5_status tc5_idesc_scale_type(const tc5_idesc *d, tc5_type *t) {
  if (!d || !t) return TC5_EINVAL;
  if (!tc5_kind_is_block_scaled(d->kind)) return TC5_EINVAL;
  *t = d->scale_type ? TC5_UE8M0 : TC5_UE4M3;
  return TC5_OK;
}

static bool type_to_code(const tc5_code_type *tab, unsigned n, tc5_type t,
                         uint8_t *code) {
  for (unsigned i = 0; i < n; i++)
    if (tab[i].type == t) {
      *code = tab[i].code;
      return true;
    }
  return false;
}

tc5_status tc5_idesc_set_types(tc5_idesc *d, tc5_type atype, tc5_type btype,
                               tc5_type dtype) {
  if (!d) return TC5_EINVAL;
  const tc5_kind_info *ki = tc5_spec_kind(d->kind);
  if (!ki) return TC5_EINVAL;
  uint8_t ac, bc, dc = 0;
  if (!type_to_code(ki->ab_codes, ki->n_ab_codes, atype, &ac) ||
      !type_to_code(ki->ab_codes, ki->n_ab_codes, btype, &bc))
    return TC5_EILLEGAL;
  if (ki->n_d_codes == 0) {
    if (dtype != TC5_TYPE_NONE && dtype != TC5_F32) return TC5_EILLEGAL;
  } else if (!type_to_code(ki->d_codes, ki->n_d_codes, dtype, &dc)) {
    return TC5_EILLEGAL;
  }
  d->atype = ac;
  d->btype = bc;
  d->dtype = dc;
  return TC5_OK;
}

unsigned tc5_idesc_max_shift_columns(unsigned code) {
  static const unsigned cols[4] = {0, 8, 16, 32};
  return code < 4 ? cols[code] : 0;
}

tc5_status tc5_idesc_k(const tc5_idesc *d, unsigned *k) {
  if (!d || !k) return TC5_EINVAL;
  const tc5_kind_info *ki = tc5_spec_kind(d->kind);
  if (!ki) return TC5_EINVAL;
  if (d->k96) {
    *k = 96;
    return TC5_OK;
  }
  *k = ki->k_dense * (d->sparse ? 2u : 1u);
  return TC5_OK;
}

/* ---- validation, encode, decode ----------------------------------------- */

tc5_status tc5_idesc_validate(const tc5_idesc *d, tc5_diag *diag) {
  if (!d) return TC5_EINVAL;
  const layout *L = layout_of(d->kind);
  if (!L)
    return tc5_diag_add(diag, TC5_EINVAL, "kind", (uint64_t)d->kind,
                        "idesc: kind %d is not a tcgen05 kind", (int)d->kind);
  const tc5_kind_info *ki = tc5_spec_kind(d->kind);
  tc5_status st = TC5_OK;
  bool present[F_COUNT] = {false};
  for (unsigned i = 0; i < L->nf; i++) {
    const field_pos *f = &L->f[i];
    present[f->id] = true;
    unsigned v = get_member(d, f->id);
    unsigned maxv = ((1u << f->width) - 1u) << f->shift;
    if (f->shift && v % (1u << f->shift))
      st = tc5_diag_add(diag, TC5_EALIGN, f->name, v,
                        "idesc: %s %u is not a multiple of %u (Table %u stores "
                        "%s >> %u in bits %u-%u)", f->name, v, 1u << f->shift,
                        L->table, f->name, f->shift, f->lo, f->lo + f->width - 1);
    if (v > maxv)
      st = tc5_diag_add(diag, TC5_ERANGE, f->name, v,
                        "idesc: %s %u does not fit bits %u-%u of Table %u "
                        "(max %u)", f->name, v, f->lo, f->lo + f->width - 1,
                        L->table, maxv);
  }
  for (int id = 0; id < F_COUNT; id++) {
    if (present[id]) continue;
    unsigned v = get_member(d, (fid)id);
    if (v)
      st = tc5_diag_add(diag, TC5_EILLEGAL, field_names[id], v,
                        "idesc: %s %u set, but Table %u (.kind::%s) has no %s "
                        "field", field_names[id], v, L->table, ki->name,
                        field_names[id]);
  }
  char codes[160] = "";
  tc5_type t;
  if (tc5_idesc_atype(d, &t) != TC5_OK) {
    if (diag) codes_text(ki->ab_codes, ki->n_ab_codes, codes, sizeof codes);
    st = tc5_diag_add(diag, TC5_ERESERVED, "atype", d->atype,
                      "idesc: atype code %u is not defined for .kind::%s "
                      "(Table %u: %s)", d->atype, ki->name, L->table, codes);
  }
  if (tc5_idesc_btype(d, &t) != TC5_OK) {
    if (diag) codes_text(ki->ab_codes, ki->n_ab_codes, codes, sizeof codes);
    st = tc5_diag_add(diag, TC5_ERESERVED, "btype", d->btype,
                      "idesc: btype code %u is not defined for .kind::%s "
                      "(Table %u: %s)", d->btype, ki->name, L->table, codes);
  }
  if (ki->n_d_codes && tc5_idesc_dtype(d, &t) != TC5_OK) {
    if (diag) codes_text(ki->d_codes, ki->n_d_codes, codes, sizeof codes);
    st = tc5_diag_add(diag, TC5_ERESERVED, "dtype", d->dtype,
                      "idesc: dtype code %u is not defined for .kind::%s "
                      "(Table %u: %s)", d->dtype, ki->name, L->table, codes);
  }
  if (d->reserved_bits & ~L->reserved_mask)
    st = tc5_diag_add(diag, TC5_EINVAL, "reserved bits", d->reserved_bits,
                      "idesc: reserved_bits 0x%08x name bits that are fields "
                      "of Table %u", d->reserved_bits & ~L->reserved_mask, L->table);
  for (unsigned b = 0; b < 32; b++) {
    if (!((d->reserved_bits & L->reserved_mask) >> b & 1u)) continue;
    st = tc5_diag_add(diag, TC5_ERESERVED, "reserved", b,
                      "idesc: reserved bit %u is set (Table %u: reserved bits "
                      "must be 0)", b, L->table);
  }
  return st;
}

tc5_status tc5_idesc_encode(const tc5_idesc *d, uint32_t *raw, tc5_diag *diag) {
  if (!d || !raw) return TC5_EINVAL;
  tc5_status st = tc5_idesc_validate(d, diag);
  if (st != TC5_OK) return st;
  const layout *L = layout_of(d->kind);
  uint32_t r = 0;
  for (unsigned i = 0; i < L->nf; i++) {
    const field_pos *f = &L->f[i];
    uint32_t v = get_member(d, f->id) >> f->shift;
    r |= (v & ((1u << f->width) - 1u)) << f->lo;
  }
  *raw = r;
  return TC5_OK;
}

tc5_status tc5_idesc_decode(uint32_t raw, tc5_kind kind, tc5_idesc *d,
                            tc5_diag *diag) {
  if (!d) return TC5_EINVAL;
  const layout *L = layout_of(kind);
  if (!L)
    return tc5_diag_add(diag, TC5_EINVAL, "kind", (uint64_t)kind,
                        "idesc: kind %d is not a tcgen05 kind", (int)kind);
  memset(d, 0, sizeof *d);
  d->kind = kind;
  for (unsigned i = 0; i < L->nf; i++) {
    const field_pos *f = &L->f[i];
    uint32_t v = (raw >> f->lo) & ((1u << f->width) - 1u);
    set_member(d, f->id, v << f->shift);
  }
  d->reserved_bits = raw & L->reserved_mask;
  return tc5_idesc_validate(d, diag);
}

tc5_status tc5_idesc_guess_kind(uint32_t raw, tc5_kind *kind, bool *certain) {
  if (!kind) return TC5_EINVAL;
  unsigned dtype = (raw >> 4) & 3, atype = (raw >> 7) & 7, btype = (raw >> 10) & 7;
  bool sure = true;
  if (dtype == 2) {
    *kind = TC5_KIND_I8;
  } else if (atype == 2 || btype == 2) {
    *kind = TC5_KIND_TF32;
  } else if (atype >= 3 || btype >= 3) {
    *kind = TC5_KIND_F8F6F4;
  } else {
    *kind = TC5_KIND_F16; /* f16/bf16, e4m3/e5m2, u8/s8 and mx kinds share codes */
    sure = false;
  }
  if (certain) *certain = sure;
  return TC5_OK;
}

/* ---- describe and JSON --------------------------------------------------- */

static const char *type_or_undefined(tc5_status s, tc5_type t) {
  return s == TC5_OK ? tc5_type_name(t) : "undefined";
}

tc5_status tc5_idesc_describe(const tc5_idesc *d, char *buf, size_t cap,
                              size_t *needed) {
  if (!d) return TC5_EINVAL;
  const layout *L = layout_of(d->kind);
  if (!L) return TC5_EINVAL;
  tc5_sb b;
  tc5_sb_init(&b);
  tc5_type at = TC5_TYPE_NONE, bt = TC5_TYPE_NONE, dt = TC5_TYPE_NONE;
  tc5_status as = tc5_idesc_atype(d, &at), bs = tc5_idesc_btype(d, &bt),
             ds = tc5_idesc_dtype(d, &dt);
  unsigned k = 0;
  tc5_idesc_k(d, &k);
  bool mx = L->table != 42;
  tc5_sb_printf(&b, "instruction descriptor, .kind::%s layout (Table %u)\n",
                tc5_kind_name(d->kind), L->table);
  if (!mx) tc5_sb_field(&b, "sparsity selector", "bits 0-1", "%u", d->sparse_selector);
  tc5_sb_field(&b, "sparsity", "bit 2", "%u = %s", d->sparse, d->sparse ? "sparse" : "dense");
  if (!mx) {
    tc5_sb_field(&b, "saturate", "bit 3", "%u = %s", d->saturate,
                 d->saturate ? "saturate" : "no saturate");
    tc5_sb_field(&b, "dtype (D)", "bits 4-5", "%s (code %u)", type_or_undefined(ds, dt), d->dtype);
  } else {
    tc5_sb_field(&b, "B scale factor ID", "bits 4-5", "%u", d->sfb_id);
    tc5_sb_field(&b, "dtype (D)", "", "f32 (implied by the kind)");
  }
  tc5_sb_field(&b, "atype (A)", "bits 7-9", "%s (code %u)", type_or_undefined(as, at), d->atype);
  tc5_sb_field(&b, "btype (B)", L->table == 44 ? "bits 10-11" : "bits 10-12", "%s (code %u)",
               type_or_undefined(bs, bt), d->btype);
  tc5_sb_field(&b, "negate A", "bit 13", "%u", d->negate_a);
  tc5_sb_field(&b, "negate B", "bit 14", "%u", d->negate_b);
  tc5_sb_field(&b, "transpose A", "bit 15", "%u = A is %s", d->transpose_a,
               d->transpose_a ? "M-major" : "K-major");
  tc5_sb_field(&b, "transpose B", "bit 16", "%u = B is %s", d->transpose_b,
               d->transpose_b ? "N-major" : "K-major");
  tc5_sb_field(&b, "N", "bits 17-22", "%u elements (N >> 3 = %u)", d->n, d->n >> 3);
  if (mx) {
    tc5_sb_field(&b, "scale type", "bit 23", "%u = %s", d->scale_type,
                 d->scale_type ? "ue8m0" : "ue4m3");
    tc5_sb_field(&b, "M", "bits 27-28", "%u elements (M >> 7 = %u)", d->m, d->m >> 7);
    tc5_sb_field(&b, "A scale factor ID", "bits 29-30", "%u", d->sfa_id);
    if (L->table == 44)
      tc5_sb_field(&b, "K dimension", "bit 31", "%u = %s", d->k96,
                   d->k96 ? "dense K = 96" : "dense K = 64 / sparse K = 128");
  } else {
    tc5_sb_field(&b, "M", "bits 24-28", "%u elements (M >> 4 = %u)", d->m, d->m >> 4);
    tc5_sb_field(&b, "maximum shift", "bits 30-31", "%u = %s", d->max_shift,
                 d->max_shift == 0   ? "no shift"
                 : d->max_shift == 1 ? "8 columns (.ws B reuse)"
                 : d->max_shift == 2 ? "16 columns (.ws B reuse)"
                                     : "32 columns (.ws B reuse)");
  }
  tc5_sb_field(&b, "K", "", "%u elements (implied by kind and sparsity)", k);
  if (d->reserved_bits)
    tc5_sb_field(&b, "reserved bits", "", "0x%08x set (must be 0)", d->reserved_bits);
  return tc5_sb_finish(&b, buf, cap, needed);
}

tc5_status tc5_idesc_json(const tc5_idesc *d, uint32_t raw, const tc5_diag *diag,
                          char *buf, size_t cap, size_t *needed) {
  if (!d) return TC5_EINVAL;
  const layout *L = layout_of(d->kind);
  if (!L) return TC5_EINVAL;
  tc5_sb b;
  tc5_sb_init(&b);
  tc5_json j;
  tc5_json_init(&j, &b);
  tc5_type at = TC5_TYPE_NONE, bt = TC5_TYPE_NONE, dt = TC5_TYPE_NONE;
  tc5_status as = tc5_idesc_atype(d, &at), bs = tc5_idesc_btype(d, &bt),
             ds = tc5_idesc_dtype(d, &dt);
  unsigned k = 0;
  tc5_idesc_k(d, &k);
  tc5_json_obj_begin(&j, NULL);
  tc5_json_str(&j, "descriptor", "idesc");
  tc5_json_hex(&j, "raw", raw, 8);
  tc5_json_str(&j, "kind", tc5_kind_name(d->kind));
  tc5_json_uint(&j, "table", L->table);
  for (unsigned i = 0; i < L->nf; i++)
    tc5_json_uint(&j, json_keys[L->f[i].id], get_member(d, L->f[i].id));
  tc5_json_str(&j, "atype_name", type_or_undefined(as, at));
  tc5_json_str(&j, "btype_name", type_or_undefined(bs, bt));
  tc5_json_str(&j, "dtype_name", type_or_undefined(ds, dt));
  tc5_json_uint(&j, "K", k);
  tc5_json_hex(&j, "reserved_bits", d->reserved_bits, 8);
  tc5_json_bool(&j, "valid", !diag || diag->count == 0);
  tc5_json_diag(&j, "issues", diag);
  tc5_json_obj_end(&j);
  return tc5_sb_finish(&b, buf, cap, needed);
}
