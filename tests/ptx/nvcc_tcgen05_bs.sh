#!/bin/sh
# The block-scaled <cuda/ptx> kernels of tests/cuda/tcgen05_bs_kernels.cu
# (scale factors brought into Tensor Memory by tcgen05.cp, then
# tcgen05.mma...block_scale), compiled with nvcc -arch=sm_100a -ptx and run by
# tc5 run on random inputs and scales, compared byte for byte with tc5 gemm
# given the same scales: NVFP4 (mxf4nvf4, e2m1, ue4m3, block 16) and MXFP8
# (mxf8f6f4, e4m3 x e5m2, ue8m0, block 32, four MMAs sharing a scale word);
# and a 2:4 sparse f16 GEMM (tcgen05.mma.sp, the metadata by tcgen05.cp.128x128b)
# against tc5 gemm --meta.
# Exit 77 (CTest: skipped) without nvcc.
# usage: nvcc_tcgen05_bs.sh TC5 PTX_DATA SOURCE
set -eu
tc5=$1 gen=$2 src=$3
. "$(dirname "$0")/nvcc_ptx.sh"
fail=0
check() { # entry kind atype btype stype block K
  "$gen" gen "$3" $((128 * $7)) 21 a.bin
  "$gen" gen "$4" $((128 * $7)) 22 b.bin
  "$gen" gen "$5" $((128 * $7 / $6)) 23 sa.bin
  "$gen" gen "$5" $((128 * $7 / $6)) 24 sb.bin
  "$tc5" run k.ptx --check=strict --werror --entry "$1" --grid 1 --block 128 --arg in:a.bin --arg in:b.bin --arg in:sa.bin --arg in:sb.bin \
    --arg "out:d.bin:$((128 * 128 * 4))"
  "$tc5" gemm --kind "$2" --atype "$3" --btype "$4" --stype "$5" --block "$6" --m 128 --n 128 --k "$7" \
    --a a.bin --b b.bin --sa sa.bin --sb sb.bin --out ref.bin
  if cmp -s d.bin ref.bin; then echo "$1: .kind::$2 $3 x $4, $5 block $6, K=$7: 16384 outputs equal to tc5 gemm"
  else echo "$1: outputs differ from tc5 gemm"; cmp -l d.bin ref.bin | head -3; fail=1; fi
}
check tc_gemm_nvf4 mxf4nvf4 e2m1 e2m1 ue4m3 16 256
check tc_gemm_mxf8 mxf8f6f4 e4m3 e5m2 ue8m0 32 128
# 2:4 sparse f16: A as its kept elements (128 x 64) and metadata (128 x 32 nibbles)
"$gen" gen f16 $((128 * 64)) 31 a.bin
"$gen" gen f16 $((128 * 128)) 32 b.bin
"$gen" meta $((128 * 32)) 33 meta.bin
"$tc5" run k.ptx --check=strict --werror --entry tc_gemm_sp --grid 1 --block 128 --arg in:a.bin --arg in:b.bin \
  --arg in:meta.bin --arg "out:d.bin:$((128 * 128 * 4))"
"$tc5" gemm --kind f16 --atype f16 --btype f16 --m 128 --n 128 --k 128 --a a.bin --meta meta.bin --b b.bin --out ref.bin
if cmp -s d.bin ref.bin; then echo "tc_gemm_sp: .kind::f16 2:4 sparse, K=128: 16384 outputs equal to tc5 gemm --meta"
else echo "tc_gemm_sp: outputs differ from tc5 gemm --meta"; cmp -l d.bin ref.bin | head -3; fail=1; fi
exit $fail
