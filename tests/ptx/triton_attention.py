#!/usr/bin/env python3
"""Triton's tutorial 06 (fused attention, forward) on tc5, from committed PTX
and the launch metadata gen_triton_corpus.py wrote from Triton's own launcher
(NAME.ptx, NAME.json), against a float64 reference with the tutorial's own
tolerance (issue 32).

usage: triton_attention.py TC5 DIR [--only REGEX] [--check MODE] [--expect FILE]
       triton_attention.py --manifest DIR      (the lines of gpu/ptx_silicon's manifest)

For each DIR/*.json of kernel _attn_fwd: Q, K, V as the tutorial's test makes
them (normal, mean 0, std 0.5, fp16; for fp8 the fp16 values rounded to e5m2
and V stored transposed, as test_op does), drawn from NumPy's generator
seeded by the variant's name; `tc5 run` with the checker on; O and M (the
softmax statistics: m + log2(l), base 2) compared with a float64 reference:
O within the tutorial's atol (1e-2 for fp16, 3 for fp8, rtol 0; the
tutorial compares with a reference computed in the input dtype, this one
is exact), M (float32 in the kernel) within 1e-2, which the tutorial does
not check. Rows the causal mask leaves one key for are in both.

TC5_ATTENTION_LONG=1: each variant also at N_CTX = 1024 and 2048 (the same
PTX: N_CTX, the descriptors' extents and the grid scaled; minutes).

A variant stopped by the checker passes only when --expect FILE names it
with the rule (lines "REGEX RULE  # why"): an expected finding, printed as
such; a finding not named, a wrong number, or a run that an expected
finding did not stop, fail. Exit status: 0 all as expected, 1 otherwise,
77 without NumPy (CTest's skip).

--manifest writes the lines of tests/data/ptx/attn90/kernels.txt for the
variants of DIR (inputs DIR/q_dD.bin, k_dD.bin, v_dD.bin, written too)."""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import zlib

try:
    import numpy as np
except ImportError:
    np = None

TMAP_TYPES = {0: "u8", 1: "u16", 2: "u32", 3: "s32", 4: "u64", 5: "s64", 6: "f16", 7: "f32", 8: "f64", 9: "bf16"}
LOG2E = 1.4426950408889634


def inputs(meta):
    """q, k, v as float64 arrays (the values the kernel sees) and their bytes"""
    import ml_dtypes
    c = meta["constexprs"]
    D = c["HEAD_DIM"]
    fp8 = c.get("FP8_OUTPUT", False)  # Triton 3.3's text (3.0-3.3) has no FP8_OUTPUT
    shape = next(p["tensor"]["shape"] for p in meta["params"] if p["name"] == "M") + [D]
    n = "" if shape[2] == 256 else f"n{shape[2]}"
    rng = np.random.default_rng(zlib.crc32(f"d{D}{'fp8' if fp8 else ''}{n}".encode()))
    q, k, v = (rng.normal(0.0, 0.5, shape).astype(np.float16) for _ in range(3))
    if fp8:
        q, k, v = (x.astype(ml_dtypes.float8_e5m2) for x in (q, k, v))
        raw = [q.tobytes(), k.tobytes(), np.ascontiguousarray(np.swapaxes(v, 2, 3)).tobytes()]
    else:
        raw = [q.tobytes(), k.tobytes(), v.tobytes()]
    return [x.astype(np.float64) for x in (q, k, v)], raw


def reference(meta, q, k, v):
    """O and M (m + log2 l, in base 2) in float64"""
    c = meta["constexprs"]
    sm = next(p["value"] for p in meta["params"] if p["name"] == "sm_scale")
    causal = c["STAGE"] == 3
    s = np.einsum("zhid,zhjd->zhij", q, k) * sm
    if causal:
        n = s.shape[-1]
        s = np.where(np.tril(np.ones((n, n), dtype=bool)), s, -np.inf)
    m = s.max(-1, keepdims=True)
    p = np.exp(s - m)
    l = p.sum(-1, keepdims=True)
    o = np.einsum("zhij,zhjd->zhid", p / l, v)
    return o, (m + np.log(l))[..., 0] * LOG2E


def params(meta, files, dbytes, mbytes, silicon=False):
    """tc5 run's --arg specs (silicon: the manifest's, outputs by size alone)"""
    out = []
    for p in meta["params"]:
        if p["kind"] == "tensormap":
            name = p["name"].split(".")[0][len("desc_"):]
            e = p["cuTensorMapEncodeTiled"]
            buf = f"out={'' if silicon else files['o'] + ':'}{dbytes}" if name == "o" else f"in={files[name]}"
            spec = (f"tmap:{buf},type={TMAP_TYPES[e['tensorDataType']]},dims={'x'.join(map(str, e['globalDim']))},"
                    f"box={'x'.join(map(str, e['boxDim']))},swizzle={e['swizzle']},l2=128B")
            if e["globalStrides_bytes"]:
                spec += f",strides={'x'.join(map(str, e['globalStrides_bytes']))}"
            out.append(spec)
        elif p["kind"] == "pointer" and p["name"] in ("Q", "K", "V"):  # Triton 3.3's text: pointers, no maps
            out.append(f"in:{files[p['name'].lower()]}")
        elif p["kind"] == "pointer" and p["name"] == "Out":
            out.append(f"out:{dbytes}" if silicon else f"out:{files['o']}:{dbytes}")
        elif p["kind"] == "pointer":
            out.append(f"out:{mbytes}" if silicon else f"out:{files['m']}:{mbytes}")
        elif p["kind"] == "float":
            out.append(f"f32:{p['value']!r}")
        elif p["kind"] == "int":
            out.append(f"{'s64' if p['type'] == 'i64' else 's32'}:{p['value']}")
        elif p["kind"] == "scratch":
            if meta.get("global_scratch_size" if p["name"] == "global_scratch" else "profile_scratch_size", 0):
                raise ValueError(f"{meta['name']}: {p['name']} has a size; not launched here")
            out.append("null")
        else:
            raise ValueError(f"{meta['name']}: parameter {p['name']} of kind {p['kind']}")
    return out


def sizes(meta):
    c = meta["constexprs"]
    shape = next(p["tensor"]["shape"] for p in meta["params"] if p["name"] == "M")
    n = shape[0] * shape[1] * shape[2]
    return n * c["HEAD_DIM"] * (1 if c.get("FP8_OUTPUT") else 2), n * 4


def variants(d, only="", long=False):
    out = []
    for path in sorted(glob.glob(os.path.join(d, "*.json"))):
        meta = json.load(open(path))
        if meta.get("kernel") != "_attn_fwd" or (only and not re.search(only, meta["name"])):
            continue
        out.append((path[:-5] + ".ptx", meta))
        if long:
            out += [(path[:-5] + ".ptx", longer(meta, n)) for n in (1024, 2048)]
    return out


def longer(meta, n):
    """the launch of meta at N_CTX = n: the same kernel (N_CTX is a runtime
    argument), the sequence's extents scaled (N_CTX, Z H N_CTX in shapes and
    tensor maps, the fp8 V's row stride N_CTX), the grid's query blocks"""
    meta = json.loads(json.dumps(meta))
    n0 = next(p["value"] for p in meta["params"] if p["name"] == "N_CTX")
    shape = next(p["tensor"]["shape"] for p in meta["params"] if p["name"] == "M")
    y0 = shape[0] * shape[1] * n0
    y1 = y0 // n0 * n
    esize = 1 if meta["constexprs"].get("FP8_OUTPUT", False) else 2
    for p in meta["params"]:
        if p["kind"] == "int" and p["value"] in (n0, y0):
            p["value"] = n if p["value"] == n0 else y1
        elif p["kind"] == "pointer":
            p["tensor"]["shape"] = shape[:2] + [n]
        elif p["kind"] == "tensormap":
            e = p["cuTensorMapEncodeTiled"]
            e["globalDim"] = [y1 if x == y0 else x for x in e["globalDim"]]
            e["globalStrides_bytes"] = [n * esize if x == n0 * esize else x for x in e["globalStrides_bytes"]]
    meta["cuda_launch"]["gridDim"][0] = n // meta["constexprs"]["BLOCK_M"]
    meta["name"] += f"@N_CTX={n}"
    return meta


def manifest(d):
    """the silicon manifest's lines (outputs: M, then O) and the input files"""
    lines = []
    for ptx, meta in variants(d):
        (q, k, v), raw = inputs(meta)
        D = meta["constexprs"]["HEAD_DIM"]
        files = {}
        for name, b in zip("qkv", raw):
            files[name] = f"{name}_d{D}.bin"
            open(os.path.join(d, files[name]), "wb").write(b)
        dbytes, mbytes = sizes(meta)
        args = params(meta, files, dbytes, mbytes, silicon=True)
        L = meta["cuda_launch"]
        lines.append(" ".join([os.path.basename(ptx), meta["entry"], ",".join(map(str, L["gridDim"])),
                               str(L["blockDim"][0]), str(L["dynamicSharedMemBytes"])] + args))
    return lines


def main(argv):
    if len(argv) == 3 and argv[1] == "--manifest":
        if np is None:
            print("NumPy is needed", file=sys.stderr)
            return 2
        print("\n".join(manifest(argv[2])))
        return 0
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    if np is None:
        print("triton_attention.py: NumPy not found: skipped")
        return 77
    tc5, d = argv[1], argv[2]
    opt = dict(zip(argv[3::2], argv[4::2]))
    check = opt.get("--check", "default")
    expect = []
    if "--expect" in opt:
        for line in open(opt["--expect"]):
            line = line.split("#")[0].split()
            if line:
                expect.append((line[0], line[1]))
    work = tempfile.mkdtemp(prefix="tc5-attn-")
    bad = n = 0
    for ptx, meta in variants(d, opt.get("--only", ""), os.environ.get("TC5_ATTENTION_LONG") == "1"):
        n += 1
        name = meta["name"]
        (q, k, v), raw = inputs(meta)
        files = {}
        for key, b in zip("qkv", raw):
            files[key] = os.path.join(work, key + ".bin")
            open(files[key], "wb").write(b)
        files["o"], files["m"] = os.path.join(work, "o.bin"), os.path.join(work, "m.bin")
        dbytes, mbytes = sizes(meta)
        L = meta["cuda_launch"]
        cmd = [tc5, "run", ptx, "--entry", meta["entry"], "--grid", ",".join(map(str, L["gridDim"])),
               "--block", str(L["blockDim"][0]), "--shared-bytes", str(L["dynamicSharedMemBytes"]),
               f"--check={check}"]
        for a in params(meta, files, dbytes, mbytes):
            cmd += ["--arg", a]
        r = subprocess.run(cmd, capture_output=True, text=True)
        text = r.stdout + r.stderr
        rules = sorted(set(re.findall(r"\[([a-z][a-z0-9]*(?:-[a-z0-9]+)+)\]", text)))
        want = [rule for pat, rule in expect if re.search(pat, name)]
        if rules or want:
            if rules and rules == sorted(set(want)):
                print(f"expected {name}: stopped by the checker: {', '.join(rules)} (named in the expectations)")
            else:
                bad += 1
                print(f"FAIL {name}: findings {rules or 'none'}, expected {want or 'none'}")
                print("     " + "\n     ".join(text.strip().splitlines()[:6]))
            continue
        if r.returncode:
            bad += 1
            print(f"FAIL {name}: tc5 run failed ({r.returncode}): {text.strip()[:1500]}")
            continue
        fp8 = meta["constexprs"].get("FP8_OUTPUT", False)
        odt = np.float16
        if fp8:
            import ml_dtypes
            odt = ml_dtypes.float8_e5m2
        o = np.fromfile(files["o"], dtype=odt).astype(np.float64).reshape(q.shape)
        m = np.fromfile(files["m"], dtype=np.float32).astype(np.float64).reshape(q.shape[:-1])
        ro, rm = reference(meta, q, k, v)
        sm = next(p["value"] for p in meta["params"] if p["name"] == "sm_scale")
        atol = 3.0 if fp8 else 1e-2
        matol = 1e-2
        eo, em = np.abs(o - ro).max(), np.abs(m - rm).max()
        ok = bool(eo <= atol and em <= matol and np.isfinite(o).all() and np.isfinite(m).all())
        bad += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {name}: max |O - ref| {eo:.3g} (atol {atol:g}), "
              f"max |M - ref| {em:.3g} (atol {matol:.3g}), no finding")
    print(f"{n} variants, {bad} not as expected")
    return 1 if bad or not n else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
