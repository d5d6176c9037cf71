/* tc5 — whole-matrix MMA arithmetic, fast, with exactly the results of the
 * reference core (arith.c): the entry point, decoding, threads, the
 * workspace, and the portable kernel. Where the CPU has AVX-512 and the
 * model suits it, tiles run the kernel of arith_gemm_f32.c instead (its
 * header says how); what follows is the portable kernel.
 *
 * Every element of A and B is decoded once into an exact double (sign,
 * negation and the scale factor folded in) and an int32 nominal exponent
 * (for mxf4: the scale's exponent). For a tile of R rows x W columns and one
 * step (`chunk` products), pass 1 finds the largest nominal exponent E of
 * each output's terms (zero terms count as zero_exp), pass 2 sums
 * (int64)(term * 2^(F - E)) — a C cast truncates toward zero, which is the
 * model's truncation, and every product and scaling is exact in double — and
 * the result is rounded to the output format in doubles (toward zero by
 * clearing low bits while the results are normal). Integer kinds sum in
 * int64. Outputs whose row, column or C hold NaN/Inf, or whose running
 * value overflows, are recomputed by the reference (rare and exact).
 * Threads decode rows of A and panels of B, then compute tasks of column
 * panels by row blocks. */
#include <math.h>
#include <stdlib.h>
#include <sched.h>
#include <unistd.h>

#include "arith/arith_gemm_impl.h"
#include "util/simd.h"
#include "spec/spec_tables.h"

#define PANELS 4 /* column panels per task */
#define RB 128   /* rows per task (a multiple of TR) */
/* k per block in the AVX-512 kernel: a task's panels of B (128 bytes per
 * column panel and k) and rows of A (5 bytes per element) over one block,
 * 1152 x 512 bytes, stay in a 1.25 MiB L2 */
#define KBLOCK 512

/* exponent of a normal double (floor(log2|v|)), from its bits */
static inline int expo(double v) {
  uint64_t b;
  memcpy(&b, &v, 8);
  return (int)((b >> 52) & 0x7FF) - 1023;
}

static void fdec_init(fdec *f, tc5_type t) {
  const tc5_type_info *ti = tc5_spec_type(t);
  memset(f, 0, sizeof *f);
  f->integer = ti->special == TC5_SPECIAL_INT;
  f->int_signed = ti->has_sign;
  f->shift = t == TC5_TF32 ? 13 : 0;
  f->mb = ti->man_bits;
  f->sbit = ti->has_sign ? ti->exp_bits + ti->man_bits : 0;
  f->emask = (1u << ti->exp_bits) - 1u;
  f->mmask = (1u << ti->man_bits) - 1u;
  f->bias = ti->bias;
  f->emin = 1 - ti->bias;
  f->sp = ti->special;
}

/* value (exact, sign and `neg` applied) and nominal exponent (ZMARK for
 * zero) of a code; NaN/Inf set *special and give 0 */
static inline void fdec_one(const fdec *f, uint32_t code, bool neg, double *v, int32_t *e,
                            bool *special) {
  uint32_t c = code >> f->shift;
  uint64_t sign = ((f->sbit ? (c >> f->sbit) & 1u : 0u) ^ (unsigned)neg);
  if (f->sp == TC5_SPECIAL_E8M0) {
    c &= 0xFF;
    if (c == 0xFF) *special = true;
    *v = c == 0xFF ? 0 : pow2d((int)c - 127);
    *e = c == 0xFF ? ZMARK : (int32_t)c - 127;
    return;
  }
  uint32_t E = (c >> f->mb) & f->emask, M = c & f->mmask;
  if ((f->sp == TC5_SPECIAL_IEEE && E == f->emask) ||
      (f->sp == TC5_SPECIAL_FN && E == f->emask && M == f->mmask)) {
    *special = true;
    *v = 0;
    *e = ZMARK;
    return;
  }
  if (E) {
    uint64_t b = sign << 63 | (uint64_t)((int)E - f->bias + 1023) << 52 | (uint64_t)M << (52 - f->mb);
    memcpy(v, &b, 8);
    *e = (int)E - f->bias;
  } else {
    double x = (double)M * pow2d(f->emin - (int)f->mb);
    *v = sign ? -x : x;
    *e = M ? f->emin : ZMARK;
  }
}

/* c in double (exact) and its nominal exponent; false for NaN/Inf */
static bool decode_c(const tc5_dot *m, const fdec *fc, uint32_t c, const tc5_dot_opts *o,
                     double *v, int32_t *e) {
  if (!o->enable_input_d) {
    *v = 0;
    *e = m->zero_exp;
    return true;
  }
  bool sp = false;
  fdec_one(fc, c, false, v, e, &sp);
  if (sp) return false;
  if (*e == ZMARK) {
    *e = m->zero_exp;
    *v = 0 * *v; /* keeps the sign of a zero */
    return true;
  }
  *v *= pow2d(-(int)o->scale_input_d);
  *e -= (int)o->scale_input_d;
  return true;
}

static void outfmt_of(const tc5_dot *m, outfmt *of) {
  of->rne = m->out == TC5_OUT_RNE_F16;
  of->emin = of->rne ? -14 : -126;
  of->fbits = of->rne ? 10 : m->out == TC5_OUT_RZ_E8M13 ? 13 : 23;
  of->zexp = m->zero_exp;
  of->ovf = of->rne ? 65536.0 : 0x1p128;
  /* toward zero to f32 or to 13 fraction bits: the double bits cleared */
  of->rz_mask = m->out == TC5_OUT_RZ_F32     ? ((int64_t)1 << 29) - 1
                : m->out == TC5_OUT_RZ_E8M13 ? ((int64_t)1 << 39) - 1
                                             : 0;
}

/* One tile of products one by one (all kinds but mxf4; F <= 44), row by
 * row: a row's 16 running sums, its scales and a k's 16 values of B fit in
 * the 16 registers of AVX2 (the tile's 8 rows x 16 columns at once, below,
 * do not: there its sums, converted to int64 lane by lane without AVX-512,
 * spill). Pass 2 sums the truncated terms in doubles: each term is an
 * integer below 2^(F + 2), C below 2^(F + 1), at most 64 terms a step, so
 * every partial sum is an integer below 2^(F + 9) <= 2^53, exact, and the
 * same as the int64 sum. Results identical to the tile below (the former
 * way, kept for bench_gemm_core: tc5__gemm_int64_sums). */
TC5_CLONES
static void tile_rows(const gemm_job *J, unsigned i0, unsigned j0, double cv[TR][TW], int32_t ce[TR][TW],
                      uint8_t bad[TR][TW]) {
  const tc5_dot *m = J->m;
  const int F = (int)m->frac_bits, zexp = m->zero_exp;
  const unsigned L = J->L, K = J->K;
  const outfmt *of = &J->of;
  for (unsigned r = 0; r < TR; r++) {
    const double *ar = J->av + (size_t)(i0 + r) * K;
    const int32_t *aer = J->ae + (size_t)(i0 + r) * K;
    v8d c[2] = {ld8d(&cv[r][0]), ld8d(&cv[r][8])};
    v8i cexp[2] = {ld8i(&ce[r][0]), ld8i(&ce[r][8])}, badv[2] = {{0}, {0}};
    for (unsigned k0 = 0; k0 < K; k0 += L) {
      unsigned n = K - k0 < L ? K - k0 : L, ch = k0 / L;
      /* pass 1: the largest nominal exponent of the terms and C; a zero
       * term (a factor is zero: the flags of the row and the columns) adds
       * zero_exp */
      v8i e0 = cexp[0], e1 = cexp[1];
      const int32_t *bep = J->be + BIDX(k0, j0, K);
      for (unsigned k = k0; k < k0 + n; k++, bep += TW) {
        v8i a = (v8i){0} + aer[k];
        e0 = max8i(e0, a + ld8i(bep));
        e1 = max8i(e1, a + ld8i(bep + 8));
      }
      int32_t az = J->azero[(size_t)(i0 + r) * J->nchunks + ch];
      const int32_t *bz = J->bzero + (size_t)ch * J->Np + j0;
      v8i z0 = ld8i(bz) | az, z1 = ld8i(bz + 8) | az;
      v8i emax[2] = {sel8i(z0, max8i(e0, (v8i){0} + zexp), e0), sel8i(z1, max8i(e1, (v8i){0} + zexp), e1)};
      v8d sc8[2] = {pow2v(F - emax[0]), pow2v(F - emax[1])}, cs[2] = {c[0] * sc8[0], c[1] * sc8[1]};
      v4d sc[4], s[4];
      for (unsigned q = 0; q < 4; q++) {
        v8d x = sc8[q / 2], y = cs[q / 2];
        sc[q] = q % 2 ? __builtin_shufflevector(x, x, 4, 5, 6, 7) : __builtin_shufflevector(x, x, 0, 1, 2, 3);
        s[q] = trunc4_small(q % 2 ? __builtin_shufflevector(y, y, 4, 5, 6, 7) : __builtin_shufflevector(y, y, 0, 1, 2, 3));
      }
      /* pass 2: the terms truncated at 2^(E - F), summed exactly */
      const double *bvp = J->bv + BIDX(k0, j0, K);
      for (unsigned k = k0; k < k0 + n; k++, bvp += TW) {
        double a = ar[k];
        for (unsigned q = 0; q < 4; q++) {
          v4d b;
          memcpy(&b, bvp + 4 * q, sizeof b);
          s[q] += trunc4_small(b * (a * sc[q]));
        }
      }
      /* round v = sum * 2^(E - F) to the output format */
      for (unsigned h = 0; h < 2; h++) {
        v8d sum = __builtin_shufflevector(s[2 * h], s[2 * h + 1], 0, 1, 2, 3, 4, 5, 6, 7);
        v8d v = (sum + 0.0) * pow2v(emax[h] - F); /* + 0.0: an exact 0 is +0 */
        if (!of->rz_mask || !round_sum_rz_normal(of, v, &c[h], &cexp[h]))
          round_sum(of, v, &c[h], &cexp[h], &badv[h]);
      }
    }
    for (unsigned h = 0; h < 2; h++) {
      memcpy(&cv[r][8 * h], &c[h], sizeof(v8d));
      memcpy(&ce[r][8 * h], &cexp[h], sizeof(v8i));
      for (unsigned w = 0; w < 8; w++) bad[r][8 * h + w] |= badv[h][w] != 0;
    }
  }
}

/* One tile: rows i0..i0+nr-1, columns j0..j0+TW-1, all of K. cv/ce hold the
 * running C (exact double, nominal exponent) of each output. */
TC5_CLONES
static void tile_float(const gemm_job *J, unsigned i0, unsigned nr, unsigned j0, double cv[TR][TW],
                       int32_t ce[TR][TW], uint8_t bad[TR][TW]) {
  const tc5_dot *m = J->m;
  const int F = (int)m->frac_bits, zexp = m->zero_exp;
  const unsigned L = J->L, G = J->G, K = J->K;
  const outfmt *of = &J->of;
  if (G == 1 && nr == TR && F <= 44 && !J->int64_sums) {
    tile_rows(J, i0, j0, cv, ce, bad);
    return;
  }
  if (G == 1 && nr == TR) {
    /* products one by one (all kinds but mxf4): TR rows x TW columns share
     * each load of B; per product, pass 1 is a max and a min of int32
     * exponents, pass 2 two multiplies, a conversion and an int64 add */
    v8d c[TR][2];
    v8i cexp[TR][2], badv[TR][2];
    for (unsigned r = 0; r < TR; r++)
      for (unsigned h = 0; h < 2; h++) {
        c[r][h] = ld8d(&cv[r][8 * h]);
        cexp[r][h] = ld8i(&ce[r][8 * h]);
        badv[r][h] = (v8i){0};
      }
    const double *ar[TR];
    const int32_t *aer[TR];
    for (unsigned r = 0; r < TR; r++) {
      ar[r] = J->av + (size_t)(i0 + r) * K;
      aer[r] = J->ae + (size_t)(i0 + r) * K;
    }
    for (unsigned k0 = 0; k0 < K; k0 += L) {
      unsigned n = K - k0 < L ? K - k0 : L;
      /* a product is zero exactly when a factor is: the zero flags of the
       * row of A and the column of B say whether zero_exp takes part */
      v16i emx[TR];
      for (unsigned r = 0; r < TR; r++) memcpy(&emx[r], &cexp[r][0], sizeof emx[r]);
      const int32_t *bep = J->be + BIDX(k0, j0, K);
      for (unsigned k = k0; k < k0 + n; k++, bep += TW) {
        v16i b;
        memcpy(&b, bep, sizeof b);
        for (unsigned r = 0; r < TR; r++) {
          v16i sm = aer[r][k] + b;
          v16i gt = sm > emx[r];
          emx[r] = (sm & gt) | (emx[r] & ~gt);
        }
      }
      v8i zmn[TR][2];
      {
        unsigned ch = k0 / L;
        v16i bz;
        memcpy(&bz, J->bzero + (size_t)ch * J->Np + j0, sizeof bz);
        for (unsigned r = 0; r < TR; r++) {
          v16i z = bz | J->azero[(size_t)(i0 + r) * J->nchunks + ch];
          memcpy(&zmn[r][0], &z, sizeof z);
        }
      }
      v8i emxh[TR][2];
      for (unsigned r = 0; r < TR; r++) memcpy(&emxh[r][0], &emx[r], sizeof emx[r]);
      v8d sc[TR][2], sumd[TR][2];
      v8i emax[TR][2];
      for (unsigned r = 0; r < TR; r++)
        for (unsigned h = 0; h < 2; h++) {
          /* a zero term (exponent sum far below any real one) adds zero_exp */
          emax[r][h] = sel8i(zmn[r][h], max8i(emxh[r][h], (v8i){0} + zexp), emxh[r][h]);
          sc[r][h] = pow2v(F - emax[r][h]);
        }
      /* pass 2: the terms truncated at 2^(E - F), summed exactly */
      {
        v8l sum[TR][2];
        for (unsigned r = 0; r < TR; r++)
          for (unsigned h = 0; h < 2; h++) sum[r][h] = __builtin_convertvector(c[r][h] * sc[r][h], v8l);
        const double *bvp = J->bv + BIDX(k0, j0, K);
        for (unsigned k = k0; k < k0 + n; k++, bvp += TW) {
          v8d b0 = ld8d(bvp), b1 = ld8d(bvp + 8);
          for (unsigned r = 0; r < TR; r++) {
            sum[r][0] += __builtin_convertvector(b0 * (ar[r][k] * sc[r][0]), v8l);
            sum[r][1] += __builtin_convertvector(b1 * (ar[r][k] * sc[r][1]), v8l);
          }
        }
        for (unsigned r = 0; r < TR; r++)
          for (unsigned h = 0; h < 2; h++) sumd[r][h] = __builtin_convertvector(sum[r][h], v8d);
      }
      /* round v = sum * 2^(E - F) to the output format */
      for (unsigned r = 0; r < TR; r++)
        for (unsigned h = 0; h < 2; h++) {
          v8d v = (sumd[r][h] + 0.0) * pow2v(emax[r][h] - F); /* + 0.0: an exact 0 is +0 */
          if (!of->rz_mask || !round_sum_rz_normal(of, v, &c[r][h], &cexp[r][h]))
            round_sum(of, v, &c[r][h], &cexp[r][h], &badv[r][h]);
        }
    }
    for (unsigned r = 0; r < TR; r++)
      for (unsigned h = 0; h < 2; h++) {
        memcpy(&cv[r][8 * h], &c[r][h], sizeof(v8d));
        memcpy(&ce[r][8 * h], &cexp[r][h], sizeof(v8i));
        for (unsigned w = 0; w < 8; w++) bad[r][8 * h + w] |= badv[r][h][w] != 0;
      }
    return;
  }
  for (unsigned r = 0; r < nr; r++)
    for (unsigned k0 = 0; k0 < K; k0 += L) {
      size_t x = (size_t)(i0 + r) * K + k0;
      tc5__gemm_step_exact(J, J->av + x, J->ae + x, J->bv + BIDX(k0, j0, K), J->be + BIDX(k0, j0, K), TW,
                           K - k0 < L ? K - k0 : L, cv[r], ce[r], bad[r]);
    }
}

/* one step of n products, 8 columns: a, ae the row's values and exponents,
 * b, be the columns' (k's 8 values at b + k * bs); pass 1, pass 2, rounding */
TC5_CLONES
static void step8(const gemm_job *J, const double *a, const int32_t *ae, const double *b,
                  const int32_t *be, size_t bs, unsigned n, v8d *cp, v8i *cexpp, v8i *badv) {
  const tc5_dot *m = J->m;
  const int F = (int)m->frac_bits, zexp = m->zero_exp;
  const unsigned G = J->G;
  /* pass 1: the largest nominal exponent of the terms */
  v8i emax = *cexpp;
  for (unsigned g = 0; g < n; g += G) {
    v8i gmax = (v8i){0} + 2 * ZMARK;
    for (unsigned k = g; k < g + G; k++) gmax = max8i(gmax, ae[k] + ld8i(be + k * bs));
    emax = max8i(emax, sel8i(gmax < ZMARK / 2, (v8i){0} + zexp, gmax));
  }
  /* pass 2: the terms truncated at 2^(E - F), summed exactly */
  v8d sc = pow2v(F - emax);
  v8d sum = truncv(*cp * sc);
  for (unsigned g = 0; g < n; g += G) {
    v8d gs = a[g] * ld8d(b + g * bs);
    for (unsigned k = g + 1; k < g + G; k++) gs += a[k] * ld8d(b + k * bs);
    sum += truncv(gs * sc);
  }
  /* round v = sum * 2^(E - F) to the output's precision */
  v8d v = (sum + 0.0) * pow2v(emax - F); /* + 0.0: an exact zero is +0 */
  round_sum(&J->of, v, cp, cexpp, badv);
}

void tc5__gemm_step_exact(const gemm_job *J, const double *a, const int32_t *ae, const double *b,
                          const int32_t *be, size_t bs, unsigned n, double c[TW], int32_t ce[TW],
                          uint8_t bad[TW]) {
  for (unsigned h = 0; h < TW; h += 8) {
    v8d cv = ld8d(c + h);
    v8i cexp = ld8i(ce + h), badv = {0};
    step8(J, a, ae, b + h, be + h, bs, n, &cv, &cexp, &badv);
    memcpy(c + h, &cv, sizeof cv);
    memcpy(ce + h, &cexp, sizeof cexp);
    for (unsigned w = 0; w < 8; w++) bad[h + w] |= badv[w] != 0;
  }
}

static uint32_t code_of(const tc5_dot *m, double v) {
  if (m->ctype == TC5_F16) { /* v is an f16 value: its bits, exactly */
    uint32_t sign = signbit(v) ? 0x8000u : 0u;
    double a = fabs(v);
    if (a == 0) return 0; /* nor an f16 result (tc5__round_out) */
    int ex = expo(a);
    if (ex < -14) return sign | (uint32_t)(a * 0x1p24); /* subnormal */
    uint64_t b;
    memcpy(&b, &a, 8);
    return sign | (uint32_t)(ex + 15) << 10 | (uint32_t)(b >> 42 & 0x3FF);
  }
  float f = (float)v; /* exact: v is an f32 value (Inf excluded) */
  uint32_t c;
  memcpy(&c, &f, 4);
  return c == 0x80000000u ? 0 : c; /* an f32 result is never -0 (tc5__round_out) */
}

/* the reference, for one element whose row, column or C holds NaN/Inf or
 * whose value overflowed (rare), over k in [kbeg, K): kbeg > 0 continues
 * from the running C in D (the steps' state is C alone); col is a K + K / 16 + 32
 * word scratch */
void tc5__gemm_reference_elem(gemm_job *J, unsigned i, unsigned j, uint32_t *col, unsigned kbeg) {
  const tc5_dot *m = J->m;
  unsigned K = J->K, nb = m->block ? K / m->block : 0, b0 = m->block ? kbeg / m->block : 0;
  uint32_t *scol = col + K;
  for (unsigned k = kbeg; k < K; k++) col[k - kbeg] = J->B[(size_t)k * J->N + j];
  for (unsigned k = b0; k < nb; k++) scol[k - b0] = J->SB[(size_t)k * J->N + j];
  tc5_dot_opts o = *J->o;
  if (kbeg) o.enable_input_d = true, o.scale_input_d = 0;
  size_t idx = (size_t)i * J->N + j;
  tc5_dot_run(m, K - kbeg, J->A + (size_t)i * K + kbeg, col, nb ? J->SA + (size_t)i * nb + b0 : NULL,
              nb ? scol : NULL, J->D[idx], &o, &J->D[idx]);
}

/* the portable kernel's tile, all of K */
static void do_tile_float(gemm_job *J, unsigned i0, unsigned nr, unsigned j0, uint32_t *col) {
  const tc5_dot *m = J->m;
  double cv[TR][TW];
  int32_t ce[TR][TW];
  uint8_t bad[TR][TW];
  memset(bad, 0, sizeof bad);
  for (unsigned r = 0; r < TR; r++)
    for (unsigned w = 0; w < TW; w++) {
      unsigned i = i0 + r, j = j0 + w;
      cv[r][w] = 0;
      ce[r][w] = m->zero_exp;
      if (r >= nr || j >= J->N) continue;
      if (J->rowsp[i] || J->colsp[j] ||
          !decode_c(m, &J->fc, J->D[(size_t)i * J->N + j], J->o, &cv[r][w], &ce[r][w]))
        bad[r][w] = 1;
    }
  tile_float(J, i0, nr, j0, cv, ce, bad);
  for (unsigned r = 0; r < nr; r++)
    for (unsigned w = 0; w < TW && j0 + w < J->N; w++) {
      if (bad[r][w]) tc5__gemm_reference_elem(J, i0 + r, j0 + w, col, 0);
      else J->D[(size_t)(i0 + r) * J->N + j0 + w] = code_of(m, cv[r][w]);
    }
}

static void do_tile_int(gemm_job *J, unsigned i0, unsigned nr, unsigned j0) {
  const tc5_dot *m = J->m;
  for (unsigned r = 0; r < nr; r++) {
    unsigned i = i0 + r;
    for (unsigned j = j0; j < j0 + TW && j < J->N; j++) {
      size_t idx = (size_t)i * J->N + j;
      int64_t acc = J->o->enable_input_d ? (int64_t)(int32_t)J->D[idx] : 0;
      for (unsigned k0 = 0; k0 < J->K; k0 += J->L) {
        int64_t s = 0;
        for (unsigned k = k0; k < k0 + J->L && k < J->K; k++)
          s += (int64_t)J->av[(size_t)i * J->K + k] * (int64_t)J->bv[BIDX(k, j, J->K)];
        acc += s;
        if (m->saturate) {
          if (acc > INT32_MAX) acc = INT32_MAX;
          if (acc < INT32_MIN) acc = INT32_MIN;
        } else {
          acc = (int64_t)(int32_t)(uint32_t)acc;
        }
      }
      J->D[idx] = (uint32_t)acc;
    }
  }
}

/* ---- decoding, once per element ----------------------------------------------- */

/* one element of A or B with its scale folded in: values exactly, exponents
 * into the nominal exponent (mxf4 groups: the scale's exponent alone) */
void tc5__gemm_decode(const gemm_job *J, const fdec *f, uint32_t code, bool neg, const uint32_t *scode,
                      double *v, int32_t *e, bool *sp) {
  const tc5_dot *m = J->m;
  if (f->integer) {
    *v = f->int_signed ? (double)(int8_t)code : (double)(uint8_t)code;
    *e = 0;
    return;
  }
  fdec_one(f, code, neg, v, e, sp);
  if (!scode) return;
  double sv;
  int32_t se;
  fdec_one(&J->fs, *scode, false, &sv, &se, sp);
  *v *= sv; /* exact: a power of two, or a 4-bit significand times a small one */
  if (*v == 0) *e = ZMARK;
  else *e = m->group ? se : *e + se;
}

/* rows [r0, r0 + TR) of A: values, exponents, NaN/Inf flags, zero flags */
static void decode_a_rows(gemm_job *J, unsigned r0) {
  const tc5_dot *m = J->m;
  unsigned K = J->K, nb = m->block ? K / m->block : 0;
  for (unsigned i = r0; i < r0 + TR && i < J->M; i++) {
    bool sp = false;
    for (unsigned k = 0; k < K; k++) {
      size_t x = (size_t)i * K + k;
      tc5__gemm_decode(J, &J->fa, J->A[x], J->o->negate_a, nb ? &J->SA[(size_t)i * nb + k / m->block] : NULL,
                    &J->av[x], &J->ae[x], &sp);
      if (J->ae[x] == ZMARK) J->azero[(size_t)i * J->nchunks + k / J->L] = -1;
    }
    J->rowsp[i] = sp;
  }
}

/* columns [j0, j0 + TW) of B, into their panel */
static void decode_b_panel(gemm_job *J, unsigned j0) {
  const tc5_dot *m = J->m;
  unsigned K = J->K, N = J->N;
  for (unsigned j = j0; j < j0 + TW; j++) {
    bool sp = false;
    for (unsigned k = 0; k < K; k++) {
      size_t x = BIDX(k, j, K);
      if (j < N)
        tc5__gemm_decode(J, &J->fb, J->B[(size_t)k * N + j], J->o->negate_b,
                      m->block ? &J->SB[(size_t)(k / m->block) * N + j] : NULL, &J->bv[x], &J->be[x], &sp);
      else
        J->bv[x] = 0, J->be[x] = ZMARK;
      if (J->be[x] == ZMARK) J->bzero[(size_t)(k / J->L) * J->Np + j] = -1;
    }
    J->colsp[j] = sp;
  }
}

/* ---- memory ------------------------------------------------------------------ */

/* A job's arrays live in one block, each cache-line aligned (a vector load
 * never spans two lines). The calling thread keeps its block for its next
 * call (up to KEEP bytes; freed when the thread exits, or by
 * tc5_gemm_release): fresh pages cost a fault and a zeroing each, 10-20 %
 * of a 512^3 GEMM on the machines measured. */
#define KEEP ((size_t)64 << 20)

typedef struct arena {
  char *base;
  size_t used;
} arena;

static _Thread_local struct {
  void *p;
  size_t size;
} kept;
static pthread_key_t kept_key;
static pthread_once_t kept_once = PTHREAD_ONCE_INIT;

static void kept_free(void *p) {
  free(p);
}
static void kept_init(void) {
  (void)pthread_key_create(&kept_key, kept_free);
}

/* n bytes of the block; with no block yet, only counts */
static void *take(arena *a, size_t n) {
  void *p = a->base ? a->base + a->used : NULL;
  a->used += (n + 63) / 64 * 64;
  return p;
}

/* a block of a->used bytes: the kept one when large enough */
static bool arena_get(arena *a) {
  size_t size = a->used ? a->used : 64;
  a->used = 0;
  if (kept.p && kept.size >= size) {
    a->base = kept.p;
    kept.p = NULL; /* in use (a nested call would allocate its own) */
    return true;
  }
  a->base = aligned_alloc(64, (size + 63) / 64 * 64);
  return a->base != NULL;
}

/* keeps the block for the thread's next call, or frees it */
static void arena_put(arena *a) {
  size_t size = a->used;
  if (size > KEEP || (kept.p && kept.size >= size)) {
    free(a->base);
    return;
  }
  free(kept.p);
  kept.p = a->base, kept.size = size;
  pthread_once(&kept_once, kept_init);
  (void)pthread_setspecific(kept_key, kept.p); /* freed at thread exit */
}

tc5_status tc5_gemm_release(void) {
  free(kept.p);
  kept.p = NULL, kept.size = 0;
  pthread_once(&kept_once, kept_init);
  (void)pthread_setspecific(kept_key, NULL);
  return TC5_OK;
}

/* the job's arrays: the portable kernel's decoded operands or the AVX-512
 * kernel's, flags for both */
static void job_arrays(gemm_job *J, arena *a) {
  size_t M = J->M, K = J->K, Np = J->Np, nc = J->nchunks ? J->nchunks : 1;
  size_t na = M * K, nbk = K * Np;
  if (!J->f32) {
    J->av = take(a, sizeof *J->av * na);
    J->bv = take(a, sizeof *J->bv * nbk);
    J->ae = take(a, sizeof *J->ae * na);
    J->be = take(a, sizeof *J->be * nbk);
  } else {
    J->af = take(a, sizeof *J->af * na);
    J->bf = take(a, sizeof *J->bf * nbk);
    J->ae8 = take(a, sizeof *J->ae8 * ((M + 3) / 4 * K));
    J->be8 = take(a, 4 * nbk);
    J->alpha = take(a, sizeof *J->alpha * M * nc);
    J->aall = take(a, sizeof *J->aall * M * nc);
    J->beta = take(a, sizeof *J->beta * Np * nc);
    J->ball = take(a, sizeof *J->ball * Np * nc);
    if (J->kblock < K) J->kbad = take(a, M * Np);
  }
  J->rowsp = take(a, M);
  J->colsp = take(a, Np);
  J->azero = take(a, sizeof *J->azero * M * nc);
  J->bzero = take(a, sizeof *J->bzero * Np * nc);
}

/* ---- threads ------------------------------------------------------------------- */

/* takes the next task from a counter; false when none is left */
static bool next_task(gemm_job *J, unsigned *counter, unsigned limit, unsigned *t) {
  pthread_mutex_lock(&J->lock);
  *t = (*counter)++;
  pthread_mutex_unlock(&J->lock);
  return *t < limit;
}

/* a hint to the CPU that this thread spins */
static inline void pause_cpu(void) {
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
  __builtin_ia32_pause();
#endif
}

/* waits until every decode task is done. It spins: on a virtual machine
 * a thread put to sleep can take milliseconds to wake up (measured on the
 * 2-vCPU development VM: 1-5 ms, a third of a 512^3 GEMM on two threads),
 * and the wait is short, the rest of one decode task at most. */
static void decoded(gemm_job *J, unsigned total) {
  for (unsigned spins = 0; __atomic_load_n(&J->decode_done, __ATOMIC_ACQUIRE) < total; spins++) {
    if (spins < 1000) pause_cpu();
    else sched_yield();
  }
}

/* The threads of a job (the caller's among them) first decode: rows of A
 * by TR, then panels of B; then compute: a task is PANELS column panels by
 * RB rows, each tile of rows of A used on all the panels while it is in
 * cache, tasks in column order so that threads share the panels of B, and
 * small enough to even out threads that the machine slows down. */
static void *worker(void *arg) {
  gemm_job *J = arg;
  unsigned t, na = (J->M + TR - 1) / TR;
  while (next_task(J, &J->next_decode, na + J->Np / TW, &t)) {
    if (t < na) {
      if (J->f32) tc5__gemm_f32_prepare_a(J, t * TR);
      else decode_a_rows(J, t * TR);
    } else {
      if (J->f32) tc5__gemm_f32_prepare_b(J, (t - na) * TW);
      else decode_b_panel(J, (t - na) * TW);
    }
    __atomic_fetch_add(&J->decode_done, 1, __ATOMIC_RELEASE);
  }
  decoded(J, na + J->Np / TW);
  uint32_t *col = malloc(sizeof *col * ((size_t)J->K + J->K / 16 + 32));
  if (!col) {
    pthread_mutex_lock(&J->lock);
    J->st = TC5_ENOMEM;
    pthread_mutex_unlock(&J->lock);
    return NULL;
  }
  unsigned ncols = PANELS * TW, nrb = (J->M + RB - 1) / RB;
  while (next_task(J, &J->next_tile, ((J->N + ncols - 1) / ncols) * nrb, &t)) {
    unsigned c0 = t / nrb * ncols, r0 = t % nrb * RB;
    /* the AVX-512 kernel: block by block of k, each block's operands used
     * on all the task's tiles while they are in cache */
    for (unsigned kb = 0; kb < J->K || kb == 0; kb += J->kblock)
      for (unsigned i0 = r0; i0 < J->M && i0 < r0 + RB; i0 += TR) {
        unsigned nr = J->M - i0 < TR ? J->M - i0 : TR;
        for (unsigned j0 = c0; j0 < c0 + ncols && j0 < J->N; j0 += TW) {
          if (J->m->out == TC5_OUT_S32) do_tile_int(J, i0, nr, j0);
          else if (J->f32) tc5__gemm_tile_f32(J, i0, nr, j0, col, kb, J->K - kb < J->kblock ? J->K : kb + J->kblock);
          else do_tile_float(J, i0, nr, j0, col);
        }
      }
  }
  free(col);
  return NULL;
}

/* runs the job on `threads` threads (the caller's among them; fewer when
 * a thread cannot be started) */
static void run_job(gemm_job *J, unsigned threads) {
  pthread_t th[64];
  unsigned started = 0;
  for (; started + 1 < threads; started++)
    if (pthread_create(&th[started], NULL, worker, J)) break;
  worker(J);
  for (unsigned t = 0; t < started; t++) pthread_join(th[t], NULL);
}

tc5_status tc5_gemm(const tc5_dot *m, unsigned M, unsigned N, unsigned K, const uint32_t *A,
                    const uint32_t *B, const uint32_t *SA, const uint32_t *SB, uint32_t *D,
                    const tc5_dot_opts *o, unsigned threads) {
  return tc5__gemm(m, M, N, K, A, B, SA, SB, D, o, threads, NULL, NULL);
}

static tc5_status gemm_run(const tc5_dot *m, unsigned M, unsigned N, unsigned K, const uint32_t *A,
                           const uint32_t *B, const uint32_t *SA, const uint32_t *SB, uint32_t *D,
                           const tc5_dot_opts *o, unsigned threads, const tc5__gemm_ctl *ctl, tc5__gemm_info *info,
                           bool int64_sums);

tc5_status tc5__gemm(const tc5_dot *m, unsigned M, unsigned N, unsigned K, const uint32_t *A,
                     const uint32_t *B, const uint32_t *SA, const uint32_t *SB, uint32_t *D,
                     const tc5_dot_opts *o, unsigned threads, const tc5__gemm_ctl *ctl, tc5__gemm_info *info) {
  return gemm_run(m, M, N, K, A, B, SA, SB, D, o, threads, ctl, info, false);
}

tc5_status tc5__gemm_int64_sums(const tc5_dot *m, unsigned M, unsigned N, unsigned K, const uint32_t *A,
                                const uint32_t *B, const uint32_t *SA, const uint32_t *SB, uint32_t *D,
                                const tc5_dot_opts *o, unsigned threads, const tc5__gemm_ctl *ctl) {
  return gemm_run(m, M, N, K, A, B, SA, SB, D, o, threads, ctl, NULL, true);
}

static tc5_status gemm_run(const tc5_dot *m, unsigned M, unsigned N, unsigned K, const uint32_t *A,
                           const uint32_t *B, const uint32_t *SA, const uint32_t *SB, uint32_t *D,
                           const tc5_dot_opts *o, unsigned threads, const tc5__gemm_ctl *ctl, tc5__gemm_info *info,
                           bool int64_sums) {
  if (info) memset(info, 0, sizeof *info);
  if (!m || !D || (K && (!A || !B))) return TC5_EINVAL;
  tc5_dot_opts def;
  tc5_status cst = tc5__dot_begin(m, K, &o, &def);
  if (cst) return cst;
  bool scaled = m->stype != TC5_TYPE_NONE;
  if (scaled && (!SA || !SB)) return TC5_EINVAL;
  unsigned L = m->chunk ? m->chunk : (K ? K : 1);
  unsigned G = m->group ? m->group : 1;
  if (!tc5__step_fits(m, K)) return TC5_EUNSUPPORTED;
  if (M == 0 || N == 0) return TC5_OK;
  unsigned Np = (N + TW - 1) / TW * TW;
  unsigned nchunks = (K + L - 1) / L;
  gemm_job J;
  memset(&J, 0, sizeof J);
  J.m = m;
  J.o = o;
  J.M = M;
  J.N = N;
  J.Np = Np;
  J.K = K;
  J.L = L;
  J.G = G;
  J.A = A;
  J.B = B;
  J.SA = scaled ? SA : NULL;
  J.SB = scaled ? SB : NULL;
  J.D = D;
  J.nchunks = nchunks;
  outfmt_of(m, &J.of);
  J.f32 = !(ctl && ctl->portable) && G == 1 && K && tc5__gemm_f32_usable(m);
  J.int64_sums = int64_sums;
  /* whole steps per block; one block (all of K) for the other kernels */
  unsigned kb = ctl && ctl->kblock ? ctl->kblock : KBLOCK;
  kb = (kb + L - 1) / L * L;
  J.kblock = J.f32 && kb < K ? kb : (K ? K : 1);
  fdec_init(&J.fa, m->atype);
  fdec_init(&J.fb, m->btype);
  fdec_init(&J.fc, m->ctype);
  if (scaled) fdec_init(&J.fs, m->stype);
  /* every array in one block, laid out by job_arrays twice: sizes, then places */
  arena ar = {NULL, 0};
  job_arrays(&J, &ar);
  if (!arena_get(&ar)) return TC5_ENOMEM;
  job_arrays(&J, &ar);
  memset(J.rowsp, 0, M);
  memset(J.colsp, 0, Np);
  memset(J.azero, 0, sizeof *J.azero * M * (nchunks ? nchunks : 1));
  memset(J.bzero, 0, sizeof *J.bzero * Np * (nchunks ? nchunks : 1));
  if (J.f32) {
    if (M % 4) /* rows past M in the last group of 4: -64, "far below" (the others are decoded) */
      memset(J.ae8 + (size_t)(M / 4) * K, 0xC0, sizeof *J.ae8 * (size_t)K);
    tc5__gemm_f32_init(&J);
  }
  if (threads == 0) {
    long nc = sysconf(_SC_NPROCESSORS_ONLN);
    threads = nc > 0 ? (unsigned)nc : 1;
  }
  if (threads > 64) threads = 64;
  /* small problems are not worth a thread */
  if ((double)M * N * (K ? K : 1) < 1 << 18) threads = 1;
  pthread_mutex_init(&J.lock, NULL);
  run_job(&J, threads);
  pthread_mutex_destroy(&J.lock);
  tc5_status st = J.st;
  if (info) {
    info->f32 = J.f32;
    info->slow_steps = J.slow_steps;
  }
  arena_put(&ar);
  return st;
}
