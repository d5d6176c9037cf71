"""Liger-Kernel 0.8.5's test_kl_div.py::test_torch_compile_matches_eager fails under the torch.cuda shim
with Dynamo's InternalTorchDynamoError "An intermediate tensor ... created inside a higher-order op
subgraph aliases an input or output". The same shape in 20 lines: a torch.autograd.Function that saves
y.contiguous() (an alias of its input) and makes torch.empty_like of it in its backward, compiled.
Without the shim it prints "ok"; with it (TC5_TRITON=1 TC5_TRITON_TORCH_CUDA=1) Dynamo's speculation of
the backward refused the saved tensor (the shim's TorchFunctionMode inlined by Dynamo); since tc5.inductor
(the mode passes calls through while Dynamo traces) it prints "ok" there too (issue 50; docs/fidelity.md).
    python probe_compile_alias.py"""
import torch

try:
    import tc5.triton  # noqa: F401  (the door and the shim, under the variables)
except ImportError:
    pass


class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        y = y.contiguous()
        ctx.save_for_backward(y)
        return (x * y).sum()

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        n = torch.empty_like(y)
        n.copy_(y)
        return n * g / y.shape[0], None


class M(torch.nn.Module):
    def forward(self, x, y):
        return F.apply(x, y)


x = torch.randn(4, 5, requires_grad=True)
y = torch.randn(4, 5)
torch.compile(M())(x, y).backward()
print("ok")
