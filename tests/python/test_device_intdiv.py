"""PyTorch's integer division by 0 (and of the minimum by -1) on tc5's "cuda" device, as on the H200
(tc5.device_intdiv, issue 50).

`gpu/run.sh intdiv` ran gpu/intdiv_probe.py on the H200 (PyTorch 2.11): every operator that divides integers
(floor_divide, //, remainder, %, fmod, div with rounding_mode trunc and floor), int8/16/32/64 and uint8, divisors
as a tensor, a 0-d tensor, a Python int and in place, 0 and -1 among them: tests/data/device_intdiv/intdiv_cuda.tsv.
Here every row is checked against tc5.device_intdiv's values, and the probe's own calls are made again under the
torch.cuda shim (a fresh process), where PyTorch's CPU kernels raise ZeroDivisionError (and die of SIGFPE for the
int32/int64 minimum over -1 by rounding_mode="trunc"): each answer must be the H200's. Then the forms the probe did
not make (a 0-d or Python-number dividend, out=, mixed types, broadcasting: FlagGems' test_floor_divide_int and
test_remainder make `d // x` and `d % x` with a 0-d d), the refusals, and a library's own CUDA kernel (reached, as
on a GPU). Needs PyTorch (and Triton for the shim's cases)."""
import os
import sys

import pytest

torch = pytest.importorskip("torch")

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TABLE = os.path.join(ROOT, "tests", "data", "device_intdiv", "intdiv_cuda.tsv")
EDGES = os.path.join(ROOT, "tests", "data", "device_intdiv", "intdiv_edges_cuda.tsv")  # gpu/run.sh intdiv-edges
sys.path.insert(0, os.path.join(ROOT, "gpu"))
import intdiv_probe as P  # noqa: E402

from tc5 import device_intdiv as D  # noqa: E402

KERNEL = {"floor_divide": "floor", "floordiv_op": "floor", "div_floor": "floor", "div_trunc": "trunc",
          "remainder": "remainder", "mod_op": "remainder", "fmod": "fmod"}


def _rows(table=TABLE):
    rows = {}
    with open(table) as f:
        for line in f:
            if not line.startswith("#"):
                op, form, dt, a, b, r = line.rstrip("\n").split("\t")
                rows[(op, form, dt, int(a), int(b))] = r
    return rows


ROWS = _rows()
EDGE_ROWS = _rows(EDGES)


def test_every_probed_call_was_measured():
    keys = [(op, form, dt, a, b) for op, form, dt, pairs, _ in P.calls("cpu") for a, b in pairs]
    assert sorted(keys) == sorted(ROWS) and len(ROWS) == 19824
    assert not [r for r in ROWS.values() if r.startswith("error")]  # CUDA answered every one


def test_cuda_values_give_every_row():
    # the rule (what the rows say, written once in tc5.device_intdiv) against each row, no shim
    for op, form, dt, pairs, _ in P.calls("cpu"):
        t = getattr(torch, dt)
        X = torch.tensor([a for a, _ in pairs], dtype=t)
        Y = torch.tensor([b for _, b in pairs], dtype=t)
        ovf = (X == torch.iinfo(t).min) & (Y == -1) if t.is_signed else None
        r = D.cuda_values(KERNEL[op], X, Y, Y == 0, ovf).tolist()
        assert [str(v) for v in r] == [ROWS[(op, form, dt, a, b)] for a, b in pairs], (op, form, dt)


def test_int64_edges_give_every_row():
    # int64 dividends by 0 between intdiv's rows (101 .. 2^63 - 3): the two paths, split at 2^32
    keys = [(op, form, dt, a, b) for op, form, dt, pairs, _ in P.calls("cpu", edges=True) for a, b in pairs]
    assert sorted(keys) == sorted(EDGE_ROWS) and len(EDGE_ROWS) == 168
    for op, form, dt, pairs, _ in P.calls("cpu", edges=True):
        X = torch.tensor([a for a, _ in pairs], dtype=torch.int64)
        Y = torch.tensor([b for _, b in pairs], dtype=torch.int64)
        r = D.cuda_values(KERNEL[op], X, Y, Y == 0, (X == torch.iinfo(torch.int64).min) & (Y == -1)).tolist()
        assert [str(v) for v in r] == [EDGE_ROWS[(op, form, dt, a, b)] for a, b in pairs], (op, form)
    assert EDGE_ROWS[("floor_divide", "tensor", "int64", 2**32 - 1, 0)] == "4294967295"
    assert EDGE_ROWS[("floor_divide", "tensor", "int64", 2**32, 0)] == "-1"


def _shim(body, tmp_path):
    pytest.importorskip("triton")
    from test_device import run  # the device tests' fresh process under the shim
    return run(f"import sys; sys.path.insert(0, {os.path.join(ROOT, 'gpu')!r})\n"
               f"TABLE = {TABLE!r}\n" + body)


def test_every_probed_call_under_the_shim(tmp_path):
    # the probe's own calls on the shim's "cuda" tensors: the H200's rows, byte for byte
    out = tmp_path / "tc5.tsv"
    _shim(f"""
import intdiv_probe as P
with open({str(out)!r}, "w") as f:
    for op, form, dt, pairs, run in P.calls("cuda"):
        try:
            res = [str(v) for v in run()]
        except Exception as e:
            res = ["error: " + type(e).__name__ + ": " + (str(e).strip().splitlines() or [""])[0]] * len(pairs)
        f.writelines(f"{{op}}\\t{{form}}\\t{{dt}}\\t{{a}}\\t{{b}}\\t{{r}}\\n" for (a, b), r in zip(pairs, res))
print("probe ok")
""", tmp_path)
    got = {}
    for line in open(out):
        op, form, dt, a, b, r = line.rstrip("\n").split("\t")
        got[(op, form, dt, int(a), int(b))] = r
    bad = [(k, got.get(k), v) for k, v in ROWS.items() if got.get(k) != v]
    assert not bad and len(got) == len(ROWS), (len(bad), bad[:5])


def test_other_forms_under_the_shim(tmp_path):
    # forms the probe did not make, each pair's value from the H200's rows (every form and spelling of an operator
    # agrees on a pair there: the value is the pair's)
    out = _shim("""
rows = {}
for line in open(TABLE):
    if not line.startswith("#"):
        op, form, dt, a, b, r = line.rstrip("\\n").split("\\t")
        if form == "tensor":
            rows[(op, dt, int(a), int(b))] = int(r)

def h200(op, dt, a, b):
    return torch.tensor([rows[(op, dt, x, y)] for x, y in zip(a, b)], dtype=getattr(torch, dt))

a = [7, -7, 0, 3, -32768, 100]
b = [0, 0, 2, 0, -1, 0]
x = torch.tensor(a, dtype=torch.int16, device="cuda")
y = torch.tensor(b, dtype=torch.int16, device="cuda")
d = torch.tensor(7, dtype=torch.int16, device="cuda")
assert torch.equal(d // y, h200("floor_divide", "int16", [7] * 6, b))  # FlagGems' `d // x`: a 0-d dividend
assert torch.equal(d % y, h200("remainder", "int16", [7] * 6, b))
assert torch.equal(-3 // y, h200("floor_divide", "int16", [-3] * 6, b))  # a Python int dividend
assert torch.equal(torch.remainder(-3, y), h200("remainder", "int16", [-3] * 6, b))
assert torch.equal(torch.floor_divide(x, other=y), h200("floor_divide", "int16", a, b))
o = torch.full((6,), 9, dtype=torch.int32)
r = torch.floor_divide(x, y, out=o)  # out=: the result cast to its type, in it
assert r is o and torch.equal(o, h200("floor_divide", "int16", a, b).int())
w = x.to(torch.int32) // y  # mixed types: int32 (the common type's kernel)
k = [0, 1, 2, 3, 5]  # (-32768 is not one of int32's probed dividends)
assert w.dtype == torch.int32 and torch.equal(w[k], h200("floor_divide", "int32", [a[i] for i in k], [b[i] for i in k]))
z = x.clone()
z //= y
assert torch.equal(z, h200("floor_divide", "int16", a, b))
z = x.clone()
assert z.remainder_(torch.tensor(0, dtype=torch.int16)) is z and torch.equal(z, h200("remainder", "int16", a, [0] * 6))
g = x.view(6, 1).fmod(y.view(1, 6))  # broadcast
assert g.shape == (6, 6) and torch.equal(g[4], h200("fmod", "int16", [-32768] * 6, b))
assert torch.equal(x.to(torch.int8) // 256, h200("floor_divide", "int8", [7, -7, 0, 3, 0, 100], [0] * 6))  # 256 wraps to 0
t = torch.tensor([-2**31, 4], dtype=torch.int32).div(torch.tensor([-1, 2], dtype=torch.int32), rounding_mode="trunc")
assert t.tolist() == [-2**31, 2]  # SIGFPE on the CPU
assert torch.equal(x // 3, torch.tensor([2, -3, 0, 1, -10923, 33], dtype=torch.int16))  # no zero: PyTorch's, as before
f = x.float() // y  # floats: IEEE's, PyTorch's
assert f.dtype == torch.float32 and f[0] == float("inf") and f[1] == float("-inf")
print("forms ok")
""", tmp_path)
    assert "forms ok" in out


def test_refusals_and_library_kernels_under_the_shim(tmp_path):
    # what the H200 did not answer is refused by name; a library's CUDA kernel for the operator is reached instead
    out = _shim("""
from tc5.device_intdiv import CudaIntdivUndefined
for bad in (lambda: torch.tensor([3], dtype=torch.uint16, device="cuda") % 0,):  # a type not measured
    try:
        bad()
        raise AssertionError("not refused")
    except CudaIntdivUndefined as e:
        assert "not measured" in str(e), e
assert (torch.tensor([-7, 100, 2**32 - 1, 2**32], device="cuda") // 0).tolist() == [-2, 4294967295, 4294967295, -1]
# int64's two paths (split at 2^32: intdiv_edges_cuda.tsv)
lib = torch.library.Library("aten", "IMPL")
calls = []

def floor_divide(a, b):
    calls.append("floor_divide")
    return torch.full_like(a, 42)

lib.impl("floor_divide", floor_divide, "CUDA")
x = torch.tensor([5, 6], dtype=torch.int32, device="cuda")
r = x // torch.zeros(2, dtype=torch.int32, device="cuda")
assert calls == ["floor_divide"] and r.tolist() == [42, 42], (calls, r)
assert (x % 0).tolist() == [-1, -1]  # the dispatch mode on, remainder still the H200's
print("refusals ok")
""", tmp_path)
    assert "refusals ok" in out
