"""PyTorch's eager CUDA reductions (sum, mean) on a GPU, for tc5.device_reduce's model (issue 50).

`gpu/run.sh reduce OUTDIR` runs it on the GPU: each case of CASES (below: the one list, which
tests/python/test_device_reduce.py reads too) makes its input on the CPU from a NumPy seed, copies
it to the GPU, takes the case's view there, reduces it with PyTorch's CUDA kernel and records the
result's bytes: OUTDIR/reduce_h200.tsv (one row a case: the input's SHA-256, its address modulo
4096, the result's SHA-256 and, for results of at most 64 bytes, the bytes in hex), OUTDIR/
reduce_results.npz (every result whole), OUTDIR/env.txt (versions, SM count), OUTDIR/Reduce.cuh
(the installed PyTorch's copy) and OUTDIR/reduce_kernels.txt (the template arguments of its sum and
mean kernels, read from libtorch_cuda.so's kernel names).
"""
from __future__ import annotations

import hashlib
import os
import sys

import numpy as np

# (id, op, dtype, shape, view, dim, keepdim, out dtype, seed, values)
#   view: "" contiguous; "T" the transpose of the last two dimensions of a contiguous tensor;
#   "S1" [..., 1:] of a tensor one wider (the data 1 element past an aligned address);
#   "E" a (1, C) row expanded to the shape; "P" a contiguous (C, A, B) tensor permuted (1, 2, 0)
#   values: "n" normal times 2^k, k in [-6, 6]; "u" uniform [0, 0.03) (Liger TVD's per-row losses)
CASES = []


def _add(op, dtype, shape, view="", dim=None, keepdim=False, out=None, seed=0, values="n"):
    cid = f"{op}-{dtype}-{'x'.join(map(str, shape)) or 'scalar'}{'-' + view if view else ''}" \
          f"{'-d' + '.'.join(map(str, dim)) if dim is not None else ''}{'-k' if keepdim else ''}" \
          f"{'-to' + out if out else ''}-s{seed}"
    CASES.append((cid, op, dtype, tuple(shape), view, dim, keepdim, out, seed, values))


for s in range(4):  # Liger's TVD: 64 float32 losses, summed whole (batchmean, sum, mean)
    _add("sum", "float32", (64,), seed=s, values="u")
    _add("mean", "float32", (64,), seed=s, values="u")
_add("sum", "float32", (64, 1), dim=(0,), seed=9, values="u")  # TVD's sum reduction: .sum(dim=0)
for n in (1, 7, 31, 100, 127, 128, 129, 1000, 1024, 4097, 10000, 65536, 100003, 1048579, 3000000, 10000000):
    _add("sum", "float32", (n,), seed=n % 97)
for n in (64, 1000, 4097, 100003, 1048579, 10000000):
    for dt in ("bfloat16", "float16"):
        _add("sum", dt, (n,), seed=n % 89)
        _add("mean", dt, (n,), seed=n % 83)
    _add("mean", "float32", (n,), seed=n % 79)
    _add("sum", "bfloat16", (n,), out="float32", seed=n % 73)
    _add("mean", "float16", (n,), out="float32", seed=n % 71)
for n in (64, 100003, 1048579):
    _add("sum", "float64", (n,), seed=n % 67)
    _add("mean", "float64", (n,), seed=n % 61)
_add("sum", "float32", (), seed=5)
_add("sum", "float32", (1000001,), view="S1", seed=6)
_add("sum", "bfloat16", (1000001,), view="S1", seed=6)
_add("sum", "float32", (100,), out="bfloat16", seed=8)
# rows (the reduced dimension the fastest): vectorised loads from 128 elements on, per-row alignment
for dt in ("float32", "bfloat16", "float16"):
    for shape in ((64, 1000), (64, 1001), (1000, 64), (3, 100000), (16, 32, 257), (2, 3000001)):
        _add("sum", dt, shape, dim=(-1,), seed=len(shape) + shape[-1] % 13)
    _add("mean", dt, (64, 1001), dim=(-1,), seed=3)
    _add("mean", dt, (16, 32, 257), dim=(-1,), keepdim=True, seed=4)
# columns (the reduced dimension not the fastest): outputs split over lanes, vectorised along the output
for dt in ("float32", "bfloat16", "float16"):
    for shape in ((1000, 64), (4096, 1000), (100000, 3), (10000, 256), (200000, 8), (4096, 1001)):
        _add("sum", dt, shape, dim=(0,), seed=shape[0] % 11)
    _add("mean", dt, (4096, 1000), dim=(0,), seed=2)
    _add("sum", dt, (8, 3, 5000), dim=(0, 2), seed=1)
    _add("sum", dt, (4, 5, 6, 7), dim=(1, 3), keepdim=True, seed=1)
    _add("sum", dt, (64, 1000), dim=(0,), out="float32" if dt != "float32" else None, seed=12)
# strided views
for dt in ("float32", "bfloat16"):
    _add("sum", dt, (1000, 300), view="T", dim=(1,), seed=13)
    _add("sum", dt, (1000, 300), view="T", dim=(0,), seed=14)
    _add("sum", dt, (1000, 300), view="T", seed=15)
    _add("sum", dt, (64, 1000), view="S1", dim=(1,), seed=16)
    _add("sum", dt, (64, 1000), view="E", dim=(0,), seed=17)
    _add("sum", dt, (64, 1000), view="E", seed=18)
    _add("sum", dt, (64, 48, 40), view="P", dim=(0, 1), seed=19)
    _add("mean", dt, (64, 48, 40), view="P", dim=(2,), seed=20)
    _add("mean", dt, (1000, 300), view="T", seed=21)
_add("sum", "float32", (3000, 4000), dim=(0, 1), seed=22)
_add("mean", "float32", (3000, 4000), seed=23)
_add("sum", "float32", (300, 100000), dim=(1,), seed=24)
_add("sum", "float32", (100000, 300), dim=(0,), seed=25)


def base_shape(shape, view):
    """the contiguous tensor's shape a case's view is taken of"""
    if view == "T":
        return shape[:-2] + (shape[-1], shape[-2])
    if view == "S1":
        return shape[:-1] + (shape[-1] + 1,)
    if view == "E":
        return (1, shape[-1])
    if view == "P":
        return (shape[2], shape[0], shape[1])
    return shape


def make_input(case):
    """the case's contiguous input on the CPU (a torch tensor) and its bytes' SHA-256"""
    import torch
    cid, op, dtype, shape, view, dim, keepdim, out, seed, values = case
    bs = base_shape(shape, view)
    n = int(np.prod(bs, dtype=np.int64))
    rng = np.random.default_rng(seed)
    if values == "u":
        a = (rng.random(n, dtype=np.float32) * np.float32(0.03)).astype(np.float32)
    else:
        a = rng.standard_normal(n, dtype=np.float32) * np.exp2(rng.integers(-6, 7, n)).astype(np.float32)
    t = torch.from_numpy(a).to(getattr(torch, dtype)).reshape(bs)
    raw = t.view(torch.int16) if t.element_size() == 2 else t
    return t, hashlib.sha256(raw.numpy().tobytes()).hexdigest()


def take_view(t, view):
    if view == "T":
        return t.transpose(-1, -2)
    if view == "S1":
        return t[..., 1:]
    if view == "E":
        return t.expand(-1, -1)
    if view == "P":
        return t.permute(1, 2, 0)
    return t


def expand_to(t, case):
    return t.expand(case[3]) if case[4] == "E" else t


def call(x, case):
    """the case's reduction of x"""
    import torch
    cid, op, dtype, shape, view, dim, keepdim, out, seed, values = case
    kw = {}
    if out:
        kw["dtype"] = getattr(torch, out)
    f = torch.sum if op == "sum" else torch.mean
    if dim is None:
        return f(x, **kw)
    return f(x, dim=dim, keepdim=keepdim, **kw)


def result_bytes(r):
    import torch
    r = r.detach().cpu().contiguous()
    raw = r.view(torch.int16) if r.element_size() == 2 else r
    return raw.numpy().tobytes()


def main(out):
    import torch
    os.makedirs(out, exist_ok=True)
    props = torch.cuda.get_device_properties(0)
    with open(os.path.join(out, "env.txt"), "w") as f:
        f.write(f"torch {torch.__version__} cuda {torch.version.cuda}\n{props.name} sm_count "
                f"{props.multi_processor_count} max_threads_per_mp {props.max_threads_per_multi_processor} "
                f"warp {props.warp_size}\n")
    rows, results = [], {}
    for case in CASES:
        base, h = make_input(case)
        x = expand_to(take_view(base.to("cuda"), case[4]), case)
        r = call(x, case)
        torch.cuda.synchronize()
        b = result_bytes(r)
        results[case[0]] = np.frombuffer(b, dtype=np.uint8)
        rows.append(f"{case[0]}\t{h}\t{x.data_ptr() % 4096}\t{str(r.dtype).split('.')[1]}\t"
                    f"{'x'.join(map(str, r.shape))}\t{hashlib.sha256(b).hexdigest()}\t"
                    f"{b.hex() if len(b) <= 64 else ''}")
    with open(os.path.join(out, "reduce_h200.tsv"), "w") as f:
        f.write(f"# gpu/run.sh reduce: {props.name}, {props.multi_processor_count} SMs, torch {torch.__version__}\n")
        f.write("# case\tinput_sha256\taddress_mod_4096\tout_dtype\tout_shape\tresult_sha256\tresult_hex\n")
        f.write("\n".join(rows) + "\n")
    np.savez_compressed(os.path.join(out, "reduce_results.npz"), **results)
    inc = os.path.join(os.path.dirname(torch.__file__), "include", "ATen", "native")
    for name in ("cuda/Reduce.cuh", "SharedReduceOps.h"):
        try:
            with open(os.path.join(inc, name), "rb") as f, open(os.path.join(out, os.path.basename(name)), "wb") as g:
                g.write(f.read())
        except OSError as e:
            print("no", name, e)
    import re
    lib = os.path.join(os.path.dirname(torch.__file__), "lib", "libtorch_cuda.so")
    names = set()
    with open(lib, "rb") as f:
        data = f.read()
    for m in re.finditer(rb"_ZN2at6native13reduce_kernelILi512ELi1ENS0_8ReduceOp[A-Za-z0-9_]{0,300}", data):
        s = m.group(0)
        if b"sum_functor" in s or b"MeanOps" in s:
            names.add(s.decode())
    with open(os.path.join(out, "reduce_kernels.txt"), "w") as f:
        f.write("\n".join(sorted(names)) + "\n")
    print(f"reduce probe: {len(CASES)} cases, {props.name}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "build-gpu/reduce")
