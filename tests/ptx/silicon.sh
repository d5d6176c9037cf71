#!/bin/sh
# The same PTX file on the H100 and in tc5 run: tests/data/ptx/sm90/kernels.ptx
# (gpu/ptx_kernels.cu, nvcc -arch=sm_90a -ptx -fmad=false) was run on the
# H100 by `gpu/run.sh ptx`, which wrote h100_out.bin (every kernel's output
# buffer, in kernels.txt's order) and h100_printf.txt (what the kernels
# printed). This runs each kernel in tc5 on the same in.bin and compares
# every output byte, and the printed lines as a set (their order between
# threads is not defined).
# usage: silicon.sh TC5 DATA_DIR       (DATA_DIR = tests/data/ptx/sm90)
set -eu
tc5=$1 dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
off=0 fail=0 n=0 bytes=0
: > "$work/printf.txt"
while read -r name grid block size; do
  case "$name" in ''|\#*) continue;; esac
  if ! "$tc5" run "$dir/kernels.ptx" --entry "$name" --grid "$grid" --block "$block" \
      --arg "in:$dir/in.bin" --arg "out:$work/o.bin:$size" >> "$work/printf.txt"; then
    echo "$name: tc5 run failed"; fail=$((fail + 1)); off=$((off + size)); continue
  fi
  dd if="$dir/h100_out.bin" of="$work/h.bin" bs=4096 skip=$((off / 4096)) count=$((size / 4096)) 2>/dev/null
  if cmp -s "$work/o.bin" "$work/h.bin"; then
    n=$((n + 1)); bytes=$((bytes + size))
  else
    fail=$((fail + 1))
    echo "$name: $(cmp -l "$work/o.bin" "$work/h.bin" | wc -l) bytes differ from the H100 (offset, tc5, H100 in octal):"
    cmp -l "$work/o.bin" "$work/h.bin" | head -4
  fi
  off=$((off + size))
done < "$dir/kernels.txt"
if sort "$work/printf.txt" | cmp -s - "$(sort "$dir/h100_printf.txt" > "$work/hp.txt"; echo "$work/hp.txt")"; then
  echo "printf: $(wc -l < "$dir/h100_printf.txt") lines as on the H100"
else
  echo "printf output differs from the H100's:"; diff "$work/hp.txt" "$work/printf.txt" | head -6; fail=$((fail + 1))
fi
echo "$n kernels, $bytes bytes equal to the H100's; $fail differ"
[ "$fail" = 0 ]
