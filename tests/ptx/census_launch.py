"""The `tc5 run` command line of a Triton kernel of the census corpus
(tests/data/ptx/census/triton: NAME.ptx and its launch, NAME.json, written by
gen_triton_corpus.py from Triton's own launcher data), one place for the
tests and benchmarks that launch such a kernel from its JSON (issue 32's
tutorials 02/05, bench/bench_check_smem.py). Standard library only."""
import json
import os


def command(tc5, json_path, work, buffer, options=()):
    """(meta, argv): argv runs the kernel of json_path with `options` after the
    launch shape; buffer(param, path) gives each pointer parameter's --arg
    value for its file `path` under work (e.g. "in:PATH" after writing it,
    "out:PATH:BYTES"); integers pass as s32, floats as f32, scratch as null"""
    meta = json.load(open(json_path))
    args = []
    for p in meta["params"]:
        if p["kind"] == "pointer":
            args += ["--arg", buffer(p, os.path.join(work, p["name"] + ".bin"))]
        elif p["kind"] == "int":
            args += ["--arg", f"s32:{p['value']}"]
        elif p["kind"] == "float":
            args += ["--arg", f"f32:{p['value']!r}"]
        elif p["kind"] == "scratch":
            args += ["--arg", "null"]
    L = meta["cuda_launch"]
    argv = [tc5, "run", json_path[:-5] + ".ptx", "--entry", meta["entry"], "--grid", ",".join(map(str, L["gridDim"])),
            "--block", str(L["blockDim"][0]), "--shared-bytes", str(L["dynamicSharedMemBytes"])] + list(options)
    return meta, argv + args
