/* tc5 tests — FlashAttention-4's own ex2 emulation (flash_attn/cute/utils.py
 * ex2_emulation and ex2_emulation_2: a degree-3 polynomial and an exponent
 * splice in plain PTX), the PTX CuTe DSL makes of FA4's functions
 * (tests/data/sfu/fa4_ex2/gen_fa4_ex2.py), run by tc5 and compared with the
 * H100, which ran the same sm_90a PTX on every f32 input (gpu/run.sh fa4-ex2)
 * and reduced each block of 2^20 inputs to a hash (h100_block_hashes.txt).
 *
 *   test_fa4_ex2 [DATA_DIR]          the 8 blocks of the special values: zeros,
 *                                    +-1, 127, infinities/NaNs, subnormals, -127
 *   TC5_FA4_EX2_FULL=1 test_fa4_ex2  all 4096 blocks: every f32 input
 *   TC5_FA4_EX2_HASHES=FILE          the H100's hashes from FILE instead
 *   TC5_FA4_EX2_NO_X2=1              ex2_emulation only (half the time)
 *
 * For each block, tc5 runs fa4_ex2_sm90a.ptx (ex2_emulation) on its 2^20
 * inputs and its hash must equal the H100's; and fa4_ex2x2_sm100a.ptx
 * (ex2_emulation_2, sm_100's .f32x2 arithmetic, two inputs a thread) must
 * give the same words, except for negative subnormal inputs: ex2_emulation
 * rounds with add.rm.ftz (the subnormal reads as 0: floor 0, 2^x = 1.0) and
 * ex2_emulation_2 with add.rm.f32x2, which has no .ftz (floor -1, fraction
 * 1 + x rounds to 1.0: 0x3f7ffa6b, FA4's polynomial at 1 halved).
 * A plain C program (no cmocka) so that gpu/run.sh can build it on the GPU
 * machine. Exit status 0: all equal. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc5/ptx.h"

#ifndef TC5_TEST_DATA_DIR
#define TC5_TEST_DATA_DIR "tests/data"
#endif
#define BLOCK_BITS 20
#define N (1u << BLOCK_BITS)
static const char *ENTRY = "kernel_cutlass_kern_ptrf32gmemalign16_ptrf32gmemalign16_0";

static uint64_t mix64(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static tc5_ptx_module *load(const char *dir, const char *file) {
  char p[1024];
  snprintf(p, sizeof p, "%s/%s", dir, file);
  FILE *f = fopen(p, "rb");
  if (!f) { printf("cannot read %s\n", p); exit(2); }
  static char text[1 << 16];
  size_t n = fread(text, 1, sizeof text, f);
  fclose(f);
  tc5_ptx_module *m = NULL;
  tc5_diag d;
  tc5_diag_init(&d);
  if (tc5_ptx_load(text, n, p, &m, &d) != TC5_OK) {
    printf("%s: %s\n", p, d.count ? d.issue[0].message : "load failed");
    exit(2);
  }
  return m;
}

static void run(const tc5_ptx_module *m, uint32_t grid, uint32_t *x, uint32_t *y) {
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  cfg.entry = ENTRY;
  cfg.grid[0] = grid;
  cfg.block[0] = 128;
  tc5_ptx_arg a[2];
  memset(a, 0, sizeof a);
  a[0].kind = a[1].kind = TC5_PTX_ARG_BUFFER;
  a[0].data = x, a[1].data = y;
  a[0].bytes = a[1].bytes = (size_t)N * 4;
  tc5_diag d;
  tc5_diag_init(&d);
  if (tc5_ptx_launch(m, &cfg, a, 2, NULL, &d) != TC5_OK) {
    printf("launch: %s\n", d.count ? d.issue[0].message : "failed");
    exit(2);
  }
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : TC5_TEST_DATA_DIR "/sfu/fa4_ex2";
  char hp[1024];
  const char *hfile = getenv("TC5_FA4_EX2_HASHES");
  if (!hfile) {
    snprintf(hp, sizeof hp, "%s/h100_block_hashes.txt", dir);
    hfile = hp;
  }
  static uint64_t want[4096];
  FILE *f = fopen(hfile, "r");
  if (!f) { printf("cannot read %s\n", hfile); return 2; }
  char line[256];
  unsigned nh = 0;
  while (fgets(line, sizeof line, f)) {
    unsigned b;
    unsigned long long h;
    if (line[0] == '#') continue;
    if (sscanf(line, "%x %llx", &b, &h) != 2 || b >= 4096) { printf("%s: bad line: %s", hfile, line); return 2; }
    want[b] = h, nh++;
  }
  fclose(f);
  if (nh != 4096) { printf("%s: %u blocks, not 4096\n", hfile, nh); return 2; }
  tc5_ptx_module *m1 = load(dir, "fa4_ex2_sm90a.ptx"), *m2 = load(dir, "fa4_ex2x2_sm100a.ptx");

  /* the blocks: every one, or the 8 of the special values */
  static const unsigned special[] = {0x000, 0x3f8, 0x42f, 0x7f8, 0x800, 0xbf8, 0xc2f, 0xff8};
  unsigned blocks[4096], nb = 0;
  if (getenv("TC5_FA4_EX2_FULL") && atoi(getenv("TC5_FA4_EX2_FULL"))) {
    for (unsigned b = 0; b < 4096; b++) blocks[nb++] = b;
  } else {
    for (unsigned i = 0; i < sizeof special / sizeof special[0]; i++) blocks[nb++] = special[i];
  }
  int x2 = !(getenv("TC5_FA4_EX2_NO_X2") && atoi(getenv("TC5_FA4_EX2_NO_X2")));
  uint32_t *x = malloc((size_t)N * 4), *y = malloc((size_t)N * 4), *y2 = malloc((size_t)N * 4);
  if (!x || !y || !y2) return 2;
  unsigned bad = 0, bad2 = 0;
  uint64_t negsub = 0;
  for (unsigned i = 0; i < nb; i++) {
    unsigned b = blocks[i];
    for (uint32_t k = 0; k < N; k++) x[k] = (uint32_t)b << BLOCK_BITS | k;
    run(m1, N / 128, x, y);
    if (x2) run(m2, N / 256, x, y2);
    uint64_t h = 0;
    for (uint32_t k = 0; k < N; k++) h += mix64((uint64_t)x[k] << 32 | y[k]);
    if (h != want[b]) {
      bad++;
      printf("block 0x%03x (inputs 0x%08x..0x%08x): tc5's hash 0x%016" PRIx64 ", the H100's 0x%016" PRIx64 "\n", b,
             b << BLOCK_BITS, (b << BLOCK_BITS) | (N - 1), h, want[b]);
    }
    if ((i + 1) % 256 == 0) printf("fa4_ex2: %u blocks, %u differ\n", i + 1, bad), fflush(stdout);
    for (uint32_t k = 0; x2 && k < N; k++) {
      int ns = x[k] > 0x80000000u && x[k] <= 0x807fffffu;
      negsub += ns;
      if (ns ? (y[k] != 0x3f800000u || y2[k] != 0x3f7ffa6bu) : y2[k] != y[k]) {
        if (bad2++ < 4)
          printf("x 0x%08x: ex2_emulation 0x%08x, ex2_emulation_2 0x%08x\n", x[k], y[k], y2[k]);
      }
    }
  }
  printf("fa4_ex2: %u blocks of 2^20 inputs (%" PRIu64 " inputs): %u differ from the H100\n", nb, (uint64_t)nb * N, bad);
  if (x2)
    printf("fa4_ex2: ex2_emulation_2 (sm_100a, .f32x2) gives ex2_emulation's word on every input but the %" PRIu64
         " negative subnormals (1.0 there, 0x3f7ffa6b from ex2_emulation_2); %u other differences\n",
         negsub, bad2);
  tc5_ptx_free(m1);
  tc5_ptx_free(m2);
  free(x), free(y), free(y2);
  return bad || bad2 ? 1 : 0;
}
