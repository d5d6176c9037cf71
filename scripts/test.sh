#!/usr/bin/env bash
# The whole test suite: installs missing dependencies, builds, runs CTest.
# Usage: scripts/test.sh            (plain build)
#        scripts/test.sh --sanitize (AddressSanitizer + UndefinedBehaviorSanitizer)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh "$@"
dir=build
if [ "${1:-}" = "--sanitize" ]; then
  dir=build-asan
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fi
cd "$dir"
ctest --output-on-failure -j"$(nproc)"
# the Python package (wheel, fresh virtualenv, pytest) with the plain build
if [ "$dir" = build ]; then cd .. && scripts/test_python.sh; fi
