"""PyTorch's normal draws in float16/bfloat16, distributed as CUDA's, for tc5's "cuda" tensors (issue 50).

Under the torch.cuda shim ``torch.randn(..., dtype=torch.float16, device="cuda")`` ran PyTorch's CPU normal
kernel, whose reduced-precision draws hold exact zeros. PyTorch 2.11's ``ATen/native/cpu/DistributionTemplates.h``
(the installed headers, git 70d99e99; pytorch/pytorch 003dc3e1 has the same code), ``normal_fill``: for a
contiguous float16/bfloat16 tensor of 16 elements or more, the uniforms are drawn in the tensor's own type
(``uniform_real_distribution<scalar_t>``: ``digits`` random bits, 11 for float16 and 8 for bfloat16, so 0 with
probability 2^-11 / 2^-8, ``TransformationHelper.h`` ``uniform_real``), then ``normal_fill_16`` makes each pair
by Box-Muller in that type: ``u1 = 1 - u`` is 1 where u is 0, the radius ``sqrt(-2 log u1)`` is 0 and both
elements of the pair are 0; ``sin(2 pi u2)`` is 0 where u2 is 0. About 1.5 x 2^-11 of float16 draws (0.07 %)
and 1.5 x 2^-8 of bfloat16 draws (0.6 %) are exact zeros (measured: 0.071 % and 0.584 % of 4,000,000).
CUDA's ``normal_kernel`` (``ATen/native/cuda/DistributionTemplates.h``, the same headers) draws
``curand_normal4`` in ``accscalar_t`` (float), applies ``rand * std + mean`` in float and casts once to the type:
a zero only where |x| rounds to 0 (below 2^-25 for float16).

This module makes the shim's reduced-precision normal draws the same way: a float32 normal on the CPU
generator (PyTorch's float32 CPU path: 24-bit uniforms, or double Box-Muller for small or strided tensors),
``* std + mean`` in float, rounded once to the type. The distribution's rounding is CUDA's; the values are
still the CPU generator's (mt19937), not CUDA's Philox stream, as for every other draw under the shim. The
same seed and generator give the same values, as before.

Entry points (every one steps aside where a library registered a CUDA kernel for the ATen operator, or for
``normal_``, which CUDA's ``randn``/``randn_like``/``normal`` call, ``tc5.device.library_kernel``):
``torch.randn`` and ``torch.normal(mean, std, size)`` with a "cuda" ``device=`` (the shim's factory path,
``factory()``), ``torch.randn_like``, ``Tensor.normal_``, ``torch.nn.init.normal_`` and ``torch.normal``
with tensor ``mean``/``std`` (``from_torch_function()``: every tensor answers "cuda" under the shim).
float32/float64 draws are unchanged. Left to PyTorch's CPU kernel: ``out=``, named tensors, a non-strided
layout, tensors that require grad under grad mode (their autograd, and in-place errors, stay PyTorch's).
"""
from __future__ import annotations

__all__ = ["fill_as_cuda", "factory", "from_torch_function", "cpu_normal_in_type"]

_low = None


def _lows():
    global _low
    if _low is None:
        import torch
        _low = (torch.float16, torch.bfloat16)
    return _low


_in_type = None


def cpu_normal_in_type(text: str | None = None) -> bool:
    """whether this PyTorch's CPU normal kernel draws float16/bfloat16 in the type (its
    ATen/native/cpu/DistributionTemplates.h's normal_fill takes uniform_real_distribution<scalar_t>, as 2.11's),
    the draws this module replaces. Later PyTorch (2.15's header: uniform_real_distribution<opmath_t>, the
    Box-Muller in float, one cast; pytorch/pytorch#179834, issue #166853) draws as CUDA rounds: nothing to do.
    A PyTorch without the header: False (its kernel is not read; the CPU's draws are kept)"""
    global _in_type
    if text is None and _in_type is not None:
        return _in_type
    import re
    t = text
    if t is None:
        import os
        import torch
        path = os.path.join(os.path.dirname(torch.__file__), "include", "ATen", "native", "cpu",
                            "DistributionTemplates.h")
        try:
            t = open(path).read()
        except OSError:
            t = ""
    m = re.search(r"void normal_fill\(.*?\n}\n", t, re.S)
    ans = bool(m and "uniform_real_distribution<scalar_t>" in m.group(0))
    if text is None:
        _in_type = ans
    return ans


def _steps_aside(op, library_kernel) -> bool:
    return not cpu_normal_in_type() or (
        library_kernel is not None and (library_kernel(op) or library_kernel("normal_")))


# elements of a float32 draw at a time for a large contiguous tensor (16 MiB; a multiple of 16). PyTorch's CPU
# normal_ of a contiguous float32 tensor of 16 elements or more (normal_fill, normal_fill_AVX2) draws one uniform an
# element in order, makes the normals by 16-element blocks, and for a size not a multiple of 16 draws the last 16
# uniforms again and remakes that block: consecutive draws of consecutive slices cut at multiples of 16, the last
# one holding the tail (16 elements or more), are the same values as one draw of the whole
# (tests/python/test_device.py checks it against the whole draw). A DeepSeek-V3 MoE weight of 14 GiB in float16
# took a 28 GiB float32 tensor at once (FlagGems' test_fused_experts_impl).
CHUNK = 1 << 22


def _chunks(n):
    """the slices' sizes (each a multiple of 16 but the last, which is 16 or more)"""
    sizes = [CHUNK] * (n // CHUNK)
    r = n % CHUNK
    if r:
        if r >= 16 or not sizes:
            sizes.append(r)
        else:
            sizes[-1] += r
    return sizes


def fill_as_cuda(t, mean=0.0, std=1.0, generator=None):
    """t (float16/bfloat16) filled in place with normal(mean, std) drawn in float32 on the CPU generator and
    rounded once to t's type, as CUDA's normal_kernel rounds its float draws; returns t. A contiguous t of more
    than CHUNK elements is drawn CHUNK elements at a time (the same values). The shim's own work: no library
    kernel (tc5.device's dispatch mode) is reached for it"""
    import torch
    from torch.utils._mode_utils import no_dispatch
    with no_dispatch(), torch.no_grad():
        n = t.numel()
        if n <= CHUNK or not t.is_contiguous():
            f = torch.empty(t.shape, dtype=torch.float32)
            f.normal_(mean, std, generator=generator)
            t.copy_(f)
            return t
        flat, o = t.view(-1), 0
        for size in _chunks(n):
            f = torch.empty(size, dtype=torch.float32)
            f.normal_(mean, std, generator=generator)
            flat[o:o + size].copy_(f)
            o += size
    return t


def factory(func, kwargs, library_kernel=None):
    """for the shim's "cuda" factory path (device= given, already the CPU's in kwargs): a maker to call as
    func(*args, **kwargs) for torch.randn / torch.normal(mean, std, size) of a float16/bfloat16 dtype, or None"""
    import torch
    if func is torch.randn:
        op = "randn"
    elif func is torch.normal:
        op = "normal.float_float"
    else:
        return None
    dt = kwargs.get("dtype") or torch.get_default_dtype()
    if dt not in _lows() or "out" in kwargs or kwargs.get("names") is not None or \
            kwargs.get("layout", torch.strided) != torch.strided or _steps_aside(op, library_kernel):
        return None

    def make(*args, **kw):  # a 0-d tensor for a size or for mean/std is a number here, on a GPU too
        rg = kw.pop("requires_grad", False)
        kw["dtype"] = torch.float32
        with torch.no_grad():
            t = _large(func, args, kw, dt)
            if t is None:
                t = func(*args, **kw).to(dt)  # float32 draw * std + mean (PyTorch's float kernel), rounded once
        return t.requires_grad_(rg) if rg else t
    return make


def _large(func, args, kw, dt):
    """torch.randn / torch.normal(mean, std, size) of more than CHUNK elements, made in dt and drawn by slices
    (fill_as_cuda: the values of func's float32 draw, rounded once); None for a smaller one. The call's shape
    and argument checks are its meta kernel's (no draw)"""
    import torch
    gen = kw.get("generator")
    meta = func(*args, **{**{k: v for k, v in kw.items() if k not in ("generator", "pin_memory")},
                          "device": "meta"})
    if meta.numel() <= CHUNK:
        return None
    t = torch.empty(meta.shape, dtype=dt, pin_memory=kw.get("pin_memory", False))
    if func is torch.randn:
        return fill_as_cuda(t, 0.0, 1.0, gen)
    mean = args[0] if len(args) > 0 else kw["mean"]
    std = args[1] if len(args) > 1 else kw["std"]
    return fill_as_cuda(t, float(mean), float(std), gen)


def _grad_leaf(t) -> bool:
    import torch
    return torch.is_grad_enabled() and t.requires_grad


def _normal_(t, mean, std, generator, library_kernel):
    import torch
    if not hasattr(t, "dtype") or t.dtype not in _lows() or _steps_aside("normal_", library_kernel) or \
            _grad_leaf(t) or t.is_meta or t.layout is not torch.strided:
        return NotImplemented
    return fill_as_cuda(t, mean, std, generator)


def _arg(args, kwargs, i, name, default):
    if len(args) > i:
        return args[i]
    return kwargs.get(name, default)


def from_torch_function(func, args, kwargs, library_kernel=None):
    """the shim's TorchFunctionMode asks it (through tc5.device.torch_function): torch.randn_like,
    Tensor.normal_, torch.nn.init.normal_ and torch.normal of tensors, of a float16/bfloat16 result, drawn as
    CUDA draws; NotImplemented: the caller goes on"""
    import torch
    from .device import is_cuda_device
    kwargs = kwargs or {}
    if func is torch.Tensor.normal_:
        if not args:
            return NotImplemented
        return _normal_(args[0], _arg(args, kwargs, 1, "mean", 0.0), _arg(args, kwargs, 2, "std", 1.0),
                        kwargs.get("generator"), library_kernel)
    if func is torch.nn.init.normal_:
        t = _arg(args, kwargs, 0, "tensor", None)
        if not isinstance(t, torch.Tensor) or t.dtype not in _lows() or t.is_meta or \
                _steps_aside("normal_", library_kernel):
            return NotImplemented
        return fill_as_cuda(t, _arg(args, kwargs, 1, "mean", 0.0), _arg(args, kwargs, 2, "std", 1.0),
                            _arg(args, kwargs, 3, "generator", None))
    if func is torch.randn_like:
        x = _arg(args, kwargs, 0, "input", None)
        dev = kwargs.get("device")
        if not isinstance(x, torch.Tensor) or (dev is not None and not is_cuda_device(dev)):
            return NotImplemented
        dt = kwargs.get("dtype") or x.dtype
        if dt not in _lows() or kwargs.get("layout", torch.strided) != torch.strided or x.layout != torch.strided \
                or _steps_aside("randn_like", library_kernel) or x.is_meta:
            return NotImplemented
        kw = {k: v for k, v in kwargs.items() if k not in ("input", "device", "requires_grad", "dtype")}
        rg = kwargs.get("requires_grad", False)
        with torch.no_grad():
            t = func(x, dtype=torch.float32, **kw).to(dt)
        return t.requires_grad_(rg) if rg else t
    if func is torch.normal:
        return _normal_tensors(args, kwargs, library_kernel)
    return NotImplemented


def _normal_tensors(args, kwargs, library_kernel):
    """torch.normal(mean, std) with a tensor mean and/or std (ATen's normal_out_impl, CPU and CUDA alike: the
    output drawn as normal_(0, std) then add_(mean), or normal_(0, 1) then mul_(std).add_(mean), in the output's
    type); the draw is CUDA's. Anything else (the float_float factory, out=, grad): NotImplemented"""
    import torch
    if len(args) > 2 or "out" in kwargs or "size" in kwargs or set(kwargs) - {"mean", "std", "generator"}:
        return NotImplemented
    mean = _arg(args, kwargs, 0, "mean", None)
    std = _arg(args, kwargs, 1, "std", 1.0)
    mt, st = isinstance(mean, torch.Tensor), isinstance(std, torch.Tensor)
    if not (mt or st) or (mt and mean.requires_grad) or (st and std.requires_grad):
        return NotImplemented
    if mt and st:
        op, like = "normal.Tensor_Tensor", mean
    elif mt:
        op, like = "normal.Tensor_float", mean
    else:
        op, like = "normal.float_Tensor", std
    if like.dtype not in _lows() or like.is_meta or like.layout != torch.strided or \
            (mt and st and mean.dtype != std.dtype) or _steps_aside(op, library_kernel) or \
            ((std < 0).any() if st else std < 0):
        return NotImplemented  # a negative std: PyTorch's own check and message
    gen = kwargs.get("generator")
    if mt and not st:
        out = torch.empty_like(mean, memory_format=torch.contiguous_format)
        fill_as_cuda(out, 0.0, float(std), gen)
        return out.add_(mean)
    if st and not mt:
        out = torch.empty_like(std, memory_format=torch.contiguous_format)
        fill_as_cuda(out, 0.0, 1.0, gen)
        return out.mul_(std).add_(torch.full((), mean, dtype=out.dtype))
    shape = torch.broadcast_shapes(mean.shape, std.shape)
    out = torch.empty(shape, dtype=mean.dtype)
    fill_as_cuda(out, 0.0, 1.0, gen)
    return out.mul_(std).add_(mean)
