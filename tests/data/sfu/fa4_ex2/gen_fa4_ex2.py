#!/usr/bin/env python3
"""FlashAttention-4's own ex2 emulation as PTX, compiled by CuTe DSL without a GPU.

  python gen_fa4_ex2.py OUTDIR

FA4 (PyPI flash-attn-4, tested 4.0.0b36; flash_attn/cute/utils.py: add_round_down,
combine_int_frac_ex2, ex2_emulation at line 786, ex2_emulation_2 at 803; softmax.py
line 457 calls the latter) offloads part of
the softmax's exp2 from the MUFU to the FMA pipe: `ex2_emulation` (one value) and
`ex2_emulation_2` (two values, with sm_100's packed .f32x2 instructions) clamp x to
>= -127, split it into floor and fraction with `add.rm` of 1.5 * 2^23, evaluate a
degree-3 polynomial (FA4's POLY_EX2[3]) on the fraction and splice the floor into
the exponent field with `shl.b32` / `add.s32`. softmax.py calls ex2_emulation_2
for the entries ex2_emu_freq selects.

This compiles two small CuTe DSL kernels that call FA4's functions themselves
(nothing of them is copied here), one element per thread, y[i] = ex2(x[i]):
  OUTDIR/fa4_ex2_sm90a.ptx    `ex2_emulation` for sm_90a: runs on the H100
                              (gpu/run.sh fa4-ex2) and in tc5 run;
  OUTDIR/fa4_ex2x2_sm100a.ptx `ex2_emulation_2` for sm_100a (two elements per
                              thread, .f32x2 arithmetic): tc5 run only.
Each kernel takes (x, y) as .u64 global pointers, N = 2^20 elements statically
(block 128, grid 8192 for sm90a, 4096 for the x2 kernel). Environment:
flash-attn-4, nvidia-cutlass-dsl 4.8.1; no GPU, no CUDA driver.
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

N = 1 << 20
BLOCK = 128


def build(arch, two, out):
    import cutlass
    import cutlass.cute as cute
    from cutlass import Float32
    from cutlass.cute.runtime import make_ptr
    from flash_attn.cute import utils

    @cute.kernel
    def kern(xp: cute.Pointer, yp: cute.Pointer):
        tid, _, _ = cute.arch.thread_idx()
        bid, _, _ = cute.arch.block_idx()
        i = bid * BLOCK + tid
        X = cute.make_tensor(xp, cute.make_layout(N))
        Y = cute.make_tensor(yp, cute.make_layout(N))
        if cutlass.const_expr(two):
            a, b = utils.ex2_emulation_2(Float32(X[2 * i]), Float32(X[2 * i + 1]))
            Y[2 * i] = a
            Y[2 * i + 1] = b
        else:
            Y[i] = utils.ex2_emulation(Float32(X[i]))

    @cute.jit
    def host(xp: cute.Pointer, yp: cute.Pointer):
        grid = N // BLOCK // (2 if two else 1)
        kern(xp, yp).launch(grid=[grid, 1, 1], block=[BLOCK, 1, 1])

    p = lambda: make_ptr(Float32, 0, cute.AddressSpace.gmem, assumed_align=16)  # noqa: E731
    cute.compile(host, p(), p())


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        build(sys.argv[2], sys.argv[2] == "sm_100a", sys.argv[3])
        return
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for arch, name in (("sm_90a", "fa4_ex2_sm90a.ptx"), ("sm_100a", "fa4_ex2x2_sm100a.ptx")):
        dump = tempfile.mkdtemp()
        env = dict(os.environ, CUTE_DSL_ARCH=arch, CUTE_DSL_KEEP="ptx", CUTE_DSL_DUMP_DIR=dump,
                   CUTE_DSL_NO_CACHE="1", PYTHONWARNINGS="ignore")
        subprocess.check_call([sys.executable, os.path.abspath(__file__), "--child", arch, out], env=env)
        ptx = glob.glob(os.path.join(dump, "**", "*.ptx"), recursive=True)
        if len(ptx) != 1:
            sys.exit("gen_fa4_ex2: expected one PTX file for %s, found %s" % (arch, ptx))
        shutil.copy(ptx[0], os.path.join(out, name))
        shutil.rmtree(dump)
        print("wrote", os.path.join(out, name))


if __name__ == "__main__":
    main()
