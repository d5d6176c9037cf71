#!/usr/bin/env python3
"""Run FlashAttention-4's forward kernel (flash-attn-4 on PyPI, CuTe DSL,
compiled for sm_100a without a GPU by tests/data/attention/gen_fa4.py) under
`tc5 run` on random bf16 inputs, and check O and the LSE against a float64
attention reference with FA4's own test rule (flash-attn
tests/cute/test_flash_attn.py):

  O:   max|O - ref| <= 2 * max|O_pt - ref| + 2 * max|(ref + 0.3) - 0.3 - ref|
       where ref is the attention in float64 and O_pt the same computation
       in bf16 as FA4's attention_ref(upcast=False, reorder_ops=True) does it
       (K / sqrt(d) rounded to bf16, QK^T rounded to bf16, softmax rounded to
       bf16, PV rounded to bf16; products summed in f32)
  LSE: |LSE - ref_lse| <= 1e-4 + 1e-5 * |ref_lse| (torch.testing.assert_close's
       atol 1e-4, rtol 1e-5 that FA4's LSE test uses), natural log

usage: fa4_run.py TC5 JSON [--check MODE] [--seed N] [--threads N] [--stats] [--long]
--long: a long run, skipped (exit 77) unless TC5_ATTENTION_LONG=1.
Exit status: 0 within the rule, 1 outside it or a kernel error, 2 bad usage,
77 NumPy missing (CTest's skip code).

What the JSON (gen_fa4.py's, from FA4's own host code through the recording
runtime shim) gives: every .param's bytes in order.  Kept as recorded but for
the addresses: the tensor maps (CuTe DSL encodes them itself, inline) are
rebuilt with tc5's tmap: spec from their decoded fields over the buffers of
this run, and a tensor passed as a pointer (the LSE) gets the address tc5
gives its buffer, passed first (--buffer: 0x200000000)."""
import json
import os
import struct
import sys
import tempfile

try:
    import numpy as np
except ImportError:  # CTest: skipped, not failed
    print("fa4_run.py: NumPy is not installed; skipped", file=sys.stderr)
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attn_runner import Refused, main as run_main  # noqa: E402

FIRST_BUFFER = 0x200000000


def bf16_round(x):
    """float32/float64 array -> bf16 values (round to nearest even) as float32"""
    f = np.asarray(x, dtype=np.float32)
    u = f.view(np.uint32).astype(np.uint64)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) << 16
    out = r.astype(np.uint32).view(np.float32)
    return np.where(np.isnan(f), f, out)


def bf16_bits(x):
    return (bf16_round(x).view(np.uint32) >> 16).astype(np.uint16)


def bits_bf16(b):
    return (b.astype(np.uint32) << 16).view(np.float32)


def mask_causal(s):
    """scores s (..., query, key) with the keys right of the diagonal -inf
    (the diagonal aligned at the bottom right, as FA4's causal mask)"""
    sq, sk = s.shape[-2:]
    return np.where(np.arange(sk)[None, :] > np.arange(sq)[:, None] + (sk - sq), -np.inf, s)


def reference(q, k, v, causal, scale):
    """float64 attention, O (B,S,H,D) and the natural-log LSE (B,H,S)"""
    q64, k64, v64 = (x.astype(np.float64) for x in (q, k, v))
    s = np.einsum("bshd,bthd->bhst", q64, k64) * scale
    if causal:
        s = mask_causal(s)
    m = s.max(-1, keepdims=True)
    p = np.exp(s - m)
    l = p.sum(-1, keepdims=True)
    o = np.einsum("bhst,bthd->bshd", p / l, v64)
    lse = (m + np.log(l))[..., 0]
    return o, lse


def reference_bf16(q, k, v, causal, scale):
    """FA4's attention_ref(upcast=False, reorder_ops=True) in bf16: every
    torch op's result rounded to bf16, its products summed in f32"""
    kk = bf16_round(k.astype(np.float32) * np.float32(scale))
    s = bf16_round(np.einsum("bshd,bthd->bhst", q.astype(np.float32), kk))
    if causal:
        s = mask_causal(s)
    m = s.max(-1, keepdims=True)
    p = np.exp(s - m)
    p = bf16_round(p / p.sum(-1, keepdims=True))
    return bf16_round(np.einsum("bhst,bthd->bshd", p, v.astype(np.float32)))


def tmap_spec(p, path, how="in"):
    t = p["tma_decoded"]
    dt = p["tma"]["dtype"]
    return "tmap:" + how + "=%s,type=%s,dims=%s,strides=%s,box=%s,swizzle=%s" % (
        path, dt, "x".join(map(str, t["dims"])), "x".join(map(str, t["strides_bytes"])),
        "x".join(map(str, t["box"])), t["swizzle"])


def prepare(tc5, path, check="default", seed=1, threads=None, stats=False, work=None):
    """the tc5 run command line of the kernel JSON `path` on random inputs
    written under `work`, and what the check needs"""
    meta = json.load(open(path))
    v = meta["variant"]
    kern = meta["kernels"][0]
    ptx = os.path.join(os.path.dirname(os.path.abspath(path)), kern["ptx_file"])
    B, S, H, D, causal = v["batch"], v["seqlen"], v["heads"], v["head_dim"], v["causal"]
    rng = np.random.default_rng(seed)
    work = work or tempfile.mkdtemp(prefix="tc5-fa4-")
    shape = (B, S, H, D)
    q, k, vv = (bf16_bits(rng.standard_normal(shape)) for _ in range(3))
    files = {}
    for name, arr in (("mQ", q), ("mK", k), ("mV", vv)):
        files[name] = os.path.join(work, name + ".bin")
        arr.tofile(files[name])
    files["mO"] = os.path.join(work, "mO.bin")
    np.zeros(shape, np.uint16).tofile(files["mO"])
    lse_path = os.path.join(work, "lse.bin")
    lse_bytes = B * H * S * 4
    cmd = [tc5, "run", ptx, "--entry", kern["entry"], "--check=" + check,
           "--buffer", "out:%s:%d" % (lse_path, lse_bytes)]
    L = kern["launch"]
    cmd += ["--grid", ",".join(map(str, L["grid"])), "--block", ",".join(map(str, L["block"])),
            "--cluster", ",".join(map(str, L["cluster"])), "--shared-bytes", str(L["dynamic_smem_bytes"])]
    if threads:
        cmd += ["--threads", str(threads)]
    if stats:
        cmd += ["--stats"]
    scale = None
    for i, p in enumerate(kern["params"]):
        raw = bytes.fromhex(p["bytes_hex"]) if p.get("bytes_hex") else None
        if p["kind"].startswith("tensor_map"):
            cmd += ["--arg", tmap_spec(p, files[p["tensor"]], "inout" if p["tensor"] == "mO" else "in")]
            continue
        if p.get("tensor") == "mLSE":
            raw = struct.pack("<Q", FIRST_BUFFER) + raw[8:]
        elif p.get("tensor"):
            raise Refused("%s: parameter %d points at %s, which this runner does not place" % (path, i, p["tensor"]))
        if p["kind"] == "float" and scale is None:
            scale = struct.unpack("<f", raw)[0]
        bpath = os.path.join(work, "p%d.bin" % i)
        open(bpath, "wb").write(raw)
        cmd += ["--arg", "bytes:" + bpath]
    # the scale the kernel gets is log2(e) / sqrt(d) (exp2 in the kernel)
    sm_scale = 1.0 / np.sqrt(D)
    if scale is None or abs(scale - sm_scale * np.log2(np.e)) > 1e-6:
        raise Refused("%s: softmax scale parameter %r is not log2(e)/sqrt(%d)" % (path, scale, D))
    return dict(cmd=cmd, meta=meta, files=files, lse_path=lse_path, shape=shape, q=q, k=k, v=vv, causal=causal,
                sm_scale=sm_scale, B=B, S=S, H=H, D=D, work=work, dtype="bf16")


def check(x, dt):
    """O and the LSE against the float64 reference, FA4's rule: (ok, the line)"""
    meta, files, lse_path, shape = x["meta"], x["files"], x["lse_path"], x["shape"]
    q, k, vv, causal, sm_scale = x["q"], x["k"], x["v"], x["causal"], x["sm_scale"]
    B, S, H, D = x["B"], x["S"], x["H"], x["D"]
    o = bits_bf16(np.fromfile(files["mO"], np.uint16).reshape(shape))
    lse = np.fromfile(lse_path, np.float32).reshape(B, H, S)
    qf, kf, vf = (bits_bf16(a) for a in (q, k, vv))
    ref, ref_lse = reference(qf, kf, vf, causal, sm_scale)
    pt = reference_bf16(qf, kf, vf, causal, sm_scale)
    if os.environ.get("FA4_DUMP"):
        np.savez(os.environ["FA4_DUMP"], o=o, ref=ref, pt=pt, lse=lse, ref_lse=ref_lse, q=qf, k=kf, v=vf)
    err = np.abs(o - ref).max()
    err_pt = np.abs(pt - ref).max()
    atol = 2 * np.abs((ref + 0.3) - 0.3 - ref).max()
    bound = 2 * err_pt + atol
    lse_err = np.abs(lse - ref_lse)
    lse_ok = bool(np.all(lse_err <= 1e-4 + 1e-5 * np.abs(ref_lse))) and np.isfinite(lse).all()
    line = ("%s: B=%d S=%d H=%d D=%d causal=%s: O max|err| %.3e <= %.3e (2 x bf16 reference's %.3e + %.3e): %s; "
            "LSE max|err| %.3e (bound 1e-4 + 1e-5|lse|): %s; tc5 run %.1f s"
            % (meta["name"], B, S, H, D, causal, err, bound, err_pt, atol, "ok" if err <= bound else "FAIL",
               lse_err.max(), "ok" if lse_ok else "FAIL", dt))
    return bool(err <= bound and lse_ok and np.isfinite(o).all()), line


def main(argv):
    return run_main(argv, prepare, check, __doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
