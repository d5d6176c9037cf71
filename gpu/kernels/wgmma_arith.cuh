/* tc5 on silicon: the device code of gpu/wgmma_arith.cu (Hopper `wgmma`
 * arithmetic against tc5's Hopper model): m64n64 wgmma tiles, A and B in
 * shared memory (K-major, no swizzle), C loaded into the accumulators.
 * Device code only, so that NVRTC compiles it as well as nvcc (issue 52:
 * CUDA 12's front end on PyPI is NVRTC, which refuses host code;
 * gpu/kernels/wgmma_arith.cu instantiates the kernels for it). */
#ifndef TC5_KERNELS_WGMMA_ARITH_CUH
#define TC5_KERNELS_WGMMA_ARITH_CUH

#include <cstdint>

#include "../wgmma_regs.cuh" /* WG_D32, WG_O32(d) */
#include "frag.cuh"          /* frag_row, frag_col */

/* ---- device ------------------------------------------------------------------ */

#define WG_D16 "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15}"
#define WG_O16(d)                                                                                  \
  "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]),  \
      "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]),     \
      "+r"(d[15])
/* scale-d = 1 (D = A*B + D), imm-scale-a/b = 1; f16/bf16 also take
 * imm-trans-a/b = 0 (K-major) */
#define WG_TAIL_T ", p, 1, 1, 0, 0;\n}\n"
#define WG_TAIL ", p, 1, 1;\n}\n"
#define WG_HEAD(n) "{\n.reg .pred p;\nsetp.ne.b32 p, %" #n ", 0;\n"

enum Kind { BF16_F32, F16_F32, F16_F16, TF32_F32, E4M3_F32, E5M2_E4M3_F32, E4M3_F16, NKINDS };

template <int K>
__device__ __forceinline__ void wgmma_f32(float (&d)[32], uint64_t da, uint64_t db) {
  if constexpr (K == BF16_F32)
    asm volatile(WG_HEAD(34) "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 " WG_D32 ", %32, %33" WG_TAIL_T
                 : WG_O32(d) : "l"(da), "l"(db), "r"(1) : "memory");
  else if constexpr (K == F16_F32)
    asm volatile(WG_HEAD(34) "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 " WG_D32 ", %32, %33" WG_TAIL_T
                 : WG_O32(d) : "l"(da), "l"(db), "r"(1) : "memory");
  else if constexpr (K == TF32_F32)
    asm volatile(WG_HEAD(34) "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 " WG_D32 ", %32, %33" WG_TAIL
                 : WG_O32(d) : "l"(da), "l"(db), "r"(1) : "memory");
  else if constexpr (K == E4M3_F32)
    asm volatile(WG_HEAD(34) "wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3 " WG_D32 ", %32, %33" WG_TAIL
                 : WG_O32(d) : "l"(da), "l"(db), "r"(1) : "memory");
  else if constexpr (K == E5M2_E4M3_F32)
    asm volatile(WG_HEAD(34) "wgmma.mma_async.sync.aligned.m64n64k32.f32.e5m2.e4m3 " WG_D32 ", %32, %33" WG_TAIL
                 : WG_O32(d) : "l"(da), "l"(db), "r"(1) : "memory");
}

template <int K>
__device__ __forceinline__ void wgmma_f16(uint32_t (&d)[16], uint64_t da, uint64_t db) {
  if constexpr (K == F16_F16)
    asm volatile(WG_HEAD(18) "wgmma.mma_async.sync.aligned.m64n64k16.f16.f16.f16 " WG_D16 ", %16, %17" WG_TAIL_T
                 : WG_O16(d) : "l"(da), "l"(db), "r"(1) : "memory");
  else if constexpr (K == E4M3_F16)
    asm volatile(WG_HEAD(18) "wgmma.mma_async.sync.aligned.m64n64k32.f16.e4m3.e4m3 " WG_D16 ", %16, %17" WG_TAIL
                 : WG_O16(d) : "l"(da), "l"(db), "r"(1) : "memory");
}

/* K-major, no swizzle: LBO = 128 (the next 16 bytes of K), SBO = 256 (the
 * next 8 rows) */
__device__ __forceinline__ uint64_t make_desc(const void *p) {
  uint32_t a = (uint32_t)__cvta_generic_to_shared(p);
  return (uint64_t)((a >> 4) & 0x3FFF) | (uint64_t)(128 >> 4) << 16 | (uint64_t)(256 >> 4) << 32;
}


/* A: tiles x 64 rows x (steps * 32) bytes, row-major; B: tiles x 64 columns
 * x (steps * 32) bytes (each column's K contiguous); C, D: tiles x 64 x 64
 * codes (f16 codes in the low half). One instruction step covers 32 bytes
 * of K: 16 f16, 8 tf32, 32 fp8. */
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
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    const uint32_t *gc = C + (size_t)tile * 4096;
    uint32_t *gd = D + (size_t)tile * 4096;
    if constexpr (F16OUT) {
      uint32_t d[16];
      for (int j = 0; j < 16; j++)
        d[j] = (gc[frag_row(t, 2 * j) * 64 + frag_col(t, 2 * j)] & 0xFFFF) |
               gc[frag_row(t, 2 * j + 1) * 64 + frag_col(t, 2 * j + 1)] << 16;
      asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
      for (int s = 0; s < steps; s++) wgmma_f16<K>(d, make_desc(sa + s * 2048), make_desc(sb + s * 2048));
      asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
      asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
      for (int j = 0; j < 16; j++) {
        gd[frag_row(t, 2 * j) * 64 + frag_col(t, 2 * j)] = d[j] & 0xFFFF;
        gd[frag_row(t, 2 * j + 1) * 64 + frag_col(t, 2 * j + 1)] = d[j] >> 16;
      }
    } else {
      float d[32];
      for (int i = 0; i < 32; i++) d[i] = __uint_as_float(gc[frag_row(t, i) * 64 + frag_col(t, i)]);
      asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
      for (int s = 0; s < steps; s++) wgmma_f32<K>(d, make_desc(sa + s * 2048), make_desc(sb + s * 2048));
      asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
      asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
      for (int i = 0; i < 32; i++) gd[frag_row(t, i) * 64 + frag_col(t, i)] = __float_as_uint(d[i]);
    }
    __syncthreads();
  }
}

#endif
