/* tc5 CLI — `tc5 layout`: where the elements of an MMA operand live in
 * shared memory (canonical layouts, 9.7.16.3.3 / 9.7.16.10.6). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#include "tc5/layout.h"

static const cli_opt opts[] = {
    {"desc", NULL, true, "shared memory descriptor (hex); or give it as the first argument"},
    {"type", NULL, true, "element type: f16, bf16, tf32, e4m3, e5m2, e2m3, e3m2, e2m1, s8, u8"},
    {"major", NULL, true, "K or MN (M-major A / N-major B: the idesc transpose bit set)"},
    {"kind", NULL, true, "MMA kind, for the packing of fp4/fp6 (default: f8f6f4 padding)"},
    {"rows", "mn", true, "elements along M (A) or N (B) (default 64)"},
    {"k", NULL, true, "elements along K (default: 32 bytes' worth)"},
    {"at", NULL, true, "addr: the element mn,k"},
    {"swizzle", NULL, true, "canonical: none, 32B, 64B, 128B, 128B_base32B"},
    {"start", NULL, true, "canonical: start address (default 0)"},
    {"smem", NULL, true, "check: bytes of shared memory (default 232448)"},
};
#define NO ((int)(sizeof opts / sizeof opts[0]))

static void usage(FILE *f) {
  cli_help(f,
           "tc5 layout show|draw|check DESC --type T --major K|MN [--rows R] [--k K]\n"
           "       tc5 layout addr DESC --type T --major K|MN --at MN,K\n"
           "       tc5 layout canonical --swizzle SW --type T --major K|MN [--rows R] [--k K] [--start A]",
           "show: the layout as text (matrix of 16-byte chunks with address and bank\n"
           "group; memory lines of 128 bytes with the element each chunk holds).\n"
           "draw: the same as SVG on standard output.\n"
           "addr: the byte (and bit) of one element.\n"
           "check: every rule for reading R x K elements through the descriptor (exit 1\n"
           "when one is broken).\n"
           "canonical: the descriptor of a compact canonical layout (CuTe's\n"
           "make_umma_desc of tile_to_shape(Layout_*_Atom)).",
           opts, NO);
}

static bool operand(const cli_args *a, tc5_operand *op) {
  const char *t = cli_get(a, opts, NO, "type"), *mj = cli_get(a, opts, NO, "major");
  const char *kn = cli_get(a, opts, NO, "kind");
  tc5_type type;
  tc5_major major;
  if (!t || tc5_type_parse(t, &type) != TC5_OK) {
    fprintf(stderr, "tc5 layout: --type: '%s' is not a type\n", t ? t : "");
    return false;
  }
  if (!mj || tc5_major_parse(mj, &major) != TC5_OK) {
    fprintf(stderr, "tc5 layout: --major: '%s' is not K or MN\n", mj ? mj : "");
    return false;
  }
  tc5_kind kind;
  if (kn) {
    if (tc5_kind_parse(kn, &kind) != TC5_OK) {
      fprintf(stderr, "tc5 layout: --kind: '%s' is not an MMA kind\n", kn);
      return false;
    }
  } else {
    kind = type == TC5_F16 || type == TC5_BF16 ? TC5_KIND_F16
           : type == TC5_TF32                  ? TC5_KIND_TF32
           : type == TC5_S8 || type == TC5_U8  ? TC5_KIND_I8
                                               : TC5_KIND_F8F6F4;
  }
  if (tc5_operand_for(kind, type, major, op) != TC5_OK) {
    fprintf(stderr, "tc5 layout: .kind::%s has no %s operand\n", tc5_kind_name(kind), tc5_type_name(type));
    return false;
  }
  return true;
}

int cmd_layout(int argc, char **argv) {
  static const char *subs[] = {"show", "draw", "addr", "check", "canonical"};
  int sub = -1;
  for (int i = 0; argc >= 1 && i < 5; i++)
    if (!strcmp(argv[0], subs[i])) sub = i;
  if (sub < 0) {
    bool h = argc >= 1 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"));
    usage(h ? stdout : stderr);
    return h ? EXIT_OK : EXIT_USAGE;
  }
  cli_args a;
  if (!cli_parse(argc - 1, argv + 1, opts, NO, &a, "layout")) return EXIT_USAGE;
  if (a.help) {
    usage(stdout);
    return EXIT_OK;
  }
  tc5_operand op;
  if (!operand(&a, &op)) return EXIT_USAGE;
  uint64_t rows = 64, kdim = 256 / tc5_operand_slot_bits(&op);
  if (cli_has(&a, opts, NO, "rows") && !cli_opt_u64(&a, opts, NO, "rows", 1, 4096, &rows))
    return EXIT_USAGE;
  if (cli_has(&a, opts, NO, "k") && !cli_opt_u64(&a, opts, NO, "k", 1, 4096, &kdim)) return EXIT_USAGE;
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_smem_desc d;
  if (sub == 4) {
    const char *sw = cli_get(&a, opts, NO, "swizzle");
    tc5_swizzle mode;
    uint64_t start = 0;
    if (!sw || tc5_swizzle_parse(sw, &mode) != TC5_OK) {
      fprintf(stderr, "tc5 layout canonical: --swizzle: '%s' is not a swizzle mode\n", sw ? sw : "");
      return EXIT_USAGE;
    }
    if (cli_has(&a, opts, NO, "start") &&
        !cli_opt_u64(&a, opts, NO, "start", 0, TC5_SMEM_WINDOW_BYTES - 16, &start))
      return EXIT_USAGE;
    uint32_t bytes;
    if (tc5_layout_canonical((uint32_t)start, mode, &op, (unsigned)rows, (unsigned)kdim, &d, &bytes, &dg) ||
        tc5_layout_check(&d, &op, (unsigned)rows, (unsigned)(kdim < 4096 ? kdim : 4096), TC5_SMEM_WINDOW_BYTES,
                         NULL) == TC5_ENOMEM) {
      cli_print_diag(stderr, &dg);
      return EXIT_RULES;
    }
    uint64_t raw;
    tc5_smem_desc_encode(&d, &raw, NULL);
    printf("smem desc 0x%016llx: start 0x%x, LBO %u, SBO %u, swizzle %s, base offset %u; %u bytes\n",
           (unsigned long long)raw, d.start_address, d.lbo, d.sbo, tc5_swizzle_name(d.swizzle),
           d.base_offset, bytes);
    return EXIT_OK;
  }
  const char *ds = cli_get(&a, opts, NO, "desc");
  if (!ds && a.npos >= 1) ds = a.pos[0];
  uint64_t raw;
  if (!ds || !cli_hex(ds, &raw)) {
    fprintf(stderr, "tc5 layout %s: a descriptor (hex) is needed\n", subs[sub]);
    return EXIT_USAGE;
  }
  tc5_smem_desc_decode(raw, &d, &dg);
  if (dg.count) {
    cli_print_diag(stderr, &dg);
    return EXIT_RULES;
  }
  if (sub == 2) {
    const char *at = cli_get(&a, opts, NO, "at");
    unsigned mn, k;
    if (!at || sscanf(at, "%u,%u", &mn, &k) != 2) {
      fprintf(stderr, "tc5 layout addr: --at MN,K is needed\n");
      return EXIT_USAGE;
    }
    tc5_elem_loc l;
    if (tc5_layout_addr(&d, &op, mn, k, &l, &dg) != TC5_OK) {
      cli_print_diag(stderr, &dg);
      return EXIT_RULES;
    }
    printf("element (%u, %u): byte 0x%x (%u), bit %u, %u bits; 16-byte chunk 0x%x, banks %u-%u\n", mn, k,
           l.addr, l.addr, l.bit, l.width, l.chunk, (l.chunk / 4) % 32, (l.chunk / 4) % 32 + 3);
    return EXIT_OK;
  }
  if (sub == 3) {
    uint64_t sz = TC5_SMEM_MAX_BYTES;
    if (cli_has(&a, opts, NO, "smem") && !cli_opt_u64(&a, opts, NO, "smem", 1, TC5_SMEM_MAX_BYTES, &sz))
      return EXIT_USAGE;
    if (tc5_layout_check(&d, &op, (unsigned)rows, (unsigned)kdim, (uint32_t)sz, &dg) == TC5_OK) {
      printf("LEGAL: %llu x %llu %s elements, %s-major, through 0x%016llx\n", (unsigned long long)rows,
             (unsigned long long)kdim, tc5_type_name(op.type), tc5_major_name(op.major),
             (unsigned long long)raw);
      return EXIT_OK;
    }
    printf("ILLEGAL:\n");
    cli_print_diag(stdout, &dg);
    return EXIT_RULES;
  }
  size_t need = 0;
  tc5_layout_view view = sub == 1 ? TC5_VIEW_SVG : TC5_VIEW_TEXT;
  tc5_status st = tc5_layout_render(&d, &op, (unsigned)rows, (unsigned)kdim, view, NULL, 0, &need, &dg);
  if (st != TC5_ETRUNC && st != TC5_OK) {
    cli_print_diag(stderr, &dg);
    return EXIT_RULES;
  }
  char *buf = malloc(need);
  if (!buf) return EXIT_RULES;
  st = tc5_layout_render(&d, &op, (unsigned)rows, (unsigned)kdim, view, buf, need, NULL, NULL);
  if (st == TC5_OK) fputs(buf, stdout);
  free(buf);
  return st == TC5_OK ? EXIT_OK : EXIT_RULES;
}
