"""Gluon's Blackwell attention example (Triton's python/examples/gluon/
01-attention-forward.py) through tc5.triton (issue 32): its own host code,
attention_forward(q, k, v, causal, sm_scale, cta_layout=...), launches its
kernel on tc5 (tc5.triton.activate() and the PyTorch CUDA shim: "cuda"
tensors on the CPU), with the checker on (a finding raises), and O is held
to the example's own test tolerance (fp16: atol 1e-2, rtol 0) against a
float64 reference.

Needs triton 3.9, torch (CPU) and a Triton checkout with the example
(TC5_TRITON_SRC=DIR holding python/examples/gluon; facebookexperimental/triton
at db4666f2 was used); skipped otherwise. The example is read at run time,
never copied: a patched copy under pytest's tmp_path gets the API renames
tests/data/ptx/census/gen_triton_corpus.py lists (Triton 3.9's names)."""
import importlib.util
import os
import sys

import numpy as np
import pytest

triton = pytest.importorskip("triton")
torch = pytest.importorskip("torch")
pytest.importorskip("triton.experimental.gluon")
SRC = os.environ.get("TC5_TRITON_SRC", "")
EXAMPLE = os.path.join(SRC, "python", "examples", "gluon", "01-attention-forward.py")
if not SRC or not os.path.exists(EXAMPLE):
    pytest.skip("TC5_TRITON_SRC names no Triton checkout with python/examples/gluon", allow_module_level=True)

import tc5.triton  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    tc5.triton.activate()
    tc5.triton.torch_cuda_shim()
    sys.path.insert(0, os.path.join(ROOT, "tests", "data", "ptx", "census"))
    try:
        import gen_triton_corpus  # noqa: E402  (RENAMES only: nothing runs at import)
    finally:
        sys.path.pop(0)
    import re
    text = open(EXAMPLE).read()
    for file_re, old, new, _why in gen_triton_corpus.RENAMES:
        if re.search(file_re, "python/examples/gluon/01-attention-forward.py"):
            text = text.replace(old, new)
    path = tmp_path_factory.mktemp("gluon") / "attention_forward_example.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location("attention_forward_example", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def reference(q, k, v, causal, sm_scale):
    q64, k64, v64 = (x.float().numpy().astype(np.float64) for x in (q, k, v))
    s = np.einsum("zhsd,zhtd->zhst", q64, k64) * sm_scale
    if causal:
        n = s.shape[-1]
        s = np.where(np.arange(n)[None, :] > np.arange(n)[:, None], -np.inf, s)
    p = np.exp(s - s.max(-1, keepdims=True))
    return np.einsum("zhst,zhtd->zhsd", p / p.sum(-1, keepdims=True), v64)


@pytest.mark.parametrize("d,causal,cta_layout,n", [(64, False, (), 256), (128, True, (), 256),
                                                   (64, False, ((1, 0), ), 512)],
                         ids=["d64-1cta", "d128-causal-1cta", "d64-2ctas"])
def test_gluon_attention_forward(example, d, causal, cta_layout, n):
    torch.manual_seed(42)
    shape = (1, 2, n, d)
    q, k, v = (torch.empty(shape, device="cuda").normal_(mean=0.0, std=0.5).to(torch.float16) for _ in range(3))
    o, _ = example.attention_forward(q, k, v, causal, 0.5, cta_layout=cta_layout)
    err = np.abs(o.float().numpy() - reference(q, k, v, causal, 0.5)).max()
    assert err <= 1e-2, f"O max|err| {err} above the example's atol 1e-2"
