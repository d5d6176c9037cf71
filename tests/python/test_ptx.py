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
    # per-rule levels (issue 33): one rule a warning, another off
    findings, _ = tc5.run_ptx(text, 1, 32, [out, 0], rules={"tmem-st-unwaited": "warning", "dealloc-inflight": "off"})
    assert [(f["rule"], f["warning"]) for f in findings] == [("tmem-st-unwaited", True)]
    with pytest.raises(ValueError, match="no rule 'no-such-rule'.*proxy-fence"):
        tc5.run_ptx(text, 1, 32, [out, 0], rules={"no-such-rule": "off"})
    with pytest.raises(ValueError, match="got 'loud'"):
        tc5.run_ptx(text, 1, 32, [out, 0], rules={"smem-race": "loud"})
    with pytest.raises(tc5.BoundsError):  # a buffer too small for 32 threads' stores
        tc5.run_ptx(text, 1, 32, [np.zeros(4, dtype=np.uint32), 1])
    with pytest.raises(ValueError):
        tc5.run_ptx(text, 1, 32, [out])
    with pytest.raises(tc5.UnsupportedError) as e:  # what the parser does not know is named
        tc5.run_ptx("not ptx", 1, 32, [])
    assert "'not' at module level is not modelled" in e.value.messages[0]


def test_tensor_map_argument():
    """a TMA load (tests/data/ptx/tma90's tma_load_2d) through tc5.TensorMap over
    an array of its own: the box's rows arrive in the shared-memory window"""
    text = (ROOT / "tests/data/ptx/tma90/kernels.ptx").read_text()
    t = np.random.default_rng(3).integers(0, 256, 608 * 70, dtype=np.uint8)
    out = np.zeros(2560, dtype=np.uint8)
    tm = tc5.TensorMap("type=u8,dims=605x70,box=96x24,strides=608", t)
    findings, _ = tc5.run_ptx(text, 1, 128, [tm, out, 0, 2560, 2304, 16, 4, 0, 0, 0], entry="tma_load_2d",
                              shared_bytes=3584)
    assert findings == []
    want = np.concatenate([t[(4 + r) * 608 + 16:(4 + r) * 608 + 112] for r in range(24)])
    assert np.array_equal(out[:2304], want)
    with pytest.raises(tc5.Error):  # a box wider than 256 elements: the driver's rule, named
        tc5.run_ptx(text, 1, 128, [tc5.TensorMap("type=u8,dims=605x70,box=300x24,strides=608", t), out, 0, 2560,
                                   2304, 16, 4, 0, 0, 0], entry="tma_load_2d", shared_bytes=3584)


def test_struct_argument_and_buffers():
    """a struct by value (bytes) holding the address of a buffer that is no
    parameter (buffers=): the first buffer is at 0x200000000"""
    text = (".version 8.7\n.target sm_90a\n.address_size 64\n"
            ".visible .entry k(.param .align 8 .b8 s[16]) {\n .reg .b64 %rd<4>; .reg .b32 %r<4>;\n"
            " ld.param.u64 %rd1, [s]; ld.param.u32 %r1, [s+8]; st.global.u32 [%rd1+4], %r1;\n ret;\n}\n")
    out = np.zeros(4, dtype=np.uint32)
    s = np.array([0x200000000, 77], dtype=np.uint64).tobytes()
    tc5.run_ptx(text, 1, 1, [s], buffers=[out])
    assert out.tolist() == [0, 77, 0, 0]


PTRS = """.version 8.7
.target sm_100a
.address_size 64
.visible .entry k(.param .u64 ptrs) {
 .reg .b32 %r<4>; .reg .b64 %rd<6>;
 ld.param.u64 %rd1, [ptrs]; mov.u32 %r1, %ctaid.x; mov.u32 %r2, %tid.x;
 mul.wide.u32 %rd2, %r1, 8; add.s64 %rd3, %rd1, %rd2; ld.global.u64 %rd4, [%rd3];
 mul.wide.u32 %rd2, %r2, 4; add.s64 %rd5, %rd4, %rd2; st.global.u32 [%rd5], %r2;
 ret;
}
"""


def test_host_addresses():
    """host_addresses: a pointer array the host filled (the grouped-GEMM
    tutorial's) is valid in the kernel; a view is the same memory; a pointer
    to memory that was not passed is out of bounds, its address named"""
    base = np.zeros(96, dtype=np.uint32)
    x, y = base[:32], base[64:]  # views of one allocation
    ptrs = np.array([x.ctypes.data, y.ctypes.data], dtype=np.uint64)
    tc5.run_ptx(PTRS, 2, 32, [ptrs], buffers=[x, y], host_addresses=True)
    assert (x == np.arange(32)).all() and (y == np.arange(32)).all() and not base[32:64].any()
    other = np.zeros(32, dtype=np.uint32)
    ptrs[1] = other.ctypes.data
    with pytest.raises(tc5.Error, match=f"global address 0x{other.ctypes.data:x}"):
        tc5.run_ptx(PTRS, 2, 32, [ptrs], buffers=[x, y], host_addresses=True)


def test_memory_regions():
    """tc5.memory: a strided view's span, in place (writes show in the original)"""
    import tc5.memory as mem
    a = np.arange(64, dtype=np.float32).reshape(8, 8)
    v = a[2:6, ::2]
    lo, n = mem.span(v)
    assert lo == a.ctypes.data + 4 * 16 and n == 4 * (3 * 8 + 6 + 1)
    r = mem.region(v)
    r.view(np.float32)[0] = -1.0
    assert a[2, 0] == -1.0 and mem.address(v) == lo
    with pytest.raises(ValueError, match="read-only"):
        b = np.zeros(4)
        b.flags.writeable = False
        mem.region(b, "b")
    with pytest.raises(TypeError, match="x: a NumPy array or a CPU tensor, not list"):
        mem.span([1, 2], "x")
    torch = pytest.importorskip("torch")
    t = torch.zeros(4, 6, dtype=torch.bfloat16)[:, 1:5]
    assert mem.span(t) == (t.data_ptr(), 2 * (3 * 6 + 3 + 1))
    mem.region(t)[:2] = np.frombuffer(np.float32(2.0).tobytes()[2:], dtype=np.uint8)
    assert float(t[0, 0]) == 2.0


def test_schedules():
    """Adversarial schedules (issue 34): a correct kernel gives the same bytes
    under every seed; flashinfer PR #4409's race (scale factors read before
    their cp.async landed) differs under one, raising MismatchError."""
    text = (ROOT / "tests/check/field/fi4409_cp_async_sf.ptx").read_text()
    src = np.arange(64, dtype=np.uint32) * 0x01010101
    out = np.zeros(32, dtype=np.uint32)
    assert tc5.run_ptx(text, 1, 32, [src, out], entry="k_fixed", schedules=8) == ([], "")
    want = src[32:] ^ src[:32]
    assert np.array_equal(out, want)
    for seed in (1, 2, 3):
        out[:] = 0
        tc5.run_ptx(text, 1, 32, [src, out], entry="k_fixed", schedule=seed)
        assert np.array_equal(out, want)
    out[:] = 0
    with pytest.raises(tc5.MismatchError, match="argument 2: byte"):
        tc5.run_ptx(text, 1, 32, [src, out], entry="k_bug", schedules=16)
    assert np.array_equal(out, want)  # the default schedule's result stays in the array
    with pytest.raises(ValueError):
        tc5.run_ptx(text, 1, 32, [src, out], entry="k_bug", schedule=-1)


def test_signal_stops_a_long_launch():
    # a launch runs in C with the GIL released; Python's signal handlers run between its
    # clusters and about every 2^16 warp-instructions (tc5_ptx_launch_cfg.interrupt), so a
    # KeyboardInterrupt or a test's time limit (the peer harness's SIGPROF/SIGALRM) stops it
    import signal
    import time
    text = (".version 8.7\n.target sm_100a\n.address_size 64\n"
            ".visible .entry k(.param .u64 out) { $L: bra $L; }\n")

    class Stop(Exception):
        pass

    def stop(*_):
        raise Stop()
    old = signal.signal(signal.SIGALRM, stop)
    t0 = time.monotonic()
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        with pytest.raises(Stop):
            tc5.run_ptx(text, 64, 128, [np.zeros(4, dtype=np.uint32)])  # a hang: 2^34 steps a CTA
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert time.monotonic() - t0 < 30
    # the module still works after the stop
    out = np.zeros(32, dtype=np.uint32)
    tc5.run_ptx(text.replace("$L: bra $L;", "ret;"), 1, 32, [out])
