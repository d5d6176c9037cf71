/* tc5 — tensor maps: the 128-byte object that describes a tensor in global
 * memory for the Tensor Memory Accelerator (cp.async.bulk.tensor).
 *
 * The parameters and their validity rules are those of the CUDA driver's
 * cuTensorMapEncodeTiled and cuTensorMapEncodeIm2col (cuda.h, CUDA 13:
 * "The parameters passed are bound to the following requirements"); every
 * broken rule is a named error: the parameter, its value and the rule.
 * What must match the driver is behaviour, not bytes: the driver's encoding
 * is undocumented, so tc5 encodes the parameters its own way (below) and
 * tensormap.replace edits that encoding.
 *
 * Dimensions are listed innermost first, as the driver's are: dims[0] is
 * the contiguous dimension; strides[i] (bytes) is the stride of dimension
 * i + 1. */
#ifndef TC5_TENSORMAP_H
#define TC5_TENSORMAP_H
#include <stdbool.h>
#include <stdint.h>
#include "tc5/status.h"
#ifdef __cplusplus
extern "C" {
#endif

#define TC5_TENSORMAP_BYTES 128
#define TC5_TENSORMAP_MAX_RANK 5
/* the last 4 bytes of tc5's own encoding (encode and tensormap.replace
 * write them), which tells it from CUDA's */
#define TC5_TENSORMAP_MARK "tc5\x01"

/* CUtensorMapDataType, in the driver's order */
typedef enum tc5_tmap_type {
  TC5_TMAP_U8 = 0, TC5_TMAP_U16, TC5_TMAP_U32, TC5_TMAP_S32, TC5_TMAP_U64, TC5_TMAP_S64,
  TC5_TMAP_F16, TC5_TMAP_F32, TC5_TMAP_F64, TC5_TMAP_BF16, TC5_TMAP_F32_FTZ, TC5_TMAP_TF32,
  TC5_TMAP_TF32_FTZ, TC5_TMAP_16U4_ALIGN8B, TC5_TMAP_16U4_ALIGN16B, TC5_TMAP_16U6_ALIGN16B,
  TC5_TMAP_TYPE_COUNT
} tc5_tmap_type;
/* CUtensorMapInterleave */
typedef enum tc5_tmap_interleave { TC5_TMAP_INTERLEAVE_NONE = 0, TC5_TMAP_INTERLEAVE_16B, TC5_TMAP_INTERLEAVE_32B } tc5_tmap_interleave;
/* CUtensorMapSwizzle */
typedef enum tc5_tmap_swizzle {
  TC5_TMAP_SWIZZLE_NONE = 0, TC5_TMAP_SWIZZLE_32B, TC5_TMAP_SWIZZLE_64B, TC5_TMAP_SWIZZLE_128B,
  TC5_TMAP_SWIZZLE_128B_ATOM_32B, TC5_TMAP_SWIZZLE_128B_ATOM_32B_FLIP_8B, TC5_TMAP_SWIZZLE_128B_ATOM_64B,
  TC5_TMAP_SWIZZLE_COUNT
} tc5_tmap_swizzle;
/* CUtensorMapL2promotion */
typedef enum tc5_tmap_l2 { TC5_TMAP_L2_NONE = 0, TC5_TMAP_L2_64B, TC5_TMAP_L2_128B, TC5_TMAP_L2_256B } tc5_tmap_l2;
/* CUtensorMapFloatOOBfill */
typedef enum tc5_tmap_oob { TC5_TMAP_OOB_ZERO = 0, TC5_TMAP_OOB_NAN } tc5_tmap_oob;
typedef enum tc5_tmap_mode { TC5_TMAP_TILED = 0, TC5_TMAP_IM2COL } tc5_tmap_mode;

/* The parameters of cuTensorMapEncodeTiled / cuTensorMapEncodeIm2col. */
typedef struct tc5_tmap_params {
  tc5_tmap_mode mode;
  tc5_tmap_type type;
  uint32_t rank;                                   /* 1..5 (im2col: 3..5)       */
  uint64_t address;                                /* global address            */
  uint64_t dims[TC5_TENSORMAP_MAX_RANK];           /* elements, innermost first */
  uint64_t strides[TC5_TENSORMAP_MAX_RANK - 1];    /* bytes, of dims 1..rank-1  */
  uint32_t box[TC5_TENSORMAP_MAX_RANK];            /* tiled: elements           */
  uint32_t estrides[TC5_TENSORMAP_MAX_RANK];       /* traversal strides         */
  tc5_tmap_interleave interleave;
  tc5_tmap_swizzle swizzle;
  tc5_tmap_l2 l2;
  tc5_tmap_oob oob;
  /* im2col only */
  int32_t lower[3], upper[3];                      /* pixel box corners, rank-2 */
  uint32_t channels, pixels;                       /* per pixel, per column     */
} tc5_tmap_params;

/* A tensor map as kernels receive it (by value in a .param of 128 bytes
 * aligned to 64, or in global memory). */
typedef struct tc5_tensormap {
  uint8_t bytes[TC5_TENSORMAP_BYTES];
} tc5_tensormap;

/* The parameters' names ("bf16", "128B", "16u4_align8b"...) and sizes. */
const char *tc5_tmap_type_name(unsigned type);
/* bits of one element (4 and 6 for the packed types) */
tc5_status tc5_tmap_type_bits(tc5_tmap_type type, unsigned *bits);
const char *tc5_tmap_swizzle_name(unsigned swizzle);
/* the bytes of a swizzle row (its span): 0 (none), 32, 64 or 128 */
unsigned tc5_tmap_swizzle_bytes(unsigned swizzle);

/* Checks p against every rule of cuTensorMapEncodeTiled (p->mode TILED) or
 * cuTensorMapEncodeIm2col (IM2COL), recording each broken one in diag
 * ("tensor map: boxDim[0] * element size = 40 bytes is not a multiple of
 * 16 (interleave none)"), and encodes it. *out is written only on
 * success. TC5_EINVAL for an unknown enum value or a NULL pointer,
 * TC5_ERANGE for a value outside its range, TC5_EALIGN for an address or
 * stride, TC5_EILLEGAL for a combination. */
tc5_status tc5_tensormap_encode(tc5_tensormap *out, const tc5_tmap_params *p, tc5_diag *diag);
/* Reads a map back (after tensormap.replace too), every encode rule
 * checked (a map of zeros has rank 0: TC5_ERANGE). */
tc5_status tc5_tensormap_decode(const tc5_tensormap *map, tc5_tmap_params *p, tc5_diag *diag);

/* CUDA's own encoding: the 128 bytes cuTensorMapEncodeTiled writes (the
 * layout read off an H100's driver, CUDA 13.0: src/tma/tensormap_cuda.c
 * and docs/tma.md). Encode checks every rule as tc5_tensormap_encode does
 * and writes the bytes the driver writes; decode reads them back, every
 * rule checked, and refuses a bit the layout gives no meaning to.
 * TC5_EUNSUPPORTED (by name) for what the measurements do not reach: im2col
 * maps, the packed 4/6-bit types and the 128B swizzles with 32B/64B atoms
 * (an H100's driver refuses them), bits 32-35 of globalStrides[1..3].
 * The Blackwell form (bit 1 of byte 8: what CuTe DSL's host code writes for
 * sm_100a) has only bytes 0-59; decode reads it too. tc5_tensormap_is_cuda
 * tells the two encodings apart: tc5's ends in TC5_TENSORMAP_MARK (or,
 * written before the mark, decodes as tc5's), and a map of zeros is
 * neither; the PTX runner reads either. */
tc5_status tc5_tensormap_cuda_encode(tc5_tensormap *out, const tc5_tmap_params *p, tc5_diag *diag);
tc5_status tc5_tensormap_cuda_decode(const tc5_tensormap *map, tc5_tmap_params *p, tc5_diag *diag);
bool tc5_tensormap_is_cuda(const tc5_tensormap *map);

/* tensormap.replace's fields (PTX ISA "tensormap.replace"). */
typedef enum tc5_tmap_field {
  TC5_TMAP_F_GLOBAL_ADDRESS = 0, TC5_TMAP_F_RANK, TC5_TMAP_F_BOX_DIM, TC5_TMAP_F_GLOBAL_DIM,
  TC5_TMAP_F_GLOBAL_STRIDE, TC5_TMAP_F_ELEMENT_STRIDE, TC5_TMAP_F_ELEMTYPE, TC5_TMAP_F_INTERLEAVE_LAYOUT,
  TC5_TMAP_F_SWIZZLE_MODE, TC5_TMAP_F_SWIZZLE_ATOMICITY, TC5_TMAP_F_FILL_MODE, TC5_TMAP_F_COUNT
} tc5_tmap_field;
/* Writes one field of an encoded map as tensormap.replace.tile does, with
 * the instruction's encodings: rank is the rank minus one; box_dim,
 * global_dim, element_stride are values, global_stride bytes, of dimension
 * `ord` (global_stride: of dimension ord + 1); elemtype the PTX enumeration
 * (0-7 as the driver's, 8 f32.ftz, 9 f64, 10 bf16, 11 tf32, 12 tf32.ftz,
 * 13-15 the packed types: Triton's TMA_DTYPE_DEVICE_TO_HOST,
 * triton/backends/nvidia/driver.py); swizzle_mode 0-3 (none, 32B, 64B,
 * 128B) and swizzle_atomicity 0-3 (16B, 32B, 32B with the 8-byte flip,
 * 64B; only with 128B); interleave_layout 0-2; fill_mode 0 zero, 1 NaN.
 * The result is not checked (a kernel passes through invalid maps while it
 * builds one from zeros); the copy that uses it decodes it, every rule
 * checked. TC5_ERANGE for an ordinal or a value that has no encoding. */
tc5_status tc5_tensormap_replace(tc5_tensormap *map, tc5_tmap_field field, unsigned ord, uint64_t value,
                                 tc5_diag *diag);

/* The text form used by `tc5 run --arg tmap:...` and the silicon harness:
 * comma-separated key=value, dims innermost first, lists joined by 'x':
 *   type=bf16,dims=64x128,strides=128,box=64x64[,estrides=1x1]
 *   [,interleave=none|16B|32B][,swizzle=none|32B|64B|128B|128B_atom_32B|
 *   128B_atom_32B_flip_8B|128B_atom_64B][,l2=none|64B|128B|256B]
 *   [,oob=zero|nan][,im2col=LOWER/UPPER/CHANNELS/PIXELS]
 * where the im2col corners are lists like -1x-1. Keys the caller handles
 * (the launcher's buf= and offset=) are passed to `extra`, which returns
 * false for a key it does not know either. p->address is left 0. */
tc5_status tc5_tmap_params_parse(const char *text, tc5_tmap_params *p,
                                 bool (*extra)(void *ctx, const char *key, const char *value), void *ctx,
                                 tc5_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
