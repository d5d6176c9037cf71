#!/bin/sh
# The <cuda/ptx> tcgen05 kernels of tests/cuda/tcgen05_kernels.cu, compiled
# with nvcc -arch=sm_100a -ptx and run by tc5 run on random bf16 inputs,
# compared byte for byte with tc5 gemm: a single-CTA GEMM, .ws (M = 64), A in
# Tensor Memory, and a two-stage mbarrier pipeline over 16 K blocks.
# Exit 77 (CTest: skipped) without nvcc.
# usage: nvcc_tcgen05.sh TC5 PTX_DATA SOURCE
set -eu
tc5=$1 gen=$2 src=$3
. "$(dirname "$0")/nvcc_ptx.sh"
fail=0
check() { # entry M N K
  "$gen" gen bf16 $(($2 * $4)) 11 a.bin
  "$gen" gen bf16 $(($3 * $4)) 12 b.bin
  "$tc5" run k.ptx --entry "$1" --grid 1 --block 128 --arg in:a.bin --arg in:b.bin --arg "out:d.bin:$(($2 * $3 * 4))"
  "$tc5" gemm --kind f16 --atype bf16 --btype bf16 --m "$2" --n "$3" --k "$4" --a a.bin --b b.bin --b-major K --out ref.bin
  if cmp -s d.bin ref.bin; then echo "$1: M=$2 N=$3 K=$4: $(($2 * $3)) outputs equal to tc5 gemm"
  else echo "$1: outputs differ from tc5 gemm"; cmp -l d.bin ref.bin | head -3; fail=1; fi
}
check tc_gemm 128 64 64
check tc_gemm_ws 64 64 64
check tc_gemm_tmem_a 128 64 64
check tc_gemm_pipe 128 64 256
exit $fail
