#!/usr/bin/env python3
"""bench_attention: attention kernels under `tc5 run --threads 1` against
`tc5 gemm --threads 1` of the same two GEMMs (QK^T and PV, every head) in
the same run, and the checker's overhead (--check=default against
--check=none). Seconds, thread-instructions/s and the ratios; best of
ROUNDS each, in CPU seconds of the child process (user + system: the wall
clock of a shared machine counts other processes); process start, PTX load
and file I/O counted on both sides (issue 32: runner at most 6x the GEMMs,
checker at most 1.5x).

usage: bench/bench_attention.py [TC5] [--rounds N] [--only REGEX]
       bench/bench_attention.py --binaries TC5_A,TC5_B,... [--rounds N] [--only REGEX]
       (TC5: the CLI, default build/tc5; NumPy needed; --binaries: the checker's
       share — default against --check=none — of each CLI, alternately in one run)

Kernels (seqlen 1024, d 128, 2 heads, batch 1; committed PTX + launch):
  FlashAttention-4 forward, bf16, a CTA pair       tests/data/ptx/census/fa4
  FlashAttention-4 forward, bf16, causal           tests/data/attention/fa4 (if generated)
  Triton tutorial 06 forward, fp16                 tests/data/attention/triton06
    (its causal non-warp-specialised form reads Tensor Memory never written
    and discards the values: it runs with no finding, docs/check.md)
  Gluon's attention example, fp16                  tests/data/attention/gluon
The GEMM baseline is the full QK^T (S x S x d) and PV (S x d x S) per head,
causal or not: what a causal kernel skips is part of its advantage."""
import atexit
import os
import shutil
import re
import resource
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "attention"))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import pyfind  # noqa: E402
pyfind.need("numpy")  # the tests' Python (scripts/pyenv.sh) when this one has no NumPy
import numpy as np  # noqa: E402
import fa4_run  # noqa: E402
import triton_attn_run  # noqa: E402

DATA = os.path.join(ROOT, "tests", "data")
KERNELS = [
    ("FA4 fwd bf16 (2-CTA)", fa4_run, os.path.join(DATA, "ptx", "census", "fa4", "fa4_fwd_noncausal_main.json")),
    ("FA4 fwd bf16 causal", fa4_run, os.path.join(DATA, "attention", "fa4", "fa4_fwd_d128_s1024_causal_main.json")),
    ("Triton 06 fwd fp16", triton_attn_run,
     os.path.join(DATA, "attention", "triton06", "t06_attn_fwd_fp16_d128_full.json")),
    ("Gluon attention fp16", triton_attn_run,
     os.path.join(DATA, "attention", "gluon", "gluon_attn_fp16_d128_n1024_full_1cta.json")),
]
STATS = re.compile(r"tc5 run: (\d+) thread-instructions .* ([0-9.]+) s, ")


def timed(cmd):
    """the child's CPU seconds (user + system): on a shared machine the wall
    clock counts other processes' time; both sides are single-threaded"""
    t0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run(cmd, capture_output=True, text=True)
    t1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    dt = (t1.ru_utime - t0.ru_utime) + (t1.ru_stime - t0.ru_stime)
    if r.returncode:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(cmd[:3]), r.returncode, r.stderr[-1500:]))
    return dt, r.stderr + r.stdout


def gemms(tc5, x, work):
    """the commands of tc5 gemm for QK^T and PV of every head, one thread"""
    t = x["dtype"]
    if "q" in x:  # FA4: (B, S, H, D) codes
        q, k, v = x["q"], x["k"], x["v"]
        heads = [(q[b, :, h], k[b, :, h], v[b, :, h]) for b in range(q.shape[0]) for h in range(q.shape[2])]
    else:  # Triton: (Z, H, N, D) fp16
        a = x["arrs"]
        heads = [(a["q"][z, h].view(np.uint16), a["k"][z, h].view(np.uint16), a["v"][z, h].view(np.uint16))
                 for z in range(a["q"].shape[0]) for h in range(a["q"].shape[1])]
    cmds = []
    rng = np.random.default_rng(0)
    for i, (qh, kh, vh) in enumerate(heads):
        S, D = qh.shape
        f = {n: os.path.join(work, "g%d_%s.bin" % (i, n)) for n in ("q", "k", "v", "p", "s", "o")}
        np.ascontiguousarray(qh).tofile(f["q"])
        np.ascontiguousarray(kh).tofile(f["k"])
        np.ascontiguousarray(vh).tofile(f["v"])
        # P: probabilities as the kernel feeds them (in [0, 1]), of the input type
        p = rng.random((S, S)).astype(np.float32).view(np.uint32) >> 16
        p.astype(np.uint16).tofile(f["p"])
        base = [tc5, "gemm", "--kind", "f16", "--atype", t, "--btype", t, "--threads", "1"]
        cmds.append(base + ["--m", str(S), "--n", str(S), "--k", str(D), "--a", f["q"], "--b", f["k"], "--out", f["s"]])
        cmds.append(base + ["--m", str(S), "--n", str(D), "--k", str(S), "--a", f["p"], "--b", f["v"],
                            "--b-major", "MN", "--out", f["o"]])
    return cmds


def compare(bins, rounds, only):
    """the checker's share of several CLIs (an old and a new build), in one run:
    each round runs every binary's checker-on and --check=none in turn"""
    print("checker on against --check=none, best of %d, the binaries alternately" % rounds)
    print("%-26s %-40s %8s %8s %8s %9s" % ("kernel", "binary", "on s", "none s", "check x", "checker s"))
    for label, mod, path in KERNELS:
        if (only and not re.search(only, label)) or not os.path.exists(path):
            continue
        work = tempfile.mkdtemp(prefix="tc5-bench-att-")
        atexit.register(shutil.rmtree, work, True)  # the inputs go with the process
        on = mod.prepare(bins[0], path, "default", 1, 1, True, work)["cmd"]
        off = mod.prepare(bins[0], path, "none", 1, 1, True, work)["cmd"]
        best = {b: [1e30, 1e30] for b in bins}
        for _ in range(rounds):
            for b in bins:
                dt, out = timed([b] + on[1:])
                if "checker:" in out or "error [" in out:
                    raise RuntimeError("%s: %s: the checker reported a finding" % (label, b))
                best[b][0] = min(best[b][0], dt)
                best[b][1] = min(best[b][1], timed([b] + off[1:])[0])
        for b in bins:
            print("%-26s %-40s %8.3f %8.3f %7.3fx %9.3f" % (label, b[-40:], best[b][0], best[b][1],
                                                           best[b][0] / best[b][1], best[b][0] - best[b][1]))
    return 0


def main(argv):
    tc5 = argv[1] if len(argv) > 1 and not argv[1].startswith("--") else os.path.join(ROOT, "build", "tc5")
    rounds = int(argv[argv.index("--rounds") + 1]) if "--rounds" in argv else 3
    only = argv[argv.index("--only") + 1] if "--only" in argv else None
    if "--binaries" in argv:
        return compare(argv[argv.index("--binaries") + 1].split(","), rounds, only)
    print("attention under tc5 run --threads 1 against tc5 gemm --threads 1 of its QK^T and PV, best of %d" % rounds)
    print("%-26s %8s %10s %9s %8s %7s %8s %8s" % ("kernel", "run s", "thr-ins/s", "none s", "gemm s", "run/gemm",
                                                    "check x", "(none/gemm)"))
    worst = 0
    for label, mod, path in KERNELS:
        if only and not re.search(only, label):
            continue
        if not os.path.exists(path):
            print("%-26s (not generated: %s)" % (label, os.path.relpath(path, ROOT)))
            continue
        work = tempfile.mkdtemp(prefix="tc5-bench-att-")
        atexit.register(shutil.rmtree, work, True)  # the inputs go with the process
        on = mod.prepare(tc5, path, "default", 1, 1, True, work)
        off = mod.prepare(tc5, path, "none", 1, 1, True, work)
        g = gemms(tc5, on, work)
        best = {"on": 1e30, "off": 1e30, "gemm": 1e30}
        tins = 0
        for _ in range(rounds):
            dt, out = timed(on["cmd"])
            m = STATS.search(out)
            tins = int(m.group(1)) if m else 0
            if "checker:" in out or "error [" in out:
                raise RuntimeError("%s: the checker reported a finding" % label)
            best["on"] = min(best["on"], dt)
            best["off"] = min(best["off"], timed(off["cmd"])[0])
            best["gemm"] = min(best["gemm"], sum(timed(c)[0] for c in g))
        r = best["on"] / best["gemm"]
        worst = max(worst, r)
        print("%-26s %8.3f %10.3g %9.3f %8.3f %7.2fx %7.2fx %8.2fx" % (
            label, best["on"], tins / best["on"], best["off"], best["gemm"], r, best["on"] / best["off"],
            best["off"] / best["gemm"]))
    print("targets (issue 32): run/gemm at most 6x, checker at most 1.5x")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
