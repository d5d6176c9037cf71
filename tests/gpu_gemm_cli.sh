#!/bin/sh
# tc5 gemm --device cuda against the CPU (--device cpu) on the same files,
# byte for byte: bf16 -> f32, e4m3 x e2m1 -> f16 with C, mxf4nvf4 (ue4m3,
# block 16), i8 saturating. Exit 77 (skipped) without a GPU.
# usage: gpu_gemm_cli.sh TC5 PTX_DATA
set -eu
tc5=$1 gen=$2
nvidia-smi -L >/dev/null 2>&1 || { echo "no GPU: skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
M=192 N=160 K=512 fail=0
run() { # name, then tc5 gemm's options
  name=$1; shift
  "$tc5" gemm "$@" --m $M --n $N --k $K --out cpu.bin --device cpu
  "$tc5" gemm "$@" --m $M --n $N --k $K --out gpu.bin --device cuda
  if cmp -s cpu.bin gpu.bin; then echo "$name: $((M * N)) outputs equal"; else echo "$name: differ"; fail=1; fi
}
"$gen" gen bf16 $((M * K)) 1 a16.bin; "$gen" gen bf16 $((N * K)) 2 b16.bin
run "bf16 -> f32" --kind f16 --atype bf16 --btype bf16 --a a16.bin --b b16.bin
"$gen" gen e4m3 $((M * K)) 3 a8.bin; "$gen" gen e2m1 $((N * K)) 4 b4.bin; "$gen" gen f16 $((M * N)) 5 c16.bin
run "e4m3 x e2m1 -> f16, C" --kind f8f6f4 --atype e4m3 --btype e2m1 --dtype f16 --c c16.bin --a a8.bin --b b4.bin
"$gen" gen e2m1 $((M * K)) 6 a4.bin; "$gen" gen ue4m3 $((M * K / 16)) 7 sa.bin; "$gen" gen ue4m3 $((N * K / 16)) 8 sb.bin
run "mxf4nvf4 ue4m3" --kind mxf4nvf4 --atype e2m1 --btype e2m1 --stype ue4m3 --block 16 --a a4.bin --b b4.bin --sa sa.bin --sb sb.bin
"$gen" gen s8 $((M * K)) 9 ai.bin; "$gen" gen u8 $((N * K)) 10 bi.bin
run "i8 s8 x u8" --kind i8 --atype s8 --btype u8 --a ai.bin --b bi.bin
exit $fail
