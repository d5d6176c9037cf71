"""Why Liger-Kernel 0.8.5's `test_muse_glimmer.py::test_muse_glimmer_vision_layer_norm_patch_parity`
stopped on tc5's `smem-uninit-read` in Liger's CuTe DSL LayerNorm forward (issue 50; the
kernel is `_cute_lib/rmsnorm_fwd.py`'s `RMSNorm` with is_layernorm=True). The test's input:
x = randn(4, 32) fp32 (the vision tower's hidden size 32), weight and bias of 32. For N = 32
the kernel's tile is 16 rows x 32 columns (vecsize 4, 8 threads per row, 128 threads), so
is_even_N holds (no column predicate) but only rows 0-3 exist: the threads of rows 4-15
(warps 1-3) skip their cp.async (`if row < shape[0]`), then read their never-written rows of
sX unconditionally (`autovec_copy(tXsX, tXrX)`: the ld.shared.v2.b64), reduce them with
shfl.sync.bfly among the 8 lanes of their own row, and store nothing (the output, mean and
rstd stores are all under `row < shape[0]`). The garbage never leaves the rows that do not
exist: a false alarm of the checker, which reported the shuffle (now followed; docs/check.md).
This runs every layer_norm implementation Liger offers here on the test's input and compares
each with torch's layer_norm (the test's atol = rtol = 1e-4), bit-exactness included.
Natively (a GPU):  cd liger_kernel-0.8.5 && PYTHONPATH=src:. python3 probe_liger_vln.py
On tc5 (door, shim, CuTe DSL door; TC5_CUTE=1 must be set at start-up, tc5_cute.pth reads it):
    TC5_CUTE=1 TC5_TRITON=1 TC5_TRITON_TORCH_CUDA=1 TC5_CLI=build/tc5 PYTHONPATH=src:. python3 probe_liger_vln.py --tc5"""
import os
import sys

TC5 = "--tc5" in sys.argv
if TC5:
    for k in ("TC5_TRITON", "TC5_TRITON_TORCH_CUDA"):
        os.environ.setdefault(k, "1")
    import tc5.triton

    tc5.triton.activate()
import torch  # noqa: E402


def main():
    torch.manual_seed(0)
    M, N = 4, 32
    x = torch.randn(M, N, device="cuda")
    w = torch.randn(N, device="cuda")
    b = torch.randn(N, device="cuda")
    ref = torch.nn.functional.layer_norm(x, (N,), w, b, 1e-5)
    print("mode", "tc5" if TC5 else "native", "torch", torch.__version__,
          "device", torch.cuda.get_device_name(), torch.cuda.get_device_capability())
    import importlib

    D = importlib.import_module("liger_kernel.backends.dispatch")
    impls = D.available_impls("layer_norm")
    print("layer_norm: available", impls, "auto picks", D.resolve_impl("layer_norm").impl_name)
    for impl in impls:
        try:
            y = D.dispatch("layer_norm", x, w, b, 1e-5, impl=impl)
        except Exception as e:  # a checker finding is reported, not hidden
            print(f"Liger {impl:16s} raised {type(e).__name__}: {' | '.join(str(e).splitlines()[:6])[:1500]}")
            continue
        y = y.float().cpu()
        r = ref.float().cpu()
        err = (y - r).abs().max().item()
        ok = torch.allclose(y, r, atol=1e-4, rtol=1e-4)
        print(f"Liger {impl:16s} max |y - torch| {err:.3g}  allclose(1e-4) {ok}  finite {bool(torch.isfinite(y).all())}")


if __name__ == "__main__":
    main()
