"""scaled_dot_product_attention as on a B200, and the CUDA-only PyTorch kernels behind it (issue 50; tc5.device).

`torch.nn.functional.scaled_dot_product_attention` is CompositeImplicitAutograd: its C++ body asks
`_fused_sdp_choice_stub` *for the tensors' real device* which backend runs (attention.cpp), and the shim's
tensors are CPU tensors, so the CPU's choice (its flash kernel, `_scaled_dot_product_flash_attention_for_cpu`)
ran, and a library's CUDA registration below CUDA's choice (FlagGems' `_flash_attention_forward`) was never
reached. Here the shim's TorchFunctionMode hands the call to `sdpa()`, which makes CUDA's choice
(aten/src/ATen/native/transformers/cuda/sdp_utils.cpp) for a B200 (sm_100, one device, available) and this
PyTorch (its priority order, its cuDNN), and follows CUDA's composite for that choice:

- flash: CUDA's body (the last dimension padded to a multiple of 8, the scale of the unpadded one,
  `aten::_scaled_dot_product_flash_attention`, the output sliced back); that operator's CUDA kernel (the
  transposes, `aten::_flash_attention_forward` through the dispatcher) is given to the CPU below, so a
  library's `_flash_attention_forward` kernel is reached as on a GPU;
- math: `aten::_scaled_dot_product_attention_math` (CUDA's composite calls it; it has CPU kernels);
- cuDNN or memory-efficient attention (closed cuDNN kernels, CUTLASS's kernels whose bits tc5 does not
  define; no library registers them), a rule not read from this PyTorch's source (a PyTorch other than
  2.9.x / 2.11.x / 2.15.x, nested tensors, an attention mask on a path whose rule depends on its shape, a head
  dimension whose cuDNN limit depends on the cuDNN frontend it was built with: 2.15), inputs that require a
  gradient (CUDA's flash backward, `_flash_attention_backward`, is not served), or flash with dropout and no
  library's `_flash_attention_forward` (FlashAttention-2's Philox stream): the CPU's path, as before.
  `choice()` says which, and why.

The CUDA-only kernels given to the CPU (install()): `_scaled_dot_product_flash_attention` (CUDA's body,
exactly), `_flash_attention_forward` (PyTorch's CPU flash attention on FlashAttention-2's mask: **not
CUDA's bits**: FlashAttention-2's tiling and exp2 arithmetic are its own; dropout (FlashAttention-2's
Philox stream), variable-length batches, seqused_k, ALiBi, a paged KV cache and the debug mask are
refused by name), and `trace` (CUDA's definition, `self.diagonal().sum()`, TriangularOps.cu: the CPU's
own lacks float16, bfloat16 and bool, and accumulates float32 in double).
"""
from __future__ import annotations

import math
import os

__all__ = ["choice", "sdpa", "install", "SdpaRefused", "FLASH", "EFFICIENT", "MATH", "CUDNN", "CPU_PATH"]

MATH, FLASH, EFFICIENT, CUDNN, OVERRIDEABLE = 0, 1, 2, 3, 4  # at::SDPBackend (torch._C._SDPBackend's values)
CPU_PATH = "cpu path"
B200 = (10, 0)  # the device's compute capability (torch_cuda's answers)


class SdpaRefused(RuntimeError):
    """a CUDA-only attention kernel asked for something tc5 does not define (its name says what)"""


def _rules():
    """which of sdp_utils.cpp's versions this PyTorch has, or None (a version whose source was not read):
    "2.9": torch 2.9.0's (cuDNN first only when built with cuDNN >= 9.9 and TORCH_CUDNN_SDPA_PREFERRED is not
    false, on sm_90/sm_100; torch 2.9.0+cu128 is built with 9.8.0: never), "2.15": the newer one (cuDNN first when
    the runtime cuDNN is newer than 9.15.0 on major 9 or 10, unless TORCH_CUDNN_SDPA_DEPRIORITIZED; its memory-
    efficient check adds the storage offsets' alignment; pytorch/pytorch's sdp_utils.cpp at 001f694, the newest the
    search index holds), "2.11": between them (2.15's cuDNN preference, but with the minor-0-or-3 test on every
    CUDA version; no storage-offset check; cuDNN's head-dimension limit 128, 256 on sm_90 with cuDNN >= 9.10, 192
    for (192, 128) on sm_100 with cuDNN >= 9.11). Each matched against its binary's messages, and 2.11's constants
    read in 2.11.0+cu130's machine code (docs/fidelity.md)"""
    import torch
    v = torch.__version__.split("+")[0]
    if v.startswith("2.9."):
        return "2.9"
    if v.startswith("2.11."):
        return "2.11"
    if v.startswith("2.15."):
        return "2.15"
    return None


def _env_bool(name):
    """c10::utils::check_env: "1"/"ON"/"YES"/"TRUE"/"Y" true, "0"/"OFF"/"NO"/"FALSE"/"N" false, else unset"""
    v = os.environ.get(name)
    if v is None:
        return None
    if v.upper() in ("1", "ON", "YES", "TRUE", "Y"):
        return True
    if v.upper() in ("0", "OFF", "NO", "FALSE", "N"):
        return False
    return None


_order_init = False


def _priority_order(rules):
    """sdp_utils.cpp's priority_order(): the first call sets cuDNN first where check_prefer_cudnn_attention()
    holds (once, process-wide, as CUDA's does), then the global order (a user's sdpa_kernel(set_priority=True))"""
    global _order_init
    import torch
    if not _order_init:
        _order_init = True
        prefer = False
        if rules == "2.9":
            major, minor, patch = torch._C._cudnn.getCompileVersion()
            prefer = _env_bool("TORCH_CUDNN_SDPA_PREFERRED") is not False and \
                major * 10000 + minor * 100 + patch >= 90900 and B200[0] in (9, 10) and not B200[1]
        elif rules in ("2.11", "2.15"):
            ok = _env_bool("TORCH_CUDNN_SDPA_DEPRIORITIZED") is not True
            # 2.15 skips the minor's test when built with CUDA 13; 2.11 tests it on every CUDA version
            cuda13 = rules == "2.15" and int(torch.version.cuda.split(".")[0]) >= 13
            prefer = ok and _cudnn_version() > 91500 and B200[0] in (9, 10) and (cuda13 or B200[1] in (0, 3))
        if prefer:
            torch._C._set_sdp_priority_order([CUDNN, FLASH, EFFICIENT, MATH])
    return list(torch._C._get_sdp_priority_order())


def _cudnn_version():
    import torch
    return torch.backends.cudnn.version() or 0


def _dense4(q, k, v):
    return q.dim() == 4 and k.dim() == 4 and v.dim() == 4


def _heads_ok(q, k, v, enable_gqa):
    """check_batch_size_and_num_heads_dense for equal batches and heads (True), unequal batches (False); unequal
    heads (grouped-query attention, whose rules differ by backend and version): None, not followed"""
    if not (q.size(0) == k.size(0) == v.size(0)):
        return False
    return True if q.size(1) == k.size(1) == v.size(1) else None


def _stride1(ts, ignore_singleton):
    return all(t.stride(-1) == 1 or (ignore_singleton and t.size(-1) == 1) for t in ts)


def _flash_ok(q, k, v, mask, dropout, is_causal, enable_gqa, rules):
    """can_use_flash_attention for dense inputs on sm_100 (no gradient asked: the sm86/89/120 training rule is moot)"""
    import torch
    if not torch._C._get_flash_sdp_enabled() or not _dense4(q, k, v) or mask is not None:
        return False
    if not (q.size(-1) == k.size(-1) == v.size(-1) and q.size(-1) <= 256):
        return False
    if is_causal and q.size(-2) != k.size(-2):
        return False
    if rules in ("2.11", "2.15") and any(getattr(torch._C, f"_get_fa{n}_sdp_enabled", lambda: False)()
                                         for n in (3, 4)):
        return None  # FlashAttention-3/4 activated (torch.nn.attention): their selection was not read
    low = (torch.float16, torch.bfloat16)
    if not (q.dtype == k.dtype == v.dtype and q.dtype in low):
        return False
    heads = _heads_ok(q, k, v, enable_gqa)
    if heads is not True:
        return heads
    return q.size(-2) > 0 and k.size(-2) > 0 and _stride1((q, k, v), True)


def _efficient_ok(q, k, v, mask, dropout, is_causal, enable_gqa, rules):
    """can_use_mem_efficient_attention for dense inputs on sm_100"""
    import torch
    if not torch._C._get_mem_efficient_sdp_enabled() or not _dense4(q, k, v):
        return False
    half = q.dtype in (torch.float16, torch.bfloat16)
    align = 8 if half else 4  # minimum_gemm_alignment on sm_80+: max(4, 128 / bits)
    dq, dv = q.size(-1), v.size(-1)
    if not (dq == k.size(-1) and dq % align == 0 and dq > 0 and dv % align == 0 and dv > 0):
        return False
    if rules == "2.15":  # storage offsets * element size aligned (the allocator's base is)
        if any(t.numel() and (t.storage_offset() * t.element_size()) % (align * t.element_size()) for t in (q, k, v)):
            return False
    heads = _heads_ok(q, k, v, enable_gqa)
    if heads is not True:
        return heads
    if not (q.size(-2) > 0 and k.size(-2) > 0 and _stride1((q, k, v), False)):
        return False
    return q.dtype == k.dtype == v.dtype and q.dtype in (torch.float16, torch.float32, torch.bfloat16)


def _cudnn_ok(q, k, v, mask, dropout, is_causal, enable_gqa, rules):
    """can_use_cudnn_attention for dense inputs on sm_100 (torch 2.11's and 2.15's), or None where the rule depends
    on something tc5 does not define (2.15: the cuDNN frontend's version for head dimensions over 128; a mask's
    shape)"""
    import torch
    if rules not in ("2.11", "2.15"):
        return None
    ver = _cudnn_version()
    if dropout > 0.0 and 91100 < ver < 91400:
        return False
    if not torch._C._get_cudnn_sdp_enabled() or not _dense4(q, k, v):
        return False
    if torch.are_deterministic_algorithms_enabled() and not torch.is_deterministic_algorithms_warn_only_enabled():
        return False
    if not (q.dtype == k.dtype == v.dtype and q.dtype in (torch.float16, torch.bfloat16)):
        return False
    if mask is not None:
        return None
    if rules == "2.15" and dropout * 16.0 != math.floor(dropout * 16.0):  # check_cudnn_dropout (not in 2.11)
        return False
    heads = _heads_ok(q, k, v, enable_gqa)
    if heads is not True:
        return heads
    if not (q.size(-2) > 0 and k.size(-2) > 0 and _stride1((q, k, v), True)):
        return False
    if (rules == "2.15" and (q.size(0) > 65535 or q.size(1) > 65535)) or ver < 8903:  # 2.11 has no size limit
        return False
    dqk, dv = q.size(3), v.size(3)
    if rules == "2.11":  # check_cudnn_tensor_shapes' head_dim_limit (read in 2.11.0+cu130's machine code)
        limit = 128
        if ver >= 91000 and B200 == (9, 0):
            limit = 256
        if ver >= 91100 and B200[0] == 10 and dqk == 192 and dv == 128:
            limit = 192
        if dqk > limit or dv > limit:
            return False
    elif dqk > 128 or dv > 128:
        return None  # 192 or 256 allowed by cuDNN > 9.22 only with a cuDNN frontend >= 1.24 (a build-time fact)
    if dqk % 8 or dv % 8 or k.size(2) == 1 or (dropout != 0.0 and q.size(2) == 1):
        return False
    return True


def choice(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False, enable_gqa=False):
    """(backend, why): CUDA's SDPA backend for these inputs on a B200 with this PyTorch (FLASH, MATH, EFFICIENT,
    CUDNN), or (CPU_PATH, why) where tc5 does not make CUDA's choice"""
    import torch
    rules = _rules()
    if rules is None:
        return CPU_PATH, (f"sdp_utils.cpp's rules of torch {torch.__version__} not read (2.9.x, 2.11.x and 2.15.x "
                          "are)")
    ts = (q, k, v)
    if not all(isinstance(t, torch.Tensor) for t in ts) or any(t.is_nested for t in ts):
        return CPU_PATH, "nested or non-tensor inputs"
    if torch.is_grad_enabled() and any(t.requires_grad for t in ts):
        return CPU_PATH, "inputs require a gradient (CUDA's fused backward kernels are not served)"
    checks = {FLASH: _flash_ok, EFFICIENT: _efficient_ok, CUDNN: _cudnn_ok}
    for b in _priority_order(rules):
        if b == MATH:
            if torch._C._get_math_sdp_enabled():
                return MATH, "math"
            continue
        if b == OVERRIDEABLE:
            continue
        ok = checks[b](q, k, v, attn_mask, dropout_p, is_causal, enable_gqa, rules)
        if ok is None:
            return CPU_PATH, f"backend {b}'s rule depends on what tc5 does not define"
        if ok:
            return b, {FLASH: "flash", EFFICIENT: "efficient", CUDNN: "cudnn"}[b]
    return CPU_PATH, "no backend (CUDA raises 'No available kernel'; the CPU's path answers)"


def sdpa(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None, enable_gqa=False):
    """torch.nn.functional.scaled_dot_product_attention as CUDA's composite runs it for CUDA's choice, or
    NotImplemented (the caller runs PyTorch's own: the CPU's choice)"""
    import torch
    b, _ = choice(q, k, v, attn_mask, dropout_p, is_causal, enable_gqa)
    if b == MATH:
        if attn_mask is not None and attn_mask.dtype == torch.bool:
            attn_mask = torch.zeros_like(attn_mask, dtype=q.dtype).masked_fill_(~attn_mask, float("-inf"))
        return torch.ops.aten._scaled_dot_product_attention_math(q, k, v, attn_mask, dropout_p, is_causal, None,
                                                                 scale=scale, enable_gqa=enable_gqa)[0]
    if b != FLASH:
        return NotImplemented
    from . import device
    if dropout_p > 0.0 and not device.library_kernel("_flash_attention_forward"):
        return NotImplemented  # FlashAttention-2's Philox dropout is not tc5's to define: the CPU's path, as before
    og = q.size(-1)
    og_scale = scale if scale is not None else 1.0 / math.sqrt(og)  # sdp::calculate_scale of the unpadded size
    pad = (-og) % 8  # pad_last_dim<8, false>

    def padded(t):
        return torch.nn.functional.pad(t, (0, pad)) if pad else t
    out = torch.ops.aten._scaled_dot_product_flash_attention(padded(q), padded(k), padded(v), dropout_p, is_causal,
                                                            False, scale=og_scale)[0]
    return out[..., :og] if pad else out  # post_process_flash_output


def _sdpa_flash_cuda(query, key, value, dropout_p=0.0, is_causal=False, return_debug_mask=False, *, scale=None):
    """_scaled_dot_product_flash_attention_cuda (attention.cu): (B, H, S, D) transposed to (B, S, H, D),
    aten::_flash_attention_forward through the dispatcher, the output transposed back"""
    import torch

    from . import device
    max_q, max_k = query.size(2), key.size(2)
    with device.as_cuda_kernel():  # its ATen calls go through the dispatcher as a CUDA kernel's do
        out, lse, rng, unused, dbg = torch.ops.aten._flash_attention_forward(
            query.transpose(1, 2), key.transpose(1, 2), value.transpose(1, 2), None, None, max_q, max_k, dropout_p,
            is_causal, return_debug_mask, scale=scale)
    empty = torch.empty(0, dtype=query.dtype)
    return out.transpose(1, 2), lse, empty, empty, max_q, max_k, rng, unused, dbg


def _refuse(what):
    raise SdpaRefused(f"tc5.device: aten::_flash_attention_forward with {what} is CUDA's FlashAttention-2 kernel, "
                      "which tc5 does not define on the CPU (docs/fidelity.md, 'CUDA-only PyTorch kernels')")


def _flash_fwd_cpu(query, key, value, cum_seq_q, cum_seq_k, max_q, max_k, dropout_p, is_causal, return_debug_mask, *,
                   scale=None, window_size_left=None, window_size_right=None, seqused_k=None, alibi_slopes=None,
                   block_table=None, num_splits=None):
    """aten::_flash_attention_forward on the CPU: PyTorch's CPU flash attention under FlashAttention-2's mask
    (key j seen by query i when i + sk - sq - left <= j <= i + sk - sq + right, right = 0 when causal: the mask
    aligned bottom-right; the window normalised as mha_fwd and set_params_fprop do); a row that sees no key gives
    0 and a log-sum-exp of +inf (FlashAttention-2's softmax). Not CUDA's bits; the forms tc5 does not define are
    refused by name"""
    import torch
    if dropout_p > 0.0:
        _refuse(f"dropout_p={dropout_p} (its Philox dropout stream)")
    if cum_seq_q is not None or cum_seq_k is not None:
        _refuse("cum_seq_q/cum_seq_k (variable-length batches)")
    for name, val in (("seqused_k", seqused_k), ("alibi_slopes", alibi_slopes), ("block_table", block_table)):
        if val is not None:
            _refuse(name)
    if return_debug_mask:
        _refuse("return_debug_mask=True")
    if not (query.dim() == key.dim() == value.dim() == 4):
        raise RuntimeError(f"_flash_attention_forward: query, key and value must be 4-d (batch, seqlen, heads, "
                           f"head_dim); got {query.dim()}, {key.dim()}, {value.dim()}")
    sq, sk = query.size(1), key.size(1)
    d = query.size(-1)
    sc = scale if scale is not None else 1.0 / math.sqrt(d)
    left = -1 if window_size_left is None else int(window_size_left)
    right = -1 if window_size_right is None else int(window_size_right)
    # flash_api.cpp's mha_fwd: a window side as wide as the keys is no limit; one query is never causal; causal is
    # right = 0; then set_params_fprop: one side limited, the other -1, makes the other sk (which still limits
    # where sq > sk: FlashAttention-2's local mask)
    if left >= sk:
        left = -1
    if right >= sk:
        right = -1
    if sq == 1:
        is_causal = False
    if is_causal:
        right = 0
    if left < 0 and right >= 0:
        left = sk
    if left >= 0 and right < 0:
        right = sk
    q, k, v = (t.transpose(1, 2) for t in (query, key, value))  # (B, H, S, D)
    if k.size(1) != q.size(1):  # MQA/GQA: FlashAttention-2 reads head h // (Hq / Hk)
        if q.size(1) % k.size(1):
            raise RuntimeError("_flash_attention_forward: the number of heads in key/value must divide the number "
                               f"of heads in query ({q.size(1)}, {k.size(1)})")
        r = q.size(1) // k.size(1)
        k, v = k.repeat_interleave(r, 1), v.repeat_interleave(r, 1)
    mask = None
    if left >= 0 or right >= 0:
        i = torch.arange(sq).unsqueeze(1) + (sk - sq)
        j = torch.arange(sk).unsqueeze(0)
        seen = torch.ones(sq, sk, dtype=torch.bool)
        if left >= 0:
            seen &= j >= i - left
        if right >= 0:
            seen &= j <= i + right
        mask = torch.zeros(sq, sk, dtype=q.dtype).masked_fill_(~seen, float("-inf"))
    out, lse = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu(q, k, v, 0.0, False, attn_mask=mask,
                                                                          scale=sc)
    if mask is not None:
        none = ~seen.any(1)
        if bool(none.any()):
            out = out.masked_fill(none.view(1, 1, sq, 1), 0)
            lse = lse.masked_fill(none.view(1, 1, sq), float("inf"))
    empty = torch.empty(0, dtype=query.dtype)  # rng_state, unused, debug_attn_mask: no dropout, no debug mask
    return out.transpose(1, 2).contiguous(), lse.float(), torch.empty(0, dtype=torch.int64), empty, empty


def _trace_cuda(self):
    """trace_cuda (TriangularOps.cu): a matrix's diagonal summed, by sum's kernel"""
    if self.dim() != 2:
        raise RuntimeError("expected a matrix")
    from . import device, device_reduce
    with device.as_cuda_kernel():
        d = self.diagonal()
        return device_reduce.write_cuda_values(d.sum(), d, (0,), False, library_kernel=device.library_kernel)


_lib = None


def install():
    """CPU kernels for the CUDA-only operators above (once; the shim's start-up, with install_cuda_only_ops)"""
    global _lib
    if _lib is not None:
        return
    import warnings

    import torch
    lib = torch.library.Library("aten", "IMPL")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # trace: "Overriding a previously registered kernel" (the CPU's own)
        for name, fn in (("_scaled_dot_product_flash_attention", _sdpa_flash_cuda),
                         ("_flash_attention_forward", _flash_fwd_cpu), ("trace", _trace_cuda)):
            if name != "trace" and torch._C._dispatch_has_kernel_for_dispatch_key("aten::" + name, "CPU"):
                continue
            lib.impl(name, fn, "CPU")
    _lib = lib


def is_sdpa(func) -> bool:
    import torch
    return func is torch.nn.functional.scaled_dot_product_attention or \
        func is getattr(torch._C._nn, "scaled_dot_product_attention", None)


def from_torch_function(args, kwargs):
    """the shim's TorchFunctionMode's call of scaled_dot_product_attention: CUDA's result, or NotImplemented"""
    names = ("query", "key", "value", "attn_mask", "dropout_p", "is_causal", "scale", "enable_gqa")
    kw = dict(zip(names, args))
    kw.update(kwargs or {})
    if set(kw) - set(names) or not all(n in kw for n in names[:3]):
        return NotImplemented
    return sdpa(kw["query"], kw["key"], kw["value"], kw.get("attn_mask"), kw.get("dropout_p", 0.0),
                kw.get("is_causal", False), kw.get("scale"), kw.get("enable_gqa", False))
