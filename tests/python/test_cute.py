"""NVIDIA's Blackwell CuTe DSL examples (NVIDIA/cutlass
examples/python/CuTeDSL/cute/blackwell, committed under
tests/data/cute/cutlass_examples) compiled by CuTe DSL for sm_100a and run on
tc5 through tc5.cute: each output bit for bit tc5.gemm's of the same inputs,
and no checker finding (a finding raises tc5.HazardError).

What changes against the examples' own run(): the tensors are NumPy arrays
(from_dlpack as the examples do; fp8 bytes written from ml_dtypes rather than
by a conversion kernel), max_active_clusters is the B200's 148 SMs over the
cluster size (utils.HardwareInfo asks a GPU), the stream is CUstream(0), and
the shapes are small. Needs nvidia-cutlass-dsl (skipped without it;
scripts/pyenv.sh installs it for scripts/test.sh) and tc5's runtime
library (built with the package)."""
import ctypes
import importlib
import inspect
import os
import sys

import ml_dtypes
import numpy as np
import pytest

import importlib.util

if importlib.util.find_spec("cutlass") is None:
    pytest.skip("nvidia-cutlass-dsl is not installed (scripts/pyenv.sh installs it)", allow_module_level=True)

import tc5  # noqa: E402
import tc5.cute  # noqa: E402

try:
    tc5.cute.activate()  # before cutlass is imported: CuTe DSL reads its environment then
except FileNotFoundError as e:  # pragma: no cover
    pytest.skip(str(e), allow_module_level=True)

import cutlass  # noqa: E402
import cutlass.cute as cute  # noqa: E402
from cutlass.cute.runtime import from_dlpack  # noqa: E402
from cuda.bindings import driver as cuda  # noqa: E402

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "data", "cute", "cutlass_examples")
sys.path.insert(0, os.path.abspath(EXAMPLES))
B200_SMS = 148


def _ints(rng, shape, dtype):
    """small integers (-2..1) of a type: every product and sum exact, so any
    error is a wrong element, not rounding"""
    return rng.integers(-2, 2, shape).astype(np.float32).astype(dtype)


def _bits(x):
    return np.ascontiguousarray(x).view(np.uint8 if x.dtype.itemsize == 1 else np.uint16)


# ---------------------------------------------------------------------------
# the tutorial GEMMs: host_function(a, b, c[, max_active_clusters...]), K-major f16
# ---------------------------------------------------------------------------

TUTORIALS = [
    ("fp16_gemm_0", (128, 256, 64)),   # one CTA, 1-CTA MMA 128x256
    ("fp16_gemm_1", (256, 256, 128)),  # 2-CTA MMA 256x256, cluster (2,1)
    ("fp16_gemm_2", (256, 256, 128)),  # + warp specialisation, TMA store epilogue
    ("fp16_gemm_3", (256, 512, 128)),  # + persistent static scheduler, two tiles
    ("fp16_gemm_3_1", (256, 512, 128)),  # + CLC dynamic scheduler
    ("fp16_gemm_4", (256, 512, 128)),  # + preferred / fallback clusters
    ("fp16_gemm_5", (256, 128, 128)),  # cluster (2,2), 256x64 tiles, multicast
]


@pytest.mark.parametrize("name,mnk", TUTORIALS, ids=[t[0] for t in TUTORIALS])
def test_tutorial_fp16(name, mnk):
    g = importlib.import_module(name)
    m, n, k = mnk
    rng = np.random.default_rng(hash(name) & 0xFFFF)
    a = tc5.cute.asarray(_ints(rng, (m, k), np.float16))
    b = tc5.cute.asarray(_ints(rng, (n, k), np.float16))
    c = tc5.cute.empty((m, n), np.float16)
    args = [from_dlpack(x, assumed_align=32).mark_layout_dynamic(leading_dim=1) for x in (a, b, c)]
    fn = g.host_function
    params = list(inspect.signature(getattr(fn, "__wrapped__", fn)).parameters)
    extra = [B200_SMS // 2] * (len(params) - 3)  # max_active_clusters for clusters of 2
    before = tc5.cute.launches()
    compiled = cute.compile(fn, *args, *extra)
    compiled(*args)
    assert tc5.cute.launches() == before + 1
    ref = tc5.gemm(a, b.T, kind="f16").astype(np.float16)
    assert np.array_equal(_bits(ref), _bits(c)), f"{name}: {np.count_nonzero(_bits(ref) != _bits(c))} elements differ"


# ---------------------------------------------------------------------------
# dense_gemm and dense_gemm_persistent: (m, k, l) tensors as cutlass.torch.matrix lays them out
# ---------------------------------------------------------------------------

_CUTLASS = {np.dtype(np.float16): cutlass.Float16, np.dtype(ml_dtypes.bfloat16): cutlass.BFloat16,
            np.dtype(np.float32): cutlass.Float32, np.dtype(ml_dtypes.float8_e4m3fn): cutlass.Float8E4M3FN,
            np.dtype(ml_dtypes.float8_e5m2): cutlass.Float8E5M2}


def _matrix(rng, l, mode0, mode1, mode0_major, dtype, values=True):
    """(cute tensor, NumPy view (mode0, mode1, l)) as cutlass.torch.matrix and
    cute_tensor_like make them: an (l, mode1, mode0) or (l, mode0, mode1)
    buffer permuted"""
    shape = (l, mode1, mode0) if mode0_major else (l, mode0, mode1)
    perm = (2, 1, 0) if mode0_major else (1, 2, 0)
    buf = tc5.cute.asarray(_ints(rng, shape, dtype)) if values else tc5.cute.empty(shape, dtype)
    view = buf.transpose(perm)
    dt = np.dtype(dtype)
    # DLPack carries no ml_dtypes type: the same bytes as unsigned integers, the element type set after
    src = view if dt in (np.dtype(np.float16), np.dtype(np.float32)) else view.view(f"u{dt.itemsize}")
    t = from_dlpack(src, assumed_align=16)
    t.element_type = _CUTLASS[dt]
    return t.mark_layout_dynamic(leading_dim=0 if mode0_major else 1), view


def _ref(a, b, kind, out_dtype):
    """D[m, n, l] = sum_k A[m, k, l] B[n, k, l] by tc5.gemm, rounded to the output type"""
    outs = [tc5.gemm(np.ascontiguousarray(a[:, :, i]), np.ascontiguousarray(b[:, :, i].T), kind=kind)
            for i in range(a.shape[2])]
    return np.stack(outs, axis=2).astype(np.float32).astype(out_dtype)


DENSE = [
    # name, module, 2cta, mma tiler, cluster, tma store, (m, n, k, l), ab, c
    ("dense_1cta", "dense_gemm", False, (128, 128), (1, 1), True, (128, 256, 128, 1), np.float16, np.float16),
    ("dense_2cta", "dense_gemm", True, (256, 128), (2, 1), True, (256, 256, 128, 1), np.float16, np.float16),
    ("dense_1cta_batched_bf16", "dense_gemm", False, (128, 64), (1, 1), False, (128, 128, 64, 2),
     ml_dtypes.bfloat16, np.float32),
    ("dense_2cta_e4m3", "dense_gemm", True, (256, 128), (2, 1), True, (256, 128, 128, 1),
     ml_dtypes.float8_e4m3fn, np.float16),
    ("persistent_1cta", "dense_gemm_persistent", False, (128, 128), (1, 1), True, (256, 256, 128, 1), np.float16,
     np.float16),
    ("persistent_2cta", "dense_gemm_persistent", True, (256, 128), (2, 1), True, (256, 256, 128, 1), np.float16,
     np.float16),
    ("persistent_2cta_cluster4", "dense_gemm_persistent", True, (256, 128), (2, 2), True, (512, 256, 64, 1),
     np.float16, np.float16),
]


@pytest.mark.parametrize("case", DENSE, ids=[d[0] for d in DENSE])
def test_dense_gemm(case):
    name, module, two_cta, tiler, cluster, tma_store, (m, n, k, l), ab, cdt = case
    g = importlib.import_module(module)
    rng = np.random.default_rng(len(name))
    a_t, a = _matrix(rng, l, m, k, False, ab)
    b_t, b = _matrix(rng, l, n, k, False, ab)
    c_t, c = _matrix(rng, l, m, n, False, cdt, values=False)
    acc = cutlass.Float32
    stream = cuda.CUstream(0)
    if module == "dense_gemm":
        gemm = g.DenseGemmKernel(acc, two_cta, tiler, cluster, tma_store)
        compiled = cute.compile(gemm, a_t, b_t, c_t, stream)
        compiled(a_t, b_t, c_t, stream)
    else:
        gemm = g.PersistentDenseGemmKernel(acc, two_cta, tiler, cluster, tma_store)
        clusters = B200_SMS // (cluster[0] * cluster[1])
        compiled = cute.compile(gemm, a_t, b_t, c_t, clusters, stream)
        compiled(a_t, b_t, c_t, stream)
    kind = "f8f6f4" if np.dtype(ab).itemsize == 1 else "f16"
    ref = _ref(a, b, kind, cdt)
    got = np.ascontiguousarray(c)
    assert np.array_equal(ref.view(np.uint8), got.view(np.uint8)), \
        f"{name}: {np.count_nonzero(ref != got)} elements differ"


# ---------------------------------------------------------------------------
# bad input: a Python exception naming it, never a crash
# ---------------------------------------------------------------------------

def _T(x, align=32, leading_dim=1):
    return from_dlpack(x, assumed_align=align).mark_layout_dynamic(leading_dim=leading_dim)


_GEMM0 = {}


def _gemm0():
    """fp16_gemm_0 compiled once for K-major f16 a (128x64), b (256x64), c
    (128x256), 32-byte aligned, dynamic extents: (compiled, a, b, c)"""
    if not _GEMM0:
        g = importlib.import_module("fp16_gemm_0")
        a, b, c = (tc5.cute.empty(s, np.float16) for s in ((128, 64), (256, 64), (128, 256)))
        _GEMM0["f"] = (cute.compile(g.host_function, _T(a), _T(b), _T(c)), a, b, c)
    return _GEMM0["f"]


def _refused(exc, match, *args):
    """the compiled fp16_gemm_0 called with args: exc naming them, no kernel
    launched, c untouched"""
    f, _, _, c = _gemm0()
    c[:] = 7
    before = tc5.cute.launches()
    with pytest.raises(exc, match=match) as e:
        f(*args)
    assert tc5.cute.launches() == before and (c == 7).all()
    assert isinstance(e.value, tc5.Error) and e.value.messages == [str(e.value)]
    return str(e.value)


def test_misaligned_tensor_named():
    """a tensor off the alignment the compiled function assumes (32 bytes), even
    one whose own assumed_align (16) CuTe DSL accepts: tc5.AlignmentError"""
    f, a, b, c = _gemm0()
    raw = tc5.cute.empty((128 * 64 + 8,), np.float16)
    off = raw[8:].reshape(128, 64)  # 16 bytes past a 256-byte boundary
    _refused(tc5.AlignmentError, "argument 'a': not 32-byte aligned as compiled", _T(off, 16), _T(b), _T(c))
    with pytest.raises(Exception, match="aligned"):  # CuTe DSL's own check of its assumed_align
        f(_T(off), _T(b), _T(c))


def test_wrong_dtype_named():
    """a float32 tensor where the function was compiled for float16: CuTe DSL
    would hand the kernel the bytes; tc5.InvalidArgumentError names the
    argument, both element types and both layouts"""
    _, a, b, c = _gemm0()
    msg = _refused(tc5.InvalidArgumentError, "argument 'b': element type Float32, not Float16",
                   _T(a), _T(tc5.cute.empty((256, 64), np.float32)), _T(c))
    assert "compiled for a Float16 tensor of rank 2, layout generic o (?,?):(?{i64},1)" in msg
    assert "given a Float32 tensor of rank 2" in msg and "((256,64):(64,1) here)" in msg
    # a NumPy array passed as it is goes through CuTe DSL's TensorAdapter: checked the same
    _refused(tc5.InvalidArgumentError, "argument 'c': element type Float32, not Float16",
             a, b, tc5.cute.empty((128, 256), np.float32))


def test_wrong_major_rank_and_static_layout_named():
    """an M-major a where K-major was compiled, a tensor of rank 3, a static
    layout where the extents were compiled dynamic, and None: each names the
    argument and the mode that differs"""
    _, a, b, c = _gemm0()
    m_major = tc5.cute.empty((64, 128), np.float16).T
    _refused(tc5.InvalidArgumentError, r"argument 'a': mode 0's stride is 1, not dynamic.*\(128,64\):\(1,128\) here",
             _T(m_major, leading_dim=0), _T(b), _T(c))
    _refused(tc5.InvalidArgumentError, "argument 'c': rank 3, not 2",
             _T(a), _T(b), _T(tc5.cute.empty((1, 128, 256), np.float16), leading_dim=2))
    _refused(tc5.InvalidArgumentError, "argument 'a': mode 0's extent is 128, not dynamic",
             from_dlpack(a, assumed_align=32), _T(b), _T(c))
    _refused(tc5.InvalidArgumentError, "argument 'b': not a tensor or pointer.*given NoneType", _T(a), None, _T(c))


def test_pointer_and_fake_tensor_arguments_checked():
    """a pointer (make_ptr) of another element type or off its alignment, and a
    tensor against a fake tensor's SymInt divisibility and static modes"""
    from cutlass.cute.runtime import make_fake_compact_tensor, make_ptr

    @cute.jit
    def takes_ptr(p: cute.Pointer, n: cutlass.Int32):
        pass

    @cute.jit
    def takes_tensor(t: cute.Tensor):
        pass

    x = tc5.cute.empty((64,), np.float16)
    P = lambda t, addr, al: make_ptr(t, addr, cute.AddressSpace.gmem, assumed_align=al)  # noqa: E731
    fp = cute.compile(takes_ptr, P(cutlass.Float16, x.ctypes.data, 16), 4)
    fp(P(cutlass.Float16, x.ctypes.data, 16), 4)
    with pytest.raises(tc5.InvalidArgumentError, match="argument 'p': element type Float32, not Float16"):
        fp(P(cutlass.Float32, x.ctypes.data, 16), 4)
    with pytest.raises(tc5.AlignmentError, match="argument 'p': not 16-byte aligned"):
        fp(P(cutlass.Float16, x.ctypes.data + 2, 2), 4)
    ft = cute.compile(takes_tensor, make_fake_compact_tensor(cutlass.Float16, (cute.sym_int64(divisibility=16), 64),
                                                             stride_order=(1, 0), assumed_align=16))
    D = lambda rows, div: from_dlpack(tc5.cute.empty((rows, 64), np.float16),  # noqa: E731
                                      assumed_align=16).mark_compact_shape_dynamic(0, divisibility=div)
    ft(D(32, 16))
    with pytest.raises(tc5.InvalidArgumentError, match="argument 't': mode 0's extent 40 is no multiple of 16"):
        ft(D(40, 8))
    with pytest.raises(tc5.InvalidArgumentError, match="argument 't': mode 0's extent is 32, not dynamic"):
        ft(from_dlpack(tc5.cute.empty((32, 64), np.float16), assumed_align=16))


def test_tensor_map_rule_named():
    """cuTensorMapEncodeTiled through tc5's runtime: a broken rule returns an
    error and names the parameter, the value and the rule"""
    import ctypes
    lib = tc5.cute._load()
    lib.tc5cute_clear_error()
    a = tc5.cute.empty((64, 64), np.float16)
    dims = (ctypes.c_uint64 * 2)(64, 64)
    strides = (ctypes.c_uint64 * 1)(128)
    box = (ctypes.c_uint32 * 2)(65, 64)  # 65 * 2 bytes: more than the 128B swizzle's row
    es = (ctypes.c_uint32 * 2)(1, 1)
    out = (ctypes.c_uint8 * 128)()
    f = lib._cuTensorMapEncodeTiled
    f.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                  ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int]
    assert f(out, 6, 2, a.ctypes.data, dims, strides, box, es, 0, 3, 2, 0) == 1
    assert b"boxDim" in lib.tc5cute_last_error()
    box[0] = 64
    assert f(out, 6, 2, a.ctypes.data, dims, strides, box, es, 0, 3, 2, 0) == 0
    lib.tc5cute_clear_error()


def test_kernel_tc5_refuses_is_named():
    """a kernel whose PTX tc5 cannot load raises the tc5.Error of its status,
    naming the line; no launch happens"""
    lib = tc5.cute._load()
    lib.tc5cute_clear_error()
    assert lib.tc5cute_register_ptx(b".version 8.7\n.target sm_100a\n.address_size 64\n"
                                    b".visible .entry k() { frobnicate.b32; ret; }\n", b"bad.ptx") != 0
    with pytest.raises(tc5.Error) as e:
        tc5.cute._raise_pending()
    assert "bad.ptx" in str(e.value) and "frobnicate" in str(e.value)


# ---------------------------------------------------------------------------
# dense_blockscaled_gemm_persistent: NVFP4 (e2m1, ue4m3 per 16) and MXFP8 (e4m3, ue8m0 per 32)
# ---------------------------------------------------------------------------

def _swizzle_scales(sf: np.ndarray) -> np.ndarray:
    """scale factors (rows, kg) in the layout create_and_reorder_scale_factor_tensor
    makes (M32x4xrm_K4xrk, l = 1): factor (r, g) of tile (r // 128, g // 4)
    at (r % 32) * 16 + (r % 128 // 32) * 4 + g % 4 of the tile's 512"""
    rows, kg = sf.shape
    mt, kt = -(-rows // 128), -(-kg // 4)
    out = tc5.cute.empty((mt * kt * 512,), np.uint8)
    r = np.arange(rows)[:, None]
    g = np.arange(kg)[None, :]
    tile = (r // 128) * kt + g // 4
    out[tile * 512 + (r % 32) * 16 + (r % 128 // 32) * 4 + g % 4] = sf
    return out


BLOCKSCALED = [
    # name, sf_vec, tiler, cluster, (m, n, k)
    ("nvfp4_1cta", 16, (128, 128), (1, 1), (128, 256, 256)),
    ("nvfp4_2cta", 16, (256, 128), (2, 1), (256, 256, 256)),
    ("mxfp8_1cta", 32, (128, 128), (1, 1), (128, 256, 256)),
    ("mxfp8_2cta", 32, (256, 128), (2, 1), (256, 256, 256)),
]


@pytest.mark.parametrize("case", BLOCKSCALED, ids=[b[0] for b in BLOCKSCALED])
def test_blockscaled_gemm(case):
    pytest.importorskip("torch")  # NVIDIA's example imports it (TC5_PY_TORCH=1 scripts/test.sh installs it)
    from cutlass.cute.runtime import make_ptr
    name, vec, tiler, cluster, (m, n, k) = case
    g = importlib.import_module("dense_blockscaled_gemm_persistent")
    fp4 = vec == 16
    rng = np.random.default_rng(len(name) * 7)
    ab_t = cutlass.Float4E2M1FN if fp4 else cutlass.Float8E4M3FN
    sf_t = cutlass.Float8E4M3FN if fp4 else cutlass.Float8E8M0FNU
    if fp4:  # e2m1 codes, two a byte (the first element in the low nibble), K-major
        a_codes = rng.integers(0, 16, (m, k)).astype(np.uint8)
        b_codes = rng.integers(0, 16, (n, k)).astype(np.uint8)
        a = tc5.cute.asarray(a_codes[:, 0::2] | (a_codes[:, 1::2] << 4))
        b = tc5.cute.asarray(b_codes[:, 0::2] | (b_codes[:, 1::2] << 4))
        sfa = rng.integers(0x30, 0x41, (m, k // vec)).astype(np.uint8)  # ue4m3 0.5 .. 2.25
        sfb = rng.integers(0x30, 0x41, (n, k // vec)).astype(np.uint8)
    else:
        a_codes = _ints(rng, (m, k), ml_dtypes.float8_e4m3fn)
        b_codes = _ints(rng, (n, k), ml_dtypes.float8_e4m3fn)
        a, b = tc5.cute.asarray(a_codes.view(np.uint8)), tc5.cute.asarray(b_codes.view(np.uint8))
        sfa = rng.integers(125, 130, (m, k // vec)).astype(np.uint8)  # ue8m0 2^-2 .. 2^2
        sfb = rng.integers(125, 130, (n, k // vec)).astype(np.uint8)
    c = tc5.cute.empty((m, n), np.float16)
    sfa_s, sfb_s = _swizzle_scales(sfa), _swizzle_scales(sfb)
    gemm = g.Sm100BlockScaledPersistentDenseGemmKernel(vec, tiler, cluster)
    stream = cuda.CUstream(0)
    compiled = g.scaled_mm(gemm, ab_t, ab_t, cutlass.Float16, sf_t, "k", "k", "n",
                           B200_SMS // (cluster[0] * cluster[1]), stream)
    ptr = lambda t, x, al: make_ptr(t, x.ctypes.data, cute.AddressSpace.gmem, assumed_align=al)  # noqa: E731
    compiled(ptr(ab_t, a, 16), ptr(ab_t, b, 16), ptr(sf_t, sfa_s, 32), ptr(sf_t, sfb_s, 32),
             ptr(cutlass.Float16, c, 16), (m, n, k, 1), stream)
    if fp4:
        ref = tc5.gemm(a_codes, b_codes.T, kind="mxf4nvf4", a_type="e2m1", b_type="e2m1", scale_a=sfa,
                       scale_b=sfb.T, scale_type="ue4m3", block=16)
    else:
        ref = tc5.gemm(a_codes, b_codes.T, kind="mxf8f6f4", scale_a=sfa, scale_b=sfb.T, scale_type="ue8m0", block=32)
    ref = ref.astype(np.float32).astype(np.float16)
    assert np.array_equal(ref.view(np.uint16), c.view(np.uint16)), \
        f"{name}: {np.count_nonzero(ref.view(np.uint16) != c.view(np.uint16))} elements differ"


def _launch_through_runtime(ptx: bytes, name: bytes, out: np.ndarray, wait: int):
    """one launch of kernel `name` as CuTe DSL's host code makes it:
    _cudaLibraryLoadData, _cudaLibraryGetKernel, _cudaLaunchKernelEx with a
    cudaLaunchConfig_t (one CTA of 32 threads) and the parameters' addresses"""
    import ctypes
    lib = tc5.cute._load()
    lib.tc5cute_clear_error()
    assert lib.tc5cute_register_ptx(ptx, name + b".ptx") == 0
    library, kernel = ctypes.c_void_p(), ctypes.c_void_p()
    assert lib._cudaLibraryLoadData(ctypes.byref(library), None, None, None, 0, None, None, 0) == 0
    lib._cudaLibraryGetKernel.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p]
    assert lib._cudaLibraryGetKernel(ctypes.byref(kernel), library, name) == 0

    class Config(ctypes.Structure):
        _fields_ = [("grid", ctypes.c_uint * 3), ("block", ctypes.c_uint * 3), ("smem", ctypes.c_size_t),
                    ("stream", ctypes.c_void_p), ("attrs", ctypes.c_void_p), ("nattrs", ctypes.c_uint)]

    cfg = Config((1, 1, 1), (32, 1, 1), 0, None, None, 0)
    p_out, p_wait = ctypes.c_uint64(out.ctypes.data), ctypes.c_uint32(wait)
    args = (ctypes.c_void_p * 2)(ctypes.addressof(p_out), ctypes.addressof(p_wait))
    lib._cudaLaunchKernelEx.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
    rc = lib._cudaLaunchKernelEx(ctypes.byref(cfg), kernel, args)
    lib._cudaLibraryUnload(library)
    return rc


def test_checker_finding_raises():
    """a kernel that breaks a tcgen05 rule (docs/examples/st_unwaited.ptx: a
    tcgen05.ld of a column no tcgen05.wait::st covers) fails its launch with
    cudaErrorLaunchFailure; tc5.cute raises tc5.HazardError naming the rule
    and the PTX line; the same kernel with the wait runs"""
    path = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "examples", "st_unwaited.ptx")
    with open(path, "rb") as f:
        ptx = f.read()
    out = tc5.cute.empty((32,), np.uint32)
    assert _launch_through_runtime(ptx, b"k", out, 1) == 0
    assert (out == 7).all()
    out[:] = 0
    assert _launch_through_runtime(ptx, b"k", out, 0) == 719
    with pytest.raises(tc5.HazardError) as e:
        tc5.cute._raise_pending()
    assert "tmem-" in str(e.value) and "PTX line" in str(e.value)


NVFP4_TUTORIALS = [("nvfp4_gemm_0", (128, 256, 256)), ("nvfp4_gemm_1", (256, 256, 256))]  # _1: 2-CTA, cluster 2x1


@pytest.mark.parametrize("name,mnk", NVFP4_TUTORIALS, ids=[t[0] for t in NVFP4_TUTORIALS])
def test_tutorial_nvfp4(name, mnk):
    """the tutorials' NVFP4 GEMMs (they import torch and their package's utils at the top)"""
    pytest.importorskip("torch")
    from cutlass.cute.runtime import make_ptr
    g = importlib.import_module(name)
    m, n, k = mnk
    rng = np.random.default_rng(len(name) * 11)
    a_codes = rng.integers(0, 16, (m, k)).astype(np.uint8)
    b_codes = rng.integers(0, 16, (n, k)).astype(np.uint8)
    a = tc5.cute.asarray(a_codes[:, 0::2] | (a_codes[:, 1::2] << 4))
    b = tc5.cute.asarray(b_codes[:, 0::2] | (b_codes[:, 1::2] << 4))
    sfa = rng.integers(0x30, 0x41, (m, k // 16)).astype(np.uint8)
    sfb = rng.integers(0x30, 0x41, (n, k // 16)).astype(np.uint8)
    sfa_s, sfb_s = _swizzle_scales(sfa), _swizzle_scales(sfb)
    c = tc5.cute.empty((m, n), np.float16)
    stream = cuda.CUstream(0)
    ptr = lambda t, x, al: make_ptr(t, x.ctypes.data, cute.AddressSpace.gmem, assumed_align=al)  # noqa: E731
    args = (ptr(g.ab_dtype, a, 32), ptr(g.ab_dtype, b, 32), ptr(g.sf_dtype, sfa_s, 16), ptr(g.sf_dtype, sfb_s, 16),
            ptr(g.c_dtype, c, 16), (m, n, k, 1), stream)
    compiled = cute.compile(g.Sm100BlockScaledDenseGemmKernel(), *args)
    compiled(*args)
    ref = tc5.gemm(a_codes, b_codes.T, kind="mxf4nvf4", a_type="e2m1", b_type="e2m1", scale_a=sfa, scale_b=sfb.T,
                   scale_type="ue4m3", block=16).astype(np.float32).astype(np.float16)
    assert np.array_equal(ref.view(np.uint16), c.view(np.uint16)), \
        f"{name}: {np.count_nonzero(ref.view(np.uint16) != c.view(np.uint16))} elements differ"


def test_shape_too_small_named():
    """nvfp4_gemm_1's 2-CTA tile is 256 rows: at M = 128 the kernel stores
    past C, which tc5 stops naming the instruction and the address
    (tc5.BoundsError, not CuTe DSL's CUDA error code)"""
    with pytest.raises(tc5.BoundsError, match="st.global.*outside every buffer"):
        test_tutorial_nvfp4("nvfp4_gemm_1", (128, 256, 256))


def test_tutorial_fp16_gemm_6():
    """the tutorial's int8 B dequantised in a kernel (b_dequantized = f16(b_quantized * 2.33), f32
    product rounded to nearest) and multiplied: both outputs bit for bit (NumPy's IEEE product and
    rounding; tc5.gemm of A and the dequantised B). The example launches through a CUDA graph;
    here the compiled function is called directly"""
    g = importlib.import_module("fp16_gemm_6")
    m, n, k = 256, 256, 128
    rng = np.random.default_rng(6)
    a = tc5.cute.asarray(_ints(rng, (m, k), np.float16))
    bq = tc5.cute.asarray(rng.integers(-128, 128, (n, k)).astype(np.int8))
    bd = tc5.cute.empty((n, k), np.float16)
    c = tc5.cute.empty((m, n), np.float16)
    T = lambda x: from_dlpack(x, assumed_align=32).mark_layout_dynamic(leading_dim=1)  # noqa: E731
    args = [T(a), T(bq), T(bd), T(c)]
    stream = cuda.CUstream(0)
    compiled = cute.compile(g.host_function, *args, 2.33, B200_SMS // 2, stream)
    compiled(*args, 2.33, stream)
    bd_ref = (bq.astype(np.float32) * np.float32(2.33)).astype(np.float16)
    assert np.array_equal(bd_ref.view(np.uint16), bd.view(np.uint16))
    ref = tc5.gemm(a, bd_ref.T, kind="f16").astype(np.float16)
    assert np.array_equal(ref.view(np.uint16), c.view(np.uint16)), \
        f"{np.count_nonzero(ref.view(np.uint16) != c.view(np.uint16))} elements differ"


def test_benchmark_under_timing(monkeypatch):
    """cutlass.cute.testing.benchmark under TC5_TIMING: the predicted microseconds of the callable's launches
    on the B200 (the callable runs once); NaN for one that launches nothing through tc5"""
    import warnings
    import cutlass.cute.testing as ct
    g = importlib.import_module("fp16_gemm_0")
    rng = np.random.default_rng(7)
    a = tc5.cute.asarray(_ints(rng, (128, 64), np.float16))
    b = tc5.cute.asarray(_ints(rng, (256, 64), np.float16))
    c = tc5.cute.empty((128, 256), np.float16)
    args = [from_dlpack(x, assumed_align=32).mark_layout_dynamic(leading_dim=1) for x in (a, b, c)]
    compiled = cute.compile(g.host_function, *args)
    monkeypatch.setenv("TC5_TIMING", "b200")
    n0, s0 = tc5.cute.predicted()
    before = tc5.cute.launches()
    us = ct.benchmark(compiled, kernel_arguments=ct.JitArguments(*args), warmup_iterations=3, iterations=5)
    n1, s1 = tc5.cute.predicted()
    assert tc5.cute.launches() == before + 1 and n1 == n0 + 1  # once, predicted
    assert us == pytest.approx((s1 - s0) * 1e6) and 0 < us < 1000
    assert np.array_equal(_bits(tc5.gemm(a, b.T, kind="f16").astype(np.float16)), _bits(c))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert np.isnan(ct.benchmark(lambda: None))
    assert any("launched no kernel through tc5" in str(x.message) for x in w)


# ---------------------------------------------------------------------------
# CuTe DSL's TVM-FFI calling path (cute.compile(..., options="--enable-tvm-ffi"): Liger-Kernel's kernels)
# ---------------------------------------------------------------------------

def test_tvm_ffi_runtime_entry_points():
    """the three entry points the TVM-FFI host wrapper links against
    (bridge/cute_dsl_runtime.c, as CuTe DSL's own runtime does them): the
    library loaded once however often init is called, every device's
    callback run, a failed load raising a RuntimeError naming the CUDA error
    and leaving the state unset, unload clearing it; a CUDA error code as the
    CUDADialectError message CuTe DSL parses"""
    lib = ctypes.CDLL(tc5.cute.runtime_path())
    LOAD = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_void_p))
    EACH = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_void_p), ctypes.c_int)
    RAISE = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_char_p)
    PARTS = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p), ctypes.c_int32)
    calls, raised = [], []

    def load(out, rc=0):
        calls.append("load")
        out[0] = 0x1234 if rc == 0 else None
        return rc

    def each(p, d):
        calls.append(("device", d, p[0]))
        return 0

    init = lib.cuda_dialect_init_library_once
    init.argtypes = [ctypes.POINTER(ctypes.c_void_p), LOAD, EACH, RAISE]
    init.restype = ctypes.c_int
    raise_fn = RAISE(lambda kind, msg: raised.append((kind, msg)))
    state = ctypes.c_void_p(0)
    ok_load, ok_each = LOAD(load), EACH(each)
    assert init(ctypes.byref(state), ok_load, ok_each, raise_fn) == 0
    assert init(ctypes.byref(state), ok_load, ok_each, raise_fn) == 0
    assert state.value == 0x1234 and calls == ["load", ("device", 0, 0x1234)] and raised == []
    lib.cuda_dialect_unload_library_once.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
    state2 = ctypes.c_void_p(0)  # unloading an unset state does nothing
    lib.cuda_dialect_unload_library_once(ctypes.byref(state2))
    calls.clear()
    bad = LOAD(lambda out: load(out, 98))
    assert init(ctypes.byref(state2), bad, ok_each, raise_fn) == -1
    assert state2.value is None and calls == ["load"]
    assert raised[0][0] == b"RuntimeError" and raised[0][1].startswith(b"Got Cuda Runtime Error: "
                                                                         b"cudaErrorInvalidDeviceFunction")
    got = []
    parts_fn = PARTS(lambda kind, parts, n: got.append((kind, b"".join(parts[i] for i in range(n)))))
    lib.CuteDSLRT_TVMFFISetRaisedCudaError.argtypes = [PARTS, ctypes.c_int32]
    tc5.cute._load().tc5cute_clear_error()
    lib.CuteDSLRT_TVMFFISetRaisedCudaError(parts_fn, 719)
    assert got == [(b"CUDADialectError", b"CUDA Error Code: 719")]


@cute.kernel
def _axpy_kernel(gX: cute.Tensor, gY: cute.Tensor, gO: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    i = bidx * 128 + tidx
    gO[i] = gX[i] * 2.0 + gY[i]


@cute.jit
def _axpy(mX: cute.Tensor, mY: cute.Tensor, mO: cute.Tensor, stream: cuda.CUstream):
    _axpy_kernel(mX, mY, mO).launch(grid=(cute.size(mX, mode=[0]) // 128, 1, 1), block=(128, 1, 1), stream=stream)


def _tvm_ffi_axpy():
    pytest.importorskip("tvm_ffi")
    n = cute.sym_int(divisibility=128)
    fake = [cute.runtime.make_fake_compact_tensor(cutlass.Float32, (n,), assumed_align=16) for _ in range(3)]
    return cute.compile(_axpy, *fake, cute.runtime.make_fake_stream(use_tvm_ffi_env_stream=True),
                        options="--enable-tvm-ffi")


def test_tvm_ffi_function_on_host_arrays():
    """a function compiled for TVM-FFI (as Liger-Kernel compiles its CuTe DSL
    kernels) called with NumPy arrays: its wrapper takes them as CUDA tensors
    (before: "Mismatched Tensor ... expected device_type=cuda"), loads its
    library through cuda_dialect_init_library_once (before: "Symbols not
    found"), and its kernel runs on tc5, exactly"""
    f = _tvm_ffi_axpy()
    rng = np.random.default_rng(5)
    x, y = (tc5.cute.asarray(rng.standard_normal(256).astype(np.float32)) for _ in range(2))
    out = tc5.cute.empty((256,), np.float32)
    n0 = tc5.cute.launches()
    f(x, y, out)
    f(x, y, out)
    assert tc5.cute.launches() - n0 == 2
    np.testing.assert_array_equal(out, x * np.float32(2) + y)


def test_tvm_ffi_function_on_torch_tensors():
    """the same with PyTorch CPU tensors (the torch.cuda shim's "cuda" tensors are these)"""
    torch = pytest.importorskip("torch")
    f = _tvm_ffi_axpy()
    x, y = torch.randn(384), torch.randn(384)
    out = torch.empty(384)
    n0 = tc5.cute.launches()
    f(x, y, out)
    assert tc5.cute.launches() - n0 == 1
    assert torch.equal(out, x * 2 + y)


def test_dump_dir_missing_named(tmp_path):
    """CUTE_DSL_DUMP_DIR naming a directory that does not exist: CuTe DSL compiles, writes no PTX and does not
    create the directory (its compile options only join the path); the first call raises tc5.FileError naming the
    file and the directory, not a ParseError of the path's text"""
    import subprocess
    import textwrap
    missing = tmp_path / "missing" / "dir"
    script = textwrap.dedent(f"""
        import os, sys
        import numpy as np
        import tc5, tc5.cute
        tc5.cute.activate()
        import cutlass.cute as cute
        from cutlass.cute.runtime import from_dlpack
        sys.path.insert(0, {os.path.abspath(EXAMPLES)!r})
        import fp16_gemm_0 as g
        a, b, c = (tc5.cute.empty(s, np.float16) for s in ((128, 64), (256, 64), (128, 256)))
        T = lambda x: from_dlpack(x, assumed_align=32).mark_layout_dynamic()
        f = cute.compile(g.host_function, T(a), T(b), T(c))
        assert not os.path.isdir({str(missing)!r})
        try:
            f(T(a), T(b), T(c))
        except tc5.FileError as e:
            print("named:", e)
    """)
    env = dict(os.environ, CUTE_DSL_DUMP_DIR=str(missing))
    r = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    assert f"named: tc5.cute: the compiled function's PTX file {missing}/" in r.stdout
    assert f"the directory {missing} does not exist" in r.stdout
