#!/usr/bin/env python3
"""Writes fastpath_bicubic32's inputs (session 13, bc): bic_in32.bin, the f32 image (1, 3, 16, 16) that
bicubic32.ptx (FlagGems 5.0.2's upsample_bicubic2d_aa_kernel for float32, Triton 3.6, BLOCK_X 64, BLOCK_Y 1,
8 warps, as test_upsample_bicubic2d_aa's cases compiled it) scales: hashed values of [0, 1) (as the test's
torch.rand), then in the third channel NaNs of both signs and payloads, +-Inf, subnormals, +-0 and the largest
finite values at hashed places; ops_in.bin, ops32.ptx's 4096 hashed words. Standard library only; the files
are committed."""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
SPECIAL = [0x7fc00000, 0xffc00000, 0x7f800001, 0xff812345, 0x7f800000, 0xff800000, 0x00000001, 0x807fffff,
           0x00400000, 0x00000000, 0x80000000, 0x7f7fffff, 0xff7fffff]
h = 0x2545f491


def nxt():
    global h
    h = (h * 1103515245 + 12345) & 0x7fffffff
    return h


words = []
for i in range(3 * 16 * 16):
    words.append(struct.unpack("<I", struct.pack("<f", (nxt() % (1 << 24)) / float(1 << 24)))[0])
for k, c in enumerate(SPECIAL):
    words[2 * 256 + (k * 97) % 256] = c
with open(os.path.join(HERE, "bic_in32.bin"), "wb") as f:
    f.write(struct.pack(f"<{len(words)}I", *words))
ops = [(nxt() << 1 ^ nxt()) & 0xffffffff for _ in range(4096)]
with open(os.path.join(HERE, "ops_in.bin"), "wb") as f:
    f.write(struct.pack(f"<{len(ops)}I", *ops))
