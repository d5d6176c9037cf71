#!/bin/sh
# The same PTX files on the H100 and in tc5 run (tests/data/ptx/sm90: the
# general instructions; tests/data/ptx/tma90: TMA). tests/data/ptx/sm90 holds
# kernels.ptx (gpu/ptx_kernels.cu, nvcc -arch=sm_90a -ptx -fmad=false),
# wgmma_arith.ptx (gpu/wgmma_arith.cu's kernels, nvcc -arch=sm_90a -ptx),
# their inputs and kernels.txt (gen_inputs.py). `gpu/run.sh ptx` ran every
# kernel of the manifest on the H100 and wrote h100_out.bin (every out
# buffer, in order) and h100_printf.txt (what the kernels printed). This runs
# each kernel in tc5 on the same inputs and compares every output byte, and
# the printed lines as a set (their order between threads is not defined).
# usage: silicon.sh TC5 DATA_DIR
set -eu
tc5=$1 dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
off=0 fail=0 n=0 bytes=0
: > "$work/printf.txt"
line=0
grep -v '^#' "$dir/kernels.txt" | while read -r file name grid block shared rest; do
  [ -n "$file" ] || continue
  line=$((line + 1))
  set --
  size=0 k=0
  for a in $rest; do
    case $a in
      in:*) set -- "$@" --arg "in:$dir/${a#in:}" ;;
      out:*) k=$((k + 1)); set -- "$@" --arg "out:$work/o$k.bin:${a#out:}"; size=$((size + ${a#out:})) ;;
      inout:*)
        k=$((k + 1)); cp "$dir/${a#inout:}" "$work/o$k.bin"
        set -- "$@" --arg "inout:$work/o$k.bin"; size=$((size + $(wc -c < "$work/o$k.bin"))) ;;
      tmap:*)
        # a tensor map's own buffer: in=F from DIR; out=BYTES and inout=F are outputs
        new=""
        for kv in $(echo "${a#tmap:}" | tr ',' ' '); do
          case $kv in
            in=*) kv="in=$dir/${kv#in=}" ;;
            out=*) k=$((k + 1)); size=$((size + ${kv#out=})); kv="out=$work/o$k.bin:${kv#out=}" ;;
            inout=*)
              k=$((k + 1)); cp "$dir/${kv#inout=}" "$work/o$k.bin"
              size=$((size + $(wc -c < "$work/o$k.bin"))); kv="inout=$work/o$k.bin" ;;
          esac
          new="$new${new:+,}$kv"
        done
        set -- "$@" --arg "tmap:$new" ;;
      *) set -- "$@" --arg "$a" ;;
    esac
  done
  : > "$work/mine.bin"
  if "$tc5" run "$dir/$file" --entry "$name" --grid "$grid" --block "$block" --shared-bytes "$shared" "$@" \
      >> "$work/printf.txt"; then
    j=1
    while [ $j -le $k ]; do cat "$work/o$j.bin" >> "$work/mine.bin"; j=$((j + 1)); done
    tail -c +$((off + 1)) "$dir/h100_out.bin" | head -c "$size" > "$work/h.bin"
    if cmp -s "$work/mine.bin" "$work/h.bin"; then
      echo "ok $name $size"
    else
      echo "$name (kernel $line of the manifest): $(cmp -l "$work/mine.bin" "$work/h.bin" | wc -l) bytes differ from the H100 (offset, tc5, H100 in octal):"
      cmp -l "$work/mine.bin" "$work/h.bin" | head -4
      echo "differ $name"
    fi
  else
    echo "$name (kernel $line of the manifest): tc5 run failed"; echo "differ $name"
  fi
  off=$((off + size))
done > "$work/log.txt"
grep -v '^ok ' "$work/log.txt" | grep -v '^differ ' || true
n=$(grep -c '^ok ' "$work/log.txt" || true)
fail=$(grep -c '^differ ' "$work/log.txt" || true)
bytes=$(awk '/^ok /{s += $3} END {print s + 0}' "$work/log.txt")
sort "$dir/h100_printf.txt" > "$work/hp.txt"
if sort "$work/printf.txt" | cmp -s - "$work/hp.txt"; then
  echo "printf: $(wc -l < "$dir/h100_printf.txt") lines as on the H100"
else
  echo "printf output differs from the H100's:"; sort "$work/printf.txt" | diff "$work/hp.txt" - | head -6; fail=$((fail + 1))
fi
echo "$n kernels, $bytes bytes equal to the H100's; $fail differ"
[ "$fail" = 0 ]
