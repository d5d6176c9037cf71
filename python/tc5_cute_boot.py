"""TC5_CUTE=1 at start-up: site-packages/tc5_cute.pth imports this module
when the variable is 1 (docs/cute.md). It imports nothing but the standard
library (a .pth runs before the rest of sys.path is set up): it points CuTe
DSL's environment at tc5's runtime before cutlass is imported, and once
CuTe DSL's executor module has loaded, calls tc5.cute.activate()."""
import importlib.abc
import os
import sys


def _environment():
    here = os.path.dirname(os.path.abspath(__file__))
    os.environ.setdefault("TC5_CUTE_RUNTIME", os.path.join(here, "tc5", "libcute_dsl_runtime.so"))
    os.environ["CUTE_DSL_LIBS"] = os.environ["TC5_CUTE_RUNTIME"]
    os.environ.setdefault("CUTE_DSL_ARCH", "sm_100a")
    keep = {t for t in os.environ.get("CUTE_DSL_KEEP", "").split(",") if t}
    keep.add("ptx")
    os.environ["CUTE_DSL_KEEP"] = ",".join(sorted(keep))
    os.environ.setdefault("CUTE_DSL_DISABLE_FILE_CACHING", "1")


class _Finder(importlib.abc.MetaPathFinder):
    """activates tc5.cute right after cutlass.cutlass_dsl.cuda_jit_executor loads"""
    target = "cutlass.cutlass_dsl.cuda_jit_executor"

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
                    if "cutlass" in sys.modules:
                        sys.modules["cutlass"]._tc5_env = True
                    import tc5.cute
                    tc5.cute.activate()

                spec.loader.exec_module = exec_module
                return spec
        return None


if os.environ.get("TC5_CUTE") == "1" and not any(isinstance(f, _Finder) for f in sys.meta_path):
    _environment()
    sys.meta_path.insert(0, _Finder())
