/* tc5 — Tensor Memory data movement (9.7.16.9): tcgen05.cp and
 * tcgen05.shift (see tc5/cp.h). */
#include "tc5/cp.h"

#include <stdio.h>
#include <string.h>

#include "mma/mma_impl.h"
#include "tc5/layout.h"

/* CUTLASS copy_traits_sm100.hpp, SM100_UTCCP_*: see tc5/cp.h */
static const tc5_cp_shape_info shapes[TC5_CP_SHAPE_COUNT] = {
    {TC5_CP_128x256b, "128x256b", 128, 256, 128, 0, 0, 1},
    {TC5_CP_4x256b, "4x256b", 4, 256, 1, 32, 0, 1},
    {TC5_CP_128x128b, "128x128b", 128, 128, 128, 0, 0, 1},
    {TC5_CP_64x128b_WARPX2_02_13, "64x128b.warpx2::02_13", 64, 128, 64, 0, 64, 2},
    {TC5_CP_64x128b_WARPX2_01_23, "64x128b.warpx2::01_23", 64, 128, 32, 64, 32, 2},
    {TC5_CP_32x128b_WARPX4, "32x128b.warpx4", 32, 128, 32, 0, 32, 4},
};

const tc5_cp_shape_info *tc5_cp_shape_get(tc5_cp_shape s) {
  return (unsigned)s < TC5_CP_SHAPE_COUNT ? &shapes[s] : NULL;
}

tc5_status tc5_cp_lane(tc5_cp_shape s, unsigned r, unsigned q, uint32_t *lane) {
  const tc5_cp_shape_info *i = tc5_cp_shape_get(s);
  if (!i || !lane || r >= i->rows || q >= i->replicas) return TC5_EINVAL;
  *lane = (r / i->rb) * i->rs + q * i->qs + r % i->rb;
  return TC5_OK;
}

/* the shape part of a table name ("64x128b" of "64x128b.warpx2::02_13")
 * equals tok, or (mc) its multicast part does */
static bool name_part(const char *name, const char *tok, bool mc) {
  const char *dot = strchr(name, '.');
  if (mc) return dot && !strcmp(dot + 1, tok);
  size_t n = dot ? (size_t)(dot - name) : strlen(name);
  return strlen(tok) == n && !strncmp(name, tok, n);
}

tc5_status tc5_cp_parse(const char *text, tc5_cp_args *a, tc5_diag *diag) {
  if (!text || !a) return TC5_EINVAL;
  memset(a, 0, sizeof *a);
  char buf[256], shape[64] = "", mc[64] = "";
  bool dst = false, src = false;
  snprintf(buf, sizeof buf, "%s", text);
  char *save = NULL, *t0 = strtok_r(buf, ".", &save), *t1 = strtok_r(NULL, ".", &save);
  if (!t0 || !t1 || strcmp(t0, "tcgen05") || strcmp(t1, "cp") || strlen(text) >= sizeof buf)
    return tc5_diag_add(diag, TC5_EPARSE, "opcode", 0, "cp: '%s' is not tcgen05.cp", text);
  tc5_status st = TC5_OK;
  for (char *tok; (tok = strtok_r(NULL, ".", &save)) != NULL;) {
    bool is_shape = false, is_mc = false;
    for (unsigned i = 0; i < TC5_CP_SHAPE_COUNT; i++)
      is_shape |= name_part(shapes[i].name, tok, false), is_mc |= name_part(shapes[i].name, tok, true);
    if (!strcmp(tok, "cta_group::1") || !strcmp(tok, "cta_group::2")) a->cta_group = (unsigned)(tok[11] - '0');
    else if (is_shape) snprintf(shape, sizeof shape, "%s", tok);
    else if (is_mc) snprintf(mc, sizeof mc, "%s", tok);
    else if (!strcmp(tok, "b8x16")) dst = true;
    else if (!strcmp(tok, tc5_cp_src_fmt_name(TC5_CP_B6X16_P32))) src = true, a->src_fmt = TC5_CP_B6X16_P32;
    else if (!strcmp(tok, tc5_cp_src_fmt_name(TC5_CP_B4X16_P64))) src = true, a->src_fmt = TC5_CP_B4X16_P64;
    else st = tc5_diag_add(diag, TC5_EPARSE, "qualifier", 0, "cp: unknown qualifier .%s in '%s' (9.7.16.9.2)", tok, text);
  }
  if (a->cta_group != 1 && a->cta_group != 2)
    st = tc5_diag_add(diag, TC5_EPARSE, "cta_group", a->cta_group, "cp: '%s' needs .cta_group::1 or ::2", text);
  if (!shape[0])
    return tc5_diag_add(diag, TC5_EPARSE, "shape", 0,
                        "cp: '%s' has no .shape (.128x256b, .4x256b, .128x128b, .64x128b, .32x128b)", text);
  /* the shape with its multicast: one row of the table, or the rule broken */
  char full[160], need[128] = "", multi[128] = "";
  snprintf(full, sizeof full, "%s%s%s", shape, mc[0] ? "." : "", mc);
  bool found = false;
  for (unsigned i = 0; i < TC5_CP_SHAPE_COUNT; i++) {
    const char *dot = strchr(shapes[i].name, '.');
    if (!strcmp(full, shapes[i].name)) a->shape = shapes[i].shape, found = true;
    if (dot && name_part(shapes[i].name, shape, false)) /* the multicasts this shape requires */
      snprintf(need + strlen(need), sizeof need - strlen(need), "%s.%s", need[0] ? " or " : "", dot + 1);
    int plen = dot ? (int)(dot - shapes[i].name) : 0; /* the shapes that take one, each once */
    if (dot && (i == 0 || strncmp(shapes[i - 1].name, shapes[i].name, (size_t)plen + 1)))
      snprintf(multi + strlen(multi), sizeof multi - strlen(multi), "%s.%.*s", multi[0] ? " / " : "", plen,
               shapes[i].name);
  }
  if (!found && need[0])
    st = tc5_diag_add(diag, TC5_EILLEGAL, "multicast", 0, "cp: .%s requires %s (9.7.16.9.2)%s%s", shape, need,
                      mc[0] ? ", not ." : "", mc);
  else if (!found)
    st = tc5_diag_add(diag, TC5_EILLEGAL, "multicast", 0,
                      "cp: .%s takes no multicast qualifier (.%s is for %s, 9.7.16.9.2)", shape, mc, multi);
  if (dst != src)
    st = tc5_diag_add(diag, TC5_EILLEGAL, "dst_fmt", 0,
                      "cp: decompression needs both .dst_fmt (.b8x16) and .src_fmt (.b6x16_p32 / .b4x16_p64) (9.7.16.9.2)");
  a->decompress = dst && src;
  return st;
}

tc5_status tc5_cp_sf_source(const uint32_t *scales, size_t row_stride, size_t k_stride, unsigned w, unsigned nsf,
                            uint32_t out[32 * 16]) {
  if (!scales || !out) return TC5_EINVAL;
  for (unsigned r = 0; r < 32; r++)
    for (unsigned j = 0; j < 4; j++)
      for (unsigned b = 0; b < 4; b++) {
        unsigned s = 4 * w + b;
        out[r * 16 + 4 * j + b] = s < nsf ? scales[(size_t)(r + 32 * j) * row_stride + (size_t)s * k_stride] : 0;
      }
  return TC5_OK;
}

/* the lanes [*lo, *hi) a shape writes from lane 0 */
static void lane_span(const tc5_cp_shape_info *i, uint32_t *lo, uint32_t *hi) {
  *lo = UINT32_MAX, *hi = 0;
  for (unsigned r = 0; r < i->rows; r++)
    for (unsigned q = 0; q < i->replicas; q++) {
      uint32_t l;
      tc5_cp_lane(i->shape, r, q, &l);
      if (l < *lo) *lo = l;
      if (l + 1 > *hi) *hi = l + 1;
    }
}

tc5_status tc5_cp(tc5_cta *ctas, unsigned nctas, const tc5_cp_args *a, tc5_diag *diag) {
  if (!ctas || !a) return TC5_EINVAL;
  const tc5_cp_shape_info *si = tc5_cp_shape_get(a->shape);
  if (!si) return tc5_diag_add(diag, TC5_EINVAL, "shape", (uint64_t)a->shape, "cp: shape %d is not a tcgen05.cp shape",
                               (int)a->shape);
  unsigned cg = a->cta_group;
  if ((cg != 1 && cg != 2) || nctas != cg)
    return tc5_diag_add(diag, TC5_EINVAL, "cta_group", cg, "tcgen05.cp: .cta_group::%u needs %u CTA%s, %u given", cg, cg,
                        cg == 2 ? "s (a pair)" : "", nctas);
  for (unsigned c = 0; c < cg; c++)
    if (!ctas[c].smem || !ctas[c].tmem) return TC5_EINVAL;
  if (a->decompress && a->src_fmt != TC5_CP_B6X16_P32 && a->src_fmt != TC5_CP_B4X16_P64)
    return tc5_diag_add(diag, TC5_EINVAL, "src_fmt", (uint64_t)a->src_fmt, "cp: source format %d is not one of Table 9.7.16.9.1",
                        (int)a->src_fmt);
  tc5_smem_desc sd;
  tc5_status st = tc5_smem_desc_decode_mma(a->sdesc, &sd, diag);
  if (st) return st;
  uint32_t lane0 = TC5_TMEM_LANE(a->taddr), col0 = TC5_TMEM_COL(a->taddr), lo, hi, ncols = si->bits / 32;
  lane_span(si, &lo, &hi);
  char what[96];
  snprintf(what, sizeof what, "tcgen05.cp.%s", si->name);
  for (unsigned c = 0; c < cg; c++) {
    st = tc5_tmem_use_cta_group(ctas[c].tmem, cg, "tcgen05.cp", diag);
    if (!st) st = tc5_tmem_check_range(ctas[c].tmem, lane0 + lo, hi - lo, col0, ncols, what, diag);
    if (st) return st;
  }
  /* the source: rows x bytes through the descriptor, like a K-major
   * operand of 8-bit elements */
  tc5_operand op;
  tc5_operand_for(TC5_KIND_F8F6F4, TC5_E4M3, TC5_MAJOR_K, &op);
  unsigned bytes = si->bits / 8;
  uint32_t codes[128 * 32];
  for (unsigned c = 0; c < cg; c++) {
    st = tc5_layout_gather(ctas[c].smem, &sd, &op, si->rows, bytes, codes, diag);
    if (st) {
      if (diag && diag->count) {
        tc5_issue *is = &diag->issue[diag->count - 1];
        char tmp[sizeof is->message];
        snprintf(tmp, sizeof tmp, "tcgen05.cp: source (s-desc): %s", is->message);
        memcpy(is->message, tmp, sizeof tmp);
      }
      return st;
    }
    /* in issue order after the MMAs issued before it that write these cells */
    st = tc5__mma_settle(&ctas[0], ctas[c].tmem, lane0 + lo, hi - lo, col0, ncols, diag);
    if (st) return st;
    for (unsigned r = 0; r < si->rows; r++) {
      uint8_t row[32];
      for (unsigned b = 0; b < bytes; b++) row[b] = (uint8_t)codes[r * bytes + b];
      for (unsigned b = 0; a->decompress && b < bytes; b += 16) {
        uint8_t out[16];
        tc5_cp_decompress(a->src_fmt, row + b, out);
        memcpy(row + b, out, 16);
      }
      for (unsigned q = 0; q < si->replicas; q++) {
        uint32_t l;
        tc5_cp_lane(a->shape, r, q, &l);
        for (unsigned j = 0; j < ncols; j++) {
          uint32_t w = (uint32_t)row[4 * j] | (uint32_t)row[4 * j + 1] << 8 | (uint32_t)row[4 * j + 2] << 16 |
                       (uint32_t)row[4 * j + 3] << 24;
          tc5_tmem_poke(ctas[c].tmem, lane0 + l, col0 + j, w);
        }
      }
    }
  }
  return TC5_OK;
}

tc5_status tc5_shift(tc5_cta *ctas, unsigned nctas, unsigned cta_group, uint32_t taddr, tc5_diag *diag) {
  if (!ctas) return TC5_EINVAL;
  unsigned cg = cta_group;
  if ((cg != 1 && cg != 2) || nctas != cg)
    return tc5_diag_add(diag, TC5_EINVAL, "cta_group", cg, "tcgen05.shift: .cta_group::%u needs %u CTA%s, %u given", cg,
                        cg, cg == 2 ? "s (a pair)" : "", nctas);
  uint32_t lane0 = TC5_TMEM_LANE(taddr), col0 = TC5_TMEM_COL(taddr);
  if (lane0 % 32)
    return tc5_diag_add(diag, TC5_EALIGN, "taddr", taddr,
                        "tcgen05.shift: taddr lane %u: the lane must be aligned to 32 (9.7.16.9.3)", lane0);
  for (unsigned c = 0; c < cg; c++) {
    if (!ctas[c].tmem) return TC5_EINVAL;
    tc5_status st = tc5_tmem_use_cta_group(ctas[c].tmem, cg, "tcgen05.shift", diag);
    if (!st) st = tc5_tmem_check_range(ctas[c].tmem, lane0, 32, col0, 8, "tcgen05.shift (31x256b)", diag);
    if (!st) st = tc5__mma_settle(&ctas[0], ctas[c].tmem, lane0, 32, col0, 8, diag);
    if (st) return st;
  }
  for (unsigned c = 0; c < cg; c++) {
    tc5_tmem *t = ctas[c].tmem;
    for (unsigned r = 31; r-- > 0;)
      for (unsigned j = 0; j < 8; j++) {
        size_t from = (size_t)(lane0 + r) * TC5_TMEM_COLS + col0 + j, to = from + TC5_TMEM_COLS;
        t->cells[to] = t->cells[from];
        t->written[to] = t->written[from];
      }
  }
  return TC5_OK;
}
