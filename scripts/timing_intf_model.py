#!/usr/bin/env python3
"""The model's path of run 6's `intf` loops at one CTA an SM, against the measured rows (issue 47).

Compiles gpu/timing_micro.cu to PTX (nvcc -ptx -arch=sm_90a -O3, as gpu/run.sh builds it), runs each
intf_kernel<CH,MIX,J> of the measured TSV through `tc5 run --timing=h200` (grid 132, block 128,
--shared-bytes 231424: one CTA an SM; ptxas/nvdisasm SASS counts on where nvdisasm is found) at 20 and
60 iterations, and reads the model's clk an iteration as (us at 60 - us at 20) / 40 x clock. Prints
(or writes with -o) a TSV: row, measured (the TSV's intf_*_c1: median CTA), model, error; and the
median |error| by loop family. The method of tests/data/timing/h200_intf_c1_model.tsv (t47p, t47s).

Usage: scripts/timing_intf_model.py TC5 [--measured tests/data/timing/h200_micro_run6.tsv]
       [--ptx FILE.ptx] [--before FILE.tsv COLUMN] [-o OUT.tsv]
Standard library only; nvcc is needed unless --ptx is given."""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

import timing_table as tt

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CH = {"ffma": 0, "ex2": 1, "lds": 2}
MIX = {"ffma": 0, "isetp_sel": 1, "imad": 2}


def micro_env():
    """the environment of the model's runs: TC5_NVDISASM set where timing_table.py finds an nvdisasm (the
    model then counts ptxas's SASS, as for the committed H200 predictions)"""
    env = dict(os.environ)
    nd = tt.find_nvdisasm()
    if nd:
        env["TC5_NVDISASM"] = nd
    return env


def micro_ptx(out):
    """gpu/timing_micro.cu compiled to PTX at out (nvcc -ptx -arch=sm_90a -O3, as gpu/run.sh builds it)"""
    subprocess.run(["nvcc", "-ptx", "-arch=sm_90a", "-O3", "-I", os.path.join(ROOT, "gpu"), "-o", out,
                    os.path.join(ROOT, "gpu", "timing_micro.cu")], check=True)
    return out


def model_us(tc5, ptx, entry, iters, env, grid=132, smem=231424):
    """the model's prediction (us) of one timing_micro kernel: grid CTAs of 128 threads, smem shared bytes
    each (by default one CTA an SM), its loop run iters times"""
    argv = [tc5, "run", ptx, "--entry", entry, "--grid", str(grid), "--block", "128", "--shared-bytes", str(smem),
            "--check=none", "--timing=h200", "--arg", f"s32:{iters}", "--arg", "scratch:8192", "--arg", "scratch:256"]
    return tt.predicted_us(argv, f"{os.path.basename(sys.argv[0])}: {entry} at {iters} iterations", env=env)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tc5")
    ap.add_argument("--measured", default=os.path.join(ROOT, "tests/data/timing/h200_micro_run6.tsv"))
    ap.add_argument("--ptx")
    ap.add_argument("--clock-mhz", type=float, default=1980.0)
    ap.add_argument("--before", nargs=2, metavar=("TSV", "COLUMN"), help="a column of an earlier output beside")
    ap.add_argument("-o", "--out")
    a = ap.parse_args()
    meas = {}
    for line in open(a.measured):
        f = line.rstrip("\n").split("\t")
        m = re.fullmatch(r"intf_(ffma|ex2|lds)_(ffma|isetp_sel|imad)_j(\d+)_c1", f[0])
        if m:
            meas[f[0]] = (m.group(1), m.group(2), int(m.group(3)), float(f[1]))
    before = {}
    if a.before:
        rows = [l.rstrip("\n").split("\t") for l in open(a.before[0]) if not l.startswith("#")]
        col = rows[0].index(a.before[1])
        before = {r[0]: float(r[col]) for r in rows[1:]}
    env = micro_env()
    with tempfile.TemporaryDirectory() as tmp:
        ptx = a.ptx or micro_ptx(os.path.join(tmp, "timing_micro.ptx"))
        out = []
        for key, (ch, mix, j, mv) in meas.items():
            entry = f"_Z11intf_kernelILi{CH[ch]}ELi{MIX[mix]}ELi{j}EEviPyPj"
            clk = (model_us(a.tc5, ptx, entry, 60, env) - model_us(a.tc5, ptx, entry, 20, env)) / 40 * a.clock_mhz
            out.append((key, f"{ch}+{mix}", mv, clk))
    head = "row\tmeasured\t" + ("before\t" if before else "") + "model\terror_pct"
    lines = [head]
    for key, fam, mv, clk in out:
        lines.append(f"{key}\t{mv:g}\t" + (f"{before.get(key, float('nan')):.1f}\t" if before else "") +
                     f"{clk:.1f}\t{100 * (clk / mv - 1):+.1f}")
    fams = {}
    for key, fam, mv, clk in out:
        fams.setdefault(fam, []).append(abs(clk / mv - 1) * 100)
    summ = [f"# {fam}: median |error| {statistics.median(v):.1f} %, worst {max(v):.1f} % ({len(v)} rows)"
            for fam, v in fams.items()]
    allv = [x for v in fams.values() for x in v]
    summ.append(f"# all {len(allv)}: median |error| {statistics.median(allv):.1f} %, worst {max(allv):.1f} %")
    text = "\n".join(lines + summ) + "\n"
    if a.out:
        open(a.out, "w").write(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
