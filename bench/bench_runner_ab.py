#!/usr/bin/env python3
"""bench_runner_ab: the runner's speed on the kernels of the peer suites' slow cases (issue 50,
"size"), this build's `tc5 run` against a baseline build's, in one run: the same PTX, the same
inputs, the two CLIs alternated (A B A B ...) ROUNDS times a kernel, each run's CPU seconds
(the child's user + system time, which another process's load does not stretch), the median of
each side and their ratio; and every output file of the two compared byte for byte (a speed-up
that changes a bit is a failure: exit 1).

usage: bench/bench_runner_ab.py (--base REV | --base-cli PATH) [--cli PATH] [--rounds N]
                                [--scale K] [--only NAME,...]
  --base REV       builds the baseline's CLI from git revision REV of this repository
                   (git archive into a temporary folder; cmake, the tc5_cli target only)
  --base-cli PATH  a baseline CLI built already
  --cli PATH       this build's CLI (default build/tc5)
  --scale K        each kernel's grid (its rows) times K (default 1: about 0.1-1 s a run)
  (NumPy and ml_dtypes: the tests' Python, scripts/pyenv.sh)

Kernels (bench/data/liger_ptx.tar.xz): Liger-Kernel 0.8.5's, compiled by Triton 3.9 for sm_100a
through the door at the shapes below (the debug sections dropped); one host thread (--threads 1)
and the checker on (the default), as the peer suites run them:
  rms_norm       _block_rms_norm_forward_kernel, bf16 8192 x 256 (the large-row-offset case's kernel)
  softmax_fwd    _softmax_single_block_forward_kernel, bf16 64 x 32768
  softmax_bwd    _softmax_single_block_backward_kernel, bf16 64 x 32768
  cross_entropy  liger_cross_entropy_kernel, bf16 16 x 32000 logits, softcap 30, sum
  rope           _llama4_rope_kernel, bf16 q 1 x 64 x 64 x 128, k 1 x 64 x 1 x 128
  swiglu_fwd     _swiglu_forward_kernel, bf16 512 x 512
  swiglu_bwd     _swiglu_backward_kernel, bf16 512 x 512
and (bench/data/flaggems_ptx.tar.xz) FlagGems 5.0.2's, compiled by Triton 3.5 for sm_100a through
the door (the debug sections dropped):
  topk_stage1    topk_stage1_kernel, f16 256 rows of 256, k 256 (topk_3d_lastdim's first stage)
and, compiled by Triton 3.6 (/work/venv-w's stack), the radix sort of test_sort's dim-0 cases (sort_stable moves
dim 0 last: rows of 4), descending f16:
  sort_hist      compute_global_hist_kernel, 256 rows of 4, 4 passes of 4 bits (TILE_N 1024, TILE_R 16)
  sort_sweep     sweep, 256 rows of 4, grid (256, 2), the third pass (bits 8-11), ex_cumsum_bins the rows' own
  sort_hist32    (session 16, gs) the same for float32 keys, 8 passes (tests/ptx/fastpath_sort/hist_f32d.ptx,
                 captured from test_sort in session 12, its parameters put back in Triton's order: triton_params)
  sort_sweep32   the same sweep for float32 keys (sweep_f32d.ptx), rows of 4, grid (256, 2)
and (session 16, ft; bench/data/flaggems_full_ptx.tar.xz, Triton 3.6) test_unique / test_isin's one-row sort,
torch.sort of one int32 row: 2,048-key tiles whose every lane is valid (one row of 2,097,152 keys in [-10, 10)):
  sort_sweep_full  sweep, grid (1024, 2), the third of 8 passes (bits 8-11), ex_cumsum_bins the row's own
  sort_hist_full   compute_global_hist_kernel, grid 256 (8 tiles of 1,024 a CTA), 8 passes of 4 bits
and (session 11, bc) the kernel of test_upsample_bicubic2d_aa (Triton 3.6, @triton.autotune's first config, which
tc5's benchmarker picks: BLOCK_X 64, BLOCK_Y 1, 8 warps; every output's 5 x 5 taps, a loop over N * C):
  bicubic        upsample_bicubic2d_aa_kernel, f16 (1, 37, 64, 64) to 128 x 128 (scale 2), grid (2, 128)
  bicubic32      (session 13, bc) the same kernel for float32 (tests/ptx/fastpath_bicubic32/bicubic32.ptx), (1, 32, 42,
                 51) to 84 x 102 (scale 2: test_upsample_bicubic2d_aa's (128, 192, 42, 51) case's planes), grid (2, 84)
  bicubic_gen    general_interpolate_bicubic2d_aa_kernel (the scales below 1; N = 1 specialised away), f32
                 (1, 37, 64, 64) to 19 x 44 (scale (0.3, 0.7)), grid (1, 19), 512 bytes of shared memory
and (session 11, mm) test_mm_self_transpose's float32 SYRK (Triton 3.6; FMA: fma.rn.f32x2):
  syrk_f32       mm_kernel_syrk, the autotuner's first config (BLOCK_M 32, BLOCK_K 32, 2 warps, 2 stages), A of
                 1024 x 71 read as the test's transposed view (stride_am 1), the packed lower triangle of 32 x 32
                 tiles (528 CTAs)"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pyfind  # noqa: E402

pyfind.need("numpy", "ml_dtypes")
import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BF16 = ml_dtypes.bfloat16


def kernels(k):
    """name -> (ptx, grid, block, shared, args): args are (kind, value) with kind u32/f32/null
    or a buffer: ("in", array), ("out", nbytes), ("inout", array)"""
    rng = np.random.default_rng(50)

    def bf(*shape, scale=1.0):
        return (rng.standard_normal(shape) * scale).astype(BF16)
    r = 8192 * k
    s = 64 * k
    ce = 16 * k
    sk = sort_keys(256 * k)
    sk32 = sort_keys(256 * k, np.float32)
    fn = 2048 * 1024 * k  # the full-tile rows: one row of fn int32 keys, 1,024 tiles of 2,048 a scale step
    fk = full_keys(fn)
    return {
        "rms_norm": ("_block_rms_norm_forward_kernel", r // 16, 128, 512,
                     [("out", r * 256 * 2), ("u32", 256), ("in", bf(r, 256)), ("u32", 256), ("in", bf(256)),
                      ("out", r * 4), ("u32", r), ("u32", 256), ("f32", "1e-6"), ("f32", "0"), ("null", 0),
                      ("null", 0)]),
        "softmax_fwd": ("_softmax_single_block_forward_kernel", s, 1024, 128,
                        [("out", s * 32768 * 2), ("u32", 32768), ("in", bf(s, 32768)), ("u32", 32768),
                         ("u32", 32768), ("null", 0), ("null", 0)]),
        "softmax_bwd": ("_softmax_single_block_backward_kernel", s, 1024, 64,
                        [("in", bf(s, 32768)), ("u32", 32768), ("in", (rng.random((s, 32768)) / 32768).astype(BF16)),
                         ("u32", 32768), ("out", s * 32768 * 2), ("u32", 32768), ("u32", 32768), ("null", 0),
                         ("null", 0)]),
        "cross_entropy": ("liger_cross_entropy_kernel", ce, 256, 32,
                          [("inout", bf(ce, 32000, scale=4.0)), ("u32", 32000),
                           ("in", rng.integers(0, 32000, ce).astype(np.int64)), ("out", ce * 4), ("u32", 0),
                           ("u32", 0), ("u32", 32000), ("u32", ce), ("u32", ce), ("u32", 0), ("u32", 4294967196),
                           ("f32", "30"), ("null", 0), ("null", 0)]),
        "rope": ("_llama4_rope_kernel", (64 * k, 64), 128, 512,
                 [("inout", bf(64 * k, 64, 128)), ("inout", bf(64 * k, 1, 128)),
                  ("in", rng.standard_normal((64 * k, 128)).astype(np.float32)), ("u32", 8192), ("u32", 128),
                   ("u32", 128), ("u32", 128), ("u32", 128), ("u32", 64 * k), ("f32", "1"), ("null", 0),
                   ("null", 0)]),
        "swiglu_fwd": ("_swiglu_forward_kernel", 512 * k, 128, 0,
                       [("in", bf(512 * k, 512)), ("in", bf(512 * k, 512)), ("out", 512 * k * 512 * 2), ("u32", 512),
                        ("f32", "1"), ("null", 0), ("null", 0)]),
        "swiglu_bwd": ("_swiglu_backward_kernel", 512 * k, 128, 0,
                       [("in", bf(512 * k, 512)), ("inout", bf(512 * k, 512)), ("inout", bf(512 * k, 512)),
                        ("u32", 512), ("f32", "1"), ("null", 0), ("null", 0)]),
        "topk_stage1": ("topk_stage1_kernel", 256 * k, 128, 32,
                        [("out", 256 * k * 256 * 2), ("out", 256 * k * 256 * 8),
                         ("in", rng.standard_normal((256 * k, 256)).astype(np.float16)), ("u32", 256), ("null", 0),
                         ("null", 0)]),
        "sort_hist": ("compute_global_hist_kernel", 256 * k, 128, 512,
                      [("in", sk), ("out", 256 * k * 4 * 16 * 4), ("u32", 4), ("u32", 256 * k), ("u32", 4),
                       ("u32", 8), ("null", 0), ("null", 0)]),
        "sort_sweep": ("sweep", (256 * k, 2), 128, 256,
                       [("in", sk), ("in", np.tile(np.arange(4, dtype=np.int64), 256 * k)),
                        ("out", 256 * k * 4 * 2), ("out", 256 * k * 4 * 8), ("in", sort_bins(sk, 256 * k)),
                        ("out", 256 * k * 16 * 4), ("u32", 4), ("u32", 2), ("u32", 8), ("u32", 256 * k),
                        ("u32", 4), ("null", 0), ("null", 0)]),
        "sort_hist32": (("tests/ptx/fastpath_sort/hist_f32d.ptx", triton_params), 256 * k, 128, 512,
                        [("in", sk32), ("out", 256 * k * 8 * 16 * 4), ("u32", 8), ("u32", 256 * k), ("u32", 4),
                         ("u32", 8), ("null", 0), ("null", 0)]),
        "sort_sweep32": (("tests/ptx/fastpath_sort/sweep_f32d.ptx", triton_params), (256 * k, 2), 128, 256,
                         [("in", sk32), ("in", np.tile(np.arange(4, dtype=np.int64), 256 * k)),
                          ("out", 256 * k * 4 * 4), ("out", 256 * k * 4 * 8), ("in", sort_bins(sk32, 256 * k)),
                          ("out", 256 * k * 16 * 4), ("u32", 8), ("u32", 2), ("u32", 8), ("u32", 256 * k),
                          ("u32", 4), ("null", 0), ("null", 0)]),
        "sort_sweep_full": ("sort_sweep_i32", (fn // 2048, 2), 128, 8192,
                            [("in", fk), ("in", np.arange(fn, dtype=np.int64)), ("out", fn * 4), ("out", fn * 8),
                             ("in", full_bins(fk)), ("out", 16 * (fn // 2048) * 4), ("u32", 8), ("u32", 2),
                             ("u32", 8), ("u32", fn), ("u32", fn // 2048), ("null", 0), ("null", 0)]),
        "sort_hist_full": ("sort_hist_i32", fn // 8192, 128, 2048,
                           [("in", fk), ("out", 8 * 16 * 4), ("u32", 8), ("u32", fn), ("u32", 8), ("null", 0),
                            ("null", 0)]),
        "bicubic": ("upsample_bicubic2d_aa_kernel", (2, 128), 256, 0,
                    [("out", 37 * k * 128 * 128 * 2), ("in", rng.random((37 * k, 64, 64)).astype(np.float16)),
                     ("u32", 1), ("u32", 37 * k), ("u32", 128), ("u32", 128), ("u32", 64), ("u32", 64),
                     ("f32", "0.5"), ("f32", "0.5"), ("null", 0), ("null", 0)]),
        "bicubic32": ("tests/ptx/fastpath_bicubic32/bicubic32.ptx", (2, 84), 256, 0,
                      [("out", 32 * k * 84 * 102 * 4), ("in", rng.random((32 * k, 42, 51)).astype(np.float32)),
                       ("u32", 1), ("u32", 32 * k), ("u32", 84), ("u32", 102), ("u32", 42), ("u32", 51),
                       ("f32", "0.5"), ("f32", "0.5"), ("null", 0), ("null", 0)]),
        "bicubic_gen": ("general_interpolate_bicubic2d_aa_kernel", (1, 19), 256, 512,
                        [("out", 37 * k * 19 * 44 * 4), ("in", rng.random((37 * k, 64, 64)).astype(np.float32)),
                         ("u32", 37 * k), ("u32", 19), ("u32", 44), ("u32", 64), ("u32", 64),
                         ("f32", str(64 / 19)), ("f32", str(64 / 44)), ("null", 0), ("null", 0)]),
        "syrk_f32": ("mm_kernel_syrk", (32 * k) * (32 * k + 1) // 2, 64, 8192,
                     [("in", rng.standard_normal((71, 1024 * k)).astype(np.float32)), ("out", (1024 * k) ** 2 * 4),
                      ("u32", 1024 * k), ("u32", 71), ("u32", 1024 * k), ("u32", 1024 * k), ("null", 0),
                      ("null", 0)]),
    }


def sort_keys(rows, dtype=np.float16):
    """f16 (or f32) rows of 4, normal values (the sort's input after sort_stable moves dim 0 last)"""
    x = np.random.default_rng(51).standard_normal((rows, 4)).astype(dtype)
    return x


def sort_bins(x, rows):
    """ex_cumsum_bins (rows, 4 or 8 passes, 16 bins) u32: each pass's exclusive cumulative histogram of the rows'
    descending keys (flag_gems' convert_to_uint_preverse_order; radix_sort's torch.cumsum(global_hist) -
    global_hist), so that sweep's scatter stays inside each row"""
    bits = 8 * x.itemsize
    full, top = (1 << bits) - 1, 1 << (bits - 1)
    ux = x.view(np.uint16 if bits == 16 else np.uint32).astype(np.uint64)
    neg = (ux >> (bits - 1)) != 0
    mask = np.where(neg, full, top).astype(np.uint64)
    key = (ux ^ (~mask & full)) & full
    npass = bits // 4
    out = np.zeros((rows, npass, 16), dtype=np.uint32)
    for p in range(npass):
        b = (key >> (4 * p)) & 15
        h = np.stack([(b == i).sum(axis=1) for i in range(16)], axis=1).astype(np.uint32)
        out[:, p, :] = np.cumsum(h, axis=1) - h
    return out


def triton_params(ptx):
    """tests/ptx/fastpath_sort's sweep_f32d.ptx or hist_f32d.ptx with its parameters as Triton 3.6 gave them: undoes
    gen_sort.py's moving the output first (the sweep's indices and status again its params 3 and 5, not param 2 +
    64 KiB and + 192 KiB)"""
    head = re.search(r"\.entry (\w+)\(\n", ptx)
    name = head.group(1)
    first = re.search(r"\t\.param [^\n]*\b(%s_param_\d+),\n" % name, ptx[head.end():])
    ptx = ptx[:head.end()] + ptx[head.end() + first.end():]
    k = int(first.group(1).rsplit("_", 1)[1])
    before = re.search(r"\n(\t\.param [^\n]*\b%s_param_%d),?\n" % (name, k - 1), ptx)
    ptx = ptx[:before.end(1)] + ",\n" + first.group(0)[:-2] + ptx[before.end(1):]
    for p, off in ((3, 65536), (5, 196608)):
        ptx = re.sub(r"\tld\.param\.b64 \t(%%rd\d+), \[%s_param_2\];\n\tadd\.s64 \t\1, \1, %d;\n" % (name, off),
                     r"\tld.param.b64 \t\1, [%s_param_%d];\n" % (name, p), ptx)
    return ptx


def full_keys(n):
    """one row of n int32 keys in [-10, 10), as test_unique's torch.randint(-10, 10, shape) gives them"""
    return np.random.default_rng(52).integers(-10, 10, n).astype(np.int32)


def full_bins(x):
    """ex_cumsum_bins (1 row, 8 passes, 16 bins) u32 of int32 keys, ascending (int_to_uint: the sign bit flipped)"""
    key = x.view(np.uint32) ^ np.uint32(0x80000000)
    out = np.zeros((1, 8, 16), dtype=np.uint32)
    for p in range(8):
        h = np.bincount((key >> np.uint32(4 * p)) & np.uint32(15), minlength=16).astype(np.uint32)
        out[0, p, :] = np.cumsum(h) - h
    return out


def command(cli, ptx, grid, block, shared, args, folder):
    """the `tc5 run` line of a kernel whose input files are in folder (outputs go to folder/out)"""
    g = ",".join(map(str, grid if isinstance(grid, tuple) else (grid,)))
    cmd = [cli, "run", ptx, "--grid", g, "--block", str(block), "--shared-bytes", str(shared), "--threads", "1"]
    for i, (kind, v) in enumerate(args):
        if kind in ("u32", "f32"):
            cmd += ["--arg", f"{kind}:{v}"]
        elif kind == "null":
            cmd += ["--arg", "null"]
        elif kind == "out":
            cmd += ["--arg", f"out:{folder}/out/{i}.bin:{v}"]
        else:
            cmd += ["--arg", f"{kind}:{folder}/out/{i}.bin" if kind == "inout" else f"in:{folder}/{i}.bin"]
    return cmd


def run_once(cmd, folder, args):
    """one run: fresh inout copies, the child's CPU seconds, its output files' bytes"""
    out = os.path.join(folder, "out")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    for i, (kind, _) in enumerate(args):
        if kind == "inout":
            shutil.copy(os.path.join(folder, f"{i}.bin"), os.path.join(out, f"{i}.bin"))
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    text = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    p.stdout.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"bench_runner_ab: {' '.join(cmd[:3])} failed:\n{text.decode(errors='replace')}")
    files = {n: open(os.path.join(out, n), "rb").read() for n in sorted(os.listdir(out))}
    return ru.ru_utime + ru.ru_stime, files


def build_base(rev, tmp):
    src = os.path.join(tmp, "base")
    os.makedirs(src)
    arch = subprocess.run(["git", "-C", ROOT, "archive", rev], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", src], input=arch, check=True)
    b = os.path.join(src, "build")
    subprocess.run(["cmake", "-S", src, "-B", b, "-DCMAKE_BUILD_TYPE=Release", "-DTC5_BUILD_TESTS=OFF",
                    "-DTC5_BUILD_BENCH=OFF", "-DTC5_CUDA=OFF"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", b, "-j2", "--target", "tc5_cli"], check=True, stdout=subprocess.DEVNULL)
    return os.path.join(b, "tc5")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", default="")
    ap.add_argument("--base-cli", default="")
    ap.add_argument("--cli", default=os.path.join(ROOT, "build", "tc5"))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--scale", type=int, default=1)
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    if not a.base and not a.base_cli:
        ap.error("give --base REV or --base-cli PATH")
    with tempfile.TemporaryDirectory(prefix="tc5_bench_ab_") as tmp:
        base = a.base_cli or build_base(a.base, tmp)
        for tar in ("liger_ptx.tar.xz", "flaggems_ptx.tar.xz", "flaggems_full_ptx.tar.xz"):
            with tarfile.open(os.path.join(ROOT, "bench", "data", tar)) as t:
                t.extractall(os.path.join(tmp, "ptx"), filter="data")
        only = set(a.only.split(",")) if a.only else None
        bad = 0
        print(f"{'kernel':<15}{'base CPU s':>11}{'this CPU s':>11}{'base/this':>10}  outputs")
        ratios = []
        for name, (entry, grid, block, shared, args) in kernels(a.scale).items():
            if only and name not in only:
                continue
            folder = os.path.join(tmp, name)
            os.makedirs(folder)
            for i, (kind, v) in enumerate(args):
                if kind in ("in", "inout"):
                    v.tofile(os.path.join(folder, f"{i}.bin"))
            if isinstance(entry, tuple):  # a test's PTX, its parameters as Triton gave them (fn)
                ptx = os.path.join(tmp, "ptx", name + ".ptx")
                with open(os.path.join(ROOT, entry[0])) as f, open(ptx, "w") as g:
                    g.write(entry[1](f.read()))
            else:
                ptx = os.path.join(ROOT, entry) if entry.endswith(".ptx") else os.path.join(tmp, "ptx", entry + ".ptx")
            ca = command(a.cli, ptx, grid, block, shared, args, folder)
            cb = command(base, ptx, grid, block, shared, args, folder)
            ta, tb, same = [], [], True
            for _ in range(a.rounds):
                t, fa = run_once(ca, folder, args)
                ta.append(t)
                t, fb = run_once(cb, folder, args)
                tb.append(t)
                same = same and fa == fb
            ma, mb = statistics.median(ta), statistics.median(tb)
            ratios.append(mb / ma)
            bad += not same
            print(f"{name:<15}{mb:>11.3f}{ma:>11.3f}{mb / ma:>9.2f}x  {'identical' if same else 'DIFFER'}",
                  flush=True)
        if ratios:
            print(f"geometric mean of base/this: {statistics.geometric_mean(ratios):.2f}x")
        return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
