"""The torch.cuda shim's start-up (issue 49): with TC5_TRITON=1
TC5_TRITON_TORCH_CUDA=1, a script whose first line asks
torch.cuda.is_available() gets True (site-packages/tc5_torch_cuda.pth
installs the shim when torch is imported, before any Triton driver exists),
and every query of tc5/torch_cuda.py's table answers as documented. Needs
PyTorch: skipped without it (TC5_PY_TORCH=1 scripts/test.sh installs it)."""
import os
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("triton")
try:
    import torch  # noqa: F401
except ImportError:
    pytest.skip("could not import 'torch' (TC5_PY_TORCH=1 scripts/test.sh installs it)", allow_module_level=True)


def _run(code, tmp_path, **env):
    e = dict(os.environ)
    e.update(env)
    script = tmp_path / "script.py"  # a file: Triton's @jit reads its source
    script.write_text(textwrap.dedent(code))
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=e, timeout=600)


SCRIPT = """\
    import torch; assert torch.cuda.is_available(), "no CUDA"
    import triton, triton.language as tl
    assert torch.cuda.device_count() == 1 and torch.cuda.current_device() == 0
    assert torch.cuda.get_device_capability() == (10, 0), torch.cuda.get_device_capability()
    p = torch.cuda.get_device_properties(0)
    assert p.multi_processor_count == 148 and p.total_memory == 192 * 2**30 and "B200" in p.name
    free, total = torch.cuda.mem_get_info()
    avail = [int(l.split()[1]) * 1024 for l in open("/proc/meminfo") if l.startswith("MemAvailable:")][0]
    assert total == 192 * 2**30 and 0 < free <= total and abs(free - min(total, avail)) < 2**30, (free, avail)
    assert torch.cuda.is_bf16_supported() and torch.cuda.memory_allocated() == 0
    torch.cuda.synchronize(); torch.cuda.manual_seed(0); torch.cuda.empty_cache()
    with torch.cuda.device(0), torch.cuda.stream(torch.cuda.Stream()):
        torch.cuda.current_stream().synchronize()
    side = torch.cuda.Stream(); side.wait_stream(torch.cuda.current_stream())  # Liger's warm-up on a side stream
    torch.cuda.current_stream().wait_stream(side); assert side.query() and side.record_event() is not None
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record(); e.record(); assert e.elapsed_time(e) == 0.0

    @triton.jit
    def add(x, y, n, B: tl.constexpr):
        o = tl.program_id(0) * B + tl.arange(0, B)
        tl.store(y + o, tl.load(x + o, mask=o < n) + 1, mask=o < n)

    x = torch.arange(1000, dtype=torch.float32, device="cuda")
    y = torch.empty_like(x)
    add[(triton.cdiv(1000, 256),)](x, y, 1000, B=256)
    torch.cuda.synchronize()
    assert torch.equal(y, x + 1)
    print("ok")
"""


def test_first_line_checks_cuda(tmp_path):
    r = _run(SCRIPT, tmp_path, TC5_TRITON="1", TC5_TRITON_TORCH_CUDA="1")
    assert r.returncode == 0 and "ok" in r.stdout, r.stderr[-3000:]


def test_without_the_variable_cuda_is_the_machines(tmp_path):
    r = _run("import torch; print(torch.cuda.is_available.__module__)", tmp_path, TC5_TRITON="1",
             TC5_TRITON_TORCH_CUDA="0")
    assert r.returncode == 0 and r.stdout.strip() == "torch.cuda", r.stderr[-3000:]


def test_activate_argument(tmp_path):
    r = _run("""\
        import torch, tc5.triton
        tc5.triton.activate(torch_cuda=True)
        assert torch.cuda.is_available() and torch.cuda.mem_get_info()[1] == 192 * 2**30
        print("ok")
    """, tmp_path, TC5_TRITON="0", TC5_TRITON_TORCH_CUDA="0")
    assert r.returncode == 0 and "ok" in r.stdout, r.stderr[-3000:]


def test_every_answer_of_the_table_is_installed(tmp_path):
    r = _run("""\
        import torch, tc5.torch_cuda as tcu
        for query, answer, make in tcu.ANSWERS:
            for name in tcu._names(query):
                obj = getattr(torch.cuda, name)
                obj = type(obj[0]) if isinstance(obj, tuple) else obj  # default_generators: its generator's
                assert obj.__module__.startswith("tc5"), name
        print("ok", len(tcu.ANSWERS))
    """, tmp_path, TC5_TRITON="1", TC5_TRITON_TORCH_CUDA="1")
    assert r.returncode == 0 and "ok" in r.stdout, r.stderr[-3000:]


def test_philox_state_of_default_generators(tmp_path):
    """torch.cuda.default_generators[0] keeps CUDA's Philox state as FlagGems reads and advances it
    (flag_gems.utils.random_utils.philox_backend_seed_offset: get_state() viewed as two int64,
    the offset advanced, set_state); manual_seed (torch's too) resets it; a wrong state is refused"""
    r = _run("""\
        import torch
        g = torch.cuda.default_generators[0]
        assert g.device == torch.device("cuda", 0) and g.initial_seed() == 67280421310721
        st = g.get_state(); assert st.dtype == torch.uint8 and st.numel() == 16
        c0, c1 = st.view(torch.int64); c1 += 8; g.set_state(st)      # FlagGems' advance
        assert g.get_offset() == 8 and g.initial_seed() == 67280421310721
        torch.manual_seed(1234)                                      # reaches torch.cuda.manual_seed_all
        assert g.initial_seed() == 1234 and g.get_offset() == 0 and torch.cuda.initial_seed() == 1234
        torch.cuda.manual_seed(2**64 - 1); assert tuple(g.get_state().view(torch.int64).tolist()) == (-1, 0)
        try:
            g.set_state(torch.zeros(8, dtype=torch.uint8)); raise SystemExit("accepted 8 bytes")
        except RuntimeError as e:
            assert "16 bytes" in str(e), e
        print("ok")
    """, tmp_path, TC5_TRITON="1", TC5_TRITON_TORCH_CUDA="1")
    assert r.returncode == 0 and "ok" in r.stdout, r.stderr[-3000:]


def test_cuda_graph_capture_and_replay(tmp_path):
    """torch.cuda.CUDAGraph / torch.cuda.graph (Liger-Kernel's test_triton_silumul_cuda_graph's use):
    capture records the Triton launch without running it (as on a GPU: the output is untouched) and the
    PyTorch operators with it; replay runs both again, in order, on the same memory, on new input data,
    the launch counted; a host read inside capture is refused as CUDA refuses it"""
    r = _run("""\
        import torch, triton, triton.language as tl, tc5.triton

        @triton.jit
        def twice(x, y, n, B: tl.constexpr):
            o = tl.program_id(0) * B + tl.arange(0, B)
            tl.store(y + o, tl.load(x + o, mask=o < n) * 2, mask=o < n)

        def run(a):
            y = torch.empty_like(a)
            twice[(4,)](a, y, 1000, B=256)
            return y + 1                               # a PyTorch operator on the kernel's output

        a = torch.randn(1000, device="cuda")
        run(a)                                         # warm-up (compile)
        g = torch.cuda.CUDAGraph()
        n0 = tc5.triton.launches()
        with torch.cuda.graph(g):
            assert torch.cuda.is_current_stream_capturing()
            out = run(a)
        assert not torch.cuda.is_current_stream_capturing() and tc5.triton.launches() == n0  # recorded, not run
        for k in range(2):
            a.copy_(torch.randn(1000))
            g.replay()
            assert torch.equal(out, a * 2 + 1), k
        assert tc5.triton.launches() == n0 + 2
        g2 = torch.cuda.CUDAGraph()
        try:
            with torch.cuda.graph(g2):
                a.sum().item()
            raise SystemExit("item() accepted in capture")
        except RuntimeError as e:
            assert "operation not permitted when stream is capturing" in str(e), e
        print("ok")
    """, tmp_path, TC5_TRITON="1", TC5_TRITON_TORCH_CUDA="1")
    assert r.returncode == 0 and "ok" in r.stdout, r.stderr[-3000:]


def test_make_graphed_callables(tmp_path):
    """torch.cuda.make_graphed_callables, PyTorch's own, on the shim's graphs: a function whose forward and
    backward are Triton launches, and a module, are captured (forward and backward graphs, warm-up on a
    side stream) and then replayed on new inputs, with the right outputs and gradients, one launch for
    each replayed pass"""
    r = _run("""\
        import torch, triton, triton.language as tl, tc5.triton

        @triton.jit
        def twice(x, y, n, B: tl.constexpr):
            o = tl.program_id(0) * B + tl.arange(0, B)
            tl.store(y + o, tl.load(x + o, mask=o < n) * 2, mask=o < n)

        class Twice(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                y = torch.empty_like(a)
                twice[(4,)](a, y, a.numel(), B=256)
                return y

            @staticmethod
            def backward(ctx, g):
                y = torch.empty_like(g)
                twice[(4,)](g, y, g.numel(), B=256)
                return y

        def fn(a):
            return Twice.apply(a) + 1

        gfn = torch.cuda.make_graphed_callables(fn, (torch.randn(1000, device="cuda", requires_grad=True),))
        for k in range(2):
            n0 = tc5.triton.launches()
            x = torch.randn(1000, device="cuda", requires_grad=True)
            out = gfn(x)
            assert torch.equal(out, x.detach() * 2 + 1), k
            (out * 3).sum().backward()
            assert torch.equal(x.grad, torch.full_like(x, 6.0)), k
            assert tc5.triton.launches() == n0 + 2, (k, tc5.triton.launches() - n0)
        m = torch.nn.Linear(8, 4, device="cuda")
        gm = torch.cuda.make_graphed_callables(m, (torch.randn(3, 8, device="cuda", requires_grad=True),))
        xi = torch.randn(3, 8, device="cuda", requires_grad=True)
        gm(xi).pow(2).sum().backward()
        xr, w, b = (t.detach().clone().requires_grad_() for t in (xi, m.weight, m.bias))
        torch.nn.functional.linear(xr, w, b).pow(2).sum().backward()
        for got, want in ((xi.grad, xr.grad), (m.weight.grad, w.grad), (m.bias.grad, b.grad)):
            torch.testing.assert_close(got, want)
        print("ok")
    """, tmp_path, TC5_TRITON="1", TC5_TRITON_TORCH_CUDA="1")
    assert r.returncode == 0 and "ok" in r.stdout, r.stderr[-3000:]


def test_rng_state_and_accelerator(tmp_path):
    """torch.cuda.get/set_rng_state(_all) are the Philox generator's state; torch.accelerator's calls that
    PyTorch answers in C++ (current_device_index, current_stream...) answer for the one CUDA device without
    the CUDA runtime (torch.compile's tracing asks both)"""
    r = _run("""\
        import torch, tc5.torch_cuda as tcu
        torch.cuda.manual_seed(5)
        st = torch.cuda.get_rng_state(); assert st.dtype == torch.uint8 and st.numel() == 16
        assert tuple(st.view(torch.int64).tolist()) == (5, 0)
        torch.cuda.manual_seed(6); torch.cuda.set_rng_state(st); assert torch.cuda.initial_seed() == 5
        assert [tuple(s.view(torch.int64).tolist()) for s in torch.cuda.get_rng_state_all()] == [(5, 0)]
        torch.cuda.set_rng_state_all([torch.tensor([7, 3]).view(torch.uint8)])
        assert torch.cuda.default_generators[0].get_offset() == 3
        if hasattr(torch, "accelerator"):
            for query, answer, make in tcu.ACCELERATOR:
                for name in tcu._names(query):
                    assert getattr(torch.accelerator, name).__module__.startswith("tc5"), name
            assert torch.accelerator.is_available() and torch.accelerator.current_device_index() == 0
            s = torch.accelerator.current_stream()
            assert isinstance(s, torch.Stream) and s.device == torch.device("cuda", 0) and s.stream_id == 0
            torch.accelerator.synchronize(); torch.accelerator.set_stream(s); torch.accelerator.set_device_index(0)
        print("ok")
    """, tmp_path, TC5_TRITON="1", TC5_TRITON_TORCH_CUDA="1")
    assert r.returncode == 0 and "ok" in r.stdout, r.stderr[-3000:]
