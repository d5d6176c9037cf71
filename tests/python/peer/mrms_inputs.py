"""probe_liger_mrms.py's inputs (x, scale, shift, grad of test_modulated_rms_norm.py::test_correctness
at 5 x 123 x 123 bf16, from set_seed(42)) as THIS PyTorch's CPU generator draws them, saved as int16 views
for the probe's TC5_PROBE_INPUTS (issue 50, l50g). PyTorch's CPU bf16 draws changed between 2.11 and
2.15: the H200's torch 2.11 (native_conftest.py's CPU draws) and torch 2.9 give one set, 2.15 another;
run it with a 2.9-2.11 torch (needs only torch and numpy) to give tc5's run the H200's inputs:
    python mrms_inputs.py batch|row OUT.npz"""
import hashlib, sys, numpy as np, torch
mode = sys.argv[1]
torch.manual_seed(42)
shape, hd = (5, 123, 123), 123
x = torch.randn(shape, dtype=torch.bfloat16)
ms = {"batch": (5, hd), "row": shape}[mode]
scale = torch.randn(ms, dtype=torch.bfloat16) * 0.1
shift = torch.randn(ms, dtype=torch.bfloat16) * 0.1
grad = torch.randn(shape, dtype=torch.bfloat16)
d = {n: t.view(torch.int16).numpy() for n, t in (("x", x), ("scale", scale), ("shift", shift), ("grad", grad))}
np.savez(sys.argv[2], **d)
print(torch.__version__, " ".join(f"{n} {hashlib.sha256(t.reshape(-1).view(torch.uint8).numpy().tobytes()).hexdigest()[:16]}" for n, t in (("x", x), ("scale", scale), ("shift", shift), ("grad", grad))))
