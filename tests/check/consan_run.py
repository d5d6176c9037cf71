#!/usr/bin/env python3
"""Run Triton's ConSan test kernels (tests/data/consan: PTX compiled without
ConSan, manifest.tsv made by gen_consan.py) under `tc5 run` with the checker, and
say for each case whether tc5 agrees with ConSan (issue 33).

usage: consan_run.py TC5 [--data DIR] [--check MODE] [--jobs N] [--every K]
                         [--only REGEX] [--timeout S] [--baseline FILE]
                         [--write-baseline FILE] [--quiet] [--log DIR]
                         [--uninit warning|error]

Each case runs as `tc5 run PTX ARGS --threads 1 --check=MODE --rule
smem-uninit-read=LEVEL --rule tmem-uninit-read=LEVEL` (default mode: default;
--uninit LEVEL: warning by default) and is classified. Reads of never-written
memory are warnings here: ConSan fills every allocation with NaN and is silent
on them, and so are many of its correct kernels by design; they are counted
apart ("uninit-read warnings"), neither false alarms nor found bugs, except in
ConSan's own NaN test (class uninit-read), where the warning is the bug found:
  bug case (ConSan expects the launch to fail):
    found      a finding whose rule is one classes.txt maps the case's ConSan
               class to (for a deadlock class: tc5's deadlock error)
    missed     ran, but no such finding (other findings are listed)
  correct case (ConSan expects a clean run):
    silent     exit status 0, no finding
    alarm      a finding or a kernel error (a false alarm)
  either:
    cannot-run tc5 refused the PTX (an instruction it does not run, a parse
               error), the run's set-up failed (exit status 2), it crashed or
               it ran past --timeout

--every K runs every K-th case (1st, K+1-th, ...); TC5_CONSAN_FULL=1 in the
environment runs them all whatever --every says. --baseline FILE compares
with the expected results recorded there (`id<TAB>result`): the exit status
is 1 only for a regression (a case that was found/silent and is no longer),
0 otherwise; cases better than the baseline are listed as improvements
(update the file with --write-baseline). Without --baseline the exit status
is 0 when every case is found/silent, else 1. It prints a line per case (its
id, ConSan's verdict and class, the result, the time and why), then the
counts; --quiet prints only the counts. --log DIR keeps each case's
command and tc5 output (DIR/ID.txt). Standard library only.
"""
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

GOOD = {"found", "silent"}
FINDING = re.compile(r"^tc5 run: (error|warning) \[([a-z0-9]+(?:-[a-z0-9]+)+)\]")
TAG = re.compile(r"\[([a-z0-9]+(?:-[a-z0-9]+)+)\]")
# tc5 could not run the kernel: an instruction or form it does not model, a parse error
REFUSED = re.compile(r"not modelled by tc5|parse error")


def read_manifest(data):
    cases = []
    for line in open(os.path.join(data, "manifest.tsv")):
        if line.startswith("#") or not line.strip():
            continue
        cid, expect, classes, arch, ptx, args = line.rstrip("\n").split("\t")
        cases.append(dict(id=cid, expect=expect, classes=[] if classes == "-" else classes.split("|"), arch=arch,
                          ptx=os.path.join(data, "ptx", ptx), args=args.split()))
    return cases


def read_classes(data):
    """(class -> set of rule ids, [(rule id, regex of an untagged tc5 error)]); a trailing * (proposed) is dropped"""
    classes, errors = {}, []
    for line in open(os.path.join(data, "classes.txt")):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        kind, _, rest = line.partition(" ")
        key, _, val = rest.partition(":")
        if kind == "class":
            classes[key.strip()] = {r.rstrip("*") for r in val.split()}
        elif kind == "error":
            errors.append((key.strip(), re.compile(val.strip())))
        else:
            raise ValueError(f"classes.txt: '{line}' is neither 'class ID: RULES' nor 'error RULE: REGEX'")
    return classes, errors


def read_results(path):
    res = {}
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        cid, r = line.rstrip("\n").split("\t")[:2]
        res[cid] = r
    return res


def parse(out, errors):
    """(error findings' rules, kernel error text or None, rules the kernel error names, warnings' rules) of tc5
    run's output"""
    found, kerr, kerr_rules, warned = [], None, [], []
    lines = out.splitlines()
    for i, line in enumerate(lines):
        m = FINDING.match(line)
        if m:
            if m.group(1) == "error":
                found.append(m.group(2))
            else:
                warned.append(m.group(2))
        elif line.startswith("tc5 run: ") and not line.startswith("tc5 run: checker:") and kerr is None:
            detail = []
            for d in lines[i + 1:]:
                if not d.startswith("  - "):
                    break
                detail.append(d)
            kerr = line[len("tc5 run: "):] + "".join("\n" + d for d in detail)
            kerr_rules = [t for d in detail for t in TAG.findall(d)]
            kerr_rules += [r for r, rx in errors if rx.search(kerr)]
    return list(dict.fromkeys(found)), kerr, list(dict.fromkeys(kerr_rules)), list(dict.fromkeys(warned))


UNINIT = ("smem-uninit-read", "tmem-uninit-read")


def run_case(tc5, case, check, timeout, errors, log=None, uninit="warning"):
    cmd = [tc5, "run", case["ptx"]] + case["args"] + ["--threads", "1", f"--check={check}"]
    for rule in UNINIT:
        cmd += ["--rule", f"{rule}={uninit}"]
    t0 = time.time()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        out, rc = r.stdout + r.stderr, r.returncode
    except subprocess.TimeoutExpired:
        out, rc = f"(ran past {timeout} s)", None
    secs = time.time() - t0
    if log:
        name = re.sub(r"[^A-Za-z0-9_.-]", "_", case["id"]) + ".txt"
        with open(os.path.join(log, name), "w") as fh:
            fh.write(" ".join(cmd) + f"\n# exit {rc}, {secs:.2f} s\n" + out)
    if rc is None:
        return dict(result="cannot-run", why=f"ran past {timeout} s", secs=secs)
    found, kerr, kerr_rules, warned = parse(out, errors)
    first = (kerr or "").split("\n")
    short = first[0] + (": " + first[1].split(": ", 1)[-1][:160] if len(first) > 1 else "")
    if rc not in (0, 1) or (kerr and REFUSED.search(first[0])):
        return dict(result="cannot-run", why=f"exit {rc}: {short or out.strip()[:200]}", secs=secs)
    return dict(result=None, rc=rc, found=found, kerr=kerr, kerr_rules=kerr_rules, short=short, secs=secs,
                uninit=[x for x in warned if x in UNINIT])


def classify(case, r, classes):
    if r["result"]:
        return r
    rules = r["found"] + [x for x in r["kerr_rules"] if x not in r["found"]]
    if case["expect"] == "fail":
        want = set()
        for c in case["classes"]:
            want |= classes[c]
        hit = [x for x in rules if x in want] or [x for x in r["uninit"] if x in want]
        if hit:
            r["result"], r["why"] = "found", ",".join(hit)
        else:
            r["result"] = "missed"
            r["why"] = "no finding" if r["rc"] == 0 else \
                ("reported " + ",".join(rules) if rules else "kernel error: " + r["short"])
            if r["kerr"] and rules:
                r["why"] += " (run stopped: " + r["short"].split(":")[0] + ")"
    else:
        if r["rc"] == 0 and not rules:
            r["result"], r["why"] = "silent", ("warned " + ",".join(r["uninit"])) if r["uninit"] else ""
        else:
            r["result"] = "alarm"
            r["why"] = ",".join(rules) if rules else f"exit {r['rc']}: {r['short']}"
            if r["kerr"] and rules:
                r["why"] += " (run stopped: " + r["short"].split(":")[0] + ")"
    return r


def main(argv):
    if len(argv) < 2 or argv[1].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    tc5 = argv[1]
    opts = {"--data": os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "consan"),
            "--check": "default", "--jobs": "1", "--every": "1", "--only": None, "--timeout": "120",
            "--baseline": None, "--write-baseline": None, "--log": None, "--uninit": "warning"}
    table = "--quiet" not in argv
    i = 2
    while i < len(argv):
        a = argv[i]
        if a in ("--quiet", "--table"):
            i += 1
            continue
        if a not in opts or i + 1 >= len(argv):
            print(f"consan_run.py: unknown option or missing value: {a}\n{__doc__}", file=sys.stderr)
            return 2
        opts[a] = argv[i + 1]
        i += 2
    data = os.path.abspath(opts["--data"])
    cases = read_manifest(data)
    classes, errors = read_classes(data)
    unknown = sorted({c for k in cases for c in k["classes"] if c not in classes})
    if unknown:
        print(f"consan_run.py: classes.txt has no rules for {', '.join(unknown)}", file=sys.stderr)
        return 2
    every = 1 if os.environ.get("TC5_CONSAN_FULL") == "1" else int(opts["--every"])
    cases = cases[::every]
    if opts["--only"]:
        cases = [c for c in cases if re.search(opts["--only"], c["id"])]
    t0 = time.time()
    with ThreadPoolExecutor(max_workers=int(opts["--jobs"])) as ex:
        if opts["--log"]:
            os.makedirs(opts["--log"], exist_ok=True)
        results = list(ex.map(lambda c: classify(c, run_case(tc5, c, opts["--check"], float(opts["--timeout"]),
                                                             errors, opts["--log"], opts["--uninit"]), classes),
                              cases))
    wall = time.time() - t0
    counts = {}
    for c, r in zip(cases, results):
        counts[(c["expect"], r["result"])] = counts.get((c["expect"], r["result"]), 0) + 1
    if table:
        w = max(len(c["id"]) for c in cases) if cases else 10
        for c, r in zip(cases, results):
            cls = "|".join(c["classes"]) or "-"
            print(f"{c['id']:<{w}}  {c['expect']:<4}  {cls:<28}  {r['result']:<10}  {r['secs']:6.2f}s  {r['why']}")
        print()
    nb = sum(v for (e, _), v in counts.items() if e == "fail")
    nc = sum(v for (e, _), v in counts.items() if e == "pass")
    f = lambda e, r: counts.get((e, r), 0)
    ran_b = f("fail", "found") + f("fail", "missed")
    ran_c = f("pass", "silent") + f("pass", "alarm")
    print(f"ConSan corpus ({data}), {len(cases)} cases{'' if every == 1 else f' (every {every}th)'}, "
          f"tc5 --check={opts['--check']}, {wall:.1f} s:")
    print(f"  bug cases:     {nb:4d}: tested bug reported in {f('fail', 'found')} of {ran_b} that run, "
          f"missed {f('fail', 'missed')}, cannot run {f('fail', 'cannot-run')}")
    print(f"  correct cases: {nc:4d}: silent on {f('pass', 'silent')} of {ran_c} that run, "
          f"false alarm {f('pass', 'alarm')}, cannot run {f('pass', 'cannot-run')}")
    wb = sum(1 for c, r in zip(cases, results) if c["expect"] == "fail" and r.get("uninit"))
    wc = sum(1 for c, r in zip(cases, results) if c["expect"] == "pass" and r.get("uninit"))
    print(f"  uninit-read warnings ({opts['--uninit']}s: reads of never-written memory, which ConSan fills with NaN): "
          f"in {wb} bug cases, {wc} correct cases")
    if opts["--write-baseline"]:
        with open(opts["--write-baseline"], "w") as fh:
            fh.write("# consan_run.py results: id<TAB>result (found/missed/silent/alarm/cannot-run)<TAB>why\n")
            for c, r in zip(cases, results):
                fh.write(f"{c['id']}\t{r['result']}\t{r['why']}\n")
    if opts["--baseline"]:
        base = read_results(opts["--baseline"])
        regress, better, new = [], [], []
        for c, r in zip(cases, results):
            b = base.get(c["id"])
            if b is None:
                new.append(c["id"])
            elif b in GOOD and r["result"] not in GOOD:
                regress.append((c["id"], b, r["result"], r["why"]))
            elif b not in GOOD and r["result"] in GOOD:
                better.append((c["id"], b, r["result"]))
        for cid, b, now, why in regress:
            print(f"REGRESSION {cid}: was {b}, now {now} ({why})")
        for cid, b, now in better:
            print(f"improved   {cid}: was {b}, now {now}")
        if new:
            print(f"{len(new)} cases not in the baseline (first: {new[0]})")
        print(f"against {opts['--baseline']}: {len(regress)} regressions, {len(better)} improvements")
        return 1 if regress else 0
    return 0 if all(r["result"] in GOOD for r in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
