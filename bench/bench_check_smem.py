#!/usr/bin/env python3
"""The checker's cost on kernels heavy in shared-memory traffic (issue 33):
`tc5 run` with the default checker against the same run with --check=none, in
the same process run, alternately, best of N each, on Triton kernels of the
census corpus (tests/data/ptx/census/triton: NAME.ptx and the launch NAME.json):

  softmax   tutorial 02's fused softmax (fp32, 256 x 1024, 8 warps, 256 CTAs):
            each row staged through shared memory by a cp.async ring
            (num_stages 4), reductions through st/ld.shared
  cp.async-ring  Triton's tf32 matmul of the corpus (tests/data/ptx/
            mm_tf32_f32_w4_s2: 128x64x32 tiles, 4 warps, 2 stages), 512 x 512 x
            1024: a pipelined cp.async ring of A/B tiles (4 bytes a thread) that
            tcgen05.mma reads

usage: bench_check_smem.py TC5 [--repeat N] [--root DIR]
Prints one line per kernel with both times and the ratio (issue 33's bound:
1.5x). Inputs are random bytes (the time does not depend on the values);
outputs are written to a temporary directory. Standard library only."""
import os
import random
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "ptx"))
import census_launch  # noqa: E402

KERNELS = [("softmax", "t02_softmax_kernel_fp32_256x1024"), ("cp.async-ring", "mm_tf32_f32_w4_s2")]
SIZE = {"float32": 4, "float16": 2, "bfloat16": 2}
OUTS = {"output_ptr", "c_ptr"}


def random_file(path, n, rng):
    # small finite values in every float type: the high byte of each 16-bit half in [0x30, 0x3c)
    with open(path, "wb") as fh:
        fh.write(bytes(rng.randrange(0x30, 0x3c) if i % 2 else rng.randrange(256) for i in range(n)))


def corpus_command(tc5, root, name, work, M=512, N=512, K=1024):
    """a kernel of tests/data/ptx/corpus.txt, as tests/ptx/run_corpus.sh runs it"""
    for line in open(os.path.join(root, "tests/data/ptx/corpus.txt")):
        f = line.split()
        if f and f[0] == name:
            at, ct, bm, bn, warps, shared = f[1], f[2], int(f[3]), int(f[4]), int(f[6]), f[9]
            break
    w = {"f16": 2, "bf16": 2, "tf32": 4}.get(at, 1)
    rng = random.Random(5)
    random_file(os.path.join(work, "a.bin"), M * K * w, rng)
    random_file(os.path.join(work, "b.bin"), K * N * w, rng)
    return [tc5, "run", os.path.join(root, "tests/data/ptx", name + ".ptx"), "--grid", f"{M // bm},{N // bn}",
            "--block", str(32 * warps), "--shared-bytes", shared, "--threads", "1",
            "--arg", "in:" + os.path.join(work, "a.bin"), "--arg", "in:" + os.path.join(work, "b.bin"),
            "--arg", f"out:{os.path.join(work, 'c.bin')}:{M * N * (2 if ct == 'f16' else 4)}",
            "--arg", f"u32:{M}", "--arg", f"u32:{N}", "--arg", f"u32:{K}", "--arg", "null", "--arg", "null"]


def command(tc5, base, work):
    rng = random.Random(5)

    def buffer(p, f):
        n = SIZE[p["tensor"]["dtype"]]
        for d in p["tensor"]["shape"]:
            n *= d
        if p["name"] in OUTS:
            return f"out:{f}:{n}"
        random_file(f, n, rng)
        return f"in:{f}"
    return census_launch.command(tc5, base + ".json", work, buffer, ["--threads", "1"])[1]


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    tc5, repeat = argv[1], 3
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    if "--repeat" in argv:
        repeat = int(argv[argv.index("--repeat") + 1])
    if "--root" in argv:
        root = argv[argv.index("--root") + 1]
    worst = 0.0
    with tempfile.TemporaryDirectory() as work:
        for label, name in KERNELS:
            census = os.path.join(root, "tests/data/ptx/census/triton", name)
            cmd = command(tc5, census, work) if os.path.exists(census + ".json") else \
                corpus_command(tc5, root, name, work)
            best = {}
            for r in range(2 * repeat):
                mode = "none" if r % 2 else "default"
                t0 = time.perf_counter()
                p = subprocess.run(cmd + [f"--check={mode}"], capture_output=True, text=True)
                dt = time.perf_counter() - t0
                if p.returncode or "error [" in p.stdout + p.stderr:
                    print(f"{label}: tc5 run --check={mode} failed:\n{(p.stdout + p.stderr)[:2000]}")
                    return 1
                best[mode] = min(best.get(mode, dt), dt)
            ratio = best["default"] / best["none"]
            worst = max(worst, ratio)
            print(f"{label:9} {name}: checker on {best['default']:.3f} s, --check=none {best['none']:.3f} s: "
                  f"overhead = {ratio:.2f}x   (issue 33: at most 1.5x; best of {repeat})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
