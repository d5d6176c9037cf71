#!/bin/sh
# The runner's and checker's fast paths (issue 50, size: s50, s50b, s50c) compute what the
# general paths computed: each kernel of tests/data/ptx/fastpath/cases.txt, run under each
# checker mode and schedule below, gives the output bytes, the findings (stderr) and the exit
# status that the CLI before those fast paths gave (expected.txt: their SHA-256, written by
# main's CLI at d8e62ca with TC5_FASTPATH_WRITE=1; tinycta's, tinycta64's, gldst's, bfe's and f32plain's lines by main's CLI at d3fa273, s51;
# intops' by main's CLI at 2410a4c, p53; tests/ptx/fastpath_uniform's by main's CLI at 465b5aa, sm;
# tests/ptx/fastpath_bicubic's by main's CLI at 3b3c8ea, bc; tests/ptx/fastpath_mla's and tests/ptx/fastpath_sort's by
# main's CLI at 20f2442, fm and st; tests/ptx/fastpath_bicubic32's by main's CLI at ca05939, bc, session 13;
# tests/ptx/fastpath_hitgen's by main's CLI at 72ca9c1, gs, session 16).
# usage: fastpath_same.sh TC5 DATA_DIR
set -eu
tc5=$1 dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 bad=0
out="$tmp/got.txt"
: > "$out"
grep -v '^#' "$dir/cases.txt" | while IFS='|' read -r name ptx args bytes; do
  name=$(echo $name) ptx=$(echo $ptx) bytes=$(echo $bytes)
  for v in default strict none schedule1 schedule7 threads2; do
    case $v in
      default|strict|none) opt="--check=$v --threads 1";;
      schedule1) opt="--schedule 1 --threads 1";;
      schedule7) opt="--schedule 7 --threads 1";;
      threads2) opt="--threads 2";;
    esac
    rm -f "$tmp/o.bin"
    rc=0
    # shellcheck disable=SC2086
    (cd "$dir" && "$tc5" run "$ptx" --arg "out:$tmp/o.bin:$bytes" $args $opt > /dev/null 2> "$tmp/err.txt") || rc=$?
    so=$( [ -f "$tmp/o.bin" ] && sha256sum < "$tmp/o.bin" | cut -c1-64 || echo none)
    se=$(sha256sum < "$tmp/err.txt" | cut -c1-64)
    echo "$name $v $rc $so $se" >> "$out"
  done
done
if [ "${TC5_FASTPATH_WRITE:-}" = 1 ]; then cp "$out" "$dir/expected.txt"; fi
n=$(wc -l < "$out")
bad=$(diff "$dir/expected.txt" "$out" | grep -c '^>' || true)
diff "$dir/expected.txt" "$out" || true
echo "$n runs: $((n - bad)) as the CLI before the fast paths, $bad differ"
[ "$bad" = 0 ]
