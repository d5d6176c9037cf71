#!/bin/sh
# Triton's tensor-descriptor matmul (tests/data/ptx/td_*.ptx from
# gen_triton_desc.py): TMA loads through 128B-swizzled tensor maps passed by
# value, an mbarrier pipeline, tcgen05.mma, a TMA store of D; and its
# persistent warp-specialized form (td_ws_bf16: 3 CTAs, 8 warps in roles);
# and with descriptors made in the kernel (td_mk_bf16: tl.make_tensor_descriptor). Run by tc5 run
# with tensor maps of the same parameters as Triton's host-side descriptors
# (tmap: arguments, each followed by the shape and the strides in elements
# that Triton passes beside it), on random inputs, whole and with M and N
# not multiples of the 128 x 128 tile (the boxes cross the tensor's edge:
# zero fill on load, clipped on store), compared byte for byte with tc5 gemm.
# usage: triton_desc.sh TC5 PTX_DATA DATADIR
set -eu
tc5=$1 gen=$2 data=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail=0
for case in "bf16 256 256 256" "bf16 200 136 256" "e4m3 256 256 512" "e4m3 136 200 384" "ws_bf16 384 256 512" \
            "ws_bf16 300 520 192"; do
  set -- $case
  k=$1 M=$2 N=$3 K=$4
  ty=${k#ws_} grid=$(((M + 127) / 128)),$(((N + 127) / 128)) shared=65568
  case $k in ws_*) grid=3 shared=163940 ;; esac # persistent: 3 CTAs take the tiles in turn
  if [ "$ty" = bf16 ]; then esz=2 bk=64 tt=bf16 kind=f16; else esz=1 bk=128 tt=u8 kind=f8f6f4; fi
  "$gen" gen "$ty" $((M * K)) 1 a.bin
  "$gen" gen "$ty" $((N * K)) 2 b.bin
  block=128; [ "$k" = "$ty" ] || block=256
  "$tc5" run "$data/td_$k.ptx" --grid $grid --block $block --shared-bytes $shared \
    --arg "tmap:in=a.bin,type=$tt,dims=${K}x$M,strides=$((K * esz)),box=${bk}x128,swizzle=128B" \
    --arg u32:$M --arg u32:$K --arg u64:$K --arg u64:1 \
    --arg "tmap:in=b.bin,type=$tt,dims=${K}x$N,strides=$((K * esz)),box=${bk}x128,swizzle=128B" \
    --arg u32:$N --arg u32:$K --arg u64:$K --arg u64:1 \
    --arg "tmap:out=d.bin:$((M * N * 4)),type=f32,dims=${N}x$M,strides=$((N * 4)),box=32x128,swizzle=128B" \
    --arg u32:$M --arg u32:$N --arg u64:$N --arg u64:1 \
    --arg u32:$M --arg u32:$N --arg u32:$K --arg null --arg null
  "$tc5" gemm --kind $kind --atype "$ty" --btype "$ty" --m $M --n $N --k $K --a a.bin --b b.bin --out ref.bin
  if cmp -s d.bin ref.bin; then echo "td_$k $M x $N x $K: $((M * N)) outputs equal to tc5 gemm"
  else echo "td_$k $M x $N x $K: outputs differ from tc5 gemm"; cmp -l d.bin ref.bin | head -3; fail=1; fi
done
# descriptors made in the kernel: tensormap.replace on zeroed shared memory,
# tensormap.cp_fenceproxy into a global scratch of 384 bytes a CTA
for case in "256 256 256" "200 136 256"; do
  set -- $case
  M=$1 N=$2 K=$3 gm=$((($1 + 127) / 128)) gn=$((($2 + 127) / 128))
  "$gen" gen bf16 $((M * K)) 1 a.bin
  "$gen" gen bf16 $((N * K)) 2 b.bin
  "$tc5" run "$data/td_mk_bf16.ptx" --grid $gm,$gn --block 128 --shared-bytes 65568 --arg in:a.bin --arg in:b.bin \
    --arg "out:d.bin:$((M * N * 4))" --arg u32:$M --arg u32:$N --arg u32:$K --arg "scratch:$((gm * gn * 384))" --arg null
  "$tc5" gemm --kind f16 --atype bf16 --btype bf16 --m $M --n $N --k $K --a a.bin --b b.bin --out ref.bin
  if cmp -s d.bin ref.bin; then echo "td_mk_bf16 $M x $N x $K: $((M * N)) outputs equal to tc5 gemm"
  else echo "td_mk_bf16 $M x $N x $K: outputs differ from tc5 gemm"; cmp -l d.bin ref.bin | head -3; fail=1; fi
done
exit $fail
