#!/usr/bin/env python3
"""Run Triton's tutorial 08 grouped GEMM (grouped_matmul_kernel, grouped_matmul_tma_kernel; f16) as
gen_triton_corpus.py's NAME.json records it, under `tc5 run`, and compare every group's C byte for
byte with `tc5 gemm` on the same inputs (f32 rounded to f16 as the kernel's cvt.rn.f16.f32 does;
--model hopper for sm_90a kernels).

The kernel reads its operands through device arrays of pointers (group_a_ptrs, group_b_ptrs,
group_c_ptrs: one int64 address a group), of sizes (group_gemm_sizes: M, N, K a group) and of leading
dimensions (g_lds). tc5 run gives buffers fixed addresses (the first at 0x200000000, each next at the
end of the one before plus 64 KiB, rounded up to 256 bytes, in command-line order: tc5 run --help),
so the operands go first as --buffer and the pointer arrays hold their addresses. A group is
M = N = K = S for each S of --sizes (default 256,128,128,128: multiples of the tiles, which the
tutorial's non-TMA kernel loads unmasked); B is K x N row-major (the TMA kernel: N x K, the tutorial's
transposed B).

usage: triton_grouped.py TC5 JSON [--check MODE] [--seed N] [--sizes S,S,...]
Exit status: 0 equal, 1 a difference or a kernel error, 2 not such a kernel. Standard library only."""
import json
import os
import random
import struct
import subprocess
import sys
import tempfile

BASE, GAP = 0x200000000, 64 * 1024


def f16_code(rng):
    return rng.getrandbits(1) << 15 | rng.randint(11, 18) << 10 | rng.getrandbits(10)


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    tc5, path = argv[1], argv[2]
    check = argv[argv.index("--check") + 1] if "--check" in argv else "none"
    rng = random.Random(int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 1)
    sizes = [int(x) for x in (argv[argv.index("--sizes") + 1] if "--sizes" in argv else "256,128,128,128").split(",")]
    meta = json.load(open(path))
    ptx = path[:-5] + ".ptx"
    names = [p["name"] for p in meta["params"]]
    need = ("group_a_ptrs", "group_b_ptrs", "group_c_ptrs", "group_gemm_sizes", "g_lds", "group_size")
    if not all(n in names for n in need) or meta["constexprs"].get("FP8"):
        print(f"{meta['name']}: not tutorial 08's f16 grouped GEMM", file=sys.stderr)
        return 2
    tma = "tma" in meta["entry"]
    model = "hopper" if str(meta.get("ptx_target", "")).startswith("sm_90") else "blackwell"
    work = tempfile.mkdtemp()
    g = len(sizes)
    cmd = [tc5, "run", ptx, "--entry", meta["entry"]]
    addr, nxt = [], BASE
    files = []
    for i, s in enumerate(sizes):  # A_i, B_i, C_i as buffers of no parameter, in this order
        for name, n in (("a", s * s), ("b", s * s), ("c", s * s)):
            f = os.path.join(work, f"{name}{i}.bin")
            if name == "c":
                cmd += ["--buffer", f"out:{f}:{2 * n}"]
            else:
                codes = [f16_code(rng) for _ in range(n)]
                open(f, "wb").write(struct.pack("<%dH" % n, *codes))
                cmd += ["--buffer", f"in:{f}"]
            files.append(f)
            addr.append(nxt)
            nxt = (nxt + 2 * n + GAP + 255) // 256 * 256
    arrays = {
        "group_a_ptrs": struct.pack("<%dQ" % g, *addr[0::3]),
        "group_b_ptrs": struct.pack("<%dQ" % g, *addr[1::3]),
        "group_c_ptrs": struct.pack("<%dQ" % g, *addr[2::3]),
        "group_gemm_sizes": struct.pack("<%di" % (3 * g), *[v for s in sizes for v in (s, s, s)]),
        "g_lds": struct.pack("<%di" % (3 * g), *[v for s in sizes for v in (s, s, s)]),
    }
    L = meta["cuda_launch"]
    for p in meta["params"]:
        if p["name"] in arrays:
            f = os.path.join(work, p["name"] + ".bin")
            open(f, "wb").write(arrays[p["name"]])
            cmd += ["--arg", "in:" + f]
        elif p["name"] == "group_size":
            cmd += ["--arg", f"u32:{g}"]
        elif p["kind"] == "scratch":
            size = meta.get("global_scratch_size" if p["name"] == "global_scratch" else "profile_scratch_size", 0)
            gd = L["gridDim"]
            cmd += ["--arg", f"scratch:{size * gd[0] * gd[1] * gd[2]}" if size else "null"]
        else:
            print(f"{meta['name']}: parameter {p['name']} of kind {p['kind']} is not handled here", file=sys.stderr)
            return 2
    cmd += ["--grid", ",".join(map(str, L["gridDim"])), "--block", ",".join(map(str, L["blockDim"])),
            "--shared-bytes", str(L["dynamicSharedMemBytes"]), f"--check={check}"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        print(f"{meta['name']}: tc5 run failed ({r.returncode}): {(r.stdout + r.stderr).strip()[:2000]}")
        return 1
    bad = 0
    for i, s in enumerate(sizes):
        ref = os.path.join(work, "ref.bin")
        gm = [tc5, "gemm", "--kind", "f16", "--atype", "f16", "--btype", "f16", "--m", str(s), "--n", str(s),
              "--k", str(s), "--a", files[3 * i], "--b", files[3 * i + 1], "--model", model, "--out", ref]
        if not tma:
            gm += ["--b-major", "MN"]
        r = subprocess.run(gm, capture_output=True, text=True)
        if r.returncode:
            print(f"{meta['name']}: tc5 gemm failed: {(r.stdout + r.stderr).strip()[:2000]}")
            return 1
        want = b""
        for (v,) in struct.iter_unpack("<f", open(ref, "rb").read()):
            try:
                want += struct.pack("<e", v)
            except OverflowError:
                want += b"\x00\x7c" if v > 0 else b"\x00\xfc"
        got = open(files[3 * i + 2], "rb").read()
        if got != want:
            n = sum(got[j:j + 2] != want[j:j + 2] for j in range(0, len(want), 2))
            print(f"{meta['name']}: group {i} ({s} x {s} x {s}): {n} of {s * s} outputs differ from tc5 gemm")
            bad += 1
    if bad:
        return 1
    print(f"{meta['name']}: {g} groups {sizes} ({model}): {sum(s * s for s in sizes)} outputs equal to tc5 gemm")
    return 0


def run(argv):
    """main, with its scratch directory removed afterwards"""
    from triton_json import run_in_scratch  # tests/ptx, this file's folder
    return run_in_scratch(main, argv)


if __name__ == "__main__":
    sys.exit(run(sys.argv))
