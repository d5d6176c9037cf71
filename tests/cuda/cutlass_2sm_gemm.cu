// A CUTLASS 3.x GEMM built by the CollectiveBuilders with the 2-SM schedule
// (KernelTmaWarpSpecialized2SmSm100, epilogue TmaWarpSpecialized2Sm) for
// `tc5 run`. D (M x N, f32, row-major) = A (M x K, bf16, row-major) . B (K x
// N, bf16, column-major, i.e. N x K row-major); no C (ElementC void), alpha
// 1. The MMA tile is 256 x 128 x 64 on a cluster of 2 x 1 (one CTA pair);
// the tile scheduler is CUTLASS's default for SM100, which asks for more
// work with clusterlaunchcontrol.try_cancel.
//
// Compiled twice by tests/cuda/gen_cutlass.sh: with -ptx for the kernel
// (tests/data/ptx/cutlass/cutlass_2sm_gemm.ptx), and as a host program that
// runs CUTLASS's own host code (GemmKernel::to_underlying_arguments) to
// build the kernel's Params for given M, N, K and writes them, byte for
// byte, with the launch configuration: the tensor maps inside come from
// cuTensorMapEncodeTiled, which this program defines with tc5's encoder
// (tc5_tensormap_encode), and the global addresses from tc5 run's rule for
// buffers (the first at 0x200000000, each next 64 KiB past the end of the
// one before, 256-byte aligned), so that `tc5 run --arg bytes:params.bin
// --buffer in:A --buffer in:B --buffer out:D:BYTES` sees the same tensors.
// usage (host program): cutlass_2sm_gemm M N K params.bin
#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cute/tensor.hpp"
#include "cutlass/cutlass.h"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/epilogue/thread/linear_combination.h"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/dispatch_policy.hpp"
#include "cutlass/gemm/kernel/gemm_universal.hpp"
#include "cutlass/util/packed_stride.hpp"

using namespace cute;

using ElementA = cutlass::bfloat16_t;
using ElementB = cutlass::bfloat16_t;
using ElementD = float;
using LayoutA = cutlass::layout::RowMajor;
using LayoutB = cutlass::layout::ColumnMajor;
using LayoutD = cutlass::layout::RowMajor;
constexpr int AlignA = 8, AlignB = 8, AlignD = 4;
using MmaTileShape = Shape<_256, _128, _64>;
using ClusterShape = Shape<_2, _1, _1>;

using CollectiveEpilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
    cutlass::arch::Sm100, cutlass::arch::OpClassTensorOp, MmaTileShape, ClusterShape,
    cutlass::epilogue::collective::EpilogueTileAuto, float, float, void, LayoutD, AlignD, ElementD, LayoutD, AlignD,
    cutlass::epilogue::TmaWarpSpecialized2Sm>::CollectiveOp;
using CollectiveMainloop = typename cutlass::gemm::collective::CollectiveBuilder<
    cutlass::arch::Sm100, cutlass::arch::OpClassTensorOp, ElementA, LayoutA, AlignA, ElementB, LayoutB, AlignB, float,
    MmaTileShape, ClusterShape,
    cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(sizeof(typename CollectiveEpilogue::SharedStorage))>,
    cutlass::gemm::KernelTmaWarpSpecialized2SmSm100>::CollectiveOp;
using GemmKernel =
    cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>, CollectiveMainloop, CollectiveEpilogue, void>;

/* the kernel is instantiated for the PTX through this pointer */
void *const tc5_kernel = (void *)&cutlass::device_kernel<GemmKernel>;

#ifndef __CUDA_ARCH__
extern "C" {
#include "tc5/tensormap.h"
}

/* CUTLASS's call (CUTLASS_ENABLE_DIRECT_CUDA_DRIVER_CALL): tc5's encoding of
 * the same parameters, the driver's enums being tc5_tmap_params' */
extern "C" CUresult cuTensorMapEncodeTiled(CUtensorMap *map, CUtensorMapDataType type, cuuint32_t rank, void *addr,
                                           const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box,
                                           const cuuint32_t *estrides, CUtensorMapInterleave interleave,
                                           CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2,
                                           CUtensorMapFloatOOBfill oob) {
  tc5_tmap_params p;
  memset(&p, 0, sizeof p);
  p.type = (tc5_tmap_type)type;
  p.rank = rank;
  p.address = (uint64_t)(uintptr_t)addr;
  for (cuuint32_t i = 0; i < rank; i++) {
    p.dims[i] = dims[i];
    p.box[i] = box[i];
    p.estrides[i] = estrides[i];
    if (i + 1 < rank) p.strides[i] = strides[i];
  }
  p.interleave = (tc5_tmap_interleave)interleave;
  p.swizzle = (tc5_tmap_swizzle)swizzle;
  p.l2 = (tc5_tmap_l2)l2;
  p.oob = (tc5_tmap_oob)oob;
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_tensormap tm;
  if (tc5_tensormap_encode(&tm, &p, &dg)) {
    fprintf(stderr, "cuTensorMapEncodeTiled: %s\n", dg.count ? dg.issue[0].message : "rejected");
    return CUDA_ERROR_INVALID_VALUE;
  }
  memcpy(map, tm.bytes, sizeof tm.bytes);
  return CUDA_SUCCESS;
}

/* tc5 run's addresses of its global buffers, in command-line order */
static uint64_t next_buffer = 0x200000000ull;
static void *buffer(size_t bytes) {
  uint64_t a = next_buffer;
  next_buffer = (next_buffer + bytes + 65536 + 255) / 256 * 256;
  return (void *)(uintptr_t)a;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: %s M N K params.bin\n", argv[0]);
    return 2;
  }
  int M = atoi(argv[1]), N = atoi(argv[2]), K = atoi(argv[3]);
  auto *A = (ElementA *)buffer((size_t)M * K * sizeof(ElementA));
  auto *B = (ElementB *)buffer((size_t)N * K * sizeof(ElementB));
  auto *D = (ElementD *)buffer((size_t)M * N * sizeof(ElementD));
  using StrideA = typename GemmKernel::StrideA;
  using StrideB = typename GemmKernel::StrideB;
  using StrideD = typename GemmKernel::StrideD;
  StrideA sa = cutlass::make_cute_packed_stride(StrideA{}, {M, K, 1});
  StrideB sb = cutlass::make_cute_packed_stride(StrideB{}, {N, K, 1});
  StrideD sd = cutlass::make_cute_packed_stride(StrideD{}, {M, N, 1});
  typename GemmKernel::Arguments args{cutlass::gemm::GemmUniversalMode::kGemm,
                                      {M, N, K, 1},
                                      {A, sa, B, sb},
                                      {{1.0f, 0.0f}, nullptr, sd, D, sd}};
  args.hw_info.device_id = 0;
  args.hw_info.sm_count = 148; /* a B200's */
  if (!GemmKernel::can_implement(args)) {
    fprintf(stderr, "CUTLASS cannot implement %d x %d x %d\n", M, N, K);
    return 1;
  }
  if (GemmKernel::get_workspace_size(args)) {
    fprintf(stderr, "this GEMM wants a workspace (%zu bytes)\n", (size_t)GemmKernel::get_workspace_size(args));
    return 1;
  }
  typename GemmKernel::Params params = GemmKernel::to_underlying_arguments(args, nullptr);
  FILE *f = fopen(argv[4], "wb");
  if (!f || fwrite(&params, sizeof params, 1, f) != 1 || fclose(f)) {
    fprintf(stderr, "cannot write %s\n", argv[4]);
    return 1;
  }
  dim3 grid = GemmKernel::get_grid_shape(params), block = GemmKernel::get_block_shape();
  auto cluster = GemmKernel::ClusterShape{};
  printf("grid=%u,%u,%u block=%u,%u,%u cluster=%d,%d,%d shared=%d params=%zu\n", grid.x, grid.y, grid.z, block.x,
         block.y, block.z, (int)size<0>(cluster), (int)size<1>(cluster), (int)size<2>(cluster),
         (int)GemmKernel::SharedStorageSize, sizeof params);
  return 0;
}
#endif
