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


def test_matmul_sm90():
    """arch=90: Triton compiles for sm_90a (wgmma) and tc5 runs it on its Hopper
    model; bf16 products summed in f32 are the same bits as tc5.gemm's"""
    rng = np.random.default_rng(4)
    M, N, K = 128, 128, 128
    a = rng.standard_normal((M, K)).astype(ml_dtypes.bfloat16)
    b = rng.standard_normal((K, N)).astype(ml_dtypes.bfloat16)
    c = np.zeros((M, N), dtype=np.float32)
    ptx, _ = tc5.triton.compile(matmul, a, b, c, M, N, K, arch=90, BM=128, BN=128, BK=64)
    assert ".target sm_90a" in ptx and "wgmma.mma_async" in ptx and "tcgen05" not in ptx
    assert tc5.triton.run(matmul, (1, 1), a, b, c, M, N, K, arch=90, BM=128, BN=128, BK=64) == []
    assert np.array_equal(c.view(np.uint32), tc5.gemm(a, b, kind="f16").view(np.uint32))


@triton.jit
def axpy(x, y, w, z, BLOCK: tl.constexpr):
    i = tl.arange(0, BLOCK)
    tl.store(z + i, tl.load(x + i) * tl.load(y + i) + tl.load(w + i))


@pytest.mark.parametrize("arch", [100, 90])
def test_enable_fp_fusion(arch):
    """enable_fp_fusion=False keeps x*y + w two roundings (mul.rn, add.rn);
    True lets Triton contract it into one fma"""
    rng = np.random.default_rng(5)
    x, y, w = (rng.standard_normal(128).astype(np.float32) for _ in range(3))
    z = np.zeros(128, np.float32)
    off, _ = tc5.triton.compile(axpy, x, y, w, z, arch=arch, enable_fp_fusion=False, BLOCK=128)
    on, _ = tc5.triton.compile(axpy, x, y, w, z, arch=arch, enable_fp_fusion=True, BLOCK=128)
    assert f".target sm_{arch}a" in off
    assert "fma.rn.f32" not in off and "mul.rn.f32" in off and "add.rn.f32" in off
    assert "fma.rn.f32" in on
    tc5.triton.run(axpy, (1,), x, y, w, z, arch=arch, enable_fp_fusion=False, BLOCK=128)
    assert np.array_equal(z, x * y + w)  # NumPy rounds the product, then the sum
    tc5.triton.run(axpy, (1,), x, y, w, z, arch=arch, enable_fp_fusion=True, BLOCK=128)
    fused = (x.astype(np.float64) * y + w).astype(np.float32)  # one rounding (exact product in f64)
    assert np.array_equal(z, fused)


def test_bad_arch_and_fusion():
    x = np.zeros(128, np.float32)
    with pytest.raises(ValueError, match="arch is 80: tc5.triton compiles for 100"):
        tc5.triton.compile(axpy, x, x, x, x, arch=80, BLOCK=128)
    with pytest.raises(TypeError, match="enable_fp_fusion is 1"):
        tc5.triton.compile(axpy, x, x, x, x, enable_fp_fusion=1, BLOCK=128)


def test_target_arch_from_the_environment(monkeypatch):
    assert tc5.triton.target_arch() == 100 and tc5.triton.device() is tc5.triton.B200
    monkeypatch.setenv("TC5_TRITON_ARCH", "90")
    assert tc5.triton.target_arch() == 90 and tc5.triton.device()["multiprocessor_count"] == 132
    assert tc5.triton.driver().get_current_target().arch == 90
    monkeypatch.setenv("TC5_TRITON_ARCH", "sm_90")
    with pytest.raises(ValueError, match="TC5_TRITON_ARCH is 'sm_90'"):
        tc5.triton.target_arch()
