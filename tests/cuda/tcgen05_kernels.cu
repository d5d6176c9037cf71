// Single-CTA Blackwell kernels written with CUDA's <cuda/ptx> tcgen05
// wrappers, for `tc5 run` (tests/ptx/nvcc_tcgen05.sh compiles them with
// nvcc -arch=sm_100a -ptx and compares each result with `tc5 gemm`).
// One CTA of 128 threads; A is M x K and B is N x K, both K-major (row-major
// in global memory), bf16; D is M x N f32, row-major. Shared-memory operands
// use the canonical K-major layout without swizzling, one region per K block
// of 16: element (mn, k) at (mn % 8) * 16 + (mn / 8) * 256 + (k / 8) * 128
// + (k % 8) * 2, i.e. LBO 128 and SBO 256 (tcgen05's 9.7.16.3.3).
#include "umma_helpers.cuh"

/* 1. D (128 x 64) = A (128 x 64) . B^T (64 x 64): four MMAs along K, one commit */
extern "C" __global__ void __launch_bounds__(128) tc_gemm(const uint16_t *A, const uint16_t *B, float *D) {
  __shared__ __align__(1024) uint8_t sa[4 * 128 * KB * 2], sb[4 * 64 * KB * 2];
  __shared__ uint32_t taddr;
  __shared__ __align__(8) uint64_t bar;
  fill(sa, A, 128, 64, 0, 4);
  fill(sb, B, 64, 64, 0, 4);
  if (threadIdx.x < 32) {
    ptx::tcgen05_alloc(ptx::cta_group_1, &taddr, 64);
    ptx::tcgen05_relinquish_alloc_permit(ptx::cta_group_1);
  }
  if (threadIdx.x == 0) ptx::mbarrier_init(&bar, 1);
  ptx::fence_proxy_async(ptx::space_shared);
  ptx::tcgen05_fence_before_thread_sync();
  __syncthreads();
  ptx::tcgen05_fence_after_thread_sync();
  if (threadIdx.x == 0) {
    for (int kb = 0; kb < 4; kb++)
      ptx::tcgen05_mma(ptx::kind_f16, ptx::cta_group_1, taddr, sdesc(sa + kb * 128 * KB * 2),
                       sdesc(sb + kb * 64 * KB * 2), idesc(128, 64), kb > 0);
    ptx::tcgen05_commit(ptx::cta_group_1, &bar);
  }
  wait_phase(&bar, 0);
  ptx::tcgen05_fence_after_thread_sync();
  store_d<64>(taddr, D, 0, 0, 64);
  ptx::tcgen05_fence_before_thread_sync();
  __syncthreads();
  if (threadIdx.x < 32) ptx::tcgen05_dealloc(ptx::cta_group_1, taddr, 64);
}

/* 2. .ws, M = 64: D (64 x 64) = A (64 x 64) . B^T; D's layout E: lane m +
 * 64 (n / 32), column n % 32 (9.7.16.10.5) */
extern "C" __global__ void __launch_bounds__(128) tc_gemm_ws(const uint16_t *A, const uint16_t *B, float *D) {
  __shared__ __align__(1024) uint8_t sa[4 * 64 * KB * 2], sb[4 * 64 * KB * 2];
  __shared__ uint32_t taddr;
  __shared__ __align__(8) uint64_t bar;
  fill(sa, A, 64, 64, 0, 4);
  fill(sb, B, 64, 64, 0, 4);
  if (threadIdx.x < 32) ptx::tcgen05_alloc(ptx::cta_group_1, &taddr, 32);
  if (threadIdx.x == 0) ptx::mbarrier_init(&bar, 1);
  ptx::fence_proxy_async(ptx::space_shared);
  ptx::tcgen05_fence_before_thread_sync();
  __syncthreads();
  ptx::tcgen05_fence_after_thread_sync();
  if (threadIdx.x == 0) {
    for (int kb = 0; kb < 4; kb++)
      ptx::tcgen05_mma_ws_collector_b0_discard(ptx::cta_group_1, ptx::kind_f16, taddr, sdesc(sa + kb * 64 * KB * 2),
                                               sdesc(sb + kb * 64 * KB * 2), idesc(64, 64), kb > 0);
    ptx::tcgen05_commit(ptx::cta_group_1, &bar);
  }
  wait_phase(&bar, 0);
  ptx::tcgen05_fence_after_thread_sync();
  /* warps 0-1 hold columns 0-31 of rows 0-63, warps 2-3 columns 32-63 */
  int w = threadIdx.x / 32, l = threadIdx.x % 32;
  uint32_t v[32];
  ptx::tcgen05_ld_32x32b(reinterpret_cast<uint32_t(&)[32]>(v), taddr + ((uint32_t)(32 * w) << 16));
  ptx::tcgen05_wait_ld();
  int row = (32 * w + l) % 64, col0 = (w / 2) * 32;
  for (int j = 0; j < 32; j++) D[row * 64 + col0 + j] = __uint_as_float(v[j]);
  ptx::tcgen05_fence_before_thread_sync();
  __syncthreads();
  if (threadIdx.x < 32) ptx::tcgen05_dealloc(ptx::cta_group_1, taddr, 32);
}

/* 3. A in Tensor Memory: each thread stores its row of A (16-bit elements
 * two to a 32-bit column) with tcgen05.st, then four MMAs read it */
extern "C" __global__ void __launch_bounds__(128) tc_gemm_tmem_a(const uint16_t *A, const uint16_t *B, float *D) {
  __shared__ __align__(1024) uint8_t sb[4 * 64 * KB * 2];
  __shared__ uint32_t taddr;
  __shared__ __align__(8) uint64_t bar;
  fill(sb, B, 64, 64, 0, 4);
  if (threadIdx.x < 32) ptx::tcgen05_alloc(ptx::cta_group_1, &taddr, 128);
  if (threadIdx.x == 0) ptx::mbarrier_init(&bar, 1);
  ptx::fence_proxy_async(ptx::space_shared);
  ptx::tcgen05_fence_before_thread_sync();
  __syncthreads();
  ptx::tcgen05_fence_after_thread_sync();
  int w = threadIdx.x / 32, row = threadIdx.x;
  uint32_t a[32];
  for (int j = 0; j < 32; j++) a[j] = (uint32_t)A[row * 64 + 2 * j] | (uint32_t)A[row * 64 + 2 * j + 1] << 16;
  ptx::tcgen05_st_32x32b(taddr + ((uint32_t)(32 * w) << 16) + 64, reinterpret_cast<const uint32_t(&)[32]>(a));
  ptx::tcgen05_wait_st();
  ptx::tcgen05_fence_before_thread_sync();
  __syncthreads();
  ptx::tcgen05_fence_after_thread_sync();
  if (threadIdx.x == 0) {
    for (int kb = 0; kb < 4; kb++)
      ptx::tcgen05_mma_tmem_a(ptx::kind_f16, ptx::cta_group_1, taddr, taddr + 64 + 8 * kb,
                              sdesc(sb + kb * 64 * KB * 2), idesc(128, 64), kb > 0);
    ptx::tcgen05_commit(ptx::cta_group_1, &bar);
  }
  wait_phase(&bar, 0);
  ptx::tcgen05_fence_after_thread_sync();
  store_d<64>(taddr, D, 0, 0, 64);
  ptx::tcgen05_fence_before_thread_sync();
  __syncthreads();
  if (threadIdx.x < 32) ptx::tcgen05_dealloc(ptx::cta_group_1, taddr, 128);
}

/* 4. A pipeline over K = 256 (16 K blocks): two stages of four K blocks;
 * all threads load a stage after the MMAs that read it have completed
 * (their commit arrives on the stage's "empty" barrier), thread 0 issues
 * the stage's MMAs and commits them; a last commit signals "done". */
extern "C" __global__ void __launch_bounds__(128) tc_gemm_pipe(const uint16_t *A, const uint16_t *B, float *D) {
  constexpr int K = 256, STAGE_KB = 4, NSTAGE = 2;
  __shared__ __align__(1024) uint8_t sa[NSTAGE][STAGE_KB * 128 * KB * 2], sb[NSTAGE][STAGE_KB * 64 * KB * 2];
  __shared__ uint32_t taddr;
  __shared__ __align__(8) uint64_t empty[NSTAGE], done;
  if (threadIdx.x < 32) ptx::tcgen05_alloc(ptx::cta_group_1, &taddr, 64);
  if (threadIdx.x == 0) {
    for (int s = 0; s < NSTAGE; s++) ptx::mbarrier_init(&empty[s], 1);
    ptx::mbarrier_init(&done, 1);
  }
  ptx::tcgen05_fence_before_thread_sync();
  __syncthreads();
  ptx::tcgen05_fence_after_thread_sync();
  for (int it = 0; it < K / (KB * STAGE_KB); it++) {
    int s = it % NSTAGE;
    if (it >= NSTAGE) wait_phase(&empty[s], ((it / NSTAGE) - 1) & 1);
    fill(sa[s], A, 128, K, it * KB * STAGE_KB, STAGE_KB);
    fill(sb[s], B, 64, K, it * KB * STAGE_KB, STAGE_KB);
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
    ptx::tcgen05_fence_after_thread_sync();
    if (threadIdx.x == 0) {
      for (int kb = 0; kb < STAGE_KB; kb++)
        ptx::tcgen05_mma(ptx::kind_f16, ptx::cta_group_1, taddr, sdesc(sa[s] + kb * 128 * KB * 2),
                         sdesc(sb[s] + kb * 64 * KB * 2), idesc(128, 64), it > 0 || kb > 0);
      ptx::tcgen05_commit(ptx::cta_group_1, &empty[s]);
    }
  }
  if (threadIdx.x == 0) ptx::tcgen05_commit(ptx::cta_group_1, &done);
  wait_phase(&done, 0);
  ptx::tcgen05_fence_after_thread_sync();
  store_d<64>(taddr, D, 0, 0, 64);
  ptx::tcgen05_fence_before_thread_sync();
  __syncthreads();
  if (threadIdx.x < 32) ptx::tcgen05_dealloc(ptx::cta_group_1, taddr, 64);
}
