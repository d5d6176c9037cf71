#!/bin/sh
# Triton's block-scaled matmul (tl.dot_scaled, tests/data/ptx/ds_*.ptx from
# gen_triton_scaled.py) run by tc5 run on random inputs and ue8m0 scales,
# 256 x 256 x 512 on a 2 x 2 grid, compared byte for byte with tc5 gemm given
# the same scales: MXFP8 (.kind::mxf8f6f4, A in Tensor Memory) and MXFP4
# (.kind::mxf4, two fp4 a byte in global memory). Triton writes the scale
# factors with tcgen05.st, in the layout tc5 reads (docs/mma.md).
# usage: triton_scaled.sh TC5 PTX_DATA DATADIR
set -eu
tc5=$1 gen=$2 data=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
M=256 N=256 K=512
"$gen" gen ue8m0 $((M * K / 32)) 3 sa.bin
"$gen" gen ue8m0 $((N * K / 32)) 4 sb.bin
fail=0
for fmt in e4m3 e2m1; do
  "$gen" gen $fmt $((M * K)) 1 a.bin
  "$gen" gen $fmt $((N * K)) 2 b.bin
  if [ $fmt = e2m1 ]; then
    "$gen" pack4 a.bin ain.bin && "$gen" pack4 b.bin bin.bin
    kind=mxf4
  else
    cp a.bin ain.bin && cp b.bin bin.bin
    kind=mxf8f6f4
  fi
  "$tc5" run "$data/ds_$fmt.ptx" --grid 2,2 --block 128 --shared-bytes 65536 --arg in:ain.bin --arg in:bin.bin \
    --arg in:sa.bin --arg in:sb.bin --arg "out:d.bin:$((M * N * 4))" --arg s32:$M --arg s32:$N --arg s32:$K \
    --arg null --arg null
  "$tc5" gemm --kind $kind --atype $fmt --btype $fmt --stype ue8m0 --block 32 --m $M --n $N --k $K \
    --a a.bin --b b.bin --sa sa.bin --sb sb.bin --out ref.bin
  if cmp -s d.bin ref.bin; then echo "ds_$fmt (.kind::$kind): $((M * N)) outputs equal to tc5 gemm"
  else echo "ds_$fmt: outputs differ from tc5 gemm"; cmp -l d.bin ref.bin | head -3; fail=1; fi
done
exit $fail
