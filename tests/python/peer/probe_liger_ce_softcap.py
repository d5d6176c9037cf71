"""Which side is off in the whole-suite run's float32 failures of Liger-Kernel 0.8.5's
test_cross_entropy.py::test_correctness_not_last_layer_with_other_params[1.0-dtype1-1e-08-1e-05-sum-IGN-LSS-LS-SOFTCAP-B-T-32000]
(float32, rtol 1e-5; w50): the input gradient of Liger's kernel on tc5, or the reference's (the test's
CrossEntropyWithZLoss on softcap * tanh(x / softcap), PyTorch's CPU float32 kernels under the torch.cuda shim)?
Both against the same composite computed in float64 by autograd (the test's inputs: its autouse set_seed(42), its
draws in its order; loss * 3, backward with the test's random upstream gradient), each side's elements outside the
test's tolerance (allclose: atol 1e-8, rtol 1e-5) of the float64 gradient. Run from the extracted sdist with
liger_conftest.py copied there as conftest.py (as probe_liger_ce.py):
    PYTHONPATH=src:. python probe_liger_ce_softcap.py IGN LSS LS SOFTCAP B T     (e.g. -100 1e-4 0.1 30.0 2 1024)"""
import conftest  # noqa: F401  (the door and the shim; natively, on a GPU: an empty conftest.py)
import hashlib
import sys
import torch
import torch.nn.functional as F
from liger_kernel.transformers.cross_entropy import LigerCrossEntropyLoss
from test.utils import set_seed
from test.transformers.test_cross_entropy import CrossEntropyWithZLoss

ign, lss, ls, softcap, B, T = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), \
    int(sys.argv[5]), int(sys.argv[6])
V, dtype, atol, rtol, reduction = 32000, torch.float32, 1e-8, 1e-5, "sum"
ON = "tc5" if "tc5" in sys.modules else "the GPU"
set_seed(42)  # the suite's autouse fixture
liger = LigerCrossEntropyLoss(reduction=reduction, ignore_index=ign, lse_square_scale=lss, label_smoothing=ls,
                              softcap=softcap)
torch_ce = CrossEntropyWithZLoss(reduction=reduction, ignore_index=ign, lse_square_scale=lss, label_smoothing=ls)
x = torch.randn(B * T, V, device="cuda", dtype=dtype)
target = torch.randint(0, V, (B * T,), device="cuda", dtype=torch.long)
n = torch.randint(1, B * T // 2, (1,)).item()
target[torch.randperm(B * T)[:n]] = ign
a = x.detach().clone().requires_grad_(True)
b = x.detach().clone().requires_grad_(True)
out_ref = torch_ce(softcap * torch.tanh(a.to(torch.float32) / softcap), target).to(dtype)
out_lig = liger(b, target)
g = torch.rand_like(out_ref)
(out_ref * 3).backward(gradient=g)
(out_lig * 3).backward(gradient=g)


def sha(t):
    return hashlib.sha256(t.detach().cpu().reshape(-1).view(torch.uint8).numpy().tobytes()).hexdigest()[:16]


# the same composite in float64 (CrossEntropyWithZLoss's forward, its float32 casts left out)
e = x.detach().double().requires_grad_(True)
logits = softcap * torch.tanh(e / softcap)
ce = F.cross_entropy(logits, target, reduction=reduction, label_smoothing=ls, ignore_index=ign)
lse = torch.logsumexp(logits, dim=-1)
z = torch.where(target != ign, lss * lse ** 2, torch.zeros((), dtype=torch.float64)).sum()
((ce + z) * 3).backward(gradient=g.double())
print(f"inputs: sha256 logits {sha(x)} target {sha(target)} upstream {g.item():.6g}")
print(f"loss: reference {out_ref.item():.9g}  Liger on {ON} {out_lig.item():.9g}  float64 {(ce + z).item():.9g}")
ex = e.grad
lim = atol + rtol * ex.abs()
print(f"gradient: reference vs Liger allclose {torch.allclose(a.grad, b.grad, atol=atol, rtol=rtol)}, elements over "
      f"the test's tolerance {((a.grad - b.grad).abs() > atol + rtol * b.grad.abs()).sum().item()}")
for name, gr in (("reference", a.grad), (f"Liger on {ON}", b.grad)):
    err = (gr.double() - ex).abs()
    print(f"{name:13s} gradient elements outside the test's tolerance of the float64 gradient: "
          f"{(err > lim).sum().item()}; largest relative error {(err / ex.abs().clamp(min=1e-30)).max().item():.4g}; "
          f"sha256 {sha(gr)}")
