"""Triton and Gluon kernels on tc5: compiled by Triton for a B200 (sm_100,
no GPU needed) and run on the CPU, bit-exactly, by tc5's PTX runner.

Two doors:

* `activate()` (or `TC5_TRITON=1` in the environment of a script that never
  imports tc5): Triton's runtime driver becomes tc5's. `kernel[grid](...)`
  goes through Triton's own JIT, cache and specialisation rules for
  GPUTarget("cuda", 100, 32), and the compiled kernel runs on tc5 with its
  arguments where they lie: NumPy arrays and PyTorch CPU tensors are device
  memory at their host addresses (pointer arrays filled on the host are
  valid in the kernel), written in place. Host TensorDescriptors, num_ctas
  clusters, scratch and profile buffers, launch hooks, autotuning (every
  config compiled, the first that fits a B200 run) and do_bench (runs once)
  as Triton's launcher does them. A checker finding raises tc5.HazardError
  (TC5_TRITON_FINDINGS=warn: a warning) naming the PTX line and the Python
  line it came from.

      import tc5.triton
      tc5.triton.activate()
      add_kernel[(n // 1024,)](x, y, out, n, BLOCK_SIZE=1024)   # x, y, out: NumPy arrays

* `run(fn, grid, *args, **constexprs)`: compile and run one launch on NumPy
  arrays, without Triton's runtime (the first door, by hand).

docs/python.md, "Run your Triton code on tc5", says what each environment
variable does.
"""
from __future__ import annotations

import contextlib
import contextvars
import ctypes
import gc
import os
import struct
import sys
import threading
import time
import warnings

import ml_dtypes
import numpy as np

from . import device as _device
from . import device_random as _device_random
from . import memory, run_ptx

# Triton's pointer element types of the array types
_TRITON = {
    np.dtype(np.float32): "fp32", np.dtype(np.float16): "fp16", np.dtype(ml_dtypes.bfloat16): "bf16",
    np.dtype(ml_dtypes.float8_e4m3fn): "fp8e4nv", np.dtype(ml_dtypes.float8_e5m2): "fp8e5",
    np.dtype(np.int8): "i8", np.dtype(np.uint8): "u8", np.dtype(np.int16): "i16", np.dtype(np.int32): "i32",
    np.dtype(np.uint32): "u32", np.dtype(np.int64): "i64", np.dtype(np.float64): "fp64",
}
# the name Triton's canonicalize_dtype reads (str(dtype), as torch spells it) of each NumPy type
_TORCH_NAME = {
    np.dtype(np.float16): "float16", np.dtype(np.float32): "float32", np.dtype(np.float64): "float64",
    np.dtype(ml_dtypes.bfloat16): "bfloat16", np.dtype(ml_dtypes.float8_e4m3fn): "float8_e4m3fn",
    np.dtype(ml_dtypes.float8_e5m2): "float8_e5m2", np.dtype(ml_dtypes.float8_e4m3fnuz): "float8_e4m3fnuz",
    np.dtype(ml_dtypes.float8_e5m2fnuz): "float8_e5m2fnuz", np.dtype(np.int8): "int8", np.dtype(np.int16): "int16",
    np.dtype(np.int32): "int32", np.dtype(np.int64): "int64", np.dtype(np.uint8): "uint8",
    np.dtype(np.uint16): "uint16", np.dtype(np.uint32): "uint32", np.dtype(np.uint64): "uint64",
    np.dtype(np.bool_): "bool",
}

# the B200 the driver reports: cuDeviceGetAttribute's values (the first four
# are what Triton and the tutorials read; the clocks and bus are nominal)
B200 = {
    "max_shared_mem": 232448, "max_num_regs": 65536, "multiprocessor_count": 148, "warpSize": 32,
    "sm_clock_rate": 1965000, "mem_clock_rate": 3996000, "mem_bus_width": 8192,
}
# the H100 (SXM) the driver reports with TC5_TRITON_ARCH=90: kernels compile
# for sm_90a (GPUTarget("cuda", 90, 32)) and run on tc5's Hopper model
H100 = {
    "max_shared_mem": 232448, "max_num_regs": 65536, "multiprocessor_count": 132, "warpSize": 32,
    "sm_clock_rate": 1980000, "mem_clock_rate": 2619000, "mem_bus_width": 5120,
}
# the H200 (SXM) the driver reports with TC5_TRITON_ARCH=90 and TC5_TIMING=h200
# (the same SM as the H100's; HBM3e: 6144 bits, 4.8 TB/s; clocks nominal)
H200 = dict(H100, mem_clock_rate=3125000, mem_bus_width=6144)
_MAX_TMEM_COLUMNS = 512
_ARCHS = (100, 90)


def _env(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def _check_arch(arch, what: str) -> int:
    if isinstance(arch, bool) or not isinstance(arch, (int, np.integer)) or int(arch) not in _ARCHS:
        raise ValueError(f"{what} is {arch!r}: tc5.triton compiles for 100 (a B200, sm_100a) or 90 "
                         f"(an H100, sm_90a)")
    return int(arch)


def target_arch() -> int:
    """the compute capability the driver reports, as Triton's target arch:
    100 (a B200) unless TC5_TRITON_ARCH=90 (an H100)"""
    v = _env("TC5_TRITON_ARCH", "100")
    if not v.isdigit():
        raise ValueError(f"TC5_TRITON_ARCH is {v!r}: tc5.triton compiles for 100 (a B200, sm_100a) or 90 "
                         f"(an H100, sm_90a)")
    return _check_arch(int(v), "TC5_TRITON_ARCH")


def device() -> dict:
    """the properties of the GPU the driver reports (B200 or, with TC5_TRITON_ARCH=90, H100)"""
    return _props()


def _props() -> dict:  # device() where a parameter is named `device` (Triton's driver API)
    return _hopper_props() if target_arch() == 90 else B200


# ---------------------------------------------------------------------------
# the by-hand door: compile / run
# ---------------------------------------------------------------------------

def compile(fn, *args, num_warps: int = 4, num_stages: int = 2, arch: int = 100,
            enable_fp_fusion: bool | None = None, **constexprs):
    """(PTX text, dynamic shared bytes) of fn for sm_100a (arch=100) or
    sm_90a (arch=90, Triton's GPUTarget("cuda", 90, 32)), its signature taken
    from args. enable_fp_fusion is Triton's option (None: Triton's default,
    TRITON_DEFAULT_FP_FUSION): False keeps a*b+c two roundings in the PTX
    (mul.rn/add.rn, which ptxas does not contract), for runs compared with
    silicon."""
    arch = _check_arch(arch, "arch")
    if enable_fp_fusion is not None and not isinstance(enable_fp_fusion, bool):
        raise TypeError(f"enable_fp_fusion is {enable_fp_fusion!r}: True, False or None")
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    _fp_fusion_default()

    names = [n for n in fn.arg_names if n not in constexprs]
    if len(names) != len(args):
        raise ValueError(f"{fn.__name__} takes {len(names)} runtime arguments ({', '.join(names)}), "
                         f"{len(args)} given")
    sig = {}
    for n, x in zip(names, args):
        if isinstance(x, np.ndarray):
            if x.dtype not in _TRITON:
                raise TypeError(f"{n}: no Triton pointer type for {x.dtype}")
            if not x.flags.c_contiguous or not x.flags.writeable:
                raise ValueError(f"{n}: tc5.triton.run takes C-contiguous, writable arrays "
                                 f"(np.ascontiguousarray({n}); or activate() and kernel[grid](...))")
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
    options = {"num_warps": num_warps, "num_stages": num_stages}
    if enable_fp_fusion is not None:
        options["enable_fp_fusion"] = enable_fp_fusion
    k = triton.compile(ASTSource(fn=fn, signature=sig, constexprs=constexprs), target=GPUTarget("cuda", arch, 32),
                       options=options)
    return k.asm["ptx"], k.metadata.shared


def run(fn, grid, *args, num_warps: int = 4, num_stages: int = 2, check: str = "default",
        threads: int | None = None, arch: int = 100, enable_fp_fusion: bool | None = None, **constexprs):
    """Compiles fn for sm_100a (or arch=90: sm_90a) and runs it with
    tc5.run_ptx on NumPy arrays (written in place). Returns the checker's
    findings (a list)."""
    ptx, shared = compile(fn, *args, num_warps=num_warps, num_stages=num_stages, arch=arch,
                          enable_fp_fusion=enable_fp_fusion, **constexprs)
    from . import _tc5
    nparams = len(_tc5.ptx_params(ptx, fn.__name__ + ".ptx", None))
    full = list(args) + [None] * (nparams - len(args))  # Triton's own trailing pointers (scratch)
    findings, printed = run_ptx(ptx, grid, 32 * num_warps, full, shared_bytes=shared, check=check,
                                threads=threads, name=fn.__name__ + ".ptx")
    if printed:
        print(printed, end="")
    return findings


# ---------------------------------------------------------------------------
# NumPy arrays as Triton sees tensors
# ---------------------------------------------------------------------------

class _DType:
    """a NumPy dtype as Triton reads a tensor's: str() is torch's name"""

    def __init__(self, dt: np.dtype):
        self.np = dt
        self.name = _TORCH_NAME[dt]
        self.itemsize = dt.itemsize
        self.is_floating_point = dt.kind == "f" or dt in (np.dtype(ml_dtypes.bfloat16),) or "float8" in self.name
        self.is_signed = dt.kind in "if" or self.is_floating_point

    def __str__(self):
        return "torch." + self.name

    __repr__ = __str__

    def __eq__(self, other):
        return str(other) == str(self) or (isinstance(other, np.dtype) and other == self.np)

    def __hash__(self):
        return hash(self.name)


def _dtype_of(x, what: str) -> _DType:
    dt = x.dtype
    if dt not in _TORCH_NAME:
        raise TypeError(f"{what}: a NumPy array of {dt}, which has no Triton pointer type "
                        f"(one of {', '.join(sorted(set(_TORCH_NAME.values())))})")
    return _DType(dt)


class Tensor:
    """A NumPy array as a framework tensor (data_ptr(), dtype, shape,
    stride() in elements, element_size()): the same memory, for Triton APIs
    that call a tensor's methods, such as TensorDescriptor. Plain arrays can
    be passed to kernels as they are."""

    def __init__(self, array, what: str = "array"):
        if not isinstance(array, np.ndarray):
            raise TypeError(f"{what}: a NumPy array, not {type(array).__name__}")
        self.array = array
        self.dtype = _dtype_of(array, what)
        self.shape = tuple(array.shape)
        for s in array.strides:
            if s % array.itemsize:
                raise ValueError(f"{what}: byte strides {array.strides} are not multiples of the element size "
                                 f"{array.itemsize}: no element strides describe it (np.ascontiguousarray)")

    def data_ptr(self) -> int:
        return int(self.array.ctypes.data)

    def stride(self, dim=None):
        s = tuple(b // self.array.itemsize for b in self.array.strides)
        return s if dim is None else s[dim]

    def element_size(self) -> int:
        return self.array.itemsize

    def numel(self) -> int:
        return int(self.array.size)

    def dim(self) -> int:
        return self.array.ndim

    def is_contiguous(self) -> bool:
        return bool(self.array.flags.c_contiguous)

    @property
    def ndim(self):
        return self.array.ndim

    def __repr__(self):
        return f"tc5.triton.Tensor({self.array.shape}, {self.dtype})"


def tensor(array) -> Tensor:
    """A NumPy array as Triton's host-side APIs take a tensor:
    `TensorDescriptor.from_tensor(tc5.triton.tensor(a), [128, 64])`."""
    return Tensor(array)


# ---------------------------------------------------------------------------
# memory: the regions a launch may touch
# ---------------------------------------------------------------------------

def _storage(x, what: str):
    """(address, nbytes, owner) of the whole allocation x's memory belongs to
    (a view's base; a tensor's storage): on a GPU, every byte of it is
    addressable; None for no memory"""
    if isinstance(x, Tensor):
        x = x.array
    if _is_tensor_wrapper(x):  # triton.reinterpret(t, dtype): t's memory, another element type
        return _storage(x.base, what)
    if isinstance(x, np.ndarray):
        if not x.flags.writeable:
            raise ValueError(f"{what}: a read-only array; the kernel may write it (pass a copy: arr.copy())")
        base = x
        while isinstance(base.base, np.ndarray):
            base = base.base
        lo, n = memory.span(base, what)
        lo2, n2 = memory.span(x, what)  # a base that is no array (a buffer): x's own bytes
        if not (lo <= lo2 and lo2 + n2 <= lo + n):
            lo, n = lo2, n2
        return (lo, n, x) if n else None
    if memory._is_torch(x):
        memory.span(x, what)  # the device checked
        st = x.untyped_storage()
        n = int(st.nbytes())
        return (int(st.data_ptr()), n, x) if n else None
    if hasattr(x, "__dlpack__"):
        return _storage(np.from_dlpack(x), what)
    b = _pointer_base(x)
    if b is not None:  # FlagGems' StridedBuffer: its base tensor's memory
        return _storage(b, what)
    raise TypeError(f"{what}: a NumPy array or a CPU tensor, not {type(x).__name__}")


def _known_memory(x) -> bool:
    return (isinstance(x, (Tensor, np.ndarray)) or memory._is_torch(x) or _is_tensor_wrapper(x)
            or hasattr(x, "__dlpack__"))


def _pointer_base(x):
    """Triton takes any object with data_ptr() as a pointer (its launcher's extractPointer):
    FlagGems' StridedBuffer (a tensor's memory with other shape, strides, offset or dtype; its
    base tensor in ._base) and TypedPtr (an address and a dtype). The tensor or array whose
    memory holds x's address (x.base or x._base), or None"""
    if _known_memory(x) or not hasattr(x, "data_ptr"):
        return None
    for name in ("base", "_base"):
        b = getattr(x, name, None)
        if b is not None and (isinstance(b, (Tensor, np.ndarray)) or memory._is_torch(b)):
            return b
    return None


def _bare_pointer(x) -> bool:
    """x is an object with data_ptr() and no base tensor (FlagGems' TypedPtr): its address is
    all there is, and the launch finds the live allocation it is in as for an int"""
    return not _known_memory(x) and hasattr(x, "data_ptr") and _pointer_base(x) is None


def _is_tensor_wrapper(x) -> bool:
    """whether x is Triton's TensorWrapper (triton.reinterpret's result: a
    tensor's memory seen as another dtype; its .base is the tensor)"""
    jit = sys.modules.get("triton.runtime.jit")
    tw = getattr(jit, "TensorWrapper", None)
    return tw is not None and isinstance(x, tw)


def _view(lo: int, n: int) -> np.ndarray:
    return np.ctypeslib.as_array((ctypes.c_uint8 * n).from_address(lo))


def _address(x, what: str) -> int:
    """the pointer a parameter gets for x (Triton's extractPointer)"""
    if x is None:
        return 0
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        return int(x) & (2**64 - 1)
    if isinstance(x, Tensor):
        return x.data_ptr()
    if isinstance(x, np.ndarray) or memory._is_torch(x):
        return memory.address(x, what)
    if hasattr(x, "data_ptr"):
        p = x.data_ptr()
        if not isinstance(p, int):
            raise TypeError(f"{what}: data_ptr() returned {type(p).__name__}, not an int")
        return p
    raise TypeError(f"{what}: a pointer argument is an array, a tensor, an int or None, not {type(x).__name__}")


def _mapped(addr: np.ndarray) -> np.ndarray:
    """which of these (sorted) addresses lie in some mapping of this process
    (/proc/self/maps): only those can be in a live array; where the file
    cannot be read, all of them"""
    try:
        with open("/proc/self/maps") as fh:
            spans = [line.split(None, 1)[0].split("-") for line in fh]
    except OSError:
        return np.ones(addr.shape, dtype=bool)
    lo = np.array([int(x, 16) for x, _ in spans], dtype=np.uint64)
    hi = np.array([int(y, 16) for _, y in spans], dtype=np.uint64)
    order = np.argsort(lo)
    lo, hi = lo[order], hi[order]
    k = np.searchsorted(lo, addr, side="right").astype(np.int64) - 1
    return (k >= 0) & (addr < hi[np.maximum(k, 0)])


def _live_regions():
    """(address, nbytes, owner) of every live NumPy array and PyTorch CPU
    tensor this process can reach (what a pointer stored in memory may name):
    tensors from the garbage collector's objects, arrays from the containers,
    the objects' attributes and the frames on the stack that hold them"""
    out = []
    seen = set()
    torch = sys.modules.get("torch")
    tensor_type = torch.Tensor if torch is not None else None
    # The scan runs no code of the objects it meets (issue 50): an object's class is read
    # with type() and its MRO (never isinstance, which reads a __class__ that a proxy may
    # compute), containers through the C methods of dict, list and tuple (never a
    # subclass's values() or __iter__: transformers' lazy mappings raise there), and a
    # tensor's device through the C property of torch.Tensor (never a subclass's).
    device_of = torch._C.TensorBase.device.__get__ if torch is not None else None
    is_meta_of = torch._C.TensorBase.is_meta.__get__ if torch is not None else None
    kind_of = _ScanKinds(tensor_type)

    def visit(obj, k):
        if id(obj) in seen:
            return
        seen.add(id(obj))
        try:
            if k == _ARRAY:
                if np.ndarray.dtype.__get__(obj) == object:
                    return
                r = _storage(obj, "")
            elif k == _TORCH:
                if device_of(obj).type != "cpu" or is_meta_of(obj):
                    return
                r = _storage(obj, "")
            else:
                r = _storage(obj.array, "")
        except Exception:  # a tensor without storage, a buffer that cannot be read: no memory tc5 can see
            return
        if r:
            out.append(r)

    # a tensor subclass's __torch_function__ is user code, and the shim's mode answers "cuda"
    # (tc5.device): both off while the scan reads where tensors are
    quiet = torch._C.DisableTorchFunction() if torch is not None else contextlib.nullcontext()
    with quiet:
        _scan_objects(visit, kind_of)
    return out


# what the scan does with an object, by its type (_ScanKinds): the memory it is (one of the
# first three), and where it keeps other objects (any of the rest)
_ARRAY, _TORCH, _TC5, _VALUE = 1, 2, 3, 3
_DICT, _LIST, _TUPLE, _ATTRS = 4, 8, 16, 32
# Py_TPFLAGS_MANAGED_DICT (CPython 3.11+: the instance's attributes live in the object itself)
# and Py_TPFLAGS_HEAPTYPE (a class made by Python code: its __slots__ hold values in the object)
_MANAGED_DICT, _HEAPTYPE = 1 << 4, 1 << 9


class _ScanKinds(dict):
    """type -> its kind for the scan, each type's MRO and flags read once (through type's own
    descriptors: no code of the class runs)"""

    def __init__(self, tensor_type):
        super().__init__()
        self.tensor_type = tensor_type
        self.mro_of = type.__dict__["__mro__"].__get__
        self.flags_of = type.__dict__["__flags__"].__get__

    def __missing__(self, t):
        mro = self.mro_of(t)
        k = (_ARRAY if np.ndarray in mro else
             _TORCH if self.tensor_type is not None and self.tensor_type in mro else
             _TC5 if Tensor in mro else 0)
        k |= (_DICT if dict in mro else _LIST if list in mro else _TUPLE if tuple in mro else
              _ATTRS if self.flags_of(t) & (_MANAGED_DICT | _HEAPTYPE) else 0)
        self[t] = k
        return k


def _scan_objects(visit, kind_of):
    """visit every object the garbage collector tracks, the members of its dicts, lists and
    tuples, the attributes of objects that keep them in themselves (Python 3.11's managed
    dicts: inline values, which no tracked dict holds; __slots__; NumPy arrays are not tracked,
    so an array held only as such an attribute is found there alone), and the locals of the
    frames on the stack. No code of the objects runs: attributes are read by their C traversal
    (gc.get_referents)"""
    attrs = []

    def members(vs):
        for v in vs:
            k = kind_of[type(v)] & _VALUE
            if k:
                visit(v, k)

    for o in gc.get_objects():
        k = kind_of[type(o)]
        if k & _VALUE:
            visit(o, k & _VALUE)
        if k & _DICT:
            members(list(dict.values(o)))
        elif k & _LIST:
            members(list.copy(o))
        elif k & _TUPLE:
            members(tuple.__getitem__(o, slice(None)))
        elif k & _ATTRS:
            attrs.append(o)
    members(gc.get_referents(*attrs))
    del attrs
    f = sys._getframe()
    while f is not None:
        members(list(dict.values(f.f_locals) if type(f.f_locals) is dict else f.f_locals.values()))
        f = f.f_back


class _Regions:
    """the memory a launch registers: each allocation once"""

    def __init__(self):
        self.spans: dict[tuple[int, int], object] = {}
        self.names: dict[tuple[int, int], str] = {}  # the argument that registered it first

    def add(self, x, what: str):
        r = _storage(x, what)
        if r:
            self.spans.setdefault((r[0], r[1]), r[2])
            self.names.setdefault((r[0], r[1]), what)

    def named(self, e):
        """a BoundsError whose "global buffer K" (run_ptx's K-th buffer) names its argument instead"""
        import re
        keys = list(self.spans)

        def name(m):
            k = int(m.group(1)) - 1
            if 0 <= k < len(keys):
                n = self.names.get(keys[k])
                return f"argument '{n}'" if n and n.isidentifier() else n or "an array a pointer array names"
            return m.group(0)
        msgs = [re.sub(r"global buffer (\d+)", name, m) for m in getattr(e, "messages", [])]
        e2 = type(e)(re.sub(r"global buffer (\d+)", name, str(e)))
        e2.status = getattr(e, "status", None)
        e2.messages = msgs
        return e2

    def contains(self, addr: np.ndarray) -> np.ndarray:
        if not self.spans:
            return np.zeros(addr.shape, dtype=bool)
        lo = np.array([k[0] for k in self.spans], dtype=np.uint64)
        hi = lo + np.array([k[1] for k in self.spans], dtype=np.uint64)
        inside = np.zeros(addr.shape, dtype=bool)
        for a, b in zip(lo, hi):
            inside |= (addr >= a) & (addr < b)
        return inside

    def add_named(self, addresses):
        """registers the live arrays and tensors that contain any of these
        addresses (pointers found in the kernel's memory)"""
        a = np.unique(np.asarray(addresses, dtype=np.uint64))
        a = a[(a >= 0x10000) & (a < 0x800000000000)]  # user space
        a = a[~self.contains(a)]
        if a.size:
            a = a[_mapped(a)]  # an int64 argument's values (indices, keys) mostly point nowhere: no scan then
        if a.size == 0:
            return
        for lo, n, owner in _live_regions():
            if np.any((a >= lo) & (a < lo + n)):
                self.spans.setdefault((lo, n), owner)

    def views(self):
        return [_view(lo, n) for (lo, n) in self.spans]


# ---------------------------------------------------------------------------
# tensor descriptors: Triton's launcher rules (make_tensordesc_arg)
# ---------------------------------------------------------------------------

# cuTensorMapEncodeTiled's data types (the host's enum) and swizzles, as tc5's text form names them
_TMAP_TYPES = {0: "u8", 1: "u16", 2: "u32", 3: "s32", 4: "u64", 5: "s64", 6: "f16", 7: "f32", 8: "f64", 9: "bf16",
               10: "f32_ftz", 11: "tf32", 12: "tf32_ftz", 13: "16u4_align8b", 14: "16u4_align16b",
               15: "16u6_align16b"}
_SWIZZLES = {0: "none", 1: "32B", 2: "64B", 3: "128B", 4: "128B_atom_32B", 5: "128B_atom_32B_flip_8B",
             6: "128B_atom_64B"}


class _TMap:
    """a tensor map argument: tc5's text form over the descriptor's base"""

    def __init__(self, spec: str, base, address: int):
        self.spec, self.base, self.address = spec, base, address


def _tensordesc_arg(arg, meta, what: str):
    """the parameters of a host TensorDescriptor, as Triton's launcher passes
    them: with the compiler's metadata a 128-byte tensor map then shape and
    strides; without, the decomposed descriptor"""
    if meta is None:
        return _release_decompose_descriptor(arg)
    if meta.get("is_im2col", False):
        raise NotImplementedError(f"{what}: im2col tensor descriptors are not launched by tc5.triton yet")
    from triton.backends.nvidia.driver import TMA_DTYPE_DEVICE_TO_HOST
    shape, strides = list(arg.shape), list(arg.strides)
    if strides[-1] != 1:
        raise ValueError(f"{what}: a tensor descriptor's last dimension must be contiguous (stride 1), "
                         f"its strides are {strides}")
    elem_type = meta["elem_type"]
    if getattr(arg, "round_f32_to_tf32", False):  # 3.5+ (3.4 has no TMA_TF32 and no such descriptor)
        from triton.backends.nvidia.driver import TMA_TF32
        elem_type = TMA_TF32
    expanded = list(shape)
    if meta["fp4_padded"]:
        expanded[-1] *= 2
    elem_size = meta["elem_size"]
    rank = len(shape)
    block = meta["block_size"]
    dims = "x".join(str(int(d)) for d in reversed(expanded))
    box = "x".join(str(int(b)) for b in reversed(block))
    sbytes = [int(s) * elem_size for s in reversed(strides[:-1])]
    spec = (f"type={_TMAP_TYPES[TMA_DTYPE_DEVICE_TO_HOST[elem_type]]},dims={dims},box={box},"
            f"swizzle={_SWIZZLES[meta['swizzle']]},l2=128B")
    if rank > 1:
        spec += ",strides=" + "x".join(map(str, sbytes))
    if getattr(arg, "padding", "zero") == "nan":
        spec += ",oob=nan"
    return [_TMap(spec, arg.base, _address(arg.base, what))] + list(shape) + list(strides)


# ---------------------------------------------------------------------------
# the Triton releases (issue 52): what differs from 3.3 to 3.9, one function
# each; the door follows the release installed (docs/python.md, "Triton
# releases"; scripts/triton_releases.sh runs the door's tests against each)
# ---------------------------------------------------------------------------

def _release() -> tuple:
    """the installed Triton's (major, minor)"""
    import re
    import triton
    return tuple(int(x) for x in re.findall(r"\d+", triton.__version__)[:2])


def _release_expand_signature(sig, tensordesc_meta):
    """the launcher's parameter types, host tensor descriptors expanded as
    the release's launcher expands them: 3.8+ triton.backends.driver's
    expand_signature, 3.7 the NVIDIA driver's, before that the launcher's
    own rule, restated: with the compiler's metadata a tensor map, without
    it the base pointer, shape and strides (and from 3.5 the padding flag),
    then shape (i32) and strides (i64) again"""
    try:
        from triton.backends.driver import expand_signature
        return expand_signature(sig, tensordesc_meta, "nvTmaDesc")
    except ImportError:
        pass
    try:
        from triton.backends.nvidia.driver import expand_signature
        return expand_signature(sig, tensordesc_meta)
    except ImportError:
        pass
    import re
    out, i = [], 0
    for t in sig:
        if not (isinstance(t, str) and t.startswith("tensordesc")):
            out.append(t)
            continue
        meta = tensordesc_meta[i] if tensordesc_meta else None
        i += 1
        m = re.match(r"tensordesc<([^[>]*)\[([^]]*)\]", t)
        ndim = m.group(2).count(",") + 1
        if meta is None:
            out += ["*" + m.group(1)] + ["i64"] * (2 * ndim) + (["i1"] if _release() >= (3, 5) else [])
        else:
            out.append("nvTmaDesc")
        out += ["i32"] * ndim + ["i64"] * ndim
    return out


def _release_decompose_descriptor(arg):
    """a host tensor descriptor's values where the compiler left no tensor
    map: triton.backends.driver's decompose_descriptor (3.7+), before that
    the NVIDIA driver's make_tensordesc_arg(arg, None)"""
    try:
        from triton.backends.driver import decompose_descriptor
    except ImportError:
        from triton.backends.nvidia.driver import make_tensordesc_arg
        return make_tensordesc_arg(arg, None)
    return decompose_descriptor(arg)


def _release_set_driver(cfg):
    """the driver set active, without making the default one (a GPU's or
    none): 3.5+ keep it in _active; 3.3 and 3.4 in active, the default a
    lazy proxy until set"""
    if hasattr(cfg, "_active"):
        return cfg._active
    return None if cfg.active is cfg.default else cfg.active


def _release_load_binary_result(r: tuple) -> tuple:
    """load_binary's answer: module, function, registers, spills and (from
    3.4) the threads a block can have"""
    return r[:4] if _release() < (3, 4) else r


def _release_allocator(allocation):
    """the allocator triton.set_allocator set: a context variable from 3.5,
    the module's global before"""
    a = allocation._allocator
    return a.get() if isinstance(a, contextvars.ContextVar) else a


def _release_has_profile_allocator(allocation) -> bool:
    """whether a profile allocator is set (the function arrived in 3.8)"""
    f = getattr(allocation, "has_profile_allocator", None)
    return bool(f and f())


def _release_install_specialize(jit):
    """NumPy arrays as pointer arguments: 3.6+ specialise in C
    (native_specialize_impl, wrapped by _specialize); 3.3-3.5 in Python,
    through the specialize_impl that create_specialize_impl makes for each
    binder, wrapped here to see an array as a tc5 Tensor"""
    if hasattr(jit, "native_specialize_impl"):
        if not getattr(jit.native_specialize_impl, "tc5", False):
            jit.native_specialize_impl = _specialize(jit.native_specialize_impl)
        return
    create = jit.create_specialize_impl
    if getattr(create, "tc5", False):
        return

    def create_specialize_impl(*a, **k):
        impl = create(*a, **k)

        def specialize_impl(arg, *args, **kwargs):
            if isinstance(arg, np.ndarray):
                try:
                    arg = Tensor(arg, "array")
                except (TypeError, ValueError) as e:  # named as _specialize names it
                    raise type(e)(f"{_arg_name(arg)}: {str(e)[len('array: '):]}") from None
            return impl(arg, *args, **kwargs)

        return specialize_impl

    create_specialize_impl.tc5 = True
    jit.create_specialize_impl = create_specialize_impl


# ---------------------------------------------------------------------------
# the launcher
# ---------------------------------------------------------------------------

_compile_only = contextvars.ContextVar("tc5_triton_compile_only", default=False)


def _ptx_of(metadata):
    """the PTX Triton wrote beside the kernel's binary (its cache group)"""
    from triton.runtime.cache import get_cache_manager
    cm = get_cache_manager(metadata.hash)
    group = cm.get_group(f"{metadata.name}.json") or {}
    for f, p in group.items():
        if f.endswith(".ptx"):
            with open(p) as fh:
                return fh.read()
    # the kernel object being loaded (CompiledKernel._init_handles creates the launcher)
    f = sys._getframe(2)
    while f is not None:
        k = f.f_locals.get("self")
        if k is not None and getattr(k, "metadata", None) is metadata and hasattr(k, "asm"):
            return k.asm["ptx"]
        f = f.f_back
    raise RuntimeError(f"tc5: no PTX for kernel {metadata.name} (hash {metadata.hash}) in Triton's cache")


def _leaf_types(sig, out):
    if isinstance(sig, tuple):
        for s in sig:
            _leaf_types(s, out)
    else:
        out.append(sig)


_FLOAT = {"fp16": "<e", "fp32": "<f", "f32": "<f", "fp64": "<d"}


def _value_bits(ty: str, x, size: int, what: str) -> int:
    """a scalar parameter's bits, as Triton's launcher converts it"""
    if ty in ("fp16", "fp32", "f32", "fp64", "bf16"):
        if not isinstance(x, (int, float, np.integer, np.floating)):
            raise TypeError(f"{what}: a {ty} parameter takes a number, not {type(x).__name__}")
        v = float(x)
        if ty == "bf16":
            return int(np.array(v, dtype=ml_dtypes.bfloat16).view(np.uint16))
        if ty == "fp16":
            return int(np.array(v, dtype=np.float16).view(np.uint16))
        return struct.unpack("<Q" if ty == "fp64" else "<I", struct.pack(_FLOAT[ty], v))[0]
    if isinstance(x, (bool, np.bool_)):
        return int(bool(x))
    if not isinstance(x, (int, np.integer)):
        raise TypeError(f"{what}: a {ty} parameter takes an integer, not {type(x).__name__}")
    return int(x) & ((1 << (8 * size)) - 1)


class Launcher:
    """Triton's launcher (CudaLauncher) for tc5: the same parameters in the
    same order (constexprs dropped, tuples flattened, host tensor
    descriptors expanded, global and profile scratch last), the same grid
    (x times num_ctas, clusters of num_ctas), hooks around the launch; the
    kernel's PTX runs on tc5 with every buffer at its host address."""

    def __init__(self, src, metadata):
        self.name = metadata.name
        self.signature = dict(src.signature)
        self.tensordesc_meta = getattr(metadata, "tensordesc_meta", None)
        self.expanded = []
        _leaf_types(tuple(_release_expand_signature(self.signature.values(), self.tensordesc_meta)), self.expanded)
        self.expanded = [t for t in self.expanded if t != "constexpr"]
        self.num_warps = metadata.num_warps
        self.num_ctas = getattr(metadata, "num_ctas", 1)
        self.shared = metadata.shared
        self.global_scratch_size = metadata.global_scratch_size
        self.global_scratch_align = metadata.global_scratch_align
        # releases before 3.5 pass no profile scratch (their kernels have no parameter for it)
        self.profile_scratch_param = hasattr(metadata, "profile_scratch_size")
        self.profile_scratch_size = getattr(metadata, "profile_scratch_size", 0)
        self.profile_scratch_align = getattr(metadata, "profile_scratch_align", 1)
        self.ptx = _ptx_of(metadata)
        self.file = f"{self.name}.ptx"
        from . import _tc5, Error
        try:
            self.params = _tc5.ptx_params(self.ptx, self.file, self.name)
        except Error as e:
            if not _compile_only.get():
                raise _with_source(e, self.ptx, self.file) from None
            # autotuning: a config tc5 cannot run is skipped like one that does not fit
            raise _Refused(str(e)) from e

    # the arguments as Triton's launcher flattens them: (type, value, name) each
    def _flatten(self, args):
        out = []
        desc = [0]

        def visit(ty, x, what):
            if isinstance(ty, tuple):
                if not isinstance(x, (tuple, list)) or len(x) != len(ty):
                    raise TypeError(f"{what}: a tuple of {len(ty)}, not {x!r}")
                for i, (t, v) in enumerate(zip(ty, x)):
                    visit(t, v, f"{what}[{i}]")
            elif ty == "constexpr":
                return
            elif isinstance(ty, str) and ty.startswith("tensordesc"):
                meta = self.tensordesc_meta[desc[0]] if self.tensordesc_meta else None
                desc[0] += 1
                for v in _tensordesc_arg(x, meta, what):
                    out.append((None, v, what))
            else:
                out.append((ty, x, what))

        for (name, ty), x in zip(self.signature.items(), args):
            visit(ty, x, name if isinstance(name, str) else str(name))
        return out

    def _scratch(self, size, align, grid, alloc):
        if size <= 0:
            return None
        buf = alloc(grid * self.num_ctas * size, align, 0)
        a = _address(buf, "the allocator's buffer")
        if align and a % align:
            raise ValueError(f"tc5: the allocator's buffer for kernel {self.name} is at 0x{a:x}, not aligned to the "
                             f"{align} bytes it was asked for (a CPU tensor is 64-byte aligned: over-allocate "
                             f"and slice, or allocate with numpy)")
        return buf

    def __call__(self, gridX, gridY, gridZ, stream, function, kernel_metadata, launch_metadata, launch_enter_hook,
                 launch_exit_hook, *args):
        from triton.runtime import _allocation
        ngrid = gridX * gridY * gridZ
        global_scratch = self._scratch(self.global_scratch_size, self.global_scratch_align, ngrid,
                                       _release_allocator(_allocation))
        if _release_has_profile_allocator(_allocation):
            profile_scratch = self._scratch(self.profile_scratch_size, self.profile_scratch_align, ngrid,
                                            _allocation._profile_allocator.get())
        else:
            profile_scratch = self._scratch(self.profile_scratch_size, self.profile_scratch_align, ngrid,
                                            _default_profile_scratch)
        if launch_enter_hook is not None:
            launch_enter_hook(launch_metadata)
        flat = self._flatten(args)
        flat.append(("*i8", global_scratch, "global scratch"))
        types = self.expanded + ["*i8"]  # the launcher's own types (descriptors expanded)
        if self.profile_scratch_param:
            flat.append(("*i8", profile_scratch, "profile scratch"))
            types.append("*i8")
        if len(flat) != len(self.params) or len(types) != len(flat):
            raise RuntimeError(f"tc5: kernel {self.name} has {len(self.params)} parameters; Triton's launcher "
                               f"rules give {len(flat)} arguments of {len(types)} types")
        flat = [(t, x, what) for t, (_, x, what) in zip(types, flat)]
        if ngrid > 0 and not _compile_only.get():
            self.function = function  # its cubin: ptxas's register count for the timing model
            graph = _graph_capturing()
            if graph is not None:  # torch.cuda.graph: recorded, run at replay (tc5.torch_cuda.CUDAGraph)
                graph._record_launch(lambda: self._launch(gridX, gridY, gridZ, flat))
            else:
                self._launch(gridX, gridY, gridZ, flat)
        if launch_exit_hook is not None:
            launch_exit_hook(launch_metadata)

    def _launch(self, gridX, gridY, gridZ, flat):
        regions = _Regions()
        packed = []
        pointers = []  # addresses passed by value and found in pointer-sized memory
        for (ty, x, what), (size, is_ptr) in zip(flat, self.params):
            if isinstance(x, _TMap):
                regions.add(x.base, what)
                r = _storage(x.base, what)
                if r is None:
                    raise ValueError(f"{what}: the tensor descriptor's base has no memory")
                lo, n, _ = r
                packed.append(TensorMap_at(x.spec, _view(x.address, lo + n - x.address)))
            elif isinstance(ty, str) and ty.startswith("*"):
                if x is not None and _bare_pointer(x):  # an address alone: its allocation found as an int's
                    pointers.append(np.array([_address(x, what)], dtype=np.uint64))
                elif x is not None and not isinstance(x, (int, np.integer)):
                    regions.add(x, what)
                    if ty.lstrip("*k") in ("i64", "u64") and (isinstance(x, (np.ndarray, Tensor))
                                                              or memory._is_torch(x)):
                        pointers.append(x)
                a = _address(x, what)
                if isinstance(x, (int, np.integer)) and a:
                    pointers.append(np.array([a], dtype=np.uint64))
                packed.append(a)
            elif ty == "nvTmaDesc":
                raise TypeError(f"{what}: a tensor map parameter needs a host TensorDescriptor")
            else:
                packed.append(_value_bits(ty, x, size, what))
        # pointers stored in the kernel's memory (pointer arrays): the live tensors they name
        found = []
        for p in pointers:
            a = p.array if isinstance(p, Tensor) else p
            if not isinstance(a, np.ndarray):
                a = a.detach().numpy() if memory._is_torch(a) else np.asarray(a)
            found.append(a.reshape(-1)[:1 << 20].view(np.uint64))
        if found:
            regions.add_named(np.concatenate(found))
        check = _env("TC5_TRITON_CHECK", "default")
        grid = (gridX * self.num_ctas, gridY, gridZ)
        cluster = (self.num_ctas, 1, 1) if self.num_ctas > 1 else None
        from . import BoundsError
        try:
            findings, printed = _run(self.ptx, grid, 32 * self.num_warps, packed, shared=self.shared, check=check,
                                     name=self.file, entry=self.name, cluster=cluster, buffers=regions.views(),
                                     regs=_launch_regs(self))
        except BoundsError as e:  # the buffer nearest the address by its argument's name
            raise regions.named(e) from None
        if printed:
            sys.stdout.write(printed)
        if findings:
            _report(findings, self.name)


def _graph_capturing():
    """the torch.cuda shim's CUDA graph under capture, or None"""
    tc = sys.modules.get("tc5.torch_cuda")
    return tc.capturing() if tc is not None else None


def _ptx_source(ptx: str, line: int) -> str:
    """"FILE:LINE" of the Python line PTX line `line` came from (the .loc
    before it; the outermost inlined_at), as tc5 names it in findings; ""
    when the PTX carries none (a load error comes before tc5 has a module)"""
    import re
    files = dict((int(m.group(1)), m.group(2)) for m in re.finditer(r'^\s*\.file\s+(\d+)\s+"([^"]*)"', ptx, re.M))
    loc = None
    for i, text in enumerate(ptx.splitlines()[:max(line - 1, 0)], 1):
        m = re.match(r"\s*\.loc\s+(\d+)\s+(\d+)\s+\d+(.*)", text)
        if m:
            at = re.search(r"inlined_at\s+(\d+)\s+(\d+)", m.group(3).split("//")[0])
            loc = (int(m.group(1)), int(m.group(2)), at and (int(at.group(1)), int(at.group(2))))
    if not loc or not loc[1]:
        return ""
    f, ln, at = loc
    if at:
        return f"{files.get(at[0], '?')}:{at[1]} (in {os.path.basename(files.get(f, '?'))}:{ln})"
    return f"{files.get(f, '?')}:{ln}"


def _with_source(e, ptx: str, file: str):
    """a load error of tc5 with the Python line of the PTX line it names"""
    import re
    msgs = list(getattr(e, "messages", []))
    extra = []
    for m in msgs:
        r = re.match(re.escape(file) + r":(\d+)", m)
        src = r and _ptx_source(ptx, int(r.group(1)))
        if src:
            extra.append(f"{file}:{r.group(1)} is {src}")
    if not extra:
        return e
    e2 = type(e)(str(e) + "".join(f"\n  - {x}" for x in extra))
    e2.status = getattr(e, "status", None)
    e2.messages = msgs + extra
    return e2


def _refused_class():
    from triton.runtime.errors import OutOfResources

    class Refused(OutOfResources):
        """a config whose PTX tc5 refuses (autotuning skips it, as one that does not fit)"""

        def __init__(self, message):
            self.message = message
            Exception.__init__(self, message)

        def __str__(self):
            return f"tc5 cannot run this config: {self.message}"

        def __reduce__(self):
            return (type(self), (self.message,))

    return Refused


class _RefusedProxy:
    cls = None

    def __call__(self, message):
        if _RefusedProxy.cls is None:
            _RefusedProxy.cls = _refused_class()
        return _RefusedProxy.cls(message)


_Refused = _RefusedProxy()


class TensorMap_at:
    """a tensor map over the bytes from its base address on (run_ptx's TensorMap with its own buffer)"""

    def __init__(self, spec, view):
        self.spec, self.view = spec, view


_launches = 0  # kernels the door has launched in this process (launches())
_launch_lock = threading.Lock()


def launches() -> int:
    """how many kernels the door has launched in this process: a peer suite's harness reads it
    before and after each test (a test that passes with none launched did not run on tc5)"""
    return _launches


def _run(ptx, grid, block, packed, *, shared, check, name, entry, cluster, buffers, regs=0):
    """tc5.run_ptx at host addresses, with the values already encoded (and
    the timing model's prediction, under TC5_TIMING or predict(), handed to
    _timing_taken)"""
    global _launches
    from . import _tc5
    with _launch_lock:
        _launches += 1
    args = [("global", b) for b in buffers]
    for (size, _), v in zip(_tc5.ptx_params(ptx, name, entry), packed):
        if isinstance(v, TensorMap_at):
            args.append(("tmap", v.spec, v.view))
        else:
            args.append((size, int(v) & ((1 << (8 * size)) - 1) if size < 8 else int(v) & (2**64 - 1)))
    g = tuple(grid) + (1,) * (3 - len(grid))
    c = tuple(cluster) + (1,) * (3 - len(cluster)) if cluster else (0, 0, 0)
    return _timing_taken(_tc5.run_ptx(ptx, name, entry, g, (block, 1, 1), c, shared, check, 0, args, True,
                                      *_timing_args(regs)), name)


def _report(findings, kernel: str):
    """a checker finding: tc5.HazardError, or a warning (TC5_TRITON_FINDINGS=warn)"""
    from . import HazardError
    lines = []
    for f in findings:
        where = f"{kernel}.ptx:{f['line']}"
        if f.get("src"):
            where += f" ({f['src']})"
        lines.append(f"[{f['rule']}] at {where}" + (f" x{f['count']}" if f.get("count", 1) > 1 else "")
                     + "\n" + f["text"].rstrip())
    rules = ", ".join(dict.fromkeys(f["rule"] for f in findings))
    msg = f"tc5: kernel {kernel} breaks {rules} (the checker's {len(findings)} finding(s)):\n" + "\n".join(lines)
    if _env("TC5_TRITON_FINDINGS", "raise") == "warn":
        warnings.warn(msg, RuntimeWarning, stacklevel=3)
        return
    e = HazardError(msg)
    e.status = "TC5_EHAZARD"
    e.messages = [f["text"] for f in findings]
    e.findings = findings
    raise e


def _default_profile_scratch(size, align, stream):
    return _aligned_zeros(size, align)


def _aligned_zeros(size: int, align: int) -> np.ndarray:
    align = max(int(align or 1), 256)
    raw = np.zeros(size + align, dtype=np.int8)
    off = (-raw.ctypes.data) % align
    return raw[off:off + size]


# ---------------------------------------------------------------------------
# the driver's utilities (CudaUtils' functions that Triton and users call)
# ---------------------------------------------------------------------------

def _cubin_regs(cubin: bytes, name: str) -> int:
    """registers per thread ptxas gave the kernel (what cuFuncGetAttribute's
    NUM_REGS reads): the EIATTR_REGCOUNT record of the cubin's .nv.info for
    the symbol of the kernel's .text section (older cubins: the high byte of
    that section's sh_info)"""
    try:
        if cubin[:4] != b"\x7fELF" or cubin[4] != 2:
            return 0
        shoff = struct.unpack_from("<Q", cubin, 0x28)[0]
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", cubin, 0x3A)

        def sh(i):  # name, type, flags, addr, offset, size, link, info, align, entsize
            return struct.unpack_from("<IIQQQQIIQQ", cubin, shoff + i * shentsize)

        stroff = sh(shstrndx)[4]

        def sname(h):
            return cubin[stroff + h[0]:cubin.index(b"\0", stroff + h[0])]

        heads = [sh(i) for i in range(shnum)]
        text = next((h for h in heads if sname(h) == b".text." + name.encode()), None)
        if text is None:
            return 0
        sym = text[7] & 0xFFFFFF
        for h in heads:
            if sname(h) != b".nv.info":
                continue
            d, i = cubin[h[4]:h[4] + h[5]], 0
            while i + 4 <= len(d):
                fmt, attr = d[i], d[i + 1]
                if fmt == 4:  # EIFMT_SVAL: a 16-bit size, then the data
                    n = struct.unpack_from("<H", d, i + 2)[0]
                    if attr == 0x2F and n >= 8 and struct.unpack_from("<I", d, i + 4)[0] == sym:
                        return struct.unpack_from("<I", d, i + 8)[0]
                    i += 4 + n
                elif fmt == 1:  # EIFMT_NVAL
                    i += 2
                else:  # EIFMT_BVAL, EIFMT_HVAL
                    i += 4
        return text[7] >> 24
    except (struct.error, ValueError, IndexError):
        return 0


class _Module:
    """what load_binary hands back: the kernel's name and binary"""

    def __init__(self, name, binary):
        self.name, self.binary = name, binary


class Utils:
    """the driver's utils (Triton's CudaUtils) for a B200 on tc5"""

    def load_binary(self, name, kernel, shared, device):
        regs = _cubin_regs(kernel, name) if isinstance(kernel, (bytes, bytearray)) else 0
        # threads a block can have with that many registers (64K a block, allocated 256 a warp)
        per_warp = -(-max(regs, 1) * 32 // 256) * 256
        max_threads = min(1024, (_props()["max_num_regs"] // per_warp) * 32)
        return _release_load_binary_result((_Module(name, kernel), 0, regs, 0, max_threads))

    def unload_module(self, module):
        pass

    def get_device_properties(self, device=0):
        return dict(_props())

    def get_device_capability(self, device=0):
        return divmod(target_arch(), 10)

    def get_current_device(self):
        return 0

    def set_current_device(self, device):
        pass

    def get_default_stream(self, device=0):
        return 0

    def is_stream_capturing(self, stream):
        return False

    def cuOccupancyMaxActiveClusters(self, function, shared, cluster):
        return _props()["multiprocessor_count"] // max(int(cluster), 1)

    def set_printf_fifo_size(self, size):
        pass

    def fill_tma_descriptor_tiled(self, *args):
        raise NotImplementedError("tc5: tensor maps are made at launch from the host TensorDescriptor "
                                  "(Triton's make_tensordesc_arg); fill_tma_descriptor_tiled has no GPU to fill")

    fill_tma_descriptor_im2col = fill_tma_descriptor_tiled


class _Event:
    """a timing event on the host clock"""

    def __init__(self, enable_timing=False, **kwargs):
        self.t = None

    def record(self, stream=None):
        self.t = time.perf_counter()

    def synchronize(self):
        pass

    def elapsed_time(self, end):
        return ((end.t or 0.0) - (self.t or 0.0)) * 1e3


class _Stream:
    """a CUDA stream under tc5: launches are synchronous, so ordering between streams holds already
    (wait_stream, wait_event do nothing; query is True: all work done)"""

    def __init__(self, *args, **kwargs):
        pass

    def synchronize(self):
        pass

    def wait_stream(self, stream):
        pass

    def wait_event(self, event):
        pass

    def record_event(self, event=None):
        event = event or _Event()
        event.record(self)
        return event

    def query(self):
        return True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class DeviceInterface:
    """torch.cuda's device functions that Triton calls (do_bench, profile
    scratch), on the host: launches are synchronous"""
    Event = _Event
    Stream = _Stream
    ExternalStream = _Stream

    @staticmethod
    def synchronize(device=None):
        pass

    @staticmethod
    def current_device():
        return 0

    @staticmethod
    def default_stream(device=None):
        return _Stream()

    @staticmethod
    def current_stream(device=None):
        return _Stream()

    @staticmethod
    def stream(s):
        return _Stream()

    @staticmethod
    def set_stream(s):
        pass


# ---------------------------------------------------------------------------
# the timing model in the door (issue 47's Python side): TC5_TIMING, predict()
# ---------------------------------------------------------------------------

_timing_scope = contextvars.ContextVar("tc5_triton_timing", default=None)  # the innermost Prediction


class Prediction:
    """The timing model's predictions of the launches made in a `with
    tc5.triton.predict(gpu)` block: .launches (one dict a launch: run_ptx's
    timing dict plus "kernel"), .seconds and .ms (their sum)."""

    def __init__(self, gpu: str, parent):
        self.gpu, self.parent, self.launches = gpu, parent, []

    @property
    def seconds(self) -> float:
        return sum(d["seconds"] for d in self.launches)

    @property
    def ms(self) -> float:
        return self.seconds * 1e3

    def __repr__(self):
        return f"Prediction({self.gpu!r}, {len(self.launches)} launch(es), {self.seconds * 1e6:.3f} us)"


def timing_gpu() -> str | None:
    """the GPU the door's launches are predicted for: the innermost
    predict() block's, else TC5_TIMING's; None: the timing model is off"""
    p = _timing_scope.get()
    if p is not None:
        return p.gpu
    v = _env("TC5_TIMING").strip().lower()
    return None if v in ("", "none") else v


class predict:
    """`with tc5.triton.predict("b200") as p:` -- the door's launches in the
    block run with the timing model for that GPU (None: TC5_TIMING's); p
    collects each launch's prediction (p.seconds, p.launches). A launch of
    a grid larger than the model's sample runs only the sampled clusters
    (their outputs alone are written: docs/timing.md). An unknown GPU, or
    one that cannot run the kernel's target, raises tc5.InvalidArgumentError
    naming it at the first launch."""

    def __init__(self, gpu: str | None = None):
        self.gpu = gpu

    def __enter__(self) -> Prediction:
        gpu = self.gpu or timing_gpu()
        if not gpu:
            raise ValueError("tc5.triton.predict(): no GPU named and TC5_TIMING is unset (b200, h100, h200)")
        p = Prediction(str(gpu).lower(), _timing_scope.get())
        self._tok = _timing_scope.set(p)
        return p

    def __exit__(self, *exc):
        _timing_scope.reset(self._tok)
        return False


def _hopper_props() -> dict:
    """the Hopper part the driver reports with TC5_TRITON_ARCH=90: the H200
    when the timing model predicts for one, else the H100"""
    return H200 if timing_gpu() == "h200" else H100


def _timing_args(regs: int) -> tuple:
    """the binding's trailing arguments (rules, schedule, schedules, timing,
    timing_trace, timing_sample, timing_regs) when the model is on; () when
    it is off (then TC5_TIMING is unset: the C runner agrees)"""
    gpu = timing_gpu()
    if gpu is None:
        return ()
    return ((), 0, 0, gpu, None, 0, int(regs))


def _launch_regs(launcher) -> int:
    """registers a thread of the launcher's kernel has (its cubin's
    EIATTR_REGCOUNT: what ptxas gave it), for the model's occupancy; 0
    when the model is off or the cubin is not at hand (the C side then asks
    ptxas or estimates)"""
    if timing_gpu() is None:
        return 0
    b = getattr(getattr(launcher, "function", None), "binary", None)
    return _cubin_regs(bytes(b), launcher.name) if isinstance(b, (bytes, bytearray)) else 0


def _timing_taken(r, name: str):
    """(findings, printed) of the binding's answer; its prediction (a third
    item, where the model ran) goes to every enclosing predict() block"""
    if len(r) > 2 and r[2] is not None:
        d = dict(r[2], kernel=name[:-4] if name.endswith(".ptx") else name)
        p = _timing_scope.get()
        while p is not None:
            p.launches.append(d)
            p = p.parent
    return r[0], r[1]


_no_prediction_warned = False


@contextlib.contextmanager
def _l2_state(state: str):
    """the L2 the launches of a benchmark find, unless the user said
    (TC5_TIMING_L2, docs/timing.md): Triton's do_bench zeroes a 256 MB
    buffer before each run (cold), do_bench_cudagraph replays the captured
    launches on the same data (warm)"""
    if os.environ.get("TC5_TIMING_L2"):
        yield
        return
    os.environ["TC5_TIMING_L2"] = state
    try:
        yield
    finally:
        os.environ.pop("TC5_TIMING_L2", None)


def _predicted_bench(fn, grad_to_none, quantiles, return_mode, l2="cold"):
    """do_bench under the timing model: fn runs once; the time is the sum
    of its launches' predicted milliseconds on the GPU TC5_TIMING names,
    each finding the L2 as the benchmark it stands for leaves it (l2).
    A fn that launched no kernel through tc5 (PyTorch's own operations: a
    cuBLAS baseline) has no prediction: NaN, with a warning once."""
    from triton.testing import _summarize_statistics
    global _no_prediction_warned
    if grad_to_none is not None:
        for x in grad_to_none:
            x.grad = None
    with predict() as p, _l2_state(l2):
        fn()
    if not p.launches:
        if not _no_prediction_warned:
            _no_prediction_warned = True
            warnings.warn(f"tc5: do_bench under TC5_TIMING={p.gpu}: the function launched no kernel through tc5 "
                          f"(PyTorch's own operations are not modelled): its time is NaN", RuntimeWarning,
                          stacklevel=3)
        return _summarize_statistics([float("nan")], quantiles, return_mode)
    return _summarize_statistics([p.ms], quantiles, return_mode)


# ---------------------------------------------------------------------------
# benchmarking: do_bench runs once; autotuning compiles configs up to the first that fits
# ---------------------------------------------------------------------------

# set while @triton.autotune benchmarks a config (Autotuner._bench): the
# autotuner's benchmarker is autotune_bench whichever interface reaches it
_autotuning = contextvars.ContextVar("tc5_triton_autotuning", default=False)


def do_bench(fn, warmup=25, rep=100, grad_to_none=None, quantiles=None, return_mode="mean"):
    """triton.testing.do_bench on tc5: fn runs once; the time is the host's
    wall clock for that run (tc5's, not a B200's). Under TC5_TIMING (or in
    a predict() block): the predicted milliseconds of fn's launches on that
    GPU (NaN where fn launched none through tc5), from a cold L2 as
    Triton's do_bench flushes it (TC5_TIMING_L2 overrides). Called by
    @triton.autotune for a config (its warmup/rep interface, FlagGems'
    libtuner): autotune_bench, as the driver's benchmarker answers"""
    from triton.testing import _summarize_statistics
    assert return_mode in ["min", "max", "mean", "median", "all"]
    if _autotuning.get():
        return autotune_bench(fn, quantiles=quantiles)
    if timing_gpu() is not None:  # TC5_TIMING: the model's milliseconds
        return _predicted_bench(fn, grad_to_none, quantiles, return_mode)
    if grad_to_none is not None:
        for x in grad_to_none:
            x.grad = None
    t = time.perf_counter()
    fn()
    return _summarize_statistics([max((time.perf_counter() - t) * 1e3, 1e-6)], quantiles, return_mode)


def do_bench_cudagraph(fn, rep=20, grad_to_none=None, quantiles=None, return_mode="mean"):
    """triton.testing.do_bench_cudagraph on tc5: do_bench (runs once);
    under TC5_TIMING from a warm L2, as graph replay on the same data"""
    if _autotuning.get():
        return autotune_bench(fn, quantiles=quantiles, l2="warm")
    if timing_gpu() is not None:
        assert return_mode in ["min", "max", "mean", "median", "all"]
        return _predicted_bench(fn, grad_to_none, quantiles, return_mode, l2="warm")
    return do_bench(fn, grad_to_none=grad_to_none, quantiles=quantiles, return_mode=return_mode)


def autotune_bench(kernel_call, quantiles=None, l2="cold", **kwargs):
    """the driver's benchmarker, which @triton.autotune calls for each config:
    the config is compiled and checked against the B200's limits (shared
    memory, Tensor Memory, threads for its registers: Triton raises
    OutOfResources, and the autotuner skips it), not run; every config
    that fits ties, so the autotuner picks the first. Under TC5_TIMING (or
    in a predict() block) a config that fits then runs, and its predicted
    milliseconds on that GPU rank it: @triton.autotune picks by the model
    (from a cold L2: the driver's benchmarker it stands for is do_bench;
    warm where the autotuner's use_cuda_graph made it do_bench_cudagraph).
    The autotuner's older interface (warmup=, rep=, use_cuda_graph=: Triton
    calls triton.testing.do_bench or do_bench_cudagraph itself) is answered
    here too: without the timing model a config would otherwise run once and
    be ranked by the host's wall clock, a CPU's noise (two runs could pick
    different configs, and a large launch ran once per config)"""
    tok = _compile_only.set(True)
    try:
        kernel_call()
    finally:
        _compile_only.reset(tok)
    gpu = timing_gpu() or autotune_gpu()
    if gpu is not None:  # the config runs under the model (TC5_TRITON_AUTOTUNE alone: the launch after it not)
        with predict(gpu):
            return _predicted_bench(kernel_call, None, quantiles, "mean", l2=l2)
    return [1.0] * len(quantiles) if quantiles else 1.0


def autotune_gpu() -> str | None:
    """the GPU whose predicted times rank an autotuner's configs when the
    timing model is off for the launches themselves: TC5_TRITON_AUTOTUNE
    (b200, h100, h200; unset or "first": every config that fits ties and
    the first is picked). Each config that fits then runs once under the
    model, a large grid sampled as the model samples it (docs/timing.md),
    and the launch that follows runs whole, without the model"""
    v = _env("TC5_TRITON_AUTOTUNE").strip().lower()
    return None if v in ("", "first") else v


def ranks_configs() -> bool:
    """whether the autotuner's configs are ranked by a model's predictions
    (TC5_TIMING, a predict() block or TC5_TRITON_AUTOTUNE), so every config
    that fits is benchmarked; else they tie and the first that fits wins"""
    return timing_gpu() is not None or autotune_gpu() is not None


def _release_install_autotune():
    """Autotuner._bench (every Triton release the door supports has it)
    benchmarks one config: wrapped so that inside it do_bench is the
    autotuner's benchmarker (_autotuning), and with prune_configs so that no
    config after the first that fits is compiled (triton_backend.driver's
    _wrap_autotuner, which TC5_TRITON=1 applies as the autotuner loads)"""
    from triton.runtime.autotuner import Autotuner
    from .triton_backend.driver import _wrap_autotuner
    _wrap_autotuner(Autotuner)


def _bench_skipped(self, *args, **kwargs):
    names = ", ".join(str(getattr(b, "plot_name", "?")) for b in
                      (self.benchmarks if isinstance(self.benchmarks, list) else [self.benchmarks]))
    print(f"tc5: benchmark {names} skipped (a sweep of timings; TC5_TRITON_BENCH=1 runs it, each do_bench once)")


# ---------------------------------------------------------------------------
# PyTorch scripts written for CUDA: the smallest shim
# ---------------------------------------------------------------------------

_shim_lock = threading.Lock()
_shim_done = False


def torch_cuda_shim():
    """For scripts that name CUDA themselves (`device="cuda"`,
    `torch.cuda.get_device_capability()`...): tensors made for "cuda" are
    made on the CPU (a TorchFunctionMode rewrites the device of factory
    functions, .to() and .cuda()), torch.cuda's queries answer for the B200
    (available, capability (10, 0), 148 SMs; synchronize and empty_cache do
    nothing),
    layer_norm of float16/bfloat16 tensors computes in float32 as CUDA's
    kernels do (the CPU's backward accumulates in float16: off by 8 times
    the error of tutorial 05's kernel), the product of two float16/bfloat16
    matrices (torch.mm, matmul, @) is cuBLAS's on a B200 (tc5.gemm, rounded
    to the type), and Triton's cuBLASLt binding is tc5.gemm.
    TC5_TRITON_TORCH_CUDA=1 installs it with the driver."""
    global _shim_done
    import torch
    from torch.overrides import TorchFunctionMode
    with _shim_lock:
        if _shim_done:
            return
        _shim_done = True

    def cpu(d):
        """the CPU for a device that names CUDA (tc5.device.is_cuda_device: a device index too, x.to(0)), a string
        for a string; any other argument as it is"""
        if not _device.is_cuda_device(d):
            return d
        return "cpu" if isinstance(d, str) else torch.device("cpu")

    from .inductor import faking as _inductor_faking
    layer_norms = (torch.nn.functional.layer_norm, torch.layer_norm)
    low = (torch.float16, torch.bfloat16)
    matmuls = (torch.mm, torch.matmul, torch.Tensor.mm, torch.Tensor.matmul, torch.Tensor.__matmul__)

    def blas(a, b):
        """a @ b of two float16/bfloat16 matrices as cuBLAS computes it on a B200:
        Tensor Core steps with a float32 accumulator (tc5.gemm), rounded to the type"""
        from . import gemm
        d = gemm(_np(a), _np(b), kind="f16")
        return torch.from_numpy(d).to(a.dtype)

    def aligned(t, fill=None):
        """t in memory aligned as CUDA's caching allocator aligns (512 bytes; the CPU's: 64).
        fill (fresh_factory's): "zero", t made by torch.empty for a zeros factory, zeroed where it
        ends; "none", an empty factory's (its contents undefined: not copied)"""
        from torch.utils._mode_utils import no_dispatch
        if not isinstance(t, torch.Tensor) or t.requires_grad or t.data_ptr() % 512 == 0 or t.numel() == 0 \
                or not t.is_contiguous():
            if fill == "zero":
                with no_dispatch():
                    t.zero_()
            return t
        n = t.numel() * t.element_size()
        with no_dispatch(), unfilled():  # the shim's own copy: no library's copy_ kernel (tc5.device's mode) for it
            buf = torch.empty(n + 512, dtype=torch.uint8)  # every byte written below (or undefined: "none")
            off = (-buf.data_ptr()) % 512
            out = buf[off:off + n].view(t.dtype).view(t.shape)
            if fill == "zero":
                out.zero_()
            elif fill != "none":
                out.copy_(t)
        return out

    @contextlib.contextmanager
    def unfilled():
        """torch.empty without deterministic mode's fill of uninitialised memory (a test's
        torch.use_deterministic_algorithms(True)): for memory the shim writes whole itself"""
        det = getattr(torch.utils, "deterministic", None)
        old = getattr(det, "fill_uninitialized_memory", None)
        if old is None or not old:
            yield
            return
        det.fill_uninitialized_memory = False
        try:
            yield
        finally:
            det.fill_uninitialized_memory = old

    def fresh_factory(func, kwargs):
        """(the factory to call, aligned's fill) for a "cuda" tensor factory (issue 50, speed): zeros
        and zeros_like made as empty and zeroed once in the aligned memory (not zeroed, then copied),
        empty's contents not copied (undefined; where deterministic algorithms fill uninitialised
        memory, copied as before); a float16/bfloat16 randn or normal(mean, std, size): tc5.device_random's maker
        (a float32 draw rounded once, as CUDA's); any other factory, or one with requires_grad: itself, copied"""
        normal = _device_random.factory(func, kwargs, _device.library_kernel)  # float16/bfloat16: CUDA's rounding
        if normal is not None:
            return normal, None
        if kwargs.get("requires_grad") or library_factory(func):
            return func, None
        empty = zeroed_empty.get(func)
        if empty is not None and not (func is torch.zeros and ("out" in kwargs or "names" in kwargs)):
            return empty[0], "zero"
        if func in (torch.empty, torch.empty_like) and not (
                torch.are_deterministic_algorithms_enabled()
                and getattr(getattr(torch.utils, "deterministic", None), "fill_uninitialized_memory", True)):
            return func, "none"
        return func, None

    # the factories fresh_factory makes as empty + one zeroing: factory -> (the empty factory, its ATen operator)
    zeroed_empty = {torch.zeros: (torch.empty, "zeros"), torch.zeros_like: (torch.empty_like, "zeros_like")}

    def library_factory(func):
        """whether a library registered a CUDA kernel (torch.library, tc5.device) for the ATen factory that fresh_factory
        would make otherwise (zeros as empty + a zeroing): the factory itself is called, and reaches that kernel
        through the dispatch mode, as on a GPU (FlagGems registers zeros and zeros_like). empty and empty_like are
        called as themselves, so a library's kernel for them is reached either way"""
        empty = zeroed_empty.get(func)
        return empty is not None and _device.library_kernel(empty[1])

    class _CudaIsCpu(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            if torch.compiler.is_dynamo_compiling() or _inductor_faking():  # traced as on a GPU (tc5.inductor)
                return func(*args, **(kwargs or {}))
            ans = _device.answer(func, args)  # a tensor's device, as a CUDA tensor answers (tc5.device)
            if ans is not _device.NOT_MINE:
                return ans
            ans = _device.torch_function(func, args, kwargs)  # CUDA's choice inside a composite (tc5.device)
            if ans is not NotImplemented:
                return ans
            kwargs = dict(kwargs or {})
            if kwargs.get("pin_memory"):  # page-locked memory is CUDA's runtime's; tc5's device memory is the host's
                kwargs["pin_memory"] = False
            dev = kwargs.get("device")  # an index too: a CUDA device's (driver.get_current_device())
            if "device" in kwargs and cpu(dev) is not dev:
                kwargs["device"] = cpu(dev)
                make, fill = fresh_factory(func, kwargs)
                with unfilled() if fill == "zero" else contextlib.nullcontext():  # zeroed below
                    t = make(*args, **kwargs)
                return aligned(t, fill)
            name = getattr(func, "__name__", "")
            if name == "cuda":
                return args[0]
            if name == "to":
                args = tuple(cpu(a) for a in args)
            if func in matmuls and len(args) == 2 and not kwargs and not _device.library_kernel("mm") and all(
                    isinstance(x, torch.Tensor) and x.dim() == 2 and x.dtype in low and not x.requires_grad
                    and x.device.type == "cpu" for x in args) and args[0].dtype == args[1].dtype:
                return blas(*args)
            if func in layer_norms and args and getattr(args[0], "dtype", None) in low and \
                    not torch.is_autocast_enabled("cuda") and \
                    not _device.library_kernel("native_layer_norm"):  # autocast / a library's kernel: theirs
                # CUDA's layer norm accumulates half-precision inputs in float32 (forward and
                # backward); the CPU's backward accumulates in the input's type
                dt = args[0].dtype
                up = tuple(a.float() if isinstance(a, torch.Tensor) and a.dtype == dt else a for a in args)
                kw = {k: v.float() if isinstance(v, torch.Tensor) and v.dtype == dt else v for k, v in kwargs.items()}
                return func(*up, **kw).to(dt)
            return func(*args, **kwargs)

    mode = _CudaIsCpu()
    mode.__enter__()
    _device.enter_dispatch()  # libraries' CUDA kernels (torch.library) reached (tc5.device)
    torch.Generator = _device.generator_class()  # torch.Generator(device="cuda"): the CPU's
    _device.install_autocast()  # torch.autocast("cuda") casts these tensors as CUDA's autocast would (tc5.device)
    _device.install_cuda_only_ops()  # torch.mm/addmm/bmm/baddbmm(out_dtype=): CPU kernels of CUDA's (tc5.device)

    try:  # Triton's own cuBLAS binding (tutorials 09, 10 compare with it): tc5.gemm's Tensor Core
        from triton._C.libtriton import nvidia
        nvidia.cublas.CublasLt = CublasLt
    except ImportError:
        pass

    from . import torch_cuda  # torch.cuda's queries answered as a B200's (one table: tc5/torch_cuda.py)
    torch_cuda.install(torch)
    from . import inductor  # torch.compile compiles for CUDA, its Triton kernels run on tc5 (tc5/inductor.py)
    inductor.install_lazily()

def _np(t):
    """a CPU tensor's memory as a NumPy array (the same memory)"""
    import torch
    if t.dtype in (torch.float8_e4m3fn, torch.float8_e5m2, torch.bfloat16):
        dt = {torch.float8_e4m3fn: ml_dtypes.float8_e4m3fn, torch.float8_e5m2: ml_dtypes.float8_e5m2,
              torch.bfloat16: ml_dtypes.bfloat16}[t.dtype]
        return t.detach().view(torch.uint8 if t.element_size() == 1 else torch.int16).numpy().view(dt)
    return t.detach().numpy()


def _unswizzle_scales(codes: np.ndarray, rows: int, kg: int) -> np.ndarray:
    """scale factors in the 32x4x4 layout of 128-row x 4-factor tiles (cuBLAS's,
    tutorial 10's): factor (r, g) of tile (r // 128, g // 4) at
    (r % 32) * 16 + (r % 128 // 32) * 4 + g % 4 of the tile -> rows x kg"""
    r = np.arange(rows)[:, None]
    g = np.arange(kg)[None, :]
    tile = (r // 128) * (kg // 4) + g // 4
    return codes.reshape(-1)[tile * 512 + (r % 32) * 16 + (r % 128 // 32) * 4 + g % 4]


def _store(out, d: np.ndarray):
    """D (float32) rounded into out's type, in place"""
    import torch
    out.copy_(torch.from_numpy(np.ascontiguousarray(d, dtype=np.float32)).to(out.dtype))


class CublasLt:
    """Triton's cuBLASLt binding (triton._C.libtriton.nvidia.cublas.CublasLt),
    computed by tc5.gemm: the Tensor Core's own arithmetic with a float32
    accumulator, D rounded to the output's type. matmul(A, B, C): C = A @ B^T
    (B is N x K); gemm(A, B, C, D, alpha, beta): D = alpha A @ B^T + beta C;
    block_scaled_matmul_mxfp8 / _nvfp4(A, B, D, scale_A, scale_B): scale
    factors in the 32x4x4 tile layout, ue8m0 a 32 of K / ue4m3 a 16 of K
    (fp4 packed two a byte, the first element in the low nibble)."""

    def __init__(self, workspace=None):
        self.workspace = workspace

    @staticmethod
    def _kind(a):
        import torch
        return "f16" if a.dtype in (torch.float16, torch.bfloat16) else "tf32" if a.dtype == torch.float32 \
            else "f8f6f4"

    def matmul(self, A, B, C):
        from . import gemm
        _store(C, gemm(_np(A), _np(B).T, kind=self._kind(A)))

    def gemm(self, A, B, C, D, alpha, beta):
        from . import gemm
        d = gemm(_np(A), _np(B).T, kind=self._kind(A)).astype(np.float32)
        _store(D, np.float32(alpha) * d + np.float32(beta) * _np(C).astype(np.float32))

    def _scaled(self, A, B, D, sa, sb, block, stype, fp4):
        from . import gemm
        a, b = _np(A), _np(B)
        if fp4:
            def unpack(x):
                x = x.view(np.uint8)
                return np.stack([x & 15, x >> 4], axis=-1).reshape(x.shape[0], -1)
            a, b = unpack(a), unpack(b)
        M, K = a.shape
        N = b.shape[0]
        sa = _unswizzle_scales(_np(sa).view(np.uint8), M, K // block)
        sb = _unswizzle_scales(_np(sb).view(np.uint8), N, K // block)
        kind = "mxf4nvf4" if stype == "ue4m3" else "mxf8f6f4"
        d = gemm(a, b.T, kind=kind, a_type="e2m1" if fp4 else None, b_type="e2m1" if fp4 else None,
                 scale_a=sa, scale_b=sb.T, scale_type=stype, block=block)
        _store(D, d)

    def block_scaled_matmul_mxfp8(self, A, B, D, scale_A, scale_B):
        self._scaled(A, B, D, scale_A, scale_B, 32, "ue8m0", False)

    def block_scaled_matmul_nvfp4(self, A, B, D, scale_A, scale_B):
        self._scaled(A, B, D, scale_A, scale_B, 16, "ue4m3", True)


# ---------------------------------------------------------------------------
# activation
# ---------------------------------------------------------------------------

_installed = False


def _specialize(native):
    """Triton's argument specialisation with NumPy arrays taken as tensors,
    and an argument Triton cannot type named"""

    def specialize_impl(backend, arg, is_const, specialize_value, align):
        try:
            if isinstance(arg, np.ndarray):
                arg = Tensor(arg, "array")
            return native(backend, arg, is_const, specialize_value, align)
        except KeyError as e:  # a tensor dtype Triton has no pointer type for
            dt = getattr(arg, "dtype", None)
            raise TypeError(f"{_arg_name(arg)}: a tensor of {dt}, which has no Triton pointer type ({e})") from None
        except (TypeError, ValueError) as e:
            m = str(e)
            if m.startswith("array: "):
                raise type(e)(f"{_arg_name(arg)}: {m[len('array: '):]}") from None
            if "failed to specialize" in m:
                raise TypeError(f"{_arg_name(arg)}: Triton takes no {type(arg).__name__} as an argument "
                                f"({m})") from None
            raise

    specialize_impl.tc5 = True
    return specialize_impl


def _arg_name(arg) -> str:
    """the parameter name the binder passed arg as (its caller's local)"""
    f = sys._getframe(2)
    try:
        for k, v in f.f_locals.items():
            if v is arg and k not in ("params", "options", "specialization"):
                return f"argument '{k}'"
    except Exception:
        pass
    return "an argument"


def _install():
    """what the tc5 driver changes in Triton's Python runtime (once):
    NumPy arrays as pointer arguments, do_bench runs once, benchmark sweeps
    skipped unless TC5_TRITON_BENCH=1, and with TC5_TRITON_TORCH_CUDA=1 the
    torch.cuda shim"""
    global _installed
    if _installed:
        return
    _installed = True
    _fp_fusion_default()
    import triton.runtime.jit as jit
    import triton.testing as tt
    _release_install_specialize(jit)
    _release_install_autotune()
    tt.do_bench = do_bench
    tt.do_bench_cudagraph = do_bench_cudagraph
    if _env("TC5_TRITON_BENCH") != "1":
        tt.Mark.run = _bench_skipped
    if _env("TC5_TRITON_TORCH_CUDA") == "1":
        torch_cuda_shim()


def _fp_fusion_default():
    """Triton 3.9 warns that TRITON_DEFAULT_FP_FUSION is unset at each process's first compilation and asks
    for it to be set: tc5 sets it to 1, Triton 3.9's own default (fusion on, as a GPU's run gets it), unless
    the user set it (0: Triton 3.10's default)"""
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")


def tune(kernel, configs, *args, grid, timing: str = "b200", **kwargs):
    """Autotuning without the GPU: each triton.Config of `configs` runs
    `kernel[grid](*args, **config)` through the door on a Ray task (local
    Ray, or address=/RAY_ADDRESS's cluster) with the timing model for
    `timing`; returns (the best config, the table: one dict a config,
    fastest first, failures last with their reason). tc5.sweep.tune says
    the rest (docs/sweeps.md: handing the result to @triton.autotune)."""
    from .sweep import tune as _tune
    return _tune(kernel, configs, *args, grid=grid, timing=timing, **kwargs)


def pruner(table, top: int = 1):
    """an early_config_prune for @triton.autotune(prune_configs_by=...):
    keeps the `top` configs tune()'s table ranks fastest (docs/sweeps.md)"""
    from .sweep import pruner as _pruner
    return _pruner(table, top)


def driver():
    """the tc5 driver object (a triton.backends.driver.DriverBase)"""
    from .triton_backend.driver import Tc5Driver
    return Tc5Driver()


def activate(torch_cuda: bool = False):
    """Makes tc5 Triton's active driver: kernels launched from now on compile
    for a B200 and run on tc5 (what TC5_TRITON=1 does at start-up).
    torch_cuda=True also installs the torch.cuda shim (torch_cuda_shim(),
    what TC5_TRITON_TORCH_CUDA=1 does when PyTorch is imported)."""
    if torch_cuda:
        torch_cuda_shim()
    import triton
    d = _release_set_driver(triton.runtime.driver)
    if getattr(d, "is_tc5", False):
        return d
    d = driver()
    triton.runtime.driver.set_active(d)
    return d


def deactivate():
    """Gives Triton its default driver back (the GPU's, where there is one;
    chosen at the next launch)."""
    import triton
    cfg = triton.runtime.driver
    if not hasattr(cfg, "_active"):  # Triton 3.3, 3.4: the default is a lazy proxy, made at first use
        cfg.reset_active()
        return
    if getattr(cfg._default, "is_tc5", False) and _env("TC5_TRITON") != "1":
        cfg._default = None
    cfg._active = None


__all__ = ["activate", "deactivate", "compile", "run", "tensor", "Tensor", "torch_cuda_shim", "B200", "H100",
           "target_arch", "device", "H200", "predict", "Prediction", "timing_gpu", "tune", "pruner", "launches"]
