/* tc5 — 9.7.16.4.3 Zero-column mask descriptor: field packing (Table 45).
 * Mask generation is in zcmask.c. */
#include <string.h>

#include "util/strbuf.h"
#include "tc5/descriptors.h"

tc5_status tc5_zcmask_desc_init(tc5_zcmask_desc *d) {
  if (!d) return TC5_EINVAL;
  memset(d, 0, sizeof *d);
  return TC5_OK;
}

tc5_status tc5_zcmask_desc_check(const tc5_zcmask_desc *d, unsigned m,
                                 tc5_diag *diag) {
  if (!d) return TC5_EINVAL;
  tc5_status st = TC5_OK;
  for (int i = 0; i < 4; i++)
    if (d->first_span[i] > 1)
      st = tc5_diag_add(diag, TC5_ERANGE, "first span", d->first_span[i],
                        "zcmask desc: first span fs%d %u is not 0 or 1 "
                        "(bit %d)", i, d->first_span[i], 32 + i);
  if (d->non_zero > 1)
    st = tc5_diag_add(diag, TC5_ERANGE, "non-zero mask", d->non_zero,
                      "zcmask desc: non-zero mask %u is not 0 or 1 (bit 39)",
                      d->non_zero);
  if (d->column_shift > 63)
    st = tc5_diag_add(diag, TC5_ERANGE, "column shift", d->column_shift,
                      "zcmask desc: column shift %u does not fit bits 56-61 "
                      "(0..63)", d->column_shift);
  else if (m != 0 && m != 32 && m != 64 && m != 128)
    st = tc5_diag_add(diag, TC5_EINVAL, "M", m,
                      "zcmask desc: M %u has no zero-column mask (M = 32, 64 "
                      "or 128)", m);
  else {
    unsigned limit = m == 32 ? 16 : 32;
    if (d->column_shift > limit)
      st = tc5_diag_add(diag, TC5_ERANGE, "column shift", d->column_shift,
                        "zcmask desc: column shift %u exceeds the maximum shift "
                        "amount %u%s (Table 45)", d->column_shift, limit,
                        m == 32 ? " for M = 32" : m ? "" : " (32 for M = 64/128, 16 for M = 32)");
  }
  if (d->reserved_36_38)
    st = tc5_diag_add(diag, TC5_ERESERVED, "reserved bits 36-38", d->reserved_36_38,
                      "zcmask desc: reserved bits 36-38 are %u, must be 0 "
                      "(Table 45)", d->reserved_36_38);
  if (d->reserved_62_63)
    st = tc5_diag_add(diag, TC5_ERESERVED, "bits 62-63", d->reserved_62_63,
                      "zcmask desc: bits 62-63 are %u; Table 45 defines no field "
                      "there, they must be 0", d->reserved_62_63);
  return st;
}

tc5_status tc5_zcmask_desc_encode(const tc5_zcmask_desc *d, uint64_t *raw,
                                  tc5_diag *diag) {
  if (!d || !raw) return TC5_EINVAL;
  tc5_status st = tc5_zcmask_desc_check(d, 0, diag);
  if (st != TC5_OK) return st;
  uint64_t r = 0;
  for (int i = 0; i < 4; i++) {
    r |= (uint64_t)d->start_count[i] << (8 * i);
    r |= (uint64_t)(d->first_span[i] & 1) << (32 + i);
  }
  r |= (uint64_t)(d->non_zero & 1) << 39;
  r |= (uint64_t)d->skip_span << 40;
  r |= (uint64_t)d->use_span << 48;
  r |= (uint64_t)(d->column_shift & 63) << 56;
  *raw = r;
  return TC5_OK;
}

tc5_status tc5_zcmask_desc_decode(uint64_t raw, tc5_zcmask_desc *d,
                                  tc5_diag *diag) {
  if (!d) return TC5_EINVAL;
  memset(d, 0, sizeof *d);
  for (int i = 0; i < 4; i++) {
    d->start_count[i] = (uint8_t)(raw >> (8 * i));
    d->first_span[i] = (uint8_t)((raw >> (32 + i)) & 1);
  }
  d->reserved_36_38 = (uint8_t)((raw >> 36) & 7);
  d->non_zero = (uint8_t)((raw >> 39) & 1);
  d->skip_span = (uint8_t)(raw >> 40);
  d->use_span = (uint8_t)(raw >> 48);
  d->column_shift = (uint8_t)((raw >> 56) & 63);
  d->reserved_62_63 = (uint8_t)((raw >> 62) & 3);
  return tc5_zcmask_desc_check(d, 0, diag);
}

tc5_status tc5_zcmask_desc_describe(const tc5_zcmask_desc *d, char *buf,
                                    size_t cap, size_t *needed) {
  if (!d) return TC5_EINVAL;
  tc5_sb b;
  tc5_sb_init(&b);
  tc5_sb_printf(&b, "zero-column mask descriptor (Table 45)\n");
  tc5_sb_field(&b, "start count sc0..sc3", "bits 0-31", "%u, %u, %u, %u pattern bits skipped", d->start_count[0], d->start_count[1], d->start_count[2], d->start_count[3]);
  tc5_sb_field(&b, "first span  fs0..fs3", "bits 32-35", "%u, %u, %u, %u (value of the first run)", d->first_span[0], d->first_span[1], d->first_span[2], d->first_span[3]);
  tc5_sb_field(&b, "non-zero mask", "bit 39", "%u = %s", d->non_zero,
                d->non_zero ? "mask is generated" : "mask is all zeros (every column used)");
  tc5_sb_field(&b, "skip span", "bits 40-47", "%u -> runs of %u zeroed columns (1-bits)", d->skip_span, d->skip_span + 1u);
  tc5_sb_field(&b, "use span", "bits 48-55", "%u -> runs of %u used columns (0-bits)", d->use_span, d->use_span + 1u);
  tc5_sb_field(&b, "column shift", "bits 56-61", "%u -> B columns [%u, %u+N) are read", d->column_shift, d->column_shift, d->column_shift);
  if (d->reserved_36_38 || d->reserved_62_63)
    tc5_sb_field(&b, "reserved bits", "bits 36-38, 62-63", "%u, %u (must be 0)",
                 d->reserved_36_38, d->reserved_62_63);
  return tc5_sb_finish(&b, buf, cap, needed);
}

tc5_status tc5_zcmask_desc_json(const tc5_zcmask_desc *d, uint64_t raw,
                                const tc5_diag *diag, char *buf, size_t cap,
                                size_t *needed) {
  if (!d) return TC5_EINVAL;
  tc5_sb b;
  tc5_sb_init(&b);
  tc5_json j;
  tc5_json_init(&j, &b);
  tc5_json_obj_begin(&j, NULL);
  tc5_json_str(&j, "descriptor", "zcmask");
  tc5_json_hex(&j, "raw", raw, 16);
  tc5_json_arr_begin(&j, "start_count");
  for (int i = 0; i < 4; i++) tc5_json_uint(&j, NULL, d->start_count[i]);
  tc5_json_arr_end(&j);
  tc5_json_arr_begin(&j, "first_span");
  for (int i = 0; i < 4; i++) tc5_json_uint(&j, NULL, d->first_span[i]);
  tc5_json_arr_end(&j);
  tc5_json_uint(&j, "non_zero", d->non_zero);
  tc5_json_uint(&j, "skip_span", d->skip_span);
  tc5_json_uint(&j, "use_span", d->use_span);
  tc5_json_uint(&j, "column_shift", d->column_shift);
  tc5_json_uint(&j, "reserved_36_38", d->reserved_36_38);
  tc5_json_uint(&j, "reserved_62_63", d->reserved_62_63);
  tc5_json_bool(&j, "valid", !diag || diag->count == 0);
  tc5_json_diag(&j, "issues", diag);
  tc5_json_obj_end(&j);
  return tc5_sb_finish(&b, buf, cap, needed);
}
