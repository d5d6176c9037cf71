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
only chooses the variants. Output: fa4_<variant>_main.{ptx,json}. Tested with
flash-attn-4 4.0.0b36, nvidia-cutlass-dsl 4.8.1, torch 2.15 (CPU)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "attention"))
import gen_fa4 as G  # noqa: E402

# name: (causal, batch, seqlen, heads, head_dim)
VARIANTS = {f"fwd_d128_full_z{z}h16n{n}": (False, z, n, 16, 128)
            for z, n in ((32, 1024), (16, 2048), (8, 4096), (4, 8192), (2, 16384))}

if __name__ == "__main__":
    G.VARIANTS.clear()
    G.VARIANTS.update(VARIANTS)
    G.g.main(G.VARIANTS, os.path.abspath(__file__), G.configure)
