"""Which side is off in the whole-suite run's failure of Liger-Kernel 0.8.5's
test_group_norm.py::test_liger_group_norm[dtype0-0.0001-0.0001-16-48-12-8192] ("Bias grads different"; float32,
allclose atol 1e-4, rtol 1e-4; w50): Liger's GroupNorm on tc5, or torch.nn.GroupNorm (PyTorch's CPU kernels under
the torch.cuda shim)? Each gradient against the same module computed in float64 on the same inputs (the test's
torch.manual_seed(0) and draws in its order). Run from the extracted sdist with liger_conftest.py copied there as
conftest.py (as probe_liger_ce.py):
    PYTHONPATH=src:. python probe_liger_gn.py [B C G H]     (default 16 48 12 8192)"""
import conftest  # noqa: F401  (the door and the shim; natively, on a GPU: an empty conftest.py)
import sys
import torch
from liger_kernel.transformers.group_norm import LigerGroupNorm

B, C, G, H = (int(v) for v in (sys.argv[1:5] if len(sys.argv) > 4 else (16, 48, 12, 8192)))
ON = "tc5" if "tc5" in sys.modules else "the GPU"
atol = rtol = 1e-4
torch.manual_seed(0)
x = torch.randn(B, C, H, dtype=torch.float32, device="cuda")
lx, tx, ex = (x.clone().detach().to(dt).requires_grad_(True) for dt in (torch.float32, torch.float32, torch.float64))
lig = LigerGroupNorm(C, G, eps=1e-6).to(torch.float32).to("cuda")
ref = torch.nn.GroupNorm(num_channels=C, num_groups=G, eps=1e-6).to(torch.float32).to("cuda")
exact = torch.nn.GroupNorm(num_channels=C, num_groups=G, eps=1e-6).to(torch.float64).to("cuda")
with torch.no_grad():
    ref.weight.copy_(lig.weight)
    ref.bias.copy_(lig.bias)
    exact.weight.copy_(lig.weight.double())
    exact.bias.copy_(lig.bias.double())
lo, to = lig(lx), ref(tx)
g = torch.randn_like(tx)
lo.backward(g, retain_graph=True)
to.backward(g, retain_graph=True)
exact(ex).backward(g.double())
print(f"Liger vs reference allclose: x.grad {torch.allclose(lx.grad, tx.grad, atol=atol, rtol=rtol)}, "
      f"bias.grad {torch.allclose(lig.bias.grad, ref.bias.grad, atol=atol, rtol=rtol)}, "
      f"weight.grad {torch.allclose(lig.weight.grad, ref.weight.grad, atol=atol, rtol=rtol)}")
for name, l, r, e in (("x.grad", lx.grad, tx.grad, ex.grad), ("bias.grad", lig.bias.grad, ref.bias.grad, exact.bias.grad),
                      ("weight.grad", lig.weight.grad, ref.weight.grad, exact.weight.grad)):
    lim = atol + rtol * e.abs()
    el, er = (l.double() - e).abs(), (r.double() - e).abs()
    print(f"{name:11s} Liger on {ON}: max |err| {el.max().item():.4g}, outside the test's tolerance of float64 "
          f"{(el > lim).sum().item()};  reference (CPU float32): max |err| {er.max().item():.4g}, outside "
          f"{(er > lim).sum().item()}")
