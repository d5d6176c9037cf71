/* tc5 — the model's GEMM on an NVIDIA GPU (docs/gpu.md): the same bits as
 * tc5_gemm, from the kernels of gpu/ (gpu/gemm_paths.h: the H100's wgmma
 * for f16/bf16, tiled CUDA-core kernels for the f8f6f4 and fp4 kinds, one
 * thread an element for the rest). In libtc5_cuda (CMake target
 * tc5::tc5_cuda), built and installed when CMake finds nvcc; without a
 * GPU the functions return TC5_ESTATE saying why. */
#ifndef TC5_GEMM_CUDA_H
#define TC5_GEMM_CUDA_H

#include <stdint.h>

#include "tc5/arith.h"

#ifdef __cplusplus
extern "C" {
#endif

/* tc5_gemm's contract on device pointers: D (M x N) = A (M x K) * B (K x N)
 * + C (read from D unless enable_input_d is false), SA M x (K / block), SB
 * (K / block) x N (NULL unscaled); codes as 32-bit words. Synchronous. */
tc5_status tc5_gemm_cuda_device(const tc5_dot *m, unsigned M, unsigned N, unsigned K, const uint32_t *A,
                                const uint32_t *B, const uint32_t *SA, const uint32_t *SB, uint32_t *D,
                                const tc5_dot_opts *o, tc5_diag *diag);

/* The same on host arrays (tc5_gemm's): copies in, runs, copies D back.
 * *seconds (may be NULL) gets the kernel's time, transfers excluded. */
tc5_status tc5_gemm_cuda(const tc5_dot *m, unsigned M, unsigned N, unsigned K, const uint32_t *A, const uint32_t *B,
                         const uint32_t *SA, const uint32_t *SB, uint32_t *D, const tc5_dot_opts *o, double *seconds,
                         tc5_diag *diag);

/* A matrix in GPU memory as a DLPack tensor describes it: element (i, j)
 * at (char *)data + (i * row_stride + j * col_stride) * bytes, its code in
 * the element's low bits (bytes 1, 2 or 4; strides in elements, any sign). */
typedef struct tc5_cuda_matrix {
  void *data;
  unsigned bytes;
  int64_t row_stride, col_stride;
} tc5_cuda_matrix;

/* tc5_gemm_cuda_device on such matrices (tc5.gemm's DLPack tensors): read
 * and written where they lie. A 4-byte row-major matrix is used as it is;
 * any other is first gathered into 32-bit words on the GPU (and D
 * scattered back, narrowed to its bytes), never through the host. SA and
 * SB may be NULL when unscaled. Synchronous. */
tc5_status tc5_gemm_cuda_matrices(const tc5_dot *m, unsigned M, unsigned N, unsigned K, const tc5_cuda_matrix *A,
                                  const tc5_cuda_matrix *B, const tc5_cuda_matrix *SA, const tc5_cuda_matrix *SB,
                                  const tc5_cuda_matrix *D, const tc5_dot_opts *o, tc5_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
