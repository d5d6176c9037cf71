"""tc5.gemm against the CLI's `tc5 gemm`, bit for bit (TC5_CLI names the
built tc5; the tests skip without it), every kind; the Error classes."""
import os
import subprocess
import tempfile

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import tc5

CLI = os.environ.get("TC5_CLI")
WIDTH = {"f32": 4, "tf32": 4, "s32": 4, "f16": 2, "bf16": 2}


def cli_gemm(kind, at, bt, A, B, dt=None, model="blackwell"):
    """`tc5 gemm` on codes A (M x K) and B (K x N): D's codes."""
    M, K = A.shape
    N = B.shape[1]
    with tempfile.TemporaryDirectory() as d:
        def put(name, x, t):
            w = WIDTH.get(t, 1)
            np.ascontiguousarray(x).astype(f"<u{w}").tofile(os.path.join(d, name))
        put("a.bin", A, at)
        put("b.bin", B, bt)
        cmd = [CLI, "gemm", "--kind", kind, "--atype", at, "--btype", bt, "--m", str(M), "--n", str(N),
               "--k", str(K), "--a", os.path.join(d, "a.bin"), "--b", os.path.join(d, "b.bin"),
               "--b-major", "MN", "--model", model, "--out", os.path.join(d, "d.bin")]
        if dt:
            cmd += ["--dtype", dt]
        subprocess.run(cmd, check=True, capture_output=True)
        w = WIDTH.get(dt or ("s32" if kind == "i8" else "f32"), 4)
        return np.fromfile(os.path.join(d, "d.bin"), dtype=f"<u{w}").reshape(M, N)


def random_codes(rng, t, shape):
    bits = tc5._tc5.type_bits(t)
    x = rng.integers(0, 1 << bits, size=shape, dtype=np.uint64).astype(np.uint32)
    if t in ("f16", "bf16"):  # finite values of a moderate range, both signs
        e = rng.integers(112, 143, size=shape).astype(np.uint32)
        x = (x & 0x83FF) | (e - 112 + 8) << 10 if t == "f16" else (x & 0x807F) | e << 7
    return x


def d_codes(D):
    return D.view(np.uint16) if D.dtype == np.float16 else D.view(np.uint32)


CASES = [  # kind, A type, B type, D type
    ("f16", "bf16", "bf16", None), ("f16", "f16", "f16", None), ("f16", "f16", "f16", "f16"),
    ("tf32", "tf32", "tf32", None), ("f8f6f4", "e4m3", "e4m3", None), ("f8f6f4", "e5m2", "e4m3", "f16"),
    ("f8f6f4", "e2m3", "e3m2", None), ("f8f6f4", "e2m1", "e4m3", None), ("i8", "s8", "u8", None),
]


@pytest.mark.skipif(not CLI, reason="TC5_CLI not set")
@pytest.mark.parametrize("kind,at,bt,dt", CASES)
@pytest.mark.parametrize("model", ["blackwell", "hopper"])
def test_gemm_equals_cli(kind, at, bt, dt, model):
    if model == "hopper" and (at in ("e2m3", "e3m2", "e2m1") or dt == "f16" and kind != "f16"):
        pytest.skip("not a Hopper wgmma kind")
    rng = np.random.default_rng(hash((kind, at, bt, dt, model)) % 2**32)
    A = random_codes(rng, at, (37, 64))
    B = random_codes(rng, bt, (64, 29))
    D = tc5.gemm(A, B, kind=kind, a_type=at, b_type=bt, d_type=dt, model=model)
    assert np.array_equal(d_codes(D), cli_gemm(kind, at, bt, A, B, dt, model))


@pytest.mark.skipif(not CLI, reason="TC5_CLI not set")
@settings(max_examples=20, deadline=None)
@given(m=st.integers(1, 40), n=st.integers(1, 40), kb=st.integers(1, 6), seed=st.integers(0, 2**32 - 1))
def test_gemm_bf16_property(m, n, kb, seed):
    """any shape, any strides: tc5.gemm on ml_dtypes arrays equals the CLI"""
    rng = np.random.default_rng(seed)
    A = random_codes(rng, "bf16", (m, 16 * kb))
    B = random_codes(rng, "bf16", (16 * kb, n))
    a = A.astype(np.uint16).view(ml_dtypes.bfloat16)
    b = np.asfortranarray(B.astype(np.uint16).view(ml_dtypes.bfloat16))  # strides of its own
    D = tc5.gemm(a, b, kind="f16")
    assert np.array_equal(d_codes(D), cli_gemm("f16", "bf16", "bf16", A, B))


def test_types_and_values():
    a = np.ones((2, 16), dtype=ml_dtypes.float8_e4m3fn)
    b = np.full((16, 2), 0.5, dtype=ml_dtypes.float8_e4m3fn)
    assert tc5.type_of(a) == "e4m3"
    assert np.array_equal(tc5.gemm(a, b, kind="f8f6f4"), np.full((2, 2), 8.0, dtype=np.float32))
    c = np.full((2, 2), 1.0, dtype=np.float32)
    assert np.array_equal(tc5.gemm(a, b, c, kind="f8f6f4"), np.full((2, 2), 9.0, dtype=np.float32))
    i = tc5.gemm(np.full((1, 32), -3, dtype=np.int8), np.full((32, 1), 2, dtype=np.int8), kind="i8")
    assert i.dtype == np.int32 and i[0, 0] == -192


def test_errors():
    a = np.ones((2, 16), dtype=ml_dtypes.bfloat16)
    with pytest.raises(tc5.IllegalError) as e:
        tc5.gemm(a, a.T.copy(), kind="tf32")
    assert e.value.status == "TC5_EILLEGAL" and "tf32" in e.value.messages[0]
    assert issubclass(tc5.IllegalError, tc5.Error)
    with pytest.raises(ValueError):
        tc5.gemm(a, a, kind="f16")  # K mismatch
    with pytest.raises(ValueError):
        tc5.gemm(np.ones((2, 16), dtype=np.float64), a.T, kind="f16")


@settings(max_examples=40, deadline=None)
@given(k=st.sampled_from([16, 32, 48, 64]), seed=st.integers(0, 2**32 - 1),
       case=st.sampled_from([("f16", ml_dtypes.bfloat16), ("f8f6f4", ml_dtypes.float8_e4m3fn)]))
def test_dot_equals_gemm(k, seed, case):
    """tc5.dot: the element tc5.gemm computes, and its steps explained"""
    kind, dtype = case
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(k).astype(dtype)
    b = rng.standard_normal(k).astype(dtype)
    c = np.float32(rng.standard_normal())
    d, text = tc5.dot(a, b, c, kind=kind)
    g = tc5.gemm(a.reshape(1, k), b.reshape(k, 1), np.full((1, 1), c, dtype=np.float32), kind=kind)
    assert np.float32(d).view(np.uint32) == g.view(np.uint32)[0, 0]
    steps = k // (16 if kind == "f16" else 32) + (k % (16 if kind == "f16" else 32) != 0)
    assert text.count("step ") == steps and "alignment: the largest nominal exponent" in text


def test_gemm_device_cuda():
    """device="cuda": the GPU GEMM's bits equal the CPU's (skipped where tc5
    has no CUDA or the machine no usable GPU)"""
    import ml_dtypes

    rng = np.random.default_rng(21)
    a = rng.standard_normal((64, 96)).astype(ml_dtypes.bfloat16)
    b = rng.standard_normal((96, 80)).astype(ml_dtypes.bfloat16)
    cpu = tc5.gemm(a, b, kind="f16")
    try:
        gpu = tc5.gemm(a, b, kind="f16", device="cuda")
    except tc5.Error as e:
        pytest.skip(f"no GPU GEMM here: {e}")
    assert np.array_equal(cpu.view(np.uint32), gpu.view(np.uint32))
    with pytest.raises(ValueError):
        tc5.gemm(a, b, kind="f16", device="tpu")


def test_gemm_dlpack_gpu_tensors():
    """GPU tensors (PyTorch, through DLPack) read in place: bf16, a transposed
    (strided) B, e4m3 as uint8 codes with f16 out and C, mxf4nvf4 with ue4m3
    scales; each equal to the CPU's tc5.gemm on the same codes (skipped
    without PyTorch, a GPU, or a tc5 built with CUDA)"""
    torch = pytest.importorskip("torch")
    import ml_dtypes

    if not torch.cuda.is_available():
        pytest.skip("no CUDA device for PyTorch")
    rng = np.random.default_rng(7)

    def gpu(x):
        return torch.from_numpy(np.ascontiguousarray(x)).cuda()

    a = rng.standard_normal((130, 192)).astype(ml_dtypes.bfloat16)
    b = rng.standard_normal((300, 192)).astype(ml_dtypes.bfloat16).T  # K x N, strided
    cpu = tc5.gemm(a, b, kind="f16")
    ta = gpu(a.view(np.int16)).view(torch.bfloat16)
    tb = gpu(b.T.view(np.int16)).view(torch.bfloat16).t()
    assert not tb.is_contiguous()
    try:
        d = tc5.gemm(ta, tb, kind="f16")
    except tc5.Error as e:
        pytest.skip(f"no GPU GEMM here: {e}")
    assert d.dtype == torch.float32 and d.is_cuda
    assert np.array_equal(d.cpu().numpy().view(np.uint32), cpu.view(np.uint32))

    a8 = rng.integers(0, 256, (70, 256), dtype=np.uint8)
    b8 = rng.integers(0, 256, (256, 90), dtype=np.uint8)
    c16 = rng.standard_normal((70, 90)).astype(np.float16)
    cpu = tc5.gemm(a8, b8, c16, kind="f8f6f4", a_type="e4m3", b_type="e4m3", d_type="f16")
    d = tc5.gemm(gpu(a8), gpu(b8), gpu(c16), kind="f8f6f4", a_type="e4m3", b_type="e4m3", d_type="f16")
    assert d.dtype == torch.float16
    assert np.array_equal(d.cpu().numpy().view(np.uint16), cpu.view(np.uint16))

    a4 = rng.integers(0, 16, (64, 128), dtype=np.uint8)
    b4 = rng.integers(0, 16, (128, 64), dtype=np.uint8)
    sa = rng.integers(0x30, 0x40, (64, 8), dtype=np.uint8)
    sb = rng.integers(0x30, 0x40, (8, 64), dtype=np.uint8)
    kw = dict(kind="mxf4nvf4", a_type="e2m1", b_type="e2m1", scale_type="ue4m3", block=16)
    cpu = tc5.gemm(a4, b4, scale_a=sa, scale_b=sb, **kw)
    out = torch.empty((64, 64), dtype=torch.float32, device="cuda")
    d = tc5.gemm(gpu(a4), gpu(b4), scale_a=gpu(sa), scale_b=gpu(sb), out=out, **kw)
    assert d is out
    assert np.array_equal(out.cpu().numpy().view(np.uint32), cpu.view(np.uint32))
    with pytest.raises(ValueError):
        tc5.gemm(ta, b, kind="f16")  # one operand on the GPU, one not
