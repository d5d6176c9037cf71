"""Sweeps: a kernel over a grid of meta-parameters x shapes, each point
compiled, run on small inputs with the checker on (correct? exact against
the reference?) and its full-size time predicted by the timing model, on
Ray (issue 48; docs/sweeps.md).

    import tc5.sweep
    rows = tc5.sweep.sweep("kernels/matmul.py", {"BLOCK_K": [64, 128], "num_warps": [4, 8]},
                           shapes=[{"M": 8192, "N": 8192, "K": 4096}], small={"M": 256, "N": 256, "K": 512},
                           gpu="b200")
    tc5.sweep.write(rows, "table.csv")

    python -m tc5.sweep SPEC.json [-o table.csv] [--address ADDR]

The kernel is a module (a file path or a module name, imported on each
worker) or an object, with:

  inputs(shape, seed) -> dict of NumPy arrays (or CPU tensors): the
      launch's buffers, inputs and outputs, for a shape (a dict);
  launch(arrays, shape, **params): the launch(es), through the Triton door
      (kernel[grid](...): Triton or Gluon; tc5.triton is active on the
      workers), or
  ptx(shape, **params) -> dict(ptx=TEXT, grid=..., block=..., args=[...],
      shared_bytes=..., cluster=...): a given PTX, run by tc5.run_ptx (an
      argument that is a str names an array of inputs());
  reference(arrays, shape) -> dict of expected arrays (optional): compared
      with the small run's outputs, bit for bit ("exact") and within
      rtol/atol ("correct");
  flops(shape) -> float (optional): the TFLOP/s column.

Each point gives a row (a dict): the parameters, the shape, the GPU,
`status` (ok, compile, checker, wrong, predict, error), `correct`,
`exact`, `predicted_us`, `tflops`, the model's `limit`, `sampled`,
`ctas_per_sm`, `waves`, `reason` (why a point failed: its error's first
lines), `eval_s` (the point's wall seconds) and `cpu_s` (its CPU seconds,
every thread of the worker's). Rows come sorted by
predicted time, the points that failed last. Ray runs the points as tasks:
a local Ray of this machine's cores, or a cluster (address=, RAY_ADDRESS);
a task whose worker or node died is run again (max_retries); Triton's
compilation cache and tc5's ptxas cache are on disk, keyed by content, so
a point whose kernel did not change is not compiled again.
"""
from __future__ import annotations

import csv
import importlib
import importlib.util
import itertools
import json
import math
import os
import sys
import time
import traceback

from . import _ray

STATUS_ORDER = ("ok", "wrong", "checker", "predict", "compile", "error")
COLUMNS = ("gpu", "status", "correct", "exact", "predicted_us", "tflops", "limit", "sampled", "ctas_per_sm",
           "waves", "reason", "eval_s", "cpu_s")


def grid(params: dict) -> list[dict]:
    """every combination of the parameters' values (a dict name -> list), in order"""
    names = list(params)
    for n in names:
        if not isinstance(params[n], (list, tuple)) or not params[n]:
            raise ValueError(f"params[{n!r}]: a non-empty list of values, not {params[n]!r}")
    return [dict(zip(names, vals)) for vals in itertools.product(*(params[n] for n in names))]


# ---------------------------------------------------------------------------
# one point (runs on a Ray worker)
# ---------------------------------------------------------------------------

_loaded: dict = {}


def load_kernel(ref):
    """the kernel object of a reference: an object as it is; "path/file.py"
    (imported as a module of its own name, not __main__), "pkg.module", and
    either with ":attr" for an attribute of it"""
    if not isinstance(ref, str):
        return ref
    if ref in _loaded:
        return _loaded[ref]
    path, attr = ref.rsplit(":", 1) if ":" in ref else (ref, "")
    if path.endswith(".py") or os.sep in path:
        name = "tc5_sweep_" + os.path.splitext(os.path.basename(path))[0].replace("-", "_")
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None:
            raise FileNotFoundError(f"tc5.sweep: the kernel {path!r} is no Python file")
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
    else:
        mod = importlib.import_module(path)
    obj = getattr(mod, attr) if attr else mod
    _loaded[ref] = obj
    return obj


def _reason(e: BaseException) -> str:
    """an error's type and first lines (a row's reason)"""
    text = f"{type(e).__name__}: {e}".strip()
    lines = [l for l in text.splitlines() if l.strip()]
    return " | ".join(lines[:4])[:600]


def _phase_of(e: BaseException, phase: str) -> str:
    """the status of a point that raised e in phase ("run" or "predict")"""
    mod = type(e).__module__ or ""
    name = type(e).__name__
    msg = str(e)
    if name == "HazardError":
        return "checker"
    if mod.startswith("triton") or "PassManager::run failed" in msg or "ptxas" in msg or name == "OutOfResources":
        return "compile"
    if name == "Refused" or "tc5 cannot run this config" in msg:
        return "compile"
    if name in ("ParseError", "UnsupportedError") and phase == "run":  # tc5 cannot load the given PTX
        return "compile"
    return "predict" if phase == "predict" else "error"


class _Env:
    """environment variables set for a block (the worker runs one point at a time)"""

    def __init__(self, **kv):
        self.kv = {k: v for k, v in kv.items()}

    def __enter__(self):
        self.old = {k: os.environ.get(k) for k in self.kv}
        for k, v in self.kv.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = str(v)

    def __exit__(self, *exc):
        for k, v in self.old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        return False


def _as_numpy(x):
    import numpy as np
    if hasattr(x, "detach") and hasattr(x, "numpy"):
        return x.detach().numpy()
    return np.asarray(x)


def _compare(arrays, expected: dict, rtol: float, atol: float):
    """(exact, correct, reason) of the outputs against the reference"""
    import numpy as np
    exact = correct = True
    why = []
    for name, want in expected.items():
        if name not in arrays:
            raise KeyError(f"reference() names {name!r}, which inputs() did not make")
        got, want = _as_numpy(arrays[name]), _as_numpy(want)
        if got.shape != want.shape:
            raise ValueError(f"reference() gives {name!r} of shape {want.shape}, the kernel's is {got.shape}")
        same = got.dtype == want.dtype and np.array_equal(got.view(np.uint8), want.view(np.uint8))
        if not same:
            exact = False
            g, w = got.astype(np.float64), want.astype(np.float64)
            bad = ~np.isclose(g, w, rtol=rtol, atol=atol, equal_nan=True)
            n = int(bad.sum())
            if n:
                correct = False
                i = np.unravel_index(int(np.argmax(bad)), bad.shape)
                why.append(f"{name}: {n} of {bad.size} elements differ beyond rtol={rtol} atol={atol} "
                           f"(first at {tuple(int(v) for v in i)}: {g[i]!r}, the reference {w[i]!r})")
            else:
                ndiff = int((g != w).sum())
                why.append(f"{name}: {ndiff} of {g.size} elements not bit-exact (within rtol={rtol} atol={atol})")
    return exact, correct, "; ".join(why)


def _launch(k, arrays, shape, params, gpu=None, check="default"):
    """the kernel's launch(es): the door's (launch) or a given PTX (ptx); the
    prediction (a list of timing dicts) when gpu is named"""
    if hasattr(k, "ptx"):
        import tc5
        d = dict(k.ptx(shape, **params))
        args = [arrays[a] if isinstance(a, str) else a for a in d.pop("args")]
        text, g, b = d.pop("ptx"), d.pop("grid"), d.pop("block")
        r = tc5.run_ptx(text, g, b, args, check=check, timing=gpu if gpu else "none", **d)
        errs = [f for f in r.findings if not f.get("warning")]
        if errs:  # the door raises these; run_ptx returns them
            f = errs[0]
            e = tc5.HazardError(f"[{f['rule']}] at line {f['line']}: {f['text'].strip()}")
            e.findings = r.findings
            raise e
        return [dict(r.timing, kernel=d.get("name", "kernel"))] if gpu and r.timing else []
    from . import triton as door
    door.activate()
    if gpu is None:
        k.launch(arrays, shape, **params)
        return []
    with door.predict(gpu) as p:
        k.launch(arrays, shape, **params)
    return p.launches


def _arch_env(gpu: str):
    """TC5_TRITON_ARCH for the GPU a point predicts for (90: a Hopper part)"""
    return {"TC5_TRITON_ARCH": "90" if str(gpu).lower() in ("h100", "h200") else None}


def evaluate(task: dict) -> dict:
    """one point: compile and run on the small shape with the checker
    (compared with the reference), then the full shape with the timing
    model; a row (never raises: a failure is a row with its reason)"""
    t0, c0 = time.perf_counter(), time.process_time()
    params, shape, gpu = task["params"], task["shape"], task["gpu"]
    row = dict(params)
    row.update(shape)
    row.update({c: None for c in COLUMNS})
    row.update(gpu=gpu, status="ok", reason="")
    try:
        k = load_kernel(task["kernel"])
    except Exception as e:
        row.update(status="error", reason="the kernel could not be loaded: " + _reason(e))
        row["eval_s"] = round(time.perf_counter() - t0, 3)
        row["cpu_s"] = round(time.process_time() - c0, 3)
        return row
    seed = task.get("seed", 0)
    phase = "run"
    try:
        with _Env(TC5_TRITON_CHECK=task.get("check", "default"), TC5_TRITON_FINDINGS="raise", TC5_TIMING=None,
                  **_arch_env(gpu)):
            small = task.get("small")
            if small is not None:
                sshape = dict(shape, **small)
                arrays = k.inputs(sshape, seed)
                _launch(k, arrays, sshape, params, None, task.get("check", "default"))
                ref = getattr(k, "reference", None)
                if ref is not None:
                    exact, correct, why = _compare(arrays, ref(arrays, sshape), task.get("rtol", 0.0),
                                                   task.get("atol", 0.0))
                    row.update(exact=exact, correct=correct)
                    if not correct:
                        row.update(status="wrong", reason=why)
                    elif why:
                        row["reason"] = why
                else:
                    row["correct"] = True  # the checker found nothing; no reference named
                del arrays
            phase = "predict"
            arrays = k.inputs(shape, seed)
            launches = _launch(k, arrays, shape, params, gpu, task.get("check", "default"))
            del arrays
        if not launches:
            raise RuntimeError("the point launched no kernel: nothing to predict")
        secs = sum(d["seconds"] for d in launches)
        main = max(launches, key=lambda d: d["seconds"])
        row.update(predicted_us=round(secs * 1e6, 3), limit=main.get("limit"),
                   sampled=any(d.get("sampled") for d in launches), ctas_per_sm=main.get("ctas_per_sm"),
                   waves=main.get("waves"))
        fl = getattr(k, "flops", None)
        if fl is not None and secs > 0:
            row["tflops"] = round(fl(shape) / secs / 1e12, 1)
    except Exception as e:
        row.update(status=_phase_of(e, phase), reason=_reason(e))
        if os.environ.get("TC5_SWEEP_TRACEBACK"):
            row["reason"] += "\n" + traceback.format_exc()
    row["eval_s"] = round(time.perf_counter() - t0, 3)
    row["cpu_s"] = round(time.process_time() - c0, 3)  # the worker's CPU seconds, every thread's
    return row


def _failed(task: dict, e: BaseException) -> dict:
    """the row of a point whose task Ray gave up on (its worker died on every try)"""
    row = dict(task["params"])
    row.update(task["shape"])
    row.update({c: None for c in COLUMNS})
    row.update(gpu=task["gpu"], status="error", reason="Ray: the task failed: " + _reason(e))
    return row


def sort_rows(rows: list[dict]) -> list[dict]:
    """fastest first; the points that failed after, by status"""
    def key(r):
        s = STATUS_ORDER.index(r["status"]) if r["status"] in STATUS_ORDER else len(STATUS_ORDER)
        t = r.get("predicted_us")
        return (s, math.inf if t is None else t)
    return sorted(rows, key=key)


def sweep(kernel, params: dict, shapes=({},), *, gpu="b200", small: dict | None = None, rtol: float = 0.0,
          atol: float = 0.0, check: str = "default", seed: int = 0, address: str | None = None,
          max_retries: int = 3, progress: bool = True, runtime_env: dict | None = None, out: str | None = None,
          num_cpus: int | None = None, on_result=None) -> list[dict]:
    """Every point of params (a dict name -> list of values) x shapes (a list
    of dicts) x gpu (a name or a list): a row each (see the module's text),
    sorted by predicted time. small: the shape (or the entries that differ
    from each full shape) the functional run uses (None: no functional
    run). address: a Ray cluster (else RAY_ADDRESS; else a local Ray of
    num_cpus cores). out: also write the table (.csv or .json).
    on_result(i, row): called as each point's row arrives."""
    gpus = [gpu] if isinstance(gpu, str) else list(gpu)
    shapes = [dict(s) for s in shapes]
    tasks = [dict(kernel=kernel, params=p, shape=s, gpu=g, small=small, rtol=rtol, atol=atol, check=check,
                  seed=seed) for g in gpus for s in shapes for p in grid(params)]
    rows = _ray.map_tasks(evaluate, tasks, address=address, max_retries=max_retries, progress=progress,
                          desc="tc5 sweep", runtime_env=runtime_env, failed=_failed, ray_num_cpus=num_cpus,
                          on_result=on_result)
    rows = sort_rows(rows)
    if out:
        write(rows, out)
    return rows


def best(rows: list[dict]) -> dict | None:
    """the fastest row that passed (None when none did)"""
    ok = [r for r in rows if r["status"] == "ok" and r.get("predicted_us") is not None]
    return min(ok, key=lambda r: r["predicted_us"]) if ok else None


def write(rows: list[dict], path: str) -> None:
    """the table as CSV (path ending .csv) or JSON (.json)"""
    if path.endswith(".json"):
        with open(path, "w") as fh:
            json.dump(rows, fh, indent=1, default=str)
            fh.write("\n")
        return
    if not path.endswith(".csv"):
        raise ValueError(f"tc5.sweep.write: {path!r}: a .csv or .json file")
    cols = list(dict.fromkeys(c for r in rows for c in r))
    with open(path, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=cols)
        w.writeheader()
        for r in rows:
            w.writerow({k: ("" if v is None else v) for k, v in r.items()})


def markdown(rows: list[dict], columns=None) -> str:
    """the table as Markdown (docs/sweeps.md)"""
    cols = columns or [c for c in dict.fromkeys(c for r in rows for c in r) if c not in ("eval_s", "cpu_s")]
    out = ["| " + " | ".join(cols) + " |", "| " + " | ".join("---" for _ in cols) + " |"]
    for r in rows:
        out.append("| " + " | ".join("" if r.get(c) is None else str(r.get(c)).replace("|", "/")
                                     for c in cols) + " |")
    return "\n".join(out)


# ---------------------------------------------------------------------------
# autotuning: triton.Config's on Ray (tc5.triton.tune)
# ---------------------------------------------------------------------------

def _kernel_ref(kernel):
    """(file, name) the worker imports a @triton.jit / @gluon.jit kernel by"""
    fn = getattr(kernel, "fn", kernel)
    import inspect
    path = inspect.getsourcefile(fn)
    if path is None:
        raise ValueError(f"tc5.triton.tune: {fn!r} has no source file to import on a worker")
    return path, fn.__name__


def _config_dict(c) -> dict:
    """a triton.Config's meta-parameters and options, as one dict"""
    d = dict(getattr(c, "kwargs", {}) or {})
    for opt in ("num_warps", "num_stages", "num_ctas", "maxnreg"):
        v = getattr(c, opt, None)
        if v is not None:
            d[opt] = v
    return d


def _tune_point(task: dict) -> dict:
    """one config of tune(): the launch with the timing model (a row)"""
    import numpy as np
    t0 = time.perf_counter()
    cfg = dict(task["config"])
    row = dict(cfg)
    row.update({c: None for c in ("status", "predicted_us", "limit", "sampled", "reason", "eval_s")})
    row.update(status="ok", reason="", gpu=task["gpu"])
    try:
        path, name = task["kernel"]
        kernel = getattr(load_kernel(path), name)
        # Ray's object store hands arrays over read-only: the kernel gets its own writable copies
        args = [np.array(a) if isinstance(a, np.ndarray) and not a.flags.writeable else a for a in task["args"]]
        g = task["grid"]
        from . import triton as door
        door.activate()
        with _Env(TC5_TRITON_CHECK=task.get("check", "default"), TC5_TRITON_FINDINGS="raise", TC5_TIMING=None,
                  **_arch_env(task["gpu"])):
            launch_grid = g(cfg) if callable(g) else g
            with door.predict(task["gpu"]) as p:
                kernel[launch_grid](*args, **cfg)
        if not p.launches:
            raise RuntimeError("the config launched no kernel")
        main = max(p.launches, key=lambda d: d["seconds"])
        row.update(predicted_us=round(p.seconds * 1e6, 3), limit=main.get("limit"),
                   sampled=any(d.get("sampled") for d in p.launches))
    except Exception as e:
        row.update(status=_phase_of(e, "predict"), reason=_reason(e))
    row["eval_s"] = round(time.perf_counter() - t0, 3)
    return row


def tune(kernel, configs, *args, grid, timing: str = "b200", address: str | None = None, max_retries: int = 3,
         progress: bool = True, check: str = "default", runtime_env: dict | None = None,
         num_cpus: int | None = None):
    """Each triton.Config of configs: kernel[grid](*args, **config) through
    the door with the timing model for `timing`, as Ray tasks; returns
    (the best triton.Config, the table: a dict a config with its
    predicted_us, status and reason, fastest first). grid: a tuple or
    Triton's callable of the meta-parameters. The kernel's module is
    imported on each worker (by its file); args travel through Ray's object
    store (arrays, numbers). Hand the result to @triton.autotune as
    configs=[best] (pinned) or prune_configs_by={"early_config_prune":
    tc5.triton.pruner(table, top=k)} (docs/sweeps.md)."""
    ref = _kernel_ref(kernel)
    configs = list(configs)
    tasks = [dict(kernel=ref, config=_config_dict(c), args=list(args), grid=grid, gpu=timing, check=check)
             for c in configs]
    rows = _ray.map_tasks(_tune_point, tasks, address=address, max_retries=max_retries, progress=progress,
                          desc="tc5 tune", runtime_env=runtime_env, ray_num_cpus=num_cpus,
                          failed=lambda t, e: dict(t["config"], status="error", predicted_us=None,
                                                   reason="Ray: the task failed: " + _reason(e), gpu=t["gpu"]))
    for i, r in enumerate(rows):
        r["config"] = i
    rows = sort_rows(rows)
    b = best(rows)
    return (configs[b["config"]] if b else None), rows


def pruner(table: list[dict], top: int = 1):
    """an early_config_prune (Triton's prune_configs_by) that keeps, of the
    configs the autotuner is given, those among tune()'s `top` fastest
    (matched by their meta-parameters and options)"""
    keep = [{k: v for k, v in r.items() if k not in ("status", "predicted_us", "limit", "sampled", "reason",
                                                      "eval_s", "gpu", "config")}
            for r in table if r["status"] == "ok"][:top]

    def early_config_prune(configs, named_args, **kwargs):
        chosen = [c for c in configs if _config_dict(c) in keep]
        return chosen or list(configs)[:1]

    return early_config_prune


# ---------------------------------------------------------------------------
# python -m tc5.sweep SPEC.json
# ---------------------------------------------------------------------------

SPEC_KEYS = {"kernel", "params", "shapes", "gpu", "small", "rtol", "atol", "check", "seed", "address",
             "max_retries", "out", "env", "num_cpus", "columns"}


def run_spec(spec: dict, *, out: str | None = None, address: str | None = None, progress: bool = True):
    """a sweep from a spec (the JSON file's dict): its keys are sweep()'s
    arguments (kernel, params, shapes, gpu, small, rtol, atol, check, seed,
    address, max_retries, out, num_cpus) and env (variables the workers get,
    through Ray's runtime_env). A relative kernel path is the spec file's."""
    bad = sorted(set(spec) - SPEC_KEYS)
    if bad:
        raise ValueError(f"the spec's key {bad[0]!r} is not one of {', '.join(sorted(SPEC_KEYS))}")
    for key in ("kernel", "params"):
        if key not in spec:
            raise ValueError(f"the spec has no {key!r}")
    env = spec.get("env") or {}
    runtime_env = {"env_vars": {k: str(v) for k, v in env.items()}} if env else None
    os.environ.update({k: str(v) for k, v in env.items()})  # a local Ray's workers inherit them too
    t = time.perf_counter()
    rows = sweep(spec["kernel"], spec["params"], spec.get("shapes", [{}]), gpu=spec.get("gpu", "b200"),
                 small=spec.get("small"), rtol=spec.get("rtol", 0.0), atol=spec.get("atol", 0.0),
                 check=spec.get("check", "default"), seed=spec.get("seed", 0),
                 address=address or spec.get("address"), max_retries=spec.get("max_retries", 3),
                 progress=progress, runtime_env=runtime_env, out=out or spec.get("out"),
                 num_cpus=spec.get("num_cpus"))
    return rows, time.perf_counter() - t


def main(argv=None) -> int:
    import argparse
    ap = argparse.ArgumentParser(prog="python -m tc5.sweep", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("spec", help="the sweep's JSON spec (docs/sweeps.md)")
    ap.add_argument("-o", "--out", help="write the table here (.csv or .json)")
    ap.add_argument("--address", help="a Ray cluster (default: the spec's, RAY_ADDRESS, else a local Ray)")
    ap.add_argument("--no-progress", action="store_true")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    a = ap.parse_args(argv)
    with open(a.spec) as fh:
        spec = json.load(fh)
    k = spec.get("kernel")
    if isinstance(k, str) and (k.endswith(".py") or os.sep in k.split(":")[0]) and not os.path.isabs(k):
        spec["kernel"] = os.path.join(os.path.dirname(os.path.abspath(a.spec)), k)
    rows, wall = run_spec(spec, out=a.out, address=a.address, progress=not a.no_progress)
    cols = spec.get("columns")
    if a.markdown:
        print(markdown(rows, cols))
    else:
        for r in rows:
            print(json.dumps(r, default=str))
    b = best(rows)
    n = {s: sum(r["status"] == s for r in rows) for s in STATUS_ORDER}
    print(f"tc5 sweep: {len(rows)} points, " + ", ".join(f"{v} {s}" for s, v in n.items() if v)
          + f"; wall {wall:.1f} s", file=sys.stderr)
    if b:
        print("tc5 sweep: best: " + json.dumps({c: b[c] for c in b if c not in COLUMNS or c in
                                                ("predicted_us", "tflops", "limit")}, default=str), file=sys.stderr)
    return 0 if b else 1


if __name__ == "__main__":
    sys.exit(main())
