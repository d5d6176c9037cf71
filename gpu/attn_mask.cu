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

enum { MASK_LEN = 0, MASK_CAUSAL = 1, MASK_LOCAL = 2 };

__device__ __forceinline__ void wgmma128(float (&d)[64], uint64_t da, uint64_t db, int accumulate) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 " WG_D64 ", %64, %65, p, 1, 1, 0, 0;\n}\n"
      : WG_O64(d)
      : "l"(da), "l"(db), "r"(accumulate)
      : "memory");
}

__device__ __forceinline__ float ex2_ftz(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

struct Lim {
  int sq, sk, off, wl, wr; /* wl/wr < 0: unbounded */
};

/* the allowed columns [lo, hi) of row i (tc5_mask_row_range's definition) */
template <int MK>
__device__ __forceinline__ void row_limits(const Lim &s, int i, int &lo, int &hi) {
  lo = 0;
  hi = i < s.sq ? s.sk : 0;
  if (MK == MASK_CAUSAL) hi = min(hi, i + s.off + 1);
  if (MK == MASK_LOCAL) {
    if (s.wl >= 0) lo = max(lo, i + s.off - s.wl);
    if (s.wr >= 0) hi = min(hi, i + s.off + s.wr + 1);
  }
  hi = max(hi, lo);
}

/* elements of lane group q whose column (relative to the tile) is below L */
__device__ __forceinline__ int frag_below(int L, int q) {
  int l = L - 2 * q;
  if (l <= 0) return 0;
  int c = 2 * (l >> 3) + min(l & 7, 2);
  return min(c, 32);
}
__device__ __forceinline__ uint32_t bits_below(int c) { return c >= 32 ? 0xFFFFFFFFu : (1u << c) - 1u; }

/* the value vector: v(col) in {-1.5, ..., 1.5} */
__device__ __forceinline__ float vcol(int col) { return (float)((col * 7) % 13 - 6) * 0.25f; }

template <int MK, bool R2P, bool FA>
__device__ __forceinline__ void attn_rows(const uint8_t *qk, Lim s, uint64_t qdesc0, uint64_t kdesc0, uint32_t qstep,
                                          uint32_t kstep, float scale_log2, float *rows) {
  extern __shared__ __align__(1024) uint8_t smem[];
  const int t = threadIdx.x, lane = t % 32, q = lane % 4;
  for (int i = t * 16; i < 24576; i += 128 * 16) *(uint4 *)(smem + i) = *(const uint4 *)(qk + i);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  const uint32_t base = (uint32_t)__cvta_generic_to_shared(smem) >> 4;
  const int m0 = blockIdx.x * 64;
  const int r0 = m0 + 16 * (t / 32) + lane / 4; /* rows r0 and r0 + 8 */
  int lo_first, hi_first, lo_last, hi_last;
  row_limits<MK>(s, m0, lo_first, hi_first);
  row_limits<MK>(s, min(m0 + 63, s.sq - 1), lo_last, hi_last);
  int nb_lo = lo_first / 128, nb_hi = (hi_last + 127) / 128;
  if (m0 >= s.sq) nb_hi = nb_lo;
  float rmax[2] = {-INFINITY, -INFINITY}, rsum[2] = {0.f, 0.f}, racc[2] = {0.f, 0.f};
  for (int nb = nb_lo; nb < nb_hi; nb++) {
    const int n0 = nb * 128;
    float d[64];
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
    for (int ks = 0; ks < 4; ks++) wgmma128(d, qdesc0 + base + ks * qstep, kdesc0 + base + ks * kstep, ks);
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    /* each key block its own scores: the one K tile scaled by the block */
    const float bscale = 1.0f + 0.375f * (float)nb;
#pragma unroll
    for (int i = 0; i < 64; i++) d[i] *= bscale;
    bool full = m0 + 63 < s.sq && lo_last <= n0 && hi_first >= n0 + 128;
    if (!full) {
#pragma unroll
      for (int h = 0; h < 2; h++) {
        int lo, hi;
        row_limits<MK>(s, r0 + 8 * h, lo, hi);
        if (R2P) {
          uint32_t keep = bits_below(frag_below(hi - n0, q));
          if (MK == MASK_LOCAL) keep &= ~bits_below(frag_below(lo - n0, q));
#pragma unroll
          for (int e = 0; e < 32; e++) {
            int i = (e / 2) * 4 + 2 * h + e % 2;
            d[i] = ((keep >> e) & 1) ? d[i] : -INFINITY;
          }
        } else {
#pragma unroll
          for (int e = 0; e < 32; e++) {
            int i = (e / 2) * 4 + 2 * h + e % 2;
            int col = n0 + 8 * (e / 2) + 2 * q + e % 2;
            bool ok = col < hi;
            if (MK == MASK_LOCAL) ok = ok && col >= lo;
            d[i] = ok ? d[i] : -INFINITY;
          }
        }
      }
    }
#pragma unroll
    for (int h = 0; h < 2; h++) {
      float mx = -INFINITY;
#pragma unroll
      for (int e = 0; e < 32; e++) mx = fmaxf(mx, d[(e / 2) * 4 + 2 * h + e % 2]);
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
      float mnew = fmaxf(rmax[h], mx);
      if (mnew == -INFINITY) continue;
      float corr = FA ? ex2_ftz(rmax[h] * scale_log2 - mnew * scale_log2) : exp2f(rmax[h] - mnew);
      float l = rsum[h] * corr, o = racc[h] * corr;
      const float ms = mnew * scale_log2;
#pragma unroll
      for (int e = 0; e < 32; e++) {
        float x = d[(e / 2) * 4 + 2 * h + e % 2];
        float p = FA ? ex2_ftz(x * scale_log2 - ms) : exp2f(x - mnew);
        l += p;
        o += p * vcol(n0 + 8 * (e / 2) + 2 * q + e % 2);
      }
      rmax[h] = mnew;
      rsum[h] = l;
      racc[h] = o;
    }
  }
#pragma unroll
  for (int h = 0; h < 2; h++) {
    float l = rsum[h], o = racc[h];
    l += __shfl_xor_sync(0xffffffffu, l, 1);
    o += __shfl_xor_sync(0xffffffffu, o, 1);
    l += __shfl_xor_sync(0xffffffffu, l, 2);
    o += __shfl_xor_sync(0xffffffffu, o, 2);
    if (q == 0) {
      float *r = rows + 3 * (r0 + 8 * h);
      r[0] = rmax[h];
      r[1] = l;
      r[2] = o / l;
    }
  }
}

#define KERNEL(NAME, MK, R2P, FA)                                                                                \
  extern "C" __global__ void __launch_bounds__(128)                                                             \
      NAME(const uint8_t *qk, int sq, int sk, int off, int wl, int wr, uint64_t qd, uint64_t kd, uint32_t qs,  \
           uint32_t ks, float scale_log2, float *rows) {                                                        \
    attn_rows<MK, R2P, FA>(qk, Lim{sq, sk, off, wl, wr}, qd, kd, qs, ks, scale_log2, rows);                    \
  }
KERNEL(am_len_cmp, MASK_LEN, false, false)
KERNEL(am_len_r2p, MASK_LEN, true, false)
KERNEL(am_causal_cmp, MASK_CAUSAL, false, false)
KERNEL(am_causal_r2p, MASK_CAUSAL, true, false)
KERNEL(am_local_cmp, MASK_LOCAL, false, false)
KERNEL(am_local_r2p, MASK_LOCAL, true, false)
KERNEL(am_len_cmp_fa, MASK_LEN, false, true)
KERNEL(am_len_r2p_fa, MASK_LEN, true, true)
KERNEL(am_causal_cmp_fa, MASK_CAUSAL, false, true)
KERNEL(am_causal_r2p_fa, MASK_CAUSAL, true, true)
KERNEL(am_local_cmp_fa, MASK_LOCAL, false, true)
KERNEL(am_local_r2p_fa, MASK_LOCAL, true, true)

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
