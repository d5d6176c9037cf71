// gpu/run.sh sfu: every approximate instruction of the special-function
// unit on the GPU against tc5's model of it (src/sfu/sfu_model.h, compiled
// here for the device, the same source the library compiles for the host),
// input by input:
//   - the one-input f32 forms: all 2^32 inputs each;
//   - the f16/bf16 forms: all 2^16 inputs; their x2 forms: all 2^32;
//   - the f64 forms: every high word (2^32) with a low word mixed from it;
//   - the divisions: every divisor (2^32) with 2 random dividends and 16
//     special ones (zeros, subnormals, infinities, NaN, powers of two, the
//     ranges where the reciprocal overflows or flushes).
// Prints one line per instruction: inputs compared, mismatches, the first
// few mismatching inputs. Exit status: 0 when none differ, 1 otherwise.
// Built with -fmad=false (the model's a * b + c are two roundings).
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "sfu/sfu_model.h"

#include "cuda_check.h" /* CK(call) */

struct Tally {
  unsigned long long blocks; // blocks that ran: every input was compared
  unsigned long long bad;
  unsigned long long first[4]; // a, b of the first mismatches (packed)
};

__device__ void ran(Tally *t) {
  if (threadIdx.x == 0) atomicAdd(&t->blocks, 1ull);
}
__device__ void note(Tally *t, uint64_t a, uint64_t b) {
  unsigned long long k = atomicAdd(&t->bad, 1ull);
  if (k < 2) {
    t->first[2 * k] = a;
    t->first[2 * k + 1] = b;
  }
}

#define F32(name, ptx, model)                                                                   \
  __global__ void name(uint32_t hi, Tally *t) {                                                 \
    ran(t);                                                                                     \
    uint32_t x = hi << 24 | (blockIdx.x * blockDim.x + threadIdx.x);                           \
    float y;                                                                                    \
    asm volatile(ptx " %0, %1;" : "=f"(y) : "f"(__uint_as_float(x)));                          \
    if (__float_as_uint(y) != model(x)) note(t, x, 0);                                          \
  }
F32(k_ex2_ftz, "ex2.approx.ftz.f32", sfu_ex2_approx_ftz_f32)
F32(k_ex2, "ex2.approx.f32", sfu_ex2_approx_f32)
F32(k_rcp_ftz, "rcp.approx.ftz.f32", sfu_rcp_approx_ftz_f32)
F32(k_rcp, "rcp.approx.f32", sfu_rcp_approx_f32)
F32(k_rsqrt_ftz, "rsqrt.approx.ftz.f32", sfu_rsqrt_approx_ftz_f32)
F32(k_rsqrt, "rsqrt.approx.f32", sfu_rsqrt_approx_f32)
F32(k_sqrt_ftz, "sqrt.approx.ftz.f32", sfu_sqrt_approx_ftz_f32)
F32(k_sqrt, "sqrt.approx.f32", sfu_sqrt_approx_f32)
F32(k_lg2_ftz, "lg2.approx.ftz.f32", sfu_lg2_approx_ftz_f32)
F32(k_lg2, "lg2.approx.f32", sfu_lg2_approx_f32)
F32(k_sin_ftz, "sin.approx.ftz.f32", sfu_sin_approx_ftz_f32)
F32(k_sin, "sin.approx.f32", sfu_sin_approx_f32)
F32(k_cos_ftz, "cos.approx.ftz.f32", sfu_cos_approx_ftz_f32)
F32(k_cos, "cos.approx.f32", sfu_cos_approx_f32)
F32(k_tanh, "tanh.approx.f32", sfu_tanh_approx_f32)
/* a control that must differ: ex2.approx.ftz against the non-ftz model
 * (they part where ex2's result is subnormal) */
F32(k_control, "ex2.approx.ftz.f32", sfu_ex2_approx_f32)

__device__ __forceinline__ uint64_t mix64(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
#define F64(name, ptx, model)                                                                   \
  __global__ void name(uint32_t hi, Tally *t) {                                                 \
    ran(t);                                                                                     \
    uint32_t h = hi << 24 | (blockIdx.x * blockDim.x + threadIdx.x);                           \
    uint64_t x = (uint64_t)h << 32 | (uint32_t)mix64(h);                                        \
    double y;                                                                                   \
    asm volatile(ptx " %0, %1;" : "=d"(y) : "d"(__longlong_as_double((long long)x)));          \
    if ((uint64_t)__double_as_longlong(y) != model(x)) note(t, x, 0);                          \
  }
F64(k_rcp64_ftz, "rcp.approx.ftz.f64", sfu_rcp_approx_ftz_f64)
F64(k_rsqrt64_ftz, "rsqrt.approx.ftz.f64", sfu_rsqrt_approx_ftz_f64)
F64(k_rsqrt64, "rsqrt.approx.f64", sfu_rsqrt_approx_f64)

// the 16-bit forms (all 2^16) and their x2 forms (all 2^32: both halves)
#define F16(name, ptx, model)                                                                   \
  __global__ void name(uint32_t hi, Tally *t) {                                                 \
    ran(t);                                                                                     \
    uint32_t v = hi << 24 | (blockIdx.x * blockDim.x + threadIdx.x), y;                        \
    asm volatile(ptx "x2 %0, %1;" : "=r"(y) : "r"(v));                                          \
    uint32_t want = model((uint16_t)v) | (uint32_t)model((uint16_t)(v >> 16)) << 16;            \
    if (y != want) note(t, v, 1);                                                               \
    if (v < 65536) {                                                                            \
      uint16_t h;                                                                               \
      asm volatile(ptx " %0, %1;" : "=h"(h) : "h"((uint16_t)v));                                \
      if (h != model((uint16_t)v)) note(t, v, 0);                                               \
    }                                                                                           \
  }
F16(k_ex2_f16, "ex2.approx.f16", sfu_ex2_approx_f16)
F16(k_ex2_bf16, "ex2.approx.ftz.bf16", sfu_ex2_approx_ftz_bf16)
F16(k_tanh_f16, "tanh.approx.f16", sfu_tanh_approx_f16)
F16(k_tanh_bf16, "tanh.approx.bf16", sfu_tanh_approx_bf16)

#define DIV(name, ptx, model)                                                                   \
  __global__ void name(uint32_t hi, Tally *t) {                                                 \
    ran(t);                                                                                     \
    const uint32_t sp[16] = {0u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7f800000u, 0xff800000u, \
                             0x7fc00000u, 0x00000001u, 0x807fffffu, 0x00800000u, 0x7f7fffffu,     \
                             0xff7fffffu, 0x0d800000u, 0x72800000u, 0x3fffffffu, 0x5f000000u};    \
    uint32_t b = hi << 24 | (blockIdx.x * blockDim.x + threadIdx.x);                           \
    for (int k = 0; k < 18; k++) {                                                              \
      uint32_t a = k < 16 ? sp[k] : (uint32_t)mix64((uint64_t)b * 2 + k);                       \
      float y;                                                                                  \
      asm volatile(ptx " %0, %1, %2;" : "=f"(y) : "f"(__uint_as_float(a)), "f"(__uint_as_float(b))); \
      if (__float_as_uint(y) != model(a, b)) note(t, a, b);                                     \
    }                                                                                           \
  }
DIV(k_div_approx_ftz, "div.approx.ftz.f32", sfu_div_approx_ftz_f32)
DIV(k_div_approx, "div.approx.f32", sfu_div_approx_f32)
DIV(k_div_full_ftz, "div.full.ftz.f32", sfu_div_full_ftz_f32)
DIV(k_div_full, "div.full.f32", sfu_div_full_f32)

typedef void (*kern)(uint32_t, Tally *);
static const struct {
  const char *name;
  kern k;
  const char *what;
  unsigned long long inputs;
} checks[] = {
    {"ex2.approx.ftz.f32", k_ex2_ftz, "all inputs", 1ull << 32},
    {"ex2.approx.f32", k_ex2, "all inputs", 1ull << 32},
    {"rcp.approx.ftz.f32", k_rcp_ftz, "all inputs", 1ull << 32},
    {"rcp.approx.f32", k_rcp, "all inputs", 1ull << 32},
    {"rsqrt.approx.ftz.f32", k_rsqrt_ftz, "all inputs", 1ull << 32},
    {"rsqrt.approx.f32", k_rsqrt, "all inputs", 1ull << 32},
    {"sqrt.approx.ftz.f32", k_sqrt_ftz, "all inputs", 1ull << 32},
    {"sqrt.approx.f32", k_sqrt, "all inputs", 1ull << 32},
    {"lg2.approx.ftz.f32", k_lg2_ftz, "all inputs", 1ull << 32},
    {"lg2.approx.f32", k_lg2, "all inputs", 1ull << 32},
    {"sin.approx.ftz.f32", k_sin_ftz, "all inputs", 1ull << 32},
    {"sin.approx.f32", k_sin, "all inputs", 1ull << 32},
    {"cos.approx.ftz.f32", k_cos_ftz, "all inputs", 1ull << 32},
    {"cos.approx.f32", k_cos, "all inputs", 1ull << 32},
    {"tanh.approx.f32", k_tanh, "all inputs", 1ull << 32},
    {"rcp.approx.ftz.f64", k_rcp64_ftz, "every high word", 1ull << 32},
    {"rsqrt.approx.ftz.f64", k_rsqrt64_ftz, "every high word", 1ull << 32},
    {"rsqrt.approx.f64", k_rsqrt64, "every high word", 1ull << 32},
    {"ex2.approx.f16/.f16x2", k_ex2_f16, "all 2^16; x2: all 2^32", (1ull << 32) + 65536},
    {"ex2.approx.ftz.bf16/.bf16x2", k_ex2_bf16, "all 2^16; x2: all 2^32", (1ull << 32) + 65536},
    {"tanh.approx.f16/.f16x2", k_tanh_f16, "all 2^16; x2: all 2^32", (1ull << 32) + 65536},
    {"tanh.approx.bf16/.bf16x2", k_tanh_bf16, "all 2^16; x2: all 2^32", (1ull << 32) + 65536},
    {"div.approx.ftz.f32", k_div_approx_ftz, "every divisor x 18 dividends", 18ull << 32},
    {"div.approx.f32", k_div_approx, "every divisor x 18 dividends", 18ull << 32},
    {"div.full.ftz.f32", k_div_full_ftz, "every divisor x 18 dividends", 18ull << 32},
    {"div.full.f32", k_div_full, "every divisor x 18 dividends", 18ull << 32},
};

int main(void) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    printf("sfu_check: no GPU: skipped\n");
    return 77;
  }
  Tally *t;
  CK(cudaMallocManaged(&t, sizeof(Tally)));
  int rc = 0;
  unsigned long long total = 0;
  for (const auto &c : checks) {
    memset(t, 0, sizeof *t);
    for (uint32_t hi = 0; hi < 256; hi++) c.k<<<65536, 256>>>(hi, t);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    if (t->blocks != 256ull * 65536) {
      printf("%s: %llu of %llu blocks ran\n", c.name, t->blocks, 256ull * 65536);
      return 2;
    }
    total += c.inputs;
    printf("%-30s %-30s %llu inputs, %llu differ", c.name, c.what, c.inputs, t->bad);
    if (t->bad) {
      printf(" (first: a 0x%llx b 0x%llx)", t->first[0], t->first[1]);
      rc = 1;
    }
    printf("\n");
  }
  memset(t, 0, sizeof *t);
  for (uint32_t hi = 0; hi < 256; hi++) k_control<<<65536, 256>>>(hi, t);
  CK(cudaDeviceSynchronize());
  printf("control (ex2.approx.ftz.f32 against the non-ftz model): %llu differ (must be > 0)\n", t->bad);
  if (!t->bad) rc = 1;
  printf("sfu_check: %zu instructions, %llu inputs compared, %s\n", sizeof checks / sizeof checks[0], total,
         rc ? "DIFFERENCES" : "0 differ");
  return rc;
}
