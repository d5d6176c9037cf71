#!/bin/sh
# Regenerates tests/data/check/kernels.ptx, the checker's seeded-bug kernels
# (tests/cuda/check_kernels.cu: ck_ok and one ck_<bug> per bug), with
# nvcc -arch=sm_100a -ptx (CUDA 13's <cuda/ptx>). The PTX is committed so
# that the tests run without nvcc.
# usage: tests/check/gen_kernels.sh   (from the repository root)
set -eu
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
cccl=$(dirname "$(dirname "$NVCC")")/include/cccl
"$NVCC" -arch=sm_100a -ptx -I"$cccl" -diag-suppress 128 tests/cuda/check_kernels.cu -o tests/data/check/kernels.ptx
echo "tests/data/check/kernels.ptx: $(grep -c '^.visible .entry' tests/data/check/kernels.ptx) entries"
