/* tc5 — 9.7.16.4.1 Shared memory descriptor (Tables 40 and 41) and the
 * restrictions of 9.7.16.3.1.2.1 on the leading-dimension absolute address. */
#include <string.h>
#include <strings.h>

#include "spec/spec_tables.h"
#include "util/strbuf.h"
#include "tc5/descriptors.h"

/* matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4: an 18-bit byte address
 * window in 16-byte units. */
#define WINDOW_BYTES (1u << 18)

const char *tc5_swizzle_name(unsigned mode) {
  const tc5_swizzle_info *si = tc5_spec_swizzle(mode);
  return si ? si->name : "reserved";
}

bool tc5_swizzle_is_valid(unsigned mode) { return tc5_spec_swizzle(mode) != NULL; }

tc5_status tc5_swizzle_parse(const char *text, tc5_swizzle *mode) {
  static const struct {
    const char *name;
    tc5_swizzle mode;
  } aliases[] = {
      {"none", TC5_SWIZZLE_NONE},       {"interleave", TC5_SWIZZLE_NONE},
      {"inter", TC5_SWIZZLE_NONE},      {"0", TC5_SWIZZLE_NONE},
      {"128B_base32B", TC5_SWIZZLE_128B_BASE32B},
      {"128B-32B", TC5_SWIZZLE_128B_BASE32B},
      {"128B_32B", TC5_SWIZZLE_128B_BASE32B},
      {"sw128_32b", TC5_SWIZZLE_128B_BASE32B},
      {"1", TC5_SWIZZLE_128B_BASE32B},  {"128B", TC5_SWIZZLE_128B},
      {"sw128", TC5_SWIZZLE_128B},      {"2", TC5_SWIZZLE_128B},
      {"64B", TC5_SWIZZLE_64B},         {"sw64", TC5_SWIZZLE_64B},
      {"4", TC5_SWIZZLE_64B},           {"32B", TC5_SWIZZLE_32B},
      {"sw32", TC5_SWIZZLE_32B},        {"6", TC5_SWIZZLE_32B},
  };
  if (!text || !mode) return TC5_EINVAL;
  for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
    if (strcasecmp(text, aliases[i].name) == 0) {
      *mode = aliases[i].mode;
      return TC5_OK;
    }
  }
  return TC5_EINVAL;
}

tc5_status tc5_swizzle_pattern_bytes(tc5_swizzle mode, uint32_t *bytes) {
  const tc5_swizzle_info *si = tc5_spec_swizzle(mode);
  if (!si || !bytes) return TC5_EINVAL;
  *bytes = si->pattern_bytes;
  return TC5_OK;
}

tc5_status tc5_smem_desc_init(tc5_smem_desc *d) {
  if (!d) return TC5_EINVAL;
  memset(d, 0, sizeof *d);
  d->fixed_46_48 = 1;
  return TC5_OK;
}

static tc5_status check_addr(tc5_diag *diag, const char *field, uint32_t v,
                             const char *what) {
  tc5_status st = TC5_OK;
  if (v % 16)
    st = tc5_diag_add(diag, TC5_EALIGN, field, v,
                      "smem desc: %s %u (0x%x) is not 16-byte aligned "
                      "(9.7.16.4.1: must be 16-byte aligned)", what, v, v);
  if (v >= WINDOW_BYTES)
    st = tc5_diag_add(diag, TC5_ERANGE, field, v,
                      "smem desc: %s %u (0x%x) is outside the 18-bit window of "
                      "matrix-descriptor-encode ((x & 0x3FFFF) >> 4 keeps bytes "
                      "0..262143)", what, v, v);
  return st;
}

tc5_status tc5_smem_desc_check(const tc5_smem_desc *d, tc5_diag *diag) {
  if (!d) return TC5_EINVAL;
  tc5_status st = TC5_OK, s;
  if ((s = check_addr(diag, "start address", d->start_address,
                      "start address")) != TC5_OK)
    st = s;
  if ((s = check_addr(diag, "leading dimension byte offset", d->lbo,
                      d->lbo_mode ? "leading dimension byte address"
                                  : "leading dimension byte offset")) != TC5_OK)
    st = st ? st : s;
  if ((s = check_addr(diag, "stride dimension byte offset", d->sbo,
                      "stride dimension byte offset")) != TC5_OK)
    st = st ? st : s;
  if (d->fixed_46_48 != 1)
    st = tc5_diag_add(diag, TC5_ERESERVED, "fixed bits 46-48", d->fixed_46_48,
                      "smem desc: bits 46-48 are 0b%u%u%u, must be the fixed "
                      "constant 0b001 (Table 40)", (d->fixed_46_48 >> 2) & 1,
                      (d->fixed_46_48 >> 1) & 1, d->fixed_46_48 & 1);
  if (d->fixed_53_60 != 0)
    st = tc5_diag_add(diag, TC5_ERESERVED, "fixed bits 53-60", d->fixed_53_60,
                      "smem desc: bits 53-60 are 0x%02x, must be the fixed "
                      "constant 0 (Table 40)", d->fixed_53_60);
  if (d->unused_14_15)
    st = tc5_diag_add(diag, TC5_ERESERVED, "bits 14-15", d->unused_14_15,
                      "smem desc: bits 14-15 are %u; Table 40 defines no field "
                      "there, they must be 0", d->unused_14_15);
  if (d->unused_30_31)
    st = tc5_diag_add(diag, TC5_ERESERVED, "bits 30-31", d->unused_30_31,
                      "smem desc: bits 30-31 are %u; Table 40 defines no field "
                      "there, they must be 0", d->unused_30_31);
  if (d->base_offset > 7)
    st = tc5_diag_add(diag, TC5_ERANGE, "base offset", d->base_offset,
                      "smem desc: base offset %u does not fit bits 49-51 (0..7)",
                      d->base_offset);
  if (d->lbo_mode > 1)
    st = tc5_diag_add(diag, TC5_ERANGE, "leading dimension stride mode",
                      d->lbo_mode,
                      "smem desc: leading dimension stride mode %u is not 0 "
                      "(relative) or 1 (absolute)", d->lbo_mode);
  if (d->swizzle > 7)
    st = tc5_diag_add(diag, TC5_ERANGE, "swizzle mode", d->swizzle,
                      "smem desc: swizzle mode %u does not fit bits 61-63",
                      d->swizzle);
  else if (!tc5_swizzle_is_valid(d->swizzle))
    st = tc5_diag_add(diag, TC5_ERESERVED, "swizzle mode", d->swizzle,
                      "smem desc: swizzle mode %u is reserved (valid: 0 none, "
                      "1 128B/32B-atom, 2 128B, 4 64B, 6 32B)", d->swizzle);
  /* A base offset with no swizzling is legal: the field locates a swizzle
   * pattern (Table 41) and has no effect without one. Triton 3.9's tutorial
   * 10 (tcgen05.cp descriptors with base offset 4, no swizzle) runs on
   * B200s; tc run's strict checker warns (smem-desc-base-offset). */
  if (d->lbo_mode == 1) {
    if (d->swizzle != TC5_SWIZZLE_128B)
      st = tc5_diag_add(diag, TC5_EILLEGAL, "leading dimension stride mode", 1,
                        "smem desc: absolute leading-dimension address with "
                        "swizzle mode %u (%s): only 128B swizzling with 16B "
                        "atomicity is supported (9.7.16.3.1.2.1)", d->swizzle,
                        tc5_swizzle_name(d->swizzle));
    if (d->base_offset != 0)
      st = tc5_diag_add(diag, TC5_EILLEGAL, "base offset", d->base_offset,
                        "smem desc: base offset %u with an absolute leading-"
                        "dimension address: must be 0 (9.7.16.3.1.2.1)",
                        d->base_offset);
  }
  return st;
}

tc5_status tc5_smem_desc_check_lbo_mode(const tc5_smem_desc *d, bool transposed,
                                        tc5_arch arch, tc5_diag *diag) {
  if (!d) return TC5_EINVAL;
  tc5_status st = TC5_OK;
  if (d->lbo_mode != 1) return TC5_OK;
  if (arch != TC5_ARCH_SM103A)
    st = tc5_diag_add(diag, TC5_EILLEGAL, "leading dimension stride mode", 1,
                      "smem desc: the absolute leading-dimension address mode "
                      "(bit 52) is supported on sm_103a only, not %s "
                      "(9.7.16.4.1.1)", tc5_arch_name(arch));
  if (transposed)
    st = tc5_diag_add(diag, TC5_EILLEGAL, "leading dimension stride mode", 1,
                      "smem desc: the absolute leading-dimension address mode "
                      "supports K-major only; the transpose bit is set "
                      "(9.7.16.3.1.2.1)");
  return st;
}

tc5_status tc5_smem_base_offset(uint32_t pattern_start, tc5_swizzle mode,
                                uint8_t *base_offset) {
  const tc5_swizzle_info *si = tc5_spec_swizzle(mode);
  if (!si || !base_offset) return TC5_EINVAL;
  if (mode == TC5_SWIZZLE_NONE || pattern_start % si->pattern_bytes == 0)
    *base_offset = 0;
  else
    *base_offset = (uint8_t)((pattern_start >> 7) & 7);
  return TC5_OK;
}

tc5_status tc5_smem_desc_encode(const tc5_smem_desc *d, uint64_t *raw,
                                tc5_diag *diag) {
  if (!d || !raw) return TC5_EINVAL;
  tc5_status st = tc5_smem_desc_check(d, diag);
  if (st != TC5_OK) return st;
  uint64_t r = 0;
  r |= (uint64_t)((d->start_address & 0x3FFFF) >> 4);
  r |= (uint64_t)((d->lbo & 0x3FFFF) >> 4) << 16;
  r |= (uint64_t)((d->sbo & 0x3FFFF) >> 4) << 32;
  r |= (uint64_t)(d->fixed_46_48 & 7) << 46;
  r |= (uint64_t)(d->base_offset & 7) << 49;
  r |= (uint64_t)(d->lbo_mode & 1) << 52;
  r |= (uint64_t)d->fixed_53_60 << 53;
  r |= (uint64_t)(d->swizzle & 7) << 61;
  *raw = r;
  return TC5_OK;
}

tc5_status tc5_smem_desc_decode_mma(uint64_t raw, tc5_smem_desc *d, tc5_diag *diag) {
  if (!d) return TC5_EINVAL;
  /* bits 14-15 and 30-31: no field in Table 40 as in wgmma's table, whose
   * unfielded bits the H200 ignores (issue 52); bits 46-48 0b000: Triton
   * 3.3-3.5's descriptors (the 0b001 arrived with Triton PR 8032), which
   * ran on B200s (docs/spec-departures.md) */
  uint64_t r = raw & ~(3ull << 14 | 3ull << 30);
  if (((r >> 46) & 7) == 0) r |= 1ull << 46;
  return tc5_smem_desc_decode(r, d, diag);
}

tc5_status tc5_smem_desc_decode(uint64_t raw, tc5_smem_desc *d, tc5_diag *diag) {
  if (!d) return TC5_EINVAL;
  memset(d, 0, sizeof *d);
  d->start_address = (uint32_t)(raw & 0x3FFF) << 4;
  d->unused_14_15 = (uint8_t)((raw >> 14) & 3);
  d->lbo = (uint32_t)((raw >> 16) & 0x3FFF) << 4;
  d->unused_30_31 = (uint8_t)((raw >> 30) & 3);
  d->sbo = (uint32_t)((raw >> 32) & 0x3FFF) << 4;
  d->fixed_46_48 = (uint8_t)((raw >> 46) & 7);
  d->base_offset = (uint8_t)((raw >> 49) & 7);
  d->lbo_mode = (uint8_t)((raw >> 52) & 1);
  d->fixed_53_60 = (uint8_t)((raw >> 53) & 0xFF);
  d->swizzle = (uint8_t)((raw >> 61) & 7);
  return tc5_smem_desc_check(d, diag);
}

tc5_status tc5_smem_desc_to_wgmma(const tc5_smem_desc *d, uint64_t *raw, tc5_diag *diag) {
  if (!d || !raw) return TC5_EINVAL;
  tc5_status st = tc5_smem_desc_check(d, diag);
  if (st != TC5_OK) return st;
  unsigned lt;
  switch (d->swizzle) {
  case TC5_SWIZZLE_NONE: lt = 0; break;
  case TC5_SWIZZLE_128B: lt = 1; break;
  case TC5_SWIZZLE_64B: lt = 2; break;
  case TC5_SWIZZLE_32B: lt = 3; break;
  default:
    return tc5_diag_add(diag, TC5_EUNSUPPORTED, "swizzle mode", d->swizzle,
                        "wgmma desc: swizzle %s has no Hopper encoding",
                        tc5_swizzle_name(d->swizzle));
  }
  if (d->lbo_mode)
    return tc5_diag_add(diag, TC5_EUNSUPPORTED, "leading dimension stride mode", 1,
                        "wgmma desc: Hopper has no absolute leading-dimension address mode");
  uint64_t r = 0;
  r |= (uint64_t)((d->start_address & 0x3FFFF) >> 4);
  r |= (uint64_t)((d->lbo & 0x3FFFF) >> 4) << 16;
  r |= (uint64_t)((d->sbo & 0x3FFFF) >> 4) << 32;
  r |= (uint64_t)(d->base_offset & 7) << 49;
  r |= (uint64_t)lt << 62;
  *raw = r;
  return TC5_OK;
}

tc5_status tc5_smem_desc_from_wgmma(uint64_t raw, tc5_smem_desc *d, tc5_diag *diag) {
  if (!d) return TC5_EINVAL;
  tc5_smem_desc_init(d);
  static const uint8_t sw[4] = {TC5_SWIZZLE_NONE, TC5_SWIZZLE_128B, TC5_SWIZZLE_64B,
                                TC5_SWIZZLE_32B};
  d->start_address = (uint32_t)(raw & 0x3FFF) << 4;
  d->lbo = (uint32_t)((raw >> 16) & 0x3FFF) << 4;
  d->sbo = (uint32_t)((raw >> 32) & 0x3FFF) << 4;
  d->base_offset = (uint8_t)((raw >> 49) & 7);
  d->swizzle = sw[(raw >> 62) & 3];
  /* the other bits (14-15, 30-31, 46-48, 52-61) are no fields of the Hopper
   * descriptor and wgmma ignores them: the H200 reads every element where
   * the fields alone put it with any of them set (issue 52,
   * tests/data/h100/wgmma-descriptors-far1..4.txt); so does tc5 */
  return tc5_smem_desc_check(d, diag);
}

static const char *swizzle_long(unsigned mode) {
  switch (mode) {
  case TC5_SWIZZLE_NONE: return "no swizzling (interleaved core matrices)";
  case TC5_SWIZZLE_128B_BASE32B:
    return "128-byte swizzling with 32-byte atomicity (pattern repeats every 1024 bytes)";
  case TC5_SWIZZLE_128B: return "128-byte swizzling (pattern repeats every 1024 bytes)";
  case TC5_SWIZZLE_64B: return "64-byte swizzling (pattern repeats every 512 bytes)";
  case TC5_SWIZZLE_32B: return "32-byte swizzling (pattern repeats every 256 bytes)";
  default: return "reserved";
  }
}

tc5_status tc5_smem_desc_describe(const tc5_smem_desc *d, char *buf, size_t cap,
                                  size_t *needed) {
  if (!d) return TC5_EINVAL;
  tc5_sb b;
  tc5_sb_init(&b);
  tc5_sb_printf(&b, "shared memory descriptor (Table 40)\n");
  tc5_sb_field(&b, "start address", "bits 0-13", "%u bytes (0x%05x; field 0x%04x)",
               d->start_address, d->start_address, (d->start_address & 0x3FFFF) >> 4);
  tc5_sb_field(&b, "leading dimension", "bits 16-29", "%u bytes, %s (field 0x%04x)", d->lbo,
               d->lbo_mode ? "absolute byte address" : "relative byte offset",
               (d->lbo & 0x3FFFF) >> 4);
  tc5_sb_field(&b, "stride dimension", "bits 32-45", "%u bytes, byte offset (field 0x%04x)",
               d->sbo, (d->sbo & 0x3FFFF) >> 4);
  tc5_sb_field(&b, "fixed constant", "bits 46-48", "0b%u%u%u%s", (d->fixed_46_48 >> 2) & 1,
               (d->fixed_46_48 >> 1) & 1, d->fixed_46_48 & 1,
               d->fixed_46_48 == 1 ? "" : " (must be 0b001)");
  tc5_sb_field(&b, "base offset", "bits 49-51", "%u%s", d->base_offset,
               !d->base_offset                     ? " (pattern starts on its Table 41 boundary)"
               : d->swizzle == TC5_SWIZZLE_NONE    ? " (no effect: there is no swizzle pattern)"
                                                   : " (pattern starts at 128 x offset past its boundary)");
  tc5_sb_field(&b, "leading dimension mode", "bit 52", "%u = %s", d->lbo_mode,
               d->lbo_mode ? "byte address absolute (sm_103a)" : "byte offset relative");
  tc5_sb_field(&b, "fixed constant", "bits 53-60", "0x%02x%s", d->fixed_53_60,
               d->fixed_53_60 ? " (must be 0)" : "");
  tc5_sb_field(&b, "swizzle mode", "bits 61-63", "%u = %s", d->swizzle, swizzle_long(d->swizzle));
  if (d->unused_14_15 || d->unused_30_31)
    tc5_sb_field(&b, "undefined bits", "bits 14-15, 30-31", "%u, %u (must be 0)",
                 d->unused_14_15, d->unused_30_31);
  return tc5_sb_finish(&b, buf, cap, needed);
}

tc5_status tc5_smem_desc_json(const tc5_smem_desc *d, uint64_t raw,
                              const tc5_diag *diag, char *buf, size_t cap,
                              size_t *needed) {
  if (!d) return TC5_EINVAL;
  tc5_sb b;
  tc5_sb_init(&b);
  tc5_json j;
  tc5_json_init(&j, &b);
  tc5_json_obj_begin(&j, NULL);
  tc5_json_str(&j, "descriptor", "smem");
  tc5_json_hex(&j, "raw", raw, 16);
  tc5_json_uint(&j, "start_address", d->start_address);
  tc5_json_uint(&j, "leading_byte_offset", d->lbo);
  tc5_json_str(&j, "leading_mode", d->lbo_mode ? "absolute" : "relative");
  tc5_json_uint(&j, "stride_byte_offset", d->sbo);
  tc5_json_uint(&j, "base_offset", d->base_offset);
  tc5_json_uint(&j, "swizzle", d->swizzle);
  tc5_json_str(&j, "swizzle_name", tc5_swizzle_name(d->swizzle));
  tc5_json_uint(&j, "fixed_46_48", d->fixed_46_48);
  tc5_json_uint(&j, "fixed_53_60", d->fixed_53_60);
  tc5_json_uint(&j, "bits_14_15", d->unused_14_15);
  tc5_json_uint(&j, "bits_30_31", d->unused_30_31);
  tc5_json_bool(&j, "valid", !diag || diag->count == 0);
  tc5_json_diag(&j, "issues", diag);
  tc5_json_obj_end(&j);
  return tc5_sb_finish(&b, buf, cap, needed);
}
