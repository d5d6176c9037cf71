#!/usr/bin/env python3
"""Run Triton's and Gluon's tutorials on tc5 (issue 35), unchanged, with
TC5_TRITON=1 and TC5_TRITON_TORCH_CUDA=1, each with its own correctness
check, and print one line per tutorial: passed or not, and the time.

usage: triton_tutorials.py --src SRC [--python PY] [--only REGEX] [--full] [--work DIR]

SRC holds python/tutorials (and python/tutorials/gluon), the checkout
gen_triton_corpus.py reads (facebookexperimental/triton carries them). PY
is an interpreter with tc5 installed (pip install ., for its triton.backends
entry point), triton 3.9, torch (CPU is enough) and pytest; default: this
one. PyTorch is large: CI does not run this (tests/python/test_triton_driver.py
is the NumPy-only subset).

What runs: the tutorial scripts as they are (01, 02, 03, 05, 08, 11: their
module-level checks; benchmark sweeps are skipped by the driver), the
pytest tutorials with pytest (06's forward tests; Gluon 06, 07, 08, 11,
12, 14), and, for 09 and 10, whose __main__ benchmarks with proton after
checking, their own check functions (validate, validate_block_scaled).
Where a tutorial's sizes take long on two cores, a subset runs (--full runs
the tutorials' own sizes, hours on two cores; docs/python.md gives the
default run's results and times). The copies under
--work get the API renames gen_triton_corpus.py lists (RENAMES: the
facebookexperimental fork's names for four functions Triton 3.9 calls
otherwise); nothing else in them changes.
"""
import argparse
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def renames():
    """the census generator's API renames (one list, kept there)"""
    path = os.path.join(ROOT, "tests", "data", "ptx", "census", "gen_triton_corpus.py")
    spec = importlib.util.spec_from_file_location("gen_triton_corpus", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.RENAMES


# a check function of a tutorial called with arguments: (file, function, calls)
CALL = """
import importlib.util, sys, torch
spec = importlib.util.spec_from_file_location("tutorial", {file!r})
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
torch.manual_seed({seed})
for args in {calls!r}:
    args = [getattr(torch, a[6:]) if isinstance(a, str) and a.startswith("torch.") else a for a in args]
    print("calling", {fn!r}, args, flush=True)
    getattr(m, {fn!r})(*args)
"""

# name, kind, file, what. script: stdout regexes; pytest: (-k selection, --full selection, failures
# allowed: {regex of the reason: why}); call: (function, calls, --full calls)
SIZES_09 = [[32, 32, 32], [512, 512, 512]]
SIZES_09_FULL = [[32, 32, 32], [8192, 8192, 512]]
# a kernel that reads memory never written, even when the values go unused, gets the checker's finding
# smem-uninit-read / tmem-uninit-read (an error by default; issue 33: the run goes on, reading 0xFF poison;
# before, tc5 stopped the run with TC5_EUNINIT, UninitializedError)
CASES = [
    ("triton 01 vector add", "script", "01-vector-add.py",
     [r"The maximum difference between torch and triton is 0\.0\n"]),
    ("triton 02 fused softmax", "script", "02-fused-softmax.py", []),
    ("triton 03 matmul (fp16, fp8)", "script", "03-matrix-multiplication.py",
     [r"(?s)Triton and Torch match.*Triton and Torch match"]),
    ("triton 05 layer norm", "script", "05-layer-norm.py", []),
    ("triton 06 attention forward", "pytest", "06-fused-attention.py",
     ("fwd and not (fwd-False-True) and (128-2-1] or 1024-2-1])", "fwd and not (fwd-False-True)", {})),
    # causal without warp specialisation: Triton's pipelined loop loads the S tile from Tensor Memory in the
    # peeled iteration of the loop of the diagonal blocks' predecessors even when that loop runs 0 times;
    # every result computed from it is discarded, which the default checker follows (docs/check.md)
    ("triton 06 attention forward, causal, not warp-specialised", "pytest", "06-fused-attention.py",
     ("fwd-False-True and (128-2-1] or 1024-2-1])", "fwd-False-True", {})),
    ("triton 08 grouped gemm", "script", "08-grouped-gemm.py", []),
    ("triton 09 persistent matmul (all variants, fp16 and fp8)", "call", "09-persistent-matmul.py",
     ("validate", [s + [f"torch.{t}"] for t in ("float16", "float8_e4m3fn") for s in SIZES_09],
      [s + [f"torch.{t}"] for t in ("float16", "float8_e4m3fn") for s in SIZES_09_FULL])),
    ("triton 10 block-scaled matmul (nvfp4, mxfp4, mxfp8, mixed)", "call", "10-block-scaled-matmul.py",
     ("validate_block_scaled", [[1024, 1024, 1024, f] for f in ("nvfp4", "mxfp4", "mxfp8", "mixed")],
      [[8192, 8192, 8192, f] for f in ("nvfp4", "mxfp4", "mxfp8", "mixed")])),
    ("triton 11 programmatic dependent launch", "script", "11-programmatic-dependent-launch.py",
     [r"add: \u2705"]),
    ("gluon 06 tcgen05", "pytest", "gluon/06-tcgen05.py", ("", "", {})),
    ("gluon 07 persistence", "pytest", "gluon/07-persistence.py", ("", "", {})),
    ("gluon 08 warp specialization", "pytest", "gluon/08-warp-specialization.py", ("", "", {})),
    ("gluon 11 tcgen05 mma scaled", "pytest", "gluon/11-tcgen05-mma-scaled.py",
     ("not test_mma_scaled_pipelined and 128-128-2048-2048-4096 or warp_specialized- and (-500-600- or -128-128-)",
      "not pipelined-", {})),
    # the "pipelined" implementation issues tcgen05_copy of the scale factors unpredicated in the iterations
    # whose loads and MMA are predicated off: the last copy is never committed before the kernel frees
    # Tensor Memory, and where no load ran the copy reads shared memory never written; the values are
    # unused, and the default checker is silent on both (--check=strict reports them: docs/check.md)
    ("gluon 11 tcgen05 mma scaled, the pipelined implementation", "pytest", "gluon/11-tcgen05-mma-scaled.py",
     ("pipelined- and (-500-600- or -128-128-)", "pipelined-", {})),
    ("gluon 12 cluster launch control", "pytest", "gluon/12-cluster-launch-control.py", ("1000", "", {})),
    ("gluon 14 multi-CTA", "pytest", "gluon/14-multicta.py", ("", "", {})),
]


def copy_tutorials(src, work):
    rn = renames()
    for sub in ("", "gluon"):
        d = os.path.join(src, "python", "tutorials", sub)
        os.makedirs(os.path.join(work, sub), exist_ok=True)
        for f in sorted(os.listdir(d)):
            if not f.endswith(".py"):
                continue
            text = open(os.path.join(d, f)).read()
            rel = os.path.join(sub, f)
            for pat, old, new, _why in rn:
                if re.search(pat, "python/tutorials/" + rel):  # as gen_triton_corpus.py (a pattern anywhere)
                    text = text.replace(old, new)
            with open(os.path.join(work, rel), "w") as fh:
                fh.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", required=True)
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--only", default="")
    ap.add_argument("--full", action="store_true", help="the tutorials' own sizes (hours on two cores)")
    ap.add_argument("--work", default="")
    args = ap.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="tc5-tutorials-")
    copy_tutorials(args.src, work)
    # COLUMNS: pytest's short summary keeps each failure's reason (the expected failures are matched on it)
    env = dict(os.environ, TC5_TRITON="1", TC5_TRITON_TORCH_CUDA="1", COLUMNS="1000")
    env.pop("TRITON_DEFAULT_BACKEND", None)
    env.setdefault("TRITON_DEFAULT_FP_FUSION", "1")  # Triton 3.9's default, without its warning
    failed = 0
    print(f"tutorials copied to {work}; logs beside them")
    for name, kind, file, what in CASES:
        if args.only and not re.search(args.only, name):
            continue
        path = os.path.join(work, file)
        cwd = os.path.dirname(path)
        log = path + ".log"
        if kind == "script":
            cmd = [args.python, path]
        elif kind == "pytest":
            sel = what[1] if args.full else what[0]
            cmd = [args.python, "-m", "pytest", "-q", "-rf", "-p", "no:cacheprovider", path] + (["-k", sel] if sel else [])
        else:
            fn, calls, full = what
            cmd = [args.python, "-c", CALL.format(file=path, fn=fn, calls=full if args.full else calls, seed=0)]
        t = time.time()
        r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
        dt = time.time() - t
        out = r.stdout + r.stderr
        with open(log, "w") as fh:
            fh.write(" ".join(cmd) + "\n" + out)
        ok = r.returncode == 0
        note = ""
        if kind == "script":
            ok = ok and all(re.search(p, r.stdout) for p in what) and "\u274c" not in r.stdout
        elif kind == "pytest":
            m = re.findall(r"(\d+ (?:passed|failed|skipped|deselected|error)[^\n]*) in [\d.]+s", out)
            note = m[-1] if m else ""
            fails = re.findall(r"^FAILED (\S+)(?: - (.*))?$", out, re.M)
            allowed = what[2]
            why = {}
            for test, reason in fails:
                hit = next((w for pat, w in allowed.items() if re.search(pat, reason or "")), None)
                if hit is None:
                    why = None
                    break
                why[hit] = why.get(hit, 0) + 1
            ok = ("passed" in note or fails) and why is not None and "error" not in note
            if why:
                note += "; as expected: " + ", ".join(f"{n} {w}" for w, n in why.items())
        else:
            ok = ok and "\u274c" not in r.stdout
            note = f"{r.stdout.count(chr(0x2705))} checks passed"
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {dt:.0f} s {note}".rstrip(), flush=True)
        if not ok:
            print("     " + "\n     ".join(out.strip().splitlines()[-8:]))
    print(f"{'all passed' if not failed else f'{failed} failed'}; logs in {work}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
