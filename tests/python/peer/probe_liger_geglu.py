"""Which side is off in the whole-suite run's failure of Liger-Kernel 0.8.5's
test_geglu.py::test_correctness[dtype1-0.01-0.01-2-2048-2048-4096] (bf16, allclose atol 1e-2, rtol 1e-2; w50):
LigerGEGLUMLP on tc5 (its GELU-tanh-times-up kernel; the projections are PyTorch's matmuls), or transformers'
LlamaMLP (PyTorch's CPU bf16 kernels under the torch.cuda shim)? Each gradient and the output against LlamaMLP
computed in float64 on the same bf16 inputs and weights (the test's draws: its autouse set_seed(42), its order).
Run from the extracted sdist with liger_conftest.py copied there as conftest.py (as probe_liger_ce.py):
    PYTHONPATH=src:. python probe_liger_geglu.py"""
import conftest  # noqa: F401  (the door and the shim; natively, on a GPU: an empty conftest.py)
import torch
from test.utils import set_seed
from test.transformers.test_geglu import LLAMA_CONFIG
from transformers.models.llama.modeling_llama import LlamaMLP
from liger_kernel.transformers.geglu import LigerGEGLUMLP
import sys

ON = "tc5" if "tc5" in sys.modules else "the GPU"
bsz, seq_len, hidden, inter, dtype, atol, rtol = 2, 2048, 2048, 4096, torch.bfloat16, 1e-2, 1e-2
set_seed(42)  # the suite's autouse fixture
x = torch.randn(bsz, seq_len, hidden, device="cuda", dtype=dtype)
G = torch.randn(hidden, inter, device="cuda", dtype=dtype)
U = torch.randn(hidden, inter, device="cuda", dtype=dtype)
D = torch.randn(inter, hidden, device="cuda", dtype=dtype)


def mlp(cls, dt):
    m = cls(config=LLAMA_CONFIG).to("cuda").to(dt)
    m.gate_proj.weight.data = G.T.to(dt)
    m.up_proj.weight.data = U.T.to(dt)
    m.down_proj.weight.data = D.T.to(dt)
    return m


ref, lig, ex = mlp(LlamaMLP, dtype), mlp(LigerGEGLUMLP, dtype), mlp(LlamaMLP, torch.float64)
xs = [x.clone().to(dt).requires_grad_(True) for dt in (dtype, dtype, torch.float64)]
ys = [m(v) for m, v in zip((ref, lig, ex), xs)]
dy = torch.randn_like(ys[0])
for y in ys:
    y.backward(dy.to(y.dtype).clone(), retain_graph=True)
got = {"out": [y for y in ys], "gate_proj.weight.grad": [m.gate_proj.weight.grad for m in (ref, lig, ex)],
       "up_proj.weight.grad": [m.up_proj.weight.grad for m in (ref, lig, ex)],
       "down_proj.weight.grad": [m.down_proj.weight.grad for m in (ref, lig, ex)], "x.grad": [v.grad for v in xs]}
for k, (r, l, e) in got.items():
    e = e.double()
    lim = atol + rtol * e.abs()
    er, el = (r.double() - e).abs(), (l.double() - e).abs()
    print(f"{k:22s} test's allclose(ref, Liger) {torch.allclose(r, l, atol=atol, rtol=rtol)}; outside the test's "
          f"tolerance of float64: reference (CPU bf16) {(er > lim).sum().item()}, Liger on {ON} {(el > lim).sum().item()}"
          f"; max |err| {er.max().item():.4g} / {el.max().item():.4g}")
