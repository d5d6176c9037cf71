/* tc5 GPU programs — what they share: CUDA error checks and the wgmma
 * accumulator fragment (PTX wgmma "Register Fragments": for m64nN, thread t
 * of the warpgroup holds, for i < N/2, row 16 (t/32) + (t%32)/4 + 8 ((i/2)%2)
 * and column 8 (i/4) + 2 (t%4) + i%2). */
#ifndef TC5_GPU_UTIL_CUH
#define TC5_GPU_UTIL_CUH

#include <cstdint>
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

/* the 32 f32 accumulator registers of an m64n64 wgmma, as asm operands */
#define WG_D32 \
  "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}"
#define WG_O32(d)                                                                                  \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),  \
      "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),     \
      "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),   \
      "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]),   \
      "+f"(d[29]), "+f"(d[30]), "+f"(d[31])

__device__ __forceinline__ int frag_row(int t, int i) { return 16 * (t / 32) + (t % 32) / 4 + 8 * ((i / 2) % 2); }
__device__ __forceinline__ int frag_col(int t, int i) { return 8 * (i / 4) + 2 * (t % 4) + i % 2; }

#endif
