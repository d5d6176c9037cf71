"""Liger-Kernel 0.8.5's test_jsd.py::test_low_probability_vocab_block_is_finite and
test_fused_linear_jsd.py::test_low_probability_vocab_block_is_finite fail on tc5 with a NaN loss:
whose is it? The tests' own inputs, Liger's JSD run with its automatic choice and with each
implementation pinned (jsd_impl): the automatic choice is the CuTe DSL kernel (nvidia-cutlass-dsl
imports, capability 9.0+: preference rank 20 against Triton's 50; cuTile, rank 5, is not installed),
which computes M = beta P + (1 - beta) Q directly, so 0 * log 0 on a block where P and Q underflow
(issue 50; docs/fidelity.md quotes the output). Run from the extracted sdist with TC5_TRITON=1
TC5_TRITON_TORCH_CUDA=1 TC5_CUTE=1 (the suite's environment):
    PYTHONPATH=src python probe_liger_jsd.py"""
import torch

import tc5.triton  # noqa: F401  (the door and the shim, under the variables)
from liger_kernel.ops.fused_linear_jsd import LigerFusedLinearJSDFunction
from liger_kernel.ops.jsd import LigerJSDFunction

IMPLS = (None, "nvidia-triton", "nvidia-cutedsl")

# test_jsd.py's inputs
logits = torch.full((1, 65537), -120.0, device="cuda")
logits[:, 0] = 0.0
inp, target = logits.log_softmax(dim=-1), logits.sub(1.0).log_softmax(dim=-1)
for impl in IMPLS:
    x = inp.detach().clone().requires_grad_(True)
    out = LigerJSDFunction.apply(x, target, None, 0.5, -100, impl, None)
    out.backward()
    print(f"jsd              {impl or 'automatic':15} loss {out.item()} finite {bool(torch.isfinite(out))}")

# test_fused_linear_jsd.py's inputs (H = 4, V = 32769, the weights filled as the test fills them)
H, V = 4, 32769
sw = torch.full((V, H // 2), -120.0, device="cuda")
sw[0].zero_()
tw = torch.full((V, H), -121.0, device="cuda")
tw[0].zero_()
si = torch.zeros(1, H // 2, device="cuda")
si[:, 0] = 1.0
ti = torch.zeros(1, H, device="cuda")
ti[:, 0] = 1.0
for impl in IMPLS:
    x = si.detach().clone().requires_grad_(True)
    out = LigerFusedLinearJSDFunction.apply(x, sw, ti, tw, None, 0.5, -100, 1.0, None, impl, None)
    out.backward()
    print(f"fused linear jsd {impl or 'automatic':15} loss {out.item()} finite {bool(torch.isfinite(out))}")
