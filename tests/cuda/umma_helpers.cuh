// Helpers shared by the <cuda/ptx> test kernels (tcgen05_kernels.cu,
// check_kernels.cu): the canonical K-major layout without swizzling (one
// region per K block of 16: element (mn, k) at (mn % 8) * 16 + (mn / 8) *
// 256 + (k / 8) * 128 + (k % 8) * 2, i.e. LBO 128 and SBO 256, tcgen05's
// 9.7.16.3.3), its shared-memory descriptor, the bf16 x bf16 -> f32
// instruction descriptor, the fill of a stage and the mbarrier wait.
#ifndef TC5_TEST_UMMA_HELPERS_CUH
#define TC5_TEST_UMMA_HELPERS_CUH
#include <cuda/ptx>
#include <cstdint>

namespace ptx = cuda::ptx;

#define KB 16
__device__ __forceinline__ uint32_t off(int mn, int k) { return (mn % 8) * 16 + (mn / 8) * 256 + (k / 8) * 128 + (k % 8) * 2; }
/* the shared memory descriptor (Table 40): start, LBO, SBO >> 4, fixed 0b001 at bits 46-48 */
__device__ __forceinline__ uint64_t sdesc(const void *p) {
  uint64_t a = (uint32_t)__cvta_generic_to_shared(p);
  return (a >> 4 & 0x3fff) | (uint64_t)(128 >> 4) << 16 | (uint64_t)(256 >> 4) << 32 | 1ull << 46;
}
/* the instruction descriptor (Table 42): f32 D, bf16 A and B, K-major, N >> 3, M >> 4 */
__host__ __device__ constexpr uint32_t idesc(int m, int n) {
  return 1u << 4 | 1u << 7 | 1u << 10 | (uint32_t)(n >> 3) << 17 | (uint32_t)(m >> 4) << 24;
}

/* copy rows x K of a K-major global matrix into shared memory, block by block */
__device__ void fill(uint8_t *s, const uint16_t *g, int rows, int K, int k0, int kblocks) {
  for (int i = threadIdx.x; i < rows * KB * kblocks; i += blockDim.x) {
    int kb = i / (rows * KB), r = (i / KB) % rows, k = i % KB;
    *(uint16_t *)&s[kb * rows * KB * 2 + off(r, k)] = g[r * K + k0 + kb * KB + k];
  }
}

__device__ void wait_phase(uint64_t *bar, uint32_t parity) {
  while (!ptx::mbarrier_try_wait_parity(bar, parity)) {
  }
}

/* a single-CTA kernel's Tensor Memory and mbarrier: warp 0 allocates ncols
 * columns and gives up the permit, thread 0 initialises the mbarrier; the
 * shared-memory stores before are fenced for the async proxy */
static __device__ __forceinline__ void tmem_begin(uint32_t *taddr, uint32_t ncols, uint64_t *bar) {
  if (threadIdx.x < 32) {
    ptx::tcgen05_alloc(ptx::cta_group_1, taddr, ncols);
    ptx::tcgen05_relinquish_alloc_permit(ptx::cta_group_1);
  }
  if (threadIdx.x == 0) ptx::mbarrier_init(bar, 1);
  ptx::fence_proxy_async(ptx::space_shared);
  ptx::tcgen05_fence_before_thread_sync();
  __syncthreads();
  ptx::tcgen05_fence_after_thread_sync();
}

/* every warp done with Tensor Memory, then warp 0 frees it */
static __device__ __forceinline__ void tmem_end(uint32_t taddr, uint32_t ncols) {
  ptx::tcgen05_fence_before_thread_sync();
  __syncthreads();
  ptx::tcgen05_fence_after_thread_sync();
  if (threadIdx.x < 32) ptx::tcgen05_dealloc(ptx::cta_group_1, taddr, ncols);
}

/* D (lanes 32w.., columns 0..N-1 of taddr, f32) to global rows row0.. of a
 * row-major matrix with ld columns */
template <int N>
static __device__ __forceinline__ void store_d(uint32_t taddr, float *D, int row0, int col0, int ld) {
  int w = threadIdx.x / 32, l = threadIdx.x % 32;
  uint32_t v[32];
  for (int c = 0; c < N; c += 32) {
    ptx::tcgen05_ld_32x32b(reinterpret_cast<uint32_t(&)[32]>(v), taddr + ((uint32_t)(32 * w) << 16) + c);
    ptx::tcgen05_wait_ld();
    for (int j = 0; j < 32; j++) D[(row0 + 32 * w + l) * ld + col0 + c + j] = __uint_as_float(v[j]);
  }
}

#endif
