"""torch.cuda's answers under tc5 (TC5_TRITON_TORCH_CUDA=1, or
tc5.triton.activate(torch_cuda=True)): the queries libraries make at import
and collection time, answered as a B200 would (an H100 with
TC5_TRITON_ARCH=90), in one table, ANSWERS.

The list was found by reading what real suites call before and around their
kernels (Liger-Kernel 0.8.5's src/ and test/: is_available 96 times,
current_stream 74, get_device_capability 47, synchronize 18,
get_device_properties 18 (.multi_processor_count, .total_memory, .name),
torch.cuda.device 12, current_device 12, device_count 9, set_device 9,
Stream/stream 14, manual_seed(_all) 7, mem_get_info 3; FlagGems 5.0.2's random
operators: default_generators[0].get_state/set_state (collection-time
skipif), is_bf16_supported 4, the memory statistics of its benchmarks), and
Triton's tutorials' and Gluon's tests. Queries not in the table
(make_graphed_callables, torch.cuda._sleep, ...) are PyTorch's own and reach the CUDA
runtime as they would on a machine without a GPU.

install(torch) puts the answers on torch.cuda; `python -m tc5.torch_cuda`
prints the table (docs/python.md shows it, the doc test compares). The
device identity (what a "cuda" tensor is) is tc5.triton.torch_cuda_shim's.
"""
from __future__ import annotations

import types

GIB = 2**30


def _spec():
    """the device the answers describe: (name, major, minor, SMs, total memory, L2 bytes)"""
    from .triton import target_arch, _props
    arch = target_arch()
    h100 = arch == 90
    return {"name": "NVIDIA H100 (tc5)" if h100 else "NVIDIA B200 (tc5)", "major": arch // 10, "minor": arch % 10,
            "multi_processor_count": _props()["multiprocessor_count"],
            "total_memory": (80 if h100 else 192) * GIB, "warp_size": 32,
            "shared_memory_per_block_optin": _props()["max_shared_mem"],
            "regs_per_multiprocessor": 65536, "max_threads_per_multi_processor": 2048,
            "L2_cache_size": (50 if h100 else 126) * 2**20}


class DeviceProperties:
    """torch.cuda.get_device_properties(...) under tc5 (the fields libraries read)"""

    def __init__(self):
        for k, v in _spec().items():
            setattr(self, k, v)

    def __repr__(self):
        return (f"_CudaDeviceProperties(name='{self.name}', major={self.major}, minor={self.minor}, "
                f"total_memory={self.total_memory // 2**20}MB, multi_processor_count={self.multi_processor_count})")


class _Context:
    """torch.cuda.device(i) / torch.cuda.stream(s): a context that switches nothing (tc5 is the one device,
    launches are synchronous)"""

    def __init__(self, *args, **kwargs):
        self.idx = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


# ---- CUDA graphs: torch.cuda.CUDAGraph, torch.cuda.graph ----
# What capture and replay do on tc5 (issue 50). On a GPU, work issued to a capturing stream is recorded,
# not run, and replay runs the recording again on the same memory (the kernels' arguments fixed at
# capture). Under the shim:
#   - a Triton kernel the door would launch is recorded with its arguments and not run (as on a GPU);
#   - a PyTorch operator runs on the host as it is called (its outputs, the graph's memory, must exist)
#     and is recorded, except allocations and views, which only make memory or name it; at replay it
#     runs again and its result is written into the tensors the capture returned;
#   - replay runs the recording in its order; launches counted as any launch (tc5.triton.launches()).
# What differs from a GPU: a PyTorch operator's effect happens once more, at capture (a GPU runs none
# of the captured work until replay); CuTe DSL launches are not captured (they run at once).
# A synchronising read (Tensor.item(): aten._local_scalar_dense) during capture is refused, as CUDA
# refuses it ("operation not permitted when stream is capturing").
_capturing = None  # the CUDAGraph being captured, None outside capture

_NOT_RECORDED = frozenset(("empty", "empty_like", "empty_strided", "new_empty", "new_empty_strided", "detach",
                           "alias", "lift_fresh", "_local_scalar_dense"))


def capturing():
    """the CUDAGraph whose capture is under way, or None (tc5.triton's door records its launches there)"""
    return _capturing


def _capture_mode_class():
    from torch.utils._python_dispatch import TorchDispatchMode

    class _CaptureMode(TorchDispatchMode):
        """records the PyTorch operators called during a capture"""

        def __init__(self, graph):
            super().__init__()
            self.graph = graph

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            name = func.overloadpacket.__name__
            if name == "_local_scalar_dense":
                raise RuntimeError("tc5: CUDA error: operation not permitted when stream is capturing (a "
                                   "host read of a tensor's value, Tensor.item(), inside CUDA graph capture; "
                                   "torch.cuda.graph)")
            out = func(*args, **kwargs)
            if not (func.is_view or name in _NOT_RECORDED):
                self.graph._work.append(("op", func, args, kwargs, out))
            return out

    return _CaptureMode


class CUDAGraph:
    """torch.cuda.CUDAGraph under tc5: capture records the door's launches and the PyTorch operators
    called between capture_begin and capture_end; replay runs them again, in order, on the same memory"""

    def __init__(self, keep_graph=False):
        self._work = []
        self._mode = None
        self._captured = False

    def capture_begin(self, pool=None, capture_error_mode="global"):
        global _capturing
        if _capturing is not None:
            raise RuntimeError("tc5: a CUDA graph capture is already under way (one at a time)")
        self._work = []
        self._mode = _capture_mode_class()(self)
        self._mode.__enter__()
        _capturing = self

    def capture_end(self):
        global _capturing
        if _capturing is not self:
            raise RuntimeError("tc5: capture_end() without this graph's capture_begin()")
        _capturing = None
        mode, self._mode = self._mode, None
        mode.__exit__(None, None, None)
        self._captured = True

    def _record_launch(self, run):
        self._work.append(("launch", run))

    def replay(self):
        if not self._captured:
            raise RuntimeError("tc5: CUDAGraph.replay() before a capture ended")
        import torch
        from torch.utils._pytree import tree_leaves
        with torch.no_grad():
            for w in self._work:
                if w[0] == "launch":
                    w[1]()
                    continue
                _, func, args, kwargs, out = w
                res = func(*args, **kwargs)
                for o, r in zip(tree_leaves(out), tree_leaves(res)):
                    if isinstance(o, torch.Tensor) and isinstance(r, torch.Tensor) and o is not r:
                        o.copy_(r)

    def instantiate(self):
        pass

    def reset(self):
        self._work, self._captured = [], False

    def pool(self):
        return (0, id(self))

    def enable_debug_mode(self):
        pass

    def debug_dump(self, path):
        with open(path, "w") as f:
            for w in self._work:
                f.write(("launch" if w[0] == "launch" else str(w[1])) + "\n")


class _GraphContext:
    """torch.cuda.graph(g, pool=None, stream=None, capture_error_mode="global", enable_annotations=False):
    g's capture (annotations name kernels for a profiler: nothing to record here)"""

    def __init__(self, cuda_graph, pool=None, stream=None, capture_error_mode="global", enable_annotations=False):
        self.graph, self.pool = cuda_graph, pool
        self.capture_error_mode = capture_error_mode

    def __enter__(self):
        self.graph.capture_begin(self.pool, capture_error_mode=self.capture_error_mode)
        return self

    def __exit__(self, *exc):
        self.graph.capture_end()
        return False


def _graph_pool_handle():
    return (0, 0)


def _none(*args, **kwargs):
    return None


def _zero(*args, **kwargs):
    return 0


def _host_available() -> int:
    """the host's available memory (Linux's MemAvailable), in bytes; None where it is not known"""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        import os
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def _mem_get_info(device=None):
    """torch.cuda.mem_get_info under tc5: (free, total); the device's total, and as free what the host has
    available (the tensors are host memory), never more than the total (issue 50: three of Liger-Kernel's
    files skip their 17-40 GB tests by asking this, which a B200's 192 GiB would let run out of host memory)"""
    total = _spec()["total_memory"]
    avail = _host_available()
    return (total if avail is None else min(total, avail), total)


class PhiloxGenerator:
    """torch.cuda.default_generators[0] under tc5: the state CUDA's Philox generator keeps
    (CUDAGeneratorImpl: a seed and an offset; get_state() is their 16 bytes, two int64), which
    libraries that draw random numbers in their own kernels read and advance (issue 50: FlagGems'
    philox_backend_seed_offset views get_state() as (seed, offset), adds its increment and calls
    set_state). The tensors PyTorch itself makes stay the CPU generator's."""

    DEFAULT_SEED = 67280421310721  # c10::default_rng_seed_val, CUDA's too

    def __init__(self):
        self._seed, self._offset = self.DEFAULT_SEED, 0

    @property
    def device(self):
        import torch
        return torch.device("cuda", 0)

    def get_state(self):
        import torch
        return torch.tensor([_signed64(self._seed), _signed64(self._offset)], dtype=torch.int64).view(torch.uint8)

    def set_state(self, state):
        import torch
        if not isinstance(state, torch.Tensor) or state.dtype != torch.uint8 or state.numel() != 16:
            raise RuntimeError(f"tc5: default_generators[0].set_state: state {getattr(state, 'dtype', type(state))} of "
                               f"{getattr(state, 'numel', lambda: '?')()} elements: CUDA's Philox state is 16 bytes "
                               f"(torch.uint8): the seed and the offset")
        seed, offset = (int(v) for v in state.contiguous().view(torch.int64))
        self._seed, self._offset = seed % 2**64, offset

    def manual_seed(self, seed):
        self._seed, self._offset = int(seed) % 2**64, 0
        return self

    def seed(self):
        import random
        self.manual_seed(random.SystemRandom().getrandbits(63))
        return self._seed

    def initial_seed(self):
        return self._seed

    def get_offset(self):
        return self._offset

    def set_offset(self, offset):
        self._offset = int(offset)


def _signed64(v: int) -> int:
    v %= 2**64
    return v - 2**64 if v >= 2**63 else v


_philox = PhiloxGenerator()


def _manual_seed(seed):
    _philox.manual_seed(seed)


def _seed():
    _philox.seed()


def _get_rng_state(device="cuda"):
    return _philox.get_state()


def _get_rng_state_all():
    return [_philox.get_state()]


def _set_rng_state(new_state, device="cuda"):
    _philox.set_state(new_state)


def _set_rng_state_all(new_states):
    for s in new_states:
        _philox.set_state(s)


def _stream_class():
    from .triton import _Stream
    return _Stream


def _event_class():
    from .triton import _Event
    return _Event


# (query, the answer as documented, a function of nothing that makes what torch.cuda gets)
ANSWERS = (
    ("is_available()", "True", lambda: lambda: True),
    ("device_count()", "1", lambda: lambda: 1),
    ("current_device()", "0", lambda: lambda device=None: 0),
    ("set_device(d)", "nothing (one device)", lambda: _none),
    ("device(d)", "a context that switches nothing", lambda: _Context),
    ("_exchange_device(d)", "0", lambda: lambda device: 0),
    ("get_device_name(d)", "'NVIDIA B200 (tc5)'", lambda: lambda device=None: _spec()["name"]),
    ("get_device_capability(d)", "(10, 0)", lambda: lambda device=None: (_spec()["major"], _spec()["minor"])),
    ("get_device_properties(d)", "name, major 10, minor 0, multi_processor_count 148, total_memory 192 GiB, "
     "warp_size 32, shared_memory_per_block_optin 232448, regs_per_multiprocessor 65536, "
     "max_threads_per_multi_processor 2048, L2_cache_size 126 MiB", lambda: lambda device=None: DeviceProperties()),
    ("is_bf16_supported()", "True", lambda: lambda *a, **k: True),
    ("mem_get_info(d)", "(free, 192 GiB): free is the host's available memory (MemAvailable), at most 192 GiB: "
     "tensors live in host memory, so a test that asks before it allocates gets the room there is",
     lambda: _mem_get_info),
    ("memory_allocated(d), max_memory_allocated(d), memory_reserved(d), max_memory_reserved(d)", "0",
     lambda: _zero),
    ("reset_peak_memory_stats(d), empty_cache()", "nothing", lambda: _none),
    ("synchronize(d)", "nothing (launches are synchronous)", lambda: _none),
    ("default_generators", "(one generator with CUDA's Philox state: get_state() is 16 bytes, the seed and "
     "the offset, for libraries that draw random numbers in their own kernels)", lambda: (_philox,)),
    ("manual_seed(s), manual_seed_all(s)", "that generator's seed s, offset 0 (tensors PyTorch makes are the CPU "
     "generator's)", lambda: _manual_seed),
    ("seed(), seed_all()", "that generator's seed, a random one", lambda: _seed),
    ("initial_seed()", "that generator's seed", lambda: lambda: _philox.initial_seed()),
    ("get_rng_state(d)", "that generator's state (16 bytes): torch.compile saves and restores it around "
     "every compilation", lambda: _get_rng_state),
    ("get_rng_state_all()", "[that generator's state]", lambda: _get_rng_state_all),
    ("set_rng_state(s, d)", "that generator's state set to s", lambda: _set_rng_state),
    ("set_rng_state_all(ss)", "that generator's state set to each of ss", lambda: _set_rng_state_all),
    ("Stream(...), ExternalStream(...), current_stream(d), default_stream(d)", "a stream whose methods do nothing",
     lambda: _stream_class()),
    ("stream(s), set_stream(s)", "a context that switches nothing; nothing", lambda: _Context),
    ("Event(...)", "an event on the host clock (elapsed_time: milliseconds between two records)",
     lambda: _event_class()),
    ("CUDAGraph()", "capture records the Triton door's launches (not run, as on a GPU) and the PyTorch "
     "operators (run as called, the graph's memory made); replay() runs them again in order on the same memory",
     lambda: CUDAGraph),
    ("graph(g, pool, stream)", "g's capture, as a context", lambda: _GraphContext),
    ("graph_pool_handle()", "an opaque handle", lambda: _graph_pool_handle),
    ("is_current_stream_capturing()", "whether a capture is under way", lambda: lambda: _capturing is not None),
)

# a row's query names -> the attribute of torch.cuda (calls and classes)
_STREAM_FACTORIES = ("current_stream", "default_stream")


def _names(query: str):
    return [q.split("(")[0].strip() for q in query.split("), ")]


def _own(f, name: str):
    """f as a function object of its own for torch.cuda.<name>: torch._dynamo's rule table, built
    when dynamo is first imported (torch.library and torch.compile import it), refuses one object
    under two torch names ("Duplicate torch object ... with different rules")"""
    if isinstance(f, types.FunctionType):
        g = types.FunctionType(f.__code__, f.__globals__, name, f.__defaults__, f.__closure__)
        g.__kwdefaults__ = f.__kwdefaults__
        g.__qualname__ = name
        return g
    return f


def install(torch=None) -> None:
    """puts ANSWERS on torch.cuda (idempotent)"""
    if torch is None:
        import torch
    c = torch.cuda
    for query, _, make in ANSWERS:
        obj = make()
        for name in _names(query):
            if name in _STREAM_FACTORIES:
                setattr(c, name, lambda device=None, _s=obj: _s())
            elif name == "set_stream":
                setattr(c, name, _own(_none, name))
            else:
                setattr(c, name, _own(obj, name))
    install_accelerator(torch)


# torch.accelerator's calls that PyTorch answers in C++ (torch._C._accelerator_*, which start CUDA's runtime),
# not through torch.cuda's Python functions: torch.compile's tracing asks current_stream() of every frame
ACCELERATOR = (
    ("current_device_index()", "0", lambda: lambda: 0),
    ("set_device_index(d)", "nothing (one device)", lambda: lambda device: None),
    ("current_stream(d)", "CUDA's default stream as a torch.Stream (cuda:0, id 0)",
     lambda: lambda device=None: _default_stream()),
    ("set_stream(s)", "nothing (launches are synchronous)", lambda: lambda stream: None),
    ("synchronize(d)", "nothing (launches are synchronous)", lambda: lambda device=None: None),
)


def _default_stream():
    import torch
    return torch.Stream(stream_id=0, device_index=0, device_type=1)  # DeviceType::CUDA; no runtime call


def install_accelerator(torch=None) -> None:
    """puts ACCELERATOR on torch.accelerator (idempotent; a PyTorch without it: nothing)"""
    if torch is None:
        import torch
    acc = getattr(torch, "accelerator", None)
    if acc is None:
        return
    for query, _, make in ACCELERATOR:
        obj = make()
        for name in _names(query):
            setattr(acc, name, _own(obj, name))


def table() -> str:
    """ANSWERS as a Markdown table (docs/python.md)"""
    rows = ["| `torch.cuda.` query | answer |", "| --- | --- |"]
    for query, answer, _ in ANSWERS:
        rows.append("| " + ", ".join(f"`{q}`" for q in query.split(", ")) + f" | {answer} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(table())
