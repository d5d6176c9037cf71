/* tc5 — attention-score masks as intervals and bitmasks (see
 * include/tc5/mask.h and ../shared/spec/sm90-r2p-masking-notes.md). */
#include <string.h>

#include "util/strbuf.h"
#include "tc5/mask.h"

tc5_status tc5_mask_spec_init(tc5_mask_spec *s, int32_t seqlen_q, int32_t seqlen_k) {
  if (!s) return TC5_EINVAL;
  memset(s, 0, sizeof *s);
  s->seqlen_q = seqlen_q;
  s->seqlen_k = seqlen_k;
  s->window_left = s->window_right = TC5_MASK_UNBOUNDED;
  s->offset = seqlen_k - seqlen_q;
  return TC5_OK;
}

tc5_status tc5_mask_spec_check(const tc5_mask_spec *s, tc5_diag *diag) {
  if (!s) return TC5_EINVAL;
  tc5_status st = TC5_OK;
  if (s->seqlen_q < 0)
    st = tc5_diag_add(diag, TC5_ERANGE, "seqlen_q", (uint64_t)(int64_t)s->seqlen_q,
                      "mask: query length %d is negative", s->seqlen_q);
  if (s->seqlen_k < 0)
    st = tc5_diag_add(diag, TC5_ERANGE, "seqlen_k", (uint64_t)(int64_t)s->seqlen_k,
                      "mask: key length %d is negative", s->seqlen_k);
  if (s->local && s->window_left < TC5_MASK_UNBOUNDED)
    st = tc5_diag_add(diag, TC5_ERANGE, "window_left", (uint64_t)(int64_t)s->window_left,
                      "mask: left window %d is neither >= 0 nor unbounded (-1)", s->window_left);
  if (s->local && s->window_right < TC5_MASK_UNBOUNDED)
    st = tc5_diag_add(diag, TC5_ERANGE, "window_right", (uint64_t)(int64_t)s->window_right,
                      "mask: right window %d is neither >= 0 nor unbounded (-1)", s->window_right);
  if (s->causal && s->local)
    st = tc5_diag_add(diag, TC5_EILLEGAL, "causal", 1,
                      "mask: causal and local together; causal is the local window "
                      "(unbounded, 0)");
  return st;
}

tc5_status tc5_mask_allowed(const tc5_mask_spec *s, int64_t i, int64_t j, bool *allowed) {
  if (!s || !allowed) return TC5_EINVAL;
  tc5_status st = tc5_mask_spec_check(s, NULL);
  if (st) return st;
  bool ok = i >= 0 && i < s->seqlen_q && j >= 0 && j < s->seqlen_k;
  if (s->causal) ok = ok && j <= i + s->offset;
  if (s->local && s->window_left >= 0) ok = ok && j >= i + s->offset - s->window_left;
  if (s->local && s->window_right >= 0) ok = ok && j <= i + s->offset + s->window_right;
  *allowed = ok;
  return TC5_OK;
}

/* [lo, hi) of row i, no checks */
static void range(const tc5_mask_spec *s, int64_t i, int64_t *lo, int64_t *hi) {
  int64_t a = 0, b = s->seqlen_k;
  if (i < 0 || i >= s->seqlen_q) b = 0;
  if (s->causal && i + s->offset + 1 < b) b = i + s->offset + 1;
  if (s->local && s->window_left >= 0 && i + s->offset - s->window_left > a)
    a = i + s->offset - s->window_left;
  if (s->local && s->window_right >= 0 && i + s->offset + s->window_right + 1 < b)
    b = i + s->offset + s->window_right + 1;
  if (b < a) b = a;
  *lo = a;
  *hi = b;
}

tc5_status tc5_mask_row_range(const tc5_mask_spec *s, int64_t i, int64_t *lo, int64_t *hi) {
  if (!s || !lo || !hi) return TC5_EINVAL;
  tc5_status st = tc5_mask_spec_check(s, NULL);
  if (st) return st;
  range(s, i, lo, hi);
  return TC5_OK;
}

const char *tc5_tile_class_name(tc5_tile_class c) {
  return c == TC5_TILE_EMPTY ? "empty" : c == TC5_TILE_PARTIAL ? "partial" : c == TC5_TILE_FULL ? "full" : "?";
}

tc5_status tc5_mask_tile(const tc5_mask_spec *s, int64_t m0, uint32_t tm, int64_t n0, uint32_t tn,
                         tc5_tile_class *cls) {
  if (!s || !cls || tm == 0 || tn == 0) return TC5_EINVAL;
  tc5_status st = tc5_mask_spec_check(s, NULL);
  if (st) return st;
  bool any = false, all = true;
  for (uint32_t r = 0; r < tm; r++) {
    int64_t lo, hi;
    range(s, m0 + r, &lo, &hi);
    int64_t a = lo > n0 ? lo : n0, b = hi < n0 + tn ? hi : n0 + tn;
    if (b > a) any = true;
    if (lo > n0 || hi < n0 + (int64_t)tn) all = false;
  }
  *cls = all ? TC5_TILE_FULL : any ? TC5_TILE_PARTIAL : TC5_TILE_EMPTY;
  return TC5_OK;
}

/* bits [0, x) set, x clamped to [0, 32] */
static uint32_t below(int64_t x) {
  if (x <= 0) return 0;
  if (x >= 32) return 0xFFFFFFFFu;
  return (1u << x) - 1u;
}

/* words covering fragment/column indices [a, b) */
static void fill_bits(int64_t a, int64_t b, uint32_t nwords, uint32_t *words) {
  for (uint32_t w = 0; w < nwords; w++) words[w] = below(b - 32 * (int64_t)w) & ~below(a - 32 * (int64_t)w);
}

tc5_status tc5_mask_row_bits(const tc5_mask_spec *s, int64_t i, int64_t n0, uint32_t nwords,
                             uint32_t *words) {
  if (!s || !words || nwords == 0 || nwords > 64) return TC5_EINVAL;
  tc5_status st = tc5_mask_spec_check(s, NULL);
  if (st) return st;
  int64_t lo, hi;
  range(s, i, &lo, &hi);
  fill_bits(lo - n0, hi - n0, nwords, words);
  return TC5_OK;
}

/* fragment elements of lane group q (columns 8g + 2q, 8g + 2q + 1) whose
 * column, relative to the tile, is below L: the limit transformed */
static int64_t frag_below(int64_t L, uint32_t q, uint32_t n) {
  int64_t l = L - 2 * (int64_t)q;
  if (l <= 0) return 0;
  int64_t c = 2 * (l / 8) + (l % 8 < 2 ? l % 8 : 2);
  return c < n / 4 ? c : n / 4;
}

tc5_status tc5_mask_row_bits_sm90(const tc5_mask_spec *s, int64_t i, int64_t n0, uint32_t n,
                                  uint32_t q, uint32_t *words) {
  if (!s || !words || q > 3 || n == 0 || n % 8 || n > 256) return TC5_EINVAL;
  tc5_status st = tc5_mask_spec_check(s, NULL);
  if (st) return st;
  int64_t lo, hi;
  range(s, i, &lo, &hi);
  fill_bits(frag_below(lo - n0, q, n), frag_below(hi - n0, q, n), (n / 4 + 31) / 32, words);
  return TC5_OK;
}

tc5_status tc5_mask_apply(const uint32_t *words, uint32_t n, uint32_t *scores) {
  if (!words || (n && !scores)) return TC5_EINVAL;
  for (uint32_t e = 0; e < n; e++) {
    uint32_t keep = 0u - ((words[e / 32] >> (e % 32)) & 1u);
    scores[e] = (scores[e] & keep) | (0xFF800000u & ~keep);
  }
  return TC5_OK;
}

tc5_status tc5_mask_render(const tc5_mask_spec *s, int64_t m0, uint32_t tm, int64_t n0, uint32_t tn,
                           bool svg, char *buf, size_t cap, size_t *needed, tc5_diag *diag) {
  if (!s || (!buf && cap)) return TC5_EINVAL;
  tc5_status st = tc5_mask_spec_check(s, diag);
  if (st) return st;
  if (tm == 0 || tn == 0 || tm > 512 || tn > 512)
    return tc5_diag_add(diag, TC5_ERANGE, "tile", (uint64_t)tm << 32 | tn,
                        "mask: tiles are drawn up to 512 x 512, not %u x %u", tm, tn);
  tc5_tile_class cls;
  tc5_mask_tile(s, m0, tm, n0, tn, &cls);
  tc5_sb sb;
  tc5_sb_init(&sb);
  const char *what = s->causal ? "causal" : s->local ? "local" : "lengths only";
  if (!svg) {
    tc5_sb_printf(&sb, "tile rows %lld..%lld x columns %lld..%lld: %s (%s, seqlen_q %d, seqlen_k %d, offset %d",
                  (long long)m0, (long long)(m0 + tm - 1), (long long)n0, (long long)(n0 + tn - 1),
                  tc5_tile_class_name(cls), what, s->seqlen_q, s->seqlen_k, s->offset);
    if (s->local) tc5_sb_printf(&sb, ", window %d/%d", s->window_left, s->window_right);
    tc5_sb_puts(&sb, ")\n");
    for (uint32_t r = 0; r < tm; r++) {
      int64_t lo, hi;
      range(s, m0 + r, &lo, &hi);
      tc5_sb_printf(&sb, "%6lld ", (long long)(m0 + r));
      for (uint32_t c = 0; c < tn; c++) {
        if (c && c % 32 == 0) tc5_sb_putc(&sb, ' ');
        int64_t j = n0 + c;
        tc5_sb_putc(&sb, j >= lo && j < hi ? '1' : '.');
      }
      tc5_sb_putc(&sb, '\n');
    }
  } else {
    unsigned px = tn > 128 ? 4 : 8, W = 70 + tn * px + tn / 32 * 2, H = 40 + tm * px;
    tc5_sb_printf(&sb,
                  "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" "
                  "font-family=\"monospace\" font-size=\"10\">\n"
                  "<text x=\"4\" y=\"14\">rows %lld.. x columns %lld..: %s, %s</text>\n",
                  W, H + 10, (long long)m0, (long long)n0, tc5_tile_class_name(cls), what);
    for (uint32_t r = 0; r < tm; r++) {
      int64_t lo, hi;
      range(s, m0 + r, &lo, &hi);
      if (r % 8 == 0)
        tc5_sb_printf(&sb, "<text x=\"4\" y=\"%u\">%lld</text>\n", 30 + r * px + px, (long long)(m0 + r));
      for (uint32_t c = 0; c < tn; c++) {
        int64_t j = n0 + c;
        bool ok = j >= lo && j < hi;
        tc5_sb_printf(&sb, "<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" fill=\"%s\"/>\n",
                      60 + c * px + c / 32 * 2, 30 + r * px, px - 1, px - 1, ok ? "#4daf4a" : "#dddddd");
      }
    }
    tc5_sb_puts(&sb, "</svg>\n");
  }
  return tc5_sb_finish(&sb, buf, cap, needed);
}
