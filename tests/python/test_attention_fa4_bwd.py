"""FlashAttention-4's backward pass (preprocess, the CTA-pair main kernel,
postprocess; seqlen 1024, 2 heads, d 128, bf16) on tc5 through the package
(tc5.run_ptx with host addresses: the kernels' pointers are the arrays'),
dQ, dK, dV within FA4's own test rule against float64
(tests/attention/fa4_bwd_run.py). The default checker reports
st-reg-overwrite on the main kernel (a tcgen05.st's source registers
reassigned before tcgen05.wait::st: 32 findings, one class; see
docs/flash_attention.md), so this runs with the checker off and asserts
that finding class exactly."""
import os
import sys

import pytest

pytest.importorskip("numpy")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "attention"))
import fa4_bwd_run  # noqa: E402


def test_fa4_backward_within_fa4s_rule(capsys):
    assert fa4_bwd_run.main(["fa4_bwd_run.py", "--check", "none"]) == 0
    assert "dQ max|err|" in capsys.readouterr().out


def test_fa4_backward_default_checker_names_st_reg_overwrite_only(capsys):
    assert fa4_bwd_run.main(["fa4_bwd_run.py"]) == 1
    out = capsys.readouterr().out
    summary = [line for line in out.splitlines() if "checker findings, rules:" in line]
    assert summary and summary[0].startswith("fa4 backward main:"), out[-2000:]
    assert summary[0].split("rules: ")[1].split() == ["st-reg-overwrite"], summary[0]
