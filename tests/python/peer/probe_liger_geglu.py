"""Which side is off in Liger-Kernel 0.8.5's bf16 GEGLU failure on tc5
(test_geglu.py::test_correctness[dtype1-0.01-0.01-2-2048-2048-4096]: the gate projection's weight
gradient allclose): LigerGEGLUMLP (its gelu-times-up kernels on tc5, PyTorch's linears) or the
reference (transformers' LlamaMLP in bf16, under the torch.cuda shim PyTorch's CPU kernels)? Every
compared quantity against the same module in float64 on the same bf16 inputs and weights, counted
outside the test's own tolerance (allclose: atol 1e-2, rtol 1e-2, relative to the float64 value). The
test's inputs: the suite's autouse set_seed(42), its draws in its order. Run from the extracted sdist
with liger_conftest.py copied there as conftest.py (issue 50, u50):
    PYTHONPATH=src:. python probe_liger_geglu.py [BSZ SEQ HIDDEN INTER]   (default 2 2048 2048 4096)"""
import conftest  # noqa: F401  (the door and the shim; natively, on a GPU: an empty conftest.py)
import hashlib
import sys
import torch
from transformers.models.llama.modeling_llama import LlamaMLP
from test.utils import set_seed
from test.transformers.test_geglu import LLAMA_CONFIG
from liger_kernel.transformers.geglu import LigerGEGLUMLP

bsz, seq, hid, inter = (int(a) for a in sys.argv[1:5]) if len(sys.argv) >= 5 else (2, 2048, 2048, 4096)
ON, REF = ("tc5", "CPU") if "tc5" in sys.modules else ("the GPU", "CUDA")
dtype, atol, rtol = torch.bfloat16, 1e-2, 1e-2


def sha(t):
    return hashlib.sha256(t.detach().cpu().reshape(-1).view(torch.uint8).numpy().tobytes()).hexdigest()[:16]


set_seed(42)
inp = torch.randn(bsz, seq, hid, device="cuda", dtype=dtype)
G = torch.randn(hid, inter, device="cuda", dtype=dtype)
U = torch.randn(hid, inter, device="cuda", dtype=dtype)
D = torch.randn(inter, hid, device="cuda", dtype=dtype)


def mlp(cls, dt):
    m = cls(config=LLAMA_CONFIG).to("cuda").to(dt)
    m.gate_proj.weight.data = G.T.to(dt)
    m.up_proj.weight.data = U.T.to(dt)
    m.down_proj.weight.data = D.T.to(dt)
    return m


ref, lig = mlp(LlamaMLP, dtype), mlp(LigerGEGLUMLP, dtype)
x1, x2 = inp.clone().requires_grad_(True), inp.clone().requires_grad_(True)
y1, y2 = ref(x1), lig(x2)
dy = torch.randn_like(y1)  # drawn after the forward, as the test draws it
print(f"inputs: sha256 x {sha(inp)} G {sha(G)} U {sha(U)} D {sha(D)} dy {sha(dy)}")
y1.backward(dy.clone(), retain_graph=True)
y2.backward(dy.clone(), retain_graph=True)
ex = mlp(LlamaMLP, torch.float64)
x3 = inp.double().requires_grad_(True)
y3 = ex(x3)
y3.backward(dy.double())
for name, r, l, e in (("out", y1, y2, y3),
                      ("gate_proj.weight.grad", ref.gate_proj.weight.grad, lig.gate_proj.weight.grad,
                       ex.gate_proj.weight.grad),
                      ("up_proj.weight.grad", ref.up_proj.weight.grad, lig.up_proj.weight.grad, ex.up_proj.weight.grad),
                      ("down_proj.weight.grad", ref.down_proj.weight.grad, lig.down_proj.weight.grad,
                       ex.down_proj.weight.grad),
                      ("x.grad", x1.grad, x2.grad, x3.grad)):
    e = e.detach()
    lim = atol + rtol * e.abs()
    er, el = (r.detach().double() - e).abs(), (l.detach().double() - e).abs()
    both = (r.detach().double() - l.detach().double()).abs() > atol + rtol * l.detach().double().abs()
    print(f"{name:22s} bf16 {REF} reference: over tol {(er > lim).sum().item()}   Liger on {ON}: over tol "
          f"{(el > lim).sum().item()}   test's allclose(reference, Liger) over {both.sum().item()} of {e.numel()}"
          f"   sha256(Liger) {sha(l)}")
    if both.any():
        i = both.reshape(-1).nonzero()[0].item()
        print(f"  first element the test rejects [{i}]: float64 {e.reshape(-1)[i].item():.6g}  reference "
              f"{r.reshape(-1)[i].item():.6g}  Liger {l.reshape(-1)[i].item():.6g}")
