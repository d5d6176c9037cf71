#!/bin/sh
# Bugs reported in the field (tests/check/field/*.ptx: each kernel's header
# cites the public report), each as a small kernel with the bug and its fix.
# A bug must be caught, by a rule (exit 1, "[rule]" named) or by a schedule
# (exit 1, "schedules disagree" under --schedules 16); its fixed version must
# be silent: exit 0, no finding, the same bytes under 16 schedules. A bug tc5
# cannot catch is listed with `miss` and the reason (docs/check.md): it must
# stay silent and the same under 16 schedules, so that the day tc5 catches
# it this test fails and the entry moves to `one`.
# usage: check_field.sh TC5 PTX_DATA FIELD_DIR
set -u
tc5=$1 gen=$2 dir=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
"$gen" gen bf16 128 7 in.bin
"$gen" gen bf16 4096 9 sf.bin
fail=0 n=0 m=0
# one NAME CATCH FILE "COMMON" "BUG" "FIXED": CATCH is rule:ID or schedule
one() {
  name=$1 catch=$2 file=$dir/$3 common=$4 bug=$5 fixed=$6
  n=$((n + 1))
  # shellcheck disable=SC2086
  "$tc5" run "$file" $common $bug --schedules 16 > bug.txt 2>&1
  rc=$?
  case $catch in
  rule:*)
    rule=${catch#rule:}
    if [ $rc = 1 ] && grep -q "\[$rule\]" bug.txt; then echo "$name: the bug is reported as [$rule]"
    else echo "$name: the bug is not reported as [$rule] (exit $rc)"; head -20 bug.txt; fail=1; fi ;;
  schedule)
    if [ $rc = 1 ] && grep -q "schedules disagree" bug.txt; then
      echo "$name: the bug is caught by a schedule: $(grep -m1 'schedules disagree' bug.txt | sed 's/^tc5 run: //')"
      rules=$(grep -o "error \[[a-z0-9-]*\]" bug.txt | sort -u | tr '\n' ' ')
      [ -z "$rules" ] || echo "$name: also reported by the checker: $rules"
    else echo "$name: no schedule exposes the bug (exit $rc)"; head -20 bug.txt; fail=1; fi ;;
  esac
  # shellcheck disable=SC2086
  "$tc5" run "$file" $common $fixed --check=default --schedules 16 > fixed.txt 2>&1
  rc=$?
  if [ $rc = 0 ] && grep -q "16 schedules agreed" fixed.txt && ! grep -q "error \[\|warning \[" fixed.txt; then
    echo "$name: the fixed kernel is silent and the same under 16 schedules"
  else echo "$name: the fixed kernel is not silent (exit $rc)"; head -20 fixed.txt; fail=1; fi
}
# miss NAME FILE "ARGS" "WHY": a bug tc5 does not catch, and why
miss() {
  name=$1 file=$dir/$2 args=$3 why=$4
  m=$((m + 1))
  # shellcheck disable=SC2086
  "$tc5" run "$file" $args --check=strict --schedules 16 > miss.txt 2>&1
  rc=$?
  if [ $rc = 0 ] && grep -q "16 schedules agreed" miss.txt && ! grep -q "error \[\|warning \[" miss.txt; then
    echo "$name: not caught, as docs/check.md says: $why"
  else echo "$name: now caught or failing (exit $rc): move it to one and update docs/check.md"; head -20 miss.txt; fail=1; fi
}
one fi4533_barrier_ids rule:barrier-count-mismatch fi4533_barrier_ids.ptx \
  "--grid 1 --block 256 --arg out:o.bin:1024" "--arg u32:1" "--arg u32:2"
one cutlass3435_pair_dealloc rule:cta-pair-dealloc-early cutlass3435_pair_dealloc.ptx \
  "--grid 2 --block 32" "--arg u32:0" "--arg u32:1"
one fi4409_cp_async_sf schedule fi4409_cp_async_sf.ptx \
  "--grid 1 --block 32 --arg in:in.bin --arg out:o.bin:128" "--entry k_bug" "--entry k_fixed"
one cutlass3652_ld_before_free rule:dealloc-inflight cutlass3652_ld_before_free.ptx \
  "--grid 1 --block 64 --arg out:o.bin:64" "--arg u32:0" "--arg u32:1"
one cutlass3643_sfb_peer schedule cutlass3643_sfb_peer.ptx \
  "--grid 2 --block 96 --arg in:sf.bin --arg out:o.bin:8192" "--arg u32:0" "--arg u32:1"
# the fixed kernel moves the scale factors through Tensor Memory back where they came from
if "$tc5" run "$dir/cutlass3643_sfb_peer.ptx" --grid 2 --block 96 --arg in:sf.bin --arg out:o.bin:8192 --arg u32:1 \
  > out.txt 2>&1 && cmp -s o.bin sf.bin; then echo "cutlass3643_sfb_peer: the fixed kernel's output equals its input"
else echo "cutlass3643_sfb_peer: the fixed kernel's output is not its input"; head -5 out.txt; fail=1; fi
# CUTLASS #3643's second bug: the relay's arrival on the leader's mbarrier at .release.cta (issue 53)
one cutlass3643_release_cta rule:release-scope cutlass3643_sfb_peer.ptx \
  "--grid 2 --block 96 --arg in:sf.bin --arg out:o.bin:8192" "--arg u32:2" "--arg u32:1"
[ $fail = 0 ] && echo "$n field bugs caught, their fixes silent; $m known miss(es)"
exit $fail
