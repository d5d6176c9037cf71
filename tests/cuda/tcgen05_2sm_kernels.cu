// Two-SM (cta_group::2) Blackwell GEMMs written with CUDA's <cuda/ptx>
// tcgen05 wrappers, for `tc5 run` (tests/ptx/nvcc_tcgen05_2sm.sh compiles
// them with nvcc -arch=sm_100a -ptx and compares each result with
// `tc5 gemm`). A cluster of two CTAs is one CTA pair (9.7.16.5.1): each
// holds 128 rows of A and half of B's N columns in its shared memory; the
// even CTA's thread issues tcgen05.mma.cta_group::2 with M = 256, which
// writes rows 0-127 of D into the even CTA's Tensor Memory and rows 128-255
// into the odd one's, each over all N columns (data-path layout A,
// 9.7.16.10.5); the commit arrives on the mbarriers of both CTAs
// (.multicast::cluster, ctaMask 0b11), and each CTA reads its own rows back.
// A is M x K and B is N x K, K-major (row-major in global memory), bf16; D is
// M x N f32, row-major. The layout of a 2-SM MMA's operands follows CUTLASS's
// SM100_MMA_F16BF16_2x1SM_SS (include/cute/atom/mma_traits_sm100.hpp) and its
// tutorial examples/cute/tutorial/blackwell/04_mma_tma_2sm_sm100.cu; the code
// here is tc5's own.
#include <cuda.h>
#include "umma_helpers.cuh"

/* both CTAs of the cluster reach this point; the stores before are
 * released to the cluster and those after acquire them */
static __device__ __forceinline__ void cluster_sync() {
  ptx::barrier_cluster_arrive(ptx::sem_release);
  ptx::barrier_cluster_wait(ptx::sem_acquire);
}

/* the pair's Tensor Memory: warp 0 of each CTA allocates ncols columns of
 * both (tcgen05.alloc.cta_group::2); rank r's address lands in its taddr */
static __device__ __forceinline__ void pair_alloc(uint32_t *taddr, uint32_t ncols) {
  if (threadIdx.x < 32) {
    ptx::tcgen05_alloc(ptx::cta_group_2, taddr, ncols);
    ptx::tcgen05_relinquish_alloc_permit(ptx::cta_group_2);
  }
}
/* every warp of both CTAs done with Tensor Memory, then warp 0 of each
 * frees the pair's columns (tcgen05.dealloc.cta_group::2) */
static __device__ __forceinline__ void pair_free(uint32_t taddr, uint32_t ncols) {
  ptx::tcgen05_fence_before_thread_sync();
  cluster_sync();
  ptx::tcgen05_fence_after_thread_sync();
  if (threadIdx.x < 32) ptx::tcgen05_dealloc(ptx::cta_group_2, taddr, ncols);
}

/* 1. D (256 x 128) = A (256 x 64) . B^T (128 x 64): every thread of a CTA
 * copies its half of the operands into shared memory in the canonical
 * K-major layout without swizzling (umma_helpers.cuh); after a cluster
 * barrier the even CTA's thread 0 issues four MMAs along K and one commit. */
extern "C" __global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
    tc_gemm_2sm(const uint16_t *A, const uint16_t *B, float *D) {
  constexpr int M = 256, N = 128, K = 64;
  __shared__ __align__(1024) uint8_t sa[4 * 128 * KB * 2], sb[4 * 64 * KB * 2];
  __shared__ uint32_t taddr;
  __shared__ __align__(8) uint64_t bar;
  uint32_t rank = ptx::get_sreg_cluster_ctarank();
  fill(sa, A + rank * 128 * K, 128, K, 0, 4);
  fill(sb, B + rank * 64 * K, 64, K, 0, 4);
  pair_alloc(&taddr, N);
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  ptx::fence_proxy_async(ptx::space_shared);
  ptx::tcgen05_fence_before_thread_sync();
  cluster_sync(); /* both halves in shared memory, both mbarriers initialised */
  ptx::tcgen05_fence_after_thread_sync();
  if (rank == 0 && threadIdx.x == 0) {
    for (int kb = 0; kb < 4; kb++)
      ptx::tcgen05_mma(ptx::kind_f16, ptx::cta_group_2, taddr, sdesc(sa + kb * 128 * KB * 2),
                       sdesc(sb + kb * 64 * KB * 2), idesc(M, N), kb > 0);
    ptx::tcgen05_commit_multicast(ptx::cta_group_2, &bar, (uint16_t)0b11);
  }
  wait_phase(&bar, 0);
  ptx::tcgen05_fence_after_thread_sync();
  store_d<N>(taddr, D, rank * 128, 0, N);
  pair_free(taddr, N);
}

/* 2. The same pair fed by TMA, warp-specialised and pipelined: D (256 x 128)
 * = A (256 x 256) . B^T. Operands are 128B-swizzled K-major tiles of 64 K
 * elements (one swizzle atom a row, SBO 1024); a tensor map's box is 64 x 128
 * rows of A or 64 x 64 rows of B. Two stages, each with a "full" mbarrier in
 * the even CTA (both CTAs' copies complete their bytes there:
 * cp.async.bulk.tensor .cta_group::2 with the even CTA's mbarrier) and an
 * "empty" one in each CTA (the MMA's commit, multicast to both). Warp 0 of
 * each CTA copies; warp 1 of the even CTA issues the MMAs; then all four
 * warps of each CTA read their 128 rows of D back. */
constexpr int TK = 64;                          /* K elements a stage */
constexpr int A_BYTES = 128 * TK * 2, B_BYTES = 64 * TK * 2;
constexpr int STAGES = 2;
__host__ __device__ constexpr int tma_smem_bytes() { return STAGES * (A_BYTES + B_BYTES) + 1024; }

/* K-major, 128-byte swizzle (Table 40: layout type 2 at bits 61-63), SBO
 * 1024 (eight rows of 128 bytes), LBO unused (1) */
static __device__ __forceinline__ uint64_t sdesc_sw128(const void *p) {
  uint64_t a = (uint32_t)__cvta_generic_to_shared(p);
  return (a >> 4 & 0x3fff) | 1ull << 16 | (uint64_t)(1024 >> 4) << 32 | 1ull << 46 | 2ull << 61;
}

extern "C" __global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
    tc_gemm_2sm_tma(const __grid_constant__ CUtensorMap mapA, const __grid_constant__ CUtensorMap mapB, float *D,
                    int K) {
  constexpr int M = 256, N = 128;
  extern __shared__ __align__(1024) uint8_t smem[];
  uint8_t *base = smem + ((1024 - ((uint32_t)__cvta_generic_to_shared(smem) & 1023)) & 1023);
  uint8_t *sa = base, *sb = base + STAGES * A_BYTES;
  __shared__ __align__(8) uint64_t full[STAGES], empty[STAGES], done;
  __shared__ uint32_t taddr;
  uint32_t rank = ptx::get_sreg_cluster_ctarank();
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  pair_alloc(&taddr, N);
  if (threadIdx.x == 0) {
    for (int s = 0; s < STAGES; s++) {
      ptx::mbarrier_init(&full[s], 1);
      ptx::mbarrier_init(&empty[s], 1);
    }
    ptx::mbarrier_init(&done, 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  ptx::tcgen05_fence_before_thread_sync();
  cluster_sync();
  ptx::tcgen05_fence_after_thread_sync();
  int nk = K / TK;
  if (warp == 0 && lane == 0) { /* the copies of this CTA's halves */
    uint64_t *lead_full = (uint64_t *)__cluster_map_shared_rank((void *)full, 0);
    for (int kb = 0; kb < nk; kb++) {
      int s = kb % STAGES;
      if (kb >= STAGES) wait_phase(&empty[s], (kb / STAGES - 1) & 1);
      if (rank == 0) ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cluster, ptx::space_shared, &full[s],
                                                    2 * (A_BYTES + B_BYTES));
      const int32_t ca[2] = {kb * TK, (int32_t)rank * 128}, cb[2] = {kb * TK, (int32_t)rank * 64};
      ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, ptx::cta_group_2, sa + s * A_BYTES, &mapA, ca,
                                lead_full + s);
      ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, ptx::cta_group_2, sb + s * B_BYTES, &mapB, cb,
                                lead_full + s);
    }
  } else if (warp == 1 && lane == 0 && rank == 0) { /* the pair's MMAs */
    for (int kb = 0; kb < nk; kb++) {
      int s = kb % STAGES;
      wait_phase(&full[s], (kb / STAGES) & 1);
      ptx::tcgen05_fence_after_thread_sync();
      for (int k = 0; k < TK / 16; k++) /* 16 elements, 32 bytes, a step along K inside the swizzle atom */
        ptx::tcgen05_mma(ptx::kind_f16, ptx::cta_group_2, taddr, sdesc_sw128(sa + s * A_BYTES + 32 * k),
                         sdesc_sw128(sb + s * B_BYTES + 32 * k), idesc(M, N), kb > 0 || k > 0);
      ptx::tcgen05_commit_multicast(ptx::cta_group_2, &empty[s], (uint16_t)0b11);
    }
    ptx::tcgen05_commit_multicast(ptx::cta_group_2, &done, (uint16_t)0b11);
  }
  __syncwarp();
  wait_phase(&done, 0);
  ptx::tcgen05_fence_after_thread_sync();
  store_d<N>(taddr, D, rank * 128, 0, N);
  pair_free(taddr, N);
}
