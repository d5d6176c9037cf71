"""A timing trace as a picture: `python -m tc5.timeline FILE.json -o
timeline.png` draws a Chrome trace-event file (what `tc5 run
--timing-trace`, `tc5.run_ptx(timing_trace=)` and TC5_TIMING_TRACE write;
Perfetto opens the same file) with matplotlib: one row per track (a
process/thread pair: a warp, an asynchronous unit), each span a bar
coloured by its category (or name), each flow (an mbarrier wait linked to
the operation that completes it) an arrow from its start to its end.

Read: the JSON object form ({"traceEvents": [...]}) or the bare array.
Spans: complete events (ph "X": ts, dur) and begin/end pairs ("B"/"E",
matched per track). Flows: "s" -> "f" (and "t" steps) events of one id (of
one cat, as the format binds them), and complete events carrying
bind_id/flow_out/flow_in (Perfetto's v2 flows). Track names: the "M"
metadata events process_name and thread_name (and their sort_index).
Times are the format's microseconds (displayTimeUnit changes only how a
viewer prints them).
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict

__all__ = ["load", "tracks", "draw", "main"]


def load(path_or_obj) -> list[dict]:
    """the events of a trace-event file (a path, a file object or the parsed JSON)"""
    if isinstance(path_or_obj, (list, dict)):
        data = path_or_obj
    elif hasattr(path_or_obj, "read"):
        data = json.load(path_or_obj)
    else:
        with open(path_or_obj) as fh:
            text = fh.read()
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            # the format allows an unterminated array (a trace cut short)
            data = json.loads(text.rstrip().rstrip(",") + "]")
    events = data.get("traceEvents") if isinstance(data, dict) else data
    if not isinstance(events, list):
        raise ValueError("not a Chrome trace-event file: neither a JSON array nor an object with traceEvents")
    for i, e in enumerate(events):
        if not isinstance(e, dict) or "ph" not in e:
            raise ValueError(f"trace event {i} is not an object with a 'ph' (phase): {e!r}"[:200])
    return events


def tracks(events: list[dict]):
    """(rows, spans, flows): rows a list of (key, label) in drawing order
    (top first); spans (key, start, duration, name, category); flows
    (key_from, t_from, key_to, t_to)"""
    pname, tname, psort, tsort = {}, {}, {}, {}
    for e in events:
        if e["ph"] != "M":
            continue
        a = e.get("args") or {}
        key = (e.get("pid", 0), e.get("tid", 0))
        if e.get("name") == "process_name":
            pname[key[0]] = str(a.get("name", key[0]))
        elif e.get("name") == "thread_name":
            tname[key] = str(a.get("name", key[1]))
        elif e.get("name") == "process_sort_index":
            psort[key[0]] = a.get("sort_index", 0)
        elif e.get("name") == "thread_sort_index":
            tsort[key] = a.get("sort_index", 0)
    spans, open_b = [], defaultdict(list)
    flow_pts = defaultdict(list)  # (cat, id) -> [(ph, key, ts)]
    bound = defaultdict(list)     # bind id -> [(out?, key, ts)]
    for e in events:
        ph = e["ph"]
        key = (e.get("pid", 0), e.get("tid", 0))
        ts = float(e.get("ts", 0))
        name, cat = str(e.get("name", "")), str(e.get("cat", ""))
        if ph == "X":
            spans.append((key, ts, float(e.get("dur", 0)), name, cat))
            bid = e.get("bind_id", e.get("id2", None)) if (e.get("flow_out") or e.get("flow_in")) else None
            if bid is not None:
                if e.get("flow_out"):
                    bound[bid].append((True, key, ts + float(e.get("dur", 0))))
                if e.get("flow_in"):
                    bound[bid].append((False, key, ts))
        elif ph == "B":
            open_b[key].append((ts, name, cat))
        elif ph == "E":
            if open_b[key]:
                t0, n, c = open_b[key].pop()
                spans.append((key, t0, ts - t0, n, c))
        elif ph in ("s", "t", "f"):
            flow_pts[(cat, e.get("id", e.get("id2")))].append((ph, key, ts))
    flows = []
    for pts in flow_pts.values():
        order = {"s": 0, "t": 1, "f": 2}
        pts = sorted(pts, key=lambda p: (order[p[0]], p[2]))
        for a, b in zip(pts, pts[1:]):
            flows.append((a[1], a[2], b[1], b[2]))
    for pts in bound.values():
        outs = [p for p in pts if p[0]]
        ins = [p for p in pts if not p[0]]
        for o in outs:
            for i in ins:
                flows.append((o[1], o[2], i[1], i[2]))
    keys = set(k for k, *_ in spans) | set(k for f in flows for k in (f[0], f[2]))
    keys |= set(tname)

    def label(k):
        p = pname.get(k[0], f"pid {k[0]}")
        t = tname.get(k, f"tid {k[1]}")
        return f"{p} / {t}"

    rows = sorted(keys, key=lambda k: (psort.get(k[0], 0), k[0], tsort.get(k, 0), k[1]))
    return [(k, label(k)) for k in rows], spans, flows


def draw(events, out: str | None = None, *, title: str | None = None, width: float = 14.0, row_height: float = 0.3,
         legend: int = 12):
    """a matplotlib Figure of the trace (saved to out when given)"""
    import matplotlib
    if out is not None:
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    if not isinstance(events, list):
        events = load(events)
    rows, spans, flows = tracks(events)
    if not rows:
        raise ValueError("the trace has no spans and no tracks to draw")
    y = {k: i for i, (k, _) in enumerate(rows)}
    groups = defaultdict(lambda: defaultdict(list))  # colour key -> row -> [(start, dur)]
    count = defaultdict(float)
    for key, ts, dur, name, cat in spans:
        c = cat or name
        groups[c][key].append((ts, max(dur, 0.0)))
        count[c] += max(dur, 0.0)
    cmap = plt.get_cmap("tab20")
    colours = {c: cmap(i % 20) for i, c in enumerate(sorted(groups, key=lambda c: -count[c]))}
    fig, ax = plt.subplots(figsize=(width, max(2.0, 0.8 + row_height * len(rows))))
    for c, per_row in groups.items():
        for key, bars in per_row.items():
            ax.broken_barh(bars, (y[key] - 0.4, 0.8), facecolors=colours[c], edgecolors="none")
    for k0, t0, k1, t1 in flows:
        ax.annotate("", xy=(t1, y[k1]), xytext=(t0, y[k0]),
                    arrowprops=dict(arrowstyle="->", color="black", lw=0.6, alpha=0.6, shrinkA=0, shrinkB=0))
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([label for _, label in rows], fontsize=7)
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlabel("time (us)")  # the format's ts and dur are microseconds
    if title:
        ax.set_title(title)
    top = sorted(groups, key=lambda c: -count[c])[:legend]
    if top:
        ax.legend(handles=[Patch(color=colours[c], label=c) for c in top], loc="upper left",
                  bbox_to_anchor=(1.0, 1.0), fontsize=7, frameon=False)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    if out is not None:
        fig.savefig(out, dpi=120)
    return fig


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tc5.timeline", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("trace", help="a Chrome trace-event JSON file")
    ap.add_argument("-o", "--out", default="timeline.png", help="the picture (.png, .svg, .pdf; default timeline.png)")
    ap.add_argument("--title")
    ap.add_argument("--width", type=float, default=14.0)
    a = ap.parse_args(argv)
    try:
        events = load(a.trace)
        rows, spans, flows = tracks(events)
        draw(events, a.out, title=a.title or a.trace, width=a.width)
    except (OSError, ValueError) as e:
        print(f"tc5.timeline: {a.trace}: {e}", file=sys.stderr)
        return 1
    print(f"tc5.timeline: {a.out}: {len(rows)} tracks, {len(spans)} spans, {len(flows)} flows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
