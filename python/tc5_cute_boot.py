"""TC5_CUTE=1 at start-up: site-packages/tc5_cute.pth imports this module
when the variable is 1 (docs/cute.md). It imports nothing but the standard
library (a .pth runs before the rest of sys.path is set up): it points CuTe
DSL's environment at tc5's runtime before cutlass is imported, and once
CuTe DSL's executor module has loaded, calls tc5.cute.activate()."""
import os
import sys

from tc5_boot_hook import after_import


def _environment():
    here = os.path.dirname(os.path.abspath(__file__))
    os.environ.setdefault("TC5_CUTE_RUNTIME", os.path.join(here, "tc5", "libcute_dsl_runtime.so"))
    os.environ["CUTE_DSL_LIBS"] = os.environ["TC5_CUTE_RUNTIME"]
    os.environ.setdefault("CUTE_DSL_ARCH", "sm_100a")
    keep = {t for t in os.environ.get("CUTE_DSL_KEEP", "").split(",") if t}
    keep.add("ptx")
    os.environ["CUTE_DSL_KEEP"] = ",".join(sorted(keep))
    os.environ.setdefault("CUTE_DSL_DISABLE_FILE_CACHING", "1")


def _activate(module):
    """once CuTe DSL's executor module has loaded"""
    if "cutlass" in sys.modules:
        sys.modules["cutlass"]._tc5_env = True
    import tc5.cute
    tc5.cute.activate()


if os.environ.get("TC5_CUTE") == "1" and after_import("cutlass.cutlass_dsl.cuda_jit_executor", _activate):
    _environment()
