#!/usr/bin/env python3
"""FlagGems' own tests as a peer suite of tc5 (issue 50): FlagGems 5.0.2 (Triton implementations of
PyTorch's operators, registered for PyTorch's CUDA dispatch key) on Triton 3.5, its own compiler,
with tc5 as the device: TC5_TRITON=1 (Triton's NVIDIA backend compiles for a B200, tc5 runs the PTX),
TC5_TRITON_TORCH_CUDA=1 (the tests' device="cuda" tensors are host memory that answers as CUDA
tensors, and the operators FlagGems registers for the CUDA key are reached: tc5.device),
GEMS_VENDOR=nvidia (FlagGems' vendor; it would otherwise run nvidia-smi). Through the one peer
harness (scripts/peer_harness.py): each case's outcome, cause and the kernels tc5 launched for it.

usage: flaggems_peer.py [--src DIR]... [--git GITDIR]... [--files F,...] [--every K] [--only REGEX]
                        [--ids FILE] [--python PY] [--engine ray|xdist|local] [--jobs N]
                        [--chunk N] [--deadline S] [--work DIR] [--out results.tsv]
       flaggems_peer.py --triage-only results.tsv | --from-work DIR --out results.tsv

--python is an interpreter with FlagGems 5.0.2, Triton 3.5, PyTorch 2.9 and tc5 installed
(scripts/flaggems_env.sh makes one). FlagGems' 5.0.2 packaging pins Triton 3.5 (through flagtree)
and PyTorch 2.9.0; its generated `tl.make_block_ptr` code does not compile under Triton 3.9.

The tests are not committed here (FlagGems', Apache-2.0): they are FlagGems' tests/ folder at the
release's tag v5.0.2 (commit PIN below), read from a checkout (--src: a directory holding tests/), a
git directory (--git: `git archive PIN tests`, e.g. the mirror fetch makes of flagos-ai/FlagGems),
or downloaded from GitHub at PIN; the folder's manifest (each file's path and SHA-256, sorted)
must hash to TREE_SHA256, so every run runs the same tests. The package itself is the PyPI wheel
flag_gems-5.0.2-py3-none-any.whl, SHA-256 WHEEL_SHA256 (its Python files are the tag's src/).
FlagGems' pytest.ini is replaced by one without `pythonpath = src` (the wheel is installed); its
tests/conftest.py is kept as it is; the harness's hooks go into a root conftest.py of their own.

The selection: of each test function's cases, in pytest's collection order, every K-th is kept,
starting with the first (--every K; K = 1 is the whole files); nothing is chosen by outcome.
K = 64 is the documented selection (docs/fidelity.md). A case that passes having launched no
kernel through tc5 is "not run" (zero_launches): FlagGems' operators fall back to PyTorch's where
it does not reach its own.

Output: the harness's results file, `nodeid<TAB>outcome<TAB>cause<TAB>message<TAB>launches`, then
the counts by outcome and cause; docs/fidelity.md has a run's table and each cause's meaning.
"""
import argparse
import hashlib
import io
import os
import subprocess
import sys
import tarfile
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_harness as H  # noqa: E402

REPO = "flagos-ai/FlagGems"
TAG = "v5.0.2"
PIN = "30bfcc0735b8ebd48bd7339ef752ec64df69663f"  # v5.0.2
# SHA-256 of the manifest of tests/ at PIN: "path<TAB>sha256\n" per file, sorted by path (manifest())
TREE_SHA256 = "489f338c12bf32bdcd34626a72d77fea5aed80ba83cf03f96c6f7a9a71a86b72"
WHEEL = "flag_gems-5.0.2-py3-none-any.whl"
WHEEL_SHA256 = "d7c5a6121bf2d3f7daddde43bfa7cae739de6cb5b294dcfe7ae6173045c35552"

PYTEST_INI = b"""# FlagGems 5.0.2's pytest.ini without `pythonpath = src` (tc5's peer suite installs the release's wheel)
[pytest]
testpaths = tests
filterwarnings = ignore::pytest.PytestUnknownMarkWarning
"""

# the root conftest.py: the harness's hooks are appended to it (FlagGems' own tests/conftest.py stays as it is)
ROOT_CONFTEST = b'''"""tc5's peer suite of FlagGems (scripts/flaggems_peer.py): the root conftest, which only carries the
harness's hooks (the selection, the per-case time limit, the kernels launched per case)"""
'''

# The triage: (cause, regex on the failure's or skip's message), first match wins. A cause says whose a
# failure is: tc5's, the test's need of a GPU runtime, FlagGems' or Triton's.
CAUSES = [
    ("skip: the test skips itself (its own condition)", r"^SKIP"),
    ("tc5: instruction not supported", r"UnsupportedError|TC5_EUNSUPPORTED|not supported by tc5|is not modelled"),
    ("Triton before 3.8 (3.5 and 3.6 here): no fence.proxy.async between cp.async and tcgen05.mma (the checker's "
     "proxy-fence; 3.3-3.7 omit it, 3.8 writes it: docs/fidelity.md, Compiler releases)", r"HazardError.*proxy-fence"),
    ("tc5: checker finding", r"HazardError"),
    ("tc5: memory never written read", r"UninitializedError|TC5_EUNINIT"),
    ("tc5: out of bounds", r"BoundsError|TC5_EBOUNDS"),
    ("too slow for a CPU model: past the per-case CPU limit (TC5_PEER_CPU_LIMIT)", r"more than TC5_PEER_CPU_LIMIT"),
    ("too slow for a CPU model: past the per-case limit (TC5_PEER_TIMEOUT)", r"_PeerTimeout|ran past TC5_PEER_TIMEOUT"),
    ("tc5: deadlock", r"DeadlockError"),
    ("tc5: other error", r"tc5\.\w*Error|TC5_E[A-Z]+"),
    # FlagGems' random operators read torch.cuda.default_generators[device] and its Philox state (seed, offset:
    # get_state/set_state); the committed run predates tc5.torch_cuda.PhiloxGenerator (the tuple was empty)
    ("tc5 (device identity, fixed since the committed run): torch.cuda.default_generators was empty under the "
     "shim (no Philox CUDA generator)", r"default_generators\["),
    ("GPU runtime: CUDA-only PyTorch operation on a CPU tensor",
     r"not implemented for 'CPU'|NotImplementedError: Could not run .* 'CPU'|Could not run .*CUDA"),
    ("GPU runtime: torch.cuda API", r"torch\.cuda|CUDA driver|cuda runtime|cudaError|Torch not compiled with CUDA"),
    ("Triton 3.5: compile error", r"CompilationError|PassManager::run failed|ptxas"),
    ("test: result differs", r"AssertionError|Mismatch|Not equal|not close|assert_close"),
    ("other", r""),
]

# failures whose cause the message alone does not tell, found by reading the case (docs/fidelity.md)
NO_LAUNCH = r"without launching a kernel"  # the message of a case that passed with none ("not run")
KNOWN = [
    # past the CPU limit and past 120 s on 2 cores (the measure of Liger's pytest-timeout; FlagGems sets no timeout),
    # each of these 40 passed when let finish (sessions 15-16: tests/data/flaggems/full_s15_results.tsv,
    # full_s16_results.tsv; docs/fidelity.md, Session 16): FlagGems' radix sort of 167,772,160 keys in one row
    # (unique, isin shape3) and of sort's 32-bit 131,072-row and every 262,144-row dim-0 case: tc5's speed
    (r"test_sort\.py::test_sort\[0-dtype[0-4]-(True|False)-(131072|262144)-[48]\]|test_unique\.py::test_unique\[.*-shape3\]"
     r"|test_isin\.py::test_accuracy_isin\[.*-shape3\]", "too slow for a CPU model: past the per-case CPU limit and "
     "past 120 s on 2 cores (FlagGems sets no timeout); passes when let finish (full_s15_results.tsv, "
     "full_s16_results.tsv; the largest, unique int32, 290 s wall on 2 cores)", r"more than TC5_PEER_CPU_LIMIT"),
    # past the CPU limit before any kernel: the test's reference, PyTorch's CPU torch._grouped_mm (CUDA's on a GPU),
    # takes 211 of the case's 214 CPU seconds (s50, cProfile of the case: docs/fidelity.md, the slow cases)
    (r"test_grouped_mm\.py::test_grouped_mm\[", "too slow for a CPU model: the test's reference (PyTorch's CPU "
     "torch._grouped_mm) takes 211 of 214 CPU s before any kernel is reached", r"more than TC5_PEER_CPU_LIMIT"),
    # flash_mla at cache lengths 4096 and 8192: the test computes its torch reference (ref_mla: 128 batch elements,
    # the key repeated over 128 heads, in float32) before FlagGems' call, and that alone takes 173-230 and 462-598
    # CPU s on one thread (session 13: tests/python/peer/probe_flaggems_host_setup.py,
    # tests/data/flaggems/probe_host_setup.txt; 1024: 43 s). Past it, FlagGems' flash_mla raises on a B200 (the
    # 1024 and 2048 cases' rule below): not tc5's either way
    (r"test_flash_mla\.py::test_flash_mla\[dtype0-(4096|8192)\]", "too slow for a CPU model: the test's torch "
     "reference (ref_mla) alone takes 173-230 (4096) and 462-598 (8192) CPU s before FlagGems' call, which then "
     "fails as at 1024 and 2048 (no branch for capability 10: a B200 too; probe_host_setup.txt)", r"more than TC5_PEER_CPU_LIMIT"),
    # fused_moe_vs_ref's DeepSeek-V3 shapes (config17-22: 256 experts x 4,096 x 7,168): the test draws 1.13e10
    # weight elements and scales them (about 45 GB) before FlagGems' call; on the lent machine's cores session 13's
    # call 1 stopped all 9 at 120 CPU s with no launch and a peak RSS of 29 GB (the drawing unfinished); on this
    # 2-core host the drawing alone measures 74-85 CPU s (probe_flaggems_host_setup.py): the rows are the device's
    (r"test_fused_experts_impl\.py::test_fused_moe_vs_ref\[dtype\d-config(17|18|19|20|21|22)\]", "too slow for a CPU "
     "model: the limit falls in the test's own input drawing (1.13e10 weight elements, ~45 GB) before any launch "
     "(the device: 0 launches, 29 GB drawn at 120 CPU s; 74-85 CPU s for it here: probe_host_setup.txt)",
     r"more than TC5_PEER_CPU_LIMIT"),
    # upsample_bicubic2d_aa's backward of a (4, 16, 16, 16) gradient to (4, 16, 4, 4): one small launch, but
    # Triton's make_ttgir of the kernel takes ~69 CPU s here (~100 on the device) with a cold cache, each dtype its
    # own kernel; with the cache warm the call is 0.1-1.7 CPU s (session 12: tests/python/peer/
    # probe_flaggems_bicubic_bwd.py, tests/data/flaggems/probe_bicubic_bwd.txt): Triton's compiler, on any machine
    (r"test_upsample_bicubic2d_aa\.py::test_upsample_bicubic2d_aa_backward\[dtype\d-4-16-4-4-16-16-False\]",
     "Triton: compiling upsample_bicubic2d_aa's backward kernel with a cold cache (make_ttgir ~69 CPU s here; "
     "0.1-1.7 CPU s with the cache warm: probe_bicubic_bwd.txt)", r"more than TC5_PEER_CPU_LIMIT"),
    # the int64-index case draws 2^31 float16 with torch.randn on the CPU (64 CPU s; CUDA's generator on a GPU),
    # then tc5 ran the kernel over them (46 CPU s) in s50's run (the K = 128 selection's row); since session 13's
    # f16 rows (the kernel's add.f16 1.8x) both cases pass on the device (whole_results: s13 call 1)
    (r"test_pointwise_dynamic\.py::test_dynamic_function_int64_index\[", "too slow for a CPU model (then): the "
     "test's torch.randn of 2^31 float16 on the CPU (64 CPU s) and tc5's kernel over them (46 CPU s) in s50's run; "
     "passes since session 13 (whole_results)", r"more than TC5_PEER_CPU_LIMIT"),
    # the test runs its kernels in worker processes of its own (multiprocessing): the harness counts launches in
    # the pytest process only (s50: 0.1 CPU s there, 100 s of wall in the workers)
    (r"test_pointwise_dynamic\.py::test_dynamic_function_with_multiprocess\[", "not run (harness): the test "
     "launches its kernels in worker processes of its own, which the harness's count does not see", NO_LAUNCH),
    # FlagGems registers its kernels as "bitwise_left_shift" and "bitwise_right_shift", overloads these
    # operators do not have (theirs are .Tensor, .Tensor_Scalar, .Scalar_Tensor): dangling impls
    # (torch._C._dispatch_find_dangling_impls() lists them), so PyTorch's own kernel runs on a GPU too
    (r"test_bitwise_(left|right)_shift\.py::", "FlagGems: registers bitwise_{left,right}_shift under an overload "
     "the operator lacks (a dangling impl): its kernel is reached on no device", NO_LAUNCH),
    # input_guard is a Python decorator (device and contiguity of the arguments), shape_utils Python helpers: no kernel
    (r"test_FLA/test_fla_utils_input_guard\.py::|test_shape_utils\.py::", "test: a Python utility's test (no kernel)", NO_LAUNCH),
    # the test checks that FlagGems refuses the arguments before any launch (pytest.raises; hstack of tensors
    # whose shapes do not stack)
    (r"::test_\w*error\w*\[|test_hstack\.py::test_exception_hstack\[", "test: checks an argument error raised "
     "before any launch", NO_LAUNCH),
    # use_input_stats and has_running_stats both False: the test returns at once
    (r"test_instance_norm\.py::test_instance_norm\[False-False-", "test: returns at once for this parametrisation "
     "(use_input_stats and has_running_stats both False)", NO_LAUNCH),
    # an operator of two Python numbers: the dispatcher sees wrapped numbers (CPU scalars) alone and runs the
    # CPU's kernel on a GPU too (tc5.device routes it so since l50d; before, FlagGems' mul was called and
    # returned torch.tensor(A * B)): no kernel on any device
    (r"::test_\w*_scalar_scalar\[", "test: an operator of two Python numbers runs the CPU's kernel on "
     "any device (no kernel)", NO_LAUNCH),
    # tests of FlagGems' code generator itself: its argument checks (pytest.raises) and schema, no kernel
    (r"test_pointwise_dynamic\.py::test_(function_schema|dynamic_function_manual_instantiation_does_not_support)",
     "test: FlagGems' code generator's own checks (no kernel)", NO_LAUNCH),
    # the tests pass a tensor `min`: PyTorch's argument parser takes aten::clamp_min(_).Tensor, and FlagGems
    # registers only the Scalar overloads ("clamp_min", "clamp_min_"): PyTorch's own kernel runs on a GPU too,
    # at every shape (probed under the shim: Scalar min, 1 launch; Tensor min, 0 at shapes () and (3,))
    (r"test_clamp_min\.py::test_clamp_min_?\[", "FlagGems: registers clamp_min(_) for a Scalar min only; the test's "
     "tensor min takes the .Tensor overload, PyTorch's kernel on any device", NO_LAUNCH),
    # flash_mla (flag_gems/fused/flash_mla.py) picks its block sizes for compute capability 9, 8 (and two
    # vendors') only; for a B200 (10) it calls error.backend_not_support(device) without its second
    # argument, a TypeError: the same on a B200
    (r"test_flash_mla\.py::test_flash_mla\[", "FlagGems: flash_mla has no branch for capability 10 (a B200) and "
     "its error call lacks an argument (TypeError on a B200 too)", r"backend_not_support\(\) missing"),
    # empty outputs: FlagGems' generated tile returns before any launch when a repeat is 0 (TILE_DIMS (0,), (2, 0),
    # (0, 2)), as does its generated repeat (ops/repeat.py: is_empty when a size times its dimension is 0; the test's
    # REPEAT_SIZES[1] = (5, 0, 4); session 9's whole run), and slice_backward of an out-of-range start launches a
    # zero grid, which Triton's launcher (and the door, like it) does not launch: no kernel on a GPU either
    (r"test_tile\.py::test_tile\[\w+-dims[023]-|test_repeat\.py::test_repeat\[\w+-sizes1-", "FlagGems: a 0 repeat "
     "makes an empty output, returned before any launch (no kernel on any device)", NO_LAUNCH),
    (r"test_slice_backward\.py::test_slice_backward_oob_", "test: an empty gradient (a zero grid, which Triton's "
     "launcher does not launch on any device)", NO_LAUNCH),
    # glu and glu_backward of a 0-d tensor (POINTWISE_SHAPES' first, ()): the test loops over no dimension and
    # calls nothing
    (r"test_glu\.py::test_glu(_backward)?\[dtype\d-shape0\]", "test: a 0-d input, no dimension to split (calls "
     "nothing)", NO_LAUNCH),
    # FlagGems registers "addcmul" but not "addcmul.out": torch.addcmul(..., out=) runs PyTorch's kernel on a GPU too
    (r"test_addcmul\.py::test_addcmul_out", "FlagGems: registers addcmul, not addcmul.out (PyTorch's kernel on any "
     "device)", NO_LAUNCH),
    # arange in bfloat16 to 1024: the reference runs PyTorch's CPU arange under the shim, which gives 512 for 515
    # (bf16 arithmetic), where CUDA's (aten/src/ATen/native/cuda/RangeFactories.cu: start + step * i in float,
    # rounded once) and FlagGems' kernel on tc5 (cvt.rn.bf16.u32 of the integer) give 516, the nearest
    (r"test_arange_start\.py::test_arange\[[^\]]*-dtype2-", "reference: PyTorch's CPU bfloat16 arange is not "
     "rounded once from the exact value (CUDA's and FlagGems' kernel on tc5 are)", r"not equal"),
    # FlagGems' nvidia ARCH_MAP knows capabilities 9 and 8 only: on a B200 (10) BackendArchEvent.has_arch is False
    # ("Unsupported GPU arch"), and config.py's default enable list then reads arch_name before assigning it
    (r"test_enable_api\.py::", "FlagGems: no arch for capability 10 (ARCH_MAP: 8, 9), and its config code reads "
     "arch_name unassigned then (an UnboundLocalError on a B200 too)", r"arch_name"),
    # the test's reference calls PyTorch's CUDA-only flash attention (aten::_flash_attention_forward); tc5.device gives
    # it PyTorch's CPU flash attention under FlashAttention-2's mask (the tests compare with a tolerance), and refuses
    # by name what it does not define (dropout's Philox stream, variable-length batches, seqused_k, ALiBi, a paged
    # cache, the debug mask: tc5.device_attention.SdpaRefused); matched on the error, not on the name
    (r"test_flash_attention\.py::|test_scaled_dot_product_attention\.py::", "tc5 (device identity): the test's "
     "reference calls PyTorch's CUDA-only _flash_attention_forward in a form tc5 does not define (FlashAttention-2's "
     "dropout, variable-length batches, ALiBi...; refused by name)", r"SdpaRefused"),
    # (a one-element flip returns A.clone(): FlagGems' copy_, one launch, on a GPU and on tc5 since c52, session 8;
    # the rule that called it "no kernel on any device" is gone)
    # empty inputs and outputs FlagGems returns before any launch (flag_gems/ops of the 5.0.2 wheel): _is_all_true
    # of an empty tensor (torch.tensor(True)), index of an empty input, logspace with 0 steps, pointwise_dynamic's
    # generated wrappers when num_tasks == 0 (cosh and log10 of a (0,) tensor, the zero-sized-task tests; probed:
    # cosh of a (0,) tensor 0 launches, of shape () 1)
    # argmax of an empty input along a dimension (ops/argmax.py: numel() == 0 returns torch.zeros of the empty
    # output shape; the test's EMPTY_SHAPES, shapes 3-6; session 9's whole run), trace of an empty diagonal
    # (ops/trace.py: num_diag == 0 returns torch.tensor(0); TRACE_SHAPES' (0, 10), (10, 0))
    (r"test_argmax\.py::test_argmax\[\w+-(True|False)-\d-shape[3-6]\]|test_trace\.py::test_trace\[\w+-shape[89]\]",
     "FlagGems: an empty input or output, returned before any launch (no kernel on any device)", NO_LAUNCH),
    (r"test_is_all_true\.py::test_accuracy_is_all_true_empty\[|test_index\.py::test_index_empty_tensor\[|"
     r"test_logspace\.py::test_logspace\[[^-]+-[^-]+-[^-]+-0-|test_\w+\.py::test_\w+_empty\[|"
     r"test_pointwise_dynamic\.py::test_dynamic_function_zero_sized_task_", "FlagGems: an empty input or output, "
     "returned before any launch (no kernel on any device)", NO_LAUNCH),
    # FlagGems registers kernels under overloads that the test's call does not take: "greater.out" (aten::greater
    # has Tensor_out and Scalar_out: a dangling impl), aten::copysign (Scalar, Scalar -> float; the test's tensors
    # take copysign.Tensor), round (not round.decimals): PyTorch's kernel on a GPU too
    (r"test_greater\.py::test_greater_out\[|test_copysign\.py::test_copysign\[|test_round\.py::test_round_decimals\[",
     "FlagGems: no kernel registered for the overload the test calls (PyTorch's kernel on any device)", NO_LAUNCH),
    # Python only: libentry's and libtuner's kernel hashes, StridedBuffer's sizes, a generated wrapper's arguments
    (r"test_libentry\.py::test_hash_|test_libentry\.py::test_libcache_vllm_signal_scenario|"
     r"test_tensor_wrapper\.py::test_strided_buffer_slice|"
     r"test_pointwise_dynamic\.py::test_dynamic_function_manual_instantiation_does_not_allocate_output",
     "test: checks Python (hashes, sizes, a wrapper's arguments; no kernel)", NO_LAUNCH),
    # alibi and a soft cap together: the test returns at once ("numerical stability concern")
    (r"test_flash_attn_varlen_func\.py::test_flash_attn_varlen_func\[\w+-\d+-(10|50)\.0-True-", "test: returns at "
     "once for this parametrisation (alibi with a soft cap)", NO_LAUNCH),
    # resolve_conj of a 0-d tensor: FlagGems' kernel has Triton only for 2-d and 3-d inputs and computes the rest
    # as torch.complex(A.real, A.imag.neg()): views, a negation the Negative key resolves, and PyTorch's complex
    # (FlagGems registers no complex): no Triton kernel on any device (a dispatch trace under the shim: real,
    # imag, empty_like, complex)
    (r"test_resolve_conj\.py::test_resolve_conj\[dtype\d-shape0\]", "FlagGems: resolve_conj of a 0-d tensor is "
     "computed with PyTorch's operators, no Triton kernel (on any device)", NO_LAUNCH),
    # masked_fill(_) of a 0-d input with the test's random 0-d mask: FlagGems' 0-d branch calls no kernel of its own;
    # masked_fill with the mask true builds torch.tensor(value) (a host-to-device copy on a GPU: its copy_ falls back
    # to PyTorch for two devices), masked_fill_ with the mask false returns the input (the other branches reach
    # FlagGems' copy_ through the nested dispatch: 1 launch); which branch runs is the random mask's
    (r"test_masked_fill\.py::test_masked_fill_?\[value0-[\d.]+-dtype\d-shape0\]", "test: a 0-d input with a random "
     "mask whose branch launches no kernel (FlagGems' 0-d path: no kernel on any device)", NO_LAUNCH),
    # topk with k = 0 returns two empty tensors before any kernel (flag_gems/ops/topk.py); (a 0-d roll returns
    # inp.clone(): FlagGems' copy_, one launch, on tc5 since c52, session 8: the roll half of this rule is gone)
    (r"test_topk\.py::test_topk\[dtype\d-\w+-0-",
     "FlagGems: k = 0 returns before any launch (no kernel on any device)", NO_LAUNCH),
    # the test draws its parameters at random when its module is imported: the ids differ per collection,
    # and the selected id is not collected again in the chunk's process
    (r"test_diagonal_backward\.py::|test_diag_embed\.py::|test_slice_scatter\.py::test_slice_scatter\[",
     "test: its parameters are drawn at random at import (the case's id is not "
     "collected again)", r"before the case reported"),
    # contiguous: the test returns at once when shape[0] <= 2 (SPECIAL_SHAPES' first, (1,))
    (r"test_contiguous\.py::test_accuracy_contiguous\[dtype\d+-shape0\]", "test: returns at once for this "
     "parametrisation (shape[0] <= 2)", NO_LAUNCH),
    # index_select of REDUCTION_SHAPES' (1, 2) along dim 0: the test's index has floor(1 x 0.8) = 0 entries, an empty
    # output FlagGems returns before any launch (no kernel on any device)
    (r"test_index_select\.py::test_index_select\[dtype\d-0-shape0\]", "FlagGems: an empty input or output, returned "
     "before any launch (no kernel on any device)", NO_LAUNCH),
    # (the scaled_dot_product_attention cases FlagGems' kernel did not reach: tc5's, fixed by d50; no rule)
    # FlagGems' code generator parses Python (ast) in several threads at once: CPython 3.11's ast raises a spurious
    # SystemError there (python/cpython#106905, fixed by #106906 in 3.12/3.13); the environment's Python, not tc5
    (r"test_pointwise_dynamic\.py::test_dynamic_function_with_multithread", "environment: CPython 3.11's ast under "
     "threads (SystemError 'AST constructor recursion depth mismatch', python/cpython#106905)",
     r"AST constructor recursion depth mismatch"),
    # A in Tensor Memory at lane 0 and D at lane 16 for M = 64 (Layout F, half the datapath): the PTX ISA
    # (9.7.16.10.5) requires the same lane alignment for A and D there; tc5 refuses; no B200 to try it on
    (r"test_sparse_mla_ops\.py::", "Triton's kernel (3.5 and 3.6 here): tcgen05.mma with A in Tensor Memory at another lane "
     "alignment than D (M = 64), which the PTX ISA forbids (9.7.16.10.5); not tried on a B200", r"same lane alignment"),
    # the whole-suite run (w51, tests/data/flaggems/whole_results.tsv): FlagGems' kernels that access memory past
    # their buffers, as written in the 5.0.2 wheel; tc5's bounds check names the access when the address falls
    # outside every live buffer (so which parametrisations fail depends on where the host's allocator put the
    # tensors); on a GPU the access lands in the caching allocator's rounding (512 bytes) or a neighbour, unnoticed.
    # vdot (ops/vdot.py:97): vdot_kernel_complex stores 2 floats a program (out_ptr + 2 * pid, + 1) into
    # partial_real_sums, which has grid_size elements, not 2 * grid_size
    (r"test_vdot\.py::test_vdot\[", "FlagGems: vdot_kernel_complex stores two floats a program into a buffer of one "
     "a program (ops/vdot.py:97: a store past the buffer's end on any device)", r"BoundsError"),
    # kron (ops/kron.py:209): calculate_batch_indices_kernel stores 2 indices for every one of its
    # cdiv(batch, 256) x 256 offsets, with no mask, into batch_indices of 2 * batch elements
    (r"test_kron\.py::test_kron\[", "FlagGems: calculate_batch_indices_kernel stores with no mask past its buffer "
     "whenever the batch is not a multiple of 256 (ops/kron.py:209: on any device)",
     r"BoundsError"),
    # argmin (ops/argmin.py:88): argmin_kernel_opt_k1 loads BLOCK_M x BLOCK_N tiles with mask=True (none), past
    # the input's end when N is not a multiple of BLOCK_N
    (r"test_argmin\.py::test_accuracy_argmin\[", "FlagGems: argmin_kernel_opt_k1 loads its tiles with mask=True, "
     "past the input's end (ops/argmin.py:88: on any device)", r"BoundsError"),
    # (integer floor_divide and remainder by 0 in the test's reference, PyTorch's CPU kernel raising
    # ZeroDivisionError where CUDA's returns a value: fixed by tc5.device_intdiv, d53, session 9; the rule that
    # named them open is gone)
    # addcdiv in float16 and bfloat16 at the larger shapes: the shim's torch.randn(device="cuda") is PyTorch's CPU
    # normal, whose float16 and bfloat16 draws hold exact zeros (about 0.07 % and 0.6 %; CUDA's, drawn in float and
    # rounded, none): where t1 and t2 are both 0, FlagGems' kernel on tc5 and the float64 reference both give NaN
    # (0/0), which the test's assert_close(equal_nan=False) rejects; no other element is outside the tolerance
    # (tests/python/peer/probe_flaggems_addcdiv.py, tests/data/flaggems/probe_addcdiv_whole.txt)
    # diag of a matrix whose requested diagonal lies outside it (UT_SHAPES_2D's one-row matrices, shapes 9-12, for
    # diagonal -1 and -2; its one-column ones, 9, 13 and 17, for 1 and 2): FlagGems' diag_2d_to_1d returns
    # torch.empty(0) before any launch (ops/diag.py: diag_len <= 0)
    (r"test_diag\.py::test_diag\[\w+-(-[12]-shape(9|1[0-2])|[12]-shape(9|13|17))\]", "FlagGems: the diagonal lies "
     "outside the matrix, an empty output returned before any launch (no kernel on any device)", NO_LAUNCH),
    # sum over a dimension of an input with a 0 in its shape (INCLUDE_0_SHAPES, shapes 3-5): FlagGems' sum_dim
    # returns its zeros or empty result before any launch (ops/sum.py: inp.numel() == 0)
    (r"test_sum\.py::test_sum_dim\[\w+-[01]-(True|False)-shape[345]\]", "FlagGems: an empty input (a 0 in its "
     "shape), its result returned before any launch (no kernel on any device)", NO_LAUNCH),
    # x.to(dtype): float32 to float32 (dtype1) is x itself, no copy; to a complex dtype (test_to_dtype's dtype7-8,
    # test_to_copy_dtype_cast's target_dtype4-5: complex32, complex64) FlagGems' to_copy redispatches to PyTorch's
    # kernel (ops/to.py: "Triton does not support complex dtypes; fall back to PyTorch")
    (r"test_to_copy\.py::test_to_dtype\[dtype[178]-|test_to_copy\.py::test_to_copy_dtype_cast\[target_dtype[45]-",
     "FlagGems: a complex target falls back to PyTorch's kernel, and x.to(its own dtype) is x (no kernel on any "
     "device)", NO_LAUNCH),
    # conj_physical of a real tensor: FlagGems returns its input (ops/conj_physical.py: not input.is_complex())
    (r"test_conj_physical\.py::test_conj_physical\[\w+-False-", "FlagGems: conj_physical of a real tensor returns "
     "its input before any launch (no kernel on any device)", NO_LAUNCH),
    # softmax of (1, 0, 128, 512) (SHAPES' fourth): FlagGems returns before any launch (ops/softmax.py: numel() == 0)
    (r"test_softmax\.py::test_softmax\[(True|False)-[01]-\w+-shape3\]", "FlagGems: an empty input (a 0 in its "
     "shape), its result returned before any launch (no kernel on any device)", NO_LAUNCH),
    # (test_addcdiv's float16/bfloat16 failures, 0/0 where the shim's CPU normal drew exact zeros: fixed in d52,
    # session 8, tc5.device_random rounds the draws once from float32 as CUDA's normal_kernel; the rule is gone)
    # r52x (session 8): the whole run's last "not run / other" (80), each read in FlagGems 5.0.2's wheel and its tests
    # at PIN, one case of each reproduced locally (/work/venv-w50: torch 2.11, Triton 3.6; docs/fidelity.md).
    # FlagGems returns x.clone() for a one-element roll (ops/roll.py:49-51: shift % 1 == 0; the flatten case of a
    # 0-d or (1,) tensor, and every dim of a (1,) tensor) and a flip whose flipped dims all have size 1
    # (ops/flip.py:39-40: (1024, 1024) unsqueezed to (1024, 1024, 1), dims (2,)). On a GPU, PyTorch's clone
    # (CompositeExplicitAutograd, at::native::clone in aten/src/ATen/native/TensorFactories.cpp: empty_strided, then
    # self.copy_(src) through the dispatcher) reaches the copy_ FlagGems registers for CUDA (ops/copy.py:53: same
    # device, one element: _copy_kernel, a Triton launch); shown on the CPU's dispatcher, a Python copy_ registered
    # for CPU is called once by clone. The shim's dispatch mode runs an operator with no library kernel (clone) as
    # PyTorch's CPU kernel with the mode popped, so the copy_ inside it never reaches FlagGems: 0 launches. The
    # existing rules for the 0-d roll_flatten with a positive shift and the one-element flip (above) are the same case
    # Fixed in c52 (session 8): tc5.device runs such a composite (CompositeExplicitAutograd, no CUDA kernel of its
    # own) below the Python key with its mode on, so the copy_ inside reaches FlagGems (the cases pass with a launch);
    # the rule that named it tc5's and open is gone: a case of it not run again is "other", a regression.
    # masked_fill (out of place) of a 0-d input, value a 0-d tensor or 1024 (ops/masked_fill.py:33-38): a true mask
    # returns torch.tensor(value, device=...) (a host-to-device copy on a GPU, which FlagGems' copy_ hands to PyTorch
    # for two devices, ops/copy.py:25-26, 87-90: no FlagGems kernel on any device); a false mask returns inp.clone(),
    # FlagGems' copy_ on a GPU as above (reached on tc5 since c52: a launch). A case not run took the true mask
    # (the test's random mask, torch.randn(()) < threshold)
    (r"test_masked_fill\.py::test_masked_fill\[(value1|1024)-[\d.]+-dtype\d-shape0\]", "FlagGems' 0-d masked_fill: "
     "the test's random mask was true: torch.tensor(value) (no kernel on any device; a false mask returns inp.clone(), "
     "FlagGems' copy_, a launch)", NO_LAUNCH),
    # masked_fill_ of a 0-d input with a false mask returns the input (ops/masked_fill.py:59-63); with a true mask,
    # inp[()] = value reaches FlagGems' copy_ (1 launch under the shim too: those cases passed with it)
    (r"test_masked_fill\.py::test_masked_fill_\[(value1|1024)-[\d.]+-dtype\d-shape0\]", "test: a 0-d input with a "
     "random mask whose branch launches no kernel (FlagGems' 0-d path: no kernel on any device)", NO_LAUNCH),
    # glu and glu_backward of a (1,) tensor (POINTWISE_SHAPES' second): the test skips every odd dimension
    # (test_glu.py:19-21, 41-43) and calls nothing
    (r"test_glu\.py::test_glu(_backward)?\[dtype\d-shape1\]", "test: a (1,) input, its one dimension odd: the test "
     "splits nothing (calls nothing)", NO_LAUNCH),
    # kron with an empty factor (KRON_SHAPES 2-4: (0, 3) x (2, 3), (2, 3) x (0,), (0,) x (0,)): FlagGems returns
    # torch.empty(out_shape) before any launch (ops/kron.py:218-221)
    (r"test_kron\.py::test_kron\[dtype\d-shape[234]\]", "FlagGems: an empty input or output, returned before any "
     "launch (no kernel on any device)", NO_LAUNCH),
    # resolve_conj at SPECIAL_SHAPES 1-4: the test makes y = x.conj() on the CPU and moves it with y.to(device);
    # _to_copy's copy_ writes the conjugated values (the result has no conj bit: shown under the shim, and on the CPU
    # by .to(complex128)), and the host-to-device copy is PyTorch's (FlagGems' to_copy falls back for complex,
    # its copy_ for two devices); FlagGems' resolve_conj then returns its input (ops/resolve_conj.py:248-249)
    (r"test_resolve_conj\.py::test_resolve_conj\[dtype0-shape[1-4]\]", "test: y.to(device) of a conjugate CPU "
     "tensor copies it conjugated (no conj bit left), and FlagGems' resolve_conj returns its input (no kernel on any "
     "device)", NO_LAUNCH),
    # _assert_async of a (2,) tensor: FlagGems raises "is ambiguous" before its launch (ops/assert_async.py:13-16)
    (r"test_assert_async\.py::test_assert_async\[shape1-", "test: checks an argument error raised before any "
     "launch", NO_LAUNCH),
    # randperm of int16 with n = 123456 > 32767: the test returns at once (test_randperm.py:16-17; d51)
    (r"test_randperm\.py::test_randperm\[dtype0-123456\]", "test: returns at once for this parametrisation (int16 "
     "with n > 32767)", NO_LAUNCH),
    # s10's whole run on torch 2.11 (nr, session 10). SDPA through use_gems() (test_scaled_dot_product_attention.py:
    # 309-312, 344-347: torch.nn.functional.scaled_dot_product_attention): FlagGems registers no SDPA operator, only
    # aten::_flash_attention_forward (flag_gems/__init__.py:37), which CUDA's flash path calls. torch 2.11.0+cu130
    # with its wheel's cuDNN 9.19 puts cuDNN's attention first on sm_90/sm_100 (sdp_utils.cpp's
    # check_prefer_cudnn_attention: runtime cuDNN > 9.15.0, minor 0 or 3; read in the binary's machine code), and
    # cuDNN takes head dimensions up to 128 there: PyTorch's closed cuDNN kernel runs on a B200, no FlagGems kernel.
    # Head dimensions 192 and 256 exceed cuDNN's limit and take flash (FlagGems' kernel: launched since nr's fix of
    # tc5.device_attention, which had no rules for torch 2.11 and took the CPU's path for every call)
    (r"test_scaled_dot_product_attention\.py::test_scaled_dot_product_attention_(square_qk_even_mn|nonsquare_qk)"
     r"\[dtype\d-(True|False)-(64|128)-", "PyTorch 2.11 (cu130, cuDNN 9.19) picks cuDNN's attention for head "
     "dimensions <= 128 on a B200 (sdp_utils.cpp: cuDNN first when the runtime cuDNN > 9.15): FlagGems' "
     "_flash_attention_forward (__init__.py:37) is not reached (no FlagGems kernel on a B200 either)", NO_LAUNCH),
    # cat of empty inputs (test_cat.py:65-86): FlagGems drops every input of shape (0,) and returns the one left
    # (shapes 3-5: (0,) with a non-empty tensor) or torch.tensor([]) (shape 2: two (0,)) before any launch
    # (ops/cat.py:91-97); two (0, 3) inputs (shape 1) give cat_copy_func_kernel_4 the grid (cdiv(0, 1024), 2)
    # (ops/cat.py:168), which Triton's launcher does not launch (triton/backends/nvidia/driver.py: _launch runs
    # only when gridX*gridY*gridZ > 0; the door does the same): no kernel on any device
    (r"test_cat\.py::test_accuracy_cat_empty_tensor\[\w+-shape[1-5]-", "FlagGems: cat drops (0,) inputs and returns "
     "what is left before any launch, or launches a zero grid that Triton's launcher skips (ops/cat.py:91-97, 168: "
     "no kernel on any device)", NO_LAUNCH),
    # fused_experts_impl at DeepSeek-V3's shapes (test_fused_experts_impl.py:139-183, FUSED_MOE_CONFIGS 20-22: 64-256
    # tokens, 256 experts, hidden 7168, intermediate 2048): w1 is 256 x 4096 x 7168 (14 GiB in float16), drawn with
    # torch.randn through tc5.device_random's float32 draw (28 GiB at once, in that run; by 16 MiB slices since;
    # CUDA's kernel draws into float16 directly),
    # w2 half of it: about 42 GiB a process. On this 23 GB host the allocation is refused (RuntimeError, can't allocate
    # 30,064,771,072 bytes); on s10's device host (251 GiB, 32 such processes) the chunk's process ended during
    # config21 with no report and nothing in its log after config20's "F" (a kill for memory, no exit status kept).
    # With the memory, the draws alone pass the CPU limit before any kernel (the bf16 twin dtype0-config21 in s10)
    (r"test_fused_experts_impl\.py::test_fused_moe_vs_ref\[dtype\d-config2[0-2]\]", "machine: DeepSeek-V3's MoE "
     "weights drawn through a float32 tensor (28 GiB for w1, ~42 GiB a process) exceed this host, and the device "
     "host's 251 GiB beside 31 other workers (the process killed for memory); with it, past the CPU limit before any "
     "kernel", r"can't allocate memory|before the case reported"),
    # index_put with accumulate in float16 at (2^28,) (test_index_put.py:120-153, 196-248, whose cambricon branch
    # widens float16's tolerance to rtol 3e-2; test_index_put_impl.py:124-153; seeded: the same inputs on every
    # machine): FlagGems adds each value with tl.atomic_add on the float16
    # element (ops/index_put.py:134), one rounding per add; the reference is float64, rounded once. Index 251070434 is
    # drawn twice: 0.2291259765625 + 0.8671875 - 1.3544921875 gives -0.2578125 in float16 in either order (the
    # intermediate, 1.0966796875 or -1.125, rounds at 2^-10), the reference -0.25830078125: 2 ulps, past the test's
    # rtol 1e-3 (tests/python/peer/probe_flaggems_index_put.py, tests/data/flaggems/probe_index_put_acc.txt)
    (r"test_index_put\.py::test_index_put_?_acc_true\[dtype0-input_shape0-|"
     r"test_index_put_impl\.py::test__index_put_impl__acc_true\[dtype0-input_shape0-", "test: float16 atomic adds "
     "round once per add (ops/index_put.py:134), the float64 reference once: an index drawn twice is 2 ulps off in "
     "every add order (on any device)", r"not close"),
    # a case after those in the same chunk: never reached when the chunk's process ended (s10's chunk 125); run, it
    # skips itself (vllm not installed)
    (r"test_fused_experts_impl\.py::test_fused_moe_vs_vllm\[", "harness: the chunk's process ended at an earlier "
     "case (test_fused_moe_vs_ref's DeepSeek-V3 shapes, killed for memory); run, the case skips itself (no vllm)",
     r"before the case reported"),
]


def manifest(files):
    """the SHA-256 of the tests' manifest (files: path -> bytes)"""
    text = "".join(f"{p}\t{hashlib.sha256(d).hexdigest()}\n" for p, d in sorted(files.items()))
    return hashlib.sha256(text.encode()).hexdigest()


def _from_tar(data):
    out = {}
    with tarfile.open(fileobj=io.BytesIO(data)) as t:
        for m in t.getmembers():
            if not m.isfile():
                continue
            name = m.name
            if not name.startswith("tests/"):  # GitHub's archives put a top folder first
                name = name.split("/", 1)[1] if "/" in name else name
            if name.startswith("tests/"):
                out[name] = t.extractfile(m).read()
    return out


def fetch_files(src, git):
    """FlagGems' tests/ at PIN (path -> bytes), from the first source that has it, its manifest checked"""
    tries = []
    for d in (d for d in src if d):
        top = os.path.join(d, "tests")
        files = {}
        for base, _, names in os.walk(top):
            for n in names:
                p = os.path.join(base, n)
                rel = os.path.relpath(p, d).replace(os.sep, "/")
                if "__pycache__" in rel or rel.endswith(".pyc"):
                    continue
                files[rel] = open(p, "rb").read()
        tries.append((d, files))
    for g in (g for g in git if g):
        r = subprocess.run(["git", "--git-dir", g, "archive", "--format=tar", PIN, "tests"], capture_output=True)
        tries.append((g, _from_tar(r.stdout) if r.returncode == 0 else {}))
    for where, files in tries:
        if files and manifest(files) == TREE_SHA256:
            return files
    url = f"https://codeload.github.com/{REPO}/tar.gz/{PIN}"
    try:
        with urllib.request.urlopen(url, timeout=300) as r:
            files = _from_tar(r.read())
    except OSError as e:
        sys.exit(f"flaggems_peer: FlagGems' tests at {PIN} ({TAG}) are in none of --src/--git "
                 f"({', '.join(w for w, _ in tries) or 'none given'}) and {url} failed: {e}")
    got = manifest(files)
    if got != TREE_SHA256:
        sys.exit(f"flaggems_peer: {url}: the tests' manifest SHA-256 is {got}, the pin is {TREE_SHA256}")
    return files


def test_files(files):
    """the files pytest collects, in path order (FlagGems' test_*.py under tests/)"""
    return sorted(p for p in files if p.endswith(".py") and os.path.basename(p).startswith("test_"))


def suite(files=None, tests=None):
    """FlagGems' peer suite for the harness (files: fetch_files's; None: none, for triage alone)"""
    files = dict(files or {})
    tests = tests if tests is not None else test_files(files)
    if files:
        files["pytest.ini"] = PYTEST_INI
        files["conftest.py"] = ROOT_CONFTEST
    return H.Suite(
        name="flaggems",
        title=f"tc5 peer suite: FlagGems 5.0.2's tests on tc5 ({REPO}@{PIN} tests/, the wheel {WHEEL} "
              f"sha256:{WHEEL_SHA256[:16]}..., Triton 3.5)",
        files=files, tests=list(tests),
        env={"TC5_TRITON": "1", "TC5_TRITON_TORCH_CUDA": "1", "GEMS_VENDOR": "nvidia",
             "TRITON_DEFAULT_BACKEND": None, "TRITON_INTERPRET": None},
        causes=CAUSES, known=KNOWN, zero_launches="not run", conftest="conftest.py")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", action="append", default=[], help="a checkout holding tests/ (repeatable)")
    ap.add_argument("--git", action="append", default=[], help="a git directory of flagos-ai/FlagGems (repeatable)")
    ap.add_argument("--files", default="", help="test files (paths under the checkout, comma-separated; default: "
                    "every tests/**/test_*.py)")
    H.arguments(ap)
    args = ap.parse_args()

    def suite_of(a, work):
        if work is None:  # --from-work: the triage alone
            return suite()
        files = fetch_files(a.src, a.git)
        tests = test_files(files)
        if a.files:
            want = [f for f in a.files.split(",") if f]
            bad = [f for f in want if f not in tests]
            if bad:
                sys.exit(f"flaggems_peer: --files: {bad[0]} is not one of FlagGems' test files")
            tests = want
        return suite(files, tests)

    return H.main_with(suite_of, args)


if __name__ == "__main__":
    sys.exit(main())
