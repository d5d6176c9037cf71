#!/usr/bin/env python3
"""Merge a peer suite's later calls into its committed whole-suite results (issue 50).

usage: scripts/peer_merge.py RESULTS NOT_REACHED CALL.tsv... [--note TEXT]... [--rerun]
       scripts/peer_merge.py --combine IDS OUT.tsv PART.tsv...

RESULTS (e.g. tests/data/flaggems/whole_results.tsv, with its .cost.tsv beside it) gains the rows of each CALL.tsv
(a call's whole_results.tsv or a group's gK.tsv from gpu/peer_whole.sh, with its .cost.tsv where there is one): a
case of a later file replaces an earlier one's (a call that read an earlier call's chunk files again gives the same
result). Every new case must be listed in NOT_REACHED (whole_not_reached.txt) and none may be in RESULTS already;
with --rerun a case may instead be in RESULTS (a call that ran reached cases again, after a fix: its row and cost
row replace the old ones where they stood), and a case in both files is refused. NOT_REACHED then lists what is left
(untouched where no case of it was merged) (its header's first line kept, the count line rewritten). Rows stay in file
order: a file's cases where its first ones stood (RESULTS' order, then NOT_REACHED's), within a file in that order.
Each --note is added as a header line ('# TEXT') before the column line of RESULTS; the header's other lines (the
counts a line may say) are the caller's to edit.

--combine: one call's parts (gpu/peer_whole.sh's groups gK.tsv or measurement pairs qK.tsv, each with its .cost.tsv
where there is one; a .cost.tsv named among the parts is skipped, its .tsv brings it) into OUT.tsv and OUT.cost.tsv:
every part's rows in the order of IDS (the call's case list; a case not in it last), the parts' header lines once
each, in the order first seen. Standard library only."""
import argparse
import collections
import os
import sys


def load(path):
    head, rows = [], collections.OrderedDict()
    for line in open(path):
        if line.startswith("#"):
            head.append(line)
        elif line.strip():
            rows[line.split("\t", 1)[0]] = line if line.endswith("\n") else line + "\n"
    return head, rows


def cost_path(p):
    return p[:-4] + ".cost.tsv"


def combine(ids, out, parts):
    order = {line.strip(): n for n, line in enumerate(open(ids)) if line.strip()}
    for ext in (".tsv", ".cost.tsv"):
        head, rows = [], []
        for p in parts:
            if p.endswith(".cost.tsv"):
                continue
            p = p[:-4] + ext
            if not os.path.exists(p):
                continue
            for line in open(p):
                if line.startswith("#"):
                    head.append(line)
                elif line.strip():
                    rows.append(line if line.endswith("\n") else line + "\n")
        rows.sort(key=lambda r: order.get(r.split("\t", 1)[0], len(order)))
        with open(out[:-4] + ext, "w") as fh:
            fh.writelines(list(dict.fromkeys(head)) + rows)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--combine"]:
        if len(argv) < 3:
            sys.exit("peer_merge: --combine IDS OUT.tsv PART.tsv...")
        return combine(argv[1], argv[2], argv[3:])
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results")
    ap.add_argument("not_reached")
    ap.add_argument("calls", nargs="+")
    ap.add_argument("--note", action="append", default=[])
    ap.add_argument("--rerun", action="store_true", help="cases of RESULTS may be run again (their rows replaced)")
    a = ap.parse_args(argv)
    new = {".tsv": collections.OrderedDict(), ".cost.tsv": collections.OrderedDict()}
    for c in a.calls:
        new[".tsv"].update(load(c)[1])
        if os.path.exists(cost_path(c)):
            new[".cost.tsv"].update(load(cost_path(c))[1])
    nr_lines = open(a.not_reached).readlines()
    nr = [x.strip() for x in nr_lines if x.strip() and not x.startswith("#")]
    results = load(a.results)
    had = set(results[1])
    if a.rerun and set(nr) & had:
        sys.exit(f"peer_merge: {len(set(nr) & had)} cases in both {a.results} and {a.not_reached}, "
                 f"e.g. {sorted(set(nr) & had)[0]}")
    stray = set(new[".tsv"]) - set(nr) - (had if a.rerun else set())
    if stray:
        sys.exit(f"peer_merge: {len(stray)} cases of the calls are not in {a.not_reached}, e.g. {sorted(stray)[0]}")
    if set(new[".cost.tsv"]) - set(new[".tsv"]):
        sys.exit("peer_merge: a cost row without its result row")
    out = {}
    for ext in new:  # every check before anything is written (RESULTS read once, above)
        path = a.results if ext == ".tsv" else cost_path(a.results)
        head, rows = results if ext == ".tsv" else load(path)
        twice = set(rows) & set(new[ext])
        if twice and not a.rerun:
            sys.exit(f"peer_merge: {len(twice)} cases already in {path}, e.g. {sorted(twice)[0]}")
        out[ext] = path, head, rows
    for ext, (path, head, rows) in out.items():
        order = list(rows) + nr
        pos = {k: i for i, k in enumerate(order)}
        first = {}
        for k in order:
            first.setdefault(k.split("::")[0], len(first))
        allr = dict(rows)
        allr.update(new[ext])
        keys = sorted(allr, key=lambda k: (first[k.split("::")[0]], pos[k]))
        if ext == ".tsv":
            head = head[:-1] + [f"# {n}\n" for n in a.note] + head[-1:]
        with open(path, "w") as fh:
            fh.writelines(head + [allr[k] for k in keys])
    left = [k for k in nr if k not in new[".tsv"]]
    hdr = [x for x in nr_lines if x.startswith("#")]
    if len(left) < len(nr):  # a re-run alone leaves NOT_REACHED (and its header's lines) as it is
        with open(a.not_reached, "w") as fh:
            fh.writelines(hdr[:1] + [f"# {len(left)} cases\n"] + [k + "\n" for k in left])
    again = len(set(new[".tsv"]) & had)
    print(f"peer_merge: {len(new['.tsv'])} cases merged ({again} run again), {len(left)} not reached")


if __name__ == "__main__":
    main()
