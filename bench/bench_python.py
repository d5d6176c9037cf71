#!/usr/bin/env python3
"""bench_python: tc5.gemm on 512^3 bf16 ml_dtypes arrays against the bare C call
(tc5._tc5.gemm on codes prepared beforehand: tc5_gemm itself), in the same
process, interleaved, the median of ROUNDS of each (issue 20: at most 1.10x).
usage: bench/bench_python.py [N] [ROUNDS]   (with the tc5 package installed)"""
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pyfind  # noqa: E402
pyfind.need("numpy", "ml_dtypes", "tc5")  # the tests' Python (scripts/pyenv.sh; tc5: scripts/test_python.sh)
import ml_dtypes  # noqa: E402
import numpy as np

import tc5

n = int(sys.argv[1]) if len(sys.argv) > 1 else 512
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 15
rng = np.random.default_rng(0)
a = rng.standard_normal((n, n)).astype(ml_dtypes.bfloat16)
b = rng.standard_normal((n, n)).astype(ml_dtypes.bfloat16)
A = a.view(np.uint16).astype(np.uint32)
B = b.view(np.uint16).astype(np.uint32)
D = np.zeros((n, n), dtype=np.uint32)
py, c = [], []
for r in range(rounds + 1):
    t0 = time.perf_counter()
    d = tc5.gemm(a, b, kind="f16")
    t1 = time.perf_counter()
    tc5._tc5.gemm("blackwell", "f16", "bf16", "bf16", "f32", None, 0, False, n, n, n, A, B, None, None, D,
                  False, False, False, 0, 0)
    t2 = time.perf_counter()
    if r:  # the first round warms both up
        py.append(t1 - t0)
        c.append(t2 - t1)
assert np.array_equal(d.view(np.uint32), D)
mp, mc = statistics.median(py), statistics.median(c)
print(f"{n}^3 bf16 -> f32, all cores, median of {rounds} interleaved rounds")
print(f"  tc5_gemm (the C call)   {mc * 1e3:8.2f} ms")
print(f"  tc5.gemm (Python)       {mp * 1e3:8.2f} ms")
print(f"  tc5.gemm / C            {mp / mc:8.3f}x   (issue 20: at most 1.10x); results bit-identical")
