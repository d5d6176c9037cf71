/* shared by the device probe and the local model checker */
#pragma once
#include <stdint.h>
#include <string.h>
#include <math.h>
#ifdef __CUDACC__
#define HD __host__ __device__
#else
#define HD
#endif
static HD inline uint64_t mix64(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static HD inline uint64_t hmix32(uint32_t x, uint32_t y) { return mix64(((uint64_t)x << 32) | y); }
static HD inline uint64_t hmix64(uint32_t x, uint64_t y) {
  return mix64(((uint64_t)x << 32) | (uint32_t)(y >> 32)) + mix64(((uint64_t)(~x) << 32) | (uint32_t)y);
}
static inline int32_t ordf(uint32_t b) { return (b & 0x80000000u) ? -(int32_t)(b & 0x7fffffffu) : (int32_t)b; }
static inline uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

enum { OP_EX2_FTZ, OP_EX2, OP_RCP_FTZ, OP_RCP, OP_RSQRT_FTZ, OP_RSQRT, OP_SQRT_FTZ, OP_SQRT,
       OP_LG2_FTZ, OP_LG2, OP_SIN_FTZ, OP_SIN, OP_COS_FTZ, OP_COS, OP_TANH, N_OP32 };
static const char *op32_name[N_OP32] = {
  "ex2.approx.ftz.f32", "ex2.approx.f32", "rcp.approx.ftz.f32", "rcp.approx.f32",
  "rsqrt.approx.ftz.f32", "rsqrt.approx.f32", "sqrt.approx.ftz.f32", "sqrt.approx.f32",
  "lg2.approx.ftz.f32", "lg2.approx.f32", "sin.approx.ftz.f32", "sin.approx.f32",
  "cos.approx.ftz.f32", "cos.approx.f32", "tanh.approx.f32" };
enum { OP64_RCP_FTZ, OP64_RSQRT, OP64_RSQRT_FTZ, N_OP64 };
static const char *op64_name[N_OP64] = { "rcp.approx.ftz.f64", "rsqrt.approx.f64", "rsqrt.approx.ftz.f64" };

/* correctly-rounded-ish f32 reference (double libm, then round) */
static inline uint32_t ref32(int op, uint32_t xb) {
  double x = (double)u2f(xb), r;
  switch (op) {
  case OP_EX2_FTZ: case OP_EX2: r = exp2(x); break;
  case OP_RCP_FTZ: case OP_RCP: r = 1.0 / x; break;
  case OP_RSQRT_FTZ: case OP_RSQRT: r = 1.0 / sqrt(x); break;
  case OP_SQRT_FTZ: case OP_SQRT: r = sqrt(x); break;
  case OP_LG2_FTZ: case OP_LG2: r = log2(x); break;
  case OP_SIN_FTZ: case OP_SIN: r = sin(x); break;
  case OP_COS_FTZ: case OP_COS: r = cos(x); break;
  default: r = tanh(x); break;
  }
  return f2u((float)r);
}
