"""tc5.sweep and tc5.triton.tune (issue 48) on small kernels: the table's
rows (exact against the reference, the predicted time, the model's limit),
each bad input a row with its reason while the sweep goes on (an unknown
GPU, PTX that fails to compile, a kernel the checker flags, a Triton config
that does not compile), CSV/JSON out, `python -m tc5.sweep SPEC.json`, Ray
absent (an ImportError naming the extra); across nodes: a head and two
worker nodes (ray.cluster_utils.Cluster, 1 CPU each), a sweep through its
address equal to the local one, and a worker node killed by its raylet's
process id mid-sweep loses no point. The Ray tests skip without Ray
(pip install 'tc5[ray]'), the Triton ones without Triton. About 3 minutes
on two cores (Ray's start-ups most of it; the cluster test alone about 90 s)."""
import csv
import json
import os
import pathlib
import signal
import subprocess
import sys

import numpy as np
import pytest

import tc5
import tc5.sweep as S

HERE = pathlib.Path(__file__).resolve().parent
KERNEL = str(HERE / "sweep_kernels" / "tmem_roundtrip.py")
TIMING = ("predicted_us", "limit", "sampled", "ctas_per_sm", "waves")


def _ray():
    return pytest.importorskip("ray", reason="Ray is tc5's optional dependency: pip install 'tc5[ray]'")


@pytest.fixture(scope="module")
def local_ray():
    ray = _ray()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_grid_and_order():
    assert S.grid({"a": [1, 2], "b": ["x"]}) == [{"a": 1, "b": "x"}, {"a": 2, "b": "x"}]
    with pytest.raises(ValueError, match=r"params\['b'\]: a non-empty list"):
        S.grid({"a": [1], "b": []})
    rows = [dict(status="compile", predicted_us=None), dict(status="ok", predicted_us=5.0),
            dict(status="ok", predicted_us=2.0), dict(status="checker", predicted_us=1.0)]
    assert [(r["status"], r["predicted_us"]) for r in S.sort_rows(rows)] == [
        ("ok", 2.0), ("ok", 5.0), ("checker", 1.0), ("compile", None)]
    assert S.best(rows)["predicted_us"] == 2.0


def test_point_without_ray():
    """one point, evaluated in this process: checked, exact, predicted"""
    row = S.evaluate(dict(kernel=KERNEL, params={"wait": 1, "variant": "good"}, shape={"ctas": 4}, gpu="b200",
                          small={"ctas": 1}))
    assert row["status"] == "ok", row["reason"]
    assert row["exact"] is True and row["correct"] is True
    assert row["predicted_us"] > 0 and row["limit"] and row["sampled"] is False
    assert row["gpu"] == "b200" and row["ctas"] == 4 and row["wait"] == 1


def test_bad_points_are_rows():
    """each failure is a row with its reason: the checker, a compile error, an unknown GPU"""
    base = dict(kernel=KERNEL, shape={"ctas": 2}, small={"ctas": 1})
    r = S.evaluate(dict(base, params={"wait": 0, "variant": "good"}, gpu="b200"))
    assert r["status"] == "checker" and "tmem-st-unwaited" in r["reason"] and r["predicted_us"] is None
    r = S.evaluate(dict(base, params={"wait": 1, "variant": "broken"}, gpu="b200"))
    assert r["status"] == "compile" and "nonsense" in r["reason"], r
    r = S.evaluate(dict(base, params={"wait": 1, "variant": "good"}, gpu="a100"))
    assert r["status"] == "predict" and "a100" in r["reason"], r
    assert r["exact"] is True  # the functional run passed before the prediction failed
    r = S.evaluate(dict(base, kernel=str(HERE / "no_such_kernel.py"), params={}, gpu="b200"))
    assert r["status"] == "error" and "could not be loaded" in r["reason"]


def test_ray_absent_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ImportError, match=r"pip install 'tc5\[ray\]'"):
        S.sweep(KERNEL, {"wait": [1]}, [{"ctas": 1}])


def test_sweep_local(local_ray, tmp_path):
    rows = S.sweep(KERNEL, {"wait": [0, 1], "variant": ["good", "broken"]}, [{"ctas": 2}, {"ctas": 8}],
                   gpu=["b200", "a100"], small={"ctas": 1}, progress=False, out=str(tmp_path / "t.csv"))
    assert len(rows) == 16
    by = {(r["gpu"], r["ctas"], r["wait"], r["variant"]): r for r in rows}
    assert by[("b200", 8, 1, "good")]["status"] == "ok"
    assert by[("b200", 8, 1, "good")]["predicted_us"] >= by[("b200", 2, 1, "good")]["predicted_us"]
    assert all(by[("a100", c, 1, "good")]["status"] == "predict" for c in (2, 8))
    assert all(by[(g, c, 0, "good")]["status"] == "checker" for g in ("b200", "a100") for c in (2, 8))
    assert all(by[(g, c, w, "broken")]["status"] == "compile" for g in ("b200", "a100") for c in (2, 8)
               for w in (0, 1))
    assert [r["status"] for r in rows[:2]] == ["ok", "ok"]  # sorted: the two that passed first
    assert rows[0]["predicted_us"] <= rows[1]["predicted_us"]
    with open(tmp_path / "t.csv") as fh:
        table = list(csv.DictReader(fh))
    assert len(table) == 16 and table[0]["status"] == "ok" and float(table[0]["predicted_us"]) > 0
    S.write(rows, str(tmp_path / "t.json"))
    assert json.load(open(tmp_path / "t.json"))[0] == json.loads(json.dumps(rows[0], default=str))
    with pytest.raises(ValueError, match=r"\.csv or \.json"):
        S.write(rows, str(tmp_path / "t.txt"))


def test_cli_spec(tmp_path):
    _ray()
    spec = {"kernel": KERNEL, "params": {"wait": [1]}, "shapes": [{"ctas": 3}], "small": {"ctas": 1}, "gpu": "b200",
            "num_cpus": 1}
    (tmp_path / "s.json").write_text(json.dumps(spec))
    r = subprocess.run([sys.executable, "-m", "tc5.sweep", str(tmp_path / "s.json"), "-o", str(tmp_path / "o.json"),
                        "--no-progress"], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "tc5 sweep: 1 points, 1 ok" in r.stderr
    assert json.load(open(tmp_path / "o.json"))[0]["status"] == "ok"
    (tmp_path / "bad.json").write_text(json.dumps(dict(spec, shape=[{}])))
    r = subprocess.run([sys.executable, "-m", "tc5.sweep", str(tmp_path / "bad.json")], capture_output=True,
                       text=True)
    assert r.returncode != 0 and "the spec's key 'shape' is not one of" in r.stderr


def _strip(rows):
    return sorted((tuple(sorted((k, v) for k, v in r.items() if k not in ("eval_s", "cpu_s"))) for r in rows))


def test_cluster_kill_a_worker():
    """a head (no CPUs) and two worker nodes of one CPU each, 24 GB machine sizes; a sweep through the
    cluster's address equals the local one, and one worker node killed after the first point loses none"""
    _ray()
    from ray.cluster_utils import Cluster
    from ray._private import ray_constants
    params, shapes = {"wait": [1], "variant": ["good"]}, [{"ctas": c, "nap": 2} for c in (1, 2, 3, 4, 5, 6)]
    local = S.sweep(KERNEL, params, shapes, gpu="b200", small={"ctas": 1, "nap": 0}, progress=False, num_cpus=2)
    assert all(r["status"] == "ok" for r in local)
    gb = 1 << 30
    cluster = Cluster(initialize_head=True, head_node_args=dict(num_cpus=0, object_store_memory=gb // 2))
    try:
        workers = [cluster.add_node(num_cpus=1, object_store_memory=gb // 2) for _ in range(2)]
        cluster.wait_for_nodes()
        killed = []

        def kill_one(i, row):
            if not killed:
                pid = workers[0].all_processes[ray_constants.PROCESS_TYPE_RAYLET][0].process.pid
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)

        remote = S.sweep(KERNEL, params, shapes, gpu="b200", small={"ctas": 1, "nap": 0}, progress=False,
                         address=cluster.address, on_result=kill_one)
    finally:
        cluster.shutdown()
    assert killed
    assert _strip(remote) == _strip(local)


def test_tune_picks_by_the_model(local_ray):
    triton = pytest.importorskip("triton")
    import tc5.triton
    from sweep_kernels import triton_add
    x = np.arange(4096, dtype=np.float32)
    y, out = x * 2, np.zeros_like(x)
    configs = [triton.Config({"BLOCK": b}, num_warps=w) for b in (256, 1024) for w in (1, 4)]
    configs.append(triton.Config({"BLOCK": 300}, num_warps=4))  # not a power of 2: Triton refuses it
    best, table = tc5.triton.tune(triton_add.add, configs, x, y, out, x.size,
                                  grid=lambda m: (triton.cdiv(4096, m["BLOCK"]),), timing="b200", progress=False)
    assert len(table) == 5
    bad = [r for r in table if r["BLOCK"] == 300][0]
    assert bad["status"] == "compile" and bad["reason"], bad
    ok = [r for r in table if r["status"] == "ok"]
    assert len(ok) == 4 and all(r["predicted_us"] > 0 for r in ok)
    assert ok == sorted(ok, key=lambda r: r["predicted_us"])
    assert best.kwargs["BLOCK"] == ok[0]["BLOCK"] and best.num_warps == ok[0]["num_warps"]
    prune = tc5.triton.pruner(table, top=2)
    kept = prune(configs, {})
    # the two fastest, in the autotuner's own order
    assert sorted((c.kwargs["BLOCK"], c.num_warps) for c in kept) == sorted((r["BLOCK"], r["num_warps"]) for r in ok[:2])
