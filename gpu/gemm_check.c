/* The GPU GEMM (gpu/gemm_cuda.cu, tc5_gemm_cuda) against the CPU's
 * tc5_gemm on the same inputs, every output compared bit for bit: every
 * kind and type pair of tc5_dot_model (Blackwell f16/bf16 to f32 and f16,
 * tf32, f8f6f4's 25 pairs to f32 and f16, mxf8f6f4 with ue8m0, mxf4,
 * mxf4nvf4 with ue8m0 and ue4m3, i8 wrapping and saturating; Hopper f16,
 * bf16, tf32, e4m3/e5m2), C read and ignored, at 256 x 256 x 512, and at
 * 200 x 300 x 448 (no multiple of any kernel's tile) with A negated; the
 * main kinds at 1024 x 1024 x 1024. Inputs mostly moderate values with
 * zeros, subnormals and a wide exponent spread; every 16th row of A and
 * column of B also random codes of the whole range (NaN, Inf). Then
 * 8192 x 8192 x 8192 for bf16, e4m3 and mxf4nvf4 (ue4m3): the GPU computes
 * the whole D, the CPU 128 whole rows of it spread over M (1,048,576
 * outputs a kind), compared. Each line names the kernel that ran
 * (gpu/gemm_paths.h).
 *
 * TC5_GEMM_FULL=P/Q (P < Q): instead, every kind and type pair whole at
 * 1024^3 and as 128 sampled rows of 8192^3, the pairs i with i % Q == P
 * (the sweep is split into Q runs to fit a device call).
 *
 * Run by `gpu/run.sh gemm` on the H100; prints one line a case and the
 * totals; exit 1 on any difference. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "spec/spec_tables.h"
#include "tc5/arith.h"
#include "gemm_paths.h"
#include "tc5/kind.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (uint32_t)(rng >> 11);
}

/* one element code of type t; wild: any code at all */
static uint32_t gen(tc5_type t, int wild) {
  const tc5_type_info *ti = tc5_spec_type(t);
  if (t == TC5_S8 || t == TC5_U8) return rnd() & 0xFF;
  unsigned eb = ti->exp_bits, mb = ti->man_bits, width = ti->has_sign + eb + mb;
  uint32_t code;
  unsigned r = rnd() % 100;
  if (wild && r < 3) {
    code = rnd() & ((1u << width) - 1);
  } else if (r < 8) {
    code = ti->has_sign ? (rnd() & 1) << (eb + mb) : 0; /* +-0 */
  } else if (r < 13) {
    code = (ti->has_sign ? (rnd() & 1) << (eb + mb) : 0) | (rnd() & ((1u << mb) - 1)); /* subnormal */
  } else {
    int bias = ti->bias, spread = eb >= 5 ? 6 : eb >= 4 ? 3 : 1;
    int E = bias + (int)(rnd() % (2 * spread + 1)) - spread;
    int emax = (1 << eb) - 1 - (ti->special == TC5_SPECIAL_IEEE ? 1 : 0);
    if (E < 1) E = 1;
    if (E > emax) E = emax;
    code = (ti->has_sign ? (rnd() & 1) << (eb + mb) : 0) | (uint32_t)E << mb | (rnd() & ((1u << mb) - 1));
    if (ti->special == TC5_SPECIAL_FN && (code & ((1u << (eb + mb)) - 1)) == ((1u << (eb + mb)) - 1)) code--; /* not NaN */
  }
  return t == TC5_TF32 ? code << 13 : code;
}
static uint32_t gen_scale(tc5_type s, int wild) {
  if (s == TC5_UE8M0) return wild && rnd() % 50 == 0 ? 0xFF : 127 + (int)(rnd() % 21) - 10;
  return wild && rnd() % 50 == 0 ? 0x7F : 0x20 + rnd() % 0x40; /* ue4m3: moderate, positive */
}

typedef struct cs {
  tc5_model arch;
  tc5_kind kind;
  tc5_type a, b, c, s;
  unsigned block;
  int saturate;
} cs;

static unsigned long long total, bad;
static int run(const cs *k, unsigned M, unsigned N, unsigned K, int enable, int negate) {
  tc5_dot d;
  if (tc5_dot_model(k->arch, k->kind, k->a, k->b, k->c, k->s, k->block, k->saturate, &d, NULL)) return 0;
  size_t ns = k->s ? K / k->block : 0;
  uint32_t *A = malloc((size_t)M * K * 4), *B = malloc((size_t)K * N * 4), *C = malloc((size_t)M * N * 4),
           *D1 = malloc((size_t)M * N * 4), *D2 = malloc((size_t)M * N * 4), *SA = ns ? malloc(M * ns * 4) : NULL,
           *SB = ns ? malloc(ns * N * 4) : NULL;
  for (unsigned i = 0; i < M; i++)
    for (unsigned j = 0; j < K; j++) A[(size_t)i * K + j] = gen(k->a, i % 16 == 0);
  for (unsigned j = 0; j < K; j++)
    for (unsigned i = 0; i < N; i++) B[(size_t)j * N + i] = gen(k->b, i % 16 == 0);
  for (unsigned i = 0; i < M; i++)
    for (size_t j = 0; j < ns; j++) SA[i * ns + j] = gen_scale(k->s, i % 16 == 0);
  for (size_t j = 0; j < ns; j++)
    for (unsigned i = 0; i < N; i++) SB[j * N + i] = gen_scale(k->s, i % 16 == 0);
  for (size_t i = 0; i < (size_t)M * N; i++)
    C[i] = k->c == TC5_S32 ? rnd() : k->c == TC5_F16 ? gen(TC5_F16, 0) : gen(TC5_TF32, 0) >> 13 << 13 | (rnd() & 0x1FFF);
  memcpy(D1, C, (size_t)M * N * 4);
  memcpy(D2, C, (size_t)M * N * 4);
  tc5_dot_opts o;
  tc5_dot_opts_init(&o);
  o.enable_input_d = enable;
  o.negate_a = negate;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_status st = tc5_gemm(&d, M, N, K, A, B, SA, SB, D1, &o, 0);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double cpu = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec), gpu = 0;
  if (!st) st = tc5_gemm_cuda(&d, M, N, K, A, B, SA, SB, D2, &o, &gpu, &dg);
  unsigned long long diff = 0, nan = 0;
  size_t first = 0;
  for (size_t i = 0; !st && i < (size_t)M * N; i++) {
    if (D1[i] != D2[i] && !diff++) first = i;
    nan += k->c == TC5_F16 ? (D1[i] & 0x7C00) == 0x7C00 : k->c == TC5_F32 && (D1[i] & 0x7F800000) == 0x7F800000;
  }
  printf("%-9s %-10s %5s x %-5s -> %-3s %-5s%s %4u x %4u x %4u C %s%s [%s]: %s", k->arch ? "hopper" : "blackwell",
         tc5_kind_name(k->kind), tc5_type_name(k->a), tc5_type_name(k->b), tc5_type_name(k->c),
         k->s ? tc5_type_name(k->s) : "", k->saturate ? " sat" : "", M, N, K, enable ? "read" : "off ",
         negate ? " -A" : "", tc5__gemm_cuda_path(&d, M, K, &o), st ? "ERROR" : diff ? "DIFFER" : "equal");
  if (st) printf(" %s\n", dg.count ? dg.issue[0].message : tc5_strerror(st));
  else
    printf(" (%llu outputs, %llu inf/nan; cpu %.3f s, gpu %.4f s)%s\n", (unsigned long long)M * N, nan, cpu, gpu, "");
  if (diff)
    printf("   %llu differ; first at (%zu, %zu): cpu 0x%08x gpu 0x%08x\n", diff, first / N, first % N, D1[first],
           D2[first]);
  total += st ? 0 : (unsigned long long)M * N;
  bad += diff + (st ? 1 : 0);
  free(A), free(B), free(C), free(D1), free(D2), free(SA), free(SB);
  return 1;
}

/* M = N = K = S on the GPU; `rows` whole rows of D (spread over M) on the
 * CPU, compared */
static int sampled(const cs *k, unsigned S, unsigned rows) {
  tc5_dot d;
  if (tc5_dot_model(k->arch, k->kind, k->a, k->b, k->c, k->s, k->block, k->saturate, &d, NULL)) return 0;
  size_t ns = k->s ? S / k->block : 0, SS = (size_t)S * S;
  uint32_t *A = malloc(SS * 4), *B = malloc(SS * 4), *D = malloc(SS * 4), *As = malloc((size_t)rows * S * 4),
           *Ds = malloc((size_t)rows * S * 4), *SA = ns ? malloc(S * ns * 4) : NULL,
           *SAs = ns ? malloc(rows * ns * 4) : NULL, *SB = ns ? malloc(ns * S * 4) : NULL;
  for (size_t i = 0; i < SS; i++) A[i] = gen(k->a, (i / S) % 16 == 0);
  for (size_t i = 0; i < SS; i++) B[i] = gen(k->b, (i % S) % 16 == 0);
  for (size_t i = 0; i < S * ns; i++) SA[i] = gen_scale(k->s, (i / ns) % 16 == 0);
  for (size_t i = 0; i < ns * S; i++) SB[i] = gen_scale(k->s, (i % S) % 16 == 0);
  for (size_t i = 0; i < SS; i++) D[i] = k->c == TC5_F16 ? gen(TC5_F16, 0) : gen(TC5_TF32, 0);
  /* row r * step + r % 16: one sampled row in 16 is a wild one, as in A */
  unsigned step = S / rows;
#define ROW(r) ((size_t)(r) * step + (r) % 16)
  for (unsigned r = 0; r < rows; r++) {
    memcpy(As + (size_t)r * S, A + ROW(r) * S, (size_t)S * 4);
    memcpy(Ds + (size_t)r * S, D + ROW(r) * S, (size_t)S * 4);
    if (ns) memcpy(SAs + r * ns, SA + ROW(r) * ns, ns * 4);
  }
  tc5_dot_opts o;
  tc5_dot_opts_init(&o);
  tc5_diag dg;
  tc5_diag_init(&dg);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  tc5_status st = tc5_gemm(&d, rows, S, S, As, B, SAs, SB, Ds, &o, 0);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double cpu = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec), gpu = 0;
  if (!st) st = tc5_gemm_cuda(&d, S, S, S, A, B, SA, SB, D, &o, &gpu, &dg);
  unsigned long long diff = 0;
  for (unsigned r = 0; !st && r < rows; r++)
    for (unsigned n = 0; n < S; n++) diff += Ds[(size_t)r * S + n] != D[ROW(r) * S + n];
  printf("%-9s %-10s %5s x %-5s -> %-3s %-5s %u^3 [%s], %u whole rows: %s (%llu outputs; cpu %.2f s for the rows, gpu %.2f s "
         "for all of D, %.2e MAC/s)\n", k->arch ? "hopper" : "blackwell", tc5_kind_name(k->kind), tc5_type_name(k->a),
         tc5_type_name(k->b), tc5_type_name(k->c), k->s ? tc5_type_name(k->s) : "", S, tc5__gemm_cuda_path(&d, S, S, &o), rows,
         st ? "ERROR" : diff ? "DIFFER" : "equal", (unsigned long long)rows * S, cpu, gpu,
         gpu > 0 ? (double)SS * S / gpu : 0.0);
  if (st) printf("   %s\n", dg.count ? dg.issue[0].message : tc5_strerror(st));
  total += st ? 0 : (unsigned long long)rows * S;
  bad += diff + (st ? 1 : 0);
  free(A), free(B), free(D), free(As), free(Ds), free(SA), free(SAs), free(SB);
  return 1;
}

int main(void) {
  static const tc5_type fp[] = {TC5_E4M3, TC5_E5M2, TC5_E2M3, TC5_E3M2, TC5_E2M1};
  cs list[200];
  unsigned n = 0;
  for (int c16 = 0; c16 < 2; c16++) {
    tc5_type c = c16 ? TC5_F16 : TC5_F32;
    list[n++] = (cs){TC5_MODEL_BLACKWELL, TC5_KIND_F16, TC5_F16, TC5_F16, c, 0, 0, 0};
    list[n++] = (cs){TC5_MODEL_BLACKWELL, TC5_KIND_F16, TC5_BF16, TC5_BF16, c, 0, 0, 0};
    for (int i = 0; i < 5; i++)
      for (int j = 0; j < 5; j++) list[n++] = (cs){TC5_MODEL_BLACKWELL, TC5_KIND_F8F6F4, fp[i], fp[j], c, 0, 0, 0};
    list[n++] = (cs){TC5_MODEL_HOPPER, TC5_KIND_F16, TC5_F16, TC5_F16, c, 0, 0, 0};
    list[n++] = (cs){TC5_MODEL_HOPPER, TC5_KIND_F16, TC5_BF16, TC5_BF16, c, 0, 0, 0};
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 2; j++) list[n++] = (cs){TC5_MODEL_HOPPER, TC5_KIND_F8F6F4, fp[i], fp[j], c, 0, 0, 0};
  }
  list[n++] = (cs){TC5_MODEL_BLACKWELL, TC5_KIND_TF32, TC5_TF32, TC5_TF32, TC5_F32, 0, 0, 0};
  list[n++] = (cs){TC5_MODEL_HOPPER, TC5_KIND_TF32, TC5_TF32, TC5_TF32, TC5_F32, 0, 0, 0};
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 5; j++)
      list[n++] = (cs){TC5_MODEL_BLACKWELL, TC5_KIND_MXF8F6F4, fp[i], fp[j], TC5_F32, TC5_UE8M0, 32, 0};
  list[n++] = (cs){TC5_MODEL_BLACKWELL, TC5_KIND_MXF4, TC5_E2M1, TC5_E2M1, TC5_F32, TC5_UE8M0, 32, 0};
  list[n++] = (cs){TC5_MODEL_BLACKWELL, TC5_KIND_MXF4NVF4, TC5_E2M1, TC5_E2M1, TC5_F32, TC5_UE8M0, 32, 0};
  list[n++] = (cs){TC5_MODEL_BLACKWELL, TC5_KIND_MXF4NVF4, TC5_E2M1, TC5_E2M1, TC5_F32, TC5_UE8M0, 16, 0};
  list[n++] = (cs){TC5_MODEL_BLACKWELL, TC5_KIND_MXF4NVF4, TC5_E2M1, TC5_E2M1, TC5_F32, TC5_UE4M3, 16, 0};
  for (int sat = 0; sat < 2; sat++)
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 2; j++)
        list[n++] = (cs){TC5_MODEL_BLACKWELL, TC5_KIND_I8, i ? TC5_U8 : TC5_S8, j ? TC5_U8 : TC5_S8, TC5_S32, 0, 0, sat};
  unsigned cases = 0;
  const char *full = getenv("TC5_GEMM_FULL");
  unsigned part = 0, parts = 0;
  if (full && (sscanf(full, "%u/%u", &part, &parts) != 2 || part >= parts)) {
    fprintf(stderr, "gemm_check: TC5_GEMM_FULL is P/Q with P < Q, not %s\n", full);
    return 2;
  }
  if (parts) {
    for (unsigned i = part; i < n; i += parts) {
      cases += run(&list[i], 1024, 1024, 1024, 1, 0);
      cases += sampled(&list[i], 8192, 128);
    }
    printf("%u cases, %llu outputs compared, %llu differ\n", cases, total, bad);
    return bad ? 1 : 0;
  }
  for (unsigned i = 0; i < n; i++)
    for (int e = 0; e < 2; e++) cases += run(&list[i], 256, 256, 512, e, 0);
  /* shapes that are no multiple of any kernel's tile, negated A */
  for (unsigned i = 0; i < n; i++) cases += run(&list[i], 200, 300, 448, 1, 1);
  /* the main kinds whole at 1024^3 */
  const cs big[] = {{TC5_MODEL_BLACKWELL, TC5_KIND_F16, TC5_BF16, TC5_BF16, TC5_F32, 0, 0, 0},
                    {TC5_MODEL_BLACKWELL, TC5_KIND_F8F6F4, TC5_E4M3, TC5_E4M3, TC5_F32, 0, 0, 0},
                    {TC5_MODEL_BLACKWELL, TC5_KIND_F8F6F4, TC5_E4M3, TC5_E2M1, TC5_F16, 0, 0, 0},
                    {TC5_MODEL_BLACKWELL, TC5_KIND_MXF8F6F4, TC5_E4M3, TC5_E2M1, TC5_F32, TC5_UE8M0, 32, 0},
                    {TC5_MODEL_BLACKWELL, TC5_KIND_MXF4NVF4, TC5_E2M1, TC5_E2M1, TC5_F32, TC5_UE4M3, 16, 0},
                    {TC5_MODEL_BLACKWELL, TC5_KIND_TF32, TC5_TF32, TC5_TF32, TC5_F32, 0, 0, 0},
                    {TC5_MODEL_BLACKWELL, TC5_KIND_I8, TC5_S8, TC5_U8, TC5_S32, 0, 0, 1},
                    {TC5_MODEL_HOPPER, TC5_KIND_F8F6F4, TC5_E4M3, TC5_E5M2, TC5_F32, 0, 0, 0}};
  for (unsigned i = 0; i < sizeof big / sizeof big[0]; i++) cases += run(&big[i], 1024, 1024, 1024, 1, 0);
  for (unsigned i = 0; i < 5; i += (i == 1 ? 3 : 1)) cases += sampled(&big[i], 8192, 128);
  printf("%u cases, %llu outputs compared, %llu differ\n", cases, total, bad);
  return bad ? 1 : 0;
}
