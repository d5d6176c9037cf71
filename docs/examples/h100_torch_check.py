# The user's check on the H100 (docs/python.md): torch.matmul / torch._scaled_mm on the
# inputs docs/examples/python_check.py draws (saved as .npy by the same seed), results saved
# for the comparison with tc5.gemm. usage: python3 h100_torch_check.py OUTDIR (in the .npy dir)
import numpy as np, torch, sys, os
out = sys.argv[1]
dev = "cuda"
print("torch", torch.__version__, torch.cuda.get_device_name())
a = torch.from_numpy(np.load("bf16_a.npy").astype(np.int16)).view(torch.bfloat16).to(dev)
b = torch.from_numpy(np.load("bf16_b.npy").astype(np.int16)).view(torch.bfloat16).to(dev)
r = torch.matmul(a, b)  # bf16 out
np.save(os.path.join(out, "bf16_torch_bf16out.npy"), r.float().cpu().numpy())
try:
    r32 = torch.mm(a, b, out_dtype=torch.float32)
    np.save(os.path.join(out, "bf16_torch_f32out.npy"), r32.cpu().numpy())
    print("out_dtype f32: yes")
except Exception as e:
    print("out_dtype f32: no", e)
a8 = torch.from_numpy(np.load("e4m3_a.npy")).view(torch.float8_e4m3fn).to(dev)
b8 = torch.from_numpy(np.load("e4m3_b.npy")).view(torch.float8_e4m3fn).to(dev)
one = torch.tensor(1.0, device=dev)
for fast in (False, True):
    r8 = torch._scaled_mm(a8, b8.t().contiguous().t(), scale_a=one, scale_b=one, out_dtype=torch.float32, use_fast_accum=fast)
    np.save(os.path.join(out, f"e4m3_torch_fast{int(fast)}.npy"), r8.cpu().numpy())
print("done")
