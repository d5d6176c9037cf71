#!/usr/bin/env python3
"""Compiles Triton's block-scaled matmul (tl.dot_scaled, MX formats: a ue8m0
scale per 32 elements of K) for sm_100 and writes ds_e4m3.ptx (MXFP8: Triton
emits tcgen05.mma.kind::mxf8f6f4.block_scale with A in Tensor Memory) and
ds_e2m1.ptx (MXFP4: .kind::mxf4.block_scale, two fp4 a byte) beside this
file; tests/ptx/triton_scaled.sh runs them in tc5 and compares with tc5 gemm.
Arguments: a (M x K, K-major), b (N x K, K-major), sa (M x K/32), sb
(N x K/32), c (M x N f32), M, N, K. 128 x 128 x 128 tiles, 4 warps, 2 stages.
usage: python3 gen_triton_scaled.py   (needs pip install triton; no GPU)"""
import os
import triton, triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

@triton.jit
def mm_scaled(a, b, sa, sb, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, FMT: tl.constexpr):
    pm = tl.program_id(0); pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM); rn = pn * BN + tl.arange(0, BN)
    PACK: tl.constexpr = 2 if FMT == "e2m1" else 1
    rka = tl.arange(0, BK // PACK); rs = tl.arange(0, BK // 32)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a + rm[:, None] * (K // PACK) + (k // PACK + rka)[None, :])
        y = tl.load(b + rn[:, None] * (K // PACK) + (k // PACK + rka)[None, :])
        xs = tl.load(sa + rm[:, None] * (K // 32) + (k // 32 + rs)[None, :])
        ys = tl.load(sb + rn[:, None] * (K // 32) + (k // 32 + rs)[None, :])
        acc = tl.dot_scaled(x, xs, FMT, y.T, ys, FMT, acc)
    tl.store(c + rm[:, None] * N + rn[None, :], acc)

here = os.path.dirname(os.path.abspath(__file__))
for fmt in ("e4m3", "e2m1"):
    sig = {"a": "*u8", "b": "*u8", "sa": "*u8", "sb": "*u8", "c": "*fp32", "M": "i32", "N": "i32", "K": "i32"}
    src = ASTSource(fn=mm_scaled, signature=sig, constexprs={"BM": 128, "BN": 128, "BK": 128, "FMT": fmt})
    k = triton.compile(src, target=GPUTarget("cuda", 100, 32), options={"num_warps": 4, "num_stages": 2})
    with open(os.path.join(here, f"ds_{fmt}.ptx"), "w") as f:
        f.write(k.asm["ptx"])
    print(f"ds_{fmt}.ptx: shared {k.metadata.shared}")
