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

from . import device_intdiv

__all__ = ["answer", "NOT_MINE", "enter_dispatch", "cuda_kernels", "generator_class", "install_autocast", "autocast_policy", "install_cuda_only_ops", "nested_dispatches", "as_cuda_kernel", "torch_function"]

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
    if _mode is not None:
        _python_keys_back()
    a = _answers.get(func)
    if a is None or not args:
        return NOT_MINE
    import torch
    t = args[0]
    if not isinstance(t, torch.Tensor) or t.is_meta:
        return NOT_MINE
    return a(t)


_py_keys = None


def _python_keys_back():
    """the Python dispatch keys put back in this thread's local include set where its dispatch-mode stack holds modes
    and the set lost them. PyTorch includes Python and PythonTLSSnapshot when a mode is pushed on an empty stack
    (TorchDispatchModeTLS::push_non_infra_mode_onto_stack) and drops them when the last is popped: the stack and the
    keys go together. A guard that restores the whole local set when it ends (torch.inference_mode(): c10's
    InferenceMode keeps the set it found and puts it back) breaks that when the device's mode was first entered
    inside it (lazily: at the first torch call after a library's first CUDA registration, which FlagGems' test_quant
    cases make under @torch.inference_mode()): the mode stayed on the stack, the keys were gone, and the dispatcher
    never called it again (no library kernel reached for the rest of the process). The shim's TorchFunctionMode asks
    answer() first on every torch call, so the keys are back before the call dispatches"""
    global _py_keys
    if _py_keys is None:
        import torch
        C = torch._C
        _py_keys = (C.DispatchKey.Python, C.DispatchKey.PythonTLSSnapshot, C._dispatch_tls_is_dispatch_key_included,
                    C._len_torch_dispatch_stack, C._dispatch_tls_set_dispatch_key_included)
    python, snapshot, included, stack_len, include = _py_keys
    if not included(python) and stack_len():
        include(python, True)
        include(snapshot, True)


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


def is_cuda_device(dev) -> bool:
    """whether dev (a device= or .to() argument) names CUDA: a torch.device or string of type "cuda", or a
    device index (an int, not a bool: PyTorch reads it as the current accelerator's, CUDA's). The shim makes
    such tensors on the CPU"""
    import torch
    if isinstance(dev, torch.device):
        return dev.type == "cuda"
    if isinstance(dev, str):
        return dev.split(":")[0] == "cuda"
    return isinstance(dev, int) and not isinstance(dev, bool)


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
            tens = None  # whether a tensor is among the arguments: asked once, where needed
            if mine:
                tens = _has_tensor(args) or _has_tensor(kwargs)
                if tens or "device" in kwargs:
                    return _call_cuda_kernel(func, mine, cuda_key, args, kwargs)
            if _composite_explicit(func):
                if tens is None:
                    tens = _has_tensor(args) or _has_tensor(kwargs)
                if tens:
                    return _composite_as_on_cuda(func, args, kwargs)
            if _wrapped_number(func, args, kwargs):
                return func.overloadpacket(*args, **kwargs)
            return func(*args, **kwargs)  # the CPU's kernel (also for Python numbers alone, as on a GPU)

    return CudaDispatch


_composite_ops: dict = {}  # OpOverload -> whether it is _composite_explicit's


def _composite_explicit(func) -> bool:
    """whether func's kernel on a GPU is its CompositeExplicitAutograd one (no CUDA kernel of its own, and the
    CPU's none either: the CPU runs the same composite), e.g. aten::clone (at::native::clone: empty_like, then
    copy_ through the dispatcher); not a view or alias, which launches nothing on a GPU"""
    r = _composite_ops.get(func)
    if r is None:
        import torch
        has = torch._C._dispatch_has_kernel_for_dispatch_key
        qual = func.name()
        r = _composite_ops[func] = (has(qual, "CompositeExplicitAutograd") and not has(qual, "CUDA")
                                    and not has(qual, "CPU")
                                    # a view or alias (detach, expand...): no kernel on a GPU
                                    and not any(a.alias_info is not None for a in func._schema.returns))
    return r


def _composite_as_on_cuda(func, args, kwargs):
    """a composite operator (_composite_explicit) as a GPU runs it: its body makes ATen calls through the
    dispatcher, and on a GPU those reach the CUDA kernels, a library's among them (FlagGems' roll and flip of one
    element return x.clone(), whose copy_ is FlagGems' kernel: one launch on a GPU). PyTorch pops the dispatch mode
    while __torch_dispatch__ handles a call, so func(*args) ran the composite with the mode off and its inner calls
    took PyTorch's CPU kernels (r52x: 60 FlagGems cases launched nothing). The composite is called below the Python
    key (redispatch to the CPU's entry, which is the composite) with the mode on again, so its inner calls come to
    the mode as on a GPU they come to the dispatcher"""
    import torch
    active = _tls.__dict__.setdefault("composites", [])  # this thread's composites running, outermost first
    if func in active:  # the composite calls itself (other arguments): PyTorch's kernel, as the mode off ran it
        return func(*args, **kwargs)
    active.append(func)
    try:
        with as_cuda_kernel():  # the mode on again (PyTorch popped it for this call)
            return func.redispatch(torch._C.DispatchKeySet(torch._C.DispatchKey.CPU), *args, **kwargs)
    finally:
        active.pop()


_tensor_params: dict = {}  # OpOverload -> its arguments' (position, name) whose schema type is Tensor


def _wrapped_number(func, args, kwargs) -> bool:
    """whether a Python number sits where func's schema says Tensor: a wrapped number (a C++ caller's scalar made a
    0-d tensor, e.g. remainder.Scalar's composite calling remainder.Tensor(self, wrapped_scalar_tensor(other)), which
    comes to __torch_dispatch__ from a composite run with the mode on: _composite_as_on_cuda), which
    __torch_dispatch__ is given as the number; func(*args) refuses it ("Expected a value of type 'Tensor'") except
    for the few operators whose Python binding takes numbers for tensors. The overload packet then picks the
    overload of the number (remainder.Scalar), whose composite wraps it again on the CPU's kernels: the same call"""
    ps = _tensor_params.get(func)
    if ps is None:
        ps = _tensor_params[func] = tuple((i, a.name) for i, a in enumerate(func._schema.arguments)
                                          if str(a.type) == "Tensor")
    for i, name in ps:
        v = args[i] if i < len(args) else kwargs.get(name)
        if isinstance(v, (bool, int, float, complex)):
            return True
    return False


def _has_tensor(x) -> bool:
    """whether x (an operator's arguments) holds a tensor: the dispatcher picks the kernel from the
    tensors' keys, and an operator of Python numbers alone (torch.div(1.5, 0.7): wrapped numbers,
    CPU scalars, which __torch_dispatch__ sees as numbers) runs the CPU's kernel on a GPU too"""
    import torch
    if isinstance(x, torch.Tensor):
        return True
    if isinstance(x, (list, tuple)):
        return any(_has_tensor(v) for v in x)
    if isinstance(x, dict):
        return any(_has_tensor(v) for v in x.values())
    return False


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
            _composite_on_cpu_as_on_cuda(impl, self, k)
        return r

    watched.tc5 = True
    watched.__wrapped__ = impl
    L.Library.impl = watched


def _composite_on_cpu_as_on_cuda(impl, lib, key):
    """a library's CUDA kernel for an ATen operator PyTorch defines as CompositeImplicitAutograd
    (torch.arcsinh, an alias of asinh): on a GPU the direct CUDA registration wins, and the dispatcher's
    AutogradCUDA entry no longer takes the composite (c10's OperatorEntry: the composite serves an
    autograd key only where its backend has no kernel of its own), so the operator reaches the
    library's kernel whole. The shim's tensors are CPU tensors, whose AutogradCPU entry still runs
    the composite: the operator was taken apart (arcsinh into asinh) above the dispatch mode, and the
    library's kernel never ran. A CPU kernel registered beside it, through the same Library (so it
    goes when the library's registrations go, as FlagGems' use_gems() exit takes them), makes the CPU's
    table CUDA's: the operator comes to the mode whole; the kernel itself, reached only with no mode
    on, computes what the composite does"""
    ns, _, rest = key.partition("/")
    op, _, dk = rest.rpartition("/")
    if ns != "aten" or dk != "CUDA":
        return
    import torch
    name, _, overload = op.partition(".")
    qual = f"aten::{op}"
    has = torch._C._dispatch_has_kernel_for_dispatch_key
    if not has(qual, "CompositeImplicitAutograd") or has(qual, "CPU") or f"aten/{op}/CPU" in _impls_now():
        return
    packet = getattr(torch.ops.aten, name)
    ov = getattr(packet, overload or "default")
    impl(lib, op, lambda *a, **kw: ov.decompose(*a, **kw), "CPU")


def _impls_now():
    import torch.library
    return getattr(torch.library, "_impls", ())


def _call_cuda_kernel(func, key, cuda_key, args, kwargs):
    """the CUDA kernel a library registered for func (key: its torch.library key): its Python
    function when noted, else through the dispatcher.

    While it runs, the dispatch mode is on again (PyTorch pops a mode while its __torch_dispatch__
    handles a call): a library's kernel written in Python makes ATen calls of its own (FlagGems'
    kron of a 0-d tensor is `A.unsqueeze(0) * B`; multinomial calls exponential_, div, topk), and on
    a GPU those reach the CUDA kernels, the library's among them; with the mode off they ran
    PyTorch's CPU kernels. The shim's TorchFunctionMode is on again too, so the kernel's own
    questions (x.is_cuda, x.device) get CUDA's answers. A kernel that calls its own operator (a
    fallback to PyTorch's: on a GPU it would ask for a CPU tensor, or exclude its key; under the shim
    every tensor is host memory and answers "cuda") gets PyTorch's CPU kernel for that inner call,
    not itself again: no operator's library kernel is entered twice on one thread's stack."""
    k = _library_kernels.get(key)
    if k is None:
        return func.redispatch(cuda_key, *args, **kwargs)
    fn, with_keyset = k
    active = _active_kernels()
    if key in active:  # the library's kernel calls its own operator: PyTorch's kernel (the CPU's)
        _count_nested(active[-1], key, " (re-entered: PyTorch's kernel)")
        return func(*args, **kwargs)
    if active:
        _count_nested(active[-1], key)
    active.append(key)
    import contextlib
    from torch.utils._python_dispatch import _pop_mode, _push_mode
    mode = _function_mode  # the shim's TorchFunctionMode
    try:
        _push_mode(_mode)
        try:
            with mode if mode is not None else contextlib.nullcontext():
                return fn(cuda_key, *args, **kwargs) if with_keyset else fn(*args, **kwargs)
        finally:
            _pop_mode()
    finally:
        active.pop()


def as_cuda_kernel():
    """a context for a CPU kernel that stands for a CUDA kernel (tc5.device_attention's): PyTorch pops the dispatch
    mode while it handles a call, so the kernel's own ATen calls would run PyTorch's CPU kernels; a CUDA kernel's go
    through the dispatcher, to a library's CUDA kernel where one is registered. The mode is put back for the
    kernel's run when it is not on (nothing when no library registered a CUDA kernel)"""
    import contextlib
    if _mode is None:
        return contextlib.nullcontext()
    from torch.utils._python_dispatch import _get_current_dispatch_mode_stack
    if any(m is _mode for m in _get_current_dispatch_mode_stack()):
        return contextlib.nullcontext()

    @contextlib.contextmanager
    def on():
        from torch.utils._python_dispatch import _pop_mode, _push_mode
        _push_mode(_mode)
        try:
            yield
        finally:
            _pop_mode()
    return on()


def torch_function(func, args, kwargs):
    """the shim's TorchFunctionMode asks it after answer(): a torch function whose CUDA body differs from the CPU's
    by a choice C++ makes from the tensors' real device (scaled_dot_product_attention's backend:
    tc5.device_attention) gets CUDA's, and so do sums and means (tc5.device_reduce), float16/bfloat16 normal draws
    (tc5.device_random) and integer division by 0 (tc5.device_intdiv); NotImplemented: the caller goes on"""
    global _sdpa_funcs
    if _sdpa_funcs is None:
        import torch
        _sdpa_funcs = (torch.nn.functional.scaled_dot_product_attention,
                       getattr(torch._C._nn, "scaled_dot_product_attention", None))
    if func is _sdpa_funcs[0] or func is _sdpa_funcs[1]:
        from . import device_attention
        return device_attention.from_torch_function(args, kwargs)
    if getattr(func, "__name__", None) in ("sum", "mean"):  # torch.sum/mean, their methods: CUDA's values
        from . import device_reduce
        if func not in device_reduce.functions():
            return NotImplemented
        return device_reduce.from_torch_function(func, args, kwargs, _mode, library_kernel)
    if getattr(func, "__name__", None) in _normal_names:  # float16/bfloat16 normal draws: CUDA's rounding
        from . import device_random
        return device_random.from_torch_function(func, args, kwargs, library_kernel)
    if getattr(func, "__name__", None) in device_intdiv.names() and func in device_intdiv.functions():
        return device_intdiv.from_torch_function(func, args, kwargs, _mode, library_kernel)  # integers by 0: CUDA's
    return NotImplemented


_normal_names = ("normal_", "randn_like", "normal")  # tc5.device_random's (it checks the function itself)


_sdpa_funcs = None


_tls = threading.local()


def _active_kernels() -> list:
    """this thread's stack of library kernels running (their torch.library keys), outermost first"""
    a = getattr(_tls, "active", None)
    if a is None:
        a = _tls.active = []
    return a


_nested: dict = {}  # (outer key, inner key, the pytest case or "") -> count, under TC5_DEVICE_NESTED
_nested_file = None


def _count_nested(outer, inner, how=""):
    """TC5_DEVICE_NESTED=FILE (a debugging aid): each library kernel reached from inside another is
    counted, by the pytest case it happened in (PYTEST_CURRENT_TEST), and the counts are appended to
    FILE at exit, one `case<TAB>outer<TAB>inner<TAB>count` line each (outer and inner: "kron",
    "mul.Tensor"); nested_dispatches() returns them"""
    global _nested_file
    import os
    if _nested_file is None:
        _nested_file = os.environ.get("TC5_DEVICE_NESTED", "")
        if _nested_file:
            import atexit
            atexit.register(_dump_nested)
    case = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" (", 1)[0]
    k = (outer.split("/")[1], inner.split("/")[1] + how, case)
    _nested[k] = _nested.get(k, 0) + 1


def nested_dispatches() -> dict:
    """{(outer operator, inner operator, pytest case or ""): count}: library kernels reached from
    inside another library kernel in this process (the nested dispatch a GPU does too)"""
    return dict(_nested)


def _dump_nested():
    with open(_nested_file, "a") as f:
        for (outer, inner, case), n in sorted(_nested.items()):
            f.write(f"{case}\t{outer}\t{inner}\t{n}\n")


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
            _follow_threads()
            _follow_backward()
        if not now:
            return None
        CudaDispatch = _make_mode()
        _mode = CudaDispatch()
        _push_at_the_bottom(_mode)
        return _mode


def _push_at_the_bottom(mode):
    """mode pushed under this thread's dispatch modes. The mode is entered lazily, at the first torch call after a
    library's first CUDA registration, which may be inside a user's TorchDispatchMode (FlagGems' use_gems() and then
    `with MyMode():`): pushed on top, it was what the user's mode's __exit__ popped (a mode's exit pops the top), the
    user's mode stayed on the stack, the device's was gone, and the next factory call failed (python_arg_parser's
    INTERNAL ASSERT). Under the user's modes, each exit pops its own; the device's mode is the device, below
    every mode a program enters, as CUDA's kernels are below them on a GPU"""
    from torch.utils._python_dispatch import _get_current_dispatch_mode_stack, _pop_mode, _push_mode
    above = []
    while _get_current_dispatch_mode_stack():
        above.append(_pop_mode())
    _push_mode(mode)
    for m in reversed(above):
        _push_mode(m)


def _follow_backward():
    """the backward pass on the device: torch.autograd.backward/grad (Tensor.backward too) are torch functions,
    so the shim's TorchFunctionMode handles them, with itself popped (a mode's rule), and the autograd engine
    runs the graph with the mode stack it finds: a Python backward (a torch.autograd.Function's: FlagGems'
    conv2d, Liger's losses) ran with no device identity, its tensors answering "cpu" and a device it saved in
    the forward (cuda:0) reaching CUDA's runtime (torch.zeros(..., device=ctx.device): "Found no NVIDIA
    driver"). The engine's entry, wrapped, puts the mode back for the graph's run when it is not on"""
    import torch.autograd as A
    run = getattr(A, "_engine_run_backward", None)
    if run is None or getattr(run, "tc5", False):
        return

    def engine_run_backward(*args, **kwargs):
        import torch
        from torch.overrides import _get_current_function_mode_stack
        mode = _function_mode
        if mode is None or any(m is mode for m in _get_current_function_mode_stack()):
            return run(*args, **kwargs)
        torch._C._push_on_torch_function_stack(mode)
        try:
            return run(*args, **kwargs)
        finally:
            torch._C._pop_torch_function_stack()

    engine_run_backward.tc5 = True
    engine_run_backward.__wrapped__ = run
    A._engine_run_backward = engine_run_backward


def _follow_threads():
    """PyTorch's mode stacks are per thread: a thread the program starts (FlagGems' test_libentry
    makes tensors in two) began with neither the shim's TorchFunctionMode (its device="cuda" went to
    CUDA's runtime) nor the dispatch mode. Each new threading.Thread now starts with them, as every
    thread of a process on a GPU sees the one device. (Autocast's state stays per thread, as CUDA's.)"""
    import threading
    boot = threading.Thread._bootstrap_inner  # CPython's: every Thread (subclasses override run, not this)
    if getattr(boot, "tc5", False):
        return

    def bootstrap_inner(self):
        run = self.run

        def run_on_the_device():  # the modes on for the thread's own work, off before it ends
            pushed = _enter_in_this_thread()
            try:
                return run()
            finally:
                _leave_in_this_thread(pushed)

        self.run = run_on_the_device
        return boot(self)

    bootstrap_inner.tc5 = True
    bootstrap_inner.__wrapped__ = boot
    threading.Thread._bootstrap_inner = bootstrap_inner


def _enter_in_this_thread():
    import torch
    from torch.utils._python_dispatch import _push_mode
    pushed = (_function_mode, _mode)
    if pushed[0] is not None:
        torch._C._push_on_torch_function_stack(pushed[0])
    if pushed[1] is not None:
        _push_mode(pushed[1])
    return pushed


def _leave_in_this_thread(pushed):
    import torch
    from torch.utils._python_dispatch import _pop_mode
    if pushed[1] is not None:
        _pop_mode()
    if pushed[0] is not None:
        torch._C._pop_torch_function_stack()


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


# ---------------------------------------------------------------------------
# torch.autocast("cuda") on the shim's tensors
# ---------------------------------------------------------------------------
#
# Autocast is a dispatch key above autograd, one per device type: AutocastCUDA casts the arguments
# of CUDA tensors, AutocastCPU those of CPU tensors. The shim's tensors are CPU tensors, so
# torch.autocast("cuda") sets the CUDA state and nothing reads it. Under the shim the process has
# one device and every tensor answers "cuda", so the CPU's autocast key is made to act as CUDA's:
# (1) its kernels (PyTorch's CPU policy) are replaced, through torch.library, by CUDA's policy,
# read from the installed PyTorch's own list of it (ATen/autocast_mode.h's AT_FORALL_* macros,
# which its AutocastCUDA registrations expand); ops CPU's policy has and CUDA's lacks fall
# through; (2) entering and leaving any torch.autocast sets the CPU's state (enabled, dtype) to
# the CUDA's, so autocast("cuda") turns it on and autocast("cpu") alone does nothing (no tensor
# answers "cpu"). The casts are recorded by autograd as CUDA's are (the key is above it).

_AUTOCAST_MACROS = {"AT_FORALL_LOWER_PRECISION_FP": "lower_precision_fp", "AT_FORALL_FP32": "fp32",
                    "AT_FORALL_FP32_SET_OPT_DTYPE": "fp32_set_opt_dtype", "AT_FORALL_PROMOTE": "promote"}
# AT_FORALL_DIFFERENT_REDISPATCH_SIGNATURE (fp32_append_dtype): the op and the overload it redispatches to
_APPEND_DTYPE = {"norm.Scalar": "norm.ScalarOpt_dtype", "norm.ScalarOpt_dim": "norm.ScalarOpt_dim_dtype"}


def autocast_header():
    """the installed PyTorch's ATen/autocast_mode.h (its AutocastCUDA policy's lists)"""
    import os
    import torch
    return os.path.join(os.path.dirname(torch.__file__), "include", "ATen", "autocast_mode.h")


def autocast_policy(text: str | None = None) -> dict:
    """CUDA's autocast policy: {"softmax.int": "fp32_set_opt_dtype", "mm": "lower_precision_fp", ...}
    from autocast_mode.h's AT_FORALL_* lists (text: the header's; None: the installed PyTorch's)"""
    import re
    if text is None:
        path = autocast_header()
        try:
            text = open(path).read()
        except OSError as e:
            raise RuntimeError(f"tc5.device: torch.autocast('cuda') needs CUDA's autocast policy, PyTorch's "
                               f"ATen/autocast_mode.h, which this PyTorch does not ship ({path}: {e})") from e
    out = {}
    for macro, policy in _AUTOCAST_MACROS.items():
        m = re.search(r"#define " + macro + r"\(_\)((?:[^\n]*\\\n)*[^\n]*)", text)
        if not m:
            raise RuntimeError(f"tc5.device: {macro} not found in PyTorch's ATen/autocast_mode.h: "
                               "its CUDA autocast policy cannot be read")
        for name, ov in re.findall(r"_\((\w+)(?:,\s*(\w+))?\)", m.group(1)):
            out[f"{name}.{ov}" if ov else name] = policy
    for op in _APPEND_DTYPE:
        if f'"{op}"' in text:
            out[op] = "fp32_append_dtype"
    out["binary_cross_entropy"] = "banned"
    return out


def _eligible(t) -> bool:
    import torch
    return isinstance(t, torch.Tensor) and t.is_floating_point() and t.dtype != torch.float64


def _cast(x, dtype):
    import torch
    if _eligible(x) and x.dtype != dtype:
        return x.to(dtype)
    if isinstance(x, (list, tuple)) and any(isinstance(y, torch.Tensor) for y in x):
        return type(x)(_cast(y, dtype) for y in x)
    return x


def _casts(args, dtype):
    """each argument cast (a Tensor[] argument: each of its tensors)"""
    return tuple(_cast(a, dtype) for a in args)


def _tensors(args):
    import torch
    for a in args:
        if isinstance(a, torch.Tensor):
            yield a
        elif isinstance(a, (list, tuple)):
            yield from (y for y in a if isinstance(y, torch.Tensor))


def _promote_type(args, low):
    """autocast's promote: the widest floating type among the eligible arguments, from the low type"""
    import torch
    to = low
    for t in _tensors(args):
        if _eligible(t) and t.dtype == torch.float32:
            to = torch.float32
    return to


def _autocast_kernel(op, policy):
    """the AutocastCPU kernel of op under CUDA's policy (aten/src/ATen/autocast_mode.h's WrapFunction_)"""
    import torch
    excl = torch._C.DispatchKeySet(torch._C.DispatchKey.AutocastCPU)
    if policy == "fp32_set_opt_dtype":
        names = [a.name for a in op._schema.arguments]
        at = names.index("dtype")
    if policy == "fp32_append_dtype":
        overload = _APPEND_DTYPE[_op_name(op)].split(".", 1)[1]
        target = getattr(torch.ops.aten.norm, overload)

    def kernel(*args, **kwargs):
        with torch._C._ExcludeDispatchKeyGuard(excl):
            if policy == "lower_precision_fp":
                low = torch.get_autocast_dtype("cuda")
                return op(*_casts(args, low), **{k: _cast(v, low) for k, v in kwargs.items()})
            if policy == "fp32":
                return op(*_casts(args, torch.float32), **{k: _cast(v, torch.float32) for k, v in kwargs.items()})
            if policy == "promote":
                to = _promote_type(list(args) + list(kwargs.values()), torch.get_autocast_dtype("cuda"))
                return op(*_casts(args, to), **{k: _cast(v, to) for k, v in kwargs.items()})
            first = args[0] if args else None
            if policy == "fp32_set_opt_dtype":
                if _eligible(first):
                    if len(args) > at:
                        if args[at] is None:
                            args = args[:at] + (torch.float32,) + args[at + 1:]
                    elif kwargs.get("dtype") is None:
                        kwargs = dict(kwargs, dtype=torch.float32)
                return op(*args, **kwargs)
            if policy == "fp32_append_dtype":
                if _eligible(first):
                    return target(*args, dtype=torch.float32, **kwargs)
                return op(*args, **kwargs)
            raise RuntimeError("torch.nn.functional.binary_cross_entropy and torch.nn.BCELoss are unsafe to autocast."
                               "\nMany models use a sigmoid layer right before the binary cross entropy layer.\n"
                               "In this case, combine the two layers using "
                               "torch.nn.functional.binary_cross_entropy_with_logits\nor torch.nn.BCEWithLogitsLoss."
                               "  binary_cross_entropy_with_logits and BCEWithLogits are\nsafe to autocast.")
    return kernel


_autocast_lib = None


def _install_autocast_kernels():
    """CUDA's policy on the AutocastCPU key (once): a kernel a policy row, a fallthrough for each op
    that CPU's policy has and CUDA's does not"""
    global _autocast_lib
    if _autocast_lib is not None:
        return
    import warnings

    import torch
    policy = autocast_policy()
    lib = torch.library.Library("aten", "IMPL")
    mine = set()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "Overriding a previously registered kernel": that is the point
        for name, pol in policy.items():
            base, _, ov = name.partition(".")
            packet = getattr(torch.ops.aten, base, None)
            op = getattr(packet, ov or "default", None) if packet is not None else None
            if op is None:
                continue  # an op this PyTorch build lacks (cudnn_convolution on a CPU build...)
            lib.impl(name, _autocast_kernel(op, pol), "AutocastCPU")
            mine.add(_op_name(op))
        for full in torch._C._dispatch_get_registrations_for_dispatch_key("AutocastCPU"):
            ns, _, name = full.partition("::")
            if ns == "aten" and name not in mine:
                lib.impl(name, torch.library.fallthrough_kernel, "AutocastCPU")
    _autocast_lib = lib


def _mirror_cuda_autocast():
    """the CPU's autocast state := the CUDA's (enabled and dtype)"""
    import torch
    on = torch.is_autocast_enabled("cuda")
    if on:
        _install_autocast_kernels()
    torch.set_autocast_enabled("cpu", on)
    torch.set_autocast_dtype("cpu", torch.get_autocast_dtype("cuda"))


_autocast_patched = False


def install_autocast():
    """the shim's start-up calls it: torch.autocast's enter and exit (every device type, every
    subclass: torch.cuda.amp.autocast too) end by mirroring CUDA's autocast state onto the CPU's"""
    global _autocast_patched
    if _autocast_patched:
        return
    from torch.amp import autocast_mode
    cls = autocast_mode.autocast
    enter, exit_ = cls.__enter__, cls.__exit__

    def __enter__(self):
        r = enter(self)
        _mirror_cuda_autocast()
        return r

    def __exit__(self, *exc):
        r = exit_(self, *exc)
        _mirror_cuda_autocast()
        return r

    __enter__.__wrapped__, __exit__.__wrapped__ = enter, exit_
    cls.__enter__, cls.__exit__ = __enter__, __exit__
    _autocast_patched = True


# ---------------------------------------------------------------------------
# PyTorch operators that only CUDA implements
# ---------------------------------------------------------------------------
#
# torch.mm/addmm/bmm/baddbmm(..., out_dtype=torch.float32) (aten's .dtype and .dtype_out overloads,
# PyTorch >= 2.8) have a CUDA kernel only (cuBLAS: float16/bfloat16 operands, a float32 result);
# on the shim's tensors they raise "Could not run 'aten::addmm.dtype_out' with arguments from the
# 'CPU' backend". tc5.device gives them CPU kernels that compute what CUDA's do: the operands
# widened to float32 (exactly), multiplied and summed in float32, beta/alpha applied in float32,
# the result in out_dtype. CUDA's check is kept: out_dtype is the operands' type, or float32 for
# float16/bfloat16 operands.

_CUDA_ONLY = ("mm.dtype", "mm.dtype_out", "addmm.dtype", "addmm.dtype_out", "bmm.dtype", "bmm.dtype_out",
              "baddbmm.dtype", "baddbmm.dtype_out")
_cuda_only_lib = None


def _out_dtype_check(name, a, out_dtype):
    import torch
    if out_dtype != a.dtype and not (out_dtype == torch.float32 and a.dtype in (torch.float16, torch.bfloat16)):
        raise RuntimeError(f"{name}: out_dtype {out_dtype} must be the same as the input dtype ({a.dtype}) or "
                           "torch.float32 for torch.float16/torch.bfloat16 inputs (CUDA's rule)")


def _product(name, a, b, out_dtype, bias=None, beta=1, alpha=1):
    import torch
    _out_dtype_check(name, a, out_dtype)
    wide = torch.float64 if a.dtype == torch.float64 else torch.float32
    p = torch.matmul(a.to(wide), b.to(wide))
    if alpha != 1:
        p = p * alpha
    if bias is not None and beta != 0:
        p = p + (bias.to(wide) if beta == 1 else bias.to(wide) * beta)
    return p.to(out_dtype)


def _to_out(out, r):
    if out.shape != r.shape:
        out.resize_(r.shape)
    return out.copy_(r)


def install_cuda_only_ops():
    """the shim's start-up calls it: CPU kernels for the CUDA-only operators of _CUDA_ONLY that this
    PyTorch has and has no CPU kernel for (once)"""
    global _cuda_only_lib
    if _cuda_only_lib is not None:
        return
    import torch
    kernels = {
        "mm.dtype": lambda a, b, out_dtype: _product("mm", a, b, out_dtype),
        "mm.dtype_out": lambda a, b, out_dtype, *, out: _to_out(out, _product("mm", a, b, out_dtype)),
        "bmm.dtype": lambda a, b, out_dtype: _product("bmm", a, b, out_dtype),
        "bmm.dtype_out": lambda a, b, out_dtype, *, out: _to_out(out, _product("bmm", a, b, out_dtype)),
        "addmm.dtype": lambda s, a, b, out_dtype, *, beta=1, alpha=1: _product("addmm", a, b, out_dtype, s, beta,
                                                                             alpha),
        "addmm.dtype_out": lambda s, a, b, out_dtype, *, beta=1, alpha=1, out: _to_out(
            out, _product("addmm", a, b, out_dtype, s, beta, alpha)),
        "baddbmm.dtype": lambda s, a, b, out_dtype, *, beta=1, alpha=1: _product("baddbmm", a, b, out_dtype, s,
                                                                                 beta, alpha),
        "baddbmm.dtype_out": lambda s, a, b, out_dtype, *, beta=1, alpha=1, out: _to_out(
            out, _product("baddbmm", a, b, out_dtype, s, beta, alpha)),
    }
    lib = torch.library.Library("aten", "IMPL")
    for name in _CUDA_ONLY:
        base, _, ov = name.partition(".")
        if getattr(getattr(torch.ops.aten, base), ov, None) is None:
            continue
        if torch._C._dispatch_has_kernel_for_dispatch_key("aten::" + name, "CPU"):
            continue  # a PyTorch that has its own
        lib.impl(name, kernels[name], "CPU")
    _cuda_only_lib = lib
    from . import device_attention
    device_attention.install()  # _scaled_dot_product_flash_attention, _flash_attention_forward, trace
