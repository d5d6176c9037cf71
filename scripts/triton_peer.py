#!/usr/bin/env python3
"""Triton's own unit tests as a peer suite of tc5 (issue 37): Triton's
test_core.py and test_matmul.py (python/test/unit/language/) and Gluon's
test_core.py (python/test/gluon/) run with pytest, tc5 as the device
(TC5_TRITON=1: Triton's NVIDIA backend compiles for a B200, tc5 runs the PTX;
TC5_TRITON_TORCH_CUDA=1: the tests' device="cuda" tensors are PyTorch CPU
tensors), each case's outcome written down and each failure given a cause.

usage: triton_peer.py [--src DIR]... [--git GITDIR]... [--files F,...] [--every K]
                      [--only REGEX] [--ids FILE] [--python PY] [--jobs N] [--chunk N]
                      [--deadline S] [--work DIR] [--out results.tsv]
       triton_peer.py --triage-only results.tsv | --merge A.tsv B.tsv... --out C.tsv |
                      --from-work DIR --out results.tsv

The tests are not committed here (Triton's, MIT licensed): they are read
from checkouts (--src: directories holding python/test/...), from git
directories (--git: `git show PIN:path`, e.g. the mirrors fetch makes of
zwu-2025/triton and facebookexperimental/triton), or downloaded from GitHub at
the pinned commits; each file's SHA-256 must be the pinned one (FILES below),
so every run runs the same tests. test_core.py and test_matmul.py are
triton-lang's main of 2026-07-15 as mirrored by zwu-2025/triton (its version
string still 3.8.0); Gluon's file is upstream's as facebookexperimental/triton
carries it with the packed-arithmetic API Triton 3.9 has. No Triton
repository we can fetch carries a 3.9 tag; where 3.9 moved on (block pointers
removed, Gluon names renamed, other PTX text) the cases are triaged as such.

The selection: pytest collects the files' 32,117 cases; of each test
function's cases, in pytest's collection order, every K-th is kept, starting
with the first (--every K; K = 1 is the whole files; --files picks files).
Nothing is chosen by outcome. K = 16 is the documented selection (2,202
cases, every function at least once). The cases run in chunks of --chunk,
each chunk in its own pytest process (a crash loses one chunk, recorded as
such), --jobs at a time; --deadline stops a run, which the same command with
the same --work then goes on with; --from-work writes the results of a work
directory so far (the chunks --deadline stopped left out, counted).

Output: one line per case, `nodeid<TAB>outcome<TAB>cause<TAB>message`, the
outcome passed, failed, skipped or crashed; `cause` is the triage of KNOWN
and CAUSES below (first matching rule) for the failures and skips, empty for
passes. Then the counts by outcome and by cause. docs/fidelity.md has the
table of a run and the meaning of each cause.
"""
import argparse
import collections
import concurrent.futures
import hashlib
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ZWU = ("zwu-2025/triton", "840a161c81aa0352204b0e04b7a33963b1dbd75f")
FB = ("facebookexperimental/triton", "db4666f22c1f8b206584c3f06e3b4a0ff035989e")
# name in the work directory -> (repository, commit, path there, SHA-256). The test files, in this order:
FILES = {
    "test_core.py": ZWU + ("python/test/unit/language/test_core.py",
                           "58cb959a65028586e60af251132682e93785d97d4f7f8e0141711e3c8ea4c849"),
    "test_matmul.py": ZWU + ("python/test/unit/language/test_matmul.py",
                             "58ce806a4e8bde8cf7741373666213ef2a3c95c12bf901fd9a172763151c336d"),
    # Gluon's test_core.py as upstream had it after #11084 (add2/mul2/fma2... in place of float2), which Triton
    # 3.9's Gluon has and zwu's July mirror predates: facebookexperimental's main carries upstream's file with
    # that change cherry-picked (its own gluon/conftest.py, which skips the file for fb's older frontend, is
    # not used)
    "gluon_test_core.py": FB + ("python/test/gluon/test_core.py",
                                "39e722aa86c93f2033445b96679ea3cff5d8bdfc96ed491f476597db1ec8e772"),
    # imported by test_matmul.py; conftest.py gets CONFTEST_TAIL
    "test_mxfp.py": ZWU + ("python/test/unit/language/test_mxfp.py",
                           "14e5b328daf0f395affa3558492be7edc8949e85a5fb7f5584ec230959ead67e"),
    "conftest.py": ZWU + ("python/test/conftest.py",
                          "cac9de6b5fa2b8309a24d1b6c0e2c80da90ac01dd94c0242519dc6231c605758"),
}
TESTS = ["test_core.py", "test_matmul.py", "gluon_test_core.py"]

# appended to Triton's conftest.py in the work directory: keep the selected
# cases (TC5_PEER_SELECT names a file of node ids) and stop a case that runs
# past TC5_PEER_TIMEOUT seconds (a hang would otherwise stop the run)
CONFTEST_TAIL = '''

# ---- added by tc5's scripts/triton_peer.py ----
import os as _os
import signal as _signal


def pytest_collection_modifyitems(config, items):
    sel = _os.environ.get("TC5_PEER_SELECT")
    if not sel:
        return
    keep = set(open(sel).read().split("\\n"))
    chosen = [i for i in items if i.nodeid in keep]
    config.hook.pytest_deselected(items=[i for i in items if i.nodeid not in keep])
    items[:] = chosen


class _PeerTimeout(Exception):
    pass


@pytest.fixture(autouse=True)
def _tc5_peer_timeout():
    def alarm(*_):
        raise _PeerTimeout("tc5 peer: the case ran past TC5_PEER_TIMEOUT seconds")
    old = _signal.signal(_signal.SIGALRM, alarm)
    _signal.alarm(int(_os.environ.get("TC5_PEER_TIMEOUT", "300")))
    yield
    _signal.alarm(0)
    _signal.signal(_signal.SIGALRM, old)
'''

# The triage: (cause, regex on the failure's or skip's message). First match wins. A cause names whose
# the failure is: tc5 (a defect of tc5: fixed, or listed in docs/fidelity.md), or the test's need of a
# GPU runtime / of PyTorch on a GPU, or Triton's (the compiler refuses the case for sm_100).
CAUSES = [
    ("skip: the test skips itself (its own condition)", r"^SKIP"),
    ("tc5.triton: triton.reinterpret's TensorWrapper refused (fixed)", r"not TensorWrapper"),
    ("tc5: mma.sync not modelled (Triton's tl.dot where tcgen05 does not fit)", r"instruction 'mma' is not modelled"),
    ("tc5: instruction not supported", r"UnsupportedError|TC5_EUNSUPPORTED|not supported by tc5"),
    ("tc5: read of shared memory never written, value unused (the pending uninit rule)",
     r"HazardError.*smem-uninit-read|smem-uninit-read.*HazardError"),
    ("tc5: checker finding", r"HazardError"),
    ("tc5: memory never written read", r"UninitializedError|TC5_EUNINIT"),
    ("tc5: out of bounds", r"BoundsError|TC5_EBOUNDS"),
    ("too slow for a CPU model: past the per-case limit (TC5_PEER_TIMEOUT)", r"_PeerTimeout|ran past TC5_PEER_TIMEOUT"),
    ("tc5: deadlock", r"DeadlockError"),
    ("tc5: other error", r"tc5\.\w*Error|TC5_E[A-Z]+"),
    ("GPU runtime: CUDA-only PyTorch operation on a CPU tensor",
     r"not implemented for 'CPU'|NotImplementedError: Could not run .* 'CPU'|Could not run .*CUDA"),
    ("GPU runtime: torch.cuda API", r"torch\.cuda|CUDA driver|cuda runtime|cudaError|Torch not compiled with CUDA"),
    ("test older than Triton 3.9: an API 3.9 removed or renamed (block pointers; Gluon's async_copy_* TMA names, "
     "_reinterpret)",
     r"have been removed in favor|has been removed; call|has no attribute|"
     r"unexpected keyword argument|got an unexpected"),
    ("test older than Triton 3.9: checks PTX text 3.9 emits otherwise", r"built-in method count of str|in ptx|asm\[.ptx.\]"),
    ("Triton: compile error for sm_100", r"CompilationError|PassManager::run failed|ptxas"),
    ("test: result differs", r"AssertionError|Mismatch|Not equal|not close|assert_close"),
    ("other", r""),
]


def fetch(src, git, work):
    """the pinned files into work; src, git: lists of checkouts / git directories, each file read from the
    first that holds it at its pin (a checkout: by path alone, its SHA-256 then tells), else downloaded"""
    src = [src] if isinstance(src, str) else list(src)
    git = [git] if isinstance(git, str) else list(git)
    os.makedirs(work, exist_ok=True)
    for name, (repo, pin, path, sha) in FILES.items():
        data = None
        for d in (d for d in src if d):
            if os.path.exists(os.path.join(d, path)):
                data = open(os.path.join(d, path), "rb").read()
                if hashlib.sha256(data).hexdigest() == sha:
                    break
        for g in (g for g in git if g):
            if data is not None and hashlib.sha256(data).hexdigest() == sha:
                break
            r = subprocess.run(["git", "--git-dir", g, "show", f"{pin}:{path}"], capture_output=True)
            if r.returncode == 0:
                data = r.stdout
        if data is None:
            url = f"https://raw.githubusercontent.com/{repo}/{pin}/{path}"
            with urllib.request.urlopen(url, timeout=120) as r:
                data = r.read()
        got = hashlib.sha256(data).hexdigest()
        if got != sha:
            sys.exit(f"triton_peer: {path}: SHA-256 {got}, the pin is {sha} ({repo}@{pin})")
        if name == "conftest.py":
            data += CONFTEST_TAIL.encode()
        with open(os.path.join(work, name), "wb") as fh:
            fh.write(data)


def environment():
    env = dict(os.environ, TC5_TRITON="1", TC5_TRITON_TORCH_CUDA="1", PYTHONUNBUFFERED="1")
    env.pop("TRITON_DEFAULT_BACKEND", None)
    env.pop("TRITON_INTERPRET", None)
    env.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    return env


def collect(py, work, env, files=TESTS):
    r = subprocess.run([py, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"] + list(files),
                       cwd=work, env=env, capture_output=True, text=True)
    ids = [l for l in r.stdout.splitlines() if l.split("::", 1)[0] in files and "::" in l]
    if not ids or r.returncode not in (0, 5):
        sys.exit("triton_peer: pytest's collection failed:\n" + r.stdout[-3000:] + r.stderr[-3000:])
    return ids


def select(ids, every, only):
    """every K-th case of each test function (a file's function: file::name), in collection order"""
    seen = collections.Counter()
    out = []
    for i in ids:
        fn = i.split("[", 1)[0]
        n = seen[fn]
        seen[fn] += 1
        if n % every == 0 and (not only or re.search(only, i)):
            out.append(i)
    return out


# failures whose cause the message alone does not tell, found by reading the case (docs/fidelity.md)
KNOWN = [
    # the reference is torch.matmul of float16, which the torch.cuda shim computes as a B200's cuBLAS would with
    # tc5.gemm (Tensor Core steps over K, one summation order); the kernel sums K in mma.sync's steps of 16. In
    # this case one element of 2,048 is a sum of terms up to about 5e5 that cancels to 0.03: any two summation
    # orders differ there by tens of float16 ulps, above the test's atol 1e-5 (mma.sync's arithmetic itself is
    # checked against the H100 bit for bit: CTest ptx_silicon_mma)
    (r"test_scaled_dot\[32-64-128-True-False-False-e4m3-fp16-4-16-1\]", "reference: the cuBLAS stand-in sums a "
     "cancelling dot in another order (1 element of 2,048)", r"Tensor-likes are not close"),
    # the test hands a CPU tensor (or a pinned one) to a kernel and expects the CUDA driver to refuse it: on tc5
    # the CPU's memory is the device's, and pinning needs a CUDA driver
    (r"test_pointer_arguments\[cpu", "GPU runtime: the test expects a CPU tensor refused by the CUDA driver"),
    # the test allocates shared memory of max_shared_mem // 8 - 32 int64 (29,024 on a B200): Triton 3.9 allocates
    # power-of-2 shapes only
    (r"test_clc_basic\[", "test and Triton 3.9 differ: 3.9 allocates power-of-2 shapes only", r"power-of-2"),
    # Triton 3.9's frontend raises at compile time (the kernel indexes a scalar pointer with KEEP_DIMS and no axis)
    (r"test_reduce\[", "Triton 3.9 refuses the test's kernel (a ValueError in its frontend)", r"too many indices"),
    # the kernel loads its scales unmasked, BLOCK_M (BLOCK_N) // 128 chunks of them, from a tensor of one
    # 128-row chunk (M = 63 with BLOCK_M = 256; N = 111 or 128 with BLOCK_N = 256): a read past the tensor that a
    # GPU serves from whatever follows it (the rows it scales are past M and N); tc5 reports the address
    (r"test_blocked_scale_mxfp\[", "test: its kernel reads past its scale tensor (BLOCK_M or BLOCK_N 256 over one "
     "128-row chunk of scales), harmless on a GPU, reported by tc5", r"outside every buffer"),
    # Triton 3.9 compiles tl.cumsum/tl.cumprod of bfloat16 with add.bf16/mul.bf16 (rounded at each step of
    # the tree); the test compares with a float32 cumsum at rtol 0.01, which an f32 scan passes
    (r"test_scan2d\[(cumsum|cumprod)-bfloat16", "test older than Triton 3.9: 3.9 scans bfloat16 in bfloat16 "
     "(add.bf16), the test's tolerance assumes an f32 scan"),
]


def known_cause(outcome, msg, nodeid):
    """the cause KNOWN gives a failure (by its case and, where the rule says, its message), or None"""
    return next((cause for pat, cause, *msg_pat in KNOWN if outcome == "failed" and re.search(pat, nodeid)
                 and all(re.search(m, msg) for m in msg_pat)), None)


def cause_of(outcome, msg, nodeid=""):
    known = known_cause(outcome, msg, nodeid)
    if known:
        return known
    text = ("SKIP " if outcome == "skipped" else "") + msg
    for cause, pat in CAUSES:
        if re.search(pat, text, re.S):
            return cause
    return "other"


def run_chunk(py, work, env, ids, k, deadline=None):
    """the chunk's results; None when the deadline (time.time()) came first (the chunk is dropped: a
    later run with the same --work runs it, and reuses the chunks that finished)"""
    sel = os.path.join(work, f"chunk{k}.txt")
    xml = os.path.join(work, f"chunk{k}.xml")
    dropped = os.path.join(work, f"chunk{k}.dropped")  # stopped by the deadline: not run (for --from-work)
    text = "\n".join(ids)
    if os.path.exists(xml) and os.path.exists(sel) and open(sel).read() == text:
        return read_chunk(xml, ids, "unknown")  # done by an earlier run of this work directory
    if deadline is not None and time.time() > deadline - 5:
        return None
    with open(sel, "w") as fh:
        fh.write(text)
    log = os.path.join(work, f"chunk{k}.log")
    part = xml + ".part"
    with open(log, "w") as fh:
        p = subprocess.Popen([py, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
                              f"--junitxml={part}"] + sorted({i.split("::", 1)[0] for i in ids}), cwd=work,
                             env=dict(env, TC5_PEER_SELECT=sel), stdout=fh, stderr=subprocess.STDOUT)
        try:
            rc = p.wait(timeout=None if deadline is None else max(1.0, deadline - time.time()))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            open(dropped, "w").close()
            return None
    if os.path.exists(dropped):
        os.remove(dropped)
    if os.path.exists(part):
        os.replace(part, xml)
    return read_chunk(xml, ids, rc)


def read_chunk(xml, ids, returncode):
    res = {}
    if os.path.exists(xml):
        for tc in ET.parse(xml).getroot().iter("testcase"):
            nodeid = tc.get("classname").replace(".", "/") + ".py::" + tc.get("name")
            outcome, msg = "passed", ""
            for child in tc:
                if child.tag in ("failure", "error"):
                    outcome, msg = "failed", (child.get("message") or "") + "\n" + (child.text or "")
                elif child.tag == "skipped":
                    outcome, msg = "skipped", child.get("message") or ""
            res[nodeid] = (outcome, msg)
    for i in ids:  # cases the process never reported: it crashed (signal) or stopped
        if i not in res:
            res[i] = ("crashed", f"the pytest process ended with status {returncode} before the case reported")
    return res


def one_line(msg):
    """the exception and, for tc5's errors, the PTX instruction it names"""
    lines = [l.strip() for l in msg.splitlines() if l.strip()]
    e = [l[1:].strip() for l in lines if l.startswith("E ")]
    exc = next((l for l in e if re.match(r"[\w.]*(Error|Exception|Timeout|Warning)\b", l)), None)
    s = exc or (e[-1] if e else (lines[0] if lines else ""))
    insn = next((l for l in e if re.match(r"- \S+\.ptx:\d+:\d*:? ?\S", l) and " is " not in l), None)
    if insn:
        s += " " + insn
    return s.replace("\t", " ")[:300]


def report(rows, out):
    with open(out, "w") as fh:
        fh.write(f"# tc5 peer suite: Triton's tests on tc5 (test_core.py, test_matmul.py: {'@'.join(ZWU)}; "
                 f"gluon_test_core.py: {'@'.join(FB)})\n")
        fh.write("# nodeid\toutcome\tcause\tmessage\n")
        for nodeid, (outcome, msg) in rows.items():
            cause = "" if outcome == "passed" else cause_of(outcome, msg, nodeid)
            fh.write(f"{nodeid}\t{outcome}\t{cause}\t{one_line(msg)}\n")
    summarize(out)


def summarize(path):
    outcomes, causes = collections.Counter(), collections.Counter()
    for line in open(path):
        if line.startswith("#"):
            continue
        f = line.rstrip("\n").split("\t")
        outcomes[f[1]] += 1
        if f[2]:
            causes[(f[1], f[2])] += 1
    total = sum(outcomes.values())
    print(f"{total} cases: " + ", ".join(f"{n} {o}" for o, n in sorted(outcomes.items())))
    for (o, c), n in sorted(causes.items(), key=lambda x: -x[1]):
        print(f"  {n:5d} {o:8s} {c}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", action="append", default=[], help="a checkout (repeatable)")
    ap.add_argument("--git", action="append", default=[], help="a git directory (repeatable)")
    ap.add_argument("--files", default=",".join(TESTS), help="the test files, comma-separated (default: all "
                    "three)")
    ap.add_argument("--every", type=int, default=4)
    ap.add_argument("--only", default="")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--chunk", type=int, default=100)
    ap.add_argument("--work", default="")
    ap.add_argument("--out", default="triton_peer_results.tsv")
    ap.add_argument("--deadline", type=float, default=0, help="stop after this many seconds: chunks not done are "
                    "dropped, and the run is done by running the same command (the same --work) again")
    ap.add_argument("--ids", default="", help="run these cases (a file of node ids, one a line; e.g. the "
                    "failures of an earlier run) instead of a selection")
    ap.add_argument("--list", action="store_true", help="print the selection and stop")
    ap.add_argument("--triage-only", default="", help="re-summarize a results file")
    ap.add_argument("--merge", nargs="+", default=[], help="results files, each case's line taken from the last "
                    "that has it (a whole run, then a rerun of its failures with --ids), triaged again: --out")
    ap.add_argument("--from-work", default="", help="write --out from a run's work directory again (the triage "
                    "of this script, the outcomes of that run)")
    args = ap.parse_args()
    if args.triage_only:
        summarize(args.triage_only)
        return 0
    if args.merge:
        rows = {}
        for path in args.merge:
            for line in open(path):
                if not line.startswith("#"):
                    f = line.rstrip("\n").split("\t") + ["", ""]
                    rows[f[0]] = f[1:4]
        with open(args.out, "w") as fh:
            fh.write(f"# tc5 peer suite: Triton's tests on tc5 (merged: {' '.join(args.merge)})\n")
            fh.write("# nodeid\toutcome\tcause\tmessage\n")
            for nodeid, (outcome, cause, msg) in rows.items():
                # the rules read the whole message; a results file keeps one line of it: its cause stays,
                # unless a rule of KNOWN (by case) names the cause now
                fh.write(f"{nodeid}\t{outcome}\t{known_cause(outcome, msg, nodeid) or cause}\t{msg}\n")
        summarize(args.out)
        return 0
    if args.from_work:
        rows, order, dropped = {}, [], 0
        chunks = sorted(int(f[5:-4]) for f in os.listdir(args.from_work) if re.fullmatch(r"chunk\d+\.txt", f))
        for k in chunks:
            ids = open(os.path.join(args.from_work, f"chunk{k}.txt")).read().split("\n")
            if os.path.exists(os.path.join(args.from_work, f"chunk{k}.dropped")):
                dropped += len(ids)  # stopped by --deadline: not run (not a crash)
                continue
            order += ids
            rows.update(read_chunk(os.path.join(args.from_work, f"chunk{k}.xml"), ids, "unknown"))
        report({i: rows[i] for i in order}, args.out)
        if dropped:
            print(f"{dropped} cases of chunks stopped by --deadline not run (left out of {args.out})")
        return 0
    work = args.work or tempfile.mkdtemp(prefix="tc5-peer-")
    fetch(args.src, args.git, work)
    env = environment()
    files = [f for f in args.files.split(",") if f]
    bad = [f for f in files if f not in TESTS]
    if bad:
        sys.exit(f"triton_peer: --files: {bad[0]} is not one of {', '.join(TESTS)}")
    if args.ids:
        ids = [l.strip() for l in open(args.ids) if l.strip() and not l.startswith("#")]
        ids = [l.split("\t", 1)[0] for l in ids]  # a results file's lines will do
    else:
        ids = select(collect(args.python, work, env, files), args.every, args.only)
    if args.list:
        print("\n".join(ids))
        return 0
    chunks = [ids[i:i + args.chunk] for i in range(0, len(ids), args.chunk)]
    what = f"from {args.ids}" if args.ids else f"every {args.every}"
    print(f"{len(ids)} cases ({what}), {len(chunks)} chunks in {work}", flush=True)
    rows, t = {}, time.time()
    deadline = t + args.deadline if args.deadline else None
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        futs = {ex.submit(run_chunk, args.python, work, env, c, k, deadline): k for k, c in enumerate(chunks)}
        for f in concurrent.futures.as_completed(futs):
            if f.result() is None:
                continue
            rows.update(f.result())
            n = collections.Counter(o for o, _ in rows.values())
            print(f"  chunk {futs[f]}: {len(rows)}/{len(ids)} done, {dict(n)}, {time.time() - t:.0f} s", flush=True)
    if len(rows) < len(ids):
        print(f"{len(ids) - len(rows)} cases not done by the deadline: run the same command again", flush=True)
        return 3
    report({i: rows[i] for i in ids}, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
