#!/usr/bin/env python3
"""Run the data-movement and softmax kernels of Gluon's tutorials 10 and 14 (issue 52; gen_triton_corpus.py's
NAME.ptx + NAME.json) under `tc5 run` and check every output bit for bit against an exact reference:

  tcgen05_copy_kernel (tutorial 10): an f32 M x N tile global -> shared -> tcgen05.cp -> Tensor Memory ->
      tcgen05.ld -> global. Inputs: every element a random 32-bit pattern (NaNs included): nothing computes,
      so the output is the input, bit for bit.
  tma_multicast_copy_kernel (tutorial 14): a 2-CTA cluster, TMA load multicast to both CTAs, TMA store.
      Random 16-bit patterns; the output is the input.
  multicta_softmax_kernel (tutorial 14): a row's softmax, the row spread over the cluster's CTAs (max and sum
      through distributed shared memory). The even rows are built so that the result is exact whatever the
      order of the sums: a row's elements are x = 0 or an f32 d < 0 with fl(d * log2(e)) an integer k in
      [-7, 0], so exp(x - max) is ex2.approx(k) = 2^k (the special-function unit's exact value at an integer,
      tc5's model being the H100's on every f32 input: docs/fidelity.md), every partial sum a multiple of 2^-7
      below 2^17 (exact in f32), the row's sum a power of two 2^m (the row is made so), so 1/sum and
      y * (1/sum) are exact: z = 2^k / 2^m, bit for bit. The odd rows are random (Gaussian, as the tutorial's
      test) and checked against a float64 softmax at the tutorial's tolerance (atol = rtol = 1e-5): the
      general rounding, which no exact reference defines (ex2.approx, the reduction order).

usage: triton_gluon_copy.py TC5 JSON [--check MODE] [--seed N]
Exit status: 0 equal, 1 a difference or a kernel error, 2 not one of these kernels (named).
Standard library only (CTest runs it without NumPy)."""
import math
import os
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from triton_json import command_line, plain_arg, run_command, run_in_scratch, tmap_spec  # noqa: E402  (tests/ptx)

ESIZE = {"float32": 4, "float16": 2}


def f32(v):
    """v rounded to f32 (nearest even), as a Python float"""
    return struct.unpack("<f", struct.pack("<f", v))[0]


def nelem(t):
    n = 1
    for s in t["buffer_shape"]:
        n *= s
    return n


def copy_inputs(meta, rng, work):
    """the input file and the byte count of a copy kernel's input (random bit patterns)"""
    src = next(p for p in meta["params"] if p["name"].split(".")[0] in ("in_ptr", "in_desc"))
    t = src["tensor"] if "tensor" in src else src["descriptor"]["base"]
    esz = ESIZE[t["dtype"]]
    raw = bytes(rng.getrandbits(8) for _ in range(nelem(t) * esz))
    path = os.path.join(work, "in.bin")
    open(path, "wb").write(raw)
    return path, raw


LOG2E = f32(1 / math.log(2))  # Triton's exp: ex2.approx(x * 0f3FB8AA3B)


def level_inputs():
    """for k in [-7, -1]: the f32 values d < 0 with fl(d * log2(e)) == k exactly (f32 * f32 is exact in a
    double, so rounding the double gives mul.rn.f32's product)"""
    out = {}
    for k in range(-7, 0):
        d0 = f32(k / LOG2E)
        bits = struct.unpack("<I", struct.pack("<f", d0))[0]
        ds = []
        for b in range(bits - 64, bits + 65):
            d = struct.unpack("<f", struct.pack("<I", b))[0]
            if f32(d * LOG2E) == k:
                ds.append(d)
        assert ds, k
        out[k] = ds
    return out


def exact_row(rng, n, levels):
    """a row of n elements (n a power of two) whose softmax is exact (module docstring): (x values, z values)"""
    # units of 2^-7: an element of level k weighs 2^(k+7), 1 ... 128
    lvl = [rng.randint(-7, 0) for _ in range(n)]
    lvl[rng.randrange(n)] = 0  # the maximum, x = 0
    s = sum(1 << (k + 7) for k in lvl)
    total = 1 << (s - 1).bit_length()  # the next power of two (at most 128 n: n is one)
    by = {k: [i for i in range(n) if lvl[i] == k] for k in range(-7, 1)}
    deficit = total - s
    while deficit:  # raise elements a level (adding 2^(k+7) units) until the sum is the power of two
        for k in range(-1, -8, -1):
            if (1 << (k + 7)) <= deficit and by[k]:
                j = rng.randrange(len(by[k]))
                by[k][j], by[k][-1] = by[k][-1], by[k][j]
                i = by[k].pop()
                lvl[i] = k + 1
                by[k + 1].append(i)
                deficit -= 1 << (k + 7)
                break
        else:
            raise RuntimeError("no element left to raise")  # cannot happen: 128 n - s >= the deficit
    x = [0.0 if k == 0 else rng.choice(levels[k]) for k in lvl]
    z = [(1 << (k + 7)) / total for k in lvl]  # 2^k / 2^m, exact
    return x, z


def softmax_check(meta, rng, work):
    """inputs of multicta_softmax_kernel and the checker of its output: (input file, output bytes, check)"""
    p = {q["name"]: q for q in meta["params"]}
    tx, to = p["x_ptr"]["tensor"], p["out_ptr"]["tensor"]
    rows, n = tx["shape"]
    if (tx["dtype"], to["dtype"]) != ("float32", "float32") or tx["strides"] != [n, 1] or to["strides"] != [n, 1] \
            or meta["constexprs"].get("BLOCK_N") != n or n & (n - 1):
        return None
    levels = level_inputs()
    xs, want = [], []
    for r in range(rows):
        if r % 2 == 0:
            x, z = exact_row(rng, n, levels)
        else:
            x = [f32(rng.gauss(0.0, 1.0)) for _ in range(n)]
            z = None
        xs.append(x)
        want.append(z)
    path = os.path.join(work, "x.bin")
    open(path, "wb").write(b"".join(struct.pack(f"<{n}f", *x) for x in xs))

    def check(raw):
        got = struct.unpack(f"<{rows * n}f", raw)
        bad_exact = bad_tol = 0
        first = None
        worst = 0.0
        for r in range(rows):
            row = got[r * n:(r + 1) * n]
            if want[r] is not None:
                for c in range(n):
                    if struct.pack("<f", row[c]) != struct.pack("<f", want[r][c]):
                        bad_exact += 1
                        first = first or (r, c, row[c], want[r][c])
            else:
                m = max(xs[r])
                e = [math.exp(v - m) for v in xs[r]]
                s = math.fsum(e)
                for c in range(n):
                    ref = e[c] / s
                    err = abs(row[c] - ref)
                    worst = max(worst, err)
                    if not err <= 1e-5 + 1e-5 * abs(ref):
                        bad_tol += 1
                        first = first or (r, c, row[c], ref)
        ne = (rows + 1) // 2 * n
        msg = (f"{rows} x {n}: {ne - bad_exact} of {ne} outputs of the exact rows bit for bit, "
               f"{rows * n - ne - bad_tol} of {rows * n - ne} of the random rows within atol = rtol = 1e-5 of float64 "
               f"(largest error {worst:.2e})")
        if first:
            msg += f"; first difference at row {first[0]}, column {first[1]}: {first[2]!r}, want {first[3]!r}"
        return not (bad_exact or bad_tol), msg
    return path, rows * n * 4, check


def main(argv):
    cl = command_line(argv, __doc__)
    if cl is None:
        return 2
    tc5, meta, ptx, check, rng = cl
    work = tempfile.mkdtemp()
    out = os.path.join(work, "out.bin")
    kernel = meta["kernel"]
    names = [q["name"].split(".")[0] for q in meta["params"] if q["kind"] not in ("int", "scratch")]
    if kernel == "tcgen05_copy_kernel" and names == ["in_ptr", "out_ptr"]:
        src, raw = copy_inputs(meta, rng, work)
        nbytes = len(raw)
        t_in, t_out = (q["tensor"] for q in meta["params"] if q["kind"] == "pointer")
        if t_in["shape"] != t_out["shape"] or t_in["strides"] != t_out["strides"]:
            print(f"{meta['name']}: input and output tensors of other shapes or strides", file=sys.stderr)
            return 2
        verdict = lambda got: (got == raw, f"{nbytes} bytes" + (" equal to the input" if got == raw else
                               " differ from the input"))
        ptr_arg = {"in_ptr": "in:" + src, "out_ptr": f"out:{out}:{nbytes}"}
    elif kernel == "tma_multicast_copy_kernel" and names == ["in_desc", "out_desc"]:
        src, raw = copy_inputs(meta, rng, work)
        nbytes = len(raw)
        verdict = lambda got: (got == raw, f"{nbytes} bytes" + (" equal to the input" if got == raw else
                               " differ from the input"))
        ptr_arg = {"in_desc": "in=" + src, "out_desc": f"out={out}:{nbytes}"}
    elif kernel == "multicta_softmax_kernel" and names == ["x_ptr", "out_ptr"]:
        r = softmax_check(meta, rng, work)
        if r is None:
            print(f"{meta['name']}: not a dense f32 softmax of BLOCK_N = a row's power-of-two length", file=sys.stderr)
            return 2
        src, nbytes, verdict = r
        ptr_arg = {"x_ptr": "in:" + src, "out_ptr": f"out:{out}:{nbytes}"}
    else:
        print(f"{meta['name']}: kernel {kernel} with parameters {names}: not one of tutorial 10's tcgen05_copy_kernel, "
              f"14's tma_multicast_copy_kernel or multicta_softmax_kernel", file=sys.stderr)
        return 2
    args = []
    for q in meta["params"]:
        name = q["name"].split(".")[0]
        if q["kind"] == "tensormap":
            args += ["--arg", tmap_spec(q["cuTensorMapEncodeTiled"], ptr_arg[name])]
        elif q["kind"] == "pointer":
            args += ["--arg", ptr_arg[name]]
        else:
            args += ["--arg", plain_arg(meta, q)]
    r = subprocess.run(run_command(tc5, meta, ptx, check) + args, capture_output=True, text=True)
    if r.returncode:
        print(f"{meta['name']}: tc5 run failed ({r.returncode}): {(r.stdout + r.stderr).strip()[:2000]}")
        return 1
    good, msg = verdict(open(out, "rb").read())
    print(f"{meta['name']}: {msg}")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(run_in_scratch(main, sys.argv))
