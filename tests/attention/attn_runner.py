"""The command line the attention runners share (fa4_run.py,
triton_attn_run.py): each gives its own prepare() (the `tc5 run` command of
a kernel JSON on random inputs, and what its check needs) and check() (the
outputs against its reference rule); this module does the rest.

  RUNNER TC5 JSON [--check MODE] [--seed N] [--threads N] [--stats] [--long]

--long: a long run, skipped (exit 77) unless TC5_ATTENTION_LONG=1. Exit
status: 0 within the rule, 1 outside it, a kernel error or a checker finding,
2 bad usage or a launch the runner refuses (Refused)."""
import os
import shutil
import subprocess
import sys
import time


class Refused(Exception):
    """a launch this runner cannot place (exit 2)"""


def main(argv, prepare, check, doc):
    """runs prepare(tc5, path, check, seed, threads, stats) -> x (x["cmd"] the
    tc5 run command, x["meta"]["name"] the kernel), then the command, timed,
    then check(x, seconds) -> (ok, line); prints the line and tc5's output
    tails; returns the exit status"""
    if len(argv) < 3:
        print(doc, file=sys.stderr)
        return 2
    tc5, path = argv[1], argv[2]
    if "--long" in argv and os.environ.get("TC5_ATTENTION_LONG") != "1":
        print("%s: a long run; skipped (TC5_ATTENTION_LONG=1 runs it)" % os.path.basename(path))
        return 77
    opt = lambda k, d: argv[argv.index(k) + 1] if k in argv else d  # noqa: E731
    try:
        x = prepare(tc5, path, opt("--check", "default"), int(opt("--seed", "1")), opt("--threads", None),
                    "--stats" in argv)
    except Refused as e:
        print(e, file=sys.stderr)
        return 2
    try:
        return _run(x, check)
    finally:  # prepare made the inputs in a temporary folder of its own (work=None): gone with the run
        if x.get("work"):
            shutil.rmtree(x["work"], ignore_errors=True)


def _run(x, check):
    t0 = time.time()
    r = subprocess.run(x["cmd"], capture_output=True, text=True)
    dt = time.time() - t0
    findings = "checker:" in r.stderr
    if r.returncode != 0 and not findings:
        print("tc5 run failed (%d):\n%s%s" % (r.returncode, r.stdout[-4000:], r.stderr[-4000:]), file=sys.stderr)
        return 1
    ok, line = check(x, dt)
    print(line)
    if r.stdout.strip():
        print(r.stdout.strip()[-2000:])
    if r.stderr.strip():
        print(r.stderr.strip()[-6000:])
    if findings:
        print("%s: the checker reported findings (above)" % x["meta"]["name"])
    return 0 if ok and r.returncode == 0 else 1
