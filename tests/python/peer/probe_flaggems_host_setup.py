"""FlagGems 5.0.2 cases past the per-case CPU limit before their first launch (tests/data/flaggems/whole_results.tsv:
launches 0 or 1): test_fused_moe_vs_ref's DeepSeek-V3 shapes (config17-22) and test_flash_mla[dtype0-4096/8192]. Under
tc5 a "cuda" tensor lives in host memory, so the test's own PyTorch work (drawing its inputs, its reference) runs on the
host's CPU as it would on the GPU of a B200. This measures that work alone, with no FlagGems kernel, on one thread as
the harness runs it (OMP_NUM_THREADS=1):

  OMP_NUM_THREADS=1 GEMS_VENDOR=nvidia TC5_TRITON=1 TC5_TRITON_TORCH_CUDA=1 python probe_flaggems_host_setup.py FLAGGEMS_SRC

- fused_moe_vs_ref: the weights it draws (torch.randn, then scaled: a second tensor), counted from the test's own
  FUSED_MOE_CONFIGS, times this host's measured rate of randn and of the scaling multiply (bf16 and fp16, 1e8
  elements, the median of 3): a lower bound of the case's set-up.
- flash_mla: the test's own ref_mla (its torch reference, per batch element) run for a sample of its 128 batch
  elements (every 16th), its CPU seconds scaled by 128 / sample: each element's work is the same up to its cache
  length (seqlen + 2i)."""
import importlib
import os
import statistics
import sys
import time

import tc5.torch_cuda  # noqa: F401  (the "cuda" device)
import torch

src = sys.argv[1]
sys.path.insert(0, src)
fe = importlib.import_module("tests.test_fused_experts_impl")
fm = importlib.import_module("tests.test_flash_mla")
LIMIT = float(os.environ.get("TC5_PEER_CPU_LIMIT", "120"))


def cpu(f):
    t = time.process_time()
    f()
    return time.process_time() - t


def rate(dtype):
    """CPU seconds per element of randn and of the scaling multiply (1e8 elements, median of 3)"""
    r, m = [], []
    for _ in range(3):
        x = None

        def draw():
            nonlocal x
            x = torch.randn(10**8, device="cuda", dtype=dtype)
        r.append(cpu(draw))
        m.append(cpu(lambda: x * 0.5))
        del x
    return statistics.median(r) / 1e8, statistics.median(m) / 1e8


print(f"torch {torch.__version__}, threads {torch.get_num_threads()}, limit {LIMIT:.0f} CPU s")
for dname, dtype in (("dtype0", torch.bfloat16), ("dtype1", torch.float16)):
    rr, rm = rate(dtype)
    print(f"{dname}: randn {rr * 1e8:.2f} CPU s per 1e8 elements, scaling {rm * 1e8:.2f}")
    for k, (t, e, h, i, topk) in enumerate(fe.FUSED_MOE_CONFIGS):
        if k < 17:
            continue
        w = e * 2 * i * h + e * h * i
        low = (t * h + w) * rr + w * rm
        print(f"  test_fused_moe_vs_ref[{dname}-config{k}] ({t}, {e}, {h}, {i}, {topk}): weights {w:.3e} elements, "
              f"set-up >= {low:.0f} CPU s ({'past' if low > LIMIT else 'within'} the limit)")

b, s_q, h_q, h_kv, d, dv, block_size = 128, 1, 128, 1, 576, 512, 64
for seqlen in (1024, 4096, 8192):
    torch.manual_seed(0)
    cache_seqlens = torch.tensor([seqlen + 2 * i for i in range(b)], dtype=torch.int32, device="cuda")
    pad = -(-int(cache_seqlens.max().item()) // 256) * 256
    q = torch.randn([b, s_q, h_q, d], dtype=torch.bfloat16, device="cuda")
    block_table = torch.arange(b * pad // block_size, dtype=torch.int32, device="cuda").view(b, pad // block_size)
    blocked_k = torch.randn(block_table.numel(), block_size, h_kv, d, dtype=torch.bfloat16, device="cuda")
    sample = list(range(0, b, 16))
    spent = 0.0
    for i in sample:
        # ref_mla's loop body for batch element i (its own code: one element's slice of its inputs)
        bt = block_table[i:i + 1]
        spent += cpu(lambda: fm.ref_mla(q[i:i + 1], bt, blocked_k.view(-1, h_kv, d)[i * pad:(i + 1) * pad]
                                       .view(-1, block_size, h_kv, d), pad, block_size, 1, s_q,
                                       cache_seqlens[i:i + 1], h_q, h_kv, d, dv, True))
    est = spent * b / len(sample)
    print(f"test_flash_mla[dtype0-{seqlen}]: ref_mla {spent:.1f} CPU s for {len(sample)} of {b} batch elements, "
          f"{est:.0f} CPU s for all ({'past' if est > LIMIT else 'within'} the limit)")
