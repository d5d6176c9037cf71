/* tc5 internal — the shared pieces of tc5_gemm's kernels (arith_gemm.c:
 * decoding, threads, the portable kernel; arith_gemm_f32.c: the AVX-512
 * kernel). */
#ifndef TC5_ARITH_GEMM_IMPL_H
#define TC5_ARITH_GEMM_IMPL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "arith/arith_impl.h"
#include "spec/spec_tables.h"

#define TW 16    /* columns per tile (lanes) */
#define TR 8     /* rows per tile */
#define ZMARK (-(1 << 20)) /* nominal exponent of a zero element */
/* decoded B is stored in panels of TW columns, each K x TW contiguous */
#define BIDX(k, j, K) ((((size_t)(j) / TW) * (K) + (k)) * TW + (j) % TW)

/* A bit-level decoder of one element type (the rules of tc5__term_of, in a
 * form cheap enough to run once per element of a large matrix). */
typedef struct fdec {
  unsigned shift, mb, sbit; /* code >> shift; mantissa bits; sign bit (0: none) */
  uint32_t emask, mmask;
  int bias, emin;
  tc5_special sp;
  bool integer, int_signed;
} fdec;

typedef struct outfmt {
  int emin, fbits, zexp; /* output's smallest normal exponent, fraction bits; zero_exp */
  bool rne;              /* to nearest even (f16) or toward zero          */
  double ovf;            /* smallest magnitude that overflows             */
  int64_t rz_mask;       /* toward zero to f32 / e8m13: the double bits cleared (0: f16) */
} outfmt;

typedef struct gemm_job {
  const tc5_dot *m;
  const tc5_dot_opts *o;
  unsigned M, N, Np, K, L, G;
  outfmt of;              /* the output's rounding, from the model     */
  double *av, *bv;        /* decoded A (M x K) and B (K x Np, in panels) */
  int32_t *ae, *be;       /* their nominal exponents (ZMARK: zero)      */
  /* the AVX-512 kernel's operands (arith_gemm_f32.c), when f32 is set */
  bool f32, veca, vecb;    /* ... and whether A's / B's codes convert in vectors */
  bool int64_sums;         /* tc5__gemm_int64_sums: the portable kernel's former pass 2 */
  float tab_a[256], tab_b[256]; /* 8-bit codes' values (NaN: NaN/Inf)    */
  unsigned long slow_steps; /* row steps the AVX-512 kernel ran the portable way */
  float *af, *bf;         /* A, B scaled by 2^-(row's / column's largest exponent in the step) */
  uint32_t *ae8;          /* A's exponents less that, 4 rows' bytes per (row / 4, k) */
  int8_t *be8;            /* B's, each repeated 4 times: (panel, k) -> 64 bytes   */
  int32_t *alpha, *aall;  /* M x chunks: that exponent of A; -1 where the step's A is all 0 */
  int32_t *beta, *ball;   /* chunks x Np: the same for B                */
  const uint32_t *A, *B, *SA, *SB;
  uint32_t *D;
  uint8_t *rowsp, *colsp; /* NaN/Inf anywhere in the row / column       */
  int32_t *azero;         /* M x chunks: -1 when A has a zero there     */
  int32_t *bzero;         /* chunks x Np: -1 when B has a zero there    */
  unsigned nchunks;
  unsigned kblock;        /* k per block: the AVX-512 kernel runs a task's tiles block by block */
  uint8_t *kbad;          /* M x Np: where a block left an element to the reference (kblock < K) */
  struct fdec fa, fb, fc, fs; /* decoders of A, B, C and the scales      */
  unsigned next_decode, next_tile; /* shared task counters (under lock) */
  unsigned decode_done;            /* decode tasks finished (atomic)   */
  pthread_mutex_t lock;
  tc5_status st;
} gemm_job;

/* 2^e for -1022 <= e <= 1023, from its bits (vectorisable, unlike ldexp) */
static inline double pow2d(int e) {
  uint64_t b = (uint64_t)(int64_t)(e + 1023) << 52;
  double d;
  memcpy(&d, &b, 8);
  return d;
}

/* ---- 8-lane vectors ------------------------------------------------------------
 * GCC/Clang vector extensions; the compiler maps them to AVX-512, AVX2 or
 * SSE2 per target. The helpers are always inlined, so the vector-ABI note
 * does not apply. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif
#define VINL static inline __attribute__((always_inline))
typedef double v8d __attribute__((vector_size(64)));
typedef int64_t v8l __attribute__((vector_size(64)));
typedef int32_t v8i __attribute__((vector_size(32)));
typedef int32_t v16i __attribute__((vector_size(64)));

VINL v8d ld8d(const double *p) {
  v8d v;
  memcpy(&v, p, sizeof v);
  return v;
}
VINL v8i ld8i(const int32_t *p) {
  v8i v;
  memcpy(&v, p, sizeof v);
  return v;
}
VINL v8i max8i(v8i a, v8i b) {
  v8i m = a > b;
  return (a & m) | (b & ~m);
}
VINL v8i sel8i(v8i m, v8i a, v8i b) { return (a & m) | (b & ~m); }
/* 2^e per lane, from the exponent bits (-1022 <= e <= 1023) */
VINL v8d pow2v(v8i e) {
  v8l b = (__builtin_convertvector(e, v8l) + 1023) << 52;
  return (v8d)b;
}
/* floor(log2|v|) per lane (v normal) */
VINL v8i expov(v8d v) {
  v8l b = ((v8l)v >> 52) & 0x7FF;
  return __builtin_convertvector(b, v8i) - 1023;
}
VINL bool any8l(v8l a) {
  typedef int64_t v4l __attribute__((vector_size(32)));
  typedef int64_t v2l __attribute__((vector_size(16)));
  v4l b = __builtin_shufflevector(a, a, 0, 1, 2, 3) | __builtin_shufflevector(a, a, 4, 5, 6, 7);
  v2l c = __builtin_shufflevector(b, b, 0, 1) | __builtin_shufflevector(b, b, 2, 3);
  return (c[0] | c[1]) != 0;
}
/* truncation toward zero, exact for |v| < 2^63 */
VINL v8d truncv(v8d v) { return __builtin_convertvector(__builtin_convertvector(v, v8l), v8d); }
/* The same, four lanes, for |v| < 2^51 (a step's terms and C, scaled: below 2^(F + 2)),
 * without the conversion to int64, which x86 has in vectors only with
 * AVX-512 (AVX2 compilers convert lane by lane): round to nearest by the
 * 1.5 * 2^52 addition, then one step toward zero where that went away from
 * it ((t - v) v > 0: t is farther from zero than v). Four lanes, which
 * AVX compares in one instruction (GCC lowers comparisons of 8-lane
 * doubles lane by lane there). Exact: t and t - v are exact for
 * |v| < 2^51. */
typedef double v4d __attribute__((vector_size(32)));
typedef int64_t v4l __attribute__((vector_size(32)));
VINL v4d trunc4_small(v4d v) {
  const v4d magic = (v4d){0} + 0x1.8p52;
  v4d t = (v + magic) - magic;
  v4l away = (t - v) * v > 0;
  v4l one = ((v4l)v & INT64_MIN) | ((v4l){0} + 0x3FF0000000000000ll); /* copysign(1, v) */
  return t - (v4d)(one & away);
}

/* ---- rounding a step's exact sum to the output format --------------------------- */



/* Rounds the exact sums v of one step to the output format: the results
 * (the next step's C), their nominal exponents, and -1 in *bad where a
 * result overflows (the reference recomputes those). */
VINL void round_sum(const outfmt *of, v8d v, v8d *res, v8i *cexp, v8i *bad) {
  const v8d magic = {0x1.8p52, 0x1.8p52, 0x1.8p52, 0x1.8p52, 0x1.8p52, 0x1.8p52, 0x1.8p52, 0x1.8p52};
  v8i zero = __builtin_convertvector(v == 0, v8i);
  v8i ev = sel8i(zero, (v8i){0} + of->emin, expov(v));
  v8i q = max8i(ev, (v8i){0} + of->emin) - of->fbits;
  v8d u = v * pow2v(-q);
  u = of->rne ? (u + magic) - magic : truncv(u); /* RNE for |u| < 2^51 */
  v8d r = u * pow2v(q);
  r = (v8d)((v8l)r | ((v8l)v & ((v8l){0} + INT64_MIN))); /* a negative sum rounding to 0 is -0 */
  v8d ar = (v8d)((v8l)r & 0x7FFFFFFFFFFFFFFFll);
  *bad |= __builtin_convertvector(ar >= of->ovf, v8i);
  v8i rzero = __builtin_convertvector(r == 0, v8i);
  v8i er = max8i(sel8i(rzero, (v8i){0} + of->emin, expov(r)), (v8i){0} + of->emin);
  *cexp = sel8i(rzero, (v8i){0} + of->zexp, er);
  *res = r;
}

/* Toward zero when every v is 0 or normal in f32's range (the usual case):
 * clearing low bits of the doubles is the rounding. False (nothing
 * written) otherwise. */
VINL bool round_sum_rz_normal(const outfmt *of, v8d v, v8d *res, v8i *cexp) {
  /* (shifts, not comparisons: GCC turns 64-bit lane comparisons into
   * scalar code here) */
  v8l bits = (v8l)v;
  v8l ex = ((bits >> 52) & 0x7FF) - (1023 - 126); /* 0 .. 253: normal f32 exponents */
  v8l zero = ((bits & INT64_MAX) - 1) >> 63;      /* -1 where v is 0 */
  v8l out = ~zero & ((ex | (253 - ex)) >> 63);
  if (any8l(out)) return false;
  *res = (v8d)(bits & ~of->rz_mask);
  *cexp = __builtin_convertvector((zero & of->zexp) | (~zero & (ex - 126)), v8i);
  return true;
}

/* One element of A or B with its scale folded in: its exact value, its
 * nominal exponent (ZMARK: zero; mxf4 groups: the scale's alone); *sp set
 * for NaN/Inf. scode: its scale's code, or NULL. */
void tc5__gemm_decode(const gemm_job *J, const fdec *f, uint32_t code, bool neg, const uint32_t *scode,
                      double *v, int32_t *e, bool *sp);

/* One step of n products of one row over TW columns, the portable way: a,
 * ae the row's values and exponents from the step's first k; b, be the
 * columns' (k's TW values at b + k * bs); c and ce (the running C and its
 * nominal exponent) in, the step's result out; bad set where it overflows. */
void tc5__gemm_step_exact(const gemm_job *J, const double *a, const int32_t *ae, const double *b,
                          const int32_t *be, size_t bs, unsigned n, double c[TW], int32_t ce[TW],
                          uint8_t bad[TW]);

/* The AVX-512 kernel (arith_gemm_f32.c): whether it runs this model on this
 * machine; its operands for rows [r0, r0 + TR) of A and for the panel of B
 * at column j0 (decoded from the codes: av, bv, ae and be stay unused);
 * one tile over k in [kbeg, kend) (kbeg a multiple of the step): C read
 * from D, the results written there. Between blocks of k, D holds each
 * running C (an f32 value: the steps round to f32) or, where the reference
 * will compute the element (flagged in kbad), the caller's C. */
bool tc5__gemm_f32_usable(const tc5_dot *m);
void tc5__gemm_f32_init(gemm_job *J);
void tc5__gemm_f32_prepare_a(gemm_job *J, unsigned r0);
void tc5__gemm_f32_prepare_b(gemm_job *J, unsigned j0);
void tc5__gemm_tile_f32(gemm_job *J, unsigned i0, unsigned nr, unsigned j0, uint32_t *col, unsigned kbeg,
                        unsigned kend);
/* the reference for element (i, j) of D (rare: NaN/Inf, overflow) over k
 * in [kbeg, K), from the C in D; col is a K + 32 word scratch */
void tc5__gemm_reference_elem(gemm_job *J, unsigned i, unsigned j, uint32_t *col, unsigned kbeg);

/* What a tc5__gemm call did (for the tests): whether the AVX-512 kernel
 * ran, and how many of its row steps went the portable way. */
typedef struct tc5__gemm_info {
  bool f32;
  unsigned long slow_steps;
} tc5__gemm_info;

/* How a tc5__gemm call runs (for the tests): `portable` forces the
 * portable kernel; kblock (0: the default) sets the AVX-512 kernel's k per
 * block, rounded up to a whole number of steps. */
typedef struct tc5__gemm_ctl {
  bool portable;
  unsigned kblock;
} tc5__gemm_ctl;

/* tc5_gemm run as ctl says (NULL: as tc5_gemm); info may be NULL */
tc5_status tc5__gemm(const tc5_dot *m, unsigned M, unsigned N, unsigned K, const uint32_t *A,
                     const uint32_t *B, const uint32_t *SA, const uint32_t *SB, uint32_t *D,
                     const tc5_dot_opts *o, unsigned threads, const tc5__gemm_ctl *ctl, tc5__gemm_info *info);
/* tc5__gemm with the portable kernel's pass 2 as it was before its sums in
 * doubles (int64 sums of converted terms, lane by lane without AVX-512):
 * bench_gemm_core's baseline, the same results */
tc5_status tc5__gemm_int64_sums(const tc5_dot *m, unsigned M, unsigned N, unsigned K, const uint32_t *A,
                                const uint32_t *B, const uint32_t *SA, const uint32_t *SB, uint32_t *D,
                                const tc5_dot_opts *o, unsigned threads, const tc5__gemm_ctl *ctl);

#endif
