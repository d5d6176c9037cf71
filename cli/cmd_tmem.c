/* tc5 CLI — `tc5 tmem`: which thread and register of a warp hold which
 * Tensor Memory cell for a tcgen05.ld/st form (map), and a run of
 * allocation instructions checked against the spec's rules (run). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#include "tc5/tmem.h"

static const cli_opt map_opts[] = {
    {"shape", NULL, true, "32x32b, 16x64b, 16x128b, 16x256b or 16x32bx2"},
    {"num", NULL, true, ".num repeat: 1, 2, 4, ... 128 (default 1)"},
    {"pack", "unpack", false, ".pack::16b (ld) / .unpack::16b (st)"},
    {"split", NULL, true, "immHalfSplitoff of 16x32bx2, columns (default: the span of a half)"},
    {"warp", NULL, true, "warp of the CTA issuing it (default: the one whose lanes taddr names)"},
    {"taddr", NULL, true, "Tensor Memory address lane<<16|column (default 0)"},
    {"by-thread", NULL, false, "list each thread's registers instead of the cell grid"},
    {"json", NULL, false, "JSON output"},
};
#define NMAP ((int)(sizeof map_opts / sizeof map_opts[0]))

static void map_usage(FILE *f) {
  cli_help(f,
           "tc5 tmem map --shape S [--num N] [--pack] [--split K] [--taddr A] [--warp W]\n"
           "                    [--by-thread] [--json]\n"
           "       tc5 tmem run OP...   (alloc N | alloc2 N | dealloc TADDR N | dealloc2 TADDR N |\n"
           "                             relinquish | relinquish2 | exit)",
           "map: the fragment of a tcgen05.ld/st form: for every Tensor Memory cell the\n"
           "thread (Tt) and register (:r) that holds it (with --pack, L/H: the low or\n"
           "high 16 bits of the register). Layouts of CUTLASS's SM100 TMEM copy atoms.\n"
           "run: executes allocation instructions in order on CTA 0 (the ...2 forms on\n"
           "the CTA pair 0/1) and stops at the first broken rule (exit status 1).",
           map_opts, NMAP);
}

static int cmd_map(int argc, char **argv) {
  cli_args a;
  if (!cli_parse(argc, argv, map_opts, NMAP, &a, "tmem map")) return EXIT_USAGE;
  if (a.help) {
    map_usage(stdout);
    return EXIT_OK;
  }
  const char *sname = cli_get(&a, map_opts, NMAP, "shape");
  tc5_tmem_ldst op = {TC5_TMEM_32x32b, 1, false, 0, TC5_TMEM_RED_NONE, TC5_TMEM_RED_F32, false, false};
  if (!sname || tc5_tmem_shape_parse(sname, &op.shape) != TC5_OK) {
    fprintf(stderr, "tc5 tmem map: --shape %s: expected 32x32b, 16x64b, 16x128b, 16x256b or 16x32bx2\n",
            sname ? sname : "(missing)");
    return EXIT_USAGE;
  }
  uint64_t v;
  if (cli_has(&a, map_opts, NMAP, "num")) {
    if (!cli_opt_u64(&a, map_opts, NMAP, "num", 1, 128, &v)) return EXIT_USAGE;
    op.num = (uint32_t)v;
  }
  op.pack16 = cli_has(&a, map_opts, NMAP, "pack");
  tc5_diag d;
  tc5_diag_init(&d);
  uint32_t nregs, nlanes, span;
  if (tc5_tmem_ldst_check(&op, false, &d) != TC5_OK) {
    cli_print_diag(stderr, &d);
    return EXIT_RULES;
  }
  tc5_tmem_ldst_size(&op, &nregs, &nlanes, &span);
  if (op.shape == TC5_TMEM_16x32bx2) {
    op.half_split = span;
    if (cli_has(&a, map_opts, NMAP, "split")) {
      if (!cli_opt_u64(&a, map_opts, NMAP, "split", 0, 511, &v)) return EXIT_USAGE;
      op.half_split = (uint32_t)v;
    }
  } else if (cli_has(&a, map_opts, NMAP, "split")) {
    fprintf(stderr, "tc5 tmem map: --split: only 16x32bx2 takes immHalfSplitoff\n");
    return EXIT_USAGE;
  }
  tc5_tmem_ldst_size(&op, NULL, NULL, &span);
  uint64_t taddr = 0, warp;
  if (cli_has(&a, map_opts, NMAP, "taddr") && !cli_opt_u64(&a, map_opts, NMAP, "taddr", 0, 0xFFFFFFFFu, &taddr))
    return EXIT_USAGE;
  warp = TC5_TMEM_LANE(taddr) / 32 % 4;
  if (cli_has(&a, map_opts, NMAP, "warp") && !cli_opt_u64(&a, map_opts, NMAP, "warp", 0, 31, &warp))
    return EXIT_USAGE;
  uint32_t lane0 = TC5_TMEM_LANE(taddr), col0 = TC5_TMEM_COL(taddr);
  /* the access rules, on a model with everything allocated */
  tc5_tmem t;
  if (tc5_tmem_init(&t, 0) != TC5_OK) return EXIT_RULES;
  uint32_t base;
  tc5_tmem_alloc(&t, 512, &base, NULL);
  uint32_t *regs = calloc(32u * nregs, sizeof *regs);
  tc5_status st = regs ? tc5_tmem_st(&t, &op, (uint32_t)warp, (uint32_t)taddr, regs, &d) : TC5_ENOMEM;
  free(regs);
  tc5_tmem_free(&t);
  if (st) {
    cli_print_diag(stderr, &d);
    return EXIT_RULES;
  }
  /* grid: cell -> "Tt:r" */
  char(*cell)[32] = calloc((size_t)nlanes * span, sizeof *cell);
  if (!cell) return EXIT_RULES;
  bool json = cli_has(&a, map_opts, NMAP, "json"), by = cli_has(&a, map_opts, NMAP, "by-thread");
  if (json) printf("{\"shape\":\"%s\",\"num\":%u,\"pack\":%s,\"immHalfSplitoff\":%u,\"taddr\":%llu,\"warp\":%llu,"
                   "\"registers\":%u,\"lanes\":%u,\"columns\":%u,\"threads\":[",
                   tc5_tmem_shape_name(op.shape), op.num, op.pack16 ? "true" : "false", op.half_split,
                   (unsigned long long)taddr, (unsigned long long)warp, nregs, nlanes, span);
  else
    printf("tcgen05.{ld,st}.%s.x%u%s by warp %llu at lane %u column %u", tc5_tmem_shape_name(op.shape), op.num,
           op.pack16 ? ".{pack,unpack}::16b" : "", (unsigned long long)warp, lane0, col0);
  if (!json && op.shape == TC5_TMEM_16x32bx2) printf(", immHalfSplitoff %u", op.half_split);
  if (!json)
    printf(": %u register%s a thread, lanes %u-%u, columns %u-%u\n", nregs, nregs == 1 ? "" : "s", lane0,
           lane0 + nlanes - 1, col0, col0 + span - 1);
  for (uint32_t th = 0; th < 32; th++) {
    if (json) printf("%s[", th ? "," : "");
    if (by && !json) printf("T%-2u", th);
    for (uint32_t r = 0; r < nregs; r++) {
      uint32_t l, c, k;
      tc5_tmem_frag_cell(&op, th, r, &l, &c, &k);
      if (json) printf("%s{\"lane\":%u,\"column\":%u,\"cells\":%u}", r ? "," : "", lane0 + l, col0 + c, k);
      else if (by) printf(" r%u=(%u,%u%s)", r, lane0 + l, col0 + c, k == 2 ? "+1" : "");
      for (uint32_t j = 0; j < k; j++) {
        char *p = cell[(size_t)l * span + c + j];
        if (*p) strcat(p, "*"); /* overlapping halves of 16x32bx2 */
        else snprintf(p, sizeof cell[0], "T%u:%u%s", th, r, k == 2 ? (j ? "H" : "L") : "");
      }
    }
    if (json) printf("]");
    if (by && !json) printf("\n");
  }
  if (json) printf("]}\n");
  if (!json && !by) {
    printf("\nlane\\col");
    for (uint32_t c = 0; c < span; c++) printf(" %8u", col0 + c);
    printf("\n");
    for (uint32_t l = 0; l < nlanes; l++) {
      printf("%8u", lane0 + l);
      for (uint32_t c = 0; c < span; c++) printf(" %8s", cell[(size_t)l * span + c][0] ? cell[(size_t)l * span + c] : ".");
      printf("\n");
    }
  }
  free(cell);
  return EXIT_OK;
}

static bool arg_u32(const char *s, uint32_t *v) {
  uint64_t x;
  if (!cli_u64(s, &x) || x > 0xFFFFFFFFu) {
    fprintf(stderr, "tc5 tmem run: %s: expected a number\n", s);
    return false;
  }
  *v = (uint32_t)x;
  return true;
}

static int cmd_tmem_run(int argc, char **argv) {
  tc5_tmem c0, c1;
  if (tc5_tmem_init(&c0, 0)) return EXIT_RULES;
  if (tc5_tmem_init(&c1, 1)) { /* c1 frees its own half; c0 is ours */
    tc5_tmem_free(&c0);
    return EXIT_RULES;
  }
  tc5_tmem *pair[2] = {&c0, &c1};
  int rc = EXIT_OK;
  for (int i = 0; i < argc && rc == EXIT_OK; i++) {
    const char *op = argv[i];
    uint32_t n = 0, addr = 0, got = 0;
    int need = !strcmp(op, "alloc") || !strcmp(op, "alloc2") ? 1 : !strncmp(op, "dealloc", 7) ? 2 : 0;
    if (strcmp(op, "alloc") && strcmp(op, "alloc2") && strcmp(op, "dealloc") && strcmp(op, "dealloc2") &&
        strcmp(op, "relinquish") && strcmp(op, "relinquish2") && strcmp(op, "exit")) {
      fprintf(stderr, "tc5 tmem run: unknown operation %s\n", op);
      rc = EXIT_USAGE;
      break;
    }
    if (need && i + need >= argc) {
      fprintf(stderr, "tc5 tmem run: %s needs %d argument%s\n", op, need, need == 1 ? "" : "s");
      rc = EXIT_USAGE;
      break;
    }
    if (need == 2 && !arg_u32(argv[++i], &addr)) {
      rc = EXIT_USAGE;
      break;
    }
    if (need && !arg_u32(argv[++i], &n)) {
      rc = EXIT_USAGE;
      break;
    }
    tc5_diag d;
    tc5_diag_init(&d);
    tc5_status st;
    if (!strcmp(op, "alloc")) st = tc5_tmem_alloc(&c0, n, &got, &d);
    else if (!strcmp(op, "alloc2")) st = tc5_tmem_alloc2(pair, n, &got, &d);
    else if (!strcmp(op, "dealloc")) st = tc5_tmem_dealloc(&c0, addr, n, &d);
    else if (!strcmp(op, "dealloc2")) st = tc5_tmem_dealloc2(pair, addr, n, &d);
    else if (!strcmp(op, "relinquish")) st = tc5_tmem_relinquish(&c0, &d);
    else if (!strcmp(op, "relinquish2")) st = tc5_tmem_relinquish2(pair, &d);
    else {
      st = tc5_tmem_exit(&c0, &d);
      if (c1.cta_group && !st) st = tc5_tmem_exit(&c1, &d);
    }
    if (st) {
      printf("%-12s %-10s ILLEGAL\n", op, need == 2 ? argv[i - 1] : need ? argv[i] : "");
      cli_print_diag(stdout, &d);
      rc = EXIT_RULES;
    } else {
      char held[160];
      tc5_tmem_held(&c0, NULL, held, sizeof held);
      if (!strncmp(op, "alloc", 5))
        printf("%-12s %-10u taddr 0x%08x; CTA 0 holds %s\n", op, n, got, held);
      else
        printf("%-12s %-10s ok; CTA 0 holds %s\n", op, need == 2 ? argv[i - 1] : "", held);
    }
  }
  tc5_tmem_free(&c0);
  tc5_tmem_free(&c1);
  return rc;
}

int cmd_tmem(int argc, char **argv) {
  if (argc >= 1 && !strcmp(argv[0], "map")) return cmd_map(argc - 1, argv + 1);
  if (argc >= 1 && !strcmp(argv[0], "run")) return cmd_tmem_run(argc - 1, argv + 1);
  bool h = argc >= 1 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"));
  map_usage(h ? stdout : stderr);
  return h ? EXIT_OK : EXIT_USAGE;
}
