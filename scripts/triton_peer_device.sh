#!/bin/sh
# The peer suite (scripts/triton_peer.py) on a machine with many cores but
# no network and another Triton (the lent GPU machine: Python 3.12, Triton
# 3.6): Triton 3.9 and the wheels travel with the working tree, under
# .peer_dev/ (ignored by git), in parts small enough for the transfer:
#   .peer_dev/p0 p1 ...  one xz'd tar of Triton 3.9's cp312 wheel, split: the
#                        triton/ package and its dist-info without the AMD
#                        backend (and its entry point), proton and CUPTI,
#                        libtriton.so stripped (strip --strip-unneeded)
#   .peer_dev/whl/       tc5's cp312 wheel and pytest's (pluggy, iniconfig,
#                        packaging, pygments)
#   .peer_dev/src/       the pinned test files at their repository paths
# usage: triton_peer_device.sh OUTDIR [triton_peer.py arguments...]
# Unpacks once per machine (/tmp/t39, /tmp/pylib), then runs triton_peer.py
# with the local engine (no Ray here: its wheel does not fit the transfer)
# and its work directory in /tmp/peer-work, so that a run stopped by
# --deadline goes on when the same command runs again on the same machine.
set -eu
out=$1
shift
if [ ! -f /tmp/t39/triton/__init__.py ]; then
  mkdir -p /tmp/t39
  cat .peer_dev/p[0-9]* | python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.stdin.buffer), sys.stdout.buffer)" | tar xf - -C /tmp/t39
fi
if [ ! -d /tmp/pylib/tc5 ]; then
  python3 -m pip install -q --no-deps --no-index --target /tmp/pylib .peer_dev/whl/*.whl
fi
export PYTHONPATH=/tmp/t39:/tmp/pylib TRITON_CACHE_DIR=/tmp/triton-cache
python3 -c "import triton, tc5; print('triton', triton.__version__, 'tc5 from', tc5.__file__)"
exec python3 scripts/triton_peer.py --engine local --src .peer_dev/src --python python3 --work /tmp/peer-work --out "$out/results.tsv" "$@"
