/* tc5 — sparse A (tcgen05.mma.sp, wgmma.mma_async.sp): the metadata, the
 * sparse form of a model, and the GEMM in which the pairs the metadata
 * elides are absent (docs/arithmetic.md, "Sparse MMA"; docs/fidelity.md,
 * class [1]).
 *
 * An elided position is computed as a zero product (its alignment role,
 * a zero term at zero_exp, never moves E: docs/arithmetic.md), and B's
 * element there is never classified: a NaN or an infinity of B at an elided
 * position does not reach D. tc5_gemm, which has no notion of elided
 * positions, would compute 0 x NaN there; so the outputs whose row elides a
 * position where their column of B holds a NaN or an infinity are computed
 * again, one by one, by the reference (tc5_dot_run) with B's elided elements
 * read as zero. */
#include <stdlib.h>
#include <string.h>

#include "arith/arith_impl.h"
#include "tc5/formats.h"

tc5_status tc5_sparse_group(tc5_kind kind, unsigned *elements) {
  if (!elements || (unsigned)kind >= TC5_KIND_COUNT) return TC5_EINVAL;
  *elements = kind == TC5_KIND_TF32 ? 2u : kind == TC5_KIND_MXF4 || kind == TC5_KIND_MXF4NVF4 ? 8u : 4u;
  return TC5_OK;
}

tc5_status tc5_dot_sparse(tc5_dot *m) {
  if (!m) return TC5_EINVAL;
  m->chunk *= 2;
  m->group *= 2;
  if (m->block) m->block = 2 * m->block > 32 ? 32 : 2 * m->block;
  return TC5_OK;
}

/* the meaningful 2:4 (and 4:8 pair) nibbles: 0b0100, 0b1000, 0b1100, 0b1001, 0b1101, 0b0110, 0b1110 */
#define MEANINGFUL_24 0x7350u

tc5_status tc5_sparse_expand(tc5_kind kind, unsigned M, unsigned K, const uint32_t *Ac, const uint8_t *meta,
                             uint32_t *A, uint8_t *elided, tc5_diag *diag) {
  unsigned g;
  if (tc5_sparse_group(kind, &g) || (M && K && (!Ac || !meta || !A))) return TC5_EINVAL;
  if (K % g)
    return tc5_diag_add(diag, TC5_EINVAL, "K", K,
                        "sparse .kind::%s: K %u is not a multiple of %u, the elements one metadata nibble covers",
                        tc5_kind_name(kind), K, g);
  bool tf32 = g == 2;
  unsigned w = g == 8 ? 2 : 1; /* elements a kept position: 4:8 keeps pairs */
  for (unsigned m = 0; m < M; m++)
    for (unsigned grp = 0; grp < K / g; grp++) {
      unsigned nib = meta[(size_t)m * (K / g) + grp];
      bool ok = tf32 ? nib == 0x4 || nib == 0xE : nib < 16 && (MEANINGFUL_24 >> nib & 1);
      if (!ok)
        return tc5_diag_add(diag, TC5_EILLEGAL, "metadata", nib,
                            "sparse .kind::%s: the metadata of row %u, elements %u-%u, is 0x%x: %s", tc5_kind_name(kind),
                            m, g * grp, g * grp + g - 1, nib,
                            tf32 ? "a pair's nibble is 0b0100 (the first kept) or 0b1110 (the second), the rest "
                                   "undefined behaviour (9.7.16.10.8.1)"
                                 : g == 8 ? "a group's nibble is one of 0b0100, 0b1000, 0b1100, 0b1001, 0b1101, "
                                            "0b0110, 0b1110, naming its two kept pairs (9.7.16.10.8.3)"
                                          : "a group's nibble is one of 0b0100, 0b1000, 0b1100, 0b1001, 0b1101, "
                                            "0b0110, 0b1110, naming its two kept elements (9.7.16.10.8.2)");
      uint32_t *row = A + (size_t)m * K + g * grp;
      const uint32_t *kept = Ac + (size_t)m * (K / 2) + g / 2 * grp;
      uint8_t *el = elided ? elided + (size_t)m * K + g * grp : NULL;
      for (unsigned x = 0; x < g; x++) {
        row[x] = 0;
        if (el) el[x] = 1;
      }
      unsigned i0 = tf32 ? (nib == 0xE) : nib & 3, i1 = nib >> 2 & 3;
      for (unsigned x = 0; x < w; x++) {
        row[w * i0 + x] = kept[x];
        if (el) el[w * i0 + x] = 0;
        if (!tf32) {
          row[w * i1 + x] = kept[w + x];
          if (el) el[w * i1 + x] = 0;
        }
      }
    }
  return TC5_OK;
}

/* whether a code of t is a NaN or an infinity */
static bool special(tc5_type t, uint32_t code) {
  tc5_fclass c = TC5_FCLASS_ZERO;
  if (t == TC5_TF32) code &= 0xFFFFE000u;
  if (tc5_fmt_decode(t, code, NULL, &c)) return false;
  return c == TC5_FCLASS_INF || c == TC5_FCLASS_NAN;
}

tc5_status tc5__gemm_elided(const tc5_dot *m, unsigned M, unsigned N, unsigned K, const uint32_t *A,
                            const uint8_t *elided, const uint32_t *B, const uint32_t *SA, const uint32_t *SB,
                            uint32_t *D, const tc5_dot_opts *o, unsigned threads) {
  if (!m || !D || (K && (!A || !B))) return TC5_EINVAL;
  if (!elided || !K || !M || !N || m->out == TC5_OUT_S32 || !tc5_type_is_float(m->btype))
    return tc5_gemm(m, M, N, K, A, B, SA, SB, D, o, threads);
  /* B's NaN and infinities, column by column: ks[kofs[n] .. kofs[n + 1]) */
  size_t nspec = 0;
  for (size_t i = 0; i < (size_t)K * N; i++) nspec += special(m->btype, B[i]);
  if (!nspec) return tc5_gemm(m, M, N, K, A, B, SA, SB, D, o, threads);
  tc5_status st = TC5_ENOMEM;
  size_t *kofs = calloc((size_t)N + 1, sizeof *kofs), nh = 0;
  unsigned *ks = malloc(nspec * sizeof *ks);
  size_t *hz = NULL;
  uint32_t *cs = NULL, *b = malloc((size_t)K * sizeof *b), *sa = NULL, *sb = NULL;
  unsigned ns = m->block && m->stype != TC5_TYPE_NONE ? K / m->block : 0;
  if (!kofs || !ks || !b) goto out;
  for (unsigned n = 0; n < N; n++) {
    kofs[n + 1] = kofs[n];
    for (unsigned k = 0; k < K; k++)
      if (special(m->btype, B[(size_t)k * N + n])) ks[kofs[n + 1]++] = k;
  }
  /* the outputs whose row elides one of its column's specials */
  for (int pass = 0; pass < 2; pass++) {
    nh = 0;
    for (unsigned r = 0; r < M; r++)
      for (unsigned n = 0; n < N; n++) {
        bool hit = false;
        for (size_t i = kofs[n]; i < kofs[n + 1] && !hit; i++) hit = elided[(size_t)r * K + ks[i]] != 0;
        if (!hit) continue;
        if (pass) hz[nh] = (size_t)r * N + n, cs[nh] = D[(size_t)r * N + n];
        nh++;
      }
    if (!nh) break;
    if (!pass && (!(hz = malloc(nh * sizeof *hz)) || !(cs = malloc(nh * sizeof *cs)))) goto out;
  }
  if (ns && nh && (!(sa = malloc(ns * sizeof *sa)) || !(sb = malloc(ns * sizeof *sb)))) goto out;
  st = tc5_gemm(m, M, N, K, A, B, SA, SB, D, o, threads);
  for (size_t h = 0; !st && h < nh; h++) {
    unsigned r = (unsigned)(hz[h] / N), n = (unsigned)(hz[h] % N);
    for (unsigned k = 0; k < K; k++) b[k] = elided[(size_t)r * K + k] ? 0 : B[(size_t)k * N + n];
    for (unsigned j = 0; j < ns; j++) sa[j] = SA[(size_t)r * ns + j], sb[j] = SB[(size_t)j * N + n];
    st = tc5_dot_run(m, K, A + (size_t)r * K, b, sa, sb, cs[h], o, &D[(size_t)r * N + n]);
  }
out:
  free(kofs), free(ks), free(hz), free(cs), free(b), free(sa), free(sb);
  return st;
}

tc5_status tc5_gemm_sparse(const tc5_dot *m, tc5_kind kind, unsigned M, unsigned N, unsigned K, const uint32_t *Ac,
                           const uint8_t *meta, const uint32_t *B, const uint32_t *SA, const uint32_t *SB,
                           uint32_t *D, const tc5_dot_opts *o, unsigned threads, tc5_diag *diag) {
  unsigned g;
  if (!m || !D || tc5_sparse_group(kind, &g) || (M && N && K && (!Ac || !meta || !B))) return TC5_EINVAL;
  bool scaled = m->stype != TC5_TYPE_NONE && m->block;
  if (scaled && (!SA || !SB)) return TC5_EINVAL;
  if (scaled && K % (2 * m->block))
    return tc5_diag_add(diag, TC5_EINVAL, "K", K,
                        "sparse .kind::%s: K %u is not a multiple of 2 x block = %u: a scale factor covers %u kept "
                        "elements, %u logical ones",
                        tc5_kind_name(kind), K, 2 * m->block, m->block, 2 * m->block);
  tc5_dot ms = *m;
  tc5_dot_sparse(&ms);
  tc5_status st = tc5_dot_check(&ms, K, o, diag);
  if (st) return st;
  if (!M || !N) return TC5_OK;
  unsigned ns = scaled ? K / ms.block : 0, nsr = scaled ? K / (2 * m->block) : 0;
  uint32_t *A = malloc(((size_t)M * K + 1) * sizeof *A), *SAx = NULL, *SBx = NULL;
  uint8_t *el = malloc((size_t)M * K + 1);
  st = TC5_ENOMEM;
  if (!A || !el) goto out;
  st = tc5_sparse_expand(kind, M, K, Ac, meta, A, el, diag);
  if (st) goto out;
  /* a scale factor a `block` kept elements, stored M x K/(2 block) and
   * K/(2 block) x N; the sparse model's block is min(2 block, 32) logical
   * elements: a stored factor of 64 logical elements stands for two */
  if (scaled) {
    st = TC5_ENOMEM;
    if (!(SAx = malloc(((size_t)M * ns + 1) * sizeof *SAx)) || !(SBx = malloc(((size_t)ns * N + 1) * sizeof *SBx)))
      goto out;
    for (unsigned r = 0; r < M; r++)
      for (unsigned j = 0; j < ns; j++) SAx[(size_t)r * ns + j] = SA[(size_t)r * nsr + (size_t)j * nsr / ns];
    for (unsigned j = 0; j < ns; j++)
      for (unsigned n = 0; n < N; n++) SBx[(size_t)j * N + n] = SB[((size_t)j * nsr / ns) * N + n];
  }
  st = tc5__gemm_elided(&ms, M, N, K, A, el, B, SAx, SBx, D, o, threads);
out:
  free(A), free(el), free(SAx), free(SBx);
  return st;
}
