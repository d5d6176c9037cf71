"""Shared machinery of gen_cute_corpus.py and gen_fa4_corpus.py.

How a kernel is captured without a GPU:
  * CuTe DSL compiles for sm_100a on the CPU (CUTE_DSL_ARCH); CUTE_DSL_KEEP=ptx,ir
    writes the PTX and the MLIR (after canonicalize+cse) into CUTE_DSL_DUMP_DIR.
  * The host side of the @cute.jit function is JIT-compiled to native code that
    calls only the "_cuda*" wrappers of libcute_dsl_runtime.so.  We point
    CUTE_DSL_LIBS at cute_runtime_shim.c (built here) instead, call the compiled
    function with CPU-backed tensors, and the shim records each launch: grid,
    block, cluster, dynamic smem and the raw bytes of every kernel parameter
    (including the 128-byte tensor maps the DSL encodes inline).
  * Parameter meaning comes from the MLIR kernel signature (cuda.kernel @...),
    matched in order to the PTX .param list (args with no runtime content, i.e.
    fully static layouts, have no PTX parameter).
"""
import ctypes
import glob
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
SHIM_SRC = os.path.join(HERE, "cute_runtime_shim.c")


# ---------------------------------------------------------------- environment
def build_shim(build_dir):
    os.makedirs(build_dir, exist_ok=True)
    so = os.path.join(build_dir, "libcute_dsl_runtime.so")
    if not os.path.exists(so) or os.path.getmtime(so) < os.path.getmtime(SHIM_SRC):
        subprocess.check_call(["gcc", "-O1", "-shared", "-fPIC", "-o", so, SHIM_SRC])
    return so


def worker_env(shim, dump_dir, log_path, extra=None):
    env = dict(os.environ)
    env.update(
        CUTE_DSL_ARCH="sm_100a",
        CUTE_DSL_KEEP="ptx,ir",
        CUTE_DSL_DUMP_DIR=dump_dir,
        CUTE_DSL_LIBS=shim,
        CUTE_DSL_NO_CACHE="1",
        TC5_SHIM_LOG=log_path,
        PYTHONWARNINGS="ignore",
    )
    env.update(extra or {})
    return env


def patch_runtime():
    """Monkeypatches needed to call a compiled function with no CUDA driver."""
    from cutlass.cutlass_dsl.cuda_jit_executor import CudaDialectJitCompiledFunction

    # .to() loads the library once per device; cuda-bindings' cudaGetDeviceCount
    # fails without a driver.
    CudaDialectJitCompiledFunction.num_devices = property(lambda self: 1)

    # cutlass.utils.HardwareInfo queries the driver; answer as one B200 (148 SMs).
    from cutlass.utils.hardware_info import HardwareInfo
    sms = int(os.environ.get("FLASH_ATTENTION_NUM_SMS", "148"))
    HardwareInfo.__init__ = lambda self, device_id=0: None
    HardwareInfo.get_device_multiprocessor_count = lambda self: sms
    HardwareInfo.get_max_active_clusters = lambda self, cluster_size=1, *a, **k: sms // cluster_size
    HardwareInfo.get_l2_cache_size_in_bytes = lambda self: 126 * 1024 * 1024


def shim_lib():
    return ctypes.CDLL(os.environ["CUTE_DSL_LIBS"])


# ---------------------------------------------------------------- PTX
ENTRY_RE = re.compile(r"\.visible\s+\.entry\s+(\S+?)\s*\((.*?)\)", re.S)
PARAM_RE = re.compile(r"\.param\s+(?:\.align\s+(\d+)\s+)?\.(\w+)\s+(\S+?)(?:\[(\d+)\])?\s*$")
SCALAR_BYTES = {"b8": 1, "u8": 1, "s8": 1, "b16": 2, "u16": 2, "s16": 2, "f16": 2, "b32": 4, "u32": 4,
                "s32": 4, "f32": 4, "b64": 8, "u64": 8, "s64": 8, "f64": 8}


def ptx_entries(ptx):
    out = []
    for m in ENTRY_RE.finditer(ptx):
        params = []
        for line in m.group(2).split(","):
            line = line.strip()
            if not line:
                continue
            pm = PARAM_RE.match(line)
            if not pm:
                params.append({"ptx": line, "size": None})
                continue
            align, ty, pname, count = pm.groups()
            esz = SCALAR_BYTES.get(ty, 1)
            size = esz * (int(count) if count else 1)
            params.append({"ptx_name": pname, "ptx_type": ty, "align": int(align) if align else esz,
                           "size": size})
        tail = ptx[m.end():m.end() + 400]
        directives = {}
        for d in ("reqntid", "maxntid", "reqnctapercluster", "explicitcluster", "maxnreg", "minnctapersm"):
            dm = re.search(r"\." + d + r"\b\s*([0-9, ]*)", tail.split("{")[0])
            if dm:
                directives[d] = [int(x) for x in dm.group(1).replace(" ", "").split(",") if x] or True
        out.append({"entry": m.group(1), "params": params, "directives": directives})
    return out


def register_params(shim, entries):
    for e in entries:
        sizes = [p["size"] or 0 for p in e["params"]]
        arr = (ctypes.c_int * max(1, len(sizes)))(*sizes)
        shim.tc5_shim_register(e["entry"].encode(), len(sizes), arr)


# ---------------------------------------------------------------- MLIR
def split_top(s, sep=","):
    """Split on sep at nesting depth 0 (<>, (), [], {}, quotes)."""
    out, depth, cur, q = [], 0, [], False
    for ch in s:
        if ch == '"':
            q = not q
        elif not q:
            if ch in "<([{":
                depth += 1
            elif ch in ">)]}":
                depth -= 1
            elif ch == sep and depth == 0:
                out.append("".join(cur))
                cur = []
                continue
        cur.append(ch)
    if cur:
        out.append("".join(cur))
    return [x.strip() for x in out]


def match_paren(s, i):
    """s[i] == '(' -> index of the matching ')'."""
    depth, q = 0, False
    for j in range(i, len(s)):
        ch = s[j]
        if ch == '"':
            q = not q
        elif not q:
            if ch in "<([{":
                depth += 1
            elif ch in ">)]}":
                depth -= 1
                if depth == 0:
                    return j
    return -1


def mlir_aliases(mlir):
    al = {}
    for line in mlir.splitlines():
        m = re.match(r"^(![\w.]+)\s*=\s*(.*)$", line)
        if m:
            al[m.group(1)] = m.group(2)
    return al


def mlir_kernels(mlir):
    """{kernel name: {'args': [(name, type, attrs)], 'attrs': str, 'signature': str}}"""
    ks = {}
    for m in re.finditer(r"cuda\.kernel @(\S+?)\(", mlir):
        i = m.end() - 1
        j = match_paren(mlir, i)
        args = []
        for a in split_top(mlir[i + 1:j]):
            am = re.match(r"(%\w+)\s*:\s*(.*)$", a, re.S)
            if not am:
                continue
            ty = am.group(2).strip()
            attrs = ""
            # trailing {attr} after type
            if ty.endswith("}"):
                k = ty.rfind(" {")
                if k > 0:
                    ty, attrs = ty[:k].strip(), ty[k + 1:].strip()
            args.append((am.group(1), ty, attrs))
        rest = mlir[j + 1:j + 4000]
        am = re.match(r"\s*attributes\s*(\{.*?\})\s*\{\s*\n", rest, re.S)
        ks[m.group(1)] = {"args": args, "attrs": am.group(1) if am else "",
                          "signature": mlir[m.start():j + 1] + (" attributes " + am.group(1) if am else "")}
    return ks


def resolve(ty, aliases):
    for _ in range(4):
        m = re.match(r"^(![\w.]+)$", ty.strip())
        if m and m.group(1) in aliases:
            ty = aliases[m.group(1)]
        else:
            break
    return ty


def has_runtime_content(ty_resolved):
    """Whether an MLIR kernel argument type lowers to a non-empty PTX parameter."""
    t = ty_resolved
    if re.match(r"^(i\d+|f\d+|bf16|index|!llvm\.ptr.*|!cute\.ptr<.*)$", t):
        return True
    if t.startswith("!cute_nvgpu.atom.non_exec_tiled_tma") or "tma" in t.split("<")[0]:
        return True
    if t.startswith("!cute.memref<") or t.startswith("!cute.tensor<"):
        return "gmem" in t or "?" in t or "generic" in t
    if t.startswith("!cute.tiled_mma") or t.startswith("!cute_nvgpu.sm100.mma") or "mma" in t.split("<")[0]:
        return True
    if t.startswith("!cute.layout") or t.startswith("!cute.composed_layout") or t.startswith("!cute.coord_tensor") \
            or t.startswith("!cute.int_tuple") or t.startswith("!cute.shape") or t.startswith("!cute.stride") \
            or t.startswith("!cute.coord") or t.startswith("!cute.tile"):
        return "?" in t
    return True  # unknown: assume it has content


def classify(ty_resolved):
    t = ty_resolved
    if t.startswith("!cute_nvgpu.atom.non_exec_tiled_tma_load"):
        return "tensor_map (TMA load)"
    if t.startswith("!cute_nvgpu.atom.non_exec_tiled_tma_store"):
        return "tensor_map (TMA store)"
    if t.startswith("!cute_nvgpu.atom.non_exec_tiled_tma_reduce"):
        return "tensor_map (TMA reduce)"
    if t.startswith("!cute_nvgpu.atom.non_exec"):
        return "tensor_map"
    if t.startswith("!cute.coord_tensor"):
        return "TMA coordinate tensor (its dynamic shape, i32 each)"
    if t.startswith("!cute.memref"):
        return "tensor (global pointer + dynamic shape/stride)"
    if t.startswith("!cute.ptr"):
        return "pointer"
    if t.startswith("!cute.tiled_mma"):
        return "TiledMMA runtime state (struct bytes)"
    if t.startswith("!cute.layout") or t.startswith("!cute.composed_layout"):
        return "layout (its dynamic shape/stride values)"
    if re.match(r"^i\d+$", t):
        return "integer"
    if re.match(r"^(f\d+|bf16)$", t):
        return "float"
    return "struct"


def layout_of(ty):
    """The quoted layout string of a !cute.memref / !cute.layout / !cute.coord_tensor type."""
    qs = re.findall(r'"([^"]*)"', ty)
    qs = [q for q in qs if ":" in q]
    return qs[-1] if qs else None


def decode_dynamic(ty, b, has_pointer):
    """Fill the '?' of a layout with the values packed in the parameter bytes:
    [u64 pointer] then each dynamic value in order, i32 unless marked {i64...},
    each at its natural alignment."""
    lay = layout_of(ty)
    if lay is None or b is None:
        return None
    toks = list(re.finditer(r"\?(\{[^}]*\})?", lay))
    off = 8 if has_pointer else 0
    vals = []
    for t in toks:
        w = 8 if (t.group(1) and "i64" in t.group(1)) else 4
        off = (off + w - 1) // w * w
        if off + w > len(b):
            return None
        vals.append(int.from_bytes(b[off:off + w], "little", signed=True))
        off += w
    out, last = [], 0
    for t, v in zip(toks, vals):
        out.append(lay[last:t.start()])
        out.append(str(v))
        last = t.end()
    out.append(lay[last:])
    return {"layout": lay, "values": vals, "layout_filled": "".join(out), "bytes_used": off}


# ---------------------------------------------------------------- tensor maps
SWZ = {0: "none", 1: "32B", 2: "64B", 3: "128B"}


def decode_tmap(b, rank):
    """Empirical reading of the 128-byte map CuTe DSL 4.8.1 encodes for sm_100a.

    Fields confirmed by varying M/N/K/L and the leading dimension of a dense GEMM
    and watching the bytes: u64 address @0; u32 (stride_bytes >> 4) of dims 1..4
    @12,16,20,24; u32 (dim - 1) @32+4i; u8 (box - 1) @55+i; swizzle in bits 5..6
    of byte 9 (3 = 128B, 2 = 64B).  Bytes 64..127 are not written by the host
    code (stack contents).  Everything else is left raw."""
    if len(b) < 64:
        return None
    r = rank or 5
    return {
        "address": "0x%x" % struct.unpack_from("<Q", b, 0)[0],
        "dims": [struct.unpack_from("<I", b, 32 + 4 * i)[0] + 1 for i in range(r)],
        "strides_bytes": [struct.unpack_from("<I", b, 12 + 4 * i)[0] << 4 for i in range(r - 1)],
        "box": [b[55 + i] + 1 for i in range(r)],
        "swizzle": SWZ.get((b[9] >> 5) & 3),
        "word8_hex": b[8:12].hex(),
        "note": "empirical decode; bytes 64..127 are uninitialized",
    }


def tma_type_info(t):
    info = {}
    m = re.search(r"tma_gbasis = <\"([^\"]+)\">", t)
    if m:
        info["tma_gbasis"] = m.group(1)
        shp = m.group(1).split(":")[0].strip()
        if shp.startswith("(") and shp.endswith(")"):
            shp = shp[1:-1]
        box = []
        for mode in split_top(shp):
            n = 1
            for x in re.findall(r"\d+", mode):
                n *= int(x)
            box.append(n)
        info["box_elems_from_gbasis"] = box
        info["rank"] = min(len(box), 5)
    for k in ("copy_bits", "tma_format", "num_multicast"):
        m = re.search(k + r"\s*=\s*([\w]+)", t)
        if m:
            info[k] = m.group(1)
    m = re.match(r"!cute_nvgpu\.atom\.non_exec_tiled_tma_\w+<(sm_\w+)?,?\s*(\w+)", t)
    if m:
        if m.group(1):
            info["kind"] = m.group(1)
        info["dtype"] = m.group(2)
    return info


# ---------------------------------------------------------------- assembly
def read_log(path):
    out = []
    if os.path.exists(path):
        for line in open(path):
            line = line.strip()
            if line:
                try:
                    out.append(json.loads(line))
                except Exception:
                    out.append({"raw": line})
    return out


def ir_excerpt(mlir, kernels):
    lines = []
    al = mlir_aliases(mlir)
    used = set()
    for k in kernels.values():
        for _, ty, _ in k["args"]:
            for a in re.findall(r"![\w.]+", ty):
                used.add(a)
    lines.append("// type aliases used by kernel parameters")
    for a in sorted(used):
        if a in al:
            lines.append("%s = %s" % (a, al[a]))
    lines.append("")
    lines.append("// kernel signatures")
    for name, k in kernels.items():
        lines.append(k["signature"])
        lines.append("")
    lines.append("// host: entry function, TMA atoms, launch configuration")
    for line in mlir.splitlines():
        s = line.strip()
        if s.startswith("func.func") or "make_non_exec_tiled_tma" in s or s.startswith("cuda.launch_cfg") \
                or "cuda.launch_ex" in s or "cuda.launch " in s or re.search(r"= cuda\.launch", s):
            lines.append(s)
    return "\n".join(lines) + "\n"


def describe_kernel(entry, kernel_mlir, aliases, launch, tensors):
    """Merge PTX params, MLIR arg types and launch bytes into one description."""
    params = [dict(p) for p in entry["params"]]
    notes = []
    mapped = []
    static_args = []
    if kernel_mlir:
        for name, ty, attrs in kernel_mlir["args"]:
            rt = resolve(ty, aliases)
            if has_runtime_content(rt):
                mapped.append((name, ty, rt, attrs))
            else:
                static_args.append({"mlir_arg": name, "mlir_type": ty})
        if len(mapped) != len(params):
            notes.append("MLIR args with runtime content (%d) != PTX params (%d): mapping by order is unverified"
                         % (len(mapped), len(params)))
    else:
        notes.append("kernel not found in MLIR")
    raw = launch.get("params") if launch else None
    ptr_names = {}
    for tn, t in (tensors or {}).items():
        if t.get("data_ptr"):
            ptr_names[int(t["data_ptr"])] = tn
    for i, p in enumerate(params):
        if i < len(mapped):
            name, ty, rt, attrs = mapped[i]
            p["mlir_arg"] = name
            p["mlir_type"] = ty
            if rt != ty:
                p["mlir_type_resolved"] = rt
            if attrs:
                p["mlir_attrs"] = attrs
            p["kind"] = classify(rt)
        b = bytes.fromhex(raw[i]) if raw and i < len(raw) else None
        if b is not None:
            p["bytes_hex"] = raw[i]
        k = p.get("kind", "")
        if k.startswith("tensor_map"):
            info = tma_type_info(p.get("mlir_type_resolved", p.get("mlir_type", "")))
            p["tma"] = info
            if b is not None:
                rank = info.get("rank")
                dec = decode_tmap(b, rank)
                if dec and "box_elems_from_gbasis" in info:
                    dec["box_matches_gbasis"] = dec["box"] == info["box_elems_from_gbasis"][:5]
                p["tma_decoded"] = dec
                addr = struct.unpack_from("<Q", b, 0)[0]
                if addr in ptr_names:
                    p["tensor"] = ptr_names[addr]
                else:
                    # a map may start inside a tensor (offset view)
                    for base, tn in ptr_names.items():
                        t = tensors[tn]
                        if base <= addr < base + int(t.get("nbytes", 0) or 0):
                            p["tensor"] = "%s+%d" % (tn, addr - base)
        elif k in ("pointer", "tensor (global pointer + dynamic shape/stride)") and b is not None and len(b) >= 8:
            addr = struct.unpack_from("<Q", b, 0)[0]
            p["address"] = "0x%x" % addr
            if addr in ptr_names:
                p["tensor"] = ptr_names[addr]
            if len(b) > 8:
                dec = decode_dynamic(p.get("mlir_type_resolved", p.get("mlir_type", "")), b, True)
                if dec:
                    p["layout_values"] = dec
        elif (k.startswith("TMA coordinate") or k.startswith("layout")) and b is not None:
            dec = decode_dynamic(p.get("mlir_type_resolved", p.get("mlir_type", "")), b, False)
            if dec:
                p["layout_values"] = dec
        elif k == "integer" and b is not None:
            p["value"] = int.from_bytes(b, "little", signed=True)
        elif k == "float" and b is not None and len(b) in (4, 8):
            p["value"] = struct.unpack("<f" if len(b) == 4 else "<d", b)[0]
    out = {"entry": entry["entry"], "ptx_directives": entry["directives"], "params": params}
    if static_args:
        out["static_mlir_args_without_ptx_param"] = static_args
    if kernel_mlir:
        m = re.search(r"cutlass_launch_facts = \{([^}]*)\}", kernel_mlir["attrs"])
        if m:
            out["launch_facts"] = m.group(1)
        m = re.search(r"cu_attrs = \{([^}]*)\}", kernel_mlir["attrs"])
        if m:
            out["cu_attrs"] = m.group(1)
    if launch:
        attrs = {}
        for a in launch.get("attrs", []):
            if a["id"] == 4:
                attrs["cluster"] = a["u32"]
            elif a["id"] == 2:
                attrs["cooperative"] = a["u32"][0]
            elif a["id"] == 6:
                attrs["programmatic_stream_serialization"] = a["u32"][0]
            else:
                attrs["attr_%d" % a["id"]] = a["u32"]
        out["launch"] = {"grid": launch["grid"], "block": launch["block"],
                         "cluster": attrs.get("cluster", [1, 1, 1]),
                         "dynamic_smem_bytes": launch["smem"], "attributes": attrs}
    else:
        notes.append("no launch recorded for this entry")
    if notes:
        out["notes"] = notes
    return out


def tensor_info(t, dtype_name=None, role=None):
    """Describe a torch tensor used as a launch argument."""
    d = {"dtype": dtype_name or str(t.dtype).replace("torch.", ""), "torch_dtype": str(t.dtype),
         "shape": list(t.shape), "strides_elems": list(t.stride()), "data_ptr": t.data_ptr(),
         "nbytes": t.untyped_storage().nbytes()}
    if role:
        d["role"] = role
    return d


def collect(name, out_dir, dump_dir, log_path, tensors, meta, t0):
    """After a compile+call: write NAME.ptx, NAME.ir.txt, NAME.json."""
    ptxs = sorted(glob.glob(os.path.join(dump_dir, "*.ptx")), key=os.path.getmtime)
    mlirs = sorted(glob.glob(os.path.join(dump_dir, "*.mlir")), key=os.path.getmtime)
    if not ptxs:
        raise RuntimeError("no PTX was kept in %s" % dump_dir)
    log = read_log(log_path)
    return collect_files(name, out_dir, ptxs, mlirs, log, tensors, meta, t0)


def collect_files(name, out_dir, ptxs, mlirs, log, tensors, meta, t0):
    launches = [x for x in log if x.get("call", "").startswith("cudaLaunch")]
    all_entries = []
    ptx_files = []
    for i, pf in enumerate(ptxs):
        ptx = open(pf).read()
        suffix = "" if len(ptxs) == 1 else "_%d" % i
        dst = os.path.join(out_dir, name + suffix + ".ptx")
        shutil.copyfile(pf, dst)
        ptx_files.append(os.path.basename(dst))
        for e in ptx_entries(ptx):
            e["ptx_file"] = os.path.basename(dst)
            all_entries.append(e)
    mlir_text = "\n".join(open(m).read() for m in mlirs)
    kernels = mlir_kernels(mlir_text)
    aliases = mlir_aliases(mlir_text)
    with open(os.path.join(out_dir, name + ".ir.txt"), "w") as f:
        if len(mlir_text) < 60000:
            f.write(mlir_text)
        else:
            f.write("// excerpt of %d bytes of MLIR (CUTE_DSL_KEEP=ir)\n" % len(mlir_text))
            f.write(ir_excerpt(mlir_text, kernels))
    descs = []
    by_entry = {e["entry"]: e for e in all_entries}
    used = set()
    for ln in launches:
        e = by_entry.get(ln["kernel"])
        if e is None:
            continue
        d = describe_kernel(e, kernels.get(e["entry"]), aliases, ln, tensors)
        d["ptx_file"] = e["ptx_file"]
        descs.append(d)
        used.add(e["entry"])
    for e in all_entries:
        if e["entry"] not in used:
            d = describe_kernel(e, kernels.get(e["entry"]), aliases, None, tensors)
            d["ptx_file"] = e["ptx_file"]
            descs.append(d)
    doc = {"name": name, "ptx_files": ptx_files, "arch": "sm_100a"}
    doc.update(meta)
    doc["tensors"] = tensors
    doc["kernels"] = descs
    doc["launch_count"] = len(launches)
    doc["driver_calls"] = [x for x in log if not x.get("call", "").startswith("cudaLaunch")
                           and x.get("call") != "cudaDeviceGetAttribute"]
    doc["seconds"] = round(time.time() - t0, 1)
    with open(os.path.join(out_dir, name + ".json"), "w") as f:
        json.dump(doc, f, indent=1)
    return doc


def run_workers(script, names, out_dir, extra_env=None, timeout=1500, py_flags=()):
    """Run `script --worker NAME --out OUT` for each name; collect failures."""
    build = os.path.join(out_dir, ".build")
    shim = build_shim(build)
    failures = []
    ok = []
    for n in names:
        dump = os.path.join(build, n)
        shutil.rmtree(dump, ignore_errors=True)
        os.makedirs(dump)
        log = os.path.join(dump, "shim.log")
        env = worker_env(shim, dump, log, extra_env)
        t0 = time.time()
        cmd = [sys.executable, *py_flags, script] + sys.argv[1:] + ["--worker", n, "--out", out_dir]
        try:
            r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
            rc, tail = r.returncode, (r.stdout + r.stderr)[-3000:]
        except subprocess.TimeoutExpired as e:
            rc, tail = "timeout", str(e)[-3000:]
        dt = time.time() - t0
        with open(os.path.join(dump, "worker.log"), "w") as f:
            f.write(tail)
        if rc == 0:
            ok.append(n)
            print("ok   %-40s %6.1fs" % (n, dt), flush=True)
        else:
            print("FAIL %-40s %6.1fs rc=%s" % (n, dt, rc), flush=True)
            last = [l for l in tail.strip().splitlines() if l.strip()]
            failures.append((n, rc, "\n    ".join(last[-12:])))
    with open(os.path.join(out_dir, "failures.txt"), "w") as f:
        if not failures:
            f.write("none\n")
        for n, rc, msg in failures:
            f.write("%s: rc=%s\n    %s\n\n" % (n, rc, msg))
    return ok, failures


def worker_main(name, out_dir, spec_fn):
    """spec_fn(name) -> dict(compile=callable returning compiled fn, call=callable(compiled),
    tensors={...}, meta={...})."""
    t0 = time.time()
    patch_runtime()
    spec = spec_fn(name)
    compiled = spec["compile"]()
    dump = os.environ["CUTE_DSL_DUMP_DIR"]
    shim = shim_lib()
    for pf in glob.glob(os.path.join(dump, "*.ptx")):
        register_params(shim, ptx_entries(open(pf).read()))
    spec["call"](compiled)
    shim.tc5_shim_flush()
    doc = collect(name, out_dir, dump, os.environ["TC5_SHIM_LOG"], spec.get("tensors", {}),
                  spec.get("meta", {}), t0)
    if doc["launch_count"] == 0:
        raise RuntimeError("compiled function made no launch")
    print("kernels:", [(k["entry"][:60], k.get("launch", {}).get("grid")) for k in doc["kernels"]])
