#!/usr/bin/env python3
"""Inputs of the mma.sync silicon suite (tests/data/ptx/mma90), deterministic.

mma_sync.ptx is gpu/mma_sync.cu compiled with nvcc -arch=sm_90a -ptx: one
mma.sync.aligned a warp, 128 tiles (32 CTAs of 128 threads) a kernel, each
thread reading its fragment registers in order from A, B and C
(X[(tile * NX + r) * 32 + lane]) and writing D so. Per kernel KEY:
KEY_a.bin, KEY_b.bin, KEY_c.bin. The tiles cycle through four kinds of
input (tile % 4):
  0 narrow: magnitudes near 1, random signs (ordinary sums, cancellation)
  1 wide: exponents over most of the format's range (alignment, truncation)
  2 tiny: the smallest exponents, subnormals, C zero or tiny (the zero
    terms' exponent, results that round to zero, f16 subnormal results)
  3 special: random bit patterns with NaN, Inf, -0 and extremes mixed in
Integers: random bytes; C small (0), near INT32_MAX (1), near INT32_MIN (2)
or random words (3), for the wrap and .satfinite clamps.
Writes kernels.txt, the manifest gpu/ptx_silicon.cu (on the GPU, gpu/run.sh
mma) and tests/ptx/silicon.sh (tc5 run) both read.
usage: python3 gen_inputs.py     (needs numpy)"""
import os

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
TILES, GRID, BLOCK = 64, 16, 128

# name, A type, B type, C/D type, registers of A, B, C/D (32-bit; f64 64-bit)
KERNELS = [
    ("mma_f16_f32_k16", "f16", "f16", "f32", 4, 2, 4),
    ("mma_bf16_f32_k16", "bf16", "bf16", "f32", 4, 2, 4),
    ("mma_f16_f16_k16", "f16", "f16", "f16", 4, 2, 2),
    ("mma_tf32_k8", "tf32", "tf32", "f32", 4, 2, 4),
    ("mma_tf32_k4", "tf32", "tf32", "f32", 2, 1, 4),
    ("mma_f16_f32_k8", "f16", "f16", "f32", 2, 1, 4),
    ("mma_bf16_f32_k8", "bf16", "bf16", "f32", 2, 1, 4),
    ("mma_s8s8_sat_k32", "s8", "s8", "s32", 4, 2, 4),
    ("mma_u8s8_k32", "u8", "s8", "s32", 4, 2, 4),
    ("mma_s8u8_sat_k16", "s8", "u8", "s32", 2, 1, 4),
    ("mma_f64_k4", "f64", "f64", "f64", 1, 1, 2),
]

# (exponent bits, mantissa bits) of the float codes
FMT = {"f16": (5, 10), "bf16": (8, 7), "tf32": (8, 23), "f32": (8, 23), "f64": (11, 52)}
SPECIALS = {
    "f16": [0x7c00, 0xfc00, 0x7e00, 0x7fff, 0x8000, 0, 1, 0x83ff, 0x0400, 0x7bff, 0xfbff, 0x3c00],
    "bf16": [0x7f80, 0xff80, 0x7fc0, 0x7fff, 0x8000, 0, 1, 0x807f, 0x0080, 0x7f7f, 0xff7f, 0x3f80],
    "f32": [0x7f800000, 0xff800000, 0x7fc00000, 0x7fffffff, 0x80000000, 0, 1, 0x807fffff, 0x00800000,
            0x7f7fffff, 0xff7fffff, 0x3f800000],
    "f64": [0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 0x8000000000000000, 0, 1,
            0x800fffffffffffff, 0x0010000000000000, 0x7fefffffffffffff, 0x3ff0000000000000],
}
SPECIALS["tf32"] = SPECIALS["f32"]


def floats(r, t, n, kind):
    """n codes of float type t (tf32 as f32 words, its low 13 bits random)"""
    eb, mb = FMT[t]
    bias, emax = (1 << (eb - 1)) - 1, (1 << eb) - 2
    s = r.integers(0, 2, n, dtype=np.uint64)
    m = r.integers(0, 1 << mb, n, dtype=np.uint64)
    if kind == 0:
        e = r.integers(bias - 3, bias + 4, n)
    elif kind == 1:
        e = r.integers(1, emax + 1, n) if t == "f16" else r.integers(max(1, bias - 60), min(emax, bias + 60) + 1, n)
    elif kind == 2:
        e = r.integers(0, 4, n)  # subnormals (0) and the smallest normals
    else:
        bits = 1 + eb + mb
        v = r.integers(0, 1 << min(bits, 63), n, dtype=np.uint64)
        if bits == 64:
            v |= r.integers(0, 2, n, dtype=np.uint64) << np.uint64(63)
        sp = np.array(SPECIALS[t], dtype=np.uint64)
        k = r.random(n) < 0.25
        v[k] = sp[r.integers(0, len(sp), int(k.sum()))]
        return v
    return s << np.uint64(eb + mb) | e.astype(np.uint64) << np.uint64(mb) | m


def operand(r, t, nregs, kind, is_c=False):
    """one tile's registers: nregs x 32 lanes, as bytes"""
    if t in ("s8", "u8"):
        return r.integers(0, 256, nregs * 32 * 4, dtype=np.uint64).astype(np.uint8).tobytes()
    if t == "s32":
        n = nregs * 32
        if kind == 0:
            v = r.integers(-(1 << 20), 1 << 20, n)
        elif kind == 1:
            v = (1 << 31) - 1 - r.integers(0, 1 << 18, n)
        elif kind == 2:
            v = -(1 << 31) + r.integers(0, 1 << 18, n)
        else:
            v = r.integers(-(1 << 31), 1 << 31, n)
        return v.astype(np.int64).astype(np.int32).tobytes()
    if t == "f64":
        return floats(r, t, nregs * 32, kind).astype(np.uint64).tobytes()
    if t in ("f16", "bf16"):
        n = nregs * 32 * 2
        v = floats(r, t, n, kind)
        if is_c and kind == 2:
            v[r.random(n) < 0.5] = 0
        return v.astype(np.uint16).tobytes()
    n = nregs * 32  # f32, tf32
    v = floats(r, "f32" if t == "f32" else "tf32", n, kind)
    if t == "tf32" and kind != 3:
        v |= r.integers(0, 1 << 13, n, dtype=np.uint64)  # low bits the MMA ignores
    if is_c and kind == 2:
        v[r.random(n) < 0.5] = 0
    return v.astype(np.uint32).tobytes()


def main():
    r = np.random.default_rng(37)
    lines = ["# FILE NAME GRID BLOCK SHARED ARG... (gen_inputs.py; args as tc5 run's: in:FILE out:BYTES)"]
    for name, at, bt, ct, na, nb, nd in KERNELS:
        key = name[4:]
        bufs = {"a": b"", "b": b"", "c": b""}
        for tile in range(TILES):
            kind = tile % 4
            bufs["a"] += operand(r, at, na, kind)
            bufs["b"] += operand(r, bt, nb, kind)
            bufs["c"] += operand(r, ct, nd, kind, is_c=True)
        for k, v in bufs.items():
            with open(os.path.join(here, f"{key}_{k}.bin"), "wb") as fh:
                fh.write(v)
        out = TILES * nd * 32 * (8 if ct == "f64" else 4)
        lines.append(f"mma_sync.ptx {name} {GRID} {BLOCK} 0 in:{key}_a.bin in:{key}_b.bin in:{key}_c.bin out:{out}")
    with open(os.path.join(here, "kernels.txt"), "w") as fh:
        fh.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
