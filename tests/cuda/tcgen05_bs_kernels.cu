// Block-scaled single-CTA Blackwell kernels written with CUDA's <cuda/ptx>
// tcgen05 wrappers, for `tc5 run` (tests/ptx/nvcc_tcgen05_bs.sh compiles
// them with nvcc -arch=sm_100a -ptx and compares each result with
// `tc5 gemm` given the same scale factors). One CTA of 128 threads.
// A is M x K and B is N x K (K-major), one element code per byte in global
// memory; the scale factors are M x K/block and N x K/block bytes. Shared
// memory holds each MMA's K block in the canonical K-major layout without
// swizzling (byte b of row mn at (mn % 8) * 16 + (mn / 8) * 256 + (b / 16) *
// 128 + b % 16: LBO 128, SBO 256). The scale factors go through shared
// memory into Tensor Memory with tcgen05.cp.32x128b.warpx4, as CUTLASS's
// block-scaled GEMMs do (SM100_UTCCP_4x32dp128bit), in the layout of its
// tmem_sf_frg: row i of A (column i of B) in lane i % 32 of every lane
// quarter, column i / 32, one byte per scale factor.
#include "umma_helpers.cuh"

__device__ __forceinline__ uint32_t boff(int mn, int b) { return off(mn, b >> 1) + (b & 1); }

/* the scale factors of 128 rows (or columns) for one 32-bit word: 32 x 16
 * bytes in 1 KiB (four 8-row groups at SBO 256), byte 4j + b of row r = S[r + 32j][s0 + b] (S has ld bytes a row) */
__device__ void fill_sf(uint8_t *s, const uint8_t *S, int ld, int s0, int nb) {
  for (int i = threadIdx.x; i < 32 * 16; i += blockDim.x) {
    int r = i / 16, j = (i % 16) / 4, b = i % 4;
    s[boff(r, 4 * j + b)] = b < nb ? S[(r + 32 * j) * ld + s0 + b] : 0;
  }
}

/* 1. NVFP4: D (128 x 128) = (A . SA) (128 x 256) . (B . SB)^T, e2m1 with
 * ue4m3 scales, block 16 (.kind::mxf4nvf4.block_scale.scale_vec::4X); four
 * MMAs of K = 64, each with its own scale-factor word (4 scale factors a
 * row). A and B are packed two fp4 a byte in shared memory (element 2i in
 * the low nibble). */
extern "C" __global__ void __launch_bounds__(128)
    tc_gemm_nvf4(const uint8_t *A, const uint8_t *B, const uint8_t *SA, const uint8_t *SB, float *D) {
  constexpr int K = 256, KMMA = 64, NMMA = K / KMMA, NS = K / 16;
  __shared__ __align__(1024) uint8_t sa[NMMA][128 * 32], sb[NMMA][128 * 32], ssa[NMMA][1024], ssb[NMMA][1024];
  __shared__ uint32_t taddr;
  __shared__ __align__(8) uint64_t bar;
  for (int i = threadIdx.x; i < NMMA * 128 * 32; i += blockDim.x) {
    int kb = i / (128 * 32), r = (i / 32) % 128, b = i % 32, k = kb * KMMA + 2 * b;
    sa[kb][boff(r, b)] = (uint8_t)(A[r * K + k] | A[r * K + k + 1] << 4);
    sb[kb][boff(r, b)] = (uint8_t)(B[r * K + k] | B[r * K + k + 1] << 4);
  }
  for (int kb = 0; kb < NMMA; kb++) {
    fill_sf(ssa[kb], SA, NS, 4 * kb, 4);
    fill_sf(ssb[kb], SB, NS, 4 * kb, 4);
  }
  tmem_begin(&taddr, 256, &bar);
  if (threadIdx.x == 0) {
    /* idesc (Table 44): A, B e2m1 (code 1), ue4m3 (bit 23 = 0), N >> 3, M >> 7 */
    const uint32_t id = 1u << 7 | 1u << 10 | (128u >> 3) << 17 | (128u >> 7) << 27;
    for (int kb = 0; kb < NMMA; kb++) {
      ptx::tcgen05_cp_32x128b_warpx4(ptx::cta_group_1, taddr + 128 + 4 * kb, sdesc(ssa[kb]));
      ptx::tcgen05_cp_32x128b_warpx4(ptx::cta_group_1, taddr + 144 + 4 * kb, sdesc(ssb[kb]));
      ptx::tcgen05_mma_block_scale_vec_4x(ptx::kind_mxf4nvf4, ptx::cta_group_1, taddr, sdesc(sa[kb]), sdesc(sb[kb]),
                                          id, taddr + 128 + 4 * kb, taddr + 144 + 4 * kb, kb > 0);
    }
    ptx::tcgen05_commit(ptx::cta_group_1, &bar);
  }
  wait_phase(&bar, 0);
  ptx::tcgen05_fence_after_thread_sync();
  store_d<128>(taddr, D, 0, 0, 128);
  tmem_end(taddr, 256);
}

/* 2. MXFP8: D (128 x 128) = (A . SA) (128 x 128) . (B . SB)^T, e4m3 x e5m2
 * with ue8m0 scales, block 32 (.kind::mxf8f6f4.block_scale.scale_vec::1X):
 * four MMAs of K = 32 share one scale-factor word, the instruction
 * descriptor's scale factor IDs 0-3 selecting their bytes. */
extern "C" __global__ void __launch_bounds__(128)
    tc_gemm_mxf8(const uint8_t *A, const uint8_t *B, const uint8_t *SA, const uint8_t *SB, float *D) {
  constexpr int K = 128, KMMA = 32, NMMA = K / KMMA, NS = K / 32;
  __shared__ __align__(1024) uint8_t sa[NMMA][128 * 32], sb[NMMA][128 * 32], ssa[1024], ssb[1024];
  __shared__ uint32_t taddr;
  __shared__ __align__(8) uint64_t bar;
  for (int i = threadIdx.x; i < NMMA * 128 * 32; i += blockDim.x) {
    int kb = i / (128 * 32), r = (i / 32) % 128, b = i % 32;
    sa[kb][boff(r, b)] = A[r * K + kb * KMMA + b];
    sb[kb][boff(r, b)] = B[r * K + kb * KMMA + b];
  }
  fill_sf(ssa, SA, NS, 0, 4);
  fill_sf(ssb, SB, NS, 0, 4);
  tmem_begin(&taddr, 256, &bar);
  if (threadIdx.x == 0) {
    ptx::tcgen05_cp_32x128b_warpx4(ptx::cta_group_1, taddr + 128, sdesc(ssa));
    ptx::tcgen05_cp_32x128b_warpx4(ptx::cta_group_1, taddr + 132, sdesc(ssb));
    for (int kb = 0; kb < NMMA; kb++) {
      /* idesc (Table 43): A e4m3 (0), B e5m2 (1), ue8m0 (bit 23), IDs kb */
      const uint32_t id = (uint32_t)kb << 4 | 1u << 10 | (128u >> 3) << 17 | 1u << 23 | (128u >> 7) << 27 |
                          (uint32_t)kb << 29;
      ptx::tcgen05_mma_block_scale_vec_1x(ptx::kind_mxf8f6f4, ptx::cta_group_1, taddr, sdesc(sa[kb]), sdesc(sb[kb]),
                                          id, taddr + 128, taddr + 132, kb > 0);
    }
    ptx::tcgen05_commit(ptx::cta_group_1, &bar);
  }
  wait_phase(&bar, 0);
  ptx::tcgen05_fence_after_thread_sync();
  store_d<128>(taddr, D, 0, 0, 128);
  tmem_end(taddr, 256);
}

/* 3. 2:4 sparse f16: D (128 x 128) = A (128 x 128, stored as its 64 kept
 * elements a row, two of every four) . B^T, f32 out (.kind::f16, K = 32 an
 * MMA). meta holds a nibble a byte for each group of four (the kept
 * positions in bits 0-1 and 2-3). The metadata goes into Tensor Memory with
 * tcgen05.cp.128x128b (CUTLASS's SM100_UTCCP_128dp128bit), four MMAs' a
 * copy, in CUTLASS's tmem_e_frg layout: the bit of logical element k of
 * row m is in lane m % 8 + 8 (k / 16) + 16 (m / 16), bit k % 16 + 16 ((m /
 * 8) % 2) of the MMA's column. CCCL has no tcgen05.mma.sp wrapper: inline
 * PTX. */
extern "C" __global__ void __launch_bounds__(128)
    tc_gemm_sp(const uint16_t *A, const uint16_t *B, const uint8_t *meta, float *D) {
  constexpr int K = 128, NMMA = K / 32;
  __shared__ __align__(1024) uint8_t sa[NMMA][128 * 32], sb[NMMA][128 * 64], sm[128 * 16 * 2];
  __shared__ uint32_t taddr;
  __shared__ __align__(8) uint64_t bar;
  for (int i = threadIdx.x; i < NMMA * 128 * 16; i += blockDim.x) { /* A: 16 kept a row an MMA */
    int kb = i / (128 * 16), r = (i / 16) % 128, j = i % 16;
    *(uint16_t *)&sa[kb][off(r, j)] = A[r * (K / 2) + kb * 16 + j];
  }
  for (int i = threadIdx.x; i < NMMA * 128 * 32; i += blockDim.x) { /* B: 32 a column an MMA, LBO 128, SBO 512 */
    int kb = i / (128 * 32), n = (i / 32) % 128, k = i % 32;
    *(uint16_t *)&sb[kb][(n % 8) * 16 + (n / 8) * 512 + (k / 8) * 128 + (k % 8) * 2] = B[n * K + kb * 32 + k];
  }
  { /* the metadata, lane by lane: the word of MMA ks in bytes 4 ks .. 4 ks + 3 of row (lane) l */
    int l = threadIdx.x, m0 = l % 8, k1 = (l / 8) % 2, m2 = l / 16;
    for (int ks = 0; ks < NMMA; ks++) {
      uint32_t w = 0;
      for (int m1 = 0; m1 < 2; m1++)
        for (int q = 0; q < 4; q++)
          w |= (uint32_t)meta[(m0 + 8 * m1 + 16 * m2) * (K / 4) + ks * 8 + k1 * 4 + q] << (4 * q + 16 * m1);
      for (int b = 0; b < 4; b++) sm[boff(l, 4 * ks + b)] = (uint8_t)(w >> (8 * b));
    }
  }
  tmem_begin(&taddr, 256, &bar);
  if (threadIdx.x == 0) {
    ptx::tcgen05_cp_128x128b(ptx::cta_group_1, taddr + 128, sdesc(sm));
    /* idesc (Table 42): sparse (bit 2), f32 D, f16 A and B, N >> 3, M >> 4 */
    const uint32_t id = 1u << 2 | 1u << 4 | (128u >> 3) << 17 | (128u >> 4) << 24;
    for (int kb = 0; kb < NMMA; kb++) {
      uint64_t db = ((uint64_t)(((uint32_t)__cvta_generic_to_shared(sb[kb])) >> 4) & 0x3fff) | (uint64_t)(128 >> 4) << 16 |
                    (uint64_t)(512 >> 4) << 32 | 1ull << 46;
      asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %4, 0;\n"
                   "tcgen05.mma.sp.cta_group::1.kind::f16 [%0], %1, %2, [%3], %5, p;\n}\n" ::"r"(taddr),
                   "l"(sdesc(sa[kb])), "l"(db), "r"(taddr + 128 + kb), "r"(kb), "r"(id)
                   : "memory");
    }
    ptx::tcgen05_commit(ptx::cta_group_1, &bar);
  }
  wait_phase(&bar, 0);
  ptx::tcgen05_fence_after_thread_sync();
  store_d<128>(taddr, D, 0, 0, 128);
  tmem_end(taddr, 256);
}
