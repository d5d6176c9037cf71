/* bench_run: `tc5 run` of Triton's bf16 matmul (tests/data/ptx) against
 * `tc5 gemm` of the same problem, both on one thread, in the same process,
 * file I/O counted on both sides (PTX and inputs read, output written);
 * and `tc5 run` with the checker on (--check=default, the default) against
 * the same run with --check=none (issue 19: at most 1.5x); and the run under
 * an adversarial schedule (--schedule SEED, seeds 1.., checker on: issue 34)
 * against the default schedule, its output compared bit for bit.
 * usage: bench_run [N] [ROUNDS]   (N = M = K, default 1024; best of ROUNDS) */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_matmul.h"
#include "bench_util.h"
#include "tc5/arith.h"
#include "tc5/ptx.h"

#ifndef TC5_PTX_DIR
#define TC5_PTX_DIR "tests/data/ptx"
#endif

static void *slurp(const char *p, size_t *n) {
  FILE *f = fopen(p, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)len + 1);
  if (b && fread(b, 1, (size_t)len, f) != (size_t)len) {
    free(b);
    b = NULL;
  }
  fclose(f);
  *n = (size_t)len;
  return b;
}
static void spit(const char *p, const void *d, size_t n) {
  FILE *f = fopen(p, "wb");
  if (f) {
    fwrite(d, 1, n, f);
    fclose(f);
  }
}

int main(int argc, char **argv) {
  unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 1024, rounds = argc > 2 ? (unsigned)atoi(argv[2]) : 3;
  if (n < 128 || n % 128) {
    fprintf(stderr, "bench_run: N must be a multiple of 128\n");
    return 2;
  }
  size_t e = (size_t)n * n;
  uint16_t *a = malloc(e * 2), *b = malloc(e * 2);
  uint64_t s = 1;
  for (size_t i = 0; i < e; i++) {
    a[i] = (uint16_t)(0x3c00 + (bench_rand(&s) & 0x7ff) - 0x400) | (uint16_t)((bench_rand(&s) & 1) << 15);
    b[i] = (uint16_t)(0x3c00 + (bench_rand(&s) & 0x7ff) - 0x400) | (uint16_t)((bench_rand(&s) & 1) << 15);
  }
  spit("/tmp/bench_run_a.bin", a, e * 2);
  spit("/tmp/bench_run_b.bin", b, e * 2);
  const char *ptx = TC5_PTX_DIR "/mm_bf16_f32_w4_s2.ptx";
  double best_run = 1e30, best_gemm = 1e30, best_none = 1e30, best_sched = 1e30;
  int sched_same = 1;
  uint64_t tins = 0;
  uint32_t *D = malloc(e * 4);
  for (unsigned r = 0; r < 3 * rounds; r++) {
    /* the checker on (default), off, and on under a seeded schedule, in turn */
    bool checked = r % 3 != 1, sched = r % 3 == 2;
    /* tc5 run: load the PTX, the inputs, launch, write C */
    double t0 = bench_now();
    size_t len, na, nb;
    char *text = slurp(ptx, &len);
    void *fa = slurp("/tmp/bench_run_a.bin", &na), *fb = slurp("/tmp/bench_run_b.bin", &nb);
    if (!text || !fa || !fb) {
      fprintf(stderr, "bench_run: cannot read %s\n", ptx);
      return 2;
    }
    tc5_ptx_module *m;
    tc5_diag dg;
    tc5_diag_init(&dg);
    if (tc5_ptx_load(text, len, ptx, &m, &dg)) return 2;
    void *c = calloc(e, 4);
    tc5_ptx_arg args[8];
    tc5_ptx_launch_cfg cfg;
    bench_matmul_launch(args, &cfg, fa, na, fb, nb, c, e * 4, n);
    cfg.check = checked ? TC5_CHECK_DEFAULT : TC5_CHECK_NONE;
    cfg.schedule = sched ? r / 3 + 1 : 0;
    tc5_ptx_stats st;
    if (tc5_ptx_launch(m, &cfg, args, 8, &st, &dg)) {
      fprintf(stderr, "bench_run: %s\n", dg.count ? dg.issue[0].message : "launch failed");
      return 1;
    }
    if (checked && !sched) spit("/tmp/bench_run_c.bin", c, e * 4);
    if (sched) spit("/tmp/bench_run_s.bin", c, e * 4);
    double t1 = bench_now();
    tins = st.thread_insns;
    tc5_ptx_free(m);
    free(text);
    free(fa);
    free(fb);
    free(c);
    if (!checked) {
      if (t1 - t0 < best_none) best_none = t1 - t0;
      continue;
    }
    if (sched) {
      size_t n1, n2;
      void *c1 = slurp("/tmp/bench_run_c.bin", &n1), *c2 = slurp("/tmp/bench_run_s.bin", &n2);
      sched_same &= c1 && c2 && n1 == n2 && !memcmp(c1, c2, n1);
      free(c1), free(c2);
      if (t1 - t0 < best_sched) best_sched = t1 - t0;
      continue;
    }
    /* tc5 gemm: read the inputs, decode to codes, compute, write D */
    double t2 = bench_now();
    uint16_t *ra = slurp("/tmp/bench_run_a.bin", &na), *rb = slurp("/tmp/bench_run_b.bin", &nb);
    uint32_t *A = malloc(e * 4), *B = malloc(e * 4);
    for (size_t i = 0; i < e; i++) A[i] = ra[i], B[i] = rb[i];
    tc5_dot dot;
    tc5_dot_model(TC5_MODEL_BLACKWELL, TC5_KIND_F16, TC5_BF16, TC5_BF16, TC5_F32, TC5_TYPE_NONE, 0, false, &dot, NULL);
    tc5_dot_opts o;
    tc5_dot_opts_init(&o);
    o.enable_input_d = false;
    tc5_gemm(&dot, n, n, n, A, B, NULL, NULL, D, &o, 1);
    spit("/tmp/bench_run_d.bin", D, e * 4);
    double t3 = bench_now();
    free(ra);
    free(rb);
    free(A);
    free(B);
    if (t1 - t0 < best_run) best_run = t1 - t0;
    if (t3 - t2 < best_gemm) best_gemm = t3 - t2;
  }
  size_t n1, n2;
  void *c1 = slurp("/tmp/bench_run_c.bin", &n1), *c2 = slurp("/tmp/bench_run_d.bin", &n2);
  int same = c1 && c2 && n1 == n2 && !memcmp(c1, c2, n1);
  printf("Triton bf16 matmul %ux%ux%u, one thread, best of %u (file I/O included)\n", n, n, n, rounds);
  printf("tc5 run : %.3f s, %.3g thread-instructions/s (%llu)\n", best_run, (double)tins / best_run,
         (unsigned long long)tins);
  printf("tc5 gemm: %.3f s\n", best_gemm);
  printf("tc5 run --check=none: %.3f s; checker overhead = %.2fx   (issue 19: at most 1.5x)\n", best_none,
         best_run / best_none);
  printf("tc5 run / tc5 gemm = %.2fx   (issue 16: at most 10x, goal 3x); outputs %s\n", best_run / best_gemm,
         same ? "bit-identical" : "DIFFER");
  printf("tc5 run --schedule SEED (seeds 1..%u): %.3f s; schedule overhead = %.2fx   (issue 34); outputs %s\n", rounds,
         best_sched, best_sched / best_run, sched_same ? "bit-identical" : "DIFFER");
  free(c1);
  free(c2);
  return same && sched_same ? 0 : 1;
}
