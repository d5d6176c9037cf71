/* tc5 CLI — `tc5 vectors check FILE...`: re-check tc5 against golden data. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#include "tc5/vectors.h"
#ifdef TC5_HAVE_CUDA
#include "tc5/gemm_cuda.h"
#endif

static const cli_opt opts[] = {
    {"show", NULL, true, "failures printed in full per file (default 3, at most 8)"},
    {"quiet", "q", false, "print only the final line"},
    {"device", NULL, true, "cuda: mmasim files' whole calls also through the GPU GEMM (built when nvcc was found)"},
};
#define NOPTS (int)(sizeof opts / sizeof opts[0])

#ifdef TC5_HAVE_CUDA
static tc5_status gpu_gemm(void *ctx, const tc5_dot *m, unsigned M, unsigned N, unsigned K, const uint32_t *A,
                           const uint32_t *B, const uint32_t *SA, const uint32_t *SB, uint32_t *D,
                           const tc5_dot_opts *o) {
  (void)ctx;
  return tc5_gemm_cuda(m, M, N, K, A, B, SA, SB, D, o, NULL, NULL);
}
#endif

int cmd_vectors(int argc, char **argv) {
  cli_args a;
  if (argc < 1 || strcmp(argv[0], "check") != 0) {
    if (argc >= 1 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"))) argc = 0;
    cli_help(argc ? stderr : stdout, "tc5 vectors check FILE... [--show N] [--quiet] [--device cuda]",
             "Checks every vector of each file against tc5, bit for bit. Formats\n"
             "(detected from the lines): idesc, zcmask-conv, smem-layouts, mmasim\n"
             "(see ../shared/oracle/README.md). Prints per file the vectors checked\n"
             "and the mismatches (the first few in full), then one line\n"
             "`N passed, M failed`. Exit status 1 on any mismatch or unreadable file.",
             opts, (int)(sizeof opts / sizeof opts[0]));
    return argc ? EXIT_USAGE : EXIT_OK;
  }
  if (!cli_parse(argc - 1, argv + 1, opts, (int)(sizeof opts / sizeof opts[0]), &a,
                 "vectors check"))
    return EXIT_USAGE;
  if (a.help || a.npos == 0) {
    cli_help(a.help ? stdout : stderr, "tc5 vectors check FILE... [--show N] [--quiet] [--device cuda]",
             "Checks every vector of each file against tc5, bit for bit.", opts, NOPTS);
    return a.help ? EXIT_OK : EXIT_USAGE;
  }
  uint64_t show = 3;
  if (cli_has(&a, opts, NOPTS, "show") && !cli_opt_u64(&a, opts, NOPTS, "show", 0, TC5_VECTORS_SHOW, &show))
    return EXIT_USAGE;
  bool quiet = cli_has(&a, opts, NOPTS, "quiet");
  unsigned long long passed = 0, failed = 0;
  bool bad_file = false;
  static tc5_vectors_report rep;
  bool cuda;
  if (!cli_device(&a, opts, NOPTS, "vectors check", &cuda)) return EXIT_USAGE;
#ifdef TC5_HAVE_CUDA
  if (cuda) rep.gemm = gpu_gemm;
#endif
  for (int i = 0; i < a.npos; i++) {
    tc5_diag dg;
    tc5_diag_init(&dg);
    tc5_status st = tc5_vectors_check_file(a.pos[i], &rep, &dg);
    if (st != TC5_OK && st != TC5_EMISMATCH) {
      bad_file = true;
      fprintf(stderr, "%s: %s\n", a.pos[i], dg.count ? dg.issue[0].message : tc5_strerror(st));
      continue;
    }
    passed += rep.checked - rep.failed;
    failed += rep.failed;
    if (quiet) continue;
    printf("%s: format %s%s%s, %llu checked, %llu mismatches", a.pos[i], rep.format,
           rep.qualifier[0] ? " " : "", rep.qualifier, (unsigned long long)rep.checked,
           (unsigned long long)rep.failed);
    if (rep.noted) printf(" (%llu noted: %s)", (unsigned long long)rep.noted, rep.note);
    if (rep.engine_calls) printf(", %llu whole MMAs through the tcgen05.mma engine", (unsigned long long)rep.engine_calls);
    if (rep.gemm_calls) printf(", %llu through the GPU GEMM", (unsigned long long)rep.gemm_calls);
    printf("\n");
    for (unsigned j = 0; j < rep.shown && j < show; j++) printf("  %s\n", rep.failure[j]);
  }
  printf("%llu passed, %llu failed\n", passed, failed);
  return (failed || bad_file) ? EXIT_RULES : EXIT_OK;
}
