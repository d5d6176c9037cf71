"""The driver half of tc5's Triton plugin: a B200 (cuda, compute capability
10.0, warps of 32, 148 SMs, 232,448 bytes of shared memory a block) whose
launches run on tc5, on host memory. Active when TC5_TRITON=1 (Triton picks
it through TRITON_DEFAULT_BACKEND=tc5, which this module sets when
TC5_TRITON=1 and nothing else is named), or after tc5.triton.activate().

Kept light: Triton imports this module while it imports itself; tc5.triton
(NumPy, the launcher) loads when the driver is made."""
import math
import os

from triton.backends import driver as _d

if os.environ.get("TC5_TRITON") == "1":
    # a GPU's driver would be active too: name ours
    os.environ.setdefault("TRITON_DEFAULT_BACKEND", "tc5")


def _release_gpu_driver_inactive():
    """Triton 3.3-3.6 take the one active driver and know no TRITON_DEFAULT_BACKEND (3.7 on):
    with TC5_TRITON=1 and the torch.cuda shim, torch.cuda.is_available() answers True, so the
    NVIDIA driver is active too and Triton stops ("2 active drivers"). There tc5 is the device:
    the NVIDIA driver's is_active answers False (now, or right after its module loads: Triton
    discovers its backends in the entry points' order)"""
    import sys
    t = sys.modules.get("triton")
    v = tuple(int(x) for x in getattr(t, "__version__", "0.0").split(".")[:2] if x.isdigit())
    if os.environ.get("TC5_TRITON") != "1" or len(v) < 2 or v >= (3, 7):
        return

    def inactive(mod):
        cls = getattr(mod, "CudaDriver", None)
        if cls is not None:
            cls.is_active = staticmethod(lambda: False)

    name = "triton.backends.nvidia.driver"
    if name in sys.modules:
        inactive(sys.modules[name])
    else:
        from tc5_boot_hook import after_import
        after_import(name, inactive)


_release_gpu_driver_inactive()


def _autotune_bench(bench):
    """Autotuner._bench (one config's benchmark) wrapped: with tc5's driver active, the driver is
    made first (tc5.triton._install puts tc5's do_bench in triton.testing) and the benchmark runs
    with tc5.triton._autotuning set, so do_bench (the autotuner's warmup/rep interface calls it)
    answers as the driver's benchmarker, tc5.triton.autotune_bench. Where no model ranks the
    configs (tc5.triton.ranks_configs: TC5_TIMING, TC5_TRITON_AUTOTUNE) every config that fits
    ties and the autotuner picks the first: once one config of a round (the configs prune_configs
    gave) fits, the rest are answered as not fitting without being compiled (the same pick;
    FlagGems' conv2d and mm compiled 20 to 73 configs a key for nothing)"""
    if getattr(bench, "tc5", False):
        return bench

    def _bench(self, *args, **kwargs):
        from triton.runtime import driver
        d = driver.active
        if not getattr(d, "is_tc5", False):
            return bench(self, *args, **kwargs)
        rnd = self.__dict__.get("_tc5_round")
        timed = d._t.ranks_configs()
        if rnd is not None and not timed and self.__dict__.get("_tc5_fitted") is rnd:
            return [float("inf")] * 3
        tok = d._t._autotuning.set(True)
        try:
            r = bench(self, *args, **kwargs)
        finally:
            d._t._autotuning.reset(tok)
        if not timed and all(math.isfinite(x) for x in (r if isinstance(r, (list, tuple)) else [r])):
            self._tc5_fitted = rnd
        return r

    _bench.tc5 = True
    return _bench


def _autotune_round(prune):
    """Autotuner.prune_configs wrapped: each call starts a round of benchmarks (Triton's
    Autotuner.run and FlagGems' LibTuner.run call it for a key not yet tuned, then benchmark the
    configs it returns), so a config that fit in an earlier round stops no compilation in this
    one. A subclass whose prune_configs never reaches this one has no round: every config is
    benchmarked"""
    if getattr(prune, "tc5", False):
        return prune

    def prune_configs(self, *args, **kwargs):
        self._tc5_round = object()
        return prune(self, *args, **kwargs)

    prune_configs.tc5 = True
    return prune_configs


def _wrap_autotuner(cls):
    """Autotuner's _bench and prune_configs wrapped for tc5 (every Triton release the door supports
    has both); False where the class lacks _bench"""
    if not hasattr(cls, "_bench"):
        return False
    cls._bench = _autotune_bench(cls._bench)
    if hasattr(cls, "prune_configs"):
        cls.prune_configs = _autotune_round(cls.prune_configs)
    return True


def _release_autotune_wrapped():
    """with TC5_TRITON=1 the driver is made at the first launch, which may be inside the first
    config's benchmark, after Triton's own do_bench was called (it then timed that config with
    CUDA events, running it warmup + rep times): Autotuner._bench is wrapped as soon as the class
    exists. Triton imports this module from inside triton.runtime.autotuner (its import of the
    driver), before the class is made: then right after triton.testing loads (triton/__init__
    imports it after triton.runtime). tc5.triton.activate() wraps it when it makes the driver."""
    import sys
    if os.environ.get("TC5_TRITON") != "1":
        return

    def wrap(_=None):
        cls = getattr(sys.modules.get("triton.runtime.autotuner"), "Autotuner", None)
        return cls is not None and _wrap_autotuner(cls)

    if not wrap():
        from tc5_boot_hook import after_import
        after_import("triton.testing", wrap)


_release_autotune_wrapped()


class Tc5Driver(_d.DriverBase):
    """Triton's runtime driver for tc5"""

    is_tc5 = True

    def __init__(self):
        super().__init__()
        from .. import triton as t
        t._install()
        self._t = t
        self.utils = t.Utils()
        self.launcher_cls = t.Launcher

    @classmethod
    def is_active(cls):
        return os.environ.get("TC5_TRITON") == "1"

    def get_current_target(self):
        from triton.backends.compiler import GPUTarget
        return GPUTarget("cuda", self._t.target_arch(), 32)  # 100; TC5_TRITON_ARCH=90: an H100

    def get_active_torch_device(self):
        import torch
        return torch.device("cpu")

    def get_device_interface(self):
        return self._t.DeviceInterface

    def get_current_device(self):
        return 0

    def set_current_device(self, device):
        pass

    def get_current_stream(self, device=None):
        return 0

    def get_device_capability(self, device=None):
        return divmod(self._t.target_arch(), 10)

    def map_python_to_cpp_type(self, ty: str) -> str:
        from triton.backends.nvidia.driver import ty_to_cpp
        return ty_to_cpp(ty)

    def get_benchmarker(self):
        return self._t.autotune_bench

    def get_empty_cache_for_benchmark(self):
        import numpy as np
        return np.zeros(1, dtype=np.int32)

    def clear_cache(self, cache):
        pass

    def allocate_default_profile_scratch(self, size: int, alignment: int, stream):
        return self._t._aligned_zeros(size, alignment)

    def assemble_tensormap_to_arg(self, tensormaps_info, args):
        return args

    def __repr__(self):
        return "tc5 driver (B200: cuda 10.0, 148 SMs, on tc5's PTX runner)"
