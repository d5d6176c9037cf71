"""Where FlagGems 5.0.2's test_conv1d[dtype0-1-2-shape0-kernel0] spends its time on tc5 (issue 50):
the case's one flag_gems.conv1d call (input 32x2x4, weight 17x2x2, stride 2, padding 1, float32), its
process CPU seconds and wall seconds, and the CPU seconds of tc5's launches in it (tc5.triton._run
timed); the rest is Triton 3.5 compiling conv2d_forward's autotune configs (the door compiles and
checks each, runs none). Run with FlagGems' environment (scripts/flaggems_env.sh VENV):
    VENV/bin/python probe_flaggems_conv1d.py        (docs/fidelity.md quotes it)"""
import os, time, resource
os.environ.update(TC5_TRITON="1", TC5_TRITON_TORCH_CUDA="1", GEMS_VENDOR="nvidia", TC5_THREADS="1")
import torch, triton, tc5.triton
tc5.triton.activate()
import flag_gems
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF); return r.ru_utime + r.ru_stime
acc = {"run": 0.0, "nrun": 0}
orig_run = tc5.triton._run
def run_(*a, **k):
    t = cpu()
    try: return orig_run(*a, **k)
    finally: acc["run"] += cpu() - t; acc["nrun"] += 1
tc5.triton._run = run_
torch.manual_seed(0)
inp = torch.randn((32, 2, 4), device="cuda", requires_grad=True)
w = torch.randn((17, 2, 2), device="cuda")
t0, w0 = cpu(), time.time()
out = flag_gems.conv1d(inp, w, bias=None, stride=2, padding=1, dilation=1)
t1, w1 = cpu(), time.time()
ref = torch.nn.functional.conv1d(inp.detach(), w, stride=2, padding=1)
print("max err", (out - ref).abs().max().item())
print(f"first call: CPU {t1-t0:.1f} s, wall {w1-w0:.1f} s; tc5 launches {acc['nrun']} taking {acc['run']:.2f} CPU s")
acc.update(run=0.0, nrun=0)
t0, w0 = cpu(), time.time()
out = flag_gems.conv1d(inp, w, bias=None, stride=2, padding=1, dilation=1)
t1, w1 = cpu(), time.time()
print(f"second call: CPU {t1-t0:.1f} s, wall {w1-w0:.1f} s; tc5 launches {acc['nrun']} taking {acc['run']:.2f} CPU s")
