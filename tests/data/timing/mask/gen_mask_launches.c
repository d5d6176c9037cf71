/* The launches of gpu/r2p_mask.cu's timed kernels (attn_scores<MASK, R2P,
 * STORE=false>, 8192 queries; 16 heads, 128 for local) for gpu/ptx_timing
 * and `tc5 run --timing=h200` (issue 47, docs/timing.md "R2P masking"):
 * writes qk.bin (the 24 KB shared-memory image of Q and K, the same bytes
 * as r2p_mask.cu's make_qk: same generator, same tc5 layout calls) and
 * prints the lines of launches.txt (gpu/ptx_timing's manifest).
 * usage: gen_mask_launches DIR > DIR/launches.txt   (links libtc5) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc5/layout.h"

static uint64_t rng_state = 12345;
static uint32_t rnd(void) {
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(rng_state >> 33);
}

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  tc5_smem sm;
  tc5_smem_init(&sm, 24576);
  tc5_operand op;
  tc5_operand_for(TC5_KIND_F16, TC5_BF16, TC5_MAJOR_K, &op);
  static uint32_t qv[64 * 64], kv[128 * 64];
  for (int i = 0; i < 64 * 64; i++) qv[i] = 0x3C00u + (rnd() % 256) - 128;
  for (int i = 0; i < 128 * 64; i++) kv[i] = (rnd() & 1 ? 0x8000u : 0) | (0x3F00u + rnd() % 256);
  tc5_smem_desc dq, dk, d1;
  uint64_t qd, kd;
  tc5_layout_scatter(&sm, 0, TC5_SWIZZLE_NONE, &op, 64, 64, qv, &dq, NULL);
  tc5_layout_scatter(&sm, 8192, TC5_SWIZZLE_NONE, &op, 128, 64, kv, &dk, NULL);
  tc5_layout_kblock(&dq, &op, 64, 16, &d1, NULL);
  uint32_t qstep = (d1.start_address - dq.start_address) >> 4;
  tc5_layout_kblock(&dk, &op, 128, 16, &d1, NULL);
  uint32_t kstep = (d1.start_address - dk.start_address) >> 4;
  tc5_smem_desc_to_wgmma(&dq, &qd, NULL);
  tc5_smem_desc_to_wgmma(&dk, &kd, NULL);
  char path[4096];
  snprintf(path, sizeof path, "%s/qk.bin", argv[1]);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(sm.bytes, 1, 24576, f) != 24576) return 2;
  fclose(f);
  tc5_smem_free(&sm);
  /* r2p_mask.cu's timed specs: {seqlen_q, seqlen_k, offset, wl, wr} and heads */
  const int spec[3][5] = {{8192, 8192 - 100, -100, -1, -1}, {8192, 8192, 0, -1, -1}, {8192, 8192, 0, 256, 0}};
  const int heads[3] = {16, 16, 128};
  const char *mname[3] = {"len", "causal", "local"};
  printf("# NAME FILE ENTRY GRID BLOCK SHARED ARG... (gen_mask_launches.c; gpu/ptx_timing.cu)\n");
  for (int mk = 0; mk < 3; mk++)
    for (int r2p = 0; r2p < 2; r2p++) {
      printf("mask_%s_%s r2p_mask.ptx _Z11attn_scoresILi%dELb%dELb0EEvPKh4SpecmmjjPfiS3_ 128,%d,1 128 24576 in:qk.bin raw:",
             mname[mk], r2p ? "bitmask" : "compare", mk, r2p, heads[mk]);
      for (int i = 0; i < 5; i++) {
        uint32_t v = (uint32_t)spec[mk][i];
        for (int b = 0; b < 4; b++) printf("%02x", (v >> (8 * b)) & 0xff);
      }
      printf(" u64:0x%llx u64:0x%llx u32:%u u32:%u null s32:0 buf:rows:65536:zero\n", (unsigned long long)qd,
             (unsigned long long)kd, qstep, kstep);
    }
  return 0;
}
