#!/bin/sh
# One kernel of the Triton corpus (tests/data/ptx/corpus.txt): random inputs,
# `tc5 run` of the kernel, `tc5 gemm` of the same problem, compared byte for
# byte. M, N, K are two or three blocks (masked kernels: not multiples of the
# block; the reference then runs on K zero-padded to the kernel's K loop,
# since zero terms take part in a step's alignment). An f16 output is the f32
# result rounded to nearest even, as the kernel's cvt.rn.f16.f32 does.
# usage: run_corpus.sh TC5 PTX_DATA DATA_DIR NAME [M N K]
set -eu
tc5=$1 gen=$2 dir=$3 name=$4
line=$(grep "^$name " "$dir/corpus.txt")
set -- $line
at=$2 ct=$3 bm=$4 bn=$5 bk=$6 warps=$7 masked=$9 shared=${10}
if [ "$masked" = 1 ]; then M=$((bm + 37)) N=$((bn + 19)) K=$((2 * bk + 13))
else M=$((2 * bm)) N=$((2 * bn)) K=$((3 * bk)); fi
[ -n "${TC5_CORPUS_SIZE:-}" ] && { set -- $TC5_CORPUS_SIZE; M=$1 N=$2 K=$3; }
kp=$(( (K + bk - 1) / bk * bk ))
case $at in f16|bf16) w=2;; tf32) w=4;; *) w=1;; esac
case $ct in f16) cw=2;; *) cw=4;; esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
"$gen" gen "$at" $((M * K)) 1 a.bin
"$gen" gen "$at" $((K * N)) 2 b.bin
"$tc5" run "$dir/$name.ptx" --grid $(( (M + bm - 1) / bm )),$(( (N + bn - 1) / bn )) \
  --block $(( 32 * warps )) --shared-bytes "$shared" --arg in:a.bin --arg in:b.bin \
  --arg "out:c.bin:$((M * N * cw))" --arg u32:$M --arg u32:$N --arg u32:$K --arg null --arg null \
  ${TC5_RUN_FLAGS:-}
# the reference: A zero-padded to kp columns, B to kp rows
"$gen" padcols a.bin $M $K $kp $w ap.bin
cp b.bin bp.bin
head -c $(( (kp - K) * N * w )) /dev/zero >> bp.bin
kind=f16; case $at in tf32) kind=tf32;; e4m3|e5m2) kind=f8f6f4;; esac
"$tc5" gemm --kind $kind --atype $at --btype $at --m $M --n $N --k $kp --a ap.bin --b bp.bin \
  --b-major MN --out ref.bin
[ "$ct" = f16 ] && { "$gen" f16 ref.bin ref16.bin; mv ref16.bin ref.bin; }
if cmp -s c.bin ref.bin; then
  echo "$name: M=$M N=$N K=$K: $((M * N)) outputs equal to tc5 gemm"
else
  echo "$name: M=$M N=$N K=$K: outputs differ from tc5 gemm:"; cmp -l c.bin ref.bin | head -5
  exit 1
fi
