#!/usr/bin/env python3
"""Autotuning by the model (issue 47): Gluon tutorial 07's own BLOCK_K /
num_buffers / num_warps benchmark loop, its text unmodified, run on tc5's
Triton door under the timing model (TC5_TIMING=b200): the tutorial's
`triton.testing.do_bench_cudagraph(fn)` returns the model's predicted
milliseconds (s48's door hook, docs/python.md "Under the timing model"), so
the loop prints predicted TFLOP/s for each config; the ranking goes beside
the one the tutorial's text reports for Blackwell (docs/timing.md,
"Autotuning by the model").

usage: TC5_TIMING=b200 TC5_TIMING_SAMPLE=4 TC5_GLUON_TUTORIALS=SRC/python/tutorials/gluon \\
           python scripts/timing_autotune07.py [--out FILE]

The tutorial is read from a checkout (facebookexperimental/triton; not
committed here), copied with the census generator's four API renames and
imported as docs/examples/sweeps/gluon07_matmul.py does (tc5.triton.activate()
and the torch.cuda shim: "cuda" tensors on the CPU, a B200's capability).
The loop is the tutorial's block that begins `M, N, K = 8192, 8192, 16 * 1024`
and ends at the `print()` after the BLOCK_K loop: taken from the tutorial's
text and executed as __main__ in the module's namespace, so that none of the
tutorial's other benchmarks (its K sweep, the GROUP_SIZE_M loop) run.
Needs an interpreter with tc5 importable (its extension built), triton 3.9
and torch (CPU)."""
import argparse
import contextlib
import importlib.util
import io
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def loop_block(text):
    """the tutorial's benchmark loop, as written: from the __main__ block that makes A, B, C at
    8192 x 8192 x 16384 to the end of the BLOCK_K / num_buffers / num_warps loop"""
    start = text.index('if __name__ == "__main__":\n    M, N, K = 8192, 8192, 16 * 1024')
    head = text.index('print("BLOCK_K num_buffers num_warps tflops/s")', start)
    end = text.index("    print()\n", head) + len("    print()\n")
    return text[start:end]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", help="also write the loop's output and the run's facts here")
    a = ap.parse_args()
    if not os.environ.get("TC5_TIMING"):
        sys.exit("timing_autotune07.py: set TC5_TIMING=b200 (the loop's do_bench returns predictions only then)")
    spec = importlib.util.spec_from_file_location("gluon07_matmul",
                                                  os.path.join(ROOT, "docs", "examples", "sweeps", "gluon07_matmul.py"))
    g07 = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(g07)
    mod = g07.tutorial()  # the patched copy, imported; activate() and the torch.cuda shim done
    text = open(mod.__file__).read()
    block = loop_block(text)
    ns = dict(vars(mod))
    ns["__name__"] = "__main__"
    buf = io.StringIO()
    t0, c0 = time.time(), time.process_time()

    class Tee(io.TextIOBase):
        def write(self, s):
            sys.__stdout__.write(s)
            sys.__stdout__.flush()
            return buf.write(s)

    with contextlib.redirect_stdout(Tee()):
        exec(compile(block, mod.__file__, "exec"), ns)
    wall, cpu = time.time() - t0, time.process_time() - c0
    facts = (f"# TC5_TIMING={os.environ.get('TC5_TIMING')} TC5_TIMING_SAMPLE={os.environ.get('TC5_TIMING_SAMPLE', '')} "
             f"(model default if empty); wall {wall:.0f} s, CPU {cpu:.0f} s (this process), load average "
             f"{os.getloadavg()[0]:.1f} at the end\n")
    print(facts, end="")
    if a.out:
        with open(a.out, "w") as f:
            f.write("# Gluon tutorial 07's BLOCK_K/num_buffers/num_warps loop, unmodified, under tc5's door "
                    "(scripts/timing_autotune07.py)\n" + facts + buf.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main())
