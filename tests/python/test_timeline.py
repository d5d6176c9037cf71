"""python -m tc5.timeline (issue 47's picture of a timing trace) on
synthetic Chrome trace-event files: tracks named by the metadata events,
complete and begin/end spans, "s"/"f" flows and bound (v2) flows, the
bare-array and cut-short forms, and bad input. Needs matplotlib (skipped
without it). About 3 s."""
import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("matplotlib")
from tc5 import timeline  # noqa: E402

TRACE = {
    "displayTimeUnit": "ns",
    "traceEvents": [
        {"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "CTA (0,0,0)"}},
        {"ph": "M", "name": "thread_name", "pid": 1, "tid": 0, "args": {"name": "warp 0"}},
        {"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "warp 1"}},
        {"ph": "M", "name": "thread_name", "pid": 1, "tid": 100, "args": {"name": "TMA"}},
        {"ph": "M", "name": "thread_name", "pid": 1, "tid": 101, "args": {"name": "tcgen05.mma"}},
        {"ph": "M", "name": "thread_sort_index", "pid": 1, "tid": 100, "args": {"sort_index": -1}},
        {"ph": "X", "name": "iteration 0", "cat": "loop", "pid": 1, "tid": 0, "ts": 0, "dur": 50},
        {"ph": "X", "name": "iteration 1", "cat": "loop", "pid": 1, "tid": 0, "ts": 50, "dur": 40},
        {"ph": "B", "name": "mbarrier.try_wait", "cat": "wait", "pid": 1, "tid": 1, "ts": 5},
        {"ph": "E", "pid": 1, "tid": 1, "ts": 30},
        {"ph": "X", "name": "cp.async.bulk.tensor", "cat": "tma", "pid": 1, "tid": 100, "ts": 2, "dur": 20},
        {"ph": "X", "name": "tcgen05.mma", "cat": "mma", "pid": 1, "tid": 101, "ts": 31, "dur": 12,
         "bind_id": 7, "flow_out": True},
        {"ph": "X", "name": "wait done", "cat": "wait", "pid": 1, "tid": 0, "ts": 60, "dur": 3,
         "bind_id": 7, "flow_in": True},
        {"ph": "s", "name": "complete_tx", "cat": "mbarrier", "id": 3, "pid": 1, "tid": 100, "ts": 22},
        {"ph": "f", "name": "complete_tx", "cat": "mbarrier", "id": 3, "pid": 1, "tid": 1, "ts": 30, "bp": "e"},
        {"ph": "i", "name": "an instant", "pid": 1, "tid": 0, "ts": 1},
    ],
}


def test_tracks_spans_flows():
    rows, spans, flows = timeline.tracks(timeline.load(TRACE))
    labels = [l for _, l in rows]
    # the TMA track sorts first (its thread_sort_index), then the warps in tid order
    assert labels == ["CTA (0,0,0) / TMA", "CTA (0,0,0) / warp 0", "CTA (0,0,0) / warp 1",
                      "CTA (0,0,0) / tcgen05.mma"]
    assert len(spans) == 6  # five complete events and one B/E pair
    assert ((1, 1), 5.0, 25.0, "mbarrier.try_wait", "wait") in spans
    assert sorted(flows) == sorted([((1, 100), 22.0, (1, 1), 30.0), ((1, 101), 43.0, (1, 0), 60.0)])


def test_draw_png(tmp_path):
    out = tmp_path / "t.png"
    fig = timeline.draw(TRACE, str(out), title="synthetic")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 2000
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()][0] == "CTA (0,0,0) / TMA"
    assert ax.get_xlabel() == "time (us)"
    assert len(ax.texts) == 2  # the two flows' arrows


def test_cli_array_form_and_cut_short(tmp_path):
    src = tmp_path / "trace.json"
    text = json.dumps(TRACE["traceEvents"])
    src.write_text(text[:-1].rstrip() + ",\n")  # the array form, cut short as the format allows
    out = tmp_path / "timeline.png"
    r = subprocess.run([sys.executable, "-m", "tc5.timeline", str(src), "-o", str(out)], capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
    assert "4 tracks, 6 spans, 2 flows" in r.stdout
    assert out.exists()


@pytest.mark.parametrize("content, message", [
    ('{"foo": 1}', "not a Chrome trace-event file"),
    ('[{"name": "x"}]', "trace event 0 is not an object with a 'ph'"),
    ('[]', "no spans and no tracks"),
])
def test_bad_input(tmp_path, content, message):
    src = tmp_path / "bad.json"
    src.write_text(content)
    r = subprocess.run([sys.executable, "-m", "tc5.timeline", str(src), "-o", str(tmp_path / "x.png")],
                       capture_output=True, text=True)
    assert r.returncode == 1 and message in r.stderr, r.stderr
    r = subprocess.run([sys.executable, "-m", "tc5.timeline", str(tmp_path / "missing.json")], capture_output=True,
                       text=True, cwd=tmp_path)
    assert r.returncode == 1 and "missing.json" in r.stderr
    assert not os.path.exists(tmp_path / "timeline.png")
