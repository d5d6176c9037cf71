/* tc5 — the special-function unit's model, as inline functions: compiled
 * for the host by sfu.c (the library, tc5/sfu.h) and for the GPU by
 * gpu/sfu_check.cu, which compares it with the H100's own instructions on
 * every input (`gpu/run.sh sfu`). One function per instruction (sfu_*),
 * around the MUFU cores (mufu_*); see sfu.c for what they model. Needs IEEE
 * binary32 with subnormals and no contraction of a * b + c
 * (-ffp-contract=off; nvcc -fmad=false). */
#ifndef TC5_SFU_MODEL_H
#define TC5_SFU_MODEL_H
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "sfu/sfu_tables.h"

#ifdef __CUDACC__
#define TC5_SFU_FN static __device__ inline
#else
#define TC5_SFU_FN static inline
#endif

TC5_SFU_FN float m_u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
TC5_SFU_FN uint32_t m_f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
#define QNAN 0x7fffffffu
#define PINF 0x7f800000u

/* truncated 17-bit squarer: sum of the partial products x_i * (x >> (18-i)), halved */
TC5_SFU_FN uint32_t sfu_sq17(uint32_t x) {
  uint32_t r = 0;
  for (int i = 1; i < 17; i++) r += (x >> (18 - i)) & (0u - (x >> i & 1));
  return r >> 1;
}
/* sfu_sq17 of 32 values (a warp's lanes): one loop over them, which the
 * compiler vectorises (the squarer's own loop unrolled inside) */
TC5_SFU_FN void sfu_sq17_32(const uint32_t *x, uint32_t *sq) {
  uint32_t t[32];
  for (unsigned l = 0; l < 32; l++) t[l] = sfu_sq17(x[l]);
  for (unsigned l = 0; l < 32; l++) sq[l] = t[l];
}
TC5_SFU_FN int64_t quad(const int32_t c[3], int s0, uint32_t lo, uint32_t sq, int s2) {
  /* products, not shifts: a coefficient may be negative (a left shift of a
   * negative value is undefined in C) */
  return (int64_t)c[0] * ((int64_t)1 << s0) + (int64_t)c[1] * lo + (int64_t)c[2] * sq * ((int64_t)1 << s2);
}

/* ---------------- MUFU cores (flush-to-zero, as in hardware) ---------------- */
TC5_SFU_FN uint32_t mufu_rcp(uint32_t x) {
  uint32_t s = x & 0x80000000u, e = x >> 23 & 0xff, f = x & 0x7fffff;
  if (e == 0) return s | PINF;
  if (e == 255) return f ? QNAN : s;
  int ee = 253 - (int)e;
  uint32_t lo = f & 0xffff;
  uint32_t m = (uint32_t)((quad(tc5__sfu_tab_rcp[f >> 16], 13, lo, sfu_sq17(lo << 1), 0) + 0x47e7) >> 15);
  if (ee > 0) return s | (((uint32_t)ee << 23) + m - (1u << 23));
  /* results below 2^-126 flush to zero, unless rounding carried up to exactly 2^-126 */
  return s | ((ee == 0 && m == 1u << 24) ? 1u << 23 : 0);
}
TC5_SFU_FN uint32_t mufu_rsq(uint32_t x) {
  uint32_t s = x & 0x80000000u, e = x >> 23 & 0xff, f = x & 0x7fffff;
  if (e == 0) return s | PINF;
  if (s) return QNAN;
  if (e == 255) return f ? QNAN : 0;
  int E = (int)e - 127, h = E & 1;            /* x = 2^(2k+h) * 1.f */
  int k = (E - h) / 2;
  f |= (uint32_t)h << 23;
  if (!f) return (uint32_t)(127 - k) << 23;  /* exact power of four */
  uint32_t lo = f & 0x1ffff;
  uint32_t m = (uint32_t)((quad(tc5__sfu_tab_rsqrt[f >> 17], 14, lo, sfu_sq17(lo), 2) + 0x7fff) >> 16);
  return ((uint32_t)(126 - k) << 23) + (m - (1u << 23));
}
TC5_SFU_FN uint32_t mufu_sqrt(uint32_t x) {
  uint32_t s = x & 0x80000000u, e = x >> 23 & 0xff, f = x & 0x7fffff;
  if (e == 0) return s;                       /* +-0 and denormals */
  if (s) return QNAN;
  if (e == 255) return f ? QNAN : PINF;
  int E = (int)e - 127, h = E & 1, k = (E - h) / 2;
  f |= (uint32_t)h << 23;
  uint32_t lo = f & 0x1ffff;
  const int32_t *c = tc5__sfu_tab_sqrt[f >> 17];
  int64_t p = (int64_t)c[0] * 32768 + (int64_t)c[1] * lo + 2 * (int64_t)c[2] * sfu_sq17(lo) + 0x7fff;
  uint32_t m = (uint32_t)(p >> 17);          /* 1.23 fixed point, may carry to 2.0 */
  return ((uint32_t)(127 + k) << 23) + (m - (1u << 23));
}
/* MUFU.TANH: identity below 2^-8, +-1 from 8 up, else a segmented quadratic
 * (1 to 16 segments per binade) on the top 17+k fraction bits, result truncated */
TC5_SFU_FN uint32_t mufu_tanh(uint32_t x) {
  uint32_t s = x & 0x80000000u, e = x >> 23 & 0xff, f = x & 0x7fffff;
  if (e == 255 && f) return QNAN;
  if (e >= 0x82) return s | 0x3f800000u;
  if (e < 0x77) return x;
  int k = tc5__sfu_tanh_kbits[e - 0x77];
  const tc5__sfu_tanh_seg *g = &tc5__sfu_tab_tanh[tc5__sfu_tanh_base[e - 0x77] + (f >> (23 - k))];
  uint32_t lo = (f >> (6 - k)) & 0x1ffff;
  int64_t P = g->A + (int64_t)g->C1 * lo + (int64_t)g->C2 * sfu_sq17(lo);
  int p = 63; while (!(P >> p & 1)) p--;
  uint32_t m = p >= 23 ? (uint32_t)(P >> (p - 23)) : (uint32_t)(P << (23 - p));
  uint32_t ex = g->emin + (uint32_t)(p - 23) - g->sr;
  return s | (ex << 23) | (m & 0x7fffff);
}
/* float -> sign-magnitude 7.23 fixed point, magnitude truncated; -1 = overflow */
TC5_SFU_FN int64_t fix_7_23(uint32_t e, uint32_t f) {
  uint32_t m = f | 1u << 23;
  int sh = (int)e - 127;
  if (sh >= 7) return -1;
  if (sh >= 0) return (int64_t)m << sh;
  return -sh > 31 ? 0 : (int64_t)(m >> -sh);
}
/* MUFU.EX2 in two steps (the host's runner squares a warp's lo at once:
 * sfu_sq17_32): mufu_ex2_pre gives the result (1) or the biased exponent
 * and the fraction F to interpolate (0); mufu_ex2_fin with sq = sfu_sq17(F &
 * 0x1ffff) the result */
TC5_SFU_FN int mufu_ex2_pre(uint32_t x, uint32_t *r, int *exp, uint32_t *frac) {
  uint32_t s = x >> 31, e = x >> 23 & 0xff, f = x & 0x7fffff;
  if (e == 255) { *r = f ? QNAN : s ? 0 : PINF; return 1; }
  int64_t v = e ? fix_7_23(e, f) : 0;
  if (v < 0) { *r = s ? 0 : PINF; return 1; }
  int I = (int)(v >> 23); uint32_t F = (uint32_t)v & 0x7fffff;
  int ex;
  if (s) { ex = -I - 1; if (F) F = ~F & 0x7fffff; else ex++; } else ex = I;
  *exp = ex + 127;
  *frac = F;
  return 0;
}
TC5_SFU_FN uint32_t mufu_ex2_fin(int ex, uint32_t F, uint32_t sq) {
  uint32_t lo = F & 0x1ffff;
  uint32_t m = (uint32_t)((quad(tc5__sfu_tab_ex2[F >> 17], 13, lo, sq, 0) + 0x77e2) >> 15);
  m -= 1u << 23;
  if (m == 1u << 23) { m = 0; ex++; }
  if (ex <= 0) return 0;
  if (ex >= 255) return PINF;
  return (uint32_t)ex << 23 | m;
}
TC5_SFU_FN uint32_t mufu_ex2(uint32_t x) {
  uint32_t r, F;
  int ex;
  if (mufu_ex2_pre(x, &r, &ex, &F)) return r;
  return mufu_ex2_fin(ex, F, sfu_sq17(F & 0x1ffff));
}
TC5_SFU_FN uint32_t mufu_lg2(uint32_t x) {
  uint32_t s = x >> 31, e = x >> 23 & 0xff, f = x & 0x7fffff;
  if (e == 0) return 0x80000000u | PINF;
  if (s) return QNAN;
  if (e == 255) return f ? QNAN : PINF;
  int64_t r = 0;
  if (f || e != 127) {
    uint32_t lo = f & 0x1ffff;
    r = (quad(tc5__sfu_tab_lg2[f >> 17], 12, lo, sfu_sq17(lo), 1) + 0x3345) >> 2;
  }
  r += (int64_t)((int)e - 127) * ((int64_t)1 << 36);
  uint32_t sg = 0;
  if (r < 0) { sg = 1; r = ~r; }
  if (!r) return sg << 31;
  int ex = 127 + 6;
  while (!(r >> 42 & 1)) { r <<= 1; ex--; }
  return sg << 31 | (uint32_t)ex << 23 | ((uint32_t)(r >> 19) - (1u << 23));
}
/* sin/cos core on a 2.23 fixed-point angle in quarter turns (v < 2^25), with sign */
TC5_SFU_FN uint32_t sincos_q(uint32_t v, uint32_t sg, int cosine) {
  uint32_t q = v >> 23, F = v & 0x7fffff;
  if (cosine) { q++; sg = 0; }
  if (q & 1) F = ~F & 0x7fffff;
  sg ^= q >> 1 & 1;
  uint32_t lo = F & 0x1ffff;
  int64_t r = quad(tc5__sfu_tab_sin[F >> 17], 11, lo, sfu_sq17(lo), 0);
  if (!r) return sg << 31;
  int ex = 127;
  while (!(r >> 37 & 1)) { r <<= 1; ex--; }
  return sg << 31 | (uint32_t)ex << 23 | ((uint32_t)(r >> 14) - (1u << 23));
}
/* |t| (turns) * 4 as 2.23 fixed point, truncated, modulo 4 quarter turns */
TC5_SFU_FN uint32_t turns_to_q(uint32_t e, uint32_t f) {
  uint64_t m = f | 1u << 23;
  int sh = (int)e - 127 + 2;
  if (sh >= 0) return sh >= 25 ? 0 : (uint32_t)((m << sh) & 0x1ffffff);
  int r = -sh;
  if (r > 40) return 0;
  return (uint32_t)((m >> r) & 0x1ffffff);
}
TC5_SFU_FN uint32_t mufu_sin(uint32_t t) {
  uint32_t s = t >> 31, e = t >> 23 & 0xff, f = t & 0x7fffff;
  if (e == 255) return QNAN;
  if (e == 0) return t & 0x80000000u;  /* zero and denormal inputs: sin = signed zero */
  return sincos_q(turns_to_q(e, f), s, 0);
}
TC5_SFU_FN uint32_t mufu_cos(uint32_t t) {
  uint32_t s = t >> 31, e = t >> 23 & 0xff, f = t & 0x7fffff;
  if (e == 255) return QNAN;
  return sincos_q(e ? turns_to_q(e, f) : 0, s, 1);  /* cos(+-0) = 1 */
}

/* MUFU.RCP64H / MUFU.RSQ64H: the f32 interpolator applied to the top 20 fraction
 * bits of a double's high word; the 23-bit result fraction is truncated to 20 bits.
 * Input and output are high words; the low word of the result is zero. */
TC5_SFU_FN uint32_t mufu_rcp64h(uint32_t hi) {
  uint32_t s = hi & 0x80000000u, e = hi >> 20 & 0x7ff, f = hi & 0xfffff;
  if (e == 0) return s | 0x7ff00000u;
  if (e == 0x7ff) return f ? QNAN : s;
  uint32_t r = mufu_rcp(0x3f800000u | f << 3);          /* 1/1.f in (0.5, 1] */
  int ex = 1023 - ((int)e - 1023) + (int)(r >> 23 & 0xff) - 127;
  if (ex <= 0) return s;
  return s | (uint32_t)ex << 20 | (r & 0x7fffff) >> 3;
}
TC5_SFU_FN uint32_t mufu_rsq64h(uint32_t hi) {
  uint32_t s = hi & 0x80000000u, e = hi >> 20 & 0x7ff, f = hi & 0xfffff;
  if (e == 0) return s | 0x7ff00000u;
  if (s) return QNAN;
  if (e == 0x7ff) return f ? QNAN : 0;
  int E = (int)e - 1023, h = E & 1, k = (E - h) / 2;
  uint32_t r = mufu_rsq((uint32_t)(127 + h) << 23 | f << 3);
  int ex = 1023 - k + (int)(r >> 23 & 0xff) - 127;
  return (uint32_t)ex << 20 | (r & 0x7fffff) >> 3;
}
TC5_SFU_FN uint64_t sfu_rcp_approx_ftz_f64(uint64_t x) { return (uint64_t)mufu_rcp64h((uint32_t)(x >> 32)) << 32; }
TC5_SFU_FN uint64_t sfu_rsqrt_approx_ftz_f64(uint64_t x) { return (uint64_t)mufu_rsq64h((uint32_t)(x >> 32)) << 32; }
TC5_SFU_FN double m_u2d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
TC5_SFU_FN uint64_t m_d2u(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
/* rsqrt.approx.f64: MUFU.RSQ64H seed, one DFMA refinement, slow path for specials */
TC5_SFU_FN double rsq64_refine(double x) {
  double y = m_u2d((uint64_t)mufu_rsq64h((uint32_t)(m_d2u(x) >> 32)) << 32);
  double e = fma(x, -(y * y), 1.0);
  return fma(fma(e, 0.375, 0.5), y * e, y);
}
TC5_SFU_FN uint64_t sfu_rsqrt_approx_f64(uint64_t xb) {
  uint32_t hi = (uint32_t)(xb >> 32);
  double x = m_u2d(xb);
  if (hi - 0x00100000u < 0x7fe00000u) return m_d2u(rsq64_refine(x));
  if (x == 0) return (uint64_t)((hi & 0x80000000u) | 0x7ff00000u) << 32;
  if (x != x) return xb | 1ull << 51;                 /* DADD x+x: input NaN, quieted */
  if (hi >> 31) return 0xfff8000000000000ull;
  if (x == INFINITY) return 0;
  return m_d2u(rsq64_refine(x * 18014398509481984.0) * 134217728.0);  /* denormal: 2^54, 2^27 */
}

/* ---------------- PTX-level instructions (SASS sequences of ptxas 13.0, sm_90a) ---------------- */
#define TWO_M126 1.17549435082228750797e-38f
TC5_SFU_FN uint32_t sfu_rcp_approx_ftz_f32(uint32_t x) { return mufu_rcp(x); }
TC5_SFU_FN uint32_t sfu_rcp_approx_f32(uint32_t x) {
  float a = m_u2f(x), fa = a < 0 ? -a : a;
  float k = !(fa >= TWO_M126) ? 16777216.0f : 1.0f;   /* NaN also takes 2^24 */
  if (fa > 8.50705917302346158658e+37f) k = 0.25f;
  return m_f2u(k * m_u2f(mufu_rcp(m_f2u(a * k))));
}
TC5_SFU_FN uint32_t sfu_rsqrt_approx_ftz_f32(uint32_t x) { return mufu_rsq(x); }
TC5_SFU_FN uint32_t sfu_rsqrt_approx_f32(uint32_t x) {
  float a = m_u2f(x), fa = a < 0 ? -a : a;
  if (fa >= TWO_M126) return mufu_rsq(x);
  return m_f2u(m_u2f(mufu_rsq(m_f2u(a * 16777216.0f))) * 4096.0f);
}
TC5_SFU_FN uint32_t sfu_ex2_approx_ftz_f32(uint32_t x) { return mufu_ex2(x); }
TC5_SFU_FN uint32_t sfu_ex2_approx_f32(uint32_t x) {
  float a = m_u2f(x);
  if (a >= -126.0f) return mufu_ex2(x);
  float r = m_u2f(mufu_ex2(m_f2u(a * 0.5f)));
  return m_f2u(r * r);
}
TC5_SFU_FN uint32_t sfu_lg2_approx_ftz_f32(uint32_t x) { return mufu_lg2(x); }
TC5_SFU_FN uint32_t sfu_lg2_approx_f32(uint32_t x) {
  float a = m_u2f(x), fa = a < 0 ? -a : a;
  if (fa >= TWO_M126) return mufu_lg2(x);
  return m_f2u(m_u2f(mufu_lg2(m_f2u(a * 16777216.0f))) + -24.0f);
}
TC5_SFU_FN uint32_t sfu_sqrt_approx_ftz_f32(uint32_t x) { return mufu_sqrt(x); }
TC5_SFU_FN uint32_t sfu_sqrt_approx_f32(uint32_t x) {
  float a = m_u2f(x), fa = a < 0 ? -a : a;
  if (fa >= TWO_M126) return mufu_sqrt(x);
  return m_f2u(m_u2f(mufu_sqrt(m_f2u(a * 16777216.0f))) * 0.000244140625f);
}
/* FMUL.RZ x * 0.15915494f (1/2pi rounded to f32), IEEE with subnormals */
TC5_SFU_FN uint32_t fmul_rz_inv2pi(uint32_t x) {
  const float c = 0.15915493667125701904f;
  double p = (double)m_u2f(x) * (double)c;  /* exact: 24x24 bits fit in 53 */
  float r = (float)p;                        /* round to nearest, then step toward zero */
  if (r == r && fabs((double)r) > fabs(p)) r = m_u2f(m_f2u(r) - 1);  /* |r| > |p| > 0, finite */
  return m_f2u(r);
}
TC5_SFU_FN uint32_t sfu_sin_approx_f32(uint32_t x) { return mufu_sin(fmul_rz_inv2pi(x)); }
TC5_SFU_FN uint32_t sfu_cos_approx_f32(uint32_t x) { return mufu_cos(fmul_rz_inv2pi(x)); }
TC5_SFU_FN uint32_t sfu_sin_approx_ftz_f32(uint32_t x) { return sfu_sin_approx_f32(x); }
TC5_SFU_FN uint32_t sfu_cos_approx_ftz_f32(uint32_t x) { return sfu_cos_approx_f32(x); }
TC5_SFU_FN uint32_t sfu_tanh_approx_f32(uint32_t x) { return mufu_tanh(x); }

/* ---------------- f16 / bf16 forms: widen exactly, f32 MUFU core, truncate ---------------- */
TC5_SFU_FN uint32_t h2f_bits(uint16_t h) {
  uint32_t s = (uint32_t)(h >> 15) << 31, e = h >> 10 & 31, m = h & 1023;
  if (e == 31) return s | 0x7f800000u | m << 13;
  if (e == 0) { float v = (float)m * 5.9604644775390625e-08f; return s | m_f2u(v); }
  return s | (e + 112) << 23 | m << 13;
}
TC5_SFU_FN uint16_t f2h_rz(uint32_t u) {  /* truncate toward zero; overflow still gives inf */
  uint32_t s = (u >> 16) & 0x8000, e = u >> 23 & 0xff, m = u & 0x7fffff;
  if (e == 255) return (uint16_t)(s | 0x7c00 | (m ? 0x200 | (m >> 13) : 0));
  if (e == 0) return (uint16_t)s;
  int E = (int)e - 127 + 15;
  if (E >= 31) return (uint16_t)(s | 0x7c00);
  uint32_t mant = m | 0x800000;
  if (E <= 0) { int sh = 14 - E; return (uint16_t)(s | (sh > 24 ? 0 : mant >> sh)); }
  return (uint16_t)(s | (uint32_t)E << 10 | (m >> 13));
}
TC5_SFU_FN uint16_t f2bf_rz(uint32_t u) {
  if ((u & 0x7fffffff) > 0x7f800000) return (uint16_t)((u >> 16) | 0x40);
  return (uint16_t)(u >> 16);
}
TC5_SFU_FN uint16_t sfu_ex2_approx_f16(uint16_t x) { return f2h_rz(mufu_ex2(h2f_bits(x))); }
TC5_SFU_FN uint16_t sfu_ex2_approx_ftz_bf16(uint16_t x) { return f2bf_rz(mufu_ex2((uint32_t)x << 16)); }
TC5_SFU_FN uint16_t sfu_tanh_approx_f16(uint16_t x) { return f2h_rz(mufu_tanh(h2f_bits(x))); }
TC5_SFU_FN uint16_t sfu_tanh_approx_bf16(uint16_t x) { return f2bf_rz(mufu_tanh((uint32_t)x << 16)); }

/* ---------------- division (SASS of ptxas 13.0): MUFU.RCP of the divisor, then FMUL ---------------- */
/* FMUL: IEEE round-to-nearest product, but any NaN result is the canonical 0x7fffffff */
TC5_SFU_FN float gmul(float a, float b) { float r = a * b; return r != r ? m_u2f(QNAN) : r; }
/* FMUL.FTZ: denormal inputs read as zero; the product is rounded to 24 bits as if the
 * exponent were unbounded, and a rounded result below 2^-126 is flushed to signed zero */
TC5_SFU_FN float fmul_ftz(float a, float b) {
  if (fabsf(a) < TWO_M126) a = copysignf(0.0f, a);
  if (fabsf(b) < TWO_M126) b = copysignf(0.0f, b);
  double p = (double)a * (double)b;                  /* exact */
  if (p != p) return m_u2f(QNAN);
  if (fabs(p) >= 0x1p-125) return (float)p;
  float q = (float)(p * 0x1p64);                     /* round at full precision */
  if (fabsf(q) < 0x1p-62f) return copysignf(0.0f, q);
  return q * 0x1p-64f;                               /* exact */
}
TC5_SFU_FN uint32_t sfu_div_approx_ftz_f32(uint32_t a, uint32_t b) {
  return m_f2u(fmul_ftz(m_u2f(a), m_u2f(mufu_rcp(b))));
}
TC5_SFU_FN uint32_t sfu_div_approx_f32(uint32_t a, uint32_t b) {
  float fa = m_u2f(a), fb = m_u2f(b);
  if (!(fabsf(fb) >= TWO_M126)) { fb = gmul(fb, 16777216.0f); fa = gmul(fa, 16777216.0f); }
  return m_f2u(gmul(m_u2f(mufu_rcp(m_f2u(fb))), fa));
}
/* div.full in two steps, the divisor's (its MUFU.RCP, after its scaling) and the dividend's
 * (scaled as the divisor asks, times that reciprocal): a runner's lanes that divide by the
 * same b share the first (sfu_div_full_f32 is the two in a row) */
TC5_SFU_FN uint32_t sfu_div_full_rcp_f32(uint32_t b) {
  float fb = m_u2f(b);
  int big = fabsf(fb) > 8.50705917302346158658e+37f, small = !(fabsf(fb) >= TWO_M126);
  if (big) fb = gmul(fb, 0.25f);
  if (small) fb = gmul(fb, 16777216.0f);
  return mufu_rcp(m_f2u(fb));
}
TC5_SFU_FN uint32_t sfu_div_full_by_f32(uint32_t a, uint32_t b, uint32_t rcp) {
  float fa = m_u2f(a), fb = m_u2f(b);
  int big = fabsf(fb) > 8.50705917302346158658e+37f, small = !(fabsf(fb) >= TWO_M126);
  if (big) fa = gmul(fa, 0.25f);
  if (small) fa = gmul(fa, 16777216.0f);
  return m_f2u(gmul(m_u2f(rcp), fa));
}
TC5_SFU_FN uint32_t sfu_div_full_f32(uint32_t a, uint32_t b) { return sfu_div_full_by_f32(a, b, sfu_div_full_rcp_f32(b)); }
TC5_SFU_FN uint32_t sfu_div_full_ftz_rcp_f32(uint32_t b) {
  float fb = m_u2f(b);
  float ab = fabsf(fb) < TWO_M126 ? 0.0f : fabsf(fb);   /* FSETP.FTZ sees denormals as 0 */
  if (ab > 8.50705917302346158658e+37f) fb = fmul_ftz(fb, 0.25f);
  return mufu_rcp(m_f2u(fb));
}
TC5_SFU_FN uint32_t sfu_div_full_ftz_by_f32(uint32_t a, uint32_t b, uint32_t rcp) {
  float fa = m_u2f(a), fb = m_u2f(b);
  float ab = fabsf(fb) < TWO_M126 ? 0.0f : fabsf(fb);
  if (ab > 8.50705917302346158658e+37f) fa = fmul_ftz(fa, 0.25f);
  return m_f2u(fmul_ftz(m_u2f(rcp), fa));
}
TC5_SFU_FN uint32_t sfu_div_full_ftz_f32(uint32_t a, uint32_t b) {
  return sfu_div_full_ftz_by_f32(a, b, sfu_div_full_ftz_rcp_f32(b));
}

#endif
