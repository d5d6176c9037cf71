/* tc5 — the model's GEMM on an NVIDIA GPU (issue 21, first part): the
 * same bits as tc5_gemm, computed by CUDA threads, each output element by
 * the same inline functions as the CPU reference (src/arith/arith_step.h).
 * Built by the CMake build when nvcc is found (tc5 gemm --device cuda) and
 * by gpu/run.sh gemm; the header stays in gpu/ (not installed) until the
 * library exports it. A correct, unoptimised kernel (one thread an
 * element). */
#ifndef TC5_GEMM_CUDA_H
#define TC5_GEMM_CUDA_H

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

#ifdef __cplusplus
}
#endif
#endif
