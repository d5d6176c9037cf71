#!/bin/sh
# The CuTe SM100 GEMM (tests/cuda/cute_sm100_gemm.cu, committed as
# tests/data/ptx/cute/cute_sm100_gemm.ptx by tests/cuda/gen_cute.sh) run by
# tc5 run on random inputs and compared byte for byte with tc5 gemm: bf16 and
# e4m3 (.kind::f16 and .kind::f8f6f4), 1-SM (SM100_MMA_*_SS, 128 x 256 a CTA)
# and 2-SM (SM100_MMA_*_2x1SM_SS, 256 x 256 a CTA pair, SM100_TMA_2SM_LOAD),
# over a grid of 2 x 2 tiles; tensor maps with the boxes CuTe's shared-memory
# layouts take (one 128B swizzle atom of K by the CTA's rows).
# usage: cute_gemm.sh TC5 PTX_DATA PTX
set -eu
tc5=$1 gen=$2 ptx=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail=0
M=256 N=512
for case in "bf16 256" "e4m3 512"; do
  set -- $case
  ty=$1 K=$2
  if [ "$ty" = bf16 ]; then esz=2 tt=bf16 kind=f16; else esz=1 tt=u8 kind=f8f6f4; fi
  bk=$((128 / esz))
  "$gen" gen "$ty" $((M * K)) 51 a.bin
  "$gen" gen "$ty" $((N * K)) 52 b.bin
  "$tc5" gemm --kind $kind --atype "$ty" --btype "$ty" --m $M --n $N --k $K --a a.bin --b b.bin --out ref.bin
  for pair in 0 1; do
    entry=cute_gemm_$ty rows_b=256 grid=2,2
    [ $pair = 1 ] && entry=${entry}_2sm rows_b=128
    shared=$(((128 + rows_b) * 128))
    "$tc5" run "$ptx" --entry $entry --grid $grid --block 128 --shared-bytes $shared \
      --arg "tmap:in=a.bin,type=$tt,dims=${K}x$M,strides=$((K * esz)),box=${bk}x128,swizzle=128B" \
      --arg "tmap:in=b.bin,type=$tt,dims=${K}x$N,strides=$((K * esz)),box=${bk}x$rows_b,swizzle=128B" \
      --arg "out:d.bin:$((M * N * 4))" --arg s32:$M --arg s32:$N --arg s32:$K
    if cmp -s d.bin ref.bin; then echo "$entry $M x $N x $K: $((M * N)) outputs equal to tc5 gemm"
    else echo "$entry $M x $N x $K: outputs differ from tc5 gemm"; cmp -l d.bin ref.bin | head -3; fail=1; fi
  done
done
exit $fail
