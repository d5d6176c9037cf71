#!/usr/bin/env python3
"""bench_launch_memory: tc5's own memory and CPU time for one launch of Liger-Kernel's kernels at
the shapes of its own tests (issue 50). The arrays are host memory that tc5 uses in place; what
tc5 adds beyond them (the checker's state, per-CTA state, copies) is measured as the process's
peak resident memory during tc5's run of the launch (the door's tc5.triton._run: VmHWM, reset
through /proc/self/clear_refs just before) minus its resident memory just before (the arrays,
outputs included, already in it: every page of each buffer the launch is handed is written with its
own bytes first, so that an output's first touch by the kernel is not counted as tc5's), and set against the bytes of the arrays the kernel is handed
(what it touches). Each kernel is launched once first on the same
shapes (Triton compiles it; that memory is the compiler's, not the launch's), then measured.
CPU seconds are the process's (every thread), load-independent.

usage: TC5_CLI=build/tc5 bench/bench_launch_memory.py [--sdist liger_kernel-0.8.5.tar.gz] [--small] [KERNEL...]
       (with the tc5 package, torch and triton; Liger's src/ is read from its pinned sdist as
       scripts/liger_peer.py does). KERNEL: ce (cross-entropy, 8192 x 32000 bf16, test_cross_entropy's
       B*T x V), ce128k (2048 x 128256: Llama 3's vocabulary), rms (RMSNorm 8192 x 4096 bf16);
       sort (FlagGems' radix sort, as torch.sort under flag_gems.use_gems() calls it, of one row of
       16,777,216 int32: a tenth of test_unique's and test_isin's shape3, 167,772,160 elements, whose
       launches are the same kernels on ten times the CTAs; needs flag_gems and GEMS_VENDOR=nvidia).
       --small: the same kernels at an eighth of the rows (a quick look)."""
import argparse
import os
import resource
import sys
import tempfile
import time

os.environ.setdefault("TC5_TRITON", "1")
os.environ.setdefault("TC5_TRITON_TORCH_CUDA", "1")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))


def status(field):
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise RuntimeError(f"/proc/self/status has no {field}")


def reset_peak():
    with open("/proc/self/clear_refs", "w") as fh:
        fh.write("5")  # resets VmHWM to the current RSS (Linux >= 4.0)


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


_own = []  # tc5's own bytes of each launch: peak RSS during tc5's run_ptx minus RSS just before it


def _watch():
    """the door's launch (tc5.triton._run) with its peak memory recorded: the arrays, outputs
    included, are allocated before it is called, so what its peak adds is tc5's own"""
    import tc5.triton
    run = tc5.triton._run
    if getattr(run, "_watched", False):
        return

    def watched(*args, **kwargs):
        # the arrays' pages made resident first: an output PyTorch allocated (torch.empty: pages mapped, never
        # written) is first written by the kernel, and those pages are the arrays', not tc5's (FlagGems' sort:
        # its keys and indices out, 12 bytes an element, measured as tc5's before this); the same bytes written back
        for b in kwargs.get("buffers") or []:
            if len(b):
                s = b[::4096]
                s[...] = s.copy()
        reset_peak()
        rss0 = status("VmRSS")
        try:
            return run(*args, **kwargs)
        finally:
            _own.append(max(0, status("VmHWM") - rss0))
    watched._watched = True
    tc5.triton._run = watched


def measure(name, launch, touched):
    """launch() twice (compile, then measured): one row"""
    import tc5.triton
    _watch()
    launch()
    n0 = tc5.triton.launches()
    del _own[:]
    c0, t0 = cpu(), time.time()
    launch()
    c1, t1 = cpu(), time.time()
    own = max(_own) if _own else 0
    print(f"{name:44s} {touched / 2**20:10.1f} {own / 2**20:10.1f} {own / touched:7.3f} {c1 - c0:8.1f} {t1 - t0:8.1f}"
          f" {tc5.triton.launches() - n0:3d}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sdist", default="")
    ap.add_argument("--small", action="store_true")
    ap.add_argument("kernels", nargs="*", default=["ce", "rms"])
    a = ap.parse_args()
    if set(a.kernels) - {"sort"}:
        import liger_peer
        src = tempfile.mkdtemp(prefix="tc5-liger-src-")
        for name, data in liger_peer.files_of(liger_peer.sdist_bytes(a.sdist)).items():
            if name.startswith("src/"):
                path = os.path.join(src, name)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "wb") as fh:
                    fh.write(data)
        sys.path.insert(0, os.path.join(src, "src"))
    import torch
    import tc5.triton
    tc5.triton.activate()
    div = 8 if a.small else 1
    print(f"{'kernel (shape)':44s} {'arrays MiB':>10s} {'tc5 MiB':>10s} {'ratio':>7s} {'CPU s':>8s} {'wall s':>8s}"
          f" {'n':>3s}")
    torch.manual_seed(0)
    for k in a.kernels:
        if k in ("ce", "ce128k"):
            from liger_kernel.ops.cross_entropy import cross_entropy_forward
            bt, v = (8192, 32000) if k == "ce" else (2048, 128256)
            bt //= div
            x = torch.randn(bt, v, dtype=torch.bfloat16, device="cuda")
            y = torch.randint(0, v, (bt,), device="cuda")

            def launch():
                # the forward kernel: the loss per row, and the gradient written over the logits in place
                cross_entropy_forward(x, y, None, -100, 0.0, 0.0, "mean", None, False)
            touched = x.numel() * x.element_size() + y.numel() * 8 + bt * 4
            measure(f"cross_entropy forward ({bt} x {v} bf16)", launch, touched)
        elif k == "rms":
            from liger_kernel.ops.rms_norm import rms_norm_forward
            bt, h = 8192 // div, 4096
            x = torch.randn(bt, h, dtype=torch.bfloat16, device="cuda")
            w = torch.randn(h, dtype=torch.bfloat16, device="cuda")

            def launch():
                rms_norm_forward(x, w, 1e-6, 0.0, "llama", None)
            touched = 2 * x.numel() * x.element_size() + w.numel() * 2 + bt * 4
            measure(f"rms_norm forward ({bt} x {h} bf16)", launch, touched)
        elif k == "sort":
            import flag_gems
            n = 16777216 // div
            x = torch.randint(-2**31, 2**31 - 1, (n,), dtype=torch.int32, device="cuda")

            def launch():
                with flag_gems.use_gems():
                    torch.sort(x, stable=True)
            # what the kernels are handed: the keys in, the sorted keys and their int64 indices out (the sort's
            # own ping-pong buffers, allocated before its launches, count as arrays: left out, the ratio larger)
            touched = x.numel() * (4 + 4 + 8)
            measure(f"FlagGems sort, one row ({n} int32)", launch, touched)
        else:
            sys.exit(f"bench_launch_memory: kernel {k!r}: ce, ce128k, rms or sort")


if __name__ == "__main__":
    main()
