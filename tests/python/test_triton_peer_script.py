"""scripts/triton_peer.py's bookkeeping, without Triton: --from-work writes
the results of a work directory so far, a chunk that --deadline stopped
left out and counted (not run), a chunk whose pytest never wrote its report
recorded as crashed, and a chunk the deadline stops is marked so (the
local engine's, the lent machine's path: scripts/peer_harness.py; the
other engines are tests/python/test_peer_harness.py's)."""
import pathlib
import subprocess
import sys

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "triton_peer.py"
XML = ('<testsuites><testsuite><testcase classname="test_core" name="test_a[1]"/>'
       '<testcase classname="test_core" name="test_a[2]"><skipped message="own condition"/></testcase>'
       '</testsuite></testsuites>')


def _rows(path):
    return {f[0]: f[1] for f in (l.rstrip("\n").split("\t") for l in open(path) if not l.startswith("#"))}


def test_from_work(tmp_path):
    w = tmp_path / "work"
    w.mkdir()
    (w / "chunk0.txt").write_text("test_core.py::test_a[1]\ntest_core.py::test_a[2]")
    (w / "chunk0.xml").write_text(XML)
    (w / "chunk1.txt").write_text("test_core.py::test_b[1]\ntest_core.py::test_b[2]\ntest_core.py::test_b[3]")
    (w / "chunk1.dropped").write_text("")
    (w / "chunk2.txt").write_text("test_core.py::test_c[1]")  # its pytest died before writing chunk2.xml
    out = tmp_path / "r.tsv"
    r = subprocess.run([sys.executable, str(SCRIPT), "--from-work", str(w), "--out", str(out)], text=True,
                       capture_output=True)
    assert r.returncode == 0, r.stderr
    assert _rows(out) == {"test_core.py::test_a[1]": "passed", "test_core.py::test_a[2]": "skipped",
                          "test_core.py::test_c[1]": "crashed"}
    assert "3 cases of chunks stopped by --deadline not run" in r.stdout
    assert "3 cases: 1 crashed, 1 passed, 1 skipped" in r.stdout


def test_deadline_drops_the_chunk(tmp_path):
    """a chunk the deadline stops is killed, marked dropped (no results), and runs again later"""
    import importlib.util
    import time
    spec = importlib.util.spec_from_file_location("triton_peer", SCRIPT)
    peer = importlib.util.module_from_spec(spec)
    sys.modules["triton_peer"] = peer
    spec.loader.exec_module(peer)
    (tmp_path / "test_core.py").write_text("import os\nimport time\n\n\ndef test_a():\n"
                                           "    time.sleep(float(os.environ['NAP']))\n")
    ids = ["test_core.py::test_a"]
    env = dict(peer.environment(), NAP="120")
    assert peer.run_chunk(sys.executable, str(tmp_path), env, ids, 0, time.time() + 6) is None
    assert (tmp_path / "chunk0.dropped").exists() and not (tmp_path / "chunk0.xml").exists()
    res = peer.run_chunk(sys.executable, str(tmp_path), dict(env, NAP="0"), ids, 0)
    assert res == {"test_core.py::test_a": ("passed", "", None, {})}  # no harness conftest here: no launch count, no cost
    assert not (tmp_path / "chunk0.dropped").exists()
