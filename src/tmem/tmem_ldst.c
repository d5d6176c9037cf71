/* tc5 — tcgen05.ld / tcgen05.st between a warp's registers and Tensor
 * Memory (9.7.16.2.3, 9.7.16.8). The fragment layouts are those of CUTLASS's
 * SM100 TMEM copy atoms (include/cute/atom/copy_traits_sm100.hpp): each
 * Copy_Traits<SM100_TMEM_LOAD_*> gives a DstLayout (thread, register bit) ->
 * logical bit and a ValID logical bit -> TMEM bit address (column bits within
 * a lane, lanes at stride TMEM::DP_b); tc5_tmem_frag_cell is the closed form
 * of their composition, and test_tmem.c evaluates the atoms' layouts
 * independently against it. */
#include <string.h>

#include "util/note.h"
#include "spec/spec_tables.h"
#include "tc5/tmem.h"

const char *tc5_tmem_shape_name(tc5_tmem_shape s) {
  const tc5_ldst_shape_info *i = tc5_spec_ldst_shape(s);
  return i ? i->name : "?";
}

tc5_status tc5_tmem_shape_parse(const char *name, tc5_tmem_shape *s) {
  if (!name || !s) return TC5_EINVAL;
  if (*name == '.') name++;
  for (unsigned i = 0; i < TC5_TMEM_NSHAPES; i++)
    if (!strcmp(name, tc5_spec_ldst_shape((tc5_tmem_shape)i)->name)) {
      *s = (tc5_tmem_shape)i;
      return TC5_OK;
    }
  return TC5_EINVAL;
}

static int log2u(uint32_t v) {
  if (!v || (v & (v - 1))) return -1;
  int l = 0;
  while (v >>= 1) l++;
  return l;
}

tc5_status tc5_tmem_ldst_check(const tc5_tmem_ldst *op, bool store, tc5_diag *diag) {
  if (!op) return TC5_EINVAL;
  const char *what = store ? "tcgen05.st" : "tcgen05.ld";
  const tc5_ldst_shape_info *sh = tc5_spec_ldst_shape(op->shape);
  if (!sh)
    return tc5_diag_add(diag, TC5_ERANGE, "shape", (uint64_t)op->shape,
                        "%s: shape %u does not exist (.32x32b, .16x64b, .16x128b, .16x256b, .16x32bx2)", what,
                        (unsigned)op->shape);
  tc5_status first = TC5_OK;
  int lg = log2u(op->num);
  if (lg < 0 || lg > 7)
    tc5__note(&first, tc5_diag_add(diag, TC5_ERANGE, ".num", op->num,
                      "%s: .num .x%u does not exist (.x1, .x2, .x4, ... .x128)", what, op->num));
  else if (!tc5_spec_ldst_regs(sh->regs_class, (unsigned)lg))
    tc5__note(&first, tc5_diag_add(diag, TC5_EILLEGAL, ".num", op->num,
                      "%s: .%s.x%u is NA in Table %u (at most %u registers a thread)", what, sh->name, op->num,
                      store ? 48 : 47, 128));
  if (!sh->split && op->half_split)
    tc5__note(&first, tc5_diag_add(diag, TC5_EILLEGAL, "immHalfSplitoff", op->half_split,
                      "%s: immHalfSplitoff %u is given, but only .16x32bx2 takes one", what, op->half_split));
  if (op->red == TC5_TMEM_RED_NONE) {
    if (op->red_abs || op->red_nan)
      tc5__note(&first, tc5_diag_add(diag, TC5_EILLEGAL, ".red", 0, "%s: .abs/.NaN are qualifiers of tcgen05.ld.red only",
                        what));
  } else if (store) {
    tc5__note(&first, tc5_diag_add(diag, TC5_EILLEGAL, ".red", (uint64_t)op->red, "tcgen05.st has no .red form"));
  } else {
    if (op->red != TC5_TMEM_RED_MIN && op->red != TC5_TMEM_RED_MAX)
      tc5__note(&first, tc5_diag_add(diag, TC5_ERANGE, ".redOp", (uint64_t)op->red, "tcgen05.ld.red: .redOp %u is not .min or .max",
                        (unsigned)op->red));
    if (!sh->red)
      tc5__note(&first, tc5_diag_add(diag, TC5_EILLEGAL, ".shape", (uint64_t)op->shape,
                        "tcgen05.ld.red: .%s is not allowed; .red takes .32x32b or .16x32bx2", sh->name));
    if (op->num < 2)
      tc5__note(&first, tc5_diag_add(diag, TC5_EILLEGAL, ".num", op->num,
                        "tcgen05.ld.red: .num .x%u: with .red, .num must be at least .x2", op->num));
    if (op->pack16)
      tc5__note(&first, tc5_diag_add(diag, TC5_EILLEGAL, ".pack::16b", 1, "tcgen05.ld.red has no .pack::16b form"));
    if ((unsigned)op->red_type > TC5_TMEM_RED_S32)
      tc5__note(&first, tc5_diag_add(diag, TC5_ERANGE, ".type", (uint64_t)op->red_type,
                        "tcgen05.ld.red: type %u is not .f32, .u32 or .s32", (unsigned)op->red_type));
    else if (op->red_type != TC5_TMEM_RED_F32 && (op->red_abs || op->red_nan))
      tc5__note(&first, tc5_diag_add(diag, TC5_EILLEGAL, ".type", (uint64_t)op->red_type,
                        "tcgen05.ld.red: .abs and .NaN exist for .f32 only, not .%s",
                        op->red_type == TC5_TMEM_RED_U32 ? "u32" : "s32"));
  }
  return first;
}

/* columns a half (or the whole access) spans from its base */
static uint32_t span_cols(const tc5_ldst_shape_info *sh, const tc5_tmem_ldst *op) {
  return sh->bits / 32 * op->num * (op->pack16 ? 2 : 1);
}

tc5_status tc5_tmem_ldst_size(const tc5_tmem_ldst *op, uint32_t *nregs, uint32_t *nlanes, uint32_t *ncols) {
  if (!op) return TC5_EINVAL;
  /* defined for any shape and .num of Tables 47/48, whatever the rest */
  const tc5_ldst_shape_info *sh = tc5_spec_ldst_shape(op->shape);
  int lg = log2u(op->num);
  if (!sh || lg < 0 || lg > 7) return TC5_ERANGE;
  uint32_t regs = tc5_spec_ldst_regs(sh->regs_class, (unsigned)lg);
  if (!regs) return TC5_EILLEGAL;
  uint32_t span = span_cols(sh, op);
  if (nregs) *nregs = regs;
  if (nlanes) *nlanes = sh->lanes;
  if (ncols) *ncols = sh->split && op->half_split + span > span ? op->half_split + span : span;
  return TC5_OK;
}

/* The closed form, for a form already checked (ld/st call it per register
 * of every thread, so the checks are not repeated there). */
static void frag_cell(const tc5_tmem_ldst *op, uint32_t t, uint32_t r, uint32_t *lane, uint32_t *col) {
  uint32_t l, c;
  switch (op->shape) {
    case TC5_TMEM_32x32b: l = t, c = r; break;
    case TC5_TMEM_16x64b: l = t / 4 + 8 * (t % 2), c = 2 * r + (t / 2) % 2; break;
    case TC5_TMEM_16x128b: l = t / 4 + 8 * (r % 2), c = 4 * (r / 2) + t % 4; break;
    case TC5_TMEM_16x256b: l = t / 4 + 8 * ((r / 2) % 2), c = 8 * (r / 4) + 2 * (t % 4) + r % 2; break;
    default: l = t % 16, c = r; break; /* 16x32bx2: the split is added below */
  }
  if (op->pack16) c *= 2;
  if (op->shape == TC5_TMEM_16x32bx2 && t >= 16) c += op->half_split;
  *lane = l;
  *col = c;
}

tc5_status tc5_tmem_frag_cell(const tc5_tmem_ldst *op, uint32_t thread, uint32_t reg, uint32_t *lane,
                              uint32_t *col, uint32_t *ncols) {
  uint32_t nregs;
  tc5_status st = tc5_tmem_ldst_size(op, &nregs, NULL, NULL);
  if (st) return st;
  if (thread >= 32 || reg >= nregs || !lane || !col) return TC5_EINVAL;
  frag_cell(op, thread, reg, lane, col);
  if (ncols) *ncols = op->pack16 ? 2 : 1;
  return TC5_OK;
}

/* ---- the access: form, restriction, range ---- */

static tc5_status access_rules(const tc5_tmem *t, const tc5_tmem_ldst *op, bool store, uint32_t warp,
                               uint32_t taddr, uint32_t *nregs, tc5_diag *diag) {
  const char *what = store ? "tcgen05.st" : "tcgen05.ld";
  if (!t || !t->cells) return TC5_EINVAL;
  tc5_status st = tc5_tmem_ldst_check(op, store, diag);
  if (st) return st;
  uint32_t nlanes;
  tc5_tmem_ldst_size(op, nregs, &nlanes, NULL);
  const tc5_ldst_shape_info *sh = tc5_spec_ldst_shape(op->shape);
  uint32_t lane0 = TC5_TMEM_LANE(taddr), col0 = TC5_TMEM_COL(taddr), wq = warp % 4;
  /* 9.7.16.8.1: warp w of a warpgroup reaches lanes 32w .. 32w + 31 */
  for (uint32_t l = lane0; l < lane0 + nlanes; l++)
    if (l / 32 != wq)
      return tc5_diag_add(diag, TC5_EACCESS, "lane", l,
                          "%s: warp %u (warp %u of its warpgroup) accesses lane %u; it may access lanes %u-%u "
                          "only (9.7.16.8.1 access restrictions)",
                          what, warp, wq, l, 32 * wq, 32 * wq + 31);
  uint32_t span = span_cols(sh, op);
  st = tc5_tmem_check_range(t, lane0, nlanes, col0, span, what, diag);
  if (!st && sh->split) st = tc5_tmem_check_range(t, lane0, nlanes, col0 + op->half_split, span, what, diag);
  return st;
}

static tc5_status uninit_report(tc5_diag *diag, const char *what, uint64_t n, uint32_t lane, uint32_t col,
                                bool high) {
  return tc5_diag_add(diag, TC5_EUNINIT, "cell", TC5_TMEM_ADDR(lane, col),
                      "%s: %llu cell%s read never written; first: lane %u column %u%s", what,
                      (unsigned long long)n, n == 1 ? "" : "s", lane, col,
                      high ? " (its high 16 bits: an .unpack::16b store writes only the low 16)" : "");
}

tc5_status tc5_tmem_ld(const tc5_tmem *t, const tc5_tmem_ldst *op, uint32_t warp, uint32_t taddr,
                       uint32_t *regs, uint32_t *redval, tc5_diag *diag) {
  if (!op || !regs || (op->red != TC5_TMEM_RED_NONE && !redval)) return TC5_EINVAL;
  uint32_t nregs;
  tc5_status st = access_rules(t, op, false, warp, taddr, &nregs, diag);
  if (st) return st;
  uint32_t lane0 = TC5_TMEM_LANE(taddr), col0 = TC5_TMEM_COL(taddr);
  uint64_t bad = 0;
  uint32_t bl = 0, bc = 0;
  bool bhigh = false;
  for (uint32_t th = 0; th < 32; th++) {
    for (uint32_t r = 0; r < nregs; r++) {
      uint32_t l, c;
      frag_cell(op, th, r, &l, &c);
      size_t i = (size_t)(lane0 + l) * TC5_TMEM_COLS + col0 + c;
      uint32_t v;
      if (!op->pack16) {
        v = t->cells[i];
        if (t->written[i] != 3 && t->uninit) {
          tc5_uninit_note(t->uninit, true, TC5_TMEM_ADDR(lane0 + l, col0 + c));
        } else if (t->written[i] != 3) {
          if (!bad++) bl = lane0 + l, bc = col0 + c, bhigh = t->written[i] == 1;
          v &= (t->written[i] & 1 ? 0xFFFFu : 0) | (t->written[i] & 2 ? 0xFFFF0000u : 0);
        }
      } else {
        uint32_t lo = t->written[i] & 1 || t->uninit ? t->cells[i] & 0xFFFFu : 0;
        uint32_t hi = t->written[i + 1] & 1 || t->uninit ? t->cells[i + 1] & 0xFFFFu : 0;
        for (uint32_t j = 0; j < 2; j++)
          if (!(t->written[i + j] & 1) && t->uninit) tc5_uninit_note(t->uninit, true, TC5_TMEM_ADDR(lane0 + l, col0 + c + j));
          else if (!(t->written[i + j] & 1) && !bad++) bl = lane0 + l, bc = col0 + c + j, bhigh = false;
        v = lo | hi << 16;
      }
      regs[th * nregs + r] = v;
    }
    if (op->red != TC5_TMEM_RED_NONE) tc5_tmem_reduce(op, &regs[th * nregs], nregs, &redval[th]);
  }
  if (bad) return uninit_report(diag, "tcgen05.ld", bad, bl, bc, bhigh);
  return TC5_OK;
}

tc5_status tc5_tmem_st(tc5_tmem *t, const tc5_tmem_ldst *op, uint32_t warp, uint32_t taddr,
                       const uint32_t *regs, tc5_diag *diag) {
  if (!op || !regs) return TC5_EINVAL;
  uint32_t nregs;
  tc5_status st = access_rules(t, op, true, warp, taddr, &nregs, diag);
  if (st) return st;
  uint32_t lane0 = TC5_TMEM_LANE(taddr), col0 = TC5_TMEM_COL(taddr);
  /* threads in order: where the halves of .16x32bx2 overlap, 16-31 win */
  for (uint32_t th = 0; th < 32; th++)
    for (uint32_t r = 0; r < nregs; r++) {
      uint32_t l, c, v = regs[th * nregs + r];
      frag_cell(op, th, r, &l, &c);
      size_t i = (size_t)(lane0 + l) * TC5_TMEM_COLS + col0 + c;
      if (!op->pack16) {
        t->cells[i] = v;
        t->written[i] = 3;
      } else {
        t->cells[i] = v & 0xFFFFu;
        t->cells[i + 1] = v >> 16;
        t->written[i] = t->written[i + 1] = 1;
      }
    }
  return TC5_OK;
}

/* ---- tcgen05.ld.red ---- */

static bool is_nan(uint32_t v) { return (v & 0x7F800000u) == 0x7F800000u && (v & 0x7FFFFFu); }

/* total order on non-NaN f32 bit patterns with -0 < +0 */
static int64_t f32_key(uint32_t v) { return v >> 31 ? -(int64_t)(v & 0x7FFFFFFFu) - 1 : (int64_t)v; }

tc5_status tc5_tmem_reduce(const tc5_tmem_ldst *op, const uint32_t *v, uint32_t n, uint32_t *out) {
  if (!op || !v || !n || !out) return TC5_EINVAL;
  bool mx = op->red == TC5_TMEM_RED_MAX;
  if (op->red != TC5_TMEM_RED_MIN && !mx) return TC5_EINVAL;
  switch (op->red_type) {
    case TC5_TMEM_RED_U32: {
      uint32_t a = v[0];
      for (uint32_t i = 1; i < n; i++) a = mx ? (v[i] > a ? v[i] : a) : (v[i] < a ? v[i] : a);
      *out = a;
      return TC5_OK;
    }
    case TC5_TMEM_RED_S32: {
      int32_t a = (int32_t)v[0];
      for (uint32_t i = 1; i < n; i++) {
        int32_t x = (int32_t)v[i];
        a = mx ? (x > a ? x : a) : (x < a ? x : a);
      }
      *out = (uint32_t)a;
      return TC5_OK;
    }
    case TC5_TMEM_RED_F32: {
      bool have = false, nan = false;
      uint32_t a = 0;
      for (uint32_t i = 0; i < n; i++) {
        uint32_t x = op->red_abs ? v[i] & 0x7FFFFFFFu : v[i];
        if (is_nan(x)) {
          nan = true;
          continue;
        }
        if (!have || (mx ? f32_key(x) > f32_key(a) : f32_key(x) < f32_key(a))) a = x;
        have = true;
      }
      *out = (!have || (nan && op->red_nan)) ? 0x7FFFFFFFu : a;
      return TC5_OK;
    }
    default: return TC5_EINVAL;
  }
}
