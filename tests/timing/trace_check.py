#!/usr/bin/env python3
"""Runs `tc5 run ARGS --timing=GPU --timing-trace=FILE` and checks (issue 47):
the timing line `tc5 run: timing: predicted T us on GPU` (T decimal) after the
breakdown; the trace is JSON in the Chrome trace-event format (Perfetto opens
it): a traceEvents list whose events carry ph, pid, tid, ts (and dur >= 0 for
"X" spans, name for all but flows' binding), metadata names for every track,
spans on warp tracks and on an asynchronous unit's track, and flow events in
"s"/"f" pairs of one id; then the same run with a GPU that cannot run the
PTX's target (BAD) fails with a message naming it, and an unknown GPU too.

usage: trace_check.py TC5 GPU BAD -- ARGS...   (standard library only)"""
import json
import os
import re
import subprocess
import sys
import tempfile


def fail(msg):
    print("trace_check: " + msg)
    sys.exit(1)


def main():
    if len(sys.argv) < 5 or sys.argv[4] != "--":
        print(__doc__, file=sys.stderr)
        return 2
    tc5, gpu, bad, args = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[5:]
    with tempfile.TemporaryDirectory() as d:
        trace = os.path.join(d, "t.json")
        r = subprocess.run([tc5, "run"] + args + ["--timing=" + gpu, "--timing-trace=" + trace],
                           capture_output=True, text=True, cwd=d)
        if r.returncode:
            fail(f"tc5 run failed ({r.returncode}): {r.stderr[-2000:]}")
        lines = [l for l in r.stderr.splitlines() if l.startswith("tc5 run: timing:")]
        if not lines or not re.fullmatch(r"tc5 run: timing: predicted \d+\.\d+ us on " + gpu, lines[-1]):
            fail("no timing line at the end of the breakdown: " + repr(lines))
        if not any("busy:" in l for l in lines) or not any("waves" in l for l in lines):
            fail("the breakdown lacks waves or busy fractions: " + repr(lines))
        with open(trace) as f:
            t = json.load(f)
        ev = t.get("traceEvents")
        if not isinstance(ev, list) or not ev:
            fail("no traceEvents list")
        named, flows, spans = set(), {}, {"warp": 0, "unit": 0}
        for e in ev:
            for k in ("ph", "pid", "tid"):
                if k not in e:
                    fail(f"an event without {k}: {e}")
            ph = e["ph"]
            if ph == "M":
                if e.get("name") not in ("process_name", "thread_name") or "name" not in e.get("args", {}):
                    fail(f"a bad metadata event: {e}")
                if e["name"] == "thread_name":
                    named.add((e["pid"], e["tid"]))
            elif ph == "X":
                if not isinstance(e.get("ts"), (int, float)) or not isinstance(e.get("dur"), (int, float)):
                    fail(f"a span without ts/dur: {e}")
                if e["dur"] < 0 or e["ts"] < 0 or not e.get("name"):
                    fail(f"a span with negative time or no name: {e}")
                spans["warp" if e["tid"] < 1000 else "unit"] += 1
            elif ph in ("s", "f"):
                if "id" not in e or not isinstance(e.get("ts"), (int, float)):
                    fail(f"a flow event without id/ts: {e}")
                flows.setdefault(e["id"], []).append(ph)
            else:
                fail(f"an event of phase {ph}")
        for e in ev:
            if e["ph"] == "X" and (e["pid"], e["tid"]) not in named:
                fail(f"track ({e['pid']}, {e['tid']}) has no thread_name")
        if not spans["warp"] or not spans["unit"]:
            fail(f"spans on warps and units expected: {spans}")
        for i, p in flows.items():
            if sorted(p) != ["f", "s"]:
                fail(f"flow {i} is not one s and one f: {p}")
        print(f"trace_check: {len(ev)} events, {spans['warp']} warp spans, {spans['unit']} unit spans, "
              f"{len(flows)} flows; {lines[-1]}")
        for g, want in ((bad, bad), ("a100", "a100")):
            r = subprocess.run([tc5, "run"] + args + ["--timing=" + g], capture_output=True, text=True, cwd=d)
            if r.returncode != 2 or want not in r.stderr:
                fail(f"--timing={g}: exit {r.returncode}, expected 2 and a message naming {want}: {r.stderr[-600:]}")
        print(f"trace_check: --timing={bad} and --timing=a100 refused, named")
    return 0


if __name__ == "__main__":
    sys.exit(main())
