#!/usr/bin/env bash
# The tests' Python: makes (once) a virtual environment under build/ with the
# pins of scripts/requirements-test.txt from PyPI, keyed by a hash of that
# file (build/pyvenv-<hash>: a changed pin makes a new one), and prints its
# path. Reused across runs; `rm -rf build/pyvenv-*` starts afresh.
# Usage: venv=$(scripts/pyenv.sh)
#        TC5_PY_TORCH=1: with PyTorch too (build/pyvenv-torch-<hash>)
set -euo pipefail
cd "$(dirname "$0")/.."
req=scripts/requirements-test.txt
torch=torch==2.15.0   # TC5_PY_TORCH=1: several GB from PyPI, an environment of its own
# with PyTorch, transformers (Liger-Kernel's tests import it: tests/python/test_liger_guard.py; about 12 MB)
torch_extra=transformers==5.24.0
key=$(sha256sum "$req" | cut -c1-12)
venv="$(pwd)/build/pyvenv-$key"
if [ "${TC5_PY_TORCH:-0}" = 1 ]; then key=$( (cat "$req"; echo "$torch"; echo "$torch_extra") | sha256sum | cut -c1-12); venv="$(pwd)/build/pyvenv-torch-$key"; fi
if [ ! -f "$venv/.tc5-complete" ]; then
  rm -rf "$venv"
  mkdir -p build
  echo "tc5: making $venv (the pins of $req, from PyPI)" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --upgrade pip >&2
  "$venv/bin/pip" install -q -r "$req" >&2
  if [ "${TC5_PY_TORCH:-0}" = 1 ]; then "$venv/bin/pip" install -q "$torch" "$torch_extra" >&2; fi
  touch "$venv/.tc5-complete"
fi
echo "$venv"
