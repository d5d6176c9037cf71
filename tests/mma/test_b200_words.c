/* tc5 tests — the B200 silicon words that sf-tensor/tcgen05 froze (77 of
 * them, ../shared/oracle/disagreements/sf-tensor-b200-words.txt, README
 * there): each case through `tc5 gemm` (the CLI, M = N = 1, sparse cases
 * with --meta) and through the MMA engine (one tcgen05.mma of M = 128,
 * N = 16 with the case's row of A in every row, its column of B in every
 * column and C in every cell of D, operands in shared and Tensor Memory);
 * every output must be the silicon word.
 *
 * Usage: test_b200_words TC5_CLI   (exit 77, CTest's "skipped", when the
 * oracle directory lacks the file: TC5_ORACLE_DIR). */
#include "testutil.h"

#include <unistd.h>

#include "tc5/arith.h"
#include "tc5/layout.h"
#include "tc5/mma.h"
#include "mma/mma_world.h"

#define WORDS "disagreements/sf-tensor-b200-words.txt"
#define MAXV 256

static const char *cli;
static char words_path[1024], tmpdir[256];

typedef struct wcase {
  char name[128];
  tc5_kind kind;
  tc5_type at, bt, dt, st;
  unsigned k, block, g; /* logical K, scale block, elements a metadata nibble */
  bool sparse, sat, scaled;
  uint32_t a[MAXV], b[MAXV], c, sa[16], sb[16], d;
  unsigned nsa;
  uint8_t nib[64]; /* metadata, one nibble a group */
} wcase;

/* "key=value" after a space, up to the next space */
static bool field(const char *line, const char *key, char *out, size_t cap) {
  char pat[32];
  snprintf(pat, sizeof pat, " %s=", key);
  const char *p = strstr(line, pat);
  if (!p) return false;
  p += strlen(pat);
  size_t n = strcspn(p, " \n");
  if (n >= cap) n = cap - 1;
  memcpy(out, p, n), out[n] = 0;
  return true;
}

static unsigned hexlist(const char *s, uint32_t *v, unsigned max) {
  unsigned n = 0;
  while (*s && n < max) {
    char *e;
    v[n++] = (uint32_t)strtoul(s, &e, 16);
    s = *e == ',' ? e + 1 : e;
    if (e == s && *s != ',') break;
  }
  return n;
}

static bool parse(const char *line0, wcase *w) {
  char line[16400], v[4096];
  snprintf(line, sizeof line, " %s", line0);
  memset(w, 0, sizeof *w);
  char *bar = strchr(line, '|');
  if (!bar) return false;
  sscanf(bar + 1, "%127s", w->name);
  if (!field(line, "kind", v, sizeof v) || tc5_kind_parse(v, &w->kind)) return false;
  if (!field(line, "atype", v, sizeof v) || tc5_type_parse(v, &w->at)) return false;
  if (!field(line, "btype", v, sizeof v) || tc5_type_parse(v, &w->bt)) return false;
  if (!field(line, "dtype", v, sizeof v) || tc5_type_parse(v, &w->dt)) return false;
  if (!field(line, "k", v, sizeof v)) return false;
  w->k = (unsigned)atoi(v);
  w->st = TC5_TYPE_NONE;
  if ((w->scaled = field(line, "stype", v, sizeof v))) {
    if (tc5_type_parse(v, &w->st) || !field(line, "block", v, sizeof v)) return false;
    w->block = (unsigned)atoi(v);
  }
  w->sparse = field(line, "sparse", v, sizeof v);
  w->sat = field(line, "sat", v, sizeof v) && atoi(v);
  tc5_sparse_group(w->kind, &w->g);
  if (!field(bar, "a", v, sizeof v) || hexlist(v, w->a, MAXV) != w->k) return false;
  if (!field(bar, "b", v, sizeof v) || hexlist(v, w->b, MAXV) != w->k) return false;
  if (!field(bar, "c", v, sizeof v) || !field(bar, "d", v + 2048, 2048)) return false;
  hexlist(v, &w->c, 1);
  hexlist(v + 2048, &w->d, 1);
  if (w->scaled) {
    uint32_t sb[16];
    if (!field(bar, "sa", v, sizeof v)) return false;
    w->nsa = hexlist(v, w->sa, 16);
    if (!field(bar, "sb", v, sizeof v) || hexlist(v, sb, 16) != w->nsa) return false;
    memcpy(w->sb, sb, sizeof sb);
  }
  if (w->sparse) { /* 32-bit words of nibbles, group 0 in the low nibble of the first */
    uint32_t mw[16];
    if (!field(bar, "meta", v, sizeof v)) return false;
    unsigned nw = hexlist(v, mw, 16);
    if (nw * 8 < w->k / w->g) return false;
    for (unsigned i = 0; i < w->k / w->g; i++) w->nib[i] = (uint8_t)(mw[i / 8] >> 4 * (i % 8) & 0xF);
  }
  return true;
}

/* the kept elements of a sparse row given in its logical form */
static void compress(const wcase *w, uint32_t *ac) {
  unsigned n = 0, pw = w->g == 8 ? 2 : 1;
  for (unsigned q = 0; q < w->k / w->g; q++) {
    unsigned nb = w->nib[q], i0 = w->g == 2 ? (nb == 0xE) : nb & 3, i1 = nb >> 2 & 3;
    for (unsigned x = 0; x < pw; x++) ac[n++] = w->a[w->g * q + pw * i0 + x];
    for (unsigned x = 0; w->g != 2 && x < pw; x++) ac[n++] = w->a[w->g * q + pw * i1 + x];
  }
}

static unsigned code_bytes(tc5_type t) {
  switch (t) {
  case TC5_F32: case TC5_TF32: case TC5_S32: return 4;
  case TC5_F16: case TC5_BF16: return 2;
  default: return 1;
  }
}

static void put(const char *name, const uint32_t *v, unsigned n, unsigned w) {
  char p[512];
  snprintf(p, sizeof p, "%s/%s", tmpdir, name);
  FILE *f = fopen(p, "wb");
  assert_non_null(f);
  for (unsigned i = 0; i < n; i++) assert_int_equal(fwrite(&v[i], w, 1, f), 1); /* little-endian host */
  fclose(f);
}

/* the word from `tc5 gemm`, or ~0u (with the message printed) */
static uint32_t via_cli(const wcase *w) {
  char cmd[4096], p[512];
  uint32_t ac[MAXV];
  if (w->sparse) compress(w, ac);
  put("a.bin", w->sparse ? ac : w->a, w->sparse ? w->k / 2 : w->k, code_bytes(w->at));
  put("b.bin", w->b, w->k, code_bytes(w->bt));
  put("c.bin", &w->c, 1, code_bytes(w->dt));
  int n = snprintf(cmd, sizeof cmd,
                   "'%s' gemm --kind %s --atype %s --btype %s --dtype %s --m 1 --n 1 --k %u --a %s/a.bin --b %s/b.bin "
                   "--c %s/c.bin --out %s/d.bin%s",
                   cli, tc5_kind_name(w->kind), tc5_type_name(w->at), tc5_type_name(w->bt), tc5_type_name(w->dt),
                   w->k, tmpdir, tmpdir, tmpdir, tmpdir, w->sat ? " --saturate" : "");
  if (w->scaled) {
    put("sa.bin", w->sa, w->nsa, 1);
    put("sb.bin", w->sb, w->nsa, 1);
    n += snprintf(cmd + n, sizeof cmd - (size_t)n, " --stype %s --block %u --sa %s/sa.bin --sb %s/sb.bin",
                  tc5_type_name(w->st), w->block, tmpdir, tmpdir);
  }
  if (w->sparse) {
    uint32_t m[64];
    for (unsigned i = 0; i < w->k / w->g; i++) m[i] = w->nib[i];
    put("meta.bin", m, w->k / w->g, 1);
    snprintf(cmd + n, sizeof cmd - (size_t)n, " --meta %s/meta.bin", tmpdir);
  }
  if (system(cmd) != 0) {
    print_message("%s: tc5 gemm failed: %s\n", w->name, cmd);
    return ~0u;
  }
  snprintf(p, sizeof p, "%s/d.bin", tmpdir);
  FILE *f = fopen(p, "rb");
  uint32_t d = 0;
  assert_non_null(f);
  assert_int_equal(fread(&d, code_bytes(w->dt), 1, f), 1);
  fclose(f);
  return d;
}

/* operands into shared memory at off: the first swizzle the type allows */
static uint64_t scatter(world *wd, uint32_t off, const tc5_operand *op, unsigned rows, unsigned K, const uint32_t *codes) {
  static const tc5_swizzle sws[] = {TC5_SWIZZLE_NONE, TC5_SWIZZLE_32B, TC5_SWIZZLE_64B, TC5_SWIZZLE_128B};
  for (size_t i = 0; i < sizeof sws / sizeof sws[0]; i++) {
    tc5_smem_desc d;
    uint64_t raw;
    if (tc5_layout_scatter(&wd->s[0], off, sws[i], op, rows, K, codes, &d, NULL) == TC5_OK &&
        tc5_smem_desc_encode(&d, &raw, NULL) == TC5_OK)
      return raw;
  }
  fail_msg("no layout for %u x %u", rows, K);
  return 0;
}

/* D[0][0] of one tcgen05.mma (every D cell must equal it; else ~0u) */
static uint32_t via_engine(const wcase *w) {
  enum { M = 128, N = 16 };
  tc5_mma_args a;
  tc5_mma_args_init(&a, w->kind);
  a.variant.sparse = w->sparse;
  a.variant.block = (uint8_t)w->block;
  tc5_idesc d;
  tc5_idesc_init(&d, w->kind);
  assert_int_equal(tc5_idesc_set_types(&d, w->at, w->bt, w->dt), TC5_OK);
  d.m = M, d.n = N, d.sparse = w->sparse, d.saturate = w->sat;
  d.scale_type = w->st == TC5_UE8M0;
  tc5_diag dg;
  tc5_diag_init(&dg);
  if (tc5_idesc_encode(&d, &a.idesc, &dg) || tc5_idesc_check(&d, &a.variant, &dg))
    fail_msg("%s: idesc: %s", w->name, dg.count ? dg.issue[0].message : "?");
  unsigned K;
  tc5_idesc_k(&d, &K);
  assert_int_equal(K, w->k);
  tc5_operand opa, opb;
  assert_int_equal(tc5_operand_for(w->kind, w->at, TC5_MAJOR_K, &opa), TC5_OK);
  assert_int_equal(tc5_operand_for(w->kind, w->bt, TC5_MAJOR_K, &opb), TC5_OK);
  unsigned KA = w->sparse ? K / 2 : K;
  uint32_t *A = malloc((size_t)M * KA * 4), *Bt = malloc((size_t)N * K * 4), ac[MAXV];
  if (w->sparse) compress(w, ac);
  for (unsigned m = 0; m < M; m++) memcpy(A + (size_t)m * KA, w->sparse ? ac : w->a, KA * 4);
  for (unsigned n = 0; n < N; n++) memcpy(Bt + (size_t)n * K, w->b, K * 4);
  world wd;
  world_init(&wd, 128 * 1024);
  alloc_all(&wd, 1);
  a.a_desc = scatter(&wd, 0, &opa, M, KA, A);
  a.b_desc = scatter(&wd, 65536, &opb, N, K, Bt);
  a.d_tmem = 0, a.sp_meta_tmem = 300, a.sfa_tmem = 320, a.sfb_tmem = 328;
  a.enable_input_d = true;
  for (unsigned m = 0; m < M; m++)
    for (unsigned n = 0; n < N; n++) {
      uint32_t l, col;
      assert_int_equal(tc5_mma_d_cell(M, 1, false, N, m, n, &l, &col, NULL), TC5_OK);
      tc5_tmem_poke(&wd.t[0], l, col, w->c);
    }
  if (w->sparse)
    for (unsigned m = 0; m < M; m++)
      for (unsigned q = 0; q < K / w->g; q++) {
        uint32_t l, col, v = 0;
        unsigned bit;
        bool wr;
        meta_cell(w->kind, m, w->g * q, &l, &col, &bit);
        tc5_tmem_peek(&wd.t[0], l, 300 + col, &v, &wr);
        if (!wr) v = 0;
        tc5_tmem_poke(&wd.t[0], l, 300 + col, v | (uint32_t)w->nib[q] << bit);
      }
  for (unsigned s = 0; s < w->nsa; s++) { /* scale factor IDs 0: bytes 0 .. ns-1 */
    for (unsigned m = 0; m < M; m++) poke_sf(&wd.t[0], 320, false, M, m, s, w->sa[s]);
    for (unsigned n = 0; n < N; n++) poke_sf(&wd.t[0], 328, false, N, n, s, w->sb[s]);
  }
  tc5_diag_init(&dg);
  uint32_t got = ~0u;
  if (tc5_mma(wd.c, 1, &a, &dg)) {
    print_message("%s: tcgen05.mma: %s\n", w->name, dg.count ? dg.issue[0].message : "?");
  } else {
    for (unsigned m = 0; m < M; m++)
      for (unsigned n = 0; n < N; n++) {
        uint32_t l, col, v;
        tc5_mma_d_cell(M, 1, false, N, m, n, &l, &col, NULL);
        tc5_tmem_peek(&wd.t[0], l, col, &v, NULL);
        if (w->dt == TC5_F16) v &= 0xFFFF;
        if (!m && !n) got = v;
        else if (v != got) {
          print_message("%s: D[%u][%u] = 0x%x differs from D[0][0] = 0x%x\n", w->name, m, n, v, got);
          got = ~0u, m = M, n = N;
        }
      }
  }
  world_free(&wd);
  free(A), free(Bt);
  return got;
}

static void test_words(void **state) {
  (void)state;
  FILE *f = fopen(words_path, "r");
  assert_non_null(f);
  static char line[16384];
  unsigned n = 0, bad_cli = 0, bad_engine = 0;
  wcase w;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    if (!parse(line, &w)) fail_msg("cannot read line: %.80s", line);
    uint32_t c = via_cli(&w), e = via_engine(&w);
    if (c != w.d) print_message("%s: tc5 gemm 0x%x, B200 0x%x\n", w.name, c, w.d), bad_cli++;
    if (e != w.d) print_message("%s: tcgen05.mma (engine) 0x%x, B200 0x%x\n", w.name, e, w.d), bad_engine++;
    n++;
  }
  fclose(f);
  print_message("%u B200 words: %u mismatches through tc5 gemm, %u through the MMA engine\n", n, bad_cli, bad_engine);
  assert_int_equal(n, 77);
  assert_int_equal(bad_cli, 0);
  assert_int_equal(bad_engine, 0);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_b200_words TC5_CLI\n");
    return 2;
  }
  cli = argv[1];
  if (!oracle_path(WORDS, words_path, sizeof words_path)) {
    printf("%s/%s absent: skipped\n", oracle_dir(), WORDS);
    return 77;
  }
  snprintf(tmpdir, sizeof tmpdir, "%s/tc5-b200-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  if (!mkdtemp(tmpdir)) return 2;
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_words)};
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  const char *names[] = {"a.bin", "b.bin", "c.bin", "d.bin", "sa.bin", "sb.bin", "meta.bin"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    char p[512];
    snprintf(p, sizeof p, "%s/%s", tmpdir, names[i]);
    remove(p);
  }
  rmdir(tmpdir);
  return rc;
}
