#!/usr/bin/env python3
"""bench_interpret: the same Triton kernels on the same inputs run by tc5
(the Triton door: Triton compiles for a B200, the PTX runs on tc5) and by
Triton's own interpreter (TRITON_INTERPRET=1), in one run: each side in a
process of its own (the interpreter is chosen when @triton.jit runs), the
kernels' wall time (the first call, which compiles, apart; then the best of
ROUNDS), the ratio, and each side's error against a float64 reference
computed from the same inputs.

usage: bench/bench_interpret.py [--rounds N] [--large]
       (Triton 3.9, NumPy, PyTorch (the interpreter takes tensors) and tc5
       installed: `TC5_PY_TORCH=1 scripts/pyenv.sh` makes such a Python)

Kernels (Triton's tutorials 01-03, simplified; the tutorials' block sizes):
  vector add   fp32, 2^20 elements, BLOCK 1024
  softmax      fp32, 1823 x 781 (tutorial 02's shape), one row a program
  matmul       fp16 in, fp32 accumulator and out, 512^3 (--large: and 1024^3),
               128 x 128 x 32 tiles, 4 warps
Errors: max |out - ref| / max |ref|, ref the float64 result of the inputs."""
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pyfind  # noqa: E402

pyfind.need("numpy", "triton", "torch", "tc5", hint=" with PyTorch: TC5_PY_TORCH=1 scripts/pyenv.sh")
import numpy as np  # noqa: E402


def inputs(large):
    rng = np.random.default_rng(49)
    cases = [("vector add fp32 2^20", "add", {"x": rng.standard_normal(1 << 20).astype(np.float32),
                                              "y": rng.standard_normal(1 << 20).astype(np.float32)}),
             ("softmax fp32 1823x781", "softmax", {"x": rng.standard_normal((1823, 781)).astype(np.float32)})]
    for n in (512, 1024) if large else (512,):
        cases.append((f"matmul fp16 {n}^3", "matmul", {"a": rng.standard_normal((n, n)).astype(np.float16),
                                                       "b": rng.standard_normal((n, n)).astype(np.float16)}))
    return cases


def reference(kind, x):
    if kind == "add":
        return x["x"].astype(np.float64) + x["y"].astype(np.float64)
    if kind == "softmax":
        z = x["x"].astype(np.float64)
        e = np.exp(z - z.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)
    return x["a"].astype(np.float64) @ x["b"].astype(np.float64)


def side(which, rounds, large, out_dir):
    """one side's runs (a child process): prints JSON timings, writes outputs"""
    import torch
    import triton
    import triton.language as tl
    if which == "tc5":
        import tc5.triton
        tc5.triton.activate()

    @triton.jit
    def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)

    @triton.jit
    def softmax_kernel(out_ptr, in_ptr, in_stride, out_stride, n_cols, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        x = tl.load(in_ptr + row * in_stride + cols, mask=cols < n_cols, other=-float("inf"))
        x = x - tl.max(x, axis=0)
        num = tl.exp(x)
        tl.store(out_ptr + row * out_stride + cols, num / tl.sum(num, axis=0), mask=cols < n_cols)

    @triton.jit
    def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
                      BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
        pm, pn = tl.program_id(0), tl.program_id(1)
        rm = pm * BM + tl.arange(0, BM)
        rn = pn * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, K, BK):
            a = tl.load(a_ptr + rm[:, None] * sam + (k + rk)[None, :] * sak)
            b = tl.load(b_ptr + (k + rk)[:, None] * sbk + rn[None, :] * sbn)
            acc = tl.dot(a, b, acc)
        tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, acc)

    def launch(kind, t):
        if kind == "add":
            n = t["x"].numel()
            out = torch.empty_like(t["x"])
            return out, lambda: add_kernel[(triton.cdiv(n, 1024),)](t["x"], t["y"], out, n, BLOCK=1024)
        if kind == "softmax":
            x = t["x"]
            out = torch.empty_like(x)
            block = triton.next_power_of_2(x.shape[1])
            return out, lambda: softmax_kernel[(x.shape[0],)](out, x, x.stride(0), out.stride(0), x.shape[1],
                                                              BLOCK=block, num_warps=8)
        a, b = t["a"], t["b"]
        M, K = a.shape
        N = b.shape[1]
        c = torch.empty((M, N), dtype=torch.float32)
        return c, lambda: matmul_kernel[(M // 128, N // 128)](a, b, c, M, N, K, a.stride(0), a.stride(1),
                                                              b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                                                              BM=128, BN=128, BK=32, num_warps=4)

    times = {}
    for name, kind, x in inputs(large):
        t = {k: torch.from_numpy(v.copy()) for k, v in x.items()}
        out, run = launch(kind, t)
        t0 = time.perf_counter()
        run()
        first = time.perf_counter() - t0
        best = float("inf")
        for _ in range(rounds):
            t0 = time.perf_counter()
            run()
            best = min(best, time.perf_counter() - t0)
        np.save(os.path.join(out_dir, f"{which}_{kind}_{len(times)}.npy"), out.numpy())
        times[name] = (first, best)
    print(json.dumps(times))


def main():
    rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 3
    large = "--large" in sys.argv
    if "--side" in sys.argv:
        side(sys.argv[sys.argv.index("--side") + 1], rounds, large, sys.argv[sys.argv.index("--out") + 1])
        return
    with tempfile.TemporaryDirectory() as out:
        res = {}
        for which in ("tc5", "interp"):
            env = {k: v for k, v in os.environ.items() if k not in ("TC5_TRITON", "TRITON_INTERPRET")}
            if which == "interp":
                env["TRITON_INTERPRET"] = "1"
            args = [sys.executable, os.path.abspath(__file__), "--side", which, "--rounds", str(rounds), "--out", out]
            r = subprocess.run(args + (["--large"] if large else []), capture_output=True, text=True, env=env)
            if r.returncode:
                sys.exit(f"bench_interpret: the {which} side failed:\n{r.stderr[-3000:]}")
            res[which] = json.loads(r.stdout.strip().splitlines()[-1])
        print(f"Triton kernels on tc5 and under TRITON_INTERPRET=1, same inputs; wall seconds (first call, which "
              f"compiles; then the best of {rounds}); error: max |out - ref| / max |ref|, ref float64")
        print("| kernel | tc5 first | tc5 | interpreter first | interpreter | interpreter / tc5 | tc5 error "
              "| interpreter error |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- |")
        for i, (name, kind, x) in enumerate(inputs(large)):
            ref = reference(kind, x)
            err = {}
            for which in ("tc5", "interp"):
                o = np.load(os.path.join(out, f"{which}_{kind}_{i}.npy")).astype(np.float64)
                err[which] = np.abs(o - ref).max() / np.abs(ref).max()
            (f5, b5), (fi, bi) = res["tc5"][name], res["interp"][name]
            print(f"| {name} | {f5:.2f} s | {b5:.3f} s | {fi:.2f} s | {bi:.3f} s | {bi / b5:.1f}x | {err['tc5']:.2e} "
                  f"| {err['interp']:.2e} |")


if __name__ == "__main__":
    main()
