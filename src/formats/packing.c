/* tc5 — packing formats (9.7.16.10.4) and tcgen05.cp decompression
 * (9.7.16.9.1). Layout choices and their sources: include/tc5/packing.h. */
#include <string.h>

#include "spec/spec_tables.h"
#include "tc5/packing.h"

tc5_status tc5_pack_fp4x2(const uint8_t *codes, size_t n, uint8_t *bytes) {
  if (!codes || !bytes) return TC5_EINVAL;
  for (size_t i = 0; i < n; i++)
    if (codes[i] > 0xF) return TC5_ERANGE;
  for (size_t i = 0; i < n; i += 2)
    bytes[i / 2] = (uint8_t)(codes[i] | (i + 1 < n ? codes[i + 1] << 4 : 0));
  return TC5_OK;
}

tc5_status tc5_unpack_fp4x2(const uint8_t *bytes, size_t n, uint8_t *codes) {
  if (!codes || !bytes) return TC5_EINVAL;
  for (size_t i = 0; i < n; i++) codes[i] = (uint8_t)((bytes[i / 2] >> (4 * (i & 1))) & 0xF);
  return TC5_OK;
}

static unsigned elem_bits(tc5_type t) {
  switch (t) {
  case TC5_E4M3: case TC5_E5M2: return 8;
  case TC5_E2M3: case TC5_E3M2: return 6;
  case TC5_E2M1: return 4;
  default: return 0;
  }
}

tc5_status tc5_smem_f8f6f4_bytes(tc5_type t, size_t n, size_t *bytes) {
  unsigned w = elem_bits(t);
  if (!w || !bytes) return TC5_EINVAL;
  if (w == 8) {
    *bytes = n;
    return TC5_OK;
  }
  if (n % 16) return TC5_EALIGN;
  *bytes = n; /* 16 elements per 16 bytes, padding included */
  return TC5_OK;
}

/* 16 codes of w bits <-> w*2 bytes, element i at bits [w*i, w*i + w) */
static void pack16(const uint8_t *codes, unsigned w, uint8_t *out) {
  uint64_t lo = 0, hi = 0; /* 96 bits at most */
  for (unsigned i = 0; i < 16; i++) {
    unsigned b = w * i;
    uint64_t v = codes[i];
    if (b < 64) {
      lo |= v << b;
      if (b + w > 64) hi |= v >> (64 - b);
    } else {
      hi |= v << (b - 64);
    }
  }
  for (unsigned k = 0; k < 16; k++) out[k] = 0;
  for (unsigned k = 0; k < w * 2; k++) out[k] = (uint8_t)(k < 8 ? lo >> (8 * k) : hi >> (8 * (k - 8)));
}

static void unpack16(const uint8_t *in, unsigned w, uint8_t *codes) {
  uint64_t lo = 0, hi = 0;
  for (unsigned k = 0; k < w * 2; k++) {
    if (k < 8) lo |= (uint64_t)in[k] << (8 * k);
    else hi |= (uint64_t)in[k] << (8 * (k - 8));
  }
  uint64_t mask = (1ull << w) - 1;
  for (unsigned i = 0; i < 16; i++) {
    unsigned b = w * i;
    uint64_t v = b < 64 ? lo >> b : hi >> (b - 64);
    if (b < 64 && b + w > 64) v |= hi << (64 - b);
    codes[i] = (uint8_t)(v & mask);
  }
}

tc5_status tc5_pack_smem_f8f6f4(tc5_type t, const uint8_t *codes, size_t n, uint8_t *out) {
  unsigned w = elem_bits(t);
  if (!w || !codes || !out) return TC5_EINVAL;
  if (w < 8 && n % 16) return TC5_EALIGN;
  for (size_t i = 0; i < n; i++)
    if (codes[i] >> w) return TC5_ERANGE;
  if (w == 8) {
    memcpy(out, codes, n);
    return TC5_OK;
  }
  for (size_t g = 0; g < n; g += 16) pack16(codes + g, w, out + g);
  return TC5_OK;
}

tc5_status tc5_unpack_smem_f8f6f4(tc5_type t, const uint8_t *in, size_t n, uint8_t *codes) {
  unsigned w = elem_bits(t);
  if (!w || !codes || !in) return TC5_EINVAL;
  if (w == 8) {
    memcpy(codes, in, n);
    return TC5_OK;
  }
  if (n % 16) return TC5_EALIGN;
  for (size_t g = 0; g < n; g += 16) unpack16(in + g, w, codes + g);
  return TC5_OK;
}

tc5_status tc5_container8_pack(tc5_type t, uint32_t code, uint8_t *c8) {
  const tc5_container8 *c = tc5_spec_container8(t);
  if (!c || !c8) return TC5_EINVAL;
  if (code >> c->width) return TC5_ERANGE;
  *c8 = (uint8_t)(code << c->shift);
  return TC5_OK;
}

tc5_status tc5_container8_unpack(tc5_type t, uint8_t c8, uint32_t *code) {
  const tc5_container8 *c = tc5_spec_container8(t);
  if (!c || !code) return TC5_EINVAL;
  uint32_t field = ((1u << c->width) - 1u) << c->shift;
  *code = (c8 & field) >> c->shift;
  return (c8 & ~field & 0xFFu) ? TC5_ERESERVED : TC5_OK;
}

tc5_status tc5_pack_tmem_f8f6f4(tc5_type t, const uint8_t *codes, size_t n, uint32_t *words) {
  if (!tc5_spec_container8(t) || !codes || !words) return TC5_EINVAL;
  for (size_t w = 0; w < (n + 3) / 4; w++) words[w] = 0;
  for (size_t i = 0; i < n; i++) {
    uint8_t c;
    tc5_status st = tc5_container8_pack(t, codes[i], &c);
    if (st != TC5_OK) return st;
    words[i / 4] |= (uint32_t)c << (8 * (i % 4));
  }
  return TC5_OK;
}

tc5_status tc5_unpack_tmem_f8f6f4(tc5_type t, const uint32_t *words, size_t n, uint8_t *codes) {
  if (!tc5_spec_container8(t) || !codes || !words) return TC5_EINVAL;
  tc5_status st = TC5_OK;
  for (size_t i = 0; i < n; i++) {
    uint32_t c;
    if (tc5_container8_unpack(t, (uint8_t)(words[i / 4] >> (8 * (i % 4))), &c) != TC5_OK)
      st = TC5_ERESERVED;
    codes[i] = (uint8_t)c;
  }
  return st;
}

tc5_status tc5_pack_d_word(tc5_type dtype, uint32_t code, uint32_t *word) {
  if (!word) return TC5_EINVAL;
  switch (dtype) {
  case TC5_F16:
    if (code >> 16) return TC5_ERANGE;
    /* fall through */
  case TC5_F32:
  case TC5_S32:
    *word = code;
    return TC5_OK;
  default: return TC5_EINVAL;
  }
}

tc5_status tc5_unpack_d_word(tc5_type dtype, uint32_t word, uint32_t *code) {
  if (!code) return TC5_EINVAL;
  switch (dtype) {
  case TC5_F16:
    *code = word & 0xFFFFu;
    return (word >> 16) ? TC5_ERESERVED : TC5_OK;
  case TC5_F32:
  case TC5_S32:
    *code = word;
    return TC5_OK;
  default: return TC5_EINVAL;
  }
}

const char *tc5_cp_src_fmt_name(tc5_cp_src_fmt f) {
  return f == TC5_CP_B6X16_P32 ? "b6x16_p32" : f == TC5_CP_B4X16_P64 ? "b4x16_p64" : "?";
}

/* The decompression moves raw 4/6-bit fields; the container places are the
 * fp4 and fp6 ones (spec_tables.c), the same for e2m3 and e3m2. */
tc5_status tc5_cp_decompress(tc5_cp_src_fmt f, const uint8_t src[16], uint8_t dst[16]) {
  if (!src || !dst || (f != TC5_CP_B6X16_P32 && f != TC5_CP_B4X16_P64)) return TC5_EINVAL;
  tc5_type t = f == TC5_CP_B4X16_P64 ? TC5_E2M1 : TC5_E2M3;
  uint8_t codes[16];
  unpack16(src, elem_bits(t), codes);
  for (int i = 0; i < 16; i++) tc5_container8_pack(t, codes[i], &dst[i]);
  return TC5_OK;
}

tc5_status tc5_cp_compress(tc5_cp_src_fmt f, const uint8_t src[16], uint8_t dst[16]) {
  if (!src || !dst || (f != TC5_CP_B6X16_P32 && f != TC5_CP_B4X16_P64)) return TC5_EINVAL;
  tc5_type t = f == TC5_CP_B4X16_P64 ? TC5_E2M1 : TC5_E2M3;
  uint8_t codes[16];
  for (int i = 0; i < 16; i++) {
    uint32_t c;
    if (tc5_container8_unpack(t, src[i], &c) != TC5_OK) return TC5_ERANGE;
    codes[i] = (uint8_t)c;
  }
  pack16(codes, elem_bits(t), dst);
  return TC5_OK;
}
