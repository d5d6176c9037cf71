/* tc5 — MMA kinds and tcgen05.mma instruction variants
 * (spec 9.7.16.10 "TensorCore 5th Generation Matrix Multiply and accumulate
 * Operations", 9.7.16.10.9 syntax of tcgen05.mma / .sp / .ws / .ws.sp).
 *
 * A variant is everything the PTX opcode text fixes: kind, cta_group, .ws,
 * .sp, .block_scale with its scale vector size, .ashift, collector usage and
 * the target architecture. Instruction descriptors are checked against a
 * variant (descriptors.h: tc5_idesc_check).
 */
#ifndef TC5_KIND_H
#define TC5_KIND_H

#include <stdbool.h>
#include <stdint.h>

#include "tc5/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tc5_kind {
  TC5_KIND_F16 = 0,
  TC5_KIND_TF32,
  TC5_KIND_F8F6F4,
  TC5_KIND_I8,
  TC5_KIND_MXF8F6F4,
  TC5_KIND_MXF4,
  TC5_KIND_MXF4NVF4,
  TC5_KIND_COUNT
} tc5_kind;

/* "f16", "tf32", ... (the PTX spelling after .kind::). */
const char *tc5_kind_name(tc5_kind k);
/* Accepts "f16", "kind::f16" and ".kind::f16". */
tc5_status tc5_kind_parse(const char *text, tc5_kind *k);
/* true for mxf8f6f4, mxf4 and mxf4nvf4 (Table 43/44 descriptor layouts). */
bool tc5_kind_is_block_scaled(tc5_kind k);

typedef enum tc5_arch {
  TC5_ARCH_SM100A = 0, /* sm_100a / sm_100f (default)                     */
  TC5_ARCH_SM103A      /* sm_103a: adds K=96 and absolute-LBO descriptors */
} tc5_arch;

const char *tc5_arch_name(tc5_arch a);
tc5_status tc5_arch_parse(const char *text, tc5_arch *a);

typedef enum tc5_collector_op {
  TC5_COLLECTOR_DEFAULT = 0, /* qualifier absent: ::discard of buffer a / b0 */
  TC5_COLLECTOR_FILL,
  TC5_COLLECTOR_USE,
  TC5_COLLECTOR_LASTUSE,
  TC5_COLLECTOR_DISCARD
} tc5_collector_op;

/* Collector buffer named by the qualifier: 'a' for the non-.ws form,
 * b0..b3 for .ws. */
typedef enum tc5_collector_buf {
  TC5_COLLECTOR_BUF_NONE = 0,
  TC5_COLLECTOR_BUF_A,
  TC5_COLLECTOR_BUF_B0,
  TC5_COLLECTOR_BUF_B1,
  TC5_COLLECTOR_BUF_B2,
  TC5_COLLECTOR_BUF_B3
} tc5_collector_buf;

typedef struct tc5_mma_variant {
  tc5_kind kind;
  uint8_t cta_group;   /* 1 or 2                                            */
  bool ws;             /* .ws (weight stationary)                           */
  bool sparse;         /* .sp                                               */
  bool block_scale;    /* .block_scale                                      */
  uint8_t scale_vec;   /* .scale_vec::NX: 1, 2 or 4; 0 when not written     */
  uint8_t block;       /* .block16 / .block32: 16 or 32; 0 when not written */
  bool ashift;         /* .ashift                                           */
  tc5_collector_buf collector_buf;
  tc5_collector_op collector_op;
  tc5_arch arch;
} tc5_mma_variant;

/* Fills a variant with defaults: cta_group::1, dense, no qualifiers,
 * sm_100a. */
tc5_status tc5_mma_variant_init(tc5_mma_variant *v, tc5_kind kind);

/* Parses the opcode text, e.g. "tcgen05.mma.cta_group::1.kind::f16",
 * "tcgen05.mma.ws.sp.cta_group::1.kind::i8.collector::b2::use",
 * "tcgen05.mma.cta_group::2.kind::mxf4nvf4.block_scale.block16".
 * Every syntax or qualifier-combination rule of 9.7.16.10.9 that the text
 * breaks is recorded in diag. */
tc5_status tc5_mma_variant_parse(const char *text, tc5_mma_variant *v,
                                 tc5_diag *diag);

/* Checks the qualifier combination alone (no descriptor): .ws only with
 * cta_group::1 and kinds f16/tf32/f8f6f4/i8, .block_scale exactly for the mx
 * kinds, scale_vec/block sizes (Table 54/55), collector buffers, .ashift. */
tc5_status tc5_mma_variant_check(const tc5_mma_variant *v, tc5_diag *diag);

/* The scale block in force (elements per scale factor, 9.7.16.10.9.1
 * "scale_vectorsize"): .blockN, the block of .scale_vec::NX for the kind
 * (Table 54: 1X and 2X are block 32, 4X block 16), or the default block 32
 * when neither is written (mxf8f6f4, mxf4). 0 for kinds without scales and
 * for .kind::mxf4nvf4 with no size written (it must be explicit). */
tc5_status tc5_mma_variant_block(const tc5_mma_variant *v, unsigned *block);

/* Canonical PTX opcode text of a variant. */
tc5_status tc5_mma_variant_format(const tc5_mma_variant *v, char *buf,
                                  size_t cap, size_t *needed);

#ifdef __cplusplus
}
#endif
#endif
