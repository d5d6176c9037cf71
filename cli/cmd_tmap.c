/* tc5 tmap — check a tensor map's parameters against the rules of
 * cuTensorMapEncodeTiled / cuTensorMapEncodeIm2col, before a kernel runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#include "tc5/tensormap.h"
#include "tc5/tma.h"

static const char usage_text[] =
    "usage: tc5 tmap PARAMS [--address 0xADDR]\n\n"
    "Checks a tensor map's parameters against every rule of cuTensorMapEncodeTiled\n"
    "(or ...Im2col with im2col=), as `tc5 run --arg tmap:` takes them:\n"
    "  type=bf16,dims=64x128,strides=128,box=64x64[,estrides=..][,swizzle=128B]\n"
    "  [,interleave=..][,l2=..][,oob=zero|nan][,offset=BYTES]\n"
    "(dims innermost first; strides in bytes, of dims 1 and up). The tensor's address\n"
    "is --address (default 0x10000) plus offset=. Prints the box's bytes in shared\n"
    "memory (what a load's complete_tx counts), or every rule broken.\n"
    "Exit status: 0 valid, 1 a rule broken, 2 bad usage or text that does not parse.\n";

static bool key(void *ctx, const char *k, const char *v) {
  uint64_t *off = ctx;
  if (strcmp(k, "offset")) return false;
  return cli_u64(v, off);
}

int cmd_tmap(int argc, char **argv) {
  const char *text = NULL;
  uint64_t address = 0x10000, offset = 0;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      fputs(usage_text, stdout);
      return EXIT_OK;
    }
    if (!strcmp(argv[i], "--address") && i + 1 < argc) {
      if (!cli_u64(argv[++i], &address)) {
        fprintf(stderr, "tc5 tmap: --address takes an integer\n");
        return EXIT_USAGE;
      }
    } else if (argv[i][0] != '-' && !text) {
      text = argv[i];
    } else {
      fprintf(stderr, "tc5 tmap: unexpected '%s'\n%s", argv[i], usage_text);
      return EXIT_USAGE;
    }
  }
  if (!text) {
    fputs(usage_text, stderr);
    return EXIT_USAGE;
  }
  tc5_tmap_params p;
  tc5_diag dg;
  tc5_diag_init(&dg);
  if (tc5_tmap_params_parse(text, &p, key, &offset, &dg)) {
    fprintf(stderr, "tc5 tmap: %s\n", dg.count ? dg.issue[0].message : "does not parse");
    return EXIT_USAGE;
  }
  p.address = address + offset;
  tc5_tensormap m;
  tc5_status st = tc5_tensormap_encode(&m, &p, &dg);
  if (st) {
    printf("invalid: %u rule%s broken (%s)\n", dg.total, dg.total == 1 ? "" : "s", tc5_status_name(st));
    cli_print_diag(stdout, &dg);
    return EXIT_RULES;
  }
  uint32_t bytes = 0, tx = 0;
  if (p.mode == TC5_TMAP_TILED) tc5_tma_box_bytes(&p, &bytes), tc5_tma_box_tx_bytes(&p, &tx);
  printf("valid: %s tensor map, rank %u, %s, swizzle %s", p.mode == TC5_TMAP_TILED ? "tiled" : "im2col", p.rank,
         tc5_tmap_type_name(p.type), tc5_tmap_swizzle_name(p.swizzle));
  if (p.mode == TC5_TMAP_TILED) printf("; a box is %u bytes in shared memory", bytes);
  if (p.mode == TC5_TMAP_TILED && tx != bytes) printf(", a load completes %u transaction bytes (packed)", tx);
  printf("\n");
  return EXIT_OK;
}
