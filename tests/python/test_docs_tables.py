"""docs/python.md's table of the torch.cuda shim's answers is
tc5/torch_cuda.py's ANSWERS (one source of truth); docs/fidelity.md's counts of the Liger and
FlagGems selections (and of the two whole-suite runs) are the committed results files'. NumPy only."""
import os

import tc5.torch_cuda

DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "python.md")


def test_the_shims_answers_in_the_docs():
    with open(DOC, encoding="utf-8") as f:
        assert tc5.torch_cuda.table() in f.read()


def test_peer_selection_counts_in_the_docs():
    # docs/fidelity.md's counts of the Liger and FlagGems selections are the committed results files'
    # (the harness's --triage-only summary, quoted whole)
    import subprocess
    import sys
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    with open(os.path.join(root, "docs", "fidelity.md"), encoding="utf-8") as f:
        doc = f.read()
    for script, results in (("scripts/liger_peer.py", "tests/data/liger/sel32_results.tsv"),
                            ("scripts/flaggems_peer.py", "tests/data/flaggems/k128_results.tsv"),
                            ("scripts/liger_peer.py", "tests/data/liger/whole_results.tsv"),
                            ("scripts/flaggems_peer.py", "tests/data/flaggems/whole_results.tsv")):
        out = subprocess.run([sys.executable, script, "--triage-only", results], cwd=root, capture_output=True,
                             text=True, check=True).stdout
        assert f"```text\n{out}```" in doc, script
