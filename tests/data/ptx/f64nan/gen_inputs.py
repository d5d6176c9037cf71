#!/usr/bin/env python3
"""Inputs and manifest of the f64 NaN silicon kernels (gpu/f64_nan.cu):
512 triples (a, b, c) of 64-bit words, each word a quiet or signalling NaN
with a random payload and sign, an infinity, a zero, a subnormal, 1.0 or a
random finite double, so that pairs and triples of NaNs, 0 x inf and
inf - inf meet in every operand position. Deterministic (seed 37)."""
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def word(rng):
    k = rng.randrange(8)
    sign = rng.getrandbits(1) << 63
    if k == 0:  # quiet NaN, random payload
        return sign | 0x7FF8000000000000 | rng.getrandbits(51)
    if k == 1:  # signalling NaN, nonzero payload
        return sign | 0x7FF0000000000000 | (rng.getrandbits(50) | 1)
    if k == 2:
        return sign | 0x7FF0000000000000
    if k == 3:
        return sign
    if k == 4:  # subnormal
        return sign | rng.getrandbits(52) | 1
    if k == 5:
        return sign | 0x3FF0000000000000
    return sign | (rng.randrange(1, 0x7FF) << 52) | rng.getrandbits(52)


def main():
    rng = random.Random(37)
    n = 4 * 128
    with open(os.path.join(HERE, "in.bin"), "wb") as f:
        f.write(struct.pack("<%dQ" % (3 * n), *[word(rng) for _ in range(3 * n)]))
    with open(os.path.join(HERE, "kernels.txt"), "w") as f:
        f.write("# FILE NAME GRID BLOCK SHARED ARG... (gen_inputs.py; args as tc5 run's: in:FILE out:BYTES)\n")
        for k in ("f64_nan_arith", "f64_nan_other"):
            f.write(f"f64_nan.ptx {k} 4 128 0 in:in.bin out:{n * 16 * 8}\n")
        # copysign and the carry chain (alu_carry.ptx, by hand): eight words a thread
        f.write(f"alu_carry.ptx alu_carry 4 128 0 in:in.bin out:{n * 8 * 8}\n")
        # setp of f16x2/bf16x2, cvt of f16x2 to fp8 pairs, createpolicy (half_pack.ptx, by hand)
        f.write(f"half_pack.ptx half_pack 4 128 0 in:in.bin out:{n * 8 * 8}\n")


if __name__ == "__main__":
    main()
