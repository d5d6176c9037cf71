#!/usr/bin/env python3
"""bench_device: what tc5.device costs (issue 50). A "cuda" tensor under the torch.cuda shim
is a CPU tensor that the shim's TorchFunctionMode and tc5.device's TorchDispatchMode see on
every operator. The same tensors and work in one process, interleaved round by round: plain
PyTorch (torch function and dispatch modes off: the CPU as it is) against the shim (TC5_TRITON_TORCH_CUDA=1), the
median of ROUNDS each; then again once a library has registered a CUDA kernel (a dummy
torch.library CUDA kernel for aten::sinc), which enters tc5.device's dispatch mode (every
operator then takes a Python call more). Work: small elementwise operators (where a Python call
per operator shows most), a 256-wide MLP step with backward (a training step's mix), and a
device query (x.device, answered by the mode).
usage: bench/bench_device.py [ROUNDS]   (with the tc5 package, torch and triton installed)"""
import os
import statistics
import sys
import time

import torch
from torch.utils._python_dispatch import _disable_current_modes

rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 15


def small(x):
    for _ in range(200):
        x = x * 1.0001 + 0.5
    return x


def mlp(x, w1, w2):
    w1.grad = w2.grad = None
    y = torch.relu(x @ w1) @ w2
    y.square().mean().backward()
    return y


def query(x):
    n = 0
    for _ in range(2000):
        n += x.device.type == "cuda"
    return n


os.environ["TC5_TRITON_TORCH_CUDA"] = "1"
import tc5.triton  # noqa: E402

tc5.triton.activate()
torch.manual_seed(0)
x = torch.randn(64, device="cuda")
a = torch.randn(128, 256, device="cuda")
w1 = torch.randn(256, 256, device="cuda", requires_grad=True)
w2 = torch.randn(256, 256, device="cuda", requires_grad=True)
assert x.is_cuda
WORK = (("200 elementwise ops (64 elements)", small, (x,)), ("MLP step 128x256x256, backward", mlp, (a, w1, w2)),
        ("2000 x.device queries", query, (x,)))


def once(f, args, plain):
    t0 = time.perf_counter()
    if plain:
        with torch._C.DisableTorchFunction(), _disable_current_modes():
            f(*args)
    else:
        f(*args)
    return time.perf_counter() - t0


def compare(label):
    print(f"{label}\n{'work':36s} {'CPU ms':>9s} {'shim ms':>9s} {'ratio':>7s}")
    for name, f, args in WORK:
        tp, ts = [], []
        for _ in range(rounds):
            tp.append(once(f, args, True))
            ts.append(once(f, args, False))
        p, q = statistics.median(tp), statistics.median(ts)
        print(f"{name:36s} {p * 1e3:9.3f} {q * 1e3:9.3f} {q / p:6.2f}x")


compare("the shim (no library CUDA kernel registered: tc5.device's dispatch mode not entered)")
lib = torch.library.Library("aten", "IMPL")
lib.impl("sinc", lambda t: t, "CUDA")
assert x.is_cuda  # the shim's next call enters the dispatch mode
compare("the shim with tc5.device's dispatch mode (a library registered a CUDA kernel)")
