"""Host memory as device memory: the memory a framework's tensor occupies on
the host, as a writable uint8 NumPy view of the very same bytes (no copy),
for `tc5.run_ptx(..., host_addresses=True)`: the kernel sees each buffer at
its host address, so pointers taken on the host (`arr.ctypes.data`,
`tensor.data_ptr()`, pointer arrays) are valid in the kernel.

    span(x)   -> (address, nbytes): the bytes x's elements occupy (strided
                 or not; a view's own span, not its base's)
    region(x) -> a uint8 view of those bytes, to pass in run_ptx's buffers
    address(x) -> the address a kernel parameter pointing at x's first
                  element takes (x's data pointer)

x: a NumPy array, a PyTorch CPU tensor (without importing torch when none is
given), or any object with __dlpack__ on the CPU. Anything else, a GPU
tensor, or a read-only array raises TypeError / ValueError naming it.
"""
from __future__ import annotations

import ctypes

import numpy as np

try:  # NumPy 2
    from numpy.lib.array_utils import byte_bounds as _byte_bounds
except ImportError:  # NumPy 1
    _byte_bounds = np.byte_bounds


def _is_torch(x) -> bool:
    return type(x).__module__.split(".")[0] == "torch" and hasattr(x, "data_ptr")


def _torch_span(x, what: str) -> tuple[int, int]:
    import torch
    with torch._C.DisableTorchFunction():  # where it is, not what tc5.device answers ("cuda")
        dev = x.device
    if dev.type != "cpu":
        raise TypeError(f"{what}: a tensor on {dev}; tc5 runs on CPU memory (tensor.cpu())")
    if x.numel() == 0:
        return int(x.data_ptr()), 0
    es = x.element_size()
    lo = sum(min(0, (n - 1) * s) for n, s in zip(x.shape, x.stride()))
    hi = sum(max(0, (n - 1) * s) for n, s in zip(x.shape, x.stride()))
    return int(x.data_ptr()) + lo * es, (hi - lo + 1) * es


def span(x, what: str = "argument") -> tuple[int, int]:
    """(address, nbytes) of the bytes x's elements occupy"""
    if isinstance(x, np.ndarray):
        lo, hi = _byte_bounds(x)
        return int(lo), int(hi - lo)
    if _is_torch(x):
        return _torch_span(x, what)
    if hasattr(x, "__dlpack__"):
        try:
            return span(np.from_dlpack(x), what)
        except (TypeError, RuntimeError, BufferError) as e:
            raise TypeError(f"{what}: a DLPack tensor NumPy cannot read ({e})") from None
    raise TypeError(f"{what}: a NumPy array or a CPU tensor, not {type(x).__name__}")


def address(x, what: str = "argument") -> int:
    """the address of x's first element (what a pointer parameter gets)"""
    if isinstance(x, np.ndarray):
        return int(x.ctypes.data)
    if _is_torch(x):
        _torch_span(x, what)  # the device checked
        return int(x.data_ptr())
    if hasattr(x, "__dlpack__"):
        return address(np.from_dlpack(x), what)
    raise TypeError(f"{what}: a NumPy array or a CPU tensor, not {type(x).__name__}")


def region(x, what: str = "argument") -> np.ndarray:
    """a writable uint8 view of the bytes x occupies (the same memory)"""
    if isinstance(x, np.ndarray) and not x.flags.writeable:
        raise ValueError(f"{what}: a read-only array; the kernel may write it (arr.copy())")
    lo, n = span(x, what)
    if n == 0:
        return np.zeros(0, dtype=np.uint8)
    return np.ctypeslib.as_array((ctypes.c_uint8 * n).from_address(lo))
