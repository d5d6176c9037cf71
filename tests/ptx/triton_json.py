#!/usr/bin/env python3
"""Run a Triton/Gluon matmul kernel of the census corpus (tests/data/ptx/census:
NAME.ptx and the launch metadata NAME.json that gen_triton_corpus.py wrote from
Triton's own launcher) under `tc5 run`, on random inputs, and compare its D
byte for byte with `tc5 gemm` on the same inputs.

usage: triton_json.py TC5 JSON [--check MODE] [--seed N] [--b-major K|MN]
Exit status: 0 equal, 1 a difference or a kernel error, 2 bad usage.

Standard library only (CTest runs it without NumPy). What the JSON gives:
every .param in order: tensor maps with cuTensorMapEncodeTiled's arguments
(made here with tc5's tmap: spec, over a buffer of their own), the integers
Triton passes beside each (shape, strides), scalars, and the global/profile
scratch. The matmul is recognised from the descriptors' names: a_desc (M x K),
b_desc (N x K, or K x N when its block's first extent is A's K block, or as
--b-major says),
c_desc (D; an input C where d_desc is D), and a_scale_desc / b_scale_desc for
Triton's block-scaled tutorial (scale factors in the 32x4x4 layout of
128-row x 4-factor tiles that tutorial 10 and cuBLAS use: factor (r, g) of
tile (r // 128, g // 4) at (r % 32) * 16 + (r % 128 // 32) * 4 + g % 4).
fp4 operands are packed two a byte, element 2i in the low nibble.
Gluon's tutorials 10, 11 and 14 (issue 52) add: D as out_desc (14's TMA-tcgen05 kernel), or through a
pointer d_ptr (10's matmul_accumulate: c_desc is then the input C); scale factors through pointers
a_scale_ptr / b_scale_ptr (11's simple kernel: M x K/VEC with the JSON's strides; 11's contiguous kernel:
[M/BLOCK_M, (K/VEC)/(BLOCK_K/VEC), BLOCK_M, BLOCK_K/VEC], relayout_scales_contiguous's order); without a
VEC_SIZE constexpr the scale type says the vector (ue4m3: 16, ue8m0: 32, as 11's kernels compute it), and
without ELEM_PER_BYTE constexprs a uint8 operand of a scaled kernel is fp4 (Gluon's convention). Any other
pointer or layout is refused by name (exit 2)."""
import json
import os
import struct
import random
import shutil
import subprocess
import sys
import tempfile

TMAP_TYPES = {0: "u8", 1: "u16", 2: "u32", 3: "s32", 4: "u64", 5: "s64", 6: "f16", 7: "f32", 8: "f64", 9: "bf16",
              10: "f32_ftz", 11: "tf32", 12: "tf32_ftz", 13: "16u4_align8b", 14: "16u4_align16b",
              15: "16u6_align16b"}
SWIZZLES = {"NONE": "none", "32B": "32B", "64B": "64B", "128B": "128B"}
# element type of a tensor: (tc5 gemm type, bytes a code)
DTYPES = {"float16": ("f16", 2), "bfloat16": ("bf16", 2), "float32": ("f32", 4), "float8_e4m3fn": ("e4m3", 1),
          "float8_e5m2": ("e5m2", 1), "uint8": ("u8", 1), "int8": ("s8", 1)}


def rand_code(rng, t):
    """a random finite code of type t, of moderate magnitude"""
    if t == "f16":
        return rng.getrandbits(1) << 15 | rng.randint(11, 18) << 10 | rng.getrandbits(10)
    if t == "bf16":
        return rng.getrandbits(1) << 15 | rng.randint(123, 130) << 7 | rng.getrandbits(7)
    if t == "e4m3":
        return rng.getrandbits(1) << 7 | rng.randint(4, 8) << 3 | rng.getrandbits(3)
    if t == "e5m2":
        return rng.getrandbits(1) << 7 | rng.randint(12, 18) << 2 | rng.getrandbits(2)
    if t == "e2m1":
        return rng.getrandbits(4)
    return rng.getrandbits(8)


def tensors(meta):
    """the tensor maps by descriptor name (a, b, c, d, a_scale, b_scale), in parameter order; Gluon 14's
    out_desc is D and is named c here (the kernel has no other C)"""
    out = {}
    for p in meta["params"]:
        if p["kind"] == "tensormap":
            out[_role(meta, p["name"])] = p
    return out


def _role(meta, pname):
    """a tensor map's or pointer's name in the matmul: a, b, c, d, a_scale, b_scale (out_desc: c)"""
    name = pname.split(".")[0]
    name = name[:-len("_desc")] if name.endswith("_desc") else name[:-len("_ptr")] if name.endswith("_ptr") else name
    if name == "out" and not any(q["name"].startswith("c_desc") for q in meta["params"]):
        return "c"
    return name


def scale_offsets(meta, p, rows, kg):
    """byte offset of scale factor (r, q) (row r, k-group q) in a scale pointer's buffer, as a list r * kg + q
    -> offset; None (after naming the reason) for a layout not defined here"""
    t = p["tensor"]
    shape, strides = t["shape"], t["strides"]
    if len(shape) == 2 and shape == [rows, kg]:  # Gluon 11's simple kernel: M x K/VEC, the kernel's strides
        return [r * strides[0] + q * strides[1] for r in range(rows) for q in range(kg)]
    if len(shape) == 4 and meta["kernel"] == "mma_scaled_contig_kernel" and shape[0] * shape[2] == rows \
            and shape[1] * shape[3] == kg:  # relayout_scales_contiguous: [MN/BMN, SK/SBK, BMN, SBK]
        bm, sbk = shape[2], shape[3]
        return [(r // bm) * strides[0] + (q // sbk) * strides[1] + (r % bm) * strides[2] + (q % sbk) * strides[3]
                for r in range(rows) for q in range(kg)]
    print(f"{meta['name']}: {p['name']}: scale factors of shape {shape} through a pointer: no layout defined here "
          f"for {rows} x {kg} factors (kernel {meta['kernel']})", file=sys.stderr)
    return None


def command_line(argv, doc):
    """a runner's `TC5 JSON [--check MODE] [--seed N]`: (tc5, the JSON's metadata, its .ptx, check mode, the random
    generator), or None after printing doc (too few arguments)"""
    if len(argv) < 3:
        print(doc, file=sys.stderr)
        return None
    tc5, path = argv[1], argv[2]
    check = argv[argv.index("--check") + 1] if "--check" in argv else "none"
    rng = random.Random(int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 1)
    return tc5, json.load(open(path)), path[:-5] + ".ptx", check, rng


def main(argv):
    cl = command_line(argv, __doc__)
    if cl is None:
        return 2
    tc5, meta, ptx, check, rng = cl
    tm = tensors(meta)
    ptrs = {_role(meta, p["name"]): p for p in meta["params"] if p["kind"] == "pointer"}
    d_ptr = ptrs.get("d")  # Gluon 10's matmul_accumulate: D through a pointer, c_desc the input C
    if "a" not in tm or "b" not in tm or "c" not in tm:
        print(f"{meta['name']}: not a matmul of a_desc, b_desc, c_desc", file=sys.stderr)
        return 2
    for n, p in ptrs.items():
        if n not in ("d", "a_scale", "b_scale") or (n == "d" and "d" in tm):
            print(f"{meta['name']}: pointer {p['name']} of a matmul: not defined here", file=sys.stderr)
            return 2
    work = tempfile.mkdtemp(prefix="tc5-triton-")
    a, b = tm["a"]["descriptor"], tm["b"]["descriptor"]
    M, K = a["shape"]
    bk = a["block_shape"][1]
    b_mn = b["block_shape"][0] == bk and b["block_shape"][1] != bk  # B is K x N
    if "--b-major" in argv:  # where the blocks are square, the tutorial says which
        b_mn = argv[argv.index("--b-major") + 1] == "MN"
    scaled = "a_scale" in tm or "a_scale" in ptrs
    cx = meta["constexprs"]
    a_fp4 = tm["a"]["tma_meta"]["fp4_padded"] or (scaled and cx.get("ELEM_PER_BYTE_A") == 2)
    b_fp4 = tm["b"]["tma_meta"]["fp4_padded"] or (scaled and cx.get("ELEM_PER_BYTE_B") == 2)
    if scaled and "ELEM_PER_BYTE_A" not in cx:  # Gluon 11: a uint8 operand is fp4, two a byte along K
        a_fp4 = a_fp4 or a["base"]["dtype"] == "uint8"
        b_fp4 = b_fp4 or b["base"]["dtype"] == "uint8"
    vec = cx.get("VEC_SIZE")
    if scaled and vec is None:  # Gluon 11's pipelined and warp-specialised kernels: the scale type says
        sdt = (tm.get("a_scale") or ptrs["a_scale"])
        sdt = sdt["descriptor"]["base"]["dtype"] if "descriptor" in sdt else sdt["tensor"]["dtype"]
        vec = {"float8_e4m3fn": 16, "uint8": 32}.get(sdt)
        if vec is None:
            print(f"{meta['name']}: scale factors of {sdt}: no vector size defined here", file=sys.stderr)
            return 2
    if a_fp4:
        K *= 2
    N = b["shape"][0] if not b_mn else b["shape"][1]
    elem = {}
    # the inputs: element codes (fp4 unpacked for tc5 gemm, packed for the kernel)
    files = {}
    for name in ("a", "b", "c", "a_scale", "b_scale"):
        if name not in tm or (name == "c" and "d" not in tm and d_ptr is None):
            continue
        d = tm[name]["descriptor"]
        dt = d["base"]["dtype"]
        t, esz = DTYPES[dt]
        fp4 = (name == "a" and a_fp4) or (name == "b" and b_fp4)
        if fp4:
            t = "e2m1"
        elif name in ("a", "b") and t == "u8":
            t = "e4m3"
        n = 1
        for s in d["shape"]:
            n *= s
        if name in ("a_scale", "b_scale"):
            st = "ue4m3" if vec == 16 else "ue8m0"
            codes = [rng.randint(0x30, 0x40) if st == "ue4m3" else rng.randint(124, 128) for _ in range(n)]
            elem[name] = (st, codes)
            raw = bytes(codes)
        elif fp4:
            codes = [rand_code(rng, "e2m1") for _ in range(2 * n)]
            elem[name] = (t, codes)
            raw = bytes(codes[2 * i] | codes[2 * i + 1] << 4 for i in range(n))
        elif name == "c" and t == "f32":  # C of Gluon 10's D = A.B + C: f32 of |x| < 2 (triton_ptr_matmul's)
            codes = [rng.getrandbits(32) & 0x3f7fffff for _ in range(n)]
            elem[name] = (t, codes)
            raw = b"".join(c.to_bytes(esz, "little") for c in codes)
        else:
            codes = [rand_code(rng, t) for _ in range(n)]
            elem[name] = (t, codes)
            raw = b"".join(c.to_bytes(esz, "little") for c in codes)
        files[name] = os.path.join(work, name + ".bin")
        open(files[name], "wb").write(raw)
    # scale factors through pointers (Gluon 11's simple and contiguous kernels): the logical M x K/VEC codes,
    # laid out in the pointer's buffer as its layout says (the reference takes the logical ones)
    sptr = {}
    for name in ("a_scale", "b_scale"):
        if name not in ptrs:
            continue
        rows = M if name == "a_scale" else N
        kg = K // vec
        offs = scale_offsets(meta, ptrs[name], rows, kg)
        if offs is None:
            return 2
        st = "ue4m3" if vec == 16 else "ue8m0"
        codes = [rng.randint(0x30, 0x40) if st == "ue4m3" else rng.randint(124, 128) for _ in range(rows * kg)]
        size = 1
        for x in ptrs[name]["tensor"]["buffer_shape"]:
            size *= x
        buf = bytearray(size)
        for i, o in enumerate(offs):
            buf[o] = codes[i]
        elem[name] = (st, codes)
        sptr[name] = bytes(codes)
        files[name] = os.path.join(work, name + ".bin")
        open(files[name], "wb").write(bytes(buf))
    # D: the output descriptor's buffer (or D's pointer)
    dname = "d" if "d" in tm or d_ptr is not None else "c"
    dd = tm[dname]["descriptor"] if d_ptr is None else d_ptr["tensor"]
    dty, desz = DTYPES[(dd["base"] if d_ptr is None else dd)["dtype"]]
    dbytes = desz
    for s in (dd["shape"] if d_ptr is None else dd["buffer_shape"]):
        dbytes *= s
    if d_ptr is not None and (dd["shape"] != [M, b["shape"][1] if b_mn else b["shape"][0]]
                              or dd["strides"] != [dd["shape"][1], 1] or dd["offset_bytes"]):
        print(f"{meta['name']}: D through {d_ptr['name']}: not a dense row-major M x N tensor", file=sys.stderr)
        return 2
    files["out"] = os.path.join(work, "d.bin")
    # the kernel's arguments
    args = []
    # D's buffer under more than one descriptor (Gluon 07's pipelined persistent matmul from 3.8 on: c_desc
    # and c_half_desc): one --buffer (the first, --arg number 1) that each of them names with buf=1
    dbuf = tm[dname]["descriptor"]["base"]["buffer"] if d_ptr is None else None
    d_shared = d_ptr is None and sum(1 for q in tm.values() if q["descriptor"]["base"]["buffer"] == dbuf) > 1
    if d_shared:
        args += ["--buffer", f"out:{files['out']}:{dbytes}"]
    for p in meta["params"]:
        if p["kind"] == "tensormap":
            name = _role(meta, p["name"])
            e = p["cuTensorMapEncodeTiled"]
            if d_shared and p["descriptor"]["base"]["buffer"] == dbuf:
                buf = "buf=1"
            else:
                buf = f"out={files['out']}:{dbytes}" if name == dname else f"in={files[name]}"
            args += ["--arg", tmap_spec(e, buf)]
        elif p["kind"] == "pointer":  # D (Gluon 10) or scale factors (Gluon 11), checked above
            name = _role(meta, p["name"])
            args += ["--arg", f"out:{files['out']}:{dbytes}" if name == "d" else f"in:{files[name]}"]
        elif p["kind"] in ("int", "scratch"):
            args += ["--arg", plain_arg(meta, p)]
        else:
            print(f"{meta['name']}: parameter {p['name']} of kind {p['kind']} is not handled here", file=sys.stderr)
            return 2
    r = subprocess.run(run_command(tc5, meta, ptx, check) + args, capture_output=True, text=True)
    if r.returncode:
        print(f"{meta['name']}: tc5 run failed ({r.returncode}): {(r.stdout + r.stderr).strip()[:2000]}")
        return 1
    # the reference: tc5 gemm on the same codes (f32 D; rounded to f16 when D is f16)
    at, acodes = elem["a"]
    bt, bcodes = elem["b"]
    kind = {"f16": "f16", "bf16": "f16", "f32": "tf32", "e4m3": "f8f6f4", "e5m2": "f8f6f4", "e2m1": "f8f6f4"}[at]
    g = [tc5, "gemm", "--atype", at, "--btype", bt, "--m", str(M), "--n", str(N), "--k", str(K)]
    if str(meta.get("ptx_target", "")).startswith("sm_90"):  # wgmma's arithmetic (issue 52: sm_90a releases)
        g += ["--model", "hopper"]
    ga, gb = os.path.join(work, "ga.bin"), os.path.join(work, "gb.bin")
    esz = {"f16": 2, "bf16": 2, "f32": 4}.get(at, 1)
    open(ga, "wb").write(b"".join(c.to_bytes(esz, "little") for c in acodes))
    open(gb, "wb").write(b"".join(c.to_bytes({"f16": 2, "bf16": 2, "f32": 4}.get(bt, 1), "little") for c in bcodes))
    g += ["--a", ga, "--b", gb]
    if b_mn:
        g += ["--b-major", "MN"]
    if "d" in tm or d_ptr is not None:
        g += ["--c", files["c"]]
    if scaled:
        st, sa = elem["a_scale"]
        _, sb = elem["b_scale"]
        kind = "mxf4nvf4" if st == "ue4m3" else ("mxf4" if at == bt == "e2m1" else "mxf8f6f4")
        kg = K // vec

        def unswizzle(codes, rows):
            out = bytearray(rows * kg)
            for r in range(rows):
                for q in range(kg):
                    tile = (r // 128) * (kg // 4) + q // 4
                    out[r * kg + q] = codes[tile * 512 + (r % 32) * 16 + (r % 128 // 32) * 4 + q % 4]
            return bytes(out)
        sfa, sfb = os.path.join(work, "sa.bin"), os.path.join(work, "sb.bin")
        open(sfa, "wb").write(sptr["a_scale"] if "a_scale" in sptr else unswizzle(sa, M))
        open(sfb, "wb").write(sptr["b_scale"] if "b_scale" in sptr else unswizzle(sb, N))
        g += ["--stype", st, "--block", str(vec), "--sa", sfa, "--sb", sfb]
    g += ["--kind", kind, "--out", os.path.join(work, "ref.bin")]
    r = subprocess.run(g, capture_output=True, text=True)
    if r.returncode:
        print(f"{meta['name']}: tc5 gemm failed: {(r.stdout + r.stderr).strip()[:2000]}")
        return 1
    mine, ref = open(files["out"], "rb").read(), open(os.path.join(work, "ref.bin"), "rb").read()
    if dty == "f16":  # the kernel's cvt.rn.f16.f32 of its f32 accumulator (struct rounds to nearest even)
        def f16(v):
            try:
                return struct.pack("<e", v)
            except OverflowError:  # past the largest finite f16: infinity, as cvt.rn gives
                return b"\x00\x7c" if v > 0 else b"\x00\xfc"
        ref = b"".join(f16(v) for (v,) in struct.iter_unpack("<f", ref))
    if mine == ref:
        print(f"{meta['name']}: {M} x {N} x {K}: {M * N} outputs equal to tc5 gemm")
        return 0
    diff = [i // desz for i in range(0, len(ref), desz) if mine[i:i + desz] != ref[i:i + desz]]
    print(f"{meta['name']}: {M} x {N} x {K}: {len(diff)} of {M * N} outputs differ from tc5 gemm "
          f"(first at row {diff[0] // N}, column {diff[0] % N})")
    return 1


def tmap_spec(e, buf):
    """`tc5 run`'s tmap: argument for a JSON's cuTensorMapEncodeTiled record over buf (in=FILE, out=FILE:BYTES,
    buf=N)"""
    spec = (f"tmap:{buf},type={TMAP_TYPES[e['tensorDataType']]},dims={'x'.join(map(str, e['globalDim']))},"
            f"box={'x'.join(map(str, e['boxDim']))},swizzle={SWIZZLES[e['swizzle']]}")
    if e["globalStrides_bytes"]:
        spec += f",strides={'x'.join(map(str, e['globalStrides_bytes']))}"
    if e.get("oobFill", "NONE") not in ("NONE", "CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE"):
        spec += ",oob=nan"
    return spec


def plain_arg(meta, p):
    """`tc5 run`'s argument for an int parameter (its value) or a scratch one (Triton's global/profile scratch)"""
    if p["kind"] == "int":
        return f"{'u64' if p['type'] == 'i64' else 'u32'}:{p['value'] & 0xffffffffffffffff}"
    size = meta.get("global_scratch_size" if p["name"] == "global_scratch" else "profile_scratch_size", 0)
    grid = meta["cuda_launch"]["gridDim"]
    return f"scratch:{size * grid[0] * grid[1] * grid[2]}" if size else "null"


def run_command(tc5, meta, ptx, check):
    """`tc5 run` of the JSON's launch (grid, block, shared bytes, cluster), without the arguments"""
    L = meta["cuda_launch"]
    cmd = [tc5, "run", ptx, "--entry", meta["entry"], "--grid", ",".join(map(str, L["gridDim"])),
           "--block", ",".join(map(str, L["blockDim"])), "--shared-bytes", str(L["dynamicSharedMemBytes"]),
           f"--check={check}"]
    if L.get("clusterDim"):
        cmd += ["--cluster", ",".join(map(str, L["clusterDim"]))]
    return cmd


def run_in_scratch(main, argv):
    """main(argv), with a scratch directory of its own (tempfile's) removed
    afterwards; the runners beside this one (triton_grouped.py,
    triton_ptr_matmul.py) use it too"""
    old = tempfile.tempdir
    tempfile.tempdir = tempfile.mkdtemp(prefix="tc5-triton-")
    try:
        return main(argv)
    finally:
        shutil.rmtree(tempfile.tempdir, ignore_errors=True)
        tempfile.tempdir = old


def run(argv):
    """main, with its scratch directory removed afterwards"""
    return run_in_scratch(main, argv)


if __name__ == "__main__":
    sys.exit(run(sys.argv))
