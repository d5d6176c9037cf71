#!/usr/bin/env python3
"""Writes fastpath_sort's kernels and inputs (issue 50, st: test_sort's dim-0 cases, FlagGems 5.0.2's radix sort
of rows of 4 or 8 elements after sort_stable moves dim 0 last). The kernels are Triton 3.6's PTX (/work/venv-w's
stack, sm_100a) of flag_gems/ops/sort.py's sweep and compute_global_hist_kernel, dumped from tc5.triton's launcher
as test_sort ran them: float32 descending (sweep_f32d.ptx, hist_f32d.ptx) and int16 ascending (sweep_i16a.ptx,
hist_i16a.ptx); the debug sections and .loc lines dropped, and the parameters reordered so that the output comes
first (fastpath_same.sh's --arg out:o.bin:BYTES): the sweep's values out (param 2) first, its indices out
(param 3) and its lookback status (param 5) read as param 2 + 64 KiB and + 192 KiB (the buffer zeroed, as
radix_sort's status.zero_()); the histogram's out (param 1) first.

usage: gen_sort.py [RAW_DIR]  RAW_DIR holds the dumped k_sweep_f32d.ptx, k_hist_f32d.ptx, k_sweep_i16a.ptx,
k_hist_i16a.ptx (then the .ptx files here are written again); without it only the inputs are written.
Inputs (standard library only; committed): per element type, rows and row length, the keys (arr), the
indices 0..n-1 a row (idx, int64) and the exclusive cumulative sum of each row's 16 bins for every pass (ex,
uint32: radix_sort's ex_cumsum_bins); the float32 keys hashed normals with +-0, +-Inf, NaNs of both signs,
subnormals and repeats; the int16 ones hashed codes with -32768, 32767, 0, -1 and repeats."""
import math
import os
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_IDX, OUT_STATUS = 64 << 10, 192 << 10


def strip(ptx):
    ptx = ptx.split("\t.file\t")[0].split("\n\t.section\t.debug")[0]
    return "\n".join(line for line in ptx.splitlines() if not line.lstrip().startswith(".loc")) + "\n"


def first_param(ptx, name):
    decl = re.search(r"\n(\t\.param [^\n]*\b%s),?\n" % re.escape(name), ptx)
    ptx = ptx.replace(decl.group(0), "\n", 1)
    head = re.search(r"\.entry \w+\(\n", ptx)
    ptx = ptx[:head.end()] + decl.group(1) + ",\n" + ptx[head.end():]
    return ptx.replace(",\n)", "\n)")


def sweep(ptx):
    ptx = first_param(strip(ptx), "sweep_param_2")
    for p, off in (("sweep_param_3", OUT_IDX), ("sweep_param_5", OUT_STATUS)):
        m = re.search(r"\tld\.param\.b64 \t(%%rd\d+), \[%s\];\n" % p, ptx)
        r = m.group(1)
        ptx = ptx.replace(m.group(0), f"\tld.param.b64 \t{r}, [sweep_param_2];\n\tadd.s64 \t{r}, {r}, {off};\n", 1)
    return ptx


def hist(ptx):
    return first_param(strip(ptx), "compute_global_hist_kernel_param_1")


def lcg(h):
    return (h * 1103515245 + 12345) & 0x7fffffff


def f32_keys(m, n):
    special = [0.0, -0.0, math.inf, -math.inf, 0x7fc00000, 0xffc00001, 0x00000001, 0x80000003]
    out, h = [], 0x2545f491 + m * n
    for i in range(m * n):
        h = lcg(h)
        u = struct.unpack("<I", struct.pack("<f", (h % 20001 - 10000) / 1250.0))[0]
        out.append(u)
    for k, v in enumerate(special):
        i = (k * 37 + 3) % (m * n)
        out[i] = v if isinstance(v, int) else struct.unpack("<I", struct.pack("<f", v))[0]
    out[(m * n) // 2] = out[0]  # a repeat
    return out


def i16_keys(m, n):
    special = [0x8000, 0x7fff, 0x0000, 0xffff]
    out, h = [], 0x1b873593 + m * n
    for i in range(m * n):
        h = lcg(h)
        out.append(h & 0xffff)
    for k, v in enumerate(special):
        out[(k * 29 + 5) % (m * n)] = v
    out[(m * n) // 2] = out[1]
    return out


def ordered(u, bits, desc):
    """flag_gems' convert_to_uint_preverse_order: floats (32 bits) and signed ints (16)"""
    top = 1 << (bits - 1)
    full = (1 << bits) - 1
    if bits == 32:  # floating_to_uint
        mask = full if u & top else top
        return (u ^ (~mask & full)) if desc else (u ^ mask)
    return (u ^ (top - 1)) if desc else (u ^ top)  # int_to_uint


def write(tag, m, n, bits, desc):
    keys = f32_keys(m, n) if bits == 32 else i16_keys(m, n)
    npass = bits // 4
    ex = []
    for r in range(m):
        row = [ordered(u, bits, desc) for u in keys[r * n:(r + 1) * n]]
        for p in range(npass):
            hist = [0] * 16
            for k in row:
                hist[(k >> (4 * p)) & 15] += 1
            acc = 0
            for b in range(16):
                ex.append(acc)
                acc += hist[b]
    name = f"{tag}_{m}x{n}"
    with open(os.path.join(HERE, name + "_arr.bin"), "wb") as f:
        f.write(struct.pack(f"<{m * n}{'I' if bits == 32 else 'H'}", *keys))
    with open(os.path.join(HERE, name + "_idx.bin"), "wb") as f:
        f.write(struct.pack(f"<{m * n}q", *(list(range(n)) * m)))
    with open(os.path.join(HERE, name + "_ex.bin"), "wb") as f:
        f.write(struct.pack(f"<{len(ex)}I", *ex))


if __name__ == "__main__":  # (imported by ../fastpath_full/gen_full.py for its PTX transforms)
    if len(sys.argv) > 1:
        for src, dst, fn in (("k_sweep_f32d.ptx", "sweep_f32d.ptx", sweep), ("k_hist_f32d.ptx", "hist_f32d.ptx", hist),
                             ("k_sweep_i16a.ptx", "sweep_i16a.ptx", sweep), ("k_hist_i16a.ptx", "hist_i16a.ptx", hist)):
            with open(os.path.join(sys.argv[1], src)) as f:
                text = fn(f.read())
            with open(os.path.join(HERE, dst), "w") as f:
                f.write(text)
    for tag, m, n, bits, desc in (("f32d", 64, 4, 32, True), ("f32d", 16, 8, 32, True), ("f32d", 2, 2048, 32, True),
                                  ("i16a", 64, 8, 16, False), ("i16a", 2, 2048, 16, False)):
        write(tag, m, n, bits, desc)
