"""tc5 as the process's CUDA device, to Python and to PyTorch (issue 50).

Under the Triton door's torch.cuda shim (``TC5_TRITON_TORCH_CUDA=1``) a tensor made for "cuda"
lives in host memory, which tc5's kernels use in place: it *is* a CPU tensor. This module makes
it *answer* as a CUDA tensor, and reach the kernels libraries register for CUDA:

- **identity**: ``tensor.device`` is ``cuda:0``, ``tensor.is_cuda`` True, ``tensor.is_cpu`` False,
  ``tensor.get_device()`` 0, for every tensor while the shim is on (the process has one device,
  tc5; a tensor a program asks for on "cpu" is host memory too, and answers the same: code
  that compares devices, ``torch.testing.assert_close`` among it, sees one device).
  PyTorch calls ``__torch_function__`` for these property getters when a TorchFunctionMode is
  active; ``answer()`` is what the shim's mode asks first.
- **CUDA dispatch**: a ``TorchDispatchMode`` (below autograd: gradients are the CPU's, no CUDA
  stream is ever asked for) sends each ATen operator that a library registered for the CUDA
  key through ``torch.library`` (FlagGems does, for its Triton operators) to that kernel;
  every other operator runs as PyTorch's CPU kernel.

Why not a tensor whose device *is* cuda (a wrapper subclass made with
``_make_wrapper_subclass(device="cuda")`` and ``__torch_dispatch__``): autograd's
``InputMetadata`` asks the device guard of a CUDA tensor for its stream, which calls the CUDA
runtime; with no driver the process aborts at the first ``backward()`` (torch 2.15.0+cu132,
measured). A ``PrivateUse1`` backend cannot take the name "cuda". What a program can observe
of a device goes through these getters and the dispatcher, so answering there is enough and
keeps the memory plain. The cost: a Python call per operator (``bench/bench_device.py``).
"""
from __future__ import annotations

import threading

__all__ = ["answer", "NOT_MINE", "enter_dispatch", "cuda_kernels", "generator_class"]

NOT_MINE = object()  # answer()'s "not a device query": the caller goes on
_lock = threading.Lock()
_mode = None


def _getters():
    import torch
    base = torch._C.TensorBase
    cuda0 = torch.device("cuda", 0)
    return {
        base.device.__get__: lambda t: cuda0,
        base.is_cuda.__get__: lambda t: True,
        base.is_cpu.__get__: lambda t: False,
        torch.Tensor.get_device: lambda t: 0,
        base.get_device: lambda t: 0,
    }


_answers = None


_impls_seen = -1


def answer(func, args):
    """the answer a CUDA tensor gives to func (a device query: .device, .is_cuda, .is_cpu,
    .get_device()) of args[0], or NOT_MINE. The shim's TorchFunctionMode asks it first on
    every call; it also enters the dispatch mode once a library has registered a CUDA kernel
    (until then no operator pays for it)"""
    global _answers, _impls_seen
    if _answers is None:
        _answers = _getters()
    if _started and _mode is None:
        import torch.library
        n = len(getattr(torch.library, "_impls", ()))
        if n != _impls_seen:
            _impls_seen = n
            if cuda_kernels():
                enter_dispatch(now=True)
    a = _answers.get(func)
    if a is None or not args:
        return NOT_MINE
    import torch
    t = args[0]
    if not isinstance(t, torch.Tensor) or t.is_meta:
        return NOT_MINE
    return a(t)


_torch_own: frozenset = frozenset()  # torch.library's registrations when the mode began (PyTorch's own)


def cuda_kernels() -> set[str]:
    """the ATen operators ("add.Tensor") a library registered a CUDA kernel for through
    torch.library (torch.library._impls: "aten/add.Tensor/CUDA") since the dispatch mode began
    (PyTorch registers a few of its own, bmm among them, before: those stay the CPU's)"""
    import torch.library as L
    out = set()
    for k in set(getattr(L, "_impls", ())) - _torch_own:
        ns, _, rest = k.partition("/")
        op, _, key = rest.rpartition("/")
        if ns == "aten" and key == "CUDA":
            out.add(op)
    return out


def library_kernel(op: str) -> bool:
    """whether a library registered a CUDA kernel for ATen operator op ("mm") through torch.library:
    the shim's own stand-ins for CUDA's kernels (cuBLAS's float16 product, layer norm in float32)
    step aside for it, as PyTorch's CUDA kernel does on a GPU"""
    if not _started:
        return False
    import torch.library as L
    key = f"aten/{op}/CUDA"
    return key in getattr(L, "_impls", ()) and key not in _torch_own


def _op_name(func) -> str:
    name = func._schema.name.split("::", 1)[1]
    ov = func._overloadname
    return f"{name}.{ov}" if ov and ov != "default" else name


def _make_mode():
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode

    cuda_key = torch._C.DispatchKeySet(torch._C.DispatchKey.CUDA)
    impls = torch.library._impls  # a set torch.library adds to
    routed: dict = {}  # operator -> whether a library's CUDA kernel takes it
    routed_n = [len(impls)]

    class CudaDispatch(TorchDispatchMode):
        """ATen operators with a library's CUDA kernel go to it; the rest to the CPU's"""

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            mine = routed.get(func)
            if mine is None or routed_n[0] != len(impls):
                if routed_n[0] != len(impls):
                    routed.clear()
                    routed_n[0] = len(impls)
                key = f"aten/{_op_name(func)}/CUDA"
                mine = routed[func] = key if key in impls and key not in _torch_own else ""
            if mine:
                return _call_cuda_kernel(func, mine, cuda_key, args, kwargs)
            return func(*args, **kwargs)

    return CudaDispatch


_library_kernels: dict = {}  # torch.library._impls's key ("aten/add.Tensor/CUDA") -> (fn, with_keyset)


def _watch_library_impls():
    """torch.library.Library.impl, wrapped once: the Python function a library registers for each
    key is noted (_library_kernels), so that the dispatch mode calls it as the dispatcher calls a
    Python kernel (the arguments as __torch_dispatch__ has them; a Python number where the schema
    says Tensor, a wrapped number, stays a number: redispatch would refuse it)"""
    import torch.library as L
    impl = L.Library.impl
    if getattr(impl, "tc5", False):
        return

    def watched(self, op_name, fn, *args, **kwargs):
        before = set(L._impls)
        r = impl(self, op_name, fn, *args, **kwargs)
        for k in set(L._impls) - before:
            _library_kernels[k] = (fn, bool(kwargs.get("with_keyset", False)))
        return r

    watched.tc5 = True
    watched.__wrapped__ = impl
    L.Library.impl = watched


def _call_cuda_kernel(func, key, cuda_key, args, kwargs):
    """the CUDA kernel a library registered for func (key: its torch.library key): its Python
    function when noted, else through the dispatcher"""
    k = _library_kernels.get(key)
    if k is None:
        return func.redispatch(cuda_key, *args, **kwargs)
    fn, with_keyset = k
    mode = _function_mode  # the shim's TorchFunctionMode, popped while it handles the call that got here:
    if mode is None:  # on again, so that the kernel's own questions (x.is_cuda, x.device) get CUDA's answers
        return fn(cuda_key, *args, **kwargs) if with_keyset else fn(*args, **kwargs)
    with mode:
        return fn(cuda_key, *args, **kwargs) if with_keyset else fn(*args, **kwargs)


_function_mode = None  # the shim's TorchFunctionMode (the top of the stack when enter_dispatch() first ran)


CudaDispatch = None


_started = False


def enter_dispatch(now: bool = False):
    """the shim's start-up calls it: PyTorch's own torch.library registrations noted (they stay
    the CPU's), and from then on the dispatch mode is entered, for the rest of the process,
    when the first library registers a CUDA kernel (now=True: at once)"""
    global _mode, CudaDispatch, _torch_own, _started, _function_mode
    with _lock:
        if _mode is not None:
            return _mode
        import torch.library
        if not _started:
            _torch_own = frozenset(getattr(torch.library, "_impls", ()))
            _started = True
            _watch_library_impls()
            from torch.overrides import _get_current_function_mode
            _function_mode = _get_current_function_mode()
        if not now:
            return None
        CudaDispatch = _make_mode()
        _mode = CudaDispatch()
        _mode.__enter__()
        return _mode


_gen = None


def generator_class():
    """torch.Generator as the shim installs it: Generator(device="cuda") is a CPU generator (the
    CUDA one would start the CUDA runtime) whose .device answers cuda:0; isinstance() of every
    generator, torch.default_generator's too, stays true"""
    global _gen
    if _gen is not None:
        return _gen
    import torch
    base = torch._C.Generator

    class _Meta(type(base)):
        def __instancecheck__(cls, obj):
            return isinstance(obj, base)

        def __subclasscheck__(cls, sub):
            return issubclass(sub, base)

    class Generator(base, metaclass=_Meta):
        """a CPU generator for every device (tc5.device)"""

        def __new__(cls, device="cpu"):
            return super().__new__(cls, device="cpu")

        def __init__(self, device="cpu"):
            pass

        @property
        def device(self):
            return torch.device("cuda", 0)

    Generator.__module__ = "torch"
    _gen = Generator
    return _gen
