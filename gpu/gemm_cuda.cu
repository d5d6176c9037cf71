// tc5_gemm on the GPU (include/tc5/gemm_cuda.h): one thread an output
// element, each computed by tc5__dot_elem, the CPU reference's own inline
// code (src/arith/arith_step.h), so both compute the same bits by
// construction; gpu/gemm_check.cu checks that they do on the H100.
#include <cuda_runtime.h>

#include <cstdio>

extern "C" {
#include "gemm_cuda.h"
#include "arith/arith_step.h"
void tc5__model_of(const tc5_dot *d, tc5_arith_model *m);
}

__global__ static void gemm_kernel(tc5_arith_model m, unsigned M, unsigned N, unsigned K, const uint32_t *A,
                                   const uint32_t *B, const uint32_t *SA, const uint32_t *SB, uint32_t *D,
                                   bool enable, unsigned scale, bool negate) {
  unsigned n = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y;
  if (n >= N || r >= M) return;
  tc5_term terms[80];
  size_t ns = m.scaled ? K / m.block : 0;
  uint32_t *d = D + (size_t)r * N + n;
  *d = tc5__dot_elem(&m, K, A + (size_t)r * K, B + n, N, SA ? SA + (size_t)r * ns : NULL, SB ? SB + n : NULL,
                     enable ? *d : 0, enable, scale, negate, terms, NULL);
}

static tc5_status cuda_fail(tc5_diag *diag, cudaError_t e, const char *what) {
  return tc5_diag_add(diag, TC5_ESTATE, "cuda", (uint64_t)e, "tc5_gemm_cuda: %s: %s", what, cudaGetErrorString(e));
}

extern "C" tc5_status tc5_gemm_cuda_device(const tc5_dot *m, unsigned M, unsigned N, unsigned K, const uint32_t *A,
                                           const uint32_t *B, const uint32_t *SA, const uint32_t *SB, uint32_t *D,
                                           const tc5_dot_opts *o, tc5_diag *diag) {
  if (!m || !A || !B || !D) return TC5_EINVAL;
  tc5_dot_opts def;
  tc5_status st = tc5__dot_begin(m, K, &o, &def);
  if (st) return st;
  if (m->stype != TC5_TYPE_NONE && (!SA || !SB)) return TC5_EINVAL;
  if ((m->chunk ? m->chunk : K) > tc5__max_chunk(m)) return TC5_EUNSUPPORTED;
  tc5_arith_model am;
  tc5__model_of(m, &am);
  dim3 block(128), grid((N + 127) / 128, M);
  gemm_kernel<<<grid, block>>>(am, M, N, K, A, B, SA, SB, D, o->enable_input_d, o->scale_input_d,
                               o->negate_a ^ o->negate_b);
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  return e == cudaSuccess ? TC5_OK : cuda_fail(diag, e, "the kernel");
}

extern "C" tc5_status tc5_gemm_cuda(const tc5_dot *m, unsigned M, unsigned N, unsigned K, const uint32_t *A,
                                    const uint32_t *B, const uint32_t *SA, const uint32_t *SB, uint32_t *D,
                                    const tc5_dot_opts *o, double *seconds, tc5_diag *diag) {
  if (!m || !A || !B || !D) return TC5_EINVAL;
  size_t ns = m->stype != TC5_TYPE_NONE && m->block ? K / m->block : 0;
  size_t na = (size_t)M * K, nb = (size_t)K * N, nd = (size_t)M * N, nsa = (size_t)M * ns, nsb = ns * N;
  uint32_t *dA = NULL, *dB = NULL, *dD = NULL, *dSA = NULL, *dSB = NULL;
  cudaError_t e = cudaMalloc(&dA, na * 4);
  if (!e) e = cudaMalloc(&dB, nb * 4);
  if (!e) e = cudaMalloc(&dD, nd * 4);
  if (!e && ns) e = cudaMalloc(&dSA, nsa * 4);
  if (!e && ns) e = cudaMalloc(&dSB, nsb * 4);
  if (!e) e = cudaMemcpy(dA, A, na * 4, cudaMemcpyHostToDevice);
  if (!e) e = cudaMemcpy(dB, B, nb * 4, cudaMemcpyHostToDevice);
  if (!e) e = cudaMemcpy(dD, D, nd * 4, cudaMemcpyHostToDevice);
  if (!e && ns) e = cudaMemcpy(dSA, SA, nsa * 4, cudaMemcpyHostToDevice);
  if (!e && ns) e = cudaMemcpy(dSB, SB, nsb * 4, cudaMemcpyHostToDevice);
  tc5_status st = TC5_OK;
  if (e) st = cuda_fail(diag, e, "device memory");
  cudaEvent_t t0, t1;
  if (!st) {
    cudaEventCreate(&t0);
    cudaEventCreate(&t1);
    cudaEventRecord(t0);
    st = tc5_gemm_cuda_device(m, M, N, K, dA, dB, ns ? dSA : NULL, ns ? dSB : NULL, dD, o, diag);
    cudaEventRecord(t1);
    cudaEventSynchronize(t1);
    float ms = 0;
    cudaEventElapsedTime(&ms, t0, t1);
    if (seconds) *seconds = ms / 1e3;
    cudaEventDestroy(t0);
    cudaEventDestroy(t1);
  }
  if (!st && (e = cudaMemcpy(D, dD, nd * 4, cudaMemcpyDeviceToHost))) st = cuda_fail(diag, e, "copying D back");
  cudaFree(dA), cudaFree(dB), cudaFree(dD), cudaFree(dSA), cudaFree(dSB);
  return st;
}
