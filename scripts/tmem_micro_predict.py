#!/usr/bin/env python3
"""What the timing model predicts for each line of gpu/tmem_micro.cu (issue 47, t47t).

gpu/tmem_micro.cu is the B200 microbenchmark of the unit-level quantities no publication gives
(gpu/run.sh tmem writes OUTDIR/tmem.tsv on a B200). This script compiles the same source to PTX
for sm_100a (nvcc -ptx), runs each kernel through `tc5 run --timing=b200` at two iteration counts
and turns the difference into the line's figure in the microbenchmark's own unit (the launch's
fixed costs cancel; cycles at params_b200.def's clock_ghz). The keys are the microbenchmark's, so
a B200's tmem.tsv and this file compare line by line: where they differ, the parameter named in
gpu/tmem_micro.cu's header is the one to replace, by the rule written there. Usage:

    python3 scripts/tmem_micro_predict.py --tc5 build/tc5 --out tests/data/timing/b200_tmem_micro_predicted.tsv

Exit 77 without nvcc. The 2-D TMA lines need tensor maps and are not predicted here.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

import timing_table as tt

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LO, HI = 64, 1088  # iteration counts: the figure is (T(HI) - T(LO)) / (HI - LO)


def clock_ghz():
    text = open(os.path.join(ROOT, "src", "timing", "params_b200.def")).read()
    return float(re.search(r"TM_PARAM\(clock_ghz, ([0-9.]+),", text).group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tc5", default=os.path.join(ROOT, "build", "tc5"))
    ap.add_argument("--out")
    a = ap.parse_args()
    a.tc5 = os.path.abspath(a.tc5)
    nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else None)
    if not nvcc:
        print("tmem_micro_predict: nvcc not found: skipped", file=sys.stderr)
        return 77
    work = tempfile.mkdtemp(prefix="tmem_micro_")
    try:
        return predict_all(a, nvcc, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def predict_all(a, nvcc, work):
    ptx = os.path.join(work, "tmem_micro.ptx")
    subprocess.run([nvcc, "-O2", "-std=c++17", "-arch=sm_100a", "-ptx", "-I" + os.path.join(ROOT, "gpu"),
                    os.path.join(ROOT, "gpu", "tmem_micro.cu"), "-o", ptx], check=True)
    entries = re.findall(r"\.visible \.entry (\w+)\(", open(ptx).read())
    ghz = clock_ghz()

    def entry(pat):
        m = [e for e in entries if re.fullmatch(pat, e)]
        if len(m) != 1:
            raise SystemExit(f"tmem_micro_predict: {pat}: {len(m)} entries in the PTX")
        return m[0]

    def us(ent, block, iters, zero=True):
        args = ["--arg", "out:" + os.path.join(work, "o.bin") + ":64"] + (["--arg", "s32:0"] if zero else []) + \
               ["--arg", f"s32:{iters}"]
        return tt.predicted_us([a.tc5, "run", ptx, "--entry", ent, "--grid", "1", "--block", str(block),
                                "--timing=b200"] + args, f"tmem_micro_predict: {ent}", any_status=True, cwd=work)

    def per_iter(ent, block, zero=True):
        """cycles an iteration of the kernel's timed loop"""
        return (us(ent, block, HI, zero) - us(ent, block, LO, zero)) * 1e3 * ghz / (HI - LO)

    rows = []
    base = per_iter(entry(r"_Z12chain_kernelILi1ELi2EEvPyji"), 32)
    rows.append(("tmem_base_loop", base, "clk"))
    for n in (1, 2, 4, 8, 16, 32, 64, 128):
        dep = per_iter(entry(rf"_Z12chain_kernelILi{n}ELi0EEvPyji"), 32) - base
        ld = per_iter(entry(rf"_Z12chain_kernelILi{n}ELi3EEvPyji"), 32) - base
        st = per_iter(entry(rf"_Z12chain_kernelILi{n}ELi1EEvPyji"), 32) - base
        rows += [(f"tmem_ld_x{n}_chain_dep", dep, "clk"), (f"tmem_ld_x{n}_chain", ld, "clk"),
                 (f"tmem_st_x{n}_chain", st, "clk")]
    for mode, what in ((0, "ld"), (1, "st")):
        for w in (1, 2, 4, 8, 16):
            c = per_iter(entry(rf"_Z11tput_kernelILi{mode}EEvPyji"), 32 * w)
            rows.append((f"tmem_{what}_x128_tput_w{w}", 16384.0 * w / c, "B/clk/SM"))
    for n in (64, 128):
        rows.append((f"tmem_rt_x{n}_wg", per_iter(entry(rf"_Z9rt_kernelILi{n}EEvPyji"), 128), "clk"))
    for op, key in ((0, "sfu_ex2"), (1, "fp32_fma"), (2, "fp32x2_fma")):
        for w in (4, 8, 16, 32):
            c = per_iter(entry(rf"_Z11rate_kernelILi{op}EEvPyi"), 32 * w, zero=False)
            rows.append((f"{key}_w{w}", c / (w * 8 / 4), "clk/warp-insn"))
    rows.append(("lat_fp32_fma", per_iter(entry(r"_Z10lat_kernelILi0EEvPyi"), 32, zero=False) / 16, "clk"))
    rows.append(("lat_bar_128", per_iter(entry(r"_Z10lat_kernelILi1EEvPyi"), 128, zero=False), "clk"))
    rows.append(("mbar_pingpong", per_iter(entry(r"_Z11mbar_kernelPyi"), 64, zero=False) / 2, "clk"))

    head = (f"# tc5 run --timing=b200 on gpu/tmem_micro.cu's own kernels (nvcc -arch=sm_100a -ptx; "
            f"scripts/tmem_micro_predict.py): (T({HI} iterations) - T({LO})) / {HI - LO} at {ghz} GHz, in the "
            "microbenchmark's units and keys (gpu/run.sh tmem's tmem.tsv on a B200 is the measured side)\n"
            "key\tpredicted\tunit\n")
    text = head + "".join(f"{k}\t{v:.2f}\t{u}\n" for k, v, u in rows)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
