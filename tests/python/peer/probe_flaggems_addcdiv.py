"""FlagGems 5.0.2's test_addcdiv failures in the whole-suite run (w51: float16 at shapes 4-5, bfloat16 at 2-5,
tests/data/flaggems/whole_results.tsv): which elements differ, and why. The test draws res_inp, t1 and t2 with
torch.randn(shape, dtype, device="cuda"), computes the reference in float64 (utils.to_reference(x, True)) and
compares FlagGems' result with torch.testing.assert_close(equal_nan=False). Under tc5's torch.cuda shim a "cuda"
randn is PyTorch's CPU normal, which in float16 and bfloat16 draws exact zeros; this probe draws the test's
shapes the same way (its own seeds), runs FlagGems' addcdiv on tc5 and counts, against the float64 result
rounded to the dtype, the elements the test's tolerance rejects, and of those the ones where t1 and t2 are both
0 (0/0: NaN on both sides). Run as the peer harness runs FlagGems (TC5_TRITON=1 TC5_TRITON_TORCH_CUDA=1
GEMS_VENDOR=nvidia, tc5 and flag_gems installed): python probe_flaggems_addcdiv.py"""
import random

import numpy as np
import torch
import flag_gems

RTOL = {torch.float16: 1e-3, torch.bfloat16: 0.016}  # flag_gems.testing.RESOLUTION
print("torch", torch.__version__, "device", torch.cuda.get_device_name(0))
for dtype, shapes in ((torch.float16, [(16, 128, 64, 60), (16, 7, 57, 32, 29)]),
                      (torch.bfloat16, [(1024, 1024), (20, 320, 15), (16, 128, 64, 60), (16, 7, 57, 32, 29)])):
    for k, shape in enumerate(shapes):
        torch.manual_seed(k)
        random.seed(k)
        inp, t1, t2 = (torch.randn(shape, dtype=dtype, device="cuda") for _ in range(3))
        v = float(np.float32(random.random()))
        ref = torch.addcdiv(inp.double(), t1.double(), t2.double(), value=v).to(dtype)
        with flag_gems.use_gems():
            res = torch.addcdiv(inp, t1, t2, value=v)
        r, f = res.float(), ref.float()
        close = torch.isclose(r, f, rtol=RTOL[dtype], atol=1e-4) | ((r == f) & torch.isinf(r))
        bad = ~close
        both0 = (t1 == 0) & (t2 == 0)
        print(f"{dtype} {shape}: zeros drawn t1 {int((t1 == 0).sum())} t2 {int((t2 == 0).sum())} of {t1.numel()}; "
              f"elements outside the test's tolerance {int(bad.sum())}, of them t1 = t2 = 0 (NaN on both sides: "
              f"FlagGems {int(torch.isnan(r[bad]).sum())}, float64 {int(torch.isnan(f[bad]).sum())}) "
              f"{int((bad & both0).sum())}, others {int((bad & ~both0).sum())}")
