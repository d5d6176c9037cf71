/* tc5 on silicon: the device code of gpu/attn_mask.cu (masked attention
 * rows: wgmma + mask + softmax + SFU; the twelve extern "C" kernels am_*).
 * Device code only, so that NVRTC compiles it as well as nvcc (issue 52:
 * CUDA 12's front end on PyPI is NVRTC, which refuses host code;
 * scripts/nvrtc12.sh compiles this file). */
#ifndef TC5_KERNELS_ATTN_MASK_CUH
#define TC5_KERNELS_ATTN_MASK_CUH

#include <cstdint>

#include "../wgmma_regs.cuh" /* WG_D64, WG_O64(d) */
#include "frag.cuh"          /* frag_row, frag_col */
#include "mask_rows.cuh"     /* MASK_*, wgmma128, ex2_ftz, Lim, row_limits, frag_below, bits_below */

#ifndef INFINITY /* <cmath>'s, which NVRTC does not ship */
#define INFINITY (__int_as_float(0x7f800000))
#endif

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

#endif
