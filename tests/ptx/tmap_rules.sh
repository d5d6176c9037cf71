#!/bin/sh
# tc5's verdict on each tensor map of tests/data/ptx/tma90/tmap_rules.txt
# against the CUDA driver's on the H100 (h100_tmap_rules.txt, written by
# `gpu/run.sh tma`): cuTensorMapEncodeTiled accepted ("ok") or rejected
# it, and `tc5 tmap` must say valid or invalid alike.
# usage: tmap_rules.sh TC5 DATA_DIR
set -eu
tc5=$1 dir=$2
n=0 bad=0
grep -v '^#' "$dir/tmap_rules.txt" > "${TMPDIR:-/tmp}/tc5_rules.$$"
exec 3< "$dir/h100_tmap_rules.txt"
while read -r line; do
  read -r verdict <&3
  n=$((n + 1))
  rc=0
  "$tc5" tmap "$line" > /dev/null || rc=$?
  if [ "$rc" = 2 ]; then echo "does not parse: $line"; bad=$((bad + 1)); continue; fi
  if { [ "$verdict" = ok ] && [ "$rc" != 0 ]; } || { [ "$verdict" != ok ] && [ "$rc" = 0 ]; }; then
    echo "differs: $line: the driver says $verdict, tc5 $( [ $rc = 0 ] && echo valid || echo invalid)"
    bad=$((bad + 1))
  fi
done < "${TMPDIR:-/tmp}/tc5_rules.$$"
rm -f "${TMPDIR:-/tmp}/tc5_rules.$$"
echo "$n tensor maps: $((n - bad)) judged as cuTensorMapEncodeTiled on the H100 judged them, $bad differ"
[ "$bad" = 0 ]
