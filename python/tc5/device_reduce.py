"""PyTorch's eager CUDA sum and mean, as CUDA computes them, for tc5's "cuda" tensors (issue 50).

Under the torch.cuda shim a "cuda" tensor is host memory, and ``x.sum()`` ran PyTorch's CPU kernel,
whose summation order is not CUDA's: a program comparing an eager sum bit for bit with another
computation (``torch.compile``'s Triton sum, as Liger-Kernel's TVD test does) saw results a GPU does
not give. This module is a model of the CUDA kernel PyTorch runs instead (ATen's
``native/cuda/Reduce.cuh``, PyTorch 2.11 and 2.15 alike; read, not copied): the reduction's
TensorIterator geometry (``reorder_dimensions``, ``coalesce_dimensions``), ``setReduceConfig``
(block shape, vectorised loads along the input or the output, values per thread, the split of an
output over several CTAs with the global staging buffer, from the device's SM count), and the exact
order of the additions: ``vt0`` (4) or ``input_vec_size`` (4; 8 for 16-bit inputs: the kernel
names of libtorch_cuda.so) accumulators per thread, the unaligned head and the tail of a vectorised
row, ``block_x_reduce`` (shared memory, then warp shuffles with decreasing offsets),
``block_y_reduce``, and the last CTA's combine of the staged partials. SumKernel's and MeanOps'
types: float32 accumulation for float16/bfloat16 (also into a float32 result), float64 for
float64; mean multiplies by ``float(outputs) / numel`` (a float32 factor) before the cast. Every
step is NumPy over whole arrays (no per-element Python).

Covered: ``torch.sum``/``Tensor.sum`` and ``torch.mean``/``Tensor.mean`` of float32, float16,
bfloat16 and float64 tensors, whole or over dimensions, keepdim, ``dtype=`` (float16/bfloat16 in
and float32 out in one kernel, as CUDA's; other casts first, as PyTorch does), any strides
(expanded, transposed, offset views). Left to PyTorch's CPU kernel (``cuda_reduce`` returns None):
integer and bool inputs (integer sums are exact in any order; to a float dtype= not modelled), complex,
empty tensors, tensors past 32-bit
indexing (CUDA splits those into sub-iterators: not modelled), ``out=``, named dimensions.
Validated against the H200 (``gpu/run.sh reduce``; tests/python/test_device_reduce.py).
"""
from __future__ import annotations

import numpy as np

__all__ = ["cuda_reduce", "config", "geometry", "Geometry", "Config", "write_cuda_values", "modelled_torch",
           "from_torch_function", "functions"]

MAX_THREADS = 512  # mnt_wrapper<T>::MAX_NUM_THREADS (every type here; 256 is complex<double>'s)
VT0 = 4  # gpu_reduce_kernel's default unroll (sum_functor and MeanOps)
MIN_VALUES_PER_THREAD = 16  # CUDA's (ROCm's is 128)
MAX_VALUES_PER_THREAD = 256


def input_vec_size(itemsize: int) -> int:
    """sum_functor's and mean_kernel_impl's input_vec_size: 8 for 16-bit inputs, else vt0 (the template
    arguments of libtorch_cuda.so's reduce_kernel names, PyTorch 2.11 on the H200 and 2.15 here)"""
    return 8 if itemsize == 2 else VT0


class Geometry:
    """a reduction's TensorIterator after reorder_dimensions and coalesce_dimensions: shape, the input's
    and the output's strides in bytes (dimension 0 the fastest; reduced dimensions first, their output
    stride 0)"""

    def __init__(self, shape, in_strides, out_strides):
        self.shape, self.istr, self.ostr = list(shape), list(in_strides), list(out_strides)

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def num_reduce_dims(self):
        return sum(1 for s in self.ostr if s == 0)

    @property
    def numel(self):
        return int(np.prod(self.shape, dtype=np.int64)) if self.shape else 1

    @property
    def num_outputs(self):
        n = 1
        for d, s in enumerate(self.shape):
            if self.ostr[d] != 0 or s == 0:
                n *= s
        return n


def geometry(shape, in_strides, in_itemsize, out_strides, out_itemsize, reduced) -> Geometry:
    """TensorIterator::reduce_op's geometry for an input of shape/in_strides (elements) and its
    keepdim-shaped output (out_strides, elements; a reduced dimension of size 1 there): compute_strides
    (a size-1 output dimension broadcast: stride 0), reorder_dimensions (PyTorch's insertion sort with
    its should_swap: reduced dimensions first, then by strides, operand by operand, the output first),
    coalesce_dimensions"""
    nd = len(shape)
    if nd == 0:
        return Geometry([], [], [])
    kshape = [1 if reduced[i] else shape[i] for i in range(nd)]
    ops = [[0 if (kshape[i] == 1 and shape[i] != 1) else out_strides[i] * out_itemsize for i in range(nd)],
           [in_strides[i] * in_itemsize for i in range(nd)]]  # operand 0 the output, 1 the input
    perm = list(range(nd - 1, -1, -1))

    def should_swap(d0, d1):
        for arg, st in enumerate(ops):
            s0, s1 = st[d0], st[d1]
            if arg == 0 and (s0 == 0) != (s1 == 0):
                return 1 if s1 == 0 else -1
            if s0 == 0 or s1 == 0:
                continue
            if s0 < s1:
                return -1
            if s0 > s1:
                return 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    if nd > 1:
        for i in range(1, nd):
            d1 = i
            for d0 in range(i - 1, -1, -1):
                c = should_swap(perm[d0], perm[d1])
                if c > 0:
                    perm[d0], perm[d1] = perm[d1], perm[d0]
                    d1 = d0
                elif c < 0:
                    break
    shp = [shape[p] for p in perm]
    st = [[o[p] for p in perm] for o in ops]
    # coalesce_dimensions
    if nd > 1:
        prev = 0
        for d in range(1, nd):
            s0, s1 = shp[prev], shp[d]
            ok = s0 == 1 or s1 == 1 or all(s0 * o[prev] == o[d] for o in st)
            if ok:
                if shp[prev] == 1:
                    for o in st:
                        o[prev] = o[d]
                shp[prev] *= shp[d]
            else:
                prev += 1
                if prev != d:
                    for o in st:
                        o[prev] = o[d]
                    shp[prev] = shp[d]
        shp = shp[:prev + 1]
        st = [o[:prev + 1] for o in st]
    return Geometry(shp, st[1], st[0])


def _last_pow2(n: int) -> int:
    n |= n >> 1
    n |= n >> 2
    n |= n >> 4
    n |= n >> 8
    n |= n >> 16
    return max(1, n - (n >> 1))


def _div_up(a, b):
    return (a + b - 1) // b


class Config:
    """ReduceConfig as setReduceConfig leaves it"""
    block_width = block_height = num_threads = 0
    vectorize_input = False
    output_vec_size = 1
    ctas_per_output = 1

    def __init__(self, num_outputs, num_inputs):
        self.num_outputs, self.num_inputs = num_outputs, num_inputs
        self.step_input = self.step_output = 1
        self.input_mult = [0, 0, 0]
        self.output_mult = [0, 0]

    def split_input(self, p):
        s = self.step_input
        self.step_input *= p
        return s

    def split_output(self, p):
        s = self.step_output
        self.step_output *= p
        return s

    def values_per_thread(self):
        return _div_up(self.num_inputs, self.step_input)

    def grid_x(self):
        return _div_up(self.num_outputs // self.output_vec_size, self.step_output)

    def __repr__(self):
        return (f"Config(block {self.block_width}x{self.block_height}, vec_in {self.vectorize_input}, "
                f"vec_out {self.output_vec_size}, input_mult {self.input_mult}, output_mult {self.output_mult}, "
                f"step_input {self.step_input}, ctas {self.ctas_per_output})")


def _output_vec_size(g: Geometry, itemsize: int, address: int) -> int:
    vec = 4

    def update(n):
        nonlocal vec
        while n % vec != 0:
            vec //= 2

    update(address // itemsize)
    nr = g.num_reduce_dims
    update(g.shape[nr])
    for j, s in enumerate(g.istr):
        if j != nr:
            update(s // itemsize)
    return vec


def config(g: Geometry, itemsize: int, address: int, sms: int, max_threads_per_sm: int = 2048,
           warp: int = 32) -> Config:
    """setReduceConfig (Reduce.cuh) for geometry g, an input of itemsize bytes at address, on a device of
    sms SMs"""
    M = g.num_outputs
    N = g.numel // M
    c = Config(M, N)
    nr = g.num_reduce_dims
    if g.ndim > 0:
        fastest = nr == g.ndim or g.istr[0] < g.istr[nr]
        if fastest:
            dim0, dim1, fms = N, M, g.istr[0]
        else:
            dim0, dim1, fms = M, N, g.istr[nr]
    else:
        fastest, fms, dim0, dim1 = True, itemsize, 1, 1
    if fms == itemsize:
        if fastest and dim0 >= 128 and nr == 1:
            c.vectorize_input = True
            dim0 //= input_vec_size(itemsize)
        elif not fastest:
            c.output_vec_size = _output_vec_size(g, itemsize, address)
            dim0 //= c.output_vec_size
    mnt = MAX_THREADS // c.output_vec_size
    d0 = _last_pow2(dim0) if dim0 < mnt else mnt
    d1 = _last_pow2(dim1) if dim1 < mnt else mnt
    bw = min(d0, warp)
    bh = min(d1, mnt // bw)
    bw = min(d0, mnt // bh)
    c.block_width, c.block_height, c.num_threads = bw, bh, bw * bh
    if g.ndim == 0 or fastest:
        c.input_mult[0] = c.split_input(bw)
    else:
        c.output_mult[0] = c.split_output(bw)
    if c.values_per_thread() >= min(bh * 16, MAX_VALUES_PER_THREAD):
        c.input_mult[1] = c.split_input(bh)
    else:
        c.output_mult[1] = c.split_output(bh)
    target = sms * (max_threads_per_sm // c.num_threads)
    grid = c.grid_x()
    if c.input_mult[1] != 0 and c.values_per_thread() >= MAX_VALUES_PER_THREAD and grid <= target:
        vpt = c.values_per_thread()
        c1 = _div_up(target, grid)
        c2 = _div_up(vpt, MIN_VALUES_PER_THREAD)
        c3 = _div_up(vpt, MAX_VALUES_PER_THREAD)
        c.ctas_per_output = max(min(c1, c2), c3)  # std::clamp(c1, c3, c2) (2.15); the same (c3 <= c2)
        if c.ctas_per_output > 1:
            c.input_mult[2] = c.split_input(c.ctas_per_output)
    return c


def _seq_sum(parts, acc):
    """sum_k parts[:, k, ...] in order k = 0, 1, ..., from +0 (an accumulator's ident): one rounding per
    addition, as one thread's loop does"""
    r = np.zeros(parts.shape[:1] + parts.shape[2:], dtype=acc)
    for k in range(parts.shape[1]):
        r += parts[:, k]
    return r


def _halve(a, axis):
    """a tree over axis (a power of two long) by halving: element t gets t + n/2, then t + n/4, ...
    (block_x_reduce's shared-memory steps and warp shuffles with decreasing offsets; block_y_reduce)"""
    a = np.moveaxis(a, axis, -1)
    while a.shape[-1] > 1:
        h = a.shape[-1] // 2
        a = a[..., :h] + a[..., h:]
    return a[..., 0]


def _blk(X, a, b, acc):
    """columns a..b of X in the accumulator's type (a block at a time: no copy of the whole input)"""
    x = X[:, a:b]
    return x if x.dtype == acc else x.astype(acc)


def _threads_plain(X, S, acc):
    """thread_reduce_impl's per-thread values (M, S): thread t sums X[:, t + j*S] into accumulator j % vt0,
    in order of j (blocks of vt0*S columns added one after another, from +0), then combines the vt0
    accumulators in order"""
    M, N = X.shape
    B = VT0 * S
    A = np.zeros((M, VT0, S), dtype=acc)
    full = N // B
    for k in range(full):
        A += _blk(X, k * B, (k + 1) * B, acc).reshape(M, VT0, S)
    rem = N - full * B
    if rem:
        last = np.zeros((M, B), dtype=acc)
        last[:, :rem] = _blk(X, full * B, N, acc)
        A += last.reshape(M, VT0, S)
    v = A[:, 0]
    for i in range(1, VT0):
        v = v + A[:, i]
    return v


def _threads_vectorized(X, S, V, shift, acc):
    """input_vectorized_thread_reduce_impl's per-thread values (M, S) for rows X (M, N) whose data start
    `shift` elements past a V-element alignment: the head (threads shift..V-1 of the first warp row of
    the first CTA), V-element vectors (thread t: vectors t, t+S, ...; accumulator i their element i),
    the tail into accumulator 0 (threads 0..r-1), then the V accumulators combined in order"""
    M, N = X.shape
    A = np.zeros((M, S, V), dtype=acc)
    if shift > 0:
        h = V - shift
        A[:, shift:V, 0] += _blk(X, 0, h, acc)
        X = X[:, h:]
    n = X.shape[1]
    nv = n // V
    B = S * V
    full = nv // S
    for k in range(full):
        A += _blk(X, k * B, (k + 1) * B, acc).reshape(M, S, V)
    rv = nv - full * S
    if rv:
        A[:, :rv, :] += _blk(X, full * B, full * B + rv * V, acc).reshape(M, rv, V)
    r = n - nv * V
    if r:
        A[:, :r, 0] += _blk(X, nv * V, n, acc)
    v = A[..., 0]
    for i in range(1, V):
        v = v + A[..., i]
    return v


def _combine(T, c: Config, acc):
    """the per-thread values T (M, S) of each output to its result (M,): block_x_reduce, block_y_reduce
    in each CTA, and with ctas_per_output > 1 the last CTA's combine of the staged CTA values"""
    M = T.shape[0]
    X = c.block_width if c.input_mult[0] else 1
    Y = c.block_height if c.input_mult[1] else 1
    C = c.ctas_per_output if c.input_mult[2] else 1
    t = T.reshape(M, C, Y, X)  # thread x + X*(y + Y*c)
    if c.input_mult[0]:
        t = _halve(t, 3)
    else:
        t = t[..., 0]
    if c.input_mult[1]:
        t = _halve(t, 2)
    else:
        t = t[..., 0]
    P = t  # (M, C): each CTA's value
    if C == 1:
        return P[:, 0]
    if c.input_mult[0]:  # thread tid = x + y*bw takes staged values tid, tid + threads, ...
        step = c.block_width * c.block_height
    else:  # thread y takes y, y + bh, ...
        step = c.block_height
    K = _div_up(C, step)
    Q = np.zeros((M, K * step), dtype=acc)
    Q[:, :C] = P
    v = _seq_sum(Q.reshape(M, K, step), acc)
    if c.input_mult[0]:
        v = v.reshape(M, c.block_height, c.block_width)
        v = _halve(v, 1)  # block_y_reduce first, then block_x_reduce
        return _halve(v, 1)
    return _halve(v, 1)


def _np_dtype(torch_dtype):
    import torch
    import ml_dtypes
    return {torch.float32: np.float32, torch.float64: np.float64, torch.float16: np.float16,
            torch.bfloat16: ml_dtypes.bfloat16}[torch_dtype]


def reduce_rows(X, c: Config, acc, shifts=None, V=None):
    """the results (M,) of config c on the rows X (M, N) of acc type (the vectorised path: each row's
    shift)"""
    S = c.step_input
    if c.vectorize_input:
        out = np.empty(X.shape[0], dtype=acc)
        groups = np.unique(shifts)
        if len(groups) == 1:  # every row alike: X as it is (no copy)
            return _combine(_threads_vectorized(X, S, V, int(groups[0]), acc), c, acc)
        for s in groups:
            rows = np.nonzero(shifts == s)[0]
            T = _threads_vectorized(X[rows], S, V, int(s), acc)
            out[rows] = _combine(T, c, acc)
        return out
    return _combine(_threads_plain(X, S, acc), c, acc)


def cuda_reduce(x, dims, keepdim, out_dtype, mean=False, sms=148, max_threads_per_sm=2048, warp=32, address=None):
    """CUDA's torch.sum(x, dims, keepdim, dtype=out_dtype) (mean: torch.mean) for a CPU tensor x holding the
    "cuda" tensor's data, as a NumPy array of the result's shape and type (bfloat16: ml_dtypes'), or None
    where this module does not define it (the caller keeps PyTorch's CPU result). dims: the reduced
    dimensions (normalised, non-negative; all of them for a whole reduction). address: the data's device
    address (the vectorised loads' alignment; default x.data_ptr())"""
    import torch
    floats = (torch.float32, torch.float16, torch.bfloat16, torch.float64)
    if x.dtype not in floats or out_dtype not in floats or x.numel() == 0 or x.layout != torch.strided:
        return None
    low = x.dtype in (torch.float16, torch.bfloat16)
    if x.dtype != out_dtype and not (low and out_dtype == torch.float32):
        x = x.to(out_dtype)  # make_reduction_from_out_ty: the cast first, then the reduction in out_dtype
        address = None
    if address is None:
        address = x.data_ptr()
    nd = x.dim()
    reduced = [d in dims for d in range(nd)]
    kshape = [1 if reduced[d] else x.shape[d] for d in range(nd)]
    kstrides = list(torch.empty(kshape, device="meta").stride()) if nd else []
    es = x.element_size()
    g = geometry(list(x.shape), list(x.stride()), es, kstrides, torch.empty((), dtype=out_dtype).element_size(),
                 reduced)
    imax = 2**31 - 1
    if g.numel > imax or 1 + sum((n - 1) * s for n, s in zip(g.shape, g.istr)) > imax:
        return None  # CUDA's with_32bit_indexing sub-iterators: not modelled
    c = config(g, es, address, sms, max_threads_per_sm, warp)
    acc = np.float64 if x.dtype == torch.float64 else np.float32
    M, N = c.num_outputs, c.num_inputs
    nr = g.num_reduce_dims
    V = input_vec_size(es)
    if c.vectorize_input and c.step_input * V > N or not c.vectorize_input and c.step_input > N:
        return None  # a thread past the input (its value undefined in Reduce.cuh): never seen; refused
    if c.vectorize_input and c.block_width < V:
        return None
    # the input as (M outputs, N inputs): iterator dimensions reversed (dimension 0 the fastest)
    src = x.detach()
    base = src.view(torch.int16) if es == 2 else src
    mem = base.numpy()
    if es == 2:
        mem = mem.view(_np_dtype(x.dtype))
    flat_shape = tuple(reversed(g.shape)) if g.shape else ()
    flat_str = tuple(s for s in reversed(g.istr)) if g.shape else ()
    view = np.lib.stride_tricks.as_strided(mem, shape=flat_shape, strides=flat_str, writeable=False)
    Xm = view.reshape(M, N)  # a view where the strides allow; converted to acc a block at a time
    shifts = None
    if c.vectorize_input:
        offs = np.zeros(1, dtype=np.int64)
        for d in range(g.ndim - 1, nr - 1, -1):  # output dimensions, the slowest first
            offs = (offs[:, None] + np.arange(g.shape[d], dtype=np.int64)[None, :] * g.istr[d]).reshape(-1)
        align = V * es
        shifts = ((address + offs) % align) // es
    r = reduce_rows(Xm, c, acc, shifts, V)
    if mean:
        if acc is np.float32:
            factor = np.float32(np.float32(M) / np.float32(g.numel))
        else:
            factor = np.float64(M) / np.float64(g.numel)
        r = (r * factor).astype(acc)
    with np.errstate(over="ignore"):  # float16 past 65504: inf, as __float2half gives
        out = r.astype(_np_dtype(out_dtype))
    # the results into the output's places (its iterator strides, the contiguous keepdim layout)
    res = np.zeros(int(np.prod(kshape, dtype=np.int64)) if kshape else 1, dtype=out.dtype)
    if g.ndim > nr:
        oshape = tuple(reversed(g.shape[nr:]))
        ostr = tuple(reversed(g.ostr[nr:]))  # bytes, the result's item size (res has the same)
        np.lib.stride_tricks.as_strided(res, shape=oshape, strides=ostr)[...] = out.reshape(oshape)
    else:
        res[...] = out[0]
    shape = kshape if keepdim else [x.shape[d] for d in range(nd) if not reduced[d]]
    return res.reshape(shape)


# ---------------------------------------------------------------------------
# tc5.device's hook: torch.sum / torch.mean (functions and methods) on the shim's tensors
# ---------------------------------------------------------------------------

_funcs = None
_device_props = None
_LIBRARY_OPS = ("sum", "sum.dim_IntList", "sum.IntList_out", "mean", "mean.dim", "mean.out")


def functions() -> dict:
    """{torch function: True for a mean} that from_torch_function takes"""
    global _funcs
    if _funcs is None:
        import torch
        _funcs = {torch.sum: False, torch.Tensor.sum: False, torch.mean: True, torch.Tensor.mean: True}
    return _funcs


MODELLED_TORCH = (2, 11)  # the oldest PyTorch whose CUDA reduction this module is validated against (the H200's)


def modelled_torch(version=None) -> bool:
    """whether the installed PyTorch's CUDA reduction is the one modelled: 2.11 (the H200's, measured) and later
    (2.15's Reduce.cuh and kernel names are 2.11's in every respect modelled). Earlier releases are not validated
    (PyTorch #164790, October 2025, turned the warp shuffles' offsets from increasing to decreasing): their sums
    stay the CPU's"""
    import torch
    v = (version or torch.__version__).split("+")[0].split(".")
    try:
        return (int(v[0]), int(v[1])) >= MODELLED_TORCH
    except (ValueError, IndexError):
        return False


def _props():
    global _device_props
    if _device_props is None:
        from .torch_cuda import _spec
        s = _spec()
        _device_props = (s["multi_processor_count"], s["max_threads_per_multi_processor"], s["warp_size"])
    return _device_props


def _parse(args, kwargs):
    """(input, dims or None, keepdim) of a sum/mean call, or None where it is not one this hook takes (out=,
    named or empty dimension lists, unknown arguments)"""
    import torch
    if not args or len(args) > 3:
        return None
    kw = dict(kwargs or {})
    if "axis" in kw:
        if "dim" in kw:
            return None
        kw["dim"] = kw.pop("axis")
    if set(kw) - {"dim", "keepdim", "dtype"}:
        return None
    x = args[0]
    dim = args[1] if len(args) > 1 else kw.get("dim")
    keepdim = args[2] if len(args) > 2 else kw.get("keepdim", False)
    if len(args) > 1 and "dim" in kw or len(args) > 2 and "keepdim" in kw:
        return None
    if isinstance(dim, torch.dtype):  # Tensor.sum(dtype) read as a dimension: PyTorch's to answer
        return None
    if dim is not None:
        if isinstance(dim, int) and not isinstance(dim, bool):
            dim = (dim,)
        elif isinstance(dim, (list, tuple, torch.Size)) and dim and all(
                isinstance(d, int) and not isinstance(d, bool) for d in dim):
            dim = tuple(dim)
        else:
            return None
    if not isinstance(keepdim, bool):
        return None
    return x, dim, keepdim


def _plain(x) -> bool:
    import torch
    if type(x) is not torch.Tensor and not isinstance(x, torch.nn.Parameter):
        return False
    if x.layout != torch.strided or x.is_meta or x.is_nested or x.is_quantized:
        return False
    if torch._C._functorch.is_functorch_wrapped_tensor(x) or torch._is_functional_tensor(x):
        return False
    return True


def _other_dispatch_modes(own) -> bool:
    from torch.utils._python_dispatch import _get_current_dispatch_mode_stack
    return any(m is not own for m in _get_current_dispatch_mode_stack())


def from_torch_function(func, args, kwargs, own_mode=None, library_kernel=None):
    """the shim's TorchFunctionMode's call of torch.sum/Tensor.sum/torch.mean/Tensor.mean (tc5.device): PyTorch's
    result (its shape, type and autograd graph; autocast's dtype included) with CUDA's values written into it,
    or NotImplemented where the call is not one this module takes (a library's CUDA kernel for the operator, a
    dispatch mode of the program's (a CUDA graph's capture among them), a tensor subclass or transform); the
    result of a case cuda_reduce does not define is PyTorch's CPU one"""
    import torch
    mean = functions()[func]
    p = _parse(args, kwargs)
    if p is None:
        return NotImplemented
    x, dims, keepdim = p
    if not isinstance(x, torch.Tensor) or not _plain(x) or _other_dispatch_modes(own_mode):
        return NotImplemented
    if library_kernel is not None and any(library_kernel(op) for op in _LIBRARY_OPS):
        return NotImplemented  # FlagGems' sum/mean: its kernel, as on a GPU
    ref = func(*args, **(kwargs or {}))
    if not isinstance(ref, torch.Tensor) or type(ref) is not torch.Tensor:
        return ref
    nd = x.dim()
    dims = tuple(range(nd)) if dims is None else tuple(sorted(d % nd for d in dims)) if nd else ()
    return write_cuda_values(ref, x, dims, keepdim, mean)


def write_cuda_values(ref, x, dims, keepdim, mean=False, library_kernel=None):
    """ref (PyTorch's result of x.sum/mean over dims, normalised) with CUDA's values written into it (in place,
    no autograd record), where cuda_reduce defines them and no library registered its own CUDA sum/mean
    (library_kernel: tc5.device's); a CPU kernel standing for a CUDA one whose body sums (trace) calls it"""
    import torch
    if library_kernel is not None and any(library_kernel(op) for op in _LIBRARY_OPS):
        return ref
    if not modelled_torch():
        return ref
    sms, threads, warp = _props()
    r = cuda_reduce(x.detach(), dims, keepdim, ref.dtype, mean=mean, sms=sms, max_threads_per_sm=threads, warp=warp)
    if r is None or tuple(r.shape) != tuple(ref.shape):
        return ref
    flat = np.ascontiguousarray(r).reshape(-1)
    t = (torch.from_numpy(flat.view(np.int16)).view(ref.dtype) if r.itemsize == 2 else torch.from_numpy(flat))
    with torch.no_grad():
        ref.copy_(t.reshape(ref.shape))
    return ref
