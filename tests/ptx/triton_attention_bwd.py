#!/usr/bin/env python3
"""Triton's tutorial 06 backward (`_attn_bwd`, fused attention) on tc5, from committed PTX and the launch
metadata gen_triton_corpus.py wrote from Triton's own launcher (NAME.ptx, NAME.json), against a float64
reference with the tutorial's tolerance (issue 52: the releases' backward kernels). The kernel is causal
when its CAUSAL constexpr says so, and always where it has none (the texts before 3.6: their backward
masks the diagonal blocks unconditionally).

usage: triton_attention_bwd.py TC5 DIR [--only REGEX] [--check MODE] [--expect FILE]
(--expect: lines "REGEX RULE  # why": a kernel whose file name (no .ptx) matches, stopped by the checker's RULE, is as
expected; a finding not named, or a named one that did not come, fails)

For each DIR/*.json of kernel _attn_bwd: one (batch, head) of the launch (grid z = 1: the kernel's
program_id(2) picks the head, so head 0 reads and writes the first N_CTX x HEAD_DIM of each tensor),
Q, K, V normal (mean 0, std 0.5, fp16) and dO normal (std 1, fp16) from NumPy's generator seeded by
the kernel's name; the kernel's inputs as the tutorial's `_attention.backward` makes them: K scaled by
sm_scale / ln 2 (and rounded to fp16), M the forward's softmax statistics (m + log2 l, base 2, float32)
and D the preprocess kernel's rowsum(O * dO) (float32; O rounded to fp16), both from the float64
reference; `tc5 run` with the checker on; dQ, dK, dV (fp16) against the float64 gradients within the
tutorial's atol 1e-2 (rtol 0). Exit status: 0 all within, 1 otherwise, 77 without NumPy."""
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

LOG2E = 1.4426950408889634


def reference(q, k, v, do, sm, causal):
    s = q @ k.T * sm
    if causal:
        n = s.shape[0]
        s = np.where(np.tril(np.ones((n, n), dtype=bool)), s, -np.inf)
    m = s.max(-1, keepdims=True)
    p = np.exp(s - m)
    l = p.sum(-1, keepdims=True)
    p /= l
    o = p @ v
    mstat = (m + np.log(l))[:, 0] * LOG2E
    o16 = o.astype(np.float16).astype(np.float64)
    delta = (o16 * do).sum(-1)
    dv = p.T @ do
    dp = do @ v.T
    ds = p * (dp - (o * do).sum(-1, keepdims=True))
    dq = ds @ k * sm
    dk = ds.T @ q * sm
    return mstat, delta, dq, dk, dv


def run(tc5, ptx, meta, check, work, expect=()):
    c = meta["constexprs"]
    val = {p["name"]: p.get("value") for p in meta["params"]}
    D, N, sm = c["HEAD_DIM"], val["N_CTX"], val["sm_scale"]
    # texts before 3.6's (release/3.5.x and older) have no CAUSAL: their _attn_bwd always masks (causal)
    causal = bool(c.get("CAUSAL", True))
    rng = np.random.default_rng(zlib.crc32(meta["name"].encode()))
    q, k, v = (rng.normal(0.0, 0.5, (N, D)).astype(np.float16).astype(np.float64) for _ in range(3))
    do = rng.normal(0.0, 1.0, (N, D)).astype(np.float16).astype(np.float64)
    mstat, delta, rq, rk, rv = reference(q, k, v, do, sm, causal)
    karg = (k * (sm * LOG2E)).astype(np.float16)  # the tutorial's arg_k, in fp16
    data = {"Q": q.astype(np.float16).tobytes(), "K": karg.tobytes(), "V": v.astype(np.float16).tobytes(),
            "DO": do.astype(np.float16).tobytes(), "M": mstat.astype(np.float32).tobytes(),
            "D": delta.astype(np.float32).tobytes()}
    files, args = {}, []
    for p in meta["params"]:
        name = p["name"]
        if p["kind"] == "pointer" and name in data:
            files[name] = os.path.join(work, name + ".bin")
            open(files[name], "wb").write(data[name])
            args.append(f"in:{files[name]}")
        elif p["kind"] == "pointer" and name in ("DQ", "DK", "DV"):
            files[name] = os.path.join(work, name + ".bin")
            args.append(f"out:{files[name]}:{N * D * 2}")
        elif p["kind"] == "float":
            args.append(f"f32:{p['value']!r}")
        elif p["kind"] == "int":
            args.append(f"{'s64' if p['type'] == 'i64' else 's32'}:{p['value']}")
        elif p["kind"] == "scratch":
            if meta.get("global_scratch_size" if name == "global_scratch" else "profile_scratch_size", 0):
                raise ValueError(f"{meta['name']}: {name} has a size; not launched here")
            args.append("null")
        else:
            raise ValueError(f"{meta['name']}: parameter {name} of kind {p['kind']}")
    L = meta["cuda_launch"]
    cmd = [tc5, "run", ptx, "--entry", meta["entry"], "--grid", f"{L['gridDim'][0]},1,1",
           "--block", str(L["blockDim"][0]), "--shared-bytes", str(L["dynamicSharedMemBytes"]), f"--check={check}"]
    for a in args:
        cmd += ["--arg", a]
    r = subprocess.run(cmd, capture_output=True, text=True)
    text = r.stdout + r.stderr
    rules = sorted(set(re.findall(r"\[([a-z][a-z0-9]*(?:-[a-z0-9]+)+)\]", text)))
    want = sorted(set(rule for pat, rule in expect if re.search(pat, os.path.basename(ptx)[:-4])))
    if rules or want:
        if rules == want:
            return True, f"stopped by the checker: {', '.join(rules)} (expected)"
        return False, f"findings {rules or 'none'}, expected {want or 'none'}: {text.strip()[:600]}"
    if r.returncode:
        return False, f"tc5 run failed ({r.returncode}): {text.strip()[:1500]}"
    errs = []
    for key, ref in (("DQ", rq), ("DK", rk), ("DV", rv)):
        got = np.fromfile(files[key], dtype=np.float16).astype(np.float64).reshape(N, D)
        errs.append((key, np.abs(got - ref).max() if np.isfinite(got).all() else np.inf))
    ok = all(e <= 1e-2 for _, e in errs)
    return ok, ", ".join(f"max |{k} - ref| {e:.3g}" for k, e in errs) + " (atol 0.01), no finding"


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    if np is None:
        print("triton_attention_bwd.py: NumPy not found: skipped")
        return 77
    tc5, d = argv[1], argv[2]
    opt = dict(zip(argv[3::2], argv[4::2]))
    work = tempfile.mkdtemp(prefix="tc5-attn-bwd-")
    expect = []
    if "--expect" in opt:
        for line in open(opt["--expect"]):
            line = line.split("#")[0].split()
            if line:
                expect.append((line[0], line[1]))
    n = bad = 0
    for path in sorted(glob.glob(os.path.join(d, "*.json"))):
        meta = json.load(open(path))
        if meta.get("kernel") != "_attn_bwd" or not re.search(opt.get("--only", ""), os.path.basename(path)):
            continue
        n += 1
        ok, text = run(tc5, path[:-5] + ".ptx", meta, opt.get("--check", "default"), work, expect)
        bad += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {os.path.basename(path)[:-5]}: {text}")
    print(f"{n} variants, {bad} not as expected")
    return 1 if bad or not n else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
