/* tc5 GPU programs — the one CUDA error check: CK(call) takes a runtime-API
 * call (cudaError_t) or a driver-API call (CUresult), the overload picks
 * CUDA's message for it. A failure prints FILE:LINE: the call: the message
 * to stderr and exits with status 2 (gpu/run.sh: 0 all match, 1 mismatch,
 * 2 error). A program using only the runtime API references no driver
 * function (the driver overload is an inline function it never calls), so
 * it links without -lcuda. */
#ifndef TC5_GPU_CUDA_CHECK_H
#define TC5_GPU_CUDA_CHECK_H

#include <cstdio>
#include <cstdlib>
#include <cuda.h>
#include <cuda_runtime_api.h>

static inline void tc5_cuda_fail(const char *file, int line, const char *call, const char *msg) {
  fprintf(stderr, "%s:%d: %s: %s\n", file, line, call, msg);
  exit(2);
}

static inline void tc5_cuda_check(cudaError_t e, const char *file, int line, const char *call) {
  if (e != cudaSuccess) tc5_cuda_fail(file, line, call, cudaGetErrorString(e));
}

static inline void tc5_cuda_check(CUresult r, const char *file, int line, const char *call) {
  if (r == CUDA_SUCCESS) return;
  const char *s = "?";
  cuGetErrorString(r, &s);
  tc5_cuda_fail(file, line, call, s);
}

#define CK(x) tc5_cuda_check((x), __FILE__, __LINE__, #x)

#endif
