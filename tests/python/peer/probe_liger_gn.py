"""Which side is off in Liger-Kernel 0.8.5's float32 group-norm failure on tc5
(test_group_norm.py::test_liger_group_norm[dtype0-0.0001-0.0001-16-48-12-8192], "Bias grads
different"): Liger's kernel on tc5 or the reference (torch.nn.GroupNorm, under the torch.cuda shim
PyTorch's CPU float32 kernels)? Each gradient (and the output) against the same quantity computed in
float64 from the same float32 inputs, counted outside the test's own tolerance (allclose: atol 1e-4,
rtol 1e-4, relative to the float64 value here). The test's inputs: its torch.manual_seed(0), its
draws in its order. Run from the extracted sdist with liger_conftest.py copied there as conftest.py
(issue 50, u50):
    PYTHONPATH=src:. python probe_liger_gn.py [B C G H]     (default 16 48 12 8192)"""
import conftest  # noqa: F401  (the door and the shim; natively, on a GPU: an empty conftest.py)
import hashlib
import sys
import torch
from liger_kernel.transformers.group_norm import LigerGroupNorm

B, C, G, H = (int(a) for a in sys.argv[1:5]) if len(sys.argv) >= 5 else (16, 48, 12, 8192)
ON, REF = ("tc5", "CPU") if "tc5" in sys.modules else ("the GPU", "CUDA")
atol = rtol = 1e-4
dtype = torch.float32


def sha(t):
    return hashlib.sha256(t.detach().cpu().reshape(-1).view(torch.uint8).numpy().tobytes()).hexdigest()[:16]


torch.manual_seed(0)
x = torch.randn(B, C, H, dtype=dtype, device="cuda")
lig = LigerGroupNorm(C, G, eps=1e-6).to(dtype).to("cuda")
ref = torch.nn.GroupNorm(num_channels=C, num_groups=G, eps=1e-6).to(dtype).to("cuda")
with torch.no_grad():
    ref.weight.copy_(lig.weight)
    ref.bias.copy_(lig.bias)
ex = torch.nn.GroupNorm(num_channels=C, num_groups=G, eps=1e-6).to(torch.float64)
with torch.no_grad():
    ex.weight.copy_(lig.weight.double().cpu())
    ex.bias.copy_(lig.bias.double().cpu())
xl, xr = x.clone().requires_grad_(True), x.clone().requires_grad_(True)
xe = x.double().cpu().requires_grad_(True)
yl, yr = lig(xl), ref(xr)
ye = ex(xe)
dy = torch.randn_like(xr)  # the test draws it after the forward's allclose
print(f"inputs: sha256 x {sha(x)} dy {sha(dy)}")
yl.backward(dy, retain_graph=True)
yr.backward(dy, retain_graph=True)
ye.backward(dy.double().cpu())
for name, l, r, e in (("out", yl, yr, ye), ("x.grad", xl.grad, xr.grad, xe.grad),
                      ("bias.grad", lig.bias.grad, ref.bias.grad, ex.bias.grad),
                      ("weight.grad", lig.weight.grad, ref.weight.grad, ex.weight.grad)):
    e = e.detach().double()
    lim = atol + rtol * e.abs()
    el, er = (l.detach().double().cpu() - e).abs(), (r.detach().double().cpu() - e).abs()
    both = (r.detach().double() - l.detach().double()).abs() > atol + rtol * l.detach().double().abs()
    print(f"{name:11s} float32 {REF} reference: over tol {(er > lim).sum().item()} (max|err| {er.max():.3g})   "
          f"Liger on {ON}: over tol {(el > lim).sum().item()} (max|err| {el.max():.3g})   "
          f"test's allclose(Liger, reference) over {both.sum().item()}   sha256(Liger) {sha(l)}")
    if name == "bias.grad":
        i = int((er / lim).argmax())  # the reference's element furthest outside (or nearest) the tolerance
        print(f"  reference's worst element against the tolerance [{i}]: float64 {e[i].item():.9g}  reference {r[i].item():.9g}  "
              f"Liger {l[i].item():.9g}  tolerance {lim[i].item():.3g}")
