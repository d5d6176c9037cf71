#!/usr/bin/env bash
# A virtual environment for FlagGems' peer suite (issue 50: scripts/flaggems_peer.py, the guard
# tests/python/test_flaggems_guard.py): FlagGems 5.0.2 on its own Triton.
#   scripts/flaggems_env.sh VENV        makes VENV (or brings it up to date) and installs this checkout's tc5 into it
# What goes in, from PyPI: PyTorch 2.9.0 (FlagGems 5.0.2's pin for NVIDIA; it pins triton 3.5.0, which
# FlagGems' flagtree 0.5.0+3.5 stands for: PyPI has no flagtree), the release's wheel
# flag_gems-5.0.2-py3-none-any.whl checked against its SHA-256 before it is installed, FlagGems' own pins
# (numpy 1.26.4, packaging 26.0, PyYAML 6.0.3, SQLAlchemy 2.0.48), scipy (its test extra), pytest, and tc5
# from this checkout (the CMake build, in build/pywheel, as scripts/test_python.sh; minutes the first time). PyTorch's wheel and its CUDA 12
# libraries are several GB (CUDA is never called: tc5 is the device). Not in the default suite.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${1:?usage: scripts/flaggems_env.sh VENV}
wheel=flag_gems-5.0.2-py3-none-any.whl
sha=d7c5a6121bf2d3f7daddde43bfa7cae739de6cb5b294dcfe7ae6173045c35552
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
pip="$venv/bin/pip"
"$pip" install -q torch==2.9.0 numpy==1.26.4 packaging==26.0 PyYAML==6.0.3 SQLAlchemy==2.0.48 'scipy>=1.15.3' \
  pytest ml_dtypes scikit-build-core
dl=$(mktemp -d)
"$pip" download -q --no-deps -d "$dl" flag-gems==5.0.2
echo "$sha  $dl/$wheel" | sha256sum -c --quiet
"$pip" install -q --no-deps "$dl/$wheel"
rm -rf "$dl"
"$pip" install -q --no-deps --no-build-isolation --force-reinstall \
  --config-settings=build-dir="$(pwd)/build/pywheel" .
TC5_TRITON=1 TC5_TRITON_TORCH_CUDA=1 GEMS_VENDOR=nvidia "$venv/bin/python" -c "import torch, triton, flag_gems, tc5; print('torch', torch.__version__, 'triton', triton.__version__, 'flag_gems', flag_gems.__version__)"
