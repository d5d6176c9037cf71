// The checker's seeded-bug catalogue (tests/check/catalogue.txt): one
// correct single-CTA Blackwell GEMM written with CUDA's <cuda/ptx> tcgen05
// wrappers, instantiated once as it is (ck_ok) and once per bug (ck_<bug>),
// each instance the correct kernel with exactly one bug added.
//
// The kernel: 128 threads; D (128 x 64, f32) = A (128 x K) . B^T (64 x K),
// bf16, K = 256 in a two-stage pipeline of 4 K blocks a stage (as
// tcgen05_kernels.cu's tc_gemm_pipe): all threads fill a stage with
// st.shared, fence.proxy.async, bar.sync; thread 0 issues the stage's MMAs
// and commits them to the stage's "empty" mbarrier, which the fillers wait
// on before refilling it. D starts from zeros stored with tcgen05.st
// (wait::st, before_thread_sync, bar.sync, after_thread_sync), the MMAs
// accumulate; a last commit signals "done"; each warp loads its lane quarter
// with tcgen05.ld, waits, stores D; a second tile (TILES = 2) re-runs the
// MMAs into the same accumulator after the epilogue has waited
// (tcgen05.wait::ld) and synchronised (before_thread_sync, bar.sync,
// after_thread_sync). Compiled by tests/check/gen_kernels.sh with
// nvcc -arch=sm_100a -ptx into tests/data/check/kernels.ptx.
#include "umma_helpers.cuh"

enum Bug {
  OK = 0,
  NO_PROXY_FENCE,      // proxy-fence: the fillers' fence.proxy.async left out
  SYNC_FIRST_ONLY,     // smem-unordered: bar.sync after the fill only in the first iteration
  NO_EMPTY_WAIT,       // smem-overwrite-inflight: a stage refilled without waiting for its MMAs
  EMPTY_WRONG_PARITY,  // smem-overwrite-inflight: the "empty" wait with the wrong parity
  NO_DONE_WAIT,        // tmem-read-inflight: the epilogue does not wait for "done"
  DONE_WRONG_PARITY,   // tmem-read-inflight: "done" waited with parity 1 (true at once)
  COMMIT_EARLY,        // tmem-read-inflight: the last commit before the last MMA
  COMMIT_ALL_LANES,    // mbarrier-over-arrival: the MMA commit executed by all 32 lanes of warp 0
  COMMIT_OTHER,        // commit-other-thread: MMAs by thread 0, commit by thread 1
  DEALLOC_EARLY,       // dealloc-inflight: dealloc right after the last commit
  NO_DEALLOC,          // alloc-held-at-exit
  ALLOC_NEVER,         // alloc-never: warp 1 allocates while warp 0 holds all 512 columns
  DONE_COUNT_2,        // mbarrier-wait-never: "done" initialised for 2 arrivals, one commit
  NO_FENCE_AFTER,      // fence-after-missing (strict): no after_thread_sync after the "done" wait
  NO_FENCE_BEFORE,     // fence-before-missing (strict): no before_thread_sync after the zeroing tcgen05.st
  NO_WAIT_ST,          // tmem-st-unwaited: the zeroing tcgen05.st never waited for
  ST_LD_NO_WAIT,       // tmem-st-unwaited: a warp's tcgen05.st read back by tcgen05.ld without wait::st
  WRONG_QUARTER,       // tmem-lane-quarter: warp w loads the lanes of warp (w + 1) % 4
  LD_HALF_WARP,        // partial-warp-aligned: tcgen05.ld under if (lane < 16)
  LD_UNWRITTEN,        // tmem-uninit-read: the epilogue loads columns 64.. (allocated, never written)
  B_UNFILLED,          // smem-uninit-read: the first stage's B never filled
  ST_OVER_LD,          // tmem-write-inflight: the next tile's zeroing tcgen05.st before the epilogue's wait::ld
  TILE2_NO_FENCE_BEFORE, // fence-before-missing (strict): the last epilogue's bar.sync before dealloc without the fence
  LD_NO_WAIT,          // ld-reg-use (strict): D's registers used before tcgen05.wait::ld
  ELECT_HALF_WARP,     // partial-warp-aligned: elect.sync with a full membermask under if (lane < 16)
  DONE_NO_FLIP,        // mbarrier-phase-reused (strict): "done" waited with parity 0 in both tiles
  DESC_BASE_OFFSET,    // smem-desc-base-offset (strict): A's descriptors carry base offset 4, no swizzle
};

template <int BUG>
__device__ void gemm(const uint16_t *A, const uint16_t *B, float *D) {
  constexpr int K = 256, STAGE_KB = 4, NSTAGE = 2, TILES = 2;
  __shared__ __align__(1024) uint8_t sa[NSTAGE][STAGE_KB * 128 * KB * 2], sb[NSTAGE][STAGE_KB * 64 * KB * 2];
  __shared__ uint32_t taddr, taddr2;
  __shared__ __align__(8) uint64_t empty[NSTAGE], done;
  const int w = threadIdx.x / 32, l = threadIdx.x % 32;
  if (w == 0) ptx::tcgen05_alloc(ptx::cta_group_1, &taddr, BUG == ALLOC_NEVER ? 512 : BUG == LD_UNWRITTEN ? 128 : 64);
  if (threadIdx.x == 0) {
    for (int s = 0; s < NSTAGE; s++) ptx::mbarrier_init(&empty[s], 1);
    ptx::mbarrier_init(&done, BUG == DONE_COUNT_2 ? 2 : 1);
  }
  ptx::tcgen05_fence_before_thread_sync();
  __syncthreads();
  ptx::tcgen05_fence_after_thread_sync();
  if (BUG == ALLOC_NEVER && w == 1) ptx::tcgen05_alloc(ptx::cta_group_1, &taddr2, 64);
  if (BUG == ELECT_HALF_WARP && l < 16) {
    uint32_t pred; /* <cuda/ptx> has no elect.sync wrapper: CUTLASS's elect_one_sync, written out */
    asm volatile("{ .reg .pred p; .reg .b32 r; elect.sync r|p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(pred) : "r"(0xffffffffu));
    if (pred) D[0] = 0.0f;
  }
  const uint32_t quarter = (uint32_t)(32 * ((BUG == WRONG_QUARTER ? w + 1 : w) % 4)) << 16;
  uint32_t it = 0; /* K iterations over both tiles: the stages' phases run on */
  for (int tile = 0; tile < TILES; tile++) {
    /* D = 0 with tcgen05.st: each warp its lane quarter */
    uint32_t z[32] = {0};
    for (int c = 0; c < 64; c += 32)
      ptx::tcgen05_st_32x32b(taddr + ((uint32_t)(32 * w) << 16) + c, reinterpret_cast<const uint32_t(&)[32]>(z));
    if (BUG == ST_LD_NO_WAIT && tile == 0) {
      uint32_t v[32];
      ptx::tcgen05_ld_32x32b(reinterpret_cast<uint32_t(&)[32]>(v), taddr + ((uint32_t)(32 * w) << 16));
      ptx::tcgen05_wait_ld();
      if (v[l] != 0) D[0] = 1.0f;
    }
    if (BUG != NO_WAIT_ST) ptx::tcgen05_wait_st();
    if (BUG != NO_FENCE_BEFORE) ptx::tcgen05_fence_before_thread_sync();
    __syncthreads();
    ptx::tcgen05_fence_after_thread_sync();
    for (int kk = 0; kk < K / (KB * STAGE_KB); kk++, it++) {
      int s = it % NSTAGE;
      if (it >= NSTAGE && BUG != NO_EMPTY_WAIT)
        wait_phase(&empty[s], (((it / NSTAGE) - 1) & 1) ^ (BUG == EMPTY_WRONG_PARITY ? 1 : 0));
      if (!(BUG == B_UNFILLED && it == 0)) fill(sb[s], B, 64, K, kk * KB * STAGE_KB, STAGE_KB);
      fill(sa[s], A, 128, K, kk * KB * STAGE_KB, STAGE_KB);
      if (BUG != NO_PROXY_FENCE) ptx::fence_proxy_async(ptx::space_shared);
      if (BUG != SYNC_FIRST_ONLY || it == 0) __syncthreads();
      ptx::tcgen05_fence_after_thread_sync();
      if (threadIdx.x == 0) {
        for (int kb = 0; kb < STAGE_KB; kb++)
          ptx::tcgen05_mma(ptx::kind_f16, ptx::cta_group_1, taddr,
                           sdesc(sa[s] + kb * 128 * KB * 2) | (BUG == DESC_BASE_OFFSET ? 4ull << 49 : 0),
                           sdesc(sb[s] + kb * 64 * KB * 2), idesc(128, 64), true);
      }
      if (BUG == COMMIT_ALL_LANES ? w == 0 : threadIdx.x == (BUG == COMMIT_OTHER ? 1 : 0))
        ptx::tcgen05_commit(ptx::cta_group_1, &empty[s]);
    }
    if (BUG == COMMIT_EARLY && tile == TILES - 1) {
      /* the "done" commit goes out before a last MMA (of the last stage again) */
      if (threadIdx.x == 0) {
        ptx::tcgen05_commit(ptx::cta_group_1, &done);
        ptx::tcgen05_mma(ptx::kind_f16, ptx::cta_group_1, taddr, sdesc(sa[0]), sdesc(sb[0]), idesc(128, 64), true);
      }
    } else if (threadIdx.x == 0) {
      ptx::tcgen05_commit(ptx::cta_group_1, &done);
    }
    if (BUG == DEALLOC_EARLY && tile == TILES - 1 && w == 0) ptx::tcgen05_dealloc(ptx::cta_group_1, taddr, 64);
    if (BUG != NO_DONE_WAIT)
      wait_phase(&done, BUG == DONE_NO_FLIP ? 0 : (tile & 1) ^ (BUG == DONE_WRONG_PARITY ? 1 : 0));
    if (BUG != NO_FENCE_AFTER) ptx::tcgen05_fence_after_thread_sync();
    /* epilogue: each warp its 32 rows, 64 columns */
    if (BUG == ST_OVER_LD) {
      uint32_t v0[32];
      ptx::tcgen05_ld_32x32b(reinterpret_cast<uint32_t(&)[32]>(v0), taddr + quarter);
      uint32_t z0[32] = {0};
      ptx::tcgen05_st_32x32b(taddr + quarter, reinterpret_cast<const uint32_t(&)[32]>(z0));
      ptx::tcgen05_wait_ld();
      ptx::tcgen05_wait_st();
      for (int j = 0; j < 32; j++) D[tile * 128 * 64 + (32 * w + l) * 64 + j] = __uint_as_float(v0[j]);
    }
    uint32_t v[32];
    for (int c = BUG == ST_OVER_LD ? 32 : 0; c < 64; c += 32) {
      uint32_t col = BUG == LD_UNWRITTEN ? 64 + c : c;
      if (BUG == LD_HALF_WARP) {
        if (l < 16) ptx::tcgen05_ld_32x32b(reinterpret_cast<uint32_t(&)[32]>(v), taddr + quarter + col);
      } else {
        ptx::tcgen05_ld_32x32b(reinterpret_cast<uint32_t(&)[32]>(v), taddr + quarter + col);
      }
      if (BUG != LD_NO_WAIT) ptx::tcgen05_wait_ld();
      for (int j = 0; j < 32; j++) D[tile * 128 * 64 + (32 * w + l) * 64 + c + j] = __uint_as_float(v[j]);
      if (BUG == LD_NO_WAIT) ptx::tcgen05_wait_ld();
    }
    if (BUG != TILE2_NO_FENCE_BEFORE) ptx::tcgen05_fence_before_thread_sync();
    __syncthreads();
    ptx::tcgen05_fence_after_thread_sync();
  }
  if (w == 0 && BUG != NO_DEALLOC && BUG != DEALLOC_EARLY)
    ptx::tcgen05_dealloc(ptx::cta_group_1, taddr, BUG == ALLOC_NEVER ? 512 : BUG == LD_UNWRITTEN ? 128 : 64);
}

#define CK(name, bug)                                                                                                 \
  extern "C" __global__ void __launch_bounds__(128) name(const uint16_t *A, const uint16_t *B, float *D) {          \
    gemm<bug>(A, B, D);                                                                                               \
  }
CK(ck_ok, OK)
CK(ck_no_proxy_fence, NO_PROXY_FENCE)
CK(ck_sync_first_only, SYNC_FIRST_ONLY)
CK(ck_no_empty_wait, NO_EMPTY_WAIT)
CK(ck_empty_wrong_parity, EMPTY_WRONG_PARITY)
CK(ck_no_done_wait, NO_DONE_WAIT)
CK(ck_done_wrong_parity, DONE_WRONG_PARITY)
CK(ck_commit_early, COMMIT_EARLY)
CK(ck_commit_all_lanes, COMMIT_ALL_LANES)
CK(ck_commit_other, COMMIT_OTHER)
CK(ck_dealloc_early, DEALLOC_EARLY)
CK(ck_no_dealloc, NO_DEALLOC)
CK(ck_alloc_never, ALLOC_NEVER)
CK(ck_done_count_2, DONE_COUNT_2)
CK(ck_no_fence_after, NO_FENCE_AFTER)
CK(ck_no_fence_before, NO_FENCE_BEFORE)
CK(ck_no_wait_st, NO_WAIT_ST)
CK(ck_st_ld_no_wait, ST_LD_NO_WAIT)
CK(ck_wrong_quarter, WRONG_QUARTER)
CK(ck_ld_half_warp, LD_HALF_WARP)
CK(ck_ld_unwritten, LD_UNWRITTEN)
CK(ck_b_unfilled, B_UNFILLED)
CK(ck_st_over_ld, ST_OVER_LD)
CK(ck_tile2_no_fence_before, TILE2_NO_FENCE_BEFORE)
CK(ck_ld_no_wait, LD_NO_WAIT)
CK(ck_elect_half_warp, ELECT_HALF_WARP)
CK(ck_done_no_flip, DONE_NO_FLIP)
CK(ck_desc_base_offset, DESC_BASE_OFFSET)
