/* tc5 CLI — `tc5 mask show`: an attention mask on one tile, with its
 * class and per-row bitmasks (SM100 and SM90 fragment orders). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#include "tc5/mask.h"

static const cli_opt opts[] = {
    {"seqlen-q", NULL, true, "query length (default 1024)"},
    {"seqlen-k", NULL, true, "key length (default 1024)"},
    {"causal", NULL, false, "causal mask: column <= row + offset"},
    {"local", NULL, true, "sliding window LEFT,RIGHT (-1: unbounded)"},
    {"offset", NULL, true, "key column aligned with query row 0 (default seqlen-k - seqlen-q)"},
    {"row", NULL, true, "first row of the tile (default 0)"},
    {"col", NULL, true, "first column of the tile (default 0)"},
    {"tm", NULL, true, "rows of the tile (default 64)"},
    {"tn", NULL, true, "columns of the tile (default 128)"},
    {"bits", NULL, false, "also print each row's bitmask words (SM100 order and SM90 lane group 0)"},
    {"svg", NULL, false, "draw the tile as SVG instead"},
};
#define NO ((int)(sizeof opts / sizeof opts[0]))

static void usage(FILE *f) {
  cli_help(f, "tc5 mask show [--seqlen-q Q] [--seqlen-k K] [--causal | --local L,R] [--offset D]\n"
              "                    [--row M0] [--col N0] [--tm TM] [--tn TN] [--bits] [--svg]",
           "The mask of one attention-score tile: a line per row (1 allowed, . masked,\n"
           "a space every 32 columns), the tile's class (empty: skip it, partial: mask\n"
           "it, full: no mask needed), and with --bits the 32-bit words that R2P\n"
           "consumes. Exit status 1 when the mask specification is invalid.",
           opts, NO);
}

static bool num(const cli_args *a, const char *name, int64_t lo, int64_t hi, int64_t *v) {
  const char *s = cli_get(a, opts, NO, name);
  if (!s) return true;
  char *e;
  long long x = strtoll(s, &e, 0);
  if (*e || x < lo || x > hi) {
    fprintf(stderr, "tc5 mask: --%s %s: expected an integer in [%lld, %lld]\n", name, s, (long long)lo,
            (long long)hi);
    return false;
  }
  *v = x;
  return true;
}

int cmd_mask(int argc, char **argv) {
  if (argc < 1 || strcmp(argv[0], "show")) {
    bool h = argc >= 1 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"));
    usage(h ? stdout : stderr);
    return h ? EXIT_OK : EXIT_USAGE;
  }
  cli_args a;
  if (!cli_parse(argc - 1, argv + 1, opts, NO, &a, "mask")) return EXIT_USAGE;
  if (a.help) {
    usage(stdout);
    return EXIT_OK;
  }
  int64_t sq = 1024, sk = 1024, row = 0, col = 0, tm = 64, tn = 128, off;
  if (!num(&a, "seqlen-q", -1000000000, 1000000000, &sq) || !num(&a, "seqlen-k", -1000000000, 1000000000, &sk) ||
      !num(&a, "row", 0, 1000000000, &row) || !num(&a, "col", 0, 1000000000, &col) ||
      !num(&a, "tm", 1, 512, &tm) || !num(&a, "tn", 1, 512, &tn))
    return EXIT_USAGE;
  tc5_mask_spec s;
  tc5_mask_spec_init(&s, (int32_t)sq, (int32_t)sk);
  off = s.offset;
  if (!num(&a, "offset", -1000000000, 1000000000, &off)) return EXIT_USAGE;
  s.offset = (int32_t)off;
  s.causal = cli_has(&a, opts, NO, "causal");
  const char *loc = cli_get(&a, opts, NO, "local");
  if (loc) {
    int l, r;
    if (sscanf(loc, "%d,%d", &l, &r) != 2) {
      fprintf(stderr, "tc5 mask: --local %s: expected LEFT,RIGHT\n", loc);
      return EXIT_USAGE;
    }
    s.local = true;
    s.window_left = l;
    s.window_right = r;
  }
  tc5_diag dg;
  tc5_diag_init(&dg);
  if (tc5_mask_spec_check(&s, &dg) != TC5_OK) {
    cli_print_diag(stderr, &dg);
    return EXIT_RULES;
  }
  bool svg = cli_has(&a, opts, NO, "svg");
  size_t need = 0;
  tc5_mask_render(&s, row, (uint32_t)tm, col, (uint32_t)tn, svg, NULL, 0, &need, NULL);
  char *buf = malloc(need ? need : 1);
  if (!buf || tc5_mask_render(&s, row, (uint32_t)tm, col, (uint32_t)tn, svg, buf, need, NULL, &dg) != TC5_OK) {
    free(buf);
    cli_print_diag(stderr, &dg);
    return EXIT_RULES;
  }
  fputs(buf, stdout);
  free(buf);
  if (cli_has(&a, opts, NO, "bits") && !svg) {
    uint32_t nw = (uint32_t)((tn + 31) / 32);
    printf("\nrow     SM100 words (bit = column)            SM90 words (lane group 0; bit = fragment element)\n");
    for (int64_t r = row; r < row + tm; r++) {
      uint32_t w[16], w9[2] = {0, 0};
      tc5_mask_row_bits(&s, r, col, nw, w);
      printf("%6lld ", (long long)r);
      for (uint32_t i = 0; i < nw; i++) printf(" %08x", w[i]);
      if (tn % 8 == 0 && tn <= 256 && tc5_mask_row_bits_sm90(&s, r, col, (uint32_t)tn, 0, w9) == TC5_OK) {
        printf("   ");
        for (uint32_t i = 0; i < (tn / 4 + 31) / 32; i++) printf(" %08x", w9[i]);
      }
      printf("\n");
    }
  }
  return EXIT_OK;
}
