#!/usr/bin/env python3
"""Compile FlashAttention-4's forward kernel (PyPI flash-attn-4, CuTe DSL) for
sm_100a without a GPU at the configurations whose B200 throughput is
published (docs/timing.md, "Blackwell against published figures"): bf16,
d 128, not causal, 16 heads, seqlen 1k ... 16k at 32k tokens (batch 32, 16,
8, 4, 2), as flash-attention's benchmarks/benchmark_attn.py runs them
(dim 2048 / head dim 128 = 16 heads; total seqlen 32k).

  python tests/data/timing/b200/fa4/gen_fa4_b200.py --out tests/data/timing/b200/fa4 [--only NAME ...]

Everything is tests/data/ptx/census/gen_fa4_corpus.py's machinery, as
tests/data/attention/gen_fa4.py runs it (torch's FakeTensorMode for the
compile with FLASH_ATTENTION_ARCH=sm_100, FLASH_ATTENTION_NUM_SMS=148,
CUTE_DSL_ARCH=sm_100a; the recording runtime shim for the launch); this file
only chooses the variants. Output: fa4_<variant>_main.{ptx,json}; variants
whose PTX is identical (FA4's kernel does not depend on the sizes) share the
first one's file, which their JSON names (share_ptx). Tested with
flash-attn-4 4.0.0b36, nvidia-cutlass-dsl 4.8.1, torch 2.15 (CPU)."""
import hashlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "attention"))
import gen_fa4 as G  # noqa: E402

# name: (causal, batch, seqlen, heads, head_dim)
VARIANTS = {f"fwd_d128_full_z{z}h16n{n}": (False, z, n, 16, 128)
            for z, n in ((32, 1024), (16, 2048), (8, 4096), (4, 8192), (2, 16384))}



def share_ptx(out):
    """one file for identical PTX: a JSON whose PTX equals an earlier variant's names that file
    (ptx_files, each kernel's ptx_file) and the copy is deleted"""
    kept = {}
    for j in sorted(f for f in os.listdir(out) if f.startswith("fa4_") and f.endswith("_main.json")):
        x = json.load(open(os.path.join(out, j)))
        names = {}
        for f in x["ptx_files"]:
            p = os.path.join(out, f)
            if not os.path.exists(p):
                continue
            h = hashlib.sha256(open(p, "rb").read()).hexdigest()
            if h in kept and kept[h] != f:
                os.remove(p)
            kept.setdefault(h, f)
            names[f] = kept[h]
        if any(a != b for a, b in names.items()):
            x["ptx_files"] = [names.get(f, f) for f in x["ptx_files"]]
            for k in x.get("kernels", []):
                k["ptx_file"] = names.get(k.get("ptx_file"), k.get("ptx_file"))
            with open(os.path.join(out, j), "w") as fh:
                json.dump(x, fh, indent=1)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--share"]:
        share_ptx(os.path.abspath(sys.argv[2]))
        sys.exit(0)
    G.VARIANTS.clear()
    G.VARIANTS.update(VARIANTS)
    G.g.main(G.VARIANTS, os.path.abspath(__file__), G.configure)
    if "--out" in sys.argv and "--worker" not in sys.argv:
        share_ptx(os.path.abspath(sys.argv[sys.argv.index("--out") + 1]))
