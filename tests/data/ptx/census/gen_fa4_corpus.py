#!/usr/bin/env python3
"""Compile FlashAttention-4 (PyPI flash-attn-4, written in CuTe DSL) forward and
backward kernels for sm_100a without a GPU and record their launch metadata.

  python gen_fa4_corpus.py --out OUTDIR [--only NAME ...] [--list]

Each variant runs in its own process (python -O, see below) in two phases:
  1. compile: FA4's own _flash_attn_fwd / _flash_attn_bwd run under torch's
     FakeTensorMode on fake CUDA tensors (FLASH_ATTENTION_ARCH=sm_100,
     FLASH_ATTENTION_NUM_SMS=148, CUTE_DSL_ARCH=sm_100a); cutlass.cute.compile is
     wrapped to note which PTX/MLIR each compile kept.
  2. launch: the same FA4 call again on real CPU tensors.  FA4 finds its compile
     cache filled, and calls each compiled TVM-FFI function; the wrapper hands
     the CPU tensors over as DLPack tensors that say "cuda:0", and the host code
     runs against cute_runtime_shim.c (CUTE_DSL_LIBS), which records every launch.
     python -O drops FA4's `assert t.is_cuda` checks.

Output per kernel: OUTDIR/fa4_<variant>_<kernel>.{ptx,ir.txt,json}; failures in
OUTDIR/failures.txt.  Environment: flash-attn-4 (tested 4.0.0b36),
nvidia-cutlass-dsl 4.8.1, torch 2.15 (CPU use only), apache-tvm-ffi, gcc.
"""
import argparse
import ctypes
import glob
import inspect
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cute_corpus_common as cc  # noqa: E402

B, S, H, D = 1, 1024, 2, 128
VARIANTS = {
    "fwd_noncausal": dict(kind="fwd", causal=False),
    "fwd_causal": dict(kind="fwd", causal=True),
    "bwd_noncausal": dict(kind="bwd", causal=False),
    "bwd_causal": dict(kind="bwd", causal=True),
}


# ------------------------------------------------------------------ DLPack "cuda" views of CPU tensors
class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p)]


_KEEP = []


def dl_codes():
    import torch
    return {torch.bfloat16: (4, 16), torch.float16: (2, 16), torch.float32: (2, 32), torch.float64: (2, 64),
            torch.int32: (0, 32), torch.int64: (0, 64), torch.int16: (0, 16), torch.int8: (0, 8),
            torch.uint8: (1, 8), torch.bool: (6, 8)}


class CudaView:
    """A CPU tensor presented through DLPack as a tensor on cuda:0 (kDLCUDA)."""

    def __init__(self, t):
        code, bits = dl_codes()[t.dtype]
        n = t.dim()
        self.t = t
        self.shape = (ctypes.c_int64 * max(n, 1))(*t.shape)
        self.strides = (ctypes.c_int64 * max(n, 1))(*t.stride())
        self.m = DLManagedTensor()
        dl = self.m.dl_tensor
        dl.data = t.data_ptr()
        dl.device = DLDevice(2, 0)
        dl.ndim = n
        dl.dtype = DLDataType(code, bits, 1)
        dl.shape = self.shape
        dl.strides = self.strides
        dl.byte_offset = 0
        _KEEP.append(self)

    def __dlpack_device__(self):
        return (2, 0)

    def __dlpack__(self, stream=None, **kw):
        new = ctypes.pythonapi.PyCapsule_New
        new.restype = ctypes.py_object
        new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
        return new(ctypes.addressof(self.m), b"dltensor", None)


# ------------------------------------------------------------------ compile interception
class Record:
    def __init__(self, idx, target, names):
        self.idx = idx
        self.target = target
        self.names = names
        self.files = []
        self.calls = []  # (tensors info, launch index range)


RECORDS = []


def arg_names(target, n):
    fn = target.__call__ if not inspect.isfunction(target) and hasattr(target, "__call__") else target
    try:
        ps = [p for p in inspect.signature(fn).parameters if p != "self"]
    except (TypeError, ValueError):
        ps = []
    return [ps[i] if i < len(ps) else "arg%d" % i for i in range(n)]


class Compiled:
    def __init__(self, f, rec):
        self.f = f
        self.rec = rec

    def __getattr__(self, k):
        return getattr(self.f, k)

    def __call__(self, *args, **kwargs):
        import torch
        import tvm_ffi
        shim = cc.shim_lib()
        info = {}

        def conv(x, name):
            if isinstance(x, torch.Tensor):
                info[name] = cc.tensor_info(x)
                return tvm_ffi.from_dlpack(CudaView(x))
            if isinstance(x, (tuple, list)) and any(isinstance(y, torch.Tensor) for y in x):
                return type(x)(conv(y, "%s[%d]" % (name, i)) for i, y in enumerate(x))
            return x

        names = self.rec.names
        a2 = [conv(a, names[i + 1] if i + 1 < len(names) else "arg%d" % i) for i, a in enumerate(args)]
        k2 = {k: conv(v, k) for k, v in kwargs.items()}
        before = shim.tc5_shim_launch_count()
        r = self.f(*a2, **k2)
        shim.tc5_shim_flush()
        self.rec.calls.append((info, before, shim.tc5_shim_launch_count()))
        return r


def install_compile_hook(dump):
    import cutlass.cute as cute
    orig = cute.compile

    def hooked(*args, **kwargs):
        seen = set(glob.glob(os.path.join(dump, "*")))
        f = orig(*args, **kwargs)
        rec = Record(len(RECORDS), args[0] if args else None, arg_names(args[0], len(args)) if args else [])
        rec.names = ["target"] + rec.names[:max(0, len(args) - 1)]
        rec.files = sorted(set(glob.glob(os.path.join(dump, "*"))) - seen, key=os.path.getmtime)
        RECORDS.append(rec)
        return Compiled(f, rec)

    for attr in ("__getitem__",):
        if hasattr(orig, attr):
            setattr(hooked, attr, getattr(orig, attr))
    cute.compile = hooked
    return orig


def kernel_label(rec):
    t = rec.target
    n = type(t).__name__ if not inspect.isfunction(t) else t.__name__
    table = {"FlashAttentionForwardSm100": "main", "FlashAttentionBackwardSm100": "main",
             "FlashAttentionBackwardPreprocess": "preprocess", "FlashAttentionBackwardPostprocess": "postprocess"}
    return table.get(n, n), n


# ------------------------------------------------------------------ variant run
def run_variant(name):
    import torch
    from torch._subclasses.fake_tensor import FakeTensorMode
    v = VARIANTS[name]
    dump = os.environ["CUTE_DSL_DUMP_DIR"]
    cc.patch_runtime()
    install_compile_hook(dump)
    from flash_attn.cute import interface as I

    def tensors(device):
        g = torch.Generator().manual_seed(0)
        mk = lambda *s, dt=torch.bfloat16: torch.zeros(*s, dtype=dt, device=device)  # noqa
        q, k, vv = mk(B, S, H, D), mk(B, S, H, D), mk(B, S, H, D)
        out, dout = mk(B, S, H, D), mk(B, S, H, D)
        lse = mk(B, H, S, dt=torch.float32)
        return q, k, vv, out, dout, lse

    def call(ts):
        q, k, vv, out, dout, lse = ts
        if v["kind"] == "fwd":
            return I._flash_attn_fwd(q, k, vv, causal=v["causal"], return_lse=True)
        return I._flash_attn_bwd(q, k, vv, out, dout, lse, causal=v["causal"])

    t0 = time.time()
    with FakeTensorMode():
        call(tensors("cuda"))
    n_compiled = len(RECORDS)
    if not n_compiled:
        raise RuntimeError("FA4 compiled nothing")
    shim = cc.shim_lib()
    for rec in RECORDS:
        for f in rec.files:
            if f.endswith(".ptx"):
                cc.register_params(shim, cc.ptx_entries(open(f).read()))
    call(tensors("cpu"))
    if len(RECORDS) != n_compiled:
        raise RuntimeError("the CPU call compiled again (%d -> %d): compile keys differ" % (n_compiled, len(RECORDS)))
    log = cc.read_log(os.environ["TC5_SHIM_LOG"])
    launches = [x for x in log if x.get("call", "").startswith("cudaLaunch")]
    other = [x for x in log if not x.get("call", "").startswith("cudaLaunch")
             and x.get("call") != "cudaDeviceGetAttribute"]
    out_dir = os.environ["TC5_OUT"]
    written = []
    for rec in RECORDS:
        label, cls = kernel_label(rec)
        ptxs = [f for f in rec.files if f.endswith(".ptx")]
        mlirs = [f for f in rec.files if f.endswith(".mlir")]
        if not ptxs:
            raise RuntimeError("compile %d (%s) kept no PTX" % (rec.idx, cls))
        info, lo, hi = rec.calls[0] if rec.calls else ({}, 0, 0)
        my_launches = launches[lo:hi]
        fname = "fa4_%s_%s" % (name, label)
        meta = dict(package="flash-attn-4", kernel_class=cls, variant=dict(v, batch=B, seqlen=S, heads=H,
                    head_dim=D, dtype="bfloat16"),
                    env=dict(FLASH_ATTENTION_ARCH="sm_100", FLASH_ATTENTION_NUM_SMS="148", CUTE_DSL_ARCH="sm_100a"),
                    call_arg_names=rec.names[1:], called=bool(rec.calls))
        doc = cc.collect_files(fname, out_dir, ptxs, mlirs, my_launches + other, info, meta, t0)
        written.append((fname, [(k["entry"][:50], k.get("launch", {}).get("grid")) for k in doc["kernels"]]))
        if not my_launches:
            raise RuntimeError("%s: no launch recorded" % fname)
    print(written)


def main(variants=None, script=None, configure=None):
    """the command line (--out, --only, --list, --worker); gen_fa4.py runs it with
    its own variants, its own path for the workers and a configure(name) that
    sets a worker's sizes before run_variant"""
    variants = VARIANTS if variants is None else variants
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--worker")
    a = ap.parse_args()
    out = os.path.abspath(a.out)
    if a.list:
        print("\n".join(variants))
        return
    if a.worker:
        if configure:
            configure(a.worker)
        os.environ["TC5_OUT"] = out
        run_variant(a.worker)
        return
    os.makedirs(out, exist_ok=True)
    names = a.only or list(variants)
    env = dict(FLASH_ATTENTION_ARCH="sm_100", FLASH_ATTENTION_NUM_SMS="148")
    ok, fails = cc.run_workers(os.path.abspath(script or __file__), names, out, extra_env=env, py_flags=("-O",))
    print("%d ok, %d failed" % (len(ok), len(fails)))


if __name__ == "__main__":
    main()
