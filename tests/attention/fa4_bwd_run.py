#!/usr/bin/env python3
"""Run FlashAttention-4's backward pass (its three sm_100a kernels: the
preprocess (dPsum = rowsum(O dO), LSE in log2, dQaccum zeroed), the main
kernel (a CTA pair: dK, dV and dQ accumulated in f32 with atomics) and the
postprocess (dQaccum to bf16)) on tc5 through the Python package
(tc5.run_ptx with host addresses), from the launches FA4's own host code made
(tests/data/ptx/census/fa4/fa4_bwd_noncausal_*.json: seqlen 1024, 2 heads,
d 128, bf16), and check dQ, dK, dV against float64 with FA4's own test rule
(flash-attn tests/cute/test_flash_attn.py):

  |g - g_ref| <= 2 max|g_pt - g_ref| + 2 max|(g_ref + 0.3) - 0.3 - g_ref|

g_ref: the gradients in float64; g_pt: the same computation in bf16 as
attention_ref(upcast=False, reorder_ops=True)'s autograd does it, every
op's result rounded to bf16, products summed in f32. O and the LSE the
backward reads are the float64 forward's (O rounded to bf16).

usage: fa4_bwd_run.py [--check MODE] [--seed N] [--long]
Exit status: 0 within the rule, 1 outside it, a kernel error or a checker
finding, 77 skipped (NumPy or the tc5 package missing, or --long without
TC5_ATTENTION_LONG=1)."""
import json
import os
import struct
import sys
import time

try:
    import numpy as np
    import tc5
except ImportError as e:
    print("fa4_bwd_run.py: %s; skipped" % e)
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fa4_run import bf16_round, bf16_bits, bits_bf16  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "ptx", "census", "fa4")
KERNELS = ("preprocess", "main", "postprocess")
DT = {"bfloat16": np.uint16, "float32": np.float32}


def reference(q, k, v, do, scale):
    """float64 forward and backward of softmax(scale q k^T) v: O, LSE, dQ, dK, dV"""
    q, k, v, do = (x.astype(np.float64) for x in (q, k, v, do))
    s = np.einsum("bshd,bthd->bhst", q, k) * scale
    m = s.max(-1, keepdims=True)
    p = np.exp(s - m)
    l = p.sum(-1, keepdims=True)
    p /= l
    o = np.einsum("bhst,bthd->bshd", p, v)
    dv = np.einsum("bhst,bshd->bthd", p, do)
    dp = np.einsum("bshd,bthd->bhst", do, v)
    ds = p * (dp - (dp * p).sum(-1, keepdims=True))
    dq = np.einsum("bhst,bthd->bshd", ds, k) * scale
    dk = np.einsum("bhst,bshd->bthd", ds, q) * scale
    return o, (m + np.log(l))[..., 0], dq, dk, dv


def reference_bf16(q, k, v, do, scale):
    """the bf16 computation of FA4's attention_ref(upcast=False,
    reorder_ops=True) and its autograd, each op rounded to bf16"""
    f = lambda x: x.astype(np.float32)  # noqa: E731
    kk = bf16_round(f(k) * np.float32(scale))
    s = bf16_round(np.einsum("bshd,bthd->bhst", f(q), kk))
    p = np.exp(s - s.max(-1, keepdims=True))
    p = bf16_round(p / p.sum(-1, keepdims=True))
    dv = bf16_round(np.einsum("bhst,bshd->bthd", p, f(do)))
    dp = bf16_round(np.einsum("bshd,bthd->bhst", f(do), f(v)))
    ds = bf16_round(p * (dp - (dp * p).sum(-1, keepdims=True)))
    dq = bf16_round(np.einsum("bhst,bthd->bshd", ds, kk))
    dkk = bf16_round(np.einsum("bhst,bshd->bthd", ds, f(q)))
    dk = bf16_round(dkk * np.float32(scale))
    return dq, dk, dv


def main(argv):
    if "--long" in argv and os.environ.get("TC5_ATTENTION_LONG") != "1":
        print("fa4_bwd_run.py: a long run; skipped (TC5_ATTENTION_LONG=1 runs it)")
        return 77
    check = argv[argv.index("--check") + 1] if "--check" in argv else "default"
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 1
    metas = {n: json.load(open(os.path.join(DATA, "fa4_bwd_noncausal_%s.json" % n))) for n in KERNELS}
    v = metas["main"]["variant"]
    B, S, H, D = v["batch"], v["seqlen"], v["heads"], v["head_dim"]
    shape = (B, S, H, D)
    scale = 1.0 / np.sqrt(D)
    rng = np.random.default_rng(seed)
    q, k, vv, do = (bf16_bits(rng.standard_normal(shape)) for _ in range(4))
    qf, kf, vf, dof = (bits_bf16(x) for x in (q, k, vv, do))
    o, lse, dq_ref, dk_ref, dv_ref = reference(qf, kf, vf, dof, scale)
    # one buffer for each tensor FA4's host code passed (by its recorded
    # address: the three kernels share them), 1024-byte aligned
    bufs, arrays = {}, {}
    for n in KERNELS:
        for name, t in metas[n]["tensors"].items():
            if t["data_ptr"] in bufs:
                continue
            raw = np.zeros(t["nbytes"] + 1024, np.uint8)
            off = (-raw.ctypes.data) % 1024
            a = raw[off:off + t["nbytes"]].view(DT[t["dtype"]]).reshape(t["shape"])
            bufs[t["data_ptr"]] = a
            arrays[name] = a
    fill = {"mQ": q, "mK": k, "mV": vv, "mdO": do, "mO": bf16_bits(o), "mLSE": lse.astype(np.float32)}
    for n in KERNELS:  # the preprocess's mLSE is the forward's (natural log)
        for name, t in metas[n]["tensors"].items():
            if name in fill and not (n == "main" and name == "mLSE"):
                bufs[t["data_ptr"]][...] = fill[name].reshape(t["shape"])
    total = 0.0
    for n in KERNELS:
        kern = metas[n]["kernels"][0]
        ptx = open(os.path.join(DATA, kern["ptx_file"])).read()
        args = []
        for p in kern["params"]:
            raw = bytes.fromhex(p["bytes_hex"])
            if p["kind"].startswith("tensor_map"):
                t = p["tma_decoded"]
                spec = "type=%s,dims=%s,strides=%s,box=%s,swizzle=%s" % (
                    p["tma"]["dtype"], "x".join(map(str, t["dims"])), "x".join(map(str, t["strides_bytes"])),
                    "x".join(map(str, t["box"])), t["swizzle"])
                a = bufs[int(t["address"], 16)]
                args.append(tc5.TensorMap(spec, a.reshape(-1).view(np.uint8)))
                continue
            if p.get("tensor"):
                a = bufs[int(p["address"], 16)]
                raw = struct.pack("<Q", a.ctypes.data) + raw[8:]
            args.append(raw)
        L = kern["launch"]
        t0 = time.time()
        findings, _ = tc5.run_ptx(ptx, L["grid"], L["block"], args, entry=kern["entry"],
                                  shared_bytes=L["dynamic_smem_bytes"], cluster=L["cluster"], check=check,
                                  name=kern["ptx_file"], buffers=[a.reshape(-1).view(np.uint8) for a in bufs.values()],
                                  host_addresses=True)
        total += time.time() - t0
        errors = [f for f in findings if not f["warning"]]
        if errors:
            for f in errors[:5]:
                print(f["text"])
            print("fa4 backward %s: %d checker findings, rules: %s"
                  % (n, len(errors), " ".join(sorted({f["rule"] for f in errors}))))
            return 1
    dq_pt, dk_pt, dv_pt = reference_bf16(qf, kf, vf, dof, scale)
    ok = True
    line = []
    for name, ref, pt in (("mdQ", dq_ref, dq_pt), ("mdK", dk_ref, dk_pt), ("mdV", dv_ref, dv_pt)):
        g = bits_bf16(arrays[name].reshape(shape))
        err = np.abs(g - ref).max()
        bound = 2 * np.abs(pt - ref).max() + 2 * np.abs((ref + 0.3) - 0.3 - ref).max()
        ok &= bool(err <= bound) and bool(np.isfinite(g).all())
        line.append("%s max|err| %.3e <= %.3e: %s" % (name[1:], err, bound, "ok" if err <= bound else "FAIL"))
    print("fa4 backward B=%d S=%d H=%d D=%d: %s; tc5 %.1f s" % (B, S, H, D, "; ".join(line), total))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
