/* tc5 — tensor maps (tc5/tensormap.h): the rules of cuTensorMapEncodeTiled
 * and cuTensorMapEncodeIm2col (cuda.h, CUDA 13), and tc5's own 128-byte
 * encoding of the parameters.
 *
 * The encoding (little-endian; a kernel only hands it to TMA instructions):
 *   0   u64 global address        8  u64 dims[5]       48 u64 strides[4]
 *   80  u16 box[5]                90 u8 estrides[5]    95 u8 rank - 1
 *   96  u8 type, interleave, swizzle, l2, oob, mode (96..101)
 *   102 s16 lower[3]              108 s16 upper[3]
 *   114 u16 channels              116 u16 pixels
 *   118 u8 tensormap.replace's swizzle_mode, 119 its swizzle_atomicity
 *       (byte 98 is the swizzle they make together)
 *   124 the mark "tc5\x01" (TC5_TENSORMAP_MARK: CUDA's maps have none)
 * Everything else is zero. The rank is stored less one, as the hardware's
 * field is (tensormap.replace.tile.rank takes rank - 1): Triton builds a
 * device-side map on zeroed shared memory and leaves out the replaces of
 * fields whose value is 0, the rank of a 1-D map among them
 * (TMAToLLVM.cpp: tensormap_replace_rank(..., op.getRank() - 1)). */
#include <stdlib.h>
#include <string.h>

#include "tc5/tensormap.h"
#include "tensormap_bytes.h"

/* ---- the parameters' tables ---- */
typedef struct tmap_type_info {
  const char *name;
  uint8_t bits;     /* of one element in global memory */
  bool is_float;
  bool packed;      /* the 16 x U4 / U6 types */
} tmap_type_info;
static const tmap_type_info types[TC5_TMAP_TYPE_COUNT] = {
    [TC5_TMAP_U8] = {"u8", 8, false, false},          [TC5_TMAP_U16] = {"u16", 16, false, false},
    [TC5_TMAP_U32] = {"u32", 32, false, false},       [TC5_TMAP_S32] = {"s32", 32, false, false},
    [TC5_TMAP_U64] = {"u64", 64, false, false},       [TC5_TMAP_S64] = {"s64", 64, false, false},
    [TC5_TMAP_F16] = {"f16", 16, true, false},        [TC5_TMAP_F32] = {"f32", 32, true, false},
    [TC5_TMAP_F64] = {"f64", 64, true, false},        [TC5_TMAP_BF16] = {"bf16", 16, true, false},
    [TC5_TMAP_F32_FTZ] = {"f32_ftz", 32, true, false}, [TC5_TMAP_TF32] = {"tf32", 32, true, false},
    [TC5_TMAP_TF32_FTZ] = {"tf32_ftz", 32, true, false},
    [TC5_TMAP_16U4_ALIGN8B] = {"16u4_align8b", 4, false, true},
    [TC5_TMAP_16U4_ALIGN16B] = {"16u4_align16b", 4, false, true},
    [TC5_TMAP_16U6_ALIGN16B] = {"16u6_align16b", 6, false, true},
};
/* the swizzle modes and the bounding box's inner bytes they allow */
static const struct {
  const char *name;
  uint16_t span;
} swizzles[TC5_TMAP_SWIZZLE_COUNT] = {
    {"none", 0}, {"32B", 32}, {"64B", 64}, {"128B", 128}, {"128B_atom_32B", 128}, {"128B_atom_32B_flip_8B", 128},
    {"128B_atom_64B", 128},
};
static const char *const interleaves[] = {"none", "16B", "32B"};
static const char *const l2s[] = {"none", "64B", "128B", "256B"};
static const char *const oobs[] = {"zero", "nan"};

const char *tc5_tmap_type_name(unsigned type) { return type < TC5_TMAP_TYPE_COUNT ? types[type].name : "?"; }
unsigned tc5_tmap_swizzle_bytes(unsigned s) { return s < TC5_TMAP_SWIZZLE_COUNT ? swizzles[s].span : 0; }
const char *tc5_tmap_swizzle_name(unsigned s) { return s < TC5_TMAP_SWIZZLE_COUNT ? swizzles[s].name : "?"; }
tc5_status tc5_tmap_type_bits(tc5_tmap_type type, unsigned *bits) {
  if (!bits || (unsigned)type >= TC5_TMAP_TYPE_COUNT) return TC5_EINVAL;
  *bits = types[type].bits;
  return TC5_OK;
}

/* ---- the rules ---- */
#define BAD(st, field, value, ...) (ok = false, first = first ? first : (st), tc5_diag_add(diag, st, field, value, "tensor map: " __VA_ARGS__))

static tc5_status check(const tc5_tmap_params *p, tc5_diag *diag) {
  bool ok = true;
  tc5_status first = TC5_OK;
  bool im2col = p->mode == TC5_TMAP_IM2COL;
  if ((unsigned)p->mode > TC5_TMAP_IM2COL) return tc5_diag_add(diag, TC5_EINVAL, "mode", p->mode, "tensor map: mode %u is neither tiled nor im2col", p->mode);
  if ((unsigned)p->type >= TC5_TMAP_TYPE_COUNT)
    return tc5_diag_add(diag, TC5_EINVAL, "tensorDataType", p->type, "tensor map: tensorDataType %u is not a CUtensorMapDataType", p->type);
  if ((unsigned)p->interleave > TC5_TMAP_INTERLEAVE_32B)
    return tc5_diag_add(diag, TC5_EINVAL, "interleave", p->interleave, "tensor map: interleave %u is not a CUtensorMapInterleave", p->interleave);
  if ((unsigned)p->swizzle >= TC5_TMAP_SWIZZLE_COUNT)
    return tc5_diag_add(diag, TC5_EINVAL, "swizzle", p->swizzle, "tensor map: swizzle %u is not a CUtensorMapSwizzle", p->swizzle);
  if ((unsigned)p->l2 > TC5_TMAP_L2_256B)
    return tc5_diag_add(diag, TC5_EINVAL, "l2Promotion", p->l2, "tensor map: l2Promotion %u is not a CUtensorMapL2promotion", p->l2);
  if ((unsigned)p->oob > TC5_TMAP_OOB_NAN)
    return tc5_diag_add(diag, TC5_EINVAL, "oobFill", p->oob, "tensor map: oobFill %u is not a CUtensorMapFloatOOBfill", p->oob);
  const tmap_type_info *t = &types[p->type];
  bool il = p->interleave != TC5_TMAP_INTERLEAVE_NONE;
  bool align16b = p->type == TC5_TMAP_16U4_ALIGN16B || p->type == TC5_TMAP_16U6_ALIGN16B;
  /* tensorRank */
  if (im2col ? (p->rank < 3 || p->rank > 5) : (p->rank < 1 || p->rank > 5))
    return tc5_diag_add(diag, TC5_ERANGE, "tensorRank", p->rank, "tensor map: tensorRank %u is not %s", p->rank,
                        im2col ? "3, 4 or 5 (im2col)" : "1 to 5");
  if (il && p->rank < 3)
    BAD(TC5_EILLEGAL, "tensorRank", p->rank, "tensorRank %u: an interleaved layout needs at least 3", p->rank);
  /* globalAddress */
  unsigned aalign = p->interleave == TC5_TMAP_INTERLEAVE_32B || align16b ? 32 : 16;
  if (p->address % aalign)
    BAD(TC5_EALIGN, "globalAddress", p->address, "globalAddress 0x%llx is not %u-byte aligned%s",
        (unsigned long long)p->address, aalign,
        aalign == 16 ? "" : p->interleave == TC5_TMAP_INTERLEAVE_32B ? " (interleave 32B)" : " (a 16-byte-aligned packed type)");
  /* globalDim */
  for (unsigned i = 0; i < p->rank; i++)
    if (p->dims[i] == 0 || p->dims[i] > (1ull << 32))
      BAD(TC5_ERANGE, "globalDim", p->dims[i], "globalDim[%u] = %llu is not 1 to 2^32", i, (unsigned long long)p->dims[i]);
  if (align16b && p->dims[0] % 128)
    BAD(TC5_EILLEGAL, "globalDim", p->dims[0], "globalDim[0] = %llu is not a multiple of 128 (%s)",
        (unsigned long long)p->dims[0], t->name);
  if (p->type == TC5_TMAP_16U4_ALIGN8B && p->dims[0] % 2)
    BAD(TC5_EILLEGAL, "globalDim", p->dims[0], "globalDim[0] = %llu is not a multiple of 2 (16u4_align8b)",
        (unsigned long long)p->dims[0]);
  /* globalStrides */
  unsigned salign = p->interleave == TC5_TMAP_INTERLEAVE_32B || align16b ? 32 : 16;
  for (unsigned i = 0; i + 1 < p->rank; i++) {
    if (p->strides[i] % salign)
      BAD(TC5_EALIGN, "globalStrides", p->strides[i], "globalStrides[%u] = %llu is not a multiple of %u", i,
          (unsigned long long)p->strides[i], salign);
    if (p->strides[i] >= (1ull << 40))
      BAD(TC5_ERANGE, "globalStrides", p->strides[i], "globalStrides[%u] = %llu is not below 2^40", i,
          (unsigned long long)p->strides[i]);
  }
  /* boxDim (tiled) or the pixel box (im2col) */
  uint64_t inner_bytes;
  if (!im2col) {
    for (unsigned i = 0; i < p->rank; i++)
      if (p->box[i] == 0 || p->box[i] > 256)
        BAD(TC5_ERANGE, "boxDim", p->box[i], "boxDim[%u] = %u is not 1 to 256", i, p->box[i]);
    inner_bytes = (uint64_t)p->box[0] * t->bits / 8;
    if (!il && ((uint64_t)p->box[0] * t->bits) % 128)
      BAD(TC5_EILLEGAL, "boxDim", p->box[0], "boxDim[0] * element size = %u x %u bits is not a multiple of 16 bytes (interleave none)",
          p->box[0], t->bits);
    if (align16b && p->box[0] != 128)
      BAD(TC5_EILLEGAL, "boxDim", p->box[0], "boxDim[0] = %u is not 128 (%s)", p->box[0], t->name);
  } else {
    static const int32_t lim[6] = {0, 0, 0, 32768, 128, 16};
    unsigned nc = p->rank - 2;
    bool area = true;
    for (unsigned i = 0; i < nc; i++) {
      if (p->lower[i] < -lim[p->rank] || p->lower[i] >= lim[p->rank])
        BAD(TC5_ERANGE, "pixelBoxLowerCorner", (uint64_t)(int64_t)p->lower[i],
            "pixelBoxLowerCorner[%u] = %d is outside [%d, %d] (rank %u)", i, p->lower[i], -lim[p->rank], lim[p->rank] - 1, p->rank);
      if (p->upper[i] < -lim[p->rank] || p->upper[i] >= lim[p->rank])
        BAD(TC5_ERANGE, "pixelBoxUpperCorner", (uint64_t)(int64_t)p->upper[i],
            "pixelBoxUpperCorner[%u] = %d is outside [%d, %d] (rank %u)", i, p->upper[i], -lim[p->rank], lim[p->rank] - 1, p->rank);
      /* the box spans dims[i+1] + upper - lower pixels along each spatial dimension */
      if ((int64_t)p->dims[i + 1] + p->upper[i] - p->lower[i] <= 0) area = false;
    }
    if (!area) BAD(TC5_EILLEGAL, "pixelBoxUpperCorner", 0, "the bounding box of the pixel box corners has zero area");
    if (p->channels == 0 || p->channels > 256)
      BAD(TC5_ERANGE, "channelsPerPixel", p->channels, "channelsPerPixel %u is not 1 to 256", p->channels);
    if (align16b && p->channels != 128)
      BAD(TC5_EILLEGAL, "channelsPerPixel", p->channels, "channelsPerPixel %u is not 128 (%s)", p->channels, t->name);
    if (p->pixels == 0 || p->pixels > 1024)
      BAD(TC5_ERANGE, "pixelsPerColumn", p->pixels, "pixelsPerColumn %u is not 1 to 1024", p->pixels);
    inner_bytes = (uint64_t)p->channels * t->bits / 8;
  }
  /* elementStrides */
  for (unsigned i = 0; i < p->rank; i++)
    if (p->estrides[i] == 0 || p->estrides[i] > 8)
      BAD(TC5_ERANGE, "elementStrides", p->estrides[i], "elementStrides[%u] = %u is not 1 to 8", i, p->estrides[i]);
  /* interleave and swizzle */
  if (!il && p->swizzle != TC5_TMAP_SWIZZLE_NONE && inner_bytes > swizzles[p->swizzle].span)
    BAD(TC5_EILLEGAL, "swizzle", p->swizzle, "the bounding box's inner dimension, %llu bytes, exceeds the %s swizzle's %u (interleave none)",
        (unsigned long long)inner_bytes, swizzles[p->swizzle].name, swizzles[p->swizzle].span);
  /* cuda.h: "When interleave is CU_TENSOR_MAP_INTERLEAVE_32B, swizzle must
   * be CU_TENSOR_MAP_SWIZZLE_32B"; the driver (CUDA 13 on the H100,
   * tests/data/ptx/tma90/h100_tmap_rules.txt) accepts swizzle none too, and
   * tc5 follows the driver: 32B interleave with a swizzle other than none
   * or 32B is rejected */
  if (p->interleave == TC5_TMAP_INTERLEAVE_32B && p->swizzle != TC5_TMAP_SWIZZLE_32B && p->swizzle != TC5_TMAP_SWIZZLE_NONE)
    BAD(TC5_EILLEGAL, "swizzle", p->swizzle, "interleave 32B needs swizzle 32B (or none), not %s", swizzles[p->swizzle].name);
  if (p->type == TC5_TMAP_16U6_ALIGN16B && il)
    BAD(TC5_EILLEGAL, "interleave", p->interleave, "16u6_align16b needs interleave none");
  if (align16b && p->swizzle != TC5_TMAP_SWIZZLE_NONE && p->swizzle != TC5_TMAP_SWIZZLE_128B &&
      p->swizzle != TC5_TMAP_SWIZZLE_128B_ATOM_32B && !(p->type == TC5_TMAP_16U6_ALIGN16B && p->swizzle == TC5_TMAP_SWIZZLE_128B_ATOM_64B))
    BAD(TC5_EILLEGAL, "swizzle", p->swizzle, "%s supports swizzle none, 128B and 128B_atom_32B%s, not %s", t->name,
        p->type == TC5_TMAP_16U6_ALIGN16B ? " (and 128B_atom_64B for stores)" : "", swizzles[p->swizzle].name);
  /* oobFill */
  if (p->oob == TC5_TMAP_OOB_NAN && (!t->is_float || t->packed))
    BAD(TC5_EILLEGAL, "oobFill", p->oob, "oobFill nan needs a floating-point type, not %s", t->name);
  return ok ? TC5_OK : first;
}

/* ---- the encoding ---- */
/* swizzle_mode x swizzle_atomicity of tensormap.replace <-> the swizzle */
static const uint8_t swz_mode[TC5_TMAP_SWIZZLE_COUNT] = {0, 1, 2, 3, 3, 3, 3};
static const uint8_t swz_atom[TC5_TMAP_SWIZZLE_COUNT] = {0, 0, 0, 0, 1, 2, 3};


tc5_status tc5_tensormap_encode(tc5_tensormap *out, const tc5_tmap_params *p, tc5_diag *diag) {
  if (!out || !p) return TC5_EINVAL;
  tc5_status st = check(p, diag);
  if (st) return st;
  uint8_t *b = out->bytes;
  memset(b, 0, TC5_TENSORMAP_BYTES);
  tmap_put(b, 0, p->address, 8);
  for (unsigned i = 0; i < p->rank; i++) {
    tmap_put(b, 8 + 8 * i, p->dims[i], 8);
    if (i + 1 < p->rank) tmap_put(b, 48 + 8 * i, p->strides[i], 8);
    tmap_put(b, 80 + 2 * i, p->mode == TC5_TMAP_TILED ? p->box[i] : 0, 2);
    b[90 + i] = (uint8_t)p->estrides[i];
  }
  b[95] = (uint8_t)(p->rank - 1);
  b[96] = (uint8_t)p->type;
  b[97] = (uint8_t)p->interleave;
  b[98] = (uint8_t)p->swizzle;
  b[99] = (uint8_t)p->l2;
  b[100] = (uint8_t)p->oob;
  b[101] = (uint8_t)p->mode;
  b[118] = swz_mode[p->swizzle];
  b[119] = swz_atom[p->swizzle];
  memcpy(b + TC5_TENSORMAP_BYTES - 4, TC5_TENSORMAP_MARK, 4);
  if (p->mode == TC5_TMAP_IM2COL) {
    for (unsigned i = 0; i + 2 < p->rank; i++) {
      tmap_put(b, 102 + 2 * i, (uint16_t)(int16_t)p->lower[i], 2);
      tmap_put(b, 108 + 2 * i, (uint16_t)(int16_t)p->upper[i], 2);
    }
    tmap_put(b, 114, p->channels, 2);
    tmap_put(b, 116, p->pixels, 2);
  }
  return TC5_OK;
}

static int swizzle_of(unsigned mode, unsigned atom) {
  for (unsigned s = 0; s < TC5_TMAP_SWIZZLE_COUNT; s++)
    if (swz_mode[s] == mode && swz_atom[s] == atom) return (int)s;
  return -1;
}
/* tensormap.replace's elemtype (PTX's order) -> CUtensorMapDataType */
static const uint8_t elemtype_of_ptx[TC5_TMAP_TYPE_COUNT] = {
    TC5_TMAP_U8, TC5_TMAP_U16, TC5_TMAP_U32, TC5_TMAP_S32, TC5_TMAP_U64, TC5_TMAP_S64, TC5_TMAP_F16, TC5_TMAP_F32,
    TC5_TMAP_F32_FTZ, TC5_TMAP_F64, TC5_TMAP_BF16, TC5_TMAP_TF32, TC5_TMAP_TF32_FTZ, TC5_TMAP_16U4_ALIGN8B,
    TC5_TMAP_16U4_ALIGN16B, TC5_TMAP_16U6_ALIGN16B};

tc5_status tc5_tensormap_replace(tc5_tensormap *map, tc5_tmap_field field, unsigned ord, uint64_t v, tc5_diag *diag) {
  if (!map || (unsigned)field >= TC5_TMAP_F_COUNT) return TC5_EINVAL;
  uint8_t *b = map->bytes;
  bool per_dim = field == TC5_TMAP_F_BOX_DIM || field == TC5_TMAP_F_GLOBAL_DIM || field == TC5_TMAP_F_GLOBAL_STRIDE ||
                 field == TC5_TMAP_F_ELEMENT_STRIDE;
  unsigned nord = field == TC5_TMAP_F_GLOBAL_STRIDE ? TC5_TENSORMAP_MAX_RANK - 1 : TC5_TENSORMAP_MAX_RANK;
  if (per_dim && ord >= nord)
    return tc5_diag_add(diag, TC5_ERANGE, "ord", ord, "tensormap.replace: ordinal %u is not below %u", ord, nord);
  uint64_t lim[TC5_TMAP_F_COUNT] = {UINT64_MAX, 4, 256, 1ull << 32, (1ull << 40) - 1, 8, 15, 2, 3, 3, 1};
  if (v > lim[field])
    return tc5_diag_add(diag, TC5_ERANGE, "new_val", v, "tensormap.replace: the value %llu is above the field's %llu",
                        (unsigned long long)v, (unsigned long long)lim[field]);
  memcpy(b + TC5_TENSORMAP_BYTES - 4, TC5_TENSORMAP_MARK, 4);
  switch (field) {
  case TC5_TMAP_F_GLOBAL_ADDRESS: tmap_put(b, 0, v, 8); break;
  case TC5_TMAP_F_RANK: b[95] = (uint8_t)v; break;
  case TC5_TMAP_F_BOX_DIM: tmap_put(b, 80 + 2 * ord, v, 2); break;
  case TC5_TMAP_F_GLOBAL_DIM: tmap_put(b, 8 + 8 * ord, v, 8); break;
  case TC5_TMAP_F_GLOBAL_STRIDE: tmap_put(b, 48 + 8 * ord, v, 8); break;
  case TC5_TMAP_F_ELEMENT_STRIDE: b[90 + ord] = (uint8_t)v; break;
  case TC5_TMAP_F_ELEMTYPE: b[96] = elemtype_of_ptx[v]; break;
  case TC5_TMAP_F_INTERLEAVE_LAYOUT: b[97] = (uint8_t)v; break;
  case TC5_TMAP_F_FILL_MODE: b[100] = (uint8_t)v; break;
  default: { /* the swizzle: mode and atomicity together */
    b[field == TC5_TMAP_F_SWIZZLE_MODE ? 118 : 119] = (uint8_t)v;
    int sw = swizzle_of(b[118], b[119]);
    b[98] = sw < 0 ? 0xff : (uint8_t)sw; /* no such swizzle: the map is invalid until it is fixed */
    break;
  }
  }
  return TC5_OK;
}

tc5_status tc5_tensormap_decode(const tc5_tensormap *map, tc5_tmap_params *p, tc5_diag *diag) {
  if (!map || !p) return TC5_EINVAL;
  const uint8_t *b = map->bytes;
  tc5_tmap_params q;
  memset(&q, 0, sizeof q);
  q.address = tmap_get(b, 0, 8);
  q.rank = b[95] + 1u;
  q.type = (tc5_tmap_type)b[96];
  q.interleave = (tc5_tmap_interleave)b[97];
  q.swizzle = (tc5_tmap_swizzle)b[98];
  q.l2 = (tc5_tmap_l2)b[99];
  q.oob = (tc5_tmap_oob)b[100];
  q.mode = (tc5_tmap_mode)b[101];
  for (unsigned i = 0; i < TC5_TENSORMAP_MAX_RANK && i < q.rank; i++) {
    q.dims[i] = tmap_get(b, 8 + 8 * i, 8);
    if (i + 1 < q.rank) q.strides[i] = tmap_get(b, 48 + 8 * i, 8);
    q.box[i] = (uint32_t)tmap_get(b, 80 + 2 * i, 2);
    q.estrides[i] = b[90 + i];
  }
  for (unsigned i = 0; i < 3; i++) {
    q.lower[i] = (int16_t)tmap_get(b, 102 + 2 * i, 2);
    q.upper[i] = (int16_t)tmap_get(b, 108 + 2 * i, 2);
  }
  q.channels = (uint32_t)tmap_get(b, 114, 2);
  q.pixels = (uint32_t)tmap_get(b, 116, 2);
  tc5_status st = check(&q, diag);
  if (st) return st;
  *p = q;
  return TC5_OK;
}

/* ---- the text form ---- */
static int name_index(const char *v, const char *const *names, unsigned n) {
  for (unsigned k = 0; k < n; k++)
    if (!strcmp(v, names[k])) return (int)k;
  return -1;
}
/* "64x128" (or "-1x-1" with sign): up to max values; returns the count, -1 on error */
static int parse_list(const char *v, int64_t *out, unsigned max) {
  unsigned n = 0;
  const char *s = v;
  while (*s) {
    if (n == max) return -1;
    char *end;
    long long x = strtoll(s, &end, 10); /* decimal: "0x32" is 0 by 32 */
    if (end == s) return -1;
    out[n++] = x;
    if (*end == 'x') {
      s = end + 1;
      if (!*s) return -1;
    } else if (*end) {
      return -1;
    } else {
      s = end;
    }
  }
  return (int)n;
}

tc5_status tc5_tmap_params_parse(const char *text, tc5_tmap_params *p,
                                 bool (*extra)(void *ctx, const char *key, const char *value), void *ctx,
                                 tc5_diag *diag) {
  if (!text || !p) return TC5_EINVAL;
  memset(p, 0, sizeof *p);
  char buf[512];
  if (strlen(text) >= sizeof buf) return tc5_diag_add(diag, TC5_EPARSE, "tmap", 0, "tensor map text is longer than 511 bytes");
  strcpy(buf, text);
  int ndims = -1, nbox = -1, nstr = -1, nes = -1, ncorners = 0;
  bool have_type = false;
  char *save = NULL;
  for (char *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
    char *eq = strchr(kv, '=');
    if (!eq) return tc5_diag_add(diag, TC5_EPARSE, "tmap", 0, "tensor map: '%s' is not key=value", kv);
    *eq = 0;
    const char *k = kv, *v = eq + 1;
    int64_t l[5];
    int idx;
    if (!strcmp(k, "type")) {
      idx = -1;
      for (unsigned t = 0; t < TC5_TMAP_TYPE_COUNT; t++)
        if (!strcmp(v, types[t].name)) idx = (int)t;
      if (idx < 0) return tc5_diag_add(diag, TC5_EPARSE, "type", 0, "tensor map: type '%s' is not one of u8 u16 u32 s32 u64 s64 f16 f32 f64 bf16 f32_ftz tf32 tf32_ftz 16u4_align8b 16u4_align16b 16u6_align16b", v);
      p->type = (tc5_tmap_type)idx;
      have_type = true;
    } else if (!strcmp(k, "dims") || !strcmp(k, "box") || !strcmp(k, "strides") || !strcmp(k, "estrides")) {
      int n = parse_list(v, l, 5);
      if (n <= 0) return tc5_diag_add(diag, TC5_EPARSE, k, 0, "tensor map: %s '%s' is not a list of 1 to 5 numbers joined by x", k, v);
      for (int i = 0; i < n; i++) {
        if (l[i] < 0) return tc5_diag_add(diag, TC5_EPARSE, k, 0, "tensor map: %s '%s' has a negative number", k, v);
        if (k[0] == 'd') p->dims[i] = (uint64_t)l[i];
        else if (k[0] == 'b') p->box[i] = l[i] > UINT32_MAX ? UINT32_MAX : (uint32_t)l[i];
        else if (k[0] == 'e') p->estrides[i] = l[i] > UINT32_MAX ? UINT32_MAX : (uint32_t)l[i];
        else if (i < 4) p->strides[i] = (uint64_t)l[i];
        else return tc5_diag_add(diag, TC5_EPARSE, k, 0, "tensor map: strides has at most 4 numbers (dims 1 to 4)");
      }
      *(k[0] == 'd' ? &ndims : k[0] == 'b' ? &nbox : k[0] == 'e' ? &nes : &nstr) = n;
    } else if (!strcmp(k, "interleave")) {
      if ((idx = name_index(v, interleaves, 3)) < 0) return tc5_diag_add(diag, TC5_EPARSE, k, 0, "tensor map: interleave '%s' is not none, 16B or 32B", v);
      p->interleave = (tc5_tmap_interleave)idx;
    } else if (!strcmp(k, "swizzle")) {
      idx = -1;
      for (unsigned s = 0; s < TC5_TMAP_SWIZZLE_COUNT; s++)
        if (!strcmp(v, swizzles[s].name)) idx = (int)s;
      if (idx < 0) return tc5_diag_add(diag, TC5_EPARSE, k, 0, "tensor map: swizzle '%s' is not none, 32B, 64B, 128B, 128B_atom_32B, 128B_atom_32B_flip_8B or 128B_atom_64B", v);
      p->swizzle = (tc5_tmap_swizzle)idx;
    } else if (!strcmp(k, "l2")) {
      if ((idx = name_index(v, l2s, 4)) < 0) return tc5_diag_add(diag, TC5_EPARSE, k, 0, "tensor map: l2 '%s' is not none, 64B, 128B or 256B", v);
      p->l2 = (tc5_tmap_l2)idx;
    } else if (!strcmp(k, "oob")) {
      if ((idx = name_index(v, oobs, 2)) < 0) return tc5_diag_add(diag, TC5_EPARSE, k, 0, "tensor map: oob '%s' is not zero or nan", v);
      p->oob = (tc5_tmap_oob)idx;
    } else if (!strcmp(k, "im2col")) {
      /* LOWER/UPPER/CHANNELS/PIXELS */
      char w[4][64];
      int nw = 0;
      const char *s = v;
      while (nw < 4) {
        const char *e = strchr(s, '/');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if (len >= sizeof w[0]) break;
        memcpy(w[nw], s, len);
        w[nw++][len] = 0;
        if (!e) break;
        s = e + 1;
      }
      int64_t lo[3], up[3], cp[1], px[1];
      int a = nw == 4 ? parse_list(w[0], lo, 3) : -1, b = nw == 4 ? parse_list(w[1], up, 3) : -1;
      if (nw != 4 || a <= 0 || a != b || parse_list(w[2], cp, 1) != 1 || parse_list(w[3], px, 1) != 1)
        return tc5_diag_add(diag, TC5_EPARSE, k, 0, "tensor map: im2col '%s' is not LOWER/UPPER/CHANNELS/PIXELS (corners as -1x-1)", v);
      p->mode = TC5_TMAP_IM2COL;
      ncorners = a;
      for (int i = 0; i < a; i++) {
        p->lower[i] = (int32_t)lo[i];
        p->upper[i] = (int32_t)up[i];
      }
      p->channels = (uint32_t)cp[0];
      p->pixels = (uint32_t)px[0];
    } else if (!extra || !extra(ctx, k, v)) {
      return tc5_diag_add(diag, TC5_EPARSE, "tmap", 0, "tensor map: unknown key '%s'", k);
    }
  }
  if (!have_type || ndims < 0) return tc5_diag_add(diag, TC5_EPARSE, "tmap", 0, "tensor map: type= and dims= are required");
  p->rank = (uint32_t)ndims;
  if (p->mode == TC5_TMAP_TILED && nbox != ndims)
    return tc5_diag_add(diag, TC5_EPARSE, "box", 0, "tensor map: box has %d numbers, dims %d", nbox < 0 ? 0 : nbox, ndims);
  if (nstr != (ndims > 1 ? ndims - 1 : -1) && !(ndims == 1 && nstr < 0))
    return tc5_diag_add(diag, TC5_EPARSE, "strides", 0, "tensor map: strides needs %d numbers (dims 1 to %d), not %d", ndims - 1,
                        ndims - 1, nstr < 0 ? 0 : nstr);
  if (p->mode == TC5_TMAP_IM2COL && ncorners != ndims - 2)
    return tc5_diag_add(diag, TC5_EPARSE, "im2col", 0, "tensor map: im2col's corners have %d numbers; %d dims need %d", ncorners,
                        ndims, ndims - 2);
  if (nes >= 0 && nes != ndims)
    return tc5_diag_add(diag, TC5_EPARSE, "estrides", 0, "tensor map: estrides has %d numbers, dims %d", nes, ndims);
  if (nes < 0)
    for (int i = 0; i < ndims; i++) p->estrides[i] = 1;
  return TC5_OK;
}
