#!/usr/bin/env bash
# The whole test suite: installs missing dependencies (Debian packages; the
# tests' Python environment from PyPI, scripts/pyenv.sh), builds, runs CTest
# (the attention CTests with that environment's Python), then the Python
# package's tests (scripts/test_python.sh: the Triton and Gluon door, CuTe DSL),
# and prints a summary (scripts/test_summary.py). Every test that needs
# neither a GPU nor PyTorch runs; docs/python.md "What the suite runs" has
# the parts' times and the variables that add the long ones.
# Usage: scripts/test.sh            (plain build)
#        scripts/test.sh --sanitize (AddressSanitizer + UndefinedBehaviorSanitizer; CTest only)
#        scripts/test.sh --tsan     (ThreadSanitizer, build-tsan/: the multi-CTA,
#                                    cluster and multi-threaded tests, every launch
#                                    on TC5_THREADS=4 host threads; a race report
#                                    fails the run, whatever the test expected)
#        TC5_PY_TORCH=1 scripts/test.sh   also installs PyTorch and runs the tests that need it
set -euo pipefail
cd "$(dirname "$0")/.."
# each step's wall and CPU seconds (children included), for the budget in docs/python.md
TIMEFORMAT="   (%R s wall, %U s user + %S s system CPU)"
scripts/deps.sh
echo "== the tests' Python (scripts/pyenv.sh)"
time venv="$(scripts/pyenv.sh)"
dir=build
if [ "${1:-}" = "--tsan" ]; then
  echo "== build (scripts/build.sh --tsan)"
  time TC5_TEST_PYTHON="$venv/bin/python" scripts/build.sh "$@"
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
if [ "${1:-}" = "--sanitize" ]; then
  dir=build-asan
  echo "== build (scripts/build.sh --sanitize)"
  time scripts/build.sh "$@"
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
else
  echo "== build (scripts/build.sh)"
  time TC5_TEST_PYTHON="$venv/bin/python" scripts/build.sh "$@"
fi
status=0
echo "== CTest"
time (cd "$dir" && ctest --output-on-failure -j"$(nproc)" --output-junit "$(pwd)/ctest.xml") || status=$?
# the Python package (wheel, the tests' virtualenv, pytest) with the plain build
if [ "$dir" = build ]; then
  pyvenv="$venv"   # TC5_PY_TORCH=1: the environment with PyTorch too
  if [ "${TC5_PY_TORCH:-0}" = 1 ]; then pyvenv="$(TC5_PY_TORCH=1 scripts/pyenv.sh)"; fi
  echo "== the Python package's tests (scripts/test_python.sh)"
  time TC5_TEST_VENV="${TC5_TEST_VENV:-$pyvenv}" scripts/test_python.sh || status=$?
  "$venv/bin/python" scripts/test_summary.py build/ctest.xml build/pytest.xml || status=$?
else
  "$venv/bin/python" scripts/test_summary.py --sanitize "$dir/ctest.xml" || status=$?
fi
exit $status
