"""Does tc5 run Liger-Kernel 0.8.5's GEGLU kernels (_geglu_tanh_forward_kernel, _geglu_tanh_backward_kernel) as
their source says? The kernels on tc5 against the same arithmetic in PyTorch on the CPU, operation by operation
(float32 with the kernel's bf16 roundings: c = bf16(gelu_tanh(a)) * b in bf16; db = bf16(dc * bf16(gelu_tanh(a)));
da = bf16(bf16(dc * b) * (term1 + term2))), on 64 rows of 4096 at the test's magnitudes (gate, up and the upstream
gradient ~ N(0, 45^2), as x @ G with x, G ~ N(0, 1) and 2048 terms give): bit-equal elements, and the largest
difference in bf16 steps (libdevice's tanh and PyTorch's may differ in their last float32 bit; issue 50, u50).
    PYTHONPATH=src:. python probe_liger_geglu_kernel.py   (from the extracted sdist, liger_conftest.py as conftest.py)"""
import conftest  # noqa: F401
import torch
from liger_kernel.ops.geglu import geglu_backward, geglu_forward

torch.manual_seed(0)
R, N, s = 64, 4096, 45.0
a = (torch.randn(R, N) * s).to(torch.bfloat16).to("cuda")
b = (torch.randn(R, N) * s).to(torch.bfloat16).to("cuda")
dc = (torch.randn(R, N) * s).to(torch.bfloat16).to("cuda")
_, _, c = geglu_forward(a.clone(), b.clone())
da, db = geglu_backward(a.clone(), b.clone(), dc.clone())
k = 0.7978845608028654
a32 = a.float()
t = torch.tanh(k * (a32 + 0.044715 * a32 * a32 * a32))
g = 0.5 * a32 * (1 + t)
c_ref = g.to(torch.bfloat16) * b
gb = g.to(torch.bfloat16).float()
db_ref = (dc.float() * gb).to(torch.bfloat16)
term = 0.5 * (1 + t) + 0.5 * a32 * (1 - t * t) * (k * (1 + 3 * 0.044715 * a32 * a32))
da_ref = ((dc * b).float() * term).to(torch.bfloat16)


def steps(x, y):
    xi, yi = x.view(torch.int16).int(), y.view(torch.int16).int()
    return (xi - yi).abs().max().item()


for name, got, ref in (("c (forward)", c, c_ref), ("da", da, da_ref), ("db", db, db_ref)):
    eq = (got.view(torch.int16) == ref.view(torch.int16)).sum().item()
    print(f"{name:12s} bit-equal {eq} of {got.numel()}; largest difference {steps(got, ref)} bf16 step(s)")
