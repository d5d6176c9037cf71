/* tc5 on silicon: the device helpers of the masked-attention kernels, shared by
 * gpu/kernels/attn_mask.cuh (the twelve am_* kernels) and gpu/r2p_mask.cu (the R2P
 * timing kernels attn_scores): the mask kinds, an m64n128k16 bf16 wgmma, ex2, a
 * row's allowed columns (tc5_mask_row_range's definition) and the fragment bit
 * masks. Device code only (NVRTC compiles it through attn_mask.cuh). One copy
 * since t47s: r2p_mask.cu had its own (the SASS of both programs unchanged). */
#ifndef TC5_KERNELS_MASK_ROWS_CUH
#define TC5_KERNELS_MASK_ROWS_CUH

#include <cstdint>

#include "../wgmma_regs.cuh" /* WG_D64, WG_O64(d) */

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

#endif
