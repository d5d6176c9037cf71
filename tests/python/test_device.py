"""tc5 as the process's CUDA device (issue 50, tc5.device): under the torch.cuda shim a tensor
made for "cuda" answers as a CUDA tensor (device, is_cuda, get_device; its gradients too),
torch.Generator(device="cuda") works without the CUDA runtime, an ATen operator a library
registered for the CUDA key (as FlagGems does) reaches that kernel, and a Triton kernel runs on
such tensors through the door. Each case in a fresh process: the shim is process-wide."""
import os
import subprocess
import sys
import tempfile
import textwrap

import pytest

pytest.importorskip("torch")
pytest.importorskip("triton")

PRELUDE = """
import os
os.environ["TC5_TRITON_TORCH_CUDA"] = "1"
import torch
import tc5.triton
tc5.triton.activate()
"""


def run(body: str) -> str:
    env = dict(os.environ, TC5_TRITON_TORCH_CUDA="1")
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:  # @triton.jit reads its file
        f.write(PRELUDE + textwrap.dedent(body))
    try:
        r = subprocess.run([sys.executable, f.name], env=env, capture_output=True, text=True, timeout=600)
    finally:
        os.unlink(f.name)
    assert r.returncode == 0, r.stdout + r.stderr[-3000:]
    return r.stdout


def test_identity_and_autograd():
    out = run("""
        x = torch.randn(4, 4, device="cuda", requires_grad=True)
        assert x.is_cuda and not x.is_cpu and x.device.type == "cuda" and x.device == torch.device("cuda", 0)
        assert x.get_device() == 0 and torch.randn(2).to("cuda").is_cuda
        y = (x * x).sum()
        y.backward()
        assert x.grad.is_cuda and torch.equal(x.grad, 2 * x.detach())
        torch.testing.assert_close(x.detach() + 0, x.detach())
        print("identity ok")
    """)
    assert "identity ok" in out


def test_generator():
    out = run("""
        g = torch.Generator(device="cuda")
        assert g.device.type == "cuda" and isinstance(g, torch.Generator)
        assert isinstance(torch.default_generator, torch.Generator)
        g.manual_seed(7)
        a = torch.randn(5, generator=g, device="cuda")
        g.manual_seed(7)
        assert torch.equal(a, torch.randn(5, generator=g, device="cuda"))
        print("generator ok")
    """)
    assert "generator ok" in out


def test_library_cuda_kernel_reached():
    out = run("""
        calls = []
        lib = torch.library.Library("aten", "IMPL")

        def neg(t):  # a library's CUDA kernel (FlagGems registers its Triton operators so)
            calls.append(t.shape)
            return torch.zeros_like(t) - t

        lib.impl("neg", neg, "CUDA")
        x = torch.arange(4.0, device="cuda")
        assert torch.equal(-x, torch.tensor([0.0, -1.0, -2.0, -3.0])) and calls == [torch.Size([4])]
        assert torch.equal(x.abs(), x) and len(calls) == 1  # no kernel registered: the CPU's
        print("dispatch ok")
    """)
    assert "dispatch ok" in out


def test_triton_kernel_on_cuda_tensors():
    out = run("""
        import triton
        import triton.language as tl

        @triton.jit
        def add(x, y, o, n, B: tl.constexpr):
            i = tl.program_id(0) * B + tl.arange(0, B)
            tl.store(o + i, tl.load(x + i, mask=i < n) + tl.load(y + i, mask=i < n), mask=i < n)

        x = torch.randn(1000, device="cuda")
        y = torch.randn(1000, device="cuda")
        o = torch.empty_like(x)
        assert o.is_cuda
        n0 = tc5.triton.launches()
        add[(4,)](x, y, o, 1000, B=256)
        assert torch.equal(o, x + y) and tc5.triton.launches() == n0 + 1  # the launch counter
        print("triton ok")
    """)
    assert "triton ok" in out
