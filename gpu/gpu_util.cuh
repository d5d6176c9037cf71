/* tc5 GPU programs — what they share: CUDA error checks and the wgmma
 * accumulator fragment (PTX wgmma "Register Fragments": for m64nN, thread t
 * of the warpgroup holds, for i < N/2, row 16 (t/32) + (t%32)/4 + 8 ((i/2)%2)
 * and column 8 (i/4) + 2 (t%4) + i%2). */
#ifndef TC5_GPU_UTIL_CUH
#define TC5_GPU_UTIL_CUH

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "cuda_check.h" /* CK(call) */

/* host inputs: splitmix64 from a state each program seeds (its results
 * quoted in the docs depend on the seed) */
static uint64_t splitmix_state;
static inline uint64_t splitmix() {
  uint64_t z = (splitmix_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static inline double splitmix_unif() { return (double)(splitmix() >> 11) * 0x1p-53; }

#include "wgmma_regs.cuh" /* WG_D32, WG_O32(d): an m64n64 wgmma's f32 accumulators */

#include "kernels/frag.cuh" /* frag_row, frag_col */

#endif
