"""Bad input to the package's entry points (issue 39): wrong dtypes, shapes,
strides, negative sizes, huge values, wrong Python types. Every call must
return or raise one of the documented errors (docs/python.md): tc5.Error (a
rule broken, the library's message), ValueError or TypeError (an argument the
package refuses before the library sees it), KeyError (no such descriptor
field), OverflowError (a value too large for its field or a C integer).
Never a crash, never another exception. hypothesis draws the inputs."""
import pathlib

import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import tc5

ROOT = pathlib.Path(__file__).resolve().parents[2]
ALLOWED = (tc5.Error, ValueError, TypeError, KeyError, OverflowError)
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))


def call(f, /, *args, **kwargs):
    """f(...) or one of the allowed errors; anything else fails the test (f positional-only: a
    keyword argument drawn by hypothesis, a descriptor field named "f", must reach f)"""
    try:
        return f(*args, **kwargs)
    except ALLOWED as e:
        if isinstance(e, tc5.Error):  # the library's errors carry its messages
            assert e.status.startswith("TC5_E") and isinstance(e.messages, list)
        return e


DTYPES = [np.float32, np.float16, np.int8, np.uint8, np.int32, np.uint32, np.uint16, np.uint64, np.int64,
          np.float64, np.complex64, np.bool_, ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn,
          ml_dtypes.float8_e5m2, ml_dtypes.float6_e2m3fn, ml_dtypes.float4_e2m1fn, ml_dtypes.float8_e8m0fnu]
TYPES = ["bf16", "f16", "tf32", "f32", "e4m3", "e5m2", "e2m3", "e3m2", "e2m1", "s8", "u8", "s32", "ue8m0",
         "ue4m3", "", "f64", "bogus", "\u00e9", "x" * 300]
KINDS = ["f16", "tf32", "f8f6f4", "i8", "mxf8f6f4", "mxf4", "mxf4nvf4", "", "kind::f16", "f32", "nope"]
HUGE = [-(2**63), -(2**31) - 1, -1, 0, 1, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**63, 2**64, 2**100]


@st.composite
def arrays(draw, max_dim=6):
    """an array: any dtype of DTYPES, 0 to 3 dimensions, maybe a strided view or read-only"""
    dtype = draw(st.sampled_from(DTYPES))
    shape = tuple(draw(st.lists(st.integers(0, max_dim), min_size=0, max_size=3)))
    x = np.zeros(shape, dtype=np.uint8).astype(dtype) if dtype != np.complex64 else np.zeros(shape, dtype)
    if x.size:
        raw = draw(st.binary(min_size=x.nbytes, max_size=x.nbytes))
        x = np.frombuffer(raw, dtype=np.uint8).view(x.dtype).reshape(shape).copy()
    if x.ndim == 2 and draw(st.booleans()):
        x = x.T  # another order of strides
    if x.ndim >= 1 and x.shape[0] > 1 and draw(st.booleans()):
        x = x[::2]  # strided
    if draw(st.booleans()):
        x.flags.writeable = False
    return x


def maybe(strategy):
    return st.one_of(st.none(), strategy)


@SETTINGS
@given(a=arrays(), b=arrays(), c=maybe(arrays()), kind=st.sampled_from(KINDS),
       model=st.sampled_from(["blackwell", "hopper", "ampere", ""]), a_type=maybe(st.sampled_from(TYPES)),
       b_type=maybe(st.sampled_from(TYPES)), d_type=maybe(st.sampled_from(["f32", "f16", "s32", "bf16", "x"])),
       scale_a=maybe(arrays()), scale_b=maybe(arrays()), scale_type=maybe(st.sampled_from(TYPES)),
       block=maybe(st.sampled_from([0, 1, 16, 32, 64, -16] + HUGE)), saturate=st.booleans(),
       scale_input_d=st.sampled_from([0, 1, 15, 16] + HUGE), threads=maybe(st.sampled_from([0, 1, 2, 65] + HUGE)),
       device=st.sampled_from(["cpu", "cpu", "cpu", "cuda", "tpu", ""]))
def test_gemm(a, b, c, kind, model, a_type, b_type, d_type, scale_a, scale_b, scale_type, block, saturate,
              scale_input_d, threads, device):
    r = call(tc5.gemm, a, b, c, kind=kind, model=model, a_type=a_type, b_type=b_type, d_type=d_type,
             scale_a=scale_a, scale_b=scale_b, scale_type=scale_type, block=block, saturate=saturate,
             scale_input_d=scale_input_d, threads=threads, device=device)
    if isinstance(r, np.ndarray):
        assert r.shape == (a.shape[0], b.shape[1])


SUPPORTED = [ml_dtypes.bfloat16, np.float16, np.float32, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2,
             ml_dtypes.float4_e2m1fn, np.int8, np.uint8, np.uint32]


@SETTINGS
@given(at=st.sampled_from(SUPPORTED), bt=st.sampled_from(SUPPORTED), m=st.integers(0, 3), n=st.integers(0, 3),
       k=st.sampled_from([0, 1, 8, 16, 32, 33, 64]), k2=st.sampled_from([None, 0, 16, 32]), kind=st.sampled_from(KINDS),
       d_type=maybe(st.sampled_from(["f32", "f16", "s32"])), c=st.booleans(), model=st.sampled_from(["blackwell", "hopper"]),
       a_type=maybe(st.sampled_from(TYPES[:14])), scales=st.booleans(), block=maybe(st.sampled_from([16, 32, 7])))
def test_gemm_near_valid(at, bt, m, n, k, k2, kind, d_type, c, model, a_type, scales, block):
    """2-D arrays of the supported dtypes, their K mostly agreeing: the calls
    that reach the library (its rules: K a multiple of the step, types of the kind...)"""
    a = np.zeros((m, k), dtype=at)
    b = np.zeros((k if k2 is None else k2, n), dtype=bt)
    cc = np.zeros((m, n), dtype=np.float32) if c else None
    sa = np.ones((m, max(k // (block or 32), 1)), dtype=ml_dtypes.float8_e8m0fnu) if scales else None
    sb = np.ones((max(k // (block or 32), 1), n), dtype=ml_dtypes.float8_e8m0fnu) if scales else None
    call(tc5.gemm, a, b, cc, kind=kind, model=model, d_type=d_type, a_type=a_type, b_type=a_type, scale_a=sa, scale_b=sb,
         block=block)


@SETTINGS
@given(a=arrays(max_dim=70), b=arrays(max_dim=70), c=maybe(st.sampled_from([0, 1.5, -2, 2**70, "x"])),
       kind=st.sampled_from(KINDS), a_type=maybe(st.sampled_from(TYPES)), b_type=maybe(st.sampled_from(TYPES)),
       scale_a=maybe(arrays()), scale_b=maybe(arrays()), scale_type=maybe(st.sampled_from(TYPES)),
       block=maybe(st.sampled_from([16, 32, 0, 7] + HUGE)))
def test_dot(a, b, c, kind, a_type, b_type, scale_a, scale_b, scale_type, block):
    call(tc5.dot, a, b, c, kind=kind, a_type=a_type, b_type=b_type, scale_a=scale_a, scale_b=scale_b,
         scale_type=scale_type, block=block)


def test_dot_scales_of_the_wrong_length():
    """the scale factors of a block-scaled dot: K/block codes each, no fewer
    (the extension read past a shorter array)"""
    a = np.zeros(64, dtype=ml_dtypes.float8_e4m3fn)
    one = np.ones(1, dtype=ml_dtypes.float8_e8m0fnu)
    two = np.ones(2, dtype=ml_dtypes.float8_e8m0fnu)
    value, _ = tc5.dot(a, a, kind="mxf8f6f4", scale_a=two, scale_b=two, block=32)
    assert value == 0
    for sa, sb in [(one, two), (two, one), (two[:0], two)]:
        with pytest.raises(ValueError, match="scale_"):
            tc5.dot(a, a, kind="mxf8f6f4", scale_a=sa, scale_b=sb, block=32)


FIELDS = {"smem": ["start_address", "lbo", "sbo", "base_offset", "lbo_mode", "swizzle", "fixed_46_48"],
          "idesc": ["m", "n", "atype", "btype", "dtype", "sparse", "negate_a", "transpose_b", "max_shift"],
          "zcmask": ["start_count", "first_span", "skip_span", "use_span", "column_shift", "non_zero"]}
CLASSES = {"smem": tc5.SmemDesc, "idesc": tc5.InstrDesc, "zcmask": tc5.ZcmaskDesc}
VALUES = st.one_of(st.sampled_from(HUGE), st.integers(0, 300), st.floats(allow_nan=True), st.text(max_size=3),
                   st.lists(st.integers(-2, 300), max_size=6), st.none())


@SETTINGS
@given(which=st.sampled_from(sorted(CLASSES)), fields=st.dictionaries(
    st.one_of(st.sampled_from(sum(FIELDS.values(), [])), st.text(max_size=4)), VALUES, max_size=4),
    kind=st.sampled_from(KINDS), raw=st.sampled_from(HUGE + [0x4000404000010002]))
def test_descriptors(which, fields, kind, raw):
    cls = CLASSES[which]
    kw = {"kind": kind} if which == "idesc" else {}
    d = call(cls, **{**fields, **kw})
    if isinstance(d, cls):
        call(d.encode)
        call(d.check)
        repr(d)
    d = call(cls.decode, raw, kind if which == "idesc" else None)
    if isinstance(d, cls):
        call(d.encode)


def test_descriptor_list_field_of_the_wrong_length():
    """a list field (start_count, first_span: four values) of another length
    is a ValueError naming the field (it was an IndexError)"""
    for v in ([1, 2], [1, 2, 3, 4, 5], []):
        with pytest.raises(ValueError, match="start_count"):
            tc5.ZcmaskDesc(start_count=v).encode()
    with pytest.raises(TypeError):
        tc5.ZcmaskDesc(start_count=3).encode()


KERNEL = (ROOT / "docs/examples/st_unwaited.ptx").read_text()
TMA = ROOT / "tests/data/ptx/smem_layout_sm90.ptx"
DIMS = st.one_of(st.sampled_from([1, 2, 3, 32, 64, 1024, 1025, 0] + HUGE),
                 st.lists(st.sampled_from([0, 1, 2, 32, 65535, 65536, -1, 2**32, 2**31]), min_size=0, max_size=4),
                 st.sampled_from(["x", 1.5, None]))
ARGS = st.lists(st.one_of(arrays(max_dim=40), st.none(), st.sampled_from(HUGE), st.floats(), st.binary(max_size=40),
                          st.text(max_size=3), st.builds(tc5.TensorMap, st.sampled_from(
                              ["type=u8,dims=64x32,strides=64,box=16x16", "type=bf16,dims=0,box=1", "",
                               "type=u8,dims=64,box=300", "garbage", "type=f32,dims=4x4x4x4x4x4,box=1x1"]),
                              st.one_of(st.sampled_from([0, 1, -1, 2**40]), arrays(max_dim=40))),
                          st.sampled_from([object(), [1, 2], (4, 1)])), max_size=4)


@SETTINGS
@given(text=st.one_of(st.just(KERNEL), st.text(max_size=200), st.just(KERNEL[:len(KERNEL) // 2]),
                      st.just(KERNEL.replace("32", "-1"))),
       grid=DIMS, block=DIMS, args=ARGS, entry=maybe(st.sampled_from(["k", "nope", ""])),
       shared_bytes=st.sampled_from([0, 1, 2**20] + HUGE), check=st.sampled_from(["default", "none", "strict", "x"]),
       threads=maybe(st.sampled_from([0, 1, 300] + HUGE)), cluster=maybe(DIMS))
def test_run_ptx(text, grid, block, args, entry, shared_bytes, check, threads, cluster):
    call(tc5.run_ptx, text, grid, block, args, entry=entry, shared_bytes=shared_bytes, check=check, threads=threads,
         cluster=cluster)


def test_run_ptx_dimensions_out_of_range():
    """grid, block and cluster values that are not unsigned 32-bit integers are
    refused (they wrapped: grid=-1 was a grid of 2^32 - 1 CTAs, which ran for
    hours); a grid x past CUDA's 2^31 - 1 is the library's error"""
    out = np.zeros(32, dtype=np.uint32)
    for bad in [-1, 2**32, (1, -1), (1, 1, 1, 1), 1.5]:
        with pytest.raises((ValueError, TypeError)):
            tc5.run_ptx(KERNEL, bad, 32, [out, 0])
        with pytest.raises((ValueError, TypeError)):
            tc5.run_ptx(KERNEL, 1, bad, [out, 0])
    with pytest.raises(tc5.InvalidArgumentError, match="grid x"):
        tc5.run_ptx(KERNEL, 2**31, 32, [out, 0])
    for k, v in [("shared_bytes", -1), ("threads", -1), ("shared_bytes", 2**32)]:
        with pytest.raises(ValueError, match=k):
            tc5.run_ptx(KERNEL, 1, 32, [out, 0], **{k: v})


@SETTINGS
@given(raw=st.sampled_from(HUGE), m=st.sampled_from([0, 64, 128, 256] + HUGE), n=st.sampled_from([0, 8, 256, 257] + HUGE),
       mask=st.one_of(st.text(alphabet="01x", max_size=300), st.lists(st.booleans(), max_size=300)),
       shift=st.sampled_from([0, 1, 2, 3] + HUGE), kind=st.sampled_from(KINDS), type=st.sampled_from(TYPES),
       major=st.sampled_from(["K", "MN", "", "k"]))
def test_masks_and_layouts(raw, m, n, mask, shift, kind, type, major):
    call(tc5.zcmask_show, raw, m, n)
    call(tc5.zcmask_find, m, mask, shift)
    call(tc5.layout_addr, raw, m, n, kind=kind, type=type, major=major)


@SETTINGS
@given(x=arrays())
def test_type_of(x):
    t = tc5.type_of(x)
    assert t is None or isinstance(t, str)


@SETTINGS
@given(out=arrays(max_dim=64), wait=st.sampled_from([0, 1, 2**32, -1, 2**64, 1.5, None, "x"]),
       grid=st.sampled_from([1, 2, (1, 1), (2, 1, 1), (1, 65536), 0]),
       block=st.sampled_from([1, 31, 32, 64, 1024, 1025, (32, 2), (1, 1, 65)]),
       check=st.sampled_from(["default", "none", "strict"]), buffers=st.lists(arrays(max_dim=8), max_size=2))
def test_run_ptx_kernel(out, wait, grid, block, check, buffers):
    """a kernel that loads, with arguments and launches of every sort"""
    call(tc5.run_ptx, KERNEL, grid, block, [out, wait], check=check, buffers=buffers)


TMA_TEXT = (ROOT / "tests/data/ptx/tma90/kernels.ptx").read_text()
LISTS = st.lists(st.sampled_from([0, 1, 2, 16, 24, 70, 96, 256, 257, 605, 608, 2**32, 2**40, -1]), min_size=0,
                 max_size=6).map(lambda v: "x".join(map(str, v)))


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(type=st.sampled_from(["u8", "bf16", "f32", "f64", "16u4_align8b", "tf32", "zz"]), dims=LISTS, box=LISTS,
       strides=LISTS, swizzle=maybe(st.sampled_from(["none", "32B", "64B", "128B", "128B_atom_64B", "7"])),
       extra=st.sampled_from(["", ",oob=nan", ",interleave=16B", ",l2=256B", ",estrides=1x2", ",im2col=-1/1/8/8",
                              ",offset=3", ",bogus=1"]),
       tensor=st.one_of(arrays(max_dim=64), st.sampled_from([0, 1, 5])), coords=st.lists(
           st.sampled_from([0, 4, 16, -5, -(2**31), 2**31 - 1]), min_size=5, max_size=5))
def test_run_ptx_tensor_map(type, dims, box, strides, swizzle, extra, tensor, coords):
    """a TMA load through a tensor map of any parameters (tests/data/ptx/tma90's
    tma_load_2d, as tests/python/test_ptx.py runs it)"""
    spec = f"type={type},dims={dims},box={box},strides={strides}" + (f",swizzle={swizzle}" if swizzle else "") + extra
    out = np.zeros(2560, dtype=np.uint8)
    call(tc5.run_ptx, TMA_TEXT, 1, 128, [tc5.TensorMap(spec, tensor), out, 0, 2560, 2304] + coords,
         entry="tma_load_2d", shared_bytes=3584)
