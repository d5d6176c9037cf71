/* tc5 on silicon: masked attention rows (wgmma + mask + softmax + SFU) on
 * the H100 and in tc5 run, from the same sm_90a PTX (issue 32).
 *
 * A warpgroup computes the score tiles S = Q K^T of its 64 query rows with
 * wgmma (m64n128k16, bf16 -> f32, head dimension 64) for each key block of
 * 128 that the mask does not empty (FlashAttention's block skipping), masks
 * the partial ones the way FlashAttention builds the mask (the row's allowed
 * interval [lo, hi): key length, causal with an offset, a sliding window),
 * and folds the block into the running softmax of each row: the row max m,
 * the sum l of exp2(s - m) and the sum of exp2(s - m) v over the keys (a
 * value vector v(col), standing for P V). The four threads holding a row
 * reduce l and o with shuffles; the kernel writes (m, l, o / l) of each row.
 * Twelve kernels: three masks (key length, causal, local) x two ways of
 * masking (a compare per element, and the R2P bitmask of gpu/r2p_mask.cu:
 * the limits as fragment indices, one 32-bit word a row) x two softmax
 * forms (exp2f of s - m, and FlashAttention's ex2.approx.ftz of
 * s * scale_log2 - m * scale_log2).
 *
 * Compiled to PTX with -fmad=false (tests/data/ptx/attn90/attn_mask.ptx,
 * `gpu/run.sh attention` on the H100, tests/ptx/silicon.sh in tc5). The
 * host program writes the inputs and the manifest: Q (64 x 64) and K
 * (128 x 64) in wgmma's no-swizzle K-major layout (tc5's canonical layout)
 * and their descriptors.
 *
 * usage: attn_mask --gen DIR   (no GPU needed: writes DIR/attn_qk.bin and
 *                               the manifest lines on stdout)
 */
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gpu_util.cuh"
#include "tc5/layout.h"

#include "kernels/attn_mask.cuh" /* the twelve kernels am_* */

/* ---- host: the inputs and the manifest ---------------------------------------- */

static uint64_t rng_state = 32;
static uint32_t rnd() {
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(rng_state >> 33);
}

int main(int argc, char **argv) {
  if (argc != 3 || strcmp(argv[1], "--gen")) {
    fprintf(stderr, "usage: attn_mask --gen DIR\n");
    return 2;
  }
  /* Q (64 x 64) and K (128 x 64), bf16 of magnitude 2^-1 .. 2^1 (scores of
   * a few units, as attention's), K-major, no swizzle */
  tc5_smem sm;
  tc5_smem_init(&sm, 24576);
  tc5_operand op;
  tc5_operand_for(TC5_KIND_F16, TC5_BF16, TC5_MAJOR_K, &op);
  std::vector<uint32_t> qv(64 * 64), kv(128 * 64);
  for (auto &x : qv) x = (rnd() & 1 ? 0x8000u : 0) | (0x3E80u + rnd() % 256);
  for (auto &x : kv) x = (rnd() & 1 ? 0x8000u : 0) | (0x3E80u + rnd() % 256);
  tc5_smem_desc dq, dk, d1;
  tc5_layout_scatter(&sm, 0, TC5_SWIZZLE_NONE, &op, 64, 64, qv.data(), &dq, NULL);
  tc5_layout_scatter(&sm, 8192, TC5_SWIZZLE_NONE, &op, 128, 64, kv.data(), &dk, NULL);
  tc5_layout_kblock(&dq, &op, 64, 16, &d1, NULL);
  uint32_t qstep = (d1.start_address - dq.start_address) >> 4;
  tc5_layout_kblock(&dk, &op, 128, 16, &d1, NULL);
  uint32_t kstep = (d1.start_address - dk.start_address) >> 4;
  uint64_t qd, kd;
  tc5_smem_desc_to_wgmma(&dq, &qd, NULL);
  tc5_smem_desc_to_wgmma(&dk, &kd, NULL);
  std::string p = std::string(argv[2]) + "/attn_qk.bin";
  FILE *f = fopen(p.c_str(), "wb");
  if (!f || fwrite(sm.bytes, 1, 24576, f) != 24576) {
    perror(p.c_str());
    return 2;
  }
  fclose(f);
  tc5_smem_free(&sm);
  /* the problems: lengths, offsets (FlashAttention's seqlen_k - seqlen_q
   * and others), windows; each kernel runs the three of its mask */
  struct P {
    int sq, sk, off, wl, wr;
  };
  const P len[3] = {{64, 128, 0, -1, -1}, {200, 333, 0, -1, -1}, {512, 300, 0, -1, -1}};
  const P causal[3] = {{256, 256, 0, -1, -1}, {300, 520, 220, -1, -1}, {512, 470, -42, -1, -1}};
  const P local[3] = {{257, 257, 0, 37, 5}, {512, 700, -40, 100, -1}, {384, 640, 0, -1, 64}};
  const P *probs[3] = {len, causal, local};
  const char *mk[3] = {"len", "causal", "local"};
  const float scale_log2 = 0.125f * 1.44269504f; /* 1/sqrt(64) / ln 2 */
  uint32_t sbits;
  memcpy(&sbits, &scale_log2, 4);
  for (int fa = 0; fa < 2; fa++)
    for (int m = 0; m < 3; m++)
      for (int r2p = 0; r2p < 2; r2p++)
        for (int k = 0; k < 3; k++) {
          const P &s = probs[m][k];
          int nq = (s.sq + 63) / 64;
          printf("attn_mask.ptx am_%s_%s%s %d 128 24576 in:attn_qk.bin s32:%d s32:%d s32:%d s32:%d s32:%d "
                 "u64:0x%llx u64:0x%llx u32:%u u32:%u u32:0x%08x out:%d\n",
                 mk[m], r2p ? "r2p" : "cmp", fa ? "_fa" : "", nq, s.sq, s.sk, s.off, s.wl, s.wr,
                 (unsigned long long)qd, (unsigned long long)kd, qstep, kstep, sbits, nq * 64 * 12);
        }
  return 0;
}
