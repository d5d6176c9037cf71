#!/usr/bin/env python3
"""Triton 3.8.0's sm_90a tutorial kernels on the H200 and in tc5 (issue 52; tests/data/ptx/rel90/t38):
tutorial 02 (softmax, fp32), 05 (layer norm forward, fp16), 06 (attention forward, fp16, d 64,
Z,H,N_CTX = 1,2,256) and 09 (the plain, persistent and host-TMA f16 matmuls) as Triton 3.8.0 compiled
them from release/3.8.x's tutorial texts for sm_90a (tutorial 03 is in ../, the manifest of
gpu/run.sh rel90):
    PYTHONPATH=<triton 3.8.0> python3 tests/data/ptx/census/gen_triton_corpus.py --src <release/3.8.x> \\
      --out DIR --arch 90 --fp-fusion off --ptx-version 87 --only '^(t02|t05|t06|t09)' \\
      --variants '^t02.*256x1024|^t05_layer_norm_fwd.*256x1024|^t06_attn_fwd_fp16_d64_full$|^t09_matmul_kernel(_persistent|_tma)?_fp16' \\
      --attn-shape 1,2,256
(enable_fp_fusion off: the PTX's mul.rn/add.rn, which ptxas does not contract into FMAs, so the H200
computes what the PTX says; PTX ISA 8.7: what the H200's driver JITs). This script writes each
kernel's inputs (seeded, moderate finite values; in_NAME_PARAM.bin; tutorials 02 and 05 on 16 of
their 256 rows) and kernels.txt, the manifest
gpu/run.sh rel38 runs on the H200 (h100_out.bin) and tests/ptx/silicon.sh (CTest
ptx_silicon_rel38) runs in tc5, every output byte compared. Outputs are the parameters
Triton writes (output_ptr, Y, Mean, Rstd, Out, M, c_ptr, c_desc, desc_o). Standard library only."""
import glob
import json
import os
import random
import struct
import zlib

here = os.path.dirname(os.path.abspath(__file__))
OUTPUTS = {"output_ptr", "Y", "Mean", "Rstd", "Out", "M", "c_ptr", "c_desc", "desc_o"}
ESIZE = {"float32": 4, "float16": 2, "bfloat16": 2, "int32": 4, "int64": 8}
TMAP_TYPES = {6: "f16", 7: "f32", 9: "bf16"}


def values(rng, dtype, n):
    """n moderate finite values: f32 uniform in (-2, 2), f16 codes of magnitude 1/8 to 2"""
    if dtype == "float32":
        return struct.pack("<%df" % n, *[rng.uniform(-2, 2) for _ in range(n)])
    if dtype == "float16":
        return struct.pack("<%dH" % n, *[rng.getrandbits(1) << 15 | rng.randint(12, 15) << 10 | rng.getrandbits(10)
                                         for _ in range(n)])
    raise ValueError(dtype)


ROWS = 16  # tutorials 02 and 05 run 16 of their 256 rows: n_rows (02), the grid (05: a row a program)


def nbytes(t, rows=None):
    n = ESIZE[t["dtype"]]
    shape = list(t["buffer_shape"])
    if rows and shape[0] == 256:
        shape[0] = rows
    for s in shape:
        n *= s
    return n


def main():
    lines = ["# FILE NAME GRID BLOCK SHARED ARG... (gen_inputs.py; args as tc5 run's, outputs by size)"]
    for js in sorted(glob.glob(os.path.join(here, "*.json"))):
        m = json.load(open(js))
        stem = os.path.basename(js)[:-5]
        rng = random.Random(zlib.crc32(stem.encode()))
        rows = ROWS if stem[:4] in ("t02_", "t05_") else None
        args = []
        for p in m["params"]:
            base = p["name"].split(".")[0]
            if p["kind"] == "pointer":
                t = p["tensor"]
                if base in OUTPUTS:
                    args.append("out:%d" % nbytes(t, rows))
                else:
                    f = "in_%s_%s.bin" % (stem, base)
                    n = nbytes(t, rows) // ESIZE[t["dtype"]]
                    open(os.path.join(here, f), "wb").write(values(rng, t["dtype"], n))
                    args.append("in:" + f)
            elif p["kind"] == "tensormap":
                e = p["cuTensorMapEncodeTiled"]
                t = p["descriptor"]["base"]
                if base in OUTPUTS:
                    buf = "out=%d" % nbytes(t)
                else:
                    f = "in_%s_%s.bin" % (stem, base)
                    open(os.path.join(here, f), "wb").write(values(rng, t["dtype"], nbytes(t) // ESIZE[t["dtype"]]))
                    buf = "in=" + f
                spec = "tmap:%s,type=%s,dims=%s,box=%s,swizzle=%s,l2=128B" % (
                    buf, TMAP_TYPES[e["tensorDataType"]], "x".join(map(str, e["globalDim"])),
                    "x".join(map(str, e["boxDim"])), {"NONE": "none"}.get(e["swizzle"], e["swizzle"]))
                if e["globalStrides_bytes"]:
                    spec += ",strides=" + "x".join(map(str, e["globalStrides_bytes"]))
                args.append(spec)
            elif p["kind"] == "int":
                v = rows if rows and p["name"] == "n_rows" else p["value"]
                args.append("%s:%d" % ("s64" if p["type"] == "i64" else "s32", v))
            elif p["kind"] == "float":
                args.append("f32:%r" % p["value"])
            elif p["kind"] == "scratch":
                size = m.get("global_scratch_size" if p["name"] == "global_scratch" else "profile_scratch_size") or 0
                if size:
                    raise ValueError("%s: %s of %d bytes: not in this manifest" % (stem, p["name"], size))
                args.append("null")
            else:
                raise ValueError("%s: parameter %s of kind %s" % (stem, p["name"], p["kind"]))
        L = m["cuda_launch"]
        grid = [rows if rows and stem.startswith("t05_") and i == 0 else g for i, g in enumerate(L["gridDim"])]
        lines.append(" ".join([stem + ".ptx", m["entry"], ",".join(map(str, grid)), str(L["blockDim"][0]),
                               str(L["dynamicSharedMemBytes"])] + args))
    with open(os.path.join(here, "kernels.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
