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

#endif
