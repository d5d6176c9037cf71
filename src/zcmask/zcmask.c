/* tc5 — zero-column mask generation, explanation and synthesis
 * (spec 9.7.16.4.3; semantics as in the header and the README).
 *
 * Model used by the fast generator and the synthesiser: with A = Skip Span
 * + 1 (ones), B = Use Span + 1 (zeros) and P = A + B, the endless pattern is
 * "ones at phases [0, A), zeros at [A, P)". Sub-mask i starts at phase
 * c_i = (sc_i + (fs_i ? 0 : A)) mod P, so column j of the sub-mask is
 * ((j + c_i) mod P) < A. */
#include <stdio.h>
#include <string.h>

#include "util/strbuf.h"
#include "tc5/zcmask.h"
#include "zcmask/zcmask_impl.h"

unsigned tc5_zcmask_submasks(unsigned m) {
  switch (m) {
  case 128: return 1;
  case 64: return 2;
  case 32: return 4;
  default: return 0;
  }
}

/* Argument and descriptor checks shared by both generators. */
static tc5_status check_args(const tc5_zcmask_desc *d, unsigned m, unsigned n,
                             const tc5_colmask *out, tc5_diag *diag) {
  if (!d || !out) return TC5_EINVAL;
  unsigned subs = tc5_zcmask_submasks(m);
  if (!subs)
    return tc5_diag_add(diag, TC5_EINVAL, "M", m,
                        "zcmask: M %u has no zero-column mask (M = 32, 64 or 128, "
                        "tcgen05.mma.ws)", m);
  if (n == 0 || n > TC5_ZCMASK_MAX_N || (n & (subs - 1))) /* subs is 1, 2 or 4 */
    return tc5_diag_add(diag, TC5_ERANGE, "N", n,
                        "zcmask: N %u must be 1..%u and divisible by the %u "
                        "sub-masks of M = %u", n, TC5_ZCMASK_MAX_N, subs, m);
  /* fast path: a valid descriptor needs no message formatting */
  unsigned lim = m == 32 ? 16 : 32;
  if (d->reserved_36_38 | d->reserved_62_63 | (d->non_zero > 1) | (d->column_shift > lim) |
      (d->first_span[0] > 1) | (d->first_span[1] > 1) | (d->first_span[2] > 1) |
      (d->first_span[3] > 1))
    return tc5_zcmask_desc_check(d, m, diag);
  return TC5_OK;
}

/* ORs the low `len` bits of `chunk` into the mask at bit offset `off`. */
static inline void put_bits(uint64_t *w, unsigned off, uint64_t chunk, unsigned len) {
  if (len < 64) chunk &= (1ull << len) - 1;
  unsigned wi = off >> 6, sh = off & 63;
  w[wi] |= chunk << sh;
  if (sh && sh + len > 64) w[wi + 1] |= chunk >> (64 - sh);
}

/* bits [0, k) of a word, k in [0, 64]: a table, so that chunks need no
 * branches (random descriptors would mispredict every one) */
#define LB(k) ((k) >= 64 ? ~0ull : (1ull << ((k) & 63)) - 1)
#define LB8(b) LB(b), LB(b + 1), LB(b + 2), LB(b + 3), LB(b + 4), LB(b + 5), LB(b + 6), LB(b + 7)
static const uint64_t lowtab[65] = {LB8(0), LB8(8), LB8(16), LB8(24), LB8(32),
                                    LB8(40), LB8(48), LB8(56), LB(64)};
static inline uint64_t low_bits(unsigned k) { return lowtab[k]; }

/* 64 % p for p in [1, 71] (index p; index 0 unused) */
#define MOD64(p) (uint8_t)(64 % ((p) ? (p) : 1))
#define M8(b) MOD64(b), MOD64(b + 1), MOD64(b + 2), MOD64(b + 3), MOD64(b + 4), \
              MOD64(b + 5), MOD64(b + 6), MOD64(b + 7)
static const uint8_t mod64[72] = {M8(0), M8(8), M8(16), M8(24), M8(32), M8(40), M8(48),
                                  M8(56), M8(64)};

/* x mod p for x < 512 and 2 <= p <= 512, by multiplying with a reciprocal:
 * with r = ceil(2^24 / p), floor(x * r / 2^24) = floor(x / p) because the
 * error x * (r - 2^24/p) / 2^24 < 512 / 2^24 < 1/p. No branch, no division. */
#define RCP(p) (uint32_t)(((1u << 24) + (p) - 1) / ((p) ? (p) : 1))
#define RCP8(b) RCP(b), RCP(b + 1), RCP(b + 2), RCP(b + 3), RCP(b + 4), RCP(b + 5), \
                RCP(b + 6), RCP(b + 7)
#define RCP64(b) RCP8(b), RCP8(b + 8), RCP8(b + 16), RCP8(b + 24), RCP8(b + 32), \
                 RCP8(b + 40), RCP8(b + 48), RCP8(b + 56)
static const uint32_t rcp[520] = {RCP64(0),   RCP64(64),  RCP64(128), RCP64(192),
                                  RCP64(256), RCP64(320), RCP64(384), RCP64(448),
                                  RCP8(512)};

static inline unsigned mod_small(unsigned x, unsigned p) {
  unsigned q = (unsigned)(((uint64_t)x * rcp[p]) >> 24);
  return x - q * p;
}

/* The mask proper. Small periods (P <= 64): `lo` holds the pattern from
 * phase 0 over 64 bits; lo has period P everywhere, so with L = P * (64 / P)
 * the chunk starting at phase f is (lo >> f) | (lo << (L - f)); the second
 * shift is written (lo << 1) << (L - f - 1) so that f = 0 gives 0, not UB.
 * Large periods (P > 64): a chunk meets at most two runs of ones, phases
 * [0, A) of the current period (chunk offsets [0, A - f)) and of the next
 * one (offsets from P - f >= 1 on: `run` = min(A, 64) ones shifted there).
 * Both are branch-free: random descriptors would mispredict every branch. */
typedef struct pat {
  unsigned a, p, l, step;
  uint64_t lo, run;
} pat;

static inline uint64_t chunk(const pat *t, unsigned f) {
  if (t->p <= 64) return (t->lo >> f) | ((t->lo << 1) << (t->l - f - 1));
  unsigned e1 = t->a > f ? t->a - f : 0, s2 = t->p - f;
  e1 = e1 < 64 ? e1 : 64;
  return lowtab[e1] | (s2 < 64 ? t->run << (s2 & 63) : 0);
}

/* the descriptor's per-sub-mask fields, copied out of the struct so that the
 * stores of the mask (uint64_t) cannot alias them (uint8_t) */
typedef struct sub_fields {
  uint8_t sc[4], fs[4];
} sub_fields;

static inline unsigned phase0(const sub_fields *d, unsigned i, const pat *t) {
  return mod_small(d->sc[i] + (d->fs[i] ? 0u : t->a), t->p);
}

static inline unsigned advance(unsigned f, const pat *t) {
  f += t->step;
  return f >= t->p ? f - t->p : f;
}

/* SUBS sub-masks of s bits, s a multiple of 64: whole words in order */
#define WHOLE_WORDS(SUBS)                                                      \
  static void whole_##SUBS(const sub_fields *d, const pat *t, unsigned s,     \
                           uint64_t *w) {                                      \
    for (unsigned i = 0; i < SUBS; i++) {                                      \
      unsigned f = phase0(d, i, t);                                            \
      for (unsigned k = 0; k < s; k += 64) {                                   \
        *w++ = chunk(t, f);                                                    \
        f = advance(f, t);                                                     \
      }                                                                        \
    }                                                                          \
  }
WHOLE_WORDS(1)
WHOLE_WORDS(2)
WHOLE_WORDS(4)

void tc5__zcmask_words(const tc5_zcmask_desc *d, unsigned lg, unsigned n, tc5_colmask *out) {
  unsigned subs = 1u << lg, s = n >> lg;
  sub_fields sf;
  memcpy(sf.sc, d->start_count, 4);
  memcpy(sf.fs, d->first_span, 4);
  pat t;
  t.a = d->skip_span + 1u;
  t.p = t.a + d->use_span + 1u;
  t.run = lowtab[t.a < 64 ? t.a : 64];
  t.lo = 0;
  t.l = 0;
  t.step = 64;
  if (t.p <= 64) {
    t.lo = (1ull << t.a) - 1; /* a < p <= 64 */
    for (unsigned len = t.p; len < 64; len *= 2) t.lo |= t.lo << len;
    t.step = mod64[t.p];
    t.l = 64 - t.step;
  }
  if ((s & 63) == 0) {
    if (lg == 0) whole_1(&sf, &t, s, out->w);
    else if (lg == 1) whole_2(&sf, &t, s, out->w);
    else whole_4(&sf, &t, s, out->w);
    return;
  }
  if (64 % s == 0) { /* sub-masks of 16 or 32 bits: parts of one word */
    uint64_t keep = lowtab[s];
    for (unsigned i = 0; i < subs; i++)
      out->w[(i * s) >> 6] |= (chunk(&t, phase0(&sf, i, &t)) & keep) << ((i * s) & 63);
    return;
  }
  for (unsigned i = 0; i < subs; i++) { /* any other N */
    unsigned f = phase0(&sf, i, &t);
    for (unsigned j0 = 0; j0 < s; j0 += 64) {
      put_bits(out->w, i * s + j0, chunk(&t, f), s - j0 < 64 ? s - j0 : 64);
      f = advance(f, &t);
    }
  }
}

/* The descriptor's fields that the hot paths test with a few word
 * operations (first spans 0/1, reserved bits 0, Non-Zero Mask 0/1, the
 * column shift within `lim`): false when tc5_zcmask_desc_check must say
 * which rule is broken. */
static inline bool fields_plain(const tc5_zcmask_desc *d, unsigned lim) {
  uint32_t fs;
  memcpy(&fs, d->first_span, 4);
  return !((fs & 0xFEFEFEFEu) | d->reserved_36_38 | d->reserved_62_63 | (d->non_zero > 1) |
           (d->column_shift > lim));
}

/* the mask of a descriptor whose fields are plain, for M = 128 >> lg */
static void fill(const tc5_zcmask_desc *d, unsigned lg, unsigned n, tc5_colmask *out) {
  out->w[0] = out->w[1] = out->w[2] = out->w[3] = 0;
  out->n = n;
  if (d->non_zero) tc5__zcmask_words(d, lg, n, out);
}

tc5_status tc5_zcmask_generate(const tc5_zcmask_desc *d, unsigned m, unsigned n,
                               tc5_colmask *out, tc5_diag *diag) {
  /* hot path: the common valid case is recognised with a few word tests;
   * anything else goes through check_args, which names the rule broken */
  unsigned lg = m == 128 ? 0 : m == 64 ? 1 : m == 32 ? 2 : 3;
  if (!d || !out || lg == 3 || n - 1u >= TC5_ZCMASK_MAX_N || (n & ((1u << lg) - 1)) ||
      !fields_plain(d, lg == 2 ? 16u : 32u)) {
    tc5_status st = check_args(d, m, n, out, diag);
    if (st != TC5_OK) return st;
  }
  fill(d, lg, n, out);
  return TC5_OK;
}

tc5_status tc5_zcmask_generate_many(const tc5_zcmask_desc *d, size_t count,
                                    unsigned m, unsigned n, tc5_colmask *out,
                                    size_t *done, tc5_diag *diag) {
  if (done) *done = 0;
  if (!d || !out) return TC5_EINVAL;
  if (count == 0) return TC5_OK;
  tc5_status st = check_args(d, m, n, out, diag); /* M, N and d[0] */
  if (st != TC5_OK) return st;
  unsigned lg = m == 128 ? 0 : m == 64 ? 1 : 2;
  unsigned lim = lg == 2 ? 16u : 32u;
  /* eight at a time in vector lanes where N is a whole number of words and
   * the sub-masks at least 16 columns (tc5__zcmask_gen8 declines a block
   * with a descriptor that is not plain); one at a time elsewhere */
  bool wide = n % 64 == 0 && (n >> lg) >= 16;
  for (size_t i = 0; i < count;) {
    if (wide && count - i >= 8 && tc5__zcmask_gen8(&d[i], lg, n, &out[i])) {
      i += 8;
      continue;
    }
    if (!fields_plain(&d[i], lim)) {
      if (done) *done = i;
      return tc5_zcmask_desc_check(&d[i], m, diag);
    }
    fill(&d[i], lg, n, &out[i]);
    i++;
  }
  if (done) *done = count;
  return TC5_OK;
}

tc5_status tc5_zcmask_generate_reference(const tc5_zcmask_desc *d, unsigned m,
                                         unsigned n, tc5_colmask *out, tc5_diag *diag) {
  tc5_status st = check_args(d, m, n, out, diag);
  if (st != TC5_OK) return st;
  memset(out->w, 0, sizeof out->w);
  out->n = n;
  if (!d->non_zero) return TC5_OK; /* Non-Zero Mask = 0: all columns used */
  unsigned subs = tc5_zcmask_submasks(m), s = n / subs;
  for (unsigned i = 0; i < subs; i++) {
    /* the pattern begins with a run of First Span's value ... */
    unsigned value = d->first_span[i];
    unsigned left = value ? d->skip_span + 1u : d->use_span + 1u;
    /* ... and Start Count of its bits are skipped before column 0 */
    for (unsigned t = 0; t < d->start_count[i] + s; t++) {
      if (t >= d->start_count[i] && value) {
        unsigned col = i * s + (t - d->start_count[i]);
        out->w[col >> 6] |= 1ull << (col & 63);
      }
      if (--left == 0) {
        value ^= 1u;
        left = value ? d->skip_span + 1u : d->use_span + 1u;
      }
    }
  }
  return TC5_OK;
}

/* ---- synthesis ------------------------------------------------------------ */

typedef struct cons {
  unsigned a_pin, b_pin; /* exact run lengths forced by interior runs (0: none) */
  unsigned a_lb, b_lb;   /* lower bounds from runs cut by a window edge        */
  unsigned bad_col;      /* column where a contradiction shows                 */
  const char *why;
} cons;

/* Constraints from columns [0, k) of the wanted mask. A sub-mask is a window
 * on the pattern: its first and last runs may be cut, the runs between are
 * whole and so fix A (ones) or B (zeros) exactly. */
static bool analyze(const tc5_colmask *w, unsigned subs, unsigned k, cons *c) {
  memset(c, 0, sizeof *c);
  unsigned s = w->n / subs;
  for (unsigned i = 0; i < subs; i++) {
    unsigned lo = i * s, hi = (i + 1) * s < k ? (i + 1) * s : k;
    if (lo >= hi) break;
    unsigned j = lo;
    while (j < hi) {
      unsigned v = tc5_colmask_bit(w, j), e = j;
      while (e < hi && tc5_colmask_bit(w, e) == v) e++;
      unsigned len = e - j;
      bool edge = (j == lo) || (e == hi);
      unsigned *pin = v ? &c->a_pin : &c->b_pin;
      unsigned *lb = v ? &c->a_lb : &c->b_lb;
      if (edge) {
        if (len > *lb) *lb = len;
      } else if (*pin && *pin != len) {
        c->why = v ? "two whole runs of zeroed columns differ in length (Skip Span is one value)"
                   : "two whole runs of used columns differ in length (Use Span is one value)";
        return false;
      } else {
        *pin = len;
      }
      if (c->a_pin && c->a_lb > c->a_pin) {
        c->why = "a run of zeroed columns is longer than Skip Span + 1 fixed by a whole run";
        return false;
      }
      if (c->b_pin && c->b_lb > c->b_pin) {
        c->why = "a run of used columns is longer than Use Span + 1 fixed by a whole run";
        return false;
      }
      j = e;
    }
  }
  return true;
}

tc5_status tc5_zcmask_synthesize(unsigned m, const tc5_colmask *wanted, unsigned shift,
                                 tc5_zcmask_desc *out, unsigned *first_bad, tc5_diag *diag) {
  if (!wanted || !out) return TC5_EINVAL;
  unsigned subs = tc5_zcmask_submasks(m), n = wanted->n;
  if (!subs)
    return tc5_diag_add(diag, TC5_EINVAL, "M", m,
                        "zcmask: M %u has no zero-column mask (M = 32, 64 or 128)", m);
  if (n == 0 || n > TC5_ZCMASK_MAX_N || n % subs)
    return tc5_diag_add(diag, TC5_ERANGE, "N", n,
                        "zcmask: N %u must be 1..%u and divisible by %u", n,
                        TC5_ZCMASK_MAX_N, subs);
  unsigned lim = m == 32 ? 16 : 32;
  if (shift > lim)
    return tc5_diag_add(diag, TC5_ERANGE, "column shift", shift,
                        "zcmask: column shift %u exceeds the maximum shift amount %u "
                        "for M = %u (Table 45)", shift, lim, m);
  tc5_zcmask_desc d;
  tc5_zcmask_desc_init(&d);
  d.column_shift = (uint8_t)shift;
  bool any = false;
  for (unsigned i = 0; i < 4; i++) any |= wanted->w[i] != 0;
  if (!any) { /* Non-Zero Mask = 0 */
    *out = d;
    return TC5_OK;
  }
  cons c;
  if (!analyze(wanted, subs, n, &c)) {
    /* the longest prefix of columns some descriptor can produce */
    unsigned lo = 0, hi = n; /* feasible(lo), !feasible(hi) */
    cons t;
    while (hi - lo > 1) {
      unsigned mid = (lo + hi) / 2;
      if (analyze(wanted, subs, mid, &t)) lo = mid;
      else hi = mid;
    }
    analyze(wanted, subs, hi, &t);
    if (first_bad) *first_bad = hi - 1;
    return tc5_diag_add(diag, TC5_ENOTREPR, "mask", hi - 1,
                        "zcmask: the mask is not representable: no descriptor "
                        "matches columns 0..%u (%s)", hi - 1, t.why ? t.why : "?");
  }
  unsigned a = c.a_pin ? c.a_pin : (c.a_lb ? c.a_lb : 1);
  unsigned b = c.b_pin ? c.b_pin : (c.b_lb ? c.b_lb : 1);
  d.non_zero = 1;
  d.skip_span = (uint8_t)(a - 1);
  d.use_span = (uint8_t)(b - 1);
  unsigned s = n / subs;
  for (unsigned i = 0; i < subs; i++) {
    unsigned v = tc5_colmask_bit(wanted, i * s), r = 0;
    while (r < s && tc5_colmask_bit(wanted, i * s + r) == v) r++;
    /* start inside the first run, r bits before its end */
    d.first_span[i] = (uint8_t)v;
    d.start_count[i] = (uint8_t)((v ? a : b) - r);
  }
  tc5_colmask got;
  tc5_zcmask_generate(&d, m, n, &got, NULL);
  for (unsigned j = 0; j < n; j++) {
    if (tc5_colmask_bit(&got, j) != tc5_colmask_bit(wanted, j)) {
      if (first_bad) *first_bad = j;
      return tc5_diag_add(diag, TC5_ENOTREPR, "mask", j,
                          "zcmask: internal: synthesised descriptor differs at column %u", j);
    }
  }
  *out = d;
  return TC5_OK;
}

tc5_status tc5_zcmask_check_shift(const tc5_zcmask_desc *d, const tc5_idesc *id,
                                  tc5_diag *diag) {
  if (!d || !id) return TC5_EINVAL;
  unsigned cols = tc5_idesc_max_shift_columns(id->max_shift);
  if (d->column_shift > cols)
    return tc5_diag_add(diag, TC5_EILLEGAL, "column shift", d->column_shift,
                        "zcmask: column shift %u exceeds the instruction descriptor's "
                        ".ws maximum shift (%s; Table 42 bits 30-31)", d->column_shift,
                        cols ? (cols == 8 ? "8 columns" : cols == 16 ? "16 columns" : "32 columns")
                             : "no shift");
  return TC5_OK;
}

/* ---- the convolution's mask ------------------------------------------------ */

tc5_status tc5_zcmask_conv(unsigned q, unsigned pad, unsigned col0, unsigned tap, unsigned n,
                           tc5_colmask *out, tc5_diag *diag) {
  if (!out) return TC5_EINVAL;
  if (q == 0)
    return tc5_diag_add(diag, TC5_ERANGE, "q", q, "zcmask conv: the output row width q must be at least 1");
  if (n == 0 || n > TC5_ZCMASK_MAX_N)
    return tc5_diag_add(diag, TC5_ERANGE, "n", n, "zcmask conv: N %u is outside 1..%u", n, TC5_ZCMASK_MAX_N);
  memset(out, 0, sizeof *out);
  out->n = n;
  for (unsigned j = 0; j < n; j++) {
    long long w = (long long)((col0 + j) % q) + tap - pad; /* input pixel in its row */
    if (w < 0 || w >= (long long)q) out->w[j >> 6] |= 1ull << (j & 63);
  }
  return TC5_OK;
}

/* ---- text ------------------------------------------------------------------ */

tc5_status tc5_colmask_format(const tc5_colmask *m, char one, char zero, char *buf,
                              size_t cap, size_t *needed) {
  if (!m || m->n > TC5_ZCMASK_MAX_N) return TC5_EINVAL;
  tc5_sb b;
  tc5_sb_init(&b);
  for (unsigned j = 0; j < m->n; j++) tc5_sb_putc(&b, tc5_colmask_bit(m, j) ? one : zero);
  return tc5_sb_finish(&b, buf, cap, needed);
}

tc5_status tc5_colmask_parse(const char *text, tc5_colmask *m) {
  if (!text || !m) return TC5_EINVAL;
  memset(m, 0, sizeof *m);
  unsigned n = 0;
  for (const char *p = text; *p; p++) {
    if (*p == '_' || *p == ' ') continue;
    if (*p != '0' && *p != '1' && *p != '.') return TC5_EPARSE;
    if (n >= TC5_ZCMASK_MAX_N) return TC5_ERANGE;
    if (*p == '1') m->w[n >> 6] |= 1ull << (n & 63);
    n++;
  }
  if (n == 0) return TC5_EPARSE;
  m->n = n;
  return TC5_OK;
}

static void draw_rows(tc5_sb *b, const tc5_colmask *mk, unsigned lo, unsigned hi,
                      const char *label) {
  for (unsigned r = lo; r < hi; r += 64) {
    unsigned e = r + 64 < hi ? r + 64 : hi;
    tc5_sb_printf(b, "    %-9s", "");
    for (unsigned j = r; j < e; j++) tc5_sb_putc(b, (j % 10 == 0) ? (char)('0' + (j / 10) % 10) : ' ');
    tc5_sb_printf(b, "\n    %-9s", "");
    for (unsigned j = r; j < e; j++) tc5_sb_putc(b, (char)('0' + j % 10));
    tc5_sb_printf(b, "\n    %-9s", r == lo ? label : "");
    for (unsigned j = r; j < e; j++) tc5_sb_putc(b, tc5_colmask_bit(mk, j) ? '1' : '.');
    tc5_sb_printf(b, "   columns %u..%u\n", r, e - 1);
  }
}

tc5_status tc5_zcmask_explain(const tc5_zcmask_desc *d, unsigned m, unsigned n, char *buf,
                              size_t cap, size_t *needed) {
  tc5_colmask mk;
  tc5_status st = tc5_zcmask_generate(d, m, n, &mk, NULL);
  if (st != TC5_OK) return st;
  unsigned subs = tc5_zcmask_submasks(m), s = n / subs;
  tc5_sb b;
  tc5_sb_init(&b);
  tc5_sb_printf(&b, "zero-column mask, M = %u, N = %u: %u sub-mask%s of %u columns\n", m, n,
                subs, subs > 1 ? "s" : "", s);
  if (!d->non_zero) {
    tc5_sb_printf(&b, "  Non-Zero Mask = 0: the mask is all zeros, every column of B is used\n");
  } else {
    tc5_sb_printf(&b, "  pattern: runs of %u zeroed columns (Skip Span %u + 1) alternate with "
                      "runs of %u used columns (Use Span %u + 1), period %u\n",
                  d->skip_span + 1u, d->skip_span, d->use_span + 1u, d->use_span,
                  d->skip_span + d->use_span + 2u);
    for (unsigned i = 0; i < subs; i++)
      tc5_sb_printf(&b, "  sub-mask %u: columns %u..%u, fs%u = %u (first run %s), sc%u = %u "
                        "pattern bits skipped\n", i, i * s, (i + 1) * s - 1, i, d->first_span[i],
                    d->first_span[i] ? "zeroed" : "used", i, d->start_count[i]);
  }
  tc5_sb_printf(&b, "  B columns read: %u..%u (column shift %u)\n", d->column_shift,
                d->column_shift + n - 1, d->column_shift);
  tc5_sb_printf(&b, "  mask (1 = column of B reads as zero, . = used):\n");
  for (unsigned i = 0; i < subs; i++) {
    char label[16];
    snprintf(label, sizeof label, "mask%u", i);
    draw_rows(&b, &mk, i * s, (i + 1) * s, label);
  }
  return tc5_sb_finish(&b, buf, cap, needed);
}

tc5_status tc5_zcmask_json(const tc5_zcmask_desc *d, unsigned m, unsigned n, char *buf,
                           size_t cap, size_t *needed) {
  tc5_colmask mk;
  tc5_status st = tc5_zcmask_generate(d, m, n, &mk, NULL);
  if (st != TC5_OK) return st;
  uint64_t raw = 0;
  tc5_zcmask_desc_encode(d, &raw, NULL);
  unsigned subs = tc5_zcmask_submasks(m), s = n / subs;
  tc5_sb b;
  tc5_sb_init(&b);
  tc5_json j;
  tc5_json_init(&j, &b);
  char bits[TC5_ZCMASK_MAX_N + 1];
  tc5_json_obj_begin(&j, NULL);
  tc5_json_hex(&j, "descriptor", raw, 16);
  tc5_json_uint(&j, "m", m);
  tc5_json_uint(&j, "n", n);
  tc5_json_uint(&j, "non_zero", d->non_zero);
  tc5_json_uint(&j, "skip_span", d->skip_span);
  tc5_json_uint(&j, "use_span", d->use_span);
  tc5_json_uint(&j, "column_shift", d->column_shift);
  tc5_json_arr_begin(&j, "b_columns");
  tc5_json_uint(&j, NULL, d->column_shift);
  tc5_json_uint(&j, NULL, d->column_shift + n - 1);
  tc5_json_arr_end(&j);
  tc5_json_arr_begin(&j, "submasks");
  for (unsigned i = 0; i < subs; i++) {
    tc5_json_obj_begin(&j, NULL);
    tc5_json_uint(&j, "index", i);
    tc5_json_uint(&j, "first_column", i * s);
    tc5_json_uint(&j, "last_column", (i + 1) * s - 1);
    tc5_json_uint(&j, "first_span", d->first_span[i]);
    tc5_json_uint(&j, "start_count", d->start_count[i]);
    for (unsigned c = 0; c < s; c++) bits[c] = tc5_colmask_bit(&mk, i * s + c) ? '1' : '0';
    bits[s] = '\0';
    tc5_json_str(&j, "bits", bits);
    tc5_json_obj_end(&j);
  }
  tc5_json_arr_end(&j);
  tc5_colmask_format(&mk, '1', '0', bits, sizeof bits, NULL);
  tc5_json_str(&j, "mask", bits);
  tc5_json_obj_end(&j);
  return tc5_sb_finish(&b, buf, cap, needed);
}
