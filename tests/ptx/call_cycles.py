#!/usr/bin/env python3
"""src/ptx/ is free of call cycles between its files (issue 51).

A file calls another when its source calls, directly (NAME followed by an
opening parenthesis), a function the other file defines (not static). Calls
through function pointers do not count: the opcode table's decoders
(src/ptx/opcodes.def, reached through decode.c's optable) and the executors
a decoder stores in an instruction are not direct calls. Prints each file's
direct callees; fails naming every cycle (a strongly connected set of
files) with the calls that close it, and naming every call of an
instruction family (exec_*.c) into another file than the services a family
may call: decode_helpers.c, machine.c, module.c.

usage: call_cycles.py ROOT
"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
ptx = root / "src" / "ptx"


def strip(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', text)
    return re.sub(r"'(?:[^'\\\n]|\\.)*'", "''", text)


DEF = re.compile(r"^(?!static\b|typedef\b|extern\b|return\b)[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\(([^;{}()]|\([^;{}()]*\))*\)\s*\{",
                 re.M)
DEC = re.compile(r"^PTX_DEC\((\w+)\)\s*\{", re.M)

files = sorted(ptx.glob("*.c"))
if not files:
    sys.exit(f"call_cycles.py: no .c files in {ptx}")
src = {f.stem: strip(f.read_text(encoding="utf-8")) for f in files}
owner = {}
for name, text in src.items():
    for m in DEF.finditer(text):
        owner[m.group(1)] = name
    for m in DEC.finditer(text):
        owner[m.group(1)] = name

calls = {name: {} for name in src}
for name, text in src.items():
    for m in re.finditer(r"\b([A-Za-z_]\w*)\s*\(", text):
        callee = owner.get(m.group(1))
        if callee and callee != name:
            calls[name].setdefault(callee, set()).add(m.group(1))

for name in sorted(calls):
    print(f"{name}: " + ", ".join(f"{c} ({' '.join(sorted(s))})" for c, s in sorted(calls[name].items())))

# strongly connected components (Tarjan)
index, low, stack, on, sccs = {}, {}, [], set(), []


def visit(v):
    index[v] = low[v] = len(index)
    stack.append(v)
    on.add(v)
    for w in calls[v]:
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop()
            on.discard(w)
            comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            sccs.append(sorted(comp))


sys.setrecursionlimit(10000)
for v in sorted(calls):
    if v not in index:
        visit(v)
SERVICES = {"decode_helpers", "machine", "module"}
bad = [(a, b) for a in sorted(calls) if a.startswith("exec_") for b in sorted(calls[a]) if b not in SERVICES]
for a, b in bad:
    print(f"call_cycles.py: the family {a} calls {b} ({' '.join(sorted(calls[a][b]))}): families call only "
          + ", ".join(sorted(SERVICES)))
if sccs:
    for comp in sccs:
        print("call_cycles.py: a call cycle between " + ", ".join(comp) + ":")
        for a in comp:
            for b in comp:
                if b in calls[a]:
                    print(f"  {a} -> {b}: {' '.join(sorted(calls[a][b]))}")
    sys.exit(1)
if bad:
    sys.exit(1)
print(f"src/ptx/: {len(calls)} files, {sum(len(c) for c in calls.values())} file-to-file call edges, no cycle")
