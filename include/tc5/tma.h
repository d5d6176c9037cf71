/* tc5 — the Tensor Memory Accelerator: what cp.async.bulk.tensor and
 * cp.reduce.async.bulk.tensor move between a tensor in global memory,
 * described by a tensor map (tc5/tensormap.h), and a CTA's shared memory.
 *
 * Tile mode (PTX ISA "Tensor copy", "Tiled mode"; cuda.h's
 * cuTensorMapEncodeTiled): the box starts at the coordinates the
 * instruction gives (signed, innermost first) and takes, along dimension i,
 * ceil(boxDim[i] / elementStrides[i]) elements elementStrides[i] apart
 * (dimension 0 always takes boxDim[0] consecutive elements when the layout
 * is not interleaved: the driver ignores its stride). In shared memory the
 * box is dense, dimension 0 fastest, then the swizzle permutes 16-byte
 * chunks by the shared-memory address bits (32B: bit 4 ^= bit 7; 64B: bits
 * 4-5 ^= 7-8; 128B: bits 4-6 ^= 7-9; the 128B modes with 32- or 64-byte
 * atoms move 32- or 64-byte chunks the same way). A load fills the elements
 * outside the tensor with zeros, or with the special NaN of oobFill nan,
 * and counts the whole box's bytes; a store or a reduction skips them.
 *
 * What the H100 showed is in docs/tma.md (gpu/run.sh tma). */
#ifndef TC5_TMA_H
#define TC5_TMA_H
#include <stdbool.h>
#include <stdint.h>
#include "tc5/smem.h"
#include "tc5/status.h"
#include "tc5/tensormap.h"
#ifdef __cplusplus
extern "C" {
#endif

/* Global memory as the copy sees it: host memory of [addr, addr + n), or
 * NULL when that range is not inside one buffer (the copy then fails with
 * TC5_EBOUNDS naming the address). */
typedef struct tc5_tma_global {
  uint8_t *(*map)(void *ctx, uint64_t addr, uint64_t n, bool write);
  void *ctx;
} tc5_tma_global;

typedef enum tc5_tma_dir { TC5_TMA_LOAD = 0, TC5_TMA_STORE, TC5_TMA_REDUCE } tc5_tma_dir;
/* cp.reduce.async.bulk's .redOp */
typedef enum tc5_tma_redop {
  TC5_TMA_ADD = 0, TC5_TMA_MIN, TC5_TMA_MAX, TC5_TMA_INC, TC5_TMA_DEC, TC5_TMA_AND, TC5_TMA_OR, TC5_TMA_XOR
} tc5_tma_redop;

/* cp.reduce.async.bulk without a tensor map: dst[i] = dst[i] op src[i]
 * over `bytes` of elements of type t (u32, s32, u64, s64, f16, bf16, f32,
 * f64; the b32/b64 of the bitwise operations are u32/u64). TC5_EILLEGAL
 * for an operation the type has not, TC5_EALIGN for bytes not a multiple
 * of the element. */
tc5_status tc5_tma_reduce(uint8_t *dst, const uint8_t *src, uint32_t bytes, tc5_tmap_type t, tc5_tma_redop op,
                          tc5_diag *diag);

/* Bytes the box occupies in shared memory (the 16-byte-aligned packed
 * types 16U4_ALIGN16B / 16U6_ALIGN16B widen: 16 bytes a 16 values). */
tc5_status tc5_tma_box_bytes(const tc5_tmap_params *p, uint32_t *bytes);
/* Bytes a load of the box completes on its mbarrier (complete_tx): the
 * box's packed bytes, which are its shared-memory bytes except for
 * 16U4_ALIGN16B and 16U6_ALIGN16B, whose gaps are not counted (the
 * transaction counts of CUTLASS's SM100 block-scaled mainloop, DeepGEMM's
 * fp8 x fp4 kernels and Triton 3.9's fp4_padded descriptors, which run on
 * B200s; docs/tma.md). */
tc5_status tc5_tma_box_tx_bytes(const tc5_tmap_params *p, uint32_t *bytes);
/* Bytes the box spans in shared memory: a swizzled box's rows each take a
 * whole swizzle row (32, 64 or 128 bytes) even when they are narrower (the
 * swizzle moves their chunks anywhere in it). */
tc5_status tc5_tma_box_footprint(const tc5_tmap_params *p, uint32_t *bytes);

/* One tile-mode copy of the box at `coords` (p->rank of them) between
 * global memory and shared memory at smem_addr. Loads mark the bytes
 * written. Errors: TC5_EALIGN (smem_addr not 128-byte aligned),
 * TC5_EBOUNDS (the box leaves shared memory, or an element inside the
 * tensor is outside global memory), TC5_EILLEGAL (a reduction the type
 * does not have), TC5_EUNSUPPORTED (an im2col map: tc5_tma_im2col). */
tc5_status tc5_tma_tile(const tc5_tmap_params *p, const int32_t *coords, tc5_tma_dir dir, tc5_tma_redop op,
                        tc5_smem *smem, uint32_t smem_addr, const tc5_tma_global *g, tc5_diag *diag);

/* One im2col-mode load (cp.async.bulk.tensor ... .im2col) through an
 * im2col tensor map of rank 3 to 5 (dimensions C, W[, H[, D]], N, innermost
 * first): pixelsPerColumn pixels, each channelsPerPixel elements from
 * channel coords[0], one after the other in shared memory (a row a pixel,
 * swizzled as a tile box's rows). The pixels walk the bounding box of
 * image coords[rank - 1] from spatial position coords[1 .. rank - 2]: along
 * W by its traversal stride (elementStrides[1]) up to the box's far edge
 * (the dimension's last index plus pixelBoxUpperCorner), then back to its
 * near edge (pixelBoxLowerCorner) and one stride along H, then D, then the
 * next image; pixel position x loads the elements at x + offsets (the
 * instruction's im2col offsets, W first), outside the tensor the map's
 * fill. Loads only; errors as tc5_tma_tile's. */
tc5_status tc5_tma_im2col(const tc5_tmap_params *p, const int32_t *coords, const uint16_t *offsets, tc5_smem *smem,
                          uint32_t smem_addr, const tc5_tma_global *g, tc5_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
