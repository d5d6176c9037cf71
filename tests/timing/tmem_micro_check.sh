#!/bin/sh
# gpu/tmem_micro.cu (the B200 microbenchmark of docs/timing.md "What decides tutorial 06's rows",
# which no GPU here can run) compiled with nvcc -arch=sm_100a -ptx, and every kernel in it run by
# tc5 with the strict checker on a few iterations: the Tensor Memory allocation, fences, waits and
# mbarriers are right by the PTX ISA's rules (the checker found one uninitialised read when it was
# written). Exit 77 (CTest: skipped) without nvcc.
# usage: tmem_micro_check.sh TC5 SOURCE_DIR
set -eu
tc5=$1 root=$2
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$NVCC" ] || { echo "tmem_micro_check.sh: nvcc not found: skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
"$NVCC" -O2 -std=c++17 -arch=sm_100a -ptx -I"$root/gpu" "$root/gpu/tmem_micro.cu" -o k.ptx
head -c $((64 * 4096 * 2)) /dev/zero > z.bin
fail=0 n=0
for e in $(sed -n 's/^\.visible \.entry \([A-Za-z0-9_]*\)(.*/\1/p' k.ptx); do
  case $e in
    *clock_kernel*) continue ;; # spins on %globaltimer for a fixed time: nothing to check
    *tma_lat_kernel*) set -- --grid 2 --block 32 --shared-bytes 17408 \
        --arg tmap:in=z.bin,type=f16,dims=64x4096,box=64x128,swizzle=128B,l2=128B,strides=128 \
        --arg s32:32 --arg s32:128 --arg s32:4 --arg out:o.bin:16 ;;
    *tput_kernel*) set -- --grid 2 --block 512 --arg out:o.bin:32 --arg s32:0 --arg s32:4 ;;
    *rt_kernel*) set -- --grid 1 --block 128 --arg out:o.bin:16 --arg s32:0 --arg s32:4 ;;
    *chain_kernel*) set -- --grid 1 --block 32 --arg out:o.bin:16 --arg s32:0 --arg s32:4 ;;
    *rate_kernel*) set -- --grid 2 --block 128 --arg out:o.bin:32 --arg s32:4 ;;
    *lat_kernel*) set -- --grid 1 --block 128 --arg out:o.bin:16 --arg s32:4 ;;
    *mbar_kernel*) set -- --grid 1 --block 64 --arg out:o.bin:16 --arg s32:4 ;;
    *) echo "$e: no launch for this kernel (add one)"; fail=1; continue ;;
  esac
  n=$((n + 1))
  if out=$("$tc5" run k.ptx --entry "$e" "$@" --check=strict --werror 2>&1); then :; else
    echo "$e: tc5 run failed:"; echo "$out" | head -8; fail=1
  fi
done
echo "tmem_micro_check: $n kernels of gpu/tmem_micro.cu run by tc5 --check=strict, $([ $fail = 0 ] && echo clean || echo FAILED)"
exit $fail
