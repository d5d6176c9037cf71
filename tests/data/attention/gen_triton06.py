#!/usr/bin/env python3
"""Compile Triton's tutorial 06 (fused attention) forward for sm_100a without
a GPU at the size bench/bench_attention.py measures (Z = 1, H = 2, N_CTX =
1024, d 128, fp16, causal and not, not warp-specialised), with the
tutorial's pytest autotune config (BLOCK_M 128, BLOCK_N 64, 2 stages, 4
warps), and write NAME.ptx + NAME.json (Triton's launch metadata).

  python gen_triton06.py --src SRC --out tests/data/attention/triton06

SRC: a checkout holding python/tutorials (gen_triton_corpus.py's; the
committed files: facebookexperimental/triton db4666f2). The machinery and
the scenario are tests/data/ptx/census/gen_triton_corpus.py's; this file
sets the sizes and picks the variants. Needs triton 3.9; no GPU, no torch."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "ptx", "census"))
import gen_triton_corpus as g  # noqa: E402

g.ATTN_Z, g.ATTN_H, g.ATTN_N = 1, 2, 1024
keep = [s for s in g.SCENARIOS if s.__name__ == "t06_fused_attention"]
g.SCENARIOS[:] = keep

if __name__ == "__main__":
    if "--variants" not in sys.argv:
        sys.argv += ["--variants", r"^t06_attn_fwd_fp16_d128_(full|causal)$"]
    g.main()
