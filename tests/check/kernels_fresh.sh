#!/bin/sh
# tests/data/check/kernels.ptx must be what tests/check/gen_kernels.sh makes
# of tests/cuda/check_kernels.cu today (exit 77, skipped, without nvcc).
# usage: kernels_fresh.sh ROOT
set -eu
root=$1
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$NVCC" ] || { echo "kernels_fresh.sh: nvcc not found: skipped"; exit 77; }
cccl=$(dirname "$(dirname "$NVCC")")/include/cccl
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$NVCC" -arch=sm_100a -ptx -I"$cccl" -diag-suppress 128 "$root/tests/cuda/check_kernels.cu" -o "$work/k.ptx"
if cmp -s "$work/k.ptx" "$root/tests/data/check/kernels.ptx"; then
  echo "kernels.ptx is up to date with check_kernels.cu"
else
  echo "kernels.ptx differs from what check_kernels.cu compiles to: run tests/check/gen_kernels.sh"
  exit 1
fi
