"""Which side is off in Liger-Kernel 0.8.5's bf16 modulated-RMSNorm failures on tc5
(test_correctness[...-none-dtype1-...-5-123-123]): Liger's kernels on tc5, or the reference,
which under the torch.cuda shim runs PyTorch's CPU bf16 kernels? Both against the reference
module in float64 on the same inputs, each gradient's largest error and its count outside the
test's tolerance (0.2 + 2%). Run from the extracted sdist with liger_conftest.py copied there as
conftest.py (issue 50; docs/fidelity.md quotes it); natively on a GPU with an empty conftest.py there
(l50g: Liger on the GPU against CUDA's bf16 reference):
    PYTHONPATH=src:. TC5_CLI=build/tc5 python probe_liger_mrms.py batch     (or row; a second
    argument `noshift`: the has_shift=False cases, no shift; `noaffine` (u50): the
    elementwise_affine=False cases, no weight)"""
import conftest  # noqa: F401  (the door and the shim; natively, on a GPU: an empty conftest.py)
import hashlib
import os
import sys
import torch
from test.utils import set_seed
from test.transformers.test_modulated_rms_norm import ModulatedRMSNormReference, _make_modulation
from liger_kernel.transformers.modulated_rms_norm import LigerModulatedRMSNorm

scale_mode = sys.argv[1]
has_shift = "noshift" not in sys.argv[2:]
affine = "noaffine" not in sys.argv[2:]
ON, REF = ("tc5", "CPU") if "tc5" in sys.modules else ("GPU", "CUDA")  # where Liger's kernel and the reference run
set_seed(42)
shape, hd, dtype = (5, 123, 123), 123, torch.bfloat16
x = torch.randn(shape, device="cuda", dtype=dtype)
scale, shift = _make_modulation(shape, hd, scale_mode, dtype)
grad = torch.randn(shape, device="cuda", dtype=dtype)
if os.environ.get("TC5_PROBE_INPUTS"):
    # another machine's draws (PyTorch's CPU generator changed between 2.11 and 2.15: the H200's
    # torch 2.11 and this machine's 2.15 draw other bf16 numbers from the same seed): an .npz of
    # x, scale, shift, grad as int16 views, which torch 2.9-2.11's draws give (l50g)
    import numpy as np
    z = np.load(os.environ["TC5_PROBE_INPUTS"])
    x, scale, shift, grad = (torch.from_numpy(z[n]).view(dtype).to("cuda") for n in ("x", "scale", "shift", "grad"))
print("inputs: sha256 " + " ".join(f"{n} {hashlib.sha256(t.cpu().reshape(-1).view(torch.uint8).numpy().tobytes()).hexdigest()[:16]}"
                                   for n, t in (("x", x), ("scale", scale), ("shift", shift), ("grad", grad))))


def run(mod, dt):
    h = x.to(dt).clone().requires_grad_(True)
    s = scale.to(dt).clone().requires_grad_(True)
    b = shift.to(dt).clone().requires_grad_(True) if has_shift else None
    out = mod(h, s, b)
    out.backward(grad.to(dt))
    got = {"out": out, "x.grad": h.grad, "scale.grad": s.grad}
    if affine:
        got["weight.grad"] = mod.weight.grad
    if has_shift:
        got["shift.grad"] = b.grad
    return got


ref = ModulatedRMSNormReference(hidden_size=hd, offset=0.0, casting_mode="none",
                                elementwise_affine=affine).to("cuda").to(dtype)
lig = LigerModulatedRMSNorm(hidden_size=hd, offset=0.0, casting_mode="none", in_place=False,
                            elementwise_affine=affine).to("cuda").to(dtype)
exact = ModulatedRMSNormReference(hidden_size=hd, offset=0.0, casting_mode="none",
                                  elementwise_affine=affine).to("cuda").to(torch.float64)
r, l, e = run(ref, dtype), run(lig, dtype), run(exact, torch.float64)
for k in r:
    t = e[k].double()
    er, el = (r[k].double() - t).abs(), (l[k].double() - t).abs()
    lim = 0.2 + 0.02 * t.abs()
    h = hashlib.sha256(l[k].detach().cpu().reshape(-1).view(torch.uint8).numpy().tobytes()).hexdigest()[:16]
    print(f"{k:12s} max|bf16 {REF} ref - f64| {er.max():.4f} (over tol {(er > lim).sum().item()})   "
          f"max|Liger on {ON} - f64| {el.max():.4f} (over tol {(el > lim).sum().item()})   "
          f"max|ref - Liger| {(r[k].double() - l[k].double()).abs().max():.4f}   "
          f"test's allclose(ref, Liger) over {((r[k].double() - l[k].double()).abs() > 0.2 + 0.02 * l[k].double().abs()).sum().item()}"
          f"   sha256(Liger) {h}")
