/* Tests: zero-column mask engine — the spec's four examples, fast vs
 * reference generators, synthesis (round trip, and completeness against a
 * brute force over every descriptor for small N). */
#include <pthread.h>

#include "testutil.h"

#include "tc5/zcmask.h"

static tc5_zcmask_desc desc(unsigned sc0, unsigned sc1, unsigned sc2, unsigned sc3,
                            unsigned fs0, unsigned fs1, unsigned fs2, unsigned fs3,
                            unsigned nz, unsigned skip, unsigned use, unsigned shift) {
  tc5_zcmask_desc d;
  tc5_zcmask_desc_init(&d);
  d.start_count[0] = (uint8_t)sc0;
  d.start_count[1] = (uint8_t)sc1;
  d.start_count[2] = (uint8_t)sc2;
  d.start_count[3] = (uint8_t)sc3;
  d.first_span[0] = (uint8_t)fs0;
  d.first_span[1] = (uint8_t)fs1;
  d.first_span[2] = (uint8_t)fs2;
  d.first_span[3] = (uint8_t)fs3;
  d.non_zero = (uint8_t)nz;
  d.skip_span = (uint8_t)skip;
  d.use_span = (uint8_t)use;
  d.column_shift = (uint8_t)shift;
  return d;
}

/* The spec writes masks as "0b ... <high> ... <low>": column 0 is the
 * rightmost character. `tail` is that text without spaces; check the low
 * columns of sub-mask i. */
static void expect_tail(const tc5_colmask *m, unsigned first_col, const char *tail) {
  size_t len = strlen(tail);
  for (size_t k = 0; k < len; k++) {
    unsigned col = first_col + (unsigned)k;
    unsigned want = tail[len - 1 - k] == '1';
    if (tc5_colmask_bit(m, col) != want)
      fail_msg("column %u: got %u want %u (%s)", col, tc5_colmask_bit(m, col), want, tail);
  }
}

static void both(const tc5_zcmask_desc *d, unsigned m, unsigned n, tc5_colmask *out) {
  tc5_colmask r;
  assert_int_equal(tc5_zcmask_generate(d, m, n, out, NULL), TC5_OK);
  assert_int_equal(tc5_zcmask_generate_reference(d, m, n, &r, NULL), TC5_OK);
  assert_memory_equal(out->w, r.w, sizeof r.w);
  assert_int_equal(out->n, r.n);
}

static void test_spec_examples(void **state) {
  (void)state;
  tc5_colmask m;
  /* Example 1: Non-Zero Mask 0 -> 0x0 */
  tc5_zcmask_desc d = desc(0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 3, 0);
  for (unsigned n = 64; n <= 256; n *= 2) {
    both(&d, 128, n, &m);
    for (int i = 0; i < 4; i++) assert_true(m.w[i] == 0);
  }
  /* Example 2: M = 128, sc0 0, fs0 0, skip 2, use 3: 0b ... 111 0000 111 0000 */
  d = desc(0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 0);
  both(&d, 128, 128, &m);
  expect_tail(&m, 0, "11100001110000");
  for (unsigned j = 0; j < 128; j++) assert_int_equal(tc5_colmask_bit(&m, j), (j % 7) >= 4);
  /* Example 3: M = 64, fs {fs1, fs0} = {0, 1} */
  d = desc(0, 0, 0, 0, 1, 0, 0, 0, 1, 2, 3, 0);
  both(&d, 64, 128, &m);
  expect_tail(&m, 0, "111000011100001110000111");   /* mask0: ...111 0000 111 0000 111 */
  expect_tail(&m, 64, "0000111000011100001110000"); /* mask1: ...0000 111 0000 111 0000 */
  /* Example 4: M = 32, sc {1,2,1,0}, fs {0,0,1,1}, shift 2 */
  d = desc(0, 1, 2, 1, 1, 1, 0, 0, 1, 2, 3, 2);
  both(&d, 32, 128, &m);
  expect_tail(&m, 0, "00001110000111");  /* mask0: ... 0000 111 0000 111 */
  expect_tail(&m, 32, "0000111000011");  /* mask1: ... 0000 111 0000 11  */
  expect_tail(&m, 64, "1110000111" "00"); /* mask2: ... 111 0000 111 00   */
  expect_tail(&m, 96, "1110000111000");  /* mask3: ... 111 0000 111 000  */
  /* "If N = 128 then B columns 2 to 129 are used, due to the shift of 2" */
  char buf[8192];
  assert_int_equal(tc5_zcmask_explain(&d, 32, 128, buf, sizeof buf, NULL), TC5_OK);
  assert_non_null(strstr(buf, "B columns read: 2..129 (column shift 2)"));
}

/* Fast and reference generators agree on random descriptors x every M and
 * N in {64, 128, 256}. Split over threads. */
typedef struct job {
  uint64_t seed, count, checked;
} job;

/* one batch: per call, the batch entry point (vector lanes) and the per-bit
 * reference agree on every descriptor */
static bool agree_batch(const tc5_zcmask_desc *d, unsigned cnt, job *jb) {
  static const unsigned ms[3] = {32, 64, 128}, ns[3] = {64, 128, 256};
  tc5_colmask many[64];
  for (int mi = 0; mi < 3; mi++)
    for (int ni = 0; ni < 3; ni++) {
      size_t done = 0;
      if (tc5_zcmask_generate_many(d, cnt, ms[mi], ns[ni], many, &done, NULL) != TC5_OK || done != cnt) return false;
      for (unsigned i = 0; i < cnt; i++) {
        tc5_colmask f, g;
        if (tc5_zcmask_generate(&d[i], ms[mi], ns[ni], &f, NULL) != TC5_OK ||
            tc5_zcmask_generate_reference(&d[i], ms[mi], ns[ni], &g, NULL) != TC5_OK ||
            memcmp(f.w, g.w, sizeof f.w) != 0 || memcmp(many[i].w, g.w, sizeof g.w) != 0 || many[i].n != g.n) {
          tc5_zcmask_desc_encode(&d[i], &jb->seed, NULL);
          return false;
        }
        jb->checked++;
      }
    }
  return true;
}

static void *agree_worker(void *arg) {
  job *jb = arg;
  rng r;
  rng_seed(&r, jb->seed);
  tc5_zcmask_desc batch[64];
  unsigned cnt = 0;
  for (uint64_t i = 0; i < jb->count; i++) {
    uint64_t raw = rng_next(&r) & ~((7ull << 36) | (0xFFull << 56));
    raw |= 1ull << 39; /* non-zero: the interesting case (zero tested elsewhere) */
    if ((i & 15) == 0) raw &= ~(1ull << 39);
    if (i & 1) raw = (raw & ~(0xFFFFull << 40)) | ((rng_next(&r) & 0x0F0F) << 40); /* short runs */
    tc5_zcmask_desc_decode(raw, &batch[cnt++], NULL);
    /* batches of 61: seven blocks of eight in vector lanes and a scalar tail */
    if (cnt == 61 || i + 1 == jb->count) {
      if (!agree_batch(batch, cnt, jb)) {
        jb->checked = UINT64_MAX; /* failure marker; seed holds the descriptor */
        return NULL;
      }
      cnt = 0;
    }
  }
  return NULL;
}

static void test_fast_vs_reference(void **state) {
  (void)state;
  /* 10^6 descriptors by default (seconds); TC5_ZCMASK_FULL=1 runs the
   * documented sweep of 10^8 (~5 minutes on two cores) */
  const char *full = getenv("TC5_ZCMASK_FULL");
  uint64_t total = test_iters(full && *full == '1' ? 100000000ull : 1000000ull);
  enum { T = 2 };
  pthread_t th[T];
  job jobs[T];
  for (int t = 0; t < T; t++) {
    jobs[t].seed = 100 + (uint64_t)t;
    jobs[t].count = total / T + (t == 0 ? total % T : 0);
    jobs[t].checked = 0;
    pthread_create(&th[t], NULL, agree_worker, &jobs[t]);
  }
  uint64_t checked = 0;
  for (int t = 0; t < T; t++) {
    pthread_join(th[t], NULL);
    if (jobs[t].checked == UINT64_MAX)
      fail_msg("fast, batch and reference differ for descriptor 0x%016llx",
               (unsigned long long)jobs[t].seed);
    checked += jobs[t].checked;
  }
  print_message("fast == batch == reference on %llu random descriptors x 9 (M, N) = %llu masks\n",
                (unsigned long long)total, (unsigned long long)checked);
  assert_int_equal(checked, total * 9);
}

/* Every legal descriptor field in turn, exhaustively, for all M and N. */
static void test_fast_vs_reference_exhaustive_fields(void **state) {
  (void)state;
  static const unsigned ms[3] = {32, 64, 128}, ns[3] = {64, 128, 256};
  unsigned long n = 0;
  for (unsigned skip = 0; skip < 256; skip += 1)
    for (unsigned use = 0; use < 256; use += 17)
      for (unsigned sc = 0; sc < 256; sc += 51)
        for (unsigned fs = 0; fs < 2; fs++) {
          tc5_zcmask_desc d = desc(sc, 255 - sc, sc / 2, sc ^ 0x55, fs, !fs, fs, !fs, 1, skip, use, 0);
          for (int mi = 0; mi < 3; mi++)
            for (int ni = 0; ni < 3; ni++) {
              tc5_colmask f, g;
              tc5_zcmask_generate(&d, ms[mi], ns[ni], &f, NULL);
              tc5_zcmask_generate_reference(&d, ms[mi], ns[ni], &g, NULL);
              if (memcmp(f.w, g.w, sizeof f.w))
                fail_msg("skip %u use %u sc %u fs %u M %u N %u", skip, use, sc, fs, ms[mi], ns[ni]);
              n++;
            }
        }
  assert_true(n > 100000);
}

static void test_synthesis_roundtrip(void **state) {
  (void)state;
  rng r;
  rng_seed(&r, 21);
  static const unsigned ms[3] = {32, 64, 128}, ns[3] = {64, 128, 256};
  uint64_t iters = test_iters(1000000);
  for (uint64_t i = 0; i < iters; i++) {
    uint64_t raw = rng_next(&r) & ~((7ull << 36) | (0xFFull << 56));
    if (i & 1) raw = (raw & ~(0xFFFFull << 40)) | ((rng_next(&r) & 0x0F0F) << 40);
    tc5_zcmask_desc d, s;
    tc5_zcmask_desc_decode(raw, &d, NULL);
    unsigned m = ms[i % 3], n = ns[(i / 3) % 3], shift = (unsigned)rng_below(&r, m == 32 ? 17 : 33);
    tc5_colmask want, got;
    tc5_zcmask_generate(&d, m, n, &want, NULL);
    unsigned bad = 12345;
    tc5_diag dg;
    tc5_diag_init(&dg);
    if (tc5_zcmask_synthesize(m, &want, shift, &s, &bad, &dg) != TC5_OK)
      fail_msg("0x%016llx M %u N %u: %s", (unsigned long long)raw, m, n, dg.issue[0].message);
    assert_int_equal(s.column_shift, shift);
    assert_int_equal(tc5_zcmask_generate(&s, m, n, &got, NULL), TC5_OK);
    assert_memory_equal(got.w, want.w, sizeof got.w);
  }
}

/* Completeness: for small N, the set of masks some descriptor generates is
 * computed by brute force over every descriptor that can matter (run
 * lengths up to N + 1 behave like longer ones; every phase); synthesis must
 * succeed exactly on that set, and its first_bad must be the longest prefix
 * that some descriptor matches. */
static uint32_t gen_small(unsigned a, unsigned b, unsigned phase, unsigned len) {
  uint32_t v = 0;
  for (unsigned j = 0; j < len; j++)
    if ((j + phase) % (a + b) < a) v |= 1u << j;
  return v;
}

static void brute_force(unsigned m, unsigned n) {
  unsigned subs = tc5_zcmask_submasks(m), s = n / subs, total = 1u << n;
  uint8_t *ok = calloc(total, 1);
  assert_non_null(ok);
  /* for each (A, B), the windows of length s reachable */
  for (unsigned a = 1; a <= s + 1; a++)
    for (unsigned b = 1; b <= s + 1; b++) {
      unsigned p = a + b;
      uint32_t wins[64];
      unsigned nw = 0;
      for (unsigned ph = 0; ph < p; ph++) wins[nw++] = gen_small(a, b, ph, s);
      /* all combinations of one window per sub-mask */
      unsigned idx[4] = {0, 0, 0, 0};
      for (;;) {
        uint32_t mask = 0;
        for (unsigned i = 0; i < subs; i++) mask |= wins[idx[i]] << (i * s);
        ok[mask] = 1;
        unsigned i = 0;
        while (i < subs && ++idx[i] == nw) idx[i++] = 0;
        if (i == subs) break;
      }
    }
  ok[0] = 1; /* Non-Zero Mask = 0 */
  /* pre[k][x]: some representable mask has low k bits x */
  uint8_t *pre[33];
  for (unsigned k = 0; k <= n; k++) {
    pre[k] = calloc(1u << k, 1);
    assert_non_null(pre[k]);
  }
  for (uint32_t o = 0; o < total; o++)
    if (ok[o])
      for (unsigned k = 0; k <= n; k++) pre[k][o & ((1u << k) - 1)] = 1;
  unsigned repr = 0;
  for (uint32_t mask = 0; mask < total; mask++) {
    tc5_colmask w;
    memset(&w, 0, sizeof w);
    w.n = n;
    w.w[0] = mask;
    tc5_zcmask_desc d;
    unsigned bad = 999;
    tc5_status st = tc5_zcmask_synthesize(m, &w, 0, &d, &bad, NULL);
    if ((st == TC5_OK) != (ok[mask] != 0))
      fail_msg("M %u N %u mask 0x%x: synthesis %s, brute force %s", m, n, mask,
               tc5_status_name(st), ok[mask] ? "representable" : "not representable");
    if (st == TC5_OK) {
      repr++;
      tc5_colmask g;
      tc5_zcmask_generate(&d, m, n, &g, NULL);
      assert_true(g.w[0] == mask);
    } else {
      /* the longest prefix some representable mask shares */
      unsigned best = 0;
      while (best < n && pre[best + 1][mask & ((1u << (best + 1)) - 1)]) best++;
      if (bad != best) fail_msg("M %u N %u mask 0x%x: first_bad %u, brute force %u", m, n, mask, bad, best);
    }
  }
  for (unsigned k = 0; k <= n; k++) free(pre[k]);
  print_message("M %u N %u: %u of %u masks representable\n", m, n, repr, total);
  free(ok);
}

static void test_synthesis_complete_bruteforce(void **state) {
  (void)state;
  brute_force(128, 12);
  brute_force(64, 14);
  brute_force(32, 16);
}

static void test_oracle_geometry_fix(void **state) {
  (void)state;
  /* The 2 oracle lines where CUTLASS leaves Non-Zero Mask 0 although column
   * N-1 reaches the padding: synthesis finds a descriptor for the geometry. */
  tc5_colmask want;
  assert_int_equal(tc5_colmask_parse("0000000000000000000000000000000000000000000000000000000000000001", &want), TC5_OK);
  tc5_zcmask_desc d;
  assert_int_equal(tc5_zcmask_synthesize(128, &want, 2, &d, NULL, NULL), TC5_OK);
  tc5_colmask got;
  tc5_zcmask_generate(&d, 128, 64, &got, NULL);
  assert_memory_equal(got.w, want.w, sizeof got.w);
  assert_int_equal(d.column_shift, 2);
}

/* the batch entry point stops at an invalid descriptor: the masks before it
 * are generated, *done is its index, the message names its rule */
static void test_many_errors(void **state) {
  (void)state;
  tc5_zcmask_desc d[20];
  for (int i = 0; i < 20; i++) d[i] = desc((unsigned)i, 3, 5, 7, 1, 0, 1, 0, 1, (unsigned)(i * 13 % 256), (unsigned)(i * 7 + 60), 0);
  d[11].first_span[2] = 2;
  tc5_colmask out[20], one;
  size_t done = 99;
  tc5_diag dg;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_zcmask_generate_many(d, 20, 64, 128, out, &done, &dg), TC5_ERANGE);
  assert_int_equal(done, 11);
  assert_non_null(strstr(dg.issue[0].message, "first span fs2 2 is not 0 or 1"));
  for (int i = 0; i < 11; i++) {
    assert_int_equal(tc5_zcmask_generate(&d[i], 64, 128, &one, NULL), TC5_OK);
    assert_memory_equal(out[i].w, one.w, sizeof one.w);
  }
  d[11].first_span[2] = 1;
  assert_int_equal(tc5_zcmask_generate_many(d, 20, 64, 128, out, &done, NULL), TC5_OK);
  assert_int_equal(done, 20);
  assert_int_equal(tc5_zcmask_generate_many(d, 0, 64, 128, out, &done, NULL), TC5_OK);
  assert_int_equal(done, 0);
  assert_int_equal(tc5_zcmask_generate_many(NULL, 1, 64, 128, out, &done, NULL), TC5_EINVAL);
  assert_int_equal(tc5_zcmask_generate_many(d, 1, 48, 128, out, &done, NULL), TC5_EINVAL);
}

/* the convolution's mask: the spec's padding rule on a small case, and every error */
static void test_conv_mask(void **state) {
  (void)state;
  tc5_colmask m;
  /* rows of 5 pixels, pad 1: tap 0 zeroes the first pixel of each row, tap 2 the last */
  assert_int_equal(tc5_zcmask_conv(5, 1, 0, 0, 10, &m, NULL), TC5_OK);
  char s[16];
  tc5_colmask_format(&m, '1', '.', s, sizeof s, NULL);
  assert_string_equal(s, "1....1....");
  assert_int_equal(tc5_zcmask_conv(5, 1, 3, 2, 10, &m, NULL), TC5_OK); /* tile from pixel 3 */
  tc5_colmask_format(&m, '1', '.', s, sizeof s, NULL);
  assert_string_equal(s, ".1....1...");
  assert_int_equal(tc5_zcmask_conv(5, 1, 0, 1, 10, &m, NULL), TC5_OK);
  tc5_colmask_format(&m, '1', '.', s, sizeof s, NULL);
  assert_string_equal(s, "..........");
  tc5_diag dg;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_zcmask_conv(0, 1, 0, 0, 10, &m, &dg), TC5_ERANGE);
  assert_non_null(strstr(dg.issue[0].message, "row width q"));
  assert_int_equal(tc5_zcmask_conv(5, 1, 0, 0, 257, &m, &dg), TC5_ERANGE);
  assert_non_null(strstr(dg.issue[1].message, "N 257 is outside 1..256"));
  assert_int_equal(tc5_zcmask_conv(5, 1, 0, 0, 0, &m, NULL), TC5_ERANGE);
  assert_int_equal(tc5_zcmask_conv(5, 1, 0, 0, 8, NULL, NULL), TC5_EINVAL);
}

static void test_errors_and_text(void **state) {
  (void)state;
  tc5_zcmask_desc d = desc(0, 0, 0, 0, 1, 0, 0, 0, 1, 2, 3, 0);
  tc5_colmask m;
  tc5_diag dg;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_zcmask_generate(&d, 256, 128, &m, &dg), TC5_EINVAL);
  assert_non_null(strstr(dg.issue[0].message, "M 256 has no zero-column mask"));
  tc5_diag_init(&dg);
  assert_int_equal(tc5_zcmask_generate(&d, 32, 66, &m, &dg), TC5_ERANGE);
  assert_non_null(strstr(dg.issue[0].message, "N 66"));
  assert_int_equal(tc5_zcmask_generate(&d, 128, 0, &m, NULL), TC5_ERANGE);
  assert_int_equal(tc5_zcmask_generate(&d, 128, 257, &m, NULL), TC5_ERANGE);
  assert_int_equal(tc5_zcmask_generate(NULL, 128, 64, &m, NULL), TC5_EINVAL);
  assert_int_equal(tc5_zcmask_generate(&d, 128, 64, NULL, NULL), TC5_EINVAL);
  d.column_shift = 20;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_zcmask_generate(&d, 32, 64, &m, &dg), TC5_ERANGE);
  assert_non_null(strstr(dg.issue[0].message, "column shift 20 exceeds the maximum shift amount 16 for M = 32"));
  assert_int_equal(tc5_zcmask_generate_reference(&d, 32, 64, &m, NULL), TC5_ERANGE);
  assert_int_equal(tc5_zcmask_generate(&d, 64, 64, &m, NULL), TC5_OK);
  d.reserved_36_38 = 1;
  assert_int_equal(tc5_zcmask_generate(&d, 64, 64, &m, NULL), TC5_ERESERVED);
  d.reserved_36_38 = 0;
  /* shift vs the idesc's .ws maximum shift */
  tc5_idesc id;
  tc5_idesc_init(&id, TC5_KIND_F16);
  id.max_shift = 2; /* 16 columns */
  tc5_diag_init(&dg);
  assert_int_equal(tc5_zcmask_check_shift(&d, &id, &dg), TC5_EILLEGAL);
  assert_non_null(strstr(dg.issue[0].message, "column shift 20 exceeds the instruction descriptor's .ws maximum shift (16 columns"));
  id.max_shift = 3;
  assert_int_equal(tc5_zcmask_check_shift(&d, &id, NULL), TC5_OK);
  d.column_shift = 1;
  id.max_shift = 0;
  assert_int_equal(tc5_zcmask_check_shift(&d, &id, NULL), TC5_EILLEGAL);
  assert_int_equal(tc5_zcmask_check_shift(NULL, &id, NULL), TC5_EINVAL);
  /* synthesis errors */
  tc5_colmask w;
  assert_int_equal(tc5_colmask_parse("1.1", &w), TC5_OK);
  assert_int_equal(w.n, 3);
  assert_int_equal(tc5_zcmask_synthesize(64, &w, 0, &d, NULL, NULL), TC5_ERANGE); /* 3 % 2 */
  assert_int_equal(tc5_zcmask_synthesize(96, &w, 0, &d, NULL, NULL), TC5_EINVAL);
  assert_int_equal(tc5_zcmask_synthesize(128, &w, 40, &d, NULL, NULL), TC5_ERANGE);
  assert_int_equal(tc5_zcmask_synthesize(128, NULL, 0, &d, NULL, NULL), TC5_EINVAL);
  assert_int_equal(tc5_colmask_parse("01x", &w), TC5_EPARSE);
  assert_int_equal(tc5_colmask_parse("", &w), TC5_EPARSE);
  char big[300];
  memset(big, '1', 299);
  big[299] = 0;
  assert_int_equal(tc5_colmask_parse(big, &w), TC5_ERANGE);
  /* text */
  char buf[16384];
  d = desc(0, 0, 0, 0, 1, 0, 0, 0, 1, 2, 3, 0);
  tc5_colmask_parse("1110000", &w);
  assert_int_equal(tc5_colmask_format(&w, '1', '.', buf, sizeof buf, NULL), TC5_OK);
  assert_string_equal(buf, "111....");
  assert_int_equal(tc5_zcmask_json(&d, 64, 128, buf, sizeof buf, NULL), TC5_OK);
  assert_non_null(strstr(buf, "\"submasks\":[{\"index\":0,\"first_column\":0,\"last_column\":63,\"first_span\":1"));
  assert_non_null(strstr(buf, "\"mask\":\"1110000111"));
  assert_int_equal(tc5_zcmask_explain(&d, 64, 128, buf, sizeof buf, NULL), TC5_OK);
  assert_non_null(strstr(buf, "runs of 3 zeroed columns (Skip Span 2 + 1)"));
  assert_non_null(strstr(buf, "mask1"));
  assert_int_equal(tc5_zcmask_submasks(48), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_spec_examples),
      cmocka_unit_test(test_fast_vs_reference_exhaustive_fields),
      cmocka_unit_test(test_synthesis_roundtrip),
      cmocka_unit_test(test_synthesis_complete_bruteforce),
      cmocka_unit_test(test_oracle_geometry_fix),
      cmocka_unit_test(test_conv_mask),
      cmocka_unit_test(test_many_errors),
      cmocka_unit_test(test_errors_and_text),
      cmocka_unit_test(test_fast_vs_reference),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
