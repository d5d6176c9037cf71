#!/usr/bin/env python3
"""The TMA silicon corpus of issue 18: inputs and kernels.txt for
gpu/tma_kernels.cu's kernels (kernels.ptx: nvcc -arch=sm_90a -ptx -std=c++17
gpu/tma_kernels.cu), run on the H100 by `gpu/run.sh tma` and in tc5 by
tests/ptx/silicon.sh, and tmap_rules.txt, tensor maps that
cuTensorMapEncodeTiled accepts or rejects (the H100's verdicts in
h100_tmap_rules.txt). Deterministic: run it from this directory."""
import random
import struct

rng = random.Random(18)
lines = ["# FILE NAME GRID BLOCK SHARED ARG... (gen_manifest.py; args as tc5 run's, tmap: buffers"
         " in=F / out=BYTES / inout=F of their own)"]
ESIZE = {"u8": 1, "u16": 2, "u32": 4, "s32": 4, "u64": 8, "s64": 8, "f16": 2, "bf16": 2, "f32": 4, "f64": 8,
         "tf32": 4, "f32_ftz": 4, "tf32_ftz": 4}


def f32(x):
    return struct.pack("<f", x)


def f16(x):
    return struct.pack("<e", x)


def bf16(x):
    return struct.pack("<f", x)[2:]


def values(t, n):
    """n elements of type t: random bits for integers, spread values for floats"""
    out = bytearray()
    for _ in range(n):
        if t == "f64":
            out += struct.pack("<d", rng.gauss(0, 1) * 2.0 ** rng.randint(-40, 40))
        elif t in ("f32", "f16", "bf16"):
            x = rng.choice([0.0, -0.0, 1.0, -2.5]) if rng.random() < 0.05 else rng.gauss(0, 1) * 2.0 ** rng.randint(-20, 20)
            if t == "f16":
                x = max(min(x, 60000.0), -60000.0)
            out += {"f32": f32, "f16": f16, "bf16": bf16}[t](x)
        else:
            out += rng.getrandbits(8 * ESIZE[t]).to_bytes(ESIZE[t], "little")
    return bytes(out)


with open("t.bin", "wb") as f:  # the tensor the loads read: 1 MiB of random bytes
    f.write(bytes(rng.getrandbits(8) for _ in range(1 << 20)))
with open("w.bin", "wb") as f:  # what the stores' windows hold
    f.write(bytes(rng.getrandbits(8) for _ in range(1 << 16)))


def box_bytes(t, box, es, interleave):
    n = 1
    for i, b in enumerate(box):
        n *= b if i == 0 and interleave == "none" else -(-b // es[i])
    return n * ESIZE[t]


def tmap(t, dims, strides, box, es=None, swizzle="none", interleave="none", l2=None, oob=None, buf="in=t.bin"):
    s = "tmap:%s,type=%s,dims=%s,box=%s" % (buf, t, "x".join(map(str, dims)), "x".join(map(str, box)))
    if strides:
        s += ",strides=" + "x".join(map(str, strides))
    if es:
        s += ",estrides=" + "x".join(map(str, es))
    if swizzle != "none":
        s += ",swizzle=" + swizzle
    if interleave != "none":
        s += ",interleave=" + interleave
    if l2:
        s += ",l2=" + l2
    if oob:
        s += ",oob=" + oob
    return s


def dense_strides(t, dims, pad=0):
    st, acc = [], dims[0] * ESIZE[t] + pad
    acc = (acc + 15) // 16 * 16
    for d in dims[1:]:
        st.append(acc)
        acc *= d
    return st


def align16(t, coords, interleave="none"):
    """the innermost coordinate on a 16-byte boundary of the row: the H100
    faults otherwise (illegal instruction; tc5 reports it)"""
    if interleave != "none":
        return list(coords)
    per = 16 // ESIZE[t]
    return [coords[0] // per * per] + list(coords[1:])


def load(t, dims, box, coords, es=None, swizzle="none", interleave="none", l2=None, oob=None, off=0, strides=None,
         buf_in="t.bin"):
    rank = len(dims)
    coords = align16(t, coords, interleave)
    es = es or [1] * rank
    strides = strides if strides is not None else dense_strides(t, dims)
    nb = box_bytes(t, box, es, interleave)
    # a swizzled box's rows each take a whole swizzle row in shared memory
    sw_span = {"none": 0, "32B": 32, "64B": 64, "128B": 128}[swizzle]
    row = box[0] * ESIZE[t]
    foot = nb // row * max(row, sw_span)
    img = (foot + 127) // 128 * 128 + 256  # the box and what follows it (must stay zero)
    c = list(coords) + [0] * (5 - rank)
    lines.append("kernels.ptx tma_load_%dd 1 128 %d %s out:%d u32:%d u32:%d u32:%d %s" % (
        rank, off + img + 1024, tmap(t, dims, strides, box, es if es != [1] * rank else None, swizzle, interleave, l2, oob,
                                     buf="in=" + buf_in),
        img, off, img, nb, " ".join("s32:%d" % x for x in c)))


# every swizzle x element size: the widest box the swizzle allows, inside, across the far edges, before the start
span = {"none": 96, "32B": 32, "64B": 64, "128B": 128}
for sw in ("none", "32B", "64B", "128B"):
    for t in ("u8", "bf16", "f32", "f64"):
        b0 = span[sw] // ESIZE[t]
        dims = [300 // ESIZE[t] * 2 + 5, 70]
        for c in ((16, 4), (dims[0] - b0 // 2, 70 - 9), (-3, -5)):
            load(t, dims, [b0, 24], c, swizzle=sw)
# inner box narrower than the swizzle span
load("bf16", [200, 90], [32, 40], (9, 7), swizzle="128B")
load("bf16", [200, 90], [16, 40], (9, 7), swizzle="128B")
load("u8", [200, 90], [16, 40], (9, 7), swizzle="64B")
load("f32", [50, 90], [4, 40], (9, 7), swizzle="32B")
# windows not on a 1024-byte boundary
load("bf16", [200, 90], [64, 16], (5, 3), swizzle="128B", off=128)
load("bf16", [200, 90], [64, 16], (5, 3), swizzle="128B", off=512)
load("bf16", [200, 90], [32, 16], (5, 3), swizzle="64B", off=384)
load("u8", [200, 90], [32, 16], (5, 3), swizzle="32B", off=640)
# oobFill nan
for t in ("f16", "bf16", "f32", "f64", "tf32", "f32_ftz"):
    load(t, [40, 30], [32 // ESIZE[t] * 2, 8], (30, 26), oob="nan")
load("u16", [40, 30], [16, 8], (30, 26))
# element strides (dimension 0's is ignored without interleave)
load("f32", [64, 80], [16, 16], (4, 3), es=[1, 2])
load("f32", [64, 80], [16, 15], (4, 70), es=[1, 4])
load("f32", [64, 80], [16, 16], (4, 3), es=[4, 1])
load("bf16", [64, 30, 20], [16, 9, 7], (3, 2, 1), es=[1, 3, 2])
# ranks 1 to 5, across edges in every dimension
load("u8", [1000], [256], (900,))
load("u8", [1000], [128], (-40,))
load("bf16", [48, 20, 12], [16, 8, 6], (40, 16, -2), swizzle="32B")
load("f32", [20, 9, 7, 5], [8, 4, 3, 2], (16, 7, 5, 4))
load("u8", [64, 6, 5, 4, 3], [32, 3, 2, 2, 2], (40, 4, -1, 3, 2), swizzle="32B")
load("u16", [32, 6, 5, 4, 3], [16, 4, 4, 3, 2], (1, -2, 2, 2, 1), es=[1, 1, 2, 1, 1])
# strides with padding between rows
load("bf16", [100, 50], [64, 20], (50, 40), strides=[256], swizzle="128B")
# boxes entirely outside the tensor: all fill, the whole box counted
load("f32", [64, 64], [16, 8], (100, 2))
load("f32", [64, 64], [16, 8], (2, -9), oob="nan")
# the largest box: 256 x 64 bytes
load("u8", [512, 80], [256, 64], (200, 30))


def im2col(t, dims, lower, upper, channels, pixels, coords, offs, es=None, swizzle="none", oob=None):
    """an im2col load: pixels x channels elements walking the bounding box"""
    rank = len(dims)
    strides = dense_strides(t, dims)
    nb = pixels * channels * ESIZE[t]
    sw_span = {"none": 0, "32B": 32, "64B": 64, "128B": 128}[swizzle]
    foot = pixels * max(channels * ESIZE[t], sw_span)
    img = (foot + 127) // 128 * 128 + 256
    tm = "tmap:in=t.bin,type=%s,dims=%s,strides=%s,im2col=%s/%s/%d/%d" % (
        t, "x".join(map(str, dims)), "x".join(map(str, strides)), "x".join(map(str, lower)), "x".join(map(str, upper)),
        channels, pixels)
    if es:
        tm += ",estrides=" + "x".join(map(str, es))
    if swizzle != "none":
        tm += ",swizzle=" + swizzle
    if oob:
        tm += ",oob=" + oob
    c = list(coords) + [0] * (5 - rank)
    o = list(offs) + [0] * (3 - len(offs))
    lines.append("kernels.ptx tma_im2col_%dd 1 128 %d %s out:%d u32:0 u32:%d u32:%d %s %s" % (
        rank, img + 1024, tm, img, img, nb, " ".join("s32:%d" % x for x in c), " ".join("u32:%d" % x for x in o)))


# im2col: NWC, NHWC, NDHWC; a filter's offsets; pixels crossing rows and images;
# starts inside and before the box; traversal strides; swizzles; channels past C
im2col("bf16", [64, 10, 8, 3], [-1, -1], [-1, -1], 32, 64, (0, -1, -1, 0), (0, 0))
im2col("bf16", [64, 10, 8, 3], [-1, -1], [-1, -1], 32, 64, (32, 5, 3, 1), (2, 1))
im2col("bf16", [64, 10, 8, 3], [0, 0], [-2, -2], 64, 48, (0, 2, 5, 0), (1, 2), swizzle="128B")
im2col("bf16", [64, 10, 8, 3], [-1, -1], [-1, -1], 16, 40, (48, 0, 0, 1), (0, 0), swizzle="64B")
im2col("bf16", [64, 10, 8, 3], [-2, -2], [0, 0], 32, 32, (8, -2, -2, 0), (0, 3), es=[1, 2, 2, 1])
im2col("f32", [16, 50, 4], [-3], [0], 16, 100, (0, 40, 1), (2,))
im2col("f32", [16, 50, 4], [-3], [0], 8, 64, (8, -3, 3), (6,), oob="nan")
im2col("u8", [32, 6, 5, 4, 2], [-1, -1, -1], [-1, -1, -1], 32, 128, (0, 0, -1, 2, 0), (1, 2, 0))
im2col("u8", [64, 6, 5, 4, 2], [0, 0, 0], [-2, -1, 0], 64, 60, (0, 1, 2, 1, 1), (0, 1, 1), swizzle="128B")
# (interleaved layouts are not in the corpus: the H100 loads a box unlike the
# documentation's, which tc5 does not model; docs/tma.md)
# f32 values with edge cases through the tf32 and _ftz types: ties to even
# and odd, subnormals, NaN payloads, infinities, the largest finite values
special = [0x3f801000, 0x3f803000, 0xbf801000, 0xbf803000, 0x3f800fff, 0x3f801001, 0x00000001, 0x80000001,
           0x007fffff, 0x807fffff, 0x00800000, 0x7f800001, 0x7fc00001, 0xffffffff, 0x7fbfffff, 0x7f800000,
           0xff800000, 0x7f7fffff, 0xff7fffff, 0x7f7fefff, 0x00001000, 0x00003000, 0x80000000, 0]
fvals = special * 2 + [rng.getrandbits(32) for _ in range(64 * 16 - 2 * len(special))]
with open("f.bin", "wb") as f:
    f.write(b"".join(struct.pack("<I", v) for v in fvals))
for t in ("f32", "tf32", "tf32_ftz", "f32_ftz"):
    load(t, [64, 16], [32, 16], (0, 0), buf_in="f.bin")
    load(t, [64, 16], [32, 16], (32, 0), buf_in="f.bin", swizzle="128B")
# L2 promotion changes nothing a kernel can see
for l2 in ("64B", "128B", "256B"):
    load("bf16", [200, 90], [64, 16], (150, 80), swizzle="128B", l2=l2)


def store(t, dims, box, coords, swizzle="none", strides=None, rank_kernel=None, red=None, init=None, window="w.bin"):
    rank = len(dims)
    coords = align16(t, coords)
    strides = strides if strides is not None else dense_strides(t, dims)
    # a store writes the last 16-byte piece of a row whole: a 1D tensor's
    # buffer holds it (the H100's buffer would; tc5 reports a write past one)
    total = (strides[-1] * dims[-1]) if strides else (dims[0] * ESIZE[t] + 15) // 16 * 16
    nb = box_bytes(t, box, [1] * rank, "none")
    img = (nb + 127) // 128 * 128
    c = list(coords) + [0] * (5 - rank)
    if init:
        name = "r%d.bin" % len(lines)
        with open(name, "wb") as f:
            f.write(init(total))
        buf = "inout=" + name
    else:
        buf = "out=%d" % total
    m = tmap(t, dims, strides, box, None, swizzle, buf=buf)
    if red:
        # the window holds values of the type too
        name = "rw%d.bin" % len(lines)
        with open(name, "wb") as f:
            f.write(values(t, img // ESIZE[t]))
        lines.append("kernels.ptx tma_reduce_%s 1 128 %d %s in:%s u32:0 u32:%d s32:%d s32:%d" % (
            red, img + 1024, m, name, img, c[0], c[1]))
    else:
        lines.append("kernels.ptx tma_store_%dd 1 128 %d %s in:%s u32:0 u32:%d %s" % (
            rank, img + 1024, m, window, img, " ".join("s32:%d" % x for x in c)))


# non-tensor bulk copies
for n, off in ((16, 0), (1024, 16), (4096, 272), (40000, 0)):
    lines.append("kernels.ptx bulk_copy 1 32 %d in:w.bin out:%d u32:%d u32:%d" % (off + n + 1024, n + 32, off, n))
store("bf16", [200, 90], [64, 32], (170, 70), swizzle="128B")
store("bf16", [200, 90], [64, 32], (0, 0))
# rows whose last 16-byte piece is partly past the tensor: the store writes it whole
store("u8", [1000, 4], [256, 4], (848, 0), strides=[1024])
store("bf16", [203, 6], [64, 6], (160, 0), strides=[512])
store("f32", [37, 6], [16, 6], (28, 1), strides=[256], swizzle="64B")
# a store of tf32 and f32_ftz elements: converted or not
store("tf32", [64, 16], [32, 16], (0, 0), window="f.bin")
store("f32_ftz", [64, 16], [32, 16], (32, 0), window="f.bin")
store("f32", [50, 30], [8, 16], (46, 20), swizzle="32B")
store("u8", [1000], [256], (850,))
store("bf16", [48, 20, 12], [16, 8, 6], (40, 16, 8), swizzle="32B")
store("u8", [64, 6, 5, 4, 3], [32, 3, 2, 2, 2], (48, 4, 4, 3, 2), swizzle="32B")
for red, types in (("add", ("f32", "f16", "bf16", "u32", "s32", "u64")), ("min", ("u32", "s32", "f16", "bf16")),
                   ("max", ("u32", "s32", "f16", "bf16")), ("inc", ("u32",)), ("dec", ("u32",)),
                   ("and", ("u32", "u64")), ("or", ("u32", "s32")), ("xor", ("u32", "u64"))):
    for t in types:
        if red in ("inc", "dec"):
            init = lambda n: b"".join(struct.pack("<I", rng.choice([0, 1, 5, 7, 100, rng.getrandbits(32)]))
                                      for _ in range(n // 4))
        else:
            init = lambda n, t=t: values(t, n // ESIZE[t])
        store(t, [40, 30], [64 // ESIZE[t], 8], (20, 25), red=red, init=init)

# clusters (the kernels' __cluster_dims__ give .reqnctapercluster): DSMEM,
# cluster barriers, remote mbarrier arrivals, TMA multicast
for c in (2, 4):
    lines.append("kernels.ptx cluster_dsmem_%d %d 256 0 out:%d" % (c, 2 * c, 2 * c * 513 * 4))
    lines.append("kernels.ptx cluster_arrive_%d %d 64 0 out:%d" % (c, 2 * c, 64))
    for mask, sw in ((2 ** c - 1, "128B"), (1, "none"), (0b0101 if c == 4 else 0b10, "64B")):
        b0 = {"128B": 64, "64B": 32, "none": 48}[sw]
        slice_ = b0 * 2 * 8
        img = c * slice_
        lines.append("kernels.ptx tma_multicast_%d %d 128 %d %s out:%d u32:%d u32:%d u32:8 u32:%d s32:16 s32:5" % (
            c, 2 * c, img + 1024, tmap("bf16", [200, 90], [400], [b0, 8], swizzle=sw), 2 * c * img, img, slice_, mask))

# cp.async.bulk multicast (no tensor map), and cp.reduce.async.bulk into another CTA's shared memory
for mask in (0b1111, 0b0110):
    lines.append("kernels.ptx bulk_multicast_4 8 128 %d in:t.bin out:%d u32:1024 u32:256 u32:%d" % (1024 + 1024, 8 * 1024, mask))
for op in (0, 1, 2, 3):
    lines.append("kernels.ptx bulk_reduce_cluster 2 128 %d in:w.bin out:1024 u32:1024 u32:%d" % (1024 + 1024, op))

# cp.reduce.async.bulk without a tensor map: 2048 bytes of the window into an inout buffer
for name, t in (("add_u32", "u32"), ("add_s32", "s32"), ("add_u64", "u64"), ("add_f32", "f32"), ("add_f64", "f64"),
                ("min_u32", "u32"), ("max_s32", "s32"), ("min_s64", "s64"), ("max_u64", "u64"), ("inc_u32", "u32"),
                ("dec_u32", "u32"), ("and_b32", "u32"), ("or_b64", "u64"), ("xor_b32", "u32"), ("add_f16", "f16"),
                ("min_f16", "f16"), ("max_bf16", "bf16"), ("add_bf16", "bf16")):
    n = 2048
    src, dst = "bw_%s.bin" % name, "bd_%s.bin" % name
    with open(src, "wb") as f:
        f.write(values(t, n // ESIZE[t]) if not name.startswith(("inc", "dec")) else
                b"".join(struct.pack("<I", rng.choice([0, 1, 5, 7, 100, rng.getrandbits(32)])) for _ in range(n // 4)))
    with open(dst, "wb") as f:
        f.write(values(t, n // ESIZE[t]) if not name.startswith(("inc", "dec")) else
                b"".join(struct.pack("<I", rng.choice([0, 1, 5, 7, 100, rng.getrandbits(32)])) for _ in range(n // 4)))
    lines.append("kernels.ptx bulk_reduce_%s 1 128 %d in:%s inout:%s u32:%d" % (name, n + 1024, src, dst, n))

with open("kernels.txt", "w") as f:
    f.write("\n".join(lines) + "\n")

# tensor maps for cuTensorMapEncodeTiled: the H100's verdict on each, in order
# (h100_tmap_rules.txt), against tc5's (offset=N: the address is a 256-byte
# aligned buffer's plus N)
rules = [
    "type=bf16,dims=64x32,strides=128,box=64x32",  # fine
    "type=bf16,dims=64x32,strides=128,box=64x32,offset=8",  # address not 16-aligned
    "type=bf16,dims=64x32,strides=128,box=64x32,offset=16",
    "type=bf16,dims=64x32,strides=120,box=64x32",  # stride not a multiple of 16
    "type=bf16,dims=64x32,strides=128,box=64x257",  # box > 256
    "type=bf16,dims=64x32,strides=128,box=0x32",  # box 0
    "type=bf16,dims=64x32,strides=128,box=12x32",  # 24 bytes: not a multiple of 16
    "type=bf16,dims=64x32,strides=128,box=64x32,swizzle=64B",  # 128 > 64
    "type=bf16,dims=64x32,strides=128,box=32x32,swizzle=64B",
    "type=bf16,dims=64x32,strides=128,box=16x32,swizzle=32B",
    "type=bf16,dims=64x32,strides=128,box=32x32,swizzle=32B",
    "type=bf16,dims=64x32,strides=128,box=64x32,swizzle=128B",
    "type=bf16,dims=64x32,strides=128,box=72x32,swizzle=128B",
    "type=bf16,dims=64x32,strides=128,box=64x32,estrides=1x9",  # > 8
    "type=bf16,dims=64x32,strides=128,box=64x32,estrides=1x0",
    "type=bf16,dims=64x32,strides=128,box=64x32,estrides=8x8",
    "type=bf16,dims=64x32,strides=128,box=64x32,interleave=16B",  # rank < 3
    "type=bf16,dims=8x32x4,strides=16x512,box=8x32x4,interleave=16B",
    "type=bf16,dims=8x32x4,strides=16x512,box=8x32x4,interleave=32B,swizzle=32B",  # strides not 32-multiples
    "type=bf16,dims=16x32x4,strides=32x1024,box=16x32x4,interleave=32B,swizzle=32B",
    "type=bf16,dims=16x32x4,strides=32x1024,box=16x32x4,interleave=32B",  # needs swizzle 32B
    "type=bf16,dims=16x32x4,strides=32x1024,box=16x32x4,interleave=32B,swizzle=32B,offset=16",
    "type=u8,dims=64x32,strides=64,box=64x32,oob=nan",  # nan fill needs a float type
    "type=s32,dims=64x32,strides=256,box=16x32,oob=nan",
    "type=f32,dims=64x32,strides=256,box=16x32,oob=nan",
    "type=f16,dims=64x32,strides=128,box=16x32,oob=nan",
    "type=bf16,dims=0x32,strides=128,box=8x32",  # dim 0
    "type=bf16,dims=4294967296x2,strides=8589934592,box=8x2",  # 2^32
    "type=bf16,dims=4294967297x2,strides=8589934608,box=8x2",  # 2^32 + 1
    "type=u8,dims=64x32,strides=1099511627776,box=64x2",  # stride 2^40
    "type=u8,dims=64x32,strides=1099511627760,box=64x2",
    "type=u8,dims=16x2x2x2x2,strides=16x32x64x128,box=16x2x2x2x2",  # rank 5
    "type=f64,dims=64x32,strides=512,box=16x8,swizzle=128B",
    "type=f64,dims=64x32,strides=512,box=18x8,swizzle=128B",
    "type=tf32,dims=64x32,strides=256,box=32x8,swizzle=128B",
    "type=u8,dims=64x32,strides=64,box=64x32,l2=256B",
    "type=bf16,dims=64x32,strides=64,box=64x32",  # stride smaller than a row: the driver's assert?
]
with open("tmap_rules.txt", "w") as f:
    f.write("# tensor-map parameters for cuTensorMapEncodeTiled (gen_manifest.py); gpu/run.sh tma writes the\n"
            "# H100's verdict on each to h100_tmap_rules.txt\n")
    f.write("\n".join(rules) + "\n")
