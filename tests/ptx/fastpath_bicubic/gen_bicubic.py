#!/usr/bin/env python3
"""Writes fastpath_bicubic's input (issue 50, bc): bic_in.bin, the f16 image (1, 3, 16, 16) that bicubic.ptx
(FlagGems 5.0.2's upsample_bicubic2d_aa_kernel, Triton 3.6, BLOCK_X 64, BLOCK_Y 1, 8 warps: the bench's, from
bench/data/flaggems_ptx.tar.xz) scales to 32 x 32: hashed codes of [0, 1) (as the test's torch.rand), then in the
third channel NaNs of both signs, +-Inf, subnormals, +-0 and the largest finite values at hashed places.
Standard library only; the file is committed."""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
SPECIAL = [0x7e00, 0xfe00, 0x7c01, 0xfdff, 0x7c00, 0xfc00, 0x0001, 0x83ff, 0x0200, 0x0000, 0x8000, 0x7bff, 0xfbff]
codes = []
h = 0x2545f491
for i in range(3 * 16 * 16):
    h = (h * 1103515245 + 12345) & 0x7fffffff
    codes.append(h % 0x3c00)  # [0, 1): exponent below 15
for k, c in enumerate(SPECIAL):
    codes[2 * 256 + (k * 97) % 256] = c
with open(os.path.join(HERE, "bic_in.bin"), "wb") as f:
    f.write(struct.pack(f"<{len(codes)}H", *codes))
