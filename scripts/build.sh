#!/usr/bin/env bash
# Configures and builds tc5 into build/ (build-asan/ with --sanitize,
# build-tsan/ with --tsan: ThreadSanitizer).
# Usage: scripts/build.sh [--sanitize | --tsan]
set -euo pipefail
cd "$(dirname "$0")/.."
"$(pwd)/scripts/deps.sh"
dir=build
extra=()
if [ "${1:-}" = "--sanitize" ]; then
  dir=build-asan
  extra=(-DTC5_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo)
elif [ "${1:-}" = "--tsan" ]; then
  dir=build-tsan
  extra=(-DTC5_TSAN=ON -DTC5_CUDA=OFF -DTC5_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo)
fi
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release "${extra[@]}" >/dev/null
cmake --build "$dir" -j"$(nproc)"
