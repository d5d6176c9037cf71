#!/usr/bin/env bash
# The Python package's tests: builds the wheel from this checkout
# (scikit-build-core: the same CMake build), installs it into a fresh
# virtualenv (build/pyvenv) with numpy, ml_dtypes, pytest and hypothesis from
# PyPI, and runs tests/python against the built CLI (tc5.gemm == tc5 gemm).
# Usage: scripts/test_python.sh   (after scripts/build.sh; scripts/test.sh runs it)
#        TC5_PY_TRITON=1 scripts/test_python.sh   also installs triton 3.9 (hundreds of MB)
#        and runs tests/python/test_triton*.py (skipped otherwise: tc5.triton, the Triton
#        driver) and docs/python.md's python run blocks through the doc test
#        TC5_PY_CUTE=1 scripts/test_python.sh      also installs nvidia-cutlass-dsl 4.8.1 (hundreds of
#        MB) and runs tests/python/test_cute.py (skipped otherwise: tc5.cute, NVIDIA's Blackwell
#        CuTe DSL examples on tc5; about a minute)
set -euo pipefail
cd "$(dirname "$0")/.."
venv="$(pwd)/build/pyvenv"
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install -q --upgrade pip
"$venv/bin/pip" install -q numpy ml_dtypes pytest hypothesis
if [ "${TC5_PY_TRITON:-0}" = 1 ]; then "$venv/bin/pip" install -q "triton==3.9.*"; fi
if [ "${TC5_PY_CUTE:-0}" = 1 ]; then "$venv/bin/pip" install -q "nvidia-cutlass-dsl==4.8.1"; fi
"$venv/bin/pip" install -q .
cd build   # not the checkout: the tests import the installed package
TC5_CLI="$(pwd)/tc5" "$venv/bin/python" -m pytest -q ../tests/python
if [ "${TC5_PY_TRITON:-0}" = 1 ]; then
  TC5_DOC_PYTHON="$venv/bin/python" sh ../tests/docs/doctest.sh "$(pwd)/tc5" "$(cd .. && pwd)" ../docs/python.md
fi
