"""tc5.run_ptx: Triton's bf16 matmul (tests/data/ptx) on NumPy arrays equals
tc5.gemm bit for bit; the checker's findings come back as a list; kernel
errors raise."""
import pathlib

import ml_dtypes
import numpy as np
import pytest

import tc5

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_triton_matmul_equals_gemm():
    text = (ROOT / "tests/data/ptx/mm_bf16_f32_w4_s2.ptx").read_text()
    rng = np.random.default_rng(7)
    M = N = 128
    K = 192
    a = rng.standard_normal((M, K)).astype(ml_dtypes.bfloat16)
    b = rng.standard_normal((K, N)).astype(ml_dtypes.bfloat16)
    c = np.zeros((M, N), dtype=np.float32)
    findings, printed = tc5.run_ptx(text, (1, 1), 128, [a, b, c, M, N, K, None, None], shared_bytes=65552)
    assert findings == [] and printed == ""
    assert np.array_equal(c.view(np.uint32), tc5.gemm(a, b, kind="f16").view(np.uint32))


def test_findings_and_errors():
    text = (ROOT / "docs/examples/st_unwaited.ptx").read_text()
    out = np.zeros(32, dtype=np.uint32)
    findings, _ = tc5.run_ptx(text, 1, 32, [out, 0])
    assert [f["rule"] for f in findings] == ["tmem-st-unwaited", "dealloc-inflight"]
    assert findings[0]["line"] == 17 and not findings[0]["warning"] and "fix:" in findings[0]["text"]
    assert (out == 7).all()
    assert tc5.run_ptx(text, 1, 32, [out, 0], check="none")[0] == []
    assert tc5.run_ptx(text, 1, 32, [out, 1], check="strict")[0] == []
    with pytest.raises(tc5.BoundsError):  # a buffer too small for 32 threads' stores
        tc5.run_ptx(text, 1, 32, [np.zeros(4, dtype=np.uint32), 1])
    with pytest.raises(ValueError):
        tc5.run_ptx(text, 1, 32, [out])
    with pytest.raises(tc5.UnsupportedError) as e:  # what the parser does not know is named
        tc5.run_ptx("not ptx", 1, 32, [])
    assert "'not' at module level is not modelled" in e.value.messages[0]
