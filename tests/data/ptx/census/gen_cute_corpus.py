#!/usr/bin/env python3
"""Compile NVIDIA's CuTe DSL Blackwell examples to sm_100a PTX without a GPU and
record each kernel's launch metadata.

  python gen_cute_corpus.py --src CUTLASS_CHECKOUT --out OUTDIR [--only NAME ...] [--list]

--src is a checkout (or `git archive`) of github.com/NVIDIA/cutlass holding
examples/python/CuTeDSL/cute/blackwell/.  The example sources are read from
there at run time; nothing of them is copied here.

For each variant NAME this writes OUTDIR/NAME.ptx (the PTX CuTe DSL kept),
OUTDIR/NAME.ir.txt (the MLIR, or the part naming kernel parameters and the
launch configuration when it is large) and OUTDIR/NAME.json (entry, .params in
order with size/meaning/bytes, grid, block, cluster, dynamic smem).  Failures
go to OUTDIR/failures.txt.  See cute_corpus_common.py for how launches are captured.

Environment: nvidia-cutlass-dsl (tested 4.8.1), torch (CPU use only), gcc.
"""
import argparse
import importlib.util
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cute_corpus_common as cc  # noqa: E402

BW = "examples/python/CuTeDSL/cute/blackwell"
SMS = 148  # B200


def max_clusters(cluster_size):
    return SMS // cluster_size


# ------------------------------------------------------------------ helpers
def load(src, rel, name):
    path = os.path.join(src, BW, rel)
    root = os.path.join(src, "examples/python/CuTeDSL")
    for p in (root, os.path.dirname(path)):
        if p not in sys.path:
            sys.path.insert(0, p)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def torch_storage_dtype(cdt):
    import torch
    import cutlass
    import cutlass.torch as ct
    if cdt.width <= 8 and cdt is not cutlass.Int8 and cdt is not cutlass.Uint8:
        return torch.uint8
    if cdt is cutlass.TFloat32:
        return torch.float32
    return ct.dtype(cdt)


def fake_dyn(cdt, ndim, leading, align):
    """Fake tensor of the type from_dlpack(t, assumed_align).mark_layout_dynamic(leading) gives."""
    import cutlass.cute as cute
    from cutlass.cute.runtime import make_fake_tensor
    shape = tuple(cute.sym_int32() for _ in range(ndim))
    stride = tuple(1 if i == leading else cute.sym_int64() for i in range(ndim))
    return make_fake_tensor(cdt, shape, stride, assumed_align=align)


class Tensors:
    """Real CPU tensors for the launch, remembered for the JSON."""

    def __init__(self):
        self.info = {}
        self.keep = []

    def dyn(self, name, cdt, storage_shape, perm, leading, align, role=None):
        import torch
        from cutlass.cute.runtime import from_dlpack
        sdt = torch_storage_dtype(cdt)
        t = torch.zeros(storage_shape, dtype=sdt)
        if perm:
            t = t.permute(*perm)
        ct = from_dlpack(t, assumed_align=align, force_tf32=cdt.__name__ == "TFloat32")
        if sdt is torch.uint8 and cdt.width <= 8:
            ct.element_type = cdt
        ct = ct.mark_layout_dynamic(leading_dim=leading)
        self.keep.append(t)
        self.info[name] = cc.tensor_info(t, cdt.__name__, role)
        return ct

    def raw(self, name, cdt, nbytes, role=None, logical_shape=None):
        import torch
        t = torch.zeros((nbytes,), dtype=torch.uint8)
        self.keep.append(t)
        d = cc.tensor_info(t, cdt.__name__, role)
        if logical_shape:
            d["logical_shape"] = logical_shape
        self.info[name] = d
        return t


def stream():
    import cuda.bindings.driver as cuda
    return cuda.CUstream(0)


def fake_stream():
    from cutlass.runtime import make_fake_stream
    return make_fake_stream()


# ------------------------------------------------------------------ dense GEMM (kernel/dense_gemm)
def spec_dense_gemm(src, ab, c, acc, tiler, cluster, two_cta, mnkl=(256, 256, 512, 1), tma_store=True):
    import cutlass
    import cutlass.cute as cute
    mod = load(src, "kernel/dense_gemm/dense_gemm.py", "dense_gemm")
    ab, c, acc = (getattr(cutlass, x) for x in (ab, c, acc))
    m, n, k, l = mnkl
    T = Tensors()
    # K-major A (m,k,l), K-major B (n,k,l), N-major C (m,n,l): cutlass_torch.matrix order
    a_r = T.dyn("a", ab, (l, m, k), (1, 2, 0), 1, 16, "A (m,k,l) k-major")
    b_r = T.dyn("b", ab, (l, n, k), (1, 2, 0), 1, 16, "B (n,k,l) k-major")
    c_r = T.dyn("c", c, (l, m, n), (1, 2, 0), 1, 16, "C (m,n,l) n-major")
    gemm = mod.DenseGemmKernel(acc, two_cta, tiler, cluster, tma_store)

    def comp():
        return cute.compile(gemm, fake_dyn(ab, 3, 1, 16), fake_dyn(ab, 3, 1, 16), fake_dyn(c, 3, 1, 16),
                            fake_stream())

    return dict(compile=comp, call=lambda f: f(a_r, b_r, c_r, stream()), tensors=T.info,
                meta=dict(example=BW + "/kernel/dense_gemm/dense_gemm.py", class_="DenseGemmKernel",
                          config=dict(ab_dtype=ab.__name__, c_dtype=c.__name__, acc_dtype=acc.__name__,
                                      mma_tiler_mn=tiler, cluster_shape_mn=cluster, use_2cta_instrs=two_cta,
                                      use_tma_store=tma_store, mnkl=mnkl),
                          call_args=["a", "b", "c", "stream"]))


def spec_dense_persistent(src, ab, c, acc, tiler, cluster, two_cta, mnkl=(512, 256, 512, 1)):
    import cutlass
    import cutlass.cute as cute
    mod = load(src, "kernel/dense_gemm/dense_gemm_persistent.py", "dense_gemm_persistent")
    ab, c, acc = (getattr(cutlass, x) for x in (ab, c, acc))
    m, n, k, l = mnkl
    T = Tensors()
    # bmm convention: a (l,m,k) k-major, b (l,k,n) k-major (view of (l,n,k)), c (l,m,n) n-major
    a_r = T.dyn("a", ab, (l, m, k), None, 2, 16, "A (l,m,k) k-major")
    b_r = T.dyn("b", ab, (l, n, k), (0, 2, 1), 1, 16, "B (l,k,n) k-major")
    c_r = T.dyn("c", c, (l, m, n), None, 2, 16, "C (l,m,n) n-major")
    gemm = mod.PersistentDenseGemmKernel(acc, two_cta, tiler, cluster, True)
    mac = max_clusters(cluster[0] * cluster[1])

    def comp():
        return cute.compile(mod.bmm, gemm, fake_dyn(ab, 3, 2, 16), fake_dyn(ab, 3, 1, 16),
                            fake_dyn(c, 3, 2, 16), mac, fake_stream(), lambda x: x)

    return dict(compile=comp, call=lambda f: f(a_r, b_r, c_r, stream()), tensors=T.info,
                meta=dict(example=BW + "/kernel/dense_gemm/dense_gemm_persistent.py",
                          class_="PersistentDenseGemmKernel via bmm()",
                          config=dict(ab_dtype=ab.__name__, c_dtype=c.__name__, acc_dtype=acc.__name__,
                                      mma_tiler_mn=tiler, cluster_shape_mn=cluster, use_2cta_instrs=two_cta,
                                      max_active_clusters=mac, mnkl=mnkl),
                          call_args=["a", "b", "c", "stream"]))


# ------------------------------------------------------------------ block-scaled GEMMs (pointer API)
def sf_bytes(mn, k, l, vec):
    # scale factors in the (32,4,restM,4,restK,l) atom layout: padded to 128 x 4 blocks
    rm = -(-mn // 128)
    rk = -(-(-(-k // vec)) // 4)
    return rm * 128 * rk * 4 * l


def elem_bytes(cdt, count):
    return (count * cdt.width + 7) // 8


def spec_blockscaled(src, ab, sf, vec, c, tiler, cluster, mnkl=(512, 256, 256, 1)):
    import cutlass
    import cutlass.cute as cute
    from cutlass.cute.runtime import make_ptr
    mod = load(src, "kernel/blockscaled_gemm/dense_blockscaled_gemm_persistent.py", "dense_blockscaled_gemm_persistent")
    ab, sf, c = (getattr(cutlass, x) for x in (ab, sf, c))
    m, n, k, l = mnkl
    gemm = mod.Sm100BlockScaledPersistentDenseGemmKernel(vec, tiler, cluster)
    mac = max_clusters(cluster[0] * cluster[1])
    T = Tensors()
    a = T.raw("a", ab, elem_bytes(ab, m * k * l), "A (m,k,l) k-major", [m, k, l])
    b = T.raw("b", ab, elem_bytes(ab, n * k * l), "B (n,k,l) k-major", [n, k, l])
    sfa = T.raw("sfa", sf, sf_bytes(m, k, l, vec), "SFA (32,4,restM,4,restK,l)", None)
    sfb = T.raw("sfb", sf, sf_bytes(n, k, l, vec), "SFB (32,4,restN,4,restK,l)", None)
    cc_ = T.raw("c", c, elem_bytes(c, m * n * l), "C (m,n,l) n-major", [m, n, l])

    def comp():
        return mod.scaled_mm(gemm, ab, ab, c, sf, "k", "k", "n", mac, fake_stream())

    def call(f):
        P = lambda dt, t, al: make_ptr(dt, t.data_ptr(), cute.AddressSpace.gmem, assumed_align=al)  # noqa
        f(P(ab, a, 16), P(ab, b, 16), P(sf, sfa, 32), P(sf, sfb, 32), P(c, cc_, 16), (m, n, k, l), stream())

    return dict(compile=comp, call=call, tensors=T.info,
                meta=dict(example=BW + "/kernel/blockscaled_gemm/dense_blockscaled_gemm_persistent.py",
                          class_="Sm100BlockScaledPersistentDenseGemmKernel via scaled_mm()",
                          config=dict(ab_dtype=ab.__name__, sf_dtype=sf.__name__, sf_vec_size=vec,
                                      c_dtype=c.__name__, mma_tiler_mn=tiler, cluster_shape_mn=cluster,
                                      max_active_clusters=mac, mnkl=mnkl),
                          call_args=["a_ptr", "b_ptr", "sfa_ptr", "sfb_ptr", "c_ptr", "(m,n,k,l) i32",
                                     "stream"]))


def spec_tut_nvfp4(src, which, mnkl=(256, 256, 256, 1)):
    import cutlass
    import cutlass.cute as cute
    from cutlass.cute.runtime import make_ptr
    mod = load(src, "tutorial/tutorial_gemm/%s.py" % which, which)
    m, n, k, l = mnkl
    ab, sf, c, vec = mod.ab_dtype, mod.sf_dtype, mod.c_dtype, mod.sf_vec_size
    T = Tensors()
    a = T.raw("a", ab, elem_bytes(ab, m * k * l), "A (m,k,l) k-major", [m, k, l])
    b = T.raw("b", ab, elem_bytes(ab, n * k * l), "B (n,k,l) k-major", [n, k, l])
    sfa = T.raw("sfa", sf, sf_bytes(m, k, l, vec), "SFA (32,4,restM,4,restK,l)")
    sfb = T.raw("sfb", sf, sf_bytes(n, k, l, vec), "SFB (32,4,restN,4,restK,l)")
    cc_ = T.raw("c", c, elem_bytes(c, m * n * l), "C (m,n,l) n-major", [m, n, l])
    gemm = mod.Sm100BlockScaledDenseGemmKernel()

    def ptrs(real):
        P = lambda dt, t, al: make_ptr(dt, t.data_ptr() if real else 0, cute.AddressSpace.gmem,  # noqa
                                       assumed_align=al)
        return [P(ab, a, 16), P(ab, b, 16), P(sf, sfa, 32), P(sf, sfb, 32), P(c, cc_, 32)]

    def comp():
        return cute.compile(gemm, *ptrs(False), (m, n, k, l), fake_stream())

    return dict(compile=comp, call=lambda f: f(*ptrs(True), (m, n, k, l), stream()), tensors=T.info,
                meta=dict(example=BW + "/tutorial/tutorial_gemm/%s.py" % which,
                          class_="Sm100BlockScaledDenseGemmKernel",
                          config=dict(ab_dtype=ab.__name__, sf_dtype=sf.__name__, sf_vec_size=vec,
                                      c_dtype=c.__name__, mma_tiler_mn=mod.mma_tiler_mn, mnkl=mnkl),
                          call_args=["a_ptr", "b_ptr", "sfa_ptr", "sfb_ptr", "c_ptr", "(m,n,k,l)", "stream"]))


# ------------------------------------------------------------------ tutorial fp16 GEMMs
def spec_tut_fp16(src, which, mnk=(512, 512, 512)):
    import cutlass
    import cutlass.cute as cute
    mod = load(src, "tutorial/tutorial_gemm/%s.py" % which, which)
    m, n, k = mnk
    io = mod.io_dtype
    align = 32 if which in ("fp16_gemm_0", "fp16_gemm_1") else None
    T = Tensors()
    a_r = T.dyn("a", io, (m, k), None, 1, align, "A (m,k) k-major")
    b_r = T.dyn("b", io, (n, k), None, 1, align, "B (n,k) k-major")
    c_r = T.dyn("c", io, (m, n), None, 1, align, "C (m,n) n-major")
    fa, fb, fc = (fake_dyn(io, 2, 1, align) for _ in range(3))
    extra = []
    cfg = dict(io_dtype=io.__name__, acc_dtype=mod.acc_dtype.__name__, mma_tiler_mnk=mod.mma_tiler_mnk, mnk=mnk)
    if hasattr(mod, "use_2cta_instrs"):
        cfg["use_2cta_instrs"] = mod.use_2cta_instrs
    if which == "fp16_gemm_4":
        p = mod.preferred_cluster_shape_mnk
        fbk = mod.fallback_cluster_shape_mnk
        extra = [max_clusters(p[0] * p[1]), max_clusters(fbk[0] * fbk[1])]
        cfg.update(preferred_cluster_shape_mnk=p, fallback_cluster_shape_mnk=fbk)
    elif which in ("fp16_gemm_3", "fp16_gemm_3_1", "fp16_gemm_5"):
        cs = mod.cluster_shape_mnk
        extra = [max_clusters(cs[0] * cs[1])]
    if hasattr(mod, "cluster_shape_mnk"):
        cfg["cluster_shape_mnk"] = mod.cluster_shape_mnk
    if extra:
        cfg["max_active_clusters"] = extra

    def comp():
        return cute.compile(mod.host_function, fa, fb, fc, *extra)

    return dict(compile=comp, call=lambda f: f(a_r, b_r, c_r), tensors=T.info,
                meta=dict(example=BW + "/tutorial/tutorial_gemm/%s.py" % which, class_="host_function",
                          config=cfg, call_args=["a", "b", "c"]))


def spec_tut_fp16_6(src, mnk=(512, 512, 512)):
    import cutlass
    import cutlass.cute as cute
    from cutlass.cute.runtime import make_fake_tensor
    mod = load(src, "tutorial/tutorial_gemm/fp16_gemm_6.py", "fp16_gemm_6")
    m, n, k = mnk
    io, qd = mod.io_dtype, mod.quant_dtype
    T = Tensors()
    a_r = T.dyn("a", io, (m, k), None, 1, None, "A (m,k) k-major")
    from cutlass.cute.runtime import from_dlpack
    import torch

    def bq(name, dt):
        t = torch.zeros((n, k), dtype=torch_storage_dtype(dt))
        T.keep.append(t)
        T.info[name] = cc.tensor_info(t, dt.__name__, name + " (n,k) k-major")
        x = from_dlpack(t, assumed_align=32)
        if dt.width <= 8:
            x.element_type = dt
        return x.mark_layout_dynamic(leading_dim=1).mark_compact_shape_dynamic(mode=1, divisibility=k)

    bq_r = bq("b_quantized", qd)
    bd_r = bq("b_dequantized", io)
    c_r = T.dyn("c", io, (m, n), None, 1, None, "C (m,n) n-major")
    cs = mod.cluster_shape_mnk
    mac = max_clusters(cs[0] * cs[1])

    def fake_b(dt):
        kk = cute.sym_int32(divisibility=k)
        return make_fake_tensor(dt, (cute.sym_int32(), kk), (cute.sym_int64(divisibility=k), 1), assumed_align=32)

    def comp():
        return cute.compile(mod.host_function, fake_dyn(io, 2, 1, None), fake_b(qd), fake_b(io),
                            fake_dyn(io, 2, 1, None), 2.33, mac, fake_stream())

    return dict(compile=comp, call=lambda f: f(a_r, bq_r, bd_r, c_r, 2.33, stream()), tensors=T.info,
                meta=dict(example=BW + "/tutorial/tutorial_gemm/fp16_gemm_6.py", class_="host_function",
                          config=dict(io_dtype=io.__name__, quant_dtype=qd.__name__, cluster_shape_mnk=cs,
                                      max_active_clusters=mac, mnk=mnk, scale_factor=2.33),
                          call_args=["a", "b_quantized", "b_dequantized", "c", "scale_factor f32", "stream"]))


# ------------------------------------------------------------------ registry
def variants(src):
    V = {}
    V["dense_gemm_1cta_f16"] = lambda: spec_dense_gemm(src, "Float16", "Float16", "Float32", (128, 128), (1, 1), False)
    V["dense_gemm_1cta_bf16_n64"] = lambda: spec_dense_gemm(src, "BFloat16", "BFloat16", "Float32", (128, 64), (1, 1), False)
    V["dense_gemm_1cta_tf32"] = lambda: spec_dense_gemm(src, "TFloat32", "Float32", "Float32", (128, 128), (1, 1), False)
    V["dense_gemm_1cta_e4m3"] = lambda: spec_dense_gemm(src, "Float8E4M3FN", "Float16", "Float32", (128, 128), (1, 1), False)
    V["dense_gemm_1cta_i8"] = lambda: spec_dense_gemm(src, "Int8", "Int32", "Int32", (128, 128), (1, 1), False)
    V["dense_gemm_2cta_f16"] = lambda: spec_dense_gemm(src, "Float16", "Float16", "Float32", (256, 128), (2, 1), True)
    V["dense_gemm_2cta_f16_cluster2x2"] = lambda: spec_dense_gemm(src, "Float16", "Float16", "Float32", (256, 128), (2, 2), True, (512, 512, 512, 1))
    V["dense_gemm_persistent_1cta_f16"] = lambda: spec_dense_persistent(src, "Float16", "Float16", "Float32", (128, 128), (1, 1), False)
    V["dense_gemm_persistent_2cta_f16"] = lambda: spec_dense_persistent(src, "Float16", "Float16", "Float32", (256, 128), (2, 1), True)
    V["dense_gemm_persistent_2cta_e4m3"] = lambda: spec_dense_persistent(src, "Float8E4M3FN", "Float16", "Float32", (256, 128), (2, 1), True)
    V["blockscaled_nvfp4_1cta"] = lambda: spec_blockscaled(src, "Float4E2M1FN", "Float8E4M3FN", 16, "Float16", (128, 128), (1, 1))
    V["blockscaled_nvfp4_2cta"] = lambda: spec_blockscaled(src, "Float4E2M1FN", "Float8E4M3FN", 16, "Float16", (256, 128), (2, 1))
    V["blockscaled_mxfp4_1cta"] = lambda: spec_blockscaled(src, "Float4E2M1FN", "Float8E8M0FNU", 32, "Float16", (128, 128), (1, 1))
    V["blockscaled_mxfp8_1cta"] = lambda: spec_blockscaled(src, "Float8E4M3FN", "Float8E8M0FNU", 32, "Float16", (128, 128), (1, 1))
    V["blockscaled_mxfp8_2cta"] = lambda: spec_blockscaled(src, "Float8E4M3FN", "Float8E8M0FNU", 32, "Float16", (256, 128), (2, 1))
    for w in ("fp16_gemm_0", "fp16_gemm_1", "fp16_gemm_2", "fp16_gemm_3", "fp16_gemm_3_1", "fp16_gemm_4",
              "fp16_gemm_5"):
        V["tutorial_" + w] = (lambda w=w: spec_tut_fp16(src, w))
    V["tutorial_fp16_gemm_6"] = lambda: spec_tut_fp16_6(src)
    V["tutorial_nvfp4_gemm_0"] = lambda: spec_tut_nvfp4(src, "nvfp4_gemm_0")
    V["tutorial_nvfp4_gemm_1"] = lambda: spec_tut_nvfp4(src, "nvfp4_gemm_1")
    return V


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--worker")
    a = ap.parse_args()
    src = os.path.abspath(a.src)
    out = os.path.abspath(a.out)
    V = variants(src)
    if a.list:
        print("\n".join(V))
        return
    if a.worker:
        cc.worker_main(a.worker, out, lambda n: V[n]())
        return
    os.makedirs(out, exist_ok=True)
    names = a.only or list(V)
    ok, fails = cc.run_workers(os.path.abspath(__file__), names, out)
    print("%d ok, %d failed" % (len(ok), len(fails)))


if __name__ == "__main__":
    main()
