#!/bin/sh
# The 2-SM (cta_group::2) <cuda/ptx> kernels of tests/cuda/tcgen05_2sm_kernels.cu,
# compiled with nvcc -arch=sm_100a -ptx and run by tc5 run on a cluster of two
# CTAs (one CTA pair) on random bf16 inputs, compared byte for byte with
# tc5 gemm, with the checker strict (no finding allowed): tc_gemm_2sm (M =
# 256, operands copied by the threads, tcgen05.alloc/mma/commit/dealloc
# .cta_group::2, the commit multicast to both CTAs) and tc_gemm_2sm_tma (TMA
# .cta_group::2 copies completing on the even CTA's mbarrier, 128B swizzle,
# a two-stage pipeline, a copy warp and an MMA warp), over K = 256 and 512.
# Exit 77 (CTest: skipped) without nvcc.
# usage: nvcc_tcgen05_2sm.sh TC5 PTX_DATA SOURCE
set -eu
tc5=$1 gen=$2 src=$3
. "$(dirname "$0")/nvcc_ptx.sh"
fail=0
same() { # what
  if cmp -s d.bin ref.bin; then echo "$1: $((256 * 128)) outputs equal to tc5 gemm"
  else echo "$1: outputs differ from tc5 gemm"; cmp -l d.bin ref.bin | head -3; fail=1; fi
}
"$gen" gen bf16 $((256 * 64)) 11 a.bin
"$gen" gen bf16 $((128 * 64)) 12 b.bin
"$tc5" run k.ptx --entry tc_gemm_2sm --grid 2 --block 128 --check=strict --werror \
  --arg in:a.bin --arg in:b.bin --arg "out:d.bin:$((256 * 128 * 4))"
"$tc5" gemm --kind f16 --atype bf16 --btype bf16 --m 256 --n 128 --k 64 --a a.bin --b b.bin --out ref.bin
same "tc_gemm_2sm 256 x 128 x 64"
for K in 256 512; do
  "$gen" gen bf16 $((256 * K)) 21 a.bin
  "$gen" gen bf16 $((128 * K)) 22 b.bin
  "$tc5" run k.ptx --entry tc_gemm_2sm_tma --grid 2 --block 128 --shared-bytes 50176 --check=strict --werror \
    --arg "tmap:in=a.bin,type=bf16,dims=${K}x256,strides=$((K * 2)),box=64x128,swizzle=128B" \
    --arg "tmap:in=b.bin,type=bf16,dims=${K}x128,strides=$((K * 2)),box=64x64,swizzle=128B" \
    --arg "out:d.bin:$((256 * 128 * 4))" --arg "s32:$K"
  "$tc5" gemm --kind f16 --atype bf16 --btype bf16 --m 256 --n 128 --k $K --a a.bin --b b.bin --out ref.bin
  same "tc_gemm_2sm_tma 256 x 128 x $K"
done
exit $fail
