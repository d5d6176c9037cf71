"""Which side is off in the whole-suite run's failure of Liger-Kernel 0.8.5's
test_geglu.py::test_correctness[dtype1-0.01-0.01-2-2048-2048-4096] (bf16, allclose atol 1e-2, rtol 1e-2; w50):
LigerGEGLUMLP on tc5 (its GELU-tanh-times-up kernel; the projections are PyTorch's matmuls), or transformers'
LlamaMLP (PyTorch's CPU bf16 kernels under the torch.cuda shim)? The gate projection's weight gradient (the
assertion that fails) against float64 on the same bf16 inputs and weights (the test's draws: its autouse
set_seed(42), its order), for the rows where the two disagree (computing those rows alone in float64).
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


ref, lig = mlp(LlamaMLP, dtype), mlp(LigerGEGLUMLP, dtype)
xs = [x.clone().requires_grad_(True) for _ in range(2)]
ys = [m(v) for m, v in zip((ref, lig), xs)]
dy = torch.randn_like(ys[0])
for y in ys:
    y.backward(dy.clone(), retain_graph=True)
print(f"test's allclose(ref, Liger): out {torch.allclose(ys[0], ys[1], atol=atol, rtol=rtol)}, gate_proj.weight.grad "
      f"{torch.allclose(ref.gate_proj.weight.grad, lig.gate_proj.weight.grad, atol=atol, rtol=rtol)}, up_proj.weight.grad "
      f"{torch.allclose(ref.up_proj.weight.grad, lig.up_proj.weight.grad, atol=atol, rtol=rtol)}")
# the gate projection's weight gradient in float64, for the intermediate units j where the two disagree (and 8 more):
# row j is sum over tokens of dgate[:, j] x, dgate[:, j] = (dy D^T)[:, j] * up[:, j] * gelu_tanh'(gate[:, j])
gr, gl = ref.gate_proj.weight.grad.double(), lig.gate_proj.weight.grad.double()
bad = ((gr - gl).abs() > atol + rtol * gl.abs()).any(dim=1).nonzero().flatten()
js = torch.cat([bad, torch.arange(8, device=bad.device)]).unique()
X, Gd, Ud, Dd, dY = (t.double().reshape(-1, t.shape[-1]) for t in (x, G, U, D, dy))
g = X @ Gd[:, js]
u = X @ Ud[:, js]
dh = dY @ Dd[js, :].T
c = (2 / torch.pi) ** 0.5
t = torch.tanh(c * (g + 0.044715 * g ** 3))
dgelu = 0.5 * (1 + t) + 0.5 * g * (1 - t ** 2) * c * (1 + 3 * 0.044715 * g ** 2)
exact = (dh * u * dgelu).T @ X  # rows js of the gate weight's gradient
lim = atol + rtol * exact.abs()
er, el = (gr[js] - exact).abs(), (gl[js] - exact).abs()
print(f"gate_proj.weight.grad, {len(js)} rows ({len(bad)} where the test's allclose fails): outside the test's tolerance "
      f"of float64: reference (CPU bf16) {(er > lim).sum().item()}, Liger on {ON} {(el > lim).sum().item()}; "
      f"ref vs Liger {((gr[js] - gl[js]).abs() > atol + rtol * gl[js].abs()).sum().item()}; max |err| {er.max().item():.4g} / "
      f"{el.max().item():.4g}")
