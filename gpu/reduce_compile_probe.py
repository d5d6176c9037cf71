"""Inductor's Triton sum against PyTorch's eager CUDA sum of the same 64 float32 values, on a GPU (issue 50).

Liger-Kernel's test_tvd.py::test_torch_compile_matches_eager compares eager LigerTVDLoss (its kernel's 64 row
losses, then eager `.sum()`: ATen's Reduce.cuh) with torch.compile's (the same kernel, then Inductor's
`triton_per_fused_sum`) by torch.equal. `gpu/run.sh reduce-compile OUTDIR` sums, on the GPU, eager and compiled:
the three loss vectors tc5 computed for the test's batchmean, sum and mean cases (the test's inputs as the
torch.cuda shim makes them: torch.manual_seed(0), CPU generator; below as hex) and 200 seeded vectors of 64
uniform [0, 0.03) values: OUTDIR/reduce_compile_h200.tsv (each vector's eager and compiled bytes) and
OUTDIR/reduce_compile_kernel.py (Inductor's kernel).
"""
import hashlib
import os
import sys

import numpy as np

TVD_LOSSES = {  # tc5's kernel output for the test's inputs (float32 bytes, hex)
    "batchmean": "114e093c8cc2043ca6ea033c053d033c24ab063c260c053cbaae023cb0ad043c3d23fe3bcae60b3c9268073c223a093c84e5053c3265023cba7b043c5bc4053cceb0fd3bbcf5043cd642033c97d5023c7d1c073c6573003c2524073cadf6023cb892043c0a27063ca37b033c7111013c87c0053c1370083c41f3fe3b164d043c7650013c74e0053c53d5043c68da073cf6c8033c53fa073c13f6073c9075053c534d013c2b0c023ca2ee033c8c32033cde56063c44b2013c1a75053c14a1053c7a90083c693f023c67f2003c54c9053cc3ed073ce1ca023c70c0023c6055053ca57a043cfc15083c2889023cbf12083c2077043c58e3003c163d063ce708063c",
    "sum": "114e093f8cc2043fa6ea033f053d033f24ab063f260c053fbaae023fb0ad043f3d23fe3ecae60b3f9268073f223a093f84e5053f3265023fba7b043f5bc4053fceb0fd3ebcf5043fd642033f97d5023f7d1c073f6573003f2524073fadf6023fb892043f0a27063fa37b033f7111013f87c0053f1370083f41f3fe3e164d043f7650013f74e0053f53d5043f68da073ff6c8033f53fa073f13f6073f9075053f534d013f2b0c023fa2ee033f8c32033fde56063f44b2013f1a75053f14a1053f7a90083f693f023f67f2003f54c9053fc3ed073fe1ca023f70c0023f6055053fa57a043ffc15083f2889023fbf12083f2077043f58e3003f163d063fe708063f",
    "mean": "583edd3688ebd536a68fd436e077d336d1fed8362162d6369892d236ecc9d536f1bfcc366f6de1360d30da363a1edd3661c0d7361c1cd2366b79d536f28ad736bf63cc36033ed6363f81d33637d1d23675b5d936fdf9ce36cbc1d9368706d336779ed536f529d836c6dcd336a8f8cf36c784d736a4d8db368867cd36432ed536335ed03639b8d736ca09d6367ae7da365e59d436e91adb360f14db36fc0bd7362559d036a88cd1361196d4360067d3360677d836ccfbd0363e0bd7361a52d736da0cdc363adfd136a4c6cf36f592d736ab06db36f5bfd23622afd2361fd8d636ac77d5367a47db360e56d2364342db360172d53660aecf367c4dd83666f9d736",
}


def vectors():
    """(id, 64 float32 values) of the probe"""
    out = [(f"tvd-{k}", np.frombuffer(bytes.fromhex(h), dtype=np.float32).copy()) for k, h in TVD_LOSSES.items()]
    for s in range(200):
        out.append((f"u64-s{s}", (np.random.default_rng(1000 + s).random(64, dtype=np.float32)
                                  * np.float32(0.03)).astype(np.float32)))
    return out


def main(out):
    import torch
    from torch._inductor.utils import run_and_get_code
    os.makedirs(out, exist_ok=True)
    f = torch.compile(lambda t: t.sum())
    rows = []
    agree = 0
    vs = vectors()
    for i, (vid, a) in enumerate(vs):
        x = torch.from_numpy(a).to("cuda")
        e = x.sum()
        if i == 0:
            c, codes = run_and_get_code(f, x)
            with open(os.path.join(out, "reduce_compile_kernel.py"), "w") as g:
                g.write("\n\n".join(codes))
        else:
            c = f(x)
        torch.cuda.synchronize()
        eb, cb = e.cpu().numpy().tobytes().hex(), c.cpu().numpy().tobytes().hex()
        agree += eb == cb
        rows.append(f"{vid}\t{hashlib.sha256(a.tobytes()).hexdigest()}\t{eb}\t{cb}")
    props = torch.cuda.get_device_properties(0)
    with open(os.path.join(out, "reduce_compile_h200.tsv"), "w") as g:
        g.write(f"# gpu/run.sh reduce-compile: {props.name}, torch {torch.__version__}: eager equals compiled "
                f"for {agree} of {len(vs)}\n# vector\tinput_sha256\teager_hex\tcompiled_hex\n")
        g.write("\n".join(rows) + "\n")
    print(f"reduce-compile: eager == compiled for {agree} of {len(vs)}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "build-gpu/reduce")
