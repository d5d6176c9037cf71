// tc5_gemm on the GPU (include/tc5/gemm_cuda.h): chooses the kernel
// (gpu/gemm_paths.h) and, for models no faster kernel takes, computes one
// output element a thread by tc5__dot_elem, the CPU reference's own inline
// code (src/arith/arith_step.h). gpu/gemm_check.c checks every path against
// the CPU's tc5_gemm on the H100.
#include <cuda_runtime.h>

#include <cstdio>

#include "gemm_paths.h"

__global__ static void gemm_kernel(tc5_arith_model m, unsigned M, unsigned N, unsigned K, const uint32_t *A,
                                   const uint32_t *B, const uint32_t *SA, const uint32_t *SB, uint32_t *D,
                                   bool enable, unsigned scale, bool negate) {
  unsigned n = blockIdx.x * blockDim.x + threadIdx.x;
  if (n >= N) return;
  tc5_term terms[80];
  size_t ns = m.scaled ? K / m.block : 0;
  for (unsigned r = blockIdx.y; r < M; r += gridDim.y) { /* any M: the grid's y is at most 65535 */
    uint32_t *d = D + (size_t)r * N + n;
    *d = tc5__dot_elem(&m, K, A + (size_t)r * K, B + n, N, SA ? SA + (size_t)r * ns : NULL, SB ? SB + n : NULL,
                       enable ? *d : 0, enable, scale, negate, terms, NULL);
  }
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
  if (!tc5__step_fits(m, K)) return TC5_EUNSUPPORTED;
  tc5_arith_model am;
  tc5__model_of(m, &am);
  if (M == 0 || N == 0) return TC5_OK;
  switch (tc5__gemm_cuda_kernel(m, M, K, o)) {
  case TC5_GPU_WGMMA: st = tc5__gemm_wgmma(m, M, N, K, A, B, D, o); break;
  case TC5_GPU_STEPS: st = tc5__gemm_steps(m, &am, M, N, K, A, B, SA, SB, D, o); break;
  case TC5_GPU_GROUPS: st = tc5__gemm_groups(m, &am, M, N, K, A, B, SA, SB, D, o); break;
  case TC5_GPU_ELEMENTS: {
    dim3 block(128), grid((N + 127) / 128, M < 65535 ? M : 65535);
    gemm_kernel<<<grid, block>>>(am, M, N, K, A, B, SA, SB, D, o->enable_input_d, o->scale_input_d,
                                 o->negate_a ^ o->negate_b);
    break;
  }
  }
  if (st == TC5_ENOMEM) return tc5_diag_add(diag, TC5_ENOMEM, "cuda", 0, "tc5_gemm_cuda: no device memory for the packed A and B");
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  return e == cudaSuccess ? TC5_OK : cuda_fail(diag, e, "the kernel");
}

extern "C" tc5_gpu_kernel tc5__gemm_cuda_kernel(const tc5_dot *d, unsigned M, unsigned K, const tc5_dot_opts *o) {
  tc5_dot_opts def;
  if (!o) tc5_dot_opts_init(&def), o = &def;
  return tc5__wgmma_ok(d, M, K, o) ? TC5_GPU_WGMMA
         : tc5__steps_ok(d, M, K)  ? TC5_GPU_STEPS
         : tc5__groups_ok(d, M, K) ? TC5_GPU_GROUPS
                                   : TC5_GPU_ELEMENTS;
}

extern "C" const char *tc5__gemm_cuda_path(const tc5_dot *d, unsigned M, unsigned K, const tc5_dot_opts *o) {
  static const char *const names[] = {"wgmma", "steps", "groups", "elements"};
  return names[tc5__gemm_cuda_kernel(d, M, K, o)];
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

/* ---- matrices of any element size and strides (tc5_gemm_cuda_matrices) ---- */

/* element i of x, row-major over cols */
__device__ static char *element(const tc5_cuda_matrix &x, size_t i, unsigned cols) {
  int64_t off = (int64_t)(i / cols) * x.row_stride + (int64_t)(i % cols) * x.col_stride;
  return (char *)x.data + off * (int64_t)x.bytes;
}

__global__ static void gather(tc5_cuda_matrix x, unsigned rows, unsigned cols, uint32_t *w) {
  size_t n = (size_t)rows * cols;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    const char *p = element(x, i, cols);
    w[i] = x.bytes == 1 ? *(const uint8_t *)p : x.bytes == 2 ? *(const uint16_t *)p : *(const uint32_t *)p;
  }
}

__global__ static void scatter(const uint32_t *w, unsigned rows, unsigned cols, tc5_cuda_matrix x) {
  size_t n = (size_t)rows * cols;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    char *p = element(x, i, cols);
    if (x.bytes == 1) *(uint8_t *)p = (uint8_t)w[i];
    else if (x.bytes == 2) *(uint16_t *)p = (uint16_t)w[i];
    else *(uint32_t *)p = w[i];
  }
}

static bool as_is(const tc5_cuda_matrix *x, unsigned cols) {
  return x->bytes == 4 && x->col_stride == 1 && x->row_stride == (int64_t)cols && (uintptr_t)x->data % 16 == 0;
}

/* the 32-bit words of x (rows x cols): x's own memory or a gathered copy in *tmp */
static cudaError_t words(const tc5_cuda_matrix *x, unsigned rows, unsigned cols, bool read, uint32_t **w,
                         uint32_t **tmp) {
  *tmp = NULL;
  if (as_is(x, cols)) {
    *w = (uint32_t *)x->data;
    return cudaSuccess;
  }
  cudaError_t e = cudaMallocAsync(tmp, (size_t)rows * cols * 4 + 4, 0);
  if (e) return e;
  if (read && rows && cols) gather<<<1024, 256>>>(*x, rows, cols, *tmp);
  *w = *tmp;
  return cudaPeekAtLastError();
}

static tc5_status bad_matrix(tc5_diag *diag, const char *name, const tc5_cuda_matrix *x) {
  if (!x || !x->data)
    return tc5_diag_add(diag, TC5_EINVAL, name, 0, "tc5_gemm_cuda_matrices: %s: no matrix", name);
  return tc5_diag_add(diag, TC5_EINVAL, name, x->bytes,
                      "tc5_gemm_cuda_matrices: %s: elements of %u bytes; codes come in elements of 1, 2 or 4 bytes",
                      name, x->bytes);
}

extern "C" tc5_status tc5_gemm_cuda_matrices(const tc5_dot *m, unsigned M, unsigned N, unsigned K,
                                             const tc5_cuda_matrix *A, const tc5_cuda_matrix *B,
                                             const tc5_cuda_matrix *SA, const tc5_cuda_matrix *SB,
                                             const tc5_cuda_matrix *D, const tc5_dot_opts *o, tc5_diag *diag) {
  if (!m) return TC5_EINVAL;
  const tc5_cuda_matrix *all[5] = {A, B, SA, SB, D};
  const char *names[5] = {"A", "B", "SA", "SB", "D"};
  bool scaled = m->stype != TC5_TYPE_NONE;
  for (int i = 0; i < 5; i++) {
    if ((i == 2 || i == 3) && !scaled) continue;
    const tc5_cuda_matrix *x = all[i];
    if (!x || !x->data || (x->bytes != 1 && x->bytes != 2 && x->bytes != 4)) return bad_matrix(diag, names[i], x);
  }
  tc5_dot_opts def;
  if (!o) tc5_dot_opts_init(&def), o = &def;
  unsigned nb = scaled && m->block ? K / m->block : 0;
  uint32_t *w[5] = {NULL, NULL, NULL, NULL, NULL}, *tmp[5] = {NULL, NULL, NULL, NULL, NULL};
  const unsigned rows[5] = {M, K, M, nb, M}, cols[5] = {K, N, nb, N, N};
  cudaError_t e = cudaSuccess;
  for (int i = 0; i < 5 && !e; i++)
    if (i < 2 || i == 4 || scaled) e = words(all[i], rows[i], cols[i], i != 4 || o->enable_input_d, &w[i], &tmp[i]);
  tc5_status st = e ? cuda_fail(diag, e, "gathering the matrices") : TC5_OK;
  if (!st) st = tc5_gemm_cuda_device(m, M, N, K, w[0], w[1], w[2], w[3], w[4], o, diag);
  if (!st && tmp[4] && M && N) {
    scatter<<<1024, 256>>>(tmp[4], M, N, *D);
    if ((e = cudaGetLastError()) || (e = cudaDeviceSynchronize())) st = cuda_fail(diag, e, "writing D");
  }
  for (int i = 0; i < 5; i++)
    if (tmp[i]) cudaFreeAsync(tmp[i], 0);
  cudaStreamSynchronize(0);
  return st;
}
