#!/usr/bin/env python3
"""Issue 47 (t47w): the figures of docs/timing.md's "Nsight Compute on the local kernels" paragraph, from the
committed ncu data (tests/data/timing/h200_r2p_ncu.*, written by gpu/run.sh mask-ncu): per variant of the local
mask, warp-instructions executed a warp, issue busy, ALU-pipe instructions a warp, the stall reasons a issue,
cycles a 5-CTA wave, and, per SASS opcode, instructions a warp and pc-sampled math-pipe-throttle stalls.
Standard library only. Usage: scripts/r2p_ncu_summary.py"""
import collections
import csv
import os

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "timing")
WARPS = 16384 * 4  # the local launch: 128 x 128 CTAs of 4 warps
WAVES = 16384 / (132 * 5)  # 132 SMs x 5 CTAs an SM


def raw():
    rows = list(csv.reader(open(os.path.join(DATA, "h200_r2p_ncu.raw.csv"))))
    head = rows[0]
    return {r[0]: {k: r[i] for i, k in enumerate(head)} for r in rows[2:]}


def num(x):
    return float(x.replace(",", ""))


def opcode(src):
    f = src.split()
    if not f:
        return ""
    return (f[1] if f[0].startswith("@") else f[0]).split(".")[0]


def main():
    r = raw()
    for v in ("compare", "bitmask"):
        m = r[f"local_{v}"]
        cyc = num(m["sm__cycles_active.avg"])
        stalls = {k[len("smsp__average_warps_issue_stalled_"):-len("_per_issue_active.ratio")]: num(x)
                  for k, x in m.items()
                  if k.startswith("smsp__average_warps_issue_stalled_") and k.endswith("_per_issue_active.ratio")}
        alu = num(m["sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active"])
        print(f"local {v}: {num(m['smsp__inst_executed.sum']) / WARPS:.1f} warp-instructions a warp; issue "
              f"{num(m['smsp__issue_active.avg.pct_of_peak_sustained_active']):.1f} % busy; ALU pipe {alu:.1f} % "
              f"of active cycles = {alu / 100 * 0.5 * cyc / WAVES / 5:.0f} instructions a warp; "
              f"{cyc / WAVES:.0f} active cycles a wave, {num(m['gpc__cycles_elapsed.max']):.0f} elapsed; "
              f"{num(m['sm__cycles_elapsed.avg.per_second']):.3f} GHz; warp-cycles an issue {sum(stalls.values()):.3f}")
        print("  stalls an issue: " + ", ".join(f"{k} {x:.3f}" for k, x in sorted(stalls.items(), key=lambda t: -t[1])
                                                  if x >= 0.01))
        rows = list(csv.reader(open(os.path.join(DATA, f"h200_r2p_ncu.local_{v}.sass.csv"))))
        ix = {c: i for i, c in enumerate(rows[1])}
        ex, math = collections.Counter(), collections.Counter()
        for row in rows[2:]:
            op = opcode(row[ix["Source"]])
            ex[op] += float(row[ix["Instructions Executed"]] or 0) / WARPS
            math[op] += float(row[ix["stall_math"]] or 0)
        print("  per warp: " + " ".join(f"{o} {x:.0f}" for o, x in ex.most_common() if x >= 1))
        print(f"  math-pipe-throttle samples {sum(math.values()):.0f}: " +
              " ".join(f"{o} {x:.0f}" for o, x in math.most_common(8)))


if __name__ == "__main__":
    main()
