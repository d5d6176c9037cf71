"""Gluon's tutorial 07 pipelined matmul (matmul_pipelined_kernel, the kernel
its benchmark loop times) as a tc5.sweep kernel (docs/sweeps.md).

The tutorial is not committed here (Triton's, MIT licensed): it is read from
a checkout, $TC5_GLUON_TUTORIALS (a python/tutorials/gluon directory, e.g.
facebookexperimental/triton's), copied with the census generator's API
renames (tests/data/ptx/census/gen_triton_corpus.py RENAMES: Triton 3.9's
Gluon names async_load/async_store) and imported; nothing else changes.
The kernel's launch is the tutorial's own matmul_pipelined() but for its
tensors: NumPy arrays through tc5.triton.tensor. The tutorials import
PyTorch and ask torch.cuda for the GPU's capability: the door's torch.cuda
shim answers (a B200).
"""
import hashlib
import importlib
import importlib.util
import os
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
_t07 = None


def tutorial():
    """the tutorial's module (patched copy, imported once per process)"""
    global _t07
    if _t07 is not None:
        return _t07
    src = os.environ.get("TC5_GLUON_TUTORIALS")
    if not src or not os.path.exists(os.path.join(src, "07-persistence.py")):
        raise FileNotFoundError("TC5_GLUON_TUTORIALS names no directory holding Gluon's 07-persistence.py "
                                f"(it is {src!r})")
    spec = importlib.util.spec_from_file_location(
        "gen_triton_corpus", os.path.join(ROOT, "tests", "data", "ptx", "census", "gen_triton_corpus.py"))
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    texts = {f: open(os.path.join(src, f)).read() for f in ("05-wgmma.py", "07-persistence.py")}
    key = hashlib.sha256("".join(texts.values()).encode()).hexdigest()[:12]
    out = os.path.join(tempfile.gettempdir(), f"tc5-gluon07-{key}")
    os.makedirs(out, exist_ok=True)
    for f, text in texts.items():
        for pat, old, new, _why in gen.RENAMES:
            import re
            if re.search(pat, "gluon/" + f):
                text = text.replace(old, new)
        path = os.path.join(out, f)
        if not os.path.exists(path) or open(path).read() != text:
            with open(path + f".{os.getpid()}", "w") as fh:
                fh.write(text)
            os.replace(path + f".{os.getpid()}", path)
    if out not in sys.path:
        sys.path.insert(0, out)
    import tc5.triton
    tc5.triton.activate()
    tc5.triton.torch_cuda_shim()  # the tutorials ask torch.cuda for the capability at import (a B200's here)
    _t07 = importlib.import_module("07-persistence")
    return _t07


def inputs(shape, seed):
    rng = np.random.default_rng(seed)
    M, N, K = shape["M"], shape["N"], shape["K"]
    a = rng.standard_normal((M, K), dtype=np.float32).astype(np.float16)
    b = rng.standard_normal((K, N), dtype=np.float32).astype(np.float16)
    return {"A": a, "B": b, "C": np.zeros((M, N), np.float16)}


def launch(arrays, shape, BLOCK_M, BLOCK_N, BLOCK_K, num_buffers, num_warps):
    import triton
    import tc5.triton
    from triton.experimental import gluon
    from triton.experimental.gluon import language as gl
    from triton.experimental.gluon.nvidia.hopper import TensorDescriptor
    t = tutorial()
    A, B, C = (tc5.triton.tensor(arrays[k]) for k in "ABC")
    M, N = arrays["C"].shape
    a_layout = gl.NVMMASharedLayout.get_default_for([BLOCK_M, BLOCK_K], gl.float16)
    b_layout = gl.NVMMASharedLayout.get_default_for([BLOCK_K, BLOCK_N], gl.float16)
    c_layout = gl.NVMMASharedLayout.get_default_for([BLOCK_M, BLOCK_N], gl.float16)
    a_desc = TensorDescriptor.from_tensor(A, [BLOCK_M, BLOCK_K], a_layout)
    b_desc = TensorDescriptor.from_tensor(B, [BLOCK_K, BLOCK_N], b_layout)
    c_desc = TensorDescriptor.from_tensor(C, [BLOCK_M, BLOCK_N], c_layout)
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
    t.matmul_pipelined_kernel[grid](a_desc, b_desc, c_desc, t.MMAv5, num_buffers, num_warps=num_warps)


def reference(arrays, shape):
    """Blackwell's bits (tc5.gemm: tcgen05's arithmetic, K in 16-element steps) rounded to float16"""
    import tc5
    return {"C": tc5.gemm(arrays["A"], arrays["B"], kind="f16").astype(np.float16)}


def flops(shape):
    return 2.0 * shape["M"] * shape["N"] * shape["K"]
