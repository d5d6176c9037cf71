#!/usr/bin/env bash
# The Python package's tests: installs this checkout's wheel (scikit-build-core:
# the same CMake build, kept in build/pywheel between runs) into the tests'
# virtual environment (scripts/pyenv.sh: the pins of scripts/requirements-test.txt,
# Triton 3.9 and CuTe DSL 4.8.1 included), and runs tests/python against the
# built CLI (tc5.gemm == tc5 gemm) and docs/python.md's python run blocks
# through the doc test. Every module runs but the ones that need PyTorch.
# Usage: scripts/test_python.sh   (after scripts/build.sh; scripts/test.sh runs it)
#        TC5_PY_TORCH=1 scripts/test_python.sh   also installs PyTorch (torch==2.15.0 from
#        PyPI, several GB, into build/pyvenv-torch-<hash>) and runs the tests that need it
#        (the shim's start-up, the Gluon attention module, test_ptx/test_gemm's torch cases)
#        TC5_PY_TRITON=1 ...   also runs the Triton peer suite's guard (needs TC5_PY_TORCH=1)
#        TC5_TEST_VENV=PATH ...   runs in that environment instead (tc5 is installed into it)
# Writes build/pytest.xml (JUnit) for scripts/test_summary.py.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${TC5_TEST_VENV:-$(scripts/pyenv.sh)}"
py="$venv/bin/python"
# --no-build-isolation: scikit-build-core is one of the pins; build-dir: a second run rebuilds only what changed
"$py" -m pip install -q --no-deps --no-build-isolation --force-reinstall \
  --config-settings=build-dir="$(pwd)/build/pywheel" .
cd build   # not the checkout: the tests import the installed package
TC5_CLI="$(pwd)/tc5" "$py" -m pytest -q -rs --junitxml="$(pwd)/pytest.xml" ../tests/python
TC5_DOC_PYTHON="$py" sh ../tests/docs/doctest.sh "$(pwd)/tc5" "$(cd .. && pwd)" ../docs/python.md
