"""CuTe DSL programs on tc5: `cute.compile(...)` for a B200 (sm_100a, no GPU
needed) and the compiled function called as usual, its kernels run by tc5's
PTX runner on tensors in host memory.

    import tc5.cute
    tc5.cute.activate()            # before the first compile (TC5_CUTE=1: at start-up)
    import cutlass.cute as cute
    from cutlass.cute.runtime import from_dlpack
    a = tc5.cute.empty((128, 64), np.float16)      # NumPy, 256-byte aligned
    f = cute.compile(host_fn, from_dlpack(a), ...)
    f(from_dlpack(a), ...)                         # a, b, c written in place

The door is CuTe DSL's own: the host half of a compiled program calls the
CUDA runtime through the library CUTE_DSL_LIBS names; activate() names
tc5's (libcute_dsl_runtime.so, bridge/cute_dsl_runtime.c), which runs the
kernels the program launches with the parameters, grid, cluster and dynamic
shared memory the program itself packed. What changes for a program written
for a GPU: its tensors live in host memory (NumPy arrays, PyTorch CPU
tensors; `from_dlpack` as before). docs/cute.md says what is modelled.

A checker finding raises tc5.HazardError naming the rule, the PTX line and
the Python line (TC5_CUTE_FINDINGS=warn: a warning); a kernel tc5 cannot run
raises the tc5.Error of its status, naming the instruction. A call whose
tensors or pointers differ from what the function was compiled for (element
type, rank, static or dynamic modes, layout, alignment) raises
tc5.InvalidArgumentError / tc5.AlignmentError naming the argument before
anything runs (CuTe DSL itself does not compare them; docs/cute.md).
"""
from __future__ import annotations

import ctypes
import os
import tempfile
import warnings

import numpy as np

_lib = None
_callback = None
_patched = False

_CHECK = {"default": 0, "none": 1, "strict": 2}


def runtime_path() -> str:
    """the path of tc5's CuTe DSL runtime library (TC5_CUTE_RUNTIME overrides)"""
    p = os.environ.get("TC5_CUTE_RUNTIME")
    if p:
        return p
    here = os.path.dirname(os.path.abspath(__file__))
    for cand in (os.path.join(here, "libcute_dsl_runtime.so"),):
        if os.path.exists(cand):
            return cand
    raise FileNotFoundError("tc5.cute: libcute_dsl_runtime.so is not installed beside tc5 "
                            "(pip install tc5 builds it; or set TC5_CUTE_RUNTIME to build/bridge/libcute_dsl_runtime.so)")


def _regions(cand, n, lo, size, cap):
    """the live arrays and tensors that hold any of the n candidate pointers
    (tc5.triton's region finder, shared): written to lo/size, their count
    returned. Never raises into C."""
    try:
        from .triton import _Regions
        r = _Regions()
        addrs = np.ctypeslib.as_array(cand, shape=(n,)).copy()
        r.add_named(addrs)
        for span in _cute_tensor_spans():  # tensors only a from_dlpack capsule keeps alive
            a = addrs[(addrs >= span[0]) & (addrs < span[0] + span[1])]
            if a.size and not r.contains(a).all():
                r.spans.setdefault(span, None)
        k = 0
        for (a, b) in r.spans:
            if k >= cap:
                break
            lo[k], size[k] = a, b
            k += 1
        return k
    except Exception:  # noqa: BLE001 — a callback from C must not raise
        return 0


def _cute_tensor_spans():
    """(address, nbytes) of every live CuTe DSL runtime tensor (from_dlpack's):
    its memory stays alive through the DLPack capsule it holds, which the
    search for arrays cannot see into"""
    import gc
    import sys
    rt = sys.modules.get("cutlass.cute.runtime")
    cls = getattr(rt, "_Tensor", None)
    if cls is None:
        return []
    out = []
    with warnings.catch_warnings():  # isinstance on every object: deprecated module attributes warn
        warnings.simplefilter("ignore")
        objs = [o for o in gc.get_objects() if isinstance(o, cls)]
    for o in objs:
        try:
            p = int(o.data_ptr)
            shape = [int(x) for x in o.shape]
            stride = [int(x) for x in o.stride]
            bits = int(o.element_type.width)
            if p == 0 or any(x == 0 for x in shape):
                continue
            hi = sum((d - 1) * abs(st) for d, st in zip(shape, stride))
            out.append((p, (hi + 1) * bits // 8 + (1 if (hi + 1) * bits % 8 else 0)))
        except Exception:  # noqa: BLE001 — a tensor that cannot say its extent
            continue
    return out


_REGION_FN = ctypes.CFUNCTYPE(ctypes.c_uint, ctypes.POINTER(ctypes.c_uint64), ctypes.c_uint,
                              ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(ctypes.c_uint64), ctypes.c_uint)


def _load():
    global _lib, _callback
    if _lib is None:
        lib = ctypes.CDLL(runtime_path())
        lib.tc5cute_last_error.restype = ctypes.c_char_p
        lib.tc5cute_register_ptx.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
        lib.tc5cute_set_region_callback.argtypes = [_REGION_FN]
        lib.tc5cute_set_check.argtypes = [ctypes.c_int]
        lib.tc5cute_set_threads.argtypes = [ctypes.c_uint]
        lib.tc5cute_launches.restype = ctypes.c_uint
        lib.tc5cute_timed_launches.restype = ctypes.c_uint
        lib.tc5cute_timed_seconds.restype = ctypes.c_double
        _callback = _REGION_FN(_regions)
        lib.tc5cute_set_region_callback(_callback)
        _lib = lib
    return _lib


def launches() -> int:
    """kernels tc5 has run through this door"""
    return int(_load().tc5cute_launches())


def _raise_pending(cause=None):
    """tc5's error for the runtime's last failure, if there was one"""
    lib = _load()
    st = lib.tc5cute_last_status()
    msg = (lib.tc5cute_last_error() or b"").decode(errors="replace")
    if not msg and not st:
        return
    lib.tc5cute_clear_error()
    from . import _tc5
    from . import Error, HazardError
    if st == _STATUS["TC5_EHAZARD"]:
        if os.environ.get("TC5_CUTE_FINDINGS", "raise") == "warn":
            warnings.warn(msg, RuntimeWarning, stacklevel=4)
            return
        e = HazardError(msg)
    else:
        e = getattr(_tc5, _CLASS.get(st, "Error"), Error)(msg)
    e.status = _STATUS_NAME.get(st, "TC5_EINVAL")
    e.messages = [msg]
    # CuTe DSL's own error (a CUDA error code, and a search for a GPU) says nothing tc5's does not
    raise e from None


_STATUS_NAME = {0: "TC5_OK", 1: "TC5_EINVAL", 2: "TC5_ERANGE", 3: "TC5_ERESERVED", 4: "TC5_EALIGN", 5: "TC5_EILLEGAL",
                6: "TC5_ENOTREPR", 7: "TC5_ETRUNC", 8: "TC5_ENOMEM", 9: "TC5_EPARSE", 10: "TC5_EIO",
                11: "TC5_EMISMATCH", 12: "TC5_EWOULDBLOCK", 13: "TC5_ESTATE", 14: "TC5_EACCESS",
                15: "TC5_EUNINIT", 16: "TC5_EBOUNDS", 17: "TC5_EUNSUPPORTED", 18: "TC5_EHAZARD"}
_STATUS = {v: k for k, v in _STATUS_NAME.items()}
_CLASS = {1: "InvalidArgumentError", 2: "RangeError", 3: "ReservedError", 4: "AlignmentError", 5: "IllegalError",
          6: "NotRepresentableError", 7: "TruncatedError", 8: "OutOfMemoryError", 9: "ParseError", 10: "FileError",
          11: "MismatchError", 12: "WouldBlockError", 13: "StateError", 14: "AccessError", 15: "UninitializedError",
          16: "BoundsError", 17: "UnsupportedError", 18: "HazardError"}


def _ptx_text(fn) -> str | None:
    p = getattr(fn, "__ptx__", None)
    if p is None:
        return None
    if isinstance(p, bytes):
        p = p.decode()
    if "\n" not in p and os.path.exists(p):
        with open(p) as f:
            return f.read()
    if "\n" not in p and p.rstrip().endswith(".ptx"):  # a path CuTe DSL was to write its PTX to, and did not
        from . import FileError
        d = os.path.dirname(p) or "."
        why = (f"the directory {d} does not exist (CUTE_DSL_DUMP_DIR={os.environ.get('CUTE_DSL_DUMP_DIR', '')!r}; "
               "CuTe DSL writes its PTX there and does not create it)") if not os.path.isdir(d) else \
            f"nothing was written there ({d} exists)"
        raise FileError(f"tc5.cute: the compiled function's PTX file {p} is missing: {why}")
    return p


def _register_ptx(fn):
    """hands the compiled function fn's PTX to tc5's runtime (before its
    kernels are loaded, on either calling path); tc5's error if it has none
    or the runtime refuses it"""
    ptx = _ptx_text(fn)
    if ptx is None:
        from . import UnsupportedError
        raise UnsupportedError("tc5.cute: the compiled function has no PTX (compiled before "
                               "tc5.cute.activate(), or with CUTE_DSL_KEEP without ptx)")
    lib = _load()
    lib.tc5cute_clear_error()
    if lib.tc5cute_register_ptx(ptx.encode(), (getattr(fn, "function_name", None) or "cute").encode() + b".ptx"):
        _raise_pending()


def _raising(call, arg=None):
    """call (a compiled function's launch, either calling path) wrapped so
    that a failed launch raises tc5's error; arg, when given, maps each
    positional and keyword argument first"""
    def wrapped(self, *args, **kwargs):
        _load().tc5cute_clear_error()
        if arg is not None:
            args = tuple(arg(a) for a in args)
            kwargs = {k: arg(v) for k, v in kwargs.items()}
        try:
            r = call(self, *args, **kwargs)
        except Exception as e:  # noqa: BLE001
            _raise_pending(e)
            raise
        _raise_pending()
        return r
    wrapped.tc5 = True
    return wrapped


def _patch():
    """what tc5.cute changes in CuTe DSL's Python runtime (once): each
    compiled function registers its PTX with tc5's runtime before its
    kernels are loaded; a failed launch raises tc5's error; the device
    count is the runtime's one device"""
    global _patched
    if _patched:
        return
    _patched = True
    from cutlass.base_dsl import jit_executor as je
    from cutlass.cutlass_dsl import cuda_jit_executor as cje

    cls = cje.CudaDialectJitCompiledFunction
    load = cls._load_cuda_library

    def _load_cuda_library(self):
        _register_ptx(self)
        return load(self)

    cls._load_cuda_library = _load_cuda_library
    cls.num_devices = property(lambda self: 1)

    for k in (je.JitExecutor, je.JitCompiledFunction):
        if not getattr(k.run_compiled_program, "tc5", False):
            k.run_compiled_program = _raising(k.run_compiled_program)

    _patch_tvm_ffi()

    # what each tensor and pointer argument was compiled for, compared at every call
    ea = je.ExecutionArgs
    if not hasattr(ea, "record_arg_specs_from_compile_args"):
        # CuTe DSL before 4.7 (4.6.3: record_pointer_arg_specs_from_compile_args, another shape) has no
        # hook for the compile-time arguments: only CuTe DSL's own argument rules apply there (issue 52)
        return
    record, generate = ea.record_arg_specs_from_compile_args, ea.generate_execution_args

    def record_arg_specs_from_compile_args(self, args, kwargs):
        record(self, args, kwargs)
        try:
            bound = self.bound_call_arguments(tuple(args), dict(kwargs)) if (args or kwargs) else {}
            self._tc5_specs = {k: _arg_spec(v, values=False) for k, v in bound.items()}
        except Exception:  # noqa: BLE001 — an argument tc5 cannot describe: CuTe DSL's own rules only
            self._tc5_specs = None

    def generate_execution_args(self, args, kwargs):
        specs = getattr(self, "_tc5_specs", None)
        if specs:
            _check_call(self.function_name, specs, self.bound_call_arguments(args, kwargs))
        return generate(self, args, kwargs)

    if not getattr(ea.generate_execution_args, "tc5", False):
        generate_execution_args.tc5 = True
        ea.record_arg_specs_from_compile_args = record_arg_specs_from_compile_args
        ea.generate_execution_args = generate_execution_args


# ---------------------------------------------------------------------------
# CuTe DSL's TVM-FFI calling path (cute.compile(..., options="--enable-tvm-ffi"))
# ---------------------------------------------------------------------------

_KDL_CPU, _KDL_CUDA = 1, 2


class _HostAsCuda:
    """a host array or CPU tensor handed to a TVM-FFI function as the CUDA
    tensor the function was compiled for: the same DLPack tensor (address,
    shape, strides, type; the owner kept alive by the capsule's deleter) with
    device (kDLCUDA, 0) — the host memory tc5 runs the kernel on"""
    __slots__ = ("x",)

    def __init__(self, x):
        self.x = x

    def __dlpack_device__(self):
        return (_KDL_CUDA, 0)

    def __dlpack__(self, *args, **kwargs):
        import sys
        x = self.x
        torch = sys.modules.get("torch")
        if torch is not None and isinstance(x, torch.Tensor):
            cap = torch._C._to_dlpack(x.detach())  # C-level: no device or stream logic of the shim's
        else:
            cap = x.__dlpack__()
        get = ctypes.pythonapi.PyCapsule_GetPointer
        get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
        p = get(cap, b"dltensor")  # DLManagedTensor: DLTensor {void *data; DLDevice {int32 type, id}; ...}
        dev = (ctypes.c_int32 * 2).from_address(p + ctypes.sizeof(ctypes.c_void_p))
        if dev[0] != _KDL_CPU:
            raise ValueError(f"tc5.cute: a tensor on DLPack device {dev[0]} given for a CUDA tensor (host memory "
                             "is what tc5 runs on)")
        dev[0], dev[1] = _KDL_CUDA, 0
        return cap


def _tvm_ffi_arg(x):
    """x as the TVM-FFI function gets it: a host array or CPU tensor (a PyTorch
    tensor, the torch.cuda shim's "cuda" tensors among them; a NumPy array) as
    a CUDA tensor at the same address; anything else as it is"""
    import sys
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(x, torch.Tensor):
        with torch._C.DisableTorchFunction():
            host = x.device.type == "cpu"
        if not host:
            return x
    elif not isinstance(x, np.ndarray):
        return x
    import tvm_ffi
    return tvm_ffi.from_dlpack(_HostAsCuda(x))


def _patch_tvm_ffi():
    """CuTe DSL's TVM-FFI functions (cutlass_dsl/tvm_ffi_provider.py): the
    host wrapper loads its kernels itself (cuda_dialect_init_library_once,
    bridge/cute_dsl_runtime.c), so the PTX is registered when the function is
    made; its tensor arguments must be CUDA tensors (the wrapper compares each
    DLTensor's device with kDLCUDA), so host ones are handed over as CUDA
    tensors at the same address; a failed launch raises tc5's error"""
    try:
        from cutlass.cutlass_dsl import tvm_ffi_provider as tp
    except Exception:  # noqa: BLE001 — a CuTe DSL without TVM-FFI (or without apache-tvm-ffi)
        return
    base = getattr(tp, "TVMFFIJitCompiledFunctionBase", None)
    if base is None or getattr(base._create_tvm_ffi_function, "tc5", False):
        return
    create = base._create_tvm_ffi_function

    def _create_tvm_ffi_function(self):
        if getattr(self, "engine", None) is not None and getattr(self, "has_gpu_module", True):
            _register_ptx(self)
        return create(self)

    _create_tvm_ffi_function.tc5 = True
    base._create_tvm_ffi_function = _create_tvm_ffi_function

    for name in ("TVMFFIJitCompiledFunction", "TVMFFIJitCompiledFunctionWithKwargs"):
        cls = getattr(tp, name, None)
        if cls is not None and not getattr(cls.__call__, "tc5", False):
            cls.__call__ = _raising(cls.__call__, _tvm_ffi_arg)


# ---------------------------------------------------------------------------
# a call's tensors against what the function was compiled for
# ---------------------------------------------------------------------------

def _runtime():
    import sys
    return sys.modules.get("cutlass.cute.runtime")


def _as_cute(x):
    """x as the cute runtime tensor or pointer the compiled function gets:
    itself, or what CuTe DSL's TensorAdapter makes of a DLPack array
    (from_dlpack(x).mark_layout_dynamic()); None for anything else"""
    rt = _runtime()
    if rt is None:
        return None
    if isinstance(x, (rt._Tensor, rt._FakeTensor, rt._Pointer)):
        return x
    if hasattr(x, "__dlpack__") and not hasattr(x, "__c_pointers__"):
        return rt.from_dlpack(x).mark_layout_dynamic()
    return None


def _arg_spec(x, values=True):
    """what a compiled function fixes of one argument: for a tensor its
    element type, rank, static shape and stride (None where dynamic), the
    layout CuTe DSL compiled (its type's layout text, for a real tensor),
    the alignment assumed; for a pointer its element type, memory space and
    alignment; a list for a list or tuple; None for what tc5 does not check"""
    if isinstance(x, (list, tuple)):
        return [_arg_spec(e, values) for e in x]
    t = _as_cute(x)
    if t is None:
        return None
    rt = _runtime()
    if isinstance(t, rt._Pointer):
        return {"kind": "pointer", "dtype": t.dtype, "space": str(t.memspace), "align": int(t._assumed_align)}
    dyn_shape, dyn_stride = tuple(t.dynamic_shapes_mask), tuple(t.dynamic_strides_mask)
    shape, stride = tuple(t.shape), tuple(t.stride)
    spec = {"kind": "tensor", "dtype": t.element_type, "rank": len(shape),
            "shape": tuple(None if d else int(v) for v, d in zip(shape, dyn_shape)),
            "stride": tuple(None if d else int(v) for v, d in zip(stride, dyn_stride)),
            "div": tuple(int(getattr(v, "divisibility", 1)) if d else 1 for v, d in zip(shape, dyn_shape)),
            "layout": None, "align": None, "space": str(t.memspace)}
    if isinstance(t, rt._Tensor):
        if values:  # the given tensor's own extents and strides, for the message
            spec["values"] = f"({','.join(map(str, shape))}):({','.join(map(str, stride))})"
        key = t.__cache_key__  # (element type, assumed_align, layout text): CuTe DSL's own type key
        spec["layout"], spec["align"] = str(key[2]), key[1]
    else:
        spec["align"] = t._assumed_align
    if not spec["align"]:
        spec["align"] = max(1, int(t.element_type.width) // 8)
    return spec


def _describe(spec) -> str:
    if spec["kind"] == "pointer":
        return f"a pointer to {spec['dtype'].__name__} in {spec['space']}, {spec['align']}-byte aligned"
    lay = spec["layout"] or ("(" + ",".join("?" if v is None else str(v) for v in spec["shape"]) + "):(" +
                             ",".join("?" if v is None else str(v) for v in spec["stride"]) + ")")
    here = f" ({spec['values']} here)" if spec.get("values") and spec["values"] != lay.split(" o ")[-1] else ""
    return f"a {spec['dtype'].__name__} tensor of rank {spec['rank']}, layout {lay}{here}"


def _mismatch(fn, name, exp, got, what, cls="InvalidArgumentError", status="TC5_EINVAL"):
    from . import _tc5
    msg = (f"tc5.cute: {fn}: argument '{name}': {what}; compiled for {_describe(exp)}, "
           f"given {got if isinstance(got, str) else _describe(got)}")
    e = getattr(_tc5, cls)(msg)
    e.status, e.messages = status, [msg]
    raise e


def _check_arg(fn, name, exp, x):
    """x against the spec it was compiled for: tc5.InvalidArgumentError naming
    the argument, what differs, the compiled and the given; AlignmentError
    for an address off the compiled alignment"""
    if exp is None:
        return
    if isinstance(exp, list):
        if isinstance(x, (list, tuple)) and len(x) == len(exp):
            for i, (e, v) in enumerate(zip(exp, x)):
                _check_arg(fn, f"{name}[{i}]", e, v)
        return
    if exp["kind"] == "pointer" and not isinstance(x, bool) and isinstance(x, int) or _is_ctypes_pointer(x):
        ptr = int(x) if isinstance(x, int) else int(ctypes.cast(x, ctypes.c_void_p).value or 0)
        if ptr % exp["align"]:  # a raw address where the function was compiled for a pointer
            _mismatch(fn, name, exp, f"address 0x{ptr:x}", f"not {exp['align']}-byte aligned as compiled",
                      "AlignmentError", "TC5_EALIGN")
        return
    try:
        t = _as_cute(x)
    except Exception:  # noqa: BLE001 — an array CuTe DSL's adapter refuses: its own error follows
        return
    if t is None:
        if x is None or isinstance(x, (int, float, str, bytes)):
            _mismatch(fn, name, exp, f"{type(x).__name__} {x!r:.40}", "not a tensor or pointer")
        return  # something else CuTe DSL marshals (its own rules)
    try:
        got = _arg_spec(t)
    except Exception:  # noqa: BLE001 — a tensor that cannot describe itself: CuTe DSL's own rules
        return
    if got["kind"] != exp["kind"]:
        _mismatch(fn, name, exp, got, f"a {got['kind']}, not a {exp['kind']}")
    if got["dtype"] is not exp["dtype"]:
        _mismatch(fn, name, exp, got, f"element type {got['dtype'].__name__}, not {exp['dtype'].__name__}")
    if exp["kind"] == "tensor":
        if got["rank"] != exp["rank"]:
            _mismatch(fn, name, exp, got, f"rank {got['rank']}, not {exp['rank']}")
        for i in range(exp["rank"]):  # static values, dynamic modes, divisibility
            for what, e, g in (("extent", exp["shape"][i], got["shape"][i]),
                               ("stride", exp["stride"][i], got["stride"][i])):
                if (e is None) != (g is None) or (e is not None and e != g):
                    _mismatch(fn, name, exp, got, f"mode {i}'s {what} is {'dynamic' if g is None else g}, "
                              f"not {'dynamic' if e is None else e}")
            if exp["div"][i] > 1 and int(t.shape[i]) % exp["div"][i]:
                _mismatch(fn, name, exp, got, f"mode {i}'s extent {int(t.shape[i])} is no multiple of "
                          f"{exp['div'][i]}")
        if exp["layout"] is not None and got["layout"] != exp["layout"]:  # what remains: widths, divisibility
            _mismatch(fn, name, exp, got, "another layout type")
        ptr = int(t.data_ptr) if not isinstance(t, _runtime()._FakeTensor) else 0
    else:
        if got["space"] != exp["space"]:
            _mismatch(fn, name, exp, got, f"memory space {got['space']}, not {exp['space']}")
        ptr = int(t._pointer)
    if ptr % exp["align"]:
        _mismatch(fn, name, exp, f"address 0x{ptr:x}", f"not {exp['align']}-byte aligned as compiled",
                  "AlignmentError", "TC5_EALIGN")


def _is_ctypes_pointer(x) -> bool:
    return isinstance(x, (ctypes._Pointer, ctypes.c_void_p))


def _check_call(fn, specs, bound):
    for name, exp in specs.items():
        if name in bound:
            _check_arg(fn, name, exp, bound[name])


def activate(check: str | None = None, threads: int | None = None):
    """Puts tc5 behind CuTe DSL's runtime: programs compiled from now on
    target sm_100a and their kernels run on tc5 (what TC5_CUTE=1 does at
    start-up). Call it before the first `cute.compile`. check: the checker
    ("default", "none", "strict"; TC5_CUTE_CHECK); threads: host threads
    running CTAs (0 or None: one per core)."""
    import sys
    if "cutlass" in sys.modules and not getattr(sys.modules["cutlass"], "_tc5_env", False):
        warnings.warn("tc5.cute.activate() after cutlass was imported: CuTe DSL has read its environment already "
                      "(CUTE_DSL_LIBS, CUTE_DSL_KEEP); activate first, or run with TC5_CUTE=1", RuntimeWarning,
                      stacklevel=2)
    path = runtime_path()
    lib = _load()
    os.environ["CUTE_DSL_LIBS"] = path
    os.environ.setdefault("CUTE_DSL_ARCH", "sm_100a")
    keep = {t for t in os.environ.get("CUTE_DSL_KEEP", "").split(",") if t}
    keep.add("ptx")
    os.environ["CUTE_DSL_KEEP"] = ",".join(sorted(keep))
    if "CUTE_DSL_DUMP_DIR" not in os.environ:
        os.environ["CUTE_DSL_DUMP_DIR"] = tempfile.mkdtemp(prefix="tc5-cute-")
    # a cached compile has no PTX to run
    os.environ.setdefault("CUTE_DSL_DISABLE_FILE_CACHING", "1")
    mode = check or os.environ.get("TC5_CUTE_CHECK", "default")
    if mode not in _CHECK:
        raise ValueError(f"check: 'default', 'none' or 'strict', not {mode!r}")
    lib.tc5cute_set_check(_CHECK[mode])
    lib.tc5cute_set_threads(int(threads or 0))
    _patch()
    _patch_benchmark()
    return lib


def predicted() -> tuple[int, float]:
    """(launches the timing model predicted, their predicted seconds summed)
    through this door so far (TC5_TIMING: docs/timing.md)"""
    lib = _load()
    return int(lib.tc5cute_timed_launches()), float(lib.tc5cute_timed_seconds())


def _timing_on() -> bool:
    return os.environ.get("TC5_TIMING", "").strip().lower() not in ("", "none")


def _patch_benchmark():
    """cutlass.cute.testing.benchmark under TC5_TIMING: the callable runs
    once and the time (microseconds, as CuTe DSL's) is the predicted time of
    its launches on that GPU; NaN, with a warning, when it launched none
    through tc5. Without TC5_TIMING, CuTe DSL's own benchmark runs."""
    try:
        import cutlass.cute.testing as ct
    except ImportError:
        return
    orig = getattr(ct.benchmark, "_tc5_orig", ct.benchmark)

    def benchmark(callable, *, warmup_iterations=10, iterations=100, stream=None, kernel_arguments=None,
                  workspace_generator=None, workspace_count=1, use_cuda_graphs=False, use_cupti=False,
                  nvtx_tag=None):
        if not _timing_on():
            return orig(callable, warmup_iterations=warmup_iterations, iterations=iterations, stream=stream,
                        kernel_arguments=kernel_arguments, workspace_generator=workspace_generator,
                        workspace_count=workspace_count, use_cuda_graphs=use_cuda_graphs, use_cupti=use_cupti,
                        nvtx_tag=nvtx_tag)
        args = kernel_arguments if kernel_arguments is not None else (workspace_generator() if workspace_generator
                                                                      else None)
        n0, s0 = predicted()
        if args is None:
            callable()
        else:
            callable(*args.args, **args.kwargs)
        n1, s1 = predicted()
        if n1 == n0:
            warnings.warn("tc5.cute: benchmark under TC5_TIMING: the callable launched no kernel through tc5: "
                          "its time is NaN", RuntimeWarning, stacklevel=2)
            return float("nan")
        return (s1 - s0) * 1e6

    benchmark._tc5_orig = orig
    ct.benchmark = benchmark
    try:
        import cutlass.testing as t2
        if getattr(t2, "benchmark", None) is orig:
            t2.benchmark = benchmark
    except ImportError:
        pass


def empty(shape, dtype, align: int = 256) -> np.ndarray:
    """a zeroed C-contiguous NumPy array at an address aligned as cudaMalloc's
    (from_dlpack(..., assumed_align=...) checks it)"""
    dt = np.dtype(dtype)
    n = int(np.prod(shape)) * dt.itemsize
    raw = np.zeros(n + align, dtype=np.uint8)
    off = (-raw.ctypes.data) % align
    return raw[off:off + n].view(dt).reshape(shape)


def asarray(x, align: int = 256) -> np.ndarray:
    """x copied into an aligned array (empty)"""
    x = np.asarray(x)
    y = empty(x.shape, x.dtype, align)
    y[...] = x
    return y


__all__ = ["activate", "empty", "asarray", "runtime_path", "launches"]
