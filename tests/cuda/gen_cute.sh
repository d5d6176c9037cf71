#!/bin/sh
# Regenerates tests/data/ptx/cute/cute_sm100_gemm.ptx from
# tests/cuda/cute_sm100_gemm.cu (a GEMM written with CuTe's SM100 atoms) with
# nvcc -arch=sm_100a -ptx and the CUTLASS/CuTe headers of PyPI's
# nvidia-cutlass package (downloaded here unless CUTLASS_DIR names a
# directory holding include/cute). The PTX is committed: CTest runs it
# (tests/ptx/cute_gemm.sh) without compiling CuTe.
# usage: tests/cuda/gen_cute.sh     (from the repository root)
set -eu
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
dir=${CUTLASS_DIR:-}
if [ -z "$dir" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  python3 -m pip download -q --no-deps nvidia-cutlass==4.2.0.0 -d "$tmp"
  (cd "$tmp" && python3 -m zipfile -e nvidia_cutlass-*.whl x)
  dir=$tmp/x/cutlass_library/source
fi
"$NVCC" -arch=sm_100a -std=c++17 -ptx --expt-relaxed-constexpr -I"$dir/include" \
  tests/cuda/cute_sm100_gemm.cu -o tests/data/ptx/cute/cute_sm100_gemm.ptx
echo "tests/data/ptx/cute/cute_sm100_gemm.ptx: $(wc -l < tests/data/ptx/cute/cute_sm100_gemm.ptx) lines"
