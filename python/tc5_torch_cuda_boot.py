"""TC5_TRITON_TORCH_CUDA=1 at start-up: site-packages/tc5_torch_cuda.pth
imports this module when the variable is 1 (docs/python.md). It imports
nothing but the standard library (a .pth runs before the rest of sys.path is
set up, and PyTorch takes seconds to import): it waits for `torch` to be
imported and, right after, installs tc5.triton.torch_cuda_shim(), so that
the first line a script or a test file runs after `import torch`
(`torch.cuda.is_available()`, `torch.cuda.mem_get_info()`, ...) gets the
answers of tc5/torch_cuda.py, before any Triton driver is made."""
import os

from tc5_boot_hook import after_import


def _shim(module):
    import tc5.triton
    tc5.triton.torch_cuda_shim()


if os.environ.get("TC5_TRITON_TORCH_CUDA") == "1":
    after_import("torch", _shim)
