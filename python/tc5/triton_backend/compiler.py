"""The compiler half of tc5's Triton plugin: Triton's entry point mechanism
needs one BaseBackend per plugin. It supports no target: kernels for the
B200 the tc5 driver reports (GPUTarget("cuda", 100, 32)) are compiled by
Triton's own NVIDIA backend, exactly as for a real B200."""
from triton.backends import compiler as _c


class Tc5Backend(_c.BaseBackend):
    """compiles nothing (Triton's NVIDIA backend compiles for tc5)"""

    @staticmethod
    def supports_target(target):
        return False

    def hash(self):
        return "tc5"

    def parse_options(self, options):
        raise NotImplementedError("tc5 compiles through Triton's NVIDIA backend")

    def add_stages(self, stages, options, language):
        raise NotImplementedError("tc5 compiles through Triton's NVIDIA backend")

    def load_dialects(self, context):
        pass

    def get_module_map(self):
        return {}
