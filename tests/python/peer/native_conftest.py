"""conftest.py for tc5's Liger probes (probe_liger_ce.py, probe_liger_mrms.py) run natively on a GPU
(issue 50, l50g; `gpu/liger_h200.sh`'s companion): copied beside the sdist's src/ and test/ as
conftest.py in place of liger_conftest.py. Under tc5's torch.cuda shim a "cuda" tensor is host
memory, so `torch.randn(..., device="cuda")` draws from PyTorch's CPU generator; natively it would
draw from CUDA's Philox generator, other numbers. Here the random draws the probes and the tests'
helpers make for "cuda" are drawn by the CPU generator, as under the shim, and moved to the GPU,
so both machines compute on the same inputs, given the same PyTorch: its CPU generator's bf16 draws
changed between 2.11 (the H200's, equal to 2.9's) and 2.15 (here); each probe prints its inputs'
SHA-256, and probe_liger_mrms.py takes another machine's draws (TC5_PROBE_INPUTS, mrms_inputs.py)."""
import torch

_randn, _rand, _randint, _randperm = torch.randn, torch.rand, torch.randint, torch.randperm


def _on_cpu(fn):
    def draw(*args, device=None, **kwargs):
        if device is not None and torch.device(device).type == "cuda":
            return fn(*args, device="cpu", **kwargs).to(device)
        return fn(*args, device=device, **kwargs)
    return draw


torch.randn, torch.rand, torch.randint, torch.randperm = (_on_cpu(f) for f in (_randn, _rand, _randint, _randperm))
torch.rand_like = lambda t, **kw: _rand(t.shape, dtype=kw.get("dtype", t.dtype)).to(t.device)
torch.randn_like = lambda t, **kw: _randn(t.shape, dtype=kw.get("dtype", t.dtype)).to(t.device)
