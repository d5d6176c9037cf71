#!/bin/sh
# Issue 53's field bugs as kernels, each caught and each fix silent:
# - ConSan's three cross-CTA bug cases (tests/data/consan) caught by the
#   default checker, each beside a fixed twin (tests/data/check/xcta: ConSan's
#   own for the missing multicast, gen_twins.py's for the other two) that is
#   silent and the same under 8 schedules; a CTA pair's MMA whose operands in
#   the peer are overwritten by the peer with the MMA in flight, and its fixed
#   twin (gen_pair.py);
# - Blackwell non-determinism reported against a Triton release and fixed by
#   a fence in the next (tests/data/check/field53/gen.py: the same kernel as
#   Triton 3.6.0, 3.7.0 and 3.7.1 compiled it for sm_100a): the release with
#   the bug reported, the one with the fix silent and the same under 8 schedules.
# usage: field53.sh TC5 PTX_DATA SOURCE_DIR
set -u
tc5=$1 gen=$2 src=$3
consan=$src/tests/data/consan/ptx xcta=$src/tests/data/check/xcta field=$src/tests/data/check/field53
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
"$gen" gen bf16 49152 3 x.bin && "$gen" gen bf16 49152 4 y.bin
"$gen" gen bf16 16384 5 q.bin && "$gen" gen bf16 16384 6 k.bin && "$gen" gen bf16 16384 7 v.bin
printf '\000\000\000\000\144\000\000\000\000\001\000\000' > bounds.bin # sequences [0, 100) and [100, 256)
fail=0 n=0 s=0
# ConSan's kernels read buffers nothing wrote by design (ConSan fills them with NaN): warnings, as consan_run.py
uninit="--rule smem-uninit-read=warning --rule tmem-uninit-read=warning"
# caught NAME RULE FILE ARGS...: exit 1 and [RULE] reported
caught() {
  name=$1 rule=$2 file=$3
  shift 3
  n=$((n + 1))
  "$tc5" run "$file" "$@" > out.txt 2>&1
  rc=$?
  if [ $rc = 1 ] && grep -q "error \[$rule\]" out.txt; then echo "$name: the bug is reported as [$rule]"
  else echo "$name: the bug is not reported as [$rule] (exit $rc)"; head -20 out.txt; fail=1; fi
}
# scheduled NAME RULE FILE ARGS...: the default run silent, [RULE] reported under --schedules 8 (a seeded
# schedule completes a cp.async at its wait_group, after a fence that the default run's early copy precedes),
# or the schedules' outputs differ (the MMA reads the copy's bytes stale: no fence.proxy.async after it)
scheduled() {
  name=$1 rule=$2 file=$3
  shift 3
  n=$((n + 1))
  "$tc5" run "$file" "$@" > out.txt 2>&1
  rc=$?
  "$tc5" run "$file" "$@" --schedules 8 > sched.txt 2>&1
  rc8=$?
  "$tc5" run "$file" "$@" --schedule 1 > seed1.txt 2>&1 # --schedules prints the count; one seed names the rule
  if [ $rc = 0 ] && ! grep -q "error \[" out.txt && [ $rc8 = 1 ] &&
    grep -q "checker: [1-9][0-9]* errors\|schedules disagree" sched.txt &&
    grep -q "error \[$rule\]" seed1.txt; then
    echo "$name: the bug is reported under --schedules 8 (seed 1: [$rule]; the default run is silent)"
  else echo "$name: not as expected (default run exit $rc, --schedules 8 exit $rc8)"; head -10 out.txt sched.txt; fail=1; fi
}
# silent NAME FILE ARGS...: exit 0, no finding, the same bytes under 8 schedules
silent() {
  name=$1 file=$2
  shift 2
  s=$((s + 1))
  "$tc5" run "$file" "$@" --schedules 8 > out.txt 2>&1
  rc=$?
  if [ $rc = 0 ] && grep -q "8 schedules agreed" out.txt && ! grep -q "error \[" out.txt; then
    echo "$name: silent and the same under 8 schedules"
  else echo "$name: not silent (exit $rc)"; grep -v "warning \[smem-uninit-read\]\|warning \[tmem-uninit-read\]" out.txt | head -20; fail=1; fi
}
# ConSan's cross-CTA cases (the arguments are tests/data/consan/manifest.tsv's)
c1="--entry kernel --grid 4,1,1 --block 128,1,1 --cluster 4,1,1 --shared-bytes 98312 --buffer scratch:32768
 --arg tmap:buf=1,type=f16,dims=128x128,box=64x128,swizzle=128B,strides=256 --arg u32:128 --arg u32:128 --arg u64:128
 --arg u64:1 --arg null --arg null"
c2="--entry kernel --grid 2,1,1 --block 128,1,1 --cluster 2,1,1 --shared-bytes 49160 --buffer scratch:65536
 --buffer scratch:32768 --arg tmap:buf=1,type=f16,dims=128x256,box=64x128,swizzle=128B,strides=256 --arg u32:256
 --arg u32:128 --arg u64:128 --arg u64:1 --arg tmap:buf=2,type=f16,dims=128x128,box=64x128,swizzle=128B,strides=256
 --arg u32:128 --arg u32:128 --arg u64:128 --arg u64:1 --arg null --arg null"
c2p=$(echo "$c2" | sed 's/--shared-bytes 49160/--shared-bytes 49168/') # gen_pair.py's second mbarrier
c3="--entry kernel --grid 4,1,1 --block 128,1,1 --cluster 4,1,1 --shared-bytes 49176 --buffer scratch:262144
 --buffer scratch:262144 --arg tmap:buf=1,type=f16,dims=512x256,box=64x128,swizzle=128B,strides=1024 --arg u32:256
 --arg u32:512 --arg u64:512 --arg u64:1 --arg tmap:buf=2,type=f16,dims=256x512,box=64x128,swizzle=128B,strides=512
 --arg u32:512 --arg u32:256 --arg u64:256 --arg u64:1 --arg null --arg null"
# shellcheck disable=SC2086
{
caught consan_cluster_barrier_does_not_publish_later_read smem-race \
  "$consan/cluster_barrier_does_not_publish_later_read_a8243e97.ptx" $c1 --threads 1 $uninit
silent consan_cluster_barrier_publishes_read "$xcta/cluster_barrier_publishes_read.ptx" $c1 --threads 1 $uninit
caught consan_collapsed_wait_does_not_publish_peer_cta async-dst-inflight \
  "$consan/collapsed_wait_does_not_publish_peer_cta_3bb20f3c.ptx" $c2 --threads 1 $uninit
silent consan_collapsed_wait_publishes_peer "$xcta/collapsed_wait_publishes_peer.ptx" $c2 --threads 1 $uninit
caught "consan_tma_tcgen05_mma_missing_multicast[4ctas]" smem-overwrite-inflight \
  "$consan/tma_tcgen05_mma_missing_multicast_47161890.ptx" $c3 --threads 1 $uninit
silent "consan_tma_tcgen05_mma_multicast_loop[4ctas-False]" "$consan/tma_tcgen05_mma_multicast_loop_ab78c66f.ptx" \
  $c3 --threads 1 $uninit
# a CTA pair's MMA reading the peer's half (gen_pair.py): the peer overwrites it with the MMA in flight
caught pair_peer_overwrite smem-overwrite-inflight "$xcta/pair_peer_overwrite.ptx" $c2p --threads 1 $uninit
silent pair_peer_overwrite_fixed "$xcta/pair_peer_overwrite_fixed.ptx" $c2p --threads 1 $uninit
}
# Triton releases (gen.py): bmm, 2 batches of 128 x 192 @ 192 x 128; recur, 2 sequences, V 64 in two blocks of 32
bmm="--grid 2,1 --block 256 --shared-bytes 98320 --arg in:x.bin --arg in:y.bin --arg out:o.bin:65536
 --arg u32:128 --arg u32:128 --arg u32:192 --arg null --arg null"
recur="--grid 2,2 --block 128 --shared-bytes 36896 --arg in:q.bin --arg in:k.bin --arg in:v.bin
 --arg out:o.bin:32768 --arg in:bounds.bin --arg null --arg null"
# shellcheck disable=SC2086
{
caught bmm_3.6.0 proxy-fence "$field/bmm_3.6.0.ptx" $bmm
caught bmm_3.7.0 proxy-fence "$field/bmm_3.7.0.ptx" $bmm
silent bmm_3.7.1 "$field/bmm_3.7.1.ptx" $bmm
silent bmm_3.9.0 "$field/bmm_3.9.0.ptx" $bmm
silent recur_3.6.0 "$field/recur_3.6.0.ptx" $recur
caught recur_3.7.0 proxy-fence "$field/recur_3.7.0.ptx" $recur
# 3.7.1 fences the copies waited before the first MMA of the loop, not those the second MMA's
# cp.async.wait_group 1 completes (no fence.proxy.async between that wait and the MMA); 3.9.0 does
scheduled recur_3.7.1 proxy-fence "$field/recur_3.7.1.ptx" $recur
silent recur_3.9.0 "$field/recur_3.9.0.ptx" $recur
}
[ $fail = 0 ] && echo "$n bugs caught, $s fixed kernels silent"
exit $fail
