#!/usr/bin/env python3
"""Generate a corpus of Triton-compiled PTX from Triton's own tutorials.

Usage:
    python gen_triton_corpus.py --src SRC_DIR --out OUT_DIR [--arch 100|90] [--only REGEX]

SRC_DIR is a plain checkout that contains python/tutorials and python/examples
(e.g. `git --git-dir=MIRROR archive HEAD python/tutorials python/examples | tar -x -C SRC_DIR`).
Nothing from the tutorials is copied into this script: the tutorial files are
read at run time, patched copies (API renames, see RENAMES) are written under
WORK_DIR/patched_src (--work), and their module-level definitions are executed with a
metadata-only fake `torch` and a fake CUDA driver (no GPU is needed).

Kernel launches done by the tutorials' own host wrappers are intercepted
(JITFunction.run / Autotuner.run are patched), and every intercepted launch is
compiled with triton.compile(ASTSource(...), target=GPUTarget("cuda", ARCH, 32))
using exactly the specialisation Triton's launcher would compute (the JIT's own
binder is used: 16-byte aligned pointers -> tt.divisibility=16, ints == 1 ->
constexpr, ints % 16 == 0 -> tt.divisibility=16, host TensorDescriptors ->
tensordesc types).  For each variant OUT/NAME.ptx and OUT/NAME.json are written;
compile failures go to OUT/failures.txt.
"""
import argparse
import ast
import contextlib
import importlib.abc
import importlib.util
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import traceback
import types
import warnings

warnings.filterwarnings("ignore")

# ----------------------------------------------------------------------------
# Fake torch: metadata-only tensors (shape / strides / dtype / fake address).
# ----------------------------------------------------------------------------


class _DType:

    def __init__(self, name, itemsize, is_fp, is_signed=True):
        self.name = name
        self.itemsize = itemsize
        self.is_floating_point = is_fp
        self.is_signed = is_signed

    def __repr__(self):
        return "torch." + self.name

    __str__ = __repr__

    def to_complex(self):
        raise NotImplementedError


_DType.__module__ = "torch"
_DType.__name__ = "dtype"
_DTYPES = {}
for _n, _s, _f, _sg in [
    ("float16", 2, True, True),
    ("bfloat16", 2, True, True),
    ("float32", 4, True, True),
    ("float64", 8, True, True),
    ("float8_e4m3fn", 1, True, True),
    ("float8_e5m2", 1, True, True),
    ("float8_e4m3fnuz", 1, True, True),
    ("float8_e5m2fnuz", 1, True, True),
    ("float8_e8m0fnu", 1, True, False),
    ("int8", 1, False, True),
    ("int16", 2, False, True),
    ("int32", 4, False, True),
    ("int64", 8, False, True),
    ("uint8", 1, False, False),
    ("uint16", 2, False, False),
    ("uint32", 4, False, False),
    ("uint64", 8, False, False),
    ("bool", 1, False, False),
]:
    _DTYPES[_n] = _DType(_n, _s, _f, _sg)
_ALIASES = {"float": "float32", "half": "float16", "double": "float64", "int": "int32", "long": "int64",
            "short": "int16"}


class _Device:

    def __init__(self, type="cuda", index=0):
        if isinstance(type, str) and ":" in type:
            type, index = type.split(":")
            index = int(index)
        self.type = type
        self.index = index if index is not None else 0

    def __eq__(self, other):
        return True  # everything lives on the (single, fake) GPU

    def __hash__(self):
        return 0

    def __repr__(self):
        return f"device(type='{self.type}', index={self.index})"


class _Heap:
    """Fake device allocator: 512-byte aligned, like PyTorch's caching allocator."""

    next_addr = 0x7F0000000000
    count = 0

    @classmethod
    def alloc(cls, nbytes):
        addr = cls.next_addr
        cls.next_addr += max(512, (nbytes + 511) // 512 * 512) + 512
        cls.count += 1
        cls.by_addr[addr] = cls.count
        return addr, cls.count

    by_addr = {}


def _contig_strides(shape):
    strides = []
    acc = 1
    for s in reversed(shape):
        strides.append(acc)
        acc *= max(int(s), 1)
    return tuple(reversed(strides))


def _norm_shape(size):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    return tuple(int(s) for s in size)


class MetaTensor:
    """Shape/stride/dtype-only stand-in for a CUDA torch.Tensor."""

    def __init__(self, shape, dtype=None, strides=None, base=None, offset=0, label=None):
        self.shape = tuple(int(s) for s in shape)
        self.dtype = dtype or _DTYPES["float32"]
        self._strides = tuple(strides) if strides is not None else _contig_strides(self.shape)
        if base is None:
            nbytes = max(1, math.prod(self.shape)) * self.dtype.itemsize
            self._base_addr, self.alloc_id = _Heap.alloc(nbytes)
            self._base_shape = self.shape
        else:
            self._base_addr, self.alloc_id = base._base_addr, base.alloc_id
            self._base_shape = base._base_shape
        self._offset = offset  # in bytes
        self.label = label
        self.device = _Device()
        self.is_cuda = True
        self.requires_grad = False
        self.grad = None

    # --- basic properties
    def data_ptr(self):
        return self._base_addr + self._offset

    def stride(self, dim=None):
        if dim is None:
            return self._strides
        return self._strides[dim]

    def size(self, dim=None):
        return self.shape if dim is None else self.shape[dim]

    def dim(self):
        return len(self.shape)

    @property
    def ndim(self):
        return len(self.shape)

    def numel(self):
        return math.prod(self.shape)

    def element_size(self):
        return self.dtype.itemsize

    def is_contiguous(self):
        return self._strides == _contig_strides(self.shape)

    def __len__(self):
        return self.shape[0]

    def __repr__(self):
        return f"MetaTensor({list(self.shape)}, {self.dtype}, strides={self._strides})"

    # --- views
    def _view(self, shape, strides, offset=None):
        return MetaTensor(shape, self.dtype, strides, base=self, offset=self._offset if offset is None else offset,
                          label=self.label)

    @property
    def T(self):
        return self._view(tuple(reversed(self.shape)), tuple(reversed(self._strides)))

    def t(self):
        return self.T

    @property
    def mT(self):
        return self.transpose(-2, -1)

    def transpose(self, a, b):
        sh, st = list(self.shape), list(self._strides)
        sh[a], sh[b] = sh[b], sh[a]
        st[a], st[b] = st[b], st[a]
        return self._view(sh, st)

    def permute(self, *dims):
        if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
            dims = dims[0]
        return self._view([self.shape[d] for d in dims], [self._strides[d] for d in dims])

    def reshape(self, *shape):
        shape = list(_norm_shape(shape))
        if -1 in shape:
            i = shape.index(-1)
            rest = math.prod(s for j, s in enumerate(shape) if j != i)
            shape[i] = self.numel() // rest
        if not self.is_contiguous():
            return MetaTensor(shape, self.dtype)  # a copy, as torch would make
        return self._view(shape, _contig_strides(shape))

    view = reshape

    def flatten(self, *a):
        return self.reshape(-1)

    def unsqueeze(self, d):
        sh, st = list(self.shape), list(self._strides)
        d = d if d >= 0 else len(sh) + d + 1
        sh.insert(d, 1)
        st.insert(d, st[d] * sh[d + 1] if d < len(st) else 1)
        return self._view(sh, st)

    def expand(self, *shape):
        return self._view(_norm_shape(shape), self._strides)

    def __getitem__(self, idx):
        if not isinstance(idx, tuple):
            idx = (idx, )
        shape, strides, off = [], [], self._offset
        dim = 0
        for it in idx:
            if it is None:
                shape.append(1)
                strides.append(0)
                continue
            if it is Ellipsis:
                n = len(self.shape) - (len([i for i in idx if i is not None and i is not Ellipsis]))
                for _ in range(n):
                    shape.append(self.shape[dim])
                    strides.append(self._strides[dim])
                    dim += 1
                continue
            if isinstance(it, slice):
                start, stop, step = it.indices(self.shape[dim])
                shape.append(max(0, (stop - start + step - 1) // step))
                strides.append(self._strides[dim] * step)
                off += start * self._strides[dim] * self.dtype.itemsize
            else:
                off += int(it) * self._strides[dim] * self.dtype.itemsize
            dim += 1
        while dim < len(self.shape):
            shape.append(self.shape[dim])
            strides.append(self._strides[dim])
            dim += 1
        return self._view(shape, strides, off)

    def __setitem__(self, idx, val):
        pass

    # --- copies / conversions
    def contiguous(self):
        return self if self.is_contiguous() else MetaTensor(self.shape, self.dtype)

    def clone(self):
        return MetaTensor(self.shape, self.dtype)

    def _dense_strides(self):
        """Strides torch's preserve_format keeps for a dense (permuted) tensor, else contiguous."""
        order = sorted(range(len(self.shape)), key=lambda i: -self._strides[i])
        acc, ok = 1, True
        for i in reversed(order):
            if self.shape[i] != 1 and self._strides[i] != acc:
                ok = False
            acc *= self.shape[i]
        return self._strides if ok else _contig_strides(self.shape)

    def to(self, *args, **kwargs):
        dtype = kwargs.get("dtype")
        for a in args:
            if isinstance(a, _DType):
                dtype = a
        if dtype is None or dtype is self.dtype:
            return self
        return MetaTensor(self.shape, dtype, self._dense_strides())

    def float(self):
        return self.to(_DTYPES["float32"])

    def half(self):
        return self.to(_DTYPES["float16"])

    def bfloat16(self):
        return self.to(_DTYPES["bfloat16"])

    def cuda(self, *a, **k):
        return self

    def cpu(self):
        return self

    def detach(self):
        return self

    def requires_grad_(self, *a):
        return self

    def new_empty(self, size, dtype=None, **k):
        return MetaTensor(_norm_shape((size, )), dtype or self.dtype)

    def new_zeros(self, size, dtype=None, **k):
        return MetaTensor(_norm_shape((size, )), dtype or self.dtype)

    def zero_(self):
        return self

    def fill_(self, *a):
        return self

    def normal_(self, *a, **k):
        return self

    def uniform_(self, *a, **k):
        return self

    def copy_(self, other):
        return self

    def record_stream(self, *a):
        pass

    # --- arithmetic: a new tensor of the same shape
    def _arith(self, *other):
        for o in other:
            if isinstance(o, MetaTensor) and o.numel() > self.numel():
                return MetaTensor(o.shape, self.dtype)
        return MetaTensor(self.shape, self.dtype)

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _arith
    __pow__ = __neg__ = __abs__ = __and__ = __or__ = __xor__ = __invert__ = __mod__ = __floordiv__ = _arith

    def _cmp(self, *other):
        return MetaTensor(self.shape, _DTYPES["bool"])

    __lt__ = __le__ = __gt__ = __ge__ = _cmp

    def __eq__(self, o):
        return self is o

    def __hash__(self):
        return id(self)

    def __iter__(self):
        raise TypeError("MetaTensor is not iterable")


class _Namespace(types.ModuleType):

    def __init__(self, name, **kw):
        super().__init__(name)
        self.__dict__.update(kw)


def _factory(default_dtype="float32"):

    def f(*size, dtype=None, device=None, **kw):
        return MetaTensor(_norm_shape(size), dtype or _DTYPES[default_dtype])

    return f


def _like(x, dtype=None, **kw):
    return MetaTensor(x.shape, dtype or x.dtype, x._dense_strides())


def _tensor(data, dtype=None, device=None, **kw):

    def shape_of(d):
        if isinstance(d, (list, tuple)):
            return (len(d), ) + (shape_of(d[0]) if len(d) else ())
        return ()

    def first(d):
        while isinstance(d, (list, tuple)) and d:
            d = d[0]
        return d

    if dtype is None:
        dtype = _DTYPES["float32"] if isinstance(first(data), float) else _DTYPES["int64"]
    t = MetaTensor(shape_of(data), dtype)
    t.contents = data  # device data the kernel reads (e.g. grouped-GEMM pointer/size tables)
    return t


def _randint(low, high=None, size=None, dtype=None, **kw):
    return MetaTensor(_norm_shape((size, )), dtype or _DTYPES["int64"])


def _arange(*a, dtype=None, **kw):
    vals = [x for x in a if isinstance(x, int)]
    n = vals[0] if len(vals) == 1 else (vals[1] - vals[0]) // (vals[2] if len(vals) > 2 else 1)
    return MetaTensor((n, ), dtype or _DTYPES["int64"])


def _empty_strided(size, stride, dtype=None, **kw):
    return MetaTensor(size, dtype or _DTYPES["float32"], stride)


def _pad(x, pad, mode="constant", value=0):
    shape = list(x.shape)
    for i in range(len(pad) // 2):
        shape[-1 - i] += pad[2 * i] + pad[2 * i + 1]
    return MetaTensor(shape, x.dtype)


class _AutogradFunction:

    @classmethod
    def apply(cls, *args):

        class Ctx:

            def save_for_backward(self, *t):
                self.saved_tensors = t

            def mark_non_differentiable(self, *a):
                pass

        ctx = Ctx()
        out = cls.forward(ctx, *args)
        _LAST_CTX[cls.__name__] = ctx
        return out


_LAST_CTX = {}


class _DeviceProps:

    def __init__(self, sm_count, name):
        self.multi_processor_count = sm_count
        self.name = name
        self.total_memory = 180 << 30
        self.major, self.minor = ARCH_CAP


class _FakeCublasLt:

    def __init__(self, *a, **k):
        raise RuntimeError("cuBLAS is not available in the corpus generator")


ARCH_CAP = (10, 0)
NUM_SMS = {100: 148, 90: 132}


def _not_available(name):

    def f(*a, **k):
        raise RuntimeError(f"torch.{name} is not available in the fake torch")

    return f


def make_fake_torch():
    torch = _Namespace("torch")
    torch.__path__ = []
    torch.__version__ = "2.9.0+fake"
    for n, d in _DTYPES.items():
        setattr(torch, n, d)
    for a, n in _ALIASES.items():
        setattr(torch, a, _DTYPES[n])
    torch.dtype = _DType
    torch.Tensor = MetaTensor
    torch.Size = tuple
    torch.device = _Device
    torch.empty = _factory()
    torch.zeros = _factory()
    torch.ones = _factory()
    torch.randn = _factory()
    torch.rand = _factory()
    torch.full = lambda size, fill, dtype=None, **k: MetaTensor(_norm_shape((size, )), dtype or _DTYPES["float32"])
    torch.empty_like = torch.zeros_like = torch.ones_like = torch.randn_like = torch.rand_like = _like
    torch.empty_strided = _empty_strided
    torch.tensor = _tensor
    torch.randint = _randint
    torch.arange = _arange
    torch.manual_seed = lambda *a: None
    torch.allclose = lambda *a, **k: True
    torch.is_tensor = lambda x: isinstance(x, MetaTensor)
    torch.no_grad = contextlib.nullcontext
    torch.inference_mode = contextlib.nullcontext
    torch.get_default_dtype = lambda: _DTYPES["float32"]
    torch.set_default_dtype = lambda *a: None
    torch.finfo = lambda d: types.SimpleNamespace(max=3.4e38, min=-3.4e38, eps=1.2e-7, tiny=1.2e-38)
    torch.iinfo = lambda d: types.SimpleNamespace(max=2**31 - 1, min=-2**31)
    for name in ["matmul", "softmax", "exp", "max", "abs", "sum", "where", "cat", "stack", "testing_assert"]:
        setattr(torch, name, _not_available(name))
    torch.version = _Namespace("torch.version", hip=None, cuda="12.9")
    cuda = _Namespace(
        "torch.cuda",
        is_available=lambda: True,
        get_device_capability=lambda *a: ARCH_CAP,
        get_device_properties=lambda *a: _DeviceProps(NUM_SMS[ARCH], "NVIDIA B200" if ARCH == 100 else "NVIDIA H100"),
        current_device=lambda: 0,
        device_count=lambda: 1,
        set_device=lambda *a: None,
        synchronize=lambda *a: None,
        current_stream=lambda *a: types.SimpleNamespace(cuda_stream=0),
        default_stream=lambda *a: types.SimpleNamespace(cuda_stream=0),
        stream=lambda *a: contextlib.nullcontext(),
        empty_cache=lambda: None,
        get_device_name=lambda *a: "NVIDIA B200" if ARCH == 100 else "NVIDIA H100",
    )
    torch.cuda = cuda
    autograd = _Namespace("torch.autograd", Function=_AutogradFunction)
    torch.autograd = autograd
    testing = _Namespace("torch.testing", assert_close=lambda *a, **k: None)
    torch.testing = testing
    nn = _Namespace("torch.nn")
    nn.functional = _Namespace("torch.nn.functional", pad=_pad)
    torch.nn = nn
    library = _Namespace("torch.library")
    torch.library = library
    sys.modules.update({
        "torch": torch, "torch.cuda": cuda, "torch.autograd": autograd, "torch.testing": testing, "torch.nn": nn,
        "torch.nn.functional": nn.functional, "torch.version": torch.version, "torch.library": library
    })
    return torch


ARCH = 100

# ----------------------------------------------------------------------------
# Fake driver (target = GPUTarget("cuda", ARCH, 32)).
# ----------------------------------------------------------------------------


def install_fake_driver():
    import triton
    from triton.backends.driver import DriverBase
    from triton.backends.compiler import GPUTarget

    class FakeUtils:

        def get_device_properties(self, device):
            return {
                "multiprocessor_count": NUM_SMS[ARCH], "max_num_regs": 65536, "max_shared_mem": 232448,
                "warpSize": 32, "sm_clock_rate": 1965000, "mem_clock_rate": 3996000, "mem_bus_width": 8192,
                "max_threads_per_sm": 2048
            }

    class FakeCudaDriver(DriverBase):

        def __init__(self):
            self.utils = FakeUtils()

        @classmethod
        def is_active(cls):
            return True

        def map_python_to_cpp_type(self, ty):
            return ty

        def get_current_target(self):
            return GPUTarget("cuda", ARCH, 32)

        def get_active_torch_device(self):
            return _Device("cuda", 0)

        def get_device_interface(self):
            return sys.modules["torch"].cuda

        def get_current_device(self):
            return 0

        def set_current_device(self, d):
            pass

        def get_current_stream(self, d=None):
            return 0

        def get_device_capability(self, d=None):
            return ARCH_CAP

        def get_benchmarker(self):
            # Triton 3.3's Autotuner asks for it when made; calling it is the error
            def bench(*a, **k):
                raise RuntimeError("no benchmarking in the corpus generator")
            return bench

        def get_empty_cache_for_benchmark(self):
            raise RuntimeError("no benchmarking in the corpus generator")

        def clear_cache(self, cache):
            pass

    triton.runtime.driver.set_active(FakeCudaDriver())
    try:
        from triton._C.libtriton import nvidia
        nvidia.cublas = types.SimpleNamespace(CublasLt=_FakeCublasLt)
    except Exception:
        pass


# ----------------------------------------------------------------------------
# Launch interception.
# ----------------------------------------------------------------------------


class LaunchBlocked(RuntimeError):
    pass


class Launch:

    def __init__(self, fn, args, kwargs, grid, autotuner=None):
        self.fn = fn  # JITFunction
        self.args = args
        self.kwargs = kwargs
        self.grid = grid
        self.autotuner = autotuner

    @property
    def name(self):
        return self.fn.fn.__name__


_CAPTURE = None


@contextlib.contextmanager
def capture():
    global _CAPTURE
    prev = _CAPTURE
    _CAPTURE = []
    try:
        yield _CAPTURE
    finally:
        _CAPTURE = prev


def _innermost_jit(fn):
    from triton.runtime.jit import JITFunction
    while not isinstance(fn, JITFunction):
        fn = fn.fn
    return fn


def install_launch_hooks():
    import triton
    if not hasattr(triton, "set_allocator"):  # before 3.4: tutorials 08/09 call it at import (device TMA's scratch)
        triton.set_allocator = lambda alloc: None
    from triton.runtime.jit import JITFunction
    from triton.runtime.autotuner import Autotuner

    def jit_run(self, *args, grid, warmup, **kwargs):
        if _CAPTURE is None:
            raise LaunchBlocked("kernel launch blocked while loading tutorial module")
        _CAPTURE.append(Launch(self, args, kwargs, grid))
        return None

    def autotuner_run(self, *args, **kwargs):
        if _CAPTURE is None:
            raise LaunchBlocked("kernel launch blocked while loading tutorial module")
        kwargs = dict(kwargs)
        grid = kwargs.pop("grid", None)
        kwargs.pop("warmup", None)
        _CAPTURE.append(Launch(_innermost_jit(self.fn), args, kwargs, grid, autotuner=self))
        return None

    JITFunction.run = jit_run
    Autotuner.run = autotuner_run


# ----------------------------------------------------------------------------
# Loading tutorial modules: patched copy + definitions-only execution.
# ----------------------------------------------------------------------------

# API renames applied to the (copied) tutorial sources so that they build with
# the installed Triton.  Each entry: (file-glob-regex, old, new, why).  Filled
# in after probing the installed Triton; reported in OUT/renames.json.
RENAMES = [
    (r".*", ".is_cuda_backend()", '.backend == "cuda"',
     "facebookexperimental fork adds GPUTarget.is_cuda_backend(); Triton 3.9's GPUTarget has only .backend"),
    (r"gluon/", "async_copy_shared_to_global(", "async_store(",
     "Triton 3.9 Gluon removed tma.async_copy_shared_to_global (raises 'call async_store instead'); same args"),
    (r"gluon/", "async_copy_global_to_shared(", "async_load(",
     "Triton 3.9 Gluon removed tma.async_copy_global_to_shared (raises 'call async_load instead'); same args"),
    (r"gluon/", "._reinterpret(", ".reinterpret(",
     "Triton 3.9 Gluon names the shared/tensor memory descriptor method reinterpret(dtype, shape, layout)"),
]



def _release_renames():
    """The renames back for a release whose Gluon predates tma.async_load/async_store (Triton 3.4-3.7 name
    them async_copy_global_to_shared / async_copy_shared_to_global, same arguments): applied after RENAMES."""
    try:
        from triton.experimental.gluon.language.nvidia.hopper import tma
        from triton.experimental.gluon.language import shared_memory_descriptor as smem
    except ImportError:
        return []
    out = []
    if not hasattr(smem, "reinterpret") and hasattr(smem, "_reinterpret"):  # 3.5-3.8
        out.append((r"gluon/", ".reinterpret(", "._reinterpret(",
                    "this release's Gluon (before 3.9) names the memory descriptor's reinterpret _reinterpret"))
    if hasattr(tma, "async_load") or not hasattr(tma, "async_copy_global_to_shared"):
        return out
    return out + [(r"gluon/", "async_load(", "async_copy_global_to_shared(",
             "this release's Gluon (before 3.8) names tma.async_load async_copy_global_to_shared; same args"),
            (r"gluon/", "async_store(", "async_copy_shared_to_global(",
             "this release's Gluon (before 3.8) names tma.async_store async_copy_shared_to_global; same args")]


_MODULES = {}
_LOAD_LOG = []


def _is_main_guard(node):
    return isinstance(node, ast.If) and "__name__" in ast.unparse(node.test)


class _Loader:

    def __init__(self, src_root, work_root):
        self.src_root = src_root
        self.work_root = work_root
        self.search_dirs = []

    def patched_path(self, rel):
        src = os.path.join(self.src_root, rel)
        dst = os.path.join(self.work_root, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        text = open(src).read()
        applied = []
        for pat, old, new, why in RENAMES + _release_renames():
            if re.search(pat, rel) and old in text:
                text = text.replace(old, new)
                applied.append((old, new, why))
        with open(dst, "w") as f:
            f.write(text)
        return dst, applied

    def load(self, rel, modname=None):
        if rel in _MODULES:
            return _MODULES[rel]
        path, applied = self.patched_path(rel)
        d = os.path.dirname(path)
        if d not in sys.path:
            sys.path.insert(0, d)
        modname = modname or os.path.splitext(os.path.basename(rel))[0]
        mod = types.ModuleType(modname)
        mod.__file__ = path
        sys.modules[modname] = mod
        _MODULES[rel] = mod
        tree = ast.parse(open(path).read(), filename=path)
        skipped = []
        for node in tree.body:
            if isinstance(node, (ast.Expr, ast.Assert)) or _is_main_guard(node):
                continue
            code = compile(ast.Module(body=[node], type_ignores=[]), path, "exec")
            try:
                exec(code, mod.__dict__)
            except LaunchBlocked:
                skipped.append((node.lineno, "launch (module-level test code)"))
            except Exception as e:  # module-level test / benchmark code that needs a real GPU
                skipped.append((node.lineno, f"{type(e).__name__}: {str(e)[:120]}"))
        _LOAD_LOG.append({"file": rel, "module": modname, "renames": applied, "skipped_statements": skipped})
        return mod


class _SiblingFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Route `importlib.import_module("05-wgmma")` (sibling tutorials) to the loader."""

    def __init__(self, loader, rel_dirs):
        self.loader = loader
        self.rel_dirs = rel_dirs

    def find_spec(self, fullname, path=None, target=None):
        for d in self.rel_dirs:
            rel = os.path.join(d, fullname + ".py")
            if os.path.exists(os.path.join(self.loader.src_root, rel)):
                return importlib.util.spec_from_loader(fullname, self, origin=rel)
        return None

    def create_module(self, spec):
        return self.loader.load(spec.origin, spec.name)

    def exec_module(self, module):
        pass


# ----------------------------------------------------------------------------
# Compilation with the launcher's specialisation + metadata.
# ----------------------------------------------------------------------------


def _flatten_sig(name, ty, value, out):
    if isinstance(ty, tuple):
        for i, t in enumerate(ty):
            _flatten_sig(f"{name}[{i}]", t, value[i] if value is not None else None, out)
    else:
        out.append((name, ty, value))


def _describe_tensor(t):
    d = {
        "dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape), "strides": list(t.stride()),
        "buffer": f"buf{t.alloc_id}", "buffer_shape": list(t._base_shape), "offset_bytes": t._offset
    }
    if t.label:
        d["label"] = t.label
    if getattr(t, "contents", None) is not None:
        d["contents"] = [f"&buf{_Heap.by_addr[v]}" if isinstance(v, int) and v in _Heap.by_addr else v
                         for v in t.contents]
    return d


def _describe_desc(v):
    d = {"shape": list(v.shape), "strides": list(v.strides), "block_shape": list(v.block_shape)}
    if isinstance(getattr(v, "base", None), MetaTensor):
        d["base"] = _describe_tensor(v.base)
    if getattr(v, "layout", None) is not None:
        d["layout"] = repr(v.layout)
    if getattr(v, "padding", None) is not None:
        d["padding"] = v.padding
    return d


_TMA_DTYPE_DEVICE_TO_HOST = dict((i, i) for i in range(16))
_TMA_DTYPE_DEVICE_TO_HOST.update({8: 10, 9: 8, 10: 9})


def _tma_encode(val, meta):
    """Arguments the CUDA launcher passes to cuTensorMapEncodeTiled (see make_tensordesc_arg / driver.c)."""
    shape, strides = list(val.shape), list(val.strides)
    rank = len(shape)
    expanded = shape[:-1] + [shape[-1] * 2] if meta.get("fp4_padded") else shape
    es = meta["elem_size"]
    base = val.base
    return {
        "tensorDataType": 11 if getattr(val, "round_f32_to_tf32", False) else
        _TMA_DTYPE_DEVICE_TO_HOST[meta["elem_type"]],
        "tensorRank": rank,
        "globalAddress": f"buf{base.alloc_id}+{base._offset}" if isinstance(base, MetaTensor) else None,
        "globalDim": list(reversed(expanded)),
        "globalStrides_bytes": [es * strides[i] for i in reversed(range(rank - 1))],
        "boxDim": list(reversed(meta["block_size"])),
        "elementStrides": [1] * rank,
        "interleave": "CU_TENSOR_MAP_INTERLEAVE_NONE",
        "swizzle": ["NONE", "32B", "64B", "128B"][meta["swizzle"]] if meta["swizzle"] < 4 else meta["swizzle"],
        "l2Promotion": "CU_TENSOR_MAP_L2_PROMOTION_L2_128B",
        "oobFill": "NAN_REQUEST_ZERO_FMA" if getattr(val, "padding", "zero") == "nan" else "NONE",
    }


def _parse_descriptor(ty):
    """(dtype, rank) of a "tensordesc<dtype[block],input_rank=N>" signature type: Triton 3.9's
    triton.backends.driver._parse_descriptor when the release has it; earlier releases (3.3-3.8) write
    the same text and parse it inline in their launcher (the block's rank is the tensor's)."""
    try:
        from triton.backends.driver import _parse_descriptor as parse
        return parse(ty)
    except ImportError:
        m = re.match(r"tensordesc(?:_im2col)?<([^[>]*)\[([^\]]*)\]", ty)
        rank = re.search(r",input_rank=(\d+)", ty)
        return m.group(1), int(rank.group(1)) if rank else m.group(2).count(",") + 1


def describe_params(signature, bound, tensordesc_meta):
    """Ordered list of the PTX entry params as the CUDA launcher passes them."""
    flat = []
    for name, ty in signature.items():
        _flatten_sig(name, ty, bound.get(name), flat)
    params = []
    desc_i = 0
    has_meta = bool(tensordesc_meta)
    for name, ty, val in flat:
        if ty == "constexpr":
            continue
        if isinstance(ty, str) and ty.startswith("tensordesc"):
            dtype, ndim = _parse_descriptor(ty)
            meta = tensordesc_meta[desc_i] if has_meta and desc_i < len(tensordesc_meta) else None
            desc_i += 1
            dd = _describe_desc(val) if val is not None else {}
            if has_meta:
                e = {"name": f"{name}.tensormap", "kind": "tensormap", "bytes": 128, "type": ty, "descriptor": dd}
                if meta is not None:
                    e["tma_meta"] = meta
                    if val is not None and not meta.get("is_im2col"):
                        e["cuTensorMapEncodeTiled"] = _tma_encode(val, meta)
                params.append(e)
            else:
                params.append({"name": f"{name}.base", "kind": "pointer", "dtype": dtype, "descriptor": dd})
                for i in range(ndim):
                    params.append({"name": f"{name}.shape[{i}]", "kind": "int", "type": "i64",
                                   "value": dd.get("shape", [None] * ndim)[i]})
                for i in range(ndim):
                    params.append({"name": f"{name}.strides[{i}]", "kind": "int", "type": "i64",
                                   "value": dd.get("strides", [None] * ndim)[i]})
                params.append({"name": f"{name}.padding_nan", "kind": "int", "type": "i1",
                               "value": int(getattr(val, "padding", "zero") == "nan")})
                params.append({"name": f"{name}.round_f32_to_tf32", "kind": "int", "type": "i1",
                               "value": int(bool(getattr(val, "round_f32_to_tf32", False)))})
            for i in range(ndim):
                params.append({"name": f"{name}.shape[{i}]", "kind": "int", "type": "i32",
                               "value": dd.get("shape", [None] * ndim)[i]})
            for i in range(ndim):
                params.append({"name": f"{name}.strides[{i}]", "kind": "int", "type": "i64",
                               "value": dd.get("strides", [None] * ndim)[i]})
        elif isinstance(ty, str) and ty.startswith("*"):
            e = {"name": name, "kind": "pointer", "type": ty}
            if isinstance(val, MetaTensor):
                e["tensor"] = _describe_tensor(val)
            elif val is None:
                e["tensor"] = None
            params.append(e)
        elif ty in ("fp16", "bf16", "fp32", "fp64"):
            params.append({"name": name, "kind": "float", "type": ty, "value": val})
        else:
            params.append({"name": name, "kind": "int", "type": ty,
                           "value": int(val) if isinstance(val, (bool, int)) else repr(val)})
    params.append({"name": "global_scratch", "kind": "scratch", "type": "*i8",
                   "note": "global scratch: grid_size*num_ctas*global_scratch_size bytes (NULL if size 0)"})
    params.append({"name": "profile_scratch", "kind": "scratch", "type": "*i8",
                   "note": "profile scratch: grid_size*num_ctas*profile_scratch_size bytes (NULL if size 0)"})
    return params


_ENTRY_RE = re.compile(r"\.visible\s+\.entry\s+(\w+)\s*\((.*?)\)", re.S)


def ptx_entry_params(ptx):
    m = _ENTRY_RE.search(ptx)
    if not m:
        return None, []
    params = []
    for line in m.group(2).split(","):
        line = line.strip()
        if line:
            params.append(line.split()[-1].split("[")[0] if "[" not in line.split()[-1] else line.split()[-1])
    return m.group(1), params


def cubin_resources(cubin, tmpdir):
    tools = os.path.join(os.path.dirname(__import__("triton").__file__), "backends", "nvidia", "bin")
    path = os.path.join(tmpdir, "k.cubin")
    with open(path, "wb") as f:
        f.write(cubin)
    try:
        out = subprocess.run([os.path.join(tools, "cuobjdump"), "--dump-resource-usage", path], capture_output=True,
                             text=True, timeout=60).stdout
    except Exception:
        return {}
    res = {}
    for key in ("REG", "STACK", "SHARED", "LOCAL", "TEXTURE", "SURFACE", "SAMPLER"):
        m = re.search(key + r":(\d+)", out)
        if m:
            res[key.lower()] = int(m.group(1))
    return res


def _pack_args_before_3_5(fn, backend, kwargs, bound_args, specialization):
    """what JITFunction.run computes before compiling, in the releases whose
    JITFunction has no _pack_args (3.4 and earlier; the same steps)"""
    from triton.runtime.jit import find_paths_if, get_iterable_path
    options = backend.parse_options(kwargs)
    sigvals = [x[0] for x in specialization]
    signature = {x.name: v for x, v in zip(fn.params, sigvals)}
    constexprs = find_paths_if(sigvals, lambda _, val: val == "constexpr")
    constexprs = {path: get_iterable_path(list(bound_args.values()), path) for path in constexprs}
    attrvals = [x[1] for x in specialization]
    attrs = find_paths_if(attrvals, lambda _, x: isinstance(x, str))
    attrs = {k: backend.parse_attr(get_iterable_path(attrvals, k)) for k in attrs}
    return options, signature, constexprs, attrs


def _specialise_before_3_3(fn, backend, args, kwargs):
    """JITFunction.run's specialisation in Triton 3.0-3.2 (issue 52's sm_90a corpus from 3.0): the
    binder returns five values, the signature names only the non-constexpr parameters and the
    constants (constexprs, arguments equal to 1 and None) leave the kernel's parameters; 3.0/3.1
    take the divisibility attributes from JITFunction._get_config, 3.2 from the backend.
    Returns (options, signature, constants, attrs descriptor, bound_args, the JSON's signature, its
    constexprs by parameter index)"""
    from triton.runtime.jit import create_function_from_signature
    try:
        binder = create_function_from_signature(fn.signature, fn.params, backend)  # 3.2
    except TypeError:
        binder = create_function_from_signature(fn.signature, fn.params)  # 3.0, 3.1
    bound_args, sig_and_spec, _, _, _ = binder(*args, **kwargs)
    options = backend.parse_options(kwargs)
    bound_vals = tuple(bound_args.values())
    sigkeys = [p.name for p in fn.params if not p.is_constexpr]
    signature = {k: ("*i8" if v == "none" else v) for k, v in zip(sigkeys, sig_and_spec[:len(sigkeys)])}
    if hasattr(backend, "get_attrs_descriptor"):
        attrs = backend.get_attrs_descriptor(fn.params, bound_vals)
        folded = attrs.get_constants()
    else:
        attrs = fn._get_config(*bound_vals)
        folded = attrs.equal_to_1
    constants = {p.name: v for v, p in zip(bound_vals, fn.params) if p.is_constexpr or p.num in folded or v is None}
    json_sig = {p.name: ("constexpr" if p.name in constants else signature[p.name]) for p in fn.params}
    json_const = {(p.num, ): constants[p.name] for p in fn.params if p.name in constants}
    return options, signature, constants, attrs, bound_args, json_sig, json_const


def compile_launch(launch, config=None, extra_options=None):
    """Specialise like JITFunction.run does, then triton.compile(ASTSource)."""
    import triton
    try:
        from triton import knobs
    except ImportError:  # Triton 3.3: the environment variables the knobs replaced
        knobs = types.SimpleNamespace(runtime=types.SimpleNamespace(debug=os.environ.get("TRITON_DEBUG", "0") == "1"),
                                      compilation=types.SimpleNamespace())
    from triton.compiler import ASTSource, make_backend
    from triton.backends.compiler import GPUTarget
    from triton.runtime.jit import create_function_from_signature
    try:  # releases without Gluon (before 3.5) have no GluonASTSource
        from triton.experimental.gluon._runtime import GluonASTSource
    except ImportError:
        GluonASTSource = None

    fn = launch.fn
    kwargs = dict(launch.kwargs)
    if config is not None:
        if config.pre_hook is not None:
            nargs = dict(zip(launch.autotuner.arg_names, launch.args))
            config.pre_hook({**nargs, **kwargs, **config.all_kwargs()})
        kwargs.update(config.all_kwargs())
    kwargs.update(extra_options or {})
    kwargs["debug"] = kwargs.get("debug", getattr(fn, "debug", None)) or knobs.runtime.debug  # 3.2: no fn.debug
    # the knobs a release has (issue 52: every release from 3.3 compiles the corpus)
    for knob in ("instrumentation_mode", "fpsan_homomorphic_casts"):
        if hasattr(knobs.compilation, knob):
            kwargs[knob] = getattr(knobs.compilation, knob)
    target = GPUTarget("cuda", ARCH, 32)
    backend = make_backend(target)
    if tuple(int(x) for x in triton.__version__.split(".")[:2]) < (3, 3):
        options, signature, constants, attrs, bound_args, json_sig, json_const = \
            _specialise_before_3_3(fn, backend, launch.args, kwargs)
        grid = launch.grid(bound_args) if callable(launch.grid) else launch.grid
        grid = tuple(int(g) for g in grid) + (1, ) * (3 - len(grid))
        kernel = triton.compile(ASTSource(fn, signature, constants, attrs), target=target, options=options.__dict__)
        return kernel, dict(signature=json_sig, constexprs=json_const, attrs={}, bound=bound_args, grid=grid,
                            options=options)
    binder = create_function_from_signature(fn.signature, fn.params, backend)
    bound_args, specialization, options = binder(*launch.args, **kwargs)
    if hasattr(fn, "_pack_args"):
        options, signature, constexprs, attrs = fn._pack_args(backend, kwargs, bound_args, specialization, options)
    else:
        options, signature, constexprs, attrs = _pack_args_before_3_5(fn, backend, kwargs, bound_args, specialization)
    src_cls = GluonASTSource if getattr(fn, "is_gluon", lambda: False)() else ASTSource
    src = src_cls(fn, signature, constexprs, attrs)
    grid = launch.grid
    if callable(grid):
        grid = grid(bound_args)
    grid = tuple(int(g) for g in grid) + (1, ) * (3 - len(grid))
    kernel = triton.compile(src, target=target, options=options.__dict__)
    return kernel, dict(signature=signature, constexprs=constexprs, attrs=attrs, bound=bound_args, grid=grid,
                        options=options)


def _jsonable(x):
    if isinstance(x, (str, int, float, bool)) or x is None:
        return x
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, MetaTensor):
        return _describe_tensor(x)
    if isinstance(x, type):
        return x.__qualname__
    return repr(x)


def write_variant(out, name, launch, kernel, info, note, tmpdir):
    import triton
    md = kernel.metadata
    ptx = kernel.asm["ptx"]
    entry, ptx_params = ptx_entry_params(ptx)
    params = describe_params(info["signature"], info["bound"], getattr(md, "tensordesc_meta", None) or [])
    while len(params) > len(ptx_params) and params[-1]["kind"] == "scratch":
        params.pop()  # releases before 3.5 pass no profile scratch, before 3.3 no global scratch
    mismatch = len(params) != len(ptx_params)
    for p, pn in zip(params, ptx_params):
        p["ptx_param"] = pn
    num_ctas = md.num_ctas
    gx, gy, gz = info["grid"]
    opts = info["options"]
    constexprs = {}
    for path, v in info["constexprs"].items():
        pname = ".".join(str(p) for p in path)
        try:
            pname = list(info["signature"].keys())[path[0]] + "".join(f"[{p}]" for p in path[1:])
        except Exception:
            pass
        constexprs[pname] = _jsonable(v)
    attrs = {}
    for path, v in info["attrs"].items():
        try:
            pname = list(info["signature"].keys())[path[0]] + "".join(f"[{p}]" for p in path[1:])
        except Exception:
            pname = str(path)
        attrs[pname] = _jsonable(v)
    res = cubin_resources(kernel.asm["cubin"], tmpdir) if "cubin" in kernel.asm else {}
    meta = {
        "name": name,
        "kernel": launch.name,
        "entry": entry,
        "tutorial": launch.fn.fn.__code__.co_filename.split("patched_src/")[-1],
        "language": "gluon" if getattr(launch.fn, "is_gluon", lambda: False)() else "triton",
        "note": note,
        "triton_version": triton.__version__,
        "target": f"cuda:{ARCH}",
        "ptx_target": re.search(r"\.target\s+(\S+)", ptx).group(1),
        "ptx_version": re.search(r"\.version\s+(\S+)", ptx).group(1),
        "params": params,
        "ptx_param_count": len(ptx_params),
        "param_mapping_ok": not mismatch,
        "signature": {k: _jsonable(v) for k, v in info["signature"].items()},
        "constexprs": constexprs,
        "specialization_attrs": attrs,
        "num_warps": md.num_warps,
        "num_ctas": num_ctas,
        "num_stages": opts.num_stages,
        "maxnreg": getattr(md, "maxnreg", None),
        "enable_fp_fusion": md.enable_fp_fusion,
        "cluster_dims": [num_ctas, 1, 1],
        "shared": md.shared,
        "tmem_size": getattr(md, "tmem_size", None),
        "global_scratch_size": getattr(md, "global_scratch_size", 0),
        "global_scratch_align": getattr(md, "global_scratch_align", None),
        "profile_scratch_size": getattr(md, "profile_scratch_size", None),
        "profile_scratch_align": getattr(md, "profile_scratch_align", None),
        "launch_pdl": getattr(md, "launch_pdl", False),
        "launch_cooperative_grid": getattr(md, "launch_cooperative_grid", False),
        "tensordesc_meta": _jsonable(getattr(md, "tensordesc_meta", None)),
        "grid": [gx, gy, gz],
        "cuda_launch": {
            "gridDim": [gx * num_ctas, gy, gz], "blockDim": [32 * md.num_warps, 1, 1], "clusterDim":
            [num_ctas, 1, 1] if num_ctas != 1 else None, "dynamicSharedMemBytes": md.shared
        },
        "cubin_resources": res,
        "ptx_lines": ptx.count("\n"),
    }
    with open(os.path.join(out, name + ".ptx"), "w") as f:
        f.write(ptx)
    with open(os.path.join(out, name + ".json"), "w") as f:
        json.dump(meta, f, indent=1)
    return meta


# ----------------------------------------------------------------------------
# Variant scenarios.  Each yields (name, launch, config_or_None, note).
# ----------------------------------------------------------------------------

T = MetaTensor  # shorthand


def D(name):
    return _DTYPES[name]


def pick(at, **want):
    """Pick the autotune config whose kwargs/options match `want`."""
    for c in at.configs:
        allk = c.all_kwargs()
        if all(allk.get(k) == v for k, v in want.items()):
            return c
    raise KeyError(f"no autotune config matching {want}")


SCENARIOS = []


def scenario(fn):
    SCENARIOS.append(fn)
    return fn


def V(name, launch, config=None, note="", post_grid=None, options=None):
    return dict(name=name, launch=launch, config=config, note=note, post_grid=post_grid, options=options)


def _one(c):
    assert len(c) == 1, f"expected one launch, got {len(c)}"
    return c[0]


TUT = "python/tutorials/"
GLUON = "python/tutorials/gluon/"
EXAMPLES = "python/examples/gluon/"


@scenario
def t01_vector_add(L):
    m = L.load(TUT + "01-vector-add.py")
    x, y = T((98432, ), D("float32"), label="x"), T((98432, ), D("float32"), label="y")
    with capture() as c:
        m.add(x, y)
    yield V("t01_add_kernel_fp32", _one(c), note="tutorial size n=98432, BLOCK_SIZE=1024")


@scenario
def t02_fused_softmax(L):
    m = L.load(TUT + "02-fused-softmax.py")
    # softmax() warms the kernel up to read n_regs before launching; we replay that
    # host logic here (num_warps=8, num_stages=4 since SIZE_SMEM > 200000).
    for n_rows, n_cols in [(1823, 781), (256, 1024)]:
        x = T((n_rows, n_cols), D("float32"), label="x")
        y = T((n_rows, n_cols), D("float32"), label="y")
        BLOCK_SIZE = 1 << (n_cols - 1).bit_length()
        num_warps, num_stages = 8, 4 if m.SIZE_SMEM > 200000 else 2
        # as softmax_kernel.warmup(..., BLOCK_SIZE=.., num_stages=.., num_warps=..): num_stages feeds both the
        # constexpr parameter and the compile option
        launch = Launch(m.softmax_kernel, (y, x, x.stride(0), y.stride(0), n_rows, n_cols),
                        dict(BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps, num_stages=num_stages), (1, ))

        def post_grid(kernel, res, n_rows=n_rows, num_warps=num_warps):
            n_regs = res.get("reg") or 32
            occupancy = m.NUM_REGS // (n_regs * m.WARP_SIZE * num_warps)
            if kernel.metadata.shared:
                occupancy = min(occupancy, m.SIZE_SMEM // kernel.metadata.shared)
            return (min(m.NUM_SM * occupancy, n_rows), 1, 1)

        yield V(f"t02_softmax_kernel_fp32_{n_rows}x{n_cols}", launch,
                note="grid = min(NUM_SM*occupancy, n_rows) as in softmax(), occupancy from cubin regs",
                post_grid=post_grid)


@scenario
def t03_matmul(L):
    m = L.load(TUT + "03-matrix-multiplication.py")
    M = N = K = 256
    a, b = T((M, K), D("float16"), label="a"), T((K, N), D("float16"), label="b")
    with capture() as c:
        m.matmul(a, b)
    l = _one(c)
    at = l.autotuner
    yield V("t03_matmul_kernel_fp16_128x256x64_w8s3", l,
            pick(at, BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=64, num_warps=8, num_stages=3))
    yield V("t03_matmul_kernel_fp16_128x128x32_w4s4", l,
            pick(at, BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=32, num_warps=4, num_stages=4))
    yield V("t03_matmul_kernel_fp16_64x32x32_w2s5", l,
            pick(at, BLOCK_SIZE_M=64, BLOCK_SIZE_N=32, BLOCK_SIZE_K=32, num_warps=2, num_stages=5))
    with capture() as c:
        m.matmul(a, b, activation="leaky_relu")
    l = _one(c)
    yield V("t03_matmul_kernel_fp16_leaky_relu_128x256x64_w8s3", l,
            pick(l.autotuner, BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=64, num_warps=8, num_stages=3),
            note="ACTIVATION='leaky_relu'")
    # fp8 (e5m2) inputs, b pre-transposed as in the tutorial
    a8 = T((M, K), D("float16")).to(D("float8_e5m2"))
    b8 = T((K, N), D("float16")).T.to(D("float8_e5m2"))
    with capture() as c:
        m.matmul(a8, b8)
    l = _one(c)
    yield V("t03_matmul_kernel_fp8e5_128x256x128_w8s3", l,
            pick(l.autotuner, BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=128, num_warps=8, num_stages=3),
            note="fp8 e5m2 inputs; b = b.T (column-major, stride_bk==1 -> constexpr)")


@scenario
def t04_dropout(L):
    m = L.load(TUT + "04-low-memory-dropout.py")
    x = T((10, ), D("float32"), label="x")
    keep = T((10, ), D("int32"), label="x_keep")
    with capture() as c:
        m.dropout(x, x_keep=keep, p=0.5)
    yield V("t04_dropout_fp32", _one(c), note="tutorial size n=10, p=0.5")
    with capture() as c:
        m.seeded_dropout(x, p=0.5, seed=123)
    yield V("t04_seeded_dropout_fp32", _one(c), note="tutorial size n=10, p=0.5, seed=123")


@scenario
def t05_layer_norm(L):
    m = L.load(TUT + "05-layer-norm.py")
    for M, N in [(1151, 8192), (256, 1024)]:
        dt = D("float16")
        w = T((N, ), dt, label="weight")
        b = T((N, ), dt, label="bias")
        x = T((M, N), dt, label="x")
        dy = T((M, N), dt, label="dy")
        with capture() as c:
            m.layer_norm(x, (N, ), w, b, 1e-5)
            ctx = _LAST_CTX["LayerNorm"]
            m.LayerNorm.backward(ctx, dy)
        assert len(c) == 3
        tag = f"fp16_{M}x{N}"
        yield V(f"t05_layer_norm_fwd_fused_{tag}", c[0])
        yield V(f"t05_layer_norm_bwd_dx_fused_{tag}", c[1])
        yield V(f"t05_layer_norm_bwd_dwdb_{tag}", c[2])


def _attn_inputs(Z, H, N_CTX, D_, fp8):
    q = T((Z, H, N_CTX, D_), D("float16"), label="q")
    k = T((Z, H, N_CTX, D_), D("float16"), label="k")
    v = T((Z, H, N_CTX, D_), D("float16"), label="v")
    if fp8:
        q = q.to(D("float8_e5m2"))
        k = k.to(D("float8_e5m2"))
        v = v.permute(0, 1, 3, 2).contiguous().permute(0, 1, 3, 2).to(D("float8_e5m2"))
    return q, k, v


ATTN_Z, ATTN_H, ATTN_N = 2, 16, 256


@scenario
def t06_fused_attention(L):
    m = L.load(TUT + "06-fused-attention.py")
    sm = 0.5
    for fp8 in ([False, True] if ARCH == 100 else [False]):
        for D_ in (64, 128):
            for causal in (False, True):
                for ws in ([False, True] if ARCH == 100 else [False]):
                    q, k, v = _attn_inputs(ATTN_Z, ATTN_H, ATTN_N, D_, fp8)
                    with capture() as c:
                        m.attention(q, k, v, causal, sm, ws)
                    l = _one(c)
                    at = l.autotuner
                    at.nargs = dict(zip(at.arg_names, l.args))
                    pruned = at.prune_configs(l.kwargs)
                    cfg = [x for x in pruned if x.kwargs["BLOCK_M"] == 128 and x.kwargs["BLOCK_N"] == 64
                           and x.num_stages == 2 and x.num_warps == 4]
                    dt = "fp8e5" if fp8 else "fp16"
                    name = f"t06_attn_fwd_{dt}_d{D_}_{'causal' if causal else 'full'}{'_ws' if ws else ''}"
                    which = ("the tutorial's pytest config BLOCK_M=128 BLOCK_N=64 num_stages=2 num_warps=4" if cfg else
                             "the first config its pruning keeps (Triton 3.3's tutorial has no 128/64/2/4 one)")
                    cfg = cfg or pruned[:1]
                    yield V(name, l, cfg[0], note=f"Z={ATTN_Z} H={ATTN_H} N_CTX={ATTN_N}; autotune config = {which}")
                    if not fp8 and not ws and (ARCH == 100 or BWD_90):
                        # backward (fp16 only in the tutorial); sm_90a only with --bwd-90 (issue 52's releases)
                        ctx = _LAST_CTX["_attention"]
                        do = T(q.shape, q.dtype, label="do")
                        with capture() as c2:
                            m._attention.backward(ctx, do)
                        assert len(c2) == 2
                        tag = f"fp16_d{D_}_{'causal' if causal else 'full'}"
                        if not causal:
                            yield V(f"t06_attn_bwd_preprocess_d{D_}", c2[0])
                        yield V(f"t06_attn_bwd_{tag}", c2[1])
    if ARCH == 100:
        # a second forward config (BLOCK_N=128, 8 warps, 3 stages) for head dim 128
        q, k, v = _attn_inputs(ATTN_Z, ATTN_H, ATTN_N, 128, False)
        with capture() as c:
            m.attention(q, k, v, False, sm, False)
        l = _one(c)
        cfg = [x for x in l.autotuner.configs if x.kwargs["BLOCK_M"] == 128 and x.kwargs["BLOCK_N"] == 128
               and x.num_stages == 3 and x.num_warps == 8]
        yield V("t06_attn_fwd_fp16_d128_full_bm128_bn128_w8s3", l, cfg[0], note="alternative autotune config")


@scenario
def t07_extern(L):
    m = L.load(TUT + "07-extern-functions.py")
    n = 98432
    x, y = T((n, ), D("float32"), label="x"), T((n, ), D("float32"), label="output")
    l = Launch(m.asin_kernel, (x, y, n), dict(BLOCK_SIZE=1024), lambda meta: ((n + 1023) // 1024, ))
    yield V("t07_asin_kernel_fp32", l, note="libdevice asin; launched at module level in the tutorial")


@scenario
def t08_grouped_gemm(L):
    m = L.load(TUT + "08-grouped-gemm.py")
    sizes = [512, 256, 256, 128]
    A = [T((s, s), D("float16"), label=f"A{i}") for i, s in enumerate(sizes)]
    B = [T((s, s), D("float16"), label=f"B{i}") for i, s in enumerate(sizes)]
    with capture() as c:
        m.group_gemm_fn(A, B)
    l = _one(c)
    yield V("t08_grouped_matmul_kernel_fp16_128x128x64", l,
            pick(l.autotuner, BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=64),
            note=f"group sizes M=N=K={sizes}; NUM_SM=num_sms()")
    BT = [b.T.contiguous() for b in B]
    with capture() as c:
        m.group_gemm_tma_fn(A, BT)
    l = _one(c)
    yield V("t08_grouped_matmul_tma_kernel_fp16_128x128x64_w4s3", l,
            pick(l.autotuner, BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=64, num_stages=3, num_warps=4),
            note=f"group sizes M=N=K={sizes}")
    A8 = [a.to(D("float8_e4m3fn")) for a in A]
    BT8 = [b.to(D("float8_e4m3fn")) for b in BT]
    with capture() as c:
        m.group_gemm_tma_fn(A8, BT8)
    l = _one(c)
    yield V("t08_grouped_matmul_tma_kernel_fp8e4_128x256x128_w8s3", l,
            pick(l.autotuner, BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=128, num_stages=3, num_warps=8),
            note=f"fp8 e4m3; group sizes M=N=K={sizes}")


@scenario
def t09_persistent_matmul(L):
    m = L.load(TUT + "09-persistent-matmul.py")
    M = N = K = 256
    for dtn, short, bk in [("float16", "fp16", 64), ("float8_e4m3fn", "fp8e4", 128)]:
        a = T((M, K), D("float16")).to(D(dtn))
        b = T((K, N), D("float16")).to(D(dtn))
        b = b.T.contiguous()  # (N, K) as in the tutorial
        want = dict(BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=bk, num_stages=3, num_warps=8)
        cfg_s = f"128x256x{bk}_w8s3"
        with capture() as c:
            m.matmul(a, b.T)
        l = _one(c)
        yield V(f"t09_matmul_kernel_{short}_{cfg_s}", l, pick(l.autotuner, **want), note="naive; b passed as b.T")
        with capture() as c:
            m.matmul_persistent(a, b.T)
        l = _one(c)
        yield V(f"t09_matmul_kernel_persistent_{short}_{cfg_s}", l, pick(l.autotuner, **want))
        if not hasattr(m, "matmul_tma"):  # the text before 3.4's: host descriptors of experimental_descriptor
            raise AttributeError("09-persistent-matmul has no matmul_tma (an older text): its TMA variants "
                                 "use triton.tools.experimental_descriptor, which the generator does not fake")
        for ws in (False, True):
            wss = "_ws" if ws else ""
            with capture() as c:
                m.matmul_tma(a, b, ws)
            l = _one(c)
            yield V(f"t09_matmul_kernel_tma_{short}_{cfg_s}{wss}", l, pick(l.autotuner, **want),
                    note=f"host TensorDescriptors; WARP_SPECIALIZE={ws}")
            with capture() as c:
                m.matmul_tma_persistent(a, b, ws)
            l = _one(c)
            yield V(f"t09_matmul_kernel_tma_persistent_{short}_{cfg_s}_subtile{wss}", l,
                    pick(l.autotuner, EPILOGUE_SUBTILE=True, **want),
                    note=f"host TensorDescriptors; EPILOGUE_SUBTILE=True; WARP_SPECIALIZE={ws}")
            with capture() as c:
                m.matmul_descriptor_persistent(a, b, ws)
            l = _one(c)
            yield V(f"t09_matmul_kernel_descriptor_persistent_{short}_{cfg_s}_subtile{wss}", l,
                    pick(l.autotuner, EPILOGUE_SUBTILE=True, **want),
                    note=f"device-side tl.make_tensor_descriptor; FLATTEN=True; WARP_SPECIALIZE={ws}")


@scenario
def t10_block_scaled(L):
    m = L.load(TUT + "10-block-scaled-matmul.py")
    from triton.tools.tensor_descriptor import TensorDescriptor
    M, N, K = 256, 256, 1024
    for fmt in ["nvfp4", "mxfp4", "mxfp8", "mixed"]:
        # mirrors initialize_block_scaled() (shapes / dtypes / descriptors only)
        BLOCK_M, BLOCK_N = 128, 256
        BLOCK_K = 256 if "fp4" in fmt else 128
        VEC = 16 if fmt == "nvfp4" else 32
        EPB_A = 2 if "fp4" in fmt else 1
        EPB_B = 1 if fmt == "mxfp8" else 2
        a = T((M, K // 2), D("uint8"), label="a(packed fp4)") if EPB_A == 2 else T((M, K), D("float8_e4m3fn"), label="a")
        b = T((N, K // 2), D("uint8"), label="b(packed fp4)") if EPB_B == 2 else T((N, K), D("float8_e4m3fn"), label="b")
        a_desc = TensorDescriptor.from_tensor(a, [BLOCK_M, BLOCK_K // EPB_A])
        b_desc = TensorDescriptor.from_tensor(b, [BLOCK_N, BLOCK_K // EPB_B])
        sdt = D("float8_e4m3fn") if fmt == "nvfp4" else D("uint8")
        rep_m, rep_n, rep_k = BLOCK_M // 128, BLOCK_N // 128, BLOCK_K // VEC // 4
        a_scale = T((1, M // 128, K // VEC // 4, 2, 256), sdt, label="a_scale")
        b_scale = T((1, N // 128, K // VEC // 4, 2, 256), sdt, label="b_scale")
        a_scale_desc = TensorDescriptor.from_tensor(a_scale, block_shape=[1, rep_m, rep_k, 2, 256])
        b_scale_desc = TensorDescriptor.from_tensor(b_scale, block_shape=[1, rep_n, rep_k, 2, 256])
        configs = {
            "BLOCK_SIZE_M": BLOCK_M, "BLOCK_SIZE_N": BLOCK_N, "BLOCK_SIZE_K": BLOCK_K, "num_stages": 4,
            "ELEM_PER_BYTE_A": EPB_A, "ELEM_PER_BYTE_B": EPB_B, "VEC_SIZE": VEC, "disallow_acc_multi_buffer": True
        }
        with capture() as c:
            m.block_scaled_matmul(a_desc, a_scale_desc, b_desc, b_scale_desc, D("float16"), M, N, K, rep_m, rep_n,
                                  rep_k, configs)
        yield V(f"t10_block_scaled_matmul_{fmt}", _one(c), note=f"M={M} N={N} K={K}, fp16 output, {fmt}")


@scenario
def t11_pdl(L):
    m = L.load(TUT + "11-programmatic-dependent-launch.py")
    n = 1 << 16
    for pdl in (True, False):
        x, y = T((n, ), D("float32"), label="x"), T((n, ), D("float32"), label="y")
        with capture() as c:
            m.add(x, y, launch_pdl=pdl)
        yield V(f"t11_add_kernel_{'pdl' if pdl else 'nopdl'}_fp32", _one(c), note=f"n={n}, USE_GDC={pdl}")



# ---------------------------------------------------------------- Gluon tutorials


def _f16(*shape, label=None):
    return T(shape, D("float16"), label=label)


@scenario
def g06_tcgen05(L):
    m = L.load(GLUON + "06-tcgen05.py")
    for M_, N_, nw in [(128, 128, 4), (256, 64, 8)]:
        x = T((M_, N_), D("float32"), label="input")
        y = T((M_, N_), D("float32"), label="output")
        l = Launch(m.tmem_example_kernel, (x, y, M_, N_), dict(num_warps=nw), (1, ))
        yield V(f"g06_tmem_example_kernel_{M_}x{N_}_w{nw}", l, note="as test_tmem_example_kernel")
    for M_, N_, K_ in ((128, 128, 128), (64, 128, 128)):  # two of the tutorial's test shapes
        for lhs_tmem in (False, True):
            for use_commit in (False, True):
                A, B = _f16(M_, K_, label="A"), _f16(K_, N_, label="B")
                C, Dd = T((M_, N_), D("float32"), label="C"), T((M_, N_), D("float32"), label="D")
                with capture() as c:
                    m.small_mma(A, B, C, Dd, (min(128, M_), N_), lhs_tmem, use_commit, 4)
                yield V(f"g06_small_mma_kernel_lhs{'tmem' if lhs_tmem else 'smem'}_{'commit' if use_commit else 'mbar'}"
                        + ("" if M_ == 128 else f"_m{M_}"), _one(c), note=f"M={M_}, N={N_}, K={K_}, num_warps=4")
    M_ = N_ = K_ = 256
    for tb in (False, True):
        A = _f16(M_, K_, label="A")
        B = _f16(N_, K_, label="B") if tb else _f16(K_, N_, label="B")
        C = _f16(M_, N_, label="C")
        with capture() as c:
            m.blocked_matmul(A, B, C, 128, 128, 128, tb, 4)
        yield V(f"g06_blocked_matmul_kernel_128x128x128{'_transB' if tb else ''}", _one(c),
                note=f"M=N=K={M_}, num_warps=4")
    M_, N_, K_ = 512, 256, 512
    A, B, C = _f16(M_, K_, label="A"), _f16(K_, N_, label="B"), _f16(M_, N_, label="C")
    with capture() as c:
        m.blocked_matmul_pipelined(A, B, C, 128, 128, 64, 8)
    yield V("g06_blocked_matmul_pipelined_kernel_128x128x64_w8", _one(c), note=f"M={M_} N={N_} K={K_}")


GEMM_M, GEMM_N, GEMM_K = 512, 512, 512
BWD_90 = False  # tutorial 06's backward for sm_90a too (--bwd-90)


def _gemm_note():
    return f"M=N=K={GEMM_M}" if GEMM_M == GEMM_N == GEMM_K else f"M={GEMM_M} N={GEMM_N} K={GEMM_K}"


@scenario
def g07_persistence(L):
    m = L.load(GLUON + "07-persistence.py")
    M_, N_, K_ = GEMM_M, GEMM_N, GEMM_K
    A, B, C = _f16(M_, K_, label="A"), _f16(K_, N_, label="B"), _f16(M_, N_, label="C")
    # Blackwell settings from the tutorial's __main__: 128x256x64, 4 buffers, 4 warps, GroupedPersistentTileScheduler(8)
    with capture() as c:
        m.matmul_pipelined(A, B, C, 128, 256, 64, 4, 4)
    yield V("g07_matmul_pipelined_kernel_mmav5_128x256x64_b4_w4", _one(c), note=_gemm_note())
    with capture() as c:
        m.persistent_matmul(A, B, C, 128, 256, 64, 4, 4, m.PersistentTileScheduler)
    yield V("g07_persistent_matmul_kernel_rowmajor_128x256x64_b4_w4", _one(c), note=_gemm_note())
    with capture() as c:
        m.persistent_matmul(A, B, C, 128, 256, 64, 4, 4, m.GroupedPersistentTileScheduler(8))
    yield V("g07_persistent_matmul_kernel_grouped8_128x256x64_b4_w4", _one(c), note=_gemm_note())
    for nb in (3, 4):
        with capture() as c:
            m.persistent_matmul_pipelined(A, B, C, 128, 256, 64, nb, 4, m.GroupedPersistentTileScheduler(8))
        yield V(f"g07_persistent_matmul_pipelined_kernel_grouped8_128x256x64_b{nb}_w4", _one(c),
                note=f"{_gemm_note()}; STEALB={nb == 4}")


@scenario
def g08_warp_specialization(L):
    m = L.load(GLUON + "08-warp-specialization.py")
    for (xn, yn), nb in [((1000, 2000), 2)]:
        a, b, c_ = (T((xn, yn), D("float32"), label=n) for n in "abc")
        with capture() as c:
            m.elementwise_add_warp_specialized(a, b, c_, 32, 64, nb, nb, 4)
        yield V(f"g08_elementwise_add_warp_specialized_kernel_{xn}x{yn}_b{nb}", _one(c), note="maxnreg=128")
    M_, N_, K_ = GEMM_M, GEMM_N, GEMM_K
    A, B, C = _f16(M_, K_, label="A"), _f16(K_, N_, label="B"), _f16(M_, N_, label="C")
    t7 = L.load(GLUON + "07-persistence.py")
    with capture() as c:
        m.matmul_warp_specialized(A, B, C, 128, 256, 64, 4, 4, 4, t7.GroupedPersistentTileScheduler(8))
    yield V("g08_matmul_warp_specialized_kernel_grouped8_128x256x64_b4_sub4", _one(c), note=_gemm_note())


@scenario
def g10_tcgen05_copy(L):
    """Gluon tutorial 10 (issue 52, r52e): tcgen05_copy_kernel (an f32 M x N tile global -> shared ->
    tcgen05.cp -> Tensor Memory -> global) in three of test_tcgen05_copy_nvmma_shared's configurations,
    and matmul_accumulate_kernel (D = A @ B + C, C copied into the accumulator by tcgen05.cp) at a small size
    with test_matmul_accumulate's blocks"""
    m = L.load(GLUON + "10-tcgen05-copy.py")
    gl = m.gl
    for M_, N_, tbn, swz in [(128, 128, 128, 128), (128, 32, 32, 128), (256, 64, 16, 32)]:
        x, y = T((M_, N_), D("float32"), label="input"), T((M_, N_), D("float32"), label="output")
        smem_layout = gl.NVMMASharedLayout(swizzle_byte_width=swz, element_bitwidth=32, rank=2)
        tmem_layout = m.TensorMemoryLayout(block=(128, tbn), col_stride=1)
        with capture() as c:
            m.tcgen05_copy_kernel[(1, )](x, *x.stride(), y, *y.stride(), M_, N_, smem_layout, tmem_layout)
        yield V(f"g10_tcgen05_copy_kernel_{M_}x{N_}_tmem{tbn}_swz{swz}", _one(c),
                note=f"M={M_} N={N_} TMEM_BLOCK_N={tbn} swizzle={swz} (test_tcgen05_copy_nvmma_shared)")
    M_, N_, K_ = 256, 256, 256
    for bm, bn in [(128, 128), (128, 64)]:
        A, B = _f16(M_, K_, label="A"), _f16(K_, N_, label="B")
        C = T((M_, N_), D("float32"), label="C")
        with capture() as c:
            m.matmul_accumulate(A, B, C, bm, bn, 64, num_buffers=3)
        yield V(f"g10_matmul_accumulate_kernel_{bm}x{bn}x64_b3", _one(c),
                note=f"M={M_} N={N_} K={K_}; GroupedPersistentTileScheduler(8), 3 buffers (test_matmul_accumulate's blocks)")


def _quant(MN, K, fmt):
    """Shapes/dtypes of random_quantized_tensor(MN, K, fmt): (value, scale)."""
    VEC = 16 if fmt == "nvfp4" else 32
    if fmt == "mxfp8":
        v = T((MN, K), D("float8_e4m3fn"))
    else:
        v = T((MN, K // 2), D("uint8"))
    s = T((MN, K // VEC), D("float8_e4m3fn") if fmt == "nvfp4" else D("uint8"))
    return v, s


@scenario
def g11_mma_scaled(L):
    m = L.load(GLUON + "11-tcgen05-mma-scaled.py")
    M_, N_, K_ = 256, 256, 1024
    for fa, fb in [("mxfp8", "mxfp8"), ("nvfp4", "nvfp4")]:
        A, As = _quant(M_, K_, fa)
        B, Bs = _quant(N_, K_, fb)
        with capture() as c:
            m.simple_mma_scaled(A, B, As, Bs, VEC_SIZE=16 if fa == "nvfp4" else 32)
        yield V(f"g11_simple_mma_scaled_kernel_{fa}x{fb}", _one(c), note=f"M={M_} N={N_} K={K_}, 128x128x128")
    BLOCK_M, BLOCK_N = 128, 256
    for kind, fa, fb in [("contig", "mxfp4", "mxfp4"), ("packed_block", "mxfp8", "mxfp4"),
                         ("tcgen05_copy", "mxfp8", "mxfp8")]:
        A, As = _quant(M_, K_, fa)
        B, Bs = _quant(N_, K_, fb)
        BLOCK_K = 256 if "fp4" in fa and "fp4" in fb else 128
        VEC = 16 if fa == "nvfp4" else 32
        with capture() as c:
            if kind == "contig":
                As2 = m.relayout_scales_contiguous(As, BLOCK_M, BLOCK_K, VEC)
                Bs2 = m.relayout_scales_contiguous(Bs, BLOCK_N, BLOCK_K, VEC)
                m.mma_scaled_contig(A, B, As2, Bs2, VEC, BLOCK_M, BLOCK_N, BLOCK_K)
            else:
                As2 = m.swizzle_scales_packed_block(As, VEC)
                Bs2 = m.swizzle_scales_packed_block(Bs, VEC)
                fn = m.mma_scaled_packed_block if kind == "packed_block" else m.mma_scaled_tcgen05_copy
                fn(A, B, As2, Bs2, VEC, BLOCK_M, BLOCK_N, BLOCK_K)
        yield V(f"g11_mma_scaled_{kind}_kernel_{fa}x{fb}", _one(c),
                note=f"M={M_} N={N_} K={K_}, {BLOCK_M}x{BLOCK_N}x{BLOCK_K}")
    for impl, fmts in [("pipelined", [("mxfp8", "mxfp8"), ("nvfp4", "nvfp4")]),
                       ("warp_specialized", [("mxfp8", "mxfp8"), ("mxfp4", "mxfp4"), ("mxfp8", "mxfp4"),
                                             ("nvfp4", "nvfp4")])]:
        kern = getattr(m, f"mma_scaled_{impl}_kernel")
        for fa, fb in fmts:
            A, As = _quant(M_, K_, fa)
            B, Bs = _quant(N_, K_, fb)
            VEC = 16 if fa == "nvfp4" else 32
            with capture() as c:
                As2 = m.swizzle_scales_packed_block(As, VEC)
                Bs2 = m.swizzle_scales_packed_block(Bs, VEC)
                m.mma_scaled(A, B, As2, Bs2, VEC, kern)
            yield V(f"g11_mma_scaled_{impl}_kernel_{fa}x{fb}", _one(c),
                    note=f"M={M_} N={N_} K={K_}, GroupedPersistentTileScheduler(8), 3 buffers")


@scenario
def g12_clc(L):
    m = L.load(GLUON + "12-cluster-launch-control.py")
    M_, N_, K_ = GEMM_M, GEMM_N, GEMM_K
    A, B, C = _f16(M_, K_, label="A"), _f16(K_, N_, label="B"), _f16(M_, N_, label="C")
    for clc in (True, False):
        with capture() as c:
            m.run_matmul_kernel(A, B, C, use_clc=clc)
        yield V(f"g12_persistent_matmul_kernel_{'clc' if clc else 'static'}", _one(c),
                note=f"M=N=K={M_}; 128x256x64, 3 buffers, 4 warps")


@scenario
def g14_multicta(L):
    m = L.load(GLUON + "14-multicta.py")
    for M_, N_ in [(64, 256), (16, 2**16)]:
        x = T((M_, N_), D("float32"), label="x")
        with capture() as c:
            m.multicta_softmax_f32(x)
        l = _one(c)
        yield V(f"g14_multicta_softmax_kernel_{M_}x{N_}_ctas{l.kwargs['num_ctas']}", l,
                note=f"pick_multicta_softmax_config({N_})")
    a, b, c_ = _f16(256, 64, label="a"), _f16(64, 128, label="b"), _f16(256, 128, label="c")
    with capture() as c:
        m.run_two_cta_tcgen05(a, b, c_)
    yield V("g14_two_cta_tcgen05_kernel", _one(c), note="M,N,K=256,128,64; num_ctas=2")
    inp, out = _f16(128, 128, label="inp"), _f16(128, 128, label="out")
    with capture() as c:
        m.run_tma_multicast_copy(inp, out)
    yield V("g14_tma_multicast_copy_kernel", _one(c), note="128x128 fp16; num_ctas=2")
    a, b = _f16(512, 128, label="a"), _f16(128, 128, label="b")
    with capture() as c:
        m.tma_tcgen05_example(a, b)
    yield V("g14_tma_tcgen05_kernel", _one(c), note="M,N,K=512,128,128; num_ctas=4")
    a, b = _f16(1024, 512, label="a"), _f16(512, 1024, label="b")
    with capture() as c:
        m.matmul_multicta(a, b)
    yield V("g14_matmul_multicta_kernel_2cta", _one(c), note="test_matmul_multicta: M=N=1024 K=512, default cfg")


@scenario
def gex01_attention(L):
    m = L.load(EXAMPLES + "01-attention-forward.py")
    Z, H, N_CTX = 1, 16, 1024
    combos = [(dt, d, causal, cta) for dt in ["float16"] for d in (64, 128) for causal in (False, True)
              for cta in ((), ((1, 0), ))]
    combos += [("float8_e5m2", 64, False, ()), ("float8_e5m2", 128, False, ((1, 0), ))]
    for dt, d, causal, cta in combos:
        q, k, v = (T((Z, H, N_CTX, d), D("float32")).to(D(dt)) for _ in range(3))
        with capture() as c:
            m.attention_forward(q, k, v, causal, 0.5, cta_layout=cta)
        short = "fp16" if dt == "float16" else "fp8e5"
        yield V(f"gex01_attention_kernel_{short}_d{d}_{'causal' if causal else 'full'}_{2**len(cta)}cta", _one(c),
                note=f"Z={Z} H={H} N_CTX={N_CTX}; select_kernel_config defaults; cta_layout={cta}")

for _f in (t02_fused_softmax, t03_matmul, t05_layer_norm, t06_fused_attention, t08_grouped_gemm, t09_persistent_matmul):
    _f.sm90 = True  # also built for sm_90a (--arch 90)

# ----------------------------------------------------------------------------
# Driver.
# ----------------------------------------------------------------------------


def main():
    global ARCH, ARCH_CAP, ATTN_Z, ATTN_H, ATTN_N, GEMM_M, GEMM_N, GEMM_K, BWD_90
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", required=True, help="checkout containing python/tutorials and python/examples")
    ap.add_argument("--out", required=True)
    ap.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "triton_corpus_work"),
                    help="scratch dir for the patched tutorial copies and the Triton cache (not part of the corpus)")
    ap.add_argument("--arch", type=int, default=100, choices=[100, 90])
    ap.add_argument("--only", default=None, help="regex on scenario function names")
    ap.add_argument("--variants", default=None, help="regex on variant names")
    ap.add_argument("--fp-fusion", choices=["default", "on", "off"], default="default",
                    help="enable_fp_fusion option (default: Triton's default)")
    ap.add_argument("--ptx-version", type=int, default=None,
                    help="Triton's ptx_version option (87: PTX ISA 8.7, what an older driver's JIT loads)")
    ap.add_argument("--attn-shape", default=None, metavar="Z,H,N_CTX",
                    help="tutorial 06's batch, heads and sequence length (default %d,%d,%d; "
                         "tests/data/ptx/attn90 and attn100 use smaller ones)" % (ATTN_Z, ATTN_H, ATTN_N))
    ap.add_argument("--gemm-size", default=None, metavar="M,N,K",
                    help="Gluon tutorials 07 and 08's matmul sizes (default %d,%d,%d; "
                         "tests/data/ptx/rel100/gluon uses smaller ones)" % (GEMM_M, GEMM_N, GEMM_K))
    ap.add_argument("--bwd-90", action="store_true", help="tutorial 06's backward for sm_90a as well (the census compiles "
                    "it for sm_100a only)")
    args = ap.parse_args()
    BWD_90 = args.bwd_90
    if args.attn_shape:
        ATTN_Z, ATTN_H, ATTN_N = (int(x) for x in args.attn_shape.split(","))
    if args.gemm_size:
        GEMM_M, GEMM_N, GEMM_K = (int(x) for x in args.gemm_size.split(","))
    ARCH = args.arch
    ARCH_CAP = (ARCH // 10, ARCH % 10)
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    work = os.path.abspath(args.work)
    os.environ.setdefault("TRITON_CACHE_DIR", os.path.join(work, f"triton_cache_sm{ARCH}"))

    make_fake_torch()
    import triton
    install_fake_driver()
    install_launch_hooks()
    loader = _Loader(os.path.abspath(args.src), os.path.join(work, "patched_src"))
    sys.meta_path.insert(0, _SiblingFinder(loader, [GLUON.rstrip("/"), TUT.rstrip("/"), EXAMPLES.rstrip("/")]))
    extra = {}
    if args.fp_fusion != "default":
        extra["enable_fp_fusion"] = args.fp_fusion == "on"
    if args.ptx_version:
        extra["ptx_version"] = args.ptx_version

    failures = []
    produced = []
    tmpdir = tempfile.mkdtemp()
    for scn in SCENARIOS:
        if args.only and not re.search(args.only, scn.__name__):
            continue
        if ARCH == 90 and not getattr(scn, "sm90", False):
            continue
        variants = []
        try:
            for v in scn(loader):  # the variants yielded before a failure still compile
                variants.append(v)
        except Exception as e:
            failures.append((scn.__name__, "<scenario>", f"{type(e).__name__}: {e}", traceback.format_exc()))
            print(f"[FAIL] scenario {scn.__name__}: {type(e).__name__}: {e}", flush=True)
        for v in variants:
            if args.variants and not re.search(args.variants, v["name"]):
                continue
            try:
                opts = dict(extra)
                opts.update(v["options"] or {})
                kernel, info = compile_launch(v["launch"], v["config"], opts)
                if v["post_grid"] is not None:
                    res = cubin_resources(kernel.asm["cubin"], tmpdir)
                    info["grid"] = tuple(v["post_grid"](kernel, res))
                meta = write_variant(out, v["name"], v["launch"], kernel, info, v["note"], tmpdir)
                produced.append(meta)
                print(f"[ok] {v['name']}: {meta['ptx_lines']} lines, shared={meta['shared']} "
                      f"warps={meta['num_warps']} ctas={meta['num_ctas']} grid={meta['grid']}"
                      f"{'' if meta['param_mapping_ok'] else ' PARAM-MISMATCH'}", flush=True)
            except Exception as e:
                msg = f"{type(e).__name__}: {str(e).strip()}"
                failures.append((scn.__name__, v["name"], msg, traceback.format_exc()))
                print(f"[FAIL] {v['name']}: {msg[:300]}", flush=True)
    with open(os.path.join(out, "failures.txt"), "w") as f:
        for scn, name, msg, tb in failures:
            f.write(f"=== {name} ({scn})\n{msg}\n{tb}\n")
    with open(os.path.join(out, "index.json"), "w") as f:
        json.dump({
            "triton_version": triton.__version__, "arch": ARCH, "renames": [dict(zip(("file_regex", "old", "new", "why"), r))
                                                                              for r in RENAMES],
            "module_loading": _LOAD_LOG, "variants": [{k: m[k] for k in ("name", "kernel", "entry", "ptx_lines", "tutorial")}
                                                      for m in produced],
            "failures": [{"name": n, "scenario": s, "error": msg} for s, n, msg, _ in failures]
        }, f, indent=1)
    print(f"{len(produced)} variants written to {out}; {len(failures)} failures")


if __name__ == "__main__":
    main()
