"""Whose is the float32 reference's error in Liger-Kernel 0.8.5's
test_cross_entropy.py::test_correctness_not_last_layer_with_other_params[1.0-dtype1-...] (probe_liger_ce.py
params)? The test's own reference function (its CrossEntropyWithZLoss on softcap * tanh(x / softcap), the loss
times 3, a random upstream gradient) on 64 x 32,000 float32 logits, its input gradient counted outside the test's
tolerance (1e-8 + 1e-5 |exact|) of the same function differentiated in float64. `shim` imports the sdist's
conftest.py (the door and the torch.cuda shim) first, `plain` runs PyTorch's CPU kernels with no tc5 loaded
(issue 50, u50). From the extracted sdist:
    PYTHONPATH=src:. python probe_ce_label_smoothing.py shim|plain z|off SOFTCAP LABEL_SMOOTHING
(z: lse_square_scale 1e-4; off: 0)"""
import sys
if sys.argv[1] == "shim":
    import conftest  # noqa: F401
import torch
from test.transformers.test_cross_entropy import CrossEntropyWithZLoss

torch.manual_seed(1)
N, V, ign = 64, 32000, -100
zloss, cap, ls = sys.argv[2] == "z", float(sys.argv[3]), float(sys.argv[4])
lss = 1e-4 if zloss else 0.0
x = torch.randn(N, V, dtype=torch.float32)
t = torch.randint(0, V, (N,))
g = torch.rand(())
ref = CrossEntropyWithZLoss(reduction="sum", ignore_index=ign, lse_square_scale=lss, label_smoothing=ls)
a = x.clone().requires_grad_(True)
out = ref(cap * torch.tanh(a / cap), t)
(out * 3).backward(g)
xg = x.double().requires_grad_(True)
z = cap * torch.tanh(xg / cap)
ce = torch.nn.functional.cross_entropy(z, t, reduction="sum", label_smoothing=ls, ignore_index=ign)
if zloss:
    ce = ce + (lss * torch.logsumexp(z, -1) ** 2).sum()
ce.backward((3 * g).double())
e = xg.grad
err = (a.grad.double() - e).abs()
print(f"{sys.argv[1]} z-loss {zloss} softcap {cap:g} label_smoothing {ls:g}: elements outside 1e-8 + 1e-5|exact|: "
      f"{(err > 1e-8 + 1e-5 * e.abs()).sum().item()} of {e.numel()}; largest relative error "
      f"{(err / e.abs()).max().item():.4g}")
