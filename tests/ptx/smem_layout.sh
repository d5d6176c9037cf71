#!/bin/sh
# The shared-memory layout of tc5 run against the H100's: gpu/smem_layout.cu,
# compiled to tests/data/ptx/smem_layout_sm90.ptx (nvcc -arch=sm_90a -ptx),
# printed these addresses on the H100 (gpu/run.sh smem, 2026-11-23):
#   one_static 0x0400 0x0410 | two_static 0x0400 0x0480 0x0490
#   dyn_only 0x0400          | big_static 0x0400 0x1790
# usage: smem_layout.sh TC5 DATA_DIR
set -eu
tc5=$1 dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
check() {
  "$tc5" run "$dir/smem_layout_sm90.ptx" --entry "$1" --grid 1 --block 1 --shared-bytes 256 \
    --arg "out:$work/o.bin:16"
  got=$(od -An -tx4 "$work/o.bin" | tr -s ' ' | sed 's/^ //')
  if [ "$got" = "$2" ]; then echo "$1: $got (as on the H100)"; else echo "$1: $got, the H100: $2"; fail=1; fi
}
check _Z10one_staticPj "00000400 00000410 00000000 00000000"
check _Z10two_staticPj "00000400 00000480 00000490 00000000"
check _Z8dyn_onlyPj "00000400 00000000 00000000 00000000"
check _Z10big_staticPj "00000400 00001790 00000000 00000000"
exit $fail
