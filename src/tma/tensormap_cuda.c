/* tc5 — CUDA's own 128-byte tensor map (tc5/tensormap.h,
 * tc5_tensormap_cuda_encode / _decode): the bytes cuTensorMapEncodeTiled
 * writes on the host, which a kernel receives as a .param of 128 bytes.
 *
 * CUDA documents CUtensorMap as opaque. The layout below was read off the
 * bytes an H100's driver wrote (CUDA 13.0, driver 580.159) for encodings
 * that vary one parameter at a time (gpu/tensormap_dump.c; its output is
 * tests/data/tma/cuda_tensormaps.txt, which test_tensormap_cuda decodes and
 * re-encodes byte for byte). Little-endian:
 *   0..7    global address
 *   8..11   bits 4-6 rank - 1, bits 7-10 the element type in tensormap.replace's
 *           enumeration (f32_ftz 8, f64 9, bf16 10; tf32 is f32 with bit 16),
 *           bits 11-12 interleave, 13-14 swizzle (none, 32B, 64B, 128B),
 *           bit 15 NaN fill, bit 16 tf32 rounding, bits 17-18 L2 promotion
 *   12+4i   globalStrides[i] >> 4, low 32 bits (i = 0..3); byte 28 bits 0-3:
 *           bits 32-35 of globalStrides[0] >> 4
 *   32+4i   globalDim[i] - 1 (i = 0..4)
 *   52..53  elementStrides[i] - 1 at bits 3i..3i+2
 *   55+i    boxDim[i] - 1
 *   64..67  the bytes one box brings: the product over dimensions of
 *           floor(boxDim / elementStrides) (the driver's rounding, not the
 *           copy's), times the element size
 *   72..73  16 (no swizzle), 256, 512 or 1024 (the 32B, 64B, 128B swizzle's
 *           repeat)
 *   every other bit zero.
 * The Blackwell form, as CuTe DSL's host code writes maps for sm_100a itself
 * (nvidia-cutlass-dsl 4.8.1; tests/data/tma/cute_dsl_tensormap.txt): bit 1
 * of byte 8 set, bytes 0-59 as above, bytes 60-127 not written (they hold
 * whatever the host's stack held). In that form CuTe DSL also sets bit 21
 * (bit 5 of byte 10) on the maps of its TMA stores (the tutorials
 * fp16_gemm_2..4's epilogues, 64B swizzle): what it means is not known.
 * tc5 reads such maps as though it were clear, and the examples' outputs
 * are bit for bit tc5.gemm's (tests/python/test_cute.py), which a changed
 * layout or address would not give. Its element type 11 is
 * CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B (CuTe DSL's NVFP4 operands: e2m1 two
 * a byte; the H100's driver refuses the type, its codes run 0-10 in
 * tensormap.replace's order, and the NVFP4 example's outputs are bit for bit
 * tc5.gemm's); 12 and 13 (the other packed types, presumably) are refused.
 * Encode writes the H100's form.
 * What the H100's driver refuses (the packed 4- and 6-bit types, the 128B
 * swizzles with 32B/64B atoms: Blackwell's) and what the measurements do not
 * reach (bits 32-35 of strides 1-3, im2col maps) is TC5_EUNSUPPORTED both
 * ways, by name; tc5's own encoding (tc5_tensormap_encode) carries those. */
#include <string.h>

#include "tc5/tensormap.h"
#include "tensormap_bytes.h"

/* CUtensorMapDataType -> the hardware's element type (tensormap.replace's
 * enumeration), and its tf32 bit */
static const uint8_t hw_type[TC5_TMAP_TYPE_COUNT] = {0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 8, 7, 8, 0xff, 0xff, 0xff};
static const uint8_t tf32_bit[TC5_TMAP_TYPE_COUNT] = {[TC5_TMAP_TF32] = 1, [TC5_TMAP_TF32_FTZ] = 1};


static uint64_t box_bytes(const tc5_tmap_params *p) {
  unsigned bits = 0;
  tc5_tmap_type_bits(p->type, &bits);
  uint64_t n = 1;
  for (unsigned i = 0; i < p->rank; i++) n *= p->box[i] / (p->estrides[i] ? p->estrides[i] : 1);
  return n * bits / 8;
}
static unsigned swizzle_repeat(unsigned sw) { return sw == TC5_TMAP_SWIZZLE_NONE ? 16 : 8 * tc5_tmap_swizzle_bytes(sw); }

static tc5_status unmeasured(const tc5_tmap_params *p, tc5_diag *diag) {
  if (p->mode != TC5_TMAP_TILED)
    return tc5_diag_add(diag, TC5_EUNSUPPORTED, "mode", p->mode,
                        "CUDA tensor map: the driver's im2col encoding is not measured (tc5's own encoding carries it)");
  if (hw_type[p->type] == 0xff)
    return tc5_diag_add(diag, TC5_EUNSUPPORTED, "tensorDataType", p->type,
                        "CUDA tensor map: tensorDataType %s has no measured encoding (an H100's driver refuses it)",
                        tc5_tmap_type_name(p->type));
  if (p->swizzle > TC5_TMAP_SWIZZLE_128B)
    return tc5_diag_add(diag, TC5_EUNSUPPORTED, "swizzle", p->swizzle,
                        "CUDA tensor map: swizzle %s has no measured encoding (an H100's driver refuses it)",
                        tc5_tmap_swizzle_name(p->swizzle));
  for (unsigned i = 1; i + 1 < p->rank; i++)
    if (p->strides[i] >> 36)
      return tc5_diag_add(diag, TC5_EUNSUPPORTED, "globalStrides", p->strides[i],
                          "CUDA tensor map: globalStrides[%u] = %llu is 2^36 or more: where the driver keeps its high "
                          "bits is not measured", i, (unsigned long long)p->strides[i]);
  return TC5_OK;
}

tc5_status tc5_tensormap_cuda_encode(tc5_tensormap *out, const tc5_tmap_params *p, tc5_diag *diag) {
  if (!out || !p) return TC5_EINVAL;
  tc5_tensormap own;
  tc5_status st = tc5_tensormap_encode(&own, p, diag); /* every rule of cuTensorMapEncodeTiled */
  if (st) return st;
  st = unmeasured(p, diag);
  if (st) return st;
  uint8_t *b = out->bytes;
  memset(b, 0, TC5_TENSORMAP_BYTES);
  tmap_put(b, 0, p->address, 8);
  uint64_t w = (uint64_t)(p->rank - 1) << 4 | (uint64_t)hw_type[p->type] << 7 | (uint64_t)p->interleave << 11 |
               (uint64_t)p->swizzle << 13 | (uint64_t)p->oob << 15 | (uint64_t)tf32_bit[p->type] << 16 |
               (uint64_t)p->l2 << 17;
  tmap_put(b, 8, w, 4);
  unsigned es = 0;
  for (unsigned i = 0; i < p->rank; i++) {
    if (i + 1 < p->rank) tmap_put(b, 12 + 4 * i, p->strides[i] >> 4, 4);
    tmap_put(b, 32 + 4 * i, p->dims[i] - 1, 4);
    es |= (p->estrides[i] - 1) << (3 * i);
    b[55 + i] = (uint8_t)(p->box[i] - 1);
  }
  if (p->rank > 1) b[28] = (uint8_t)((p->strides[0] >> 36) & 15);
  tmap_put(b, 52, es, 2);
  tmap_put(b, 64, box_bytes(p), 4);
  tmap_put(b, 72, swizzle_repeat(p->swizzle), 2);
  return TC5_OK;
}

/* the bits the layout above gives a meaning (a map with any other bit set is not one of CUDA's that tc5 can read);
 * the Blackwell form's bytes 60-127 are not part of it */
static bool known_bit(unsigned byte, unsigned bit, bool blackwell) {
  if (blackwell && byte >= 60) return true;
  if (byte == 8 && bit == 1) return blackwell;
  if (byte == 10 && bit == 5) return blackwell; /* bit 21: CuTe DSL's TMA-store maps; meaning unknown (see above) */
  if (byte < 8) return true;
  if (byte >= 8 && byte < 12) return (byte - 8) * 8 + bit >= 4 && (byte - 8) * 8 + bit <= 18;
  if (byte >= 12 && byte < 28) return true;
  if (byte == 28) return bit < 4;
  if (byte >= 32 && byte < 52) return true;
  if (byte == 52) return true;
  if (byte == 53) return bit < 7;
  if (byte >= 55 && byte < 60) return true;
  if (byte >= 64 && byte < 68) return true;
  if (byte == 72 || byte == 73) return true;
  return false;
}

tc5_status tc5_tensormap_cuda_decode(const tc5_tensormap *map, tc5_tmap_params *p, tc5_diag *diag) {
  if (!map || !p) return TC5_EINVAL;
  const uint8_t *b = map->bytes;
  bool bw = b[8] & 2;
  for (unsigned k = 0; k < TC5_TENSORMAP_BYTES; k++)
    for (unsigned bit = 0; bit < 8; bit++)
      if ((b[k] >> bit & 1) && !known_bit(k, bit, bw))
        return tc5_diag_add(diag, TC5_EUNSUPPORTED, "bytes", k,
                            "CUDA tensor map: bit %u of byte %u is set; that bit has no measured meaning (not a tiled "
                            "map as an H100's driver writes one)", bit, k);
  tc5_tmap_params q;
  memset(&q, 0, sizeof q);
  uint64_t w = tmap_get(b, 8, 4);
  q.mode = TC5_TMAP_TILED;
  q.address = tmap_get(b, 0, 8);
  q.rank = (uint32_t)(w >> 4 & 7) + 1;
  unsigned ht = (unsigned)(w >> 7 & 15), tf32 = (unsigned)(w >> 16 & 1);
  int type = -1;
  for (unsigned t = 0; t < TC5_TMAP_TYPE_COUNT; t++)
    if (hw_type[t] == ht && tf32_bit[t] == tf32) type = (int)t;
  bool blackwell = b[8] & 2;
  if (type < 0 && blackwell && ht == 11 && !tf32) type = TC5_TMAP_16U4_ALIGN8B; /* CuTe DSL's NVFP4 maps (above) */
  if (type < 0)
    return tc5_diag_add(diag, TC5_EUNSUPPORTED, "elemtype", ht,
                        "CUDA tensor map: element type %u%s has no CUtensorMapDataType", ht, tf32 ? " with tf32" : "");
  q.type = (tc5_tmap_type)type;
  q.interleave = (tc5_tmap_interleave)(w >> 11 & 3);
  q.swizzle = (tc5_tmap_swizzle)(w >> 13 & 3);
  q.oob = (tc5_tmap_oob)(w >> 15 & 1);
  q.l2 = (tc5_tmap_l2)(w >> 17 & 3);
  if (q.rank > TC5_TENSORMAP_MAX_RANK)
    return tc5_diag_add(diag, TC5_ERANGE, "rank", q.rank, "CUDA tensor map: rank %u is above 5", q.rank);
  unsigned es = (unsigned)tmap_get(b, 52, 2);
  for (unsigned i = 0; i < TC5_TENSORMAP_MAX_RANK; i++) {
    uint64_t d = tmap_get(b, 32 + 4 * i, 4) + 1;
    unsigned e = (es >> (3 * i) & 7) + 1, bx = b[55 + i] + 1u;
    if (i < q.rank) {
      q.dims[i] = d, q.estrides[i] = e, q.box[i] = bx;
      if (i + 1 < q.rank) q.strides[i] = tmap_get(b, 12 + 4 * i, 4) << 4;
    } else if (d != 1 || e != 1 || bx != 1 || (i < 4 && i + 1 >= q.rank && tmap_get(b, 12 + 4 * i, 4))) {
      return tc5_diag_add(diag, TC5_EILLEGAL, "rank", q.rank,
                          "CUDA tensor map: dimension %u is past rank %u but its fields are not zero", i, q.rank);
    }
  }
  if (q.rank > 1) q.strides[0] |= (uint64_t)(b[28] & 15) << 36;
  else if (b[28])
    return tc5_diag_add(diag, TC5_EILLEGAL, "rank", 1, "CUDA tensor map: a rank-1 map has stride bits in byte 28");
  tc5_tensormap own;
  tc5_status st = tc5_tensormap_encode(&own, &q, diag); /* the driver's rules */
  if (st) return st;
  if (blackwell) { /* bytes 60-127 are not written (CuTe DSL leaves them as its stack held them) */
    *p = q;
    return TC5_OK;
  }
  if (tmap_get(b, 64, 4) != box_bytes(&q))
    return tc5_diag_add(diag, TC5_EILLEGAL, "boxBytes", tmap_get(b, 64, 4),
                        "CUDA tensor map: bytes 64-67 say a box is %llu bytes; its dimensions make %llu",
                        (unsigned long long)tmap_get(b, 64, 4), (unsigned long long)box_bytes(&q));
  if (tmap_get(b, 72, 2) != swizzle_repeat(q.swizzle))
    return tc5_diag_add(diag, TC5_EILLEGAL, "swizzle", tmap_get(b, 72, 2),
                        "CUDA tensor map: bytes 72-73 are %llu; swizzle %s makes %u", (unsigned long long)tmap_get(b, 72, 2),
                        tc5_tmap_swizzle_name(q.swizzle), swizzle_repeat(q.swizzle));
  *p = q;
  return TC5_OK;
}

bool tc5_tensormap_is_cuda(const tc5_tensormap *map) {
  /* tc5's own encoding ends in its mark (tc5/tensormap.h); maps tc5 wrote before the mark existed
   * (CUTLASS Params committed under tests/data) are tc5's when they decode as tc5's; a map of zeros
   * is neither */
  if (!map || !memcmp(map->bytes + TC5_TENSORMAP_BYTES - 4, TC5_TENSORMAP_MARK, 4)) return false;
  bool zero = true;
  for (unsigned k = 0; k < TC5_TENSORMAP_BYTES && zero; k++) zero = !map->bytes[k];
  if (zero) return false;
  tc5_tmap_params p;
  tc5_diag dg;
  tc5_diag_init(&dg);
  return tc5_tensormap_decode(map, &p, &dg) != TC5_OK;
}
