/* tc5 CLI — `tc5 desc`: decode, encode and check the three matrix
 * descriptors of spec 9.7.16.4. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#include "tc5/descriptors.h"

#define N_(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const cli_opt decode_opts[] = {
    {"kind", NULL, true, "idesc: layout to decode with (f16, tf32, f8f6f4, i8, mxf8f6f4, mxf4, mxf4nvf4); guessed when absent"},
    {"m", NULL, true, "zcmask: M (32, 64, 128) for the column-shift limit"},
    {"json", NULL, false, "print JSON"},
};

static const cli_opt smem_opts[] = {
    {"start-address", "start", true, "matrix start address, bytes (16-byte aligned, < 2^18)"},
    {"leading-byte-offset", "lbo", true, "leading dimension byte offset (or absolute address), bytes"},
    {"stride-byte-offset", "sbo", true, "stride dimension byte offset, bytes"},
    {"base-offset", NULL, true, "matrix base offset, 0..7"},
    {"pattern-start", NULL, true, "address where the swizzle pattern starts: computes the base offset (Table 41)"},
    {"leading-mode", NULL, true, "relative (default) or absolute (sm_103a)"},
    {"swizzle", NULL, true, "none, 128B_base32B, 128B, 64B, 32B (or the code 0,1,2,4,6)"},
    {"json", NULL, false, "print JSON"},
};

static const cli_opt idesc_opts[] = {
    {"kind", NULL, true, "f16, tf32, f8f6f4, i8, mxf8f6f4, mxf4, mxf4nvf4 (required)"},
    {"atype", NULL, true, "type of A (f16, bf16, tf32, e4m3, e5m2, e2m3, e3m2, e2m1, s8, u8)"},
    {"btype", NULL, true, "type of B"},
    {"dtype", NULL, true, "type of D (f16, f32, s32); f32 for the mx kinds"},
    {"m", NULL, true, "M"},
    {"n", NULL, true, "N"},
    {"sparse", NULL, false, "sparsity = 1"},
    {"sparsity-selector", NULL, true, "sparsity selector 0..3"},
    {"saturate", NULL, false, "saturate (integer kinds)"},
    {"negate-a", NULL, false, "negate A"},
    {"negate-b", NULL, false, "negate B"},
    {"transpose-a", NULL, false, "transpose A (A is M-major)"},
    {"transpose-b", NULL, false, "transpose B (B is N-major)"},
    {"a-major", NULL, true, "K or MN (same as --transpose-a for MN)"},
    {"b-major", NULL, true, "K or MN (same as --transpose-b for MN)"},
    {"max-shift", NULL, true, ".ws maximum shift in columns: 0, 8, 16, 32"},
    {"scale-type", NULL, true, "mx kinds: ue8m0 or ue4m3"},
    {"sfa-id", NULL, true, "A scale factor ID 0..3"},
    {"sfb-id", NULL, true, "B scale factor ID 0..3"},
    {"k96", NULL, false, "mxf4/mxf4nvf4: dense K = 96 (bit 31)"},
    {"json", NULL, false, "print JSON"},
};

static const cli_opt zcmask_opts[] = {
    {"start-count", "sc", true, "sc0,sc1,sc2,sc3 (a single value sets sc0)"},
    {"first-span", "fs", true, "fs0,fs1,fs2,fs3 (0 or 1 each)"},
    {"non-zero", NULL, true, "non-zero mask flag 0/1 (default 1)"},
    {"skip-span", NULL, true, "skip span field: (run of zeroed columns) - 1"},
    {"use-span", NULL, true, "use span field: (run of used columns) - 1"},
    {"column-shift", "shift", true, "column shift 0..32"},
    {"m", NULL, true, "M (32, 64, 128) to check the column-shift limit"},
    {"json", NULL, false, "print JSON"},
};

static const cli_opt check_opts[] = {
    {"variant", NULL, true, "PTX opcode, e.g. \"tcgen05.mma.cta_group::1.kind::f16\""},
    {"arch", NULL, true, "sm_100a (default) or sm_103a"},
    {"json", NULL, false, "print JSON"},
};

static void desc_usage(FILE *f) {
  fprintf(f,
          "usage: tc5 desc decode smem|idesc|zcmask VALUE [--kind K] [--m M] [--json]\n"
          "       tc5 desc encode smem|idesc|zcmask --FIELD VALUE ... [--json]\n"
          "       tc5 desc check idesc VALUE --variant OPCODE [--arch A] [--json]\n"
          "\n"
          "The three matrix descriptors of tcgen05 (PTX ISA 9.7.16.4): the shared\n"
          "memory descriptor (Table 40), the instruction descriptor (Tables 42-44)\n"
          "and the zero-column mask descriptor (Table 45). VALUE is hexadecimal\n"
          "(0x optional). decode prints every field and every rule the value\n"
          "breaks; encode builds a descriptor from fields named after the spec;\n"
          "check says whether an instruction descriptor is legal for a\n"
          "tcgen05.mma variant (Tables 39, 49, 50, 54, 55).\n"
          "Exit status: 0 valid/legal, 1 rules broken, 2 usage error.\n"
          "See: tc5 desc decode --help, tc5 desc encode smem|idesc|zcmask --help,\n"
          "     tc5 desc check --help\n");
}

static int finish(tc5_status st, const tc5_diag *dg, bool json, const char *text) {
  fputs(text, stdout);
  if (!json) {
    if (dg->count) {
      printf("issues:\n");
      cli_print_diag(stdout, dg);
    } else {
      printf("valid: every field follows its rule\n");
    }
  }
  return (st == TC5_OK && dg->count == 0) ? EXIT_OK : EXIT_RULES;
}

/* ---- decode ---------------------------------------------------------------- */

static int do_decode(const char *what, const char *value, const cli_args *a) {
  const cli_opt *o = decode_opts;
  int no = N_(decode_opts);
  bool json = cli_has(a, o, no, "json");
  uint64_t raw;
  if (!cli_hex(value, &raw)) {
    fprintf(stderr, "tc5 desc decode: '%s' is not a hexadecimal value\n", value);
    return EXIT_USAGE;
  }
  static char buf[16384];
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_status st;
  if (!strcmp(what, "smem")) {
    tc5_smem_desc d;
    st = tc5_smem_desc_decode(raw, &d, &dg);
    if (json) tc5_smem_desc_json(&d, raw, &dg, buf, sizeof buf, NULL);
    else {
      printf("smem desc 0x%016llx\n", (unsigned long long)raw);
      tc5_smem_desc_describe(&d, buf, sizeof buf, NULL);
    }
  } else if (!strcmp(what, "idesc")) {
    if (raw > 0xFFFFFFFFu) {
      fprintf(stderr, "tc5 desc decode: instruction descriptors are 32 bits; 0x%llx is wider\n",
              (unsigned long long)raw);
      return EXIT_USAGE;
    }
    tc5_kind kind;
    bool certain = true;
    const char *ks = cli_get(a, o, no, "kind");
    if (ks) {
      if (tc5_kind_parse(ks, &kind) != TC5_OK) {
        fprintf(stderr, "tc5 desc decode: unknown kind '%s'\n", ks);
        return EXIT_USAGE;
      }
    } else {
      tc5_idesc_guess_kind((uint32_t)raw, &kind, &certain);
    }
    tc5_idesc d;
    st = tc5_idesc_decode((uint32_t)raw, kind, &d, &dg);
    if (json) tc5_idesc_json(&d, raw, &dg, buf, sizeof buf, NULL);
    else {
      printf("idesc 0x%08llx\n", (unsigned long long)raw);
      if (!ks)
        printf("note: no --kind given; decoded as .kind::%s (%s)\n", tc5_kind_name(kind),
               certain ? "the type codes say so"
                       : "guessed: f16, f8f6f4, i8 and mx kinds share these codes; pass --kind");
      tc5_idesc_describe(&d, buf, sizeof buf, NULL);
    }
  } else if (!strcmp(what, "zcmask")) {
    tc5_zcmask_desc d;
    uint64_t m = 0;
    if (cli_has(a, o, no, "m") && !cli_opt_u64(a, o, no, "m", 0, 1024, &m)) return EXIT_USAGE;
    st = tc5_zcmask_desc_decode(raw, &d, &dg);
    if (m) {
      tc5_diag_init(&dg);
      st = tc5_zcmask_desc_check(&d, (unsigned)m, &dg);
    }
    if (json) tc5_zcmask_desc_json(&d, raw, &dg, buf, sizeof buf, NULL);
    else {
      printf("zcmask desc 0x%016llx\n", (unsigned long long)raw);
      tc5_zcmask_desc_describe(&d, buf, sizeof buf, NULL);
    }
  } else {
    fprintf(stderr, "tc5 desc decode: unknown descriptor '%s' (smem, idesc, zcmask)\n", what);
    return EXIT_USAGE;
  }
  if (json) strcat(buf, "\n");
  return finish(st, &dg, json, buf);
}

/* ---- encode ---------------------------------------------------------------- */

static bool get_u8(const cli_args *a, const cli_opt *o, int no, const char *name,
                   unsigned hi, uint8_t *out) {
  uint64_t v;
  if (!cli_has(a, o, no, name)) return true;
  if (!cli_opt_u64(a, o, no, name, 0, hi, &v)) return false;
  *out = (uint8_t)v;
  return true;
}

static bool get_list4(const cli_args *a, const cli_opt *o, int no, const char *name,
                      unsigned hi, uint8_t out[4]) {
  const char *s = cli_get(a, o, no, name);
  if (!s) return true;
  char tmp[128];
  snprintf(tmp, sizeof tmp, "%s", s);
  char *save = NULL;
  int i = 0;
  for (char *t = strtok_r(tmp, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    uint64_t v;
    if (i >= 4 || !cli_u64(t, &v) || v > hi) {
      fprintf(stderr, "tc5 desc encode: --%s '%s' is not up to 4 comma-separated values <= %u\n",
              name, s, hi);
      return false;
    }
    out[i++] = (uint8_t)v;
  }
  return true;
}

static int encode_smem(const cli_args *a) {
  const cli_opt *o = smem_opts;
  int no = N_(smem_opts);
  bool json = cli_has(a, o, no, "json");
  tc5_smem_desc d;
  tc5_smem_desc_init(&d);
  uint64_t v;
  /* Out-of-window values are passed through so that encode reports them. */
  if (cli_has(a, o, no, "start-address")) {
    if (!cli_opt_u64(a, o, no, "start-address", 0, 0xFFFFFFFFu, &v)) return EXIT_USAGE;
    d.start_address = (uint32_t)v;
  }
  if (cli_has(a, o, no, "leading-byte-offset")) {
    if (!cli_opt_u64(a, o, no, "leading-byte-offset", 0, 0xFFFFFFFFu, &v)) return EXIT_USAGE;
    d.lbo = (uint32_t)v;
  }
  if (cli_has(a, o, no, "stride-byte-offset")) {
    if (!cli_opt_u64(a, o, no, "stride-byte-offset", 0, 0xFFFFFFFFu, &v)) return EXIT_USAGE;
    d.sbo = (uint32_t)v;
  }
  if (!get_u8(a, o, no, "base-offset", 255, &d.base_offset)) return EXIT_USAGE;
  const char *sw = cli_get(a, o, no, "swizzle");
  if (sw) {
    tc5_swizzle m;
    uint64_t code;
    if (tc5_swizzle_parse(sw, &m) == TC5_OK) d.swizzle = (uint8_t)m;
    else if (cli_u64(sw, &code) && code < 256) d.swizzle = (uint8_t)code; /* reserved: reported */
    else {
      fprintf(stderr, "tc5 desc encode: unknown swizzle '%s'\n", sw);
      return EXIT_USAGE;
    }
  }
  const char *lm = cli_get(a, o, no, "leading-mode");
  if (lm) {
    if (!strcmp(lm, "relative") || !strcmp(lm, "0")) d.lbo_mode = 0;
    else if (!strcmp(lm, "absolute") || !strcmp(lm, "1")) d.lbo_mode = 1;
    else {
      fprintf(stderr, "tc5 desc encode: --leading-mode is relative or absolute\n");
      return EXIT_USAGE;
    }
  }
  if (cli_has(a, o, no, "pattern-start")) {
    if (!cli_opt_u64(a, o, no, "pattern-start", 0, 0xFFFFFFFFu, &v)) return EXIT_USAGE;
    if (!tc5_swizzle_is_valid(d.swizzle)) {
      fprintf(stderr, "tc5 desc encode: --pattern-start needs a valid --swizzle\n");
      return EXIT_USAGE;
    }
    uint8_t bo;
    tc5_smem_base_offset((uint32_t)v, (tc5_swizzle)d.swizzle, &bo);
    if (cli_has(a, o, no, "base-offset") && bo != d.base_offset) {
      fprintf(stderr, "tc5 desc encode: --base-offset %u contradicts --pattern-start 0x%llx "
                      "(Table 41 gives %u)\n", d.base_offset, (unsigned long long)v, bo);
      return EXIT_RULES;
    }
    d.base_offset = bo;
  }
  tc5_diag dg;
  tc5_diag_init(&dg);
  uint64_t raw = 0;
  tc5_status st = tc5_smem_desc_encode(&d, &raw, &dg);
  static char buf[16384];
  if (json) {
    tc5_smem_desc_json(&d, raw, &dg, buf, sizeof buf, NULL);
    strcat(buf, "\n");
  } else {
    if (st == TC5_OK) printf("smem desc 0x%016llx\n", (unsigned long long)raw);
    else printf("smem desc: not encoded\n");
    tc5_smem_desc_describe(&d, buf, sizeof buf, NULL);
  }
  return finish(st, &dg, json, buf);
}

static bool parse_type_opt(const cli_args *a, const cli_opt *o, int no, const char *name,
                           tc5_type *t) {
  const char *s = cli_get(a, o, no, name);
  if (!s) return true;
  if (tc5_type_parse(s, t) != TC5_OK) {
    fprintf(stderr, "tc5 desc encode: --%s: unknown type '%s'\n", name, s);
    return false;
  }
  return true;
}

static bool major_opt(const cli_args *a, const cli_opt *o, int no, const char *name,
                      uint8_t *bit) {
  const char *s = cli_get(a, o, no, name);
  if (!s) return true;
  if (!strcmp(s, "K")) *bit = 0;
  else if (!strcmp(s, "MN") || !strcmp(s, "M") || !strcmp(s, "N")) *bit = 1;
  else {
    fprintf(stderr, "tc5 desc encode: --%s is K or MN\n", name);
    return false;
  }
  return true;
}

static int encode_idesc(const cli_args *a) {
  const cli_opt *o = idesc_opts;
  int no = N_(idesc_opts);
  bool json = cli_has(a, o, no, "json");
  const char *ks = cli_get(a, o, no, "kind");
  tc5_kind kind;
  if (!ks || tc5_kind_parse(ks, &kind) != TC5_OK) {
    fprintf(stderr, "tc5 desc encode idesc: --kind is required (f16, tf32, f8f6f4, i8, "
                    "mxf8f6f4, mxf4, mxf4nvf4)\n");
    return EXIT_USAGE;
  }
  tc5_idesc d;
  tc5_idesc_init(&d, kind);
  tc5_type at = TC5_TYPE_NONE, bt = TC5_TYPE_NONE, dt = TC5_TYPE_NONE;
  if (!parse_type_opt(a, o, no, "atype", &at) || !parse_type_opt(a, o, no, "btype", &bt) ||
      !parse_type_opt(a, o, no, "dtype", &dt))
    return EXIT_USAGE;
  if (bt == TC5_TYPE_NONE) bt = at;
  if (at != TC5_TYPE_NONE) {
    if (tc5_idesc_set_types(&d, at, bt, dt) != TC5_OK) {
      fprintf(stderr, "tc5 desc encode idesc: .kind::%s has no code for atype %s / btype %s "
                      "/ dtype %s (Tables 42-44)\n", tc5_kind_name(kind), tc5_type_name(at),
              tc5_type_name(bt), tc5_type_name(dt));
      return EXIT_RULES;
    }
  }
  uint64_t v;
  if (cli_has(a, o, no, "m")) {
    if (!cli_opt_u64(a, o, no, "m", 0, 65535, &v)) return EXIT_USAGE;
    d.m = (uint16_t)v;
  }
  if (cli_has(a, o, no, "n")) {
    if (!cli_opt_u64(a, o, no, "n", 0, 65535, &v)) return EXIT_USAGE;
    d.n = (uint16_t)v;
  }
  d.sparse = cli_has(a, o, no, "sparse");
  d.saturate = cli_has(a, o, no, "saturate");
  d.negate_a = cli_has(a, o, no, "negate-a");
  d.negate_b = cli_has(a, o, no, "negate-b");
  d.transpose_a = cli_has(a, o, no, "transpose-a");
  d.transpose_b = cli_has(a, o, no, "transpose-b");
  d.k96 = cli_has(a, o, no, "k96");
  if (!major_opt(a, o, no, "a-major", &d.transpose_a) ||
      !major_opt(a, o, no, "b-major", &d.transpose_b))
    return EXIT_USAGE;
  if (!get_u8(a, o, no, "sparsity-selector", 255, &d.sparse_selector) ||
      !get_u8(a, o, no, "sfa-id", 255, &d.sfa_id) || !get_u8(a, o, no, "sfb-id", 255, &d.sfb_id))
    return EXIT_USAGE;
  if (cli_has(a, o, no, "max-shift")) {
    if (!cli_opt_u64(a, o, no, "max-shift", 0, 32, &v)) return EXIT_USAGE;
    if (v == 0) d.max_shift = 0;
    else if (v == 8) d.max_shift = 1;
    else if (v == 16) d.max_shift = 2;
    else if (v == 32) d.max_shift = 3;
    else {
      fprintf(stderr, "tc5 desc encode idesc: --max-shift is 0, 8, 16 or 32 columns\n");
      return EXIT_USAGE;
    }
  }
  const char *sc = cli_get(a, o, no, "scale-type");
  if (sc) {
    if (!strcmp(sc, "ue8m0")) d.scale_type = 1;
    else if (!strcmp(sc, "ue4m3")) d.scale_type = 0;
    else {
      fprintf(stderr, "tc5 desc encode idesc: --scale-type is ue8m0 or ue4m3\n");
      return EXIT_USAGE;
    }
  }
  tc5_diag dg;
  tc5_diag_init(&dg);
  uint32_t raw = 0;
  tc5_status st = tc5_idesc_encode(&d, &raw, &dg);
  static char buf[16384];
  if (json) {
    tc5_idesc_json(&d, raw, &dg, buf, sizeof buf, NULL);
    strcat(buf, "\n");
  } else {
    if (st == TC5_OK) printf("idesc 0x%08x\n", raw);
    else printf("idesc: not encoded\n");
    tc5_idesc_describe(&d, buf, sizeof buf, NULL);
  }
  return finish(st, &dg, json, buf);
}

static int encode_zcmask(const cli_args *a) {
  const cli_opt *o = zcmask_opts;
  int no = N_(zcmask_opts);
  bool json = cli_has(a, o, no, "json");
  tc5_zcmask_desc d;
  tc5_zcmask_desc_init(&d);
  d.non_zero = 1;
  if (!get_list4(a, o, no, "start-count", 255, d.start_count) ||
      !get_list4(a, o, no, "first-span", 255, d.first_span) ||
      !get_u8(a, o, no, "non-zero", 255, &d.non_zero) ||
      !get_u8(a, o, no, "skip-span", 255, &d.skip_span) ||
      !get_u8(a, o, no, "use-span", 255, &d.use_span) ||
      !get_u8(a, o, no, "column-shift", 255, &d.column_shift))
    return EXIT_USAGE;
  uint64_t m = 0;
  if (cli_has(a, o, no, "m") && !cli_opt_u64(a, o, no, "m", 0, 1024, &m)) return EXIT_USAGE;
  tc5_diag dg;
  tc5_diag_init(&dg);
  uint64_t raw = 0;
  tc5_status st = tc5_zcmask_desc_encode(&d, &raw, &dg);
  if (st == TC5_OK && m) st = tc5_zcmask_desc_check(&d, (unsigned)m, &dg);
  static char buf[16384];
  if (json) {
    tc5_zcmask_desc_json(&d, raw, &dg, buf, sizeof buf, NULL);
    strcat(buf, "\n");
  } else {
    if (tc5_diag_first(&dg) == TC5_OK) printf("zcmask desc 0x%016llx\n", (unsigned long long)raw);
    else printf("zcmask desc: not encoded\n");
    tc5_zcmask_desc_describe(&d, buf, sizeof buf, NULL);
  }
  return finish(st, &dg, json, buf);
}

/* ---- check ------------------------------------------------------------------ */

static int do_check(const char *what, const char *value, const cli_args *a) {
  const cli_opt *o = check_opts;
  int no = N_(check_opts);
  bool json = cli_has(a, o, no, "json");
  if (strcmp(what, "idesc") != 0) {
    fprintf(stderr, "tc5 desc check: only 'idesc' is checked against a variant\n");
    return EXIT_USAGE;
  }
  uint64_t raw;
  if (!cli_hex(value, &raw) || raw > 0xFFFFFFFFu) {
    fprintf(stderr, "tc5 desc check: '%s' is not a 32-bit hexadecimal value\n", value);
    return EXIT_USAGE;
  }
  const char *vs = cli_get(a, o, no, "variant");
  if (!vs) {
    fprintf(stderr, "tc5 desc check: --variant is required, e.g. "
                    "--variant \"tcgen05.mma.cta_group::1.kind::f16\"\n");
    return EXIT_USAGE;
  }
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_mma_variant v;
  tc5_status st = tc5_mma_variant_parse(vs, &v, &dg);
  if (st == TC5_EPARSE || st == TC5_EINVAL) {
    fprintf(stderr, "tc5 desc check: cannot parse the variant:\n");
    cli_print_diag(stderr, &dg);
    return EXIT_USAGE;
  }
  const char *as = cli_get(a, o, no, "arch");
  if (as && tc5_arch_parse(as, &v.arch) != TC5_OK) {
    fprintf(stderr, "tc5 desc check: unknown arch '%s' (sm_100a, sm_103a)\n", as);
    return EXIT_USAGE;
  }
  tc5_diag_init(&dg);
  tc5_idesc d;
  tc5_idesc_decode((uint32_t)raw, v.kind, &d, NULL);
  st = tc5_idesc_check(&d, &v, &dg);
  static char buf[16384];
  if (json) {
    tc5_idesc_json(&d, raw, &dg, buf, sizeof buf, NULL);
    printf("%s\n", buf);
    return st == TC5_OK && dg.count == 0 ? EXIT_OK : EXIT_RULES;
  }
  char vt[256];
  tc5_mma_variant_format(&v, vt, sizeof vt, NULL);
  printf("idesc 0x%08llx for %s (%s)\n", (unsigned long long)raw, vt, tc5_arch_name(v.arch));
  tc5_idesc_describe(&d, buf, sizeof buf, NULL);
  fputs(buf, stdout);
  if (dg.count) {
    printf("ILLEGAL: %u rule%s broken:\n", dg.total, dg.total == 1 ? "" : "s");
    cli_print_diag(stdout, &dg);
    return EXIT_RULES;
  }
  printf("LEGAL\n");
  return EXIT_OK;
}

int cmd_desc(int argc, char **argv) {
  if (argc < 1 || !strcmp(argv[0], "--help") || !strcmp(argv[0], "-h")) {
    desc_usage(argc < 1 ? stderr : stdout);
    return argc < 1 ? EXIT_USAGE : EXIT_OK;
  }
  const char *verb = argv[0];
  const char *what = argc > 1 ? argv[1] : NULL;
  cli_args a;
  if (!strcmp(verb, "decode")) {
    if (!cli_parse(argc - 1, argv + 1, decode_opts, N_(decode_opts), &a, "desc decode"))
      return EXIT_USAGE;
    if (a.help || a.npos != 2) {
      cli_help(a.help ? stdout : stderr, "tc5 desc decode smem|idesc|zcmask VALUE [options]",
               "Decodes a descriptor (VALUE in hex) and reports every rule it breaks.",
               decode_opts, N_(decode_opts));
      return a.help ? EXIT_OK : EXIT_USAGE;
    }
    return do_decode(a.pos[0], a.pos[1], &a);
  }
  if (!strcmp(verb, "encode")) {
    const cli_opt *o = NULL;
    int no = 0;
    if (what && !strcmp(what, "smem")) o = smem_opts, no = N_(smem_opts);
    else if (what && !strcmp(what, "idesc")) o = idesc_opts, no = N_(idesc_opts);
    else if (what && !strcmp(what, "zcmask")) o = zcmask_opts, no = N_(zcmask_opts);
    if (!o) {
      if (what && (!strcmp(what, "--help") || !strcmp(what, "-h"))) {
        desc_usage(stdout);
        return EXIT_OK;
      }
      fprintf(stderr, "usage: tc5 desc encode smem|idesc|zcmask --FIELD VALUE ...\n");
      return EXIT_USAGE;
    }
    if (!cli_parse(argc - 2, argv + 2, o, no, &a, "desc encode")) return EXIT_USAGE;
    if (a.help || a.npos) {
      char usage[64];
      snprintf(usage, sizeof usage, "tc5 desc encode %s [options]", what);
      cli_help(a.help ? stdout : stderr, usage,
               "Builds a descriptor from its fields (units: bytes and elements).", o, no);
      return a.help ? EXIT_OK : EXIT_USAGE;
    }
    if (o == smem_opts) return encode_smem(&a);
    if (o == idesc_opts) return encode_idesc(&a);
    return encode_zcmask(&a);
  }
  if (!strcmp(verb, "check")) {
    if (!cli_parse(argc - 1, argv + 1, check_opts, N_(check_opts), &a, "desc check"))
      return EXIT_USAGE;
    if (a.help || a.npos != 2) {
      cli_help(a.help ? stdout : stderr, "tc5 desc check idesc VALUE --variant OPCODE [options]",
               "Is this instruction descriptor legal for this tcgen05.mma variant?\n"
               "Exit status 0 when legal; 1 with every broken rule printed when not.",
               check_opts, N_(check_opts));
      return a.help ? EXIT_OK : EXIT_USAGE;
    }
    return do_check(a.pos[0], a.pos[1], &a);
  }
  fprintf(stderr, "tc5 desc: unknown verb '%s' (decode, encode, check)\n", verb);
  return EXIT_USAGE;
}
