/* tc5 — command-line front end of the tcgen05 model. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "common.h"

#ifndef TC5_VERSION
#define TC5_VERSION "0.1.0"
#endif

static const struct {
  const char *name;
  int (*fn)(int, char **);
  const char *help;
} commands[] = {
    {"desc", cmd_desc, "decode, encode and check matrix descriptors (9.7.16.4)"},
    {"zcmask", cmd_zcmask, "generate, explain and synthesise zero-column masks (9.7.16.4.3)"},
    {"fmt", cmd_fmt, "element formats: values, fields, conversions"},
    {"mask", cmd_mask, "attention-score masks as bitmasks (R2P): show a tile"},
    {"tmem", cmd_tmem, "Tensor Memory: tcgen05.ld/st fragments, allocation rules (9.7.16.1, .7, .8)"},
    {"layout", cmd_layout, "shared-memory layouts of MMA operands: show, draw, addr, check (9.7.16.3.3)"},
    {"tmap", cmd_tmap, "check a TMA tensor map's parameters (cuTensorMapEncodeTiled's rules)"},
    {"run", cmd_run, "run a PTX kernel (nvcc's, Triton's) on the CPU, bit-exactly"},
    {"gemm", cmd_gemm, "the reference GEMM: D = A.B (+ C) as the Tensor Core computes it"},
    {"check", cmd_check, "the tcgen05 checker's rules (what tc5 run --check reports)"},
    {"vectors", cmd_vectors, "check tc5 against golden vector files"},
    {"demo", cmd_demo, "run the built-in example"},
};

static void usage(FILE *f) {
  fprintf(f, "usage: tc5 COMMAND [ARGS] (tc5 COMMAND --help for each)\n\n"
             "tc5 is a bit-accurate software model of NVIDIA's 5th-generation Tensor Core\n"
             "(the PTX tcgen05 instructions of Blackwell GPUs).\n\ncommands:\n");
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
  fprintf(f, "  %-10s %s\n", "version", "print the version");
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
    usage(stdout);
    return EXIT_OK;
  }
  if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
    printf("tc5 %s\n", TC5_VERSION);
    return EXIT_OK;
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (!strcmp(cmd, commands[i].name)) return commands[i].fn(argc - 2, argv + 2);
  fprintf(stderr, "tc5: unknown command '%s'\n", cmd);
  usage(stderr);
  return EXIT_USAGE;
}
