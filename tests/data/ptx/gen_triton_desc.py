#!/usr/bin/env python3
"""Compiles Triton's tensor-descriptor matmul (host-side descriptors:
a_desc.load / c_desc.store, which Triton lowers to TMA with 128B-swizzled
tensor maps passed by value, cp.async.bulk.tensor loads into an mbarrier
pipeline, tcgen05.mma, and a TMA store of the result) for sm_100 and writes
td_bf16.ptx and td_e4m3.ptx beside this file; tests/ptx/triton_desc.sh runs
them in tc5 with tensor maps of the same parameters and compares with
tc5 gemm. Each descriptor becomes five kernel parameters: the tensor map
(.param .align 64 .b8 [128]), the shape (2 x u32) and the strides in
elements (2 x u64). 128 x 128 tiles, BK 64 (bf16) or 128 (e4m3), 4 warps,
2 stages. td_ws_bf16.ptx is Triton's persistent, warp-specialized form of
the same matmul (tl.range(..., warp_specialize=True): a TMA warp, an MMA
warp and epilogue warps with setmaxnreg, mbarrier pipelines between them,
3 stages, 8 warps) running the tiles over NUM_SMS = 3 CTAs. td_mk_bf16.ptx
builds its descriptors in the kernel (tl.make_tensor_descriptor: each CTA
writes three tensor maps with tensormap.replace into shared memory and
copies them to its 384 bytes of global scratch with tensormap.cp_fenceproxy);
its parameters are a, b, c, M, N, K and the scratch.
usage: python3 gen_triton_desc.py (needs pip install triton; no GPU)"""
import os
import triton, triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

@triton.jit
def tile(a_desc, b_desc, c_desc, pm, pn, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = a_desc.load([pm * BM, k])
        y = b_desc.load([pn * BN, k])
        acc = tl.dot(x, y.T, acc)
    c_desc.store([pm * BM, pn * BN], acc)

@triton.jit
def mm_desc(a_desc, b_desc, c_desc, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    tile(a_desc, b_desc, c_desc, tl.program_id(0), tl.program_id(1), K, BM, BN, BK)

@triton.jit
def mm_ws(a_desc, b_desc, c_desc, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, NUM_SMS: tl.constexpr):
    start = tl.program_id(0)
    num_m = tl.cdiv(M, BM); num_n = tl.cdiv(N, BN)
    for t in tl.range(start, num_m * num_n, NUM_SMS, flatten=True, warp_specialize=True):
        tile(a_desc, b_desc, c_desc, t // num_n, t % num_n, K, BM, BN, BK)

@triton.jit
def mm_mk(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b, shape=[N, K], strides=[K, 1], block_shape=[BN, BK])
    c_desc = tl.make_tensor_descriptor(c, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    tile(a_desc, b_desc, c_desc, tl.program_id(0), tl.program_id(1), K, BM, BN, BK)

here = os.path.dirname(os.path.abspath(__file__))
for name, ty, bk in (("bf16", "bf16", 64), ("e4m3", "fp8e4nv", 128)):
    sig = {"a_desc": f"tensordesc<{ty}[128, {bk}]>", "b_desc": f"tensordesc<{ty}[128, {bk}]>",
           "c_desc": "tensordesc<fp32[128, 128]>", "M": "i32", "N": "i32", "K": "i32"}
    src = ASTSource(fn=mm_desc, signature=sig, constexprs={"BM": 128, "BN": 128, "BK": bk})
    k = triton.compile(src, target=GPUTarget("cuda", 100, 32), options={"num_warps": 4, "num_stages": 2})
    with open(os.path.join(here, f"td_{name}.ptx"), "w") as f:
        f.write(k.asm["ptx"])
    print(f"td_{name}.ptx: shared {k.metadata.shared}, tensor maps {k.metadata.tensordesc_meta}")
sig = {"a_desc": "tensordesc<bf16[128, 64]>", "b_desc": "tensordesc<bf16[128, 64]>",
       "c_desc": "tensordesc<fp32[128, 128]>", "M": "i32", "N": "i32", "K": "i32"}
src = ASTSource(fn=mm_ws, signature=sig, constexprs={"BM": 128, "BN": 128, "BK": 64, "NUM_SMS": 3})
k = triton.compile(src, target=GPUTarget("cuda", 100, 32), options={"num_warps": 4, "num_stages": 3})
with open(os.path.join(here, "td_ws_bf16.ptx"), "w") as f:
    f.write(k.asm["ptx"])
print(f"td_ws_bf16.ptx: shared {k.metadata.shared}")
sig = {"a": "*bf16", "b": "*bf16", "c": "*fp32", "M": "i32", "N": "i32", "K": "i32"}
src = ASTSource(fn=mm_mk, signature=sig, constexprs={"BM": 128, "BN": 128, "BK": 64})
k = triton.compile(src, target=GPUTarget("cuda", 100, 32), options={"num_warps": 4, "num_stages": 2})
with open(os.path.join(here, "td_mk_bf16.ptx"), "w") as f:
    f.write(k.asm["ptx"])
print(f"td_mk_bf16.ptx: shared {k.metadata.shared}, global scratch {k.metadata.global_scratch_size} a CTA")
