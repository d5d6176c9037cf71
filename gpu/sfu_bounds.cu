// gpu/run.sh sfu (second part): the PTX ISA's stated error bounds of the
// approximate instructions (tests/sfu/sfu_bounds.h: one row a bound, with
// the ISA's words) checked on every input: tc5's model (src/sfu/sfu_model.h,
// compiled here for the device; equal to the H100's instructions on every
// input, gpu/sfu_check.cu) against the exact value in double precision:
//   - the one-input f32 forms: all 2^32 inputs;
//   - the f16/bf16 forms: all 2^16;
//   - the divisions: every divisor (2^32) x 4 dividends (1.0 and 3 random).
// Prints one line a row: inputs the row covers, the worst error (and its
// input), inputs above the bound. Exit status 0 (a bound exceeded is a
// finding to record, not a failure of this program); 2 on a CUDA error.
// Built with -fmad=false (the model's a * b + c are two roundings).
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "sfu/sfu_model.h"
#include "sfu/sfu_bounds.h"

#include "cuda_check.h" /* CK(call) */

__device__ uint32_t eval(tc5_sfu_op op, uint32_t a, uint32_t b) {
  switch (op) {
  case TC5_SFU_EX2_APPROX_FTZ_F32: return sfu_ex2_approx_ftz_f32(a);
  case TC5_SFU_EX2_APPROX_F32: return sfu_ex2_approx_f32(a);
  case TC5_SFU_RCP_APPROX_FTZ_F32: return sfu_rcp_approx_ftz_f32(a);
  case TC5_SFU_RCP_APPROX_F32: return sfu_rcp_approx_f32(a);
  case TC5_SFU_RSQRT_APPROX_FTZ_F32: return sfu_rsqrt_approx_ftz_f32(a);
  case TC5_SFU_RSQRT_APPROX_F32: return sfu_rsqrt_approx_f32(a);
  case TC5_SFU_SQRT_APPROX_FTZ_F32: return sfu_sqrt_approx_ftz_f32(a);
  case TC5_SFU_SQRT_APPROX_F32: return sfu_sqrt_approx_f32(a);
  case TC5_SFU_LG2_APPROX_FTZ_F32: return sfu_lg2_approx_ftz_f32(a);
  case TC5_SFU_LG2_APPROX_F32: return sfu_lg2_approx_f32(a);
  case TC5_SFU_SIN_APPROX_FTZ_F32: return sfu_sin_approx_ftz_f32(a);
  case TC5_SFU_SIN_APPROX_F32: return sfu_sin_approx_f32(a);
  case TC5_SFU_COS_APPROX_FTZ_F32: return sfu_cos_approx_ftz_f32(a);
  case TC5_SFU_COS_APPROX_F32: return sfu_cos_approx_f32(a);
  case TC5_SFU_TANH_APPROX_F32: return sfu_tanh_approx_f32(a);
  case TC5_SFU_EX2_APPROX_F16: return sfu_ex2_approx_f16((uint16_t)a);
  case TC5_SFU_EX2_APPROX_FTZ_BF16: return sfu_ex2_approx_ftz_bf16((uint16_t)a);
  case TC5_SFU_TANH_APPROX_F16: return sfu_tanh_approx_f16((uint16_t)a);
  case TC5_SFU_TANH_APPROX_BF16: return sfu_tanh_approx_bf16((uint16_t)a);
  case TC5_SFU_DIV_APPROX_FTZ_F32: return sfu_div_approx_ftz_f32(a, b);
  case TC5_SFU_DIV_APPROX_F32: return sfu_div_approx_f32(a, b);
  case TC5_SFU_DIV_FULL_FTZ_F32: return sfu_div_full_ftz_f32(a, b);
  case TC5_SFU_DIV_FULL_F32: return sfu_div_full_f32(a, b);
  default: return 0;
  }
}

struct Tally {
  unsigned long long covered, over;
  unsigned long long worst;    // float bits of the error (rounded up) << 32 | input
  unsigned long long worst_b;  // the divisions: the dividend of the worst pair, likewise keyed
};
__constant__ sfu_bound row;

__device__ __forceinline__ uint64_t mix64(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
__device__ void add_warp(unsigned long long *to, unsigned v) {
  v = __reduce_add_sync(0xffffffffu, v);
  if ((threadIdx.x & 31) == 0 && v) atomicAdd(to, (unsigned long long)v);
}

// 8 inputs a thread (one-input ops: x = base + k; divisions: divisor b = base + k, 4 dividends)
__global__ void k_bound(uint32_t base, int div, double limit, Tally *t) {
  uint32_t k0 = (blockIdx.x * blockDim.x + threadIdx.x) * 8;
  unsigned cov = 0, over = 0;
  unsigned long long w = 0, wb = 0;
  for (int j = 0; j < 8; j++) {
    uint32_t v = base + k0 + j;
    for (int q = 0; q < (div ? 4 : 1); q++) {
      uint32_t a = v, b = 0;
      if (div) {
        b = v;
        a = q == 0 ? 0x3f800000u : (uint32_t)mix64((uint64_t)v * 4 + q);
      }
      uint32_t y = eval(row.op, a, b);
      double e = sb_error(&row, a, b, y);
      if (e < 0) continue;
      cov++;
      if (e > limit) over++;
      float ef = __double2float_ru(e);
      unsigned long long key = (unsigned long long)__float_as_uint(ef) << 32 | (div ? b : a);
      if (key > w) w = key, wb = (unsigned long long)__float_as_uint(ef) << 32 | a;
    }
  }
  add_warp(&t->covered, cov);
  add_warp(&t->over, over);
  if (w > t->worst) {
    unsigned long long old = atomicMax(&t->worst, w);
    if (old < w) t->worst_b = wb; // a race may leave another pair's dividend: printed as a hint only
  }
}

int main(void) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    printf("sfu_bounds: no GPU: skipped\n");
    return 77;
  }
  Tally *t;
  CK(cudaMallocManaged(&t, sizeof(Tally)));
  printf("sfu_bounds: the PTX ISA's stated error bounds, tc5's model on every input (H100)\n");
  for (unsigned i = 0; i < SFU_NBOUNDS; i++) {
    const sfu_bound *r = &sfu_bounds[i];
    const tc5_sfu_op op = r->op;
    int div = op >= TC5_SFU_DIV_APPROX_FTZ_F32, half = sb_fmt(op) != SB_F32;
    memset(t, 0, sizeof *t);
    CK(cudaMemcpyToSymbol(row, r, sizeof *r));
    double limit = sb_limit(r);
    if (half) {
      k_bound<<<65536 / 8 / 256, 256>>>(0, 0, limit, t);
    } else {
      for (uint32_t hi = 0; hi < 16; hi++) k_bound<<<(1u << 28) / 8 / 256, 256>>>(hi << 28, div, limit, t);
    }
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    const char *unit = r->kind == SB_ULP_CR ? "ulp from the correctly rounded" : r->kind == SB_ULP ? "ulp"
                       : r->kind == SB_REL ? "relative" : "absolute";
    float we;
    uint32_t wu = (uint32_t)(t->worst >> 32);
    memcpy(&we, &wu, 4);
    double lg = we > 0 ? log2((double)we) : -INFINITY;
    static const char *names[TC5_SFU_COUNT] = {
        "ex2.approx.ftz.f32", "ex2.approx.f32", "rcp.approx.ftz.f32", "rcp.approx.f32", "rsqrt.approx.ftz.f32",
        "rsqrt.approx.f32", "sqrt.approx.ftz.f32", "sqrt.approx.f32", "lg2.approx.ftz.f32", "lg2.approx.f32",
        "sin.approx.ftz.f32", "sin.approx.f32", "cos.approx.ftz.f32", "cos.approx.f32", "tanh.approx.f32",
        "ex2.approx.f16", "ex2.approx.f16x2", "ex2.approx.ftz.bf16", "ex2.approx.ftz.bf16x2", "tanh.approx.f16",
        "tanh.approx.f16x2", "tanh.approx.bf16", "tanh.approx.bf16x2", "rcp.approx.ftz.f64", "rsqrt.approx.ftz.f64",
        "rsqrt.approx.f64", "div.approx.ftz.f32", "div.approx.f32", "div.full.ftz.f32", "div.full.f32"};
    char bound[64];
    if (r->kind <= SB_ULP) snprintf(bound, sizeof bound, "%g %s", r->value, unit);
    else snprintf(bound, sizeof bound, "2^%g %s", r->value, unit);
    printf("%-22s %-20s bound %-40s covered %11llu  worst %.9g (2^%.3f) at 0x%08x%s", names[op], r->section, bound,
           t->covered, (double)we, lg, (uint32_t)t->worst, div ? " (divisor)" : "");
    if (div) printf(" / dividend 0x%08x", (uint32_t)t->worst_b);
    printf("  above the bound %llu%s\n", t->over, t->over ? "  FINDING" : "");
  }
  return 0;
}
