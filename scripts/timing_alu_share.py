#!/usr/bin/env python3
"""Issue 47, runs 11 and 12 (t47y): the ALU-pipe share of a fixed 64-SASS trip against FFMA.

Reads tests/data/timing/h200_micro_run12.tsv (gpu/run.sh timing-alu-share; run 11's rows are repeated
there to 0.1 clk) and the loops' SASS (h200_sass_run12.txt), and sets each saturated row (C >= 4 CTAs of
128 threads an SM: C warps a scheduler; the SM's span over C, clk a warp-trip) beside two laws:
  S: the single station of src/timing/launch_schedule.c issue_work, max(dispatch, each pipe): the
     co-resident warps overlap their pipes perfectly (the model's law at saturation);
  W: one warp's own issue calendar in ptxas's SASS order with no operand latency (a warp-instruction a
     clock, each pipe busy its issue cost: FFMA 1, LOP3/SHF/IADD3/ISETP/SEL 2, IMAD 2, HFMA2 1), in
     steady state (the third trip minus the second): what the warp alone needs when its ALU
     instructions come in a burst that ptxas's list scheduler made;
and max(S, W). Usage: python3 scripts/timing_alu_share.py [--check] [--r2p] [--run10] [--model TC5]   (--check: exit 1 unless
max(S, W) is within 15 % of every saturated row; S's errors are printed beside it. --r2p: the same two
laws on r2p_mask's local kernels from t47w's Nsight Compute SASS pages, h200_r2p_ncu.local_*.sass.csv:
each run of SASS lines with one executed count is a block, W summed over the blocks at their counts a
warp (a block run more than once at its steady-state span), pipes as above plus FSEL/FMNMX/FSETP/IMNMX/
PRMT/LEA/PLOP3/R2P/VIADDMNMX/VIMNMX on the ALU (2), FADD/FMUL/VIADD on the FP32 pipe (1), MUFU 8; the
ALU counts this gives are ncu's within 0.3 %. --model TC5: the model itself, `tc5 run --timing=h200` on the
kernels' PTX (nvcc -ptx -arch=sm_90a -O3, ptxas/nvdisasm SASS counts as scripts/timing_intf_model.py),
grid 132 x C, block 128, the device run's dynamic shared memory, at 20 and 60 trips: (us60 - us20) / 40
x 1980 / C clk a warp-trip, for the mixed rows at C = 4, 5, 8. --run10: S and max(S, W) on t47v's run 10
(h200_micro_run10.tsv, h200_sass_run10.txt: k MUFU.EX2 + 16 - k FFMA or SEL a quarter trip; MUFU 8 on the
SFU, no share of the FP32 pipe), its 54 span rows at C = 4, 8, 16.)"""
import csv, os, re, statistics, sys

D = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "timing")
ALU = {"LOP3", "SHF", "IADD3", "ISETP", "SEL"}
COST = {"FFMA": ("fp32", 1), "IMAD": ("imad", 2), "HFMA2": ("fp16", 1), "MUFU": ("sfu", 8)}


def rows_of(name):
    """a microbenchmark run's TSV (tests/data/timing/NAME): key -> value"""
    return {r["key"]: float(r["value"]) for r in csv.DictReader(open(os.path.join(D, name)), delimiter="\t")}


def loop_bodies(sass, function, key):
    """each kernel's loop body, its opcodes in SASS order (from a backward BRA's target to the BRA), from a
    cuobjdump -sass file (tests/data/timing/SASS): the functions matching the regex `function`, each named
    key(match)"""
    cur, ins, out = None, [], {}
    def close():
        if cur is None: return
        for a, op, l in ins:
            m = re.search(r"BRA\s+0x([0-9a-f]+)", l)
            if op == "BRA" and m and int(m.group(1), 16) < a:
                t = int(m.group(1), 16)
                out[cur] = [o for a2, o, _ in ins if t <= a2 <= a]
    for l in open(os.path.join(D, sass)):
        m = re.search(function, l)
        if m:
            close()
            cur, ins = key(m), []
            continue
        m = re.search(r"/\*([0-9a-f]{4})\*/\s+(@!?U?P\w+\s+)?([A-Z0-9_]+)", l)
        if m and cur is not None: ins.append((int(m.group(1), 16), m.group(3), l))
    close()
    return out


def loops():
    """run 12's alushare kernels: (N, KIND) -> the loop body's opcodes in SASS order"""
    return loop_bodies("h200_sass_run12.txt", r"Function : _Z15alushare_kernelILi(\d+)ELi(n?\d+)E",
                       lambda m: (int(m.group(1)), int(m.group(2).replace("n", "-"))))


def pipe_of(op):
    if op in ALU: return ("alu", 2)
    return COST.get(op, (None, 0))


def laws(body):
    disp = len(body)
    work = {}
    for op in body:
        p, c = pipe_of(op)
        if p: work[p] = work.get(p, 0) + c
    S = max([disp] + list(work.values()))
    t, free, starts = -1.0, {}, []
    for trip in range(3):
        starts.append(t + 1)
        for op in body:
            p, c = pipe_of(op)
            t = max(t + 1, free.get(p, 0)) if p else t + 1
            if p: free[p] = t + c
    return disp, work.get("alu", 0), S, starts[2] - starts[1]


def main():
    rows = rows_of("h200_micro_run12.tsv")
    kn = {-1: "", 0: "lop3_", 1: "shf_", 2: "iadd3_", 3: "isetp_sel_"}
    print("row\tSASS order (F FFMA, A IADD3, L LOP3, S SHF, I ISETP, s SEL)\tdispatch\tALU clk\tS\tW\tmeasured\tS err %\tmax(S,W) err %")
    errS, errW = [], []
    sym = {"FFMA": "F", "LOP3": "L", "SHF": "S", "IADD3": "A", "ISETP": "I", "SEL": "s", "BRA": "B", "UIADD3": "u", "IMAD": "m", "HFMA2": "h"}
    for (n, kind), body in sorted(loops().items(), key=lambda kv: (kv[0][1], kv[0][0])):
        disp, alu, S, W = laws(body)
        for c in (4, 5, 8):
            key = f"alushare_{kn[kind]}n{n}_c{c}_span"
            if key not in rows: continue
            m = rows[key] / c
            eS, eW = 100 * (S - m) / m, 100 * (max(S, W) - m) / m
            errS.append(abs(eS)); errW.append(abs(eW))
            print(f"{key}\t{''.join(sym.get(o, '?') for o in body)}\t{disp}\t{alu}\t{S}\t{W:.0f}\t{m:.1f}\t{eS:+.1f}\t{eW:+.1f}")
    print(f"# {len(errS)} saturated rows: S median |err| {statistics.median(errS):.1f} %, worst {max(errS):.1f} %; "
          f"max(S, W) median {statistics.median(errW):.1f} %, worst {max(errW):.1f} %")
    if "--r2p" in sys.argv:
        r = [r2p(k) for k in ("compare", "bitmask")]
        print(f"# r2p local, compare / bitmask: S {r[0][0] / r[1][0]:.4f}, max(S, W) {max(r[0]) / max(r[1]):.4f} "
              "(silicon, ncu elapsed cycles: 366498 / 335139 = 1.0936)")
    if "--run10" in sys.argv:
        run10()
    if "--model" in sys.argv:
        model(sys.argv[sys.argv.index("--model") + 1], rows)
    if "--check" in sys.argv and max(errW) > 15: sys.exit(1)


def run10():
    rows = rows_of("h200_micro_run10.tsv")
    bodies = loop_bodies("h200_sass_run10.txt", r"Function : _Z11mufu_kernelILi(\d+)ELi(\d)E",
                         lambda m: (int(m.group(1)), int(m.group(2))))
    eS, eW = [], []
    print("run 10 row\tS\tW\tmeasured\tS err %\tmax(S,W) err %")
    for (k, mix), body in sorted(bodies.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        _, _, S, W = laws(body)
        for c in (4, 8, 16):
            key = f"mufu_{'sel' if mix else 'ffma'}_k{k}_c{c}_span"
            m = rows[key] / c
            eS.append(abs(S / m - 1) * 100); eW.append(abs(max(S, W) / m - 1) * 100)
            print(f"{key}\t{S}\t{W:.0f}\t{m:.1f}\t{100 * (S / m - 1):+.1f}\t{100 * (max(S, W) / m - 1):+.1f}")
    print(f"# run 10, {len(eS)} span rows: S median |err| {statistics.median(eS):.1f} %, worst {max(eS):.1f} %; "
          f"max(S, W) median {statistics.median(eW):.1f} %, worst {max(eW):.1f} %")


def model(tc5, rows):
    import tempfile
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from timing_intf_model import micro_env, micro_ptx, model_us
    env = micro_env()
    with tempfile.TemporaryDirectory() as tmp:
        ptx = micro_ptx(os.path.join(tmp, "timing_micro.ptx"))
        errs = []
        print("row\tmeasured\tmodel\terror %")
        for n in (0, 4, 8, 16, 24, 32, 40, 48):
            for c in (4, 5, 8):
                smem = (min(233472 - 1024, 233472 - 1024) // c - 1024)
                smem = min(smem, 232448) & ~127
                entry = f"_Z15alushare_kernelILi{n}ELin1EEviPyPj"
                us = [model_us(tc5, ptx, entry, it, env, grid=132 * c, smem=smem) for it in (20, 60)]
                clk = (us[1] - us[0]) / 40 * 1980 / c
                meas = rows[f"alushare_n{n}_c{c}_span"] / c
                errs.append(abs(clk / meas - 1) * 100)
                print(f"alushare_n{n}_c{c}_span\t{meas:.1f}\t{clk:.1f}\t{100 * (clk / meas - 1):+.1f}")
        print(f"# the model on {len(errs)} rows: median |error| {statistics.median(errs):.1f} %, worst {max(errs):.1f} %")


R2P_ALU = ALU | {"FSEL", "FMNMX", "FSETP", "IMNMX", "PRMT", "LEA", "PLOP3", "R2P", "P2R", "VIADDMNMX", "VIMNMX", "FLO", "POPC", "BMSK", "SGXT"}


def r2p_pipe(op):
    b = op.split(".")[0]
    if b in R2P_ALU: return ("alu", 2)
    if b in ("FFMA", "FADD", "FMUL", "VIADD"): return ("fp32", 1)
    if b in ("IMAD", "IMUL"): return ("imad", 2)
    if b == "MUFU": return ("sfu", 8)
    if b in ("HFMA2", "HADD2", "HMUL2"): return ("fp16", 1)
    return (None, 0)


def span(ops, trips):
    t, free, starts = -1, {}, []
    for _ in range(trips):
        starts.append(t + 1)
        for op in ops:
            p, c = r2p_pipe(op)
            t = max(t + 1, free.get(p, 0)) if p else t + 1
            if p: free[p] = t + c
    if trips == 1: return max([t + 1] + list(free.values()))
    return starts[2] - starts[1]


def r2p(kind):
    rows = list(csv.reader(open(os.path.join(D, f"h200_r2p_ncu.local_{kind}.sass.csv"))))
    iS, iE = rows[1].index("Source"), rows[1].index("Instructions Executed")
    ins = []
    for r in rows[2:]:
        m = re.match(r"(@!?U?P\w+\s+)?([A-Z0-9_.]+)", r[iS].strip()) if len(r) > iE else None
        if m: ins.append((m.group(2), float(r[iE] or 0)))
    nw = ins[0][1]
    blocks, cur, cnt = [], [], None
    for op, e in ins:
        if e != cnt and cur: blocks.append((cnt, cur)); cur = []
        cnt = e
        cur.append(op)
        if op.split(".")[0] in ("BRA", "EXIT", "BSYNC", "BAR", "WARPSYNC"): blocks.append((cnt, cur)); cur, cnt = [], None
    if cur: blocks.append((cnt, cur))
    disp = W = 0
    work = {}
    for e, ops in blocks:
        if not e: continue
        k = e / nw
        W += k * span(ops, 3 if k > 1.5 else 1)
        disp += k * len(ops)
        for op in ops:
            p, c = r2p_pipe(op)
            if p: work[p] = work.get(p, 0) + c * k
    S = max([disp] + list(work.values()))
    print(f"# r2p local {kind}: {nw:.0f} warps; a warp: dispatch {disp:.0f}, pipes " +
          ", ".join(f"{p} {v:.0f}" for p, v in sorted(work.items())) + f"; S {S:.0f}, W {W:.0f}, W / S {W / S:.3f}")
    return S, W


if __name__ == "__main__":
    main()
