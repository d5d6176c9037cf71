/* tc5 — where each element of an MMA operand lives in shared memory.
 *
 * Spec sections: 9.7.16.3 "Major-ness supported by strides" (LBO, SBO, the
 * absolute LBO mode), 9.7.16.3.3 "Canonical layouts", 9.7.16.4.1 Table 41
 * (base offset), 9.7.16.10.3 Table 52 (type size x major-ness x swizzle),
 * 9.7.16.10.6 "Shared memory layout and swizzling" (Table 53 atoms) and the
 * shared-memory packing of fp4/fp6 (9.7.16.10.4.4, 9.7.16.10.4.6).
 *
 * In 16-byte chunks (T elements each, T = 128 / element bits) the canonical
 * layouts are, for element (mn, k) with c the chunk index along the
 * contiguous dimension and e the element within the chunk:
 *   K-major  none      (mn%8)*16 + (mn/8)*SBO + c*LBO
 *   K-major  swizzled  (mn%8)*W  + (mn/8)*SBO + c*16          (W = 32/64/128)
 *   MN-major none      c*SBO + (k%8)*16 + (k/8)*LBO
 *   MN-major swizzled  (c%(W/16))*16 + (c/(W/16))*LBO + (k%8)*W + (k/8)*SBO
 *   MN-major 128B/32B  (c%8)*16 + (c/8)*LBO + (k%4)*128 + (k/4)*SBO
 * plus the start address, then the swizzle XORs address bits: 32B bit 4
 * with bit 7, 64B bits 4-5 with 7-8, 128B bits 4-6 with 7-9, 128B with 32B
 * atoms bits 5-6 with 7-8 (CuTe's Swizzle<1,4,3>, <2,4,3>, <3,4,3>,
 * <2,5,2> of include/cute/atom/mma_traits_sm100.hpp), the row bits taken
 * relative to the pattern start that the base offset gives (Table 41).
 */
#ifndef TC5_LAYOUT_H
#define TC5_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "tc5/descriptors.h"
#include "tc5/formats.h"
#include "tc5/kind.h"
#include "tc5/smem.h"
#include "tc5/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Major-ness of an operand (9.7.16.10.6): K-major when the idesc transpose
 * bit is 0, M-major (A) / N-major (B) when it is 1. */
typedef enum tc5_major { TC5_MAJOR_K = 0, TC5_MAJOR_MN = 1 } tc5_major;
const char *tc5_major_name(tc5_major m);          /* "K", "MN" */
tc5_status tc5_major_parse(const char *text, tc5_major *m); /* K, MN, M, N */

/* How elements are stored in shared memory (9.7.16.10.4) */
typedef enum tc5_smem_packing {
  TC5_PACK_NATURAL = 0, /* one element in its own width: 32, 16 or 8 bits      */
  TC5_PACK_PADDED16,    /* fp4/fp6 of .kind::f8f6f4/.kind::mxf8f6f4: 16
                           elements packed at the start of each 16 bytes, the
                           rest padding (TMA's b4x16_p64 / b6x16_p32)          */
  TC5_PACK_FP4X2        /* fp4 of .kind::mxf4/.kind::mxf4nvf4: two a byte      */
} tc5_smem_packing;

typedef struct tc5_operand {
  tc5_type type;
  tc5_major major;
  tc5_smem_packing packing;
} tc5_operand;

/* The operand of an MMA of `kind` whose elements are `type` (the packing
 * follows from both). TC5_EILLEGAL when the kind has no such type. */
tc5_status tc5_operand_for(tc5_kind kind, tc5_type type, tc5_major major, tc5_operand *op);
/* Bits an element takes in shared memory (8 for padded fp4/fp6). */
unsigned tc5_operand_slot_bits(const tc5_operand *op);

typedef struct tc5_elem_loc {
  uint32_t addr;  /* byte that holds the element's lowest bit          */
  uint8_t bit;    /* position of that bit in the byte                  */
  uint8_t width;  /* bits of the element (an fp6 may span two bytes)   */
  uint32_t chunk; /* address of its 16-byte chunk, after swizzling     */
} tc5_elem_loc;

/* Element (mn, k) of the operand that descriptor d describes: mn along M
 * (A) or N (B), k along K, both from 0. Computes what the hardware reads;
 * rules are checked by tc5_layout_check. */
tc5_status tc5_layout_addr(const tc5_smem_desc *d, const tc5_operand *op, unsigned mn,
                           unsigned k, tc5_elem_loc *loc, tc5_diag *diag);

/* Every rule for reading rows x kdim elements through d from a shared
 * memory of smem_size bytes, each reported: the descriptor's own fields,
 * Table 52 (e.g. MN-major tf32 needs 128B swizzle with 32B atoms), the K
 * extent of a K-major swizzled layout within its swizzle row, the absolute
 * LBO mode's restrictions (9.7.16.3.1.2.1), elements outside the memory or
 * the 18-bit window, and two elements that share a byte (LBO/SBO too small). */
tc5_status tc5_layout_check(const tc5_smem_desc *d, const tc5_operand *op, unsigned rows,
                            unsigned kdim, uint32_t smem_size, tc5_diag *diag);
/* The rules of tc5_layout_check less one: elements may share bits. An
 * operand that is only read (wgmma's A and B) may put two elements on one
 * byte where LBO or SBO make them meet (0, or smaller than the tile): the
 * H200's wgmma reads that byte for both (issue 52,
 * tests/data/h100/wgmma-descriptors.txt). */
tc5_status tc5_layout_check_read(const tc5_smem_desc *d, const tc5_operand *op, unsigned rows,
                                 unsigned kdim, uint32_t smem_size, tc5_diag *diag);

/* Reads rows x kdim element codes (codes[mn * kdim + k]) through d, after
 * tc5_layout_check. TC5_EUNINIT when a byte read was never written. */
tc5_status tc5_layout_gather(const tc5_smem *s, const tc5_smem_desc *d, const tc5_operand *op,
                             unsigned rows, unsigned kdim, uint32_t *codes, tc5_diag *diag);

/* The compact canonical layout of a rows x kdim operand starting at
 * `start` with swizzle `sw`, as CuTe's tile_to_shape(UMMA::Layout_*_Atom)
 * builds it (atoms along MN first, then along K): the descriptor of its
 * first K block (base offset from Table 41) and the bytes it spans. */
tc5_status tc5_layout_canonical(uint32_t start, tc5_swizzle sw, const tc5_operand *op,
                                unsigned rows, unsigned kdim, tc5_smem_desc *desc,
                                uint32_t *bytes, tc5_diag *diag);

/* Writes a dense rows x kdim matrix of codes (codes[mn * kdim + k]) into
 * shared memory in that layout (padding bytes written 0) and returns the
 * descriptor of its first K block: what CuTe's make_umma_desc gives. */
tc5_status tc5_layout_scatter(tc5_smem *s, uint32_t start, tc5_swizzle sw,
                              const tc5_operand *op, unsigned rows, unsigned kdim,
                              const uint32_t *codes, tc5_smem_desc *desc, tc5_diag *diag);

/* The descriptor of the K block that starts at element k0 of a canonical
 * layout whose first block is d0 (rows: the operand's MN extent), as CuTe's
 * DescriptorIterator advances it. */
tc5_status tc5_layout_kblock(const tc5_smem_desc *d0, const tc5_operand *op, unsigned rows,
                             unsigned k0, tc5_smem_desc *dk, tc5_diag *diag);

/* Pictures of a layout. Text: the matrix (each row an element row, each
 * cell a 16-byte chunk: its address and bank group) and the memory (each
 * line 128 bytes, each cell the rows/K chunk it holds). SVG: the same two
 * views, chunks coloured by bank group the way the spec's figures colour
 * them. snprintf semantics: TC5_ETRUNC and *needed when cap is too small. */
typedef enum tc5_layout_view { TC5_VIEW_TEXT = 0, TC5_VIEW_SVG } tc5_layout_view;
tc5_status tc5_layout_render(const tc5_smem_desc *d, const tc5_operand *op, unsigned rows,
                             unsigned kdim, tc5_layout_view view, char *buf, size_t cap,
                             size_t *needed, tc5_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
