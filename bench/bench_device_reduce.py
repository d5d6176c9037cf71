#!/usr/bin/env python3
"""bench_device_reduce: what CUDA's sum costs on tc5's "cuda" device (tc5.device_reduce, issue 50). Under the
torch.cuda shim torch.sum/torch.mean of float tensors run PyTorch's CPU kernel and then tc5.device_reduce's
NumPy model of ATen's CUDA reduction, whose values replace the CPU's. The same tensors, interleaved round by
round: PyTorch's CPU sum alone (the baseline) against the model (tc5.device_reduce.cuda_reduce, the part the
shim adds), the median of ROUNDS each, and their ratio.
usage: bench/bench_device_reduce.py [ROUNDS]   (with the tc5 package, torch, numpy and ml_dtypes installed)"""
import statistics
import sys
import time

import torch

from tc5 import device_reduce as R

rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 7
g = torch.Generator().manual_seed(0)
CASES = [  # (what, shape, reduced dimensions, dtype)
    ("TVD losses, whole", (64,), (0,), torch.float32),
    ("10^7 float32, whole (split over CTAs)", (10**7,), (0,), torch.float32),
    ("10^7 bfloat16, whole", (10**7,), (0,), torch.bfloat16),
    ("4096 rows of 2441, each (vectorised rows)", (4096, 2441), (1,), torch.float32),
    ("4096 x 2441, columns (vectorised outputs)", (4096, 2441), (0,), torch.float32),
]
print(f"{'case':44s} {'CPU sum':>10s} {'model':>10s} {'ratio':>7s}")
for what, shape, dims, dt in CASES:
    x = torch.randn(shape, generator=g).to(dt)
    R.cuda_reduce(x, dims, False, dt)  # warm
    cpu, model = [], []
    for _ in range(rounds):
        t = time.perf_counter()
        x.sum(dims)
        cpu.append(time.perf_counter() - t)
        t = time.perf_counter()
        R.cuda_reduce(x, dims, False, dt)
        model.append(time.perf_counter() - t)
    c, m = statistics.median(cpu), statistics.median(model)
    print(f"{what:44s} {c * 1e3:8.2f}ms {m * 1e3:8.2f}ms {m / c:6.1f}x")
