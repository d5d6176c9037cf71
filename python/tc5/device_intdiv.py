"""PyTorch's integer division on tc5's "cuda" tensors where a divisor is 0 or the type's minimum meets -1, as
CUDA's kernels answer (issue 50).

Under the torch.cuda shim a "cuda" tensor is host memory, and ``a // b``, ``a % b``, ``torch.fmod`` and
``torch.div(rounding_mode=...)`` of integers ran PyTorch's CPU kernels, which raise ``ZeroDivisionError`` on a zero
divisor (and die of SIGFPE for the int32/int64 minimum over -1 by ``rounding_mode="trunc"``), where PyTorch's CUDA
kernels return a value (FlagGems' test_floor_divide_int and test_remainder draw int16 divisors over the whole
range; their reference runs PyTorch's own operator). The values are silicon's: ``gpu/run.sh intdiv``
(gpu/intdiv_probe.py) measured every operator, integer type and form of the divisor on the H200, kept in
tests/data/device_intdiv/intdiv_cuda.tsv, and ``gpu/run.sh intdiv-edges`` int64 dividends by 0 between them
(intdiv_edges_cuda.tsv); the rules below are what those rows say, and tests/python/test_device_intdiv.py checks
every row against this module.

Taken: the torch functions of functions() (the operators, methods, in-place and reflected forms) whose common
type is an integer type and whose divisor holds a 0 (or the minimum meets -1, for a signed type); the result is
PyTorch's (its shape, type, ``out=``, in-place tensor) with the values of CUDA's kernel: PyTorch's own value at
every other element (the CPU's and CUDA's kernels compute the same definition there). Left to PyTorch (as
before): calls without such an element, a library's CUDA kernel for the operator (``tc5.device.library_kernel``:
FlagGems' own floor_divide, as on a GPU), tensor subclasses, another dispatch mode of the program's. Refused
by name (``CudaIntdivUndefined``): such an element in a type the probe did not measure.
"""
from __future__ import annotations

__all__ = ["CudaIntdivUndefined", "functions", "from_torch_function", "cuda_values", "MEASURED"]

MEASURED = ("int8", "int16", "int32", "int64", "uint8")  # gpu/intdiv_probe.py's DTYPES


class CudaIntdivUndefined(RuntimeError):
    """an integer division by 0 (or minimum over -1) whose answer on CUDA tc5 has not measured"""


_funcs = None
_names = frozenset(("floor_divide", "floor_divide_", "__floordiv__", "__rfloordiv__", "__ifloordiv__",
                    "remainder", "remainder_", "__mod__", "__rmod__", "__imod__", "fmod", "fmod_",
                    "div", "div_", "divide", "divide_"))

# the ATen operators (tc5.device.library_kernel's names) whose library kernel a call of each kernel may reach
_LIBRARY_OPS = {
    "floor": ("floor_divide", "floor_divide.Scalar", "floor_divide_.Tensor", "floor_divide_.Scalar",
              "div.Tensor_mode", "div.Scalar_mode", "div_.Tensor_mode", "div_.Scalar_mode"),
    "trunc": ("div.Tensor_mode", "div.Scalar_mode", "div_.Tensor_mode", "div_.Scalar_mode"),
    "remainder": ("remainder.Tensor", "remainder.Scalar", "remainder.Scalar_Tensor", "remainder_.Tensor",
                  "remainder_.Scalar"),
    "fmod": ("fmod.Tensor", "fmod.Scalar", "fmod_.Tensor", "fmod_.Scalar"),
}


def names() -> frozenset:
    """the __name__ of every function of functions() (tc5.device's pre-filter)"""
    return _names


def functions() -> dict:
    """{torch function: (kernel, the divisor's argument: 1, or 0 for a reflected operator, in place)}; the kernel
    "div" is the rounding_mode's ("floor", "trunc"; None: true division, not taken)"""
    global _funcs
    if _funcs is None:
        import torch
        T = torch.Tensor
        f = {}
        for fn, k in ((torch.floor_divide, "floor"), (T.floor_divide, "floor"), (T.__floordiv__, "floor"),
                      (torch.remainder, "remainder"), (T.remainder, "remainder"), (T.__mod__, "remainder"),
                      (torch.fmod, "fmod"), (T.fmod, "fmod"),
                      (torch.div, "div"), (T.div, "div"), (torch.divide, "div"), (T.divide, "div")):
            f[fn] = (k, 1, False)
        for fn, k in ((T.floor_divide_, "floor"), (T.__ifloordiv__, "floor"), (T.remainder_, "remainder"),
                      (T.__imod__, "remainder"), (T.fmod_, "fmod"), (T.div_, "div"), (T.divide_, "div")):
            f[fn] = (k, 1, True)
        for fn, k in ((T.__rfloordiv__, "floor"), (T.__rmod__, "remainder")):
            f[fn] = (k, 0, False)
        _funcs = f
    return _funcs


def _parse(func, args, kwargs):
    """(kernel, dividend, divisor, in place) of a call of functions(), or None where it is not one this module takes"""
    kernel, pos, inplace = functions()[func]
    kwargs = kwargs or {}
    if set(kwargs) - {"input", "other", "out", "rounding_mode"} or len(args) + len(kwargs) > 4:
        return None
    if kernel == "div":
        mode = kwargs.get("rounding_mode")
        if mode not in ("floor", "trunc"):
            return None  # true division (a float result), or PyTorch's own error for another mode
        kernel = mode
    elif "rounding_mode" in kwargs:
        return None
    xs = list(args) + [kwargs[k] for k in ("input", "other") if k in kwargs]
    if len(xs) != 2:
        return None
    divisor, dividend = (xs[0], xs[1]) if pos == 0 else (xs[1], xs[0])
    return kernel, dividend, divisor, inplace


def from_torch_function(func, args, kwargs, own_mode=None, library_kernel=None):
    """the shim's TorchFunctionMode's call of a function of functions() (tc5.device): PyTorch's result with CUDA's
    values where an integer divisor is 0 or the minimum meets -1, or NotImplemented (the caller goes on: PyTorch's
    CPU kernel, which computes CUDA's values where no such element is)"""
    import torch
    from torch.utils._mode_utils import no_dispatch
    from .device_reduce import _other_dispatch_modes, _plain
    p = _parse(func, args, kwargs)
    if p is None:
        return NotImplemented
    kernel, x, y, inplace = p
    tensors = [v for v in (x, y) if isinstance(v, torch.Tensor)]
    if not tensors or any(not _plain(t) for t in tensors) or not all(
            isinstance(v, (torch.Tensor, int)) and not isinstance(v, bool) for v in (x, y)):
        return NotImplemented  # numbers alone (the CPU's kernel on a GPU too), a subclass, a float number
    out = (kwargs or {}).get("out")
    if out is not None and not _plain(out):
        return NotImplemented
    try:
        with no_dispatch(), torch.no_grad():  # the shim's own work: no library kernel reached for it
            ct = torch.result_type(x, y)
            if ct.is_floating_point or ct.is_complex or ct == torch.bool:
                return NotImplemented
            X, Y = (torch.tensor(v).to(ct) if not isinstance(v, torch.Tensor) else v.to(ct) for v in (x, y))
            X, Y = torch.broadcast_tensors(X, Y)
            zero = Y == 0
            ovf = (X == torch.iinfo(ct).min) & (Y == -1) if ct.is_signed else None
            if not (bool(zero.any()) or (ovf is not None and bool(ovf.any()))):
                return NotImplemented
    except (RuntimeError, TypeError, ValueError):
        return NotImplemented  # PyTorch's own call says why (shapes, types)
    if _other_dispatch_modes(own_mode):
        return NotImplemented
    if library_kernel is not None and any(library_kernel(op) for op in _LIBRARY_OPS[kernel]):
        return NotImplemented  # a library's kernel (FlagGems' floor_divide...): its answer, as on a GPU
    with no_dispatch(), torch.no_grad():
        r = cuda_values(kernel, X, Y, zero, ovf)
    # PyTorch's own call, the divisor made 1: its result's shape and type, out=, the in-place tensor, its errors
    one = torch.ones_like(y) if isinstance(y, torch.Tensor) else 1
    call, kw = list(args), dict(kwargs or {})
    if "other" in kw:
        kw["other"] = one
    else:
        call[functions()[func][1]] = one  # the divisor: args[1], a reflected operator's args[0]
    ref = func(*call, **kw)
    with no_dispatch(), torch.no_grad():
        ref.copy_(r)
    return ref


# What the H200 answered (tests/data/device_intdiv/intdiv_cuda.tsv, 19,824 rows; every operator and form of the
# divisor agree on each pair): the quotient and the remainder of a by 0 are one value, all ones in 32 bits (NVIDIA's
# integer division is a sequence of instructions, not one; by 0 it leaves 0xFFFFFFFF): -1 for int32, and for int8
# and int16 (C++ divides them as int, -1 cast back), 255 for uint8 (255 = -1 cast back). For int64, 4294967295
# (0xFFFFFFFF, zero-extended) for the dividends 0 to 100 and -1 for the negative ones and for 2^63 - 2 and 2^63 - 1:
# int64 by 0: two paths, split at 2^32 (nvcc's 64-bit division takes a 32-bit path when both operands fit in 32
# bits, whose all-ones quotient is 2^32 - 1 zero-extended; otherwise the 64-bit path's all ones). The H200's rows:
# intdiv_cuda.tsv (0 to 100, the negative dividends, 2^63 - 2, 2^63 - 1) and intdiv_edges_cuda.tsv (gpu/run.sh
# intdiv-edges: 101 .. 2^32 - 1 give 4294967295, 2^32 .. 2^63 - 3 give -1; 2^32 - 1 and 2^32 both measured).
# PyTorch's formulas (c10/util/generic_math.h's div_floor_integer, BinaryRemainderKernel.cu's remainder: the rows
# agree) then make floor_divide the value less 1 where the dividend is negative (the signs differ, the remainder is
# not 0), remainder and fmod the value. The minimum over -1: the minimum for floor_divide and trunc, 0 for remainder
# and fmod.
INT64_32BIT_PATH = (0, (1 << 32) - 1, 4294967295)  # (from, to, value); every other int64 dividend: -1


def _by_zero(X):
    """the H200's quotient = remainder of X by 0, for X of a MEASURED type"""
    import torch
    if X.dtype != torch.int64:
        return torch.full_like(X, 255 if X.dtype == torch.uint8 else -1)
    lo, hi, val = INT64_32BIT_PATH
    return torch.where((X >= lo) & (X <= hi), val, -1)


def cuda_values(kernel, X, Y, zero, ovf):
    """kernel ("floor", "trunc", "remainder", "fmod") of X by Y (broadcast tensors of their common integer type) as
    PyTorch's CUDA kernel computes it on the H200: zero (Y == 0) and ovf (the minimum over -1; None for an unsigned
    type) the elements whose value is silicon's; the others PyTorch's (its CPU kernel on them)"""
    import torch
    name = str(X.dtype).replace("torch.", "")
    if name not in MEASURED:
        raise CudaIntdivUndefined(
            f"tc5.device: CUDA's integer {kernel} division of {name} by 0 (or of its minimum by -1) is not measured "
            f"(gpu/run.sh intdiv measured {', '.join(MEASURED)}: tests/data/device_intdiv/intdiv_cuda.tsv)")
    v0 = _by_zero(X)
    special = zero if ovf is None else zero | ovf
    Xs = X if ovf is None else torch.where(ovf, 0, X)
    Ys = torch.where(special, 1, Y)
    if kernel == "floor":
        r = torch.floor_divide(Xs, Ys)
        z = torch.where(X < 0, v0 - 1, v0) if X.dtype.is_signed else v0  # v0, the remainder, is never 0
    elif kernel == "trunc":
        r, z = torch.div(Xs, Ys, rounding_mode="trunc"), v0
    elif kernel == "remainder":
        r, z = torch.remainder(Xs, Ys), v0  # PyTorch adds the divisor (0) where the signs differ
    else:
        r, z = torch.fmod(Xs, Ys), v0
    r = torch.where(zero, z, r)
    if ovf is not None:
        r = torch.where(ovf, torch.iinfo(X.dtype).min if kernel in ("floor", "trunc") else 0, r)
    return r
