/* tc5 CLI — `tc5 zcmask show|find`: the zero-column mask engine. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#include "tc5/zcmask.h"

static const cli_opt opts[] = {
    {"m", NULL, true, "M of the .ws MMA: 32, 64 or 128 (default 128)"},
    {"n", NULL, true, "N: columns of the mask (default 128; find: the mask's length)"},
    {"mask", NULL, true, "find: wanted mask, column 0 first, as 0/1 (or ./1) characters"},
    {"shift", "column-shift", true, "find: column shift to put in the descriptor (default 0)"},
    {"max-shift", NULL, true, "show: the idesc's .ws maximum shift in columns (0, 8, 16, 32) to check against"},
    {"json", NULL, false, "print JSON"},
};
#define NO ((int)(sizeof opts / sizeof opts[0]))

static void usage(FILE *f) {
  cli_help(f, "tc5 zcmask show DESC [--m M] [--n N] [--json]\n"
              "       tc5 zcmask find --mask BITS [--m M] [--shift S] [--json]",
           "show: the mask a zero-column mask descriptor (hex) generates for an M x N\n"
           "tcgen05.mma.ws, as rows of 1 (column of B reads as zero) and . (used),\n"
           "with column indices and the runs explained.\n"
           "find: the descriptor that generates exactly the wanted mask, or\n"
           "\"not representable\" with the first column that no descriptor can match\n"
           "(exit status 1).",
           opts, NO);
}

int cmd_zcmask(int argc, char **argv) {
  if (argc < 1 || (strcmp(argv[0], "show") && strcmp(argv[0], "find"))) {
    bool h = argc >= 1 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"));
    usage(h ? stdout : stderr);
    return h ? EXIT_OK : EXIT_USAGE;
  }
  cli_args a;
  if (!cli_parse(argc - 1, argv + 1, opts, NO, &a, "zcmask")) return EXIT_USAGE;
  if (a.help) {
    usage(stdout);
    return EXIT_OK;
  }
  bool json = cli_has(&a, opts, NO, "json");
  uint64_t m = 128, n = 128, shift = 0;
  if (cli_has(&a, opts, NO, "m") && !cli_opt_u64(&a, opts, NO, "m", 0, 1024, &m)) return EXIT_USAGE;
  if (cli_has(&a, opts, NO, "n") && !cli_opt_u64(&a, opts, NO, "n", 1, TC5_ZCMASK_MAX_N, &n))
    return EXIT_USAGE;
  static char buf[65536];
  tc5_diag dg;
  tc5_diag_init(&dg);
  if (!strcmp(argv[0], "show")) {
    if (a.npos != 1) {
      usage(stderr);
      return EXIT_USAGE;
    }
    uint64_t raw;
    if (!cli_hex(a.pos[0], &raw)) {
      fprintf(stderr, "tc5 zcmask show: '%s' is not a hexadecimal descriptor\n", a.pos[0]);
      return EXIT_USAGE;
    }
    tc5_zcmask_desc d;
    tc5_zcmask_desc_decode(raw, &d, &dg);
    tc5_zcmask_desc_check(&d, (unsigned)m, &dg);
    if (cli_has(&a, opts, NO, "max-shift")) {
      uint64_t ms;
      if (!cli_opt_u64(&a, opts, NO, "max-shift", 0, 32, &ms)) return EXIT_USAGE;
      tc5_idesc id;
      tc5_idesc_init(&id, TC5_KIND_F16);
      id.max_shift = ms == 0 ? 0 : ms <= 8 ? 1 : ms <= 16 ? 2 : 3;
      tc5_zcmask_check_shift(&d, &id, &dg);
    }
    if (tc5_zcmask_submasks((unsigned)m) == 0 || n % tc5_zcmask_submasks((unsigned)m)) {
      fprintf(stderr, "tc5 zcmask show: M %llu / N %llu: M is 32, 64 or 128 and N divisible by "
                      "its sub-masks\n", (unsigned long long)m, (unsigned long long)n);
      return EXIT_USAGE;
    }
    /* draw even when a rule is broken: the mask does not depend on it */
    tc5_zcmask_desc shown = d;
    shown.reserved_36_38 = shown.reserved_62_63 = 0;
    if (shown.column_shift > (m == 32 ? 16 : 32)) shown.column_shift = 0;
    tc5_status st = json ? tc5_zcmask_json(&shown, (unsigned)m, (unsigned)n, buf, sizeof buf, NULL)
                         : tc5_zcmask_explain(&shown, (unsigned)m, (unsigned)n, buf, sizeof buf, NULL);
    if (st != TC5_OK) {
      fprintf(stderr, "tc5 zcmask show: %s\n", tc5_strerror(st));
      return EXIT_RULES;
    }
    printf("%s%s", buf, json ? "\n" : "");
    if (dg.count) {
      fprintf(json ? stderr : stdout, "issues:\n");
      cli_print_diag(json ? stderr : stdout, &dg);
      return EXIT_RULES;
    }
    return EXIT_OK;
  }
  /* find */
  const char *ms = cli_get(&a, opts, NO, "mask");
  if (!ms || a.npos) {
    usage(stderr);
    return EXIT_USAGE;
  }
  tc5_colmask want;
  if (tc5_colmask_parse(ms, &want) != TC5_OK) {
    fprintf(stderr, "tc5 zcmask find: --mask is up to %u characters 0, 1 or .\n", TC5_ZCMASK_MAX_N);
    return EXIT_USAGE;
  }
  if (cli_has(&a, opts, NO, "n") && n != want.n) {
    fprintf(stderr, "tc5 zcmask find: --n %llu but the mask has %u columns\n",
            (unsigned long long)n, want.n);
    return EXIT_USAGE;
  }
  if (cli_has(&a, opts, NO, "shift") && !cli_opt_u64(&a, opts, NO, "shift", 0, 63, &shift))
    return EXIT_USAGE;
  tc5_zcmask_desc d;
  unsigned bad = 0;
  tc5_status st = tc5_zcmask_synthesize((unsigned)m, &want, (unsigned)shift, &d, &bad, &dg);
  if (st == TC5_ENOTREPR) {
    if (json) printf("{\"representable\":false,\"first_bad_column\":%u,\"reason\":\"%s\"}\n", bad,
                     dg.issue[0].message);
    else printf("not representable: no zero-column mask descriptor generates this mask\n"
                "first column that cannot match: %u\n  - %s\n", bad, dg.issue[0].message);
    return EXIT_RULES;
  }
  if (st != TC5_OK) {
    cli_print_diag(stderr, &dg);
    return EXIT_USAGE;
  }
  uint64_t raw;
  tc5_zcmask_desc_encode(&d, &raw, NULL);
  if (json) {
    tc5_zcmask_json(&d, (unsigned)m, want.n, buf, sizeof buf, NULL);
    printf("%s\n", buf);
  } else {
    printf("zcmask desc 0x%016llx\n", (unsigned long long)raw);
    tc5_zcmask_explain(&d, (unsigned)m, want.n, buf, sizeof buf, NULL);
    fputs(buf, stdout);
  }
  return EXIT_OK;
}
