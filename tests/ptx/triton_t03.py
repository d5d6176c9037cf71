#!/usr/bin/env python3
"""Triton's tutorial 03 matmul as each compiler release compiled it (issue 52:
tests/data/ptx/rel100 for sm_100a, rel90 for sm_90a) under `tc5 run` with the
default checker: each C (f16, 128 x 256) against `tc5 gemm`'s product of the
same A and B (f32, K chained in the kind's steps; --model hopper for sm_90a)
rounded to f16 as the kernel's cvt.rn.f16.f32 does, and the checker's
findings (the rules named) against DIR/expected.txt, one line a kernel:
"FILE exact" or "FILE exact findings RULE,...".

usage: triton_t03.py TC5 DIR [--model blackwell|hopper]
Prints one line a kernel and "N kernels, M as expected"; exit 0 when all are.
Standard library only."""
import os
import re
import struct
import subprocess
import sys
import tempfile


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    tc5, d = sys.argv[1], sys.argv[2]
    model = sys.argv[sys.argv.index("--model") + 1] if "--model" in sys.argv else "blackwell"
    expected = {}
    for line in open(os.path.join(d, "expected.txt")):
        if line.strip() and not line.startswith("#"):
            f, v = line.split(None, 1)
            expected[f] = v.strip()
    work = tempfile.mkdtemp()
    ref = os.path.join(work, "d.bin")
    subprocess.run([tc5, "gemm", "--kind", "f16", "--atype", "f16", "--btype", "f16", "--m", "128", "--n", "256",
                    "--k", "128", "--a", os.path.join(d, "a.bin"), "--b", os.path.join(d, "b.bin"), "--b-major", "MN",
                    "--model", model, "--out", ref], check=True)
    raw = open(ref, "rb").read()
    want = struct.pack("<%de" % (len(raw) // 4), *struct.unpack("<%df" % (len(raw) // 4), raw))
    n = ok = 0
    for line in open(os.path.join(d, "kernels.txt")):
        if line.startswith("#") or not line.strip():
            continue
        f, entry, grid, block, shared, *args = line.split()
        out = os.path.join(work, "c.bin")
        argv = [tc5, "run", os.path.join(d, f), "--entry", entry, "--grid", grid, "--block", block,
                "--shared-bytes", shared]
        for a in args:
            if a.startswith("in:"):
                a = "in:" + os.path.join(d, a[3:])
            elif a.startswith("out:"):
                a = "out:%s:%s" % (out, a[4:])
            argv += ["--arg", a]
        p = subprocess.run(argv, capture_output=True, text=True)
        rules = sorted(set(re.findall(r"error \[([a-z0-9-]+)\]", p.stderr)))
        if p.returncode and not rules:
            got = "refused: " + (p.stderr.strip().splitlines() or ["?"])[0]
        else:
            got = "exact" if open(out, "rb").read() == want else "wrong"
            if rules:
                got += " findings " + ",".join(rules)
        n += 1
        good = expected.get(f) == got
        ok += good
        print(f"{'ok' if good else 'NOT AS EXPECTED'} {f}: {got}" + ("" if good else f" (expected: {expected.get(f)})"))
    print(f"{n} kernels, {ok} as expected")
    return 0 if ok == n else 1


if __name__ == "__main__":
    sys.exit(main())
