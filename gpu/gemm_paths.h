/* tc5 internal — the GPU GEMM's kernels (gpu/gemm_cuda.cu chooses one):
 *
 *   gemm_wgmma.cu  f16/bf16 -> f32 on the H100's own wgmma, whose bits the
 *                  silicon showed to be the model's (docs/gpu.md);
 *   gemm_tiled.cu  f8f6f4/mxf8f6f4 (one step of 32 products: float products
 *                  scaled to the step's alignment, truncating conversions,
 *                  integer sums) and mxf4/mxf4nvf4 (groups of 16 fp4
 *                  products as exact integer dot products, __dp4a);
 *   gemm_cuda.cu   any other model: one thread an element (tc5__dot_elem).
 *
 * tc5__gemm_cuda_kernel decides, once: the first kernel whose predicate
 * says it computes the model exactly at that shape (and that its grid
 * fits); the launchers take that for granted. Device pointers, the default
 * stream. */
#ifndef TC5_GEMM_PATHS_H
#define TC5_GEMM_PATHS_H

#ifdef __cplusplus
extern "C" {
#endif

#include "arith/arith_step.h"
#include "tc5/gemm_cuda.h"

typedef enum { TC5_GPU_WGMMA, TC5_GPU_STEPS, TC5_GPU_GROUPS, TC5_GPU_ELEMENTS } tc5_gpu_kernel;
/* which kernel tc5_gemm_cuda_device uses for (d, M, K, o) (o NULL: the
 * defaults), and its name: "wgmma", "steps", "groups" or "elements" */
tc5_gpu_kernel tc5__gemm_cuda_kernel(const tc5_dot *d, unsigned M, unsigned K, const tc5_dot_opts *o);
const char *tc5__gemm_cuda_path(const tc5_dot *d, unsigned M, unsigned K, const tc5_dot_opts *o);
/* the model with its formats resolved (src/arith/arith.c) */
void tc5__model_of(const tc5_dot *d, tc5_arith_model *m);

/* whether a kernel computes (d, M, K, o) exactly, on a grid that fits */
bool tc5__wgmma_ok(const tc5_dot *d, unsigned M, unsigned K, const tc5_dot_opts *o);
bool tc5__steps_ok(const tc5_dot *d, unsigned M, unsigned K);
bool tc5__groups_ok(const tc5_dot *d, unsigned M, unsigned K);

/* the launchers: TC5_OK launched (errors left to the caller's
 * cudaGetLastError), TC5_ENOMEM (wgmma: no room for the packed copies) */
tc5_status tc5__gemm_wgmma(const tc5_dot *d, unsigned M, unsigned N, unsigned K, const uint32_t *A, const uint32_t *B,
                           uint32_t *D, const tc5_dot_opts *o);
tc5_status tc5__gemm_steps(const tc5_dot *d, const tc5_arith_model *am, unsigned M, unsigned N, unsigned K,
                           const uint32_t *A, const uint32_t *B, const uint32_t *SA, const uint32_t *SB, uint32_t *D,
                           const tc5_dot_opts *o);
tc5_status tc5__gemm_groups(const tc5_dot *d, const tc5_arith_model *am, unsigned M, unsigned N, unsigned K,
                            const uint32_t *A, const uint32_t *B, const uint32_t *SA, const uint32_t *SB, uint32_t *D,
                            const tc5_dot_opts *o);

#ifdef __cplusplus
}
#endif
#endif
