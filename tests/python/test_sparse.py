"""tc5.gemm(meta=...) — a sparse A (tc5_gemm_sparse) — against the CLI's
`tc5 gemm --meta`, bit for bit, for each metadata form (tf32 1:2, 2:4, fp4
4:8 pairs) with the scale factors one a `block` kept elements; the elided
pairs absent (issue 38, class [1]); saturate= against --saturate."""
import os
import subprocess
import tempfile

import numpy as np
import pytest

import tc5

CLI = os.environ.get("TC5_CLI")
WIDTH = {"f32": 4, "tf32": 4, "s32": 4, "f16": 2, "bf16": 2}
NIBBLES = [0x4, 0x8, 0xC, 0x9, 0xD, 0x6, 0xE]


def cli_gemm(args, files, out_width):
    with tempfile.TemporaryDirectory() as d:
        cmd = [CLI, "gemm", *args, "--out", os.path.join(d, "d.bin")]
        for opt, (x, w) in files.items():
            p = os.path.join(d, opt + ".bin")
            np.ascontiguousarray(x).astype(f"<u{w}").tofile(p)
            cmd += ["--" + opt, p]
        subprocess.run(cmd, check=True, capture_output=True)
        return np.fromfile(os.path.join(d, "d.bin"), dtype=f"<u{out_width}")


CASES = [  # kind, A type, B type, scale type, block, K (logical)
    ("tf32", "tf32", "tf32", None, None, 32),
    ("f16", "bf16", "bf16", None, None, 64),
    ("f8f6f4", "e4m3", "e5m2", None, None, 128),
    ("mxf8f6f4", "e4m3", "e2m1", "ue8m0", 32, 128),
    ("mxf4nvf4", "e2m1", "e2m1", "ue4m3", 16, 256),
    ("mxf4", "e2m1", "e2m1", "ue8m0", 32, 256),
]


@pytest.mark.skipif(not CLI, reason="TC5_CLI not set")
@pytest.mark.parametrize("kind,at,bt,stype,block,K", CASES)
def test_sparse_equals_cli(kind, at, bt, stype, block, K):
    rng = np.random.default_rng(abs(hash((kind, at, bt, K))) % 2**32)
    M, N = 11, 9
    g = 2 if kind == "tf32" else 8 if kind.startswith("mxf4") else 4

    def codes(t, shape):
        bits = tc5._tc5.type_bits(t)
        x = rng.integers(0, 1 << bits, size=shape, dtype=np.uint64).astype(np.uint32)
        return x & 0xFFFFE000 if t == "tf32" else x

    A = codes(at, (M, K // 2))
    B = codes(bt, (K, N))
    meta = (rng.choice([0x4, 0xE], size=(M, K // g)) if g == 2 else rng.choice(NIBBLES, size=(M, K // g)))
    kw, files = {}, {"a": (A, WIDTH.get(at, 1)), "b": (B.T, WIDTH.get(bt, 1)), "meta": (meta, 1)}
    args = ["--kind", kind, "--atype", at, "--btype", bt, "--m", str(M), "--n", str(N), "--k", str(K)]
    if block:
        lo, hi = (120, 134) if stype == "ue8m0" else (0x30, 0x40)
        SA = rng.integers(lo, hi, size=(M, K // (2 * block))).astype(np.uint32)
        SB = rng.integers(lo, hi, size=(K // (2 * block), N)).astype(np.uint32)
        kw = dict(scale_a=SA, scale_b=SB, scale_type=stype, block=block)
        files.update(sa=(SA, 1), sb=(SB.T, 1))
        args += ["--stype", stype, "--block", str(block)]
    D = tc5.gemm(A, B, kind=kind, a_type=at, b_type=bt, meta=meta, **kw)
    want = cli_gemm(args, files, 4).reshape(M, N)
    assert np.array_equal(D.view(np.uint32), want)


def test_sparse_elided_nan_absent():
    """class [1]'s minimal case: tf32 1:2, a NaN / +-Inf of B where elided"""
    a = np.full((1, 8), 0x3F800000, dtype=np.uint32)
    meta = np.full((1, 8), 0x4, dtype=np.uint8)
    for special in (0x7FC00000, 0x7F800000, 0xFF800000):
        b = np.zeros((16, 1), dtype=np.uint32)
        b[0::2] = 0x3F800000
        b[1] = special
        d = tc5.gemm(a, b, kind="tf32", a_type="tf32", b_type="tf32", meta=meta)
        assert d.view(np.uint32)[0, 0] == 0x41000000  # 8.0: the pair is absent
    meta[0, 0] = 0xE  # kept: a NaN of B times 1.0
    b[1] = 0x7FC00000
    d = tc5.gemm(a, b, kind="tf32", a_type="tf32", b_type="tf32", meta=meta)
    assert d.view(np.uint32)[0, 0] == 0x7FFFFFFF


def test_sparse_errors():
    a = np.zeros((2, 8), dtype=np.uint32)
    b = np.zeros((16, 3), dtype=np.uint32)
    with pytest.raises(ValueError, match="M x K/4"):
        tc5.gemm(a, b, kind="f16", a_type="bf16", b_type="bf16", meta=np.zeros((2, 3), dtype=np.uint8))
    with pytest.raises(tc5.IllegalError, match="row 1, elements 4-7, is 0x3"):
        tc5.gemm(a, b, kind="f16", a_type="bf16", b_type="bf16", meta=np.array([[4, 4, 4, 4], [4, 3, 4, 4]]))
    with pytest.raises(ValueError, match="CPU"):
        tc5.gemm(a, b, kind="f16", a_type="bf16", b_type="bf16", meta=np.full((2, 4), 4), device="cuda")


@pytest.mark.skipif(not CLI, reason="TC5_CLI not set")
def test_saturate_equals_cli():
    A = np.full((1, 32), 0x7F, dtype=np.uint32)
    C = np.array([[0x7FFF0000]], dtype=np.uint32).view(np.int32)
    for sat, want in ((False, 0x8006E020), (True, 0x7FFFFFFF)):
        D = tc5.gemm(A, A.T.copy(), C, kind="i8", a_type="s8", b_type="s8", saturate=sat)
        assert D.view(np.uint32)[0, 0] == want
        args = ["--kind", "i8", "--atype", "s8", "--btype", "s8", "--m", "1", "--n", "1", "--k", "32"]
        got = cli_gemm(args + (["--saturate"] if sat else []), {"a": (A, 1), "b": (A, 1), "c": (C.view(np.uint32), 4)}, 4)
        assert got[0] == want
