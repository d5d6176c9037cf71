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
and max(S, W). Usage: python3 scripts/timing_alu_share.py [--check]   (--check: exit 1 unless
max(S, W) is within 10 % of every saturated row; S's errors are printed beside it.)"""
import csv, os, re, statistics, sys

D = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "timing")
ALU = {"LOP3", "SHF", "IADD3", "ISETP", "SEL"}
COST = {"FFMA": ("fp32", 1), "IMAD": ("imad", 2), "HFMA2": ("fp16", 1)}


def loops():
    """kernel (N, KIND) -> the loop body's opcodes in SASS order"""
    cur, ins, out = None, [], {}
    def close():
        if cur is None: return
        for a, op, l in ins:
            m = re.search(r"BRA\s+0x([0-9a-f]+)", l)
            if op == "BRA" and m and int(m.group(1), 16) < a:
                t = int(m.group(1), 16)
                out[cur] = [o for a2, o, _ in ins if t <= a2 <= a]
    for l in open(os.path.join(D, "h200_sass_run12.txt")):
        m = re.search(r"Function : _Z15alushare_kernelILi(\d+)ELi(n?\d+)E", l)
        if m:
            close()
            cur, ins = (int(m.group(1)), int(m.group(2).replace("n", "-"))), []
            continue
        m = re.search(r"/\*([0-9a-f]{4})\*/\s+(@!?U?P\w+\s+)?([A-Z0-9_]+)", l)
        if m and cur is not None: ins.append((int(m.group(1), 16), m.group(3), l))
    close()
    return out


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
    rows = {r["key"]: float(r["value"]) for r in csv.DictReader(open(os.path.join(D, "h200_micro_run12.tsv")), delimiter="\t")}
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
    if "--check" in sys.argv and max(errW) > 10: sys.exit(1)


if __name__ == "__main__":
    main()
