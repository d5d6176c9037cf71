#!/usr/bin/env python3
"""Fits the timing model's issue_queue (src/timing/launch_schedule.c tm_issue_queue) on the lent H200's
issue/latency interference microbenchmarks (gpu/run.sh timing-micro OUT intf; gpu/timing_micro.cu's
intf_kernel): unit-level rows only, never a kernel time (issue 47).

usage: timing_intf_fit.py MICRO.tsv      prints every row (measured, the two bounds, the law) and the fit
       timing_intf_fit.py MICRO.tsv --span   fits the law at every C on the SM's span rows (runs since run 7): the
                                         law's quantity (an SM's C CTAs start together: the span is their makespan)
       timing_intf_fit.py MICRO.tsv --mean   prints the SM's mean-CTA rows beside the law and the ordered mean (no fit:
                                         not the law's quantity, see below)
       timing_intf_fit.py --selftest     fits rows made by the law itself at a known beta (the fitter's test)

Each row intf_CH_MIX_jJ_cC is clk per iteration per CTA with C CTAs of one warp a scheduler on every SM.
The law's inputs are what the model gives it: P = the row at C = 1 (one CTA alone: the warp's path),
S = the loop's issue work per warp as the model counts it (SASS below x the table's issue costs:
dispatch 1 a SASS instruction, FP32 pipe 1, INT/ALU pipe 2 (ISETP, SEL, IMAD; run 6's alu rows), SFU 8; the
larger), n = C.

Which rows measure the law's quantity (t47r2, run 6): a row is the MEDIAN CTA's time (gpu/timing_micro.cu: the
middle of all SMs' CTAs), and an SM's CTAs do not finish together: the rows bound by the ALU pipe read
exactly (floor(C/2) + 1) x S at C = 2 ... 16 (ffma_isetp_sel_j2..6: 2.02-2.07, 3.03-3.06, 4.02-4.05, 5.02-5.04,
7.01-7.04, 8.99-9.04 x S), the finishing time of the SM's (floor(C/2) + 1)-th CTA when its scheduler serves
the CTAs one after another in a fixed priority (oldest first or by warp slot). The law is the time of a CTA that shares the issue slot with
n - 1 others from start to end (throughput: n CTAs a D). At C = 2 the median CTA is the SM's last: that
row is the pair's makespan; at C >= 3 it is a middle one, which the law does not model. So beta is fitted
on the C = 2 rows (and P from C = 1), within 0 ... 1: the pipe-bound rows at C >= 3 finish one CTA every S
(the ratios above), so an SM's throughput at saturation is n CTAs an n S, which the law keeps only for beta <= 1
(at beta > 1 a saturated D grows as S (1 + beta (n - 1)) > n S); the fit without that bound is printed too. The
C >= 3 rows are printed beside the law (fair sharing, n = C) and the ordered bound max(P, k S), k = floor(C/2) + 1. A joint fit of kappa (S scaled) and beta
on the same rows is printed as a diagnostic.

Runs since run 7 (t47r3) also write each SM's span (last CTA end - first CTA start) and mean CTA per iteration.
The span is the law's quantity at every C: an SM's C CTAs start together and do the same work, so the span is
their makespan, C CTAs an n/throughput, whatever the order of service; --span fits beta on it at C = 2 ... 16.
The mean CTA is not: in one batch (no CTA replaces a finished one) it depends on the order of service (fair
sharing: every CTA D; a fixed priority: the mean of max(P, kS), k = 1 ... C), and Little's law ties it to the
throughput only in a steady state with replacement. run 7's --mean fit (t47r2's first version) compared the law
with it at every C: 31.7 % / 171.6 % at any beta, because at C >= 6 the law is n S exactly (saturated) and the
median and worst rows are saturated ones, about half of n S. --mean now prints the rows without a fit.
Standard library only."""
import math
import sys

# the loops' SASS per iteration (nvdisasm of gpu/timing_micro.cu built by gpu/run.sh, NOPs excluded):
# (all, FFMA, ALU/INT: ISETP + SEL + IMAD, MUFU)
SASS = {
    ("ffma", "ffma", 0): (19, 16, 1, 0), ("ffma", "ffma", 1): (36, 33, 1, 0), ("ffma", "ffma", 2): (52, 49, 1, 0),
    ("ffma", "ffma", 3): (68, 65, 1, 0), ("ffma", "ffma", 4): (84, 81, 1, 0), ("ffma", "ffma", 6): (116, 113, 1, 0),
    ("ffma", "ffma", 8): (148, 145, 1, 0), ("ffma", "ffma", 12): (212, 209, 1, 0),
    ("ffma", "isetp_sel", 1): (52, 16, 34, 0), ("ffma", "isetp_sel", 2): (84, 16, 66, 0),
    ("ffma", "isetp_sel", 3): (116, 16, 98, 0), ("ffma", "isetp_sel", 4): (148, 16, 130, 0),
    ("ffma", "isetp_sel", 6): (212, 16, 194, 0),
    ("ffma", "imad", 1): (36, 17, 17, 0), ("ffma", "imad", 2): (52, 17, 33, 0), ("ffma", "imad", 4): (84, 17, 65, 0),
    ("ex2", "ffma", 2): (52, 33, 1, 16), ("ex2", "ffma", 4): (84, 65, 1, 16), ("ex2", "ffma", 8): (148, 129, 1, 16),
    ("ex2", "ffma", 12): (212, 193, 1, 16),
    ("ex2", "isetp_sel", 2): (83, 0, 65, 16), ("ex2", "isetp_sel", 4): (147, 0, 129, 16),
    ("ex2", "isetp_sel", 8): (275, 0, 257, 16),
    ("lds", "ffma", 0): (19, 0, 1, 0), ("lds", "ffma", 2): (52, 33, 1, 0), ("lds", "ffma", 4): (84, 65, 1, 0),
    ("lds", "ffma", 8): (148, 129, 1, 0), ("lds", "ffma", 16): (276, 257, 1, 0),
    ("lds", "isetp_sel", 2): (83, 0, 65, 0), ("lds", "isetp_sel", 4): (147, 0, 129, 0),
    ("lds", "isetp_sel", 8): (275, 0, 257, 0),
}
COST = dict(dispatch=1, fp32=1, alu=2, sfu=8)  # params_h200.def: issue_fp32, issue_int, issue_sfu


def issue_work(key):
    n, f, a, m = SASS[key]
    return max(n * COST["dispatch"], f * COST["fp32"], a * COST["alu"], m * COST["sfu"])


def law(P, S, n, beta):
    """tm_issue_queue, line for line"""
    n = max(n, 1)
    if not S > 0:
        return P
    Z, Q, R, nf = (P - S if P > S else 0.0), 0.0, S, math.floor(n)
    for k in range(1, nf + 1):
        R = S * (1 + beta * Q)
        Q = k * R / (R + Z)
    w = R + Z
    if n > nf:
        w += (n - nf) * (S * (1 + beta * Q) - R)
    return max(w, n * S, P)


def rows_of(path, what=""):
    """the intf rows: the median CTA's (what ""), or, where the run wrote them (gpu/timing_micro.cu since t47r2),
    the SM's mean CTA ("mean") or span ("span") rows, KEY_mean / KEY_span"""
    out = {}
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if not f[0].startswith("intf_"):
            continue
        name = f[0]
        if what:
            if not name.endswith("_" + what):
                continue
            name = name[: -len(what) - 1]
        elif name.endswith("_mean") or name.endswith("_span"):
            continue
        _, ch, rest = name.split("_", 2)
        mix, j, c = rest.rsplit("_", 2)
        out[(ch, mix, int(j[1:]), int(c[1:]))] = float(f[1])
    return out


FIT_C = (2,)  # the occupancies whose median CTA is the SM's last (above)
FIT_WHY = "the median CTA is the SM's last"


def fit(rows, kappa=1.0, bmax=1.0):
    def err(beta):
        e = 0.0
        for (ch, mix, j, c), t in rows.items():
            if c in FIT_C and (ch, mix, j, 1) in rows:
                e += math.log(law(rows[(ch, mix, j, 1)], kappa * issue_work((ch, mix, j)), c, beta) / t) ** 2
        return e
    b0 = min((err(b / 10), b / 10) for b in range(0, round(bmax * 10) + 1))[1]  # 0 ... bmax by 0.1, then by 0.01 around the best
    best = min((err(b / 100), b / 100) for b in range(max(0, round(b0 * 100) - 10), min(round(bmax * 100), round(b0 * 100) + 10) + 1))
    return best[1], best[0]


def summary(rows):
    """the fit and its errors on the C in FIT_C rows: beta (bounded by 1), its median and worst |error|, the same
    at beta 0 (max(P, nS)), the unbounded beta and its errors, and the joint (kappa, beta); timing_params_hopper.py
    writes params_h200.def's issue_queue row from it"""
    def errs(beta, kappa=1.0):
        x = sorted(abs(law(rows[k[:3] + (1,)], kappa * issue_work(k[:3]), k[3], beta) / t - 1)
                   for k, t in rows.items() if k[3] in FIT_C and k[:3] + (1,) in rows)
        return x[len(x) // 2], x[-1], len(x)
    beta = fit(rows)[0]
    bfree = fit(rows, bmax=3.0)[0]
    joint = min((fit(rows, k / 20, 3.0)[1], k / 20, fit(rows, k / 20, 3.0)[0]) for k in range(10, 61))
    return dict(beta=beta, err=errs(beta), err0=errs(0.0), bfree=bfree, errfree=errs(bfree), kappa=joint[1], kbeta=joint[2])


def ordered_mean(P, S, c):
    """the mean CTA of one batch of c served one after another in a fixed priority"""
    return sum(max(P, k * S) for k in range(1, c + 1)) / c


def report(rows, mean=False):
    """mean: the mean-CTA rows, printed beside the law at beta 1 and the ordered mean; no fit (not the law's quantity)"""
    if mean:
        print("row\tmeasured_clk\tP\tS\tmax(P,nS)\tlaw_beta1\tlaw_err_%\tordered_mean\tordered_mean_err_%")
        for c in sorted({k[3] for k in rows}):
            el, eo = [], []
            for (ch, mix, j, cc), t in sorted(rows.items()):
                P = rows.get((ch, mix, j, 1))
                if cc != c or P is None:
                    continue
                S = issue_work((ch, mix, j))
                d, o = law(P, S, c, 1.0), ordered_mean(P, S, c)
                el.append(abs(d / t - 1)), eo.append(abs(o / t - 1))
                print(f"intf_{ch}_{mix}_j{j}_c{c}_mean\t{t:.1f}\t{P:.1f}\t{S}\t{max(P, c * S):.1f}\t{d:.1f}\t{100 * (d / t - 1):+.1f}"
                      f"\t{o:.1f}\t{100 * (o / t - 1):+.1f}")
            el.sort(), eo.sort()
            print(f"# C = {c}, {len(el)} rows: the law (beta 1) median |error| {100 * el[len(el) // 2]:.1f} %, worst {100 * el[-1]:.1f} %;"
                  f" the ordered mean {100 * eo[len(eo) // 2]:.1f} %, {100 * eo[-1]:.1f} % (the mean CTA is not the law's quantity: no fit)")
        return None
    beta, e = fit(rows)
    bfree, efree = fit(rows, bmax=3.0)
    joint = min((fit(rows, k / 20, 3.0)[1], k / 20, fit(rows, k / 20, 3.0)[0]) for k in range(10, 61))  # kappa 0.5 ... 3 by 0.05
    print("row\tmeasured_clk\tP\tS\tmax(P,nS)\tlaw\tlaw_err_%\tordered_k\tmax(P,kS)\tordered_err_%")
    errs, errs0, errs1 = [], [], []
    for (ch, mix, j, c), t in sorted(rows.items()):
        P = rows.get((ch, mix, j, 1))
        if P is None:
            continue
        S = issue_work((ch, mix, j))
        d = law(P, S, c, beta)
        k = c // 2 + 1
        o = max(P, k * S)
        if c in FIT_C:
            errs.append(abs(d / t - 1))
            errs0.append(abs(max(P, c * S) / t - 1))
            errs1.append(abs(law(P, S, c, 1.0) / t - 1))
        print(f"intf_{ch}_{mix}_j{j}_c{c}\t{t:.1f}\t{P:.1f}\t{S}\t{max(P, c * S):.1f}\t{d:.1f}\t{100 * (d / t - 1):+.1f}"
              f"\t{k}\t{o:.1f}\t{100 * (o / t - 1):+.1f}")

    def stat(x):
        x = sorted(x)
        return f"median |error| {100 * x[len(x) // 2]:.1f} %, worst {100 * x[-1]:.1f} %"
    print(f"# fitted on the {len(errs)} rows at C = {', '.join(map(str, FIT_C))} ({FIT_WHY}): beta {beta:.2f} "
          f"(squared log error {e:.4f}; beta <= 1: the saturated throughput), {stat(errs)}; unbounded: beta {bfree:.2f} "
          f"(squared log error {efree:.4f}); at beta 1 (exact MVA) {stat(errs1)}; without the law (max(P, nS), "
          f"beta 0) {stat(errs0)}; diagnostic, the model's issue count scaled too: kappa {joint[1]:.2f}, beta {joint[2]:.2f} "
          f"(squared log error {joint[0]:.4f})")
    return beta


def selftest():
    rows = {}
    for key in SASS:
        P = 16 * (30 if key[0] == "lds" else 17 if key[0] == "ex2" else 4.2) + 3
        for c in (1, 2, 3, 4, 6, 8, 12, 16):
            rows[key + (c,)] = law(P, issue_work(key), c, 0.37)
    beta, e = fit(rows)
    ok = abs(beta - 0.37) < 1e-9 and e < 1e-12
    print(f"selftest: beta {beta:.2f} from rows made at 0.37: {'ok' if ok else 'FAILED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "--selftest":
        sys.exit(selftest())
    if len(sys.argv) == 3 and sys.argv[2] == "--span":  # the SM's span at every C: the C CTAs' makespan
        FIT_C, FIT_WHY = (2, 3, 4, 6, 8, 12, 16), "the SM's span: its CTAs' makespan"
        report(rows_of(sys.argv[1], "span"))
    elif len(sys.argv) == 3 and sys.argv[2] == "--mean":  # the SM's mean CTA: printed, not fitted
        report(rows_of(sys.argv[1], "mean"), mean=True)
    elif len(sys.argv) == 2:
        report(rows_of(sys.argv[1]))
    else:
        sys.exit(__doc__)
