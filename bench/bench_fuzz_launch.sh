#!/usr/bin/env bash
# bench_fuzz_launch: the launch fuzzer's throughput on the runner of this
# checkout against the runner of a baseline revision, in the same run, on
# the same recipes: tests/fuzz/fuzz_launch.c of this checkout (its recipes,
# step bounds and seeds) built twice with tests/fuzz/replay.c — against this
# checkout's library and against BASE's — and each run with
# TC5_FUZZ_RECIPES=1 (every recipe's seed launched once, as libFuzzer's first
# pass over the corpus does). Prints each side's inputs a second, CPU
# seconds and warp-instructions, and the ratios. Release builds, no
# sanitizers: the runner's own speed (scripts/fuzz.sh's ASan build is
# slower by a constant factor on both sides).
# usage: bench/bench_fuzz_launch.sh [BASE]   (a git revision; default: main)
#        TC5_BENCH_BASE_LIB=PATH: BASE's libtc5.a, already built (skips the
#        baseline's build, minutes on two cores)
#        TC5_BENCH_LIB=PATH: this checkout's libtc5.a (default build/libtc5.a,
#        built when absent)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
base=${1:-main}
work=$(mktemp -d)
trap 'rm -rf "$work"; git worktree remove --force "$work/base" >/dev/null 2>&1 || true' EXIT
lib=${TC5_BENCH_LIB:-build/libtc5.a}
if [ ! -f "$lib" ]; then
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build -j2 --target tc5_static >/dev/null
fi
base_lib=${TC5_BENCH_BASE_LIB:-}
base_inc=include
if [ -z "$base_lib" ]; then
  git worktree add --detach "$work/base" "$base" >/dev/null 2>&1
  cmake -S "$work/base" -B "$work/base-build" -DCMAKE_BUILD_TYPE=Release -DTC5_BUILD_BENCH=OFF >/dev/null
  cmake --build "$work/base-build" -j2 --target tc5_static >/dev/null
  base_lib=$work/base-build/libtc5.a
  base_inc=$work/base/include
fi
build() { # NAME LIB INCLUDE
  "${CC:-cc}" -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -I"$3" -DTC5_FUZZ_HAS_INIT -DTC5_FUZZ_ROOT="\"$root\"" \
    tests/fuzz/fuzz_launch.c tests/fuzz/replay.c "$2" -lm -lpthread -o "$work/$1"
}
build base "$base_lib" "$base_inc"
build this "$lib" include
run() { # NAME: inputs/s, CPU seconds (user + system), warp-instructions
  local TIMEFORMAT='%U %S'
  { time TC5_FUZZ_RECIPES=1 "$work/$1" >"$work/$1.txt" 2>/dev/null; } 2>"$work/$1.time"
  local cpu ips steps
  cpu=$(awk '{print $1 + $2}' "$work/$1.time")
  ips=$(tail -1 "$work/$1.txt" | grep -o '[0-9.]* inputs/s' | cut -d' ' -f1)
  steps=$(awk '{for (i = 1; i <= NF; i++) if ($i == "steps") s += $(i - 1)} END {print s}' "$work/$1.txt")
  echo "$ips $cpu $steps"
}
read -r bi bc bs <<<"$(run base)"
read -r ti tc ts <<<"$(run this)"
n=$(tail -1 "$work/this.txt" | grep -o '[0-9]* seeds' | cut -d' ' -f1)
printf '%-10s %12s %12s %18s\n' "runner" "inputs/s" "CPU s" "warp-instructions"
printf '%-10s %12s %12s %18s\n' "$base" "$bi" "$bc" "$bs" "this" "$ti" "$tc" "$ts"
awk -v bi="$bi" -v ti="$ti" -v bc="$bc" -v tc="$tc" -v n="$n" 'BEGIN {
  printf "%s seeds: %.2fx the inputs a second (wall), %.2fx less CPU time\n", n, ti / bi, bc / tc }'
# the outcomes that changed (a hang of the baseline's that now ends, ...)
paste -d'|' <(awk '{print $1, $2, $3, $4}' "$work/base.txt") <(awk '{print $4}' "$work/this.txt") |
  awk -F'|' '{split($1, a, " "); if (a[4] != $2) { c[a[4] " -> " $2]++ } } END { for (k in c) printf "  %d recipes: %s\n", c[k], k }'
