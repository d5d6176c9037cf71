"""The start-up hooks' one mechanism (tc5_cute_boot, tc5_torch_cuda_boot: a
.pth imports them at start-up). Standard library only (a .pth runs before the
rest of sys.path is set up): after_import(target, hook) puts a finder first on
sys.meta_path that lets the usual finder load module `target` and calls
hook(module) right after it has loaded."""
import importlib.abc
import sys


class AfterImport(importlib.abc.MetaPathFinder):
    """calls hook(module) right after module `target` loads"""

    def __init__(self, target, hook):
        self.target, self.hook = target, hook

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
                    self.hook(module)

                spec.loader.exec_module = exec_module
                return spec
        return None


def after_import(target, hook):
    """installs the finder for `target` unless one is there; True when it installed it"""
    if any(isinstance(f, AfterImport) and f.target == target for f in sys.meta_path):
        return False
    sys.meta_path.insert(0, AfterImport(target, hook))
    return True
