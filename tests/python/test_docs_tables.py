"""docs/python.md's table of the torch.cuda shim's answers is
tc5/torch_cuda.py's ANSWERS (one source of truth). NumPy only."""
import os

import tc5.torch_cuda

DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "python.md")


def test_the_shims_answers_in_the_docs():
    with open(DOC, encoding="utf-8") as f:
        assert tc5.torch_cuda.table() in f.read()
