"""FlagGems 5.0.2's test_upsample_bicubic2d_aa_backward[dtypeK-4-16-4-4-16-16-False] past the per-case CPU limit in
the whole-suite run (tests/data/flaggems/whole_results.tsv: 163 CPU s for float16) though the case is tiny: a
(4, 16, 16, 16) float32 gradient to a (4, 16, 4, 4) input, one launch. Where its CPU time goes, cold and warm:

  TRITON_CACHE_DIR=FRESH TC5_TRITON=1 TC5_TRITON_TORCH_CUDA=1 GEMS_VENDOR=nvidia python probe_flaggems_bicubic_bwd.py
  (the same command again: Triton's cache now holds the kernel)

prints the call's CPU seconds, those inside Triton's compilation by stage (ttir, ttgir, llir, ptx: the NVIDIA
backend's stages, which tc5's backend uses unchanged for sm_100a) and the launches through tc5."""
import time

import torch
import flag_gems
import tc5.triton

from triton.backends.nvidia import compiler as nv

spent = {}


def timed(name, f):
    def g(*a, **k):
        t = time.process_time()
        try:
            return f(*a, **k)
        finally:
            spent[name] = spent.get(name, 0.0) + time.process_time() - t
    return g


for stage in ("make_ttir", "make_ttgir", "make_llir", "make_ptx"):
    f = getattr(nv.CUDABackend, stage)
    setattr(nv.CUDABackend, stage, staticmethod(timed(stage, f)) if isinstance(nv.CUDABackend.__dict__[stage],
                                                                             staticmethod) else timed(stage, f))
for dtype in (torch.float16, torch.float32, torch.bfloat16):
    spent.clear()
    grad = torch.randn((4, 16, 16, 16), dtype=torch.float32, device="cuda").to(dtype)
    n, t = tc5.triton.launches(), time.process_time()
    with flag_gems.use_gems():
        out = torch.ops.aten._upsample_bicubic2d_aa_backward(grad, [16, 16], [4, 16, 4, 4], False, None, None)
    print(f"{str(dtype)[6:]}: {time.process_time() - t:.1f} CPU s, launches {tc5.triton.launches() - n}, "
          f"compiling " + ", ".join(f"{k[5:]} {v:.1f}" for k, v in spent.items()) + f"; out {tuple(out.shape)}")
