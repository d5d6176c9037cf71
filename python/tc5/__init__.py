"""tc5: a bit-accurate model of NVIDIA's 5th-generation Tensor Core, from Python.

NumPy and ml_dtypes arrays in, Blackwell's (or Hopper's) exact results out.
The arithmetic is the C library's (``tc5_gemm``): the same bits as the CLI's
``tc5 gemm``. Errors raise :class:`tc5.Error` subclasses carrying the C
library's diagnostics (``.status``, ``.messages``).
"""
from __future__ import annotations

import os

import numpy as np
import ml_dtypes

from . import _tc5
from ._tc5 import (  # noqa: F401  (the exception classes, one per status)
    Error, InvalidArgumentError, RangeError, ReservedError, AlignmentError, IllegalError,
    NotRepresentableError, TruncatedError, OutOfMemoryError, ParseError, FileError, MismatchError,
    WouldBlockError, StateError, AccessError, UninitializedError, BoundsError, UnsupportedError,
    HazardError,
)

__all__ = ["gemm", "type_of", "Error"]

# element types that arrays carry themselves (others: raw codes + a type name)
_DTYPES = {
    np.dtype(np.float32): "f32",
    np.dtype(np.float16): "f16",
    np.dtype(np.int8): "s8",
    np.dtype(np.uint8): "u8",
    np.dtype(np.int32): "s32",
    np.dtype(ml_dtypes.bfloat16): "bf16",
    np.dtype(ml_dtypes.float8_e4m3fn): "e4m3",
    np.dtype(ml_dtypes.float8_e5m2): "e5m2",
    np.dtype(ml_dtypes.float6_e2m3fn): "e2m3",
    np.dtype(ml_dtypes.float6_e3m2fn): "e3m2",
    np.dtype(ml_dtypes.float4_e2m1fn): "e2m1",
    np.dtype(ml_dtypes.float8_e8m0fnu): "ue8m0",
}
# the array type a result of each D type comes back as
_OUT = {"f32": np.float32, "f16": np.float16, "s32": np.int32}


def type_of(array) -> str | None:
    """tc5's name of the element type an array holds (None for raw unsigned codes)."""
    return _DTYPES.get(np.asarray(array).dtype)


def _codes(x, name: str, given: str | None):
    """(uint32 codes, C-contiguous, and the tc5 type name) of an array."""
    x = np.asarray(x)
    t = _DTYPES.get(x.dtype)
    if given is not None and t is not None and t != given and x.dtype.kind != "u":
        raise ValueError(f"{name}: the array holds {t}, but {name}_type says {given}")
    if given is not None and x.dtype.kind == "u":
        t = given  # raw codes of the named type
    if t is None:
        raise ValueError(f"{name}: dtype {x.dtype} is no tc5 element type: pass raw codes as an unsigned "
                         f"integer array with {name}_type=")
    bits = _tc5.type_bits(t)
    if x.dtype.kind in "fV" or x.dtype == np.dtype(ml_dtypes.bfloat16) or t in ("s8", "s32"):
        raw = x.view(np.dtype(f"uint{x.dtype.itemsize * 8}"))
    else:
        raw = x
    codes = np.ascontiguousarray(raw, dtype=np.uint32)
    if bits < 32:
        codes &= np.uint32((1 << bits) - 1)
    return codes, t


def _u32(x, what: str) -> int:
    """x as the unsigned 32-bit integer the C side takes: refused here
    (TypeError, ValueError) rather than wrapped there (grid=-1 was a grid of
    2^32 - 1 CTAs, threads=-1 four billion threads)"""
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)):
        raise TypeError(f"{what}: an integer, not {type(x).__name__}")
    if not 0 <= int(x) < 1 << 32:
        raise ValueError(f"{what}: {int(x)} is not in [0, 2^32)")
    return int(x)


def _d_type(kind: str, d_type: str | None) -> str:
    dt = d_type or ("s32" if kind == "i8" else "f32")
    if dt not in _OUT:
        raise ValueError(f"d_type is f32, f16 or s32, not {dt!r}")
    return dt


def _scales(scale_a, scale_b, scale_type, block, read=None):
    """(scale_a codes, scale_b codes, scale type name) or (None, None, None);
    read(x, name, given) -> (codes, type name) reads each (default _codes)"""
    if scale_a is None and scale_b is None:
        return None, None, None
    if scale_a is None or scale_b is None or block is None:
        raise ValueError("block-scaled kinds need scale_a, scale_b and block")
    read = read or _codes
    SA, sta = read(scale_a, "scale_a", scale_type)
    SB, stb = read(scale_b, "scale_b", scale_type)
    if sta != stb:
        raise ValueError(f"scale_a is {sta} and scale_b is {stb}")
    return SA, SB, sta


def gemm(a, b, c=None, *, kind: str, model: str = "blackwell", a_type: str | None = None,
         b_type: str | None = None, d_type: str | None = None, scale_a=None, scale_b=None,
         scale_type: str | None = None, block: int | None = None, saturate: bool = False,
         negate_a: bool = False, negate_b: bool = False, scale_input_d: int = 0,
         threads: int | None = None, device: str = "cpu", out=None, meta=None):
    """D = A @ B (+ C) exactly as the Tensor Core computes it (tc5_gemm).

    a: M x K, b: K x N (NumPy's ``a @ b`` orientation, any strides); arrays of
    NumPy or ml_dtypes types, or raw codes as unsigned integers with
    ``a_type``/``b_type`` naming the type (tf32, ue4m3, or any type). kind:
    f16, tf32, f8f6f4, i8, mxf8f6f4, mxf4, mxf4nvf4. d_type: f32 (default;
    s32 for i8) or f16. Block-scaled kinds take ``scale_a`` (M x K/block)
    and ``scale_b`` (K/block x N) and ``block`` (16 or 32). c: M x N of the
    D type (enable-input-d; without it D = A.B). Releases the GIL and uses
    every core (``threads``). device="cuda" computes the same bits on an
    NVIDIA GPU (tc5_gemm_cuda; a tc5 built with nvcc; NumPy arrays are copied
    to the GPU and back). Returns D as float32, float16 or int32.

    GPU tensors (DLPack: PyTorch's, CuPy's; ``__dlpack__`` on a CUDA device)
    are read where they lie, without a copy through the host, whatever their
    strides; their dtype names the element type (float32, float16, bfloat16,
    int8, int32) or, for unsigned integer tensors, ``a_type``/``b_type``/
    ``scale_type`` do (float8 tensors: pass ``x.view(torch.uint8)``). D is
    written into ``out`` (an M x N GPU tensor of 4 bytes, or 2 for f16) or a
    new tensor of the inputs' library, which is returned.

    meta: a sparse A (tcgen05.mma.sp, tc5_gemm_sparse): ``a`` holds the
    M x K/2 kept elements, ``meta`` (M x K/g, integers) their metadata, a
    nibble each: tf32 (1:2) g = 2, a pair's 0x4 (first kept) or 0xe
    (second); f16, f8f6f4, i8, mxf8f6f4 (2:4) g = 4, a group's kept
    positions in bits 0-1 and 2-3; mxf4, mxf4nvf4 (4:8 in pairs) g = 8, the
    same values naming kept pairs. K is b's (logical); a step takes the dense
    step's count of kept products, the elided pairs are absent, and a scale
    factor covers ``block`` kept elements: scale_a is M x K/(2 block),
    scale_b K/(2 block) x N. CPU only.
    """
    if meta is not None:
        if _on_gpu(a) or _on_gpu(b) or device != "cpu":
            raise ValueError("tc5.gemm: meta= (sparse A) runs on the CPU: pass NumPy arrays and device='cpu'")
        return _gemm_sparse(a, b, c, meta, kind=kind, model=model, a_type=a_type, b_type=b_type, d_type=d_type,
                            scale_a=scale_a, scale_b=scale_b, scale_type=scale_type, block=block,
                            saturate=saturate, negate_a=negate_a, negate_b=negate_b,
                            scale_input_d=scale_input_d, threads=threads)
    if _on_gpu(a) or _on_gpu(b):
        return _gemm_gpu(a, b, c, kind=kind, model=model, a_type=a_type, b_type=b_type, d_type=d_type,
                         scale_a=scale_a, scale_b=scale_b, scale_type=scale_type, block=block,
                         saturate=saturate, negate_a=negate_a, negate_b=negate_b,
                         scale_input_d=scale_input_d, out=out)
    A, at = _codes(a, "a", a_type)
    B, bt = _codes(b, "b", b_type)
    if A.ndim != 2 or B.ndim != 2 or A.shape[1] != B.shape[0]:
        raise ValueError(f"a is {A.shape} and b is {B.shape}: need M x K and K x N")
    M, K = A.shape
    N = B.shape[1]
    dt = _d_type(kind, d_type)
    SA, SB, st = _scales(scale_a, scale_b, scale_type, block)
    if c is not None:
        D, ct = _codes(c, "c", dt)
        if D.shape != (M, N):
            raise ValueError(f"c is {D.shape}, D is {(M, N)}")
        D = D.copy()
    else:
        D = np.zeros((M, N), dtype=np.uint32)
    _tc5.gemm(model, kind, at, bt, dt, st, _u32(block or 0, "block"), bool(saturate), M, N, K, A, B, SA, SB, D,
              bool(negate_a), bool(negate_b), c is not None, _u32(scale_input_d, "scale_input_d"),
              _u32(threads or 0, "threads"), device)
    if dt == "f16":
        return D.astype(np.uint16).view(np.float16)
    return D.view(_OUT[dt])


def _gemm_sparse(a, b, c, meta, *, kind, model, a_type, b_type, d_type, scale_a, scale_b, scale_type, block,
                 saturate, negate_a, negate_b, scale_input_d, threads):
    """tc5.gemm with meta= (tc5_gemm_sparse)"""
    A, at = _codes(a, "a", a_type)
    B, bt = _codes(b, "b", b_type)
    if A.ndim != 2 or B.ndim != 2 or 2 * A.shape[1] != B.shape[0]:
        raise ValueError(f"a is {A.shape} and b is {B.shape}: a sparse A is M x K/2 (its kept elements), b K x N")
    M, N, K = A.shape[0], B.shape[1], B.shape[0]
    g = 2 if kind == "tf32" else 8 if kind in ("mxf4", "mxf4nvf4") else 4
    Mt = np.ascontiguousarray(meta)
    if Mt.shape != (M, K // g) or Mt.dtype.kind not in "iu" or (Mt < 0).any() or (Mt > 15).any():
        raise ValueError(f"meta is {Mt.shape} of {Mt.dtype}: sparse .kind::{kind} needs M x K/{g} = {(M, K // g)} "
                         f"metadata nibbles (integers 0-15)")
    Mt = Mt.astype(np.uint8)
    dt = _d_type(kind, d_type)
    SA, SB, st = _scales(scale_a, scale_b, scale_type, block)
    if c is not None:
        D, _ = _codes(c, "c", dt)
        if D.shape != (M, N):
            raise ValueError(f"c is {D.shape}, D is {(M, N)}")
        D = D.copy()
    else:
        D = np.zeros((M, N), dtype=np.uint32)
    _tc5.gemm_sparse(model, kind, at, bt, dt, st, int(block or 0), bool(saturate), M, N, K, A, Mt, B, SA, SB, D,
                     bool(negate_a), bool(negate_b), c is not None, int(scale_input_d), int(threads or 0))
    if dt == "f16":
        return D.astype(np.uint16).view(np.float16)
    return D.view(_OUT[dt])


# DLPack: kDLCUDA, and the (type code, bits) of the dtypes that name a tc5 type
_DL_CUDA = 2
_DL_TYPES = {(2, 32): "f32", (2, 16): "f16", (4, 16): "bf16", (0, 8): "s8", (1, 8): "u8", (0, 32): "s32"}
_DL_OUT = {"f32": "float32", "f16": "float16", "s32": "int32"}


def _on_gpu(x) -> bool:
    """whether x is a DLPack tensor on a CUDA device"""
    dev = getattr(x, "__dlpack_device__", None)
    return dev is not None and hasattr(x, "__dlpack__") and dev()[0] == _DL_CUDA


def _dl_matrix(x, name: str, given: str | None, keep: list):
    """((address, bytes, row_stride, col_stride), tc5 type name, shape) of a GPU tensor"""
    if not _on_gpu(x):
        raise ValueError(f"{name}: the other operands are GPU tensors, this is not one (pass all on one device)")
    cap = x.__dlpack__()
    keep.append(cap)  # the tensor stays alive while the GPU reads it
    _, _, code, bits, shape, strides, addr = _tc5.dlpack_info(cap)
    if len(shape) != 2:
        raise ValueError(f"{name}: a tensor of {len(shape)} dimensions; a matrix has 2")
    t = _DL_TYPES.get((code, bits))
    if given is not None and t is not None and t != given and code != 1:
        raise ValueError(f"{name}: the tensor holds {t}, but {name}_type says {given}")
    if given is not None and code == 1:
        t = given  # raw codes of the named type
    if t is None or bits not in (8, 16, 32):
        raise ValueError(f"{name}: DLPack dtype (code {code}, {bits} bits) is no tc5 element type: pass raw codes "
                         f"as an unsigned integer tensor (e.g. x.view(torch.uint8)) with {name}_type=")
    return (addr, bits // 8, strides[0], strides[1]), t, tuple(shape)


def _new_like(x, shape, dtype: str):
    """an empty GPU tensor of x's library (PyTorch or CuPy) on x's device"""
    mod = type(x).__module__.split(".")[0]
    if mod == "torch":
        import torch
        return torch.empty(shape, dtype=getattr(torch, dtype), device=x.device)
    if mod == "cupy":
        import cupy
        with x.device:
            return cupy.empty(shape, dtype=dtype)
    raise ValueError(f"tc5.gemm: cannot make D for a {type(x).__name__}: pass out= (an M x N GPU tensor)")


def _gemm_gpu(a, b, c, *, kind, model, a_type, b_type, d_type, scale_a, scale_b, scale_type, block, saturate,
              negate_a, negate_b, scale_input_d, out):
    """tc5.gemm on GPU tensors (DLPack), read and written in place"""
    keep: list = []
    A, at, (M, K) = _dl_matrix(a, "a", a_type, keep)
    B, bt, (K2, N) = _dl_matrix(b, "b", b_type, keep)
    if K != K2:
        raise ValueError(f"a is {(M, K)} and b is {(K2, N)}: need M x K and K x N")
    dt = _d_type(kind, d_type)
    SA, SB, st = _scales(scale_a, scale_b, scale_type, block,
                         lambda x, name, given: _dl_matrix(x, name, given, keep)[:2])
    if out is None:
        if c is not None:
            out = c.clone() if hasattr(c, "clone") else c.copy()
        else:
            out = _new_like(a, (M, N), _DL_OUT[dt])
    elif c is not None:
        out.copy_(c) if hasattr(out, "copy_") else out.__setitem__(Ellipsis, c)
    D, _, dshape = _dl_matrix(out, "out", None, keep)
    if dshape != (M, N) or D[1] != (2 if dt == "f16" else 4):
        raise ValueError(f"out is {dshape} of {D[1]}-byte elements; D is {(M, N)} of {dt}")
    _tc5.gemm_matrices(model, kind, at, bt, dt, st, _u32(block or 0, "block"), bool(saturate), M, N, K, A, B, SA, SB,
                       D, bool(negate_a), bool(negate_b), c is not None, _u32(scale_input_d, "scale_input_d"))
    return out


class _Desc:
    """A descriptor: its fields as attributes, named as in the C struct."""

    _which = ""

    def __init__(self, **fields):
        self.kind = fields.pop("kind", None)
        base, _ = _tc5.desc_decode(self._which, self._blank(), self.kind)
        self.__dict__.update(base)
        for k, v in fields.items():
            if k not in base:
                raise KeyError(f"no field {k!r} in {type(self).__name__} (fields: {', '.join(base)})")
            setattr(self, k, v)

    def _blank(self):
        return 0

    def _fields(self):
        return {k: v for k, v in self.__dict__.items() if k != "kind"}

    @classmethod
    def decode(cls, raw: int, kind: str | None = None):
        """Every field of a raw descriptor; .issues lists every rule it breaks."""
        d = cls.__new__(cls)
        d.kind = kind
        fields, issues = _tc5.desc_decode(cls._which, int(raw), kind)
        d.__dict__.update(fields)
        d.issues = issues
        return d

    def encode(self) -> int:
        """The raw descriptor (raises tc5.Error naming the rules broken)."""
        return _tc5.desc_encode(self._which, {k: v for k, v in self._fields().items() if k != "issues"}, self.kind)

    def check(self) -> list[str]:
        """The rules the fields break (an empty list: valid)."""
        return _tc5.desc_check(self._which, {k: v for k, v in self._fields().items() if k != "issues"}, self.kind)

    def __repr__(self):
        f = ", ".join(f"{k}={v!r}" for k, v in self._fields().items() if k != "issues")
        return f"{type(self).__name__}({'kind=' + repr(self.kind) + ', ' if self.kind else ''}{f})"


class SmemDesc(_Desc):
    """The shared memory descriptor (Table 40): start_address, lbo, sbo (bytes), base_offset, lbo_mode, swizzle..."""

    _which = "smem"

    def _blank(self):
        return 1 << 46  # the fixed 0b001 at bits 46-48


class InstrDesc(_Desc):
    """The instruction descriptor (Tables 42-44) of a kind: m, n, dtype/atype/btype codes, transposes, negates..."""

    _which = "idesc"

    def __init__(self, kind: str = "f16", **fields):
        super().__init__(kind=kind, **fields)


class ZcmaskDesc(_Desc):
    """The zero-column mask descriptor (Table 45): start_count[4], first_span[4], skip_span, use_span..."""

    _which = "zcmask"


__all__ += ["SmemDesc", "InstrDesc", "ZcmaskDesc"]


class TensorMap:
    """A tensor-map argument of run_ptx: `params` in tc5's text form
    (cuTensorMapEncodeTiled's parameters, e.g. "type=bf16,dims=64x32,
    strides=128,box=64x32,swizzle=128B"; docs/tma.md) over `tensor`: the
    index of a buffer argument, or a NumPy array of its own."""

    def __init__(self, params: str, tensor):
        self.params, self.tensor = params, tensor


class RunResult(tuple):
    """What run_ptx returns: unpacks as (findings, printed), as before the
    timing model; .timing is the model's prediction (a dict, docs/python.md)
    when the launch ran with it (timing=, or TC5_TIMING), else None."""

    def __new__(cls, findings, printed, timing=None):
        r = super().__new__(cls, (findings, printed))
        r.timing = timing
        return r

    @property
    def findings(self):
        return self[0]

    @property
    def printed(self):
        return self[1]


def run_ptx(ptx_text: str, grid, block, args, *, entry: str | None = None, shared_bytes: int = 0,
            check: str = "default", threads: int | None = None, name: str = "kernel.ptx", cluster=None,
            buffers=(), host_addresses: bool = False, rules=None, schedule: int = 0, schedules: int = 0,
            timing: str | None = None, timing_trace: str | None = None, timing_sample: int | None = None,
            timing_regs: int | None = None):
    """Runs a PTX kernel (nvcc's, Triton's) on the CPU, bit-exactly (`tc5 run`).

    grid, block: int or up to 3 ints. args: one per .param of the entry, in
    order: NumPy arrays are global buffers (read and written in place, so
    outputs appear in them after the run; they must be C-contiguous and
    writable), None a null pointer, Python numbers the parameter's value at
    its declared size (a float is stored as f32 in 4 bytes, f64 in 8),
    TensorMap a tensor map (by value or by address, as the .param is), bytes
    a struct passed by value (the whole .param). buffers: NumPy arrays that
    are global buffers but no parameter (a struct's pointers name them); they
    get the first addresses (0x200000000, then 64 KiB past each end, 256-byte
    aligned), then the arguments' buffers in order. cluster: CTAs a cluster
    (default: the entry's .reqnctapercluster). host_addresses: every buffer's
    device address is its host address (arr.ctypes.data), as CUDA's unified
    addressing gives a framework's tensors: pointers stored in arrays (pointer
    arrays) are then valid in the kernel, and buffers may be views of one
    allocation.
    schedule: the seed of an adversarial schedule (docs/check.md, "Schedules":
    warps in a seeded order, asynchronous copies and MMAs completing as late
    as the rules allow; 0: the default schedule, or TC5_SCHEDULE's).
    schedules: N > 0 runs the default schedule and N seeded ones (seeds
    `schedule` or 1 onwards) from the same inputs and compares every buffer
    byte for byte: tc5.MismatchError names the argument, the byte and the
    seed when one differs; the arrays keep the default run's results.
    check: the tcgen05 checker (none, default, strict). rules: a dict of
    checker rule ids to levels, "off", "warning" or "error" (`tc5 run
    --rule`; an unknown rule raises ValueError naming the rules).
    timing: the timing model (docs/timing.md): "b200", "h100" or "h200"
    predicts the launch's duration on that GPU (None: TC5_TIMING's, unset:
    off; "none": off whatever TC5_TIMING says); an unknown GPU, or one that
    cannot run the PTX's target, raises tc5.InvalidArgumentError naming it.
    timing_trace: a Chrome trace-event JSON file of the CTAs run in detail
    (python -m tc5.timeline draws it). timing_sample: clusters run in detail
    (None: the model's default; 0xFFFFFFFF, tc5.TIMING_SAMPLE_ALL: every
    one, no sampling); a sampled launch writes only its sampled clusters'
    outputs. timing_regs: registers a thread for occupancy (None: ptxas's
    count where ptxas is found, else the model's estimate).
    Returns a RunResult, which unpacks as (findings, printed): the checker's
    findings (dicts: rule, warning, line, line2, count, text, and src/src2:
    "FILE:LINE" of the source line each instruction came from, where the
    PTX carries .loc, else "") and what the kernel printed; its .timing is
    the prediction when the model ran (a dict: gpu, seconds, cycles,
    clock_ghz, sampled, ctas_simulated, ctas_total, ctas_per_sm,
    occupancy_limit, regs_per_thread, regs_from_ptxas, issue_sass_missing (True: the
    GPU's table counts issue from ptxas's SASS but ptxas/nvdisasm were not
    found), smem_per_cta, tmem_cols_per_cta (Tensor Memory columns a CTA holds,
    counted for occupancy; 0: none), tmem_cols_assumed_line (non-zero: the line of a
    tcgen05.alloc whose nCols is not constant, the whole Tensor Memory assumed), waves,
    sms, busy (unit name -> fraction), limit (a unit's name or "latency"),
    cta_cycles_min/max, dram_bytes, l2_bytes, flops, text: the lines `tc5
    run --timing` prints), else None. Kernel errors (out of bounds,
    deadlock...) raise tc5.Error subclasses.
    """
    import struct

    u32 = _u32

    def dim3(x, what):
        t = (x,) if isinstance(x, (int, np.integer)) else tuple(x) if isinstance(x, (tuple, list)) else None
        if t is None or not 1 <= len(t) <= 3:
            raise (ValueError if t is not None else TypeError)(f"{what}: an int or 1 to 3 ints, not {x!r}")
        return tuple(u32(v, what) for v in t) + (1,) * (3 - len(t))

    grid, block = dim3(grid, "grid"), dim3(block, "block")
    cluster = dim3(cluster, "cluster") if cluster else (0, 0, 0)
    shared_bytes, threads = u32(shared_bytes, "shared_bytes"), u32(threads or 0, "threads")
    if isinstance(schedule, bool) or not isinstance(schedule, (int, np.integer)) or not 0 <= int(schedule) < 1 << 64:
        raise ValueError(f"schedule: a seed in [0, 2^64), not {schedule!r}")
    schedules = u32(schedules, "schedules")

    params = _tc5.ptx_params(ptx_text, name, entry)
    if len(args) != len(params):
        raise ValueError(f"the entry has {len(params)} parameters, {len(args)} arguments given")
    packed = []
    for b in buffers:
        if not isinstance(b, np.ndarray) or not b.flags.c_contiguous or not b.flags.writeable:
            raise ValueError("buffers: C-contiguous, writable NumPy arrays")
        packed.append(("global", b.reshape(-1).view(np.uint8)))
    first = len(packed)
    for i, (x, (size, is_ptr)) in enumerate(zip(args, params)):
        if isinstance(x, TensorMap):
            t = x.tensor
            if isinstance(t, (int, np.integer)):
                packed.append(("tmap", x.params, first + int(t)))
            elif isinstance(t, np.ndarray) and t.flags.c_contiguous and t.flags.writeable:
                packed.append(("tmap", x.params, t.reshape(-1).view(np.uint8)))
            else:
                raise TypeError(f"argument {i}: a TensorMap's tensor is a buffer argument's index or a writable array")
        elif isinstance(x, (bytes, bytearray)):
            packed.append(("bytes", bytes(x)))
        elif isinstance(x, np.ndarray):
            if not x.flags.c_contiguous or not x.flags.writeable:
                raise ValueError(f"argument {i}: a buffer must be a C-contiguous, writable array")
            packed.append(x.reshape(-1).view(np.uint8))
        elif x is None:
            packed.append((size, 0))
        elif isinstance(x, float):
            bits = struct.unpack("<I", struct.pack("<f", x))[0] if size == 4 else struct.unpack("<Q", struct.pack("<d", x))[0]
            packed.append((size, bits))
        elif isinstance(x, (int, np.integer)):
            packed.append((size, int(x) & ((1 << (8 * size)) - 1)))
        else:
            raise TypeError(f"argument {i}: an array, None or a number, not {type(x).__name__}")
    levels = tuple(f"{k}={v}" for k, v in (rules or {}).items())
    extra = ()
    if timing is not None or timing_trace is not None or timing_sample is not None or timing_regs is not None:
        if timing is not None and not isinstance(timing, str):
            raise TypeError(f"timing: a GPU's name (b200, h100, h200) or None, not {timing!r}")
        if timing_trace is not None and not isinstance(timing_trace, (str, os.PathLike)):
            raise TypeError(f"timing_trace: a file name or None, not {timing_trace!r}")
        extra = (timing, None if timing_trace is None else os.fspath(timing_trace),
                 u32(timing_sample or 0, "timing_sample"), u32(timing_regs or 0, "timing_regs"))
    r = _tc5.run_ptx(ptx_text, name, entry, grid, block, cluster, shared_bytes, check, threads, packed,
                     bool(host_addresses), levels, int(schedule), schedules, *extra)
    return RunResult(r[0], r[1], r[2] if len(r) > 2 else None)


TIMING_SAMPLE_ALL = 0xFFFFFFFF  # run_ptx(timing_sample=): every cluster in detail (tc5/timing.h)

__all__ += ["run_ptx", "RunResult", "TensorMap", "TIMING_SAMPLE_ALL"]


def zcmask_show(raw: int, m: int, n: int) -> tuple[str, str]:
    """The N-column mask of a zero-column mask descriptor for an M x N .ws MMA
    ('1': the column of B reads as zero) and tc5's explanation of it (`tc5 zcmask show`)."""
    return _tc5.zcmask_show(int(raw), int(m), int(n))


def zcmask_find(m: int, mask, shift: int = 0) -> int:
    """The descriptor that generates exactly `mask` (a '0'/'1' string or a
    sequence of bools) for M; raises tc5.NotRepresentableError naming the first
    column no descriptor can match (`tc5 zcmask find`)."""
    if not isinstance(mask, str):
        mask = "".join("1" if x else "0" for x in mask)
    return _tc5.zcmask_find(int(m), mask, int(shift))


def layout_addr(desc: int, mn: int, k: int, *, kind: str, type: str, major: str = "K") -> tuple[int, int, int]:
    """(byte address, bit, width) of element (mn, k) of the operand that shared
    memory descriptor `desc` describes (`tc5 layout addr`)."""
    return _tc5.layout_addr(int(desc), kind, type, major, int(mn), int(k))


__all__ += ["zcmask_show", "zcmask_find", "layout_addr"]


def dot(a, b, c=None, *, kind: str, model: str = "blackwell", a_type: str | None = None,
        b_type: str | None = None, d_type: str | None = None, scale_a=None, scale_b=None,
        scale_type: str | None = None, block: int | None = None, saturate: bool = False,
        negate_a: bool = False, negate_b: bool = False, scale_input_d: int = 0):
    """One output element, d = a . b (+ c), and how the Tensor Core gets it:
    returns (d, explanation), the explanation listing each step's terms
    (products and C) as integer * 2^x, the alignment exponent, each term
    truncated, the exact sum and its rounding (tc5_dot_explain). a, b: K
    elements (arrays as for gemm); c: a number or a 0-d array of the D type."""
    A, at = _codes(np.asarray(a).reshape(1, -1), "a", a_type)
    B, bt = _codes(np.asarray(b).reshape(1, -1), "b", b_type)
    dt = _d_type(kind, d_type)
    SA, SB, st = _scales(None if scale_a is None else np.asarray(scale_a).reshape(1, -1),
                         None if scale_b is None else np.asarray(scale_b).reshape(1, -1), scale_type, block)
    ccode = 0
    if c is not None:
        ccode = int(_codes(np.asarray(c, dtype=_OUT[dt]).reshape(1, 1), "c", dt)[0][0, 0])
    code, text = _tc5.dot(model, kind, at, bt, dt, st, _u32(block or 0, "block"), bool(saturate), A, B, SA, SB, ccode,
                          bool(negate_a), bool(negate_b), c is not None, _u32(scale_input_d, "scale_input_d"))
    out = np.array([code], dtype=np.uint32)
    value = out.astype(np.uint16).view(np.float16)[0] if dt == "f16" else out.view(_OUT[dt])[0]
    return value, text


__all__ += ["dot"]
