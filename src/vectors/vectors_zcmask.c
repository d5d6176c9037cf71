/* tc5 — vectors format "zcmask-conv": zero-column masks of CUTLASS's
 * implicit-GEMM convolution (../shared/oracle/cutlass/zcmask-conv.txt, from
 * UMMA::make_column_zero_mask in include/cute/arch/mma_sm100_desc.hpp).
 *
 * Each line's descriptor must decode cleanly (with the M of the line), its
 * generated mask must equal `mask=` bit for bit, and synthesising a
 * descriptor from `mask=` must generate the same mask again. Lines that
 * also carry `geometry=` (the mask the convolution's padding needs) pass as
 * "noted" when it differs from `mask=`: there CUTLASS sets Non-Zero Mask to 0
 * although a column touches the padding. Where a line gives the geometry
 * (conv_q, pad, cta, tap), tc5_zcmask_conv must find that geometry: mask=,
 * or geometry= where the line has one. */
#include <stdio.h>
#include <string.h>

#include "tc5/zcmask.h"
#include "vectors/vectors_impl.h"

#define FAIL(...)                                                              \
  do {                                                                         \
    snprintf(why, cap, __VA_ARGS__);                                           \
    return TC5_EMISMATCH;                                                      \
  } while (0)

static tc5_status zc_begin(void *ctx, const char *name, const char *header,
                           tc5_vectors_report *rep, tc5_diag *diag) {
  (void)ctx, (void)name, (void)header, (void)diag;
  snprintf(rep->note, sizeof rep->note,
           "geometry= differs from mask=: CUTLASS sets Non-Zero Mask 0 although a "
           "column reaches the padding (tc5 generates what the descriptor says)");
  return TC5_OK;
}

static bool read_mask(const tc5_vline *l, const char *key, tc5_colmask *m) {
  char bits[TC5_ZCMASK_MAX_N + 2];
  return tc5_vline_str(l, key, bits, sizeof bits) && tc5_colmask_parse(bits, m) == TC5_OK;
}

static tc5_status zc_check(void *ctx, const tc5_vline *l, char *why, size_t cap, bool *noted) {
  (void)ctx;
  uint64_t raw, m, n;
  if (!tc5_vline_u64(l, "zcmask", 16, &raw) || !tc5_vline_u64(l, "m", 10, &m) ||
      !tc5_vline_u64(l, "n", 10, &n))
    FAIL("missing zcmask=, m= or n=");
  tc5_colmask want, got, geo;
  if (!read_mask(l, "mask", &want)) FAIL("missing or bad mask=");
  if (want.n != n) FAIL("mask= has %u bits, n=%llu", want.n, (unsigned long long)n);
  tc5_zcmask_desc d;
  tc5_diag dg;
  tc5_diag_init(&dg);
  if (tc5_zcmask_desc_decode(raw, &d, &dg) != TC5_OK ||
      tc5_zcmask_desc_check(&d, (unsigned)m, &dg) != TC5_OK)
    FAIL("descriptor rejected: %s", dg.issue[0].message);
  if (tc5_zcmask_generate(&d, (unsigned)m, (unsigned)n, &got, &dg) != TC5_OK)
    FAIL("generate failed: %s", dg.count ? dg.issue[0].message : "?");
  for (unsigned j = 0; j < n; j++)
    if (tc5_colmask_bit(&got, j) != tc5_colmask_bit(&want, j)) {
      char g[TC5_ZCMASK_MAX_N + 1];
      tc5_colmask_format(&got, '1', '0', g, sizeof g, NULL);
      FAIL("column %u: tc5 generates %u, oracle says %u (tc5 mask=%s)", j,
           tc5_colmask_bit(&got, j), tc5_colmask_bit(&want, j), g);
    }
  tc5_zcmask_desc s;
  if (tc5_zcmask_synthesize((unsigned)m, &want, d.column_shift, &s, NULL, &dg) != TC5_OK)
    FAIL("synthesis of mask= failed: %s", dg.count ? dg.issue[dg.count - 1].message : "?");
  tc5_zcmask_generate(&s, (unsigned)m, (unsigned)n, &got, NULL);
  if (memcmp(got.w, want.w, sizeof got.w) != 0) FAIL("synthesised descriptor generates another mask");
  if (tc5_vline_get(l, "geometry", NULL)) {
    if (!read_mask(l, "geometry", &geo) || geo.n != n) FAIL("bad geometry=");
    if (memcmp(geo.w, want.w, sizeof geo.w) != 0) *noted = true;
  } else {
    geo = want;
  }
  /* the convolution's own mask (tc5_zcmask_conv) is the geometry: mask=, or
   * geometry= where CUTLASS's descriptor differs from it */
  uint64_t q, pad, cta, tap;
  if (tc5_vline_u64(l, "conv_q", 10, &q) && tc5_vline_u64(l, "pad", 10, &pad) && tc5_vline_u64(l, "cta", 10, &cta) &&
      tc5_vline_u64(l, "tap", 10, &tap)) {
    tc5_colmask conv;
    if (tc5_zcmask_conv((unsigned)q, (unsigned)pad, (unsigned)(cta * n), (unsigned)tap, (unsigned)n, &conv, &dg))
      FAIL("tc5_zcmask_conv rejected the geometry: %s", dg.count ? dg.issue[dg.count - 1].message : "?");
    for (unsigned j = 0; j < n; j++)
      if (tc5_colmask_bit(&conv, j) != tc5_colmask_bit(&geo, j))
        FAIL("column %u: the convolution's geometry (tc5_zcmask_conv) says %u, the oracle %u", j,
             tc5_colmask_bit(&conv, j), tc5_colmask_bit(&geo, j));
  }
  return TC5_OK;
}

const tc5_vformat tc5_vformat_zcmask = {
    "zcmask-conv", "zcmask", NULL, 0, zc_begin, zc_check, NULL,
};
