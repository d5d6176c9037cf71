/* tc5 CLI — `tc5 fmt`: element formats (codes, values, conversions). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#include "tc5/formats.h"

static const cli_opt opts[] = {
    {"round", NULL, true, "convert: rn (default), rz, rp, rm, rna"},
    {"satfinite", NULL, false, "convert: saturate overflow to the largest finite value"},
    {"json", NULL, false, "print JSON"},
};
#define NO ((int)(sizeof opts / sizeof opts[0]))

static const tc5_type all_types[] = {TC5_F32, TC5_TF32, TC5_F16, TC5_BF16, TC5_E4M3, TC5_E5M2,
                                     TC5_E2M3, TC5_E3M2, TC5_E2M1, TC5_UE8M0, TC5_UE4M3,
                                     TC5_S8,  TC5_U8,   TC5_S32};

static void usage(FILE *f) {
  cli_help(f, "tc5 fmt show TYPE CODE [--json]\n"
              "       tc5 fmt convert VALUE [--round R] [--satfinite] [--json]\n"
              "       tc5 fmt table TYPE",
           "show: the exact value of a code (hex) of TYPE, its class and fields.\n"
           "convert: VALUE (decimal, hex float, inf, nan) in every type, as CUDA's\n"
           "conversions round it, with the exact value of each result.\n"
           "table: every code of a type of at most 8 bits.\n"
           "Types: f32 tf32 f16 bf16 e4m3 e5m2 e2m3 e3m2 e2m1 ue8m0 ue4m3 s8 u8 s32.",
           opts, NO);
}

/* exact decimal of a double (every double is a finite decimal) */
static void exact(double v, char *buf, size_t cap) {
  if (isnan(v)) {
    snprintf(buf, cap, "NaN");
    return;
  }
  if (isinf(v)) {
    snprintf(buf, cap, v > 0 ? "inf" : "-inf");
    return;
  }
  snprintf(buf, cap, "%.1100f", v);
  char *dot = strchr(buf, '.');
  if (dot) {
    char *e = buf + strlen(buf) - 1;
    while (e > dot && *e == '0') *e-- = '\0';
    if (e == dot) *e = '\0';
  }
}

static int show(tc5_type t, uint32_t code, bool json) {
  double v;
  tc5_fclass c;
  tc5_status st = tc5_fmt_decode(t, code, &v, &c);
  if (st != TC5_OK) {
    fprintf(stderr, "tc5 fmt show: code 0x%x does not fit %s (%u bits)\n", code,
            tc5_type_name(t), tc5_type_bits(t));
    return EXIT_USAGE;
  }
  static char dec[1200];
  exact(v, dec, sizeof dec);
  tc5_fmt_fields f;
  bool fl = tc5_fmt_fields_of(t, code, &f) == TC5_OK;
  if (json) {
    printf("{\"type\":\"%s\",\"code\":\"0x%x\",\"value\":\"%s\",\"hex\":\"%a\",\"class\":\"%s\"", tc5_type_name(t),
           code, dec, v, tc5_fclass_name(c));
    if (fl) printf(",\"sign\":%u,\"exponent\":%u,\"mantissa\":%u,\"unbiased_exponent\":%d", f.sign,
                   f.exponent, f.mantissa, f.unbiased);
    printf("}\n");
    return EXIT_OK;
  }
  printf("%s 0x%x\n  value    : %s\n  hex      : %a\n  class    : %s\n", tc5_type_name(t), code, dec, v,
         tc5_fclass_name(c));
  if (fl) {
    printf("  sign     : %u\n  exponent : %u (field, %u bits, bias %d; 2^%d)\n  mantissa : %u (%u bits)\n",
           f.sign, f.exponent, f.exp_bits, f.bias, f.unbiased, f.mantissa, f.man_bits);
    if (t == TC5_TF32) printf("  note     : tf32 in its f32 container; the low 13 bits are ignored\n");
    if (t == TC5_UE4M3) printf("  note     : ue4m3 has no sign: bit 7 is ignored\n");
  }
  return EXIT_OK;
}

static int convert(const char *text, tc5_round r, bool sat, bool json) {
  char *end;
  double x = strtod(text, &end);
  if (*end || end == text) {
    fprintf(stderr, "tc5 fmt convert: '%s' is not a number\n", text);
    return EXIT_USAGE;
  }
  static char dec[1200];
  if (json) printf("{\"input\":\"%s\",\"round\":\"%s\",\"satfinite\":%s,\"results\":[", text,
                   tc5_round_name(r), sat ? "true" : "false");
  else printf("%s (%a), round %s%s:\n", text, x, tc5_round_name(r), sat ? ", satfinite" : "");
  bool first = true;
  for (size_t i = 0; i < sizeof all_types / sizeof all_types[0]; i++) {
    tc5_type t = all_types[i];
    uint32_t code;
    tc5_status st = tc5_fmt_encode(t, x, r, sat, &code);
    if (json) printf("%s{\"type\":\"%s\"", first ? "" : ",", tc5_type_name(t));
    first = false;
    if (st == TC5_EUNSUPPORTED) {
      if (json) printf(",\"code\":null}");
      else printf("  %-6s  (no %s conversion)\n", tc5_type_name(t), tc5_round_name(r));
      continue;
    }
    double v;
    tc5_fclass c;
    tc5_fmt_decode(t, code, &v, &c);
    exact(v, dec, sizeof dec);
    if (json) printf(",\"code\":\"0x%x\",\"value\":\"%s\",\"class\":\"%s\"}", code, dec, tc5_fclass_name(c));
    else printf("  %-6s  0x%0*x  %s%s\n", tc5_type_name(t), (int)((tc5_type_bits(t) + 3) / 4), code, dec,
                v == x || (isnan(v) && isnan(x)) ? "" : "  (rounded)");
  }
  if (json) printf("]}\n");
  return EXIT_OK;
}

static int table(tc5_type t) {
  unsigned bits = tc5_type_bits(t);
  if (bits > 8) {
    fprintf(stderr, "tc5 fmt table: %s has %u bits; tables are for types of at most 8 bits\n",
            tc5_type_name(t), bits);
    return EXIT_USAGE;
  }
  static char dec[1200];
  printf("%-6s %-24s %s\n", "code", "value", "class");
  for (uint32_t c = 0; c < (1u << bits); c++) {
    double v;
    tc5_fclass k;
    tc5_fmt_decode(t, c, &v, &k);
    exact(v, dec, sizeof dec);
    printf("0x%02x   %-24s %s\n", c, dec, tc5_fclass_name(k));
  }
  return EXIT_OK;
}

int cmd_fmt(int argc, char **argv) {
  if (argc < 1 || (strcmp(argv[0], "show") && strcmp(argv[0], "convert") && strcmp(argv[0], "table"))) {
    bool h = argc >= 1 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"));
    usage(h ? stdout : stderr);
    return h ? EXIT_OK : EXIT_USAGE;
  }
  cli_args a;
  if (!cli_parse(argc - 1, argv + 1, opts, NO, &a, "fmt")) return EXIT_USAGE;
  if (a.help) {
    usage(stdout);
    return EXIT_OK;
  }
  bool json = cli_has(&a, opts, NO, "json");
  if (!strcmp(argv[0], "convert")) {
    if (a.npos != 1) {
      usage(stderr);
      return EXIT_USAGE;
    }
    tc5_round r = TC5_ROUND_RN;
    const char *rs = cli_get(&a, opts, NO, "round");
    if (rs && tc5_round_parse(rs, &r) != TC5_OK) {
      fprintf(stderr, "tc5 fmt convert: --round is rn, rz, rp, rm or rna\n");
      return EXIT_USAGE;
    }
    return convert(a.pos[0], r, cli_has(&a, opts, NO, "satfinite"), json);
  }
  size_t want = !strcmp(argv[0], "show") ? 2 : 1;
  if ((size_t)a.npos != want) {
    usage(stderr);
    return EXIT_USAGE;
  }
  tc5_type t;
  if (tc5_type_parse(a.pos[0], &t) != TC5_OK) {
    fprintf(stderr, "tc5 fmt: unknown type '%s'\n", a.pos[0]);
    return EXIT_USAGE;
  }
  if (!strcmp(argv[0], "table")) return table(t);
  uint64_t code;
  if (!cli_hex(a.pos[1], &code) || code > 0xFFFFFFFFu) {
    fprintf(stderr, "tc5 fmt show: '%s' is not a hexadecimal code\n", a.pos[1]);
    return EXIT_USAGE;
  }
  return show(t, (uint32_t)code, json);
}
