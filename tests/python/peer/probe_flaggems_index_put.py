"""FlagGems 5.0.2's three float16 accumulate failures in s10's whole-suite run (torch 2.11, Triton 3.6):
test_index_put.py::test_index_put_acc_true, ::test_index_put__acc_true and test_index_put_impl.py::
test__index_put_impl__acc_true, each [dtype0-input_shape0-indices_shape0-values_shape0-False]: one element of
2^28 (251070434) 0.00048828125 from the float64 reference rounded to float16. The tests seed everything
(utils.init_seed(0)): 2^16 indices drawn with replacement (np.random.choice) into a (2^28,) float16 input, values
torch.randn; the reference is torch.index_put in float64 (to_reference(upcast=True)), rounded once to float16 by
flag_gems.testing.assert_close (rtol 1e-3, atol 1e-4). FlagGems' kernel adds each value with tl.atomic_add on the
float16 element (ops/index_put.py:134): one float16 rounding per add, in the order the atomics land. This probe
draws the same inputs, runs FlagGems' index_put on tc5, and for every index drawn more than once prints the
float64 sum, its float16 rounding (the reference) and the float16 result of every order of the adds (what any
device's one-rounding-per-add atomics give). Run as the peer harness runs FlagGems (TC5_TRITON=1
TC5_TRITON_TORCH_CUDA=1 GEMS_VENDOR=nvidia, tc5 and flag_gems installed): python probe_flaggems_index_put.py
(about 150 CPU s and 10 GB)"""
import itertools
import random

import numpy as np
import torch
import flag_gems

random.seed(0)
np.random.seed(0)
torch.manual_seed(0)
dtype = torch.float16
inp = torch.randn((2**28,), dtype=dtype, device=flag_gems.device)
index = np.random.choice(np.arange(2**28), size=(2**16,), replace=True)
idx = torch.tensor(index, device=flag_gems.device)
values = torch.randn((2**16,), dtype=dtype, device=flag_gems.device)
ref = torch.index_put(inp.to("cpu").double(), [idx.to("cpu")], values.to("cpu").double(), True)
out = flag_gems.index_put(inp, [idx], values, True)
r16 = ref.to(dtype).double()
bad = (out.double() - r16).abs() > 1e-4 + 1e-3 * r16.abs()
print("elements outside the test's tolerance:", int(bad.sum()), bad.nonzero().flatten().tolist())
u, c = np.unique(index, return_counts=True)
print("indices drawn more than once:", int((c > 1).sum()), "at most", int(c.max()), "times")
for d in u[c > 1]:
    x = inp[d].double().item()
    vs = [values[p].double().item() for p in np.nonzero(index == d)[0]]
    sums = set()
    for perm in itertools.permutations(vs):
        acc = torch.tensor(x, dtype=dtype)
        for v in perm:
            acc = (acc.double() + v).to(dtype)  # one float16 add rounded to nearest: atom.add.f16
        sums.add(acc.item())
    exact = x + sum(vs)
    print(f"[{d}] input {x!r} values {vs}: float64 sum {exact!r}, reference (rounded once) {r16[d].item()!r}, "
          f"float16 adds in any order {sorted(sums)}, tc5 {out[d].item()!r}"
          f"{'  OUTSIDE' if bool(bad[d]) else ''}")
