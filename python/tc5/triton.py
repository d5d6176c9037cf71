"""tc5.triton.run: compile a @triton.jit function for Blackwell (sm_100; no GPU
needed) and run it on the CPU with tc5's PTX runner, on NumPy arrays.

    import tc5.triton
    tc5.triton.run(matmul, (M // 128, N // 128), a, b, c, M, N, K, BM=128, BN=128, BK=64)
"""
from __future__ import annotations

import ml_dtypes
import numpy as np

from . import run_ptx

# Triton's pointer element types of the array types
_TRITON = {
    np.dtype(np.float32): "fp32", np.dtype(np.float16): "fp16", np.dtype(ml_dtypes.bfloat16): "bf16",
    np.dtype(ml_dtypes.float8_e4m3fn): "fp8e4nv", np.dtype(ml_dtypes.float8_e5m2): "fp8e5",
    np.dtype(np.int8): "i8", np.dtype(np.uint8): "u8", np.dtype(np.int16): "i16", np.dtype(np.int32): "i32",
    np.dtype(np.uint32): "u32", np.dtype(np.int64): "i64", np.dtype(np.float64): "fp64",
}


def compile(fn, *args, num_warps: int = 4, num_stages: int = 2, **constexprs):
    """(PTX text, dynamic shared bytes) of fn for sm_100, its signature taken from args"""
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    names = [n for n in fn.arg_names if n not in constexprs]
    if len(names) != len(args):
        raise ValueError(f"{fn.__name__} takes {len(names)} runtime arguments ({', '.join(names)}), "
                         f"{len(args)} given")
    sig = {}
    for n, x in zip(names, args):
        if isinstance(x, np.ndarray):
            if x.dtype not in _TRITON:
                raise TypeError(f"{n}: no Triton pointer type for {x.dtype}")
            sig[n] = "*" + _TRITON[x.dtype]
        elif isinstance(x, (bool, np.bool_)):
            sig[n] = "i1"
        elif isinstance(x, (int, np.integer)):
            sig[n] = "i32" if -(2**31) <= int(x) < 2**31 else "i64"
        elif isinstance(x, float):
            sig[n] = "fp32"
        else:
            raise TypeError(f"{n}: an array or a number, not {type(x).__name__}")
    for n in constexprs:
        sig[n] = "constexpr"
    k = triton.compile(ASTSource(fn=fn, signature=sig, constexprs=constexprs), target=GPUTarget("cuda", 100, 32),
                       options={"num_warps": num_warps, "num_stages": num_stages})
    return k.asm["ptx"], k.metadata.shared


def run(fn, grid, *args, num_warps: int = 4, num_stages: int = 2, check: str = "default",
        threads: int | None = None, **constexprs):
    """Compiles fn for sm_100 and runs it with tc5.run_ptx on NumPy arrays
    (written in place). Returns the checker's findings (a list)."""
    ptx, shared = compile(fn, *args, num_warps=num_warps, num_stages=num_stages, **constexprs)
    from . import _tc5
    nparams = len(_tc5.ptx_params(ptx, fn.__name__ + ".ptx", None))
    full = list(args) + [None] * (nparams - len(args))  # Triton's own trailing pointers (scratch)
    findings, printed = run_ptx(ptx, grid, 32 * num_warps, full, shared_bytes=shared, check=check,
                                threads=threads, name=fn.__name__ + ".ptx")
    if printed:
        print(printed, end="")
    return findings
