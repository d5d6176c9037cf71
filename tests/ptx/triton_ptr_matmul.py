#!/usr/bin/env python3
"""Run a Triton matmul that takes its operands as plain pointers (tutorial 03's matmul_kernel, tutorial
09's matmul_kernel, matmul_kernel_persistent: a_ptr, b_ptr, c_ptr, M, N, K and the strides; 09's
matmul_kernel_descriptor_persistent: the pointers and M, N, K, descriptors made on the device, as
gen_triton_corpus.py's NAME.json records them) under `tc5 run`, on random inputs laid out as the
JSON's tensors are (B may be a transposed view: b.T), and compare C byte for byte with `tc5 gemm`
on the same inputs (the f32 product rounded to C's f16 as the kernel's cvt.rn.f16.f32 does;
--model hopper for sm_90a kernels, taken from the JSON's target).

usage: triton_ptr_matmul.py TC5 JSON [--check MODE] [--seed N]
Exit status: 0 equal, 1 a difference or a kernel error, 2 not such a matmul (or a C type other
than f16/f32). Standard library only (issue 52, tests/ptx/triton_releases.py runs it)."""
import json
import os
import random
import struct
import subprocess
import sys
import tempfile

ELEM = {"float16": ("f16", 2), "bfloat16": ("bf16", 2), "float32": ("f32", 4), "float8_e4m3fn": ("e4m3", 1),
        "float8_e5m2": ("e5m2", 1)}


def rand_code(rng, t):
    """a random finite code of type t, of moderate magnitude: triton_json.py's, and f32 with |x| < 2"""
    if t == "f32":
        return rng.getrandbits(32) & 0x3f7fffff
    from triton_json import rand_code as json_rand_code  # tests/ptx, this file's folder
    return json_rand_code(rng, t)


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    tc5, path = argv[1], argv[2]
    check = argv[argv.index("--check") + 1] if "--check" in argv else "none"
    rng = random.Random(int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 1)
    meta = json.load(open(path))
    ptx = path[:-5] + ".ptx"
    p = {q["name"]: q for q in meta["params"]}
    if not all(n in p and p[n]["kind"] == "pointer" for n in ("a_ptr", "b_ptr", "c_ptr")):
        print(f"{meta['name']}: not a matmul of a_ptr, b_ptr, c_ptr", file=sys.stderr)
        return 2
    ints = dict(meta["constexprs"])
    ints.update({q["name"]: q["value"] for q in meta["params"] if q["kind"] == "int"})
    M, N, K = ints["M"], ints["N"], ints["K"]
    ta, tb, tcm = (p[n]["tensor"] for n in ("a_ptr", "b_ptr", "c_ptr"))
    at, aesz = ELEM[ta["dtype"]]
    bt, besz = ELEM[tb["dtype"]]
    ct, cesz = ELEM[tcm["dtype"]]
    if ct not in ("f16", "f32"):
        print(f"{meta['name']}: C of {tcm['dtype']}: no reference rounding here", file=sys.stderr)
        return 2
    work = tempfile.mkdtemp()

    def buffer(t, ty, esz, name):
        n = 1
        for s in t["buffer_shape"]:
            n *= s
        codes = [rand_code(rng, ty) for _ in range(n)]
        f = os.path.join(work, name + ".bin")
        open(f, "wb").write(b"".join(c.to_bytes(esz, "little") for c in codes))
        return codes, f
    acodes, fa = buffer(ta, at, aesz, "a")
    bcodes, fb = buffer(tb, bt, besz, "b")
    if "stride_am" in ints:
        sa = (ints["stride_am"], ints["stride_ak"])
        sb = (ints["stride_bk"], ints["stride_bn"])
        sc = (ints["stride_cm"], ints["stride_cn"])
    else:  # tutorial 09's device-side descriptors (tl.make_tensor_descriptor): A M x K, B N x K, C M x N dense
        sa, sc = tuple(ta["strides"]), tuple(tcm["strides"])
        sb = (tb["strides"][1], tb["strides"][0])
    # the logical operands, A row-major M x K, B as N x K (K-major) for tc5 gemm
    ga = [acodes[m * sa[0] + k * sa[1]] for m in range(M) for k in range(K)]
    gb = [bcodes[k * sb[0] + n * sb[1]] for n in range(N) for k in range(K)]
    fga, fgb, ref = (os.path.join(work, x) for x in ("ga.bin", "gb.bin", "ref.bin"))
    open(fga, "wb").write(b"".join(c.to_bytes(aesz, "little") for c in ga))
    open(fgb, "wb").write(b"".join(c.to_bytes(besz, "little") for c in gb))
    out = os.path.join(work, "c.bin")
    nc = 1
    for s in tcm["buffer_shape"]:
        nc *= s
    args = []
    for q in meta["params"]:
        if q["name"] == "a_ptr":
            args.append("in:" + fa)
        elif q["name"] == "b_ptr":
            args.append("in:" + fb)
        elif q["name"] == "c_ptr":
            args.append(f"out:{out}:{nc * cesz}")
        elif q["kind"] == "int":
            args.append(f"{'u64' if q['type'] == 'i64' else 'u32'}:{q['value'] & 0xffffffffffffffff}")
        elif q["kind"] == "scratch":
            size = meta.get("global_scratch_size" if q["name"] == "global_scratch" else "profile_scratch_size", 0)
            g = meta["cuda_launch"]["gridDim"]
            args.append(f"scratch:{size * g[0] * g[1] * g[2]}" if size else "null")
        else:
            print(f"{meta['name']}: parameter {q['name']} of kind {q['kind']} is not handled here", file=sys.stderr)
            return 2
    L = meta["cuda_launch"]
    cmd = [tc5, "run", ptx, "--entry", meta["entry"], "--grid", ",".join(map(str, L["gridDim"])),
           "--block", ",".join(map(str, L["blockDim"])), "--shared-bytes", str(L["dynamicSharedMemBytes"]),
           f"--check={check}"]
    for a in args:
        cmd += ["--arg", a]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        print(f"{meta['name']}: tc5 run failed ({r.returncode}): {(r.stdout + r.stderr).strip()[:2000]}")
        return 1
    kind = {"f16": "f16", "bf16": "f16", "f32": "tf32", "e4m3": "f8f6f4", "e5m2": "f8f6f4"}[at]
    model = "hopper" if str(meta.get("ptx_target", "")).startswith("sm_90") else "blackwell"
    g = [tc5, "gemm", "--kind", kind, "--atype", at, "--btype", bt, "--m", str(M), "--n", str(N), "--k", str(K),
         "--a", fga, "--b", fgb, "--model", model, "--out", ref]
    r = subprocess.run(g, capture_output=True, text=True)
    if r.returncode:
        print(f"{meta['name']}: tc5 gemm failed: {(r.stdout + r.stderr).strip()[:2000]}")
        return 1
    vals = [v for (v,) in struct.iter_unpack("<f", open(ref, "rb").read())]
    raw = open(out, "rb").read()
    bad = []
    for m in range(M):
        for n in range(N):
            i = (m * sc[0] + n * sc[1]) * cesz
            got = raw[i:i + cesz]
            v = vals[m * N + n]
            if ct == "f16":
                try:
                    want = struct.pack("<e", v)
                except OverflowError:
                    want = b"\x00\x7c" if v > 0 else b"\x00\xfc"
            else:
                want = struct.pack("<f", v)
            if got != want:
                bad.append((m, n))
    if not bad:
        print(f"{meta['name']}: {M} x {N} x {K} ({model}): {M * N} outputs equal to tc5 gemm")
        return 0
    print(f"{meta['name']}: {M} x {N} x {K} ({model}): {len(bad)} of {M * N} outputs differ from tc5 gemm "
          f"(first at row {bad[0][0]}, column {bad[0][1]})")
    return 1


def run(argv):
    """main, with its scratch directory removed afterwards"""
    from triton_json import run_in_scratch  # tests/ptx, this file's folder
    return run_in_scratch(main, argv)


if __name__ == "__main__":
    sys.exit(run(sys.argv))
