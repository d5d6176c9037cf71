/* tc5 PTX runner — the warp-level MMA of sm_80 and later: mma.sync.aligned
 * (PTX ISA "Warp-level Matrix Multiply-Accumulate Instructions", mma).
 * Triton emits it on sm_90 and sm_100 for dots that wgmma / tcgen05.mma do
 * not take (M below 64, 3-D dots, tf32x3, float64).
 *
 * One warp computes D (M x N) = A (M x K) * B (K x N) + C from its 32
 * threads' registers. Modelled (docs/ptx.md, "mma.sync"):
 *   m16n8k16 .f32.{f16,bf16}.{f16,bf16}.f32, .f16.f16.f16.f16
 *   m16n8k8  .f32.{f16,bf16}.{f16,bf16}.f32, .f16.f16.f16.f16, .f32.tf32.tf32.f32
 *   m16n8k4  .f32.tf32.tf32.f32
 *   m16n8k32, m16n8k16 .s32.{s8,u8}.{s8,u8}.s32 (.satfinite or not)
 *   m8n8k4   .f64.f64.f64.f64
 * each .row.col, on a .target of sm_90 (Hopper) or sm_100 and later
 * (Blackwell).
 *
 * Register fragments (PTX ISA "Matrix Fragments for mma.m16n8k*", checked
 * against CUTLASS's SM80 MMA traits, include/cute/atom/mma_traits_sm80.hpp):
 * lane l, g = l / 4, t = l % 4, e = 32 / (bits of A's type) elements a
 * register (f64: one a 64-bit register), element h of register r:
 *   A: row g + 8 (r % 2), column e t + h + 4 e (r / 2)
 *   B: row (k) e t + h + 4 e r, column g
 *   C/D (f32, s32, f64), register i: row g + 8 (i / 2), column 2 t + i % 2;
 *   f16 C/D: register j holds elements 2j (low half) and 2j + 1.
 *
 * Arithmetic. MMA-Sim (github.com/microsoft/MMA-Sim, c785138,
 * mmasim/simulator/nv_ptx.py `mma`, mmasim/isa/nv_ptx/nv_mma.py) models
 * mma on Hopper and Blackwell (sm_100) with the fused dot-product-add of
 * wgmma and tcgen05.mma: F = 25 fraction bits, all K products of the
 * instruction in one step (split in two halves only on Ampere and Ada),
 * f32 out toward zero, f16 out to nearest; f64 as a chain of IEEE fma in k
 * order. tc5 therefore runs the float kinds through tc5_gemm with its Hopper
 * (sm_90) or Blackwell (sm_100) model of the same kind, one step of the
 * instruction's K. Integers are exact sums, wrapping, or with .satfinite
 * clamped once, at the end of the instruction's one step. What MMA-Sim does
 * not cover on these architectures is refused by name: fp8 (e4m3/e5m2,
 * which MMA-Sim validated on Ada alone, with F = 13 and K split), the f64
 * shapes m16n8k{4,8,16}, m8n8k4 .f16, 4-bit and 1-bit integers, C and D of
 * different types, and every .target before sm_90. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "ptx/decode_impl.h"
#include "ptx/f64_nan.h"
#include "tc5/arith.h"

/* in->mods: bits 0-7 M, 8-15 N, 16-23 K, bit 24 .satfinite, bit 25 Blackwell;
 * in->type = D type, in->type2 = A type, in->space = B type, in->aux = C type;
 * operands o[0] D, o[1] A, o[2] B, o[3] C (vectors) */
#define MMA_M(in) ((in)->mods & 0xff)
#define MMA_N(in) (((in)->mods >> 8) & 0xff)
#define MMA_K(in) (((in)->mods >> 16) & 0xff)
#define MMA_SATF (1u << 24)
#define MMA_BLACKWELL (1u << 25)

static tc5_type mma_fmt(unsigned t) {
  switch (t) {
  case PT_F16: return TC5_F16;
  case PT_BF16: return TC5_BF16;
  case PT_TF32: return TC5_TF32;
  case PT_S8: return TC5_S8;
  case PT_U8: return TC5_U8;
  case PT_F32: return TC5_F32;
  case PT_S32: return TC5_S32;
  default: return TC5_TYPE_NONE;
  }
}

/* element h of register r of lane l: its (row, column) in A (M x K) */
static void frag_a(unsigned l, unsigned r, unsigned h, unsigned e, unsigned *row, unsigned *col) {
  *row = l / 4 + 8 * (r % 2);
  *col = e * (l % 4) + h + 4 * e * (r / 2);
}
/* ... in B (K x N): its k and n */
static void frag_b(unsigned l, unsigned r, unsigned h, unsigned e, unsigned *k, unsigned *n) {
  *k = e * (l % 4) + h + 4 * e * r;
  *n = l / 4;
}
/* element i (0-3) of lane l in C / D (M x N) */
static void frag_c(unsigned l, unsigned i, unsigned *row, unsigned *col) {
  *row = l / 4 + 8 * (i / 2);
  *col = 2 * (l % 4) + i % 2;
}

/* the whole warp: with part of it the fragments are undefined */
static int mma_whole_warp(ptx_warp *w, const ptx_insn *in, uint32_t mask) {
  if (mask == 0xffffffffu) return PX_NEXT;
  return ptx_fail(w, in, -1, TC5_EILLEGAL, mask,
                  "mma.sync needs all 32 threads of the warp: it ran for threads 0x%08x (the fragments of the others "
                  "are part of the operation)",
                  mask);
}

/* A (M x K), B (K x N) and C (M x N, into D) from the warp's fragments; e = 32 / (bits of A's
 * type), a constant in each of mma_gather's calls (the loops then unrolled, the shifts fixed) */
static inline __attribute__((always_inline)) void mma_gather_e(const ptx_warp *w, const ptx_insn *in, uint32_t *A,
                                                               uint32_t *B, uint32_t *D, unsigned e) {
  const tc5_ptx_module *m = w->cta->L->m;
  unsigned N = MMA_N(in), K = MMA_K(in), abits = 32 / e;
  uint32_t emask = abits == 32 ? 0xffffffffu : (1u << abits) - 1;
  const uint32_t *va = m->vregs + in->o[1].vec, *vb = m->vregs + in->o[2].vec, *vc = m->vregs + in->o[3].vec;
  bool d16 = in->type == PT_F16;
  unsigned row, col;
  /* by register, then lane (each element is one register's part of one lane: the order is free) */
  for (unsigned r = 0, na = in->o[1].n; r < na; r++) {
    const uint64_t *x = PTX_R(w, va[r]);
    for (unsigned l = 0; l < 32; l++)
      for (unsigned h = 0; h < e; h++) {
        frag_a(l, r, h, e, &row, &col);
        A[row * K + col] = (uint32_t)(x[l] >> (abits * h)) & emask;
      }
  }
  for (unsigned r = 0, nb = in->o[2].n; r < nb; r++) {
    const uint64_t *x = PTX_R(w, vb[r]);
    for (unsigned l = 0; l < 32; l++)
      for (unsigned h = 0; h < e; h++) {
        frag_b(l, r, h, e, &row, &col);
        B[row * N + col] = (uint32_t)(x[l] >> (abits * h)) & emask;
      }
  }
  for (unsigned i = 0; i < 4; i++) {
    const uint64_t *x = PTX_R(w, vc[d16 ? i / 2 : i]);
    for (unsigned l = 0; l < 32; l++) {
      frag_c(l, i, &row, &col);
      D[row * N + col] = d16 ? (uint32_t)(x[l] >> (16 * (i % 2))) & 0xffffu : (uint32_t)x[l];
    }
  }
}
static void mma_gather(const ptx_warp *w, const ptx_insn *in, uint32_t *A, uint32_t *B, uint32_t *D) {
  switch (ptx_types[in->type2].bits) {
  case 32: mma_gather_e(w, in, A, B, D, 1); break;
  case 16: mma_gather_e(w, in, A, B, D, 2); break;
  case 8: mma_gather_e(w, in, A, B, D, 4); break;
  default: mma_gather_e(w, in, A, B, D, 32 / ptx_types[in->type2].bits); break; /* (none: dec_mma refuses them) */
  }
}
/* D (M x N) into the warp's D fragments */
static void mma_scatter(ptx_warp *w, const ptx_insn *in, const uint32_t *D) {
  const uint32_t *vd = w->cta->L->m->vregs + in->o[0].vec;
  unsigned N = MMA_N(in);
  bool d16 = in->type == PT_F16;
  for (unsigned i = 0; i < 4; i++) { /* by register, then lane (f16: each lane's half of register i / 2) */
    uint64_t *reg = PTX_R(w, vd[d16 ? i / 2 : i]);
    unsigned sh = 16 * (i % 2);
    for (unsigned l = 0; l < 32; l++) {
      unsigned row, col;
      frag_c(l, i, &row, &col);
      if (d16) reg[l] = (reg[l] & ~(0xffffull << sh)) | (uint64_t)(D[row * N + col] & 0xffffu) << sh;
      else reg[l] = D[row * N + col];
    }
  }
}

/* the 16 bytes of four lanes' 32-bit values (x[0]'s first) as 16-bit integers, signed or not */
static inline void h16_of_bytes(int16_t *d, const uint64_t *x, bool sgn) {
  uint8_t by[16];
  for (unsigned q = 0; q < 4; q++) {
    uint32_t v = (uint32_t)x[q];
    for (unsigned h = 0; h < 4; h++) by[4 * q + h] = (uint8_t)(v >> (8 * h));
  }
  if (sgn)
    for (unsigned h = 0; h < 16; h++) d[h] = (int8_t)by[h];
  else
    for (unsigned h = 0; h < 16; h++) d[h] = by[h];
}
/* D = A * B + C of the integer kinds (m16n8k32 and m16n8k16; s8/u8 A and B, s32 C and D): the exact
 * sum, wrapped to 32 bits or, .satfinite, clamped, once (what tc5_gemm's integer tile gives in one
 * step of K, without a GEMM job for 4,096 products: FlagGems' int8 fused_moe runs millions of
 * these). The fragments by frag_a, frag_b and frag_c for 8-bit elements (e = 4): lanes 4g-4g+3 of a
 * register hold 16 consecutive k of one row of A or one column of B, in lane order, a lane's bytes in
 * order, from the k of lane 4g's element 0; K a constant in each call */
static inline __attribute__((always_inline)) void mma_int_k(ptx_warp *w, const ptx_insn *in, unsigned K) {
  const tc5_ptx_module *m = w->cta->L->m;
  const uint32_t *va = m->vregs + in->o[1].vec, *vb = m->vregs + in->o[2].vec, *vc = m->vregs + in->o[3].vec,
                 *vd = m->vregs + in->o[0].vec;
  bool as = in->type2 == PT_S8, bs = in->space == PT_S8, satf = (in->mods & MMA_SATF) != 0;
  int16_t a[16][32], b[8][32]; /* A by rows, B by columns; 16 bits: products' pairs summed as pmaddwd does */
  unsigned row, col;
  for (unsigned r = 0; r < K / 8; r++) {
    const uint64_t *x = PTX_R(w, va[r]);
    for (unsigned g = 0; g < 8; g++) {
      frag_a(4 * g, r, 0, 4, &row, &col);
      h16_of_bytes(a[row] + col, x + 4 * g, as);
    }
  }
  for (unsigned r = 0; r < K / 16; r++) {
    const uint64_t *x = PTX_R(w, vb[r]);
    for (unsigned g = 0; g < 8; g++) {
      frag_b(4 * g, r, 0, 4, &row, &col); /* (row: its k, col: its n) */
      h16_of_bytes(b[col] + row, x + 4 * g, bs);
    }
  }
  int32_t sum[16][8]; /* A x B: at most 32 products of 255 x 255 an element, no overflow */
#if defined(__SSE2__)
  /* by pmaddwd (SSE2, every x86-64): a row's pair of k (2p, 2p + 1) against four columns' pairs at once */
  __m128i bp[16][2];
  for (unsigned p = 0; p < K / 2; p++)
    for (unsigned h = 0; h < 2; h++)
      bp[p][h] = _mm_setr_epi16(b[4 * h][2 * p], b[4 * h][2 * p + 1], b[4 * h + 1][2 * p], b[4 * h + 1][2 * p + 1],
                                b[4 * h + 2][2 * p], b[4 * h + 2][2 * p + 1], b[4 * h + 3][2 * p], b[4 * h + 3][2 * p + 1]);
  for (unsigned i = 0; i < 16; i++) {
    __m128i s0 = _mm_setzero_si128(), s1 = _mm_setzero_si128();
    for (unsigned p = 0; p < K / 2; p++) {
      int32_t pair; /* a[i][2p] in the low half, a[i][2p + 1] in the high */
      memcpy(&pair, &a[i][2 * p], sizeof pair);
      __m128i av = _mm_set1_epi32(pair);
      s0 = _mm_add_epi32(s0, _mm_madd_epi16(av, bp[p][0]));
      s1 = _mm_add_epi32(s1, _mm_madd_epi16(av, bp[p][1]));
    }
    _mm_storeu_si128((__m128i *)(void *)&sum[i][0], s0);
    _mm_storeu_si128((__m128i *)(void *)&sum[i][4], s1);
  }
#else
  for (unsigned i = 0; i < 16; i++)
    for (unsigned j = 0; j < 8; j++) {
      int32_t s = 0;
      for (unsigned k = 0; k < K; k++) s += (int32_t)a[i][k] * (int32_t)b[j][k];
      sum[i][j] = s;
    }
#endif
  uint32_t out[4][32]; /* (D may be C's registers: all read before any is written) */
  for (unsigned i = 0; i < 4; i++) { /* C and D: register i */
    const uint64_t *c = PTX_R(w, vc[i]);
    for (unsigned l = 0; l < 32; l++) {
      frag_c(l, i, &row, &col);
      int64_t acc = (int64_t)(int32_t)(uint32_t)c[l] + sum[row][col];
      if (satf) acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
      out[i][l] = (uint32_t)acc;
    }
  }
  for (unsigned i = 0; i < 4; i++) {
    uint64_t *d = PTX_R(w, vd[i]);
    for (unsigned l = 0; l < 32; l++) d[l] = out[i][l];
  }
}
static void mma_int(ptx_warp *w, const ptx_insn *in) {
  if (MMA_K(in) == 32) mma_int_k(w, in, 32);
  else mma_int_k(w, in, 16); /* (dec_mma: k32 or k16) */
}

/* D = A * B + C, the float and integer kinds: one tc5_gemm of the
 * instruction's K in one step (the integer kinds: mma_int) */
static PTX_EXEC(x_mma) {
  if (!mask) return PX_NEXT;
  if (mma_whole_warp(w, in, mask) != PX_NEXT) return PX_ERROR;
  unsigned abits = ptx_types[in->type2].bits;
  if (in->type == PT_S32) {
    mma_int(w, in);
    return PX_NEXT;
  }
  tc5_dot dot;
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_status st = tc5_dot_model(in->mods & MMA_BLACKWELL ? TC5_MODEL_BLACKWELL : TC5_MODEL_HOPPER,
                                abits == 8 ? TC5_KIND_I8 : in->type2 == PT_TF32 ? TC5_KIND_TF32 : TC5_KIND_F16,
                                mma_fmt(in->type2), mma_fmt(in->space), mma_fmt(in->type), TC5_TYPE_NONE, 0,
                                (in->mods & MMA_SATF) != 0, &dot, &dg);
  if (st) return ptx_fail(w, in, -1, st, 0, "%s", dg.count ? dg.issue[0].message : tc5_strerror(st));
  dot.chunk = MMA_K(in); /* the instruction's K products in one step (MMA-Sim: no split on sm_90 / sm_100) */
  uint32_t A[16 * 32], B[32 * 8], D[16 * 8];
  mma_gather(w, in, A, B, D);
  st = tc5_gemm(&dot, MMA_M(in), MMA_N(in), MMA_K(in), A, B, NULL, NULL, D, NULL, 1);
  if (st) {
    tc5_diag_init(&dg);
    tc5_dot_check(&dot, MMA_K(in), NULL, &dg);
    return ptx_fail(w, in, -1, st, 0, "%s", dg.count ? dg.issue[0].message : tc5_strerror(st));
  }
  mma_scatter(w, in, D);
  return PX_NEXT;
}

static double mma_f64_of(uint64_t b) {
  double d;
  memcpy(&d, &b, 8);
  return d;
}
/* one step of the chain, d = fma(a, b, c), with the H100's NaNs (f64_nan.h: b, c, a;
 * gpu/run.sh mma, tests/data/ptx/mma90) */
static uint64_t mma_fma_f64(uint64_t a, uint64_t b, uint64_t c) {
  uint64_t ops[3] = {b, c, a}, nan;
  if (f64_nan_operand(ops, 3, &nan)) return nan;
  return f64_made(fma(mma_f64_of(a), mma_f64_of(b), mma_f64_of(c)));
}

/* m8n8k4 .f64: each element d = fma(a3, b3, fma(a2, b2, fma(a1, b1, fma(a0, b0, c)))), IEEE
 * round to nearest (MMA-Sim's mma for f64: fma in k order from C), NaNs as mma_fma_f64 */
static PTX_EXEC(x_mma_f64) {
  if (!mask) return PX_NEXT;
  if (mma_whole_warp(w, in, mask) != PX_NEXT) return PX_ERROR;
  const tc5_ptx_module *m = w->cta->L->m;
  uint64_t A[8][4], B[4][8], C[8][8];
  const uint64_t *ra = PTX_R(w, m->vregs[in->o[1].vec]), *rb = PTX_R(w, m->vregs[in->o[2].vec]);
  for (unsigned l = 0; l < 32; l++) {
    unsigned row, col, k, n;
    frag_a(l, 0, 0, 1, &row, &col);
    A[row][col] = ra[l];
    frag_b(l, 0, 0, 1, &k, &n);
    B[k][n] = rb[l];
    for (unsigned i = 0; i < 2; i++) {
      frag_c(l, i, &row, &col);
      C[row][col] = PTX_R(w, m->vregs[in->o[3].vec + i])[l];
    }
  }
  for (unsigned r = 0; r < 8; r++)
    for (unsigned n = 0; n < 8; n++)
      for (unsigned k = 0; k < 4; k++) C[r][n] = mma_fma_f64(A[r][k], B[k][n], C[r][n]);
  for (unsigned l = 0; l < 32; l++)
    for (unsigned i = 0; i < 2; i++) {
      unsigned row, col;
      frag_c(l, i, &row, &col);
      PTX_R(w, m->vregs[in->o[0].vec + i])[l] = C[row][col];
    }
  return PX_NEXT;
}

/* the fragments' register counts of a shape and A type: A, B, C/D */
static void mma_nregs(unsigned M, unsigned K, unsigned at, unsigned dt, unsigned *na, unsigned *nb, unsigned *nd) {
  unsigned abits = ptx_types[at].bits;
  if (at == PT_F64) {
    *na = *nb = 1;
    *nd = 2;
    return;
  }
  unsigned e = 32 / abits;
  *na = M * K / (32 * e);
  *nb = K * 8 / (32 * e);
  *nd = dt == PT_F16 ? 2 : 4;
}

PTX_DEC(dec_mma) {
  ptx_insn *in = d->in;
  if (!d_take(d, "sync") || !d_take(d, "aligned")) return d_fail(d, TC5_EPARSE, "needs .sync.aligned");
  in->flags |= PF_ALIGNED;
  if (d_take(d, "sp") || d_take(d, "sp::ordered_metadata"))
    return d_fail(d, TC5_EUNSUPPORTED, "sparse mma.sp is not modelled");
  const char *shape = NULL;
  for (unsigned k = 1; k < d->ntok && !shape; k++)
    if (!d->used[k] && d->tok[k][0] == 'm' && strchr(d->tok[k], 'n') && strchr(d->tok[k], 'k')) {
      shape = d->tok[k];
      d->used[k] = true;
    }
  unsigned M = 0, N = 0, K = 0;
  if (!shape || sscanf(shape, "m%un%uk%u", &M, &N, &K) != 3) return d_fail(d, TC5_EPARSE, "needs a shape .mMnNkK");
  if (d_take_prefix(d, "block_scale") || d_take_prefix(d, "kind::"))
    return d_fail(d, TC5_EUNSUPPORTED, "mma.sync with .kind / .block_scale (sm_120) is not modelled");
  bool row = d_take(d, "row"), col = d_take(d, "col");
  bool satf = d_take(d, "satfinite");
  bool rn = d_take(d, "rn");
  ptx_type dt = d_take_type(d), at = d_take_type(d), bt = d_take_type(d), ct = d_take_type(d);
  if (dt == PT_NONE || at == PT_NONE || bt == PT_NONE || ct == PT_NONE)
    return d_fail(d, TC5_EPARSE, "needs .dtype.atype.btype.ctype");
  bool integer = (at == PT_S8 || at == PT_U8) && (bt == PT_S8 || bt == PT_U8);
  bool fp16 = (at == PT_F16 || at == PT_BF16) && bt == at;
  /* what the model covers: the shapes and types above; the rest by name */
  if (at == PT_E4M3 || at == PT_E5M2 || bt == PT_E4M3 || bt == PT_E5M2)
    return d_fail(d, TC5_EUNSUPPORTED,
                  "[mma-fp8-arith] mma.sync with .%s x .%s is not modelled: MMA-Sim validated fp8 mma on Ada only "
                  "(F = 13, K in two halves); nothing pins its arithmetic on sm_90 / sm_100",
                  ptx_types[at].name, ptx_types[bt].name);
  if (!row || !col)
    return d_fail(d, TC5_EUNSUPPORTED, "mma.sync %s is modelled with .row.col only", shape);
  bool ok;
  if (at == PT_F64)
    ok = M == 8 && N == 8 && K == 4 && bt == PT_F64 && dt == PT_F64 && ct == PT_F64;
  else if (integer)
    ok = M == 16 && N == 8 && (K == 16 || K == 32) && dt == PT_S32 && ct == PT_S32;
  else if (at == PT_TF32)
    ok = M == 16 && N == 8 && (K == 4 || K == 8) && bt == PT_TF32 && dt == PT_F32 && ct == PT_F32;
  else if (fp16)
    ok = M == 16 && N == 8 && (K == 8 || K == 16) && dt == ct && (dt == PT_F32 || (dt == PT_F16 && at == PT_F16));
  else
    ok = false;
  if (!ok)
    return d_fail(d, TC5_EUNSUPPORTED,
                  "mma.sync.%s .%s.%s.%s.%s is not modelled (m16n8k16/k8 f16, bf16 to f32 and f16 to f16 with C of D's "
                  "type; m16n8k8/k4 tf32; m16n8k32/k16 s8, u8; m8n8k4 f64)",
                  shape, ptx_types[dt].name, ptx_types[at].name, ptx_types[bt].name, ptx_types[ct].name);
  if (satf && !integer) return d_fail(d, TC5_EILLEGAL, ".satfinite belongs to the integer mma");
  if (rn && at != PT_F64) return d_fail(d, TC5_EILLEGAL, ".rn belongs to the f64 mma");
  const tc5_ptx_module *mod = d->m;
  bool blackwell;
  if (!strncmp(mod->target, "sm_90", 5))
    blackwell = false;
  else if (!strncmp(mod->target, "sm_10", 5) || !strncmp(mod->target, "sm_11", 5))
    blackwell = true;
  else
    return d_fail(d, TC5_EUNSUPPORTED,
                  "[mma-arch] mma.sync's arithmetic is modelled for .target sm_90 and sm_100-sm_110 (Hopper, "
                  "Blackwell), not .target %s",
                  mod->target[0] ? mod->target : "(none)");
  unsigned na, nb, nd;
  mma_nregs(M, K, at, dt, &na, &nb, &nd);
  ptx_type vt = at == PT_F64 ? PT_F64 : PT_B32;
  if (!d_nops(d, 4, 4) || !d_vec(d, 0, nd, true, vt, &in->o[0]) || !d_vec(d, 1, na, false, vt, &in->o[1]) ||
      !d_vec(d, 2, nb, false, vt, &in->o[2]) || !d_vec(d, 3, nd, false, vt, &in->o[3]))
    return d->st;
  in->type = (uint8_t)dt;
  in->type2 = (uint8_t)at;
  in->space = (uint8_t)bt;
  in->aux = ct;
  in->mods = M | N << 8 | K << 16 | (satf ? MMA_SATF : 0) | (blackwell ? MMA_BLACKWELL : 0);
  in->nops = 4;
  in->fn = at == PT_F64 ? x_mma_f64 : x_mma;
  return TC5_OK;
}
