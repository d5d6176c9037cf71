#!/usr/bin/env python3
"""Liger-Kernel's own tests as a peer suite of tc5 (issue 50): the release's
test/transformers/ files, unmodified, run with pytest through the Triton door
(TC5_TRITON=1: Triton compiles for a B200, tc5 runs the PTX) and the
torch.cuda shim (TC5_TRITON_TORCH_CUDA=1: "cuda" tensors are host memory that
answers as CUDA, tc5.device), on the one peer harness
(scripts/peer_harness.py): each case's outcome, cause and kernels launched.

usage: liger_peer.py [--sdist liger_kernel-0.8.5.tar.gz] [--files test_a.py,...] [--every K]
                     [--only REGEX] [--ids FILE] [--engine ray|xdist|local] [--jobs N]
                     [--chunk N] [--work DIR] [--out results.tsv] [--list]
       liger_peer.py --triage-only results.tsv | --from-work DIR --out results.tsv

The tests are not committed here (Liger-Kernel's, BSD-2-Clause): they are read
from the release's sdist (--sdist; without it, downloaded from PyPI's files
host into ~/.cache/tc5), whose SHA-256 must be SDIST_SHA256 below, so every
run runs the same tests. From it the suite carries src/ (the package, put on
sys.path by the root conftest as Liger's pyproject's `pythonpath` does),
test/__init__.py, test/conftest.py, test/utils.py and test/transformers/*.py;
not the 27 MB of test/resources (no test/transformers file reads them).

The selection: pytest collects test/transformers/ (2,608 cases with
transformers 5.24.0 installed; 315 test functions); of each test function's cases, in pytest's
collection order, every K-th is kept, starting with the first (--every K;
K = 1 is the whole files). Nothing is chosen by outcome. K = 32 is the
documented selection (342 cases, every function at least once;
docs/fidelity.md). A case that passes without tc5 launching a kernel is
counted `not run` (the test fell back to PyTorch, or checks Python only).
Each case stops after TC5_PEER_CPU_LIMIT CPU seconds of its process (120:
pytest-timeout's limit as one free core takes it; CPU time, which the load of
a shared machine does not stretch; the harness's fixture, ITIMER_PROF), with
TC5_THREADS=1 (one host thread a launch: --jobs processes share the cores),
and at TC5_PEER_TIMEOUT wall seconds (1800, against hangs). Each case's CPU
seconds, wall seconds and the process's peak RSS after it go to the results'
OUT.cost.tsv (the harness's).

Output: the harness's results file, one line a case,
`nodeid<TAB>outcome<TAB>cause<TAB>message<TAB>launches`, then counts by outcome
and cause. docs/fidelity.md has a run's table and each cause's reading.
"""
import argparse
import hashlib
import io
import os
import sys
import tarfile
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_harness as H  # noqa: E402

VERSION = "0.8.5"
SDIST = f"liger_kernel-{VERSION}.tar.gz"
SDIST_SHA256 = "4e8f8f611a8ad735c37c989410d09820bb08881f131851a3967c34baa7889d66"
SDIST_URL = f"https://files.pythonhosted.org/packages/source/l/liger_kernel/{SDIST}"

# the root conftest: Liger's pyproject puts src/ and the root on sys.path (pytest's `pythonpath`);
# the harness appends its hooks (selection, per-case limit, launches)
CONFTEST = b'''"""root conftest of tc5's Liger-Kernel peer suite (scripts/liger_peer.py): Liger's
pyproject's pythonpath = ["src", "."]; the door and the shim come from the environment
(TC5_TRITON=1, TC5_TRITON_TORCH_CUDA=1)"""
import os
import sys

_here = os.path.dirname(os.path.abspath(__file__))
for _p in (_here, os.path.join(_here, "src")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

'''
PYTEST_INI = b"[pytest]\npython_files = test_*.py\n"

# The triage: (cause, regex on the failure's or skip's message), first match wins. A cause names whose the
# failure is: tc5's (a defect: fixed, or listed in docs/fidelity.md), the test's need of a GPU runtime, or the
# test's own condition.
CAUSES = [
    ("skip: the test skips itself (its own condition)", r"^SKIP"),
    ("not run: passed with no kernel launched through tc5 (the test checks Python: module patching, "
     "argument checks, a PyTorch path)", r"passed without launching a kernel"),
    ("tc5.cute: Liger's CuTe DSL kernels are compiled for CuTe DSL's TVM-FFI calling path (cute.compile with "
     "--enable-tvm-ffi), which tc5's CuTe DSL runtime does not provide",
     r"Unknown function cutlass___call__|CUTE_DSL runtime library could not be resolved|CuteDSLRT_TVMFFI"),
    ("tc5.cute not active: a CuTe DSL kernel called on host tensors (TC5_CUTE unset)",
     r"Mismatched Tensor on argument .*expected device_type=cuda"),
    ("tc5: instruction not supported", r"UnsupportedError|TC5_EUNSUPPORTED|not supported by tc5"),
    ("tc5: checker finding", r"HazardError"),
    ("tc5: memory never written read", r"UninitializedError|TC5_EUNINIT"),
    ("tc5: out of bounds", r"BoundsError|TC5_EBOUNDS"),
    ("too slow for a CPU model: past the per-case CPU limit (TC5_PEER_CPU_LIMIT, 120 s)",
     r"_CpuLimit|more than TC5_PEER_CPU_LIMIT"),
    ("too slow: past the per-case wall limit (TC5_PEER_TIMEOUT)", r"ran past TC5_PEER_TIMEOUT"),
    ("tc5: deadlock", r"DeadlockError"),
    ("tc5: other error", r"tc5\.\w*Error|TC5_E[A-Z]+"),
    ("GPU runtime: CUDA-only PyTorch operation on a CPU tensor",
     r"not implemented for 'CPU'|NotImplementedError: Could not run .* 'CPU'|Could not run .*CUDA"),
    ("GPU runtime: torch.cuda API", r"torch\.cuda|CUDA driver|cuda runtime|cudaError|Torch not compiled with CUDA"),
    ("Triton: compile error", r"CompilationError|PassManager::run failed|ptxas"),
    ("test: result differs", r"AssertionError|Mismatch|Not equal|not close|assert_close"),
    ("other", r""),
]

# failures whose cause the message alone does not tell, found by reading the case (docs/fidelity.md)
KNOWN = [
    # bf16 cross-entropy at 8192 x 32,000, the input gradient's allclose: measured against the exact (float64)
    # gradient of the same bf16 logits by tests/python/peer/probe_liger_ce.py (tests/data/liger/probe_ce_*.txt):
    # the reference (PyTorch's CPU bf16 kernels under the shim) has elements outside the test's tolerance of
    # the exact gradient, Liger's kernel on tc5 none; the test passes on the H200 (tests/data/liger/h200_verdicts.txt).
    # The whole suite's other shapes and reductions (u50: probe_liger_ce.py plain|ignore B T sum|none [IGNORE],
    # tests/data/liger/probe_u50.txt): the same at 3 x 423 (173 and 52 reference elements outside, Liger's 0) and
    # with reduction none (the same gradient bits as sum on both sides: each row's upstream gradient is 1)
    (r"test_cross_entropy\.py::test_correctness(_with_ignore_index)?\[1\.0-dtype0-1e-08-0\.05-(sum|none)-"
     r"(2-4096|3-423)-32000",
     "reference: PyTorch's CPU bf16 cross-entropy gradient is off the exact one by more than the test's tolerance "
     "(Liger's kernel on tc5 is within it; docs/fidelity.md)", r"tensor\(|allclose|assert"),
    # bf16 cross-entropy at 8192 x 32,000 with a class weight, or not as the last layer: the same input-gradient
    # allclose as test_correctness above; both pass on the H200 (tests/data/liger/h200_failures.tsv); probed by
    # probe_liger_ce.py weight|notlast (tests/data/liger/probe_ce_weight_notlast.txt): the reference has 15,790 and
    # 25,437 elements outside the test's tolerance of the exact gradient, Liger's kernel on tc5 none
    # w51, the whole suite's other shapes: probe_liger_ce.py weight 3 423 sum|none, weight 2 4096 none, notlast 3 423
    # sum (tests/data/liger/probe_ce_w51.txt): the reference 68, 68, 333 and 82 elements outside, Liger 0 in all
    (r"test_cross_entropy\.py::test_correctness_(with_weight_once\[1\.0-dtype0-1e-08-0\.05-(sum|none)|"
     r"not_last_layer\[1\.0-dtype0-1e-08-0\.05-sum)-(2-4096|3-423)-32000",
     "reference: PyTorch's CPU bf16 cross-entropy gradient is off the exact one by more than the test's tolerance "
     "(Liger's kernel on tc5 is within it; docs/fidelity.md)", r"tensor\(|allclose|assert"),
    # Liger 0.8.5's output classes subclass transformers' per-model ones, imported under try/except: transformers
    # 5.24.0 (the environment's) no longer defines Qwen2-VL's, Qwen2.5-VL's, Qwen3-VL's and GLM-4V-MoE's, so
    # Liger's own module lacks its subclasses and the monkey-patch tests' imports fail, on any device
    (r"test_monkey_patch\.py::", "environment: Liger 0.8.5 against transformers 5.24.0, which no longer defines "
     "the output classes Liger subclasses (ImportError in Liger's own module; no kernel, any device)",
     r"cannot import name 'Liger\w*CausalLMOutputWithPast'"),
    # Liger's swiglu backward (_swiglu_kernel_backward_dGU) as Triton 3.9 compiles it for sm_100a: the loop stores
    # the reshaped operand to one shared-memory buffer (fixed offset) every iteration, then issues tcgen05.mma on
    # it and commits to a per-stage mbarrier, but waits for the *previous* iteration's commit only after the next
    # iteration's stores: iteration i+1 overwrites the buffer iteration i's MMAs may still read. The checker's
    # smem-overwrite-inflight names that order in the PTX (docs/fidelity.md); only a B200 would show its effect.
    # Triton 3.6 (the whole-suite run) compiles both _swiglu_kernel_backward_dGU and _swiglu_kernel_backward_dI so
    # too (u50, read from its cache: the float32 configs' tf32 operand re-stored by st.shared at one fixed offset in
    # the loop, tcgen05.commit to the iteration's mbarrier, the latch waiting on the previous iteration's only)
    (r"test_mlp\.py::", "Triton 3.6 and 3.9 (sm_100a): the swiglu backward's single-buffered MMA operand is rewritten "
     "before the previous iteration's tcgen05.mma is waited for (the checker's smem-overwrite-inflight; a race "
     "in the PTX as compiled)", r"smem-overwrite-inflight"),
    # Liger asserts on the host that every target is in range, before any launch: the error the test expects
    (r"test_cross_entropy\.py::test_correctness_with_out_of_bounds_target_once\[", "test: expects the host-side "
     "assertion Liger raises before any launch (no kernel on any device)"),
    # Liger's JSD dispatches to its CuTe DSL kernel where nvidia-cutlass-dsl imports and the capability is 9.0 or
    # more (preference rank 20, Triton's 50; cuTile, rank 5, is not installed): that kernel computes
    # M = beta P + (1 - beta) Q directly, and on the test's low-probability block P and Q underflow to 0 in
    # float32 (exp(-120)), so M log M is 0 * -inf = NaN; its Triton kernel computes log M from the shifted
    # exponentials (the fix the test is for). Probed (the test's inputs, each implementation pinned): Triton
    # finite, CuTe DSL NaN, automatic NaN. IEEE arithmetic, the same on silicon (docs/fidelity.md)
    (r"test_(fused_linear_)?jsd\.py::test_low_probability_vocab_block_is_finite", "Liger: its CuTe DSL JSD kernel "
     "(preferred on capability 9.0+ when nvidia-cutlass-dsl imports) lacks its Triton kernel's underflow fix: "
     "0 * log 0 = NaN on a low-probability block (on silicon too)", r"isfinite"),
    # torch.compile of Liger's TVD loss: eager's `output_tensor.sum()` under the shim is CUDA's sum (tc5.device_reduce,
    # a50: Reduce.cuh's order), the compiled graph's is Inductor's Triton reduction run on tc5. `batchmean`, `sum` and
    # `none` pass; for `mean`, the two sums of the test's 64 losses (the shim's CPU generator draws p and q) differ on
    # the H200 too: gpu/run.sh reduce-compile sums the same 64 values eagerly and compiled there, 0x39d5c7a6 against
    # 0x39d5c7a7 (equal for 120 of 203 vectors: Inductor's two warps add the halves, CUDA's 64-lane block adds v[t] and
    # v[t + 32] first); the H200's own run passes because CUDA's generator draws other values (docs/fidelity.md)
    (r"test_tvd\.py::test_torch_compile_matches_eager\[mean\]", "Liger's test: eager CUDA sum and Inductor's "
     "two-warp Triton sum of the same 64 losses differ for these inputs on the H200 too (gpu/run.sh reduce-compile: "
     "0x39d5c7a6 against 0x39d5c7a7; equal for 120 of 203 vectors): the bit equality holds for some data only",
     r"torch\.equal"),
    # rows past 2^31 elements: the test asks torch.cuda.mem_get_info for 17.2 GB free (the shim answers the host's
    # available memory, which passed), then its three tensors plus the process exceed this 23 GB host: the
    # allocation fails (or the kernel's OOM killer ends the process); the tensors are the test's own, tc5 adds none
    (r"test_sparsemax\.py::test_sparsemax_large_row_offset", "machine: the test's own 17.2 GB of tensors and the "
     "process exceed this 23 GB host (allocation refused or killed for memory; tc5 uses the tensors in place)",
     r"can't allocate memory|ended with status -9"),
    # Liger 0.8.5's MuseGlimmer lce_forward builds its output with image_hidden_states=outputs.image_hidden_states;
    # in transformers 5.24.0 that is a deprecated property returning self.image_outputs.pooler_output with no None
    # check, and a text-only batch (these tests') has image_outputs None (transformers' own forward passes
    # image_outputs instead). Pure Python after the model's kernels ran: the same on any device (k50)
    (r"test_muse_glimmer\.py::", "environment: Liger 0.8.5 against transformers 5.24.0, whose deprecated "
     "image_hidden_states property dereferences image_outputs, None for text-only inputs (AttributeError in "
     "Liger's lce_forward; no kernel, any device)", r"'NoneType' object has no attribute 'pooler_output'"),
    # Liger's CuTe DSL LayerNorm forward (_cute_lib/rmsnorm_fwd.py, Quack's) at N = 32, 4 rows: the tile is 16 rows
    # x 32 (8 lanes a row); rows 4-15 skip their cp.async (row < M), load their never-written shared rows and
    # reduce them with shfl.sync.bfly among their own 8 lanes, and every store (out, mean, rstd) is under row < M:
    # the values are discarded. The checker reported the shuffle; it now follows marks through shfl.sync (k50,
    # docs/check.md) and the test passes, as it does with Liger's Triton layer_norm pinned
    # (LIGER_KERNEL_IMPL_LAYER_NORM=nvidia-triton; tests/python/peer/probe_liger_vln.py)
    (r"test_muse_glimmer\.py::test_muse_glimmer_vision_layer_norm_patch_parity", "tc5's (checker): a false "
     "smem-uninit-read at a shfl.sync of rows past the tensor's end that Liger's CuTe DSL LayerNorm never stores; "
     "fixed (k50: marks followed through shfl.sync; docs/check.md)", r"smem-uninit-read"),
    # Liger's flex-attention tests call torch.nn.attention.flex_attention without torch.compile: PyTorch's unfused
    # eager path (matmuls and a softmax in ATen) on any device, no Triton kernel (c50, docs/fidelity.md)
    (r"test_flex_attention\.py::", "test: flex_attention without torch.compile is PyTorch's unfused eager path "
     "(no Triton kernel on any device)", r"without launching a kernel"),
    # (test_swiglu's MixtralExperts case [dtype1-...-431], past the CPU limit in the whole run while Triton compiled
    # every autotune config of the MoE backward with a cold cache, had a rule here; since session 12 the autotuner
    # compiles no config after the first that fits and the case passes: its row was run again, no rule)
    # the whole-suite run (w50: tests/data/liger/whole_results.tsv, Triton 3.6.0): Liger's MoE up-projection and
    # neighbourhood-attention kernels in their pipelined configs, as Triton 3.6 compiles them for sm_100a, load the
    # operands with cp.async and hand them to tcgen05.mma with no fence.proxy.async (every such PTX in Triton 3.6's
    # cache: 0 fences; its configs that store with st.shared have them); on Triton 3.9 the same MoE cases pass (the
    # k = 32 selection), and so do its other neighbourhood-attention shapes: FlagGems' Triton 3.5 finding, docs/fidelity.md
    (r"test_fused_moe\.py::|test_swiglu\.py::test_correctness_mixtralexperts|test_fused_neighborhood_attention\.py::",
     "Triton 3.6 (sm_100a): no fence.proxy.async between cp.async and tcgen05.mma in the pipelined configs (the "
     "checker's proxy-fence; Triton 3.9's code passes)", r"proxy-fence"),
    # the whole-suite run's undecided failures (u50; tests/data/liger/probe_u50.txt, each probe on the test's own
    # inputs under torch 2.11, against the same quantity in float64): float32 cross-entropy not as the last layer,
    # with label smoothing, z-loss and a soft cap: probe_liger_ce.py params (3 x 423: 56,045 and 308,480 reference
    # gradient elements outside the test's rtol 1e-5 of the exact gradient, 2 x 1024: 7,986 and 160,291; Liger's
    # kernel on tc5 0 in all four); the test's
    # function in a plain CPU process without tc5 gives the same, with label smoothing 0 it has none outside: PyTorch's
    # CPU label-smoothing gradient. Passes on the H200 (h200_verdicts.txt)
    # float32 cross-entropy with z-loss and label smoothing 0.2, sum (w51, the whole suite's last 330): probe_liger_ce.py
    # zloss B T -42 LSS 0.2 RET (tests/data/liger/probe_ce_w51.txt; the exact gradient by float64 autograd of the
    # test's CrossEntropyWithZLoss): the reference has 9,065 and 9,066 (3 x 423) and 42,573 and 42,589 (2 x 4096)
    # gradient elements outside the test's rtol 1e-6 of it, Liger's kernel on tc5 0 in all four: PyTorch's CPU
    # label-smoothing gradient, as for not_last_layer_with_other_params above
    (r"test_cross_entropy\.py::test_correctness_with_z_loss_with_other_params_once\[0\.2--42-sum-(True|False)-"
     r"(0\.0001|1e-05)-1\.0-dtype1-1e-08-1e-06-(2-4096|3-423)-32000\]",
     "reference: PyTorch's CPU float32 cross-entropy gradient with label smoothing is off the exact one by more than "
     "the test's rtol 1e-6 (Liger's kernel on tc5 is within it; probe_liger_ce.py zloss)", r"mismatched|allclose|assert"),
    (r"test_cross_entropy\.py::test_correctness_not_last_layer_with_other_params\[1\.0-dtype1-1e-08-1e-05-sum-",
     "reference: PyTorch's CPU float32 cross-entropy gradient with label smoothing is off the exact one by more than "
     "the test's rtol 1e-5 (Liger's kernel on tc5 is within it; probe_liger_ce.py params)", r"tensor\(|allclose|assert"),
    # float16 cross-entropy, mean over 8,192 rows, forward only: probe_liger_ce.py fwd: the reference's loss is inf
    # (PyTorch's CPU float16 nll_loss sums the rows' losses, about 89,000, in float16, past its 65,504, before the
    # division; plain CPU PyTorch 2.11 without tc5 does the same at 8,192 x 4,000), Liger's kernel on tc5 gives
    # 10.867188 against the exact 10.866834 (tolerance 0.119). Passes on the H200 (CUDA accumulates in float32)
    (r"test_cross_entropy\.py::test_correctness_with_forward_only\[dtype1-1\.0-0\.01-0\.01-mean-",
     "reference: PyTorch's CPU float16 cross-entropy mean is inf (its sum of the rows' losses overflows float16 "
     "before the division; Liger's kernel on tc5 is within the test's tolerance of the exact mean; probe_liger_ce.py "
     "fwd)", r"allclose"),
    # float32 GroupNorm, 16 x 48 x 8192, 12 groups: probe_liger_gn.py: the bias gradient (per channel a sum of
    # 131,072 upstream values) of PyTorch's CPU kernel has 1 element outside the test's tolerance (1e-4 + 1e-4 |x|)
    # of the float64 sum (channel 45: -0.467934 against -0.468214), Liger's kernel on tc5 none (-0.468178)
    (r"test_group_norm\.py::test_liger_group_norm\[dtype0-0\.0001-0\.0001-16-48-12-8192\]",
     "reference: PyTorch's CPU float32 GroupNorm bias gradient is off the float64 sum by more than the test's "
     "tolerance (Liger's kernel on tc5 is within it; probe_liger_gn.py)", r"Bias grads different"),
    # GEGLU's bf16 MLP at 2 x 2048 x 4096 (u50, the whole suite): against float64 the bf16 CPU reference and Liger's
    # kernel on tc5 are each outside the test's 1e-2 + 1e-2|x| on about 18 % of every tensor's elements, in nearly
    # equal numbers (gate_proj.weight.grad 1,540,988 and 1,540,994 of 8,388,608); the test's allclose rejects 10 gate
    # and 26 input-gradient elements where both are far off the exact value (float64 -269.4, reference 1.828, Liger
    # 1.859: a cancelling 4,096-term sum): whether it passes depends on the draws. Liger's GEGLU kernels on tc5
    # compute what their source says (probe_liger_geglu_kernel.py); tests/data/liger/probe_geglu_u50.txt
    (r"test_geglu\.py::test_correctness\[dtype1-0\.01-0\.01-2-2048-2048-4096\]", "test: its tolerance is below bf16's "
     "rounding at this shape (the bf16 reference and Liger's kernel on tc5 each outside it of the float64 result on "
     "about 1.5 M of 8.4 M elements; they differ at 10, where both are hundreds off; probe_liger_geglu.py)",
     r"allclose|Linear"),
    # bf16 modulated RMSNorm with casting_mode none and a weight (elementwise_affine True), on torch 2.11's draws
    # (the whole-suite run): probe_liger_mrms.py global|row [noshift] (tests/data/liger/probe_mrms_torch211.txt):
    # Liger's kernels on tc5 are within the test's tolerance of the float64 result at every element of every
    # gradient; the bf16 reference (PyTorch's CPU kernels under the shim) is as far or further off (row: 4 weight-
    # gradient elements outside it) and the two are more than the tolerance apart; every case passes on the H200
    # Without a weight (elementwise_affine False: its weight is ones otherwise, the same arithmetic), the global
    # cases' one mismatch is scale.grad's, as with it: probe_liger_mrms.py global [noshift] noaffine (u50,
    # tests/data/liger/probe_u50.txt): 0 elements of either side outside the tolerance of float64, the two 0.25 apart
    (r"test_modulated_rms_norm\.py::test_correctness\[(True|False)-(True|False)-(global|row)-0\.0-none-dtype1-0\.1-0\.02-5-"
     r"123",
     "reference: the bf16 reference (PyTorch's CPU kernels) is as far or further off the float64 result than "
     "Liger's kernel on tc5, which is within the test's tolerance of it (probe_liger_mrms.py; passes on the H200)",
     r"mismatched elements"),
]


def sdist_bytes(path=None):
    """the pinned sdist's bytes: from path, else the cache, else PyPI's files host"""
    if not path:
        cache = os.path.join(os.path.expanduser("~"), ".cache", "tc5")
        path = os.path.join(cache, SDIST)
        if not os.path.exists(path):
            os.makedirs(cache, exist_ok=True)
            with urllib.request.urlopen(SDIST_URL, timeout=120) as r:
                data = r.read()
            with open(path + ".part", "wb") as fh:
                fh.write(data)
            os.replace(path + ".part", path)
    data = open(path, "rb").read()
    got = hashlib.sha256(data).hexdigest()
    if got != SDIST_SHA256:
        sys.exit(f"liger_peer: {path}: SHA-256 {got}, the pin is {SDIST_SHA256} (Liger-Kernel {VERSION}'s sdist)")
    return data


def carried(name):
    """whether the sdist's member (its path under the top directory) travels with the suite"""
    if name.startswith("src/"):
        return True
    if name in ("test/__init__.py", "test/conftest.py", "test/utils.py"):
        return True
    return name.startswith("test/transformers/") and name.endswith(".py")


def files_of(data):
    """the suite's files (name -> bytes) from the sdist's bytes"""
    out = {}
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for m in tar.getmembers():
            if not m.isfile():
                continue
            top, _, name = m.name.partition("/")
            if top == f"liger_kernel-{VERSION}" and carried(name):
                out[name] = tar.extractfile(m).read()
    out["conftest.py"] = CONFTEST
    out["pytest.ini"] = PYTEST_INI
    return out


def tests_of(files):
    return sorted(n for n in files if n.startswith("test/transformers/test_") and n.endswith(".py"))


def suite(files=None):
    """Liger-Kernel's peer suite for the harness (files: files_of's; None: none, for triage alone)"""
    files = files or {}
    return H.Suite(
        name="liger",
        title=f"tc5 peer suite: Liger-Kernel {VERSION}'s test/transformers on tc5 (sdist SHA-256 {SDIST_SHA256})",
        files=files, tests=tests_of(files),
        # TC5_CUTE=1: Liger's CuTe DSL kernels (its backend on a B200 where nvidia-cutlass-dsl is installed) on
        # tc5 too, through the CuTe DSL door
        env={"TC5_TRITON": "1", "TC5_TRITON_TORCH_CUDA": "1", "TC5_CUTE": "1", "TRITON_DEFAULT_BACKEND": None,
             "TRITON_INTERPRET": None, "TC5_PEER_TIMEOUT": os.environ.get("TC5_PEER_TIMEOUT", "1800"),
             "TC5_PEER_CPU_LIMIT": os.environ.get("TC5_PEER_CPU_LIMIT", "120"),
             "TC5_THREADS": os.environ.get("TC5_THREADS", "1"),
             "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false",
             "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS", "1"),
             "TRITON_DEFAULT_FP_FUSION": os.environ.get("TRITON_DEFAULT_FP_FUSION", "1")},
        causes=CAUSES, known=KNOWN, zero_launches="not run")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sdist", default="", help=f"{SDIST} (default: ~/.cache/tc5, else downloaded from PyPI)")
    ap.add_argument("--files", default="", help="test files of test/transformers, comma-separated (default: all)")
    H.arguments(ap)
    args = ap.parse_args(argv)

    def suite_of(a, work):
        if work is None:  # --from-work: the triage alone
            return suite()
        s = suite(files_of(sdist_bytes(a.sdist)))
        if a.files:
            want = ["test/transformers/" + os.path.basename(f) for f in a.files.split(",") if f]
            bad = [f for f in want if f not in s.tests]
            if bad:
                sys.exit(f"liger_peer: --files: {bad[0]} is not a test file of the sdist's test/transformers")
            s.tests = want
        return s

    return H.main_with(suite_of, args)


if __name__ == "__main__":
    sys.exit(main())
