#!/usr/bin/env python3
"""The opcode table's lists in the docs, and its opcode -> test index (issue 51).

From src/ptx/opcodes.def (one OP(id, "name", decoder, group, tclass, flags,
test) row per opcode):
  - docs/ptx.md's table of opcodes (between <!-- optable:begin --> and
    <!-- optable:end -->): name, decoder and its file, group, timing class,
    static traits, test;
  - docs/check.md's list of register-pure instructions (between
    <!-- pure:begin --> and <!-- pure:end -->), the rows with IT_PURE;
  - the index: every row names a test that CTest has (ctest -N in BUILD) and
    whose sources or data (the files and folders under tests/ its command
    names; a tc5_test's C file) contain the opcode as an instruction.
Compares the docs with what the table gives (--write puts it there).

usage: optable.py ROOT BUILD [--write]
"""
import json
import os
import pathlib
import re
import subprocess
import sys

root = pathlib.Path(sys.argv[1]).resolve()
build = pathlib.Path(sys.argv[2]).resolve()
write = "--write" in sys.argv[3:]
ptx = root / "src" / "ptx"

ROW = re.compile(r'^OP\(\s*(\w+)\s*,\s*"([^"]+)"\s*,\s*(\w+)\s*,\s*(\w+)\s*,\s*(\w+)\s*,\s*((?:[^,()]|\([^()]*\))*?)\s*,\s*(\w+)\s*\)',
                 re.M)
text = re.sub(r"/\*.*?\*/", " ", (ptx / "opcodes.def").read_text(encoding="utf-8"), flags=re.S)
rows = [dict(id=m[0], name=m[1], dec=m[2], group=m[3], tclass=m[4], flags=m[5], test=m[6]) for m in ROW.findall(text)]
if not rows:
    sys.exit("optable.py: no OP(...) rows in src/ptx/opcodes.def")


def flags(expr):
    """IT_PURE | F2(READ, LOAD) -> ['PURE', 'READ', 'LOAD']"""
    out = re.findall(r"IT_(\w+)", expr)
    for args in re.findall(r"F\d\(([^)]*)\)", expr):
        out += [a.strip() for a in args.split(",")]
    return out


owner = {}
for f in sorted(ptx.glob("*.c")):
    for m in re.finditer(r"^PTX_DEC\((\w+)\)", f.read_text(encoding="utf-8"), re.M):
        owner[m.group(1)] = f.name
fail = []

# ---- the docs ----
table = ["| opcode | decoder | group | timing class | traits | test |", "| --- | --- | --- | --- | --- | --- |"]
for r in rows:
    if r["dec"] not in owner:
        fail.append(f"row {r['id']}: no PTX_DEC({r['dec']}) in src/ptx/*.c")
    tr = " ".join(x.lower() for x in flags(r["flags"])) or "—"
    tc = "by type" if r["tclass"] == "TYPED" else r["tclass"].lower()
    table.append(f"| `{r['name']}` | `{r['dec']}` ({owner.get(r['dec'], '?')}) | {r['group'].lower()} | {tc} | {tr} | `{r['test']}` |")
pure = []
for r in rows:
    if "PURE" in flags(r["flags"]) and r["name"] not in pure:
        pure.append(r["name"])
words, line, lines = " ".join(pure).split(), "`", []
for w in words:
    if len(line) + len(w) + 1 > 76:
        lines.append(line.rstrip())
        line = ""
    line += w + " "
lines.append(line.rstrip() + "`")
docs = {root / "docs" / "ptx.md": ("optable", table), root / "docs" / "check.md": ("pure", lines)}
for path, (mark, body) in docs.items():
    doc = path.read_text(encoding="utf-8")
    m = re.search(rf"(<!-- {mark}:begin -->\n)(.*?)(<!-- {mark}:end -->)", doc, re.S)
    if not m:
        fail.append(f"{path.name}: no <!-- {mark}:begin --> ... <!-- {mark}:end --> markers")
        continue
    new = doc[: m.start(2)] + "\n".join(body) + "\n" + doc[m.end(2):]
    if new != doc:
        if write:
            path.write_text(new, encoding="utf-8")
            print(f"{path.name}: the {mark} list written")
        else:
            fail.append(f"{path.name}: the {mark} list is stale (tests/ptx/optable.py ROOT BUILD --write)")

# ---- the opcode -> test index ----
shown = json.loads(subprocess.run([os.environ.get("CTEST", "ctest"), "--show-only=json-v1"], cwd=build, capture_output=True, text=True,
                                  check=True).stdout)
tests = {t["name"]: t for t in shown["tests"]}
cml = (root / "tests" / "CMakeLists.txt").read_text(encoding="utf-8")
csrc = dict(re.findall(r"tc5_test\((\w+)\s+([\w/.]+)", cml))
EXT = {".c", ".ptx", ".py", ".sh", ".txt", ".cu"}


def inputs(name):
    t = tests[name]
    out = []
    if name in csrc:
        out.append(root / "tests" / csrc[name])
    for arg in t.get("command", []):
        for piece in re.split(r"[\s=]", arg):
            p = pathlib.Path(piece)
            if p.is_absolute() and p.exists() and root / "tests" in p.parents:
                out.append(p)
    return out


def runs(name, opcode):
    pat = re.compile(r"(?<![\w.%$])" + re.escape(opcode) + r"(?=\.|;|\s+[%{\[$\w-])")
    for p in inputs(name):
        files = [p] if p.is_file() else [f for f in p.rglob("*") if f.suffix in EXT]
        for f in files:
            try:
                if pat.search(f.read_text(encoding="utf-8", errors="replace")):
                    return True
            except OSError:
                pass
    return False


for r in rows:
    if r["test"] not in tests:
        fail.append(f"row {r['id']} ({r['name']}): the test {r['test']} is not a CTest")
    elif not runs(r["test"], r["name"]):
        fail.append(f"row {r['id']} ({r['name']}): {r['test']}'s sources and data never use {r['name']}")
for f in fail:
    print("optable.py:", f)
if fail:
    sys.exit(1)
print(f"opcodes.def: {len(rows)} rows, each with a CTest that uses it; docs/ptx.md's table and docs/check.md's list current")
