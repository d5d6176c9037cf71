#!/usr/bin/env python3
"""Run Gluon's Blackwell attention example (Triton's python/examples/gluon/
01-attention-forward.py, compiled for sm_100a by
tests/data/attention/gen_gluon_attention.py) or Triton's tutorial 06 forward
(gen_triton06.py) under `tc5 run` on random fp16 inputs, from the launch
Triton's own launcher computed (NAME.json), and check O and M against a
float64 attention reference:

  O: |O - ref| <= 1e-2 everywhere (the example's and the tutorial's own
     test_op for fp16: torch.testing.assert_close(ref, out, atol=1e-2, rtol=0))
  M: the kernel's row statistic m + log2(l), in the log2 domain of
     qk_scale = sm_scale * log2(e): |M - ref| <= 1e-4 + 1e-5 |ref| (the rule
     FA4's tests hold the LSE to; the example's test does not check M), at
     the rows where the example stores it (below: each tile's first half of
     rows gets the second half's statistic, the rest stays unwritten)

Inputs as the example's test makes them: normal(0, 0.5), rounded to fp16.

usage: triton_attn_run.py TC5 JSON [--check MODE] [--seed N] [--threads N] [--stats] [--long]
--long: a long run, skipped (exit 77) unless TC5_ATTENTION_LONG=1.
Exit status: 0 within the rule, 1 outside it or a kernel error or a checker
finding, 2 bad usage, 77 NumPy missing (CTest's skip code)."""
import json
import os
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print("triton_attn_run.py: NumPy is not installed; skipped", file=sys.stderr)
    sys.exit(77)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ptx"))
from triton_json import TMAP_TYPES  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attn_runner import Refused, main as run_main  # noqa: E402

SWZ = {"NONE": "none", "32B": "32B", "64B": "64B", "128B": "128B"}


def reference(q, k, v, causal, sm_scale):
    """float64 attention (B, H, S, D) and M = log2 of the row sums of
    exp2(s * sm_scale * log2 e), as the kernel keeps it"""
    q64, k64, v64 = (x.astype(np.float64) for x in (q, k, v))
    s = np.einsum("bhsd,bhtd->bhst", q64, k64) * sm_scale
    if causal:
        n = s.shape[-1]
        s = np.where(np.arange(n)[None, :] > np.arange(n)[:, None], -np.inf, s)
    m = s.max(-1, keepdims=True)
    p = np.exp(s - m)
    l = p.sum(-1, keepdims=True)
    o = np.einsum("bhst,bhtd->bhsd", p / l, v64)
    return o, ((m + np.log(l)) / np.log(2))[..., 0]


def prepare(tc5, path, check="default", seed=1, threads=None, stats=False, work=None):
    """the tc5 run command line of the kernel JSON `path` on random inputs
    written under `work`, and what the check needs"""
    meta = json.load(open(path))
    ptx = path[:-5] + ".ptx"
    P = {p["name"]: p for p in meta["params"]}
    # an integer is a parameter, or a constexpr when Triton specialised it (1)
    val = lambda n: P[n]["value"] if n in P else meta["constexprs"][n]  # noqa: E731
    Z, H, N = val("Z"), val("H"), val("N_CTX")
    D = meta["constexprs"]["HEAD_DIM"]
    causal = meta["constexprs"]["STAGE"] == 3
    sm_scale = P["sm_scale"]["value"]
    q_type = [p for p in meta["params"] if p["name"] == "desc_q.tensormap"][0]["descriptor"]["base"]["dtype"]
    if q_type != "float16":
        raise Refused("%s: only the fp16 kernels are run here" % path)
    rng = np.random.default_rng(seed)
    work = work or tempfile.mkdtemp(prefix="tc5-gluon-attn-")
    shape = (Z, H, N, D)
    arrs = {n: (rng.standard_normal(shape) * 0.5).astype(np.float16) for n in ("q", "k", "v")}
    files = {}
    for n, a in arrs.items():
        files[n] = os.path.join(work, n + ".bin")
        a.tofile(files[n])
    files["o"] = os.path.join(work, "o.bin")
    m_path = os.path.join(work, "m.bin")
    L = meta["cuda_launch"]
    cmd = [tc5, "run", ptx, "--entry", meta["entry"], "--check=" + check,
           "--grid", ",".join(map(str, L["gridDim"])), "--block", ",".join(map(str, L["blockDim"])),
           "--shared-bytes", str(L["dynamicSharedMemBytes"])]
    if L.get("clusterDim"):
        cmd += ["--cluster", ",".join(map(str, L["clusterDim"]))]
    if threads:
        cmd += ["--threads", str(threads)]
    if stats:
        cmd += ["--stats"]
    for p in meta["params"]:
        kind, name = p["kind"], p["name"]
        if kind == "float":
            cmd += ["--arg", "f32:%r" % p["value"]]
        elif kind == "int":
            cmd += ["--arg", "%s:%d" % ({"i32": "u32", "i64": "u64"}[p["type"]], p["value"])]
        elif kind == "pointer" and name == "M":
            cmd += ["--arg", "out:%s:%d" % (m_path, Z * H * N * 4)]
        elif kind == "scratch":
            if meta["global_scratch_size"] or meta["profile_scratch_size"]:
                raise Refused("%s: scratch not placed by this runner" % path)
            cmd += ["--arg", "null"]
        elif kind == "tensormap":
            e = p["cuTensorMapEncodeTiled"]
            t = name.split(".")[0][len("desc_"):]
            how = "out=%s:%d" % (files[t], Z * H * N * D * 2) if t == "o" else "in=" + files[t]
            cmd += ["--arg", "tmap:%s,type=%s,dims=%s,strides=%s,box=%s,swizzle=%s" % (
                how, TMAP_TYPES[e["tensorDataType"]], "x".join(map(str, e["globalDim"])),
                "x".join(map(str, e["globalStrides_bytes"])), "x".join(map(str, e["boxDim"])), SWZ[e["swizzle"]])]
        else:
            raise Refused("%s: parameter %s (%s) not placed by this runner" % (path, name, kind))
    return dict(cmd=cmd, meta=meta, files=files, m_path=m_path, shape=shape, arrs=arrs, causal=causal,
                sm_scale=sm_scale, Z=Z, H=H, N=N, D=D, work=work, dtype="f16")


def check(x, dt):
    """O and M against the float64 reference: (ok, the line)"""
    meta, files, m_path, shape, arrs = x["meta"], x["files"], x["m_path"], x["shape"], x["arrs"]
    Z, H, N, D, causal, sm_scale = x["Z"], x["H"], x["N"], x["D"], x["causal"], x["sm_scale"]
    o = np.fromfile(files["o"], np.float16).reshape(shape).astype(np.float64)
    m = np.fromfile(m_path, np.float32).reshape(Z, H, N)
    ref, ref_m = reference(arrs["q"], arrs["k"], arrs["v"], causal, sm_scale)
    if os.environ.get("GLUON_DUMP"):
        np.savez(os.environ["GLUON_DUMP"], o=o, ref=ref, m=m, ref_m=ref_m)
    err = np.abs(o - ref).max()
    # What the example stores in M (commit db4666f2): _attn_fwd_correction_epilogue
    # runs for both halves of a BLOCK_M tile (s0, s1) and stores each at rows
    # [0, SPLIT_M) of the tile (offs_m += gl.arange(0 * SPLIT_M, 1 * SPLIT_M)),
    # so the first half's rows end holding the second half's statistic and
    # the second half's rows are never written (the example's test checks
    # only O).  The same on a B200: the stores are in program order in one
    # partition.  Checked as stored.
    want = ref_m
    if meta.get("tutorial", "").endswith("gluon/01-attention-forward.py"):
        bm = meta["constexprs"]["BLOCK_M"]
        sm = bm // 2
        want = np.zeros_like(ref_m)
        for t in range(0, N, bm):
            want[..., t:t + sm] = ref_m[..., t + sm:t + bm]
    m_err = np.abs(m - want)
    m_ok = bool(np.all(m_err <= 1e-4 + 1e-5 * np.abs(ref_m)))
    line = ("%s: Z=%d H=%d N_CTX=%d D=%d causal=%s %d-CTA: O max|err| %.3e (bound 1e-2): %s; M max|err| %.3e "
            "(bound 1e-4 + 1e-5|M|): %s; tc5 run %.1f s" % (meta["name"], Z, H, N, D, causal, meta["num_ctas"], err,
                                                            "ok" if err <= 1e-2 else "FAIL", m_err.max(),
                                                            "ok" if m_ok else "FAIL", dt))
    return bool(err <= 1e-2 and m_ok), line


def main(argv):
    return run_main(argv, prepare, check, __doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
