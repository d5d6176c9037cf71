#!/usr/bin/env python3
"""Issue 47's validation tables: measured (the lent H200, gpu/run.sh timing)
against predicted (`tc5 run --timing=h200` on the same PTX and arguments).

usage: timing_table.py predict [--tc5 PATH] [--set h200|mask|b200|b200attn] [--only REGEX] [--out TSV]
           runs tc5 on every launch of tests/data/timing/SET/launches.txt (gpu/ptx_timing's
           manifest: the very launches the H200 timed) and writes the predictions
           (default tests/data/timing/SET_predicted.tsv)
       timing_table.py render [--check]
           the tables (every row, good or bad) into docs/timing.md between the markers
           <!-- timing-table:h200 --> / <!-- timing-table:mask --> and <!-- /timing-table -->
           (--check: exit 1 when docs/timing.md is not what render writes)
       timing_table.py compare --tc5 PATH [--max-cpu-s X] [--only REGEX]
           re-predicts the committed rows whose prediction took at most X CPU seconds (the
           committed cpu_s column; default 1: the small rows) and compares with the committed
           predicted column exactly (a regression test of the model: CTest timing_h200_table;
           TC5_TIMING_FULL=1 takes every row, about 25 minutes on 2 shared cores)
Measured = the mean of the two runs' medians (h200_measured.tsv, h200_measured_run2.tsv);
error = predicted / measured - 1. Standard library only."""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data", "timing")
DOC = os.path.join(ROOT, "docs", "timing.md")
LINE = re.compile(r"tc5 run: timing: predicted ([0-9.eE+-]+) us on (\w+)(.*)")


def manifest(setname):
    d = os.path.join(DATA, setname)
    out = []
    for line in open(os.path.join(d, "launches.txt")):
        if line.startswith("#") or not line.strip():
            continue
        out.append(line.split())
    return d, out


def tc5_argv(tc5, d, w, work, gpu, sample=None):
    """tc5 run's command line for a manifest line (gpu/ptx_timing.cu's argument forms)"""
    name, ptx, entry, grid, block, shared = w[:6]
    argv = [tc5, "run", os.path.join(d, ptx), "--entry", entry, "--grid", grid, "--block", block, "--shared-bytes",
            shared, "--check=none", f"--timing={gpu}"] + ([f"--timing-sample={sample}"] if sample else [])
    ids = {}
    n = 0

    def zero_file(nbytes):
        p = os.path.join(work, f"zero_{nbytes}.bin")
        if not os.path.exists(p):  # written aside, then renamed: a concurrent job never sees it short (t47s)
            fd, tmp = tempfile.mkstemp(dir=work, suffix=".part")
            with os.fdopen(fd, "wb") as f:
                f.truncate(int(nbytes))
            os.replace(tmp, p)
        return p

    for a in w[6:]:
        kind, _, rest = a.partition(":")
        if a == "null":
            spec = "null"
        elif kind == "buf":
            bid, nbytes, _fill = rest.split(":")
            if bid in ids:
                spec = "u64:0"  # not used by these launches (each pointer its own buffer)
                raise ValueError(f"{name}: buffer {bid} passed twice")
            ids[bid] = n
            spec = f"scratch:{nbytes}"
        elif kind in ("s32", "s64", "u32", "u64", "f32"):
            spec = a
        elif kind == "in":
            spec = f"in:{os.path.join(d, rest)}"
        elif kind == "raw":
            p = os.path.join(work, f"{name}_arg{n}.bin")
            open(p, "wb").write(bytes.fromhex(rest))
            spec = f"bytes:{p}"
        elif kind == "tmap":
            head, _, text = rest.partition(",")
            assert head.startswith("buf=")
            bid, nbytes, _fill = head[4:].split(":")
            spec = f"tmap:buf={ids[bid]},{text}" if bid in ids else f"tmap:in={zero_file(nbytes)},{text}"
        else:
            raise ValueError(f"{name}: argument {a}")
        argv += ["--arg", spec]
        n += 1
    return name, argv


def predict_one(tc5, d, w, gpu, work, sample=None):
    name, argv = (fa4_argv if w[1] == ATTN_FA4 else tc5_argv)(tc5, d, w, work, gpu, sample)
    import time
    t0 = time.time()
    timer = shutil.which("time") if os.path.exists("/usr/bin/time") else None
    r = subprocess.run((["/usr/bin/time", "-f", "TC5CPU %U %S"] if timer else []) + argv, capture_output=True, text=True)
    secs = time.time() - t0  # wall, when /usr/bin/time is missing
    cpu = re.search(r"^TC5CPU ([0-9.]+) ([0-9.]+)$", r.stderr, re.M)
    if cpu:  # the child's own CPU seconds (user + system): what the row costs, whatever the load
        secs = float(cpu.group(1)) + float(cpu.group(2))
        r = subprocess.CompletedProcess(r.args, r.returncode, r.stdout, r.stderr[:cpu.start()] + r.stderr[cpu.end():])
    m = None
    for line in (r.stdout + r.stderr).splitlines():
        m = LINE.search(line) or m
    if r.returncode != 0 or not m:
        tail = (r.stdout + r.stderr).strip().splitlines()[-3:]
        return name, None, " | ".join(tail).replace("\t", " ")[:300], secs
    limit = ""
    for line in (r.stdout + r.stderr).splitlines():
        if "limit" in line and "timing" in line:
            limit = line.split("timing:", 1)[-1].strip()
    return name, float(m.group(1)), (m.group(3).strip() + (" " + limit if limit else "")).strip().replace("\t", " "), secs


def predicted_us(argv, who, any_status=False, **run):
    """the prediction (us) of one `tc5 run --timing=...` (argv), from its timing line (LINE); a run that
    printed none, or (unless any_status) ended with a nonzero status, exits naming who, with the run's last
    output. The microbenchmark scripts' runner (timing_intf_model.py, timing_alu_share.py,
    tmem_micro_predict.py, timing_sensitivity.py); run: subprocess.run's env, cwd"""
    r = subprocess.run(argv, capture_output=True, text=True, **run)
    m = LINE.search(r.stdout + r.stderr)
    if not m or (r.returncode and not any_status):
        sys.exit(f"{who}: no prediction:\n{(r.stdout + r.stderr).strip()[-1500:]}")
    return float(m.group(1))


def read_tsv(path, col="median_us"):
    rows = {}
    if not os.path.exists(path):
        return rows
    head = None
    for line in open(path):
        if line.startswith("#"):
            continue
        f = line.rstrip("\n").split("\t")
        if head is None:
            head = f
            continue
        rows[f[0]] = dict(zip(head, f))
    return rows


def measured(setname):
    a = read_tsv(os.path.join(DATA, f"{setname}_measured.tsv"))
    b = read_tsv(os.path.join(DATA, f"{setname}_measured_run2.tsv"))
    out = {}
    for k, r in a.items():
        v = [float(r["median_us"])] + ([float(b[k]["median_us"])] if k in b else [])
        out[k] = (sum(v) / len(v), v, r)
    return out


# The B200 rows predicted by default (--set b200): a fixed subset, chosen by CPU cost before any
# prediction, never by outcome. Each of the four kernels at K = 512 and 2048 (8 rows), and 07's
# non-persistent kernel at every K (4 more): a non-persistent sampled CTA computes one tile (K/64
# MMA steps), a persistent one its whole share (14 tiles of 8192 x 8192 / (128 x 256) over 148
# SMs), 14 times the CPU, which K = 4096 ... 16384 puts at tens of minutes a row on the shared 2
# cores. 07's BLOCK_K/buffers/warps loop runs through the door instead (scripts/timing_autotune07.py).
# --subset all takes every row of b200_published.tsv.
B200_SUBSET = r"(_k(512|2048)$|^g07_nonpersistent_)"  # the loop rows (g07_loop_*): the door, not here
# clusters simulated in detail for the B200 set (the model's --timing-sample; its default is 16):
# the tutorials' grids are uniform 128 x 256 tiles (8192 divides evenly; no data-dependent work),
# so few strata suffice: 4 for a non-persistent grid (one tile a CTA), 1 for a persistent grid of
# at most one CTA per SM (that CTA runs its whole share, 14 tiles). The docs show one row at the
# model's default 16 too (docs/timing.md, "Blackwell against published figures").
B200_SAMPLE = 4
B200_SAMPLE_PERSISTENT = 1


def b200_sample(w):
    g = 1
    for x in w[3].split(","):
        g *= int(x)
    return B200_SAMPLE_PERSISTENT if g <= 148 else B200_SAMPLE


# The B200 attention rows (--set b200attn; issue 47, "Blackwell against published figures"):
# Triton's tutorial 06 forward on sm_100a (scripts/timing_corpus.py --arch 100: the t06_ lines of
# tests/data/timing/b200/launches.txt) and FlashAttention-4's forward (tests/data/timing/b200/fa4/,
# gen_fa4_b200.py: gen_fa4_corpus's machinery; its launches need clusters and FA4's own arguments,
# so tests/attention/fa4_run.py makes the command line, on its random bf16 inputs, seed 1: FA4's
# conditional rescaling depends on the data). Samples: tutorial 06's grid (query blocks x batch *
# heads) B200_SAMPLE clusters, stratified by column; FA4's persistent grid (148 CTAs in clusters of
# 2) the model's default for a persistent grid (2 clusters: docs/timing.md "Sampling").
ATTN_FA4 = "fa4"  # the FILE field of an FA4 row: the JSON is tests/data/timing/b200/fa4/<name>_main.json


def attn_manifest():
    d, lines = manifest("b200")
    rows = [w for w in lines if w[0].startswith("t06_")]
    fdir = os.path.join(d, "fa4")
    for f in sorted(os.listdir(fdir)) if os.path.isdir(fdir) else []:
        if f.startswith("fa4_") and f.endswith("_main.json"):
            rows.append([f[:-len("_main.json")], ATTN_FA4])
    return d, rows


def fa4_argv(tc5, d, w, work, gpu, sample=None):
    sys.path.insert(0, os.path.join(ROOT, "tests", "attention"))
    try:
        import fa4_run  # noqa: E402 (NumPy: the inputs)
    except SystemExit:  # fa4_run exits 77 without NumPy
        raise RuntimeError("FA4's rows need NumPy (tests/attention/fa4_run.py makes their inputs): "
                           "run this script with a Python that has it") from None
    x = fa4_run.prepare(tc5, os.path.join(d, "fa4", w[0] + "_main.json"), "none", 1, None, False,
                        tempfile.mkdtemp(prefix=w[0] + "_", dir=work))
    return w[0], x["cmd"] + [f"--timing={gpu}"] + ([f"--timing-sample={sample}"] if sample else [])


def attn_flops(name):
    """4 Z H N^2 D: the two matrix products of a non-causal forward (the FLOPs tritonbench and
    flash-attention's benchmark_attn.py divide by)"""
    m = re.search(r"_d(\d+)_full_z(\d+)h(\d+)n(\d+)$", name)
    D, Z, H, N = (int(x) for x in m.groups())
    return 4.0 * Z * H * N * N * D


def model_id():
    """the model's source as committed: the tree hash of src/timing + the parameter files"""
    try:
        return subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD:src/timing"], capture_output=True,
                              text=True).stdout.strip()[:12]
    except OSError:
        return "?"


def launches_manifest(d):
    """the lines of DIR/launches.txt (--launches: a tutorial 06 sweep, scripts/timing_corpus.py --t06-sweep)"""
    return os.path.abspath(d), [line.split() for line in open(os.path.join(d, "launches.txt"))
                                if line.strip() and not line.startswith("#")]


def cmd_predict(a):
    if a.launches:
        if a.set != "b200attn" or not a.out:
            raise SystemExit("timing_table.py: --launches takes --set b200attn and --out")
        d, lines = launches_manifest(a.launches)
    else:
        d, lines = attn_manifest() if a.set == "b200attn" else manifest(a.set)
    out = a.out or os.path.join(DATA, f"{a.set}_predicted.tsv")
    old = read_tsv(out)
    first = open(out).readline() if os.path.exists(out) else ""
    if f"src/timing {model_id()}" not in first:
        old = {}  # rows predicted by another model are dropped, never mixed with this one's
    work = tempfile.mkdtemp(prefix="timing_table_")
    rows = dict(old)
    gpu = "b200" if a.set.startswith("b200") else "h200"
    sample = a.sample  # None: the model's default; for --set b200, b200_sample() per row
    subset = a.subset if a.subset is not None else (B200_SUBSET if a.set == "b200" else "all")
    todo = [w for w in lines if (not a.only or re.search(a.only, w[0]))
            and (subset == "all" or re.search(subset, w[0]))
            and not (a.resume and rows.get(w[0], {}).get("predicted_us"))]
    # cheap rows first (the committed cpu_s: those CTest re-predicts), then the rest longest first
    cost = {k: float(r.get("cpu_s") or 1e9) for k, r in read_tsv(out).items()}
    todo.sort(key=lambda w: (cost.get(w[0], 1e9) > 3.0, -cost.get(w[0], 1e9) if cost.get(w[0], 1e9) > 3.0
                             else cost.get(w[0], 1e9)))
    smp = (f" --timing-sample={sample}" if sample else
           f" --timing-sample={B200_SAMPLE} (persistent grids: {B200_SAMPLE_PERSISTENT})" if a.set == "b200" else
           f" --timing-sample={B200_SAMPLE} (tutorial 06; FA4's persistent grid: the model's default)"
           if a.set == "b200attn" else "")
    what = (f"{a.launches}/launches.txt (scripts/timing_corpus.py --t06-sweep)" if a.launches else
            'tests/data/timing/b200/launches.txt t06_ rows and b200/fa4/' if a.set == 'b200attn' else
            f'tests/data/timing/{a.set}/launches.txt')
    head = (f"# tc5 run --timing={gpu}{smp} on "
            f"{what} (scripts/timing_table.py predict --set {a.set}{' --launches' if a.launches else ''}); "
            f"model: git tree src/timing {model_id()}; "
            f"cpu_s: the run's CPU seconds (user + system, /usr/bin/time; wall where it is missing), "
            f"{a.jobs} at a time on the 2 shared cores\n")

    def write():
        with open(out + ".tmp", "w") as f:
            f.write(head)
            f.write("name\tpredicted_us\tcpu_s\tnote\n")
            for name in sorted(rows):
                r = rows[name]
                f.write(f"{name}\t{r['predicted_us']}\t{r['cpu_s']}\t{r['note']}\n")
        os.replace(out + ".tmp", out)

    try:
        predict_all(a, todo, rows, d, gpu, work, sample, write)
    finally:  # every launch's inputs (up to GBs a set) live in `work` only while the set runs
        shutil.rmtree(work, ignore_errors=True)
    write()
    return 0


def predict_all(a, todo, rows, d, gpu, work, sample, write):
    """predicts the rows `todo`, a.jobs at a time, writing the table after each"""
    from concurrent.futures import ThreadPoolExecutor, as_completed
    with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        futs = [ex.submit(predict_one, a.tc5, d, w, gpu, work,
                          sample if sample is not None or not a.set.startswith("b200") else
                          b200_sample(w) if a.set == "b200" else None if w[1] == ATTN_FA4 else B200_SAMPLE)
                for w in todo]
        for fu in as_completed(futs):
            name, us, note, secs = fu.result()
            rows[name] = {"name": name, "predicted_us": "" if us is None else f"{us:.3f}", "cpu_s": f"{secs:.1f}",
                          "note": note}
            print(f"{name:52s} {'FAILED' if us is None else f'{us:10.3f} us'}  ({secs:.1f} s) {note}", flush=True)
            write()  # after every row: an interrupted run keeps what it predicted


def kernel_of(name):
    return {"t01": "01 vector add", "t02": "02 softmax", "t03": "03 matmul", "t05": "05 layer norm",
            "t06": "06 attention fwd"}.get(name[:3], name)


def table_h200():
    meas = measured("h200")
    pred = read_tsv(os.path.join(DATA, "h200_predicted.tsv"))
    lines = ["| kernel | launch | measured (us) | two runs | predicted (us) | error |", "|---|---|---:|---|---:|---:|"]
    errs = []
    for name in sorted(meas, key=lambda n: (n[:3], meas[n][0])):
        m, v, _ = meas[name]
        p = pred.get(name, {}).get("predicted_us", "")
        if p:
            e = float(p) / m - 1
            errs.append(abs(e))
            es = f"{e * 100:+.1f} %"
            if abs(e) > 0.25:
                es = f"**{es}**"
        else:
            es = "not predicted: " + pred.get(name, {}).get("note", "no prediction")[:80].replace("|", "/")
        lines.append(f"| {kernel_of(name)} | `{name[4:]}` | {m:.2f} | {' / '.join(f'{x:.2f}' for x in v)} | "
                     f"{p or '-'} | {es} |")
    n = len(meas)
    if errs:
        lines.append("")
        lines.append(f"{len(errs)} of {n} rows predicted; median |error| {statistics.median(errs) * 100:.1f} % "
                     f"(target 10 %), worst {max(errs) * 100:.1f} % (target: every row within 25 %), "
                     f"{sum(e <= 0.25 for e in errs)} rows within 25 %.")
    else:
        lines.append("")
        lines.append(f"0 of {n} rows predicted.")
    return "\n".join(lines)


def table_mask():
    meas = measured("mask")
    pred = read_tsv(os.path.join(DATA, "mask_predicted.tsv"))
    lines = ["| mask | measured compare / bitmask (us) | measured saving | predicted compare / bitmask (us) | "
             "predicted saving | difference |", "|---|---|---:|---|---:|---:|"]
    for mk in ("len", "causal", "local"):
        c, b = meas.get(f"mask_{mk}_compare"), meas.get(f"mask_{mk}_bitmask")
        if not c or not b:
            continue
        ms = c[0] / b[0] - 1
        pc = pred.get(f"mask_{mk}_compare", {}).get("predicted_us", "")
        pb = pred.get(f"mask_{mk}_bitmask", {}).get("predicted_us", "")
        if pc and pb:
            ps = float(pc) / float(pb) - 1
            diff = f"{(ps - ms) * 100:+.1f} pt"
            if abs(ps - ms) > 0.03:
                diff = f"**{diff}**"
            pred_s = f"{pc} / {pb}", f"{ps * 100:+.1f} %", diff
        else:
            pred_s = "-", "-", "not predicted"
        lines.append(f"| {mk} | {c[0]:.1f} / {b[0]:.1f} | {ms * 100:+.1f} % | {pred_s[0]} | {pred_s[1]} | {pred_s[2]} |")
    lines.append("")
    lines.append("Saving = compare / bitmask - 1 (positive: the bitmask is faster); target: predicted within "
                 "3 percentage points of measured.")
    return "\n".join(lines)


def table_b200():
    pub = {k: r for k, r in read_tsv(os.path.join(DATA, "b200_published.tsv")).items() if k.startswith("g0")}
    pred = read_tsv(os.path.join(DATA, "b200_predicted.tsv"))
    lines = ["| kernel | K | published (TFLOP/s) | predicted (us) | predicted (TFLOP/s) | error |", "|---|---:|---:|---:|---:|---:|"]
    errs = []
    for name in pub:
        if not name.startswith("g0"):
            continue  # the attention rows: table_b200_attention
        k = 16384 if "_loop_" in name else int(name.rsplit("_k", 1)[1])
        flops = 2.0 * 8192 * 8192 * k
        p = pred.get(name, {}).get("predicted_us", "")
        if p:
            tf = flops / (float(p) * 1e-6) / 1e12
            e = tf / float(pub[name]["published_tflops"]) - 1
            errs.append(abs(e))
            es = f"{e * 100:+.1f} %"
            if abs(e) > 0.30:
                es = f"**{es}**"
            cells = f"{float(p):.1f} | {tf:.1f} | {es}"
        elif "_loop_" in name:
            cells = "- | - | run through the door: next section"
        elif not re.search(B200_SUBSET, name):
            cells = "- | - | outside the fixed subset (not run)"
        else:
            cells = "- | - | not predicted" + (": " + pred[name]["note"][:60].replace("|", "/") if name in pred else "")
        lines.append(f"| `{name.rsplit('_k', 1)[0] if '_loop_' not in name else name}` | {k} | {pub[name]['published_tflops']} | {cells} |")
    lines.append("")
    nsub = sum(bool(re.search(B200_SUBSET, n)) for n in pub)
    src = os.path.join(DATA, "b200_predicted.tsv")
    if os.path.exists(src):
        lines.append("Predictions: " + open(src).readline().lstrip("# ").strip().replace("|", "/") + ".")
        lines.append("")
    if errs:
        lines.append(f"{len(errs)} of {len(pub)} rows predicted ({nsub} in the fixed subset); median |error| "
                     f"{statistics.median(errs) * 100:.1f} % (target 15 %), worst {max(errs) * 100:.1f} % "
                     f"(target: every row within 30 %), {sum(e <= 0.30 for e in errs)} rows within 30 %.")
        kt = [e for n, e in zip([n for n in pub if pred.get(n, {}).get("predicted_us")], errs) if "_loop_" not in n]
        if kt and len(kt) < len(errs):
            lines.append(f"The K table alone (without 07's loop): {len(kt)} rows, median |error| "
                         f"{statistics.median(kt) * 100:.1f} %, worst {max(kt) * 100:.1f} %, "
                         f"{sum(e <= 0.30 for e in kt)} within 30 %.")
    else:
        lines.append(f"0 of {len(pub)} rows predicted.")
    return "\n".join(lines)


def table_b200_attention():
    pub = {k: r for k, r in read_tsv(os.path.join(DATA, "b200_published.tsv")).items() if not k.startswith("g0")}
    src = os.path.join(DATA, "b200attn_predicted.tsv")
    pred = read_tsv(src)
    lines = ["| kernel | batch x heads | seqlen | published (TFLOP/s) | predicted (us) | predicted (TFLOP/s) | error | "
             "sample |", "|---|---:|---:|---:|---:|---:|---:|---|"]
    errs = []
    for name, r in pub.items():
        m = re.search(r"_z(\d+)h(\d+)n(\d+)$", name)
        p = pred.get(name, {}).get("predicted_us", "")
        kern = "FA4 fwd d128" if name.startswith("fa4_") else "Triton 06 fwd fp16 d128"
        smp = "2 of 74 clusters" if name.startswith("fa4_") else f"{B200_SAMPLE} CTAs"
        if p:
            tf = attn_flops(name) / (float(p) * 1e-6) / 1e12
            e = tf / float(r["published_tflops"]) - 1
            errs.append(abs(e))
            es = f"{e * 100:+.1f} %"
            if abs(e) > 0.30:
                es = f"**{es}**"
            cells = f"{float(p):.1f} | {tf:.1f} | {es}"
        else:
            cells = "- | - | not predicted" + (": " + pred[name]["note"][:60].replace("|", "/") if name in pred else "")
        lines.append(f"| {kern} | {m.group(1)} x {m.group(2)} | {m.group(3)} | {r['published_tflops']} | {cells} | {smp} |")
    lines.append("")
    if os.path.exists(src):
        lines.append("Predictions: " + open(src).readline().lstrip("# ").strip().replace("|", "/") + ".")
        lines.append("")
    if errs:
        lines.append(f"{len(errs)} of {len(pub)} rows predicted; median |error| {statistics.median(errs) * 100:.1f} % "
                     f"(target 15 %), worst {max(errs) * 100:.1f} % (target: every row within 30 %), "
                     f"{sum(e <= 0.30 for e in errs)} rows within 30 %.")
        allb = errs + b200_gemm_errors()
        lines.append(f"All B200 validation rows (the Gluon table above and these): {len(allb)} rows, median |error| "
                     f"{statistics.median(allb) * 100:.1f} % (target 15 %), worst {max(allb) * 100:.1f} %, "
                     f"{sum(e <= 0.30 for e in allb)} within 30 %.")
    else:
        lines.append(f"0 of {len(pub)} rows predicted.")
    return "\n".join(lines)


def b200_params():
    """name -> value of src/timing/params_b200.def (the cast term below uses its HBM rows)"""
    out = {}
    for m in re.finditer(r"TM_PARAM\((\w+),\s*([0-9.eE+-]+),", open(os.path.join(ROOT, "src", "timing", "params_b200.def")).read()):
        out[m.group(1)] = float(m.group(2))
    return out


def cast_us(z, h, n, d=128):
    """tritonbench's timed region converts q, k, v from bf16 to fp16: three elementwise copies of Z H N D
    elements (2 B read, 2 B written each), charged at the model's own HBM rates (params_b200.def:
    hbm_bytes_per_s x hbm_efficiency to read, x hbm_write_efficiency to write) plus a launch each
    (launch_overhead_us); no L2 reuse (each tensor is 12.6 MB ... 805 MB, read once). Arithmetic on unit
    parameters, not a prediction of PyTorch's copy kernel and not fitted."""
    p = b200_params()
    b = z * h * n * d * 2.0
    return 3 * (b / (p["hbm_bytes_per_s"] * p["hbm_efficiency"]) + b / (p["hbm_bytes_per_s"] * p["hbm_write_efficiency"])) \
        * 1e6 + 3 * p["launch_overhead_us"]


T06_CONFIGS = 36  # the tutorial's autotune list on sm_100, not causal (scripts/timing_corpus.py t06_sweep)


def t06_sweeps():
    """release -> {row name: predicted us} of every tests/data/timing/b200t06_sweep_<release>.tsv"""
    out = {}
    for f in sorted(os.listdir(DATA)):
        m = re.match(r"b200t06_sweep_(.+)\.tsv$", f)
        if m:
            rows = read_tsv(os.path.join(DATA, f))
            out[m.group(1)] = (os.path.join(DATA, f), {k: float(r["predicted_us"]) for k, r in rows.items()
                                                        if r.get("predicted_us")},
                               {k for k, r in rows.items() if not r.get("predicted_us") and "shared memory" in r.get("note", "")})
    return out


def table_b200_t06sweep():
    """each published tutorial 06 figure against the model's prediction of every autotune config the
    tutorial's autotuner tries on sm_100 (scripts/timing_corpus.py --t06-sweep), per compiler release"""
    pub = read_tsv(os.path.join(DATA, "b200t06_published.tsv"))
    sweeps = t06_sweeps()
    lines = ["| source | Z x H | seqlen | WS | published (TFLOP/s) | Triton | configs | testing config 128x64 s2 w4 (us) | "
             "model's pick (config, us) | slowest (us) | pick (TFLOP/s) | error | with the casts (us) | error |",
             "|---|---:|---:|---|---:|---|---:|---:|---|---:|---:|---:|---:|---:|"]
    errs, errs_c = [], []
    for key, r in pub.items():
        z, h, n, ws = int(r["z"]), int(r["h"]), int(r["n"]), r["ws"] == "1"
        flops = 4.0 * z * h * n * n * 128
        pt = float(r["published_tflops"])
        src = "tritonbench #1014" if key.startswith("tb") else "fb/triton #205"
        suffix = f"_z{z}h{h}n{n}"
        pre = f"t06s_{'ws' if ws else 'nows'}_"
        any_rel = False
        for rel, (_, rows, refused) in sweeps.items():
            cand = {k[len(pre):-len(suffix)]: v for k, v in rows.items() if k.startswith(pre) and k.endswith(suffix)}
            nref = sum(1 for k in refused if k.startswith(pre) and k.endswith(suffix))
            if not cand:
                continue
            ncfg = f"{len(cand)}" + (f" + {nref} over smem" if nref else "") + \
                ("" if len(cand) + nref == T06_CONFIGS else f" (of {T06_CONFIGS}: partial)")
            any_rel = True
            pick = min(cand, key=cand.get)
            tf = flops / (cand[pick] * 1e-6) / 1e12
            e = tf / pt - 1
            errs.append(abs(e))
            es = f"{e * 100:+.1f} %" + ("" if abs(e) <= 0.30 else "")
            es = f"**{es}**" if abs(e) > 0.30 else es
            testing = cand.get("128x64_s2_w4")
            if r["casts"] == "1":
                wc = cand[pick] + cast_us(z, h, n)
                ec = flops / (wc * 1e-6) / 1e12 / pt - 1
                errs_c.append(abs(ec))
                cc = f"{wc:.1f} | " + (f"**{ec * 100:+.1f} %**" if abs(ec) > 0.30 else f"{ec * 100:+.1f} %")
            else:
                errs_c.append(abs(e))
                cc = "- (none timed) | -"
            lines.append(f"| {src} | {z} x {h} | {n} | {'yes' if ws else 'no'} | {pt:.1f} | {rel} | {ncfg} | "
                         f"{f'{testing:.1f}' if testing else '-'} | `{pick}` {cand[pick]:.1f} | {max(cand.values()):.1f} | "
                         f"{tf:.1f} | {es} | {cc} |")
        if not any_rel:
            lines.append(f"| {src} | {z} x {h} | {n} | {'yes' if ws else 'no'} | {pt:.1f} | - | 0 | - | not predicted | - | "
                         f"- | - | - | - |")
    lines.append("")
    for rel, (path, rows, refused) in sweeps.items():
        lines.append(f"Triton {rel}: {len(rows)} configs x sizes predicted, {len(refused)} refused (over sm_100's "
                     f"shared memory, as the autotuner's launch on silicon); " +
                     open(path).readline().lstrip("# ").strip().replace("|", "/") + ".")
        lines.append("")
    if errs:
        lines.append(f"{len(errs)} rows (a published figure against one release's sweep); the model's pick: median "
                     f"|error| {statistics.median(errs) * 100:.1f} %, worst {max(errs) * 100:.1f} %, "
                     f"{sum(e <= 0.30 for e in errs)} within 30 %; with tritonbench's casts added where its timed region "
                     f"has them: median {statistics.median(errs_c) * 100:.1f} %, worst {max(errs_c) * 100:.1f} %, "
                     f"{sum(e <= 0.30 for e in errs_c)} within 30 %.")
    else:
        lines.append("No sweep predicted.")
    return "\n".join(lines)


def b200_gemm_errors():
    """|error| of every predicted Gluon 07/08 row (the b200 table's), for the line over all B200 rows"""
    pub = {k: r for k, r in read_tsv(os.path.join(DATA, "b200_published.tsv")).items() if k.startswith("g0")}
    pred = read_tsv(os.path.join(DATA, "b200_predicted.tsv"))
    out = []
    for name, r in pub.items():
        p = pred.get(name, {}).get("predicted_us", "")
        m = re.search(r"_k(\d+)$", name)
        if not p:
            continue
        K = int(m.group(1)) if m else 16384
        tf = 2.0 * 8192 * 8192 * K / (float(p) * 1e-6) / 1e12
        out.append(abs(tf / float(r["published_tflops"]) - 1))
    return out


# which unit-level source settles each perturbation of scripts/timing_sensitivity.py (t47t): a line of
# gpu/tmem_micro.cu's output (gpu/run.sh tmem, a B200), or the published figure the row already has
T06_SETTLES = {
    "tmem_latency": "tmem_micro `tmem_ld_x*_chain` (fit: intercept); unpublished",
    "tmem_rate": "tmem_micro `tmem_ld_x*_chain` (fit: slope), `tmem_*_x128_tput_w*`; unpublished",
    "sfu_issue": "tmem_micro `sfu_ex2_w16`; derived today (FA4's authors: 16 MUFU/clk/SM, as the H100)",
    "sfu_latency": "(no effect)",
    "fp32_issue": "tmem_micro `fp32_fma_w16`, `fp32x2_fma_w16`; datasheet (128 lanes)",
    "alu_latency": "tmem_micro `lat_fp32_fma`; the H200's carried",
    "int_issue": "(the H200's carried; small)",
    "other_issue": "(one a clock; small)",
    "mma_rate": "published: microbench-blackwell `umma_throughput` (in params_b200.def)",
    "mma_latency": "published: microbench-blackwell `umma_latency` (in params_b200.def)",
    "mbar_latency": "tmem_micro `mbar_pingpong`; the H200's carried",
    "bar_latency": "tmem_micro `lat_bar_128`; the H200's carried",
    "tma_latency": "tmem_micro `tma2d_latency_*_l2_allsm` (K/V are L2 hits); published only from HBM (933)",
    "memory_rate": "published: microbench-blackwell `tma2d*_throughput` (L2, HBM; in params_b200.def); `tma_bytes_per_clk` an estimate",
    "smem_rate": "datasheet (128 B/clk)",
    "tmem_latency_200": "what-if (a worklog's kernel-level ~200 clk), not a source",
    "tmem_latency_420": "what-if (arXiv 2512.02189's disputed 420 clk), not a source",
}


def table_b200_t06_sensitivity():
    """tests/data/timing/b200t06_sensitivity.tsv (scripts/timing_sensitivity.py): each unit-level quantity made
    slower, the rows re-predicted, the elasticity, and the unit-level measurement that would settle it"""
    path = os.path.join(DATA, "b200t06_sensitivity.tsv")
    lines = [x.rstrip("\n").split("\t") for x in open(path) if x.strip() and not x.startswith("#")]
    head, rows = lines[0], lines[1:]
    names = [h[:-3] for h in head[2:] if h.endswith("_us")]
    short = [re.sub(r"^t06_attn_fwd_fp16_d128_full_", "", n) for n in names]
    out = ["| quantity | made slower | " + " | ".join(f"{n}: us, e" for n in short) + " | settled by |",
           "|---|---|" + "---:|" * len(names) + "---|"]
    for r in rows:
        cells = [f"{float(r[2 + 2 * i]):.1f}, {float(r[3 + 2 * i]):.2f}" for i in range(len(names))]
        out.append(f"| `{r[0]}` | {r[1]} | " + " | ".join(cells) + f" | {T06_SETTLES.get(r[0], '')} |")
    return "\n".join(out)


def render_doc(text):
    for key, fn in (("h200", table_h200), ("mask", table_mask), ("b200", table_b200),
                    ("b200attn", table_b200_attention), ("b200t06sweep", table_b200_t06sweep),
                    ("b200t06sens", table_b200_t06_sensitivity)):
        start, end = f"<!-- timing-table:{key} -->", "<!-- /timing-table -->"
        i = text.find(start)
        if i < 0:
            continue
        j = text.find(end, i)
        text = text[:i + len(start)] + "\n" + fn() + "\n" + text[j:]
    return text


def cmd_render(a):
    text = open(DOC).read()
    new = render_doc(text)
    if a.check:
        if new != text:
            print("docs/timing.md's tables are not what scripts/timing_table.py render writes")
            return 1
        return 0
    open(DOC, "w").write(new)
    print(table_h200())
    print()
    print(table_mask())
    return 0


def cmd_compare(a):
    """the committed predictions of the small rows, re-predicted: must be equal (model regression)"""
    full = os.environ.get("TC5_TIMING_FULL") == "1"
    bad = 0
    n = 0
    for setname in ("h200", "mask"):
        d, lines = manifest(setname)
        meas = measured(setname)
        pred = read_tsv(os.path.join(DATA, f"{setname}_predicted.tsv"))
        work = tempfile.mkdtemp(prefix="timing_cmp_")
        try:
            n, bad = compare_set(a, d, lines, meas, pred, full, work, n, bad)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    print(f"{n} rows re-predicted, {bad} differ from the committed predictions")
    return 1 if bad or n == 0 else 0


def compare_set(a, d, lines, meas, pred, full, work, n, bad):
    """re-predicts a set's rows (the cheap ones unless `full`) against the committed predictions"""
    for w in lines:
        name = w[0]
        if a.only and not re.search(a.only, name):
            continue
        if not full and float(pred.get(name, {}).get("cpu_s") or 1e9) > a.max_cpu_s:
            continue
        want = pred.get(name, {}).get("predicted_us", "")
        _, us, note, secs = predict_one(a.tc5, d, w, "h200", work)
        got = "" if us is None else f"{us:.3f}"
        n += 1
        err = "" if us is None else f"{(us / meas[name][0] - 1) * 100:+.1f} % vs measured {meas[name][0]:.2f} us"
        ok = got == want
        bad += not ok
        print(f"{'ok  ' if ok else 'DIFF'} {name}: predicted {got or 'FAILED ' + note} us, committed {want or '-'}; "
              f"{err} ({secs:.1f} s)", flush=True)
    return n, bad


def find_nvdisasm():
    """nvdisasm for the model's SASS counts (src/timing/sass_weights.c): $TC5_NVDISASM, PATH, /usr/local/cuda/bin,
    else the one Triton's wheel carries (this Python's triton, or a build's pyvenv-*): the H200 predictions were
    made with it, and without it tc5 counts PTX instructions (docs/timing.md "Issue from ptxas's SASS")"""
    import glob
    if os.environ.get("TC5_NVDISASM"):
        return os.environ["TC5_NVDISASM"]
    found = shutil.which("nvdisasm") or (os.path.exists("/usr/local/cuda/bin/nvdisasm") and "/usr/local/cuda/bin/nvdisasm")
    if found:
        return found
    cands = []
    try:
        import importlib.util
        spec = importlib.util.find_spec("triton")
        if spec and spec.origin:
            cands.append(os.path.join(os.path.dirname(spec.origin), "backends", "nvidia", "bin", "nvdisasm"))
    except (ImportError, ValueError):
        pass
    cands += sorted(glob.glob(os.path.join(ROOT, "build*", "pyvenv-*", "lib", "python*", "site-packages", "triton",
                                           "backends", "nvidia", "bin", "nvdisasm")))
    cands += sorted(glob.glob("/work/venv/lib/python*/site-packages/triton/backends/nvidia/bin/nvdisasm"))
    for c in cands:
        if os.access(c, os.X_OK):
            return c
    return None


def main():
    nvd = find_nvdisasm()
    if nvd:
        os.environ["TC5_NVDISASM"] = nvd
    else:
        print("timing_table.py: no nvdisasm found ($TC5_NVDISASM, PATH, Triton's wheel): tc5 counts PTX instructions, "
              "not the SASS the committed Hopper predictions counted", file=sys.stderr)
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("predict")
    p.add_argument("--tc5", default=os.path.join(ROOT, "build", "tc5"))
    p.add_argument("--set", default="h200", choices=["h200", "mask", "b200", "b200attn", "heldout"])
    p.add_argument("--only")
    p.add_argument("--out")
    p.add_argument("--resume", action="store_true", help="skip rows this same model already predicted")
    p.add_argument("--jobs", type=int, default=1, help="predictions at a time (2 at most on this machine)")
    p.add_argument("--sample", type=int, help="--timing-sample=N (default: the model's; 4 for --set b200)")
    p.add_argument("--subset", help="regex of rows (--set b200 default: B200_SUBSET; 'all': every row)")
    p.add_argument("--launches", metavar="DIR", help="--set b200attn on DIR/launches.txt instead (a tutorial 06 "
                   "sweep: scripts/timing_corpus.py --t06-sweep; needs --out)")
    r = sub.add_parser("render")
    r.add_argument("--check", action="store_true")
    c = sub.add_parser("compare")
    c.add_argument("--tc5", default=os.path.join(ROOT, "build", "tc5"))
    c.add_argument("--max-cpu-s", type=float, default=1.0)
    c.add_argument("--only")
    a = ap.parse_args()
    return {"predict": cmd_predict, "render": cmd_render, "compare": cmd_compare}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
