#!/bin/sh
# The CUTLASS 3.x 2-SM GEMM (tests/cuda/cutlass_2sm_gemm.cu: CollectiveBuilder,
# KernelTmaWarpSpecialized2SmSm100, TMA epilogue, the CLC tile scheduler),
# committed with CUTLASS-built Params by tests/cuda/gen_cutlass.sh, run by
# tc5 run on random bf16 inputs and compared byte for byte with tc5 gemm: at
# 256 x 256 x 256, 512 x 384 x 512 and 320 x 200 x 192 (tiles crossing the
# edges), each on one host thread (the first cluster takes the others' work
# through clusterlaunchcontrol.try_cancel) and on two.
# usage: cutlass_gemm.sh TC5 PTX_DATA DATADIR
set -eu
tc5=$1 gen=$2 data=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail=0
for mnk in 256x256x256 512x384x512 320x200x192; do
  set -- $(echo $mnk | tr x ' ')
  M=$1 N=$2 K=$3
  # grid=.. block=.. cluster=.. shared=.. params=..
  for kv in $(cat "$data/launch_$mnk.txt"); do eval "l_${kv%%=*}=${kv#*=}"; done
  "$gen" gen bf16 $((M * K)) 81 a.bin
  "$gen" gen bf16 $((N * K)) 82 b.bin
  "$tc5" gemm --kind f16 --atype bf16 --btype bf16 --m $M --n $N --k $K --a a.bin --b b.bin --out ref.bin
  for threads in 1 2; do
    "$tc5" run "$data/cutlass_2sm_gemm.ptx" --threads $threads --grid "$l_grid" --block "$l_block" --cluster "$l_cluster" \
      --shared-bytes "$l_shared" --arg "bytes:$data/params_$mnk.bin" \
      --buffer in:a.bin --buffer in:b.bin --buffer "out:d.bin:$((M * N * 4))"
    if cmp -s d.bin ref.bin; then echo "cutlass 2-SM $M x $N x $K ($threads thread(s)): $((M * N)) outputs equal to tc5 gemm"
    else echo "cutlass 2-SM $M x $N x $K: outputs differ from tc5 gemm"; cmp -l d.bin ref.bin | head -3; fail=1; fi
  done
done
exit $fail
