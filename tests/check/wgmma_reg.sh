#!/bin/sh
# wgmma-reg-inflight (docs/check.md, docs/spec-departures.md): reading a
# wgmma accumulator before wgmma.wait_group is the strict-mode warning, the
# value read is the completed one (ptxas waits there); with the wait, no finding.
# usage: wgmma_reg.sh TC5 PTX
set -u
tc5=$1 ptx=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail=0
"$tc5" run "$ptx" --grid 1 --block 128 --arg out:o.bin:512 --arg u32:0 --check=strict > a.txt 2>&1
grep -q "warning \[wgmma-reg-inflight\]" a.txt || { echo "no wgmma-reg-inflight warning"; cat a.txt; fail=1; }
[ "$(od -An -tx4 -v o.bin | tr -s ' \n' '\n' | grep -v '^$' | sort -u)" = 42000000 ] || { echo "not 32.0 everywhere"; fail=1; }
"$tc5" run "$ptx" --grid 1 --block 128 --arg out:o.bin:512 --arg u32:1 --check=strict --werror > b.txt 2>&1 || { echo "the waited kernel is not silent"; cat b.txt; fail=1; }
[ $fail = 0 ] && echo "wgmma-reg-inflight: warned before the wait, silent after it; 128 x 32.0 either way"
exit $fail
