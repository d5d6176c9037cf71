#!/usr/bin/env bash
# The whole test suite: installs missing dependencies, builds, runs CTest.
# Usage: scripts/test.sh            (plain build)
#        scripts/test.sh --sanitize (AddressSanitizer + UndefinedBehaviorSanitizer)
#        scripts/test.sh --tsan     (ThreadSanitizer, build-tsan/: the multi-CTA,
#                                    cluster and multi-threaded tests, every launch
#                                    on TC5_THREADS=4 host threads; a race report
#                                    fails the run, whatever the test expected)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh "$@"
dir=build
if [ "${1:-}" = "--sanitize" ]; then
  dir=build-asan
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fi
if [ "${1:-}" = "--tsan" ]; then
  cd build-tsan
  rm -rf tsan && mkdir tsan
  # each report goes to tsan/report.PID (a test that expects a failing exit
  # status would hide one that only changed the status)
  export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 log_path=$PWD/tsan/report suppressions=$PWD/../tests/tsan.supp"
  export TC5_THREADS=4
  status=0
  ctest --output-on-failure -j"$(nproc)" -R "$(cat ../tests/tsan_tests.txt | grep -v '^#' | paste -sd'|')" || status=1
  if ls tsan/report.* >/dev/null 2>&1; then
    cat tsan/report.*
    echo "scripts/test.sh --tsan: ThreadSanitizer reported $(ls tsan/report.* | wc -l) process(es)"
    status=1
  fi
  exit $status
fi
cd "$dir"
ctest --output-on-failure -j"$(nproc)"
# the Python package (wheel, fresh virtualenv, pytest) with the plain build
if [ "$dir" = build ]; then cd .. && scripts/test_python.sh; fi
