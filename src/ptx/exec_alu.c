/* tc5 PTX runner — integer, logic, bit-field, comparison and move
 * instructions (PTX ISA "Integer Arithmetic", "Logic and Shift",
 * "Comparison and Selection", "Data Movement: mov"). Each instruction's
 * semantics is one small function looping over the lanes; the width and
 * signedness come from the decoder (in->aux = bits, in->mods & M_SIGNED).
 * Values live zero-extended in 64-bit lanes. */
#include <string.h>
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#include <immintrin.h>
#endif

#include "ptx/decode_impl.h"
#include "ptx/float_impl.h"

enum { M_SIGNED = 1u << 0, M_SAT = 1u << 1, M_HI = 1u << 2, M_WIDE = 1u << 3, M_PAIR = 1u << 4, M_RELU = 1u << 5,
       M_CIN = 1u << 6, M_COUT = 1u << 7 };

/* an instruction's registers d, a (b, c) by R: PTX_R, or PTX_RL in a PTX_EXEC_L0 body (OPSL) */
#define OPSR2(R)                         \
  uint64_t *d = R(w, in->o[0].reg);      \
  const uint64_t *a = R(w, in->o[1].reg)
#define OPSR3(R) \
  OPSR2(R);      \
  const uint64_t *b = R(w, in->o[2].reg)
#define OPSR4(R) \
  OPSR3(R);      \
  const uint64_t *c = R(w, in->o[3].reg)
#define OPS2 OPSR2(PTX_R)
#define OPS3 OPSR3(PTX_R)
#define OPS4 OPSR4(PTX_R)
#define OPSL2 OPSR2(PTX_RL)
#define OPSL3 OPSR3(PTX_RL)
#define OPSL4 OPSR4(PTX_RL)

/* ---- add sub mul mad (lo, hi, wide) div rem min max ---- */

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
/* add of a whole warp by four lanes a vpaddq (session 13, bc: upsample_bicubic2d_aa's 28 add.s32 an
 * iteration; the loop below, d possibly a or b, ran lane by lane): d = (a + b) & m */
__attribute__((target("avx2"))) static void add_lanes_avx2(uint64_t *d, const uint64_t *a, const uint64_t *b, uint64_t m) {
  const __m256i k = _mm256_set1_epi64x((long long)m);
  for (unsigned l = 0; l < 32; l += 4) { /* a row's lanes read before they are written */
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(a + l));
    __m256i y = _mm256_loadu_si256((const __m256i *)(const void *)(b + l));
    _mm256_storeu_si256((__m256i *)(void *)(d + l), _mm256_and_si256(_mm256_add_epi64(x, y), k));
  }
}
/* mov of a whole warp the same way (its 26 mov.u32 an iteration): d = a & m */
__attribute__((target("avx2"))) static void and_lanes_avx2(uint64_t *d, const uint64_t *a, uint64_t m) {
  const __m256i k = _mm256_set1_epi64x((long long)m);
  for (unsigned l = 0; l < 32; l += 4)
    _mm256_storeu_si256((__m256i *)(void *)(d + l), _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(const void *)(a + l)), k));
}
/* mov.bN d, {a, b} and mov.bN {a, b}, d of a whole warp the same way (the f16 kernel's 43 an iteration):
 * d = (a & pm) | (b & pm) << pb; lo = x & pm, hi = (x >> pb) & pm */
__attribute__((target("avx2"))) static void pack2_lanes_avx2(uint64_t *d, const uint64_t *a, const uint64_t *b,
                                                             uint64_t pm, unsigned pb) {
  const __m256i k = _mm256_set1_epi64x((long long)pm);
  const __m128i s = _mm_cvtsi32_si128((int)pb);
  for (unsigned l = 0; l < 32; l += 4) {
    __m256i x = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(const void *)(a + l)), k);
    __m256i y = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(const void *)(b + l)), k);
    _mm256_storeu_si256((__m256i *)(void *)(d + l), _mm256_or_si256(x, _mm256_sll_epi64(y, s)));
  }
}
__attribute__((target("avx2"))) static void unpack2_lanes_avx2(uint64_t *lo, uint64_t *hi, const uint64_t *a, uint64_t pm,
                                                               unsigned pb) {
  const __m256i k = _mm256_set1_epi64x((long long)pm);
  const __m128i s = _mm_cvtsi32_si128((int)pb);
  for (unsigned l = 0; l < 32; l += 4) {
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(a + l));
    _mm256_storeu_si256((__m256i *)(void *)(lo + l), _mm256_and_si256(x, k));
    _mm256_storeu_si256((__m256i *)(void *)(hi + l), _mm256_and_si256(_mm256_srl_epi64(x, s), k));
  }
}
#else
#define pack2_lanes_avx2(d, a, b, pm, pb) PTX_LANES(0xFFFFFFFFu, (d)[l] = ((a)[l] & (pm)) | ((b)[l] & (pm)) << (pb))
#define unpack2_lanes_avx2(lo, hi, a, pm, pb) \
  do { PTX_LANES(0xFFFFFFFFu, (lo)[l] = (a)[l] & (pm)); PTX_LANES(0xFFFFFFFFu, (hi)[l] = ((a)[l] >> (pb)) & (pm)); } while (0)
#define add_lanes_avx2(d, a, b, m) PTX_LANES(0xFFFFFFFFu, (d)[l] = ((a)[l] + (b)[l]) & (m))
#define and_lanes_avx2(d, a, m) PTX_LANES(0xFFFFFFFFu, (d)[l] = (a)[l] & (m))
#define PTX_ROWS_AVX2(mask) 0
#endif
PTX_EXEC_L0(x_add) {
  OPSL3;
  uint64_t m = wmask(in->aux);
  if (PTX_ROWS_AVX2(mask)) add_lanes_avx2(d, a, b, m);
  else PTX_LANES(mask, d[l] = (a[l] + b[l]) & m);
  return PX_NEXT;
}
static PTX_EXEC(x_add_sat_s32) {
  OPS3;
  PTX_LANES(mask, {
    int64_t s = (int64_t)(int32_t)a[l] + (int32_t)b[l];
    s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
    d[l] = (uint32_t)s;
  });
  return PX_NEXT;
}
PTX_EXEC_L0(x_sub) {
  OPSL3;
  uint64_t m = wmask(in->aux);
  PTX_LANES(mask, d[l] = (a[l] - b[l]) & m);
  return PX_NEXT;
}
static PTX_EXEC(x_sub_sat_s32) {
  OPS3;
  PTX_LANES(mask, {
    int64_t s = (int64_t)(int32_t)a[l] - (int32_t)b[l];
    s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
    d[l] = (uint32_t)s;
  });
  return PX_NEXT;
}
PTX_EXEC_L0(x_mul_lo) {
  OPSL3;
  uint64_t m = wmask(in->aux);
  PTX_LANES(mask, d[l] = (a[l] * b[l]) & m);
  return PX_NEXT;
}
/* the full 2W-bit product of two W-bit values as 128 bits */
static inline unsigned __int128 prod(uint64_t x, uint64_t y, unsigned bits, bool sgn) {
  if (sgn) return (unsigned __int128)((__int128)sx(x, bits) * (__int128)sx(y, bits));
  return (unsigned __int128)x * y;
}
static PTX_EXEC(x_mul_hi) {
  OPS3;
  unsigned W = in->aux;
  bool s = in->mods & M_SIGNED;
  uint64_t m = wmask(W);
  PTX_LANES(mask, d[l] = (uint64_t)(prod(a[l], b[l], W, s) >> W) & m);
  return PX_NEXT;
}
PTX_EXEC_L0(x_mul_wide) {
  OPSL3;
  unsigned W = in->aux;
  bool s = in->mods & M_SIGNED;
  uint64_t m = wmask(2 * W);
  PTX_LANES(mask, d[l] = (uint64_t)prod(a[l], b[l], W, s) & m);
  return PX_NEXT;
}
PTX_EXEC_L0(x_mad_lo) {
  OPSL4;
  uint64_t m = wmask(in->aux);
  PTX_LANES(mask, d[l] = (a[l] * b[l] + c[l]) & m);
  return PX_NEXT;
}
static PTX_EXEC(x_mad_hi) {
  OPS4;
  unsigned W = in->aux;
  bool s = in->mods & M_SIGNED;
  uint64_t m = wmask(W);
  PTX_LANES(mask, d[l] = ((uint64_t)(prod(a[l], b[l], W, s) >> W) + c[l]) & m);
  return PX_NEXT;
}
/* mad.wide.s32 of a whole warp: each factor sign-extended from 32 bits, their product (it fits) plus c;
 * a loop the compiler vectorises (vpmuldq), in AVX2 where the host has it (issue 50, bc:
 * upsample_bicubic2d_aa's 25 addresses an iteration); d may be a, b or c */
static inline void mad_wide_s32_lanes(uint64_t *d, const uint64_t *a, const uint64_t *b, const uint64_t *c) {
  uint64_t r[32];
  for (unsigned l = 0; l < 32; l++) r[l] = (uint64_t)((int64_t)(int32_t)a[l] * (int64_t)(int32_t)b[l]) + c[l];
  for (unsigned l = 0; l < 32; l++) d[l] = r[l];
}
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
/* (session 13, bc) by four lanes a vpmuldq, written out: the compiler's vectorised loop of
 * mad_wide_s32_lanes shuffled each row's halves through the stack (a sixth of the kernel's time).
 * vpmuldq multiplies the low 32 bits of each 64-bit lane as signed: the sign-extended factors */
__attribute__((target("avx2"))) static void mad_wide_s32_lanes_avx2(uint64_t *d, const uint64_t *a, const uint64_t *b,
                                                                    const uint64_t *c) {
  for (unsigned l = 0; l < 32; l += 4) { /* a row's lanes read before they are written: d may be a, b or c */
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(a + l));
    __m256i y = _mm256_loadu_si256((const __m256i *)(const void *)(b + l));
    __m256i z = _mm256_loadu_si256((const __m256i *)(const void *)(c + l));
    _mm256_storeu_si256((__m256i *)(void *)(d + l), _mm256_add_epi64(_mm256_mul_epi32(x, y), z));
  }
}
/* mad.wide.u32 (and .u16) of a whole warp the same way (session 16, ft: the radix sort's sweep scatters each
 * key by 16 mad.wide.u32 a bin): the low 64 bits of the registers' whole words' product (as x_mad_wide's loop:
 * the low halves' vpmuludq, the cross products' low halves shifted up 32) plus c, masked by m */
__attribute__((target("avx2"))) static void mad_wide_u_lanes_avx2(uint64_t *d, const uint64_t *a, const uint64_t *b,
                                                                  const uint64_t *c, uint64_t m) {
  const __m256i k = _mm256_set1_epi64x((long long)m);
  for (unsigned l = 0; l < 32; l += 4) {
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(a + l));
    __m256i y = _mm256_loadu_si256((const __m256i *)(const void *)(b + l));
    __m256i z = _mm256_loadu_si256((const __m256i *)(const void *)(c + l));
    __m256i cross = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(x, 32), y),
                                     _mm256_mul_epu32(x, _mm256_srli_epi64(y, 32)));
    __m256i r = _mm256_add_epi64(_mm256_add_epi64(_mm256_mul_epu32(x, y), _mm256_slli_epi64(cross, 32)), z);
    _mm256_storeu_si256((__m256i *)(void *)(d + l), _mm256_and_si256(r, k));
  }
}
#else
#define mad_wide_s32_lanes_avx2 mad_wide_s32_lanes
#define mad_wide_u_lanes_avx2(d, a, b, c, m) PTX_LANES(0xFFFFFFFFu, (d)[l] = ((a)[l] * (b)[l] + (c)[l]) & (m))
#endif
PTX_EXEC_L0(x_mad_wide) {
  OPSL4;
  unsigned W = in->aux;
  bool s = in->mods & M_SIGNED;
  uint64_t m = wmask(2 * W);
  /* (issue 50, test_sort: Triton's address arithmetic) the low 64 bits of prod's product in
   * 64-bit arithmetic: unsigned, the registers' whole values as prod multiplies them; .s32,
   * each factor sign-extended from 32 bits (their product fits) */
  if (!s && PTX_ROWS_AVX2(mask)) mad_wide_u_lanes_avx2(d, a, b, c, m);
  else if (!s) PTX_LANES(mask, d[l] = (a[l] * b[l] + c[l]) & m);
  else if (W == 32 && mask == 0xFFFFFFFFu && PTX_HAS_AVX2()) mad_wide_s32_lanes_avx2(d, a, b, c);
  else if (W == 32) PTX_LANES(mask, d[l] = (uint64_t)((int64_t)(int32_t)a[l] * (int64_t)(int32_t)b[l]) + c[l]);
  else PTX_LANES(mask, d[l] = ((uint64_t)prod(a[l], b[l], W, s) + c[l]) & m);
  return PX_NEXT;
}
/* Division by zero: the PTX ISA leaves the result unspecified; tc5 gives all ones for the quotient and
 * for the remainder, as the H200 gave in PyTorch's CUDA kernels (tests/data/device_intdiv: `a / 0` and
 * `a % 0` of int8/int16/int32/uint8, divided as int: rem.s32; of int64, 0xFFFFFFFF where the dividend fits
 * 32 bits, the compiler's 32-bit path, and all 64 ones otherwise; tc5 gave the dividend for the remainder
 * until d53, session 9, and FlagGems' remainder kernel then differed from PyTorch's CUDA answer). */
static PTX_EXEC(x_div) {
  OPS3;
  unsigned W = in->aux;
  uint64_t m = wmask(W);
  if (in->mods & M_SIGNED) {
    PTX_LANES(mask, {
      int64_t x = sx(a[l], W), y = sx(b[l], W);
      if (y == 0) d[l] = m;
      else if (y == -1) d[l] = (0 - (uint64_t)x) & m;
      else d[l] = (uint64_t)(x / y) & m;
    });
  } else {
    PTX_LANES(mask, d[l] = b[l] ? a[l] / b[l] : m);
  }
  return PX_NEXT;
}
static PTX_EXEC(x_rem) {
  OPS3;
  unsigned W = in->aux;
  uint64_t m = wmask(W);
  if (in->mods & M_SIGNED) {
    PTX_LANES(mask, {
      int64_t x = sx(a[l], W), y = sx(b[l], W);
      if (y == 0) d[l] = m;
      else if (y == -1) d[l] = 0;
      else d[l] = (uint64_t)(x % y) & m;
    });
  } else {
    PTX_LANES(mask, d[l] = b[l] ? a[l] % b[l] : m);
  }
  return PX_NEXT;
}
PTX_EXEC_L0(x_min) {
  OPSL3;
  unsigned W = in->aux;
  if (in->mods & M_SIGNED) PTX_LANES(mask, d[l] = sx(a[l], W) < sx(b[l], W) ? a[l] : b[l]);
  else PTX_LANES(mask, d[l] = a[l] < b[l] ? a[l] : b[l]);
  return PX_NEXT;
}
PTX_EXEC_L0(x_max) {
  OPSL3;
  unsigned W = in->aux;
  if (in->mods & M_SIGNED) PTX_LANES(mask, d[l] = sx(a[l], W) > sx(b[l], W) ? a[l] : b[l]);
  else PTX_LANES(mask, d[l] = a[l] > b[l] ? a[l] : b[l]);
  return PX_NEXT;
}
/* min.relu.s32 / max.relu.s32 (FlagGems' bicubic upsampling clamps an index so): the
 * signed result, and 0 where it is negative (the PTX ISA's integer min/max: min{.relu}.btype, .btype
 * .s16x2 or .s32) */
static PTX_EXEC(x_min_relu_s32) {
  OPS3;
  PTX_LANES(mask, {
    int64_t r = sx(a[l], 32) < sx(b[l], 32) ? sx(a[l], 32) : sx(b[l], 32);
    d[l] = r < 0 ? 0 : (uint64_t)r;
  });
  return PX_NEXT;
}
static PTX_EXEC(x_max_relu_s32) {
  OPS3;
  PTX_LANES(mask, {
    int64_t r = sx(a[l], 32) > sx(b[l], 32) ? sx(a[l], 32) : sx(b[l], 32);
    d[l] = r < 0 ? 0 : (uint64_t)r;
  });
  return PX_NEXT;
}

/* add / min / max .u16x2 .s16x2 (PTX ISA 8.0, sm_90): the two half words of
 * a .b32 each on its own, add wrapping; min/max{.relu}.s16x2 (.relu: a
 * negative result is 0). in->aux2: 0 add, 1 min, 2 max */
static uint64_t x2_half(unsigned op, bool sgn, bool relu, uint32_t a, uint32_t b) {
  if (op == 0) return (a + b) & 0xffff;
  int32_t x = sgn ? (int16_t)a : (int32_t)a, y = sgn ? (int16_t)b : (int32_t)b;
  int32_t r = op == 1 ? (x < y ? x : y) : (x > y ? x : y);
  if (relu && r < 0) r = 0;
  return (uint32_t)r & 0xffff;
}
static PTX_EXEC(x_int16x2) {
  OPS3;
  unsigned op = in->aux2;
  bool sgn = in->mods & M_SIGNED, relu = in->mods & M_RELU;
  PTX_LANES(mask, {
    uint32_t x = (uint32_t)a[l], y = (uint32_t)b[l];
    d[l] = x2_half(op, sgn, relu, x & 0xffff, y & 0xffff) | x2_half(op, sgn, relu, x >> 16, y >> 16) << 16;
  });
  return PX_NEXT;
}
static tc5_status dec_int16x2(dctx *d, bool sgn, bool relu) {
  ptx_insn *in = d->in;
  const char *op = d->tok[0];
  unsigned k = !strcmp(op, "add") ? 0 : !strcmp(op, "min") ? 1 : !strcmp(op, "max") ? 2 : 3;
  if (k == 3) return d_fail(d, TC5_EUNSUPPORTED, "%s.%s16x2 is not modelled (add, min, max are)", op, sgn ? "s" : "u");
  if (relu && (k == 0 || !sgn)) return d_fail(d, TC5_EILLEGAL, ".relu belongs to min/max .s16x2 and .s32");
  if (!d_nops(d, 3, 3) || !d_dst(d, 0, &in->o[0]) || !d_src(d, 1, PT_B32, &in->o[1]) || !d_src(d, 2, PT_B32, &in->o[2]))
    return d->st;
  in->type = PT_B32;
  in->aux = 32;
  in->aux2 = k;
  in->mods |= (sgn ? M_SIGNED : 0) | (relu ? M_RELU : 0);
  in->fn = x_int16x2;
  return TC5_OK;
}

/* the integer types an instruction takes: *bits, *sgn */
static bool int_type(dctx *d, ptx_type t, bool allow_b) {
  char c = ptx_types[t].cls;
  unsigned b = ptx_types[t].bits;
  if (!((c == 'u' || c == 's' || (allow_b && c == 'b')) && b >= 16 && b <= 64)) {
    d_fail(d, TC5_EUNSUPPORTED, "type .%s is not modelled for this instruction", ptx_types[t].name);
    return false;
  }
  d->in->aux = b;
  d->in->aux2 = (uint32_t)wmask(b);
  if (c == 's') d->in->mods |= M_SIGNED;
  d->in->type = (uint8_t)t;
  return true;
}

/* ---- extended-precision arithmetic (PTX ISA 9.7.2): add.cc, addc{.cc}, sub.cc, subc{.cc},
 * mad{.lo,.hi}.cc, madc{.lo,.hi}{.cc} on .u32/.s32/.u64/.s64 ----
 * CC.CF is one bit a thread (w->cf): M_CIN reads it (addc: a + b + CF; madc: the product's half +
 * c + CF), M_COUT writes the carry out. A subtraction is an addition of ~b: sub.cc is a + ~b + 1
 * and subc a + ~b + CF, and CF is that sum's carry out, 1 when nothing was borrowed. The ISA's
 * text (subc: "a - (b + CC.CF)", a borrow) gives the same chains of sub.cc/subc; the H100 shows
 * the carry where an addc or madc takes CF from a subtraction (gpu/run.sh f64nan, alu_carry.ptx:
 * 512 threads, docs/spec-departures.md). The signed types are the same bits. in->aux: the
 * width; aux2: 0 add, 1 sub, 2 mad.lo, 3 mad.hi */
static PTX_EXEC(x_carry) {
  const uint64_t *a = PTX_R(w, in->o[1].reg), *b = PTX_R(w, in->o[2].reg);
  const uint64_t *c = in->aux2 >= 2 ? PTX_R(w, in->o[3].reg) : NULL;
  uint64_t *d = PTX_R(w, in->o[0].reg);
  unsigned W = in->aux, op = in->aux2;
  bool cin = in->mods & M_CIN, cout = in->mods & M_COUT, sgn = in->mods & M_SIGNED;
  uint64_t m = wmask(W);
  PTX_LANES(mask, {
    unsigned __int128 ci = cin ? w->cf[l] : op == 1, x = a[l] & m, y = b[l] & m;
    if (op == 1) y = ~b[l] & m;
    if (op >= 2) {
      unsigned __int128 p = prod(a[l] & m, b[l] & m, W, sgn);
      x = (op == 3 ? p >> W : p) & m;
      y = c[l] & m;
    }
    unsigned __int128 r = x + y + ci;
    d[l] = (uint64_t)r & m;
    if (cout) w->cf[l] = (r >> W) != 0;
  });
  return PX_NEXT;
}
/* op: add sub mad; cin: addc subc madc; cc: .cc taken (the carry out) */
static int dec_carry(dctx *d, const char *op, bool cin, bool cc) {
  ptx_insn *in = d->in;
  bool is_mad = !strcmp(op, "mad");
  bool lo = d_take(d, "lo"), hi = d_take(d, "hi");
  ptx_type t = d_take_type(d);
  if (t == PT_NONE) return d_fail(d, TC5_EPARSE, "%s%s needs a type", op, cin ? "c" : ".cc");
  unsigned bits = ptx_types[t].bits;
  char cls = ptx_types[t].cls;
  if (!((cls == 'u' || cls == 's') && (bits == 32 || bits == 64)))
    return d_fail(d, TC5_EILLEGAL, "%s%s takes .u32, .s32, .u64 or .s64 (9.7.2), not .%s", op, cin ? "c" : ".cc",
                  ptx_types[t].name);
  if (is_mad ? lo + hi != 1 : lo || hi)
    return d_fail(d, TC5_EPARSE, is_mad ? "mad%s needs one of .lo, .hi" : "%s%s takes no .lo/.hi", op,
                  cin ? "c" : ".cc");
  if (!int_type(d, t, false)) return d->st;
  unsigned nops = is_mad ? 4 : 3;
  if (!d_nops(d, nops, nops) || !d_dst(d, 0, &in->o[0])) return d->st;
  for (unsigned k = 1; k < nops; k++)
    if (!d_src(d, k, t, &in->o[k])) return d->st;
  in->aux2 = !strcmp(op, "add") ? 0 : !strcmp(op, "sub") ? 1 : hi ? 3 : 2;
  if (cin) in->mods |= M_CIN;
  if (cc) in->mods |= M_COUT;
  in->fn = x_carry;
  in->flags |= PF_LANE_STATE;
  return TC5_OK;
}
PTX_DEC(dec_addc) {
  const char *op = d->tok[0];
  char base[8];
  snprintf(base, sizeof base, "%.*s", (int)strlen(op) - 1, op); /* addc -> add */
  return dec_carry(d, base, true, d_take(d, "cc"));
}

PTX_DEC(dec_intbin) {
  ptx_insn *in = d->in;
  const char *op = d->tok[0];
  if ((!strcmp(op, "add") || !strcmp(op, "sub") || !strcmp(op, "mad")) && d_take(d, "cc")) return dec_carry(d, op, false, true);
  bool is_mad = !strcmp(op, "mad");
  bool lo = d_take(d, "lo"), hi = d_take(d, "hi"), wide = d_take(d, "wide");
  bool sat = d_take(d, "sat");
  bool relu = d_take(d, "relu"), u16x2 = d_take(d, "u16x2"), s16x2 = d_take(d, "s16x2");
  if ((u16x2 || s16x2) && !(lo || hi || wide || sat || (u16x2 && s16x2))) return dec_int16x2(d, s16x2, relu);
  ptx_type t = d_take_type(d);
  if (t == PT_NONE) return d_fail(d, TC5_EPARSE, "needs a type");
  if (relu && (t != PT_S32 || (strcmp(op, "min") && strcmp(op, "max"))))
    return d_fail(d, TC5_EILLEGAL, ".relu belongs to min/max .s16x2 and .s32 (min{.relu}.btype), not %s.%s", op,
                  ptx_types[t].name);
  bool allow_b = !strcmp(op, "add") || !strcmp(op, "sub");
  if (!int_type(d, t, allow_b)) return d->st;
  unsigned nops = is_mad ? 4 : 3;
  if (!d_nops(d, nops, nops)) return d->st;
  ptx_type st = t;
  if (wide) {
    if (in->aux == 64) return d_fail(d, TC5_EILLEGAL, ".wide needs a 16- or 32-bit type");
    static const ptx_type wider[PT_COUNT] = {[PT_U16] = PT_U32, [PT_S16] = PT_S32, [PT_U32] = PT_U64,
                                             [PT_S32] = PT_S64};
    st = t; /* sources are W bits; the destination (and mad's c) 2W */
    if (!d_dst(d, 0, &in->o[0]) || !d_src(d, 1, st, &in->o[1]) || !d_src(d, 2, st, &in->o[2])) return d->st;
    if (is_mad && !d_src(d, 3, wider[t], &in->o[3])) return d->st;
  } else {
    if (!d_dst(d, 0, &in->o[0])) return d->st;
    for (unsigned k = 1; k < nops; k++)
      if (!d_src(d, k, t, &in->o[k])) return d->st;
  }
  if (wide) in->mods |= M_WIDE;
  if (hi) in->mods |= M_HI;
  bool mul = !strcmp(op, "mul") || is_mad;
  if (mul) {
    if (lo + hi + wide != 1) return d_fail(d, TC5_EPARSE, "%s needs one of .lo, .hi, .wide", op);
    if (sat) return d_fail(d, TC5_EUNSUPPORTED, ".sat is not modelled for %s", op);
    in->fn = !strcmp(op, "mul") ? (lo ? x_mul_lo : hi ? x_mul_hi : x_mul_wide)
                                : (lo ? x_mad_lo : hi ? x_mad_hi : x_mad_wide);
    return TC5_OK;
  }
  if (lo || hi || wide) return d_fail(d, TC5_EPARSE, ".lo/.hi/.wide belong to mul and mad");
  if (sat) {
    if (t != PT_S32 || (strcmp(op, "add") && strcmp(op, "sub")))
      return d_fail(d, TC5_EILLEGAL, ".sat applies to add.s32 and sub.s32 only");
    in->fn = !strcmp(op, "add") ? x_add_sat_s32 : x_sub_sat_s32;
    return TC5_OK;
  }
  if (relu) {
    in->fn = !strcmp(op, "min") ? x_min_relu_s32 : x_max_relu_s32;
    return TC5_OK;
  }
  in->fn = !strcmp(op, "add")   ? x_add
           : !strcmp(op, "sub") ? x_sub
           : !strcmp(op, "div") ? x_div
           : !strcmp(op, "rem") ? x_rem
           : !strcmp(op, "min") ? x_min
                                : x_max;
  return TC5_OK;
}

/* ---- sad: d = c + |a - b| ---- */
static PTX_EXEC(x_sad) {
  OPS4;
  unsigned W = in->aux;
  uint64_t m = wmask(W);
  if (in->mods & M_SIGNED)
    PTX_LANES(mask, {
      int64_t x = sx(a[l], W), y = sx(b[l], W);
      d[l] = ((uint64_t)(x > y ? x - y : y - x) + c[l]) & m;
    });
  else PTX_LANES(mask, d[l] = ((a[l] > b[l] ? a[l] - b[l] : b[l] - a[l]) + c[l]) & m);
  return PX_NEXT;
}
PTX_DEC(dec_sad) {
  ptx_type t = d_take_type(d);
  if (t == PT_NONE || !int_type(d, t, false) || !d_nops(d, 4, 4) || !d_dst(d, 0, &d->in->o[0])) return d->st;
  for (unsigned k = 1; k < 4; k++)
    if (!d_src(d, k, t, &d->in->o[k])) return d->st;
  d->in->fn = x_sad;
  return TC5_OK;
}

/* dp4a.atype.btype d, a, b, c (9.7.1.23): c plus the four products of a's
 * and b's bytes, each byte sign-extended for .s32 and zero-extended for
 * .u32, modulo 2^32 (d is .s32 unless both are .u32). in->mods bit 0: a
 * signed, bit 1: b signed */
static PTX_EXEC(x_dp4a) {
  OPS4;
  bool sa = in->mods & 1, sb = in->mods & 2;
  PTX_LANES(mask, {
    uint32_t acc = (uint32_t)c[l];
    for (unsigned k = 0; k < 4; k++) {
      uint32_t x = (uint32_t)(a[l] >> (8 * k)) & 0xff, y = (uint32_t)(b[l] >> (8 * k)) & 0xff;
      int32_t xv = sa ? (int32_t)(int8_t)x : (int32_t)x, yv = sb ? (int32_t)(int8_t)y : (int32_t)y;
      acc += (uint32_t)(xv * yv);
    }
    d[l] = acc;
  });
  return PX_NEXT;
}
PTX_DEC(dec_dp4a) {
  ptx_type ta = d_take_type(d), tb = d_take_type(d);
  if ((ta != PT_U32 && ta != PT_S32) || (tb != PT_U32 && tb != PT_S32))
    return d_fail(d, TC5_EPARSE, "needs .atype.btype, each .u32 or .s32");
  if (!d_nops(d, 4, 4) || !d_dst(d, 0, &d->in->o[0])) return d->st;
  for (unsigned k = 1; k < 4; k++)
    if (!d_src(d, k, k == 1 ? ta : k == 2 ? tb : (ta == PT_U32 && tb == PT_U32 ? PT_U32 : PT_S32), &d->in->o[k]))
      return d->st;
  d->in->mods |= (ta == PT_S32 ? 1u : 0u) | (tb == PT_S32 ? 2u : 0u);
  d->in->fn = x_dp4a;
  return TC5_OK;
}

/* ---- abs neg (integers; floats in exec_float.c) ---- */
PTX_EXEC_L0(x_ineg) {
  OPSL2;
  uint64_t m = wmask(in->aux);
  PTX_LANES(mask, d[l] = (0 - a[l]) & m);
  return PX_NEXT;
}
static PTX_EXEC(x_iabs) {
  OPS2;
  unsigned W = in->aux;
  uint64_t m = wmask(W);
  PTX_LANES(mask, d[l] = sx(a[l], W) < 0 ? (0 - a[l]) & m : a[l]);
  return PX_NEXT;
}
PTX_DEC(dec_abs_neg) {
  ptx_type t = d_take_type(d);
  if (t == PT_NONE || ptx_types[t].cls != 's') return d_fail(d, TC5_EUNSUPPORTED, "needs an .s16/.s32/.s64 type");
  if (!int_type(d, t, false) || !d_nops(d, 2, 2)) return d->st;
  if (!d_dst(d, 0, &d->in->o[0]) || !d_src(d, 1, t, &d->in->o[1])) return d->st;
  d->in->fn = !strcmp(d->tok[0], "abs") ? x_iabs : x_ineg;
  return TC5_OK;
}

/* ---- and or xor not cnot ---- */
PTX_EXEC_L0(x_and) {
  OPSL3;
  PTX_LANES(mask, d[l] = a[l] & b[l]);
  return PX_NEXT;
}
PTX_EXEC_L0(x_or) {
  OPSL3;
  PTX_LANES(mask, d[l] = a[l] | b[l]);
  return PX_NEXT;
}
PTX_EXEC_L0(x_xor) {
  OPSL3;
  PTX_LANES(mask, d[l] = a[l] ^ b[l]);
  return PX_NEXT;
}
PTX_EXEC_L0(x_not) {
  OPSL2;
  uint64_t m = in->aux2 ? in->aux2 : ~0ull;
  if (in->aux == 64) m = ~0ull;
  PTX_LANES(mask, d[l] = ~a[l] & m);
  return PX_NEXT;
}
static PTX_EXEC(x_cnot) {
  OPS2;
  PTX_LANES(mask, d[l] = a[l] == 0);
  return PX_NEXT;
}
PTX_DEC(dec_logic) {
  ptx_type t = d_take_type(d);
  const char *op = d->tok[0];
  if (t == PT_NONE || !(ptx_types[t].cls == 'b' || t == PT_PRED) || ptx_types[t].bits > 64 ||
      ptx_types[t].bits == 8)
    return d_fail(d, TC5_EUNSUPPORTED, "%s takes .pred, .b16, .b32 or .b64", op);
  ptx_insn *in = d->in;
  in->type = (uint8_t)t;
  in->aux = ptx_types[t].bits;
  in->aux2 = (uint32_t)wmask(in->aux);
  bool unary = !strcmp(op, "not") || !strcmp(op, "cnot");
  unsigned n = unary ? 2 : 3;
  if (!d_nops(d, n, n) || !d_dst(d, 0, &in->o[0])) return d->st;
  for (unsigned k = 1; k < n; k++) {
    if (!d_src(d, k, t, &in->o[k])) return d->st;
    if (in->o[k].neg) return d_fail(d, TC5_EUNSUPPORTED, "negated operands of %s are not modelled", op);
  }
  in->fn = !strcmp(op, "and")   ? x_and
           : !strcmp(op, "or")  ? x_or
           : !strcmp(op, "xor") ? x_xor
           : !strcmp(op, "not") ? x_not
                                : x_cnot;
  if (t == PT_PRED && in->fn == x_not) in->aux = 1, in->aux2 = 1;
  return TC5_OK;
}

/* ---- shl shr: shift amounts are unsigned 32-bit, clamped at the width ---- */
/* shl (right 0) and shr.u (right 1) of the lanes of mask */
static inline void shift_lanes(uint64_t *d, const uint64_t *a, const uint64_t *b, unsigned W, bool right, uint32_t mask) {
  uint64_t m = wmask(W);
  if (right) {
    PTX_LANES(mask, {
      uint32_t s = (uint32_t)b[l];
      d[l] = s >= W ? 0 : a[l] >> s;
    });
  } else {
    PTX_LANES(mask, {
      uint32_t s = (uint32_t)b[l];
      d[l] = s >= W ? 0 : (a[l] << s) & m;
    });
  }
}
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
/* the same for a whole warp compiled for AVX2 (issue 50, size: its shift by each lane's count;
 * SSE2 has none), where the host has it */
__attribute__((target("avx2"))) static void shift_lanes_avx2(uint64_t *d, const uint64_t *a, const uint64_t *b,
                                                             unsigned W, bool right) {
  shift_lanes(d, a, b, W, right, 0xFFFFFFFFu);
}
static void shift_rows(uint64_t *d, const uint64_t *a, const uint64_t *b, unsigned W, bool right, uint32_t mask) {
  if (PTX_ROWS_AVX2(mask)) shift_lanes_avx2(d, a, b, W, right);
  else shift_lanes(d, a, b, W, right, mask);
}
#else
static void shift_rows(uint64_t *d, const uint64_t *a, const uint64_t *b, unsigned W, bool right, uint32_t mask) {
  shift_lanes(d, a, b, W, right, mask);
}
#endif
PTX_EXEC_L0(x_shl) {
  OPSL3;
  shift_rows(d, a, b, in->aux, false, mask);
  return PX_NEXT;
}
PTX_EXEC_L0(x_shr) {
  OPSL3;
  unsigned W = in->aux;
  uint64_t m = wmask(W);
  if (in->mods & M_SIGNED) {
    PTX_LANES(mask, {
      uint32_t s = (uint32_t)b[l];
      d[l] = (uint64_t)(sx(a[l], W) >> (s >= W ? W - 1 : s)) & m;
    });
  } else {
    shift_rows(d, a, b, W, true, mask);
  }
  return PX_NEXT;
}
/* shl/shr by an immediate amount (Triton's index arithmetic: shl.b64 %rd, %rd, 2), chosen by dec_shift:
 * x_shl's and x_shr's lanes with the amount (in->aux2, the constant register's value as the lanes' u32)
 * fixed before the loop, which then compiles to one vector shift (p53) */
PTX_EXEC_L0(x_shl_k) {
  OPSL2;
  unsigned W = in->aux, s = in->aux2;
  uint64_t m = wmask(W);
  if (s >= W) PTX_LANES(mask, d[l] = 0);
  else PTX_LANES(mask, d[l] = (a[l] << s) & m);
  return PX_NEXT;
}
PTX_EXEC_L0(x_shr_k) {
  OPSL2;
  unsigned W = in->aux, s = in->aux2;
  uint64_t m = wmask(W);
  if (in->mods & M_SIGNED) {
    unsigned k = s >= W ? W - 1 : s;
    PTX_LANES(mask, d[l] = (uint64_t)(sx(a[l], W) >> k) & m);
  } else if (s >= W) {
    PTX_LANES(mask, d[l] = 0);
  } else {
    PTX_LANES(mask, d[l] = a[l] >> s);
  }
  return PX_NEXT;
}
PTX_DEC(dec_shift) {
  ptx_type t = d_take_type(d);
  if (t == PT_NONE || ptx_types[t].bits < 16 || ptx_types[t].bits > 64 || ptx_types[t].cls == 'f')
    return d_fail(d, TC5_EUNSUPPORTED, "needs a 16-, 32- or 64-bit integer type");
  if (!int_type(d, t, true) || !d_nops(d, 3, 3)) return d->st;
  ptx_insn *in = d->in;
  if (!d_dst(d, 0, &in->o[0]) || !d_src(d, 1, t, &in->o[1]) || !d_src(d, 2, PT_U32, &in->o[2]))
    return d->st;
  in->fn = !strcmp(d->tok[0], "shl") ? x_shl : x_shr;
  const struct ptx_const *k = d->r->ops[2].kind == RO_INT ? ptx_const_of(d->m, in->o[2].reg) : NULL;
  if (k && k->kind == PC_VALUE) { /* an immediate amount */
    in->fn = in->fn == x_shl ? x_shl_k : x_shr_k;
    in->aux2 = (uint32_t)k->value;
  }
  return TC5_OK;
}

/* ---- popc clz brev bfind bfe bfi prmt lop3 shf ---- */
PTX_EXEC_L0(x_popc) {
  OPSL2;
  PTX_LANES(mask, d[l] = (uint64_t)__builtin_popcountll(a[l]));
  return PX_NEXT;
}
static PTX_EXEC(x_clz) {
  OPS2;
  unsigned W = in->aux;
  PTX_LANES(mask, d[l] = a[l] ? (uint64_t)(__builtin_clzll(a[l]) - (64 - (int)W)) : W);
  return PX_NEXT;
}
static PTX_EXEC(x_brev) {
  OPS2;
  unsigned W = in->aux;
  PTX_LANES(mask, {
    uint64_t v = a[l], r = 0;
    for (unsigned k = 0; k < W; k++) r |= ((v >> k) & 1) << (W - 1 - k);
    d[l] = r;
  });
  return PX_NEXT;
}
static PTX_EXEC(x_bfind) {
  OPS2;
  unsigned W = in->aux;
  bool s = in->mods & M_SIGNED, shamt = in->mods & M_HI;
  PTX_LANES(mask, {
    uint64_t v = a[l];
    if (s && sx(v, W) < 0) v = ~v & wmask(W);
    uint32_t r = v ? (uint32_t)(63 - __builtin_clzll(v)) : 0xFFFFFFFFu;
    if (shamt && r != 0xFFFFFFFFu) r = W - 1 - r;
    d[l] = r;
  });
  return PX_NEXT;
}
/* bfe with one position and length for the whole mask, some bits inside the register (the
 * compiler's constants): the loop below's result with its case analysis done once */
static inline bool bfe_lanes(uint64_t *d, const uint64_t *a, const uint64_t *b, const uint64_t *c, unsigned W, bool s,
                             uint32_t mask) {
  unsigned f = (unsigned)__builtin_ctz(mask), msb = W - 1;
  uint64_t b0 = b[f] & 0xff, c0 = c[f] & 0xff;
  uint64_t diff = 0; /* a lane's position or length another than the first lane's: some bit */
  PTX_LANES(mask, diff |= (b[l] ^ b0) | (c[l] ^ c0));
  unsigned pos = (unsigned)b0, len = (unsigned)c0;
  if ((diff & 0xff) || pos > msb || len == 0) return false;
  unsigned top = pos + len - 1 > msb ? msb : pos + len - 1, n = len < W - pos ? len : W - pos;
  uint64_t low = n >= 64 ? ~0ull : (1ull << n) - 1, all = W >= 64 ? ~0ull : (1ull << W) - 1, hi = all & ~low;
  uint64_t sm = s ? 1 : 0;
  PTX_LANES(mask, d[l] = ((a[l] >> pos) & low) | ((0 - ((a[l] >> top) & sm)) & hi));
  return true;
}
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
/* the same for a whole warp compiled for AVX2 (issue 50, size: its loops by rows), where the host has it */
__attribute__((target("avx2"))) static bool bfe_lanes_avx2(uint64_t *d, const uint64_t *a, const uint64_t *b,
                                                           const uint64_t *c, unsigned W, bool s) {
  return bfe_lanes(d, a, b, c, W, s, 0xFFFFFFFFu);
}
static bool bfe_rows(uint64_t *d, const uint64_t *a, const uint64_t *b, const uint64_t *c, unsigned W, bool s,
                     uint32_t mask) {
  return PTX_ROWS_AVX2(mask) ? bfe_lanes_avx2(d, a, b, c, W, s)
                                                              : bfe_lanes(d, a, b, c, W, s, mask);
}
#else
static bool bfe_rows(uint64_t *d, const uint64_t *a, const uint64_t *b, const uint64_t *c, unsigned W, bool s,
                     uint32_t mask) {
  return bfe_lanes(d, a, b, c, W, s, mask);
}
#endif
PTX_EXEC_L0(x_bfe) {
  OPSL4;
  unsigned W = in->aux, msb = W - 1;
  bool s = in->mods & M_SIGNED;
  if (mask && bfe_rows(d, a, b, c, W, s, mask)) return PX_NEXT;
  PTX_LANES(mask, {
    unsigned pos = (unsigned)(b[l] & 0xff), len = (unsigned)(c[l] & 0xff);
    uint64_t v = a[l];
    unsigned top = pos + len - 1 > msb ? msb : pos + len - 1;
    uint64_t sbit = (!s || len == 0) ? 0 : (v >> top) & 1;
    /* bits pos .. pos + n - 1 of v (n: those of the len inside the register), then sbit up to msb */
    unsigned n = pos > msb ? 0 : len < W - pos ? len : W - pos;
    uint64_t low = n >= 64 ? ~0ull : (1ull << n) - 1, all = W >= 64 ? ~0ull : (1ull << W) - 1;
    d[l] = (n ? (v >> pos) & low : 0) | (sbit ? all & ~low : 0);
  });
  return PX_NEXT;
}
static PTX_EXEC(x_bfi) {
  uint64_t *f = PTX_R(w, in->o[0].reg);
  const uint64_t *a = PTX_R(w, in->o[1].reg), *b = PTX_R(w, in->o[2].reg);
  const uint64_t *c = PTX_R(w, in->o[3].reg), *e = PTX_R(w, in->o[4].reg);
  unsigned W = in->aux, msb = W - 1;
  PTX_LANES(mask, {
    unsigned pos = (unsigned)(c[l] & 0xff), len = (unsigned)(e[l] & 0xff);
    uint64_t r = b[l];
    for (unsigned i = 0; i < len && pos + i <= msb; i++)
      r = (r & ~(1ull << (pos + i))) | (((a[l] >> i) & 1) << (pos + i));
    f[l] = r;
  });
  return PX_NEXT;
}
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
/* prmt.b32 of the default mode with a selector the same in every lane (an immediate: dec_bits' in->aux2) for a
 * whole warp, four lanes at a time in AVX2 (session 16, ft: the radix sort's sweep packs its bins' flags into
 * bytes by 12 prmt a bin): each lane's eight bytes x = a's low word | b's << 32 picked by one vpshufb (byte k of
 * the result x's byte s_k, the selector's nibble k's low 3 bits; bytes 4-7 zero), the bytes whose nibble has its
 * bit 3 (msbrep) then each the picked byte's sign bit replicated; d may be a or b */
__attribute__((target("avx2"))) static void prmt_lanes_avx2(uint64_t *d, const uint64_t *a, const uint64_t *b,
                                                            uint32_t sel) {
  uint8_t ctl[32], rep[32];
  for (unsigned j = 0; j < 4; j++) /* the four 64-bit lanes of a vector: two in each 128-bit half */
    for (unsigned k = 0; k < 8; k++) {
      unsigned nib = sel >> (4 * k) & 15;
      ctl[8 * j + k] = k < 4 ? (uint8_t)(8 * (j & 1) + (nib & 7)) : 0x80;
      rep[8 * j + k] = k < 4 && (nib & 8) ? 0xFF : 0;
    }
  __m256i vc, vr;
  memcpy(&vc, ctl, 32);
  memcpy(&vr, rep, 32);
  const __m256i lo = _mm256_set1_epi64x(0xffffffffll), z = _mm256_setzero_si256();
  for (unsigned l = 0; l < 32; l += 4) {
    __m256i x = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(const void *)(a + l)), lo);
    __m256i y = _mm256_loadu_si256((const __m256i *)(const void *)(b + l));
    __m256i v = _mm256_shuffle_epi8(_mm256_or_si256(x, _mm256_slli_epi64(y, 32)), vc);
    v = _mm256_blendv_epi8(v, _mm256_cmpgt_epi8(z, v), vr);
    _mm256_storeu_si256((__m256i *)(void *)(d + l), v);
  }
}
#endif
/* prmt: in->aux = mode (0 default, 1 f4e, 2 b4e, 3 rc8, 4 ecl, 5 ecr, 6 rc16); in->aux2: the default mode's
 * selector when an immediate, | 1 << 16 (0: a register's) */
PTX_EXEC_L0(x_prmt) {
  OPSL4;
  unsigned mode = in->aux;
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
  if (in->aux2 && PTX_ROWS_AVX2(mask)) {
    prmt_lanes_avx2(d, a, b, in->aux2 & 0xffffu);
    return PX_NEXT;
  }
#endif
  PTX_LANES(mask, {
    uint64_t x = (a[l] & 0xffffffffu) | (b[l] & 0xffffffffu) << 32;
    uint32_t sel = (uint32_t)c[l], r = 0;
    for (unsigned k = 0; k < 4; k++) {
      unsigned s;
      bool msbrep = false;
      switch (mode) {
      case 0: s = (sel >> (4 * k)) & 7; msbrep = (sel >> (4 * k + 3)) & 1; break;
      case 1: s = ((sel & 3) + k) & 7; break;
      case 2: s = ((sel & 3) - k) & 7; break;
      case 3: s = sel & 3; break;
      case 4: s = k > (sel & 3) ? k : (sel & 3); break; /* ecl (the H100) */
      case 5: s = k < (sel & 3) ? k : (sel & 3); break; /* ecr */
      default: s = ((sel & 1) * 2 + (k & 1)); break;
      }
      uint32_t byte = (uint32_t)(x >> (8 * s)) & 0xff;
      if (msbrep) byte = (byte & 0x80) ? 0xff : 0;
      r |= byte << (8 * k);
    }
    d[l] = r;
  });
  return PX_NEXT;
}
PTX_EXEC_L0(x_lop3) {
  OPSL4;
  uint32_t lut = in->aux;
  PTX_LANES(mask, {
    uint32_t r = 0, x = (uint32_t)a[l], y = (uint32_t)b[l], z = (uint32_t)c[l];
    if (lut & 0x01) r |= ~x & ~y & ~z;
    if (lut & 0x02) r |= ~x & ~y & z;
    if (lut & 0x04) r |= ~x & y & ~z;
    if (lut & 0x08) r |= ~x & y & z;
    if (lut & 0x10) r |= x & ~y & ~z;
    if (lut & 0x20) r |= x & ~y & z;
    if (lut & 0x40) r |= x & y & ~z;
    if (lut & 0x80) r |= x & y & z;
    d[l] = r;
  });
  return PX_NEXT;
}
/* shf.{l,r}.{wrap,clamp}.b32: aux bit 0 right, bit 1 clamp */
static PTX_EXEC(x_shf) {
  OPS4;
  bool right = in->aux & 1, clamp = in->aux & 2;
  PTX_LANES(mask, {
    uint64_t x = (a[l] & 0xffffffffu) | (b[l] & 0xffffffffu) << 32;
    uint32_t n = (uint32_t)c[l];
    n = clamp ? (n > 32 ? 32 : n) : (n & 31);
    d[l] = right ? (uint32_t)(x >> n) : (uint32_t)((x << n) >> 32);
  });
  return PX_NEXT;
}
PTX_DEC(dec_bits) {
  ptx_insn *in = d->in;
  const char *op = d->tok[0];
  if (!strcmp(op, "prmt")) {
    static const char *const modes[] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16", NULL};
    int mo = d_take_one(d, modes);
    in->aux = (uint32_t)(mo + 1);
    if (d_take_type(d) != PT_B32 || !d_nops(d, 4, 4)) return d_fail(d, TC5_EPARSE, "prmt takes .b32 and 4 operands");
    if (!d_dst(d, 0, &in->o[0])) return d->st;
    for (unsigned k = 1; k < 4; k++)
      if (!d_src(d, k, PT_B32, &in->o[k])) return d->st;
    /* the default mode's selector an immediate (its low 16 bits are all the mode reads) */
    if (mo < 0 && d->r->ops[3].kind == RO_INT) in->aux2 = 1u << 16 | ((uint32_t)d->r->ops[3].ival & 0xffffu);
    in->fn = x_prmt;
    return TC5_OK;
  }
  if (!strcmp(op, "lop3")) {
    int64_t lut;
    if (d_take_type(d) != PT_B32 || !d_nops(d, 5, 5)) return d_fail(d, TC5_EUNSUPPORTED, "lop3 takes .b32 and 5 operands");
    if (!d_dst(d, 0, &in->o[0]) || !d_imm(d, 4, &lut)) return d->st;
    for (unsigned k = 1; k < 4; k++)
      if (!d_src(d, k, PT_B32, &in->o[k])) return d->st;
    in->aux = (uint32_t)lut & 0xff;
    in->nops = 4;
    in->fn = x_lop3;
    return TC5_OK;
  }
  if (!strcmp(op, "shf")) {
    static const char *const dir[] = {"l", "r", NULL}, *const md[] = {"wrap", "clamp", NULL};
    int r = d_take_one(d, dir), c = d_take_one(d, md);
    if (r < 0 || c < 0 || d_take_type(d) != PT_B32 || !d_nops(d, 4, 4))
      return d_fail(d, TC5_EPARSE, "shf takes .l/.r, .wrap/.clamp, .b32 and 4 operands");
    in->aux = (uint32_t)(r | c << 1);
    if (!d_dst(d, 0, &in->o[0])) return d->st;
    for (unsigned k = 1; k < 4; k++)
      if (!d_src(d, k, PT_B32, &in->o[k])) return d->st;
    in->fn = x_shf;
    return TC5_OK;
  }
  bool shamt = !strcmp(op, "bfind") && d_take(d, "shiftamt");
  ptx_type t = d_take_type(d);
  if (t == PT_NONE) return d_fail(d, TC5_EPARSE, "needs a type");
  unsigned W = ptx_types[t].bits;
  if ((W != 32 && W != 64) || ptx_types[t].cls == 'f')
    return d_fail(d, TC5_EUNSUPPORTED, "type .%s is not modelled for %s", ptx_types[t].name, op);
  in->type = (uint8_t)t;
  in->aux = W;
  if (ptx_types[t].cls == 's') in->mods |= M_SIGNED;
  if (shamt) in->mods |= M_HI;
  if (!strcmp(op, "bfi")) {
    if (!d_nops(d, 5, 5) || !d_dst(d, 0, &in->o[0]) || !d_src(d, 1, t, &in->o[1]) ||
        !d_src(d, 2, t, &in->o[2]) || !d_src(d, 3, PT_U32, &in->o[3]) || !d_src(d, 4, PT_U32, &in->o[4]))
      return d->st;
    in->fn = x_bfi;
    return TC5_OK;
  }
  if (!strcmp(op, "bfe")) {
    if (!d_nops(d, 4, 4) || !d_dst(d, 0, &in->o[0]) || !d_src(d, 1, t, &in->o[1]) ||
        !d_src(d, 2, PT_U32, &in->o[2]) || !d_src(d, 3, PT_U32, &in->o[3]))
      return d->st;
    in->fn = x_bfe;
    return TC5_OK;
  }
  if (!d_nops(d, 2, 2) || !d_dst(d, 0, &in->o[0]) || !d_src(d, 1, t, &in->o[1])) return d->st;
  in->fn = !strcmp(op, "popc") ? x_popc : !strcmp(op, "clz") ? x_clz : !strcmp(op, "brev") ? x_brev : x_bfind;
  return TC5_OK;
}

/* ---- setp selp ---- */
enum { C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE, C_LO, C_LS, C_HI, C_HS, C_EQU, C_NEU, C_LTU, C_LEU, C_GTU,
       C_GEU, C_NUM, C_NAN };
static const char *const cmp_names[] = {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi",
                                        "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan", NULL};
enum { B_NONE, B_AND, B_OR, B_XOR };

static inline bool icmp(unsigned op, uint64_t x, uint64_t y, unsigned W, bool sgn) {
  if (sgn && op <= C_GE) {
    int64_t a = sx(x, W), b = sx(y, W);
    switch (op) {
    case C_EQ: return a == b;
    case C_NE: return a != b;
    case C_LT: return a < b;
    case C_LE: return a <= b;
    case C_GT: return a > b;
    default: return a >= b;
    }
  }
  switch (op) {
  case C_EQ: return x == y;
  case C_NE: return x != y;
  case C_LT: case C_LO: return x < y;
  case C_LE: case C_LS: return x <= y;
  case C_GT: case C_HI: return x > y;
  default: return x >= y;
  }
}

/* float comparisons on f32/f64/f16/bf16 values converted to double */
static inline bool fcmp(unsigned op, double a, double b) {
  bool un = a != a || b != b;
  switch (op) {
  case C_EQ: return !un && a == b;
  case C_NE: return !un && a != b;
  case C_LT: return !un && a < b;
  case C_LE: return !un && a <= b;
  case C_GT: return !un && a > b;
  case C_GE: return !un && a >= b;
  case C_EQU: return un || a == b;
  case C_NEU: return un || a != b;
  case C_LTU: return un || a < b;
  case C_LEU: return un || a <= b;
  case C_GTU: return un || a > b;
  case C_GEU: return un || a >= b;
  case C_NUM: return !un;
  default: return un;
  }
}

static inline bool boolop(unsigned bop, bool r, bool c) {
  switch (bop) {
  case B_AND: return r && c;
  case B_OR: return r || c;
  case B_XOR: return r != c;
  default: return r;
  }
}

/* setp's common forms (no second predicate, no boolean operation; integers, or f32 without
 * .ftz), one loop an operator: the same results as icmp and fcmp. false: another form */
#define SETP_LOOP(T, X, Y)                                                   \
  do {                                                                       \
    switch (op) {                                                            \
    case C_EQ: PTX_LANES(mask, { T x = X(a[l]), y = Y(b[l]); p[l] = x == y; }); return true; \
    case C_NE: PTX_LANES(mask, { T x = X(a[l]), y = Y(b[l]); p[l] = x != y && x == x && y == y; }); return true; \
    case C_LT: PTX_LANES(mask, { T x = X(a[l]), y = Y(b[l]); p[l] = x < y; }); return true; \
    case C_LE: PTX_LANES(mask, { T x = X(a[l]), y = Y(b[l]); p[l] = x <= y; }); return true; \
    case C_GT: PTX_LANES(mask, { T x = X(a[l]), y = Y(b[l]); p[l] = x > y; }); return true; \
    case C_GE: PTX_LANES(mask, { T x = X(a[l]), y = Y(b[l]); p[l] = x >= y; }); return true; \
    default: return false;                                                   \
    }                                                                        \
  } while (0)
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
/* setp_plain's integer forms of a whole warp by four lanes a 64-bit compare in AVX2 (session 16, ft: FlagGems'
 * radix sort, each key against each bin, 16 setp of lane-varying keys a bin in the histogram and the sweep).
 * Each lane's word v as the loop compares it, ordered as a signed 64-bit word: signed, v << (64 - W) (sx(v, W)'s
 * order: its low W bits on top; equality likewise); unsigned, the whole word with its top bit flipped (fl; 0 for
 * eq/ne). op: C_EQ .. C_GE (lo ls hi hs mapped to lt le gt ge by the caller); p may be a or b */
__attribute__((target("avx2"))) static void setp_lanes_avx2(uint64_t *p, const uint64_t *a, const uint64_t *b,
                                                            unsigned op, unsigned sh, uint64_t fl) {
  const __m128i ks = _mm_cvtsi32_si128((int)sh);
  const __m256i kf = _mm256_set1_epi64x((long long)fl), one = _mm256_set1_epi64x(1);
  /* the operator as (swap, eq, neg): r = cmp(x, y) (cmpeq or x > y), operands swapped first, result negated */
  bool eq = op == C_EQ || op == C_NE, swap = op == C_LT || op == C_GE, neg = op == C_NE || op == C_LE || op == C_GE;
  const __m256i kn = neg ? one : _mm256_setzero_si256();
  for (unsigned l = 0; l < 32; l += 4) {
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(a + l));
    __m256i y = _mm256_loadu_si256((const __m256i *)(const void *)(b + l));
    x = _mm256_xor_si256(_mm256_sll_epi64(x, ks), kf);
    y = _mm256_xor_si256(_mm256_sll_epi64(y, ks), kf);
    __m256i r = eq ? _mm256_cmpeq_epi64(x, y) : swap ? _mm256_cmpgt_epi64(y, x) : _mm256_cmpgt_epi64(x, y);
    _mm256_storeu_si256((__m256i *)(void *)(p + l), _mm256_xor_si256(_mm256_and_si256(r, one), kn));
  }
}
#endif
static bool setp_plain(uint64_t *p, const uint64_t *a, const uint64_t *b, unsigned op, unsigned W, bool sgn,
                       unsigned ft, bool ftz, uint32_t mask) {
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
  if (!ft && op <= C_HS && PTX_ROWS_AVX2(mask)) {
    if (sgn && op <= C_GE) setp_lanes_avx2(p, a, b, op, W >= 64 ? 0 : 64 - W, 0);
    else setp_lanes_avx2(p, a, b, op >= C_LO ? op - C_LO + C_LT : op, 0, op == C_EQ || op == C_NE ? 0 : 1ull << 63);
    return true;
  }
#endif
#define SETP_S(v) sx(v, W)
#define SETP_U(v) (v)
#define SETP_F(v) f32_of(v)
  if (!ft && sgn) {
    /* sx at 32 and 64 bits written as casts, the width fixed outside the loop (p53) */
#define SETP_S32(v) (int32_t)(uint32_t)(v)
#define SETP_S64(v) (int64_t)(v)
    if (W == 32) SETP_LOOP(int32_t, SETP_S32, SETP_S32);
    if (W == 64) SETP_LOOP(int64_t, SETP_S64, SETP_S64);
#undef SETP_S32
#undef SETP_S64
    SETP_LOOP(int64_t, SETP_S, SETP_S);
  }
  if (!ft && !sgn) {
    if (op >= C_LO && op <= C_HS) op = op - C_LO + C_LT; /* lo ls hi hs: unsigned lt le gt ge */
    SETP_LOOP(uint64_t, SETP_U, SETP_U);
  }
  if (ft == PT_F32 && !ftz) SETP_LOOP(float, SETP_F, SETP_F);
#undef SETP_S
#undef SETP_U
#undef SETP_F
  return false;
}

/* setp: aux = compare op, aux2 = bool op; mods: M_SIGNED, M_PAIR (p|q),
 * bit 8+ the float type (0 for integers), M_SAT = .ftz */
PTX_EXEC_L0(x_setp) {
  uint64_t *p = PTX_RL(w, in->o[0].reg);
  uint64_t *q = (in->mods & M_PAIR) ? PTX_RL(w, in->o[0].reg2) : NULL;
  const uint64_t *a = PTX_RL(w, in->o[1].reg), *b = PTX_RL(w, in->o[2].reg);
  const uint64_t *c = in->aux2 ? PTX_RL(w, in->o[3].reg) : NULL;
  bool cneg = in->o[3].neg;
  unsigned op = in->aux, bop = in->aux2, W = ptx_types[in->type].bits;
  unsigned ft = in->mods >> 8;
  bool sgn = in->mods & M_SIGNED, ftz = in->mods & M_SAT;
  if (!bop && !q && setp_plain(p, a, b, op, W, sgn, ft, ftz, mask)) return PX_NEXT;
  PTX_LANES(mask, {
    bool r = ft ? fcmp(op, ptx_fval(a[l], ft, ftz), ptx_fval(b[l], ft, ftz)) : icmp(op, a[l], b[l], W, sgn);
    bool cv = c ? ((c[l] != 0) != cneg) : false;
    p[l] = boolop(bop, r, cv);
    if (q) q[l] = boolop(bop, !r, cv);
  });
  return PX_NEXT;
}
/* ---- testp.{finite,infinite,number,notanumber,normal,subnormal}.{f32,f64} p, a ----
 * classified in a's own format (an f32 subnormal is normal as a double); zero is neither normal nor
 * subnormal. in->aux: the test */
static PTX_EXEC(x_testp) {
  uint64_t *p = PTX_R(w, in->o[0].reg);
  const uint64_t *a = PTX_R(w, in->o[1].reg);
  bool f64 = in->type == PT_F64;
  unsigned test = in->aux;
  PTX_LANES(mask, {
    uint64_t e = f64 ? a[l] >> 52 & 0x7ff : a[l] >> 23 & 0xff, emax = f64 ? 0x7ff : 0xff;
    uint64_t m = f64 ? a[l] & 0xfffffffffffffull : a[l] & 0x7fffff;
    bool nan = e == emax && m, inf = e == emax && !m;
    bool r = test == 0 ? e != emax : test == 1 ? inf : test == 2 ? !nan : test == 3 ? nan
           : test == 4 ? (e != 0 && e != emax) : (e == 0 && m);
    p[l] = r;
  });
  return PX_NEXT;
}
PTX_DEC(dec_testp) {
  ptx_insn *in = d->in;
  static const char *const tests[] = {"finite", "infinite", "number", "notanumber", "normal", "subnormal", NULL};
  int test = d_take_one(d, tests);
  ptx_type t = d_take_type(d);
  if (test < 0) return d_fail(d, TC5_EPARSE, "testp needs .finite/.infinite/.number/.notanumber/.normal/.subnormal");
  if (t != PT_F32 && t != PT_F64) return d_fail(d, TC5_EPARSE, "testp takes .f32 or .f64");
  in->type = (uint8_t)t;
  in->aux = (uint32_t)test;
  if (!d_nops(d, 2, 2) || !d_dst(d, 0, &in->o[0]) || !d_src(d, 1, t, &in->o[1])) return d->st;
  in->fn = x_testp;
  return TC5_OK;
}

/* ---- copysign.{f32,f64} d, a, b: b with a's sign bit (PTX ISA 9.7.3.2) ----
 * a bit operation: b's exponent and mantissa, a NaN's payload included, pass unchanged (H100:
 * gpu/run.sh f64nan, alu_carry.ptx) */
static PTX_EXEC(x_copysign) {
  uint64_t *d = PTX_R(w, in->o[0].reg);
  const uint64_t *a = PTX_R(w, in->o[1].reg), *b = PTX_R(w, in->o[2].reg);
  uint64_t s = in->type == PT_F64 ? 1ull << 63 : 1ull << 31;
  PTX_LANES(mask, { d[l] = (a[l] & s) | (b[l] & (s - 1)); });
  return PX_NEXT;
}
PTX_DEC(dec_copysign) {
  ptx_insn *in = d->in;
  ptx_type t = d_take_type(d);
  if (t != PT_F32 && t != PT_F64) return d_fail(d, TC5_EPARSE, "copysign takes .f32 or .f64");
  in->type = (uint8_t)t;
  if (!d_nops(d, 3, 3) || !d_dst(d, 0, &in->o[0]) || !d_src(d, 1, t, &in->o[1]) || !d_src(d, 2, t, &in->o[2]))
    return d->st;
  in->fn = x_copysign;
  return TC5_OK;
}

/* setp.CmpOp{.BoolOp}{.ftz}.{f16x2,bf16x2} p|q, a, b{, c}: the lower halves compared into p, the
 * upper into q (PTX ISA, setp; the H100: f64nan's half_pack kernel). .ftz flushes f16 subnormals */
static inline uint64_t ftz16(uint64_t h) { return (h & 0x7c00) ? h : h & 0x8000; }
/* setp.{eq,ne,lt,le,gt,ge}.bf16x2 without a BoolOp, one half of each lane into p (hi: the upper),
 * in SETP_LOOP's loops: a bf16 code's bits as the upper half of an f32 are its value exactly (NaN a
 * NaN; ptx_fval's double of every code equal, tests in the commit), so fcmp's results. false: another op */
static bool setp_bf16x2_half(uint64_t *p, const uint64_t *a, const uint64_t *b, unsigned op, uint32_t mask, bool hi) {
#define SETP_BLO(v) f32_of((uint32_t)(v) << 16)
#define SETP_BHI(v) f32_of((uint32_t)(v) & 0xffff0000u)
  if (hi) SETP_LOOP(float, SETP_BHI, SETP_BHI);
  SETP_LOOP(float, SETP_BLO, SETP_BLO);
#undef SETP_BLO
#undef SETP_BHI
  return false;
}
static PTX_EXEC(x_setp_x2) {
  uint64_t *p = PTX_R(w, in->o[0].reg), *q = PTX_R(w, in->o[0].reg2);
  const uint64_t *a = PTX_R(w, in->o[1].reg), *b = PTX_R(w, in->o[2].reg);
  const uint64_t *c = in->aux2 ? PTX_R(w, in->o[3].reg) : NULL;
  bool cneg = in->o[3].neg, ftz = in->mods & M_SAT;
  unsigned op = in->aux, bop = in->aux2, ft = in->type == PT_F16X2 ? PT_F16 : PT_BF16;
  if (!c && ft == PT_BF16 && setp_bf16x2_half(p, a, b, op, mask, false)) {
    setp_bf16x2_half(q, a, b, op, mask, true);
    return PX_NEXT;
  }
  PTX_LANES(mask, {
    bool cv = c ? ((c[l] != 0) != cneg) : false;
    for (unsigned h = 0; h < 2; h++) {
      uint64_t x = a[l] >> (16 * h) & 0xffff, y = b[l] >> (16 * h) & 0xffff;
      if (ftz) x = ftz16(x), y = ftz16(y);
      bool t = fcmp(op, ptx_fval(x, ft, false), ptx_fval(y, ft, false));
      (h ? q : p)[l] = boolop(bop, t, cv);
    }
  });
  return PX_NEXT;
}

PTX_DEC(dec_setp) {
  ptx_insn *in = d->in;
  int op = d_take_one(d, cmp_names);
  static const char *const bops[] = {"and", "or", "xor", NULL};
  int bop = d_take_one(d, bops);
  bool ftz = d_take(d, "ftz");
  ptx_type t = d_take_type(d);
  if (op < 0 || t == PT_NONE) return d_fail(d, TC5_EPARSE, "setp needs a comparison and a type");
  char cls = ptx_types[t].cls;
  in->type = (uint8_t)t;
  in->aux = (uint32_t)op;
  in->aux2 = (uint32_t)(bop + 1);
  bool x2 = t == PT_F16X2 || t == PT_BF16X2;
  if (x2) {
    if (op >= C_LO && op <= C_HS) return d_fail(d, TC5_EILLEGAL, "lo/ls/hi/hs compare integers only");
    if (ftz && t == PT_BF16X2) return d_fail(d, TC5_EILLEGAL, "setp.bf16x2 takes no .ftz");
    if (ftz) in->mods |= M_SAT;
  } else if (cls == 'f') {
    if (t != PT_F32 && t != PT_F64 && t != PT_F16 && t != PT_BF16)
      return d_fail(d, TC5_EUNSUPPORTED, "setp.%s is not modelled", ptx_types[t].name);
    if (op >= C_LO && op <= C_HS) return d_fail(d, TC5_EILLEGAL, "lo/ls/hi/hs compare integers only");
    in->mods |= (uint32_t)t << 8;
    if (ftz) in->mods |= M_SAT;
  } else {
    if (ftz) return d_fail(d, TC5_EILLEGAL, ".ftz applies to floating-point comparisons");
    if (op > C_HS) return d_fail(d, TC5_EILLEGAL, "unordered comparisons apply to floats only");
    if (cls == 's') in->mods |= M_SIGNED;
    if (ptx_types[t].bits < 16 || ptx_types[t].bits > 64) return d_fail(d, TC5_EUNSUPPORTED, "setp needs 16 to 64 bits");
  }
  unsigned n = bop >= 0 ? 4 : 3;
  if (!d_nops(d, n, n) || !d_dst(d, 0, &in->o[0])) return d->st;
  if (in->o[0].reg2 != PTX_NOREG) in->mods |= M_PAIR;
  else if (x2) return d_fail(d, TC5_EPARSE, "setp.%s writes two predicates: p|q", ptx_types[t].name);
  if (!d_src(d, 1, t, &in->o[1]) || !d_src(d, 2, t, &in->o[2])) return d->st;
  if (bop >= 0 && !d_src(d, 3, PT_PRED, &in->o[3])) return d->st;
  in->fn = x2 ? x_setp_x2 : x_setp;
  return TC5_OK;
}

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
/* selp of a whole warp without a branch (issue 50, test_sort: a scan's selps of lane-dependent
 * predicates, whose branches the host mispredicts), four lanes at a time in AVX2 (its 64-bit
 * compares) where the host has it: each lane's result depends on its own lane alone, and each
 * group's lanes are read before they are written, so d may be a, b or c */
typedef uint64_t selp_v4 __attribute__((vector_size(32)));
__attribute__((target("avx2"))) static void selp_lanes_avx2(uint64_t *d, const uint64_t *a, const uint64_t *b,
                                                            const uint64_t *c) {
  for (unsigned l = 0; l < 32; l += 4) {
    selp_v4 va, vb, vc;
    memcpy(&va, a + l, sizeof va);
    memcpy(&vb, b + l, sizeof vb);
    memcpy(&vc, c + l, sizeof vc);
    selp_v4 m = (selp_v4)(vc != 0);
    selp_v4 r = vb ^ ((va ^ vb) & m);
    memcpy(d + l, &r, sizeof r);
  }
}
#endif
PTX_EXEC_L0(x_selp) {
  OPSL4;
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
  if (PTX_ROWS_AVX2(mask)) {
    selp_lanes_avx2(d, a, b, c);
    return PX_NEXT;
  }
#endif
  PTX_LANES(mask, d[l] = c[l] ? a[l] : b[l]);
  return PX_NEXT;
}
PTX_DEC(dec_selp) {
  ptx_insn *in = d->in;
  ptx_type t = d_take_type(d);
  if (t == PT_NONE || t == PT_PRED || ptx_types[t].bits < 16 || ptx_types[t].bits > 64)
    return d_fail(d, TC5_EUNSUPPORTED, "selp needs a 16- to 64-bit type");
  in->type = (uint8_t)t;
  if (!d_nops(d, 4, 4) || !d_dst(d, 0, &in->o[0]) || !d_src(d, 1, t, &in->o[1]) || !d_src(d, 2, t, &in->o[2]) ||
      !d_src(d, 3, PT_PRED, &in->o[3]))
    return d->st;
  if (in->o[3].neg) return d_fail(d, TC5_EUNSUPPORTED, "a negated selector is not modelled");
  in->fn = x_selp;
  return TC5_OK;
}

/* ---- mov ---- */
PTX_EXEC_L0(x_mov) {
  OPSL2;
  uint64_t m = in->aux2 ? in->aux2 : ~0ull;
  if (PTX_ROWS_AVX2(mask)) and_lanes_avx2(d, a, m);
  else PTX_LANES(mask, d[l] = a[l] & m);
  return PX_NEXT;
}
PTX_EXEC_L0(x_mov64) {
  OPSL2;
  PTX_LANES(mask, d[l] = a[l]);
  return PX_NEXT;
}
static PTX_EXEC(x_mov_sreg) {
  uint64_t *d = PTX_R(w, in->o[0].reg);
  uint64_t m = in->aux2 ? in->aux2 : ~0ull;
  PTX_LANES(mask, d[l] = ptx_sreg_now(w, (unsigned)in->o[1].imm, l) & m);
  return PX_NEXT;
}
/* mov.bN d, {a, b, ...}: packs n parts of N/n bits, a in the low bits */
PTX_EXEC_L0(x_pack) {
  uint64_t *d = PTX_RL(w, in->o[0].reg);
  const uint32_t *v = w->cta->L->m->vregs + in->o[1].vec;
  unsigned n = in->o[1].n, pb = in->aux / n;
  uint64_t pm = wmask(pb);
  if (n == 2 && v[0] != in->o[0].reg && v[1] != in->o[0].reg) { /* two parts, d not one of them: the same, by rows */
    const uint64_t *a = PTX_RL(w, v[0]), *b = PTX_RL(w, v[1]);
    if (PTX_ROWS_AVX2(mask)) pack2_lanes_avx2(d, a, b, pm, pb);
    else PTX_LANES(mask, d[l] = (a[l] & pm) | (b[l] & pm) << pb);
    return PX_NEXT;
  }
  PTX_LANES(mask, {
    uint64_t r = 0;
    for (unsigned k = 0; k < n; k++) r |= (PTX_RL(w, v[k])[l] & pm) << (k * pb);
    d[l] = r;
  });
  return PX_NEXT;
}
PTX_EXEC_L0(x_unpack) {
  const uint32_t *v = w->cta->L->m->vregs + in->o[0].vec;
  const uint64_t *a = PTX_RL(w, in->o[1].reg);
  unsigned n = in->o[0].n, pb = in->aux / n;
  uint64_t pm = wmask(pb);
  if (n == 2 && v[0] != v[1] && v[0] != in->o[1].reg && v[1] != in->o[1].reg) {
    /* two parts into two registers other than a: the same, by rows */
    uint64_t *lo = PTX_RL(w, v[0]), *hi = PTX_RL(w, v[1]);
    if (PTX_ROWS_AVX2(mask)) {
      unpack2_lanes_avx2(lo, hi, a, pm, pb);
      return PX_NEXT;
    }
    PTX_LANES(mask, lo[l] = a[l] & pm);
    PTX_LANES(mask, hi[l] = (a[l] >> pb) & pm);
    return PX_NEXT;
  }
  PTX_LANES(mask, {
    uint64_t x = a[l];
    for (unsigned k = 0; k < n; k++) PTX_RL(w, v[k])[l] = (x >> (k * pb)) & pm;
  });
  return PX_NEXT;
}
/* mov.b128: a .b128 register is two cells, the low 64 bits in reg and the
 * high in reg + 1; {a, b} packs .b64 halves (a low), {a, b, c, d} .b32
 * quarters */
static PTX_EXEC(x_mov128) {
  const uint32_t *v = w->cta->L->m->vregs;
  unsigned mode = in->aux2; /* 0 copy, 1 pack, 2 unpack */
  const ptx_opnd *vo = &in->o[mode == 2 ? 0 : 1];
  unsigned n = mode ? vo->n : 2, pb = 128 / n;
  uint32_t q = mode == 2 ? in->o[1].reg : in->o[0].reg;
  PTX_LANES(mask, {
    uint64_t h[2];
    if (mode == 0) {
      h[0] = PTX_R(w, in->o[1].reg)[l], h[1] = PTX_R(w, in->o[1].reg + 1)[l];
      PTX_R(w, q)[l] = h[0], PTX_R(w, q + 1)[l] = h[1];
    } else if (mode == 1) {
      h[0] = h[1] = 0;
      for (unsigned k = 0; k < n; k++) h[k * pb / 64] |= (PTX_R(w, v[vo->vec + k])[l] & wmask(pb)) << (k * pb % 64);
      PTX_R(w, q)[l] = h[0], PTX_R(w, q + 1)[l] = h[1];
    } else {
      h[0] = PTX_R(w, q)[l], h[1] = PTX_R(w, q + 1)[l];
      for (unsigned k = 0; k < n; k++) PTX_R(w, v[vo->vec + k])[l] = (h[k * pb / 64] >> (k * pb % 64)) & wmask(pb);
    }
  });
  return PX_NEXT;
}
static tc5_status dec_mov128(dctx *d) {
  ptx_insn *in = d->in;
  if (!d_nops(d, 2, 2)) return d->st;
  unsigned vi = d->r->ops[1].kind == RO_VEC ? 1 : d->r->ops[0].kind == RO_VEC ? 0 : 2;
  if (vi == 2) {
    if (!d_reg128(d, 0, &in->o[0]) || !d_reg128(d, 1, &in->o[1])) return d->st;
  } else {
    unsigned n = d->r->ops[vi].n;
    if (n != 2 && n != 4) return d_fail(d, TC5_EPARSE, "mov.b128's vector has 2 (.b64) or 4 (.b32) elements, not %u", n);
    if (!d_reg128(d, 1 - vi, &in->o[1 - vi]) || !d_vec(d, vi, n, vi == 0, n == 2 ? PT_B64 : PT_B32, &in->o[vi]))
      return d->st;
  }
  in->type = PT_B128;
  in->aux2 = vi == 2 ? 0 : vi == 1 ? 1 : 2;
  in->fn = x_mov128;
  return TC5_OK;
}
PTX_DEC(dec_mov) {
  ptx_insn *in = d->in;
  ptx_type t = d_take_type(d);
  if (t == PT_NONE) return d_fail(d, TC5_EPARSE, "mov needs a type");
  unsigned W = ptx_types[t].bits;
  if (t == PT_B128) return dec_mov128(d);
  in->type = (uint8_t)t;
  in->aux = W;
  in->aux2 = W >= 64 ? 0 : (uint32_t)wmask(W);
  if (!d_nops(d, 2, 2)) return d->st;
  if (d->r->ops[1].kind == RO_VEC) {
    if (!d_dst(d, 0, &in->o[0]) || !d_vec(d, 1, 0, false, PT_B64, &in->o[1])) return d->st;
    if (in->o[1].n < 2 || W % in->o[1].n) return d_fail(d, TC5_EPARSE, "mov's vector must split the type evenly");
    in->fn = x_pack;
    return TC5_OK;
  }
  if (d->r->ops[0].kind == RO_VEC) {
    if (!d_vec(d, 0, 0, true, t, &in->o[0]) || !d_src(d, 1, t, &in->o[1])) return d->st;
    if (in->o[0].n < 2 || W % in->o[0].n) return d_fail(d, TC5_EPARSE, "mov's vector must split the type evenly");
    in->fn = x_unpack;
    return TC5_OK;
  }
  if (!d_dst(d, 0, &in->o[0]) || !d_src(d, 1, t, &in->o[1])) return d->st;
  if (in->o[1].kind == PO_SREG) in->fn = x_mov_sreg;
  else in->fn = W == 64 ? x_mov64 : x_mov;
  if (t == PT_PRED) in->aux2 = 1;
  return TC5_OK;
}

/* the functions built for lane 0 too (PTX_EXEC_L0) and those builds: run.c's run of hits */
ptx_exec_fn ptx_alu_lane0(ptx_exec_fn fn) {
  static const ptx_lane0_pair t[] = {
    {x_add, x_add_l0},
    {x_sub, x_sub_l0},
    {x_mul_lo, x_mul_lo_l0},
    {x_mul_wide, x_mul_wide_l0},
    {x_mad_lo, x_mad_lo_l0},
    {x_mad_wide, x_mad_wide_l0},
    {x_min, x_min_l0},
    {x_max, x_max_l0},
    {x_ineg, x_ineg_l0},
    {x_and, x_and_l0},
    {x_or, x_or_l0},
    {x_xor, x_xor_l0},
    {x_not, x_not_l0},
    {x_shl, x_shl_l0},
    {x_shr, x_shr_l0},
    {x_shl_k, x_shl_k_l0},
    {x_shr_k, x_shr_k_l0},
    {x_popc, x_popc_l0},
    {x_bfe, x_bfe_l0},
    {x_setp, x_setp_l0},
    {x_selp, x_selp_l0},
    {x_mov, x_mov_l0},
    {x_mov64, x_mov64_l0},
    {x_pack, x_pack_l0},
    {x_unpack, x_unpack_l0},
    {x_prmt, x_prmt_l0},
    {x_lop3, x_lop3_l0},
  };
  return ptx_lane0_find(t, sizeof t / sizeof t[0], fn);
}
