#!/usr/bin/env python3
"""Triton's own unit tests as a peer suite of tc5 (issue 37): Triton's
test_core.py and test_matmul.py (python/test/unit/language/) and Gluon's
test_core.py (python/test/gluon/) run with pytest, tc5 as the device
(TC5_TRITON=1: Triton's NVIDIA backend compiles for a B200, tc5 runs the PTX;
TC5_TRITON_TORCH_CUDA=1: the tests' device="cuda" tensors are PyTorch CPU
tensors), each case's outcome written down and each failure given a cause.

usage: triton_peer.py [--src DIR]... [--git GITDIR]... [--files F,...] [--every K]
                      [--only REGEX] [--ids FILE] [--python PY] [--engine ray|xdist|local]
                      [--address ADDR] [--jobs N] [--chunk N] [--deadline S] [--work DIR]
                      [--out results.tsv]
       triton_peer.py --triage-only results.tsv | --from-work DIR --out results.tsv

The tests are not committed here (Triton's, MIT licensed): they are read
from checkouts (--src: directories holding python/test/...), from git
directories (--git: `git show PIN:path`, e.g. the mirrors fetch makes of
zwu-2025/triton and facebookexperimental/triton), or downloaded from GitHub at
the pinned commits; each file's SHA-256 must be the pinned one (FILES below),
so every run runs the same tests. test_core.py and test_matmul.py are
triton-lang's main of 2026-07-15 as mirrored by zwu-2025/triton (its version
string still 3.8.0); Gluon's file is upstream's as facebookexperimental/triton
carries it with the packed-arithmetic API Triton 3.9 has. No Triton
repository we can fetch carries a 3.9 tag; where 3.9 moved on (block pointers
removed, Gluon names renamed, other PTX text) the cases are triaged as such.

The selection: pytest collects the files' 32,117 cases; of each test
function's cases, in pytest's collection order, every K-th is kept, starting
with the first (--every K; K = 1 is the whole files; --files picks files).
Nothing is chosen by outcome. K = 16 is the documented selection (2,202
cases, every function at least once). The engines are the peer harness's
(scripts/peer_harness.py): --engine ray (the default) runs chunks of
--chunk cases as Ray tasks, on a local Ray or a cluster (--address); xdist
spreads one pytest over --jobs workers of this machine; local is the lent
GPU machine's path (no network, no Ray): chunk processes, --jobs at a time,
--deadline stops a run, which the same command with the same --work then
goes on with; --from-work writes the results of a work directory so far.

Output: one line per case, `nodeid<TAB>outcome<TAB>cause<TAB>message<TAB>launches`,
the outcome passed, failed, skipped or crashed, launches the kernels tc5 ran; `cause` is the triage of KNOWN
and CAUSES below (first matching rule) for the failures and skips, empty for
passes. Then the counts by outcome and by cause. docs/fidelity.md has the
table of a run and the meaning of each cause.
"""
import argparse
import hashlib
import os
import subprocess
import sys
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_harness as H  # noqa: E402
ZWU = ("zwu-2025/triton", "840a161c81aa0352204b0e04b7a33963b1dbd75f")
FB = ("facebookexperimental/triton", "db4666f22c1f8b206584c3f06e3b4a0ff035989e")
# name in the work directory -> (repository, commit, path there, SHA-256). The test files, in this order:
FILES = {
    "test_core.py": ZWU + ("python/test/unit/language/test_core.py",
                           "58cb959a65028586e60af251132682e93785d97d4f7f8e0141711e3c8ea4c849"),
    "test_matmul.py": ZWU + ("python/test/unit/language/test_matmul.py",
                             "58ce806a4e8bde8cf7741373666213ef2a3c95c12bf901fd9a172763151c336d"),
    # Gluon's test_core.py as upstream had it after #11084 (add2/mul2/fma2... in place of float2), which Triton
    # 3.9's Gluon has and zwu's July mirror predates: facebookexperimental's main carries upstream's file with
    # that change cherry-picked (its own gluon/conftest.py, which skips the file for fb's older frontend, is
    # not used)
    "gluon_test_core.py": FB + ("python/test/gluon/test_core.py",
                                "39e722aa86c93f2033445b96679ea3cff5d8bdfc96ed491f476597db1ec8e772"),
    # imported by test_matmul.py; conftest.py gets CONFTEST_TAIL
    "test_mxfp.py": ZWU + ("python/test/unit/language/test_mxfp.py",
                           "14e5b328daf0f395affa3558492be7edc8949e85a5fb7f5584ec230959ead67e"),
    "conftest.py": ZWU + ("python/test/conftest.py",
                          "cac9de6b5fa2b8309a24d1b6c0e2c80da90ac01dd94c0242519dc6231c605758"),
}
TESTS = ["test_core.py", "test_matmul.py", "gluon_test_core.py"]

# The triage: (cause, regex on the failure's or skip's message). First match wins. A cause names whose
# the failure is: tc5 (a defect of tc5: fixed, or listed in docs/fidelity.md), or the test's need of a
# GPU runtime / of PyTorch on a GPU, or Triton's (the compiler refuses the case for sm_100).
CAUSES = [
    ("skip: the test skips itself (its own condition)", r"^SKIP"),
    ("tc5.triton: triton.reinterpret's TensorWrapper refused (fixed)", r"not TensorWrapper"),
    ("tc5: mma.sync not modelled (Triton's tl.dot where tcgen05 does not fit)", r"instruction 'mma' is not modelled"),
    ("tc5: instruction not supported", r"UnsupportedError|TC5_EUNSUPPORTED|not supported by tc5"),
    ("tc5: read of shared memory never written, value unused (the pending uninit rule)",
     r"HazardError.*smem-uninit-read|smem-uninit-read.*HazardError"),
    ("tc5: checker finding", r"HazardError"),
    ("tc5: memory never written read", r"UninitializedError|TC5_EUNINIT"),
    ("tc5: out of bounds", r"BoundsError|TC5_EBOUNDS"),
    ("too slow for a CPU model: past the per-case limit (TC5_PEER_CPU_LIMIT)",
     r"_PeerTimeout|ran past TC5_PEER_TIMEOUT|used more than TC5_PEER_CPU_LIMIT"),
    ("tc5: deadlock", r"DeadlockError"),
    ("tc5: other error", r"tc5\.\w*Error|TC5_E[A-Z]+"),
    ("GPU runtime: CUDA-only PyTorch operation on a CPU tensor",
     r"not implemented for 'CPU'|NotImplementedError: Could not run .* 'CPU'|Could not run .*CUDA"),
    ("GPU runtime: torch.cuda API", r"torch\.cuda|CUDA driver|cuda runtime|cudaError|Torch not compiled with CUDA"),
    ("test older than Triton 3.9: an API 3.9 removed or renamed (block pointers; Gluon's async_copy_* TMA names, "
     "_reinterpret)",
     r"have been removed in favor|has been removed; call|has no attribute|"
     r"unexpected keyword argument|got an unexpected"),
    ("test older than Triton 3.9: checks PTX text 3.9 emits otherwise", r"built-in method count of str|in ptx|asm\[.ptx.\]"),
    ("Triton: compile error for sm_100", r"CompilationError|PassManager::run failed|ptxas"),
    ("test: result differs", r"AssertionError|Mismatch|Not equal|not close|assert_close"),
    ("other", r""),
]


# failures whose cause the message alone does not tell, found by reading the case (docs/fidelity.md)
KNOWN = [
    # the reference is torch.matmul of float16, which the torch.cuda shim computes as a B200's cuBLAS would with
    # tc5.gemm (Tensor Core steps over K, one summation order); the kernel sums K in mma.sync's steps of 16. In
    # this case one element of 2,048 is a sum of terms up to about 5e5 that cancels to 0.03: any two summation
    # orders differ there by tens of float16 ulps, above the test's atol 1e-5 (mma.sync's arithmetic itself is
    # checked against the H100 bit for bit: CTest ptx_silicon_mma)
    (r"test_scaled_dot\[32-64-128-True-False-False-e4m3-fp16-4-16-1\]", "reference: the cuBLAS stand-in sums a "
     "cancelling dot in another order (1 element of 2,048)", r"Tensor-likes are not close"),
    # the test hands a CPU tensor (or a pinned one) to a kernel and expects the CUDA driver to refuse it: on tc5
    # the CPU's memory is the device's, and pinning needs a CUDA driver
    (r"test_pointer_arguments\[cpu", "GPU runtime: the test expects a CPU tensor refused by the CUDA driver"),
    # the test allocates shared memory of max_shared_mem // 8 - 32 int64 (29,024 on a B200): Triton 3.9 allocates
    # power-of-2 shapes only
    (r"test_clc_basic\[", "test and Triton 3.9 differ: 3.9 allocates power-of-2 shapes only", r"power-of-2"),
    # Triton 3.9's frontend raises at compile time (the kernel indexes a scalar pointer with KEEP_DIMS and no axis)
    (r"test_reduce\[", "Triton 3.9 refuses the test's kernel (a ValueError in its frontend)", r"too many indices"),
    # the kernel loads its scales unmasked, BLOCK_M (BLOCK_N) // 128 chunks of them, from a tensor of one
    # 128-row chunk (M = 63 with BLOCK_M = 256; N = 111 or 128 with BLOCK_N = 256): a read past the tensor that a
    # GPU serves from whatever follows it (the rows it scales are past M and N); tc5 reports the address
    (r"test_blocked_scale_mxfp\[", "test: its kernel reads past its scale tensor (BLOCK_M or BLOCK_N 256 over one "
     "128-row chunk of scales), harmless on a GPU, reported by tc5", r"outside every buffer"),
    # Triton 3.9 compiles tl.cumsum/tl.cumprod of bfloat16 with add.bf16/mul.bf16 (rounded at each step of
    # the tree); the test compares with a float32 cumsum at rtol 0.01, which an f32 scan passes
    (r"test_scan2d\[(cumsum|cumprod)-bfloat16", "test older than Triton 3.9: 3.9 scans bfloat16 in bfloat16 "
     "(add.bf16), the test's tolerance assumes an f32 scan"),
]



def fetch_files(src, git):
    """the pinned files (name -> bytes); src, git: lists of checkouts / git directories, each file read from
    the first that holds it at its pin (a checkout: by path alone, its SHA-256 then tells), else downloaded"""
    src = [src] if isinstance(src, str) else list(src)
    git = [git] if isinstance(git, str) else list(git)
    out = {}
    for name, (repo, pin, path, sha) in FILES.items():
        data = None
        for d in (d for d in src if d):
            if os.path.exists(os.path.join(d, path)):
                data = open(os.path.join(d, path), "rb").read()
                if hashlib.sha256(data).hexdigest() == sha:
                    break
        for g in (g for g in git if g):
            if data is not None and hashlib.sha256(data).hexdigest() == sha:
                break
            r = subprocess.run(["git", "--git-dir", g, "show", f"{pin}:{path}"], capture_output=True)
            if r.returncode == 0:
                data = r.stdout
        if data is None:
            url = f"https://raw.githubusercontent.com/{repo}/{pin}/{path}"
            with urllib.request.urlopen(url, timeout=120) as r:
                data = r.read()
        got = hashlib.sha256(data).hexdigest()
        if got != sha:
            sys.exit(f"triton_peer: {path}: SHA-256 {got}, the pin is {sha} ({repo}@{pin})")
        out[name] = data
    return out


def suite(files=None):
    """Triton's peer suite for the harness (files: fetch_files's; None: none, for triage alone)"""
    return H.Suite(
        name="triton",
        title=f"tc5 peer suite: Triton's tests on tc5 (test_core.py, test_matmul.py: {'@'.join(ZWU)}; "
              f"gluon_test_core.py: {'@'.join(FB)})",
        files=files or {}, tests=list(TESTS),
        env={"TC5_TRITON": "1", "TC5_TRITON_TORCH_CUDA": "1", "TRITON_DEFAULT_BACKEND": None,
             "TRITON_INTERPRET": None, "TRITON_DEFAULT_FP_FUSION": os.environ.get("TRITON_DEFAULT_FP_FUSION", "1"),
             # the case limit in CPU seconds (the load of a shared machine does not advance it): 300, the
             # documented wall limit as one free core takes it; the wall limit only a backstop for a hang
             "TC5_PEER_CPU_LIMIT": os.environ.get("TC5_PEER_CPU_LIMIT", "300"),
             "TC5_PEER_TIMEOUT": os.environ.get("TC5_PEER_TIMEOUT", "3600")},
        causes=CAUSES, known=KNOWN, zero_launches=None)  # a Triton test may pass compiling alone: it stays passed


def fetch(src, git, work):
    """the pinned files into work, conftest.py with the harness's hooks"""
    H.write_files(suite(fetch_files(src, git)), work)


def environment():
    """the pytest processes' environment"""
    return suite().environment()


def known_cause(outcome, msg, nodeid):
    """the cause KNOWN gives a failure (by its case and, where the rule says, its message), or None"""
    return suite().known_cause(outcome, msg, nodeid)


def cause_of(outcome, msg, nodeid=""):
    return suite().cause_of(outcome, msg, nodeid)


select = H.select
run_chunk = H.run_chunk  # the local engine's chunk (the lent machine's deadline path)
one_line = H.one_line
summarize = H.summarize


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", action="append", default=[], help="a checkout (repeatable)")
    ap.add_argument("--git", action="append", default=[], help="a git directory (repeatable)")
    ap.add_argument("--files", default=",".join(TESTS), help="the test files, comma-separated (default: all "
                    "three)")
    H.arguments(ap)
    args = ap.parse_args()
    files = [f for f in args.files.split(",") if f]
    bad = [f for f in files if f not in TESTS]
    if bad:
        sys.exit(f"triton_peer: --files: {bad[0]} is not one of {', '.join(TESTS)}")

    def suite_of(a, work):
        if work is None:  # --from-work: the triage alone
            return suite()
        s = suite(fetch_files(a.src, a.git))
        s.tests = files
        return s

    return H.main_with(suite_of, args)


if __name__ == "__main__":
    sys.exit(main())
