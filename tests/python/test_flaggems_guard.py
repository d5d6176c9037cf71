"""Regression guard of issue 50: a fixed subset of FlagGems 5.0.2's own tests (GUARD below: one case
of each operator family the peer suite reaches, and the cases a tc5 fix made pass), run on tc5 by
scripts/flaggems_peer.py through the peer harness (its local engine) on FlagGems' own Triton, 3.5.
Every case listed must pass with at least one kernel launched through tc5 (the harness counts them:
a pass with none is "not run", a case that did not reach FlagGems' kernels).

Needs PyTorch (TC5_PY_TORCH=1) and an environment with FlagGems 5.0.2, Triton 3.5, PyTorch 2.9 and
this checkout's tc5, named by TC5_FLAGGEMS_VENV (scripts/flaggems_env.sh VENV makes it; run it again
after changing tc5). FlagGems' tests come from TC5_FLAGGEMS_SRC (a checkout or a git directory of
flagos-ai/FlagGems holding tag v5.0.2; downloaded from GitHub when not given), checked against the pin:

    scripts/flaggems_env.sh /work/venv-l50f
    TC5_PY_TORCH=1 TC5_FLAGGEMS_VENV=/work/venv-l50f TC5_FLAGGEMS_SRC=<FlagGems git dir> \\
        python -m pytest tests/python/test_flaggems_guard.py

Skipped without TC5_PY_TORCH=1 and TC5_FLAGGEMS_VENV."""
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "flaggems_peer.py"
VENV = os.environ.get("TC5_FLAGGEMS_VENV", "")

if os.environ.get("TC5_PY_TORCH") != "1" or not VENV:
    pytest.skip("FlagGems' guard runs with TC5_PY_TORCH=1 and TC5_FLAGGEMS_VENV (scripts/flaggems_env.sh VENV)",
                allow_module_level=True)

# each passed with launches >= 1 in the documented selection's run (docs/fidelity.md), small shapes
GUARD = [
    "tests/test_zeros.py::test_zeros[dtype0-shape0]",  # torch.zeros(device="cuda") reaches FlagGems' zeros kernel
    "tests/test_abs.py::test_abs_[dtype0-shape0]",  # pointwise code generation: StridedBuffer pointer arguments
    "tests/test_add.py::test_add_tensor_scalar[dtype2-100.001-100.001-shape4]",  # a wrapped number: the library's
    # kernel called as the dispatcher calls it (redispatch refused the Python number)
    "tests/test_i0.py::test_i0[dtype0-shape0]",  # x.is_cuda inside the library's kernel (the shim's mode on there)
    "tests/test_aminmax.py::test_aminmax[dtype0-True-0-shape0]",  # reduction
    "tests/test_gather.py::test_gather[dtype0-0-inp_shape0]",  # indexing
    "tests/test_group_norm.py::test_group_norm[dtype0-False-16-3-16-16-1]",  # normalisation, forward and backward
    "tests/test_arange_start.py::test_arange[None-cuda-dtype0-128-5-0]",  # a factory with device="cuda"
]


# run alone, in this order: FlagGems' first CUDA registration is made inside the first, an @torch.inference_mode()
# test; the device's dispatch mode, entered there, must still be called after that guard ends (w51: every later case
# of the process launched none)
GUARD_INFERENCE_FIRST = [
    "tests/test_quant.py::test_concat_and_cache_mla[auto-cuda:0-0-dtype0-8-16-42-64-512]",
    "tests/test_reciprocal.py::test_reciprocal[dtype0-shape0]",
]


def test_flaggems_guard(tmp_path):
    run_guard(tmp_path, GUARD)


def test_flaggems_guard_inference_mode_first(tmp_path):
    run_guard(tmp_path, GUARD_INFERENCE_FIRST)


def run_guard(tmp_path, GUARD):
    py = os.path.join(VENV, "bin", "python")
    assert os.path.exists(py), f"TC5_FLAGGEMS_VENV={VENV}: no bin/python there (scripts/flaggems_env.sh VENV)"
    ids = tmp_path / "ids.txt"
    ids.write_text("\n".join(GUARD) + "\n")
    src = os.environ.get("TC5_FLAGGEMS_SRC", "")
    where = []
    if src:
        where = ["--git", src] if os.path.exists(os.path.join(src, "objects")) else ["--src", src]
    out = tmp_path / "results.tsv"
    r = subprocess.run([sys.executable, str(SCRIPT), *where, "--ids", str(ids), "--python", py, "--engine", "local",
                        "--jobs", "1", "--work", str(tmp_path / "work"), "--out", str(out), "--no-progress"],
                       capture_output=True, text=True, timeout=3600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    rows = [line.split("\t") for line in out.read_text().splitlines() if not line.startswith("#")]
    assert [row[0] for row in rows] == GUARD
    bad = [f"{row[0]}: {row[1]} ({row[2]}: {row[3]}), launches {row[4]}" for row in rows
           if row[1] != "passed" or not row[4] or int(row[4]) < 1]
    assert not bad, "\n".join(bad)
