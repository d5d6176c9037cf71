"""PyTorch's integer division on a GPU where the CPU refuses (issue 50, tc5.device's identity).

FlagGems' test_floor_divide_int and test_remainder (16 cases of the whole run, docs/fidelity.md) make int16/int32
tensors with randint over the type's whole range, so a divisor is sometimes 0; the test's reference runs
PyTorch's own `//` and `%` on the test's "cuda" tensors. Under the shim those are CPU tensors, and PyTorch's CPU
kernels raise ZeroDivisionError; on a GPU PyTorch's CUDA kernels return a value. Which value is silicon's answer:
this script records it, for every integer type, every operator that divides, every form of the divisor, with zero
divisors and the one overflow (the type's minimum over -1), so that tc5.device can answer as CUDA does.

  python gpu/intdiv_probe.py OUTDIR [--device cuda|cpu] [--edges]   (gpu/run.sh intdiv OUTDIR runs it on the GPU)

OUTDIR/intdiv_<device>.tsv: one row an element, `op<TAB>form<TAB>dtype<TAB>a<TAB>b<TAB>result`; result is the
integer, or `error: <exception type>: <first line>` when the call raised (then every element of that call has
it). OUTDIR/env_<device>.txt: versions, the GPU. --device cpu is the CPU's answers, on any machine (the
rehearsal; they are the errors the shim meets now). --edges: OUTDIR/intdiv_edges_<device>.tsv instead, int64
dividends by 0 between the two paths the first run showed (4294967295 for 0..100, -1 for negative dividends and
2^63 - 2, 2^63 - 1), every operator, the tensor and Python-int forms (gpu/run.sh intdiv-edges; ran on the H200
2026-11-30: tests/data/device_intdiv/intdiv_edges_cuda.tsv and env_edges_cuda.txt, the split at 2^32).

The operators (PyTorch's CUDA kernels that compute them, docs/fidelity.md's FlagGems whole paragraph names the
source lines): floor_divide, `//` (div_floor_kernel_cuda: c10's div_floor_integer), remainder, `%`
(remainder_kernel_cuda), fmod (fmod_kernel_cuda), div(rounding_mode="trunc") (div_trunc_kernel_cuda: a / b),
div(rounding_mode="floor") (div_floor_kernel_cuda). The forms of the divisor: "tensor" (a tensor of the same
shape: every dividend with every divisor, one launch), "0d" (a 0-d tensor on the device, one launch a divisor),
"int" (a Python int: PyTorch's wrapped number, a CPU scalar, gpu_kernel_with_scalars's other path), "inplace"
(the tensor form of the in-place method: floor_divide_, remainder_, fmod_, div_). A call that fails with a
CUDA error (a device-side assert leaves the context unusable) or a signal (the CPU's int32/int64 minimum over -1
is SIGFPE on x86) is recorded and a fresh worker process goes on at the next call.
"""
from __future__ import annotations

import os
import subprocess
import sys

DTYPES = ("int8", "int16", "int32", "int64", "uint8")
OPS = ("floor_divide", "floordiv_op", "remainder", "mod_op", "fmod", "div_trunc", "div_floor")
FORMS = ("tensor", "0d", "int", "inplace")


def values(dtype: str):
    """(dividends, divisors) of dtype: 0 and small values of both signs, the type's extremes; divisors with 0, -1
    (the overflow of min / -1) and the extremes"""
    import torch
    info = torch.iinfo(getattr(torch, dtype))
    lo, hi = info.min, info.max
    small = (0, 1, -1, 2, -2, 3, -3, 7, -7, 100, -100)
    a = sorted({v for v in small + (lo, lo + 1, hi, hi - 1) if lo <= v <= hi})
    b = sorted({v for v in (0, 1, -1, 2, -2, 3, -3, 7, -7, lo, hi) if lo <= v <= hi})
    return a, b


def call(op: str, form: str, x, y):
    """op of tensor x by y (a tensor, a 0-d tensor or a Python int), as the form says"""
    import torch
    if form == "inplace":
        x = x.clone()
        return {"floor_divide": x.floor_divide_, "floordiv_op": x.__ifloordiv__, "remainder": x.remainder_,
                "mod_op": x.__imod__, "fmod": x.fmod_, "div_trunc": lambda v: x.div_(v, rounding_mode="trunc"),
                "div_floor": lambda v: x.div_(v, rounding_mode="floor")}[op](y)
    return {"floor_divide": lambda: torch.floor_divide(x, y), "floordiv_op": lambda: x // y,
            "remainder": lambda: torch.remainder(x, y), "mod_op": lambda: x % y, "fmod": lambda: torch.fmod(x, y),
            "div_trunc": lambda: torch.div(x, y, rounding_mode="trunc"),
            "div_floor": lambda: torch.div(x, y, rounding_mode="floor")}[op]()


EDGES = (101, 1000, 65535, 65536, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**40, 2**62, 2**63 - 3)


def calls(device: str, edges: bool = False):
    """every call: (op, form, dtype, [(a, b)...], a function returning the results or raising); edges: int64's
    EDGES by 0 (tensor and int forms) instead"""
    import torch
    for dtype in (("int64",) if edges else DTYPES):
        t = getattr(torch, dtype)
        av, bv = (list(EDGES), [0]) if edges else values(dtype)
        pairs = [(a, b) for a in av for b in bv]
        for op in OPS:
            for form in (("tensor", "int") if edges else FORMS):
                if form in ("tensor", "inplace"):
                    def run(pairs=pairs, op=op, form=form, t=t):
                        x = torch.tensor([p[0] for p in pairs], dtype=t, device=device)
                        y = torch.tensor([p[1] for p in pairs], dtype=t, device=device)
                        return call(op, form, x, y).cpu().tolist()
                    yield op, form, dtype, pairs, run
                else:
                    for b in bv:
                        ps = [(a, b) for a in av]

                        def run(ps=ps, op=op, form=form, t=t, b=b):
                            x = torch.tensor([p[0] for p in ps], dtype=t, device=device)
                            y = torch.tensor(b, dtype=t, device=device) if form == "0d" else b
                            r = call(op, form, x, y)
                            assert r.dtype == t, (r.dtype, t)
                            return r.cpu().tolist()
                        yield op, form, dtype, ps, run


def worker(out, device, start, edges=False):
    """the calls from start on, each's rows appended; the index of the call under way in OUTDIR/.progress_<device>;
    exit status 3 after a CUDA error (the context may be unusable)"""
    path = os.path.join(out, f"intdiv{'_edges' if edges else ''}_{device}.tsv")
    for k, (op, form, dtype, pairs, run) in enumerate(calls(device, edges)):
        if k < start:
            continue
        with open(os.path.join(out, f".progress_{device}"), "w") as f:
            f.write(str(k))
        try:
            res = [str(v) for v in run()]
            err = None
        except Exception as e:  # the answer: which exception, recorded
            err = f"error: {type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}"
            res = [err] * len(pairs)
        with open(path, "a") as f:
            f.writelines(f"{op}\t{form}\t{dtype}\t{a}\t{b}\t{r}\n" for (a, b), r in zip(pairs, res))
        if err is not None and device == "cuda" and "CUDA" in err:
            return 3
    return 0


def main(argv):
    """the driver: workers in fresh processes, one after another; a call that kills its worker (the CPU's integer
    division of the minimum by -1 is SIGFPE on x86) is recorded as `error: signal N` and the next starts"""
    out = argv[1]
    device = argv[argv.index("--device") + 1] if "--device" in argv else "cuda"
    edges = "--edges" in argv
    if "--worker" in argv:
        return worker(out, device, int(argv[argv.index("--start") + 1]), edges)
    os.makedirs(out, exist_ok=True)
    import torch
    path = os.path.join(out, f"intdiv{'_edges' if edges else ''}_{device}.tsv")
    with open(os.path.join(out, f"env_{device}.txt"), "w") as f:
        f.write(f"torch {torch.__version__} cuda {torch.version.cuda}\n")
        if device == "cuda":
            f.write(f"{torch.cuda.get_device_name(0)} capability {torch.cuda.get_device_capability(0)}\n")
    with open(path, "w") as f:
        f.write("# op\tform\tdtype\ta\tb\tresult\n")
    every = list(calls(device, edges))
    start = 0
    while start < len(every):
        rc = subprocess.call([sys.executable, os.path.abspath(argv[0]), out, "--device", device, "--worker",
                              "--start", str(start)] + (["--edges"] if edges else []))
        if rc == 0:
            break
        k = int(open(os.path.join(out, f".progress_{device}")).read())
        if rc < 0:
            op, form, dtype, pairs, _ = every[k]
            with open(path, "a") as f:
                f.writelines(f"{op}\t{form}\t{dtype}\t{a}\t{b}\terror: signal {-rc}\n" for a, b in pairs)
        elif rc != 3:
            return rc
        start = k + 1
    os.unlink(os.path.join(out, f".progress_{device}"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
