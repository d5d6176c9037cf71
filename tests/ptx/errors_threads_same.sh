#!/bin/sh
# A failed launch's error and report are the same on any number of threads (run.c, machine.c ptx_fail_claim,
# check.c chk_log_trim): the launch's error is the earliest failing cluster's in the launch's order, as on one
# thread, where the clusters after it never run; the findings and their counts are those of the clusters up to it.
# threads/fail_late.ptx: every CTA of 8 reads never-written shared memory (a finding), spins (8 - ctaid) * 5,000 times
# and stores out of bounds, so CTA 0 fails last in time (before session 14, 2 threads named CTA (1,0,0) and 4 threads
# CTA (3,0,0), with the finding seen in several CTAs). One thread, then 2, 3 and 4 three times each; also in clusters
# of 2 and under two adversarial schedules.
# usage: errors_threads_same.sh TC5 DATA_DIR (tests/data/ptx/threads)
set -eu
tc5=$1 dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 bad=0
for mode in plain cluster sched; do
  case $mode in
  plain) opt="--block 32" ;;
  cluster) opt="--block 64 --cluster 2" ;;
  sched) opt="--block 64 --schedules 2" ;;
  esac
  run() {
    rc=0
    # shellcheck disable=SC2086
    (cd "$dir" && "$tc5" run fail_late.ptx --grid 8 $opt --arg "out:$tmp/o.bin:256" --arg u32:5000 \
      --threads "$1" > /dev/null 2> "$tmp/e$1.txt") || rc=$?
    echo "exit status $rc" >> "$tmp/e$1.txt"
  }
  run 1
  grep -q "smem-uninit-read" "$tmp/e1.txt"
  [ "$mode" = cluster ] || grep -q "CTA (0,0,0) thread (0,0,0)" "$tmp/e1.txt" # in a cluster: its CTA that fails first
  grep -q "exit status 1" "$tmp/e1.txt"
  for t in 2 3 4 2 3 4 2 3 4; do
    run "$t"
    n=$((n + 1))
    if ! cmp -s "$tmp/e1.txt" "$tmp/e$t.txt"; then
      bad=$((bad + 1))
      echo "$mode, $t threads:"
      diff "$tmp/e1.txt" "$tmp/e$t.txt" || true
    fi
  done
done
echo "$n failed runs on 2-4 threads: $((n - bad)) as on one thread, $bad differ"
[ "$bad" = 0 ]
