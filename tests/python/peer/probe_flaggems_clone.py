"""FlagGems 5.0.2's "not run" cases of the whole-suite run that end in x.clone() (r52x; tests/data/flaggems/
whole_results.tsv: one-element roll and flip, masked_fill of a 0-d input with a false mask), and the resolve_conj
cases. Two parts:

  python probe_flaggems_clone.py cpu    (torch alone, no tc5, no FlagGems)
      What a GPU's dispatcher does with clone under a library's copy_ kernel, shown on the CPU's dispatcher: a
      Python kernel registered for aten::copy_ on the CPU key (as FlagGems registers its copy_ on the CUDA key),
      then clone of plain CPU tensors, no dispatch mode. PyTorch's clone (CompositeExplicitAutograd,
      at::native::clone: empty_strided, then self.copy_(src) through the dispatcher) calls the library's copy_
      once; torch.tensor(v) does not. Also: .to() of a conjugate tensor (_to_copy's copy_) leaves no conj bit.

  TC5_TRITON=1 TC5_TRITON_TORCH_CUDA=1 GEMS_VENDOR=nvidia python probe_flaggems_clone.py shim
      The same operators on "cuda" tensors under tc5's torch.cuda shim and flag_gems.use_gems(), and the Triton
      launches each makes through tc5 (tc5.triton.launches()): copy_ 1, clone 0 (the shim's dispatch mode runs
      clone as PyTorch's CPU kernel with the mode popped, so the copy_ inside it never reaches FlagGems), a
      one-element roll 0, a (1024, 1024, 1) flip over dim 2 0, 0-d masked_fill 0 with either mask, 0-d
      masked_fill_ 1 with a true mask and 0 with a false one, resolve_conj after y.to("cuda") 0."""
import sys

import torch

if sys.argv[1:] == ["cpu"]:
    calls = []
    lib = torch.library.Library("aten", "IMPL")
    fallback = torch._C.DispatchKeySet(torch._C.DispatchKey.CompositeExplicitAutograd)

    def copy_(dst, src, non_blocking=False):
        calls.append(tuple(dst.shape))
        return torch.ops.aten.copy_.default.redispatch(fallback, dst, src, non_blocking)

    lib.impl("copy_", copy_, "CPU")
    for tag, f in [("clone of (1,)", lambda: torch.randn(1).clone()), ("clone of ()", lambda: torch.randn(()).clone()),
                   ("torch.tensor(1024.)", lambda: torch.tensor(1024.)),
                   ("x[()] = v of ()", lambda: torch.zeros(()).__setitem__((), 3.0))]:
        calls.clear()
        f()
        print(tag, "-> the library's copy_ called", len(calls), "time(s)")
    y = torch.randn(3, 4, dtype=torch.cfloat).conj()
    print("conj tensor: is_conj", y.is_conj(), "; .to(complex128).is_conj()", y.to(torch.complex128).is_conj())
    print("torch", torch.__version__)
elif sys.argv[1:] == ["shim"]:
    import flag_gems
    import tc5.triton

    def launches(tag, f):
        n0 = tc5.triton.launches()
        with flag_gems.use_gems():
            f()
        print(tag, "-> launches", tc5.triton.launches() - n0, flush=True)

    x1, x64 = torch.randn(1, device="cuda"), torch.randn(64, device="cuda")
    x3 = torch.randn(1024, 1024, 1, device="cuda")  # drawn outside use_gems (FlagGems' randn launches)
    launches("copy_ (64,)", lambda: torch.empty_like(x64).copy_(x64))
    launches("clone (1,)", lambda: x1.clone())
    launches("clone (64,)", lambda: x64.clone())
    launches("roll (1,) shift 1", lambda: torch.roll(x1, 1))
    launches("roll (64,) shift 1", lambda: torch.roll(x64, 1))
    launches("flip (1024, 1024, 1) dims (2,)", lambda: torch.flip(x3, (2,)))
    for m in (True, False):
        inp, mask = torch.zeros((), device="cuda"), torch.tensor(m, device="cuda")
        launches(f"masked_fill 0-d, mask {m}", lambda: torch.masked_fill(inp, mask, 1024))
        launches(f"masked_fill_ 0-d, mask {m}", lambda: inp.masked_fill_(mask, 1024))
    for shape in [(20, 30), (2, 3, 4), (2, 3, 4, 5)]:
        y = torch.randn(size=shape, dtype=torch.cfloat, device="cpu").conj()

        def rc():
            r = y.to(device="cuda")
            print("  y.to('cuda').is_conj()", r.is_conj())
            r.resolve_conj()
        launches(f"resolve_conj {shape} after y.to('cuda')", rc)
    print("torch", torch.__version__, "flag_gems", flag_gems.__version__)
else:
    sys.exit("usage: probe_flaggems_clone.py cpu|shim")
