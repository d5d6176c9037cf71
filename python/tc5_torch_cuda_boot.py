"""TC5_TRITON_TORCH_CUDA=1 at start-up: site-packages/tc5_torch_cuda.pth
imports this module when the variable is 1 (docs/python.md). It imports
nothing but the standard library (a .pth runs before the rest of sys.path is
set up, and PyTorch takes seconds to import): it waits for `torch` to be
imported and, right after, installs tc5.triton.torch_cuda_shim(), so that
the first line a script or a test file runs after `import torch`
(`torch.cuda.is_available()`, `torch.cuda.mem_get_info()`, ...) gets the
answers of tc5/torch_cuda.py, before any Triton driver is made."""
import importlib.abc
import os
import sys


class _Finder(importlib.abc.MetaPathFinder):
    """installs the torch.cuda shim right after `torch` loads"""
    target = "torch"

    def find_spec(self, name, path, target=None):
        if name != self.target:
            return None
        for f in sys.meta_path:
            if f is self or not hasattr(f, "find_spec"):
                continue
            spec = f.find_spec(name, path, target)
            if spec is not None and spec.loader is not None:
                load = spec.loader.exec_module

                def exec_module(module, load=load):
                    load(module)
                    sys.modules[name] = module
                    import tc5.triton
                    tc5.triton.torch_cuda_shim()

                spec.loader.exec_module = exec_module
                return spec
        return None


if os.environ.get("TC5_TRITON_TORCH_CUDA") == "1" and not any(isinstance(f, _Finder) for f in sys.meta_path):
    sys.meta_path.insert(0, _Finder())
