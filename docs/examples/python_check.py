#!/usr/bin/env python3
"""A user's check (docs/python.md): what Blackwell's MMA arithmetic does to a
GEMM, compared with the exact float64 product of the same (rounded) inputs.
Not a test of equality: the deviations show the model's per-step truncation
(products of 16 bf16 / 32 fp8 terms aligned at the step's largest exponent,
truncated to F fraction bits, one rounding per step)."""
import ml_dtypes
import numpy as np

import tc5

rng = np.random.default_rng(2026)
M = N = 256
for name, dtype, kind, K in [("bf16", ml_dtypes.bfloat16, "f16", 4096), ("e4m3", ml_dtypes.float8_e4m3fn, "f8f6f4", 4096)]:
    a = rng.standard_normal((M, K)).astype(dtype)
    b = rng.standard_normal((K, N)).astype(dtype)
    exact = a.astype(np.float64) @ b.astype(np.float64)           # the inputs' exact product
    d = tc5.gemm(a, b, kind=kind).astype(np.float64)                 # Blackwell (f32 out)
    h = tc5.gemm(a, b, kind=kind, model="hopper").astype(np.float64)  # Hopper's wgmma
    f32 = (a.astype(np.float32) @ b.astype(np.float32)).astype(np.float64)  # NumPy's float32 GEMM
    scale = np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64))  # sum |a||b|: the error scale
    for label, x in [("blackwell", d), ("hopper", h), ("numpy f32", f32)]:
        rel = np.abs(x - exact) / scale
        bias = np.mean((x - exact) / scale)
        print(f"{name} K={K} {label:10s} max |err|/sum|ab| {rel.max():.2e}  mean {rel.mean():.2e}  "
              f"mean signed {bias:+.2e}")
