#!/usr/bin/env python3
"""Inputs of the FA4 ex2-emulation sample (tests/data/sfu/fa4_ex2), deterministic:
  in.bin       8192 f32 words: 64 special ones (zeros, subnormals, the clamp at
               -127 and its neighbours, the integers around it, 127/128 where
               the exponent splice overflows, infinities, NaNs), 4096 spread
               evenly over the bit patterns of [-127, -0] (the softmax's range:
               FA4 feeds it x - max <= 0) and 4032 random words;
  kernels.txt  the manifest gpu/ptx_silicon.cu (on the H100, gpu/run.sh
               fa4-ex2) and tests/ptx/silicon.sh (tc5 run) both read.
usage: python3 gen_inputs.py     (needs numpy)"""
import os
import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
ENTRY = "kernel_cutlass_kern_ptrf32gmemalign16_ptrf32gmemalign16_0"


def f(v):
    return int(np.float32(v).view(np.uint32))


def main():
    sp = [0, 0x80000000, 1, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000,
          0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0xffffffff, 0x7f7fffff, 0xff7fffff,
          f(-127), f(-127) + 1, f(-127) - 1, f(-126), f(-126.5), f(-128), f(-150), f(-1e30), f(-0.5), f(-1),
          f(-2), f(-0.99999994), f(-1.0000001), f(0.99999994), f(1), f(0.5), f(2), f(3), f(-3), f(-64.5),
          f(-100.25), f(126), f(126.99999), f(127), f(127.5), f(128), f(129), f(255), f(1e10), f(1e-30),
          f(-1e-30), f(-1e-7), f(-2 ** -24), f(-2 ** -25), f(-2 ** -26), f(2 ** -24), f(-6.0), f(-10.0),
          f(-20.0), f(-0.1), f(-0.25), f(-0.75), f(-12582912.0), f(12582912.0), f(-8388608.0), f(-0.0001),
          f(-1.5), f(-126.00001)]
    assert len(sp) == 64
    neg = np.linspace(0x80000000, f(-127), 4096).astype(np.uint64).astype(np.uint32)
    rng = np.random.default_rng(4)
    rnd = rng.integers(0, 2 ** 32, 8192 - 64 - 4096, dtype=np.uint64).astype(np.uint32)
    w = np.concatenate([np.array(sp, dtype=np.uint32), neg, rnd])
    w.tofile(os.path.join(here, "in.bin"))
    with open(os.path.join(here, "kernels.txt"), "w") as k:
        k.write("# FILE NAME GRID BLOCK SHARED ARG... (gen_inputs.py; FA4's ex2_emulation, one word a thread)\n")
        k.write("fa4_ex2_sm90a.ptx %s 64 128 0 in:in.bin out:32768\n" % ENTRY)


if __name__ == "__main__":
    main()
