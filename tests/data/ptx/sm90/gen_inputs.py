#!/usr/bin/env python3
"""Inputs of the sm_90a silicon suite (tests/data/ptx/sm90), deterministic:
  in.bin          8192 words for kernels.ptx (gpu/ptx_kernels.cu): random
                  bits, special floats (Inf, NaN, -0, subnormals, extremes)
                  and ordinary floats
  wa_{a,b,c}K.bin for wgmma_arith.ptx (gpu/wgmma_arith.cu's kernels, kind K
                  as its enum: 0 bf16, 1 f16, 2 f16 -> f16, 3 tf32, 4 e4m3,
                  5 e5m2 x e4m3, 6 e4m3 -> f16): one tile of 64 x 64, K of
                  two instruction steps (64 bytes a row), C of 64 x 64 codes
and kernels.txt, the manifest that gpu/ptx_silicon.cu (on the GPU) and
tests/ptx/silicon.sh (tc5 run) both read.
usage: python3 gen_inputs.py     (needs numpy)"""
import os
import numpy as np

here = os.path.dirname(os.path.abspath(__file__))

def main():
    rng = np.random.default_rng(7)
    w = rng.integers(0, 2**32, 8192, dtype=np.uint64).astype(np.uint32)
    sp = np.array([0x7f800000, 0xff800000, 0x7fc00000, 0x80000000, 0, 1, 0x807fffff, 0x00800000, 0x7f7fffff,
                   0x3f800000, 0xbf800000, 0x4b000001, 0x3effffff, 0x3f000000, 0xcf000000, 0x4f800000], dtype=np.uint32)
    idx = rng.integers(0, 8192, 1500); w[idx] = sp[rng.integers(0, 16, 1500)]
    idx = rng.integers(0, 8192, 3000); w[idx] = (rng.standard_normal(3000).astype(np.float32) * np.float32(10)).view(np.uint32)
    w.tofile(os.path.join(here, "in.bin"))

    r = np.random.default_rng(90)
    def f16(n):   # |x| in [2^-4, 2^4), random signs
        e = r.integers(11, 19, n); m = r.integers(0, 1024, n); s = r.integers(0, 2, n)
        return (s << 15 | e << 10 | m).astype(np.uint16)
    def bf16(n):
        e = r.integers(123, 131, n); m = r.integers(0, 128, n); s = r.integers(0, 2, n)
        return (s << 15 | e << 7 | m).astype(np.uint16)
    def f32(n):
        e = r.integers(123, 131, n); m = r.integers(0, 1 << 23, n); s = r.integers(0, 2, n)
        return (s << 31 | e << 23 | m).astype(np.uint32)
    def e4m3(n):
        e = r.integers(4, 11, n); m = r.integers(0, 8, n); s = r.integers(0, 2, n)
        return (s << 7 | e << 3 | m).astype(np.uint8)
    def e5m2(n):
        e = r.integers(12, 19, n); m = r.integers(0, 4, n); s = r.integers(0, 2, n)
        return (s << 7 | e << 2 | m).astype(np.uint8)
    kinds = [(bf16, bf16, False), (f16, f16, False), (f16, f16, True), (f32, f32, False),
             (e4m3, e4m3, False), (e5m2, e4m3, False), (e4m3, e4m3, True)]
    names = ["_Z11wgmma_tilesILi%dELb%dEEvPKhS1_PKjPjii" % (k, int(o)) for k, (_, _, o) in enumerate(kinds)]
    steps = 2
    lines = ["# FILE NAME GRID BLOCK SHARED ARG... (gen_inputs.py; args as tc5 run's: in:FILE out:BYTES s32:V)"]
    for name in kernel_names():
        lines.append(f"kernels.ptx {name} 2 128 0 in:in.bin out:32768")
    for k, (fa, fb, f16out) in enumerate(kinds):
        nbytes = 64 * steps * 32
        a = fa(nbytes // np.dtype(fa(1).dtype).itemsize); b = fb(nbytes // np.dtype(fb(1).dtype).itemsize)
        a.tofile(os.path.join(here, f"wa_a{k}.bin")); b.tofile(os.path.join(here, f"wa_b{k}.bin"))
        c = f16(4096).astype(np.uint32) if f16out else f32(4096)
        c.tofile(os.path.join(here, f"wa_c{k}.bin"))
        lines.append(f"wgmma_arith.ptx {names[k]} 1 128 {steps * 4096} in:wa_a{k}.bin in:wa_b{k}.bin "
                     f"in:wa_c{k}.bin out:16384 s32:{steps} s32:1")
    open(os.path.join(here, "kernels.txt"), "w").write("\n".join(lines) + "\n")

def kernel_names():
    import re
    text = open(os.path.join(here, "kernels.ptx")).read()
    return re.findall(r"\.entry (k\d\d_\w+)\(", text)

if __name__ == "__main__":
    main()
