"""Which side is off in the whole-suite run's failure of Liger-Kernel 0.8.5's
test_cross_entropy.py::test_correctness_with_forward_only[dtype1-1.0-0.01-0.01-mean-2-4096-32000--100] (float16,
the loss under no_grad, allclose atol 1e-2, rtol 1e-2; w50): Liger's loss on tc5, or the reference's
(torch.nn.CrossEntropyLoss, PyTorch's CPU float16 kernels under the torch.cuda shim)? Both against the loss of
the same float16 logits computed in float64 (the test's inputs: its torch.manual_seed(0), its draws in its order).
Run from the extracted sdist with liger_conftest.py copied there as conftest.py (as probe_liger_ce.py):
    PYTHONPATH=src:. python probe_liger_ce_fwd.py [REDUCTION B T DTYPE]     (default mean 2 4096 float16)"""
import conftest  # noqa: F401  (the door and the shim; natively, on a GPU: an empty conftest.py)
import sys
import torch
from torch.nn import CrossEntropyLoss
from liger_kernel.transformers.cross_entropy import LigerCrossEntropyLoss
from test.utils import set_seed

red, B, T, dt = (sys.argv[1:] + ["mean", "2", "4096", "float16"][len(sys.argv) - 1:])[:4]
B, T, V, dtype, ign = int(B), int(T), 32000, getattr(torch, dt), -100
ON = "tc5" if "tc5" in sys.modules else "the GPU"
set_seed(42)  # the suite's autouse fixture
liger = LigerCrossEntropyLoss(ignore_index=ign, reduction=red)
torch.manual_seed(0)  # _test_correctness_with_forward_only
torch_ce = CrossEntropyLoss(reduction=red)
x = torch.randn(B * T, V, device="cuda", dtype=dtype)
target = torch.randint(0, V, (B * T,), device="cuda", dtype=torch.long)
with torch.no_grad():
    out_ref, out_lig = torch_ce(x.clone(), target), liger(x.clone(), target)
    nll = torch.logsumexp(x.double(), -1) - x.double().gather(1, target.unsqueeze(1)).squeeze(1)
exact = {"mean": nll.mean(), "sum": nll.sum(), "none": nll}[red]
tol = 1e-2 + 1e-2 * exact.abs()
print(f"loss ({red}, {dt}): reference {out_ref.double().sum().item():.6f}  Liger on {ON} {out_lig.double().sum().item():.6f}"
      f"  float64 of the same logits {exact.sum().item():.6f}")
print(f"test's allclose(reference, Liger): {torch.allclose(out_ref, out_lig, atol=1e-2, rtol=1e-2)}")
for name, o in (("reference", out_ref), (f"Liger on {ON}", out_lig)):
    err = (o.double() - exact).abs()
    print(f"{name:13s} |loss - float64| max {err.max().item():.6g}; elements outside the test's tolerance of it "
          f"{(err > tol).sum().item()}")
