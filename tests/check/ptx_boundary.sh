#!/bin/sh
# The runner treats the checker as opaque (issue 51), as the checker treats
# the runner (check_boundary): src/ptx/ reads no field of the checker's
# state (a chk_cta is passed back, asked through check_impl.h's functions:
# chk_defers_uninit, chk_has_remote...), and names the checker's rules only
# through the rule table (chk_rule_id(CR_...)), never as literal "[id]" or
# "id" text.
# usage: ptx_boundary.sh TC5 ROOT
set -eu
tc5=$1 root=$2
cd "$root/src/ptx"
fail=0
if grep -nE '(->|\.)chk->[a-z_]' ./*.c ./*.h; then
  echo "ptx_boundary.sh: src/ptx/ reads a field of the checker's state (ask check_impl.h instead)"
  fail=1
fi
ids=$("$tc5" check rules --tsv | cut -f1)
[ -n "$ids" ] || { echo "ptx_boundary.sh: no rule ids from '$tc5 check rules --tsv'"; exit 1; }
n=0
for id in $ids; do
  if grep -nF -e "[$id]" -e "\"$id\"" ./*.c ./*.h; then
    echo "ptx_boundary.sh: src/ptx/ spells the rule $id: use chk_rule_id(CR_...)"
    fail=1
  fi
  n=$((n + 1))
done
[ "$fail" -eq 0 ] && echo "src/ptx/: no checker field read, none of the $n rule ids spelt out"
exit "$fail"
