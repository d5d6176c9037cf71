#!/usr/bin/env bash
# Builds tc5's libFuzzer targets with clang under ASan + UBSan and runs them.
#   parser  tests/fuzz/fuzz_ptx.c: any bytes through tc5_ptx_load (and a
#           tiny launch of what loads). Seeds: every committed .ptx under
#           tests/ and docs/ (Triton, nvcc, CuTe, CUTLASS, the checker's and
#           the silicon kernels), tests/data/ptx/census/ (real-world PTX,
#           committed or not, when present) and the regression inputs
#           tests/data/fuzz/ptx/; dictionary build-fuzz/ptx.dict, generated
#           from the opcode table by scripts/gen_fuzz_dict.py.
#   launch  tests/fuzz/fuzz_launch.c: valid kernels (tests/fuzz/launch.txt,
#           the silicon manifests and ConSan's 387 kernels,
#           tests/data/consan/manifest.tsv) with their launch mutated: grid,
#           block, cluster, shared bytes, arguments, tensor maps, buffers
#           and their bytes. Seeds: one input per recipe (version 2: the
#           first bytes of its input buffers with it), and
#           tests/data/fuzz/launch/.
# usage: scripts/fuzz.sh [RUNS] [parser|launch|all]
#        RUNS: inputs each target runs (default 2000; CI's short run: 500)
#        TC5_FUZZ_SECONDS=S: each target runs S seconds instead (-max_total_time)
#        TC5_FUZZ_JOBS=N: N fuzzing processes (libFuzzer -jobs/-workers; default 1)
# New inputs are kept in build-fuzz/corpus-TARGET (run first, whole, by every later
# run: remove it to start afresh), crashes in build-fuzz/
# (crash-*, leak-*, timeout-*, oom-*); each target's log in build-fuzz/TARGET.log.
# src/arith is compiled without libFuzzer's coverage hooks (still under the
# sanitizers): the launch target's coverage is then the runner's, not the
# arithmetic's thousands of edges a single MMA visits.
# Exit status: 0 when every target ran clean, 1 on a finding. Skips (exit 0)
# without clang.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-2000}
which=${2:-all}
case "$which" in parser | launch | all) ;; *)
  echo "usage: scripts/fuzz.sh [RUNS] [parser|launch|all]" >&2
  exit 2
  ;;
esac
CC=${CLANG:-$(command -v clang || true)}
if [ -z "$CC" ]; then echo "fuzz.sh: no clang: skipped"; exit 0; fi
out=build-fuzz
mkdir -p "$out/obj"

# ---- the library, once for both targets (objects rebuilt when a source or a header is newer) ----
flags=(-std=c11 -D_POSIX_C_SOURCE=200809L -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all
  -frounding-math -Wno-psabi -Iinclude -Isrc)
srcs=$(sed -n '/set(TC5_SOURCES/,/)/p' CMakeLists.txt | grep -o 'src/[^ ]*\.c')
newest_h=$(find include src -name '*.h' -printf '%T@ %p\n' | sort -n | tail -1 | cut -d' ' -f2)
# obj SRC: its object (src/arith's named apart: built without the coverage hooks)
obj() {
  case "$1" in
  src/arith/*) echo "$out/obj/$(echo "$1" | tr / _).nocov.o" ;;
  *) echo "$out/obj/$(echo "$1" | tr / _).o" ;;
  esac
}
stale=()
for s in $srcs; do
  o=$(obj "$s")
  if [ ! -f "$o" ] || [ "$s" -nt "$o" ] || [ "$newest_h" -nt "$o" ]; then stale+=("$s"); fi
done
for s in "${stale[@]}"; do # two compilers at a time (TC5_FUZZ_BUILD_JOBS)
  while [ "$(jobs -rp | wc -l)" -ge "${TC5_FUZZ_BUILD_JOBS:-2}" ]; do wait -n; done
  cov=(-fsanitize=fuzzer-no-link)
  case "$s" in src/arith/*) cov=() ;; esac
  "$CC" "${flags[@]}" "${cov[@]}" -c "$s" -o "$(obj "$s")" &
done
for p in $(jobs -p); do wait "$p"; done
objs=$(for s in $srcs; do obj "$s"; done)
# shellcheck disable=SC2086
"$CC" "${flags[@]}" -fsanitize=fuzzer tests/fuzz/fuzz_ptx.c $objs -o "$out/fuzz_ptx" -lm -lpthread
# shellcheck disable=SC2086
"$CC" "${flags[@]}" -fsanitize=fuzzer -DTC5_FUZZ_ROOT="\"$(pwd)\"" tests/fuzz/fuzz_launch.c $objs \
  -o "$out/fuzz_launch" -lm -lpthread

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
limit=(-runs="$runs")
if [ -n "${TC5_FUZZ_SECONDS:-}" ]; then limit=(-max_total_time="$TC5_FUZZ_SECONDS"); fi
jobs=()
if [ "${TC5_FUZZ_JOBS:-1}" -gt 1 ]; then jobs=(-jobs="$TC5_FUZZ_JOBS" -workers="$TC5_FUZZ_JOBS"); fi
common=(-artifact_prefix="$out/" -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 "${limit[@]}" "${jobs[@]}")
status=0
summary=()

# run NAME BINARY ARGS...: the campaign, its log, its summary line
run() {
  local name=$1
  shift
  local rc=0
  "$@" >"$out/$name.log" 2>&1 || rc=$?
  local done execs
  done=$(grep -o 'Done [0-9]* runs in [0-9]* second(s)' "$out/$name.log" | tail -1 || true)
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$out/$name.log" | tail -1 | grep -o '[0-9]*$' || true)
  if [ $rc -ne 0 ]; then
    status=1
    summary+=("fuzz.sh: $name: FINDING (exit $rc): $(grep -m1 -E 'ERROR|runtime error|fuzz_launch:|Timeout|out-of-memory' "$out/$name.log" || echo "see $out/$name.log")")
  else
    summary+=("fuzz.sh: $name: ${done:-done}, ${execs:-?} inputs executed, no finding (log $out/$name.log)")
  fi
}

if [ "$which" != launch ]; then
  seeds="$out/seeds-ptx"
  rm -rf "$seeds"
  mkdir -p "$seeds" "$out/corpus-ptx"
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    committed=$(git ls-files -- 'tests/*.ptx' 'docs/*.ptx')
  else
    committed=$(find tests docs -name '*.ptx')
  fi
  census=$(find tests/data/ptx/census -type f -name '*.ptx' 2>/dev/null || true)
  nseed=0
  for f in $(printf '%s\n' $committed $census | sort -u); do # the census's committed files once
    cp "$f" "$seeds/$(echo "$f" | tr / _)"
    nseed=$((nseed + 1))
  done
  if [ -d tests/data/fuzz/ptx ]; then cp tests/data/fuzz/ptx/* "$seeds/" 2>/dev/null || true; fi
  dict=()
  if command -v python3 >/dev/null; then
    python3 scripts/gen_fuzz_dict.py "$out/ptx.dict" && dict=(-dict="$out/ptx.dict")
  else
    echo "fuzz.sh: no python3: the parser runs without its dictionary"
  fi
  echo "fuzz.sh: parser: $nseed seed files ($(echo "$census" | grep -c . || true) from tests/data/ptx/census)"
  run parser "$out/fuzz_ptx" "${common[@]}" "${dict[@]}" -max_len="${TC5_FUZZ_MAX_LEN:-65536}" \
    "$out/corpus-ptx" "$seeds"
fi
if [ "$which" != parser ]; then
  seeds="$out/seeds-launch"
  rm -rf "$seeds"
  mkdir -p "$seeds" "$out/corpus-launch"
  # a short run (CI's) starts from every 8th recipe: the launches are slow under the sanitizers
  every=1
  if [ -z "${TC5_FUZZ_SECONDS:-}" ] && [ "$runs" -le 1000 ]; then every=8; fi
  TC5_FUZZ_SEEDS="$seeds" TC5_FUZZ_SEEDS_EVERY=$every "$out/fuzz_launch" 2>&1 | tail -1
  if [ -d tests/data/fuzz/launch ]; then cp tests/data/fuzz/launch/* "$seeds/" 2>/dev/null || true; fi
  run launch "$out/fuzz_launch" "${common[@]}" -max_len=4096 -len_control=0 "$out/corpus-launch" "$seeds"
fi
printf '%s\n' "${summary[@]}"
exit $status
