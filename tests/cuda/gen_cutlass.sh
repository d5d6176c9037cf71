#!/bin/sh
# Regenerates tests/data/ptx/cutlass/ from tests/cuda/cutlass_2sm_gemm.cu (a
# CUTLASS 3.x GEMM from the CollectiveBuilders with the 2-SM schedule):
#   cutlass_2sm_gemm.ptx      the kernel, nvcc -arch=sm_100a -ptx
#   params_MxNxK.bin          its Params for M x N x K, built by CUTLASS's own
#   launch_MxNxK.txt          host code (to_underlying_arguments) in a host
#                             program linked with libtc5 (cuTensorMapEncodeTiled
#                             is tc5's encoder), and the launch configuration
# with the CUTLASS headers of PyPI's nvidia-cutlass (downloaded here unless
# CUTLASS_DIR names a directory holding include/cute). The files are
# committed: CTest (tests/ptx/cutlass_gemm.sh) runs them without compiling
# CUTLASS. Needs libtc5.a: TC5_LIB (default build/libtc5.a).
# usage: tests/cuda/gen_cutlass.sh     (from the repository root)
set -eu
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
lib=${TC5_LIB:-build/libtc5.a}
out=tests/data/ptx/cutlass
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dir=${CUTLASS_DIR:-}
if [ -z "$dir" ]; then
  python3 -m pip download -q --no-deps nvidia-cutlass==4.2.0.0 -d "$tmp"
  (cd "$tmp" && python3 -m zipfile -e nvidia_cutlass-*.whl x)
  dir=$tmp/x/cutlass_library/source
fi
flags="-arch=sm_100a -std=c++17 --expt-relaxed-constexpr -DCUTLASS_ENABLE_DIRECT_CUDA_DRIVER_CALL=1 -diag-suppress 177
       -I$dir/include -I$dir/tools/util/include -Iinclude"
"$NVCC" $flags -ptx tests/cuda/cutlass_2sm_gemm.cu -o $out/cutlass_2sm_gemm.ptx
"$NVCC" $flags tests/cuda/cutlass_2sm_gemm.cu "$lib" -o "$tmp/gen" -lpthread
for mnk in 256x256x256 512x384x512 320x200x192; do
  "$tmp/gen" $(echo $mnk | tr x ' ') $out/params_$mnk.bin > $out/launch_$mnk.txt
  echo "$mnk: $(cat $out/launch_$mnk.txt)"
done
