#!/bin/sh
# cp.async.wait_group N under adversarial schedules with the checker (the
# merge of issue 33's cp-async-unwaited and issue 34's late completion):
# reading an older group after wait_group 1 is silent under the default
# schedule and seeds 1..16; reading the newest group is cp-async-unwaited
# under the default schedule, and --schedules 16 fails on it. (Under a
# seeded schedule the checker sees a late cp.async when it completes, so a
# read while it is still in the FIFO reads the old bytes unreported: the
# comparison of --schedules shows that one, docs/check.md "Schedules".)
# usage: wait_group_checker.sh TC5 PTX
set -u
tc5=$1 ptx=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
head -c 256 /dev/zero | tr '\0' '\7' > in.bin
fail=0
"$tc5" run "$ptx" --entry k_ok --grid 1 --block 32 --arg in:in.bin --arg out:o.bin:128 --check=strict --werror \
  --schedules 16 > ok.txt 2>&1 || { echo "k_ok is not silent under 16 schedules"; cat ok.txt; fail=1; }
for seed in 0 1 2 3 4 5 6 7; do
  TC5_SCHEDULE=$seed "$tc5" run "$ptx" --entry k_ok --grid 1 --block 32 --arg in:in.bin --arg out:o.bin:128 \
    --check=strict --werror > ok.txt 2>&1 || { echo "k_ok, schedule $seed: not silent"; cat ok.txt; fail=1; }
done
"$tc5" run "$ptx" --entry k_bug --grid 1 --block 32 --arg in:in.bin --arg out:o.bin:128 > bug.txt 2>&1 &&
  { echo "k_bug: exit 0"; fail=1; }
grep -q "error \[cp-async-unwaited\]" bug.txt || { echo "k_bug: no cp-async-unwaited"; cat bug.txt; fail=1; }
"$tc5" run "$ptx" --entry k_bug --grid 1 --block 32 --arg in:in.bin --arg out:o.bin:128 --check=none --schedules 16 \
  > bug.txt 2>&1 && { echo "k_bug: 16 schedules agreed"; fail=1; }
grep -q "schedules disagree" bug.txt || { echo "k_bug: no disagreement"; cat bug.txt; fail=1; }
[ $fail = 0 ] && echo "wait_group 1: the older group silent, the newest cp-async-unwaited and changed by a schedule"
exit $fail
