#!/usr/bin/env python3
"""Writes fastpath_mla's inputs (fm, session 12): mla.ptx is FlagGems 5.0.2's triton_flash_mla_sparse_fwd
(Triton 3.6, sm_100a, 4 warps: test_flashmla_sparse[param65]'s specialization, SQ 512, SKV 2048, topk 256, 64
heads, d_qk 576, d_v 512; its .entry's parameters reordered so that the output comes first, the body unchanged),
run for query row 0 and both blocks of 32 heads: q_in.bin (1 x 64 x 576 bf16), kv_in.bin (64 x 576 bf16: every
valid index below 64) and idx_in.bin (256 int32: hashed indices below 64, the invalid ones FlagGems' tests use at
hashed places, and the 16 of block 5 all invalid). Values: hashed bf16 of magnitude below 0.5, with +-0,
subnormals and, in q's head 63, a NaN. Standard library only; the files are committed."""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
h = 0x3C6EF372


def nxt():
    global h
    h = (h * 1103515245 + 12345) & 0x7FFFFFFF
    return h


def bf16(x):
    return struct.unpack("<I", struct.pack("<f", x))[0] >> 16


def values(n):
    return [bf16(((nxt() % 65536) / 65536.0 - 0.5)) for _ in range(n)]


q = values(64 * 576)
kv = values(64 * 576)
for k, c in enumerate([0x0000, 0x8000, 0x0001, 0x807F, 0x0040]):  # +-0 and subnormals
    q[(k * 7919) % len(q)] = c
    kv[(k * 104729) % len(kv)] = c
q[63 * 576 + 100] = 0x7FC0  # a NaN in head 63
idx = [nxt() % 64 for _ in range(256)]
for k, c in enumerate([-1, 2048, 114514, -2147483648, 2147483647, -123456, 1919810, 2147480000]):
    idx[(k * 37 + 3) % 256] = c
for t in range(80, 96):
    idx[t] = -1
with open(os.path.join(HERE, "q_in.bin"), "wb") as f:
    f.write(struct.pack(f"<{len(q)}H", *q))
with open(os.path.join(HERE, "kv_in.bin"), "wb") as f:
    f.write(struct.pack(f"<{len(kv)}H", *kv))
with open(os.path.join(HERE, "idx_in.bin"), "wb") as f:
    f.write(struct.pack(f"<{len(idx)}i", *idx))
