"""The Triton door under the timing model (issue 47's Python side):
tc5.triton.predict() and TC5_TIMING make do_bench / do_bench_cudagraph return
the predicted milliseconds of the function's launches, the door's
autotune_bench rank configs by them (so @triton.autotune picks by the
model), a function that launches nothing through tc5 gives NaN with a
warning, TC5_TRITON_ARCH=90 reports the Hopper part TC5_TIMING names, and
an unknown GPU is an error naming it. run_ptx(timing=) returns the
prediction beside what it returned before. NumPy only; skipped without
triton. About 20 s."""
import math
import warnings

import numpy as np
import pytest

triton = pytest.importorskip("triton")
import triton.language as tl  # noqa: E402

import tc5  # noqa: E402
import tc5.triton  # noqa: E402

tc5.triton.activate()


@triton.jit
def _add(x, y, out, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + i, tl.load(x + i, mask=i < n) + tl.load(y + i, mask=i < n), mask=i < n)


N = 1 << 16
X = np.arange(N, dtype=np.float32)
Y = np.ones(N, np.float32)
CONFIGS = [triton.Config({"BLOCK": 128}, num_warps=1), triton.Config({"BLOCK": 1024}, num_warps=4),
           triton.Config({"BLOCK": 4096}, num_warps=8)]


def _add_autotuned():
    """_add under @triton.autotune over CONFIGS: a new autotuner (its own cache of picks) each call"""
    return triton.autotune(configs=CONFIGS, key=["n"])(_add)


def _launch(block, warps, out=None):
    out = np.zeros(N, np.float32) if out is None else out
    _add[(triton.cdiv(N, block),)](X, Y, out, N, BLOCK=block, num_warps=warps)
    return out


def test_predict_collects_each_launch():
    with tc5.triton.predict("b200") as outer:
        with tc5.triton.predict("b200") as inner:
            out = _launch(4096, 8)  # 16 CTAs: never sampled, the outputs complete
        _launch(128, 1)  # 512 CTAs: the model runs a sample of them
    assert len(inner.launches) == 1 and len(outer.launches) == 2
    d = inner.launches[0]
    assert d["kernel"] == "_add" and d["gpu"] == "b200" and d["seconds"] > 0
    assert d["regs_from_ptxas"] is True and d["regs_per_thread"] > 0  # the cubin's count
    assert set(d["busy"]) == {"tensor core", "TMA", "shared memory", "L2/HBM", "SFU", "issue"}
    assert outer.seconds == pytest.approx(sum(x["seconds"] for x in outer.launches))
    assert np.array_equal(out, X + Y) and d["sampled"] is False
    assert outer.launches[1]["sampled"] is True and outer.launches[1]["ctas_total"] == 512
    assert tc5.triton.timing_gpu() is None  # off again after the block


def test_do_bench_is_the_prediction(monkeypatch):
    monkeypatch.setenv("TC5_TIMING", "b200")
    with tc5.triton.predict() as bench:  # collects do_bench's launch too
        ms = triton.testing.do_bench(lambda: _launch(1024, 4))
    with tc5.triton.predict() as warm:  # predict() and tc5 run: a warm L2 by default
        _launch(1024, 4)
    monkeypatch.setenv("TC5_TIMING_L2", "cold")
    with tc5.triton.predict() as cold:
        _launch(1024, 4)
    monkeypatch.delenv("TC5_TIMING_L2")
    # do_bench flushes the L2 (cold): its 768 KiB come from DRAM; graph
    # replay finds them in a warm L2 (none from DRAM)
    assert ms == pytest.approx(cold.ms) and 0 < ms < 1
    assert cold.launches[0]["dram_bytes"] == 3 * N * 4 and warm.launches[0]["dram_bytes"] == 0
    assert bench.launches[0]["dram_bytes"] == 3 * N * 4
    with tc5.triton.predict() as graph:
        q = triton.testing.do_bench_cudagraph(lambda: _launch(1024, 4), quantiles=[0.5, 0.2, 0.8])
    assert graph.launches[0]["dram_bytes"] == 0 and q == pytest.approx([warm.ms] * 3)
    monkeypatch.setenv("TC5_TIMING_L2", "warm")  # the user's choice wins
    with tc5.triton.predict() as user:
        triton.testing.do_bench(lambda: _launch(1024, 4))
    assert user.launches[0]["dram_bytes"] == 0
    monkeypatch.delenv("TC5_TIMING_L2")
    assert "TC5_TIMING_L2" not in __import__("os").environ
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        tc5.triton._no_prediction_warned = False
        assert math.isnan(triton.testing.do_bench(lambda: X + Y))
    assert any("launched no kernel through tc5" in str(x.message) for x in w)


def test_autotune_picks_by_the_model(monkeypatch):
    monkeypatch.setenv("TC5_TIMING", "b200")
    predicted = {}
    monkeypatch.setenv("TC5_TIMING_L2", "cold")  # the autotuner's benchmarker is do_bench: L2 flushed
    for c in CONFIGS:
        with tc5.triton.predict() as p:
            _launch(c.kwargs["BLOCK"], c.num_warps)
        predicted[(c.kwargs["BLOCK"], c.num_warps)] = p.seconds
    monkeypatch.delenv("TC5_TIMING_L2")
    assert len(set(predicted.values())) == 3  # the configs do not tie
    add_tuned = _add_autotuned()
    out = np.zeros(N, np.float32)
    add_tuned[lambda m: (triton.cdiv(N, m["BLOCK"]),)](X, Y, out, N)
    b = add_tuned.best_config
    assert (b.kwargs["BLOCK"], b.num_warps) == min(predicted, key=predicted.get)
    assert np.array_equal(out, X + Y)


def test_autotune_model_alone(monkeypatch):
    """TC5_TRITON_AUTOTUNE=b200 without TC5_TIMING: the configs are ranked by
    the model (each run sampled: every config's grid here is larger than the
    sample) and the launch after tuning runs whole, without the model"""
    n = 1 << 18  # 64 CTAs of the largest block: each config's benchmark samples 16
    x, y = np.arange(n, dtype=np.float32), np.full(n, 2, np.float32)
    monkeypatch.setenv("TC5_TIMING_L2", "cold")
    predicted = {}
    for c in CONFIGS:
        with tc5.triton.predict("b200") as p:
            _add[(triton.cdiv(n, c.kwargs["BLOCK"]),)](x, y, np.zeros(n, np.float32), n, BLOCK=c.kwargs["BLOCK"],
                                                       num_warps=c.num_warps)
        assert p.launches[0]["sampled"] is True
        predicted[(c.kwargs["BLOCK"], c.num_warps)] = p.ms
    monkeypatch.delenv("TC5_TIMING_L2")
    monkeypatch.delenv("TC5_TIMING", raising=False)
    monkeypatch.setenv("TC5_TRITON_AUTOTUNE", "b200")
    assert tc5.triton.timing_gpu() is None and tc5.triton.autotune_gpu() == "b200"
    add_ranked = _add_autotuned()
    out = np.zeros(n, np.float32)
    add_ranked[lambda m: (triton.cdiv(n, m["BLOCK"]),)](x, y, out, n)
    timings = {(c.kwargs["BLOCK"], c.num_warps): t[0] for c, t in add_ranked.configs_timings.items()}
    assert timings == pytest.approx(predicted)  # every config benchmarked, by the model
    b = add_ranked.best_config
    assert (b.kwargs["BLOCK"], b.num_warps) == min(predicted, key=predicted.get)
    assert np.array_equal(out, x + y)  # the picked config's launch ran whole
    monkeypatch.setenv("TC5_TRITON_AUTOTUNE", "first")
    assert tc5.triton.autotune_gpu() is None and not tc5.triton.ranks_configs()


def test_hopper_part_and_bad_gpu(monkeypatch):
    monkeypatch.setenv("TC5_TRITON_ARCH", "90")
    monkeypatch.setenv("TC5_TIMING", "h200")
    assert tc5.triton.device() == tc5.triton.H200
    props = triton.runtime.driver.active.utils.get_device_properties(0)
    assert props["mem_bus_width"] == 6144 and props["multiprocessor_count"] == 132
    monkeypatch.setenv("TC5_TIMING", "h100")
    assert tc5.triton.device() == tc5.triton.H100
    monkeypatch.delenv("TC5_TRITON_ARCH")
    monkeypatch.setenv("TC5_TIMING", "a100")
    with pytest.raises(tc5.InvalidArgumentError, match="a100"):
        _launch(1024, 4)
    monkeypatch.setenv("TC5_TIMING", "h100")  # sm_100a PTX on a Hopper part
    with pytest.raises(tc5.InvalidArgumentError, match="h100"):
        _launch(1024, 4)


def test_run_ptx_timing_return_shape():
    ptx, _ = tc5.triton.compile(_add, X, Y, np.zeros(N, np.float32), N, BLOCK=1024)
    out = np.zeros(N, np.float32)
    r = tc5.run_ptx(ptx, N // 1024, 128, [X, Y, out, N, None, None], timing="b200",
                    timing_sample=tc5.TIMING_SAMPLE_ALL)
    findings, printed = r  # unpacks as before
    assert findings == [] and printed == "" and r.findings is findings
    t = r.timing
    assert t["gpu"] == "b200" and t["seconds"] > 0 and t["sampled"] is False and t["ctas_total"] == N // 1024
    assert "tc5 run: timing: predicted" in t["text"] and t["limit"] in list(t["busy"]) + ["latency"]
    assert np.array_equal(out, X + Y)  # every CTA ran
    assert tc5.run_ptx(ptx, N // 1024, 128, [X, Y, out, N, None, None]).timing is None
    r = tc5.run_ptx(ptx, N // 1024, 128, [X, Y, out, N, None, None], timing="b200", timing_sample=2)
    assert r.timing["sampled"] is True and r.timing["ctas_simulated"] < N // 1024
    with pytest.raises(TypeError, match="timing: a GPU's name"):
        tc5.run_ptx(ptx, 1, 128, [X, Y, out, N, None, None], timing=100)
