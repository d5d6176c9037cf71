/* tc5 gemm — the reference GEMM: what the Tensor Core computes, K chained
 * from 0 in the kind's steps (tc5_gemm). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#ifdef TC5_HAVE_CUDA
#include "tc5/gemm_cuda.h"
#endif
#include "tc5/arith.h"
#include "tc5/formats.h"
#include "tc5/kind.h"

static const cli_opt opts[] = {
    {"kind", NULL, true, "MMA kind: f16, tf32, f8f6f4, i8, mxf8f6f4, mxf4, mxf4nvf4"},
    {"atype", NULL, true, "element type of A (names as in tc5 desc encode idesc)"},
    {"btype", NULL, true, "element type of B"},
    {"dtype", NULL, true, "type of C and D: f32 (default; s32 for i8) or f16"},
    {"m", NULL, true, "rows of A and D"},
    {"n", NULL, true, "columns of B and D"},
    {"k", NULL, true, "the reduction length"},
    {"a", NULL, true, "file of A's element codes"},
    {"b", NULL, true, "file of B's element codes"},
    {"c", NULL, true, "file of C (M x N of the D type): D = A.B + C"},
    {"out", NULL, true, "file written with D (M x N, row-major)"},
    {"a-major", NULL, true, "K (A is M x K row-major, default) or MN (K x M row-major)"},
    {"b-major", NULL, true, "K (B is N x K row-major, default) or MN (K x N row-major)"},
    {"model", NULL, true, "blackwell (default) or hopper"},
    {"threads", NULL, true, "threads (default: one per core)"},
    {"device", NULL, true, "cpu (default) or cuda: the GPU GEMM (same bits; built when nvcc was found)"},
    {"stype", NULL, true, "block-scaled kinds: scale type ue8m0 (default) or ue4m3"},
    {"block", NULL, true, "block-scaled kinds: elements a scale factor covers, 16 or 32 (default)"},
    {"sa", NULL, true, "block-scaled kinds: A's scale codes, M x K/block bytes (row m's in a row); with --meta one "
                       "a block kept elements: M x K/(2 block)"},
    {"sb", NULL, true, "block-scaled kinds: B's scale codes, N x K/block bytes (column n's in a row); with --meta "
                       "N x K/(2 block)"},
    {"meta", NULL, true, "sparse A (tcgen05.mma.sp): --a holds the M x K/2 kept elements (K-major), this file the "
                         "metadata, a nibble a byte, M x K/g bytes: tf32 (1:2) g = 2, a pair's nibble 0x4 (first "
                         "kept) or 0xe (second); f16, f8f6f4, i8, mxf8f6f4 (2:4) g = 4, a group's kept positions "
                         "in bits 0-1 and 2-3 (0x4 0x8 0xc 0x9 0xd 0x6 0xe); mxf4, mxf4nvf4 (4:8 in pairs) g = 8, "
                         "the same values naming the two kept pairs"},
    {"saturate", NULL, false, ".kind::i8: saturate to s32 instead of wrapping (the idesc saturate bit)"},
};
#define NO (int)(sizeof opts / sizeof opts[0])

static unsigned code_bytes(tc5_type t) {
  switch (t) {
  case TC5_F32: case TC5_TF32: case TC5_S32: return 4;
  case TC5_F16: case TC5_BF16: return 2;
  default: return 1; /* fp8, fp6 and fp4 (one code a byte, low bits), s8, u8 */
  }
}

/* reads count codes of width w, little-endian; the file must hold exactly them */
static uint32_t *read_codes(const char *path, size_t count, unsigned w, const char *what) {
  uint8_t *raw;
  size_t got;
  if (!cli_read_file(path, &raw, &got, "gemm")) return NULL;
  uint32_t *c = NULL;
  if (got != count * w) {
    fprintf(stderr, "tc5 gemm: --%s '%s' has %zu bytes; %zu elements of %u bytes need %zu\n", what, path, got, count, w,
            count * w);
  } else if (!(c = malloc(count * sizeof *c + 1))) {
    fprintf(stderr, "tc5 gemm: out of memory\n");
  } else {
    for (size_t i = 0; i < count; i++) {
      uint32_t v = 0;
      memcpy(&v, raw + i * w, w);
      c[i] = v;
    }
  }
  free(raw);
  return c;
}

static bool major_of(const cli_args *a, const char *name, bool *mn) {
  const char *v = cli_get(a, opts, NO, name);
  *mn = false;
  if (!v || !strcmp(v, "K")) return true;
  if (!strcmp(v, "MN")) {
    *mn = true;
    return true;
  }
  fprintf(stderr, "tc5 gemm: --%s is K or MN, not '%s'\n", name, v);
  return false;
}

int cmd_gemm(int argc, char **argv) {
  cli_args a;
  if (!cli_parse(argc, argv, opts, NO, &a, "gemm")) return EXIT_USAGE;
  if (a.help) {
    cli_help(stdout, "tc5 gemm --kind K --atype T --btype T [--dtype T] --m M --n N --k K --a FILE --b FILE [--c FILE] "
                     "[--stype T --block B --sa FILE --sb FILE] [--meta FILE] [--saturate] --out FILE",
             "Computes D = A.B (+ C) exactly as the Tensor Core does: every element through\n"
             "the MMA arithmetic model, K chained from 0 in the kind's steps. Files hold\n"
             "element codes at their native width, little-endian (fp6/fp4: one per byte).\n"
             "With --meta, A is sparse (tcgen05.mma.sp): K is the logical K, a step takes the\n"
             "dense step's count of kept products, the elided pairs are absent (B there is\n"
             "never read), a scale factor covers `block` kept elements (docs/arithmetic.md);\n"
             "it is computed on the CPU.",
             opts, NO);
    return EXIT_OK;
  }
  const char *need[] = {"kind", "atype", "btype", "m", "n", "k", "a", "b", "out"};
  for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
    if (!cli_has(&a, opts, NO, need[i])) {
      fprintf(stderr, "tc5 gemm: --%s is required (tc5 gemm --help)\n", need[i]);
      return EXIT_USAGE;
    }
  tc5_kind kind;
  tc5_type at, bt, dt;
  tc5_model model = TC5_MODEL_BLACKWELL;
  if (tc5_kind_parse(cli_get(&a, opts, NO, "kind"), &kind)) {
    fprintf(stderr, "tc5 gemm: unknown --kind '%s'\n", cli_get(&a, opts, NO, "kind"));
    return EXIT_USAGE;
  }
  if (tc5_type_parse(cli_get(&a, opts, NO, "atype"), &at) || tc5_type_parse(cli_get(&a, opts, NO, "btype"), &bt)) {
    fprintf(stderr, "tc5 gemm: unknown --atype or --btype\n");
    return EXIT_USAGE;
  }
  dt = kind == TC5_KIND_I8 ? TC5_S32 : TC5_F32;
  if (cli_has(&a, opts, NO, "dtype") && tc5_type_parse(cli_get(&a, opts, NO, "dtype"), &dt)) {
    fprintf(stderr, "tc5 gemm: unknown --dtype '%s'\n", cli_get(&a, opts, NO, "dtype"));
    return EXIT_USAGE;
  }
  if (cli_has(&a, opts, NO, "model") && tc5_model_parse(cli_get(&a, opts, NO, "model"), &model)) {
    fprintf(stderr, "tc5 gemm: --model is blackwell or hopper\n");
    return EXIT_USAGE;
  }
  uint64_t M, N, K, threads = 0;
  if (!cli_opt_u64(&a, opts, NO, "m", 1, 1u << 16, &M) || !cli_opt_u64(&a, opts, NO, "n", 1, 1u << 16, &N) ||
      !cli_opt_u64(&a, opts, NO, "k", 1, 1u << 20, &K))
    return EXIT_USAGE;
  if (cli_has(&a, opts, NO, "threads") && !cli_opt_u64(&a, opts, NO, "threads", 1, 256, &threads)) return EXIT_USAGE;
  bool amn, bmn, cuda;
  if (!major_of(&a, "a-major", &amn) || !major_of(&a, "b-major", &bmn)) return EXIT_USAGE;
  if (!cli_device(&a, opts, NO, "gemm", &cuda)) return EXIT_USAGE;
  tc5_diag dg;
  tc5_diag_init(&dg);
  /* block scaling: the scale type and block, and both scale files */
  bool scaled = tc5_kind_is_block_scaled(kind);
  tc5_type stype = TC5_TYPE_NONE;
  uint64_t block = 0;
  if (scaled) {
    stype = TC5_UE8M0, block = 32;
    if (cli_has(&a, opts, NO, "stype") && tc5_type_parse(cli_get(&a, opts, NO, "stype"), &stype)) {
      fprintf(stderr, "tc5 gemm: unknown --stype '%s'\n", cli_get(&a, opts, NO, "stype"));
      return EXIT_USAGE;
    }
    if (cli_has(&a, opts, NO, "block") && !cli_opt_u64(&a, opts, NO, "block", 16, 32, &block)) return EXIT_USAGE;
    if (!cli_has(&a, opts, NO, "sa") || !cli_has(&a, opts, NO, "sb")) {
      fprintf(stderr, "tc5 gemm: .kind::%s needs --sa and --sb (the scale factors)\n", tc5_kind_name(kind));
      return EXIT_USAGE;
    }
  } else if (cli_has(&a, opts, NO, "sa") || cli_has(&a, opts, NO, "sb") || cli_has(&a, opts, NO, "stype") ||
             cli_has(&a, opts, NO, "block")) {
    fprintf(stderr, "tc5 gemm: --sa, --sb, --stype and --block are for the block-scaled kinds (mxf8f6f4, mxf4, "
                    "mxf4nvf4)\n");
    return EXIT_USAGE;
  }
  bool saturate = cli_has(&a, opts, NO, "saturate");
  if (saturate && kind != TC5_KIND_I8) {
    fprintf(stderr, "tc5 gemm: --saturate is for .kind::i8 (integer results), not .kind::%s\n", tc5_kind_name(kind));
    return EXIT_USAGE;
  }
  tc5_dot dot;
  tc5_status st = tc5_dot_model(model, kind, at, bt, dt, stype, (unsigned)block, saturate, &dot, &dg);
  if (st) {
    fprintf(stderr, "tc5 gemm: %s\n", tc5_strerror(st));
    cli_print_diag(stderr, &dg);
    return EXIT_USAGE;
  }
  if (scaled && K % block) {
    fprintf(stderr, "tc5 gemm: --k %llu is not a multiple of the scale block %llu\n", (unsigned long long)K,
            (unsigned long long)block);
    return EXIT_USAGE;
  }
  bool sparse = cli_has(&a, opts, NO, "meta");
  unsigned g = 4; /* logical elements a metadata nibble */
  tc5_sparse_group(kind, &g);
  if (sparse && amn) {
    fprintf(stderr, "tc5 gemm: --meta (sparse A) needs --a-major K: --a holds each row's K/2 kept elements\n");
    return EXIT_USAGE;
  }
  if (sparse && K % g) {
    fprintf(stderr, "tc5 gemm: --k %llu is not a multiple of %u: a metadata nibble of sparse .kind::%s covers %u "
                    "elements\n", (unsigned long long)K, g, tc5_kind_name(kind), g);
    return EXIT_USAGE;
  }
  if (sparse && scaled && K % (2 * block)) {
    fprintf(stderr, "tc5 gemm: --k %llu is not a multiple of 2 x --block = %llu: with --meta a scale factor covers "
                    "%llu kept elements, %llu logical ones\n", (unsigned long long)K, (unsigned long long)(2 * block),
            (unsigned long long)block, (unsigned long long)(2 * block));
    return EXIT_USAGE;
  }
  int rc = EXIT_USAGE;
  uint64_t NS = scaled ? (sparse ? K / 2 : K) / block : 0; /* scale factors a row: a `block` kept elements */
  uint32_t *A = NULL, *B = NULL, *A2 = NULL, *B2 = NULL, *D = NULL, *SA = NULL, *SBn = NULL, *SB = NULL;
  uint8_t *meta8 = NULL;
  if (scaled) {
    SA = read_codes(cli_get(&a, opts, NO, "sa"), M * NS, 1, "sa");
    SBn = SA ? read_codes(cli_get(&a, opts, NO, "sb"), N * NS, 1, "sb") : NULL;
    SB = SBn ? malloc(NS * N * sizeof *SB + 1) : NULL;
    if (!SB) goto out;
    for (uint64_t n = 0; n < N; n++) /* tc5_gemm takes SB as K/block x N */
      for (uint64_t s2 = 0; s2 < NS; s2++) SB[s2 * N + n] = SBn[n * NS + s2];
  }
  A = read_codes(cli_get(&a, opts, NO, "a"), sparse ? M * K / 2 : M * K, code_bytes(at), "a");
  if (A && sparse) { /* one nibble a byte */
    uint32_t *meta = read_codes(cli_get(&a, opts, NO, "meta"), M * K / g, 1, "meta");
    if (meta && !(meta8 = malloc(M * K / g + 1))) goto oom;
    for (uint64_t i = 0; meta && i < M * K / g; i++) meta8[i] = (uint8_t)(meta[i] > 15 ? 0xFF : meta[i]);
    free(meta);
    if (!meta8) goto out;
  }
  B = A ? read_codes(cli_get(&a, opts, NO, "b"), K * N, code_bytes(bt), "b") : NULL;
  if (!B) goto out;
  /* tc5_gemm takes A as M x K and B as K x N, row-major (sparse: A M x K/2) */
  A2 = malloc(M * K * sizeof *A2);
  B2 = malloc(K * N * sizeof *B2);
  if (!A2 || !B2) goto oom;
  for (uint64_t m = 0; m < M && !sparse; m++)
    for (uint64_t k = 0; k < K; k++) A2[m * K + k] = amn ? A[k * M + m] : A[m * K + k];
  if (sparse) memcpy(A2, A, M * K / 2 * sizeof *A2);
  for (uint64_t k = 0; k < K; k++)
    for (uint64_t n = 0; n < N; n++) B2[k * N + n] = bmn ? B[k * N + n] : B[n * K + k];
  tc5_dot_opts o;
  tc5_dot_opts_init(&o);
  if (cli_has(&a, opts, NO, "c")) {
    D = read_codes(cli_get(&a, opts, NO, "c"), M * N, code_bytes(dt), "c");
    if (!D) goto out;
  } else {
    D = calloc(M * N, sizeof *D);
    if (!D) goto oom;
    o.enable_input_d = false;
  }
  if (sparse) { /* the library's sparse GEMM (on the CPU, whatever --device says) */
    st = tc5_gemm_sparse(&dot, kind, (unsigned)M, (unsigned)N, (unsigned)K, A2, meta8, B2, SA, SB, D, &o,
                         (unsigned)threads, &dg);
    if (st) { /* the metadata, or K */
      fprintf(stderr, "tc5 gemm: %s\n", tc5_strerror(st));
      cli_print_diag(stderr, &dg);
      goto out;
    }
  } else if (cuda) {
#ifdef TC5_HAVE_CUDA
    st = tc5_gemm_cuda(&dot, (unsigned)M, (unsigned)N, (unsigned)K, A2, B2, SA, SB, D, &o, NULL, &dg);
    if (st && dg.count) { /* the device's error: no GPU, out of memory */
      fprintf(stderr, "tc5 gemm: %s\n", tc5_strerror(st));
      cli_print_diag(stderr, &dg);
      rc = EXIT_RULES;
      goto out;
    }
#endif
  } else {
    st = tc5_gemm(&dot, (unsigned)M, (unsigned)N, (unsigned)K, A2, B2, SA, SB, D, &o, (unsigned)threads);
  }
  if (st) {
    tc5_diag_init(&dg);
    tc5_dot_check(&dot, K, &o, &dg);
    fprintf(stderr, "tc5 gemm: %s\n", tc5_strerror(st));
    cli_print_diag(stderr, &dg);
    rc = EXIT_RULES;
    goto out;
  }
  {
    const char *path = cli_get(&a, opts, NO, "out");
    FILE *f = fopen(path, "wb");
    unsigned w = code_bytes(dt);
    bool ok = f != NULL;
    for (uint64_t i = 0; ok && i < M * N; i++) ok = fwrite(&D[i], w, 1, f) == 1; /* little-endian host */
    if (f && fclose(f)) ok = false;
    if (!ok) {
      fprintf(stderr, "tc5 gemm: cannot write '%s'\n", path);
      goto out;
    }
  }
  rc = EXIT_OK;
  goto out;
oom:
  fprintf(stderr, "tc5 gemm: out of memory\n");
out:
  free(A);
  free(B);
  free(A2);
  free(B2);
  free(D);
  free(SA);
  free(SBn);
  free(SB);
  free(meta8);
  return rc;
}
