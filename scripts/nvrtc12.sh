#!/usr/bin/env bash
# CUDA 12.x's front end on the project's device-only .cu files (issue 52). PyPI's nvidia-cuda-nvcc-cu12
# ships ptxas, libnvvm and headers but no nvcc driver and no cicc, so it cannot make PTX from .cu;
# nvidia-cuda-nvrtc-cu12 ships the same front end as a library: scripts/nvrtc_ptx.py stands in for
# `nvcc -ptx` through it. This compiles tests/cuda/tcgen05_kernels.cu, tcgen05_bs_kernels.cu and
# check_kernels.cu (the files without host code) for sm_100a with NVRTC 12.x and runs the same tests
# as for CUDA 13's nvcc: tests/ptx/nvcc_tcgen05*.sh (bit for bit against tc5 gemm) and the checker's
# seeded-bug catalogue (tests/check/catalogue.sh, every ck_ case) on NVRTC's kernels.ptx.
#   scripts/nvrtc12.sh [VERSION]     VERSION of nvidia-cuda-nvrtc-cu12 (default 12.9.86); downloads the
#                                    wheel (about 90 MB) into build/nvrtc12. Needs build/tc5 and CCCL's
#                                    <cuda/ptx> (NVRTC_CCCL, default /usr/local/cuda/include/cccl).
# Not in the default suite (a download). Files with host code (gpu/*.cu, tests/cuda/*gemm*.cu,
# tcgen05_2sm_kernels.cu: <cuda.h>, <cuda_runtime.h>, <cstdio>) NVRTC refuses: docs/fidelity.md.
set -euo pipefail
cd "$(dirname "$0")/.."
v=${1:-12.9.86}
top=$(pwd)/build/nvrtc12
mkdir -p "$top"
if [ ! -f "$top/$v/nvidia/cuda_nvrtc/lib/libnvrtc.so.12" ]; then
  python3 -m pip download -q --no-deps -d "$top/dl-$v" "nvidia-cuda-nvrtc-cu12==$v"
  python3 -m zipfile -e "$top"/dl-$v/nvidia_cuda_nvrtc_cu12-*.whl "$top/$v"
fi
export NVRTC=$top/$v/nvidia/cuda_nvrtc/lib/libnvrtc.so.12 NVCC=$(pwd)/scripts/nvrtc_ptx.py
b=$(pwd)/build
sh tests/ptx/nvcc_tcgen05.sh "$b/tc5" "$b/tests/ptx_data" "$(pwd)/tests/cuda/tcgen05_kernels.cu"
sh tests/ptx/nvcc_tcgen05_bs.sh "$b/tc5" "$b/tests/ptx_data" "$(pwd)/tests/cuda/tcgen05_bs_kernels.cu"
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
[ "$fail" = 0 ]
