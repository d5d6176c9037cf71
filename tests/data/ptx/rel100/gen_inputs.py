#!/usr/bin/env python3
"""Inputs and manifest of tests/data/ptx/rel100 (issue 52): Triton's tutorial 03
matmul (its first autotune config) as each release compiled it for sm_100a
(gen_triton_corpus.py --arch 100 --only t03 under that release, by
scripts/triton_releases.sh; NAME_<release>.ptx/.json), on random f16
A (128 x 128) and B (128 x 256) (a.bin, b.bin; finite, moderate magnitudes),
C 128 x 256: M, N, K and the strides are the kernel's arguments, so the
sizes are ours (the specialisation the JSON records holds: each a multiple
of 16). No B200 here: CTest triton_releases_sm100 (tests/ptx/triton_t03.py)
compares each C with tc5 gemm's product rounded to f16 and each checker
verdict with expected.txt.
Standard library only; deterministic (seed 52)."""
import glob
import json
import os
import random
import struct


def write(here):
    """a.bin, b.bin and kernels.txt in folder `here`, for its t03_*.json (rel90 uses it too)"""
    rng = random.Random(52)
    M, N, K = 128, 256, 128
    for name, n in (("a", M * K), ("b", K * N)):
        codes = [rng.getrandbits(1) << 15 | rng.randint(11, 16) << 10 | rng.getrandbits(10) for _ in range(n)]
        with open(os.path.join(here, name + ".bin"), "wb") as f:
            f.write(struct.pack("<%dH" % n, *codes))
    lines = ["# FILE NAME GRID BLOCK SHARED ARG... (gen_inputs.py; args as tc5 run's, outputs by size)"]
    for js in sorted(glob.glob(os.path.join(here, "t03_*.json"))):
        m = json.load(open(js))
        L = m["cuda_launch"]
        ints = {"M": M, "N": N, "K": K, "stride_am": K, "stride_bk": N, "stride_cm": N}
        args = ["in:a.bin", "in:b.bin", "out:%d" % (M * N * 2)]
        args += ["s32:%d" % ints[p["name"]] for p in m["params"] if p["kind"] == "int"]
        args += ["null" for p in m["params"] if p["kind"] == "scratch"]
        bm, bn = m["constexprs"]["BLOCK_SIZE_M"], m["constexprs"]["BLOCK_SIZE_N"]
        grid = (M + bm - 1) // bm * ((N + bn - 1) // bn)
        lines.append(" ".join([os.path.basename(js)[:-5] + ".ptx", m["entry"], str(grid), str(L["blockDim"][0]),
                               str(L["dynamicSharedMemBytes"])] + args))
    with open(os.path.join(here, "kernels.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    write(os.path.dirname(os.path.abspath(__file__)))
