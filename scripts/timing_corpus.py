#!/usr/bin/env python3
"""The Hopper timing corpus of issue 47: Triton's own tutorials 01, 02, 03, 05
and 06 compiled for sm_90a at timing sizes (about 5 us to 5 ms on an H200),
written as NAME.ptx + NAME.json (the launch, in gen_triton_corpus.py's format,
which tests/ptx/census_launch.py turns into a `tc5 run` command) under
tests/data/timing/h200/, and the manifest gpu/ptx_timing reads
(tests/data/timing/h200/launches.txt).

usage: timing_corpus.py --src TRITON_CHECKOUT [--out DIR] [--only REGEX]
       timing_corpus.py --manifest DIR      (rewrite DIR/launches.txt only)

TRITON_CHECKOUT holds python/tutorials (e.g. `git --git-dir=MIRROR archive
HEAD python/tutorials | tar -x`). The compilation is gen_triton_corpus.py's
(the tutorials' own host code under a metadata-only torch; the launch Triton's
launcher would make), with Triton's option ptx_version=87 (PTX ISA 8.7: the
lent H200's driver, 580 / CUDA 13.0, JIT-loads ISA 9.0 at most; Triton 3.9
writes 9.4 otherwise); only the sizes and configs are chosen here."""
import argparse
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "data", "ptx", "census"))

def registry():
    """A scenario list and the decorator that appends a scenario to it (this file's H200 and B200
    lists, timing_heldout.py's held-out one)."""
    scns = []

    def add(fn):
        scns.append(fn)
        return fn
    return scns, add


SCN, scenario = registry()


def _g():
    import gen_triton_corpus as g
    return g


@scenario
def t01(L):
    g = _g()
    m = L.load(g.TUT + "01-vector-add.py")
    for n in (1 << 20, 1 << 24, 1 << 26):
        x, y = g.T((n, ), g.D("float32"), label="x"), g.T((n, ), g.D("float32"), label="y")
        with g.capture() as c:
            m.add(x, y)
        yield g.V(f"t01_add_fp32_n{n}", g._one(c), note=f"n={n}, BLOCK_SIZE=1024 (the tutorial's)")


@scenario
def t02(L):
    g = _g()
    m = L.load(g.TUT + "02-fused-softmax.py")
    for n_rows, n_cols in [(4096, 1024), (8192, 4096), (16384, 8192)]:
        x = g.T((n_rows, n_cols), g.D("float32"), label="x")
        y = g.T((n_rows, n_cols), g.D("float32"), label="y")
        BLOCK_SIZE = 1 << (n_cols - 1).bit_length()
        num_warps, num_stages = 8, 4 if m.SIZE_SMEM > 200000 else 2
        launch = g.Launch(m.softmax_kernel, (y, x, x.stride(0), y.stride(0), n_rows, n_cols),
                          dict(BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps, num_stages=num_stages), (1, ))

        def post_grid(kernel, res, n_rows=n_rows, num_warps=num_warps):
            n_regs = res.get("reg") or 32
            occupancy = m.NUM_REGS // (n_regs * m.WARP_SIZE * num_warps)
            if kernel.metadata.shared:
                occupancy = min(occupancy, m.SIZE_SMEM // kernel.metadata.shared)
            return (min(m.NUM_SM * occupancy, n_rows), 1, 1)

        yield g.V(f"t02_softmax_fp32_{n_rows}x{n_cols}", launch, post_grid=post_grid,
                  note="grid = min(NUM_SM*occupancy, n_rows) as in softmax(), occupancy from cubin regs")


MM = [  # (M, N, K, BM, BN, BK, warps, stages)
    (1024, 1024, 1024, 128, 256, 64, 8, 3),
    (2048, 2048, 2048, 128, 256, 64, 8, 3),
    (4096, 4096, 4096, 128, 256, 64, 8, 3),
    (8192, 8192, 8192, 128, 256, 64, 8, 3),
    (4096, 4096, 4096, 128, 128, 32, 4, 4),
    (2048, 2048, 2048, 128, 128, 32, 4, 4),
    (2048, 2048, 2048, 64, 32, 32, 2, 5),
    (8192, 8192, 512, 128, 256, 64, 8, 3),
    (128, 8192, 8192, 128, 128, 32, 4, 4),
    (16384, 256, 4096, 128, 128, 32, 4, 4),
]


@scenario
def t03(L):
    g = _g()
    m = L.load(g.TUT + "03-matrix-multiplication.py")
    for M, N, K, bm, bn, bk, w, s in MM:
        a, b = g.T((M, K), g.D("float16"), label="a"), g.T((K, N), g.D("float16"), label="b")
        with g.capture() as c:
            m.matmul(a, b)
        l = g._one(c)
        yield g.V(f"t03_matmul_fp16_{M}x{N}x{K}_{bm}x{bn}x{bk}_w{w}s{s}", l,
                  g.pick(l.autotuner, BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, num_warps=w, num_stages=s),
                  note=f"M={M} N={N} K={K}; one of the tutorial's autotune configs")


@scenario
def t05(L):
    g = _g()
    m = L.load(g.TUT + "05-layer-norm.py")
    for M, N in [(4096, 4096), (8192, 8192), (1151, 8192)]:
        dt = g.D("float16")
        w, b = g.T((N, ), dt, label="weight"), g.T((N, ), dt, label="bias")
        x = g.T((M, N), dt, label="x")
        with g.capture() as c:
            m.layer_norm(x, (N, ), w, b, 1e-5)
        yield g.V(f"t05_layer_norm_fwd_fp16_{M}x{N}", c[0], note=f"M={M} N={N}")


ATTN = [  # (Z, H, N_CTX) at d 64 and 128, causal and not
    (4, 16, 1024), (1, 16, 4096), (1, 16, 16384)]


@scenario
def t06(L):
    g = _g()
    m = L.load(g.TUT + "06-fused-attention.py")
    for Z, H, N in ATTN:
        for D_ in (64, 128):
            for causal in (False, True):
                q, k, v = g._attn_inputs(Z, H, N, D_, False)
                with g.capture() as c:
                    m.attention(q, k, v, causal, 0.5, False)
                l = g._one(c)
                at = l.autotuner
                at.nargs = dict(zip(at.arg_names, l.args))
                pruned = at.prune_configs(l.kwargs)
                cfg = [x for x in pruned if x.kwargs["BLOCK_M"] == 128 and x.kwargs["BLOCK_N"] == 64
                       and x.num_stages == 2 and x.num_warps == 4]
                yield g.V(f"t06_attn_fwd_fp16_d{D_}_{'causal' if causal else 'full'}_z{Z}h{H}n{N}", l, cfg[0],
                          note=f"Z={Z} H={H} N_CTX={N}; config BLOCK_M=128 BLOCK_N=64 num_stages=2 num_warps=4")


# ---------------------------------------------------------------------------
# Blackwell (--arch 100, tests/data/timing/b200): Gluon's tutorials 07 and 08 at the sizes and
# configs their own text reports B200 TFLOP/s for (docs/timing.md, "Blackwell against published
# figures"): the K sweep at M = N = 8192 and 07's BLOCK_K/buffers/warps loop at 8192 x 8192 x 16384
B200_K = [512, 1024, 2048, 4096, 8192, 16384]
B200_LOOP = [(128, 2, 4), (128, 2, 8), (64, 3, 4), (64, 3, 8), (64, 4, 4), (64, 4, 8)]
SCN_B200, b200 = registry()


@b200
def g07(L):
    g = _g()
    m = L.load(g.GLUON + "07-persistence.py")
    M = N = 8192
    for K in B200_K:
        A, B, C = g._f16(M, K, label="A"), g._f16(K, N, label="B"), g._f16(M, N, label="C")
        with g.capture() as c:
            m.matmul_pipelined(A, B, C, 128, 256, 64, 4, 4)
        yield g.V(f"g07_nonpersistent_128x256x64_b4_w4_k{K}", g._one(c), note=f"M=N=8192 K={K}; the K table's 'nonpersistent'")
        with g.capture() as c:
            m.persistent_matmul(A, B, C, 128, 256, 64, 4, 4, m.GroupedPersistentTileScheduler(8))
        yield g.V(f"g07_persistent_128x256x64_b4_w4_k{K}", g._one(c), note=f"M=N=8192 K={K}; the K table's 'persistent'")
        with g.capture() as c:
            m.persistent_matmul_pipelined(A, B, C, 128, 256, 64, 4, 4, m.GroupedPersistentTileScheduler(8))
        yield g.V(f"g07_pipelined_128x256x64_b4_w4_k{K}", g._one(c), note=f"M=N=8192 K={K}; the K table's 'pipelined'")
    K = 16384
    A, B, C = g._f16(M, K, label="A"), g._f16(K, N, label="B"), g._f16(M, N, label="C")
    for bk, nb, w in B200_LOOP:
        with g.capture() as c:
            m.matmul_pipelined(A, B, C, 128, 256, bk, nb, w)
        yield g.V(f"g07_loop_128x256x{bk}_b{nb}_w{w}", g._one(c), note="M=N=8192 K=16384; the BLOCK_K/buffers/warps loop")


@b200
def g08(L):
    g = _g()
    m = L.load(g.GLUON + "08-warp-specialization.py")
    t7 = L.load(g.GLUON + "07-persistence.py")
    M = N = 8192
    for K in B200_K:
        A, B, C = g._f16(M, K, label="A"), g._f16(K, N, label="B"), g._f16(M, N, label="C")
        with g.capture() as c:
            m.matmul_warp_specialized(A, B, C, 128, 256, 64, 4, 4, 4, t7.GroupedPersistentTileScheduler(8))
        yield g.V(f"g08_ws_128x256x64_b4_sub4_w4_k{K}", g._one(c), note=f"M=N=8192 K={K}")


# Triton's tutorial 06 forward on sm_100a at the sizes meta-pytorch/tritonbench PR #1014 prints B200
# TFLOP/s for (its blackwell_attentions operator loading the stock 06-fused-attention.py: fp16, d 128,
# batch 4, 48 heads, not causal, seqlen 1k ... 16k), called as tritonbench calls it,
# attention(q, k, v, causal, sm_scale): warp_specialize at its default (True). The autotuner's pick
# on that B200 is not published: one fixed config, the tutorial's own testing config (BLOCK_M 128,
# BLOCK_N 64, 2 stages, 4 warps, as the H200 rows).
B200_T06 = [(4, 48, n) for n in (1024, 2048, 4096, 8192, 16384)]


@b200
def t06b(L):
    g = _g()
    m = L.load(g.TUT + "06-fused-attention.py")
    for Z, H, N in B200_T06:
        q, k, v = g._attn_inputs(Z, H, N, 128, False)
        with g.capture() as c:
            m.attention(q, k, v, False, 0.5)
        l = g._one(c)
        at = l.autotuner
        at.nargs = dict(zip(at.arg_names, l.args))
        pruned = at.prune_configs(l.kwargs)
        cfg = [x for x in pruned if x.kwargs["BLOCK_M"] == 128 and x.kwargs["BLOCK_N"] == 64
               and x.num_stages == 2 and x.num_warps == 4]
        yield g.V(f"t06_attn_fwd_fp16_d128_full_z{Z}h{H}n{N}", l, cfg[0],
                  note=f"Z={Z} H={H} N_CTX={N}; warp_specialize=True; config BLOCK_M=128 BLOCK_N=64 num_stages=2 "
                       "num_warps=4")


# Tutorial 06's autotune space on sm_100a (--t06-sweep; t47c): every config the tutorial's
# @triton.autotune would try for a shape (its own `configs` list, filtered by its `keep` and
# `prune_invalid_configs`: on sm_100 and not causal all 36 of BLOCK_M {64, 128} x BLOCK_N
# {32, 64, 128} x stages {2, 3, 4} x warps {4, 8}), compiled by whichever Triton runs this
# script (PYTHONPATH=<a release>), for the published B200 figures' shapes: tritonbench PR #1014
# (4 x 48, d 128, fp16, warp_specialize at its default True) and facebookexperimental/triton PR
# #205 (the tutorial's own benchmark, 4 x 32, d 128, fp16, warp_specialize=False). A config the
# compiler refuses is reported and skipped (the autotuner on silicon skips it too).
T06_SWEEP = dict(Z=4, H=48, ws=True, sizes=(1024, 2048, 4096, 8192, 16384))


def t06_sweep(L):
    g = _g()
    m = L.load(g.TUT + "06-fused-attention.py")
    Z, H, ws = T06_SWEEP["Z"], T06_SWEEP["H"], T06_SWEEP["ws"]
    for N in T06_SWEEP["sizes"]:
        q, k, v = g._attn_inputs(Z, H, N, 128, False)
        with g.capture() as c:
            m.attention(q, k, v, False, 0.5, ws)
        l = g._one(c)
        at = l.autotuner
        at.nargs = dict(zip(at.arg_names, l.args))
        for cfg in at.prune_configs(l.kwargs):
            bm, bn = cfg.kwargs["BLOCK_M"], cfg.kwargs["BLOCK_N"]
            yield g.V(f"t06s_{'ws' if ws else 'nows'}_{bm}x{bn}_s{cfg.num_stages}_w{cfg.num_warps}_z{Z}h{H}n{N}",
                      l, cfg, note=f"Z={Z} H={H} N_CTX={N}; warp_specialize={ws}; config BLOCK_M={bm} "
                                   f"BLOCK_N={bn} num_stages={cfg.num_stages} num_warps={cfg.num_warps}")


# ---------------------------------------------------------------------------
# the manifest of gpu/ptx_timing: one launch a line
#   NAME FILE ENTRY GRID BLOCK SHARED ARG...
# ARG: buf:ID:BYTES:FILL (a device buffer, ID shared by the arguments that name
# it; FILL f16|bf16|f32|i32|zero: uniform values in [-1, 1) of that type),
# s32:V s64:V f32:V, null, tmap:buf=ID,<tc5 run's tmap text>.
TMAP_TYPES = {0: "u8", 1: "u16", 2: "u32", 3: "s32", 4: "u64", 5: "s64", 6: "f16", 7: "f32", 8: "f64", 9: "bf16"}
FILL = {"float16": "f16", "bfloat16": "bf16", "float32": "f32", "int32": "i32"}
ISZ = {"float16": 2, "bfloat16": 2, "float32": 4, "int32": 4, "int64": 8, "float64": 8, "uint8": 1, "int8": 1}


def _bytes(t):
    n = 1
    for s in t["buffer_shape"]:
        n *= s
    return n * ISZ[t["dtype"]]


def manifest_line(meta, name):
    args = []
    for p in meta["params"]:
        k = p["kind"]
        if k == "pointer":
            t = p["tensor"]
            args.append(f"buf:{t['buffer']}:{_bytes(t)}:{FILL.get(t['dtype'], 'zero')}")
        elif k == "int":
            args.append(f"{'s64' if p['type'] == 'i64' else 's32'}:{p['value']}")
        elif k == "float":
            args.append(f"f32:{p['value']!r}")
        elif k == "scratch":
            args.append("null")
        elif k == "tensormap":
            e = p["cuTensorMapEncodeTiled"]
            base = p["descriptor"]["base"]
            assert e["interleave"].endswith("NONE") and e["elementStrides"] == [1] * e["tensorRank"]
            sw = e["swizzle"]
            l2 = e["l2Promotion"].rsplit("_", 1)[-1]
            l2 = "none" if l2 == "NONE" else l2
            txt = (f"type={TMAP_TYPES[e['tensorDataType']]},dims={'x'.join(map(str, e['globalDim']))},"
                   f"box={'x'.join(map(str, e['boxDim']))},swizzle={sw},l2={l2}")
            if e["globalStrides_bytes"]:
                txt += f",strides={'x'.join(map(str, e['globalStrides_bytes']))}"
            args.append(f"tmap:buf={base['buffer']}:{_bytes(base)}:{FILL.get(base['dtype'], 'zero')},{txt}")
        else:
            raise ValueError(f"{name}: parameter kind {k!r} not handled")
    L = meta["cuda_launch"]
    assert L["clusterDim"] in (None, [1, 1, 1])
    return " ".join([name, name + ".ptx", meta["entry"], ",".join(map(str, L["gridDim"])), str(L["blockDim"][0]),
                     str(L["dynamicSharedMemBytes"])] + args)


def share_ptx(out, names):
    """one file for identical PTX: launches that differ only in their arguments (Gluon 07's K
    sweep, tutorial 03 at several sizes) compile to the same text; the first name's file is kept,
    the copies are deleted and their rows name the kept file (the FILE column). Returns
    {name: file}. A name whose .ptx is absent keeps its own (the kept file of an earlier run)"""
    import hashlib
    kept, files = {}, {}
    for n in names:
        p = os.path.join(out, n + ".ptx")
        if not os.path.exists(p):
            continue
        h = hashlib.sha256(open(p, "rb").read()).hexdigest()
        if h in kept:
            os.remove(p)
        else:
            kept[h] = n + ".ptx"
        files[n] = kept[h]
    old = {}
    man = os.path.join(out, "launches.txt")
    if os.path.exists(man):
        for line in open(man):
            w = line.split()
            if w and not line.startswith("#"):
                old[w[0]] = w[1]
    return {n: files.get(n) or old.get(n, n + ".ptx") for n in names}


def write_manifest(out):
    names = sorted(f[:-5] for f in os.listdir(out) if f.endswith(".json") and f != "index.json")
    files = share_ptx(out, names)
    with open(os.path.join(out, "launches.txt"), "w") as f:
        f.write("# NAME FILE ENTRY GRID BLOCK SHARED ARG... (scripts/timing_corpus.py; gpu/ptx_timing.cu)\n")
        for n in names:
            w = manifest_line(json.load(open(os.path.join(out, n + ".json"))), n).split(" ", 2)
            f.write(" ".join([w[0], files[n], w[2]]) + "\n")
    print(f"{len(names)} launches in {out}/launches.txt")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src")
    ap.add_argument("--out", default=os.path.join(ROOT, "tests", "data", "timing", "h200"))
    ap.add_argument("--only")
    ap.add_argument("--manifest", metavar="DIR")
    ap.add_argument("--arch", type=int, default=90, choices=[90, 100])
    ap.add_argument("--t06-sweep", metavar="Z,H,WS[,N...]",
                    help="tutorial 06's whole autotune space at batch Z, H heads, warp_specialize WS (0/1), "
                         "sizes N (default 1024 ... 16384), sm_100a (t06_sweep); needs --out")
    a = ap.parse_args()
    if a.t06_sweep:
        f = [int(x) for x in a.t06_sweep.split(",")]
        T06_SWEEP.update(Z=f[0], H=f[1], ws=bool(f[2]), **({"sizes": tuple(f[3:])} if f[3:] else {}))
        a.arch = 100
        if a.out == ap.get_default("out"):
            ap.error("--t06-sweep needs --out (the sweep is not a committed corpus)")
    if a.manifest:
        return write_manifest(a.manifest)
    g = _g()
    g.ARCH, g.ARCH_CAP = a.arch, divmod(a.arch, 10)
    if a.arch == 100 and a.out == ap.get_default("out"):
        a.out = os.path.join(ROOT, "tests", "data", "timing", "b200")
    out = os.path.abspath(a.out)
    os.makedirs(out, exist_ok=True)
    work = os.path.join("/tmp", "timing_corpus_work")
    os.environ.setdefault("TRITON_CACHE_DIR", os.path.join(work, "cache"))
    g.make_fake_torch()
    import triton  # noqa: F401
    g.install_fake_driver()
    g.install_launch_hooks()
    loader = g._Loader(os.path.abspath(a.src), os.path.join(work, "patched_src"))
    sys.meta_path.insert(0, g._SiblingFinder(loader, [g.TUT.rstrip("/"), g.GLUON.rstrip("/")]))
    import tempfile
    tmp = tempfile.mkdtemp()
    bad = 0
    for scn in ([t06_sweep] if a.t06_sweep else SCN if a.arch == 90 else SCN_B200):
        for v in scn(loader):
            if a.only and not re.search(a.only, v["name"]):
                continue
            try:
                kernel, info = g.compile_launch(v["launch"], v["config"], {"ptx_version": 87} if a.arch == 90 else {})
                if v["post_grid"] is not None:
                    info["grid"] = tuple(v["post_grid"](kernel, g.cubin_resources(kernel.asm["cubin"], tmp)))
                meta = g.write_variant(out, v["name"], v["launch"], kernel, info, v["note"], tmp)
                print(f"[ok] {v['name']} grid={meta['grid']} shared={meta['shared']} regs="
                      f"{meta.get('cubin_resources', {}).get('reg')}", flush=True)
            except Exception as e:  # noqa: BLE001
                bad += 1
                print(f"[FAIL] {v['name']}: {type(e).__name__}: {str(e)[:300]}", flush=True)
    write_manifest(out)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
