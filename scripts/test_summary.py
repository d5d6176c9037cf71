"""The summary scripts/test.sh prints: from CTest's and pytest's JUnit files,
passed / failed / skipped per part of the suite (the attention CTests, each
Python test module; Gluon's cases counted apart), and every skip with its
reason. Exits 1 when a test was skipped because a package other than
PyTorch is missing (scripts/pyenv.sh installs every other one), or failed.
Usage: python scripts/test_summary.py build/ctest.xml [build/pytest.xml]
       python scripts/test_summary.py --sanitize build-asan/ctest.xml   (the sanitizer
       build runs with the machine's python3: a missing package is listed, not an error)"""
import collections
import re
import sys
import xml.etree.ElementTree as ET

MISSING = re.compile(r"could not import '([\w.]+)'|No module named '([\w.]+)'|([\w.-]+) is not installed|"
                     r"([\w.]+) not found")
ALLOWED = {"torch", "PyTorch"}  # behind TC5_PY_TORCH=1 (several GB)


def outcome(case):
    for tag, what in (("failure", "failed"), ("error", "failed"), ("skipped", "skipped")):
        e = case.find(tag)
        if e is not None:
            why = e.get("message") or ""
            if why == "collection skipped":  # a module's skip: ('file', line, 'Skipped: reason')
                m = re.search(r"Skipped: (.*?)['\"]\)\s*$", e.text or "")
                why = m.group(1) if m else (e.text or why)
            return what, (why or e.text or "").strip().splitlines()[0] if (why or e.text) else ""
    if case.get("status") in ("notrun", "disabled"):
        return "skipped", ""
    return "passed", ""


def ctest_part(name):
    if name.startswith("attention_"):
        return "CTest: attention (Triton 06, FA4, Gluon)"
    return "CTest: the rest"


def pytest_part(case):
    mod = (case.get("classname") or case.get("name") or "").split(".")[-1]  # a module's skip: its name
    name = case.get("name") or ""
    if "gluon" in name or mod == "test_attention_gluon":
        return "pytest: Gluon (the gluon cases, test_attention_gluon.py)"
    if mod.startswith("test_triton") or mod == "test_torch_cuda":
        return f"pytest: Triton door ({mod}.py)"
    if mod == "test_cute":
        return "pytest: CuTe DSL (test_cute.py)"
    return f"pytest: {mod}.py"


def main(paths):
    counts = collections.OrderedDict()
    skips = collections.Counter()
    missing = set()
    bad = 0
    for path in paths:
        cases = ET.parse(path).getroot().iter("testcase")
        is_ctest = path.endswith("ctest.xml")
        for case in cases:
            part = ctest_part(case.get("name")) if is_ctest else pytest_part(case)
            what, why = outcome(case)
            if is_ctest and what == "skipped" and (not why or why.startswith("SKIP_RETURN_CODE")):
                out = case.findtext("system-out") or ""
                why = (out.strip().splitlines() or [""])[-1]
            counts.setdefault(part, collections.Counter())[what] += 1
            if what == "failed":
                bad += 1
            if what == "skipped":
                why = re.sub(r"^Skipped: |^\S+\.py:\d+: ", "", why)
                skips[(part.split(":")[0], why[:160])] += 1
                for g in MISSING.findall(why):
                    pkg = next(x for x in g if x)
                    if pkg.split(".")[0] not in ALLOWED and pkg not in ("nvcc", "TC5_CLI"):
                        missing.add(pkg)
    print("== tc5 test summary")
    for part, c in counts.items():
        print(f"  {part:58s} {c['passed']:5d} passed {c['failed']:4d} failed {c['skipped']:4d} skipped")
    if skips:
        print("  skipped, by reason:")
        for (kind, why), n in sorted(skips.items(), key=lambda kv: -kv[1]):
            print(f"    {n:4d} {kind}: {why}")
    if missing:
        print(f"  a package other than PyTorch is missing: {', '.join(sorted(missing))} (scripts/pyenv.sh installs it)")
    return 1 if bad or (missing and not sanitize) else 0


if __name__ == "__main__":
    sanitize = "--sanitize" in sys.argv
    sys.exit(main([a for a in sys.argv[1:] if a != "--sanitize"]))
