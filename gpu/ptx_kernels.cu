// Small kernels that together use the non-tcgen05 instructions tc5 run
// models, compiled to sm_90a PTX (gpu/run.sh ptx) and run from the same PTX
// file on the H100 and in tc5: every output byte must be equal.
// Each kernel is k(const uint32_t *in, uint32_t *out): `in` holds 8192
// words of test data (gpu/ptx_silicon.cu makes them), each thread writes its
// results to out[gtid * 16 + j]. Launch: grid 2, block 128 (kernels.txt).
// Built with -fmad=false so that the PTX says exactly which operations
// round (no contraction left to ptxas).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cstdint>
#include <cstdio>

#define K extern "C" __global__ void
#define GT (blockIdx.x * blockDim.x + threadIdx.x)
#define O(j) out[GT * 16 + (j)]
#define I(j) in[(GT * 16 + (j)) & 8191]
__device__ __forceinline__ float F(uint32_t x) { return __uint_as_float(x); }
__device__ __forceinline__ uint32_t U(float x) { return __float_as_uint(x); }
__device__ __forceinline__ double D(uint32_t a, uint32_t b) { return __hiloint2double((int)a, (int)b); }
__device__ __forceinline__ void W64(uint32_t *o, double d) {
  unsigned long long b = __double_as_longlong(d);
  o[0] = (uint32_t)b;
  o[1] = (uint32_t)(b >> 32);
}

K k01_int_arith(const uint32_t *in, uint32_t *out) {
  uint32_t a = I(0), b = I(1), c = I(2);
  uint64_t a64 = (uint64_t)I(3) << 32 | I(4), b64 = (uint64_t)I(5) << 32 | I(6);
  O(0) = a + b; O(1) = a - b; O(2) = a * b; O(3) = a * b + c;
  uint64_t s = a64 + b64, d = a64 * b64 - a64;
  O(4) = (uint32_t)s; O(5) = (uint32_t)(s >> 32); O(6) = (uint32_t)d; O(7) = (uint32_t)(d >> 32);
  O(8) = (uint32_t)((int16_t)a * (int16_t)b); O(9) = (uint16_t)(a + b);
  O(10) = (uint32_t)(int32_t)(int8_t)(a >> 3); O(11) = (uint32_t)(((int64_t)(int32_t)a * (int32_t)b) >> 7);
}
K k02_mulhi(const uint32_t *in, uint32_t *out) {
  uint32_t a = I(0), b = I(1);
  uint64_t a64 = (uint64_t)I(2) << 32 | I(3), b64 = (uint64_t)I(4) << 32 | I(5);
  O(0) = __umulhi(a, b); O(1) = (uint32_t)__mulhi((int)a, (int)b);
  uint64_t h = __umul64hi(a64, b64), hs = (uint64_t)__mul64hi((long long)a64, (long long)b64);
  O(2) = (uint32_t)h; O(3) = (uint32_t)(h >> 32); O(4) = (uint32_t)hs; O(5) = (uint32_t)(hs >> 32);
  uint64_t w = (uint64_t)a * b, ws = (uint64_t)((int64_t)(int32_t)a * (int32_t)b);
  O(6) = (uint32_t)w; O(7) = (uint32_t)(w >> 32); O(8) = (uint32_t)ws; O(9) = (uint32_t)(ws >> 32);
  O(10) = __mul24((int)a, (int)b); O(11) = __umul24(a, b);
}
K k03_divrem(const uint32_t *in, uint32_t *out) {
  uint32_t a = I(0), b = I(1) >> (I(2) & 31); /* some small divisors, some zero */
  if (threadIdx.x % 7 == 0) b = 0;
  int32_t sa = (int32_t)a, sb = (int32_t)b;
  if (threadIdx.x % 11 == 0) sa = INT32_MIN, sb = -1;
  O(0) = b ? a / b : 0; O(1) = b ? a % b : 0; O(2) = sb ? (uint32_t)(sa / sb) : 0; O(3) = sb ? (uint32_t)(sa % sb) : 0;
  uint32_t q, r;
  asm("div.u32 %0, %1, %2;" : "=r"(q) : "r"(a), "r"(b));
  asm("rem.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  O(4) = b ? q : 0xdead; O(5) = b ? r : 0xdead;
  uint64_t a64 = (uint64_t)I(3) << 32 | I(4), b64 = ((uint64_t)I(5) << 32 | I(6)) >> (I(7) & 63);
  if (b64) { O(6) = (uint32_t)(a64 / b64); O(7) = (uint32_t)(a64 % b64); }
  int64_t s64 = (int64_t)a64, t64 = (int64_t)b64 | 1;
  O(8) = (uint32_t)(s64 / t64); O(9) = (uint32_t)(s64 % t64);
}
K k04_minmax(const uint32_t *in, uint32_t *out) {
  uint32_t a = I(0), b = I(1);
  O(0) = min(a, b); O(1) = max(a, b); O(2) = (uint32_t)min((int)a, (int)b); O(3) = (uint32_t)max((int)a, (int)b);
  O(4) = (uint32_t)abs((int)a); O(5) = (uint32_t)(-(int)a);
  uint64_t a64 = (uint64_t)I(2) << 32 | I(3), b64 = (uint64_t)I(4) << 32 | I(5);
  uint64_t m = (uint64_t)min((long long)a64, (long long)b64), x = max(a64, b64);
  O(6) = (uint32_t)m; O(7) = (uint32_t)(m >> 32); O(8) = (uint32_t)x; O(9) = (uint32_t)(x >> 32);
  O(10) = __sad((int)a, (int)b, 7u); O(11) = __usad(a, b, 9u);
  uint32_t r;
  asm("add.sat.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); O(12) = r;
  asm("sub.sat.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); O(13) = r;
}
K k05_bits(const uint32_t *in, uint32_t *out) {
  uint32_t a = I(0) >> (I(1) & 31);
  uint64_t a64 = ((uint64_t)I(2) << 32 | I(3)) >> (I(4) & 63);
  O(0) = __popc(a); O(1) = __clz(a); O(2) = __brev(a); O(3) = __ffs((int)a);
  O(4) = __popcll(a64); O(5) = __clzll(a64); uint64_t r = __brevll(a64); O(6) = (uint32_t)r; O(7) = (uint32_t)(r >> 32);
  uint32_t f;
  asm("bfind.u32 %0, %1;" : "=r"(f) : "r"(a)); O(8) = f;
  asm("bfind.s32 %0, %1;" : "=r"(f) : "r"(I(5))); O(9) = f;
  asm("bfind.shiftamt.u32 %0, %1;" : "=r"(f) : "r"(a)); O(10) = f;
  asm("bfind.u64 %0, %1;" : "=r"(f) : "l"(a64)); O(11) = f;
  asm("not.b32 %0, %1;" : "=r"(f) : "r"(a)); O(12) = f;
  asm("cnot.b32 %0, %1;" : "=r"(f) : "r"(a & 1 ? a : 0)); O(13) = f;
}
K k06_bfe_bfi(const uint32_t *in, uint32_t *out) {
  uint32_t a = I(0), p = I(1) & 0x3f, l = I(2) & 0x3f, r;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(p), "r"(l)); O(0) = r;
  asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(p), "r"(l)); O(1) = r;
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(I(3)), "r"(a), "r"(p), "r"(l)); O(2) = r;
  uint64_t a64 = (uint64_t)I(4) << 32 | I(5), r64;
  uint32_t p2 = I(6) & 0x7f, l2 = I(7) & 0x7f;
  asm("bfe.u64 %0, %1, %2, %3;" : "=l"(r64) : "l"(a64), "r"(p2), "r"(l2)); O(3) = (uint32_t)r64; O(4) = (uint32_t)(r64 >> 32);
  asm("bfe.s64 %0, %1, %2, %3;" : "=l"(r64) : "l"(a64), "r"(p2), "r"(l2)); O(5) = (uint32_t)r64; O(6) = (uint32_t)(r64 >> 32);
  asm("bfi.b64 %0, %1, %2, %3, %4;" : "=l"(r64) : "l"(~a64), "l"(a64), "r"(p2), "r"(l2)); O(7) = (uint32_t)r64; O(8) = (uint32_t)(r64 >> 32);
  asm("bfe.u32 %0, %1, 3, 9;" : "=r"(r) : "r"(a)); O(9) = r;
}
K k07_prmt(const uint32_t *in, uint32_t *out) {
  uint32_t a = I(0), b = I(1), s = I(2), r;
  O(0) = __byte_perm(a, b, s);
  asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(s)); O(1) = r;
  asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(s)); O(2) = r;
  asm("prmt.b32.rc8 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(s)); O(3) = r;
  asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(s)); O(4) = r;
  asm("prmt.b32.ecr %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(s)); O(5) = r;
  asm("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(s)); O(6) = r;
}
K k08_lop3_shf(const uint32_t *in, uint32_t *out) {
  uint32_t a = I(0), b = I(1), c = I(2), n = I(3) & 63, r;
  asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); O(0) = r;
  asm("lop3.b32 %0, %1, %2, %3, 0xe8;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); O(1) = r;
  asm("lop3.b32 %0, %1, %2, %3, 0x1b;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); O(2) = r;
  O(3) = __funnelshift_l(a, b, n); O(4) = __funnelshift_r(a, b, n);
  O(5) = __funnelshift_lc(a, b, n); O(6) = __funnelshift_rc(a, b, n);
  asm("shl.b32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(n)); O(7) = r;
  asm("shr.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(n)); O(8) = r;
  asm("shr.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(n)); O(9) = r;
  uint64_t a64 = (uint64_t)a << 32 | b, r64;
  asm("shr.s64 %0, %1, %2;" : "=l"(r64) : "l"(a64), "r"(n + 1)); O(10) = (uint32_t)r64; O(11) = (uint32_t)(r64 >> 32);
  asm("shl.b64 %0, %1, %2;" : "=l"(r64) : "l"(a64), "r"(n)); O(12) = (uint32_t)r64; O(13) = (uint32_t)(r64 >> 32);
  uint16_t h;
  asm("shr.s16 %0, %1, %2;" : "=h"(h) : "h"((uint16_t)a), "r"(n & 31)); O(14) = h;
}
K k09_setp(const uint32_t *in, uint32_t *out) {
  uint32_t a = I(0), b = (threadIdx.x & 3) ? I(1) : a;
  float x = F(I(2)), y = (threadIdx.x & 4) ? F(I(3)) : x;
  if (threadIdx.x % 13 == 0) x = __int_as_float(0x7fc00000);
  uint32_t m = 0;
  m |= (a < b) << 0 | ((int)a < (int)b) << 1 | (a == b) << 2 | (a >= b) << 3 | ((int)a >= (int)b) << 4;
  m |= (x < y) << 5 | (x <= y) << 6 | (x == y) << 7 | (x != y) << 8 | !(x >= y) << 9 | !(x > y) << 10;
  m |= (x != x) << 11 | (isnan(y)) << 12 | ((double)x < (double)y) << 13;
  O(0) = m; O(1) = (x < y) ? a : b;
  uint32_t r;
  asm("{ .reg .pred p, q, c; setp.ne.u32 c, %3, 0; setp.ltu.and.f32 p|q, %1, %2, c; selp.b32 %0, 1, 2, p; @q add.u32 %0, %0, 4; }"
      : "=r"(r) : "f"(x), "f"(y), "r"(a & 1) : );
  O(2) = r;
}
K k10_f32(const uint32_t *in, uint32_t *out) {
  float a = F(I(0)), b = F(I(1)), c = F(I(2));
  O(0) = U(__fadd_rn(a, b)); O(1) = U(__fadd_rz(a, b)); O(2) = U(__fadd_rd(a, b)); O(3) = U(__fadd_ru(a, b));
  O(4) = U(__fmul_rn(a, b)); O(5) = U(__fmul_rz(a, b)); O(6) = U(__fmul_rd(a, b)); O(7) = U(__fmul_ru(a, b));
  O(8) = U(__fmaf_rn(a, b, c)); O(9) = U(__fmaf_rz(a, b, c)); O(10) = U(__fmaf_rd(a, b, c)); O(11) = U(__fmaf_ru(a, b, c));
  O(12) = U(__fsub_rn(a, c)); O(13) = U(__fsub_ru(a, c));
  float r;
  asm("add.rn.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); O(14) = U(r);
  asm("mul.rn.sat.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); O(15) = U(r);
}
K k11_f32_div(const uint32_t *in, uint32_t *out) {
  float a = F(I(0)), b = F(I(1));
  O(0) = U(__fdiv_rn(a, b)); O(1) = U(__fdiv_rz(a, b)); O(2) = U(__fdiv_rd(a, b)); O(3) = U(__fdiv_ru(a, b));
  O(4) = U(__fsqrt_rn(fabsf(a))); O(5) = U(__fsqrt_rz(fabsf(a))); O(6) = U(__fsqrt_rd(a)); O(7) = U(__fsqrt_ru(fabsf(a)));
  O(8) = U(__frcp_rn(a)); O(9) = U(__frcp_rz(a)); O(10) = U(__frcp_rd(a)); O(11) = U(__frcp_ru(a));
  O(12) = U(fminf(a, b)); O(13) = U(fmaxf(a, b)); O(14) = U(fabsf(a)); O(15) = U(-b);
}
K k12_f64(const uint32_t *in, uint32_t *out) {
  double a = D(I(0), I(1)), b = D(I(2), I(3)), c = D(I(4), I(5));
  uint32_t *o = &O(0);
  W64(o + 0, __dadd_rz(a, b)); W64(o + 2, __dmul_ru(a, b)); W64(o + 4, __fma_rd(a, b, c));
  W64(o + 6, __ddiv_rn(a, b)); W64(o + 8, __dsqrt_rz(fabs(a))); W64(o + 10, __drcp_ru(b));
  W64(o + 12, fmin(a, c)); W64(o + 14, __dsub_rn(a, c));
}
K k13_cvt_f2i(const uint32_t *in, uint32_t *out) {
  float a = F(I(0)) * 1e3f;
  double d = D(I(1), I(2));
  O(0) = __float2int_rn(a); O(1) = __float2int_rz(a); O(2) = __float2int_rd(a); O(3) = __float2int_ru(a);
  O(4) = __float2uint_rn(a); O(5) = __float2uint_rz(a);
  long long l = __float2ll_rn(a * 1e6f); O(6) = (uint32_t)l; O(7) = (uint32_t)(l >> 32);
  O(8) = __double2int_rn(d); O(9) = __double2uint_rz(d);
  unsigned long long u = __double2ull_ru(d); O(10) = (uint32_t)u; O(11) = (uint32_t)(u >> 32);
  uint16_t h;
  asm("cvt.rni.s16.f32 %0, %1;" : "=h"(h) : "f"(a)); O(12) = h;
  asm("cvt.rzi.u8.f32 %0, %1;" : "=h"(h) : "f"(a)); O(13) = h;
  float r;
  asm("cvt.rni.f32.f32 %0, %1;" : "=f"(r) : "f"(a)); O(14) = U(r);
  asm("cvt.rmi.f32.f32 %0, %1;" : "=f"(r) : "f"(a)); O(15) = U(r);
}
K k14_cvt_i2f(const uint32_t *in, uint32_t *out) {
  int a = (int)I(0);
  unsigned u = I(1);
  long long l = (long long)((uint64_t)I(2) << 32 | I(3));
  O(0) = U(__int2float_rn(a)); O(1) = U(__int2float_rz(a)); O(2) = U(__int2float_rd(a)); O(3) = U(__int2float_ru(a));
  O(4) = U(__uint2float_rn(u)); O(5) = U(__uint2float_rz(u));
  O(6) = U(__ll2float_rn(l)); O(7) = U(__ll2float_rd(l)); O(8) = U(__ull2float_ru((unsigned long long)l));
  W64(&O(9), __ll2double_rn(l)); W64(&O(11), __int2double_rn(a));
  O(13) = (uint32_t)(int32_t)(int16_t)u; O(14) = (uint32_t)(uint8_t)u;
  uint32_t s;
  asm("cvt.sat.s8.s32 %0, %1;" : "=r"(s) : "r"(a)); O(15) = s;
}
K k15_cvt_half(const uint32_t *in, uint32_t *out) {
  float a = F(I(0)), b = F(I(1));
  O(0) = __half_as_ushort(__float2half_rn(a)); O(1) = __half_as_ushort(__float2half_rz(a));
  O(2) = __half_as_ushort(__float2half_rd(a)); O(3) = __half_as_ushort(__float2half_ru(a));
  O(4) = U(__half2float(__ushort_as_half((uint16_t)I(2))));
  __half2 h2 = __floats2half2_rn(a, b); O(5) = *(uint32_t *)&h2;
  O(6) = __bfloat16_as_ushort(__float2bfloat16_rn(a)); O(7) = __bfloat16_as_ushort(__float2bfloat16_rz(a));
  O(8) = __bfloat16_as_ushort(__float2bfloat16_rd(a)); O(9) = __bfloat16_as_ushort(__float2bfloat16_ru(a));
  O(10) = U(__bfloat162float(__ushort_as_bfloat16((uint16_t)I(3))));
  __nv_bfloat162 b2 = __floats2bfloat162_rn(a, b); O(11) = *(uint32_t *)&b2;
  O(12) = __half_as_ushort(__double2half(D(I(4), I(5))));
  uint16_t r;
  asm("cvt.rn.relu.f16.f32 %0, %1;" : "=h"(r) : "f"(a)); O(13) = r;
  asm("cvt.rn.f16.f64 %0, %1;" : "=h"(r) : "d"(D(I(6), I(7)))); O(14) = r;
}
K k16_cvt_fp8(const uint32_t *in, uint32_t *out) {
  float2 f = make_float2(F(I(0)), F(I(1)));
  O(0) = __nv_cvt_float2_to_fp8x2(f, __NV_SATFINITE, __NV_E4M3);
  O(1) = __nv_cvt_float2_to_fp8x2(f, __NV_SATFINITE, __NV_E5M2);
  O(2) = __nv_cvt_float2_to_fp8x2(f, __NV_NOSAT, __NV_E5M2);
  __half_raw h = __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)(I(2) & 0xff), __NV_E4M3); O(3) = h.x;
  __half2_raw h2 = __nv_cvt_fp8x2_to_halfraw2((__nv_fp8x2_storage_t)(I(3) & 0xffff), __NV_E5M2); O(4) = h2.x | (uint32_t)h2.y << 16;
  double d = D(I(4), I(5));
  O(5) = __float_as_uint(__double2float_rn(d)); O(6) = __float_as_uint(__double2float_rz(d));
  O(7) = __float_as_uint(__double2float_rd(d)); O(8) = __float_as_uint(__double2float_ru(d));
  W64(&O(9), (double)F(I(6)));
}
K k17_half_arith(const uint32_t *in, uint32_t *out) {
  __half a = __ushort_as_half((uint16_t)I(0)), b = __ushort_as_half((uint16_t)I(1)), c = __ushort_as_half((uint16_t)I(2));
  O(0) = __half_as_ushort(__hadd(a, b)); O(1) = __half_as_ushort(__hmul(a, b)); O(2) = __half_as_ushort(__hfma(a, b, c));
  O(3) = __half_as_ushort(__hsub(a, c)); O(4) = __half_as_ushort(__hmin(a, b)); O(5) = __half_as_ushort(__hneg(a));
  __half2 x = *(const __half2 *)&in[(GT * 16 + 3) & 8191], y = *(const __half2 *)&in[(GT * 16 + 4) & 8191];
  __half2 r = __hadd2(x, y); O(6) = *(uint32_t *)&r; r = __hmul2(x, y); O(7) = *(uint32_t *)&r;
  __nv_bfloat16 p = __ushort_as_bfloat16((uint16_t)I(5)), q = __ushort_as_bfloat16((uint16_t)I(6));
  O(8) = __bfloat16_as_ushort(__hadd(p, q)); O(9) = __bfloat16_as_ushort(__hmul(p, q));
  O(10) = __bfloat16_as_ushort(__hfma(p, q, p)); O(11) = __half_as_ushort(__habs(a));
}
K k18_shfl(const uint32_t *in, uint32_t *out) {
  uint32_t v = I(0), s = I(1) & 31;
  O(0) = __shfl_sync(0xffffffff, v, s); O(1) = __shfl_up_sync(0xffffffff, v, s & 7);
  O(2) = __shfl_down_sync(0xffffffff, v, s & 7); O(3) = __shfl_xor_sync(0xffffffff, v, s);
  O(4) = __shfl_sync(0xffffffff, v, s, 8); O(5) = __shfl_up_sync(0xffffffff, v, 3, 16);
  O(6) = __shfl_down_sync(0xffffffff, v, 5, 4); O(7) = __shfl_xor_sync(0xffffffff, v, 2, 8);
  uint32_t r, p;
  asm("{ .reg .pred q; shfl.sync.down.b32 %0|q, %2, 9, 0x1f, -1; selp.u32 %1, 1, 0, q; }" : "=r"(r), "=r"(p) : "r"(v));
  O(8) = r; O(9) = p;
  double d = D(I(2), I(3)); W64(&O(10), __shfl_sync(0xffffffff, d, 31 - (threadIdx.x & 31)));
  if (threadIdx.x & 1) O(12) = __shfl_sync(0x55555555u << 1, v, 3);
}
K k19_vote(const uint32_t *in, uint32_t *out) {
  uint32_t v = I(0);
  bool p = v & 1;
  O(0) = __all_sync(0xffffffff, p); O(1) = __any_sync(0xffffffff, p); O(2) = __ballot_sync(0xffffffff, p);
  O(3) = __activemask();
  if (v & 2) { O(4) = __activemask(); O(5) = __ballot_sync(__activemask(), v & 4); }
  uint32_t u;
  asm("{ .reg .pred a, b; setp.ne.u32 a, %1, 0; vote.sync.uni.pred b, a, -1; selp.u32 %0, 1, 0, b; }" : "=r"(u) : "r"(v & 0x80000000u));
  O(6) = u;
  O(7) = __popc(__ballot_sync(0xffffffff, (threadIdx.x & 31) < (v & 31)));
}
K k20_match(const uint32_t *in, uint32_t *out) {
  uint32_t v = I(0) & 3;
  O(0) = __match_any_sync(0xffffffff, v);
  int pred;
  O(1) = __match_all_sync(0xffffffff, v & (threadIdx.x >= 64 ? 0 : 3), &pred); O(2) = pred;
  uint64_t w = v * 0x100000001ull;
  O(3) = __match_any_sync(0xffffffff, w);
}
K k21_ldmatrix(const uint32_t *in, uint32_t *out) {
  __shared__ __align__(128) uint16_t tile[4][8][8];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) ((uint16_t *)tile)[i] = (uint16_t)(I(i & 15) + i);
  __syncthreads();
  int l = threadIdx.x & 31;
  uint32_t addr = (uint32_t)__cvta_generic_to_shared(&tile[l / 8][l % 8][0]);
  uint32_t r0, r1, r2, r3;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
  O(0) = r0; O(1) = r1; O(2) = r2; O(3) = r3;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
  O(4) = r0; O(5) = r1; O(6) = r2; O(7) = r3;
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(addr));
  O(8) = r0;
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(addr));
  O(9) = r0; O(10) = r1;
}
K k22_stmatrix(const uint32_t *in, uint32_t *out) {
  __shared__ __align__(128) uint16_t tile[4][4][8][8];
  int w = threadIdx.x / 32, l = threadIdx.x & 31;
  uint32_t addr = (uint32_t)__cvta_generic_to_shared(&tile[w][l / 8][l % 8][0]);
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};"
               :: "r"(addr), "r"(I(0)), "r"(I(1)), "r"(I(2)), "r"(I(3)));
  __syncthreads();
  for (int j = 0; j < 8; j++) O(j) = ((const uint32_t *)tile)[(threadIdx.x * 8 + j) % 512];
  __syncthreads();
  asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};" :: "r"(addr), "r"(I(4)), "r"(I(5)));
  __syncthreads();
  for (int j = 0; j < 8; j++) O(8 + j) = ((const uint32_t *)tile)[(threadIdx.x * 8 + j) % 512];
}
K k23_cp_async(const uint32_t *in, uint32_t *out) {
  __shared__ __align__(16) uint32_t s[128 * 12];
  for (int i = threadIdx.x; i < 128 * 12; i += blockDim.x) s[i] = 0xabababab;
  __syncthreads();
  uint32_t d = (uint32_t)__cvta_generic_to_shared(&s[threadIdx.x * 12]);
  const uint32_t *g = &in[(GT * 16) & 8191];
  int sz = I(0) & 15;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" :: "r"(d), "l"(g), "r"(sz));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"(d + 16), "l"(g + 4));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" :: "r"(d + 24), "l"(g + 6), "r"(sz & 4));
  asm volatile("cp.async.commit_group;");
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(d + 32), "l"(g + 8));
  asm volatile("cp.async.commit_group;");
  asm volatile("cp.async.wait_group 0;" ::: "memory");
  __syncthreads();
  for (int j = 0; j < 12; j++) O(j) = s[threadIdx.x * 12 + j];
}
K k24_atomics_global(const uint32_t *in, uint32_t *out) {
  uint32_t *c = &out[4096];
  uint32_t v = I(0);
  atomicAdd(&c[0], v); atomicSub(&c[1], v & 0xff); atomicMax(&c[2], v); atomicMin((int *)&c[3], (int)v);
  atomicAnd(&c[4], v | 0xf0f0f0f0u); atomicOr(&c[5], v & 0x01010101u); atomicXor(&c[6], v);
  atomicInc(&c[7], 100u); atomicDec(&c[8], 77u);
  unsigned long long *c64 = (unsigned long long *)&c[16];
  atomicAdd(&c64[0], (unsigned long long)v * v); atomicMax(&c64[1], (unsigned long long)v << 20);
  /* a CAS loop: every thread adds its id exactly once */
  uint32_t old = c[9], seen;
  do { seen = old; old = atomicCAS(&c[9], seen, seen + threadIdx.x); } while (old != seen);
  atomicExch(&c[10 + (threadIdx.x & 1)], 5u);
  O(0) = 1;
}
K k25_atomics_shared(const uint32_t *in, uint32_t *out) {
  __shared__ uint32_t c[16];
  __shared__ unsigned long long c64[2];
  if (threadIdx.x < 16) c[threadIdx.x] = threadIdx.x * 3;
  if (threadIdx.x < 2) c64[threadIdx.x] = 0;
  __syncthreads();
  uint32_t v = I(0);
  atomicAdd(&c[0], v); atomicMax(&c[1], v); atomicMin(&c[2], v); atomicOr(&c[3], v & 0x11110000u);
  atomicInc(&c[4], 50u); atomicDec(&c[5], 60u); atomicAnd(&c[6], ~(1u << (threadIdx.x & 31)));
  atomicAdd(&c64[0], (unsigned long long)v);
  uint32_t old = c[7], seen;
  do { seen = old; old = atomicCAS(&c[7], seen, seen ^ v); } while (old != seen);
  __syncthreads();
  if (threadIdx.x < 16) out[blockIdx.x * 32 + threadIdx.x] = c[threadIdx.x];
  if (threadIdx.x < 2) { out[blockIdx.x * 32 + 16 + 2 * threadIdx.x] = (uint32_t)c64[threadIdx.x];
                         out[blockIdx.x * 32 + 17 + 2 * threadIdx.x] = (uint32_t)(c64[threadIdx.x] >> 32); }
}
K k26_mbarrier(const uint32_t *in, uint32_t *out) {
  __shared__ __align__(8) uint64_t bar[2];
  __shared__ uint32_t data[128];
  uint32_t b0 = (uint32_t)__cvta_generic_to_shared(&bar[0]), b1 = (uint32_t)__cvta_generic_to_shared(&bar[1]);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 128;" :: "r"(b0));
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 2;" :: "r"(b1));
  }
  __syncthreads();
  /* phase 0 of bar 0: every thread writes its data, arrives; then all wait */
  data[threadIdx.x] = I(0) + threadIdx.x;
  uint64_t state;
  asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(state) : "r"(b0) : "memory");
  uint32_t done = 0;
  while (!done)
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(b0) : "memory");
  O(0) = data[127 - threadIdx.x];
  /* bar 1: warps 0 and 3 each arrive once with a count of 1 */
  if ((threadIdx.x & 31) == 0 && (threadIdx.x == 0 || threadIdx.x == 96))
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0], 1;" :: "r"(b1) : "memory");
  do
    asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(b1) : "memory");
  while (!done);
  uint32_t pend;
  asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], 1; selp.u32 %0, 1, 0, p; }"
               : "=r"(pend) : "r"(b1));
  O(1) = pend; /* the arrival's state is opaque: not compared */
  (void)state;
  __syncthreads();
  if (threadIdx.x == 0) asm volatile("mbarrier.inval.shared::cta.b64 [%0];" :: "r"(b0));
}
K k27_divergence(const uint32_t *in, uint32_t *out) {
  uint32_t v = I(0), acc = 0;
  int n = v & 15;
  for (int i = 0; i < n; i++) {
    if ((v >> i) & 1) acc += i * 3;
    else if ((v >> (i + 1)) & 1) { acc ^= 0x55; continue; }
    else acc -= 1;
    if (acc > 1000u) break;
  }
  O(0) = acc;
  if (threadIdx.x & 1) {
    if (threadIdx.x & 2) O(1) = __ballot_sync(__activemask(), v & 1);
    else O(1) = 7;
  }
  int j = threadIdx.x & 31;
  while (j > 0) { acc += __popc(v >> j); j -= 3; }
  O(2) = acc;
  O(3) = __syncthreads_count(v & 1); O(4) = __syncthreads_or(v & 2); O(5) = __syncthreads_and(threadIdx.x < 200);
}
K k28_sregs(const uint32_t *in, uint32_t *out) {
  uint32_t r;
  asm("mov.u32 %0, %%laneid;" : "=r"(r)); O(0) = r;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(r)); O(1) = r;
  asm("mov.u32 %0, %%lanemask_ge;" : "=r"(r)); O(2) = r;
  asm("mov.u32 %0, %%lanemask_eq;" : "=r"(r)); O(3) = r;
  asm("mov.u32 %0, %%lanemask_gt;" : "=r"(r)); O(4) = r;
  asm("mov.u32 %0, %%lanemask_le;" : "=r"(r)); O(5) = r;
  O(6) = blockIdx.x; O(7) = blockDim.x; O(8) = gridDim.x; O(9) = threadIdx.y; O(10) = in[0] & 0 ;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(r)); O(11) = r;
}
K k29_local_generic(const uint32_t *in, uint32_t *out) {
  uint32_t loc[24];
  __shared__ uint32_t sh[128];
  for (int i = 0; i < 24; i++) loc[i] = I(i & 15) * (i + 1);
  sh[threadIdx.x] = I(0);
  __syncthreads();
  uint32_t k = I(1) % 24;
  O(0) = loc[k]; O(1) = loc[(k * 7) % 24];
  const uint32_t *p = (I(2) & 1) ? &sh[(threadIdx.x + 1) & 127] : &in[(GT * 16 + 5) & 8191];
  if (I(2) & 2) p = &loc[k];
  O(2) = *p;
  O(3) = __isShared(p); O(4) = __isGlobal(p); O(5) = __isLocal(p);
}
K k30_barriers(const uint32_t *in, uint32_t *out) {
  __shared__ uint32_t box[4];
  int w = threadIdx.x / 32;
  /* producer warps 0-1 write, consumers 2-3 wait on named barrier 1 */
  if (w < 2) {
    if ((threadIdx.x & 31) == 0) box[w] = I(0) + w;
    asm volatile("bar.arrive 1, 128;" ::: "memory");
  } else {
    asm volatile("bar.sync 1, 128;" ::: "memory");
    O(0) = box[0] + box[1];
  }
  __syncthreads();
  if (w == 1 || w == 3) asm volatile("barrier.sync 2, 64;" ::: "memory");
  O(1) = w;
}
K k31_printf(const uint32_t *in, uint32_t *out) {
  if ((threadIdx.x & 63) == 5) printf("cta %d thread %d: %u %d %x %.3f %s %c %lld|%5.1e|%08X\n", blockIdx.x,
                                      threadIdx.x, I(0), (int)I(1), I(2), (double)F(I(3)), "ok", 'A' + threadIdx.x % 26,
                                      (long long)I(4) << 20, 1.5e-3, 0xbeefu);
  O(0) = 1;
}
K k32_ld_st_vec(const uint32_t *in, uint32_t *out) {
  const uint4 *v4 = (const uint4 *)in;
  uint4 x = v4[GT & 2047];
  const uint2 *v2 = (const uint2 *)in;
  uint2 y = v2[(GT * 3) & 4095];
  *(uint4 *)&O(0) = x; *(uint2 *)&O(4) = y;
  const uint8_t *b = (const uint8_t *)in;
  O(6) = b[GT * 7 & 32767]; O(7) = (uint32_t)(int32_t)((const int8_t *)in)[GT * 5 & 32767];
  O(8) = ((const uint16_t *)in)[GT * 3 & 16383]; O(9) = (uint32_t)(int32_t)((const int16_t *)in)[GT * 9 & 16383];
  uint32_t r;
  asm volatile("ld.global.nc.L1::no_allocate.u32 %0, [%1];" : "=r"(r) : "l"(&in[GT])); O(10) = r;
  asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(r) : "l"(&in[GT + 1])); O(11) = r;
  ((uint16_t *)&O(12))[1] = 0x1234; ((uint8_t *)&O(13))[2] = 0x56;
}

// ---- wgmma (one warpgroup; operands in shared memory in the canonical
// layouts without swizzling, written by the kernel itself) ----
// K-major: element (mn, k) of 16-byte chunks of T = 16 / esize elements at
//   (mn % 8) * 16 + (mn / 8) * SBO + (k / T) * LBO + (k % T) * esize
// MN-major: (mn / T) * SBO + (k % 8) * 16 + (k / 8) * LBO + (mn % T) * esize
__device__ __forceinline__ uint32_t kmaj(int mn, int k, int es, int lbo, int sbo) {
  int t = 16 / es;
  return (mn % 8) * 16 + (mn / 8) * sbo + (k / t) * lbo + (k % t) * es;
}
__device__ __forceinline__ uint32_t mnmaj(int mn, int k, int es, int lbo, int sbo) {
  int t = 16 / es;
  return (mn / t) * sbo + (k % 8) * 16 + (k / 8) * lbo + (mn % t) * es;
}
__device__ __forceinline__ uint64_t wdesc(const void *p, int lbo, int sbo) {
  uint64_t a = (uint32_t)__cvta_generic_to_shared(p);
  return (a >> 4 & 0x3fff) | (uint64_t)(lbo >> 4 & 0x3fff) << 16 | (uint64_t)(sbo >> 4 & 0x3fff) << 32;
}
/* a finite 16-bit float code from random bits: magnitudes 2^-3 .. 2^0 */
__device__ __forceinline__ uint16_t h16(uint32_t x) { return (uint16_t)((x & 0x8000) | (0x3000 + (x & 0x0fff))); }
__device__ __forceinline__ uint16_t b16(uint32_t x) { return (uint16_t)((x & 0x8000) | (0x3e00 + (x & 0x00ff))); }
__device__ __forceinline__ uint8_t f8(uint32_t x) { return (uint8_t)((x & 0x80) | (0x30 + (x & 0x1f))); }

#define R16(i) "+f"(d[i])
#define D16 R16(0), R16(1), R16(2), R16(3), R16(4), R16(5), R16(6), R16(7), R16(8), R16(9), R16(10), R16(11), \
            R16(12), R16(13), R16(14), R16(15)
#define V16 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}"
__device__ void store_d32(uint32_t *out, const float *d) { /* m64n32, f32: by (row, col) */
  int t = threadIdx.x;
  for (int i = 0; i < 16; i++) {
    int row = 16 * (t / 32) + (t % 32) / 4 + 8 * ((i / 2) % 2), col = 8 * (i / 4) + 2 * (t % 4) + i % 2;
    out[blockIdx.x * 2048 + row * 32 + col] = __float_as_uint(d[i]);
  }
}
__device__ void wg_sync() {
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
}

K k33_wgmma_f16_ss(const uint32_t *in, uint32_t *out) {
  /* A 64x32 and B 32x32 (two K blocks of 16), K-major, f32 accumulator */
  __shared__ __align__(128) uint8_t sa[2][64 * 16 * 2], sb[2][32 * 16 * 2];
  for (int i = threadIdx.x; i < 64 * 32; i += 128) {
    int m = i / 32, k = i % 32;
    *(uint16_t *)&sa[k / 16][kmaj(m, k % 16, 2, 128, 256)] = h16(in[(i + blockIdx.x * 512) & 8191]);
  }
  for (int i = threadIdx.x; i < 32 * 32; i += 128) {
    int n = i / 32, k = i % 32;
    *(uint16_t *)&sb[k / 16][kmaj(n, k % 16, 2, 128, 256)] = h16(in[(i * 3 + 77) & 8191] >> 7);
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  float d[16];
  for (int i = 0; i < 16; i++) d[i] = __uint_as_float(in[(threadIdx.x * 16 + i) & 8191] & 0x3fffffff);
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  for (int kb = 0; kb < 2; kb++) {
    uint64_t da = wdesc(sa[kb], 128, 256), db = wdesc(sb[kb], 128, 256);
    asm volatile("{ .reg .pred p; setp.ne.b32 p, %18, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 " V16 ", %16, %17, p, 1, 1, 0, 0; }"
                 : D16 : "l"(da), "l"(db), "r"(kb | (int)(blockIdx.x)));
  }
  wg_sync();
  store_d32(out, d);
}
K k34_wgmma_bf16_rs(const uint32_t *in, uint32_t *out) {
  /* A (64x16 bf16) from registers, negated; B (16x32) N-major (trans-b) */
  __shared__ __align__(128) uint8_t sb[32 * 16 * 2];
  for (int i = threadIdx.x; i < 32 * 16; i += 128) {
    int n = i / 16, k = i % 16;
    *(uint16_t *)&sb[mnmaj(n, k, 2, 512, 128)] = b16(in[(i * 5 + 3) & 8191]);
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  uint32_t a[4];
  for (int r = 0; r < 4; r++) a[r] = b16(in[(GT * 8 + 2 * r) & 8191]) | (uint32_t)b16(in[(GT * 8 + 2 * r + 1) & 8191]) << 16;
  float d[16];
  for (int i = 0; i < 16; i++) d[i] = 0.0f;
  uint64_t db = wdesc(sb, 512, 128);
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  asm volatile("wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 " V16 ", {%16, %17, %18, %19}, %20, 0, -1, 1, 1;"
               : D16 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db));
  wg_sync();
  store_d32(out, d);
}
K k35_wgmma_tf32(const uint32_t *in, uint32_t *out) {
  /* tf32, K = 8, K-major; full f32 codes (the low 13 bits are ignored) */
  __shared__ __align__(128) uint8_t sa[64 * 8 * 4], sb[32 * 8 * 4];
  for (int i = threadIdx.x; i < 64 * 8; i += 128) {
    int m = i / 8, k = i % 8;
    *(uint32_t *)&sa[kmaj(m, k, 4, 128, 256)] = (in[(i + blockIdx.x * 99) & 8191] & 0x807fffff) | 0x3e000000;
  }
  for (int i = threadIdx.x; i < 32 * 8; i += 128) {
    int n = i / 8, k = i % 8;
    *(uint32_t *)&sb[kmaj(n, k, 4, 128, 256)] = (in[(i * 7) & 8191] & 0x807fffff) | 0x3f000000;
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  float d[16];
  for (int i = 0; i < 16; i++) d[i] = __uint_as_float(0x3f800000 + (in[(GT + i) & 8191] & 0xfffff));
  uint64_t da = wdesc(sa, 128, 256), db = wdesc(sb, 128, 256);
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  asm volatile("{ .reg .pred p; setp.ne.b32 p, %18, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n32k8.f32.tf32.tf32 " V16 ", %16, %17, p, 1, 1; }"
               : D16 : "l"(da), "l"(db), "r"(1));
  wg_sync();
  store_d32(out, d);
}
K k36_wgmma_e4m3(const uint32_t *in, uint32_t *out) {
  /* e4m3, K = 32, K-major, f32 accumulator */
  __shared__ __align__(128) uint8_t sa[64 * 32], sb[32 * 32];
  for (int i = threadIdx.x; i < 64 * 32; i += 128) {
    int m = i / 32, k = i % 32;
    sa[kmaj(m, k, 1, 128, 256)] = f8(in[(i + blockIdx.x * 300) & 8191] >> (i % 4 * 8));
  }
  for (int i = threadIdx.x; i < 32 * 32; i += 128) {
    int n = i / 32, k = i % 32;
    sb[kmaj(n, k, 1, 128, 256)] = f8(in[(i * 11) & 8191] >> 3);
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  float d[16];
  for (int i = 0; i < 16; i++) d[i] = 0.0f;
  uint64_t da = wdesc(sa, 128, 256), db = wdesc(sb, 128, 256);
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  asm volatile("wgmma.mma_async.sync.aligned.m64n32k32.f32.e4m3.e4m3 " V16 ", %16, %17, 0, 1, 1;"
               : D16 : "l"(da), "l"(db));
  wg_sync();
  store_d32(out, d);
}
K k37_wgmma_e5m2_f16acc(const uint32_t *in, uint32_t *out) {
  /* e5m2, K = 32, f16 accumulator (8 registers of f16x2 for n32) */
  __shared__ __align__(128) uint8_t sa[64 * 32], sb[32 * 32];
  for (int i = threadIdx.x; i < 64 * 32; i += 128) {
    int m = i / 32, k = i % 32;
    sa[kmaj(m, k, 1, 128, 256)] = (uint8_t)((in[(i * 13 + blockIdx.x) & 8191] & 0x83) | 0x38);
  }
  for (int i = threadIdx.x; i < 32 * 32; i += 128) {
    int n = i / 32, k = i % 32;
    sb[kmaj(n, k, 1, 128, 256)] = (uint8_t)((in[(i * 17) & 8191] & 0x83) | 0x3c);
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  uint32_t h[8];
  for (int i = 0; i < 8; i++) h[i] = (uint32_t)h16(in[(GT * 8 + i) & 8191]) | (uint32_t)h16(in[(GT * 8 + i) & 8191] >> 16) << 16;
  uint64_t da = wdesc(sa, 128, 256), db = wdesc(sb, 128, 256);
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  asm volatile("{ .reg .pred p; setp.ne.b32 p, %10, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n32k32.f16.e5m2.e5m2 {%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p, 1, 1; }"
               : "+r"(h[0]), "+r"(h[1]), "+r"(h[2]), "+r"(h[3]), "+r"(h[4]), "+r"(h[5]), "+r"(h[6]), "+r"(h[7])
               : "l"(da), "l"(db), "r"(1));
  wg_sync();
  for (int i = 0; i < 8; i++) O(i) = h[i];
}

// ---- calls of .func (nvcc keeps __noinline__ functions as .func) ----
__device__ __noinline__ uint32_t mix(uint32_t a, uint32_t b) {
  uint32_t r = a * 2654435761u ^ b;
  if (a & 1) r = r + (b << 3);
  return r;
}
__device__ __noinline__ float addsq(float x, double y) { return __fadd_rn(__fmul_rn(x, x), (float)y); }
__device__ __noinline__ void twice(uint32_t *p, int n) { for (int i = 0; i < n; i++) p[i] *= 2; }
__device__ __noinline__ uint32_t outer(uint32_t a) { return mix(a, a + 1) + 1; }
K k38_calls(const uint32_t *in, uint32_t *out) {
  uint32_t t = threadIdx.x, loc[4] = {t, t + 1, I(3), t + 3};
  uint32_t v = I(0);
  if (t & 1) v = mix(v, t); else v = outer(v); /* divergent calls */
  twice(loc, (int)(I(1) % 5));
  O(0) = v;
  O(1) = __float_as_uint(addsq(F(I(2)), D(I(4), I(5))));
  for (int i = 0; i < 4; i++) O(2 + i) = loc[i];
}

// ---- elect, mbarrier tx-counts and arrive_drop, cp.async arrivals, red,
// uncontended float atomics ----
K k39_sync_misc(const uint32_t *in, uint32_t *out) {
  __shared__ __align__(8) uint64_t bar[2];
  __shared__ __align__(16) uint32_t buf[128 * 4];
  uint32_t b0 = (uint32_t)__cvta_generic_to_shared(&bar[0]), b1 = (uint32_t)__cvta_generic_to_shared(&bar[1]);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 4;" :: "r"(b0));
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 128;" :: "r"(b1));
  }
  __syncthreads();
  uint32_t leader, is, done = 0;
  asm volatile("{ .reg .pred p; elect.sync %0|p, 0xffffffff; selp.u32 %1, 1, 0, p; }" : "=r"(leader), "=r"(is));
  O(0) = leader; O(1) = is;
  /* phase 0 of b0: each warp's leader arrives expecting 16 bytes, then completes them */
  if (is) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 16;" :: "r"(b0) : "memory");
    asm volatile("mbarrier.complete_tx.shared::cta.b64 [%0], 16;" :: "r"(b0) : "memory");
  }
  while (!done)
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(b0) : "memory");
  /* phase 1: leaders of warps 0-2 drop out, warp 3's arrives: the phase completes */
  if (is) {
    if (threadIdx.x < 96) asm volatile("mbarrier.arrive_drop.shared::cta.b64 _, [%0];" :: "r"(b0) : "memory");
    else asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(b0) : "memory");
  }
  done = 0;
  while (!done)
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 1; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(b0) : "memory");
  /* cp.async whose completion arrives on b1 (.noinc: the 128 arrivals complete it) */
  uint32_t dst = (uint32_t)__cvta_generic_to_shared(&buf[threadIdx.x * 4]);
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(dst), "l"(&in[(GT * 16) & 8191]) : "memory");
  asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" :: "r"(b1) : "memory");
  done = 0;
  while (!done)
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(b1) : "memory");
  for (int j = 0; j < 4; j++) O(2 + j) = buf[((threadIdx.x + 5) % 128) * 4 + j];
  /* red (no result used) and float atomics on the thread's own words */
  atomicAdd(&O(6), I(0));
  atomicAdd((float *)&O(7), F(I(1)) * 0.0f + 1.5f);
  atomicAdd((float *)&O(7), F(I(2) & 0x3fffffff));
  atomicAdd((double *)&O(8), (double)F(I(3) & 0x3fffffff));
  O(10) = atomicExch(&O(11), I(4)) + 1;
}

// ---- the instructions of issue 30 that Hopper has ----
K k40_redux(const uint32_t *in, uint32_t *out) {
  /* integer redux.sync, the whole warp and (lanes < 16) half of it */
  uint32_t a = I(0), r[9];
  asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(r[0]) : "r"(a));
  asm volatile("redux.sync.min.u32 %0, %1, 0xffffffff;" : "=r"(r[1]) : "r"(a));
  asm volatile("redux.sync.max.u32 %0, %1, 0xffffffff;" : "=r"(r[2]) : "r"(a));
  asm volatile("redux.sync.add.s32 %0, %1, 0xffffffff;" : "=r"(r[3]) : "r"(a));
  asm volatile("redux.sync.min.s32 %0, %1, 0xffffffff;" : "=r"(r[4]) : "r"(a));
  asm volatile("redux.sync.max.s32 %0, %1, 0xffffffff;" : "=r"(r[5]) : "r"(a));
  asm volatile("redux.sync.and.b32 %0, %1, 0xffffffff;" : "=r"(r[6]) : "r"(a));
  asm volatile("redux.sync.or.b32 %0, %1, 0xffffffff;" : "=r"(r[7]) : "r"(a));
  asm volatile("redux.sync.xor.b32 %0, %1, 0xffffffff;" : "=r"(r[8]) : "r"(a));
  for (int j = 0; j < 9; j++) O(j) = r[j];
  if (threadIdx.x % 32 < 16) {
    uint32_t s, m;
    asm volatile("redux.sync.min.s32 %0, %1, 0x0000ffff;" : "=r"(m) : "r"(I(1)));
    asm volatile("redux.sync.add.u32 %0, %1, 0x0000ffff;" : "=r"(s) : "r"(I(1)));
    O(9) = m;
    O(10) = s;
  }
}
K k41_b128(const uint32_t *in, uint32_t *out) {
  /* mov.b128 packs and unpacks; atom.exch / atom.cas .b128 on global and
   * shared memory, each thread on its own 16 bytes */
  __shared__ __align__(16) uint32_t sm[128 * 4];
  uint64_t lo = (uint64_t)I(1) << 32 | I(0), hi = (uint64_t)I(3) << 32 | I(2);
  uint64_t x0, x1;
  uint32_t q0, q1, q2, q3;
  asm volatile("{ .reg .b128 q; mov.b128 q, {%4, %5}; mov.b128 {%0, %1}, q; mov.b128 {%2, %3}, q; }"
               : "=l"(x0), "=l"(x1), "=l"(lo), "=l"(hi) : "l"(lo), "l"(hi));
  asm volatile("{ .reg .b128 q; mov.b128 q, {%4, %5}; mov.b128 {%0, %1, %2, %3}, q; }"
               : "=r"(q0), "=r"(q1), "=r"(q2), "=r"(q3) : "l"(x1), "l"(x0));
  O(0) = q0; O(1) = q1; O(2) = q2; O(3) = q3;
  /* global: out[4..7] starts as in[4..7]; exch with (lo, hi), then cas with
   * the old value (no match: different) and with (lo, hi) (a match) */
  for (int j = 4; j < 8; j++) O(j) = I(j);
  uint64_t o0, o1, c0, c1, d0, d1;
  uint64_t *g = (uint64_t *)&O(4);
  asm volatile("{ .reg .b128 q, n, o; mov.b128 n, {%2, %3}; atom.global.exch.b128 o, [%4], n; mov.b128 {%0, %1}, o; }"
               : "=l"(o0), "=l"(o1) : "l"(lo), "l"(hi), "l"(g) : "memory");
  asm volatile("{ .reg .b128 c, n, o; mov.b128 c, {%2, %3}; mov.b128 n, {%4, %5}; atom.global.cas.b128 o, [%6], c, n;"
               " mov.b128 {%0, %1}, o; }"
               : "=l"(c0), "=l"(c1) : "l"(o0), "l"(o1), "l"(o1), "l"(o0), "l"(g) : "memory");
  asm volatile("{ .reg .b128 c, n, o; mov.b128 c, {%2, %3}; mov.b128 n, {%4, %5}; atom.global.cas.b128 o, [%6], c, n;"
               " mov.b128 {%0, %1}, o; }"
               : "=l"(d0), "=l"(d1) : "l"(lo), "l"(hi), "l"(hi), "l"(lo), "l"(g) : "memory");
  O(8) = (uint32_t)o0 ^ (uint32_t)(o1 >> 32); O(9) = (uint32_t)c0 ^ (uint32_t)(c1 >> 7); O(10) = (uint32_t)(d0 >> 3) + (uint32_t)d1;
  /* shared: the same exchange */
  uint32_t *s = &sm[threadIdx.x * 4];
  for (int j = 0; j < 4; j++) s[j] = I(8 + j);
  uint32_t sa = (uint32_t)__cvta_generic_to_shared(s);
  asm volatile("{ .reg .b128 n, o; mov.b128 n, {%2, %3}; atom.shared.exch.b128 o, [%4], n; mov.b128 {%0, %1}, o; }"
               : "=l"(o0), "=l"(o1) : "l"(hi), "l"(lo), "r"(sa) : "memory");
  O(11) = (uint32_t)o0; O(12) = (uint32_t)(o1 >> 32);
  for (int j = 0; j < 3; j++) O(13 + j) = s[j];
}
K __cluster_dims__(2, 1, 1) k42_st_async(const uint32_t *in, uint32_t *out) {
  /* each CTA of a cluster of 2 stores into its peer's shared memory with
   * st.async and red.async, completing bytes on the peer's mbarrier */
  __shared__ __align__(16) uint32_t buf[128 * 4];
  __shared__ __align__(8) uint64_t bar;
  uint32_t me, peer, b = (uint32_t)__cvta_generic_to_shared(buf), m = (uint32_t)__cvta_generic_to_shared(&bar);
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(me));
  peer = me ^ 1;
  buf[threadIdx.x * 4 + 2] = I(5);
  buf[threadIdx.x * 4 + 3] = 100;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(m));
    /* v2.b32 (8) + b32 (4) + red add (4) + red min (4) bytes a thread */
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(m), "r"(128 * 20) : "memory");
  }
  asm volatile("barrier.cluster.arrive; barrier.cluster.wait;" ::: "memory");
  uint32_t rb, rm;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(rb) : "r"(b), "r"(peer));
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(rm) : "r"(m), "r"(peer));
  uint32_t dst = rb + threadIdx.x * 16;
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.b32 [%0], {%1, %2}, [%3];"
               :: "r"(dst), "r"(I(0)), "r"(I(1)), "r"(rm) : "memory");
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%0], %1, [%2];"
               :: "r"(dst + 8), "r"(I(2)), "r"(rm) : "memory");
  asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%0], %1, [%2];"
               :: "r"(dst + 8), "r"(I(3)), "r"(rm) : "memory");
  asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.min.s32 [%0], %1, [%2];"
               :: "r"(dst + 12), "r"(I(4)), "r"(rm) : "memory");
  uint32_t done = 0;
  while (!done)
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(m) : "memory");
  for (int j = 0; j < 4; j++) O(j) = buf[threadIdx.x * 4 + j];
  asm volatile("barrier.cluster.arrive; barrier.cluster.wait;" ::: "memory");
}
K k43_cvt_int_half(const uint32_t *in, uint32_t *out) {
  /* integers of 32 and 64 bits to f16 and bf16 in the four roundings; the
   * inputs shifted so that every magnitude occurs */
  uint32_t u = I(0) >> (I(1) & 31);
  int32_t s = (int32_t)(I(2) >> (I(3) & 31)) * ((I(3) & 32) ? -1 : 1);
  uint64_t u64 = ((uint64_t)I(4) << 32 | I(5)) >> (I(6) & 63);
  int64_t s64 = (int64_t)(((uint64_t)I(7) << 32 | I(8)) >> (I(9) & 63)) * ((I(9) & 64) ? -1 : 1);
  unsigned short h[16];
#define CVT(i, rnd, ty, st, reg, v) asm("cvt." rnd "." ty "." st " %0, %1;" : "=h"(h[i]) : reg(v))
  CVT(0, "rn", "f16", "u32", "r", u);  CVT(1, "rz", "f16", "u32", "r", u);
  CVT(2, "rm", "f16", "s32", "r", s);  CVT(3, "rp", "f16", "s32", "r", s);
  CVT(4, "rn", "f16", "u64", "l", u64); CVT(5, "rp", "f16", "u64", "l", u64);
  CVT(6, "rn", "f16", "s64", "l", s64); CVT(7, "rz", "f16", "s64", "l", s64);
  CVT(8, "rn", "bf16", "u32", "r", u); CVT(9, "rm", "bf16", "u32", "r", u);
  CVT(10, "rn", "bf16", "s32", "r", s); CVT(11, "rp", "bf16", "s32", "r", s);
  CVT(12, "rn", "bf16", "u64", "l", u64); CVT(13, "rz", "bf16", "u64", "l", u64);
  CVT(14, "rn", "bf16", "s64", "l", s64); CVT(15, "rm", "bf16", "s64", "l", s64);
#undef CVT
  for (int j = 0; j < 8; j++) O(j) = h[2 * j] | (uint32_t)h[2 * j + 1] << 16;
}
#define RI(i) "+r"(d[i])
#define DI16 RI(0), RI(1), RI(2), RI(3), RI(4), RI(5), RI(6), RI(7), RI(8), RI(9), RI(10), RI(11), RI(12), RI(13), \
             RI(14), RI(15)
K k44_wgmma_s8(const uint32_t *in, uint32_t *out) {
  /* integer wgmma m64n32k32: s8 x s8 accumulating, then u8 x s8 with
   * .satfinite from accumulators near the s32 limits */
  __shared__ __align__(128) uint8_t sa[64 * 32], sb[32 * 32];
  for (int i = threadIdx.x; i < 64 * 32; i += 128) sa[kmaj(i / 32, i % 32, 1, 128, 256)] = (uint8_t)(in[(i + blockIdx.x * 512) & 8191] >> 5);
  for (int i = threadIdx.x; i < 32 * 32; i += 128) sb[kmaj(i / 32, i % 32, 1, 128, 256)] = (uint8_t)(in[(i * 3 + 11) & 8191] >> 9);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  uint32_t d[16];
  for (int i = 0; i < 16; i++) d[i] = in[(threadIdx.x * 16 + i) & 8191] >> 8;
  uint64_t da = wdesc(sa, 128, 256), db = wdesc(sb, 128, 256);
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  asm volatile("wgmma.mma_async.sync.aligned.m64n32k32.s32.s8.s8 " V16 ", %16, %17, 1;" : DI16 : "l"(da), "l"(db));
  wg_sync();
  for (int i = 0; i < 16; i++) out[blockIdx.x * 4096 + threadIdx.x * 16 + i] = d[i];
  for (int i = 0; i < 16; i++) d[i] = (i & 1) ? 0x7fffff00u + (in[(threadIdx.x + i) & 8191] & 0xff) : 0x800000ffu - (in[(threadIdx.x * 3 + i) & 8191] & 0xff);
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  asm volatile("wgmma.mma_async.sync.aligned.m64n32k32.satfinite.s32.u8.s8 " V16 ", %16, %17, 1;" : DI16 : "l"(da), "l"(db));
  wg_sync();
  for (int i = 0; i < 16; i++) out[blockIdx.x * 4096 + 2048 + threadIdx.x * 16 + i] = d[i];
}

// ---- the special-function unit (issue 31): a sample of every approximate
// instruction on in.bin's words (random bits, specials, ordinary floats),
// four kernels with different words, then the divisions and the 16/64-bit
// forms ----
#define SFU1(j, ptx, x) do { float y_; asm volatile(ptx " %0, %1;" : "=f"(y_) : "f"(F(x))); O(j) = U(y_); } while (0)
#define SFU_F32(name, sh)                                                                     \
  K name(const uint32_t *in, uint32_t *out) {                                                 \
    SFU1(0, "ex2.approx.ftz.f32", I(0 + sh)); SFU1(1, "ex2.approx.f32", I(1 + sh));           \
    SFU1(2, "rcp.approx.ftz.f32", I(2 + sh)); SFU1(3, "rcp.approx.f32", I(3 + sh));           \
    SFU1(4, "rsqrt.approx.ftz.f32", I(4 + sh)); SFU1(5, "rsqrt.approx.f32", I(5 + sh));       \
    SFU1(6, "sqrt.approx.ftz.f32", I(6 + sh)); SFU1(7, "sqrt.approx.f32", I(7 + sh));         \
    SFU1(8, "lg2.approx.ftz.f32", I(8 + sh)); SFU1(9, "lg2.approx.f32", I(9 + sh));           \
    SFU1(10, "sin.approx.ftz.f32", I(10 + sh)); SFU1(11, "sin.approx.f32", I(11 + sh));       \
    SFU1(12, "cos.approx.ftz.f32", I(12 + sh)); SFU1(13, "cos.approx.f32", I(13 + sh));       \
    SFU1(14, "tanh.approx.f32", I(14 + sh));                                                  \
    SFU1(15, "ex2.approx.ftz.f32", (I(15 + sh) & 0x80ffffffu) | 0x40000000u); /* |x| in [2, 4) */ \
  }
SFU_F32(k45_sfu_f32_a, 0)
SFU_F32(k46_sfu_f32_b, 1)
SFU_F32(k47_sfu_f32_c, 2)
SFU_F32(k48_sfu_f32_d, 3)
K k49_sfu_div(const uint32_t *in, uint32_t *out) {
  float r;
  for (int k = 0; k < 4; k++) {
    float a = F(I(2 * k)), b = F(I(2 * k + 1));
    asm volatile("div.approx.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); O(4 * k) = U(r);
    asm volatile("div.approx.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); O(4 * k + 1) = U(r);
    asm volatile("div.full.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); O(4 * k + 2) = U(r);
    asm volatile("div.full.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); O(4 * k + 3) = U(r);
  }
}
K k50_sfu_half_f64(const uint32_t *in, uint32_t *out) {
  uint32_t y;
  unsigned short h;
  asm volatile("ex2.approx.f16x2 %0, %1;" : "=r"(y) : "r"(I(0))); O(0) = y;
  asm volatile("ex2.approx.ftz.bf16x2 %0, %1;" : "=r"(y) : "r"(I(1))); O(1) = y;
  asm volatile("tanh.approx.f16x2 %0, %1;" : "=r"(y) : "r"(I(2))); O(2) = y;
  asm volatile("tanh.approx.bf16x2 %0, %1;" : "=r"(y) : "r"(I(3))); O(3) = y;
  asm volatile("ex2.approx.f16 %0, %1;" : "=h"(h) : "h"((unsigned short)I(4))); O(4) = h;
  asm volatile("ex2.approx.ftz.bf16 %0, %1;" : "=h"(h) : "h"((unsigned short)I(5))); O(5) = h;
  asm volatile("tanh.approx.f16 %0, %1;" : "=h"(h) : "h"((unsigned short)I(6))); O(6) = h;
  asm volatile("tanh.approx.bf16 %0, %1;" : "=h"(h) : "h"((unsigned short)I(7))); O(7) = h;
  double d = D(I(8), I(9)), r;
  asm volatile("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(d)); W64(&O(8), r);
  asm volatile("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(d)); W64(&O(10), r);
  asm volatile("rsqrt.approx.f64 %0, %1;" : "=d"(r) : "d"(fabs(d))); W64(&O(12), r);
  asm volatile("rsqrt.approx.f64 %0, %1;" : "=d"(r) : "d"(d)); W64(&O(14), r);
}
