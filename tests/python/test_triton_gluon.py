"""tc5 as Triton's driver with Gluon (split from test_triton_driver.py so
that a Triton without Gluon, 3.3 and 3.4, skips only these: issue 52): a
checker finding in a Gluon MMA kernel, and two M = 64 accumulators in one
Tensor Memory allocation. NumPy only; skipped without triton's Gluon."""
import os
import warnings

import numpy as np
import pytest

triton = pytest.importorskip("triton")
import tc5  # noqa: E402
import tc5.triton  # noqa: E402

tc5.triton.activate()


def names_line_of(msg: str, kernel) -> bool:
    """whether msg names a line of this file (test_triton_driver.py's helper)"""
    import re
    return re.search(re.escape(__file__) + r":\d+", msg) is not None

# ---- Gluon: a checker finding, and two M = 64 accumulators in one allocation ----

gluon = pytest.importorskip("triton.experimental.gluon")
try:  # the Gluon API of 3.9 (3.4-3.8 name some of it otherwise: issue 52 runs these under every release)
    from triton.experimental.gluon import language as gl  # noqa: E402
    from triton.experimental.gluon.nvidia.hopper import TensorDescriptor as GlDescriptor  # noqa: E402
    from triton.experimental.gluon.language.nvidia.blackwell import (  # noqa: E402
        TensorMemoryLayout, allocate_tensor_memory, tcgen05_mma, tcgen05_commit, mbarrier, tma, fence_async_shared)
except ImportError as e:
    pytest.skip(f"this Triton's Gluon lacks the API these tests use ({e})", allow_module_level=True)
if not hasattr(tma, "async_load"):  # 3.5-3.7: tma.async_copy_global_to_shared
    pytest.skip("this Triton's Gluon has no tma.async_load (3.8's name)", allow_module_level=True)


@gluon.jit
def gl_mma_kernel(a_desc, b_desc, d_desc, CLOBBER: gl.constexpr):
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=1)
    a_smem = gl.allocate_shared_memory(a_desc.dtype, a_desc.block_type.shape, a_desc.layout)
    b_smem = gl.allocate_shared_memory(b_desc.dtype, b_desc.block_type.shape, b_desc.layout)
    mbarrier.expect(bar, a_desc.block_type.nbytes + b_desc.block_type.nbytes)
    tma.async_load(a_desc, [0, 0], bar, a_smem)
    tma.async_load(b_desc, [0, 0], bar, b_smem)
    mbarrier.wait(bar, phase=0)
    mbarrier.invalidate(bar)
    mbarrier.init(bar, count=1)
    M: gl.constexpr = d_desc.block_type.shape[0]
    N: gl.constexpr = d_desc.block_type.shape[1]
    acc = allocate_tensor_memory(gl.float32, [M, N], TensorMemoryLayout([M, N], col_stride=1))
    tcgen05_mma(a_smem, b_smem, acc, use_acc=False)
    tcgen05_commit(bar)
    if CLOBBER:  # A rewritten (with its own values) while the MMA that reads it may run
        blocked: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [gl.num_warps(), 1], [1, 0])
        a_smem.store(a_smem.load(blocked))
    mbarrier.wait(bar, phase=0)
    d_smem = gl.allocate_shared_memory(d_desc.dtype, d_desc.block_type.shape, d_desc.layout)
    d_smem.store(acc.load())
    fence_async_shared()
    tma.async_store(d_desc, [0, 0], d_smem)
    tma.store_wait(pendings=0)


def gl_descs(a, b, d):
    return [GlDescriptor.from_tensor(tc5.triton.tensor(x), list(x.shape),
                                     gl.NVMMASharedLayout.get_default_for(list(x.shape), t))
            for x, t in ((a, gl.float16), (b, gl.float16), (d, gl.float32))]


def test_gluon_mma_and_a_checker_finding():
    rng = np.random.default_rng(4)
    a = rng.standard_normal((128, 64)).astype(np.float16)
    b = rng.standard_normal((64, 128)).astype(np.float16)
    d = np.zeros((128, 128), dtype=np.float32)
    gl_mma_kernel[(1,)](*gl_descs(a, b, d), CLOBBER=False, num_warps=4)
    ref = tc5.gemm(a, b, kind="f16").view(np.uint32)
    assert np.array_equal(d.view(np.uint32), ref)
    # A's shared memory rewritten while the MMA may read it: a finding, naming both lines
    d[:] = 0
    with pytest.raises(tc5.HazardError) as e:
        gl_mma_kernel[(1,)](*gl_descs(a, b, d), CLOBBER=True, num_warps=4)
    msg = str(e.value)
    assert "smem-overwrite-inflight" in msg and "gl_mma_kernel.ptx:" in msg
    assert names_line_of(msg, gl_mma_kernel)
    f = e.value.findings[0]
    assert f["src"].startswith(__file__) and f["src2"].startswith(__file__)
    assert np.array_equal(d.view(np.uint32), ref)  # tc5 runs in issue order: the result stands
    # TC5_TRITON_FINDINGS=warn: a warning, the run goes on
    os.environ["TC5_TRITON_FINDINGS"] = "warn"
    try:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            gl_mma_kernel[(1,)](*gl_descs(a, b, d), CLOBBER=True, num_warps=4)
        assert any("smem-overwrite-inflight" in str(x.message) for x in w)
    finally:
        del os.environ["TC5_TRITON_FINDINGS"]


@gluon.jit
def gl_two_accumulators_kernel(a_desc, b_desc, c_desc, d_desc):
    # two M = 64 accumulators in one allocation: lanes 0-15 and 16-31 of each quarter
    bar = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    mbarrier.init(bar.index(0), count=1)
    mbarrier.init(bar.index(1), count=1)
    a_smem = gl.allocate_shared_memory(a_desc.dtype, a_desc.block_type.shape, a_desc.layout)
    c_smem = gl.allocate_shared_memory(c_desc.dtype, c_desc.block_type.shape, c_desc.layout)
    b_smem = gl.allocate_shared_memory(b_desc.dtype, b_desc.block_type.shape, b_desc.layout)
    mbarrier.expect(bar.index(0), a_desc.block_type.nbytes * 2 + b_desc.block_type.nbytes)
    tma.async_load(a_desc, [0, 0], bar.index(0), a_smem)
    tma.async_load(c_desc, [0, 0], bar.index(0), c_smem)
    tma.async_load(b_desc, [0, 0], bar.index(0), b_smem)
    mbarrier.wait(bar.index(0), phase=0)
    mbarrier.invalidate(bar.index(0))
    mbarrier.init(bar.index(0), count=1)
    layout: gl.constexpr = TensorMemoryLayout([64, 64], col_stride=1)
    u = allocate_tensor_memory(gl.float32, [64, 64], layout)
    v = allocate_tensor_memory(gl.float32, [64, 64], layout)
    tcgen05_mma(a_smem, b_smem, u, use_acc=False)
    tcgen05_commit(bar.index(0))
    tcgen05_mma(c_smem, b_smem, v, use_acc=False)
    tcgen05_commit(bar.index(1))
    mbarrier.wait(bar.index(0), phase=0)
    u_val = u.load()  # v's MMA may still run: other lanes of the same columns
    mbarrier.wait(bar.index(1), phase=0)
    d_smem = gl.allocate_shared_memory(d_desc.dtype, d_desc.block_type.shape, d_desc.layout)
    d_smem.store(u_val)
    fence_async_shared()
    tma.async_store(d_desc, [0, 0], d_smem)
    tma.store_wait(pendings=0)
    d_smem.store(v.load())
    fence_async_shared()
    tma.async_store(d_desc, [64, 0], d_smem)
    tma.store_wait(pendings=0)


def test_gluon_two_m64_accumulators_share_columns():
    rng = np.random.default_rng(5)
    a = rng.standard_normal((64, 64)).astype(np.float16)
    c = rng.standard_normal((64, 64)).astype(np.float16)
    b = rng.standard_normal((64, 64)).astype(np.float16)
    d = np.zeros((128, 64), dtype=np.float32)
    lay = gl.NVMMASharedLayout.get_default_for([64, 64], gl.float16)
    descs = [GlDescriptor.from_tensor(tc5.triton.tensor(x), [64, 64], lay) for x in (a, b, c)]
    dd = GlDescriptor.from_tensor(tc5.triton.tensor(d), [64, 64],
                                  gl.NVMMASharedLayout.get_default_for([64, 64], gl.float32))
    gl_two_accumulators_kernel[(1,)](descs[0], descs[1], descs[2], dd, num_warps=4)
    ref = np.concatenate([tc5.gemm(a, b, kind="f16"), tc5.gemm(c, b, kind="f16")])
    assert np.array_equal(d.view(np.uint32), ref.view(np.uint32))
