"""torch.compile on tc5's "cuda" device (issue 50): Dynamo and Inductor compile for CUDA, and every
Triton kernel runs on tc5 through the door.

Under the torch.cuda shim a "cuda" tensor is a CPU tensor that answers "cuda" (tc5.device). Left to
itself, torch.compile makes its fake tensors from the tensors' real device (the CPU) and Inductor
emits C++ for the CPU. What PyTorch offers to make it compile for CUDA instead, all Python:

- **fake tensors**: Dynamo (and AOTAutograd, and every FakeTensorMode.from_tensor) describes a real
  tensor with ``torch._subclasses.meta_utils.MetaTensorDescriber.describe_tensor``; the description's
  device, for a tensor of host memory, is made ``cuda:0`` (what the tensor answers under the shim).
  The graph is then traced, decomposed and lowered for CUDA: Inductor's Triton kernels for a B200,
  its Triton templates (flex attention), user-defined Triton kernels on CUDA.
  Dynamo's guards are built from the real tensors (their dispatch keys: CPU), so they hold.
- **the shim's TorchFunctionMode** passes every call through while Dynamo traces
  (``torch.compiler.is_dynamo_compiling()``, a constant to Dynamo) or a FakeTensorMode is on (faking()):
  the program is traced as a GPU would run it (``device="cuda"`` stays "cuda", as the fake tensors
  are), and the mode's own body (its answers, its aligned copies) is not inlined into the graph.
- **the backward**: PyTorch's autograd engine, run over fake CUDA tensors (AOTAutograd's joint graph),
  asks CUDA's runtime for a primary context in C++ (BACKWARD_BLOCKED says where). A graph that needs
  gradients is traced by AOTAutograd on fake tensors re-described as the CPU's (the engine's CPU path),
  and each partitioned graph (forward, backward) is re-described as CUDA's before Inductor compiles it
  (_joint_on_the_cpu, _inner_on_cuda); flex attention's score_mod backward likewise
  (_flex_joint_on_the_cpu). PyTorch's no-op CUDA device guard (torch._C._ensureCUDADeviceGuardSet) is
  set at install.
- **the device interface** (``torch._dynamo.device_interface.register_interface_for_device("cuda")``):
  Inductor's questions (capability, properties, streams, events, the raw stream) answered by tc5's
  B200 (tc5/torch_cuda.py), none reaching CUDA's runtime.
- **the wrapper code** (``register_backend_for_device("cuda", ...)`` with a PythonWrapperCodegen of
  tc5's, ``register_device_op_overrides("cuda", ...)``): the generated module allocates its buffers
  with ``empty_strided_cuda`` = host memory (tc5.inductor.empty_strided_cuda), takes its "raw stream"
  from tc5 (0: launches are synchronous), and its device guard switches nothing.
- **the launcher**: Inductor's own Python launcher (``config.use_static_cuda_launcher = False``; the
  static one calls cuLaunchKernel from C++) calls Triton's ``CompiledKernel.run``, which is the
  active driver's launcher: tc5's (the door), so each kernel is counted in tc5.triton.launches().
  Kernels compile in this process (``compile_threads = 1``: a compile worker would not have the door).
  CUDA graphs stay off: mode="reduce-overhead" compiles without them, with a warning (CUDAGRAPHS_SKIPPED).

install() does all of it once, at the first torch.compile call under the shim (install_lazily(), from the
shim's start-up, tc5.triton.torch_cuda_shim: importing Inductor costs seconds a script that never compiles
does not pay); torch._dynamo.optimize or torch.export called before any torch.compile do not install it.
Tested on PyTorch 2.11 and 2.15; a PyTorch without the hooks it needs (2.9) is refused by name
(TORCH_UNSERVED), nothing changed.
"""
from __future__ import annotations

import threading

__all__ = ["install", "install_lazily", "installed", "faking", "BACKWARD_BLOCKED", "CUDAGRAPHS_SKIPPED",
           "TORCH_UNSERVED", "empty_strided_cuda", "raw_stream"]

_lock = threading.Lock()
_installed = False


def installed() -> bool:
    return _installed


def empty_strided_cuda(size, stride, dtype):
    """the generated code's CUDA allocation: host memory, which tc5's kernels use in place (a tensor
    that answers "cuda" under the shim)"""
    import torch
    return torch._C._dynamo.guards._empty_strided_cpu(size, stride, dtype)


def raw_stream(device_index=0):
    """the generated code's raw CUDA stream: 0 (the default stream; tc5's launches are synchronous)"""
    return 0


BACKWARD_BLOCKED = (
    "tc5.inductor: torch.compile of a graph that needs gradients is not served here: its backward would be traced "
    "by PyTorch's autograd engine over fake CUDA tensors, and the engine, seeing CUDA streams, asks CUDA's runtime "
    "for a primary context (torch/csrc/autograd/engine.cpp GraphTask::stash_current_streams -> "
    "CUDAHooks::hasPrimaryContext, which checks the device index against the driver's device count, 0 without a "
    "driver; C++, below every Python hook; torch 2.15). tc5 traces a graph's joint forward and backward on fake "
    "tensors described as the CPU's and compiles the partitioned graphs for CUDA, except where graph inputs alias "
    "one another (views of one tensor), which that path does not rebuild (docs/fidelity.md)")

TORCH_UNSERVED = (
    "tc5.inductor: torch.compile under the shim is not served on PyTorch {version}: it lacks {missing}, which tc5 "
    "needs to keep Dynamo and Inductor off CUDA's runtime (tested on PyTorch 2.11 and 2.15; docs/python.md)")

# what install() needs of PyTorch, checked before anything is changed (PyTorch 2.9 has neither)
_NEEDED = (("torch._C", "_ensureCUDADeviceGuardSet"), ("torch._dynamo.utils", "get_current_stream"))


def _missing_of_torch() -> list:
    import importlib
    return [f"{m}.{a}" for m, a in _NEEDED if not hasattr(importlib.import_module(m), a)]


_FAKE = None  # torch._C._TorchDispatchModeKey.FAKE, and its lookup, bound by install()


def _no_mode(key):
    return None


_get_dispatch_mode = _no_mode


def faking() -> bool:
    """whether a FakeTensorMode is on (AOTAutograd's and Inductor's tracing): the shim's mode then leaves
    device="cuda" as it is, so tensors made while tracing are CUDA's, as the fake inputs are (the shim asks it
    on every call: one C call)"""
    return _get_dispatch_mode(_FAKE) is not None


def _no_runtime_for_fake_tensors():
    """torch.cuda._lazy_init, which PyTorch's C++ calls when a factory function is given a CUDA device
    (torch::utils::maybe_initialize_device, before dispatch), does nothing while a FakeTensorMode is on:
    a fake CUDA tensor needs no runtime (on a GPU the runtime is up by then)"""
    import torch.cuda
    init = torch.cuda._lazy_init
    if getattr(init, "tc5", False):
        return

    def _lazy_init():
        if faking():
            return None
        return init()

    _lazy_init.tc5 = True
    _lazy_init.__wrapped__ = init
    torch.cuda._lazy_init = _lazy_init


def _fake_mode_without_a_device():
    """FakeTensorMode.avoid_device_init: True, as PyTorch has it where CUDA is not available (it asks
    torch.cuda.is_available(), which the shim answers True): torch.tensor(..., device="cuda") under a fake
    mode is made on the CPU and moved as a fake tensor (not a real copy to CUDA), and entering the mode
    sets this thread's CUDA device guard to PyTorch's no-op one (torch._C._ensureCUDADeviceGuardSet), so
    autograd's metadata of a fake CUDA tensor asks no CUDA stream"""
    from torch._subclasses.fake_tensor import FakeTensorMode
    prop = FakeTensorMode.__dict__.get("avoid_device_init")
    if getattr(prop, "tc5", False):
        return

    class _NoDevice(property):
        tc5 = True

    FakeTensorMode.avoid_device_init = _NoDevice(lambda self: True)


def _no_gpu_context_for_fake_tensors():
    """torch._subclasses.fake_tensor.init_gpu_context, which FakeTensor.__new__ calls for every fake CUDA tensor
    (once a device: functools.cache), makes a real 1-element tensor on the device to start the GPU's context
    ("Backward will error with cuda Fake Tensors if no cuda tensors have been initialized first"). PyTorch 2.11
    asks ``torch.cuda.is_available()`` first (torch/_subclasses/fake_tensor.py:539), which the shim answers
    True, so ``torch.empty(1, device="cuda")`` reached CUDA's runtime (torch.cuda._lazy_init ->
    torch._C._cuda_init: "No CUDA GPUs are available", raised inside Dynamo's first fake tensor). PyTorch 2.15
    asks ``torch.accelerator.current_accelerator(True)`` (C++: no CUDA here, so None) and makes nothing. For
    CUDA it makes nothing on every version: tc5's "cuda" has no context to start (the backward is traced on
    the CPU's path, the CUDA device guard is PyTorch's no-op one, set at install); other devices: PyTorch's"""
    import torch._subclasses.fake_tensor as ft
    init = getattr(ft, "init_gpu_context", None)
    if init is None or getattr(init, "tc5", False):
        return

    def init_gpu_context(device):
        if device.type == "cuda":
            return None
        return init(device)

    init_gpu_context.tc5 = True
    init_gpu_context.__wrapped__ = init
    ft.init_gpu_context = init_gpu_context


def _gpu_driver_is_tc5():
    """Inductor's generated modules call ``triton_helpers.set_driver_to_gpu()``, which makes the first backend
    ``_is_backend_active`` names Triton's active driver. PyTorch 2.15's names ``nvidia`` whenever
    ``torch.cuda.is_available()`` (its fallback for subprocess workers, triton-lang/triton#9578), which the shim
    answers True, and ``nvidia`` comes before ``tc5`` in ``triton.backends.backends``: the compiled kernel then
    started NVIDIA's driver ("libcuda.so cannot found!"). While tc5's driver is Triton's active one, the GPU
    backend is tc5's alone; otherwise (and on PyTorch versions without ``_is_backend_active``) PyTorch's rule"""
    try:
        import torch._inductor.runtime.triton_helpers as th
    except ImportError:
        return
    active = getattr(th, "_is_backend_active", None)
    if active is None or getattr(active, "tc5", False):
        return

    def _is_backend_active(name, backend):
        import triton
        from .triton import _release_set_driver
        cfg = triton.runtime.driver  # (the driver set, else the default made: none made here)
        d = _release_set_driver(cfg) or getattr(cfg, "_default", None)
        if getattr(d, "is_tc5", False):
            return name == "tc5"
        return active(name, backend)

    _is_backend_active.tc5 = True
    _is_backend_active.__wrapped__ = active
    th._is_backend_active = _is_backend_active


def _current_stream_of_dynamo():
    """torch._dynamo.utils.get_current_stream (torch._C._dynamo.utils', C++: it starts CUDA's runtime), which
    the bytecode Dynamo writes calls at a compiled frame's entry for a CUDA graph input's stream, and its
    guards use: for CUDA, tc5's default stream (torch.accelerator.current_stream's answer, tc5/torch_cuda.py)"""
    import torch._dynamo.guards as guards
    import torch._dynamo.utils as utils
    get = utils.get_current_stream
    if getattr(get, "tc5", False):
        return

    def get_current_stream(device):
        if getattr(device, "type", None) == "cuda":
            from .torch_cuda import _default_stream
            return _default_stream()
        return get(device)

    get_current_stream.tc5 = True
    get_current_stream.__wrapped__ = get
    utils.get_current_stream = get_current_stream
    guards.get_current_stream = get_current_stream


def _bench_once():
    """Inductor's benchmarker (its autotuning of a kernel's configurations, the first call of a compiled
    graph) measures a GPU function as tc5.triton.do_bench does triton.testing.do_bench: one run (the host's
    wall clock for it; under TC5_TIMING, the timing model's prediction), not Inductor's tens of runs"""
    from torch._inductor.runtime.benchmarking import benchmarker
    if getattr(benchmarker.__dict__.get("benchmark_gpu"), "tc5", False):
        return

    def benchmark_gpu(_callable, **kwargs):
        from .triton import do_bench
        return do_bench(_callable)

    benchmark_gpu.tc5 = True
    benchmarker.benchmark_gpu = benchmark_gpu


CUDAGRAPHS_SKIPPED = (
    "tc5.inductor: skipping cudagraphs (mode='reduce-overhead' / triton.cudagraphs): Inductor's CUDA graph trees "
    "(torch/_inductor/cudagraph_trees.py) allocate from CUDA's caching allocator's private pools and capture through "
    "CUDA's runtime (C++; with them on, the process crashed: a segmentation fault, torch 2.15); the graph runs "
    "without them, as Inductor itself skips cudagraphs for graphs it cannot capture")


def _without_cudagraphs(args, kwargs):
    """compile_fx's config patches with triton.cudagraphs off, and a warning, where it was asked for"""
    import warnings

    import torch._inductor.config as config
    patches = kwargs.get("config_patches")
    if patches is None and len(args) > 3 and isinstance(args[3], dict):
        patches = args[3]
    asked = config.triton.cudagraphs or bool(patches and patches.get("triton.cudagraphs"))
    if not asked:
        return args, kwargs
    warnings.warn(CUDAGRAPHS_SKIPPED, stacklevel=3)
    patches = dict(patches or {}, **{"triton.cudagraphs": False})
    if len(args) > 3:
        args = args[:3] + (patches,) + args[4:]
    else:
        kwargs = dict(kwargs, config_patches=patches)
    return args, kwargs


def _fake_on(t, device, mode):
    """t, a fake tensor, as one of the same fake mode on device (shape, strides, type, requires_grad)"""
    import torch
    from torch._subclasses.fake_tensor import FakeTensor
    from torch.utils._mode_utils import no_dispatch
    with no_dispatch():
        meta = torch.empty_strided(t.size(), t.stride(), dtype=t.dtype, device="meta")
    f = FakeTensor(mode, meta, device)
    if t.requires_grad:
        f.requires_grad_(True)
    return f


def _retarget(gm, src: str, dst):
    """gm's device arguments of type src made dst (torch.device("cuda", 0) / "cpu")"""
    import torch
    from torch.fx.node import map_aggregate

    def move(a):
        if isinstance(a, torch.device) and a.type == src:
            return dst
        return a

    for node in gm.graph.nodes:
        node.args = map_aggregate(node.args, move)
        node.kwargs = map_aggregate(node.kwargs, move)
    gm.recompile()


def _fakes_on(inputs, src: str, dst, mode):
    import torch
    from torch._subclasses.fake_tensor import FakeTensor
    return [_fake_on(t, dst, mode) if isinstance(t, FakeTensor) and t.device.type == src else t for t in inputs]


def _inputs_alias(inputs) -> bool:
    import torch
    from torch.multiprocessing.reductions import StorageWeakRef
    seen = set()
    for t in inputs:
        if isinstance(t, torch.Tensor):
            r = StorageWeakRef(t.untyped_storage())
            if r in seen:
                return True
            seen.add(r)
    return False


def _inner_on_cuda(inner):
    """Inductor's inner compile (of AOTAutograd's forward, backward or inference graph, traced on fake tensors
    described as the CPU's) run on the graph re-described as CUDA's: its device arguments and inputs made
    cuda:0, its fake values propagated again, so Inductor lowers and generates code for CUDA"""
    import torch

    def inner_compile_on_cuda(gm, example_inputs, *args, **kwargs):
        from torch._guards import detect_fake_mode
        from torch.fx.passes.fake_tensor_prop import FakeTensorProp
        mode = detect_fake_mode(example_inputs)
        if mode is None:
            return inner(gm, example_inputs, *args, **kwargs)
        cuda0 = torch.device("cuda", 0)
        _retarget(gm, "cpu", cuda0)
        inputs = _fakes_on(example_inputs, "cpu", cuda0, mode)
        with mode:
            FakeTensorProp(gm, mode).propagate_dont_convert_inputs(*inputs)
        return inner(gm, inputs, *args, **kwargs)

    return inner_compile_on_cuda


def _joint_on_the_cpu(args, kwargs):
    """a graph that needs gradients: AOTAutograd traces its joint graph on fake tensors described as the CPU's
    (PyTorch's autograd engine over CUDA ones asks CUDA's runtime, BACKWARD_BLOCKED), and Inductor compiles the
    partitioned graphs re-described as CUDA's (_inner_on_cuda)"""
    import torch
    from torch._guards import detect_fake_mode
    from torch._inductor.compile_fx import compile_fx_inner
    gm, inputs = args[0], args[1]
    mode = detect_fake_mode(inputs)
    if mode is None or _inputs_alias(inputs):
        return args, kwargs
    from torch._subclasses.fake_tensor import FakeTensor
    # Dynamo hands the real tensors; their fake tensors (Dynamo's, memoized in its mode) are CUDA's
    fakes = [mode.from_tensor(t) if isinstance(t, torch.Tensor) and not isinstance(t, FakeTensor) else t
             for t in inputs]
    _retarget(gm, "cuda", torch.device("cpu"))
    inputs = _fakes_on(fakes, "cuda", torch.device("cpu"), mode)
    if len(args) > 2:
        inner = args[2]
        args = (gm, inputs, _inner_on_cuda(inner)) + tuple(args[3:])
    else:
        inner = kwargs.get("inner_compile", compile_fx_inner)
        args = (gm, inputs) + tuple(args[2:])
        kwargs = dict(kwargs, inner_compile=_inner_on_cuda(inner))
    return args, kwargs


def _flex_joint_on_the_cpu():
    """flex attention's autograd (torch._higher_order_ops.flex_attention.create_fw_bw_graph, run when Dynamo
    fake-runs the op with inputs that require grad) traces its score_mod's backward with the autograd engine on
    fake scalars of the query's device: with fake CUDA tensors the engine asks CUDA's runtime (BACKWARD_BLOCKED).
    The score_mod's graphs are scalar math, device-agnostic: they are traced on fake tensors described as the
    CPU's (the same fake mode) and used as they are"""
    import importlib
    try:  # the module (torch._higher_order_ops's attribute of that name is the operator)
        fa = importlib.import_module("torch._higher_order_ops.flex_attention")
    except ImportError:
        return
    create = getattr(fa, "create_fw_bw_graph", None)
    if create is None or getattr(create, "tc5", False):
        return

    def create_fw_bw_graph(score_mod, index_values, other_buffers):
        import torch
        from torch._guards import detect_fake_mode
        mode = detect_fake_mode(index_values)
        if mode is not None:
            cpu = torch.device("cpu")
            index_values = tuple(_fakes_on(index_values, "cuda", cpu, mode))
            other_buffers = tuple(_fakes_on(other_buffers, "cuda", cpu, mode))
        return create(score_mod, index_values, other_buffers)

    create_fw_bw_graph.tc5 = True
    create_fw_bw_graph.__wrapped__ = create
    fa.create_fw_bw_graph = create_fw_bw_graph


def _needs_grad(args) -> bool:
    import torch
    if len(args) < 2 or not torch.is_grad_enabled():
        return False
    return any(isinstance(t, torch.Tensor) and t.requires_grad for t in args[1])


def _with_the_shim(compile_fx):
    """Inductor's entry (torch._inductor.compile_fx.compile_fx) run with the shim's TorchFunctionMode on:
    Dynamo calls its backend with the mode stack it took off the program's, and Inductor makes real
    tensors on "cuda" while it compiles (attention patterns, autotuning inputs): host memory, as the
    program's own"""
    if getattr(compile_fx, "tc5", False):
        return compile_fx
    import functools

    @functools.wraps(compile_fx)
    def compile_on_tc5(*args, **kwargs):
        import torch
        from torch.overrides import _get_current_function_mode_stack

        from . import device
        torch._C._ensureCUDADeviceGuardSet()  # this thread's CUDA device guard: PyTorch's no-op one (no runtime)
        args, kwargs = _without_cudagraphs(args, kwargs)
        if _needs_grad(args):
            args, kwargs = _joint_on_the_cpu(args, kwargs)
        mode = device._function_mode
        if mode is None or any(m is mode for m in _get_current_function_mode_stack()):
            return compile_fx(*args, **kwargs)
        torch._C._push_on_torch_function_stack(mode)
        try:
            return compile_fx(*args, **kwargs)
        except RuntimeError as e:
            if "hasPrimaryContext" in str(e):
                raise RuntimeError(BACKWARD_BLOCKED + f" ({e})") from e
            raise
        finally:
            torch._C._pop_torch_function_stack()

    compile_on_tc5.tc5 = True
    return compile_on_tc5


class _Guard:
    """the generated code's device guard: tc5 is the one device"""

    def __init__(self, index=0):
        self.idx = index

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _device_interface():
    """torch._dynamo's CUDA device interface with tc5's answers (capability, properties, streams)"""
    import torch
    from torch._dynamo.device_interface import CudaInterface

    from . import torch_cuda
    from .triton import _Event, _Stream

    class Tc5CudaInterface(CudaInterface):
        device = torch_cuda._Context
        Event = _Event
        Stream = _Stream

        class Worker(CudaInterface.Worker):
            @staticmethod
            def current_device() -> int:
                return 0

            @staticmethod
            def get_device_properties(device=None):
                return torch_cuda.DeviceProperties()

        current_device = staticmethod(lambda: 0)
        set_device = staticmethod(lambda device: None)
        device_count = staticmethod(lambda: 1)
        stream = staticmethod(lambda s: torch_cuda._Context())
        current_stream = staticmethod(lambda device=None: _Stream())
        set_stream = staticmethod(lambda s: None)
        _set_stream_by_id = staticmethod(lambda *a: None)
        synchronize = staticmethod(lambda device=None: None)
        get_device_properties = staticmethod(lambda device=None: torch_cuda.DeviceProperties())
        get_raw_stream = staticmethod(raw_stream)
        exchange_device = staticmethod(lambda device: 0)
        maybe_exchange_device = staticmethod(lambda device: 0)
        memory_allocated = staticmethod(lambda device=None: 0)
        is_bf16_supported = staticmethod(lambda including_emulation=False: True)

        @staticmethod
        def is_available() -> bool:
            return True

        @staticmethod
        def get_compute_capability(device=None):
            p = torch_cuda.DeviceProperties()
            return p.major * 10 + p.minor

        @staticmethod
        def is_triton_capable(device=None) -> bool:
            return True

    return Tc5CudaInterface


def _wrapper_codegen(base):
    """Inductor's Python wrapper for CUDA with tc5's allocation (host memory)"""

    class Tc5WrapperCodegen(base):
        def write_header(self) -> None:
            super().write_header()
            self.header.writeline("from tc5.inductor import empty_strided_cuda  # tc5: host memory")

        @staticmethod
        def create(is_subgraph, subgraph_name, parent_wrapper, partition_signatures=None):
            if is_subgraph:
                return base.create(is_subgraph, subgraph_name, parent_wrapper, partition_signatures)
            return Tc5WrapperCodegen()

    return Tc5WrapperCodegen


def _op_overrides():
    from torch._inductor.codegen.cuda.device_op_overrides import CUDADeviceOpOverrides

    class Tc5DeviceOpOverrides(CUDADeviceOpOverrides):
        def import_get_raw_stream_as(self, name: str) -> str:
            return f"from tc5.inductor import raw_stream as {name}"

        def set_device(self, device_idx) -> str:
            return "pass"

        def synchronize(self) -> str:
            return "pass"

        def device_guard(self, device_idx) -> str:
            return f"__import__('tc5.inductor').inductor._Guard({device_idx})"

        def current_device_idx_expr(self) -> str:
            return "0"

    return Tc5DeviceOpOverrides()


def _fake_as_cuda():
    """a real tensor of host memory is described (for its fake tensor) as cuda:0; not while a higher-order op
    compiles itself with the eager backend (flex_attention called without torch.compile: PyTorch runs its unfused
    implementation through Dynamo, setup_compilation_env): that generates no code for a device, and its fake
    tensors keep the real device, so the autograd engine that traces its score_mod's backward meets no CUDA
    stream (the BACKWARD_BLOCKED path)"""
    import dataclasses

    import torch
    from torch._subclasses import meta_utils
    describer = meta_utils.MetaTensorDescriber
    describe = describer.describe_tensor
    if getattr(describe, "tc5", False):
        return
    cuda0 = torch.device("cuda", 0)

    try:
        from torch._higher_order_ops.utils import _hop_compile_tls
    except ImportError:
        _hop_compile_tls = None

    def describe_tensor(self, t, *args, **kwargs):
        d = describe(self, t, *args, **kwargs)
        if d.device.type == "cpu" and not getattr(_hop_compile_tls, "in_hop_compile", False):
            d = dataclasses.replace(d, device=cuda0)
        return d

    describe_tensor.tc5 = True
    describe_tensor.__wrapped__ = describe
    describer.describe_tensor = describe_tensor


def install_lazily():
    """the shim's start-up calls it: install() at the first torch.compile call (flex attention's own among them),
    not before: importing Inductor and Dynamo costs seconds that a script which never compiles does not pay"""
    import functools

    import torch
    compile = torch.compile
    if getattr(compile, "tc5", False):
        return

    @functools.wraps(compile)
    def compile_on_tc5(*args, **kwargs):
        install()
        return compile(*args, **kwargs)

    compile_on_tc5.tc5 = True
    compile_on_tc5.__wrapped__ = compile
    torch.compile = compile_on_tc5


def install():
    """torch.compile compiles for CUDA on tc5 (once; the first torch.compile call under the shim calls it)"""
    global _installed
    with _lock:
        if _installed:
            return
        missing = _missing_of_torch()
        if missing:  # refused by name before anything is changed (every torch.compile call under the shim)
            import torch
            raise RuntimeError(TORCH_UNSERVED.format(version=torch.__version__, missing=" and ".join(missing)))
        _installed = True
    import torch
    import torch._dynamo.device_interface as di
    import torch._inductor.codegen.common as common
    import torch._inductor.config as config

    di.get_interface_for_device("cuda")  # PyTorch's registrations first, then tc5's over CUDA's
    di.register_interface_for_device("cuda", _device_interface())

    common.init_backend_registration()
    cg = common.device_codegens["cuda"]
    common.register_backend_for_device("cuda", cg.scheduling, _wrapper_codegen(cg.wrapper_codegen),
                                       cg.cpp_wrapper_codegen, cg.fx_wrapper_codegen)
    common.get_device_op_overrides("cpu")  # PyTorch's own first
    common.register_device_op_overrides("cuda", _op_overrides())

    import torch._inductor.compile_fx as cfx
    cfx.compile_fx = _with_the_shim(cfx.compile_fx)

    global _FAKE, _get_dispatch_mode
    # the CUDA device guard: PyTorch's no-op one, as FakeTensorMode sets it where CUDA is unavailable, from now
    # (Dynamo makes fake views of inputs that require grad before any fake mode is entered: autograd's metadata of
    # a fake CUDA view asked the real guard for a stream, and the process aborted, "CUDA driver version is
    # insufficient"); PyTorch keeps it owned by this thread, the shim's start-up's (the main thread's)
    torch._C._ensureCUDADeviceGuardSet()
    _FAKE = torch._C._TorchDispatchModeKey.FAKE
    _get_dispatch_mode = torch._C._get_dispatch_mode

    config.use_static_cuda_launcher = False
    config.compile_threads = 1
    config.triton.cudagraphs = False
    _fake_as_cuda()
    _no_runtime_for_fake_tensors()
    _fake_mode_without_a_device()
    _no_gpu_context_for_fake_tensors()
    _gpu_driver_is_tc5()
    _current_stream_of_dynamo()
    _bench_once()
    _flex_joint_on_the_cpu()
