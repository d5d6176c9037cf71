// A Blackwell GEMM written with CuTe's SM100 atoms, in the style of CUTLASS's
// Blackwell tutorials (examples/cute/tutorial/blackwell/0[24]_*.cu), for
// `tc5 run`: tc5's own kernel, compiled with nvcc -arch=sm_100a -ptx by
// tests/cuda/gen_cute.sh into tests/data/ptx/cute/ (committed: CuTe is slow to
// compile on two cores), run by tests/ptx/cute_gemm.sh and compared with
// `tc5 gemm` bit for bit.
//
// D (M x N, f32, row-major) = A (M x K, K-major) . B^T (B: N x K, K-major).
// One MMA tile a CTA (1-SM: 128 x 256) or a CTA pair (2-SM: 256 x 256, a
// cluster of two); K in tiles of one 128-byte swizzle atom (64 bf16 or 128
// fp8 elements). For each K tile, in warp 0 of each CTA, one thread loads
// the CTA's part of A and B with TMA (SM90_TMA_LOAD_2D; the pair: SM100_TMA_2SM_LOAD_2D, whose
// bytes complete on the even CTA's mbarrier), the even CTA's thread waits,
// issues the tile's MMAs (cute::gemm on SM100_MMA_F16BF16_SS /
// _2x1SM_SS, SM100_MMA_F8F6F4_SS / _2x1SM_SS, the shared-memory descriptors
// from make_fragment_A/B) and commits (umma_arrive, or
// umma_arrive_multicast_2x1SM to both CTAs); every CTA waits for the commit
// before its buffers are refilled. The epilogue reads the accumulator from
// Tensor Memory with SM100_TMEM_LOAD_32dp32b32x (make_tmem_copy) and stores
// it. Tensor maps: boxes of (one swizzle atom of K) x (the CTA's rows),
// 128B swizzle; the launcher passes them (tc5 run --arg tmap:...).
#include <cuda.h>

#include <cute/arch/cluster_sm90.hpp>
#include <cute/arch/copy_sm100_tma.hpp>
#include <cute/arch/copy_sm90_tma.hpp>
#include <cute/arch/tmem_allocator_sm100.hpp>
#include <cute/tensor.hpp>
#include <cutlass/arch/barrier.h>

using namespace cute;

template <class T, bool Pair, bool F8>
struct GemmCfg {
  static constexpr int MmaM = Pair ? 256 : 128, MmaN = 256;
  using Op = conditional_t<
      F8,
      conditional_t<Pair,
                    MMA_Traits<SM100_MMA_F8F6F4_2x1SM_SS, T, T, float, C<MmaM>, C<MmaN>,
                               integral_constant<UMMA::Major, UMMA::Major::K>, integral_constant<UMMA::Major, UMMA::Major::K>,
                               integral_constant<UMMA::ScaleIn, UMMA::ScaleIn::One>,
                               integral_constant<UMMA::ScaleIn, UMMA::ScaleIn::One>>,
                    MMA_Traits<SM100_MMA_F8F6F4_SS, T, T, float, C<MmaM>, C<MmaN>,
                               integral_constant<UMMA::Major, UMMA::Major::K>, integral_constant<UMMA::Major, UMMA::Major::K>,
                               integral_constant<UMMA::ScaleIn, UMMA::ScaleIn::One>,
                               integral_constant<UMMA::ScaleIn, UMMA::ScaleIn::One>>>,
      conditional_t<Pair, SM100_MMA_F16BF16_2x1SM_SS<T, T, float, MmaM, MmaN, UMMA::Major::K, UMMA::Major::K>,
                    SM100_MMA_F16BF16_SS<T, T, float, MmaM, MmaN, UMMA::Major::K, UMMA::Major::K>>>;
  static constexpr int TileK = 128 / sizeof(T); /* one 128B swizzle atom of K */
};

template <class T, bool Pair, bool F8>
__device__ void gemm_tile(CUtensorMap const *tmA, CUtensorMap const *tmB, float *D, int M, int N, int K) {
  using Cfg = GemmCfg<T, Pair, F8>;
  TiledMMA tiled_mma = make_tiled_mma(typename Cfg::Op{});
  auto tiler = make_shape(Int<Cfg::MmaM>{}, Int<Cfg::MmaN>{}, Int<Cfg::TileK>{});
  /* this CTA's shared-memory tiles, laid out for the MMA (128B swizzle, K-major) */
  auto sA_layout = UMMA::tile_to_mma_shape(UMMA::Layout_K_SW128_Atom<T>{},
                                           partition_shape_A(tiled_mma, make_shape(get<0>(tiler), get<2>(tiler))));
  auto sB_layout = UMMA::tile_to_mma_shape(UMMA::Layout_K_SW128_Atom<T>{},
                                           partition_shape_B(tiled_mma, make_shape(get<1>(tiler), get<2>(tiler))));
  constexpr int a_elems = cosize_v<decltype(sA_layout)>, b_elems = cosize_v<decltype(sB_layout)>;
  extern __shared__ __align__(1024) uint8_t dyn[];
  T *sa_ptr = reinterpret_cast<T *>(dyn), *sb_ptr = reinterpret_cast<T *>(dyn + a_elems * sizeof(T));
  __shared__ __align__(8) uint64_t tma_bar, mma_bar;
  __shared__ uint32_t tmem_base;
  Tensor tCsA = make_tensor(make_smem_ptr(sa_ptr), sA_layout);
  Tensor tCsB = make_tensor(make_smem_ptr(sb_ptr), sB_layout);

  uint32_t peer = Pair ? cute::block_rank_in_cluster() % 2 : 0;
  int tile_m = Pair ? blockIdx.x / 2 : blockIdx.x, tile_n = blockIdx.y;
  ThrMMA cta_mma = tiled_mma.get_slice(peer);
  Tensor tCrA = cta_mma.make_fragment_A(tCsA); /* UMMA descriptors, one a K block */
  Tensor tCrB = cta_mma.make_fragment_B(tCsB);
  /* the accumulator: this CTA's rows of the tile, over all N columns */
  Tensor mD = make_tensor(make_gmem_ptr(D), make_shape(M, N), make_stride(N, Int<1>{}));
  Tensor gD = local_tile(mD, tiler, make_coord(tile_m, tile_n, _), Step<_1, _1, X>{});
  Tensor tCgD = cta_mma.partition_C(gD);
  Tensor tCtAcc = cta_mma.make_fragment_C(tCgD);

  int warp = threadIdx.x / 32;
  using Alloc = conditional_t<Pair, TMEM::Allocator2Sm, TMEM::Allocator1Sm>;
  Alloc tmem_alloc{};
  if (warp == 0) tmem_alloc.allocate(Cfg::MmaN, &tmem_base);
  if (threadIdx.x == 0) {
    cute::initialize_barrier(tma_bar, 1);
    cute::initialize_barrier(mma_bar, 1);
  }
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  if constexpr (Pair) cute::cluster_sync(); /* the peer's mbarriers initialised, both allocations done */
  else __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
  tCtAcc.data() = tmem_base;

  /* the TMA boxes: this CTA's rows of A (M / pair) and of B (N / pair) */
  constexpr int rows_a = Cfg::MmaM / (Pair ? 2 : 1), rows_b = Cfg::MmaN / (Pair ? 2 : 1);
  constexpr int tx_bytes = (Pair ? 2 : 1) * (a_elems + b_elems) * sizeof(T);
  int row_a = tile_m * Cfg::MmaM + peer * rows_a, row_b = tile_n * Cfg::MmaN + peer * rows_b;
  bool leader = peer == 0;
  int phase = 0;
  /* the main loop is warp 0's in each CTA (a warp that only waited could
   * fall two phases behind and alias the parity) */
  if (warp == 0) {
    tiled_mma.accumulate_ = UMMA::ScaleOut::Zero;
    for (int k0 = 0; k0 < K; k0 += Cfg::TileK) {
      if (cute::elect_one_sync()) {
        if (leader) cute::set_barrier_transaction_bytes(tma_bar, tx_bytes);
        if constexpr (Pair) {
          SM100_TMA_2SM_LOAD_2D::copy(tmA, &tma_bar, 0, sa_ptr, k0, row_a);
          SM100_TMA_2SM_LOAD_2D::copy(tmB, &tma_bar, 0, sb_ptr, k0, row_b);
        } else {
          SM90_TMA_LOAD_2D::copy(tmA, &tma_bar, 0, sa_ptr, k0, row_a);
          SM90_TMA_LOAD_2D::copy(tmB, &tma_bar, 0, sb_ptr, k0, row_b);
        }
      }
      __syncwarp();
      if (leader) {
        cute::wait_barrier(tma_bar, phase);
        asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
        /* the whole warp: the MMA and commit atoms elect their thread */
        for (int kb = 0; kb < size<2>(tCrA); ++kb) {
          gemm(tiled_mma, tCrA(_, _, kb), tCrB(_, _, kb), tCtAcc);
          tiled_mma.accumulate_ = UMMA::ScaleOut::One;
        }
        if constexpr (Pair) cutlass::arch::umma_arrive_multicast_2x1SM(&mma_bar, 0b11);
        else cutlass::arch::umma_arrive(&mma_bar);
      }
      cute::wait_barrier(mma_bar, phase); /* the MMAs are done with the buffers */
      phase ^= 1;
    }
  }
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads(); /* warp 0 has seen the last MMA complete */
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");

  /* epilogue: Tensor Memory -> registers -> global, a row a thread */
  TiledCopy t2r = make_tmem_copy(SM100_TMEM_LOAD_32dp32b32x{}, tCtAcc);
  ThrCopy thr_t2r = t2r.get_slice(threadIdx.x);
  Tensor tDtAcc = thr_t2r.partition_S(tCtAcc);
  Tensor tDgD = thr_t2r.partition_D(tCgD);
  Tensor tDrAcc = make_tensor<float>(shape(tDgD));
  copy(t2r, tDtAcc, tDrAcc);
  cutlass::arch::fence_view_async_tmem_load(); /* tcgen05.wait::ld */
  copy(tDrAcc, tDgD);

  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  if constexpr (Pair) cute::cluster_sync(); /* both CTAs done with the pair's columns */
  else __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
  if (warp == 0) {
    tmem_alloc.release_allocation_lock();
    tmem_alloc.free(tmem_base, Cfg::MmaN);
  }
}

#define CUTE_GEMM(name, T, pair, f8, ...)                                                                    \
  extern "C" __global__ void __VA_ARGS__ __launch_bounds__(128) name(const __grid_constant__ CUtensorMap tmA,             \
                                                         const __grid_constant__ CUtensorMap tmB, float *D,  \
                                                         int M, int N, int K) {                              \
    gemm_tile<T, pair, f8>(&tmA, &tmB, D, M, N, K);                                                          \
  }
CUTE_GEMM(cute_gemm_bf16, cutlass::bfloat16_t, false, false)
CUTE_GEMM(cute_gemm_bf16_2sm, cutlass::bfloat16_t, true, false, __cluster_dims__(2, 1, 1))
CUTE_GEMM(cute_gemm_e4m3, cutlass::float_e4m3_t, false, true)
CUTE_GEMM(cute_gemm_e4m3_2sm, cutlass::float_e4m3_t, true, true, __cluster_dims__(2, 1, 1))
