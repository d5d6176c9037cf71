/* The GPU GEMM's speed (issue 21): S^3 (S = 8192, TC5_BENCH_SIZE) for
 * bf16 -> f32 (Blackwell model), e4m3 x e4m3 -> f32 and mxf4nvf4 (ue4m3,
 * block 16), data resident on the GPU, beside cuBLAS's bf16 GEMM on the
 * same GPU in the same run (the baseline: the ratio is what is reported)
 * and the CPU's tc5_gemm on 64 rows of the bf16 problem. Transfers are
 * timed separately. Inputs: moderate values (the distributions of
 * gpu/gemm_check.c without the wild codes). Run by `gpu/run.sh bench`;
 * docs/gpu.md quotes the output. */
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

#include "gemm_paths.h"
#include "gpu_util.cuh"
#include "tc5/formats.h"

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint32_t rnd() {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (uint32_t)(rng >> 11);
}
/* a moderate code: sign, exponent within +-spread of the bias, any mantissa; 1 in 20 zero */
static uint32_t code(unsigned eb, unsigned mb, int spread) {
  if (rnd() % 20 == 0) return 0;
  int bias = (1 << (eb - 1)) - 1, E = bias + (int)(rnd() % (2 * spread + 1)) - spread;
  if (E < 1) E = 1;
  uint32_t c = (rnd() & 1) << (eb + mb) | (uint32_t)E << mb | (rnd() & ((1u << mb) - 1));
  if (eb == 4 && mb == 3 && (c & 0x7F) == 0x7F) c--; /* e4m3: not NaN */
  return c;
}

static double now() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

struct Kind {
  const char *name;
  tc5_kind kind;
  tc5_type a, s;
  unsigned block;
};

int main() {
  const char *env = getenv("TC5_BENCH_SIZE");
  const unsigned S = env ? (unsigned)atoi(env) : 8192;
  const size_t SS = (size_t)S * S;
  const double macs = (double)SS * S;
  int runs = 3;
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  auto timed = [&](auto &&f) {
    CK(cudaEventRecord(e0));
    f();
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    return ms / 1e3;
  };
  printf("GPU GEMM benchmark, %u x %u x %u (%.2e MACs), data on the GPU; median of %d runs after one warm-up\n", S, S,
         S, macs, runs);
  std::vector<uint32_t> A(SS), B(SS), SA(SS / 16), SB(SS / 16);
  uint32_t *dA, *dB, *dD, *dSA, *dSB;
  CK(cudaMalloc(&dA, SS * 4));
  CK(cudaMalloc(&dB, SS * 4));
  CK(cudaMalloc(&dD, SS * 4));
  CK(cudaMalloc(&dSA, SS / 16 * 4));
  CK(cudaMalloc(&dSB, SS / 16 * 4));
  const Kind kinds[] = {{"bf16 -> f32", TC5_KIND_F16, TC5_BF16, TC5_TYPE_NONE, 0},
                        {"e4m3 x e4m3 -> f32", TC5_KIND_F8F6F4, TC5_E4M3, TC5_TYPE_NONE, 0},
                        {"mxf4nvf4 (ue4m3, 16)", TC5_KIND_MXF4NVF4, TC5_E2M1, TC5_UE4M3, 16}};
  double tc5_bf16 = 0, cublas = 0;
  for (const Kind &k : kinds) {
    const tc5_type_info *ti = tc5_spec_type(k.a);
    for (size_t i = 0; i < SS; i++) A[i] = code(ti->exp_bits, ti->man_bits, k.a == TC5_BF16 ? 6 : 2);
    for (size_t i = 0; i < SS; i++) B[i] = code(ti->exp_bits, ti->man_bits, k.a == TC5_BF16 ? 6 : 2);
    for (size_t i = 0; i < SS / 16; i++) SA[i] = 0x30 + rnd() % 0x10, SB[i] = 0x30 + rnd() % 0x10;
    double t0 = now();
    CK(cudaMemcpy(dA, A.data(), SS * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dB, B.data(), SS * 4, cudaMemcpyHostToDevice));
    if (k.s) {
      CK(cudaMemcpy(dSA, SA.data(), SS / 16 * 4, cudaMemcpyHostToDevice));
      CK(cudaMemcpy(dSB, SB.data(), SS / 16 * 4, cudaMemcpyHostToDevice));
    }
    double up = now() - t0;
    tc5_dot d;
    tc5_dot_opts o;
    tc5_dot_opts_init(&o);
    o.enable_input_d = false;
    if (tc5_dot_model(TC5_MODEL_BLACKWELL, k.kind, k.a, k.a, TC5_F32, k.s, k.block, false, &d, NULL)) return 2;
    std::vector<double> ts;
    tc5_status st = TC5_OK;
    for (int r = 0; r <= runs && !st; r++) {
      double t = timed([&] { st = tc5_gemm_cuda_device(&d, S, S, S, dA, dB, k.s ? dSA : NULL, k.s ? dSB : NULL, dD, &o, NULL); });
      if (r) ts.push_back(t);
    }
    if (st) {
      printf("%-22s error %s\n", k.name, tc5_strerror(st));
      return 2;
    }
    std::sort(ts.begin(), ts.end());
    double t = ts[ts.size() / 2];
    t0 = now();
    CK(cudaMemcpy(A.data(), dD, SS * 4, cudaMemcpyDeviceToHost));
    double down = now() - t0;
    printf("%-22s tc5 %-8s %8.4f s  %.2e MAC/s   (transfers: A, B%s up %.3f s, D down %.3f s)\n", k.name,
           tc5__gemm_cuda_path(&d, S, S, &o), t, macs / t, k.s ? ", scales" : "", up, down);
    if (k.a == TC5_BF16) {
      tc5_bf16 = t;
      tc5_dot_opts oc = o;
      oc.enable_input_d = true; /* D = A B + C, C the D above */
      std::vector<double> tcs;
      for (int r = 0; r <= runs && !st; r++) {
        double tt = timed([&] { st = tc5_gemm_cuda_device(&d, S, S, S, dA, dB, NULL, NULL, dD, &oc, NULL); });
        if (r) tcs.push_back(tt);
      }
      std::sort(tcs.begin(), tcs.end());
      printf("%-22s tc5 %-8s %8.4f s  %.2e MAC/s   (C read: D = A B + D)\n", "bf16 -> f32 + C", tc5__gemm_cuda_path(&d, S, S, &oc),
             tcs[tcs.size() / 2], macs / tcs[tcs.size() / 2]);
      /* cuBLAS on the same bf16 codes: D^T = B^T A^T in column-major */
      std::vector<__nv_bfloat16> a16(SS), b16(SS);
      for (size_t i = 0; i < SS; i++) {
        uint16_t x = (uint16_t)B[i];
        memcpy(&b16[i], &x, 2);
      }
      __nv_bfloat16 *dA16, *dB16;
      float *dC;
      CK(cudaMalloc(&dA16, SS * 2));
      CK(cudaMalloc(&dB16, SS * 2));
      CK(cudaMalloc(&dC, SS * 4));
      /* A was overwritten by D: regenerate nothing, cuBLAS's speed does not depend on the values */
      CK(cudaMemcpy(dB16, b16.data(), SS * 2, cudaMemcpyHostToDevice));
      CK(cudaMemcpy(dA16, b16.data(), SS * 2, cudaMemcpyHostToDevice));
      cublasHandle_t h;
      if (cublasCreate(&h)) return 2;
      float one = 1, zero = 0;
      std::vector<double> tb;
      for (int r = 0; r <= 10; r++) {
        double tt = timed([&] {
          cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, S, S, S, &one, dB16, CUDA_R_16BF, S, dA16, CUDA_R_16BF, S, &zero,
                       dC, CUDA_R_32F, S, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
        });
        if (r) tb.push_back(tt);
      }
      std::sort(tb.begin(), tb.end());
      cublas = tb[tb.size() / 2];
      printf("%-22s cuBLAS   %8.4f s  %.2e MAC/s   tc5 / cuBLAS speed: %.3f\n", "bf16 -> f32", cublas,
             macs / cublas, cublas / tc5_bf16);
      cublasDestroy(h);
      cudaFree(dA16), cudaFree(dB16), cudaFree(dC);
      /* the CPU's tc5_gemm (every core) on 64 rows of the same problem */
      for (size_t i = 0; i < (size_t)64 * S; i++) A[i] = code(8, 7, 6);
      std::vector<uint32_t> Dc((size_t)64 * S);
      t0 = now();
      if (tc5_gemm(&d, 64, S, S, A.data(), B.data(), NULL, NULL, Dc.data(), &o, 0)) return 2;
      double tc = now() - t0;
      printf("%-22s CPU tc5_gemm, 64 rows: %.3f s  %.2e MAC/s (all cores of this host)\n", "bf16 -> f32", tc,
             64.0 * S * S / tc);
    }
  }
  cudaFree(dA), cudaFree(dB), cudaFree(dD), cudaFree(dSA), cudaFree(dSB);
  return 0;
}
