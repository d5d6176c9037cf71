/* tc5 on silicon: the device code of gpu/wgmma_arith.cu (Hopper `wgmma`
 * arithmetic against tc5's Hopper model): m64n64 wgmma tiles, A and B in
 * shared memory (K-major, no swizzle), C loaded into the accumulators.
 * Device code only, so that NVRTC compiles it as well as nvcc (issue 52:
 * CUDA 12's front end on PyPI is NVRTC, which refuses host code;
 * gpu/kernels/wgmma_arith.cu instantiates the kernels for it). */
#ifndef TC5_KERNELS_WGMMA_ARITH_CUH
#define TC5_KERNELS_WGMMA_ARITH_CUH

#include <cstdint>

#include "wgmma_tile.cuh" /* WG_D32/WG_D16, WG_HEAD, make_desc, wg_tile */

/* ---- device ------------------------------------------------------------------ */

/* scale-d = 1 (D = A*B + D), imm-scale-a/b = 1; f16/bf16 also take
 * imm-trans-a/b = 0 (K-major) */
#define WG_TAIL_T ", p, 1, 1, 0, 0;\n}\n"
#define WG_TAIL ", p, 1, 1;\n}\n"
/* one dense m64n64 wgmma into d: f32 D (operands %32 a-desc, %33 b-desc, %34
 * scale-d), f16 D (%16, %17, %18) */
#define WG_MMA32(shape, tail)                                                                              \
  asm volatile(WG_HEAD(34) "wgmma.mma_async.sync.aligned." shape " " WG_D32 ", %32, %33" tail : WG_O32(d) \
               : "l"(da), "l"(db), "r"(1) : "memory")
#define WG_MMA16(shape, tail)                                                                              \
  asm volatile(WG_HEAD(18) "wgmma.mma_async.sync.aligned." shape " " WG_D16 ", %16, %17" tail : WG_O16(d) \
               : "l"(da), "l"(db), "r"(1) : "memory")

enum Kind { BF16_F32, F16_F32, F16_F16, TF32_F32, E4M3_F32, E5M2_E4M3_F32, E4M3_F16, NKINDS };

template <int K> __device__ __forceinline__ void wgmma(float (&d)[32], uint64_t da, uint64_t db) {
  if constexpr (K == BF16_F32) WG_MMA32("m64n64k16.f32.bf16.bf16", WG_TAIL_T);
  else if constexpr (K == F16_F32) WG_MMA32("m64n64k16.f32.f16.f16", WG_TAIL_T);
  else if constexpr (K == TF32_F32) WG_MMA32("m64n64k8.f32.tf32.tf32", WG_TAIL);
  else if constexpr (K == E4M3_F32) WG_MMA32("m64n64k32.f32.e4m3.e4m3", WG_TAIL);
  else if constexpr (K == E5M2_E4M3_F32) WG_MMA32("m64n64k32.f32.e5m2.e4m3", WG_TAIL);
}

template <int K> __device__ __forceinline__ void wgmma(uint32_t (&d)[16], uint64_t da, uint64_t db) {
  if constexpr (K == F16_F16) WG_MMA16("m64n64k16.f16.f16.f16", WG_TAIL_T);
  else if constexpr (K == E4M3_F16) WG_MMA16("m64n64k32.f16.e4m3.e4m3", WG_TAIL);
}

/* A: tiles x 64 rows x (steps * 32) bytes, row-major; B: tiles x 64 columns
 * x (steps * 32) bytes (each column's K contiguous); C, D: tiles x 64 x 64
 * codes (f16 codes in the low half). One instruction step covers 32 bytes
 * of K: 16 f16, 8 tf32, 32 fp8; each step's A and B a 2048-byte block of
 * two chunks a row (SBO 256). */
template <int K, bool F16OUT>
__global__ void __launch_bounds__(128) wgmma_tiles(const uint8_t *A, const uint8_t *B,
                                                   const uint32_t *C, uint32_t *D, int steps,
                                                   int tiles) {
  extern __shared__ __align__(1024) uint8_t smem[];
  const int t = threadIdx.x;
  const int row_bytes = steps * 32;
  uint8_t *sa = smem, *sb = smem + steps * 2048;
  for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const uint8_t *ga = A + (size_t)tile * 64 * row_bytes, *gb = B + (size_t)tile * 64 * row_bytes;
    const int per_row = row_bytes / 16, chunks = 64 * per_row;
    for (int c = t; c < chunks; c += 128) {
      int r = c / per_row, cc = c % per_row, s = cc / 2, kc = cc % 2;
      int off = s * 2048 + (r / 8) * 256 + kc * 128 + (r % 8) * 16;
      *(uint4 *)(sa + off) = *(const uint4 *)(ga + (size_t)c * 16);
      *(uint4 *)(sb + off) = *(const uint4 *)(gb + (size_t)c * 16);
    }
    wg_tile<F16OUT>(C, D, tile, [&](auto &d) {
      for (int s = 0; s < steps; s++) wgmma<K>(d, make_desc(sa + s * 2048, 2), make_desc(sb + s * 2048, 2));
    });
  }
}

#endif
