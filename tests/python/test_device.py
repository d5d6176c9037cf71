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
import tc5.device
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
        # a device index names CUDA's device (x.to(0) reached CUDA's runtime: "Found no NVIDIA driver")
        assert torch.randn(2).to(0).is_cuda and torch.randn(2).to(0, torch.float16).dtype == torch.float16
        assert torch.zeros(2, device=0).is_cuda and torch.randn(2).to(device=0).is_cuda
        y = (x * x).sum()
        y.backward()
        assert x.grad.is_cuda and torch.equal(x.grad, 2 * x.detach())
        torch.testing.assert_close(x.detach() + 0, x.detach())
        print("identity ok")
    """)
    assert "identity ok" in out


def test_backward_sees_the_device():
    # a torch.autograd.Function's backward runs on the device as its forward does (backward() and grad() are
    # torch functions the shim's mode handles with itself popped; the engine must run the graph with it on):
    # its tensors answer "cuda", and a device saved in the forward is served (FlagGems' conv2d backward makes
    # torch.zeros(..., device=ctx.device); it reached CUDA's runtime: "Found no NVIDIA driver")
    out = run("""
        seen = []

        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.device = x.device
                return x * 2

            @staticmethod
            def backward(ctx, g):
                seen.append((g.is_cuda, g.device.type, ctx.device.type))
                return torch.full(g.shape, 2.0, device=ctx.device) * g

        x = torch.randn(3, device="cuda", requires_grad=True)
        F.apply(x).sum().backward()
        (gx,) = torch.autograd.grad(F.apply(x).sum(), (x,))
        assert torch.equal(x.grad, torch.full((3,), 2.0)) and torch.equal(gx, x.grad)
        assert seen == [(True, "cuda", "cuda")] * 2, seen
        print("backward ok")
    """)
    assert "backward ok" in out


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

        def div_mode(a, b, rounding_mode=None):
            calls.append("div")
            return torch.zeros_like(a)

        lib.impl("div.Tensor_mode", div_mode, "CUDA")
        # Python numbers alone are CPU scalars to the dispatcher: the CPU's kernel, on a GPU too
        assert torch.equal(torch.div(7.5, 2.0, rounding_mode="trunc"), torch.tensor(3.0)) and len(calls) == 1
        assert torch.equal(torch.div(x, 2.0, rounding_mode="trunc"), torch.zeros(4)) and calls[-1] == "div"
        print("dispatch ok")
    """)
    assert "dispatch ok" in out


def test_library_kernel_for_a_composite_operator():
    # torch.arcsinh is CompositeImplicitAutograd (asinh underneath): on a GPU a library's CUDA kernel for it
    # takes the operator whole; under the shim it must too, not asinh's CPU kernel after the composite ran;
    # when the library's registrations go (FlagGems' use_gems() exit), the composite and its gradient are back
    out = run("""
        calls = []
        lib = torch.library.Library("aten", "IMPL")

        def arcsinh(t):
            calls.append(t.shape)
            return torch.ops.aten.asinh.default(t)

        lib.impl("arcsinh", arcsinh, "CUDA")
        x = torch.tensor([0.5, -2.0], device="cuda")
        assert torch.equal(torch.arcsinh(x), torch.ops.aten.asinh.default(x)) and calls == [torch.Size([2])]
        assert torch.equal(torch.ops.aten.arcsinh.default(x), torch.arcsinh(x)) and len(calls) == 3
        lib._destroy()
        assert not torch._C._dispatch_has_kernel_for_dispatch_key("aten::arcsinh", "CPU")
        y = torch.tensor([0.5, -2.0], device="cuda", requires_grad=True)
        torch.arcsinh(y).sum().backward()
        assert len(calls) == 3 and torch.allclose(y.grad, 1 / torch.sqrt(y.detach() ** 2 + 1))
        print("composite ok")
    """)
    assert "composite ok" in out


def test_library_kernel_calls_reach_library_kernels():
    # a library's kernel written in Python makes ATen calls of its own (FlagGems' kron of a 0-d tensor is
    # `A.unsqueeze(0) * B`): on a GPU they dispatch again and reach the library's CUDA kernels (its mul);
    # a kernel that calls its own operator gets PyTorch's kernel for that inner call, not itself again
    out = run("""
        calls = []
        lib = torch.library.Library("aten", "IMPL")

        def mul(a, b):
            calls.append("mul")
            return a * b  # its own operator: PyTorch's (the CPU's) kernel, no recursion

        def kron(a, b):
            calls.append("kron")
            assert a.is_cuda and a.device.type == "cuda"  # the kernel's own questions: CUDA's answers
            return a.unsqueeze(0) * b

        lib.impl("mul.Tensor", mul, "CUDA")
        lib.impl("kron", kron, "CUDA")
        a, b = torch.tensor(3.0, device="cuda"), torch.arange(6.0, device="cuda").reshape(2, 3)
        want = torch.tensor([[0.0, 3.0, 6.0], [9.0, 12.0, 15.0]])
        assert torch.equal(torch.kron(a, b), want)
        assert calls == ["kron", "mul"], calls
        nested = {k[:2]: n for k, n in tc5.device.nested_dispatches().items()}  # k[2]: the pytest case
        # kron's mul reached FlagGems-style; mul's own a * b is a re-entry: PyTorch's kernel, counted as such
        assert nested == {("kron", "mul.Tensor"): 1, ("mul.Tensor", "mul.Tensor (re-entered: PyTorch's kernel)"): 1}, \
            nested
        assert torch.equal(a * b, want) and calls[2:] == ["mul"], calls

        def copy_(dst, src, non_blocking=False):
            calls.append("copy_")
            return torch.ops.aten.copy_.default.redispatch(torch._C.DispatchKeySet(torch._C.DispatchKey.CPU), dst,
                                                             src, non_blocking)

        lib.impl("copy_", copy_, "CUDA")
        assert torch.randn(3, device="cuda").is_cuda and calls[3:] == []  # the shim's own 512-byte aligned copy
        torch.empty(3, device="cuda").copy_(torch.ones(3))
        assert calls[3:] == ["copy_"], calls
        print("nested ok")
    """)
    assert "nested ok" in out


def test_threads_see_the_device():
    # a thread the program starts sees the one device as the main thread does (PyTorch's mode stacks are
    # per thread): its "cuda" tensors (device="cuda" or an index) are host memory answering CUDA, and a
    # library's CUDA kernel is reached from it (FlagGems' test_libentry::test_threadsafety's shape)
    out = run("""
        import threading
        calls, seen = [], []
        lib = torch.library.Library("aten", "IMPL")

        def neg(t):
            calls.append(threading.current_thread().name)
            return torch.zeros_like(t) - t

        lib.impl("neg", neg, "CUDA")
        tc5.device.enter_dispatch(now=True)

        def work(dev):
            x = torch.arange(4.0, device=dev)
            seen.append((x.is_cuda, x.device.type, torch.equal(-x, torch.tensor([0.0, -1.0, -2.0, -3.0]))))

        ts = [threading.Thread(target=work, args=(d,), name=f"t{d}") for d in (0, "cuda")]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        assert seen == [(True, "cuda", True)] * 2 and sorted(calls) == ["t0", "tcuda"], (seen, calls)
        print("threads ok")
    """)
    assert "threads ok" in out


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


def test_autocast_cuda():
    """torch.autocast("cuda") casts the shim's tensors as CUDA's autocast does (PyTorch's AMP op
    reference, "CUDA Ops that can autocast to float16 / to float32 / promote"), above autograd
    (the leaves' gradients stay float32), nested and disabled regions included; autocast("cpu")
    alone casts nothing (no tensor answers "cpu"); torch.cuda.amp.autocast is the same"""
    out = run("""
        import torch.nn.functional as F
        a = torch.randn(8, 16, device="cuda", requires_grad=True)
        w = torch.randn(4, 16, device="cuda", requires_grad=True)
        tgt = torch.tensor([0, 1, 2, 3, 0, 1, 2, 3], device="cuda")
        got = {}
        with torch.autocast("cuda", dtype=torch.bfloat16):
            assert torch.is_autocast_enabled() and torch.get_autocast_dtype("cuda") == torch.bfloat16
            y = F.linear(a, w)
            got["linear"] = y.dtype
            got["matmul"] = (a @ w.t()).dtype
            got["einsum"] = torch.einsum("ij,kj->ik", a, w).dtype
            got["softmax"] = torch.softmax(y, -1).dtype
            got["softmax dtype given"] = torch.softmax(y, -1, dtype=torch.bfloat16).dtype
            got["cross_entropy"] = F.cross_entropy(y, tgt).dtype
            got["exp"] = torch.exp(y).dtype
            got["layer_norm"] = F.layer_norm(y, (4,)).dtype
            got["norm"] = torch.norm(y).dtype
            got["sum"] = y.sum().dtype
            got["addcmul"] = torch.addcmul(a, a.bfloat16(), a).dtype
            got["gelu (no policy)"] = F.gelu(y).dtype
            got["float64 mm"] = (a.double() @ a.double().t()).dtype
            with torch.autocast("cuda", enabled=False):
                got["disabled region"] = (a @ w.t()).dtype
            got["after the disabled region"] = (a @ w.t()).dtype
            loss = F.cross_entropy(y, tgt)
            try:
                F.binary_cross_entropy(torch.sigmoid(y).float(), torch.rand(8, 4, device="cuda"))
                got["bce"] = "ran"
            except RuntimeError as e:
                got["bce"] = "refused" if "unsafe to autocast" in str(e) else str(e)
        loss.backward()
        got["grads"] = (a.grad.dtype, w.grad.dtype)
        got["outside"] = (a @ w.t()).dtype
        with torch.autocast("cpu", dtype=torch.bfloat16):
            got["autocast cpu alone"] = F.linear(a, w).dtype
        with torch.cuda.amp.autocast():
            got["torch.cuda.amp"] = (a @ w.t()).dtype
        for k, v in got.items():
            print(k, v)
    """)
    got = dict(line.rsplit(" ", 1) for line in out.splitlines() if line and not line.startswith("grads"))
    want = {"linear": "torch.bfloat16", "matmul": "torch.bfloat16", "einsum": "torch.bfloat16",
            "softmax": "torch.float32", "softmax dtype given": "torch.bfloat16", "cross_entropy": "torch.float32",
            "exp": "torch.float32", "layer_norm": "torch.float32", "norm": "torch.float32", "sum": "torch.float32",
            "addcmul": "torch.float32", "gelu (no policy)": "torch.bfloat16", "float64 mm": "torch.float64",
            "disabled region": "torch.float32", "after the disabled region": "torch.bfloat16", "bce": "refused",
            "outside": "torch.float32", "autocast cpu alone": "torch.float32", "torch.cuda.amp": "torch.float16"}
    assert got == want, out
    assert "grads (torch.float32, torch.float32)" in out, out


def test_autocast_policy_is_the_installed_pytorchs():
    """the policy is read from the installed PyTorch's ATen/autocast_mode.h, not a copy; a header
    without the lists is refused by name"""
    from tc5 import device
    p = device.autocast_policy()
    assert p["mm"] == p["linear"] == p["scaled_dot_product_attention"] == "lower_precision_fp"
    assert p["softmax.int"] == p["sum.dim_IntList"] == "fp32_set_opt_dtype"
    assert p["layer_norm"] == p["pow.Tensor_Scalar"] == "fp32" and p["index_put"] == "promote"
    assert p["norm.Scalar"] == "fp32_append_dtype" and p["binary_cross_entropy"] == "banned"
    with pytest.raises(RuntimeError, match="AT_FORALL_LOWER_PRECISION_FP not found"):
        device.autocast_policy("#define AT_FORALL_FP32(_) _(exp)\n")


def test_cuda_only_out_dtype_products():
    """torch.mm/addmm/bmm/baddbmm(..., out_dtype=torch.float32), which PyTorch implements for CUDA
    only (Liger's fused linear losses call them), run on the shim's tensors: float32 products of
    the bfloat16 operands, beta/alpha applied, out= written; CUDA's out_dtype rule refused by name"""
    out = run("""
        a = torch.randn(4, 8, dtype=torch.bfloat16, device="cuda")
        b = torch.randn(8, 3, dtype=torch.bfloat16, device="cuda")
        c = torch.randn(4, 3, device="cuda")
        ref = a.double() @ b.double()
        r = torch.mm(a, b, out_dtype=torch.float32)
        assert r.dtype == torch.float32 and torch.allclose(r.double(), ref, atol=1e-5)
        r = torch.addmm(c, a, b, out_dtype=torch.float32, beta=0.5, alpha=2.0)
        assert torch.allclose(r.double(), 0.5 * c.double() + 2 * ref, atol=1e-4)
        o = torch.empty(1, device="cuda")
        torch.addmm(c, a, b, out_dtype=torch.float32, out=o)
        assert o.shape == (4, 3) and torch.allclose(o.double(), c.double() + ref, atol=1e-4)
        r = torch.baddbmm(c[None], a[None], b[None], out_dtype=torch.float32)
        assert r.shape == (1, 4, 3) and torch.allclose(r[0].double(), c.double() + ref, atol=1e-4)
        try:
            torch.mm(a, b, out_dtype=torch.float16)
        except RuntimeError as e:
            assert "out_dtype torch.float16 must be" in str(e), e
            print("products ok")
    """)
    assert "products ok" in out


def test_sdpa_takes_cudas_backend():
    # scaled_dot_product_attention's backend is CUDA's choice for a B200 with this PyTorch (sdp_utils.cpp's rules,
    # tc5.device_attention.choice): where it is flash, CUDA's composite runs and a library's _flash_attention_forward
    # CUDA kernel (FlagGems') is reached, with the head dimension padded to a multiple of 8 and the output sliced
    # back; torch 2.9 (cuDNN 9.8 at build) never prefers cuDNN, torch 2.15 (cuDNN 9.26, CUDA 13) does on sm_100
    out = run("""
        import math
        import tc5.device_attention as A
        seen = []
        lib = torch.library.Library("aten", "IMPL")

        def flash(q, k, v, cq, ck, mq, mk, p, causal, dbg, *, scale=None, **kw):  # a library's kernel
            seen.append((tuple(q.shape), scale))
            o, l = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu(
                q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), p, causal, scale=scale)
            return o.transpose(1, 2), l, torch.empty(0, dtype=torch.int64), torch.empty(0), torch.empty(0)

        lib.impl("_flash_attention_forward", flash, "CUDA")
        torch.manual_seed(0)
        q, k, v = (torch.randn(1, 2, n, 60, device="cuda", dtype=torch.float16) for n in (16, 24, 24))
        # head dimension 60: cuDNN refuses it (not a multiple of 8), flash takes it
        assert A.choice(q, k, v)[0] == A.FLASH, A.choice(q, k, v)
        o = torch.nn.functional.scaled_dot_product_attention(q, k, v)
        ref = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu(q, k, v, 0.0, False)[0]
        assert o.shape == (1, 2, 16, 60)
        assert seen == [((1, 16, 2, 64), 1 / math.sqrt(60))], seen  # padded to 64, the scale of 60
        torch.testing.assert_close(o, ref, atol=2e-3, rtol=0)
        # head dimension 64: cuDNN first on sm_100 with torch 2.15 (runtime cuDNN > 9.15), never with 2.9.0+cu128
        q, k, v = (torch.randn(1, 2, n, 64, device="cuda", dtype=torch.float16) for n in (16, 24, 24))
        v9 = torch.__version__.startswith("2.9.")
        b, why = A.choice(q, k, v)
        assert b == (A.FLASH if v9 else A.CUDNN), (b, why)
        seen.clear()
        o = torch.nn.functional.scaled_dot_product_attention(q, k, v)
        ref = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu(q, k, v, 0.0, False)[0]
        assert len(seen) == (1 if v9 else 0), seen  # cuDNN's choice: the CPU's path
        torch.testing.assert_close(o, ref, atol=2e-3, rtol=0)
        # float32: flash refuses the type, memory-efficient attention takes it (CUTLASS's: the CPU's path)
        assert A.choice(q.float(), k.float(), v.float())[0] == A.EFFICIENT
        # a gradient asked for: the CPU's path (CUDA's fused backward is not served)
        qg = q.detach().requires_grad_()
        assert A.choice(qg, k, v)[0] == A.CPU_PATH
        # causal with seqlen_q != seqlen_k: flash refuses (FlashAttention-2 aligns the mask bottom-right)
        assert A.choice(q, k, v, is_causal=True)[0] != A.FLASH
        # the math backend chosen by the user: CUDA's composite calls _scaled_dot_product_attention_math
        from torch.nn.attention import SDPBackend, sdpa_kernel
        with sdpa_kernel([SDPBackend.MATH]):
            assert A.choice(q, k, v)[0] == A.MATH
            n = len(seen)
            m = torch.nn.functional.scaled_dot_product_attention(q, k, v)
            assert len(seen) == n
            torch.testing.assert_close(m, torch.ops.aten._scaled_dot_product_attention_math(q, k, v)[0])
        print("sdpa ok")
    """)
    assert "sdpa ok" in out


def test_sdpa_rules_by_torch_version():
    # the rules of torch 2.11 (read in 2.11.0+cu130's machine code: cuDNN first on sm_100 when the runtime cuDNN is
    # newer than 9.15.0, its head-dimension limit 128 there, but (192, 128) allowed from cuDNN 9.11; no storage-offset
    # check for memory-efficient attention) beside 2.15's (192 and 256 depend on its cuDNN frontend: the CPU's path),
    # with this PyTorch's flags and the runtime cuDNN 9.19 of torch 2.11.0+cu130's wheel (2.9's rule reads the cuDNN
    # PyTorch was built with: test_sdpa_takes_cudas_backend, on the installed PyTorch).
    # The FlagGems run on torch 2.11 took the CPU's path for every call ("rules not read"), so its flash kernel was
    # not reached where a B200 reaches it (head dimensions 192, 256: test_scaled_dot_product_attention.py)
    out = run("""
        import tc5.device_attention as A
        A._cudnn_version = lambda: 91900

        def pick(rules, dq, dv=None, dt=torch.float16, off=0, s=(64, 64)):
            A._rules = lambda: rules
            A._order_init = False
            torch._C._set_sdp_priority_order([A.FLASH, A.EFFICIENT, A.MATH, A.CUDNN, A.OVERRIDEABLE])
            q = torch.empty(2 * 4 * s[0] * dq + off, device="cuda", dtype=dt)[off:].view(2, 4, s[0], dq)
            k = torch.empty(2, 4, s[1], dq, device="cuda", dtype=dt)
            v = torch.empty(2, 4, s[1], dv or dq, device="cuda", dtype=dt)
            return A.choice(q, k, v)[0]
        for d in (64, 128):
            assert [pick(r, d) for r in ("2.11", "2.15")] == [A.CUDNN, A.CUDNN], d
        for d in (192, 256):  # cuDNN's limit on sm_100: 128 (2.11); a build-time fact of 2.15 (not followed)
            assert [pick(r, d) for r in ("2.11", "2.15")] == [A.FLASH, A.CPU_PATH], d
        # DeepSeek's (192, 128) on sm_100: cuDNN's special case from 9.11 (2.11)
        assert [pick(r, 192, 128) for r in ("2.11", "2.15")] == [A.CUDNN, A.CPU_PATH]
        # float32 with a storage offset of 1 element: 2.15 refuses memory-efficient attention (its alignment)
        assert [pick(r, 64, dt=torch.float32, off=1) for r in ("2.11", "2.15")] == [A.EFFICIENT, A.MATH]
        assert pick("2.11", 64, s=(64, 1)) == A.FLASH  # cuDNN refuses a key/value sequence of 1
        A._rules = lambda: None
        assert A.choice(*(torch.empty(1, 1, 8, 64, device="cuda", dtype=torch.float16),) * 3)[0] == A.CPU_PATH
        print("rules ok")
    """)
    assert "rules ok" in out


def test_cuda_only_attention_and_trace():
    # aten::_flash_attention_forward (CUDA-only) on the CPU: PyTorch's CPU flash attention under FlashAttention-2's
    # mask (causal and windows aligned bottom-right; a row that sees no key: 0, log-sum-exp +inf), against the
    # definition in float64; the forms tc5 does not define are refused by name. trace: CUDA's diagonal().sum()
    out = run("""
        import math
        import pytest
        import tc5.device_attention as A
        torch.manual_seed(1)
        B, H, sq, sk, d = 2, 3, 7, 5, 16
        q, k, v = (torch.randn(B, s, H, d, device="cuda", dtype=torch.float16) for s in (sq, sk, sk))

        def exact(q, k, v, causal, left=-1, right=-1):
            sq, sk = q.size(1), k.size(1)
            # flash_api.cpp (mha_fwd, set_params_fprop): a side >= sk is no limit, one query is not causal, causal
            # is right = 0, and a side left -1 beside a limited one becomes sk
            left, right = (-1 if left >= sk else left), (-1 if right >= sk else right)
            if causal and sq > 1:
                right = 0
            if (left < 0) != (right < 0):
                left, right = (sk if left < 0 else left), (sk if right < 0 else right)
            s = torch.einsum("bqhd,bkhd->bhqk", q.double(), k.double()) / math.sqrt(d)
            i = torch.arange(sq).unsqueeze(1) + sk - sq
            j = torch.arange(sk).unsqueeze(0)
            seen = torch.ones(sq, sk, dtype=torch.bool)
            if left >= 0:
                seen &= j >= i - left
            if right >= 0:
                seen &= j <= i + right
            s = s.masked_fill(~seen, float("-inf"))
            lse = torch.logsumexp(s, -1)
            p = torch.softmax(s, -1).nan_to_num(0.0)
            o = torch.einsum("bhqk,bkhd->bqhd", p, v.double())
            return o, lse.masked_fill(~seen.any(1), float("inf"))

        # the windows of FlagGems' test_flash_attention_foward_swa ((128, 128) with 128 keys: no limit) and one-sided
        # ones where sq > 2 sk (the other side sk still hides the first rows)
        q9, k3, v3 = (torch.randn(B, s, H, d, device="cuda", dtype=torch.float16) for s in (9, 3, 3))
        for (qq, kk, vv), causal, win in (((q, k, v), False, {}), ((q, k, v), True, {}),
                                          ((q, k, v), False, {"window_size_left": 2, "window_size_right": 1}),
                                          ((q, k, v), False, {"window_size_left": 5, "window_size_right": 5}),
                                          ((q, k, v), False, {"window_size_left": 1, "window_size_right": -1}),
                                          ((q, k, v), False, {"window_size_left": -1, "window_size_right": 0}),
                                          ((q9, k3, v3), False, {"window_size_left": 3, "window_size_right": 3}),
                                          ((q9, k3, v3), False, {"window_size_left": 2, "window_size_right": -1}),
                                          ((q9, k3, v3), True, {"window_size_left": 1}),
                                          ((q[:, :1], k, v), True, {})):
            o, lse, rng, unused, dbg = torch.ops.aten._flash_attention_forward(qq, kk, vv, None, None, qq.size(1),
                                                                              kk.size(1), 0.0, causal, False, **win)
            eo, else_ = exact(qq, kk, vv, causal, win.get("window_size_left", -1), win.get("window_size_right", -1))
            assert o.dtype == torch.float16 and o.shape == qq.shape and lse.dtype == torch.float32
            torch.testing.assert_close(o.double(), eo, atol=2e-3, rtol=0)
            torch.testing.assert_close(lse.double(), else_, atol=1e-5, rtol=0)
        o33 = torch.ops.aten._flash_attention_forward(q9, k3, v3, None, None, 9, 3, 0.0, False, False,
                                                      window_size_left=3, window_size_right=3)[0]
        assert o33.abs().amin(dim=(0, 2, 3)).gt(0).all()  # (3, 3) with 3 keys: every row sees every key
        assert torch.ops.aten._flash_attention_forward(q9, k3, v3, None, None, 9, 3, 0.0, False, False,
                                                       window_size_left=2)[1][:, :, :3].isinf().all()
        assert torch.isinf(torch.ops.aten._flash_attention_forward(q, k, v, None, None, sq, sk, 0.0, True,
                                                                   False)[1][:, :, :2]).all()
        for kw, name in (({"dropout_p": 0.1}, "dropout_p=0.1"), ({"cum_seq_q": torch.tensor([0, 7])}, "cum_seq_q"),
                         ({"return_debug_mask": True}, "return_debug_mask=True")):
            a = dict(cum_seq_q=None, cum_seq_k=None, dropout_p=0.0, return_debug_mask=False)
            a.update(kw)
            with pytest.raises(A.SdpaRefused, match=name.replace("[", "\\\\[")):
                torch.ops.aten._flash_attention_forward(q, k, v, a["cum_seq_q"], a["cum_seq_k"], sq, sk,
                                                        a["dropout_p"], False, a["return_debug_mask"])
        # scaled_dot_product_attention with no library kernel: CUDA's flash path on the stand-in (head dimension 60:
        # flash on 2.9 and 2.15), and with dropout the CPU's path (FlashAttention-2's Philox stream is not defined)
        q4, k4, v4 = (torch.randn(1, 2, n, 60, device="cuda", dtype=torch.float16) for n in (9, 11, 11))
        assert A.choice(q4, k4, v4)[0] == A.FLASH
        torch.testing.assert_close(torch.nn.functional.scaled_dot_product_attention(q4, k4, v4),
                                   torch.ops.aten._scaled_dot_product_flash_attention_for_cpu(q4, k4, v4)[0],
                                   atol=2e-3, rtol=0)
        assert torch.nn.functional.scaled_dot_product_attention(q4, k4, v4, dropout_p=0.5).shape == (1, 2, 9, 60)
        for dt in (torch.float16, torch.bfloat16, torch.float32, torch.int32, torch.bool):
            x = (torch.randn(5, 7) * 4).to(dt).to("cuda")
            t = torch.trace(x)
            assert torch.equal(t, x.diagonal().sum()), (dt, t)
        with pytest.raises(RuntimeError, match="expected a matrix"):
            torch.trace(torch.ones(2, 2, 2, device="cuda"))
        print("cuda-only ok")
    """)
    assert "cuda-only ok" in out


def test_user_dispatch_mode_inside_the_device():
    # the device's dispatch mode is entered at the first torch call after a library's first CUDA registration; when
    # that call is inside a user's TorchDispatchMode (use_gems() then `with MyMode():`), the device's mode goes under
    # it: the user's exit pops its own mode, and the next factory call works (it hit python_arg_parser's assert)
    out = run("""
        from torch.utils._python_dispatch import TorchDispatchMode, _get_current_dispatch_mode_stack
        x = torch.ones(3, device="cuda")
        lib = torch.library.Library("aten", "IMPL")
        calls = []
        lib.impl("neg", lambda t: calls.append(1) or torch.zeros_like(t) - t, "CUDA")
        ops = []

        class Trace(TorchDispatchMode):
            def __torch_dispatch__(self, f, types, a=(), k=None):
                ops.append(str(f))
                return f(*a, **(k or {}))

        with Trace():
            y = -x
        assert ops == ["aten.neg.default"] and calls == [1] and torch.equal(y, torch.full((3,), -1.0))
        stack = _get_current_dispatch_mode_stack()
        assert len(stack) == 1 and type(stack[0]).__name__ == "CudaDispatch", stack
        z = torch.zeros(2, device="cuda")
        assert z.is_cuda and torch.equal(-z, torch.zeros(2)) and calls == [1, 1]
        print("modes ok")
    """)
    assert "modes ok" in out


def test_library_kernels_reached_after_inference_mode():
    # the device's dispatch mode entered for the first time inside torch.inference_mode() (FlagGems' test_quant.py
    # cases are @torch.inference_mode() and register their kernels inside): the guard's exit restores the thread's
    # local dispatch-key set, without the Python keys the mode's push included; the mode stayed on the stack and no
    # library kernel was reached for the rest of the process (w51: 74 FlagGems cases ran with no kernel launched)
    out = run("""
        lib = torch.library.Library("aten", "IMPL")
        calls = []
        lib.impl("neg", lambda t: calls.append(1) or torch.zeros_like(t) - t, "CUDA")

        @torch.inference_mode()
        def first_use():
            x = torch.ones(3, device="cuda")  # the first torch call after the registration: the mode is entered here
            assert torch.equal(-x, torch.full((3,), -1.0)) and calls == [1], calls
        first_use()
        x = torch.ones(3, device="cuda")
        assert torch.equal(-x, torch.full((3,), -1.0)) and calls == [1, 1], calls
        with torch.inference_mode():
            assert torch.equal(-x, torch.full((3,), -1.0)) and calls == [1, 1, 1], calls
        K = torch._C.DispatchKey  # what any guard restoring a whole local set entered before the mode's push does
        for k in (K.Python, K.PythonTLSSnapshot):
            torch._C._dispatch_tls_set_dispatch_key_included(k, False)
        assert torch.equal(-x, torch.full((3,), -1.0)) and calls == [1, 1, 1, 1], calls
        print("inference ok")
    """)
    assert "inference ok" in out


def test_library_factory_kernels_reached():
    # torch.zeros/zeros_like for "cuda" are made by the shim as empty + one zeroing in aligned memory (fresh_factory,
    # for speed); where a library registered the factory for CUDA (FlagGems: zeros, zeros_like, ones, full...) the
    # factory reaches its kernel, as on a GPU (w51: FlagGems' 48 test_zeros cases launched nothing)
    out = run("""
        lib = torch.library.Library("aten", "IMPL")
        calls = []

        def zeros(size, *, dtype=None, layout=None, device=None, pin_memory=None):
            calls.append("zeros")
            return torch.full(size, 0.0, dtype=dtype)

        def zeros_like(t, *, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
            calls.append("zeros_like")
            return torch.full(t.shape, 0.0, dtype=dtype or t.dtype)

        def empty(size, *, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
            calls.append("empty")
            return torch.full(size, 7.0, dtype=dtype)

        lib.impl("zeros", zeros, "CUDA")
        z = torch.zeros(1000, device="cuda")
        assert calls == ["zeros"] and z.is_cuda and torch.equal(z, torch.full((1000,), 0.0)), calls
        assert z.data_ptr() % 512 == 0  # the shim's alignment kept
        lib.impl("zeros_like", zeros_like, "CUDA")
        assert torch.equal(torch.zeros_like(z, device="cuda"), z) and calls == ["zeros", "zeros_like"], calls
        lib.impl("empty.memory_format", empty, "CUDA")
        e = torch.empty(5, device="cuda")
        assert calls[-1] == "empty" and e.shape == (5,), calls
        n = len(calls)
        o = torch.ones(4, device="cuda")  # no library kernel: the CPU's
        assert torch.equal(o, torch.ones(4)) and len(calls) == n
        print("factories ok")
    """)
    assert "factories ok" in out


def test_composite_operators_reach_library_kernels():
    # an operator whose GPU kernel is its CompositeExplicitAutograd one (aten::clone: empty_like, then copy_ through
    # the dispatcher) reaches, inside it, the kernels a library registered for CUDA, as on a GPU: FlagGems' roll and
    # flip of one element return x.clone(), one launch of FlagGems' copy_ on a GPU (r52x: 60 FlagGems cases ran
    # with no kernel launched, the composite's copy_ taken by PyTorch's CPU kernel)
    out = run("""
        lib = torch.library.Library("aten", "IMPL")
        calls = []

        def copy_(dst, src, non_blocking=False):
            calls.append("copy_")
            with torch.utils._python_dispatch._disable_current_modes():
                return torch.ops.aten.copy_.default(dst, src)

        lib.impl("copy_", copy_, "CUDA")
        x = torch.arange(6.0, device="cuda").reshape(2, 3)
        calls.clear()
        y = x.clone()
        assert calls == ["copy_"] and y.is_cuda and torch.equal(y, torch.arange(6.0).reshape(2, 3)), calls
        assert y.data_ptr() != x.data_ptr()
        calls.clear()
        z = x.t().contiguous()  # contiguous of a transposed tensor: clone, its copy_ the library's
        assert calls == ["copy_"] and torch.equal(z, torch.arange(6.0).reshape(2, 3).t()), calls
        calls.clear()
        assert torch.equal(x.expand(2, 2, 3)[1], x) and calls == [], calls  # a composite of views only: no copy
        # a composite that passes a number on as a wrapped number (remainder.Scalar calls remainder.Tensor with
        # wrapped_scalar_tensor(other)), which __torch_dispatch__ is given as the Python number: the same values and
        # types as the CPU's (FlagGems' reshape_and_cache tests: slot_mapping % block_size raised, session 9)
        i = torch.arange(-7, 9, device="cuda")
        for a, b in ((i, 3), (i.to(torch.int32), 2.5), (i[3], 4), (i.half(), 3), (i.to(torch.int8), -3)):
            for f in (torch.remainder, lambda p, q: p % q, torch.fmod, lambda p, q: torch.bitwise_and(p, 6)):
                if a.is_floating_point() and f not in (torch.remainder, torch.fmod):
                    continue
                r, c = f(a, b), f(a.cpu(), b)
                assert r.is_cuda and r.dtype == c.dtype and torch.equal(r.cpu(), c), (a, b, r, c)
        print("composites ok")
    """)
    assert "composites ok" in out


def test_reduced_precision_normal_draws_as_cuda():
    # PyTorch 2.11's CPU normal draws float16/bfloat16 uniforms in the type (11 / 8 random bits) and makes each pair
    # by Box-Muller in it: u = 0 gives a radius of 0, so about 1.5 x 2^-11 / 2^-8 of the draws are exact zeros;
    # CUDA's normal_kernel draws in float and rounds once (none). The shim's "cuda" draws are now rounded as CUDA's
    # (d52: FlagGems' addcdiv cases divided 0 by 0); float32 draws, seeds and generators behave as before. A PyTorch
    # whose CPU kernel already draws in float (2.15) is left as it is: tc5.device_random reads its header, and the
    # measured zeros must agree with what it read
    out = run("""
        from tc5 import device_random
        in_type = device_random.cpu_normal_in_type()
        n = 1 << 20
        cpu = {}
        for dt in (torch.float16, torch.bfloat16):
            torch.manual_seed(1)
            cpu[dt] = int((torch.randn(n, dtype=dt) == 0).sum())  # no device=: the CPU's, as asked
            assert (cpu[dt] > (300 if dt == torch.float16 else 3000)) == in_type, (dt, cpu[dt], in_type)
            x = torch.randn(n, dtype=dt, device="cuda")
            assert x.dtype == dt and x.shape == (n,) and x.is_cuda and x.data_ptr() % 512 == 0
            z = [int((x == 0).sum()), int((torch.randn(n // 4, 4, dtype=dt, device="cuda") == 0).sum()),
                 int((torch.randn_like(x) == 0).sum()), int((torch.empty(n, dtype=dt).normal_() == 0).sum()),
                 int((torch.nn.init.normal_(torch.empty(n, dtype=dt)) == 0).sum()),
                 int((torch.normal(0.0, 1.0, size=(n,), dtype=dt, device="cuda") == 0).sum()),
                 int((torch.normal(torch.zeros(n, dtype=dt), 1.0) == 0).sum()),
                 int((torch.normal(torch.zeros(n, dtype=dt), torch.ones(n, dtype=dt)) == 0).sum()),
                 int((torch.normal(0.0, torch.ones(n, dtype=dt)) == 0).sum())]
            # the float32 CPU draw's own zeros (24-bit uniforms: about 1.5 x 2^-24 a draw, 0.1 in 2^20) remain
            assert max(z) <= 4, (dt, z)
            # the same seed or generator: the same values; float32 draws rounded once (where the shim draws them)
            def ref(shape, mean=0.0, std=1.0, generator=None):
                if in_type:
                    return torch.empty(shape).normal_(mean, std, generator=generator).to(dt)
                return torch.empty(shape, dtype=dt).normal_(mean, std, generator=generator)
            torch.manual_seed(7)
            a = torch.randn(1000, dtype=dt, device="cuda")
            torch.manual_seed(7)
            assert torch.equal(a, torch.randn(1000, dtype=dt, device="cuda"))
            torch.manual_seed(7)
            assert torch.equal(a, ref(1000))
            # 0-d tensors standing for numbers (a size, mean, std): the same factory, rounded alike
            for make in (lambda: torch.randn(torch.tensor(1000), dtype=dt, device="cuda"),
                         lambda: torch.randn((torch.tensor(1000),), dtype=dt, device="cuda"),
                         lambda: torch.normal(torch.tensor(0.0), torch.tensor(1.0), (1000,), dtype=dt, device="cuda")):
                torch.manual_seed(7)
                assert torch.equal(make(), a)
            g = torch.Generator(device="cuda").manual_seed(3)
            b = torch.randn(50, 20, dtype=dt, device="cuda", generator=g)
            g.manual_seed(3)
            assert torch.equal(b, ref((50, 20), generator=g)) and b.shape == (50, 20)
            g.manual_seed(3)
            c = torch.empty(50, 20, dtype=dt, device="cuda").normal_(2.0, 3.0, generator=g)
            g.manual_seed(3)
            assert torch.equal(c, ref((50, 20), 2.0, 3.0, generator=g))
            g.manual_seed(3)
            c = torch.nn.init.normal_(torch.empty(1000, dtype=dt), 1.0, 2.0, generator=g)
            g.manual_seed(3)
            assert torch.equal(c, ref(1000, 1.0, 2.0, generator=g))
            r = torch.randn(8, dtype=dt, device="cuda", requires_grad=True)
            assert r.requires_grad and r.is_leaf and r.dtype == dt
            m = torch.randn_like(torch.empty(3, 5, dtype=torch.float32), dtype=dt)
            assert m.dtype == dt and m.shape == (3, 5)
        torch.manual_seed(5)
        f = torch.randn(4096, device="cuda")
        torch.manual_seed(5)
        assert f.dtype == torch.float32 and torch.equal(f, torch.randn(4096))  # float32: unchanged
        print("normal ok", in_type, cpu)
    """)
    assert "normal ok" in out


def test_reduced_precision_normal_draws_by_slices(monkeypatch):
    # a large float16/bfloat16 draw is made CHUNK elements at a time (FlagGems' DeepSeek-V3 MoE weights, 14 GiB in
    # float16, took a 28 GiB float32 tensor at once): the values, and the generator's state after, must be those
    # of one float32 draw of the whole rounded once; slices cut at multiples of 16, the tail (16 or more) last
    import torch
    from tc5 import device_random as dr
    for chunk in (64, 1024):
        monkeypatch.setattr(dr, "CHUNK", chunk)
        assert all(s % 16 == 0 for s in dr._chunks(5 * chunk + 7)[:-1]) and dr._chunks(chunk + 15)[-1] == chunk + 15
        for n in (chunk + 1, chunk + 15, chunk + 16, chunk + 17, 2 * chunk, 3 * chunk + 5, 7 * chunk + 100):
            for dt in (torch.float16, torch.bfloat16):
                g1, g2 = torch.Generator().manual_seed(n), torch.Generator().manual_seed(n)
                whole = torch.empty(n).normal_(0.5, 2.0, generator=g1).to(dt)
                t = dr.fill_as_cuda(torch.empty(n, dtype=dt), 0.5, 2.0, g2)
                assert torch.equal(whole.view(torch.int16), t.view(torch.int16)), (chunk, n, dt)
                assert torch.equal(g1.get_state(), g2.get_state())
        f32 = {"dtype": torch.float32, "device": "cpu"}
        for shape in ((3, chunk + 7), (2 * chunk + 3,)):
            torch.manual_seed(5)
            a = torch.randn(*shape).to(torch.float16)
            torch.manual_seed(5)
            assert torch.equal(a.view(torch.int16), dr._large(torch.randn, shape, dict(f32), torch.float16).view(torch.int16))
            torch.manual_seed(6)
            a = torch.normal(1.5, 0.5, shape).to(torch.bfloat16)
            torch.manual_seed(6)
            b = dr._large(torch.normal, (1.5,), dict(f32, std=0.5, size=shape), torch.bfloat16)
            assert torch.equal(a.view(torch.int16), b.view(torch.int16)) and b.shape == shape
            g = torch.Generator().manual_seed(9)
            a = torch.randn(shape, generator=g).to(torch.float16)
            g.manual_seed(9)
            b = dr._large(torch.randn, (shape,), dict(f32, generator=g), torch.float16)
            assert torch.equal(a.view(torch.int16), b.view(torch.int16))
        assert dr._large(torch.randn, (chunk,), dict(f32), torch.float16) is None  # CHUNK or fewer: one draw, as before
        non_contiguous = torch.empty(chunk + 40, 2, dtype=torch.float16).t()  # one draw into a float32 copy
        g1, g2 = torch.Generator().manual_seed(1), torch.Generator().manual_seed(1)
        whole = torch.empty(non_contiguous.shape).normal_(generator=g1).to(torch.float16)
        assert torch.equal(whole, dr.fill_as_cuda(non_contiguous, generator=g2))


def test_reduced_precision_normal_steps_aside_for_a_library():
    # where a library registered CUDA's randn / normal_ (FlagGems does), the draw is its kernel's, as on a GPU
    out = run("""
        lib = torch.library.Library("aten", "IMPL")
        calls = []

        def normal_(t, mean=0.0, std=1.0, *, generator=None):
            calls.append("normal_")
            return t.fill_(5.0)

        lib.impl("normal_", normal_, "CUDA")
        x = torch.empty(64, dtype=torch.float16, device="cuda").normal_()
        assert calls == ["normal_"] and bool((x == 5).all()), calls
        print("aside ok")
    """)
    assert "aside ok" in out
