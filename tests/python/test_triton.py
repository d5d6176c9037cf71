"""tc5.triton.run: a @triton.jit matmul compiled for sm_100 and run on NumPy
arrays equals tc5.gemm bit for bit (skipped without triton)."""
import ml_dtypes
import numpy as np
import pytest

triton = pytest.importorskip("triton")
import triton.language as tl  # noqa: E402

import tc5  # noqa: E402
import tc5.triton  # noqa: E402


@triton.jit
def matmul(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a + rm[:, None] * K + (k + rk)[None, :])
        y = tl.load(b + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(x, y, acc)
    tl.store(c + rm[:, None] * N + rn[None, :], acc)


@pytest.mark.parametrize("dtype,kind", [(ml_dtypes.bfloat16, "f16"), (ml_dtypes.float8_e4m3fn, "f8f6f4")])
def test_matmul(dtype, kind):
    rng = np.random.default_rng(3)
    M, N, K = 128, 128, 256
    a = rng.standard_normal((M, K)).astype(dtype)
    b = rng.standard_normal((K, N)).astype(dtype)
    c = np.zeros((M, N), dtype=np.float32)
    findings = tc5.triton.run(matmul, (1, 1), a, b, c, M, N, K, BM=128, BN=128, BK=64 if kind == "f16" else 128)
    assert findings == []
    assert np.array_equal(c.view(np.uint32), tc5.gemm(a, b, kind=kind).view(np.uint32))
