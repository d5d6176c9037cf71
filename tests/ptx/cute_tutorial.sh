#!/bin/sh
# CuTe DSL's Blackwell tutorial GEMM fp16_gemm_0 (tests/data/ptx/census/cute,
# compiled by gen_cute_corpus.py; its launch from the JSON beside it: a
# TiledMMA's 32 bytes, two tensor maps each followed by its shape, C as a
# pointer with its shape and stride) under tc5 run with the default checker:
# no finding (CuTe DSL has no tcgen05.wait::ld and reuses the registers of
# loads it has read: a true register dependency completes them), and D equal
# to tc5 gemm rounded to f16.
# usage: cute_tutorial.sh TC5 PTX_DATA DATADIR
set -eu
tc5=$1 gen=$2 data=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
ptx=$data/census/cute/tutorial_fp16_gemm_0.ptx
entry=$(grep -o '^.visible .entry [A-Za-z0-9_]*' "$ptx" | head -1 | cut -d' ' -f3)
"$gen" gen f16 262144 1 a.bin
"$gen" gen f16 262144 2 b.bin
head -c 32 /dev/zero > mma.bin
# two little-endian i32 512s; C's pointer (the third buffer: a.bin and b.bin
# take 512 KiB each, each next 64 KiB past the one before) and its shape and row stride
printf '\000\002\000\000\000\002\000\000' > shape.bin
printf '\000\000\022\000\002\000\000\000\000\002\000\000\000\002\000\000\000\002\000\000\000\000\000\000' > cptr.bin
"$tc5" run "$ptx" --entry "$entry" --grid 4,2 --block 128 --shared-bytes 196736 --arg bytes:mma.bin \
  --arg "tmap:in=a.bin,type=f16,dims=512x512,strides=1024,box=64x128,swizzle=128B" --arg bytes:shape.bin \
  --arg "tmap:in=b.bin,type=f16,dims=512x512,strides=1024,box=64x256,swizzle=128B" --arg bytes:shape.bin \
  --arg bytes:cptr.bin --buffer out:c.bin:524288
"$tc5" gemm --kind f16 --atype f16 --btype f16 --m 512 --n 512 --k 512 --a a.bin --b b.bin --out ref32.bin
"$gen" f16 ref32.bin ref.bin
if cmp -s c.bin ref.bin; then echo "CuTe DSL fp16_gemm_0: 262144 outputs equal to tc5 gemm, no checker finding"
else echo "CuTe DSL fp16_gemm_0: outputs differ from tc5 gemm"; cmp -l c.bin ref.bin | head -3; exit 1; fi
