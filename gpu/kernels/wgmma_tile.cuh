/* tc5 on silicon: what the m64n64 wgmma tiles of gpu/kernels/wgmma_arith.cuh
 * (gpu/wgmma_arith.cu's kernels), gpu/wgmma_disagree.cu and gpu/wgmma_sparse.cu
 * share, once: the f16 accumulators as inline-asm text and operands, a wgmma's
 * scale-d predicate, one wgmma with sparse metadata, the K-major no-swizzle
 * shared-memory layout and its descriptor, and one tile's round trip through
 * the accumulators (C's codes into the fragment, the wgmmas between
 * wgmma.fence and commit/wait, D's codes out).
 * Device code only (NVRTC compiles it: scripts/nvrtc12.sh). */
#ifndef TC5_KERNELS_WGMMA_TILE_CUH
#define TC5_KERNELS_WGMMA_TILE_CUH

#include <cstdint>

#include "../wgmma_regs.cuh" /* WG_D32, WG_O32(d): the f32 accumulators */
#include "frag.cuh"          /* frag_row, frag_col */

/* f16 D: 16 registers of two codes each */
#define WG_D16 "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15}"
#define WG_O16(d)                                                                                  \
  "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]),  \
      "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]),     \
      "+r"(d[15])
/* the predicate p = (operand %n != 0): wgmma's scale-d (1: D = A*B + D) */
#define WG_HEAD(n) "{\n.reg .pred p;\nsetp.ne.b32 p, %" #n ", 0;\n"

/* one m64n64 wgmma.mma_async into d (f32 D: WG_MMA32_META; f16 D: WG_MMA16_META)
 * with da, db, meta and scale-d sd in scope: INSTR what follows "wgmma.mma_async.",
 * ARGS the operands after the descriptors (sparse: ", %34, 0" — the metadata,
 * selector 0 — then ", p, 1, 1" and, f16/bf16, ", 0, 0"; a dense kind leaves the
 * metadata operand unused) */
#define WG_MMA32_META(instr, args, sd)                                                           \
  asm volatile(WG_HEAD(35) "wgmma.mma_async." instr " " WG_D32 ", %32, %33" args ";\n}\n"        \
               : WG_O32(d) : "l"(da), "l"(db), "r"(meta), "r"(sd) : "memory")
#define WG_MMA16_META(instr, args, sd)                                                           \
  asm volatile(WG_HEAD(19) "wgmma.mma_async." instr " " WG_D16 ", %16, %17" args ";\n}\n"        \
               : WG_O16(d) : "l"(da), "l"(db), "r"(meta), "r"(sd) : "memory")

/* K-major, no swizzle: 16-byte chunks, the 8 rows of a core matrix 16 bytes
 * apart, LBO 128 (the next chunk along K), SBO 128 x chunks (the next 8 rows:
 * `chunks` 16-byte chunks a row) */
__device__ __forceinline__ uint64_t make_desc(const void *p, int chunks) {
  uint32_t a = (uint32_t)__cvta_generic_to_shared(p);
  return (uint64_t)((a >> 4) & 0x3FFF) | (uint64_t)(128 >> 4) << 16 | (uint64_t)(128 * chunks >> 4) << 32;
}

/* one operand of a tile into shared memory s as make_desc(s, bytes / 16)
 * reads it: 64 rows (A; a column each for B) of `bytes` from g, the 8 rows
 * of a core matrix 16 bytes apart, a row's chunks 128 bytes apart; thread t
 * of 128 */
__device__ __forceinline__ void wg_stage(uint8_t *s, const uint8_t *g, int bytes, int t) {
  for (int c = t; c < 64 * bytes / 16; c += 128) {
    int r = c / (bytes / 16), kc = c % (bytes / 16);
    *(uint4 *)(s + (r / 8) * 8 * bytes + kc * 128 + (r % 8) * 16) = *(const uint4 *)(g + (size_t)c * 16);
  }
}

/* one tile, after the warpgroup stored its A and B in shared memory: the
 * async-proxy fence and the barrier; C's 64 x 64 codes of tile `tile` into
 * the accumulator fragment (F16D: f16 codes, two a register, low half first);
 * mma(d) between wgmma.fence and commit/wait; D's codes out (f16 in the low
 * half); the barrier before shared memory is written again */
template <bool F16D, typename Mma>
__device__ __forceinline__ void wg_tile(const uint32_t *C, uint32_t *D, int tile, Mma mma) {
  const int t = threadIdx.x;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  const uint32_t *gc = C + (size_t)tile * 4096;
  uint32_t *gd = D + (size_t)tile * 4096;
  auto issue = [&](auto &d) { /* the wgmmas on the accumulators d, completed */
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    mma(d);
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  };
  if constexpr (F16D) {
    uint32_t d[16];
    for (int j = 0; j < 16; j++)
      d[j] = (gc[frag_row(t, 2 * j) * 64 + frag_col(t, 2 * j)] & 0xFFFF) |
             gc[frag_row(t, 2 * j + 1) * 64 + frag_col(t, 2 * j + 1)] << 16;
    issue(d);
    for (int j = 0; j < 16; j++) {
      gd[frag_row(t, 2 * j) * 64 + frag_col(t, 2 * j)] = d[j] & 0xFFFF;
      gd[frag_row(t, 2 * j + 1) * 64 + frag_col(t, 2 * j + 1)] = d[j] >> 16;
    }
  } else {
    float d[32];
    for (int i = 0; i < 32; i++) d[i] = __uint_as_float(gc[frag_row(t, i) * 64 + frag_col(t, i)]);
    issue(d);
    for (int i = 0; i < 32; i++) gd[frag_row(t, i) * 64 + frag_col(t, i)] = __float_as_uint(d[i]);
  }
  __syncthreads();
}

#endif
