#!/usr/bin/env python3
"""Writes fastpath_full's sort kernels and inputs (session 16, ft: test_unique / test_isin's one-row sorts, FlagGems
5.0.2's radix sort over full tiles of 2,048 int32 keys). The kernels are bench/data/flaggems_full_ptx.tar.xz's
sort_sweep_i32.ptx and sort_hist_i32.ptx (Triton 3.6, /work/venv-w's stack, sm_100a: torch.sort of one int32 row)
with the parameters reordered as ../fastpath_sort/gen_sort.py does (the output first: the sweep's values at 0, its
indices at 64 KiB, its lookback status at 192 KiB; the histogram's bins).

usage: gen_full.py [PTX_DIR]  PTX_DIR holds sort_sweep_i32.ptx and sort_hist_i32.ptx (the .ptx files here are then
written again); without it only the inputs are written. Inputs (standard library only; committed): one row of
n int32 keys in [-10, 10) as test_unique draws them with INT32_MIN, INT32_MAX, 0, -1 and hashed codes among them,
its indices 0..n-1 (int64) and the exclusive cumulative sum of its 16 bins for each of the 8 passes (uint32)."""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "fastpath_sort"))
import gen_sort  # noqa: E402


def keys(n):
    out, h = [], 0x3c6ef372 + n
    for i in range(n):
        h = gen_sort.lcg(h)
        out.append((h % 20 - 10) & 0xffffffff if i % 7 else h * 2654435761 & 0xffffffff)
    for k, v in enumerate((0x80000000, 0x7fffffff, 0, 0xffffffff)):
        out[(k * 41 + 3) % n] = v
    return out


def write(n):
    ks = keys(n)
    with open(os.path.join(HERE, f"i32_{n}_arr.bin"), "wb") as f:
        f.write(struct.pack(f"<{n}I", *ks))
    with open(os.path.join(HERE, f"i32_{n}_idx.bin"), "wb") as f:
        f.write(struct.pack(f"<{n}q", *range(n)))
    ex = []
    for p in range(8):
        h = [0] * 16
        for v in ks:
            h[((v ^ 0x80000000) >> (4 * p)) & 15] += 1
        s = 0
        for c in h:
            ex.append(s)
            s += c
    with open(os.path.join(HERE, f"i32_{n}_ex.bin"), "wb") as f:
        f.write(struct.pack("<128I", *ex))


if __name__ == "__main__":
    if len(sys.argv) > 1:
        for name, fn in (("sort_sweep_i32", gen_sort.sweep), ("sort_hist_i32", gen_sort.hist)):
            with open(os.path.join(sys.argv[1], name + ".ptx")) as f:
                ptx = fn(f.read())
            with open(os.path.join(HERE, name.replace("sort_", "") + ".ptx"), "w") as f:
                f.write(ptx)
    for n in (6144, 5000):
        write(n)
