#!/bin/sh
# A launch's checker report is the same on any number of threads (check.c chk_log_order): each finding shows its
# earliest instance in the launch's order (cluster, then the cluster's report), not the first a thread reached, and
# the findings come in that order. fastpath/ldst.ptx on 8 CTAs holds races, never-written reads and their repeats in
# every CTA; its stderr and output on 2, 3 and 4 threads, three times each, must equal those on one thread (before,
# 1 run in 6 of 2 CTAs on 2 threads named CTA (1,0,0)).
# usage: findings_threads_same.sh TC5 DATA_DIR (tests/data/ptx/fastpath)
set -eu
tc5=$1 dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() {
  (cd "$dir" && "$tc5" run ldst.ptx --arg "out:$tmp/o$1.bin:81920" --grid 8 --block 64 --shared-bytes 16384 \
    --arg u32:0xdeadbeef --arg u32:0x80000001 --arg f32:3.0e38 --threads "$1" > /dev/null 2> "$tmp/e$1.txt") || true
}
run 1
grep -q "smem-race" "$tmp/e1.txt"
n=0 bad=0
for t in 2 3 4 2 3 4 2 3 4; do
  run "$t"
  n=$((n + 1))
  if ! cmp -s "$tmp/e1.txt" "$tmp/e$t.txt" || ! cmp -s "$tmp/o1.bin" "$tmp/o$t.bin"; then
    bad=$((bad + 1))
    diff "$tmp/e1.txt" "$tmp/e$t.txt" || true
  fi
done
echo "$n runs on 2-4 threads: $((n - bad)) as on one thread, $bad differ"
[ "$bad" = 0 ]
