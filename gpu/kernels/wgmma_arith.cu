/* The kernels of gpu/wgmma_arith.cu as a device-only translation unit: the
 * seven instantiations its host code launches (one per Kind, F16OUT for the
 * f16 outputs), for a compiler without host code (NVRTC: scripts/nvrtc12.sh;
 * nvcc -ptx compiles it as well). */
#include "wgmma_arith.cuh"

template __global__ void wgmma_tiles<BF16_F32, false>(const uint8_t *, const uint8_t *, const uint32_t *, uint32_t *, int, int);
template __global__ void wgmma_tiles<F16_F32, false>(const uint8_t *, const uint8_t *, const uint32_t *, uint32_t *, int, int);
template __global__ void wgmma_tiles<F16_F16, true>(const uint8_t *, const uint8_t *, const uint32_t *, uint32_t *, int, int);
template __global__ void wgmma_tiles<TF32_F32, false>(const uint8_t *, const uint8_t *, const uint32_t *, uint32_t *, int, int);
template __global__ void wgmma_tiles<E4M3_F32, false>(const uint8_t *, const uint8_t *, const uint32_t *, uint32_t *, int, int);
template __global__ void wgmma_tiles<E5M2_E4M3_F32, false>(const uint8_t *, const uint8_t *, const uint32_t *, uint32_t *, int, int);
template __global__ void wgmma_tiles<E4M3_F16, true>(const uint8_t *, const uint8_t *, const uint32_t *, uint32_t *, int, int);
