"""Regression guard of issue 50: a fixed subset of Liger-Kernel 0.8.5's own tests
(test/transformers, small shapes) on tc5 through the Triton door and the torch.cuda shim,
each of which must pass with at least one kernel launched (tc5.triton.launches(), counted
per test by tests/python/peer/liger_conftest.py: a pass with none would be a test that did
not run on tc5).

Needs PyTorch, Triton and transformers (>= 5), and the release's sdist, pinned:
    pip download --no-deps --no-binary :all: liger-kernel==0.8.5 -d /tmp/liger
    echo "4e8f8f611a8ad735c37c989410d09820bb08881f131851a3967c34baa7889d66  /tmp/liger/liger_kernel-0.8.5.tar.gz" | sha256sum -c
    tar xzf /tmp/liger/liger_kernel-0.8.5.tar.gz -C /tmp/liger
    TC5_LIGER_SRC=/tmp/liger/liger_kernel-0.8.5 TC5_CLI=$PWD/build/tc5 python -m pytest tests/python/test_liger_guard.py
Skipped without TC5_LIGER_SRC."""
import os
import shutil
import subprocess
import sys

import pytest

pytest.importorskip("torch")
pytest.importorskip("triton")
pytest.importorskip("transformers")

SRC = os.environ.get("TC5_LIGER_SRC")
HERE = os.path.dirname(os.path.abspath(__file__))
CASES = [
    "test/transformers/test_cross_entropy.py::test_correctness_functional[1.0-dtype0-1e-08-0.05-2-2-8]",
    "test/transformers/test_cross_entropy.py::test_correctness_functional[1.0-dtype0-1e-08-0.05-9-7-41]",
    "test/transformers/test_cross_entropy.py::test_correctness_functional[1.0-dtype1-1e-08-1e-06-2-2-8]",
    "test/transformers/test_cross_entropy.py::test_correctness_functional[1.0-dtype1-1e-08-1e-06-9-7-41]",
]


@pytest.mark.skipif(not SRC, reason="TC5_LIGER_SRC (Liger-Kernel 0.8.5's sdist, extracted) not given")
def test_liger_subset(tmp_path):
    work = tmp_path / "liger"
    work.mkdir()
    for d in ("src", "test", "pyproject.toml"):
        os.symlink(os.path.join(SRC, d), work / d)
    shutil.copy(os.path.join(HERE, "peer", "liger_conftest.py"), work / "conftest.py")
    log = tmp_path / "launches.tsv"
    env = dict(os.environ, TC5_LAUNCH_LOG=str(log))
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-o", "log_cli=false", *CASES],
                       cwd=work, env=env, capture_output=True, text=True, timeout=1800)
    rows = [line.split("\t") for line in log.read_text().splitlines()] if log.exists() else []
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert len(rows) == len(CASES)
    for nodeid, outcome, n in rows:
        assert outcome == "passed" and int(n) > 0, f"{nodeid}: {outcome} with {n} kernels launched"
