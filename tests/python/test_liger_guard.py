"""Regression guard of issue 50: a fixed subset of Liger-Kernel 0.8.5's own tests
(test/transformers, small shapes, one or two of each kernel family, autocast among them) run
on tc5 by the Liger peer suite (scripts/liger_peer.py on the peer harness: the Triton door and
the torch.cuda shim), each of which must pass with at least one kernel launched through tc5
(the harness counts them per case; a pass with none would be a test that did not run on tc5).

Needs PyTorch, Triton and transformers: skipped without them (TC5_PY_TORCH=1 scripts/test.sh
installs PyTorch and transformers). Liger's tests come from its sdist, pinned by SHA-256:
TC5_LIGER_SDIST names liger_kernel-0.8.5.tar.gz, else liger_peer.py's cache (~/.cache/tc5),
else it is downloaded from PyPI (skipped, naming the reason, if that fails). The command:

    TC5_PY_TORCH=1 scripts/test_python.sh          (the whole package's tests)
    TC5_CLI=$PWD/build/tc5 python -m pytest tests/python/test_liger_guard.py   (this guard alone)
"""
import os
import pathlib
import subprocess
import sys

import pytest

try:
    import torch  # noqa: F401
except ImportError:
    pytest.skip("could not import 'torch' (TC5_PY_TORCH=1 scripts/test.sh installs it)", allow_module_level=True)
pytest.importorskip("triton")
pytest.importorskip("transformers", reason="could not import 'transformers' (TC5_PY_TORCH=1 scripts/test.sh "
                    "installs it)")

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "liger_peer.py"
T = "test/transformers/"
CASES = [
    T + "test_cross_entropy.py::test_correctness_functional[1.0-dtype0-1e-08-0.05-9-7-41]",
    T + "test_cross_entropy.py::test_correctness_functional[1.0-dtype1-1e-08-1e-06-9-7-41]",
    T + "test_rms_norm.py::test_correctness_functional[True-LlamaRMSNorm-0.0-llama-dtype0-0.0001-1e-06-2-2-8]",
    T + "test_swiglu.py::test_correctness_functional[dtype0-1.0-1e-05-2-8-8]",
    T + "test_attn_res.py::test_correctness_functional[dtype0-0.0001-1e-05-4-2-64-512]",
    # autocast("cuda") on the shim's tensors (tc5.device): the linear layer in bfloat16 and float16
    T + "test_fused_linear_cross_entropy.py::test_amp[None-True-cast_dtype0-0.005-0.05-4-47-31-123]",
    T + "test_fused_linear_cross_entropy.py::test_amp[None-True-cast_dtype1-0.005-0.05-4-47-31-123]",
    # JSD: Liger's CuTe DSL kernel where nvidia-cutlass-dsl imports (TC5_CUTE=1: the TVM-FFI calling path)
    T + "test_jsd.py::test_correctness_functional[0.5-2-False-dtype0-1e-07-0.05-2-1024-3200]",
    # torch.cuda.CUDAGraph capture and replay of a Triton kernel
    T + "test_swiglu.py::test_triton_silumul_cuda_graph[shape0-dtype0]",
]


def _sdist():
    """the pinned sdist's path (TC5_LIGER_SDIST, or liger_peer's cache, downloading it)"""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import liger_peer
    finally:
        sys.path.pop(0)
    path = os.environ.get("TC5_LIGER_SDIST") or os.path.join(os.path.expanduser("~"), ".cache", "tc5",
                                                             liger_peer.SDIST)
    if not os.path.exists(path):
        try:
            liger_peer.sdist_bytes(None)
        except (OSError, ValueError) as e:
            pytest.skip(f"Liger-Kernel's sdist: not in TC5_LIGER_SDIST or the cache, and the download failed ({e})")
    return path


def test_liger_subset(tmp_path):
    ids = tmp_path / "ids.txt"
    ids.write_text("\n".join(CASES) + "\n")
    out = tmp_path / "results.tsv"
    r = subprocess.run([sys.executable, str(SCRIPT), "--sdist", _sdist(), "--ids", str(ids), "--engine", "local",
                        "--jobs", "1", "--chunk", str(len(CASES)), "--work", str(tmp_path / "work"), "--out", str(out)],
                       capture_output=True, text=True, timeout=3000)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    rows = {f[0]: f for f in (line.rstrip("\n").split("\t") for line in out.read_text().splitlines()
                              if not line.startswith("#"))}
    assert sorted(rows) == sorted(CASES), r.stdout[-3000:]
    bad = [f"{n}: {f[1]} ({f[2]}: {f[3]}), {f[4] or 'no'} launches" for n, f in rows.items()
           if f[1] != "passed" or not f[4] or int(f[4]) < 1]
    assert not bad, "\n".join(bad)
