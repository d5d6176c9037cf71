"""Why Liger-Kernel 0.8.5's `test_jsd.py::test_low_probability_vocab_block_is_finite` (and
`test_fused_linear_jsd.py`'s, the same inner primitive `jsd_loss_and_grad`) fails on tc5 and
passes on the H200 (issue 50; docs/fidelity.md, "On the H200"). The test's own input: one row
of V = 65,537 logits, -120 everywhere but 0 at index 0, student = log_softmax(logits), teacher
= log_softmax(logits - 1), beta 0.5. Liger picks `jsd_loss_and_grad`'s implementation by what
imports and the compute capability: CuTe DSL (rank 20) on sm_90+ where `cutlass.cute`
imports (tc5's B200 with nvidia-cutlass-dsl), else Triton (rank 50: the H200 here, which has
no nvidia-cutlass-dsl). This runs each implementation available on the test's input and
counts NaNs in the loss tile and dX, beside the CuTe DSL kernel's row math (its
`_row_math`, fp32 with libdevice-precise exp/log, no max-subtraction) written as a Triton
kernel with libdevice's exp and log (what CuTe DSL's `fastmath=False` lowers to) and as
PyTorch fp32 operations: exp(-120) underflows to 0 in fp32, so the mixture m is 0,
log(m) = -inf and `m * log(m)` = 0 * -inf = NaN (IEEE 754), on any IEEE hardware.
Natively (a GPU):  cd liger_kernel-0.8.5 && PYTHONPATH=src:. python3 probe_liger_jsd.py
On tc5 (door, shim, CuTe DSL door; TC5_CUTE=1 must be set at start-up, tc5_cute.pth reads it):
    TC5_CUTE=1 TC5_TRITON=1 TC5_TRITON_TORCH_CUDA=1 TC5_CLI=build/tc5 PYTHONPATH=src:. python3 probe_liger_jsd.py --tc5"""
import hashlib
import os
import sys

TC5 = "--tc5" in sys.argv
if TC5:
    for k in ("TC5_TRITON", "TC5_TRITON_TORCH_CUDA"):
        os.environ.setdefault(k, "1")
    import tc5.triton

    tc5.triton.activate()
import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.language.extra import libdevice  # noqa: E402


@triton.jit
def cute_row_math(X, Y, L, D, n, scale, beta: tl.constexpr, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    x = tl.load(X + o, mask=m, other=0.0)
    y = tl.load(Y + o, mask=m, other=0.0)
    q = libdevice.exp(x)
    p = libdevice.exp(y)
    bp = beta * p
    oq = (1.0 - beta) * q
    mix = bp + oq
    lm = libdevice.log(mix)
    loss = bp * y + oq * x - mix * lm
    dx = oq * (x - lm)
    tl.store(L + o, loss * scale, mask=m)
    tl.store(D + o, dx * scale, mask=m)


def report(name, loss, dx):
    loss, dx = loss.float().cpu(), dx.float().cpu()
    nl, nd = torch.isnan(loss), torch.isnan(dx)
    first = nl.flatten().nonzero()[:1].flatten().tolist()
    h = hashlib.sha256(loss.numpy().tobytes() + dx.numpy().tobytes()).hexdigest()[:16]
    print(f"{name:34s} loss NaN {int(nl.sum()):6d}  dX NaN {int(nd.sum()):6d}  first NaN at {first}  "
          f"loss sum {loss.sum().item():.6g}  finite {bool(torch.isfinite(loss.sum()))}  sha256(loss,dX) {h}")


def main():
    torch.manual_seed(42)
    V = 65537
    logits = torch.full((1, V), -120.0, device="cuda")
    logits[:, 0] = 0.0
    x = logits.log_softmax(dim=-1)
    y = logits.sub(1.0).log_softmax(dim=-1)
    print("mode", "tc5" if TC5 else "native", "torch", torch.__version__, "triton", triton.__version__,
          "device", torch.cuda.get_device_name(), torch.cuda.get_device_capability())
    print("student x[0], x[1] =", x[0, 0].item(), x[0, 1].item(), " teacher y[1] =", y[0, 1].item())

    from liger_kernel.backends import dispatch
    import importlib

    D = importlib.import_module("liger_kernel.backends.dispatch")
    impls = D.available_impls("jsd_loss_and_grad")
    print("jsd_loss_and_grad: available", impls, "auto picks", D.resolve_impl("jsd_loss_and_grad").impl_name)
    for impl in impls:
        loss, dx = dispatch("jsd_loss_and_grad", x.clone(), y, None, 0.5, -100, 1.0, impl=impl)
        report(f"Liger {impl}", loss, dx)

    loss = torch.empty_like(x)
    dx = torch.empty_like(x)
    cute_row_math[(triton.cdiv(V, 1024),)](x, y, loss, dx, V, 1.0, beta=0.5, BLOCK=1024)
    report("CuTe row math, Triton libdevice", loss, dx)
    q, p = torch.exp(x), torch.exp(y)
    mix = 0.5 * p + 0.5 * q
    lm = torch.log(mix)
    report("CuTe row math, PyTorch fp32", 0.5 * p * y + 0.5 * q * x - mix * lm, 0.5 * q * (x - lm))
    print("exp(x[1]) =", q[0, 1].item(), " log(mix[1]) =", lm[0, 1].item(), " mix[1]*log(mix[1]) =",
          (mix * lm)[0, 1].item())


if __name__ == "__main__":
    main()
