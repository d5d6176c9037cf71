/* Test: tc5's element formats against CUDA's own host conversions
 * (cuda_fp16.h, cuda_bf16.h, cuda_fp8.h, cuda_fp6.h, cuda_fp4.h) — the
 * conversions kernels use. Built with nvcc (host code only; no GPU needed).
 *
 * 1. decode: every code of every <= 16-bit type has the value CUDA gives
 *    (NaN where CUDA gives NaN);
 * 2. encode: f32 bit patterns convert to the code CUDA gives, for every
 *    conversion CUDA offers (fp8 with and without saturation, fp6 and fp4 in
 *    RN and RZ, e8m0 in RZ and RP with and without saturation, f16 and bf16 in
 *    RN). TC5_F32_STRIDE (default 1 = all 2^32 patterns) thins the sweep;
 * 3. encode from double: 10^7 random doubles (mixed distributions).
 * Prints what it covered; exit 0 when tc5 and CUDA agree everywhere. */
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp4.h>
#include <cuda_fp6.h>
#include <cuda_fp8.h>

#include "tc5/formats.h"

static std::atomic<unsigned long long> failures{0};

static void report(const char *what, unsigned long long x, unsigned got, unsigned want) {
  if (failures.fetch_add(1) < 20)
    std::printf("MISMATCH %s input 0x%llx: tc5 0x%x, CUDA 0x%x\n", what, x, got, want);
}

static float h2f(unsigned short h) {
  __half_raw r;
  r.x = h;
  return __half2float(__half(r));
}

static bool same_value(double tc5, float cuda) {
  if (std::isnan(cuda)) return std::isnan(tc5);
  return tc5 == (double)cuda && std::signbit(tc5) == std::signbit(cuda);
}

static unsigned long long check_decode() {
  unsigned long long n = 0;
  for (unsigned c = 0; c < 65536; c++, n += 2) {
    double v;
    tc5_fmt_decode(TC5_F16, c, &v, nullptr);
    if (!same_value(v, h2f((unsigned short)c))) report("decode f16", c, 0, 0);
    __nv_bfloat16_raw br;
    br.x = (unsigned short)c;
    tc5_fmt_decode(TC5_BF16, c, &v, nullptr);
    if (!same_value(v, __bfloat162float(__nv_bfloat16(br)))) report("decode bf16", c, 0, 0);
  }
  for (unsigned c = 0; c < 256; c++, n += 5) {
    double v;
    tc5_fmt_decode(TC5_E4M3, c, &v, nullptr);
    if (!same_value(v, h2f(__nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)c, __NV_E4M3).x)))
      report("decode e4m3", c, 0, 0);
    tc5_fmt_decode(TC5_E5M2, c, &v, nullptr);
    if (!same_value(v, h2f(__nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)c, __NV_E5M2).x)))
      report("decode e5m2", c, 0, 0);
    tc5_fmt_decode(TC5_UE8M0, c, &v, nullptr);
    __nv_bfloat16_raw e = __nv_cvt_e8m0_to_bf16raw((__nv_fp8_storage_t)c);
    /* bf16 holds 2^-127 only as a subnormal: CUDA returns it exactly */
    if (!same_value(v, __bfloat162float(__nv_bfloat16(e)))) report("decode ue8m0", c, 0, 0);
    /* ue4m3: e4m3 without the sign bit (no CUDA type; MMA-Sim reads it as |e4m3|) */
    tc5_fmt_decode(TC5_UE4M3, c, &v, nullptr);
    if (!same_value(v, std::fabs(h2f(__nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)(c & 0x7F), __NV_E4M3).x))))
      report("decode ue4m3", c, 0, 0);
    double w;
    tc5_fmt_decode(TC5_S8, c, &w, nullptr);
    if (w != (double)(signed char)c) report("decode s8", c, 0, 0);
  }
  for (unsigned c = 0; c < 64; c++, n += 2) {
    double v;
    tc5_fmt_decode(TC5_E2M3, c, &v, nullptr);
    if (!same_value(v, h2f(__nv_cvt_fp6_to_halfraw((__nv_fp6_storage_t)c, __NV_E2M3).x)))
      report("decode e2m3", c, 0, 0);
    tc5_fmt_decode(TC5_E3M2, c, &v, nullptr);
    if (!same_value(v, h2f(__nv_cvt_fp6_to_halfraw((__nv_fp6_storage_t)c, __NV_E3M2).x)))
      report("decode e3m2", c, 0, 0);
  }
  for (unsigned c = 0; c < 16; c++, n++) {
    double v;
    tc5_fmt_decode(TC5_E2M1, c, &v, nullptr);
    if (!same_value(v, h2f(__nv_cvt_fp4_to_halfraw((__nv_fp4_storage_t)c, __NV_E2M1).x)))
      report("decode e2m1", c, 0, 0);
  }
  return n;
}

/* every conversion of one f32 value */
static void check_one(uint32_t bits, float x) {
  uint32_t c;
#define CHECK(NAME, TYPE, RND, SAT, WANT)                                      \
  do {                                                                         \
    tc5_fmt_encode_f32(TYPE, bits, RND, SAT, &c);                              \
    unsigned w_ = (unsigned)(WANT);                                            \
    if (c != w_) report(NAME, bits, c, w_);                                    \
  } while (0)
  CHECK("f16 rn", TC5_F16, TC5_ROUND_RN, false, __half_as_ushort(__float2half_rn(x)));
  CHECK("bf16 rn", TC5_BF16, TC5_ROUND_RN, false, __bfloat16_as_ushort(__float2bfloat16_rn(x)));
  CHECK("e4m3 rn", TC5_E4M3, TC5_ROUND_RN, false, __nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E4M3));
  CHECK("e4m3 rn satfinite", TC5_E4M3, TC5_ROUND_RN, true, __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3));
  CHECK("e5m2 rn", TC5_E5M2, TC5_ROUND_RN, false, __nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E5M2));
  CHECK("e5m2 rn satfinite", TC5_E5M2, TC5_ROUND_RN, true, __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E5M2));
  CHECK("e2m3 rn", TC5_E2M3, TC5_ROUND_RN, true, __nv_cvt_float_to_fp6(x, __NV_E2M3, cudaRoundNearest));
  CHECK("e2m3 rz", TC5_E2M3, TC5_ROUND_RZ, true, __nv_cvt_float_to_fp6(x, __NV_E2M3, cudaRoundZero));
  CHECK("e3m2 rn", TC5_E3M2, TC5_ROUND_RN, true, __nv_cvt_float_to_fp6(x, __NV_E3M2, cudaRoundNearest));
  CHECK("e3m2 rz", TC5_E3M2, TC5_ROUND_RZ, true, __nv_cvt_float_to_fp6(x, __NV_E3M2, cudaRoundZero));
  CHECK("e2m1 rn", TC5_E2M1, TC5_ROUND_RN, true, __nv_cvt_float_to_fp4(x, __NV_E2M1, cudaRoundNearest));
  CHECK("e2m1 rz", TC5_E2M1, TC5_ROUND_RZ, true, __nv_cvt_float_to_fp4(x, __NV_E2M1, cudaRoundZero));
  CHECK("ue8m0 rz satfinite", TC5_UE8M0, TC5_ROUND_RZ, true, __nv_cvt_float_to_e8m0(x, __NV_SATFINITE, cudaRoundZero));
  CHECK("ue8m0 rp satfinite", TC5_UE8M0, TC5_ROUND_RP, true, __nv_cvt_float_to_e8m0(x, __NV_SATFINITE, cudaRoundPosInf));
  CHECK("ue8m0 rz", TC5_UE8M0, TC5_ROUND_RZ, false, __nv_cvt_float_to_e8m0(x, __NV_NOSAT, cudaRoundZero));
  CHECK("ue8m0 rp", TC5_UE8M0, TC5_ROUND_RP, false, __nv_cvt_float_to_e8m0(x, __NV_NOSAT, cudaRoundPosInf));
}
enum { CONVERSIONS_PER_F32 = 16 };

static void check_double(double x) {
  uint32_t c;
  uint64_t bits;
  std::memcpy(&bits, &x, 8);
  auto rep = [&](const char *w, unsigned got, unsigned want) {
    if (got != want) report(w, bits, got, want);
  };
  tc5_fmt_encode(TC5_F16, x, TC5_ROUND_RN, false, &c);
  rep("f16 rn (double)", c, __half_as_ushort(__double2half(x)));
  tc5_fmt_encode(TC5_BF16, x, TC5_ROUND_RN, false, &c);
  rep("bf16 rn (double)", c, __bfloat16_as_ushort(__double2bfloat16(x)));
  tc5_fmt_encode(TC5_E4M3, x, TC5_ROUND_RN, false, &c);
  rep("e4m3 rn (double)", c, __nv_cvt_double_to_fp8(x, __NV_NOSAT, __NV_E4M3));
  tc5_fmt_encode(TC5_E4M3, x, TC5_ROUND_RN, true, &c);
  rep("e4m3 rn sat (double)", c, __nv_cvt_double_to_fp8(x, __NV_SATFINITE, __NV_E4M3));
  tc5_fmt_encode(TC5_E5M2, x, TC5_ROUND_RN, false, &c);
  rep("e5m2 rn (double)", c, __nv_cvt_double_to_fp8(x, __NV_NOSAT, __NV_E5M2));
  tc5_fmt_encode(TC5_E5M2, x, TC5_ROUND_RN, true, &c);
  rep("e5m2 rn sat (double)", c, __nv_cvt_double_to_fp8(x, __NV_SATFINITE, __NV_E5M2));
  tc5_fmt_encode(TC5_E2M3, x, TC5_ROUND_RN, true, &c);
  rep("e2m3 rn (double)", c, __nv_cvt_double_to_fp6(x, __NV_E2M3, cudaRoundNearest));
  tc5_fmt_encode(TC5_E3M2, x, TC5_ROUND_RZ, true, &c);
  rep("e3m2 rz (double)", c, __nv_cvt_double_to_fp6(x, __NV_E3M2, cudaRoundZero));
  tc5_fmt_encode(TC5_E2M1, x, TC5_ROUND_RN, true, &c);
  rep("e2m1 rn (double)", c, __nv_cvt_double_to_fp4(x, __NV_E2M1, cudaRoundNearest));
  tc5_fmt_encode(TC5_UE8M0, x, TC5_ROUND_RP, true, &c);
  rep("ue8m0 rp sat (double)", c, __nv_cvt_double_to_e8m0(x, __NV_SATFINITE, cudaRoundPosInf));
  tc5_fmt_encode(TC5_F32, x, TC5_ROUND_RN, false, &c);
  float f = (float)x;
  uint32_t fb;
  std::memcpy(&fb, &f, 4);
  if (std::isnan(x)) fb = 0x7FFFFFFFu;
  rep("f32 rn (double)", c, fb);
}

int main() {
  const char *s = std::getenv("TC5_F32_STRIDE");
  unsigned long long stride = s ? std::strtoull(s, nullptr, 0) : 1;
  if (stride == 0) stride = 1;
  unsigned long long nd = check_decode();
  std::printf("decode: %llu codes of f16, bf16, e4m3, e5m2, ue8m0, ue4m3, s8, e2m3, e3m2, e2m1\n", nd);

  unsigned nt = std::thread::hardware_concurrency();
  if (nt == 0) nt = 2;
  std::vector<std::thread> th;
  std::atomic<unsigned long long> done{0};
  for (unsigned t = 0; t < nt; t++)
    th.emplace_back([&, t] {
      unsigned long long k = 0;
      for (unsigned long long b = (unsigned long long)t * stride; b < (1ull << 32); b += stride * nt) {
        uint32_t bits = (uint32_t)b;
        float x;
        std::memcpy(&x, &bits, 4);
        check_one(bits, x);
        k++;
      }
      done += k;
    });
  for (auto &x : th) x.join();
  std::printf("encode from f32: %llu bit patterns (stride %llu%s) x %d conversions\n",
              done.load(), stride, stride == 1 ? ": all 2^32" : "", CONVERSIONS_PER_F32);

  unsigned long long seed = 0x9E3779B97F4A7C15ull, nrand = 10000000;
  for (unsigned long long i = 0; i < nrand; i++) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t r = seed ^ (seed >> 29);
    double x;
    if (i % 3 == 0) { /* any double */
      std::memcpy(&x, &r, 8);
    } else { /* near the types' ranges, with long mantissas */
      int e = (int)((r >> 52) % 300) - 150;
      x = std::ldexp(1.0 + (double)(r & ((1ull << 52) - 1)) / 4503599627370496.0, e);
      if (r >> 63) x = -x;
    }
    check_double(x);
  }
  std::printf("encode from double: %llu random values x 11 conversions\n", nrand);
  std::printf("%llu mismatches\n", failures.load());
  return failures.load() ? 1 : 0;
}
