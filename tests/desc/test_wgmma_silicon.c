/* tc5 tests — wgmma's shared-memory descriptor fields on silicon (issue 52):
 * every descriptor of tests/data/h100/wgmma-descriptors*.txt (gpu/run.sh
 * descriptors on the H200: LBO/SBO 0, 1 and large per swizzle mode and
 * major-ness, base offsets, the bits beyond Hopper's fields) as tc5's wgmma
 * reads it (tc5_smem_desc_from_wgmma, tc5_layout_check_read, tc5_layout_addr:
 * what src/ptx/exec_wgmma.c calls), against the byte offsets the silicon
 * read. A descriptor agrees when tc5 accepts it and every element's offset
 * is the silicon's. Prints the counts docs/fidelity.md quotes. */
#include "testutil.h"
#include "tc5/descriptors.h"
#include "tc5/layout.h"

#define IMG_BYTES (200 * 1024 + 2048) /* gpu/wgmma_descriptors.cu's shared memory */

static bool operand(const char *name, tc5_operand *o, unsigned *k) {
  o->packing = TC5_PACK_NATURAL;
  o->major = TC5_MAJOR_K;
  if (!strcmp(name, "f16_K") || !strcmp(name, "f16_MN")) {
    o->type = TC5_F16, *k = 16;
    if (name[4] == 'M') o->major = TC5_MAJOR_MN;
  } else if (!strcmp(name, "tf32_K")) {
    o->type = TC5_TF32, *k = 8;
  } else if (!strcmp(name, "u8_K")) {
    o->type = TC5_U8, *k = 32;
  } else {
    return false;
  }
  return true;
}

typedef struct {
  unsigned lines, agree, refused, differ;
} counts;

/* one file; returns false when it is absent */
static bool check_file(const char *path, counts *c) {
  FILE *f = fopen(path, "r");
  if (!f) return false;
  static char line[1 << 16];
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    char opn[16], what[96];
    unsigned long long raw;
    int used = 0;
    if (sscanf(line, "%llx %15s %95s %n", &raw, opn, what, &used) != 3) fail_msg("%s: bad line %s", path, line);
    tc5_operand o;
    unsigned K = 0;
    if (!operand(opn, &o, &K)) fail_msg("%s: operand %s", path, opn);
    /* the silicon's offsets, from runs first:step:count */
    static long off[64 * 32];
    unsigned n = 0;
    for (char *p = line + used; *p && *p != '\n';) {
      long a, s;
      unsigned cnt;
      int k;
      if (sscanf(p, "%ld:%ld:%u%n", &a, &s, &cnt, &k) != 3) fail_msg("%s: bad runs in %s", path, what);
      for (unsigned i = 0; i < cnt && n < 64 * 32; i++) off[n++] = a + s * (long)i;
      p += k;
      if (*p == ',') p++;
    }
    if (n != 64 * K) fail_msg("%s: %s: %u offsets, want %u", path, what, n, 64 * K);
    c->lines++;
    tc5_smem_desc d;
    tc5_diag dg;
    tc5_diag_init(&dg);
    tc5_status st = tc5_smem_desc_from_wgmma(raw, &d, &dg);
    if (!st) st = tc5_layout_check_read(&d, &o, 64, K, IMG_BYTES, &dg);
    if (st) {
      c->refused++;
      print_message("refused %016llx %s %s: %s\n", raw, opn, what, dg.count ? dg.issue[0].message : "?");
      continue;
    }
    unsigned bad = 0, first = 0;
    for (unsigned m = 0; m < 64; m++)
      for (unsigned k = 0; k < K; k++) {
        tc5_elem_loc l;
        if (tc5_layout_addr(&d, &o, m, k, &l, NULL) || (long)l.addr != off[m * K + k]) {
          if (!bad++) first = m * K + k;
        }
      }
    if (bad) {
      c->differ++;
      print_message("differ  %016llx %s %s: %u of %u elements (first: element %u, silicon %ld)\n", raw, opn, what, bad,
                    64 * K, first, off[first]);
    } else {
      c->agree++;
    }
  }
  fclose(f);
  return true;
}

static void test_descriptors_silicon(void **state) {
  (void)state;
  counts c = {0, 0, 0, 0};
  if (!check_file(TC5_TEST_DATA_DIR "/h100/wgmma-descriptors.txt", &c)) fail_msg("no silicon data");
  for (int g = 0; g < 5; g++) {
    char p[256];
    snprintf(p, sizeof p, TC5_TEST_DATA_DIR "/h100/wgmma-descriptors-far%d.txt", g);
    check_file(p, &c);
  }
  print_message("wgmma descriptors on silicon: %u read, %u agree with tc5, %u refused by tc5, %u differ\n", c.lines,
                c.agree, c.refused, c.differ);
  assert_int_equal(c.refused + c.differ, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_descriptors_silicon)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
