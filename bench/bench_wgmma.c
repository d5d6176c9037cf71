/* bench_wgmma: the arithmetic of one Hopper wgmma.mma_async (64 x N x K,
 * tc5's Hopper model) as the PTX runner computes it (src/ptx/exec_wgmma.c,
 * issue 39: one tc5_gemm call a warpgroup MMA, B transposed to K x N and C
 * gathered into a row-major D first) against the path it replaced (one
 * tc5_dot_run a D element, 64 N calls), in the same process, on the same
 * operands; the outputs must be identical (exit status 1 otherwise). For
 * each shape: the best of ROUNDS of each, and their ratio.
 * usage: bench_wgmma [ROUNDS]   (default 20) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "tc5/arith.h"

typedef struct shape {
  const char *name;
  tc5_kind kind;
  tc5_type a, b, d;
  unsigned n, k;
} shape;

static const shape shapes[] = {
    {"m64n256k16.f32.bf16.bf16", TC5_KIND_F16, TC5_BF16, TC5_BF16, TC5_F32, 256, 16},
    {"m64n128k16.f32.f16.f16", TC5_KIND_F16, TC5_F16, TC5_F16, TC5_F32, 128, 16},
    {"m64n128k16.f16.f16.f16", TC5_KIND_F16, TC5_F16, TC5_F16, TC5_F16, 128, 16},
    {"m64n256k32.f32.e4m3.e5m2", TC5_KIND_F8F6F4, TC5_E4M3, TC5_E5M2, TC5_F32, 256, 32},
    {"m64n64k8.f32.tf32.tf32", TC5_KIND_TF32, TC5_TF32, TC5_TF32, TC5_F32, 64, 8},
    {"m64n128k32.s32.s8.s8", TC5_KIND_I8, TC5_S8, TC5_S8, TC5_S32, 128, 32},
};

/* a random code of type t: finite, around 1 (floats), or any (integers) */
static uint32_t code(uint64_t *s, tc5_type t) {
  uint32_t r = (uint32_t)bench_rand(s);
  switch (t) {
  case TC5_F16: return (r & 0x83ff) | (uint32_t)(0x3400 + (r >> 16) % 0x0c00);
  case TC5_BF16: return (r & 0x807f) | (uint32_t)(0x3e00 + ((r >> 16) % 0x0300 & 0xff80));
  case TC5_TF32: return (r & 0x807fe000u) | (uint32_t)(0x3e000000u + ((r >> 8) % 0x3000000u & 0xff800000u));
  case TC5_E4M3: return (r & 0xff) == 0x7f || (r & 0xff) == 0xff ? 0x38 : r & 0xff;
  case TC5_E5M2: return (r & 0x7c) == 0x7c ? 0x3c : r & 0xff;
  case TC5_F32: return (r & 0x807fffffu) | 0x3f000000u;
  default: return r & 0xff;
  }
}

int main(int argc, char **argv) {
  unsigned rounds = argc > 1 ? (unsigned)atoi(argv[1]) : 20;
  if (rounds < 1) rounds = 1;
  int bad = 0;
  printf("%-26s %12s %12s %8s\n", "shape", "per element", "tc5_gemm", "ratio");
  for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
    const shape *sh = &shapes[si];
    unsigned N = sh->n, K = sh->k;
    tc5_dot dot;
    if (tc5_dot_model(TC5_MODEL_HOPPER, sh->kind, sh->a, sh->b, sh->d, TC5_TYPE_NONE, 0, false, &dot, NULL)) {
      fprintf(stderr, "bench_wgmma: %s: no Hopper model\n", sh->name);
      return 2;
    }
    uint32_t *A = malloc(sizeof(uint32_t) * 64 * K), *B = malloc(sizeof(uint32_t) * N * K);
    uint32_t *Bt = malloc(sizeof(uint32_t) * K * N), *C = malloc(sizeof(uint32_t) * 64 * N);
    uint32_t *D1 = malloc(sizeof(uint32_t) * 64 * N), *D2 = malloc(sizeof(uint32_t) * 64 * N);
    if (!A || !B || !Bt || !C || !D1 || !D2) return 2;
    uint64_t s = 39 + si;
    for (unsigned i = 0; i < 64 * K; i++) A[i] = code(&s, sh->a);
    for (unsigned i = 0; i < N * K; i++) B[i] = code(&s, sh->b); /* N x K, as the runner gathers it */
    for (unsigned i = 0; i < 64 * N; i++) C[i] = code(&s, sh->d == TC5_F16 ? TC5_F16 : sh->d);
    tc5_dot_opts o;
    tc5_dot_opts_init(&o);
    double best_old = 1e30, best_new = 1e30;
    for (unsigned r = 0; r < rounds; r++) {
      double t0 = bench_now();
      for (unsigned m = 0; m < 64; m++) /* the path replaced: an element at a time */
        for (unsigned n = 0; n < N; n++)
          if (tc5_dot_run(&dot, K, A + m * K, B + n * K, NULL, NULL, C[m * N + n], &o, &D1[m * N + n])) return 2;
      double t1 = bench_now();
      for (unsigned n = 0; n < N; n++) /* the runner's path: transpose, C into D, one call */
        for (unsigned k = 0; k < K; k++) Bt[k * N + n] = B[n * K + k];
      memcpy(D2, C, sizeof(uint32_t) * 64 * N);
      if (tc5_gemm(&dot, 64, N, K, A, Bt, NULL, NULL, D2, &o, 1)) return 2;
      double t2 = bench_now();
      if (t1 - t0 < best_old) best_old = t1 - t0;
      if (t2 - t1 < best_new) best_new = t2 - t1;
    }
    bool same = !memcmp(D1, D2, sizeof(uint32_t) * 64 * N);
    bad |= !same;
    printf("%-26s %9.1f us %9.1f us %7.1fx%s\n", sh->name, 1e6 * best_old, 1e6 * best_new, best_old / best_new,
           same ? "" : "  OUTPUTS DIFFER");
    free(A), free(B), free(Bt), free(C), free(D1), free(D2);
  }
  tc5_gemm_release();
  return bad;
}
