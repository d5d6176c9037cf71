#!/usr/bin/env python3
"""Compile Triton's ConSan test kernels (python/test/gluon/test_consan.py) for
tc5, WITHOUT ConSan's instrumentation, and write the corpus that
tests/check/consan_run.py runs under `tc5 run` (issue 33).

Usage:
    python3 gen_consan.py --test PATH/test_consan.py [--out DIR] [--only REGEX] [--commit SHA]

PATH/test_consan.py is read at run time from a checkout of upstream Triton
(the corpus was made from github zwu-2025/triton, a mirror of triton-lang/triton,
at the commit recorded in manifest.tsv): nothing of it is copied here. Its text is
patched only by RENAMES (names Triton 3.9's Gluon spells differently) and then
executed as a module with a metadata-only fake `torch` and a fake CUDA driver
(both from tests/data/ptx/census/gen_triton_corpus.py), a minimal stand-in for
`pytest` (fixtures, parametrize, skip) and for triton._internal_testing.

For every parametrised case (the ids are pytest's: the num_ctas fixture's id
first, then the parametrize marks from the one nearest the function outwards)
the test function is called exactly as pytest would call it, with
run_wrapper=True:
  * its own `pytest.skip(...)` calls skip the case, as in ConSan's suite;
  * `run_in_process(test, args)` is replaced: it calls the test body itself
    (run_wrapper=False), which builds the kernel with the test's own Gluon code
    and constexprs and launches it; the launch is intercepted (JITFunction.run)
    and compiled with triton.compile for GPUTarget("cuda", 100, 32) -- or
    GPUTarget("cuda", 90, 32) for the tests ConSan runs on Hopper only (those
    whose skipif needs capability 9: the wgmma ones) -- with
    instrumentation_mode="" (no ConSan), whatever the test set in the
    environment;
  * ConSan's expectation is read from the test's own assertions on the result
    of run_in_process: the test is called once with a clean result (exc None,
    empty stderr) -- if its assertions hold, ConSan expects the kernel to pass --
    and once with a failed launch whose stderr records every message the test
    looks for (`msg in result.driver_stderr_output`): those are the ConSan
    messages of which the test accepts any. A test that asserts only the
    failure names its class in UNSTATED.

test_consan_initializes_allocations_with_nan launches its kernel itself and checks
that ConSan filled the allocations it reads with NaN: its kernels read shared /
Tensor Memory that nothing wrote, kept as bug cases of class uninit-read (DIRECT).
Left out: the tests of ConSan itself (SELF_TESTS: its compile cache knob and
environment variable, its profile scratch buffer), the cases the suite skips.

To regenerate (the PTX is deterministic):
    git --git-dir=MIRROR show HEAD:python/test/gluon/test_consan.py > /tmp/test_consan.py
    python3 gen_consan.py --test /tmp/test_consan.py --commit $(git --git-dir=MIRROR rev-parse HEAD)

Output (DIR, default: the directory of this script):
  manifest.tsv  one line per case: id, expect (fail|pass), ConSan classes
                (classes.txt; '|' = any of), arch, PTX file, and the arguments
                of `tc5 run` after the PTX (entry, grid, block, cluster, dynamic
                shared bytes, one --arg per .param: zeroed scratch buffers for
                tensors, tensor maps over --buffer scratch buffers, integers,
                Triton's hidden global/profile scratch pointers)
  ptx/NAME.ptx  the PTX, deduplicated (NAME: the first case's test name and a
                hash of the text; in this corpus no two cases share a kernel)
  gen_report.txt  what was left out and why, compile failures, renames applied
"""
import argparse
import hashlib
import inspect
import itertools
import math
import os
import re
import subprocess
import sys
import traceback
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "ptx", "census"))
import gen_triton_corpus as gtc  # noqa: E402

# Names of upstream Gluon that Triton 3.9 spells differently: (old, new, why).
# Applied to the text of test_consan.py before it is executed.
RENAMES = [
    ("tma.async_copy_shared_to_global(", "tma.async_store(",
     "Triton 3.9's tma.async_copy_shared_to_global is a stub that raises 'call async_store instead' (same args)"),
    ("async_copy.async_copy_global_to_shared(", "async_copy.async_load(",
     "Triton 3.9's ampere.async_copy.async_copy_global_to_shared is a stub that raises 'call async_load instead' "
     "(same args: smem, pointer[, mask])"),
]

# Cases whose test asserts only that the launch fails, without a ConSan message: the class of the bug they
# exercise, from the kernel. (test id regex, class, why)
UNSTATED = [
    (r"^test_tcgen5_mma\[.*-local_store-True\]$", "outstanding-reads",
     "FAILURE with MEM_ACCESS_KIND=local_store: smemA.store() while the tcgen05_mma that reads smemA is not "
     "waited for; the test asserts only the launch failure (its message checks cover tma_cp and tmem_*), "
     "the bug is the MMA's outstanding read of smemA"),
]

# Tests of ConSan itself (no kernel bug, no kernel expectation): left out.
SELF_TESTS = {
    "test_cache_miss_knob": "ConSan's compile-cache knob (recompiles with instrumentation)",
    "test_cache_miss_env": "ConSan's compile-cache environment variable",
    "test_consan_uses_profile_scratch": "ConSan's scratch allocation (metadata check, no launch expectation)",
}

# Tests that launch their kernel directly (no run_in_process) and check its outputs: (expect, class, why)
DIRECT = {
    "test_consan_initializes_allocations_with_nan":
    ("fail", "uninit-read", "the kernel loads a shared / tensor memory allocation that nothing wrote and stores it; "
     "ConSan fills allocations with NaN and the test asserts every output is NaN: the bug class is the read of "
     "never-written memory (tc5: smem-uninit-read, tmem-uninit-read)"),
}

# ConSan's messages (the strings the tests look for in the driver's stderr) -> class ids of classes.txt
MESSAGES = [
    ("Buffer being accessed has outstanding writes", "outstanding-writes"),
    ("Buffer being accessed has outstanding reads", "outstanding-reads"),
    ("Buffer being accessed has outstanding", "outstanding-access"),
    ("Accessing buffer with pending access. Pending access type: async_copy_global_to_shared", "pending-cp-async"),
    ("Accessing buffer with pending access. Pending access type: async_copy_shared_to_global", "pending-tma-store"),
    ("Accessing buffer with pending access. Pending access type: warpgroup_mma operand read", "pending-wgmma-read"),
    ("Async shared-memory access is missing fence_async_shared", "missing-fence-async"),
    ("Deadlock detected", "deadlock"),
    ("Barrier used before initialization or after invalidation", "barrier-uninit"),
    ("Barrier re-initialized without prior invalidation", "barrier-reinit"),
    ("Barrier arrive underflow", "barrier-underflow"),
]

ITEMSIZE = {"float16": 2, "bfloat16": 2, "float32": 4, "float64": 8, "int8": 1, "int16": 2, "int32": 4, "int64": 8,
            "uint8": 1, "bool": 1, "float8_e4m3fn": 1, "float8_e5m2": 1}
TMAP_TYPES = {0: "u8", 1: "u16", 2: "u32", 3: "s32", 4: "u64", 5: "s64", 6: "f16", 7: "f32", 8: "f64", 9: "bf16",
              10: "f32_ftz", 11: "tf32", 12: "tf32_ftz"}
SWIZZLES = {"NONE": "none", "32B": "32B", "64B": "64B", "128B": "128B"}

# ----------------------------------------------------------------------------
# A minimal pytest: what test_consan.py uses at import and at run time.
# ----------------------------------------------------------------------------


class Skipped(Exception):
    pass


class _Mark:

    def __init__(self, name, args, kwargs):
        self.name, self.args, self.kwargs = name, args, kwargs


class _MarkGen:

    def __getattr__(self, name):

        def mark(*args, **kwargs):

            def deco(fn):
                fn.__dict__.setdefault("pytestmark", []).append(_Mark(name, args, kwargs))
                return fn

            return deco

        return mark


class _ParameterSet:

    def __init__(self, values, id):
        self.values, self.id = values, id


def _fixture(fn=None, *, params=None, ids=None, **kw):

    def deco(f):
        f._fixture = (params, ids)
        return f

    return deco(fn) if fn is not None else deco


def _skip(msg="", **kw):
    raise Skipped(msg)


def make_fake_pytest():
    pt = types.ModuleType("pytest")
    pt.mark = _MarkGen()
    pt.param = lambda *values, id=None, marks=(): _ParameterSet(values, id)
    pt.fixture = _fixture
    pt.skip = _skip
    sys.modules["pytest"] = pt
    return pt


class MonkeyPatch:

    def __init__(self):
        self.env = []

    def setenv(self, name, value):
        self.env.append((name, os.environ.get(name)))
        os.environ[name] = str(value)

    def delenv(self, name, raising=True):
        self.env.append((name, os.environ.get(name)))
        os.environ.pop(name, None)

    def undo(self):
        for name, old in reversed(self.env):
            if old is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = old
        self.env = []


# ----------------------------------------------------------------------------
# Expectation: what the test asserts on run_in_process's result.
# ----------------------------------------------------------------------------


class _Stderr(str):
    """The driver's stderr of a failed launch: records each message looked for, contains none."""

    def __new__(cls, log):
        s = super().__new__(cls, "")
        s.log = log
        return s

    def __contains__(self, msg):
        self.log.append(msg)
        return False


class _Result:

    def __init__(self, exc, stderr):
        self.exc = exc
        self.driver_stderr_output = stderr


class _Case:
    """State of the case being run: its launches (captured once) and the messages recorded."""

    def __init__(self):
        self.launches = None
        self.inner_error = None
        self.mode = "pass"
        self.messages = []


CURRENT = None


def fake_run_in_process(client_fn, args=(), kwargs=None, env=None):
    c = CURRENT
    if c.launches is None:
        args = list(args)
        with gtc.capture() as launches:
            try:
                client_fn(*args, **(kwargs or {}))
            except Skipped:
                raise
            except Exception as e:  # after the launch: result checks on the (fake) outputs
                c.inner_error = f"{type(e).__name__}: {str(e)[:200]}"
        c.launches = list(launches)
    if c.mode == "pass":
        return _Result(None, "")
    return _Result(RuntimeError("CUDA error: device-side assert triggered"), _Stderr(c.messages))


def make_fake_internal_testing():
    m = types.ModuleType("triton._internal_testing")
    m.is_cuda = lambda: True
    m.run_in_process = fake_run_in_process
    sys.modules["triton._internal_testing"] = m
    import triton
    triton._internal_testing = m


# ----------------------------------------------------------------------------
# Cases: pytest's parametrisation.
# ----------------------------------------------------------------------------


def _idval(v):
    if isinstance(v, (bool, int, float, str)) or v is None:
        return str(v)
    return None


def expand(mod, name, fn):
    """[(case id, kwargs)] as pytest would collect them"""
    sig = [p for p in inspect.signature(fn).parameters]
    marks = fn.__dict__.get("pytestmark", [])
    axes = []  # each: list of (id, {argname: value})
    for p in sig:
        fx = getattr(mod, p, None)
        if p not in ("run_wrapper", "monkeypatch", "device", "fresh_knobs") and getattr(fx, "_fixture", None):
            params, ids = fx._fixture
            if params:
                axes.append([(ids(v) if callable(ids) else str(v), {p: v}) for v in params])
    for m in marks:  # nearest the function first
        if m.name != "parametrize":
            continue
        argnames, argvalues = m.args[0], m.args[1]
        ids = m.kwargs.get("ids")
        names = [a.strip() for a in argnames.split(",")] if isinstance(argnames, str) else list(argnames)
        axis = []
        for i, v in enumerate(argvalues):
            vid = None
            if isinstance(v, _ParameterSet):
                vid, v = v.id, v.values
            elif len(names) == 1:
                v = (v, )
            if vid is None and ids is not None:
                vid = ids[i] if not callable(ids) else ids(v[0])
            if vid is None:
                parts = [_idval(x) for x in v]
                vid = "-".join(p if p is not None else f"{n}{i}" for p, n in zip(parts, names))
            axis.append((vid, dict(zip(names, v))))
        axes.append(axis)
    cases = []
    for combo in itertools.product(*axes):
        kw = {}
        for _, d in combo:
            kw.update(d)
        cid = f"{name}[{'-'.join(i for i, _ in combo)}]" if combo else name
        cases.append((cid, kw))
    return cases


def hopper_only(fn):
    """skipif marks true on Blackwell: the test runs on Hopper only (its skipif condition was evaluated at import
    with capability 10.0)"""
    return any(m.name == "skipif" and m.args and m.args[0] is True for m in fn.__dict__.get("pytestmark", []))


# ----------------------------------------------------------------------------
# tc5 run arguments
# ----------------------------------------------------------------------------


def _buf_bytes(t):
    n = math.prod(t["buffer_shape"]) if t["buffer_shape"] else 1
    return max(1, n * ITEMSIZE[t["dtype"]])


def run_args(meta):
    """the `tc5 run` arguments after the PTX file: --entry .. --grid .. --block .. [--cluster ..] --shared-bytes ..,
    --buffer scratch:N for each tensor only a tensor map reads, one --arg per .param"""
    bufs = {}  # buffer name -> (index of its --arg / --buffer, 1-based, or None until placed)
    params = meta["params"]
    # tensors passed as pointers get their buffer from their own --arg; tensor maps over other tensors get a --buffer
    n_pre = 0
    pre = []
    ptr_buf = {}
    for p in params:
        if p["kind"] == "pointer" and p.get("tensor"):
            ptr_buf.setdefault(p["tensor"]["buffer"], p)
    for p in params:
        if p["kind"] == "tensormap":
            base = p["descriptor"]["base"]
            if base["buffer"] not in ptr_buf and base["buffer"] not in bufs:
                n_pre += 1
                bufs[base["buffer"]] = n_pre
                pre += ["--buffer", f"scratch:{_buf_bytes(base)}"]
    args = []
    i = n_pre
    for p in params:
        i += 1
        if p["kind"] == "pointer" and p.get("tensor") and ptr_buf.get(p["tensor"]["buffer"]) is p:
            bufs[p["tensor"]["buffer"]] = i
    i = n_pre
    L = meta["cuda_launch"]
    for p in params:
        i += 1
        k = p["kind"]
        if k == "tensormap":
            e = p["cuTensorMapEncodeTiled"]
            base = p["descriptor"]["base"]
            spec = (f"tmap:buf={bufs[base['buffer']]},type={TMAP_TYPES[e['tensorDataType']]},"
                    f"dims={'x'.join(map(str, e['globalDim']))},box={'x'.join(map(str, e['boxDim']))},"
                    f"swizzle={SWIZZLES[e['swizzle']]}")
            if e["globalStrides_bytes"]:
                spec += f",strides={'x'.join(map(str, e['globalStrides_bytes']))}"
            if base["offset_bytes"]:
                spec += f",offset={base['offset_bytes']}"
            if e.get("oobFill", "NONE") != "NONE":
                spec += ",oob=nan"
            args += ["--arg", spec]
        elif k == "pointer":
            t = p.get("tensor")
            if not t:
                args += ["--arg", "null"]
            elif ptr_buf[t["buffer"]] is p:
                args += ["--arg", f"scratch:{_buf_bytes(t)}"]
            else:
                raise ValueError(f"{p['name']}: a second pointer into one buffer is not supported here")
        elif k == "int":
            v = p["value"]
            if not isinstance(v, int):
                raise ValueError(f"{p['name']}: integer parameter without a value ({v!r})")
            args += ["--arg", f"{'u64' if p['type'] in ('i64', 'u64') else 'u32'}:{v & 0xffffffffffffffff}"]
        elif k == "float":
            args += ["--arg", f"f32:{p['value']}"]
        elif k == "scratch":
            size = meta["global_scratch_size" if p["name"] == "global_scratch" else "profile_scratch_size"] or 0
            g = L["gridDim"]
            args += ["--arg", f"scratch:{size * g[0] * g[1] * g[2]}" if size else "null"]
        else:
            raise ValueError(f"{p['name']}: parameter kind {k}")
    out = ["--entry", meta["entry"], "--grid", ",".join(map(str, L["gridDim"])),
           "--block", ",".join(map(str, L["blockDim"]))]
    if L.get("clusterDim"):
        out += ["--cluster", ",".join(map(str, L["clusterDim"]))]
    out += ["--shared-bytes", str(L["dynamicSharedMemBytes"])]
    return out + pre + args


def block_of(ptx, num_warps):
    """threads a CTA: the PTX's .reqntid/.maxntid (warp-specialized kernels add their partitions' warps)"""
    m = re.search(r"\.(?:reqntid|maxntid)\s+(\d+)", ptx)
    return int(m.group(1)) if m else 32 * num_warps


# ----------------------------------------------------------------------------


def main():
    global CURRENT
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--test", required=True, help="python/test/gluon/test_consan.py of an upstream Triton checkout")
    ap.add_argument("--out", default=HERE)
    ap.add_argument("--only", default=None, help="regex on case ids")
    ap.add_argument("--commit", default="", help="the upstream commit the test file comes from (recorded)")
    ap.add_argument("--work", default="/tmp/tc5_consan_work",
                    help="Triton cache and the patched test file (its path is in the PTX's .file)")
    args = ap.parse_args()
    out = os.path.abspath(args.out)
    args.work = os.path.abspath(args.work)
    os.makedirs(os.path.join(out, "ptx"), exist_ok=True)
    os.makedirs(args.work, exist_ok=True)
    os.environ.setdefault("TRITON_CACHE_DIR", os.path.join(args.work, "triton_cache"))
    os.environ.pop("TRITON_INSTRUMENTATION_MODE", None)

    gtc.ARCH, gtc.ARCH_CAP = 100, (10, 0)
    gtc.make_fake_torch()
    make_fake_pytest()
    import triton
    from triton import knobs
    gtc.install_fake_driver()
    gtc.install_launch_hooks()
    make_fake_internal_testing()

    text = open(args.test).read()
    applied = []
    for old, new, why in RENAMES:
        n = text.count(old)
        if n:
            text = text.replace(old, new)
        applied.append((old, new, why, n))
    # a stable file name: Triton writes its absolute path into the PTX's debug info (.file), so the
    # corpus is reproduced byte for byte with the default --work
    path = os.path.join(args.work, "python", "test", "gluon", "test_consan.py")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "w").write(text)
    mod = types.ModuleType("test_consan")
    mod.__file__ = path
    sys.modules["test_consan"] = mod
    exec(compile(text, path, "exec"), mod.__dict__)

    report = [f"# gen_consan.py report: Triton {triton.__version__}, test_consan.py of {args.commit or '?'}", ""]
    report.append("## renames applied to test_consan.py")
    for old, new, why, n in applied:
        report.append(f"{old} -> {new} ({n} times): {why}")
    rows, skipped, failures = [], [], []
    ptx_names = {}  # sha -> file name
    tests = [(n, f) for n, f in mod.__dict__.items() if n.startswith("test_") and callable(f)]
    for name, fn in tests:
        if name in SELF_TESTS:
            skipped.append((name, "tests ConSan itself: " + SELF_TESTS[name]))
            continue
        arch = 90 if hopper_only(fn) else 100
        for cid, kw in expand(mod, name, fn):
            if args.only and not re.search(args.only, cid):
                continue
            CURRENT = c = _Case()
            mp = MonkeyPatch()
            call = dict(kw)
            for p in inspect.signature(fn).parameters:
                if p == "device":
                    call[p] = "cuda"
                elif p == "run_wrapper":
                    call[p] = True
                elif p == "monkeypatch":
                    call[p] = mp
                elif p == "fresh_knobs":
                    call[p] = knobs
            expect, classes = None, []
            try:
                if name in DIRECT:
                    # launches the kernel itself (no run_in_process) and checks what ConSan did to the outputs
                    expect, cls, _ = DIRECT[name]
                    classes = [cls]
                    with gtc.capture() as launches:
                        try:
                            fn(**call)
                        except (Skipped, gtc.LaunchBlocked):
                            raise
                        except Exception as e:  # the test's checks of the (fake) outputs
                            c.inner_error = f"{type(e).__name__}: {str(e)[:200]}"
                    c.launches = list(launches)
                else:
                    try:
                        c.mode = "pass"
                        fn(**call)
                        expect = "pass"
                    except AssertionError:
                        c.mode = "fail"
                        try:
                            fn(**call)
                        except AssertionError:
                            pass
                        expect = "fail"
            except Skipped as e:
                skipped.append((cid, f"skipped by the suite: {e}"))
                continue
            except Exception as e:
                failures.append((cid, f"{type(e).__name__}: {e}", traceback.format_exc()))
                print(f"[FAIL] {cid}: {type(e).__name__}: {str(e)[:300]}", flush=True)
                continue
            finally:
                mp.undo()
                os.environ.pop("TRITON_INSTRUMENTATION_MODE", None)
                knobs.refresh_knobs()
            if expect == "fail" and name not in DIRECT:
                for m in c.messages:
                    cl = [k for s, k in MESSAGES if s == m]
                    if not cl:
                        failures.append((cid, f"unknown ConSan message {m!r}", ""))
                    classes += cl
                if not classes:
                    classes = [k for r, k, _ in UNSTATED if re.search(r, cid)]
                if not classes:
                    failures.append((cid, "expected to fail without a ConSan message", ""))
                    continue
            if not c.launches or len(c.launches) != 1:
                failures.append((cid, f"{len(c.launches or [])} launches (one expected); {c.inner_error}", ""))
                continue
            try:
                gtc.ARCH, gtc.ARCH_CAP = arch, (arch // 10, arch % 10)
                knobs.compilation.instrumentation_mode = ""
                kernel, info = gtc.compile_launch(c.launches[0])
                ptx = kernel.asm["ptx"]
                md = kernel.metadata
                entry, ptx_params = gtc.ptx_entry_params(ptx)
                params = gtc.describe_params(info["signature"], info["bound"],
                                             getattr(md, "tensordesc_meta", None) or [])
                if len(params) != len(ptx_params):
                    raise ValueError(f"{len(params)} parameters described, the PTX has {len(ptx_params)}")
                gx, gy, gz = info["grid"]
                meta = {
                    "entry": entry, "params": params, "global_scratch_size": md.global_scratch_size,
                    "profile_scratch_size": getattr(md, "profile_scratch_size", 0) or 0, "cuda_launch": {
                        "gridDim": [gx * md.num_ctas, gy, gz], "blockDim": [block_of(ptx, md.num_warps), 1, 1],
                        "clusterDim": [md.num_ctas, 1, 1] if md.num_ctas != 1 else None, "dynamicSharedMemBytes":
                        md.shared
                    }
                }
                ra = run_args(meta)
            except Exception as e:
                failures.append((cid, f"compile: {type(e).__name__}: " + " | ".join(str(e).strip().splitlines()[-3:])[-600:], traceback.format_exc()))
                print(f"[FAIL] {cid}: compile: {type(e).__name__}: {str(e).strip()[:300]}", flush=True)
                continue
            finally:
                gtc.ARCH, gtc.ARCH_CAP = 100, (10, 0)
            sha = hashlib.sha1(ptx.encode()).hexdigest()
            if sha not in ptx_names:
                ptx_names[sha] = f"{name[5:]}_{sha[:8]}.ptx"
                with open(os.path.join(out, "ptx", ptx_names[sha]), "w") as f:
                    f.write(ptx)
            cls = "|".join(dict.fromkeys(classes)) if classes else "-"
            rows.append((cid, expect, cls, f"sm_{arch}", ptx_names[sha], " ".join(ra)))
            print(f"[ok] {cid}: {expect} {cls} sm_{arch} {ptx_names[sha]}", flush=True)
    nfail = sum(r[1] == "fail" for r in rows)
    with open(os.path.join(out, "manifest.tsv"), "w") as f:
        f.write("# ConSan's test kernels (python/test/gluon/test_consan.py of github zwu-2025/triton, "
                f"{args.commit or '?'}) compiled by Triton {triton.__version__} without ConSan: "
                "tests/data/consan/gen_consan.py.\n"
                f"# {len(rows)} cases: {nfail} ConSan expects to fail, {len(rows) - nfail} to pass; "
                f"{len(ptx_names)} distinct kernels in ptx/.\n"
                "# id\texpect\tconsan classes (classes.txt; | = any of)\tarch\tptx\ttc5 run arguments after the PTX\n")
        for r in rows:
            f.write("\t".join(r) + "\n")
    report += ["", f"## {len(rows)} cases written ({nfail} expect fail, {len(rows) - nfail} expect pass), "
               f"{len(ptx_names)} distinct PTX", "", f"## left out ({len(skipped)})"]
    report += [f"{i}: {why}" for i, why in skipped]
    report += ["", f"## failures ({len(failures)})"]
    for cid, msg, tb in failures:
        report.append(f"{cid}: {msg}")
    with open(os.path.join(out, "gen_report.txt"), "w") as f:
        f.write("\n".join(report) + "\n")
    print(f"{len(rows)} cases ({nfail} fail, {len(rows) - nfail} pass), {len(ptx_names)} PTX, "
          f"{len(skipped)} left out, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
