"""Which side is off in Liger-Kernel 0.8.5's two bf16 cross-entropy failures on tc5
(test_cross_entropy.py::test_correctness[1.0-dtype0-1e-08-0.05-sum-2-4096-32000] and
::test_correctness_with_ignore_index[...-sum-2-4096-32000-2]): the input gradient of Liger's
kernel on tc5, or that of the reference (torch.nn.CrossEntropyLoss), which under the torch.cuda
shim runs PyTorch's CPU bf16 kernels? Both against the exact gradient of the same bf16 logits,
computed in float64 (sum reduction: softmax(x) - onehot(target), 0 on ignored rows), with the
test's own inputs (its seeds and calls, in its order) and tolerance (allclose: atol 1e-8, rtol
5e-2, relative to the exact value here). Run from the extracted sdist with liger_conftest.py
copied there as conftest.py (issue 50; docs/fidelity.md quotes it); natively on a GPU with an
empty conftest.py there (l50g: then "Liger on the GPU", and the reference is CUDA's):
    PYTHONPATH=src:. TC5_CLI=build/tc5 python probe_liger_ce.py plain     (or ignore)
`weight` and `notlast` (l50g) do the same for ::test_correctness_with_weight_once[...-sum-2-4096-32000]
(a bf16 class weight: the exact gradient is w[target] * (softmax(x) - onehot)) and
::test_correctness_not_last_layer[...-sum-2-4096-32000] (the loss times 3, backward with a random
upstream gradient g: the exact gradient is c * (softmax(x) - onehot), c the upstream gradient the
loss's backward receives, bf16(3 * g), the same for both sides); each test starts from the
suite's autouse set_seed(42) (test/conftest.py), as these do.
w51: `weight` (B T sum|none) and `notlast` (B T sum) take the shape too, for the whole suite's other cases;
`zloss B T IGNORE_INDEX LSE_SQUARE_SCALE LABEL_SMOOTHING RETURN_Z_LOSS` is
::test_correctness_with_z_loss_with_other_params_once[LS-IGN-sum-RET-LSS-1.0-dtype1-1e-08-1e-06-B-T-32000] (float32,
the test's CrossEntropyWithZLoss, backward of the loss; rtol 1e-6): the exact gradient by float64 autograd, as `params`.
u50 (the whole suite's shapes): `plain` and `ignore` take B T REDUCTION [IGNORE_INDEX] after the mode
(default 2 4096 sum, ignore index 2): `none` backward-s ones per row, the same gradient as `sum`;
`params B T IGNORE_INDEX LSE_SQUARE_SCALE LABEL_SMOOTHING SOFTCAP` is ::test_correctness_not_last_layer_
with_other_params[1.0-dtype1-1e-08-1e-05-sum-...] (float32, the test's CrossEntropyWithZLoss on
softcap * tanh(x / softcap), the loss times 3, a random upstream gradient): the exact gradient is that
function's, differentiated in float64 by autograd, rows in blocks; `fwd` is
::test_correctness_with_forward_only[dtype1-1.0-0.01-0.01-mean-2-4096-32000--100] (float16, mean,
no backward): the losses only."""
import conftest  # noqa: F401  (the door and the shim; natively, on a GPU: an empty conftest.py)
import hashlib
import sys
import torch
from torch.nn import CrossEntropyLoss
from liger_kernel.transformers.cross_entropy import LigerCrossEntropyLoss
import test.transformers.test_cross_entropy  # noqa: F401  (its import-time set_seed(42), as in the test)

which = sys.argv[1]
ON = "tc5" if "tc5" in sys.modules else "the GPU"  # where Liger's kernel runs
LIG = f"Liger on {ON}"


def sha(t):
    """the tensor's bytes, SHA-256 (its first 16 digits): Liger's result here against another machine's"""
    return hashlib.sha256(t.detach().cpu().reshape(-1).view(torch.uint8).numpy().tobytes()).hexdigest()[:16]


B, T, V, scalar, dtype, atol, rtol = 2, 4096, 32000, 1.0, torch.bfloat16, 1e-8, 5e-2
red = "sum"
if which in ("plain", "ignore", "weight", "notlast") and len(sys.argv) >= 5:  # u50, w51: the whole suite's shapes
    B, T, red = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    if which == "notlast" and red != "sum":
        sys.exit("probe_liger_ce.py notlast: reduction sum only (none scales each row by its own upstream gradient)")
if which == "params":  # u50: float32, softcap, z-loss, label smoothing (sum)
    B, T = int(sys.argv[2]), int(sys.argv[3])
    ign, lss, ls, cap = int(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6]), float(sys.argv[7])
    dtype, rtol = torch.float32, 1e-5
if which == "zloss":  # w51: float32, z-loss, label smoothing (sum), no soft cap
    B, T = int(sys.argv[2]), int(sys.argv[3])
    ign, lss, ls, ret = int(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6]), sys.argv[7] == "True"
    dtype, rtol, cap = torch.float32, 1e-6, None
if which == "fwd":  # u50: float16 mean, forward only
    dtype, atol, rtol, red = torch.float16, 1e-2, 1e-2, "mean"
if which in ("plain", "fwd"):  # _test_correctness_once, _test_correctness_with_forward_only
    torch.manual_seed(0)
    ign = -100
    liger = LigerCrossEntropyLoss(reduction=red)
    torch_ce = CrossEntropyLoss(reduction=red)
    x = torch.randn(B * T, V, device="cuda", dtype=dtype) * scalar
    target = torch.randint(0, V, (B * T,), device="cuda", dtype=torch.long)
elif which == "weight":  # test_correctness_with_weight_once, then _test_correctness_with_weight_once
    from test.utils import set_seed
    set_seed(42)
    ign = -100
    weight = torch.rand(V, device="cuda", dtype=dtype)
    liger = LigerCrossEntropyLoss(weight=weight, reduction=red)  # none: backward with ones, the sum's gradient
    torch_ce = CrossEntropyLoss(weight=weight, reduction=red)
    torch.manual_seed(0)
    x = torch.randn(B * T, V, device="cuda", dtype=dtype) * scalar
    target = torch.randint(0, V, (B * T,), device="cuda", dtype=torch.long)
elif which == "notlast":  # test_correctness_not_last_layer, _test_correctness_not_last_layer_once
    from test.utils import set_seed
    set_seed(42)
    ign = -100
    liger = LigerCrossEntropyLoss(reduction="sum")
    torch_ce = CrossEntropyLoss(reduction="sum")
    x = torch.randn(B * T, V, device="cuda", dtype=dtype) * scalar
    target = torch.randint(0, V, (B * T,), device="cuda", dtype=torch.long)
elif which == "params":  # _test_correctness_not_last_layer_with_other_params_once (after the autouse set_seed(42))
    from test.utils import set_seed
    from test.transformers.test_cross_entropy import CrossEntropyWithZLoss
    set_seed(42)
    liger = LigerCrossEntropyLoss(reduction=red, ignore_index=ign, lse_square_scale=lss, label_smoothing=ls,
                                  softcap=cap)
    zl = CrossEntropyWithZLoss(reduction=red, ignore_index=ign, lse_square_scale=lss, label_smoothing=ls)
    torch_ce = lambda t, y: zl(cap * torch.tanh(t.to(torch.float32) / cap), y).to(dtype)  # noqa: E731
    x = torch.randn(B * T, V, device="cuda", dtype=dtype) * scalar
    target = torch.randint(0, V, (B * T,), device="cuda", dtype=torch.long)
    n = torch.randint(1, B * T // 2, (1,)).item()
    target[torch.randperm(B * T)[:n]] = ign
elif which == "zloss":  # _test_correctness_with_z_loss_with_other_params_once (it seeds 0 itself)
    from test.transformers.test_cross_entropy import CrossEntropyWithZLoss
    torch.manual_seed(0)
    zl = CrossEntropyWithZLoss(lse_square_scale=lss, return_z_loss=ret, label_smoothing=ls, ignore_index=ign,
                               reduction=red, dtype=dtype)
    lce = LigerCrossEntropyLoss(lse_square_scale=lss, return_z_loss=ret, label_smoothing=ls, ignore_index=ign,
                                reduction=red)
    torch_ce = (lambda t, y: zl(t, y)[0]) if ret else zl  # noqa: E731  (the loss; the test's backward is its)
    liger = (lambda t, y: lce(t, y).loss) if ret else lce  # noqa: E731
    x = torch.randn(B * T, V, device="cuda", dtype=dtype) * scalar
    target = torch.randint(0, V, (B * T,), device="cuda", dtype=torch.long)
    n = torch.randint(1, B * T // 2, (1,)).item()
    target[torch.randperm(B * T)[:n]] = ign
else:  # _test_correctness_with_ignore_index_once (test_correctness_with_ignore_index seeds nothing itself:
    # run it as the test runs, after the module's set_seed(42))
    ign = int(sys.argv[5]) if len(sys.argv) >= 6 else 2
    liger = LigerCrossEntropyLoss(ignore_index=ign, reduction=red)
    torch_ce = CrossEntropyLoss(ignore_index=ign, reduction=red)
    x = torch.randn(B * T, V, device="cuda", dtype=dtype) * scalar
    target = torch.randint(0, V, (B * T,), device="cuda", dtype=torch.long)
    n = torch.randint(1, B * T // 2, (1,)).item()
    target[torch.randperm(B * T)[:n]] = ign
print(f"inputs: sha256 logits {sha(x)} target {sha(target)}" + (f" weight {sha(weight)}" if which == "weight" else ""))
if which == "fwd":  # the losses only: each against the exact mean of the float64 per-row losses
    with torch.no_grad():
        out_ref, out_lig = torch_ce(x.clone(), target), liger(x.clone(), target)
    x64 = x.double()
    exact = (torch.logsumexp(x64, dim=-1) - x64.gather(1, target.unsqueeze(1)).squeeze(1)).mean().item()
    lim = atol + rtol * abs(exact)
    for name, v in (("reference", out_ref), (LIG, out_lig)):
        print(f"{name:13s} loss {v.item():.6f} ({v.dtype}); |loss - exact| {abs(v.item() - exact):.3g} "
              f"(the test's tolerance of the exact value {lim:.3g}); sha256 {sha(v)}")
    print(f"exact loss (float64) {exact:.6f}; test's allclose(reference, Liger) "
          f"{torch.allclose(out_ref, out_lig, atol=atol, rtol=rtol)}")
    sys.exit(0)
a = x.detach().clone().requires_grad_(True)
b = x.detach().clone().requires_grad_(True)
out_ref, out_lig = torch_ce(a, target), liger(b, target)
scale = torch.ones((), dtype=torch.float64)  # the upstream gradient each row's softmax - onehot is scaled by
if which in ("notlast", "params"):
    grad_output = torch.rand_like(out_ref)
    (out_ref * 3).backward(gradient=grad_output)
    (out_lig * 3).backward(gradient=grad_output)
    scale = (grad_output * 3).double()  # MulBackward: bf16(3 * g), what both losses' backward receive
else:
    out_ref.backward(gradient=torch.ones_like(out_ref))
    out_lig.backward(gradient=torch.ones_like(out_ref))
print(f"loss: reference {out_ref.sum().item():.6g}  {LIG} {out_lig.sum().item():.6g} (summed over rows if none)  "
      f"allclose {torch.allclose(out_ref, out_lig, atol=atol, rtol=rtol)}")
print(f"gradient: reference vs Liger allclose {torch.allclose(a.grad, b.grad, atol=atol, rtol=rtol)}, "
      f"elements over the test's tolerance {((a.grad.float() - b.grad.float()).abs() > atol + rtol * b.grad.float().abs()).sum().item()}")
print(f"sha256: {LIG}'s loss {sha(out_lig)} gradient {sha(b.grad)}; the reference's loss {sha(out_ref)} gradient {sha(a.grad)}")
bad = {"reference": 0, LIG: 0}
worst = {"reference": 0.0, LIG: 0.0}
ulp = {"reference": 0, LIG: 0}  # elements not the rounding (to the test's dtype) of the exact value
examples = []
loss64 = 0.0
for r0 in range(0, B * T, 512):
    xs = x[r0:r0 + 512].double()
    t = target[r0:r0 + 512]
    keep = t != ign
    if which in ("params", "zloss"):  # the reference's function in float64, differentiated by autograd (sum: rows apart)
        xg = xs.clone().requires_grad_(True)
        z = cap * torch.tanh(xg / cap) if cap else xg
        ce = torch.nn.functional.cross_entropy(z, t, reduction="sum", label_smoothing=ls, ignore_index=ign)
        lse = torch.logsumexp(z, dim=-1)
        rowloss = ce + torch.where(keep, lss * lse ** 2, 0.0).sum()
        rowloss.backward(scale.to(torch.float64))
        exact = xg.grad
        loss64 += rowloss.item()
    else:
        lse = torch.logsumexp(xs, dim=-1)
        exact = torch.softmax(xs, dim=-1)
        exact[torch.arange(len(t), device=xs.device)[keep], t[keep]] -= 1.0
        exact[~keep] = 0.0
        if which == "weight":
            exact *= weight.double()[t.clamp(min=0)].unsqueeze(1)
        exact *= scale
        nll = lse - xs.gather(1, t.clamp(min=0).unsqueeze(1)).squeeze(1)
        if which == "weight":
            nll = nll * weight.double()[t.clamp(min=0)]
        loss64 += nll[keep].sum().item()
    lim = atol + rtol * exact.abs()
    rounded = exact.to(dtype)
    for name, g in (("reference", a.grad[r0:r0 + 512]), (LIG, b.grad[r0:r0 + 512])):
        err = (g.double() - exact).abs()
        over = err > lim
        bad[name] += over.sum().item()
        worst[name] = max(worst[name], (err / exact.abs().clamp(min=1e-30)).max().item())
        ulp[name] += (g != rounded).sum().item()
        if name == "reference" and over.any() and len(examples) < 4:
            i, j = over.nonzero()[0].tolist()
            examples.append((r0 + i, j, exact[i, j].item(), g[i, j].item(), b.grad[r0 + i, j].item()))
print(f"exact loss (float64) {loss64:.6g}")
for name in bad:
    print(f"{name:13s} gradient elements outside the test's tolerance of the exact gradient: {bad[name]}; "
          f"largest relative error {worst[name]:.4g}; elements not the {dtype} rounding of the exact value: {ulp[name]}")
for row, col, e, r, l in examples:
    print(f"  [{row},{col}] exact {e:.6e}  reference {r:.6e}  {LIG} {l:.6e}")
