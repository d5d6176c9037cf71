"""scripts/peer_harness.py, the one peer-suite harness (issue 48), on a
synthetic suite (no Triton): each engine (ray: chunks as Ray tasks on a
local Ray; xdist; local: chunk processes) gives the same results file --
outcomes, causes, the per-case launch count, "not run" for a case that
passed without a launch where the suite asks -- and a pytest process that
dies is recorded as crashed. The Ray test skips without Ray (the extra
tc5[ray]), the xdist one without pytest-xdist. About 40 s (Ray's start-up
most of it)."""
import importlib.util
import pathlib
import sys
import time

import pytest

HERE = pathlib.Path(__file__).resolve()
spec = importlib.util.spec_from_file_location("peer_harness", HERE.parents[2] / "scripts" / "peer_harness.py")
H = importlib.util.module_from_spec(spec)
sys.modules["peer_harness"] = H
spec.loader.exec_module(H)

# a fake tc5.triton whose launches() a case advances: the launch count the harness's conftest reads
TESTS = b'''
import os
import sys
import types

import pytest


def _launch(n):
    m = sys.modules.get("tc5.triton")
    if m is None or not hasattr(m, "count"):
        m = types.ModuleType("tc5.triton")
        m.count = 0
        m.launches = lambda: m.count
        sys.modules["tc5.triton"] = m
    m.count += n


@pytest.mark.parametrize("i", range(4))
def test_kernel(i):
    _launch(i + 1)
    assert os.environ["PEER_FLAG"] == "on"


def test_no_kernel():
    assert True


def test_wrong():
    _launch(1)
    raise AssertionError("Mismatch: 3 of 16 elements differ")


def test_skip():
    pytest.skip("needs an AMD GPU")
'''
CRASH = b'''
import os


def test_dies():
    os._exit(7)
'''


def make_suite(crash=False):
    files = {"test_a.py": TESTS}
    tests = ["test_a.py"]
    if crash:
        files["test_b.py"] = CRASH
        tests.append("test_b.py")
    return H.Suite(name="synthetic", title="a synthetic suite", files=files, tests=tests,
                   env={"PEER_FLAG": "on", "TC5_TRITON": None},
                   causes=[("skip: its own condition", r"^SKIP"), ("test: result differs", r"Mismatch"),
                           ("other", r"")],
                   zero_launches="not run")


EXPECTED = {
    "test_a.py::test_kernel[0]": ("passed", "", "1"),
    "test_a.py::test_kernel[1]": ("passed", "", "2"),
    "test_a.py::test_kernel[2]": ("passed", "", "3"),
    "test_a.py::test_kernel[3]": ("passed", "", "4"),
    "test_a.py::test_no_kernel": ("not run", "other", "0"),
    "test_a.py::test_wrong": ("failed", "test: result differs", "1"),
    "test_a.py::test_skip": ("skipped", "skip: its own condition", "0"),
}


def results(path):
    rows = {}
    for line in open(path):
        if line.startswith("#"):
            continue
        f = line.rstrip("\n").split("\t")
        assert len(f) == 5, line
        rows[f[0]] = (f[1], f[2], f[4])
    return rows


def ids_of(suite, tmp_path):
    work = tmp_path / "collect"
    H.write_files(suite, str(work))
    return H.collect(suite, sys.executable, str(work))


def test_select_every_kth():
    ids = [f"t.py::f[{i}]" for i in range(5)] + ["t.py::g"] + [f"t.py::h[{i}]" for i in range(3)]
    assert H.select(ids, 2) == ["t.py::f[0]", "t.py::f[2]", "t.py::f[4]", "t.py::g", "t.py::h[0]", "t.py::h[2]"]


def test_local_engine(tmp_path):
    suite = make_suite()
    ids = ids_of(suite, tmp_path)
    assert len(ids) == 7
    rows = H.run(suite, ids, engine="local", work=str(tmp_path / "w"), jobs=2, chunk=3)
    H.report(suite, rows, str(tmp_path / "r.tsv"))
    assert results(tmp_path / "r.tsv") == EXPECTED


def test_xdist_engine(tmp_path):
    pytest.importorskip("xdist", reason="the xdist engine needs pytest-xdist (pip install pytest-xdist)")
    suite = make_suite(crash=True)
    ids = ids_of(suite, tmp_path)
    rows = H.run(suite, ids, engine="xdist", work=str(tmp_path / "w"), jobs=2)
    H.report(suite, rows, str(tmp_path / "r.tsv"))
    got = results(tmp_path / "r.tsv")
    assert got.pop("test_b.py::test_dies")[0] == "crashed"
    assert got == EXPECTED


def test_ray_engine(tmp_path):
    pytest.importorskip("ray", reason="the Ray engine needs Ray: pip install 'tc5[ray]'")
    suite = make_suite(crash=True)
    ids = ids_of(suite, tmp_path)
    ids = ids[:6] + ids[7:] + ids[6:7]  # test_skip last: [k0 k1 k2] [k3 no_kernel wrong] [dies skip]
    import ray
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        # chunks of 3: the crashing case alone in the last (a crash loses its chunk's cases)
        rows = H.run(suite, ids, engine="ray", chunk=3, progress=False)
    finally:
        ray.shutdown()
    H.report(suite, rows, str(tmp_path / "r.tsv"))
    got = results(tmp_path / "r.tsv")
    assert got.pop("test_b.py::test_dies")[0] == "crashed"
    assert got.pop("test_a.py::test_skip")[0] == "crashed"  # in the crashed process's chunk
    assert got == {k: v for k, v in EXPECTED.items() if k != "test_a.py::test_skip"}
    assert list(rows) == ids  # the results in the selection's order


def test_ray_absent_names_the_extra(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    with pytest.raises(SystemExit, match=r"pip install 'tc5\[ray\]'"):
        H.run(make_suite(), ["test_a.py::test_skip"], engine="ray")


# the case limit in CPU seconds (TC5_PEER_CPU_LIMIT, ITIMER_PROF): a case that computes past it stops with the
# limit's cause; a case that waits (sleep: no CPU) is not stopped by it, however loaded the machine; every case's
# CPU and wall seconds, and the process's peak RSS after it, go to OUT.cost.tsv
BUSY = b'''
import time


def test_spins():
    t = time.process_time()
    while time.process_time() - t < 30:
        pass


def test_waits():
    time.sleep(2.5)  # wall past the limit, no CPU


def test_holds():
    b = bytearray(1 << 30)  # 1 GiB, touched: above any start-up peak of the process
    b[::4096] = b"x" * len(b[::4096])
'''


def test_cpu_limit(tmp_path):
    suite = H.Suite(name="synthetic", title="a synthetic suite", files={"test_c.py": BUSY}, tests=["test_c.py"],
                    # 2 s: test_holds' page faults cost 0.66 CPU s alone on a 2-core host, past 1 s in one of
                    # three runs there (session 12); test_waits sleeps past it, test_spins spins 15 times it
                    env={"TC5_PEER_CPU_LIMIT": "2", "TC5_PEER_TIMEOUT": "120", "TC5_TRITON": None},
                    causes=[("past the limit", r"used more than TC5_PEER_CPU_LIMIT"), ("other", r"")])
    ids = ids_of(suite, tmp_path)
    rows = H.run(suite, ids, engine="local", work=str(tmp_path / "w"), jobs=1, chunk=2)
    H.report(suite, rows, str(tmp_path / "r.tsv"))
    assert results(tmp_path / "r.tsv") == {"test_c.py::test_spins": ("failed", "past the limit", "0"),
                                           "test_c.py::test_waits": ("passed", "", "0"),
                                           "test_c.py::test_holds": ("passed", "", "0")}
    cost = {f[0]: (float(f[2]), float(f[3]), int(f[4])) for f in (l.rstrip("\n").split("\t") for l in
                                                                  open(tmp_path / "r.cost.tsv") if not l.startswith("#"))}
    assert 1.9 <= cost["test_c.py::test_spins"][0] < 5      # stopped at about two CPU seconds, the limit, not 30
    assert cost["test_c.py::test_waits"][0] < 1 and cost["test_c.py::test_waits"][1] >= 2  # wall past the limit
    # MiB, the process's peak so far (ru_maxrss): a chunk's start-up peak (pytest, the harness's conftest
    # and what it imports) depends on the environment (about 600 MiB in CI's, freed before the cases run);
    # the 1 GiB test_holds touches shows above it
    assert cost["test_c.py::test_waits"][2] < 1024 <= cost["test_c.py::test_holds"][2]


def test_known_rules_match_what_was_raised():
    # a KNOWN rule's message pattern is matched on the exception (junit's message and pytest's "E" lines), not
    # on the traceback's source lines, which hold the test's name: FlagGems' test_flash_attention_forward_gqa_...
    # contains "_flash_attention_forward" and failed on the checker's proxy-fence, not on that reference
    spec = importlib.util.spec_from_file_location("flaggems_peer", HERE.parents[2] / "scripts" / "flaggems_peer.py")
    fg = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fg)
    suite = fg.suite()
    node = "tests/test_flash_attention.py::test_flash_attention_forward_gqa_alibi_softcap[dtype0-True-None]"
    hazard = ("tc5.HazardError: tc5: kernel flash_fwd_kernel breaks proxy-fence (the checker's 72 finding(s)):\n"
              "    def test_flash_attention_forward_gqa_alibi_softcap(\n"
              ">       out = flag_gems.ops.flash_attn_varlen_func(q, k, v)\n"
              "E       tc5.HazardError: tc5: kernel flash_fwd_kernel breaks proxy-fence (the checker's 72 finding(s)):\n"
              "E       error [proxy-fence] (9.7.16.6.5): tcgen05.mma reads B at shared memory 0x18400\n")
    assert suite.cause_of("failed", hazard, node).startswith("Triton before 3.8 (3.5 and 3.6 here): no fence.proxy.async")
    reference = ("tc5.device_attention.SdpaRefused: tc5.device: aten::_flash_attention_forward with dropout_p=0.1 (its "
                 "Philox dropout stream) is CUDA's FlashAttention-2 kernel, which tc5 does not define on the CPU\n"
                 "    def test_flash_fwd_dropout(\nE       tc5.device_attention.SdpaRefused: tc5.device: "
                 "aten::_flash_attention_forward with dropout_p=0.1 (its Philox dropout stream)\n")
    assert suite.cause_of("failed", reference, node).startswith("tc5 (device identity): the test's reference calls")
    assert H.raised("the case passed without launching a kernel through tc5") == \
        "the case passed without launching a kernel through tc5"
    assert H.raised("A: first\n    source line\nE   A: first\nE   more") == "A: first\nE   A: first\nE   more"
    # the harness's CPU limit raised during Triton's compilation, which wraps it in a CompilationError: the
    # results file's one line keeps the limit, so that --retriage names the same cause as the run did
    wrapped = ("triton.compiler.errors.CompilationError: at 88:32:\n    out_grad_mask = (output_n_offset < in_n)\n"
               "_PeerTimeout('tc5 peer: the case used more than TC5_PEER_CPU_LIMIT=120 CPU seconds')\n"
               "E   triton.compiler.errors.CompilationError: at 88:32:\n")
    line = H.one_line(wrapped)
    assert line.startswith("triton.compiler.errors.CompilationError: at 88:32: (_PeerTimeout(")
    assert suite.cause_of("failed", line, "tests/test_conv2d.py::test_conv2d[x]") == \
        suite.cause_of("failed", wrapped, "tests/test_conv2d.py::test_conv2d[x]") == \
        "too slow for a CPU model: past the per-case CPU limit (TC5_PEER_CPU_LIMIT)"


def test_retriage_recomputes_causes(tmp_path):
    # --retriage: a results file's cause column by the rules as they are now; headers, outcomes, messages and
    # launches kept, passes left without a cause
    spec = importlib.util.spec_from_file_location("flaggems_peer", HERE.parents[2] / "scripts" / "flaggems_peer.py")
    fg = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fg)
    src, out = tmp_path / "old.tsv", tmp_path / "new.tsv"
    node = "tests/test_pointwise_dynamic.py::test_dynamic_function_with_multithread[True]"
    src.write_text("# a title\n# nodeid\toutcome\tcause\tmessage\tlaunches\n"
                   f"{node}\tfailed\tother\tSystemError: AST constructor recursion depth mismatch (before=48, after=44)\t28\n"
                   "tests/test_x.py::test_y\tpassed\t\t\t3\n")
    counts = H.retriage(fg.suite(), str(src), str(out))
    lines = out.read_text().splitlines()
    assert lines[:2] == src.read_text().splitlines()[:2]
    assert lines[2].split("\t")[2].startswith("environment: CPython 3.11's ast under threads")
    assert lines[2].split("\t")[3:] == ["SystemError: AST constructor recursion depth mismatch (before=48, after=44)", "28"]
    assert lines[3] == "tests/test_x.py::test_y\tpassed\t\t\t3"
    assert counts == {"failed": 1, "passed": 1}


# the local engine's deadline (w51): pytest gets SIGINT, and the cases it finished before it are kept (chunkK.txt
# and chunkK.xml become theirs, chunkK.dropped lists the rest): --from-work reports them, the rest are not run
SLOW = b'''
import time

import pytest


@pytest.mark.parametrize("i", range(4))
def test_quick(i):
    pass


@pytest.mark.parametrize("i", range(2))
def test_slow(i):
    time.sleep(600)
'''


def test_deadline_keeps_finished_cases(tmp_path):
    suite = H.Suite(name="synthetic", title="a synthetic suite", files={"test_d.py": SLOW}, tests=["test_d.py"],
                    env={"TC5_TRITON": None}, causes=[("other", r"")])
    ids = ids_of(suite, tmp_path)
    work = str(tmp_path / "w")
    t = time.time()
    # the deadline leaves pytest's start-up and the quick cases time on a loaded 2-core CI machine (8 s did not)
    assert H.run(suite, ids, engine="local", work=work, jobs=1, chunk=len(ids), deadline=30) is None
    assert time.time() - t < 30 + H.INTERRUPT_GRACE + 20  # stopped by SIGINT, not by the 600 s sleep
    rows, dropped = H.from_work(work)
    assert list(rows) == [f"test_d.py::test_quick[{i}]" for i in range(4)]
    assert all(v[0] == "passed" for v in rows.values())
    assert dropped == 2
