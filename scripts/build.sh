#!/usr/bin/env bash
# Configures and builds tc5 into build/ (build-asan/ with --sanitize,
# build-tsan/ with --tsan: ThreadSanitizer).
# Usage: scripts/build.sh [--sanitize | --tsan]
#        TC5_TEST_PYTHON=PATH scripts/build.sh   the Python the CTests that need NumPy run with
#        (Python3_EXECUTABLE; scripts/test.sh passes its virtual environment's)
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
if [ -n "${TC5_TEST_PYTHON:-}" ]; then extra+=(-DPython3_EXECUTABLE="$TC5_TEST_PYTHON"); fi
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release "${extra[@]}" >/dev/null
cmake --build "$dir" -j"$(nproc)"
