"""scripts/peer_merge.py: a peer suite's later calls merged into its whole-suite results (issue 50)"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "peer_merge.py")
COLS = "# nodeid\toutcome\tcause\tmessage\tlaunches\n"


def write(p, lines):
    p.write_text("".join(lines))
    return str(p)


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


def test_merge_orders_by_file_and_rewrites_not_reached(tmp_path):
    res = write(tmp_path / "whole_results.tsv", ["# title\n", COLS, "t/a.py::x\tpassed\t\t\t1\n",
                                                 "t/c.py::x\tpassed\t\t\t1\n"])
    write(tmp_path / "whole_results.cost.tsv", ["# nodeid\toutcome\tcpu_s\n", "t/a.py::x\tpassed\t1.0\n"])
    nr = write(tmp_path / "nr.txt", ["# the cases not reached\n", "# 3 cases\n", "t/a.py::y\n", "t/b.py::x\n",
                                     "t/c.py::y\n"])
    c1 = write(tmp_path / "g0.tsv", ["# title\n", COLS, "t/c.py::y\tfailed\tx\tm\t2\n", "t/a.py::y\tpassed\t\t\t1\n"])
    write(tmp_path / "g0.cost.tsv", ["# h\n", "t/c.py::y\tfailed\t9.0\n"])
    c2 = write(tmp_path / "g1.tsv", ["# title\n", COLS, "t/c.py::y\tpassed\t\t\t2\n"])  # a later call's row wins
    r = run(res, nr, c1, c2, "--note", "call 2")
    assert r.returncode == 0, r.stderr
    assert "3 cases merged" not in r.stdout and "2 cases merged (0 run again), 1 not reached" in r.stdout
    rows = open(res).read().splitlines()
    assert rows[:3] == ["# title", "# call 2", COLS.strip()]
    assert [x.split("\t")[0] for x in rows[3:]] == ["t/a.py::x", "t/a.py::y", "t/c.py::x", "t/c.py::y"]
    assert rows[-1].split("\t")[1] == "passed"
    assert open(tmp_path / "whole_results.cost.tsv").read().splitlines()[1:] == ["t/a.py::x\tpassed\t1.0",
                                                                                "t/c.py::y\tfailed\t9.0"]
    assert open(nr).read() == "# the cases not reached\n# 1 cases\nt/b.py::x\n"


def test_merge_refuses_strays_and_cases_merged_twice(tmp_path):
    res = write(tmp_path / "whole_results.tsv", ["# title\n", COLS, "t/a.py::x\tpassed\t\t\t1\n"])
    nr = write(tmp_path / "nr.txt", ["# h\n", "# 1 cases\n", "t/a.py::y\n"])
    stray = write(tmp_path / "g0.tsv", [COLS, "t/z.py::q\tpassed\t\t\t1\n"])
    r = run(res, nr, stray)
    assert r.returncode != 0 and "not in" in r.stderr and "t/z.py::q" in r.stderr
    nr2 = write(tmp_path / "nr2.txt", ["# h\n", "# 1 cases\n", "t/a.py::x\n"])
    again = write(tmp_path / "g1.tsv", [COLS, "t/a.py::x\tpassed\t\t\t1\n"])
    r = run(res, nr2, again)
    assert r.returncode != 0 and "already in" in r.stderr
    assert open(res).read().count("\n") == 3  # nothing written


def test_rerun_replaces_rows_where_they_stood(tmp_path):
    res = write(tmp_path / "whole_results.tsv", ["# title\n", COLS, "t/a.py::x\tfailed\tslow\t\t1\n",
                                                 "t/b.py::x\tpassed\t\t\t1\n"])
    write(tmp_path / "whole_results.cost.tsv", ["# h\n", "t/a.py::x\tfailed\t120.1\n", "t/b.py::x\tpassed\t1.0\n"])
    nr = write(tmp_path / "nr.txt", ["# h\n", "# 1 cases\n", "t/a.py::y\n"])
    call = write(tmp_path / "g0.tsv", [COLS, "t/a.py::y\tpassed\t\t\t1\n", "t/a.py::x\tpassed\t\t\t2\n"])
    write(tmp_path / "g0.cost.tsv", ["# h\n", "t/a.py::y\tpassed\t3.0\n", "t/a.py::x\tpassed\t40.0\n"])
    r = run(res, nr, call)  # without --rerun a case already there is refused
    assert r.returncode != 0 and "not in" in r.stderr
    r = run(res, nr, call, "--rerun", "--note", "re-run")
    assert r.returncode == 0, r.stderr
    assert "2 cases merged (1 run again), 0 not reached" in r.stdout
    rows = open(res).read().splitlines()
    assert rows[3:] == ["t/a.py::x\tpassed\t\t\t2", "t/a.py::y\tpassed\t\t\t1", "t/b.py::x\tpassed\t\t\t1"]
    assert open(tmp_path / "whole_results.cost.tsv").read().splitlines()[1:] == [
        "t/a.py::x\tpassed\t40.0", "t/a.py::y\tpassed\t3.0", "t/b.py::x\tpassed\t1.0"]
    nr3 = write(tmp_path / "nr3.txt", ["# none left\n", "# what ran them\n"])  # a re-run alone: untouched
    again = write(tmp_path / "g1.tsv", [COLS, "t/b.py::x\tfailed\tz\t\t1\n"])
    r = run(res, nr3, again, "--rerun")
    assert r.returncode == 0 and open(nr3).read() == "# none left\n# what ran them\n"
    nr2 = write(tmp_path / "nr2.txt", ["# h\n", "# 1 cases\n", "t/b.py::x\n"])  # in both files: refused
    r = run(res, nr2, call, "--rerun")
    assert r.returncode != 0 and "in both" in r.stderr


def test_combine_orders_parts_by_ids_and_keeps_headers_once(tmp_path):
    # gpu/peer_whole.sh's groups (the shell glob g[0-9]*.tsv names g0.cost.tsv too: skipped, g0.tsv brings it)
    ids = write(tmp_path / "ids.txt", ["t/a.py::x\n", "t/b.py::x\n", "t/c.py::x\n"])
    g0 = write(tmp_path / "g0.tsv", ["# title\n", COLS, "t/c.py::x\tpassed\t\t\t1\n", "t/z.py::x\tpassed\t\t\t1\n"])
    g0c = write(tmp_path / "g0.cost.tsv", ["# costs\n", "t/c.py::x\tpassed\t3.0\n"])
    g1 = write(tmp_path / "g1.tsv", ["# title\n", COLS, "t/a.py::x\tfailed\tx\tm\t0"])  # no newline at its end
    out = str(tmp_path / "whole_results.tsv")
    r = run("--combine", ids, out, g0, g0c, g1)
    assert r.returncode == 0, r.stderr
    assert open(out).read().splitlines() == ["# title", COLS.strip(), "t/a.py::x\tfailed\tx\tm\t0",
                                             "t/c.py::x\tpassed\t\t\t1", "t/z.py::x\tpassed\t\t\t1"]
    assert open(tmp_path / "whole_results.cost.tsv").read() == "# costs\nt/c.py::x\tpassed\t3.0\n"
    assert run("--combine", ids).returncode != 0
