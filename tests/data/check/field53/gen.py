#!/usr/bin/env python3
"""Field bugs of issue 53 as kernels: Blackwell non-determinism that users
reported against a Triton release and that a later release fixed with a
barrier or a fence, each kernel compiled (sm_100a, no GPU needed) with the
release that had the bug and with the one that fixed it.

Written for tc5 after the reports (not copied from them):
  bmm    a batched matmul, one (batch, tile) a program, pointer loads
         (tl.load -> cp.async, pipelined) into tl.dot (tcgen05.mma), bf16,
         128x128x64, 8 warps, 3 stages: the shape of vLLM's batch-invariant
         bmm (vllm/model_executor/layers/batch_invariant.py, the Triton
         kernels vLLM's batch-invariant mode runs on B200) named by PyTorch
         #181248: vLLM's batch invariance fails on B200 with torch 2.12 /
         Triton 3.7.0 ("passes on torch 2.11"). Triton PR #10537 (3.7.1)
         cherry-picks #9610, "[FenceAsync] Add async read dependencies to the
         pass": a fence.proxy.async between the generic-proxy writes of the
         operands (cp.async, st.shared) and the tcgen05.mma that reads them
         through the async proxy when the earlier pass placed none.
  recur  a chunked recurrence (a state h in registers, o = q @ h, then
         h += k^T @ v, the state stored to shared memory as an MMA operand)
         with its loop bound loaded from memory, 4 warps, BV 32: the shape of
         Triton #9871 (tl.dot non-determinism with num_warps=4, BV=32 and a
         dynamic loop bound on sm_100, 3.4.0 and 3.6.0) and of the
         flash-linear-attention kernels of Triton #10590. Its 3.7.0 form
         lacks the same fence (3.6.0 placed it for this kernel; 3.7.1 again).

usage: PYTHONPATH=<triton release> python3 gen.py [--out DIR]
  writes NAME_VERSION.ptx for the release it runs under. The committed files
  (tests/check/field53.sh runs them):
    for v in 3.6.0 3.7.0 3.7.1 3.9.0; do
      pip install --no-deps --target /tmp/triton-$v triton==$v
      PYTHONPATH=/tmp/triton-$v python3 gen.py
    done
  (the PTX's .file lines name the directory the release was installed in)."""
import argparse
import os

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource


@triton.jit
def bmm(x, y, out, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    b = tl.program_id(0)
    tiles_n = tl.cdiv(N, BN)
    tm = tl.program_id(1) // tiles_n
    tn = tl.program_id(1) % tiles_n
    om = tm * BM + tl.arange(0, BM)
    on = tn * BN + tl.arange(0, BN)
    rm = tl.max_contiguous(tl.multiple_of(tl.where(om < M, om, 0), BM), BM)
    rn = tl.max_contiguous(tl.multiple_of(tl.where(on < N, on, 0), BN), BN)
    ks = tl.arange(0, BK)
    xb = x + b * M * K
    yb = y + b * K * N
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for kk in range(tl.cdiv(K, BK)):
        kofs = kk * BK + ks
        a = tl.load(xb + rm[:, None] * K + kofs[None, :], mask=kofs[None, :] < K, other=0.0)
        c = tl.load(yb + kofs[:, None] * N + rn[None, :], mask=kofs[:, None] < K, other=0.0)
        acc = tl.dot(a, c, acc)
    tl.store(out + b * M * N + om[:, None] * N + on[None, :], acc.to(out.dtype.element_ty),
             mask=(om[:, None] < M) & (on[None, :] < N))


@triton.jit
def recur(q, k, v, o, bounds, K: tl.constexpr, V: tl.constexpr, BT: tl.constexpr, BV: tl.constexpr):
    iv = tl.program_id(0)
    seq = tl.program_id(1)
    start = tl.load(bounds + seq)
    end = tl.load(bounds + seq + 1)
    rk = tl.arange(0, K)
    rv = iv * BV + tl.arange(0, BV)
    rt = tl.arange(0, BT)
    h = tl.zeros((K, BV), dtype=tl.float32)
    for i in range(tl.cdiv(end - start, BT)):
        rows = start + i * BT + rt
        live = rows < end
        bq = tl.load(q + rows[:, None] * K + rk[None, :], mask=live[:, None], other=0.0)
        bo = tl.dot(bq, h.to(q.dtype.element_ty))
        tl.store(o + rows[:, None] * V + rv[None, :], bo.to(o.dtype.element_ty), mask=live[:, None])
        bk = tl.load(k + rows[:, None] * K + rk[None, :], mask=live[:, None], other=0.0)
        bv = tl.load(v + rows[:, None] * V + rv[None, :], mask=live[:, None], other=0.0)
        h += tl.dot(tl.trans(bk), bv)


# name: (kernel, signature, constexprs, warps, stages)
KERNELS = {
    "bmm": (bmm, {"x": "*bf16", "y": "*bf16", "out": "*bf16", "M": "i32", "N": "i32", "K": "i32", "BM": "constexpr",
                  "BN": "constexpr", "BK": "constexpr"},
            {"BM": 128, "BN": 128, "BK": 64}, 8, 3),
    "recur": (recur, {"q": "*bf16", "k": "*bf16", "v": "*bf16", "o": "*bf16", "bounds": "*i32", "K": "constexpr",
                      "V": "constexpr", "BT": "constexpr", "BV": "constexpr"},
              {"K": 64, "V": 64, "BT": 64, "BV": 32}, 4, 2),
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    args = ap.parse_args()
    for name, (fn, sig, cx, warps, stages) in KERNELS.items():
        # as Triton's launcher specializes a launch with 16-byte aligned tensors and sizes that are
        # multiples of 16 (tt.divisibility 16: the loads become 16-byte cp.async)
        attrs = {(i,): [["tt.divisibility", 16]] for i, t in enumerate(sig.values()) if t.startswith("*") or t == "i32"}
        k = triton.compile(ASTSource(fn=fn, signature=sig, constexprs=cx, attrs=attrs),
                           target=GPUTarget("cuda", 100, 32), options={"num_warps": warps, "num_stages": stages})
        path = os.path.join(args.out, f"{name}_{triton.__version__}.ptx")
        with open(path, "w") as f:
            f.write(k.asm["ptx"])
        print(f"{path}: shared {k.metadata.shared} bytes, {warps} warps")


if __name__ == "__main__":
    main()
