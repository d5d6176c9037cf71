#!/usr/bin/env python3
"""Which unit-level B200 parameters decide a row? (issue 47, t47t: tutorial 06 on sm_100a)

Doubles one unit-level quantity of src/timing/params_b200.def at a time (the "slower" direction:
a latency or an issue cost x2, a rate / 2) in a SCRATCH copy of the source tree, rebuilds its
tc5 CLI (only params.c recompiles), re-predicts the rows, and writes each row's elasticity
e = ln(T' / T) / ln(f) for a quantity made f times slower (f = 2 but for the what-ifs at the end):
the fraction of the row that scales with that quantity (1: the row is that quantity's; 0: it does
not see it; the model is a max of paths, so e depends on f). Nothing here is a parameter: the committed table never
changes; the scratch copy is thrown away. Usage:

    git archive HEAD | tar -x -C SCRATCH
    cmake -S SCRATCH -B SCRATCH/b -DTC5_CUDA=OFF -DTC5_BUILD_TESTS=OFF -DTC5_BUILD_BENCH=OFF
    python3 scripts/timing_sensitivity.py SCRATCH --out tests/data/timing/b200t06_sensitivity.tsv

The rows: tutorial 06's 1k and 16k launches of tests/data/timing/b200/launches.txt (the b200attn
set's, --timing-sample=4 as there); --rows NAME,... for others.
"""
import argparse
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import timing_table as tt  # noqa: E402 (the launch manifest and command lines)

ROWS = ["t06_attn_fwd_fp16_d128_full_z4h48n1024", "t06_attn_fwd_fp16_d128_full_z4h48n16384"]

# name -> {parameter: factor}; every factor makes the B200 slower (x2 a cost, /2 a rate)
PERTURB = [
    ("tmem_latency", {"tmem_ld_latency": 2}),
    ("tmem_rate", {"tmem_bytes_per_clk": 0.5}),
    ("sfu_issue", {"issue_sfu": 2}),
    ("sfu_latency", {"lat_sfu": 2}),
    ("fp32_issue", {"issue_fp32": 2}),
    ("alu_latency", {"lat_alu": 2}),
    ("int_issue", {"issue_int": 2}),
    ("other_issue", {"issue_other": 2}),
    ("mma_rate", {"tc_flops_per_clk": 0.5, "tc_floor_clk": 2, "tc_floor_n_per_clk": 2}),
    ("mma_latency", {"mma_latency": 2}),
    ("mbar_latency", {"lat_mbar": 2}),
    ("bar_latency", {"lat_bar": 2, "lat_bar_per_warp": 2}),
    ("tma_latency", {"tma_latency": 2}),
    ("memory_rate", {"l2_bytes_per_clk": 0.5, "hbm_bytes_per_s": 0.5, "tma_bytes_per_clk": 0.5}),
    ("smem_rate", {"smem_bytes_per_clk": 0.5}),
    # what-ifs, not x2: the Tensor Memory latencies that circulate without a unit-level source
    # (docs/timing.md, "Tensor Memory rates: what is published"): ~200 clk a tcgen05.ld (a B200
    # GEMM worklog's kernel-level inference), 420 clk (arXiv 2512.02189's disputed TMEM figure)
    ("tmem_latency_200", {"tmem_ld_latency": 5}),
    ("tmem_latency_420", {"tmem_ld_latency": 10.5}),
]


def slowdown(changes):
    """the factor by which the perturbation makes its quantity slower (a cost x f, a rate / f)"""
    f = next(iter(changes.values()))
    return f if f >= 1 else 1 / f


def set_params(defpath, orig, changes):
    text = orig
    for name, factor in changes.items():
        pat = re.compile(r"(TM_PARAM\(%s, )([0-9.eE+-]+)(,)" % re.escape(name))
        m = pat.search(text)
        if not m:
            raise SystemExit(f"timing_sensitivity: {name}: no such row in {defpath}")
        text = pat.sub(lambda m: f"{m.group(1)}{float(m.group(2)) * factor!r}{m.group(3)}", text, count=1)
    with open(defpath, "w") as f:
        f.write(text)


def predict(scratch, rows, work):
    tc5 = os.path.join(scratch, "b", "tc5")
    d, lines = tt.manifest("b200")
    out = {}
    for w in lines:
        if w[0] not in rows:
            continue
        name, argv = tt.tc5_argv(tc5, d, w, work, "b200", tt.b200_sample(w))
        out[name] = tt.predicted_us(argv, f"timing_sensitivity: {name}", any_status=True)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scratch", help="a scratch copy of the tree, configured into SCRATCH/b")
    ap.add_argument("--rows", default=",".join(ROWS))
    ap.add_argument("--out", help="TSV to write (default: stdout)")
    a = ap.parse_args()
    rows = a.rows.split(",")
    defpath = os.path.join(a.scratch, "src", "timing", "params_b200.def")
    orig = open(defpath).read()
    work = tempfile.mkdtemp(prefix="t06sens_")
    res = []
    try:
        for label, changes in [("base", {})] + PERTURB:
            set_params(defpath, orig, changes)
            subprocess.run(["cmake", "--build", os.path.join(a.scratch, "b"), "-j2", "--target", "tc5_cli"],
                           check=True, capture_output=True)
            res.append((label, changes, predict(a.scratch, rows, work)))
            print(label, res[-1][2], file=sys.stderr)
    finally:
        with open(defpath, "w") as f:
            f.write(orig)
        shutil.rmtree(work, ignore_errors=True)
    base = res[0][2]
    lines = ["# e = ln(T'/T) / ln(f) when the quantity is made f times slower (f = 2 unless the change says; "
             "scripts/timing_sensitivity.py; "
             "tc5 run --timing=b200 --timing-sample=4 as predict --set b200attn); model: git tree src/timing "
             + tt.model_id(),
             "perturbation\tchange\t" + "\t".join(f"{r}_us\t{r}_e" for r in rows)]
    for label, changes, pred in res:
        ch = ", ".join(f"{k} x{v:g}" for k, v in changes.items()) or "-"
        cells = []
        for r in rows:
            e = math.log(pred[r] / base[r]) / math.log(slowdown(changes)) if label != "base" else 0.0
            cells += [f"{pred[r]:.3f}", f"{e:.3f}"]
        lines.append("\t".join([label, ch] + cells))
    text = "\n".join(lines) + "\n"
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
