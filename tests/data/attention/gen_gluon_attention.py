#!/usr/bin/env python3
"""Compile Gluon's Blackwell attention example (python/examples/gluon/
01-attention-forward.py of a Triton checkout) for sm_100a without a GPU, at
sizes small enough for CTest, and write NAME.ptx + NAME.json (Triton's own
launch metadata: every .param, the tensor maps' cuTensorMapEncodeTiled
arguments, grid, cluster, shared memory) into --out.

  python gen_gluon_attention.py --src SRC --out tests/data/attention/gluon

SRC: a checkout holding python/examples/gluon (the one gen_triton_corpus.py
reads; facebookexperimental/triton commit db4666f2 made the committed files).
All the machinery (a metadata-only fake torch, the fake driver, Triton's own
launcher binder) is tests/data/ptx/census/gen_triton_corpus.py's; this file
only chooses the sizes: Z = 1, H = 2, N_CTX = 256, 512 and 1024, d 64 and 128,
fp16, causal and not, 1 CTA and a CTA pair, sm_scale 0.5 (the example's
test).  Needs triton 3.9; no GPU, no torch."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "ptx", "census"))
import gen_triton_corpus as g  # noqa: E402

g.SCENARIOS.clear()

SIZES = [  # (dtype, d, causal, cta_layout, N_CTX)
    ("float16", 64, False, (), 256),
    ("float16", 64, True, (), 256),
    ("float16", 128, False, (), 256),
    ("float16", 128, True, (), 256),
    ("float16", 64, False, ((1, 0), ), 512),
    ("float16", 128, True, ((1, 0), ), 512),
    ("float16", 128, False, (), 1024),  # bench/bench_attention.py, and a long CTest
]


@g.scenario
def gluon_attention_small(L):
    m = L.load(g.EXAMPLES + "01-attention-forward.py")
    Z, H = 1, 2
    for dt, d, causal, cta, n in SIZES:
        q, k, v = (g.T((Z, H, n, d), g.D("float32")).to(g.D(dt)) for _ in range(3))
        with g.capture() as c:
            m.attention_forward(q, k, v, causal, 0.5, cta_layout=cta)
        yield g.V(f"gluon_attn_fp16_d{d}_n{n}_{'causal' if causal else 'full'}_{2**len(cta)}cta", g._one(c),
                  note=f"Z={Z} H={H} N_CTX={n} sm_scale=0.5; select_kernel_config defaults; cta_layout={cta}")


if __name__ == "__main__":
    g.main()
