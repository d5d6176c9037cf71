"""tc5 as a Triton backend: the plugin Triton 3.9 discovers through the
`triton.backends` entry point group (pyproject.toml names this package).

Triton imports `tc5.triton_backend.compiler` and `tc5.triton_backend.driver`
and takes the one concrete BaseBackend and DriverBase subclass of each. The
compiler supports no target, so Triton's own NVIDIA backend keeps compiling
(for GPUTarget("cuda", 100, 32)); the driver is active when TC5_TRITON=1 and
runs what Triton compiled on tc5 (tc5.triton). docs/python.md: "Run your
Triton code on tc5".
"""
