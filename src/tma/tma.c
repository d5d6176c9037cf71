/* tc5 — the Tensor Memory Accelerator's tile-mode copies (tc5/tma.h). */
#include <math.h>
#include <string.h>

#include "tc5/formats.h"
#include "tc5/tma.h"

/* elements the box takes along dimension i */
static uint32_t box_count(const tc5_tmap_params *p, unsigned i) {
  if (p->mode == TC5_TMAP_IM2COL) return i == 0 ? p->channels : 1; /* a row a pixel: rows() */
  if (i == 0 && p->interleave == TC5_TMAP_INTERLEAVE_NONE) return p->box[0];
  return (p->box[i] + p->estrides[i] - 1) / p->estrides[i];
}

/* bits a value takes in shared memory, per 16 values (the packed types
 * widen: 16 x U4 in 16 bytes, 16 x U6 in 16 bytes) */
static unsigned smem_bits16(const tc5_tmap_params *p, unsigned bits) {
  if (p->type == TC5_TMAP_16U4_ALIGN16B || p->type == TC5_TMAP_16U6_ALIGN16B) return 128;
  return 16 * bits;
}

/* bytes of one row of the box (dimension 0) in shared memory, and the
 * pitch of the rows: a swizzled box's rows each take a whole swizzle row
 * (the H100 puts a 64-byte row of a 128B-swizzled box 128 bytes after the
 * previous one: gpu/run.sh tma) */
static uint64_t row_bytes(const tc5_tmap_params *p, unsigned bits) {
  return ((uint64_t)box_count(p, 0) * smem_bits16(p, bits) / 16 + 7) / 8;
}
static uint64_t row_pitch(const tc5_tmap_params *p, unsigned bits) {
  uint64_t r = row_bytes(p, bits), span = tc5_tmap_swizzle_bytes(p->swizzle);
  return span > r ? span : r;
}
static uint64_t rows(const tc5_tmap_params *p) {
  if (p->mode == TC5_TMAP_IM2COL) return p->pixels;
  uint64_t n = 1;
  for (unsigned i = 1; i < p->rank; i++) n *= box_count(p, i);
  return n;
}

tc5_status tc5_tma_box_bytes(const tc5_tmap_params *p, uint32_t *bytes) {
  if (!p || !bytes || p->rank < 1 || p->rank > TC5_TENSORMAP_MAX_RANK) return TC5_EINVAL;
  unsigned bits;
  if (tc5_tmap_type_bits(p->type, &bits)) return TC5_EINVAL;
  uint64_t b = rows(p) * row_bytes(p, bits);
  *bytes = b > UINT32_MAX ? UINT32_MAX : (uint32_t)b;
  return TC5_OK;
}

tc5_status tc5_tma_box_tx_bytes(const tc5_tmap_params *p, uint32_t *bytes) {
  if (!p || !bytes || p->rank < 1 || p->rank > TC5_TENSORMAP_MAX_RANK) return TC5_EINVAL;
  unsigned bits;
  if (tc5_tmap_type_bits(p->type, &bits)) return TC5_EINVAL;
  uint64_t b = rows(p) * (((uint64_t)box_count(p, 0) * bits + 7) / 8);
  *bytes = b > UINT32_MAX ? UINT32_MAX : (uint32_t)b;
  return TC5_OK;
}

tc5_status tc5_tma_box_footprint(const tc5_tmap_params *p, uint32_t *bytes) {
  if (!p || !bytes || p->rank < 1 || p->rank > TC5_TENSORMAP_MAX_RANK) return TC5_EINVAL;
  unsigned bits;
  if (tc5_tmap_type_bits(p->type, &bits)) return TC5_EINVAL;
  uint64_t b = rows(p) * row_pitch(p, bits); /* a narrow row's chunks swizzle over its whole swizzle row */
  *bytes = b > UINT32_MAX ? UINT32_MAX : (uint32_t)b;
  return TC5_OK;
}

/* The swizzle of a shared-memory byte address (by its absolute bits). */
static inline uint32_t swizzle(uint32_t a, tc5_tmap_swizzle s) {
  switch (s) {
  case TC5_TMAP_SWIZZLE_32B: return a ^ ((a >> 3) & 0x10);
  case TC5_TMAP_SWIZZLE_64B: return a ^ ((a >> 3) & 0x30);
  case TC5_TMAP_SWIZZLE_128B: return a ^ ((a >> 3) & 0x70);
  case TC5_TMAP_SWIZZLE_128B_ATOM_32B: return a ^ ((a >> 2) & 0x60);
  case TC5_TMAP_SWIZZLE_128B_ATOM_32B_FLIP_8B: return (a ^ ((a >> 2) & 0x60)) ^ ((a >> 4) & 0x8);
  case TC5_TMAP_SWIZZLE_128B_ATOM_64B: return a ^ ((a >> 1) & 0x40);
  default: return a;
  }
}

/* one element's reduction: *d = *d op v, `bytes` wide, of type t */
static tc5_status reduce(uint8_t *d, const uint8_t *v, unsigned bytes, tc5_tmap_type t, tc5_tma_redop op,
                         tc5_diag *diag) {
  uint64_t a = 0, b = 0;
  memcpy(&a, d, bytes);
  memcpy(&b, v, bytes);
  uint64_t mask = bytes == 8 ? ~0ull : (1ull << (8 * bytes)) - 1, r;
  bool sgn = t == TC5_TMAP_S32 || t == TC5_TMAP_S64;
  int64_t sa = bytes == 8 ? (int64_t)a : (int64_t)(int32_t)(uint32_t)a, sb = bytes == 8 ? (int64_t)b : (int64_t)(int32_t)(uint32_t)b;
  bool isf = t == TC5_TMAP_F16 || t == TC5_TMAP_BF16 || t == TC5_TMAP_F32 || t == TC5_TMAP_F64 ||
             t == TC5_TMAP_F32_FTZ || t == TC5_TMAP_TF32 || t == TC5_TMAP_TF32_FTZ;
  if (isf) {
    if (t == TC5_TMAP_F32) {
      float x, y;
      memcpy(&x, &a, 4);
      memcpy(&y, &b, 4);
      float z = op == TC5_TMA_ADD ? x + y : op == TC5_TMA_MIN ? fminf(x, y) : op == TC5_TMA_MAX ? fmaxf(x, y) : NAN;
      if (op != TC5_TMA_ADD && op != TC5_TMA_MIN && op != TC5_TMA_MAX) goto bad;
      uint32_t zb;
      memcpy(&zb, &z, 4);
      if (z != z) zb = 0x7fffffff;
      r = zb;
    } else if (t == TC5_TMAP_F16 || t == TC5_TMAP_BF16) {
      tc5_type ft = t == TC5_TMAP_F16 ? TC5_F16 : TC5_BF16;
      double x, y;
      tc5_fmt_decode(ft, (uint32_t)a, &x, NULL);
      tc5_fmt_decode(ft, (uint32_t)b, &y, NULL);
      double z;
      if (op == TC5_TMA_ADD) z = x + y; /* exact in double, rounded once below */
      else if (op == TC5_TMA_MIN) z = fmin(x, y);
      else if (op == TC5_TMA_MAX) z = fmax(x, y);
      else goto bad;
      uint32_t code;
      tc5_fmt_encode(ft, z, TC5_ROUND_RN, false, &code);
      r = code;
    } else if (t == TC5_TMAP_F64 && op == TC5_TMA_ADD) {
      double x, y;
      memcpy(&x, &a, 8);
      memcpy(&y, &b, 8);
      double z = x + y;
      memcpy(&r, &z, 8);
    } else {
      goto bad;
    }
  } else {
    switch (op) {
    case TC5_TMA_ADD: r = a + b; break;
    case TC5_TMA_MIN: r = sgn ? (uint64_t)(sa < sb ? sa : sb) : (a < b ? a : b); break;
    case TC5_TMA_MAX: r = sgn ? (uint64_t)(sa > sb ? sa : sb) : (a > b ? a : b); break;
    case TC5_TMA_INC: if (t != TC5_TMAP_U32) goto bad; r = a >= b ? 0 : a + 1; break;
    case TC5_TMA_DEC: if (t != TC5_TMAP_U32) goto bad; r = (a == 0 || a > b) ? b : a - 1; break;
    case TC5_TMA_AND: r = a & b; break;
    case TC5_TMA_OR: r = a | b; break;
    default: r = a ^ b; break;
    }
  }
  r &= mask;
  memcpy(d, &r, bytes);
  return TC5_OK;
bad:
  return tc5_diag_add(diag, TC5_EILLEGAL, "redOp", op, "cp.reduce.async.bulk.tensor: the reduction %u is not defined for %s elements", op,
                      tc5_tmap_type_name(t));
}

tc5_status tc5_tma_reduce(uint8_t *dst, const uint8_t *src, uint32_t bytes, tc5_tmap_type t, tc5_tma_redop op,
                          tc5_diag *diag) {
  unsigned bits;
  if (!dst || !src || tc5_tmap_type_bits(t, &bits) || bits % 8 || (unsigned)op > TC5_TMA_XOR) return TC5_EINVAL;
  unsigned eb = bits / 8;
  if (bytes % eb)
    return tc5_diag_add(diag, TC5_EALIGN, "size", bytes, "cp.reduce.async.bulk: %u bytes are not whole %u-byte elements", bytes, eb);
  for (uint32_t k = 0; k < bytes; k += eb) {
    tc5_status st = reduce(dst + k, src + k, eb, t, op, diag);
    if (st) return st;
  }
  return TC5_OK;
}

/* A load of a tf32 tensor rounds each f32 to tf32, to nearest even: NaNs
 * become 0x7fffe000, the largest finite values infinity, subnormals round
 * as they are (tf32_ftz does the same: no flush; an f32_ftz tensor loads
 * unchanged, and stores change nothing): the H100's, gpu/run.sh tma */
static uint32_t load_tf32(uint32_t v) {
  uint32_t code = v;
  tc5_fmt_encode_f32(TC5_TF32, v, TC5_ROUND_RN, false, &code);
  return code;
}

/* The checks both modes share: the shared-memory address and the box's
 * place; the innermost coordinate on a 16-byte boundary (the H100 faults
 * otherwise: gpu/run.sh tma) */
static tc5_status common_rules(const tc5_tmap_params *p, const int32_t *coords, unsigned bits, tc5_smem *smem,
                               uint32_t smem_addr, const char *what, tc5_diag *diag) {
  if (smem_addr % 128)
    return tc5_diag_add(diag, TC5_EALIGN, "dstMem", smem_addr, "%s: the shared-memory address 0x%x is not 128-byte aligned",
                        what, smem_addr);
  if (((int64_t)coords[0] * bits) % 128)
    return tc5_diag_add(diag, TC5_EALIGN, "tensorCoords", (uint64_t)(int64_t)coords[0],
                        "%s: innermost coordinate %d is off a 16-byte boundary of the row (an illegal instruction on the H100)",
                        what, coords[0]);
  uint32_t foot;
  tc5_tma_box_footprint(p, &foot);
  if ((uint64_t)smem_addr + foot > smem->size || smem_addr < 1024)
    return tc5_diag_add(diag, TC5_EBOUNDS, "dstMem", smem_addr,
                        "%s: the box's %u bytes at shared 0x%x leave the CTA's shared memory [0x400, 0x%x)", what, foot,
                        smem_addr, smem->size);
  return TC5_OK;
}

/* one row of a box (tile mode) or one pixel (im2col mode): the n0
 * elements from `first` along dimension 0 of the row at global row_addr
 * (row_in false: the row is outside the tensor), at shared row_smem */
typedef struct row_job {
  const tc5_tmap_params *p;
  tc5_tma_dir dir;
  tc5_tma_redop op;
  tc5_smem *smem;
  const tc5_tma_global *g;
  unsigned bits, eb, sb16;
  bool packed, conv;
  uint64_t limit0, fill;
  uint32_t n0;
  const char *what;
} row_job;
/* a copy's row job: a row's elements (a pixel's channels in im2col mode) */
static row_job job_of(const tc5_tmap_params *p, tc5_tma_dir dir, tc5_tma_redop op, tc5_smem *smem,
                      const tc5_tma_global *g, unsigned bits, const char *what) {
  const bool packed = bits % 8 != 0;
  const unsigned eb = bits / 8; /* bytes of an element (not packed) */
  row_job j = {p, dir, op, smem, g, bits, eb, smem_bits16(p, bits), packed, false, 0, 0, box_count(p, 0), what};
  /* a store writes whole 16-byte pieces of a row: the elements past the
   * tensor's last one in its last piece too (the H100 does; gpu/run.sh tma) */
  j.limit0 = dir == TC5_TMA_LOAD || packed ? p->dims[0] : (p->dims[0] * eb + 15) / 16 * 16 / eb;
  /* the fill of a load outside the tensor: zeros, or for oobFill nan the
   * 16-bit pattern 0x7ff7 repeated (a NaN in f16, bf16, f32 and f64: the
   * H100's, gpu/run.sh tma) */
  j.fill = p->oob == TC5_TMAP_OOB_NAN ? 0x7ff77ff77ff77ff7ull : 0;
  j.conv = dir == TC5_TMA_LOAD && (p->type == TC5_TMAP_TF32 || p->type == TC5_TMAP_TF32_FTZ);
  return j;
}

static tc5_status copy_row(const row_job *j, bool row_in, uint64_t row_addr, int64_t first, uint32_t row_smem,
                           tc5_diag *diag) {
  const unsigned bits = j->bits, eb = j->eb;
  for (uint32_t x = 0; x < j->n0; x++) {
    int64_t c0 = first + (int64_t)x;
    bool in = row_in && c0 >= 0 && (uint64_t)c0 < j->limit0;
    if (!j->packed) {
      uint32_t sa = swizzle(row_smem + x * eb, j->p->swizzle);
      uint8_t *s = j->smem->bytes + sa;
      if (!in) {
        if (j->dir == TC5_TMA_LOAD) {
          memcpy(s, &j->fill, eb);
          for (unsigned k = 0; k < eb; k++) j->smem->written[(sa + k) >> 3] |= (uint8_t)(1u << ((sa + k) & 7));
        }
        continue;
      }
      uint64_t ga = row_addr + (uint64_t)c0 * eb;
      uint8_t *gp = j->g->map(j->g->ctx, ga, eb, j->dir != TC5_TMA_LOAD);
      if (!gp)
        return tc5_diag_add(diag, TC5_EBOUNDS, "globalAddress", ga,
                            (uint64_t)c0 < j->p->dims[0]
                                ? "%s: element at global 0x%llx (%u bytes), inside the tensor map's tensor, is outside global memory"
                                : "%s: global 0x%llx (%u bytes), past the tensor's row in the 16-byte piece that a store "
                                  "writes whole (as the H100 does), is outside global memory",
                            j->what, (unsigned long long)ga, eb);
      if (j->dir == TC5_TMA_LOAD) {
        memcpy(s, gp, eb);
        if (j->conv) {
          uint32_t v;
          memcpy(&v, s, 4);
          v = load_tf32(v);
          memcpy(s, &v, 4);
        }
        for (unsigned k = 0; k < eb; k++) j->smem->written[(sa + k) >> 3] |= (uint8_t)(1u << ((sa + k) & 7));
      } else if (j->dir == TC5_TMA_STORE) {
        memcpy(gp, s, eb);
      } else {
        tc5_status st = reduce(gp, s, eb, j->p->type, j->op, diag);
        if (st) return st;
      }
    } else {
      /* packed 4/6-bit values: bit addresses on both sides */
      uint64_t sbit = (uint64_t)(x / 16) * j->sb16 + (x % 16) * bits;
      uint32_t a0 = swizzle(row_smem + (uint32_t)(sbit / 8), j->p->swizzle);
      uint32_t a1 = swizzle(row_smem + (uint32_t)(sbit / 8) + 1, j->p->swizzle);
      unsigned sh = (unsigned)(sbit % 8);
      uint32_t v = 0;
      if (in) {
        uint64_t gbit = (uint64_t)c0 * bits;
        uint64_t ga = row_addr + gbit / 8;
        unsigned gs = (unsigned)(gbit % 8);
        uint8_t *gp = j->g->map(j->g->ctx, ga, gs + bits > 8 ? 2 : 1, j->dir != TC5_TMA_LOAD);
        if (!gp)
          return tc5_diag_add(diag, TC5_EBOUNDS, "globalAddress", ga,
                              "%s: element at global 0x%llx, inside the tensor map's tensor, is outside global memory", j->what,
                              (unsigned long long)ga);
        if (j->dir == TC5_TMA_REDUCE)
          return tc5_diag_add(diag, TC5_EILLEGAL, "redOp", j->op, "%s: no reduction of packed %s values", j->what,
                              tc5_tmap_type_name(j->p->type));
        if (j->dir == TC5_TMA_LOAD) {
          v = (uint32_t)(gp[0] >> gs);
          if (gs + bits > 8) v |= (uint32_t)gp[1] << (8 - gs);
          v &= (1u << bits) - 1;
        } else {
          uint32_t sv = (uint32_t)j->smem->bytes[a0] >> sh;
          if (sh + bits > 8) sv |= (uint32_t)j->smem->bytes[a1] << (8 - sh);
          sv &= (1u << bits) - 1;
          uint32_t w = (uint32_t)gp[0] | ((gs + bits > 8) ? (uint32_t)gp[1] << 8 : 0);
          w = (w & ~(((1u << bits) - 1) << gs)) | (sv << gs);
          gp[0] = (uint8_t)w;
          if (gs + bits > 8) gp[1] = (uint8_t)(w >> 8);
        }
      }
      if (j->dir == TC5_TMA_LOAD) {
        uint32_t mk = ((1u << bits) - 1) << sh;
        j->smem->bytes[a0] = (uint8_t)((j->smem->bytes[a0] & ~mk) | ((v << sh) & 0xff));
        j->smem->written[a0 >> 3] |= (uint8_t)(1u << (a0 & 7));
        if (sh + bits > 8) {
          j->smem->bytes[a1] = (uint8_t)((j->smem->bytes[a1] & ~(mk >> 8)) | (v >> (8 - sh)));
          j->smem->written[a1 >> 3] |= (uint8_t)(1u << (a1 & 7));
        }
      }
    }
  }
  /* the gaps of the 16-byte-aligned packed types are written too (zeros:
   * tc5's inference) */
  if (j->dir == TC5_TMA_LOAD && (j->p->type == TC5_TMAP_16U4_ALIGN16B || j->p->type == TC5_TMAP_16U6_ALIGN16B)) {
    unsigned data = j->p->type == TC5_TMAP_16U4_ALIGN16B ? 8 : 12;
    for (uint32_t off = 0; off < row_bytes(j->p, bits); off++)
      if (off % 16 >= data) {
        uint32_t a = swizzle(row_smem + off, j->p->swizzle);
        j->smem->bytes[a] = 0;
        j->smem->written[a >> 3] |= (uint8_t)(1u << (a & 7));
      }
  }
  return TC5_OK;
}

tc5_status tc5_tma_tile(const tc5_tmap_params *p, const int32_t *coords, tc5_tma_dir dir, tc5_tma_redop op,
                        tc5_smem *smem, uint32_t smem_addr, const tc5_tma_global *g, tc5_diag *diag) {
  if (!p || !coords || !smem || !g || !g->map || (unsigned)dir > TC5_TMA_REDUCE || (unsigned)op > TC5_TMA_XOR) return TC5_EINVAL;
  if (p->mode != TC5_TMAP_TILED)
    return tc5_diag_add(diag, TC5_EUNSUPPORTED, "mode", p->mode, "cp.async.bulk.tensor: .tile with an im2col tensor map");
  if (p->interleave != TC5_TMAP_INTERLEAVE_NONE)
    return tc5_diag_add(diag, TC5_EUNSUPPORTED, "interleave", p->interleave,
                        "cp.async.bulk.tensor: interleaved layouts are not modelled (the H100 loads a box unlike the "
                        "documentation's: docs/tma.md)");
  if (p->rank < 1 || p->rank > TC5_TENSORMAP_MAX_RANK) return TC5_EINVAL;
  unsigned bits;
  if (tc5_tmap_type_bits(p->type, &bits)) return TC5_EINVAL;
  const char *what = dir == TC5_TMA_LOAD ? "cp.async.bulk.tensor" : dir == TC5_TMA_STORE ? "cp.async.bulk.tensor (store)"
                                                                                          : "cp.reduce.async.bulk.tensor";
  /* The H100 raises "illegal instruction" for a box whose first
   * coordinate is not on a 16-byte boundary of the row, and for a store
   * or reduction that starts before the tensor (gpu/run.sh tma: every such
   * copy of the corpus faulted, every other ran); the PTX ISA does not say
   * so */
  tc5_status st0 = common_rules(p, coords, bits, smem, smem_addr, what, diag);
  if (st0) return st0;
  for (unsigned i = 0; dir != TC5_TMA_LOAD && i < p->rank; i++)
    if (coords[i] < 0)
      return tc5_diag_add(diag, TC5_EILLEGAL, "tensorCoords", (uint64_t)(int64_t)coords[i],
                          "%s: coordinate %u is %d: a store's box starting before the tensor is an illegal instruction on "
                          "the H100",
                          what, i, coords[i]);
  uint32_t n[TC5_TENSORMAP_MAX_RANK] = {1, 1, 1, 1, 1};
  for (unsigned i = 0; i < p->rank; i++) n[i] = box_count(p, i);
  const uint64_t pitch = row_pitch(p, bits);
  const row_job J = job_of(p, dir, op, smem, g, bits, what);
  uint32_t idx[TC5_TENSORMAP_MAX_RANK] = {0};
  uint64_t row = 0; /* the row's index in the box */
  for (;; row++) {
    /* the row: every dimension but 0 */
    bool row_in = true;
    uint64_t row_addr = p->address;
    for (unsigned i = 1; i < p->rank; i++) {
      int64_t c = (int64_t)coords[i] + (int64_t)idx[i] * p->estrides[i];
      if (c < 0 || (uint64_t)c >= p->dims[i]) row_in = false;
      else row_addr += (uint64_t)c * p->strides[i - 1];
    }
    tc5_status st = copy_row(&J, row_in, row_addr, coords[0], smem_addr + (uint32_t)(row * pitch), diag);
    if (st) return st;
    /* next row */
    unsigned i = 1;
    while (i < p->rank && ++idx[i] == n[i]) idx[i++] = 0;
    if (i >= p->rank) break;
  }
  return TC5_OK;
}

tc5_status tc5_tma_im2col(const tc5_tmap_params *p, const int32_t *coords, const uint16_t *offsets, tc5_smem *smem,
                          uint32_t smem_addr, const tc5_tma_global *g, tc5_diag *diag) {
  if (!p || !coords || !offsets || !smem || !g || !g->map) return TC5_EINVAL;
  const char *what = "cp.async.bulk.tensor (.im2col)";
  if (p->mode != TC5_TMAP_IM2COL)
    return tc5_diag_add(diag, TC5_EILLEGAL, "mode", p->mode, "%s: the tensor map is a tiled one (cuTensorMapEncodeTiled)", what);
  if (p->rank < 3 || p->rank > TC5_TENSORMAP_MAX_RANK) return TC5_EINVAL;
  if (p->interleave != TC5_TMAP_INTERLEAVE_NONE)
    return tc5_diag_add(diag, TC5_EUNSUPPORTED, "interleave", p->interleave,
                        "%s: interleaved layouts are not modelled (docs/tma.md)", what);
  unsigned bits;
  if (tc5_tmap_type_bits(p->type, &bits)) return TC5_EINVAL;
  if (bits % 8)
    return tc5_diag_add(diag, TC5_EUNSUPPORTED, "tensorDataType", p->type, "%s: packed %s values are not modelled", what,
                        tc5_tmap_type_name(p->type));
  tc5_status st = common_rules(p, coords, bits, smem, smem_addr, what, diag);
  if (st) return st;
  const unsigned ns = p->rank - 2; /* spatial dimensions 1 .. ns */
  const row_job J = job_of(p, TC5_TMA_LOAD, TC5_TMA_ADD, smem, g, bits, what);
  const uint64_t pitch = row_pitch(p, bits);
  int64_t pos[4], lo[4], hi[4];
  for (unsigned i = 1; i <= ns; i++) {
    pos[i] = coords[i];
    lo[i] = p->lower[i - 1];
    hi[i] = (int64_t)p->dims[i] - 1 + p->upper[i - 1];
  }
  int64_t n = coords[p->rank - 1];
  for (uint32_t px = 0; px < p->pixels; px++) {
    bool in = n >= 0 && (uint64_t)n < p->dims[p->rank - 1];
    uint64_t addr = p->address + (in ? (uint64_t)n * p->strides[p->rank - 2] : 0);
    for (unsigned i = 1; i <= ns; i++) {
      int64_t x = pos[i] + offsets[i - 1];
      if (x < 0 || (uint64_t)x >= p->dims[i]) in = false;
      else addr += (uint64_t)x * p->strides[i - 1];
    }
    st = copy_row(&J, in, addr, coords[0], smem_addr + (uint32_t)(px * pitch), diag);
    if (st) return st;
    /* the next pixel: along W, wrapping to the box's near edge */
    unsigned i = 1;
    while (i <= ns && (pos[i] += p->estrides[i]) > hi[i]) pos[i] = lo[i], i++;
    if (i > ns) n++;
  }
  return TC5_OK;
}
