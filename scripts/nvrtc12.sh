#!/usr/bin/env bash
# CUDA 12.x's front end on the project's device code (issue 52). PyPI's nvidia-cuda-nvcc-cu12 ships
# ptxas, libnvvm and headers but no nvcc driver and no cicc, so it cannot make PTX from .cu;
# nvidia-cuda-nvrtc-cu12 ships the same front end as a library: scripts/nvrtc_ptx.py stands in for
# `nvcc -ptx` through it. NVRTC takes device code only: the kernels of gpu/'s host programs whose PTX
# tc5 is tested on live in device-only files (gpu/kernels/*, included by the host files) or already
# were device-only (gpu/ptx_kernels.cu, mma_sync.cu, f64_nan.cu, tma_kernels.cu). This compiles, for
# sm_100a, tests/cuda/tcgen05_kernels.cu, tcgen05_bs_kernels.cu, tcgen05_2sm_kernels.cu and
# check_kernels.cu and runs the same tests as for CUDA 13's nvcc: tests/ptx/nvcc_tcgen05*.sh (bit for
# bit against tc5 gemm) and the checker's seeded-bug catalogue (tests/check/catalogue.sh, every ck_
# case) on NVRTC's kernels.ptx; and, for sm_90a, the kernels of the silicon corpora (tests/data/ptx/
# sm90, mma90, f64nan, tma90, attn90: the H100's committed outputs) with NVRTC's PTX in place of
# nvcc 13's, through tests/ptx/silicon.sh (every output byte against the H100's).
#   scripts/nvrtc12.sh [VERSION]     VERSION of nvidia-cuda-nvrtc-cu12 (default 12.9.86); downloads the
#                                    wheel (about 90 MB) and nvidia-cuda-runtime-cu12 of the same minor
#                                    version (its include/: cuda_fp16.h, cuda_bf16.h, cuda_fp8.h) into
#                                    build/nvrtc12. Needs build/tc5, build/tests/ptx_data and CCCL's
#                                    <cuda/ptx> (NVRTC_CCCL, default /usr/local/cuda/include/cccl).
# Also tests/cuda/cute_sm100_gemm.cu (CuTe's headers from PyPI's nvidia-cutlass 4.2.0.0, downloaded unless
# CUTLASS_DIR) through tests/ptx/cute_gemm.sh, and test_formats_cuda.cu (host code only: CUDA 12's host
# conversions from the runtime wheel's headers, built by the host compiler as nvcc would).
# Not in the default suite (downloads). Not compiled by NVRTC (docs/fidelity.md "nvcc 12.x: NVRTC"): the
# kernels of gpu/'s other host programs (no tc5 test of their PTX) and tests/cuda/cutlass_2sm_gemm.cu
# (CUTLASS 4.2 leaves its SM100 CollectiveBuilders out under NVRTC: collective_builder.hpp's
# `#if !defined(__CUDACC_RTC__)`).
set -euo pipefail
cd "$(dirname "$0")/.."
v=${1:-12.9.86}
top=$(pwd)/build/nvrtc12
mkdir -p "$top"
if [ ! -f "$top/$v/nvidia/cuda_nvrtc/lib/libnvrtc.so.12" ]; then
  python3 -m pip download -q --no-deps -d "$top/dl-$v" "nvidia-cuda-nvrtc-cu12==$v"
  python3 -m zipfile -e "$top"/dl-$v/nvidia_cuda_nvrtc_cu12-*.whl "$top/$v"
fi
rt=${v%.*}  # the runtime's headers of the same minor version
if [ ! -f "$top/rt-$rt/nvidia/cuda_runtime/include/cuda_fp16.h" ]; then
  python3 -m pip download -q --no-deps -d "$top/dl-rt-$rt" "nvidia-cuda-runtime-cu12==$rt.*"
  python3 -m zipfile -e "$top"/dl-rt-$rt/nvidia_cuda_runtime_cu12-*.whl "$top/rt-$rt"
fi
export NVRTC=$top/$v/nvidia/cuda_nvrtc/lib/libnvrtc.so.12 NVCC=$(pwd)/scripts/nvrtc_ptx.py
export NVRTC_INCLUDE=$top/rt-$rt/nvidia/cuda_runtime/include
b=$(pwd)/build
sh tests/ptx/nvcc_tcgen05.sh "$b/tc5" "$b/tests/ptx_data" "$(pwd)/tests/cuda/tcgen05_kernels.cu"
sh tests/ptx/nvcc_tcgen05_bs.sh "$b/tc5" "$b/tests/ptx_data" "$(pwd)/tests/cuda/tcgen05_bs_kernels.cu"
sh tests/ptx/nvcc_tcgen05_2sm.sh "$b/tc5" "$b/tests/ptx_data" "$(pwd)/tests/cuda/tcgen05_2sm_kernels.cu"
# the silicon corpora: NVRTC's PTX of the same sources (the flags nvcc 13's had) in a copy of each folder
sil=$top/silicon-$v
rm -rf "$sil" && mkdir -p "$sil"
silicon() { # FOLDER FILE:SOURCE[:-fmad=false] ...
  local d=$sil/$1 spec f src fl
  cp -r "tests/data/ptx/$1" "$d"
  shift
  for spec in "$@"; do
    IFS=: read -r f src fl <<< "$spec"
    "$NVCC" -arch=sm_90a -ptx $fl "$src" -o "$d/$f" 2>> "$sil/nvrtc.log"
  done
  local r
  r=$(sh tests/ptx/silicon.sh "$b/tc5" "$d" 2>&1) || sfail=$((sfail + 1))
  echo "$(basename "$d") by NVRTC $v: $(echo "$r" | tail -1)"
}
sfail=0
silicon sm90 kernels.ptx:gpu/ptx_kernels.cu:-fmad=false wgmma_arith.ptx:gpu/kernels/wgmma_arith.cu
silicon mma90 mma_sync.ptx:gpu/mma_sync.cu
silicon f64nan f64_nan.ptx:gpu/f64_nan.cu:-fmad=false
silicon tma90 kernels.ptx:gpu/tma_kernels.cu
silicon attn90 attn_mask.ptx:gpu/kernels/attn_mask.cuh:-fmad=false
# CuTe's SM100 atoms (tests/cuda/cute_sm100_gemm.cu, the CuTe headers of PyPI's nvidia-cutlass as
# tests/cuda/gen_cute.sh takes them, or CUTLASS_DIR): tests/ptx/cute_gemm.sh on NVRTC's PTX
cut=${CUTLASS_DIR:-$top/cutlass-4.2.0.0/cutlass_library/source}
if [ ! -d "$cut/include/cute" ]; then
  python3 -m pip download -q --no-deps -d "$top/dl-cutlass" nvidia-cutlass==4.2.0.0
  python3 -m zipfile -e "$top"/dl-cutlass/nvidia_cutlass-*.whl "$top/cutlass-4.2.0.0"
fi
"$NVCC" -arch=sm_100a -ptx -I"$cut/include" tests/cuda/cute_sm100_gemm.cu -o "$sil/cute_sm100_gemm.ptx" 2>> "$sil/nvrtc.log"
sh tests/ptx/cute_gemm.sh "$b/tc5" "$b/tests/ptx_data" "$sil/cute_sm100_gemm.ptx" || sfail=$((sfail + 1))
# tests/cuda/test_formats_cuda.cu has no device code: CUDA's host conversions (cuda_fp16.h ... cuda_fp4.h)
# from the CUDA 12 runtime wheel's headers, compiled as nvcc compiles host code (by the host compiler)
c++ -O2 -std=c++17 -Iinclude -I"$NVRTC_INCLUDE" -x c++ tests/cuda/test_formats_cuda.cu -x none build/libtc5.a \
  -o "$sil/test_formats_cuda" -lpthread
r=$(TC5_F32_STRIDE=${TC5_F32_STRIDE:-4099} "$sil/test_formats_cuda") || sfail=$((sfail + 1))
echo "test_formats_cuda (CUDA $rt's headers): $(echo "$r" | tail -1)"
root=$top/root
rm -rf "$root" && mkdir -p "$root/tests/data"
cp -r tests/check "$root/tests/" && cp -r tests/data/check tests/data/ptx "$root/tests/data/"
"$NVCC" -arch=sm_100a -ptx -diag-suppress 128 tests/cuda/check_kernels.cu -o "$root/tests/data/check/kernels.ptx"
pass=0 fail=0
for k in ck_ok $(grep -E '^ck_' tests/check/catalogue.txt | awk '{print $1}'); do
  if sh tests/check/catalogue.sh "$b/tc5" "$b/tests/ptx_data" "$root" "$k" > "$top/$k.txt" 2>&1; then pass=$((pass + 1))
  else fail=$((fail + 1)); echo "$k: $(tail -1 "$top/$k.txt")"; fi
done
echo "check_kernels.cu by NVRTC $v: $pass catalogue cases as with nvcc 13, $fail not"
[ "$fail" = 0 ] && [ "$sfail" = 0 ]
