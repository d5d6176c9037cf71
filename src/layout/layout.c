/* tc5 — canonical shared-memory layouts: descriptor -> element address and
 * back (spec 9.7.16.3, 9.7.16.10.3, 9.7.16.10.6; see include/tc5/layout.h).
 * The layout formulas follow the spec's canonical-layout table and CuTe's
 * make_umma_desc (include/cute/atom/mma_traits_sm100.hpp), which agree; the
 * 128B/32B-atom layout (Table 53's 8x4 atom, CuTe's Swizzle<2,5,2> o
 * ((8,n),(4,k))) comes from CuTe alone. */
#include <stdlib.h>
#include <string.h>

#include "spec/spec_tables.h"
#include "tc5/layout.h"

const char *tc5_major_name(tc5_major m) { return m == TC5_MAJOR_MN ? "MN" : m == TC5_MAJOR_K ? "K" : "?"; }

tc5_status tc5_major_parse(const char *text, tc5_major *m) {
  if (!text || !m) return TC5_EINVAL;
  if (!strcmp(text, "K") || !strcmp(text, "k")) *m = TC5_MAJOR_K;
  else if (!strcmp(text, "MN") || !strcmp(text, "mn") || !strcmp(text, "M") || !strcmp(text, "N"))
    *m = TC5_MAJOR_MN;
  else return TC5_EINVAL;
  return TC5_OK;
}

tc5_status tc5_operand_for(tc5_kind kind, tc5_type type, tc5_major major, tc5_operand *op) {
  if (!op || (major != TC5_MAJOR_K && major != TC5_MAJOR_MN)) return TC5_EINVAL;
  tc5_smem_packing p;
  bool ok;
  switch (kind) {
  case TC5_KIND_F16: ok = type == TC5_F16 || type == TC5_BF16, p = TC5_PACK_NATURAL; break;
  case TC5_KIND_TF32: ok = type == TC5_TF32, p = TC5_PACK_NATURAL; break;
  case TC5_KIND_I8: ok = type == TC5_S8 || type == TC5_U8, p = TC5_PACK_NATURAL; break;
  case TC5_KIND_F8F6F4:
  case TC5_KIND_MXF8F6F4:
    ok = type == TC5_E4M3 || type == TC5_E5M2 || type == TC5_E2M3 || type == TC5_E3M2 ||
         type == TC5_E2M1;
    p = tc5_type_bits(type) < 8 ? TC5_PACK_PADDED16 : TC5_PACK_NATURAL;
    break;
  case TC5_KIND_MXF4:
  case TC5_KIND_MXF4NVF4: ok = type == TC5_E2M1, p = TC5_PACK_FP4X2; break;
  default: ok = false, p = TC5_PACK_NATURAL; break;
  }
  if (!ok) return TC5_EILLEGAL;
  op->type = type;
  op->major = major;
  op->packing = p;
  return TC5_OK;
}

unsigned tc5_operand_slot_bits(const tc5_operand *op) {
  if (!op) return 0;
  if (op->packing == TC5_PACK_PADDED16) return 8;
  if (op->packing == TC5_PACK_FP4X2) return 4;
  return tc5_type_bits(op->type);
}

/* ---- the address function ------------------------------------------------ */

/* checks that the operand is one tc5 can lay out */
static tc5_status operand_ok(const tc5_operand *op, tc5_diag *diag) {
  unsigned b = tc5_type_bits(op->type), sb = tc5_operand_slot_bits(op);
  bool ok = (op->major == TC5_MAJOR_K || op->major == TC5_MAJOR_MN) &&
            ((op->packing == TC5_PACK_NATURAL && (b == 8 || b == 16 || b == 32)) ||
             (op->packing == TC5_PACK_PADDED16 && (b == 4 || b == 6)) ||
             (op->packing == TC5_PACK_FP4X2 && b == 4));
  if (!ok)
    return tc5_diag_add(diag, TC5_EINVAL, "operand", op->type,
                        "layout: %s %s-major with packing %d is not an MMA operand",
                        tc5_type_name(op->type), tc5_major_name(op->major), (int)op->packing);
  (void)sb;
  return TC5_OK;
}

/* width in bytes of a swizzle row (0: no swizzling) */
static unsigned swizzle_width(unsigned sw) {
  const tc5_swizzle_info *si = tc5_spec_swizzle(sw);
  return si ? si->bytes : 0;
}

/* The swizzle on an absolute byte address: the row bits (7 and up),
 * counted from the pattern start the base offset gives, XOR the chunk
 * bits (4 and up; 5 and up for 32-byte atoms). */
static inline uint32_t swizzle(uint32_t addr, unsigned sw, unsigned base) {
  uint32_t row = (addr >> 7) - base;
  switch (sw) {
  case TC5_SWIZZLE_32B: return addr ^ ((row & 1) << 4);
  case TC5_SWIZZLE_64B: return addr ^ ((row & 3) << 4);
  case TC5_SWIZZLE_128B: return addr ^ ((row & 7) << 4);
  case TC5_SWIZZLE_128B_BASE32B: return addr ^ ((row & 3) << 5);
  default: return addr;
  }
}

/* the unswizzled byte address of chunk c along the contiguous dimension in
 * line y across it (T elements a chunk, W the swizzle width, 0 none) */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline uint32_t chunk_at(const tc5_smem_desc *d, bool kmaj, unsigned W, uint32_t c, unsigned y) {
  uint64_t off;
  if (kmaj && !W) {
    off = (uint64_t)(y % 8) * 16 + (uint64_t)(y / 8) * d->sbo + (uint64_t)c * d->lbo;
  } else if (kmaj) {
    uint64_t rowterm = (uint64_t)(y % 8) * W + (uint64_t)(y / 8) * d->sbo;
    if (d->lbo_mode == 1) {
      /* absolute LBO (9.7.16.3.1.2): the chunks past the first 128-byte
       * boundary continue at the address in LBO */
      uint32_t pos = d->start_address % W + 16 * c;
      if (pos >= W) return (uint32_t)(d->lbo + (pos - W) + rowterm);
    }
    off = rowterm + (uint64_t)c * 16;
  } else if (!W) {
    off = (uint64_t)c * d->sbo + (uint64_t)(y % 8) * 16 + (uint64_t)(y / 8) * d->lbo;
  } else if (d->swizzle == TC5_SWIZZLE_128B_BASE32B) {
    off = (uint64_t)(c % 8) * 16 + (uint64_t)(c / 8) * d->lbo + (uint64_t)(y % 4) * 128 +
          (uint64_t)(y / 4) * d->sbo;
  } else {
    unsigned A = W / 16;
    off = (uint64_t)(c % A) * 16 + (uint64_t)(c / A) * d->lbo + (uint64_t)(y % 8) * W +
          (uint64_t)(y / 8) * d->sbo;
  }
  uint64_t a = d->start_address + off;
  return a > UINT32_MAX ? UINT32_MAX : (uint32_t)a;
}

/* the unswizzled byte address of the 16-byte chunk of element (mn, k), and
 * the element's index in the chunk */
static uint32_t chunk_address(const tc5_smem_desc *d, const tc5_operand *op, unsigned mn,
                              unsigned k, unsigned *e) {
  unsigned T = 128 / tc5_operand_slot_bits(op);
  bool kmaj = op->major == TC5_MAJOR_K;
  unsigned x = kmaj ? k : mn, y = kmaj ? mn : k; /* x: along the contiguous dimension */
  *e = x % T;
  return chunk_at(d, kmaj, swizzle_width(d->swizzle), x / T, y);
}

static void locate(const tc5_smem_desc *d, const tc5_operand *op, unsigned mn, unsigned k,
                   tc5_elem_loc *loc) {
  unsigned e;
  uint32_t chunk = swizzle(chunk_address(d, op, mn, k, &e), d->swizzle, d->base_offset);
  /* within the chunk: natural elements one after another; packed fp4/fp6
   * (padded or two a byte) bit after bit from the chunk's first byte */
  unsigned w = tc5_type_bits(op->type);
  unsigned bitpos = e * w;
  loc->chunk = chunk;
  loc->addr = chunk + bitpos / 8;
  loc->bit = (uint8_t)(bitpos % 8);
  loc->width = (uint8_t)w;
}

tc5_status tc5_layout_addr(const tc5_smem_desc *d, const tc5_operand *op, unsigned mn,
                           unsigned k, tc5_elem_loc *loc, tc5_diag *diag) {
  if (!d || !op || !loc) return TC5_EINVAL;
  tc5_status st = operand_ok(op, diag);
  if (st) return st;
  if (!tc5_spec_swizzle(d->swizzle))
    return tc5_diag_add(diag, TC5_ERESERVED, "swizzle mode", d->swizzle,
                        "layout: swizzle mode %u is reserved", d->swizzle);
  locate(d, op, mn, k, loc);
  return TC5_OK;
}

/* ---- rules ------------------------------------------------------------------ */

static tc5_status check_elements(const tc5_smem_desc *d, const tc5_operand *op, unsigned rows, unsigned kdim,
                                 uint32_t lim, bool shared_ok, tc5_diag *diag);

/* All chunks are 16-byte aligned, so two elements share a bit exactly when
 * two chunks share an address. The chunk at `a` whose elements take `used`
 * bytes, when it lies inside [0, lim) and no chunk before it (marked in
 * `seen`, a bit per 16 bytes) had its address: marked, true. */
static bool claim_chunk(uint8_t *seen, uint32_t a, uint32_t used, uint32_t lim) {
  if (a % 16 || (uint64_t)a + used > lim || seen[a / 128] >> (a / 16 % 8) & 1) return false;
  seen[a / 128] |= (uint8_t)(1u << (a / 16 % 8));
  return true;
}

/* Every chunk claimed: only whether; the element-by-element check then says
 * where. */
static bool chunks_ok(const tc5_smem_desc *d, const tc5_operand *op, unsigned rows, unsigned kdim, uint32_t lim) {
  unsigned T = 128 / tc5_operand_slot_bits(op), w = tc5_type_bits(op->type), W = swizzle_width(d->swizzle);
  bool kmaj = op->major == TC5_MAJOR_K;
  unsigned xdim = kmaj ? kdim : rows;
  uint8_t seen[TC5_SMEM_WINDOW_BYTES / 128 + 1]; /* a bit per 16-byte chunk; lim <= the window */
  memset(seen, 0, lim / 128 + 1);
  bool ok = true;
  unsigned ydim = kmaj ? rows : kdim, nc = (xdim + T - 1) / T;
  for (unsigned y = 0; y < ydim && ok; y++)
    for (unsigned c = 0; c < nc && ok; c++) {
      unsigned ne = xdim - c * T < T ? xdim - c * T : T;
      ok = claim_chunk(seen, swizzle(chunk_at(d, kmaj, W, c, y), d->swizzle, d->base_offset), (ne * w + 7) / 8, lim);
    }
  return ok;
}

/* the bytes an operand may occupy: the memory, within the descriptors' window */
static uint32_t window(uint32_t smem_size) {
  return smem_size < TC5_SMEM_WINDOW_BYTES ? smem_size : TC5_SMEM_WINDOW_BYTES;
}

/* the rules of tc5_layout_check that do not depend on where each element is */
static tc5_status field_rules(const tc5_smem_desc *d, const tc5_operand *op, unsigned rows, unsigned kdim,
                              tc5_diag *diag) {
  if (!d || !op) return TC5_EINVAL;
  tc5_status st = operand_ok(op, diag);
  if (st) return st;
  if (rows == 0 || kdim == 0 || rows > 4096 || kdim > 4096)
    return tc5_diag_add(diag, TC5_ERANGE, "extent", (uint64_t)rows << 32 | kdim,
                        "layout: %u x %u elements: each extent must be 1..4096", rows, kdim);
  st = tc5_smem_desc_check(d, diag);
  if (st) return st; /* the fields must make sense before their use can */
  unsigned bits = tc5_type_bits(op->type);
  bool mn = op->major == TC5_MAJOR_MN;
  if (!(tc5_spec_table52(bits, mn) & (1u << d->swizzle)))
    st = tc5_diag_add(diag, TC5_EILLEGAL, "swizzle mode", d->swizzle,
                      "layout: swizzle %s is not allowed for a %u-bit %s-major operand "
                      "(Table 52%s)",
                      tc5_swizzle_name(d->swizzle), bits, tc5_major_name(op->major),
                      mn && bits == 32 ? ": transposed 32-bit operands need 128B swizzling "
                                         "with 32B atomicity"
                      : !mn && d->swizzle == TC5_SWIZZLE_128B_BASE32B
                          ? "/53: 32B atoms exist only with M/N as leading dimension"
                          : "");
  if (mn && op->packing == TC5_PACK_FP4X2)
    st = tc5_diag_add(diag, TC5_EILLEGAL, "major", op->major,
                      "layout: two fp4 elements a byte (.kind::mxf4, .kind::mxf4nvf4) are K-major "
                      "only (Table 49: no transpose for these kinds)");
  if (d->lbo_mode == 1 && mn)
    st = tc5_diag_add(diag, TC5_EILLEGAL, "leading dimension stride mode", 1,
                      "layout: the absolute leading-dimension address mode supports K-major "
                      "operands only (9.7.16.3.1.2.1)");
  unsigned W = swizzle_width(d->swizzle);
  unsigned sb = tc5_operand_slot_bits(op);
  if (!mn && W && d->lbo_mode == 0) {
    uint32_t kbytes = (uint32_t)(((uint64_t)kdim * sb + 7) / 8);
    uint32_t from = d->start_address % W;
    if (from + kbytes > W)
      st = tc5_diag_add(diag, TC5_EILLEGAL, "K extent", kbytes,
                        "layout: a K-major %s row holds %u bytes; %u bytes of K from byte %u of "
                        "the row cross it (split the K block, or on sm_103a use the absolute "
                        "leading-dimension address, 9.7.16.3.1.2)",
                        tc5_swizzle_name(d->swizzle), W, kbytes, from);
  }
  return st;
}

tc5_status tc5_layout_check(const tc5_smem_desc *d, const tc5_operand *op, unsigned rows,
                            unsigned kdim, uint32_t smem_size, tc5_diag *diag) {
  tc5_status st = field_rules(d, op, rows, kdim, diag);
  if (st) return st;
  /* every element: inside the memory and the window, no two on one bit */
  uint32_t lim = window(smem_size);
  return chunks_ok(d, op, rows, kdim, lim) ? TC5_OK : check_elements(d, op, rows, kdim, lim, false, diag);
}

tc5_status tc5_layout_check_read(const tc5_smem_desc *d, const tc5_operand *op, unsigned rows, unsigned kdim,
                                 uint32_t smem_size, tc5_diag *diag) {
  tc5_status st = field_rules(d, op, rows, kdim, diag);
  if (st) return st;
  uint32_t lim = window(smem_size);
  return chunks_ok(d, op, rows, kdim, lim) ? TC5_OK : check_elements(d, op, rows, kdim, lim, true, diag);
}

/* element by element, each problem reported at the first element (in
 * row-major order) that shows it */
static tc5_status check_elements(const tc5_smem_desc *d, const tc5_operand *op, unsigned rows, unsigned kdim,
                                 uint32_t lim, bool shared_ok, tc5_diag *diag) {
  tc5_status st = TC5_OK;
  uint8_t *used = calloc(lim ? lim : 1, 1);
  if (!used) return TC5_ENOMEM;
  bool reported_out = false, reported_overlap = shared_ok; /* shared_ok: elements may share bits */
  for (unsigned r = 0; r < rows && !(reported_out && reported_overlap); r++)
    for (unsigned k = 0; k < kdim; k++) {
      tc5_elem_loc l;
      locate(d, op, r, k, &l);
      uint32_t last = l.addr + (uint32_t)((l.bit + l.width - 1) / 8);
      if (last >= lim || l.addr >= lim) {
        if (!reported_out)
          st = tc5_diag_add(diag, TC5_EBOUNDS, "address", l.addr,
                            "layout: element (%u, %u) is at byte 0x%x, outside the %u bytes "
                            "of shared memory%s",
                            r, k, l.addr, lim,
                            lim == TC5_SMEM_WINDOW_BYTES ? " the descriptors address" : "");
        reported_out = true;
        continue;
      }
      uint64_t mask = ((1ull << l.width) - 1u) << l.bit;
      for (uint32_t b = l.addr; b <= last; b++, mask >>= 8) {
        uint8_t m8 = (uint8_t)(mask & 0xFF);
        if ((used[b] & m8) && !reported_overlap) {
          st = tc5_diag_add(diag, TC5_EILLEGAL, "stride", b,
                            "layout: element (%u, %u) at byte 0x%x overlaps an earlier "
                            "element: LBO %u / SBO %u are too small for %u x %u elements",
                            r, k, b, d->lbo, d->sbo, rows, kdim);
          reported_overlap = true;
        }
        used[b] |= m8;
      }
    }
  free(used);
  return st;
}

/* ---- gather and scatter ------------------------------------------------------ */

/* element (mn, k) read byte by byte: the reference path, and the one that
 * names the first byte never written */
static tc5_status gather_elem(const tc5_smem *s, const tc5_smem_desc *d, const tc5_operand *op, unsigned mn,
                              unsigned k, uint32_t *code, tc5_diag *diag) {
  tc5_elem_loc l;
  locate(d, op, mn, k, &l);
  uint8_t b[5] = {0};
  uint32_t n = (uint32_t)(l.bit + l.width + 7) / 8;
  tc5_status st = tc5_smem_read(s, l.addr, b, n, diag);
  if (st) return st;
  uint64_t v = 0;
  for (uint32_t i = 0; i < n; i++) v |= (uint64_t)b[i] << (8 * i);
  *code = (uint32_t)((v >> l.bit) & ((1ull << l.width) - 1));
  return TC5_OK;
}

/* A whole chunk of a K-major row: its 16 bytes of w-bit codes (w 16, 8, or
 * 4 with T codes: 32 two a byte, or 16 then 8 bytes of padding) widened to
 * words */
static inline void widen_chunk(const uint8_t *p, unsigned w, unsigned T, uint32_t *out) {
  if (w == 16) {
    uint16_t h[8];
    memcpy(h, p, 16);
    for (unsigned i = 0; i < 8; i++) out[i] = h[i];
    return;
  }
  uint8_t b[16];
  memcpy(b, p, 16);
  if (w == 8)
    for (unsigned i = 0; i < 16; i++) out[i] = b[i];
  else
    for (unsigned i = 0; i < T / 2; i++) out[2 * i] = b[i] & 0xFu, out[2 * i + 1] = b[i] >> 4;
}

/* The common case of a kernel's operand, fast: K-major, whole chunks (K a
 * multiple of the T codes of a chunk), every chunk inside the window, on
 * its own address and written in full; w 4 (fp4: T 32 two a byte, or 16
 * padded), 8 or 16 bits. False as soon as one of these fails: the general
 * loop then runs from the start and reports what. */
/* Whether no two chunks of a K-major layout (nc chunks a row) can share an
 * address, from the strides alone (sufficient, not necessary): swizzled,
 * each row's chunks stay in its W-byte line and the 8-row groups SBO apart
 * do not overlap; unswizzled, the core matrices (8 rows x 16 bytes) LBO
 * apart along K and SBO apart along MN do not overlap. */
static bool kmajor_alias_free(const tc5_smem_desc *d, unsigned W, unsigned rows, unsigned nc) {
  uint64_t groups = (rows + 7) / 8;
  if (W) return d->start_address % W + 16ull * nc <= W && (groups <= 1 || d->sbo >= 8ull * W);
  return (nc <= 1 || d->lbo >= 128) && (groups <= 1 || d->sbo >= 128) &&
         (nc <= 1 || groups <= 1 || d->sbo >= nc * (uint64_t)d->lbo || d->lbo >= groups * d->sbo);
}

static bool gather_kmajor(const tc5_smem *s, const tc5_smem_desc *d, unsigned W, unsigned T, unsigned w,
                          unsigned rows, unsigned kdim, uint32_t lim, uint8_t *seen, uint32_t *codes) {
  unsigned nc = kdim / T;
  bool claim = !kmajor_alias_free(d, W, rows, nc); /* else every chunk has its own address */
  for (unsigned y = 0; y < rows; y++) {
    uint32_t *out = codes + (size_t)y * kdim;
    for (unsigned c = 0; c < nc; c++, out += T) {
      uint32_t a = swizzle(chunk_at(d, true, W, c, y), d->swizzle, d->base_offset);
      if (a % 16 || (uint64_t)a + 16 > lim) return false;
      if (claim && seen[a / 128] >> (a / 16 % 8) & 1) return false;
      if (claim) seen[a / 128] |= (uint8_t)(1u << (a / 16 % 8));
      if ((s->written[a / 8] & s->written[a / 8 + 1]) != 0xFF) return false;
      widen_chunk(s->bytes + a, w, T, out);
    }
  }
  return true;
}

tc5_status tc5_layout_gather(const tc5_smem *s, const tc5_smem_desc *d, const tc5_operand *op,
                             unsigned rows, unsigned kdim, uint32_t *codes, tc5_diag *diag) {
  if (!s || !d || !op || !codes) return TC5_EINVAL;
  tc5_status st = field_rules(d, op, rows, kdim, diag);
  if (st) return st;
  /* chunk by chunk: the T elements of a 16-byte chunk share its address
   * (x runs along the contiguous dimension, y across it); the element rules
   * of tc5_layout_check_read (inside the window; a read may take one byte
   * for two elements, as wgmma does on the H200: issue 52) are checked on
   * the way, and say where when one fails */
  unsigned T = 128 / tc5_operand_slot_bits(op), w = tc5_type_bits(op->type), W = swizzle_width(d->swizzle);
  bool kmaj = op->major == TC5_MAJOR_K;
  unsigned xdim = kmaj ? kdim : rows, ydim = kmaj ? rows : kdim;
  uint32_t wmask = w >= 32 ? 0xFFFFFFFFu : (1u << w) - 1, lim = window(s->size);
  uint8_t seen[TC5_SMEM_WINDOW_BYTES / 128 + 1]; /* a bit per 16-byte chunk */
  if (kmaj && !kmajor_alias_free(d, W, rows, xdim / T)) memset(seen, 0, lim / 128 + 1);
  if (kmaj && kdim % T == 0 && d->lbo_mode == 0 && (w == 16 || w == 8 || (w == 4 && T <= 32)) &&
      s->size % 8 == 0 && lim <= s->size &&
      gather_kmajor(s, d, W, T, w, rows, kdim, lim, seen, codes))
    return TC5_OK;
  memset(seen, 0, lim / 128 + 1);
  bool checked = false; /* tc5_layout_check has run in full */
  for (unsigned y = 0; y < ydim; y++)
    for (unsigned x0 = 0; x0 < xdim; x0 += T) {
      unsigned ne = xdim - x0 < T ? xdim - x0 : T;
      uint32_t a = swizzle(chunk_at(d, kmaj, W, x0 / T, y), d->swizzle, d->base_offset);
      uint32_t used = (ne * w + 7) / 8;
      if (!claim_chunk(seen, a, used, lim) && !checked) {
        st = check_elements(d, op, rows, kdim, lim, true, diag); /* says where */
        if (st) return st;
        checked = true;
      }
      /* the chunk is 16-byte aligned: its written bits are two bytes of the map */
      uint32_t need = used >= 16 ? 0xFFFFu : (1u << used) - 1;
      bool fast = (uint64_t)a + 16 <= s->size &&
                  ((s->written[a / 8] | (uint32_t)s->written[a / 8 + 1] << 8) & need) == need;
      if (!fast) { /* never-written bytes: the rules of the layout come first */
        if (!checked) {
          st = check_elements(d, op, rows, kdim, lim, true, diag);
          if (st) return st;
          checked = true;
        }
        for (unsigned i = 0; i < ne; i++) {
          unsigned x = x0 + i, mn = kmaj ? y : x, k = kmaj ? x : y;
          st = gather_elem(s, d, op, mn, k, &codes[(size_t)mn * kdim + k], diag);
          if (st) return st;
        }
        continue;
      }
      const uint8_t *p = s->bytes + a;
      size_t step = kmaj ? 1 : kdim; /* between consecutive x in codes */
      uint32_t *out = &codes[kmaj ? (size_t)y * kdim + x0 : (size_t)x0 * kdim + y];
      if (kmaj && ne == T && (w == 8 || w == 16 || w == 4)) {
        widen_chunk(p, w, T, out);
        continue;
      }
      switch (w) {
      case 8: /* K-major (step 1) apart: the compiler vectorises it */
        if (kmaj)
          for (unsigned i = 0; i < ne; i++) out[i] = p[i];
        else
          for (unsigned i = 0; i < ne; i++) out[i * step] = p[i];
        break;
      case 16:
        if (kmaj)
          for (unsigned i = 0; i < ne; i++) out[i] = (uint32_t)p[2 * i] | (uint32_t)p[2 * i + 1] << 8;
        else
          for (unsigned i = 0; i < ne; i++) out[i * step] = (uint32_t)p[2 * i] | (uint32_t)p[2 * i + 1] << 8;
        break;
      case 32:
        for (unsigned i = 0; i < ne; i++)
          out[i * step] = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 | (uint32_t)p[4 * i + 2] << 16 |
                          (uint32_t)p[4 * i + 3] << 24;
        break;
      default: /* fp4 / fp6: bit after bit from the chunk's first byte */
        for (unsigned i = 0; i < ne; i++) {
          unsigned bit = i * w;
          uint32_t v = (uint32_t)p[bit / 8] | (bit / 8 + 1 < 16 ? (uint32_t)p[bit / 8 + 1] << 8 : 0);
          out[i * step] = (v >> (bit % 8)) & wmask;
        }
      }
    }
  return TC5_OK;
}

tc5_status tc5_layout_canonical(uint32_t start, tc5_swizzle sw, const tc5_operand *op,
                                unsigned rows, unsigned kdim, tc5_smem_desc *desc,
                                uint32_t *bytes, tc5_diag *diag) {
  if (!op || !desc) return TC5_EINVAL;
  tc5_status st = operand_ok(op, diag);
  if (st) return st;
  if (!tc5_spec_swizzle(sw))
    return tc5_diag_add(diag, TC5_ERESERVED, "swizzle mode", sw,
                        "layout: swizzle mode %u is reserved", (unsigned)sw);
  if (rows == 0 || kdim == 0 || rows > 4096 || kdim > 4096)
    return tc5_diag_add(diag, TC5_ERANGE, "extent", (uint64_t)rows << 32 | kdim,
                        "layout: %u x %u elements: each extent must be 1..4096", rows, kdim);
  if (start % 16)
    return tc5_diag_add(diag, TC5_EALIGN, "start address", start,
                        "layout: start address 0x%x is not 16-byte aligned", start);
  unsigned sb = tc5_operand_slot_bits(op), T = 128 / sb, W = swizzle_width(sw);
  bool mn = op->major == TC5_MAJOR_MN;
  uint64_t lbo, sbo, total;
  if (!mn && !W) { /* core matrices: 8 rows x 16 bytes, along MN first */
    sbo = 128;
    lbo = (uint64_t)((rows + 7) / 8) * 128;
    total = lbo * ((kdim + T - 1) / T);
  } else if (!mn) { /* atoms of 8 rows x W bytes; K beyond W in further atom columns */
    sbo = 8 * W;
    lbo = 16; /* unused, "assumed 1" (9.7.16.3.1.1) */
    uint64_t kbytes = ((uint64_t)kdim * sb + 7) / 8;
    total = (uint64_t)((rows + 7) / 8) * 8 * W * ((kbytes + W - 1) / W);
  } else if (!W) { /* core matrices: 16 bytes of MN x 8 rows of K */
    sbo = 128;
    lbo = (uint64_t)((rows + T - 1) / T) * 128;
    total = lbo * ((kdim + 7) / 8);
  } else {
    unsigned krows = sw == TC5_SWIZZLE_128B_BASE32B ? 4 : 8;
    uint64_t atom = (uint64_t)krows * W, per_atom = (uint64_t)(W / 16) * T;
    lbo = atom;
    sbo = atom * ((rows + per_atom - 1) / per_atom);
    total = sbo * ((kdim + krows - 1) / krows);
  }
  if (lbo >= TC5_SMEM_WINDOW_BYTES || sbo >= TC5_SMEM_WINDOW_BYTES ||
      start + total > TC5_SMEM_WINDOW_BYTES)
    return tc5_diag_add(diag, TC5_EBOUNDS, "extent", total,
                        "layout: %u x %u elements from 0x%x need %llu bytes, beyond the "
                        "18-bit window of the descriptors",
                        rows, kdim, start, (unsigned long long)total);
  tc5_smem_desc_init(desc);
  desc->start_address = start;
  desc->lbo = (uint32_t)lbo;
  desc->sbo = (uint32_t)sbo;
  desc->swizzle = (uint8_t)sw;
  tc5_smem_base_offset(start, sw, &desc->base_offset);
  if (bytes) *bytes = (uint32_t)total;
  return TC5_OK;
}

tc5_status tc5_layout_kblock(const tc5_smem_desc *d0, const tc5_operand *op, unsigned rows,
                             unsigned k0, tc5_smem_desc *dk, tc5_diag *diag) {
  if (!d0 || !op || !dk) return TC5_EINVAL;
  tc5_status st = operand_ok(op, diag);
  if (st) return st;
  unsigned sb = tc5_operand_slot_bits(op), T = 128 / sb, W = swizzle_width(d0->swizzle);
  uint64_t add;
  if (op->major == TC5_MAJOR_K && !W) {
    if (k0 % T)
      return tc5_diag_add(diag, TC5_EALIGN, "k0", k0,
                          "layout: K block start %u is not a multiple of the %u elements of "
                          "a 16-byte chunk", k0, T);
    add = (uint64_t)(k0 / T) * d0->lbo;
  } else if (op->major == TC5_MAJOR_K) {
    uint64_t kb = (uint64_t)k0 * sb / 8;
    if (((uint64_t)k0 * sb) % 128)
      return tc5_diag_add(diag, TC5_EALIGN, "k0", k0,
                          "layout: K block start %u is not on a 16-byte chunk", k0);
    add = (kb / W) * (uint64_t)d0->sbo * ((rows + 7) / 8) + kb % W;
  } else {
    unsigned krows = d0->swizzle == TC5_SWIZZLE_128B_BASE32B ? 4 : 8;
    if (k0 % krows)
      return tc5_diag_add(diag, TC5_EALIGN, "k0", k0,
                          "layout: K block start %u is not a multiple of the %u rows of an atom",
                          k0, krows);
    add = (uint64_t)(k0 / krows) * (W ? d0->sbo : d0->lbo);
  }
  *dk = *d0;
  if (d0->start_address + add >= TC5_SMEM_WINDOW_BYTES)
    return tc5_diag_add(diag, TC5_EBOUNDS, "k0", k0,
                        "layout: the K block at %u starts beyond the 18-bit window", k0);
  dk->start_address = (uint32_t)(d0->start_address + add);
  return TC5_OK;
}

tc5_status tc5_layout_scatter(tc5_smem *s, uint32_t start, tc5_swizzle sw,
                              const tc5_operand *op, unsigned rows, unsigned kdim,
                              const uint32_t *codes, tc5_smem_desc *desc, tc5_diag *diag) {
  if (!s || !op || !codes || !desc) return TC5_EINVAL;
  uint32_t bytes;
  tc5_smem_desc d;
  tc5_status st = tc5_layout_canonical(start, sw, op, rows, kdim, &d, &bytes, diag);
  if (st) return st;
  unsigned W = swizzle_width(sw), sb = tc5_operand_slot_bits(op);
  st = tc5_smem_fill(s, start, 0, bytes, diag);
  if (st) return st;
  /* K-major swizzled layouts hold W bytes of K per descriptor: write each
   * K block through its own descriptor */
  unsigned kblk = kdim;
  if (op->major == TC5_MAJOR_K && W) kblk = W * 8 / sb;
  for (unsigned k0 = 0; k0 < kdim; k0 += kblk) {
    tc5_smem_desc dk;
    st = tc5_layout_kblock(&d, op, rows, k0, &dk, diag);
    if (st) return st;
    for (unsigned r = 0; r < rows; r++)
      for (unsigned k = k0; k < kdim && k < k0 + kblk; k++) {
        tc5_elem_loc l;
        locate(&dk, op, r, k - k0, &l);
        uint32_t n = (uint32_t)(l.bit + l.width + 7) / 8;
        uint8_t b[5];
        st = tc5_smem_read(s, l.addr, b, n, diag);
        if (st) return st;
        uint64_t v = 0;
        for (uint32_t i = 0; i < n; i++) v |= (uint64_t)b[i] << (8 * i);
        uint64_t mask = ((1ull << l.width) - 1) << l.bit;
        v = (v & ~mask) | (((uint64_t)codes[(size_t)r * kdim + k] << l.bit) & mask);
        for (uint32_t i = 0; i < n; i++) b[i] = (uint8_t)(v >> (8 * i));
        st = tc5_smem_write(s, l.addr, b, n, diag);
        if (st) return st;
      }
  }
  *desc = d;
  return TC5_OK;
}
