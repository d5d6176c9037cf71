/* tc5 GPU programs — the wgmma accumulator fragment (PTX wgmma "Register
 * Fragments": for m64nN, thread t of the warpgroup holds, for i < N/2, row
 * 16 (t/32) + (t%32)/4 + 8 ((i/2)%2) and column 8 (i/4) + 2 (t%4) + i%2).
 * Device code only (NVRTC compiles it: scripts/nvrtc12.sh). */
#ifndef TC5_KERNELS_FRAG_CUH
#define TC5_KERNELS_FRAG_CUH

__device__ __forceinline__ int frag_row(int t, int i) { return 16 * (t / 32) + (t % 32) / 4 + 8 * ((i / 2) % 2); }
__device__ __forceinline__ int frag_col(int t, int i) { return 8 * (i / 4) + 2 * (t % 4) + i % 2; }

#endif
