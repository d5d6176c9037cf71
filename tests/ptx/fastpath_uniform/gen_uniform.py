#!/usr/bin/env python3
"""Writes fastpath_uniform's inputs (issue 50, sm): vals.bin, the 64 f32 values uniform.ptx takes a
warp's operands from (zeros of both signs, subnormals, the ends of ex2's ranges, Inf, NaNs, values whose
bf16 products underflow f32, and hashed ones), and softmax_in.bin, the 6 bf16 rows of 1024 that
_softmax_single_block_forward_kernel.ptx (Liger-Kernel 0.8.5's, Triton 3.9, bench/data/liger_ptx.tar.xz)
reads: zeros (the large-row test's rows), hashed values, all 100, all -3 but one 5, zeros but one NaN,
-Inf but one 0. Standard library only; the files are committed."""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
BITS = [0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x3f000000, 0x40000000, 0x41700000, 0xc2fc0000,
        0xc2fd0000, 0xc2fe0000, 0xc3020000, 0xc3150000, 0xc3160000, 0xc3480000, 0x42fe0000, 0x42fffae1,
        0x43000000, 0x43480000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0xffc00001, 0x00800000,
        0x80800000, 0x00000001, 0x007fffff, 0x80400000, 0x7f7fffff, 0xff7fffff, 0x47000000, 0x38000000,
        0x3f800001, 0x3fffffff, 0x40490fdb, 0xc0490fdb, 0x1e3ce508, 0x60ad78ec, 0x7e967699, 0x7f61b1e6,
        0xbe800000, 0x3dcccccd, 0x3eaaaaab, 0x4b000000, 0x17800000, 0x97800000, 0x0d800000, 0x00010000]
h = 0x9e3779b9
while len(BITS) < 64:
    h = (h * 0x2c1b3c6d + 0x297a2d39) & 0xffffffff
    BITS.append(h ^ (h >> 15))
with open(os.path.join(HERE, "vals.bin"), "wb") as f:
    f.write(struct.pack("<64I", *BITS))


def bf16(x):
    """the bf16 code of a float, to nearest even (NaN kept as a quiet NaN)"""
    (u,) = struct.unpack("<I", struct.pack("<f", x))
    if x != x:
        return 0x7fc0
    return (u + 0x7fff + ((u >> 16) & 1)) >> 16


rows = [[0x0000] * 1024]
h = 12345
row = []
for _ in range(1024):
    h = (h * 1103515245 + 12345) & 0x7fffffff
    row.append(bf16((h / 0x7fffffff - 0.5) * 8.0))
rows.append(row)
rows.append([bf16(100.0)] * 1024)
rows.append([bf16(-3.0)] * 1024)
rows[-1][517] = bf16(5.0)
rows.append([0x0000] * 1024)
rows[-1][700] = 0x7fc0
rows.append([0xff80] * 1024)
rows[-1][3] = 0x0000
with open(os.path.join(HERE, "softmax_in.bin"), "wb") as f:
    for r in rows:
        f.write(struct.pack("<1024H", *r))
