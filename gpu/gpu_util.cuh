/* tc5 GPU programs — what they share: CUDA error checks and the wgmma
 * accumulator fragment (PTX wgmma "Register Fragments": for m64nN, thread t
 * of the warpgroup holds, for i < N/2, row 16 (t/32) + (t%32)/4 + 8 ((i/2)%2)
 * and column 8 (i/4) + 2 (t%4) + i%2). */
#ifndef TC5_GPU_UTIL_CUH
#define TC5_GPU_UTIL_CUH

#include <cstdio>
#include <cstdlib>

#define CK(x)                                                                             \
  do {                                                                                    \
    cudaError_t e_ = (x);                                                                 \
    if (e_ != cudaSuccess) {                                                              \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      exit(2);                                                                            \
    }                                                                                     \
  } while (0)

__device__ __forceinline__ int frag_row(int t, int i) { return 16 * (t / 32) + (t % 32) / 4 + 8 * ((i / 2) % 2); }
__device__ __forceinline__ int frag_col(int t, int i) { return 8 * (i / 4) + 2 * (t % 4) + i % 2; }

#endif
