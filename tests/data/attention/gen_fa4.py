#!/usr/bin/env python3
"""Compile FlashAttention-4's forward kernel (PyPI flash-attn-4, CuTe DSL) for
sm_100a without a GPU at the sizes tc5's attention tests run, and record each
launch as FA4's own host code makes it.

  python gen_fa4.py --out tests/data/attention/fa4 [--only NAME ...] [--list]

Everything is tests/data/ptx/census/gen_fa4_corpus.py's machinery (torch's
FakeTensorMode for the compile with FLASH_ATTENTION_ARCH=sm_100,
FLASH_ATTENTION_NUM_SMS=148, CUTE_DSL_ARCH=sm_100a, CUTE_DSL_KEEP=ptx,ir; then
the same call on CPU tensors against cute_runtime_shim.c, which records the
grid, cluster, shared memory and every parameter's bytes); this file only
chooses the variants: bf16, batch 1, causal and not, d 64 and 128, seqlen
256 and 1024, 2 heads.  Output: fa4_<variant>_main.{ptx,json}.  Tested with
flash-attn-4 4.0.0b36, nvidia-cutlass-dsl 4.8.1, torch 2.15 (CPU)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "ptx", "census"))
import gen_fa4_corpus as g  # noqa: E402

# name: (causal, batch, seqlen, heads, head_dim)
VARIANTS = {
    "fwd_d64_s256": (False, 1, 256, 2, 64),
    "fwd_d64_s256_causal": (True, 1, 256, 2, 64),
    "fwd_d128_s256": (False, 1, 256, 2, 128),
    "fwd_d128_s256_causal": (True, 1, 256, 2, 128),
    "fwd_d128_s1024": (False, 1, 1024, 2, 128),
    "fwd_d128_s1024_causal": (True, 1, 1024, 2, 128),
}


def configure(name):
    """a worker's sizes and variant, in gen_fa4_corpus's globals"""
    causal, g.B, g.S, g.H, g.D = VARIANTS[name]
    g.VARIANTS = {name: dict(kind="fwd", causal=causal)}


def main():
    g.main(VARIANTS, __file__, configure)


if __name__ == "__main__":
    main()
