/* bench_timing: `tc5 run` of Triton's bf16 matmul (tests/data/ptx, sm_100a)
 * with the timing model on (--timing=b200, every CTA simulated: a small
 * launch is never sampled) against the same run with it off, the checker on
 * in both, one host thread, in the same process, alternating (issue 47: at
 * most 1.5x). The outputs must be identical: timing changes no result.
 * usage: bench_timing [N] [ROUNDS]   (N = M = K, multiple of 128, default 256;
 * best of ROUNDS, default 5) */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_matmul.h"
#include "bench_util.h"
#include "tc5/ptx.h"

#ifndef TC5_PTX_DIR
#define TC5_PTX_DIR "tests/data/ptx"
#endif

/* the worst case for a per-instruction hook: a loop of dependent integer and
 * float instructions, 8 CTAs of 256 threads, no memory */
static const char *alu_ptx =
    ".version 8.0\n.target sm_90a\n.address_size 64\n"
    ".visible .entry k(.param .u64 out) {\n"
    " .reg .b32 %r<8>; .reg .f32 %f<4>; .reg .pred %p<2>; .reg .b64 %rd<4>;\n"
    " mov.u32 %r1, %tid.x; mov.u32 %r2, 0; cvt.rn.f32.u32 %f1, %r1;\n"
    "L: add.u32 %r1, %r1, 3; xor.b32 %r1, %r1, %r2; fma.rn.f32 %f1, %f1, 0f3f800001, 0f3f000000;\n"
    " add.u32 %r2, %r2, 1; setp.lt.u32 %p1, %r2, 4000; @%p1 bra L;\n"
    " ld.param.u64 %rd1, [out]; mov.u32 %r3, %tid.x; mul.wide.u32 %rd2, %r3, 4; add.u64 %rd3, %rd1, %rd2;\n"
    " cvt.rzi.u32.f32 %r4, %f1; add.u32 %r1, %r1, %r4; st.global.u32 [%rd3], %r1;\n"
    " ret;\n}\n";

static double alu_best(int on, unsigned rounds, uint32_t *out) {
  tc5_ptx_module *m;
  tc5_diag dg;
  tc5_diag_init(&dg);
  if (tc5_ptx_load(alu_ptx, strlen(alu_ptx), "alu.ptx", &m, &dg)) return -1;
  double best = 1e30;
  for (unsigned r = 0; r < rounds; r++) {
    tc5_ptx_arg arg = {.kind = TC5_PTX_ARG_BUFFER, .data = out, .bytes = 256 * 4};
    tc5_ptx_launch_cfg cfg;
    tc5_ptx_launch_init(&cfg);
    cfg.grid[0] = 8;
    cfg.block[0] = 256;
    cfg.threads = 1;
    cfg.timing = on ? "h100" : "none";
    tc5_timing_result res;
    cfg.timing_result = &res;
    double t0 = bench_now();
    if (tc5_ptx_launch(m, &cfg, &arg, 1, NULL, &dg)) return -1;
    double t = bench_now() - t0;
    if (t < best) best = t;
  }
  tc5_ptx_free(m);
  return best;
}

int main(int argc, char **argv) {
  unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 256, rounds = argc > 2 ? (unsigned)atoi(argv[2]) : 5;
  if (n < 128 || n % 128 || !rounds) {
    fprintf(stderr, "bench_timing: N must be a multiple of 128, ROUNDS positive\n");
    return 2;
  }
  const char *ptx = TC5_PTX_DIR "/mm_bf16_f32_w4_s2.ptx";
  FILE *f = fopen(ptx, "rb");
  if (!f) {
    fprintf(stderr, "bench_timing: cannot read %s\n", ptx);
    return 2;
  }
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc((size_t)len + 1);
  if (!text || fread(text, 1, (size_t)len, f) != (size_t)len) return 2;
  fclose(f);
  tc5_ptx_module *m;
  tc5_diag dg;
  tc5_diag_init(&dg);
  if (tc5_ptx_load(text, (size_t)len, ptx, &m, &dg)) return 2;
  size_t e = (size_t)n * n;
  uint16_t *a = malloc(e * 2), *b = malloc(e * 2);
  uint32_t *c[2] = {calloc(e, 4), calloc(e, 4)};
  uint64_t s = 1;
  for (size_t i = 0; i < e; i++) {
    a[i] = (uint16_t)(0x3c00 + (bench_rand(&s) & 0x7ff) - 0x400);
    b[i] = (uint16_t)(0x3c00 + (bench_rand(&s) & 0x7ff) - 0x400);
  }
  double best[2] = {1e30, 1e30};
  tc5_timing_result res;
  memset(&res, 0, sizeof res);
  for (unsigned r = 0; r < 2 * rounds; r++) {
    int on = r % 2;
    tc5_ptx_arg args[8];
    tc5_ptx_launch_cfg cfg;
    bench_matmul_launch(args, &cfg, a, e * 2, b, e * 2, c[on], e * 4, n);
    cfg.timing = on ? "b200" : "none";
    cfg.timing_sample = TC5_TIMING_SAMPLE_ALL;
    cfg.timing_result = &res;
    tc5_ptx_stats st;
    double t0 = bench_now();
    if (tc5_ptx_launch(m, &cfg, args, 8, &st, &dg)) {
      fprintf(stderr, "bench_timing: %s\n", dg.count ? dg.issue[0].message : "launch failed");
      return 1;
    }
    double t = bench_now() - t0;
    if (t < best[on]) best[on] = t;
  }
  int same = !memcmp(c[0], c[1], e * 4);
  printf("Triton bf16 matmul %ux%ux%u (%u CTAs), one thread, checker on, best of %u\n", n, n, n, (n / 128) * (n / 128),
         rounds);
  printf("tc5 run: %.4f s; with --timing=b200: %.4f s (predicted %.3f us); timing overhead = %.2fx   (issue 47: at most "
         "1.5x); outputs %s\n",
         best[0], best[1], res.seconds * 1e6, best[1] / best[0], same ? "bit-identical" : "DIFFER");
  tc5_ptx_free(m);
  free(text), free(a), free(b), free(c[0]), free(c[1]);
  static uint32_t o0[256], o1[256];
  double off = 1e30, on = 1e30;
  for (unsigned r = 0; r < rounds; r++) { /* alternating, best of each */
    double x = alu_best(0, 1, o0), y = alu_best(1, 1, o1);
    if (x < 0 || y < 0) return 1;
    if (x < off) off = x;
    if (y < on) on = y;
  }
  int same2 = !memcmp(o0, o1, sizeof o0);
  printf("ALU loop (8 CTAs x 256 threads x 4000 iterations, no memory): tc5 run %.4f s; with --timing=h100 %.4f s; "
         "timing overhead = %.2fx   (the worst case per instruction); outputs %s\n",
         off, on, on / off, same2 ? "bit-identical" : "DIFFER");
  return same && same2 ? 0 : 1;
}
