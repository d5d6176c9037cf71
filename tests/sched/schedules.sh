#!/bin/sh
# Adversarial schedules (docs/check.md, "Schedules"; issue 34).
# usage: schedules.sh race    TC5 PTX_DATA ROOT
#        schedules.sh corpus  CTEST BUILD_DIR
#
# race: the seeded races of the checker's catalogue whose output can change
# under a schedule (tests/sched/catalogue_schedules.txt, "differ") must
# differ under --schedules 16, and the correct kernel (ck_ok) must give the
# same bytes under all 16. With TC5_LONG_SCHEDULES=1: every case of the
# catalogue against its recorded verdict (differ, agree and why, stop).
#
# corpus: the repo's real kernels (Triton, Gluon, CuTe DSL, CUTLASS, nvcc),
# each through its own CTest — which compares the outputs with tc5 gemm or
# the recorded reference bit for bit — under seeded schedules (TC5_SCHEDULE):
# 2 seeds for the quick ones and 1 for the slower by default (about 30 s),
# 16 seeds each and every Triton/Gluon census kernel, the 2-SM nvcc kernels and the
# H100 TMA/sm_90 tests with TC5_LONG_SCHEDULES=1 (about 100 s a seed on the
# shared 2-core development machine: half an hour).
set -eu
mode=$1
shift
fail=0
case $mode in
race)
  tc5=$1 gen=$2 root=$3
  list=$root/tests/sched/catalogue_schedules.txt
  cases=$(awk '!/^#/ && $2 == "differ" { print $1 }' "$list")
  [ "${TC5_LONG_SCHEDULES:-}" = 1 ] && cases=$(awk '!/^#/ && NF { print $1 }' "$list")
  for c in $cases; do
    want=$(awk -v c="$c" '$1 == c { print $2 }' "$list")
    got=$(sh "$root/tests/check/catalogue.sh" "$tc5" "$gen" "$root" "$c" 16 | head -1 | sed 's/^.*schedules //')
    if [ "$got" = "$want" ]; then echo "$c: schedules $got (as recorded)"
    else echo "$c: schedules $got, recorded: $want"; fail=1; fi
  done
  # the correct kernel: 16 schedules, the same bytes
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  (cd "$work" &&
    "$gen" gen bf16 $((128 * 256)) 11 a.bin && "$gen" gen bf16 $((64 * 256)) 12 b.bin &&
    "$tc5" run "$root/tests/data/check/kernels.ptx" --entry ck_ok --grid 1 --block 128 --arg in:a.bin --arg in:b.bin \
      --arg "out:d.bin:$((2 * 128 * 64 * 4))" --check=strict --werror --schedules 16) || { echo "ck_ok: not the same under 16 schedules"; fail=1; }
  ;;
corpus)
  ctest=$1 build=$2
  light="ptx_corpus_ ptx_triton_desc\$ check_gluon_two_m64 ptx_cute_gemm ptx_cute_tutorial
ptx_triton_g06_small_mma_kernel_lhssmem check_ck_ok check_tr_ok ptx_smem_layout"
  heavy="ptx_cutlass_gemm ptx_triton_g12 ptx_triton_t10_block_scaled_matmul_mxfp8 ptx_nvcc_tcgen05\$"
  runs="1:light 2:light 3:heavy" # seed:set
  if [ "${TC5_LONG_SCHEDULES:-}" = 1 ]; then
    heavy="$heavy ptx_triton_ ptx_nvcc_tcgen05_bs ptx_nvcc_tcgen05_2sm ptx_silicon_tma ptx_silicon_sm90"
    runs=$(seq 1 16 | sed 's/$/:all/')
  fi
  log=$(mktemp)
  for r in $runs; do
    s=${r%%:*} set=${r#*:}
    case $set in light) t=$light ;; heavy) t=$heavy ;; *) t="$light $heavy" ;; esac
    re=$(printf '%s\n' $t | paste -sd'|' -)
    if TC5_SCHEDULE=$s "$ctest" --test-dir "$build" -R "$re" -E "schedules_" > "$log" 2>&1; then
      echo "seed $s: $(grep -c ' Passed' "$log") tests of real kernels pass, bit-exact as without a schedule ($(grep -c 'Not Run\|Skipped' "$log") skipped)"
    else
      echo "seed $s: failed"; grep -E "\*\*\*|Failed" "$log"; fail=1
    fi
  done
  rm -f "$log"
  ;;
*) echo "usage: schedules.sh race|corpus ..."; exit 2 ;;
esac
exit $fail
