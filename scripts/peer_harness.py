"""The peer-suite harness (issue 48): a project's own pytest suite run with
tc5 as the device, each case's outcome written down with its cause and the
kernels it launched. One harness for every suite: Triton's
(scripts/triton_peer.py) and the libraries' (Liger-Kernel, FlagGems) plug
into it with a Suite (the files, the environment, the triage).

Engines (--engine):
  ray    pytest chunks as Ray tasks: a local Ray of this machine's cores, or
         a cluster (--address, RAY_ADDRESS). The tasks carry the suite's
         files (written once per node into a directory named by their hash),
         so a worker needs only tc5, Triton and pytest installed. A task
         whose worker or node died runs again (Ray's retries, --max-retries);
         a pytest process that crashes loses its chunk's cases, recorded as
         "crashed" (not retried: a crash is an outcome). Progress is tqdm's.
  xdist  one pytest process spread over --jobs workers by pytest-xdist: one
         machine, no Ray.
  local  the single-node deadline-and-resume path (the lent GPU machine: no
         network, no room for Ray's wheel): chunks of --chunk cases, each its
         own pytest process, --jobs at a time, their files in --work
         (chunkK.txt/.xml, chunkK.dropped for a chunk --deadline stopped); the
         same command with the same --work goes on; --from-work writes the
         results so far.

The results file (one line a case) is the same whatever the engine:
  nodeid<TAB>outcome<TAB>cause<TAB>message<TAB>launches
outcome passed, failed, skipped, crashed, or "not run" (a case that passed
having launched no kernel through tc5, for suites that ask: Suite.zero_launches);
launches: kernels tc5 ran for the case (tc5.triton's and tc5.cute's
doors), empty where the case never reported.

For a new suite (engineer l50's libraries):

    import peer_harness as H
    suite = H.Suite(name="liger", title="Liger-Kernel's tests on tc5 (linkedin/Liger-Kernel@PIN)",
                    files={"test_x.py": b"...", "conftest.py": b"..."}, tests=["test_x.py"],
                    env={"TC5_TRITON": "1", "TC5_TRITON_TORCH_CUDA": "1"}, causes=[(cause, regex), ...],
                    zero_launches="not run")
    sys.exit(H.main(suite, sys.argv[1:]))       # the common command line (below)

or H.run(suite, ids, engine="ray") -> rows and H.report(suite, rows, out).
"""
from __future__ import annotations

import argparse
import collections
import concurrent.futures
import dataclasses
import hashlib
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

# appended to the suite's conftest.py: keep the selected cases (TC5_PEER_SELECT
# names a file of node ids), stop a case that uses more than TC5_PEER_CPU_LIMIT
# CPU seconds (where the suite sets it) or runs past TC5_PEER_TIMEOUT wall
# seconds (a hang would otherwise stop the run), and record the kernels tc5
# ran for each case (the junit XML's property tc5_launches), its CPU and
# wall seconds and the process's peak RSS after it (tc5_cpu_s, tc5_wall_s, tc5_rss)
CONFTEST_TAIL = '''

# ---- added by tc5's peer harness (scripts/peer_harness.py) ----
import os as _os
import signal as _signal
import sys as _sys

import pytest as _pytest


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


def _tc5_cpu():
    import resource
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


@_pytest.fixture(autouse=True)
def _tc5_peer_timeout(request):
    # TC5_PEER_CPU_LIMIT: CPU seconds of the pytest process (every thread), by ITIMER_PROF, which the
    # machine's load does not advance, so a case's outcome does not depend on what else runs;
    # TC5_PEER_TIMEOUT: wall seconds (signal.alarm), a backstop for a case that waits without computing
    import time
    cpu_limit = float(_os.environ.get("TC5_PEER_CPU_LIMIT", "0") or 0)

    def alarm(*_):
        raise _PeerTimeout("tc5 peer: the case ran past TC5_PEER_TIMEOUT seconds")

    def prof(*_):
        raise _PeerTimeout(f"tc5 peer: the case used more than TC5_PEER_CPU_LIMIT={cpu_limit:g} CPU seconds")
    old = _signal.signal(_signal.SIGALRM, alarm)
    _signal.alarm(int(_os.environ.get("TC5_PEER_TIMEOUT", "300")))
    if cpu_limit > 0:
        old_prof = _signal.signal(_signal.SIGPROF, prof)
        _signal.setitimer(_signal.ITIMER_PROF, cpu_limit)
    c0, t0 = _tc5_cpu(), time.time()
    yield
    if cpu_limit > 0:
        _signal.setitimer(_signal.ITIMER_PROF, 0)
        _signal.signal(_signal.SIGPROF, old_prof)
    _signal.alarm(0)
    _signal.signal(_signal.SIGALRM, old)
    import resource
    request.node.user_properties.append(("tc5_cpu_s", f"{_tc5_cpu() - c0:.1f}"))
    request.node.user_properties.append(("tc5_wall_s", f"{time.time() - t0:.1f}"))
    # the process's peak RSS so far (bytes; Linux's ru_maxrss is KiB): a case's memory, or an earlier case's
    request.node.user_properties.append(("tc5_rss", str(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)))


def _tc5_launches():
    n = 0
    t = _sys.modules.get("tc5.triton")
    if t is not None and hasattr(t, "launches"):
        n += t.launches()
    c = _sys.modules.get("tc5.cute")
    if c is not None and getattr(c, "_lib", None) is not None:
        n += c.launches()
    return n


@_pytest.fixture(autouse=True)
def _tc5_peer_launches(request):
    before = _tc5_launches()
    yield
    request.node.user_properties.append(("tc5_launches", _tc5_launches() - before))
'''


@dataclasses.dataclass
class Suite:
    """A peer suite: what the harness needs to run and triage it."""
    name: str                    # a short name ("triton")
    title: str                   # the results file's first line (what ran, at which pins)
    files: dict                  # the work directory's files: name -> bytes (tests, conftest.py...)
    tests: list                  # the test files pytest collects, in order
    env: dict                    # the pytest processes' environment on top of the worker's (None: unset)
    causes: list = dataclasses.field(default_factory=lambda: [("other", r"")])  # (cause, regex), first wins
    known: list = dataclasses.field(default_factory=list)  # (nodeid regex, cause[, message regex])
    zero_launches: str | None = None  # the outcome of a case that passed with no kernel launched; None: passed
    conftest: str = "conftest.py"     # the file CONFTEST_TAIL is appended to (made when absent)

    def workfiles(self) -> dict:
        files = dict(self.files)
        files[self.conftest] = files.get(self.conftest, b"") + CONFTEST_TAIL.encode()
        return files

    def environment(self, base=None) -> dict:
        env = dict(os.environ if base is None else base, PYTHONUNBUFFERED="1")
        for k, v in self.env.items():
            if v is None:
                env.pop(k, None)
            else:
                env[k] = str(v)
        return env

    def cause_of(self, outcome, msg, nodeid=""):
        known = self.known_cause(outcome, msg, nodeid)
        if known:
            return known
        text = ("SKIP " if outcome == "skipped" else "") + msg
        for cause, pat in self.causes:
            if re.search(pat, text, re.S):
                return cause
        return "other"

    def known_cause(self, outcome, msg, nodeid):
        # a failure, a crash, or a pass with no launch ("not run": why the case reaches no kernel); a rule's
        # message patterns are matched on what was raised, not on the traceback's source lines (which hold the
        # test's own name and code: test_flash_attention_forward_gqa_... contains "_flash_attention_forward")
        said = raised(msg)
        return next((cause for pat, cause, *msg_pat in self.known if outcome in ("failed", "crashed", "not run")
                     and re.search(pat, nodeid)
                     and all(re.search(m, said) for m in msg_pat)), None)


def raised(msg: str) -> str:
    """what a failure's message says was raised: its first line (junit's message attribute: the exception) and
    the traceback's exception lines (pytest's "E   " lines), without the source lines pytest prints around
    them; a message with no such lines (the harness's own: "passed without launching", "before the case
    reported") whole"""
    lines = msg.split("\n")
    said = [ln for ln in lines[1:] if ln.startswith("E ")]
    return "\n".join([lines[0]] + said) if said else msg


def write_files(suite: Suite, work: str) -> None:
    os.makedirs(work, exist_ok=True)
    for name, data in suite.workfiles().items():
        path = os.path.join(work, name)
        if os.path.exists(path) and open(path, "rb").read() == data:
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)  # a suite's files may lie in folders (src/, test/)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)  # atomic: two tasks of a node may write the same file


def collect(suite: Suite, py: str, work: str, files=None) -> list:
    files = list(files or suite.tests)
    r = subprocess.run([py, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"] + files,
                       cwd=work, env=suite.environment(), capture_output=True, text=True)
    ids = [l for l in r.stdout.splitlines() if l.split("::", 1)[0] in files and "::" in l]
    if not ids or r.returncode not in (0, 5):
        sys.exit(f"{suite.name} peer: pytest's collection failed:\n" + r.stdout[-3000:] + r.stderr[-3000:])
    return ids


def select(ids, every, only=""):
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


def _junit_key(nodeid):
    """(classname, name) of a node id in pytest's junit XML: "d/f.py::C::t[x]" -> ("d.f.C", "t[x]")"""
    path, _, rest = nodeid.partition("::")
    *cls, name = rest.split("::")
    return (".".join([path[:-3].replace("/", ".")] + cls), name)


def read_xml(xml, ids, returncode):
    """{nodeid: (outcome, message, launches, cost)} of a junit XML (cost: {"cpu_s", "wall_s", "rss"} as the
    harness's fixture measured them, {} when it did not); the ids it does not report: crashed"""
    res = {}
    by_junit = {_junit_key(i): i for i in ids}  # a test in a class: junit's classname ends with the class
    if os.path.exists(xml):
        try:
            root = ET.parse(xml).getroot()
        except ET.ParseError:
            root = None
        for tc in (root.iter("testcase") if root is not None else ()):
            if tc.get("classname") is None:
                continue  # an interrupted session's entry of no case (pytest's junit XML after SIGINT)
            nodeid = by_junit.get((tc.get("classname"), tc.get("name")),
                                  tc.get("classname").replace(".", "/") + ".py::" + tc.get("name"))
            outcome, msg, launches, cost = "passed", "", None, {}
            for child in tc:
                if child.tag in ("failure", "error"):
                    m = (child.get("message") or "") + "\n" + (child.text or "")
                    if outcome == "failed":  # a failure and a teardown error: keep both
                        msg += "\n" + m
                    else:
                        outcome, msg = "failed", m
                elif child.tag == "skipped":
                    outcome, msg = "skipped", child.get("message") or ""
                elif child.tag == "properties":
                    for p in child:
                        if p.get("name") == "tc5_launches":
                            launches = int(p.get("value"))
                        elif p.get("name") in ("tc5_cpu_s", "tc5_wall_s", "tc5_rss"):
                            cost[p.get("name")[4:]] = float(p.get("value"))
            if outcome == "failed" and re.search(r"worker '?gw\d+'? crashed|node down: Not properly terminated", msg):
                outcome = "crashed"  # pytest-xdist: the worker process died
            res[nodeid] = (outcome, msg, launches, cost)
    for i in ids:  # cases the process never reported: it crashed (signal) or stopped
        if i not in res:
            res[i] = ("crashed", f"the pytest process ended with status {returncode} before the case reported",
                      None, {})
    return res


def _sigint_default():
    """the chunk's SIGINT as the deadline needs it: a program started in the background by a non-interactive shell
    (`cmd &`: CI's runner, nohup jobs) inherits SIGINT ignored, and Python then installs no KeyboardInterrupt
    handler, so the deadline's SIGINT did nothing and the SIGKILL after it lost the finished cases' junit XML"""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _pytest(py, work, env, ids, xml, log, timeout=None, extra=()):
    """one pytest process over the ids; its return code, or None when timeout (seconds) came first"""
    sel = xml + ".select"
    with open(sel, "w") as fh:
        fh.write("\n".join(ids))
    with open(log, "w") as fh:
        p = subprocess.Popen([py, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
                              f"--junitxml={xml}", *extra] + sorted({i.split("::", 1)[0] for i in ids}), cwd=work,
                             env=dict(env, TC5_PEER_SELECT=sel), stdout=fh, stderr=subprocess.STDOUT,
                             preexec_fn=_sigint_default)
        try:
            return p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            # the deadline: SIGINT first (pytest stops at the running case and writes the junit XML of the cases
            # it finished: the local engine keeps them), then, after INTERRUPT_GRACE seconds, SIGKILL
            p.send_signal(signal.SIGINT)
            try:
                p.wait(timeout=INTERRUPT_GRACE)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
            return None


# ---------------------------------------------------------------------------
# the engines
# ---------------------------------------------------------------------------

def _ray_chunk(files, env_over, ids, py):
    """a Ray task: the suite's files into this node's directory for them (by
    their hash), one pytest process over the chunk; its results"""
    h = hashlib.sha256(b"".join(hashlib.sha256(k.encode() + v).digest() for k, v in sorted(files.items())))
    work = os.path.join(tempfile.gettempdir(), "tc5-peer-" + h.hexdigest()[:16])
    os.makedirs(work, exist_ok=True)
    for name, data in files.items():
        path = os.path.join(work, name)
        if not (os.path.exists(path) and open(path, "rb").read() == data):
            os.makedirs(os.path.dirname(path), exist_ok=True)
            tmp = f"{path}.{os.getpid()}.tmp"
            with open(tmp, "wb") as fh:
                fh.write(data)
            os.replace(tmp, path)
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    for k, v in env_over.items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = str(v)
    with tempfile.TemporaryDirectory(prefix="tc5-peer-chunk-") as d:
        xml = os.path.join(d, "chunk.xml")
        rc = _pytest(py or sys.executable, work, env, ids, xml, os.path.join(d, "chunk.log"))
        return read_xml(xml, ids, rc)


def run_ray(suite: Suite, ids, *, python=None, chunk=25, address=None, max_retries=3, progress=True):
    """the ids in chunks of `chunk` cases, each a Ray task (one core)"""
    try:
        import ray
    except ImportError as e:
        sys.exit(f"{suite.name} peer: --engine ray needs Ray, tc5's optional dependency: pip install 'tc5[ray]' "
                 f"(or pip install ray tqdm); or --engine xdist (one machine) / local ({e})")
    try:
        from tqdm.auto import tqdm
    except ImportError:
        tqdm = None
    started = False
    if not ray.is_initialized():
        address = address or os.environ.get("RAY_ADDRESS") or None
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
        started = True
    try:
        # this script is no module a worker can import: its task goes by value
        from ray import cloudpickle
        cloudpickle.register_pickle_by_value(sys.modules[__name__])
        files = ray.put(suite.workfiles())
        task = ray.remote(num_cpus=1, max_retries=max_retries, retry_exceptions=False)(_ray_chunk)
        chunks = [ids[i:i + chunk] for i in range(0, len(ids), chunk)]
        # the files go by reference (one copy in the object store; Ray resolves it for the task)
        refs = {task.remote(files, suite.env, c, python): c for c in chunks}
        rows, pending = {}, list(refs)
        bar = tqdm(total=len(ids), desc=f"{suite.name} peer", unit="case") if (tqdm and progress) else None
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for r in done:
                try:
                    res = ray.get(r)
                except Exception as e:  # the task died for good (retries spent)
                    res = {i: ("crashed", f"Ray: the chunk's task failed: {type(e).__name__}: {e}"[:2000], None, {})
                           for i in refs[r]}
                rows.update(res)
                if bar:
                    bar.update(len(refs[r]))
                    bar.set_postfix_str(", ".join(f"{n} {o}" for o, n in
                                                  sorted(collections.Counter(v[0] for v in rows.values()).items())))
        if bar:
            bar.close()
        return rows
    finally:
        if started:
            ray.shutdown()


def run_xdist(suite: Suite, ids, *, python, work, jobs):
    """one pytest process, pytest-xdist's --jobs workers"""
    write_files(suite, work)
    xml = os.path.join(work, "xdist.xml")
    rc = _pytest(python, work, suite.environment(), ids, xml, os.path.join(work, "xdist.log"),
                 extra=("-p", "xdist", "-n", str(jobs), "--dist", "load"))
    return read_xml(xml, ids, rc)


INTERRUPT_GRACE = 10  # seconds a pytest process has, after the deadline's SIGINT, to write its junit XML
SALVAGED = "# salvaged: the cases below were not reached by the deadline; chunkK.txt lists the cases kept"


def run_chunk(py, work, env, ids, k, deadline=None):
    """the local engine's chunk k: its results; None when the deadline
    (time.time()) came first (the chunk is dropped: a later run with the
    same --work runs it, and reuses the chunks that finished; the cases
    it finished before the deadline are kept for --from-work)"""
    sel = os.path.join(work, f"chunk{k}.txt")
    xml = os.path.join(work, f"chunk{k}.xml")
    dropped = os.path.join(work, f"chunk{k}.dropped")  # stopped by the deadline: not run (for --from-work)
    text = "\n".join(ids)
    if os.path.exists(xml) and os.path.exists(sel) and open(sel).read() == text:
        return read_xml(xml, ids, "unknown")  # done by an earlier run of this work directory
    if deadline is not None and time.time() > deadline - 5:
        return None
    with open(sel, "w") as fh:
        fh.write(text)
    part = xml + ".part"
    rc = _pytest(py, work, env, ids, part, os.path.join(work, f"chunk{k}.log"),
                 timeout=None if deadline is None else max(1.0, deadline - time.time()))
    if rc is None:
        # stopped by the deadline: the cases pytest finished before the interrupt are kept (chunkK.txt and
        # chunkK.xml become theirs; chunkK.dropped lists the rest, after the line SALVAGED), the rest are not run
        rows = read_xml(part, ids, "interrupted") if os.path.exists(part) else {}
        done = [i for i in ids if i in rows and rows[i][0] != "crashed" and "KeyboardInterrupt" not in rows[i][1]]
        with open(dropped, "w") as fh:
            if done:
                fh.write("\n".join([SALVAGED] + [i for i in ids if i not in done]))
        if done:
            with open(sel, "w") as fh:
                fh.write("\n".join(done))
            os.replace(part, xml)
        return None
    if os.path.exists(dropped):
        os.remove(dropped)
    if os.path.exists(part):
        os.replace(part, xml)
    return read_xml(xml, ids, rc)


def run_local(suite: Suite, ids, *, python, work, jobs, chunk, deadline=None):
    """the single-node deadline-and-resume path; None when the deadline stopped it before the end"""
    write_files(suite, work)
    env = suite.environment()
    chunks = [ids[i:i + chunk] for i in range(0, len(ids), chunk)]
    rows, t = {}, time.time()
    stop = t + deadline if deadline else None
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        futs = {ex.submit(run_chunk, python, work, env, c, k, stop): k for k, c in enumerate(chunks)}
        for f in concurrent.futures.as_completed(futs):
            if f.result() is None:
                continue
            rows.update(f.result())
            n = collections.Counter(v[0] for v in rows.values())
            print(f"  chunk {futs[f]}: {len(rows)}/{len(ids)} done, {dict(n)}, {time.time() - t:.0f} s", flush=True)
    if len(rows) < len(ids):
        print(f"{len(ids) - len(rows)} cases not done by the deadline: run the same command again", flush=True)
        return None
    return rows


def from_work(work):
    """a local run's results so far: (rows in order, cases of chunks --deadline stopped)"""
    rows, order, dropped = {}, [], 0
    chunks = sorted(int(f[5:-4]) for f in os.listdir(work) if re.fullmatch(r"chunk\d+\.txt", f))
    for k in chunks:
        ids = open(os.path.join(work, f"chunk{k}.txt")).read().split("\n")
        dp = os.path.join(work, f"chunk{k}.dropped")
        if os.path.exists(dp):
            rest = open(dp).read().split("\n")
            if rest[0] != SALVAGED:
                dropped += len(ids)  # stopped by --deadline: not run (not a crash)
                continue
            dropped += len(rest) - 1  # stopped by --deadline after the cases of chunkK.txt (kept)
        order += ids
        rows.update(read_xml(os.path.join(work, f"chunk{k}.xml"), ids, "unknown"))
    return {i: rows[i] for i in order}, dropped


def run(suite: Suite, ids, *, engine="ray", python=None, work=None, jobs=1, chunk=None, deadline=None, address=None,
        max_retries=3, progress=True):
    """the cases through an engine: {nodeid: (outcome, message, launches, cost)} in the ids' order (None: the
    local engine's deadline stopped it)"""
    python = python or sys.executable
    if engine == "ray":
        rows = run_ray(suite, ids, python=python, chunk=chunk or 25, address=address, max_retries=max_retries,
                       progress=progress)
    elif engine == "xdist":
        rows = run_xdist(suite, ids, python=python, work=work or tempfile.mkdtemp(prefix="tc5-peer-"), jobs=jobs)
    elif engine == "local":
        rows = run_local(suite, ids, python=python, work=work or tempfile.mkdtemp(prefix="tc5-peer-"), jobs=jobs,
                         chunk=chunk or 100, deadline=deadline)
    else:
        raise ValueError(f"engine {engine!r}: ray, xdist or local")
    return None if rows is None else {i: rows[i] for i in ids}


def one_line(msg):
    """the exception and, for tc5's errors, the PTX instruction it names"""
    lines = [l.strip() for l in msg.splitlines() if l.strip()]
    e = [l[1:].strip() for l in lines if l.startswith("E ")]
    exc = next((l for l in e if re.match(r"[\w.]*(Error|Exception|Timeout|Warning)\b", l)), None)
    s = exc or (e[-1] if e else (lines[0] if lines else ""))
    # the harness's own limit, raised inside another exception's handling (Triton's compiler wraps what its
    # passes raise: a CompilationError whose message ends with the limit's _PeerTimeout): the limit said too
    own = next((l for l in lines if "_PeerTimeout(" in l), None)
    if own and "_PeerTimeout" not in s:
        s = f"{s} ({own})"
    insn = next((l for l in e if re.match(r"- \S+\.ptx:\d+:\d*:? ?\S", l) and " is " not in l), None)
    if insn:
        s += " " + insn
    return s.replace("\t", " ")[:300]


def report(suite: Suite, rows, out):
    """the results file (the same for every engine) and its summary; each case's CPU and wall seconds,
    where the harness measured them, in OUT.cost.tsv beside it"""
    costs = []
    with open(out, "w") as fh:
        fh.write(f"# {suite.title}\n")
        fh.write("# nodeid\toutcome\tcause\tmessage\tlaunches\n")
        for nodeid, (outcome, msg, launches, *cost) in rows.items():
            if outcome == "passed" and suite.zero_launches and launches == 0:
                outcome, msg = suite.zero_launches, "the case passed without launching a kernel through tc5"
            cause = "" if outcome == "passed" else suite.cause_of(outcome, msg, nodeid)
            fh.write(f"{nodeid}\t{outcome}\t{cause}\t{one_line(msg)}\t{'' if launches is None else launches}\n")
            if cost and cost[0]:
                rss = cost[0].get("rss")
                costs.append(f"{nodeid}\t{outcome}\t{cost[0].get('cpu_s', '')}\t{cost[0].get('wall_s', '')}\t"
                             f"{'' if rss is None else round(rss / 2**20)}\n")
    if costs:
        with open(os.path.splitext(out)[0] + ".cost.tsv", "w") as fh:
            fh.write("# nodeid\toutcome\tcpu_s\twall_s\trss_mib (the pytest process's CPU seconds, every thread; "
                     "its peak RSS after the case)\n")
            fh.writelines(costs)
    summarize(out)


def retriage(suite: Suite, path, out):
    """a results file with its cause column recomputed by the suite's rules as they are now (its header
    lines, outcomes, messages and launches kept): rows made before a rule was written, triaged as a new run
    would triage them"""
    lines = open(path).read().splitlines()
    with open(out, "w") as fh:
        for line in lines:
            f = line.split("\t")
            if not line.startswith("#") and len(f) > 3 and f[1] != "passed":
                f[2] = suite.cause_of(f[1], f[3], f[0])
            fh.write("\t".join(f) + "\n")
    return summarize(out)


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
    return outcomes


def arguments(ap: argparse.ArgumentParser):
    """the common command line (a suite's script adds its own sources)"""
    ap.add_argument("--engine", choices=("ray", "xdist", "local"), default="ray",
                    help="ray: chunks as Ray tasks (local Ray, or --address's cluster); xdist: pytest-xdist on this "
                         "machine; local: chunk processes with --deadline and resume (the lent machine)")
    ap.add_argument("--address", default="", help="a Ray cluster (default RAY_ADDRESS, else a local Ray)")
    ap.add_argument("--max-retries", type=int, default=3, help="Ray: runs of a task whose worker or node died")
    ap.add_argument("--every", type=int, default=4)
    ap.add_argument("--only", default="")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--jobs", type=int, default=1, help="xdist's workers; local: chunk processes at a time")
    ap.add_argument("--chunk", type=int, default=0, help="cases a task (ray: 25) or a process (local: 100)")
    ap.add_argument("--work", default="")
    ap.add_argument("--out", default="results.tsv")
    ap.add_argument("--deadline", type=float, default=0, help="local: stop after this many seconds; the same "
                    "command (the same --work) goes on")
    ap.add_argument("--ids", default="", help="run these cases (a file of node ids, one a line; a results file "
                    "will do) instead of a selection")
    ap.add_argument("--list", action="store_true", help="print the selection and stop")
    ap.add_argument("--triage-only", default="", help="re-summarize a results file")
    ap.add_argument("--retriage", default="", help="a results file's causes by the rules now, written to --out")
    ap.add_argument("--from-work", default="", help="local: write --out from a work directory so far")
    ap.add_argument("--no-progress", action="store_true")


def main_with(suite_of, args):
    """the common command line's actions; suite_of(args, work) -> the Suite (its files fetched)"""
    if args.triage_only:
        summarize(args.triage_only)
        return 0
    if args.retriage:
        retriage(suite_of(args, None), args.retriage, args.out)
        return 0
    if args.from_work:
        suite = suite_of(args, None)
        rows, dropped = from_work(args.from_work)
        report(suite, rows, args.out)
        if dropped:
            print(f"{dropped} cases of chunks stopped by --deadline not run (left out of {args.out})")
        return 0
    if args.deadline and args.engine != "local":
        sys.exit("--deadline is the local engine's (--engine local): Ray and xdist runs have no resume")
    work = args.work or tempfile.mkdtemp(prefix="tc5-peer-")
    suite = suite_of(args, work)
    write_files(suite, work)
    if args.ids:
        ids = [l.strip() for l in open(args.ids) if l.strip() and not l.startswith("#")]
        ids = [l.split("\t", 1)[0] for l in ids]
    else:
        ids = select(collect(suite, args.python, work), args.every, args.only)
    if args.list:
        print("\n".join(ids))
        return 0
    what = f"from {args.ids}" if args.ids else f"every {args.every}"
    print(f"{len(ids)} cases ({what}), engine {args.engine}, in {work}", flush=True)
    t = time.time()
    rows = run(suite, ids, engine=args.engine, python=args.python, work=work, jobs=args.jobs,
               chunk=args.chunk or None, deadline=args.deadline or None, address=args.address or None,
               max_retries=args.max_retries, progress=not args.no_progress)
    if rows is None:
        return 3
    report(suite, rows, args.out)
    print(f"{len(ids)} cases in {time.time() - t:.0f} s ({args.engine})")
    return 0


def main(suite: Suite, argv=None):
    """the common command line for a suite whose files are at hand"""
    ap = argparse.ArgumentParser(description=f"the {suite.name} peer suite on tc5 (scripts/peer_harness.py)")
    arguments(ap)
    args = ap.parse_args(argv)
    return main_with(lambda a, work: suite, args)
