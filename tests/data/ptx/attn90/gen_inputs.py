#!/usr/bin/env python3
"""The sm_90a attention suite (tests/data/ptx/attn90, issue 32): the same PTX
run on the H100 (`gpu/run.sh attention`: h100_out.bin) and in tc5 run
(tests/ptx/silicon.sh), every output byte compared.

What is here and how it was made:
  t06_attn_fwd_fp16_d{64,128}_{full,causal}.ptx/.json
      Triton's tutorial 06 forward (Triton 3.9, GPUTarget("cuda", 90, 32),
      enable_fp_fusion=False: mul.rn/add.rn, which ptxas does not contract;
      ptx_version=87: the H100's driver JITs PTX up to 9.0, Triton 3.9 writes 9.4),
      Z = 1, H = 2, N_CTX = 256, the tutorial's pytest config (BLOCK_M 128,
      BLOCK_N 64, 2 stages, 4 warps), with the launch Triton's launcher makes:
        python3 tests/data/ptx/census/gen_triton_corpus.py --src TRITON --out DIR \\
          --arch 90 --fp-fusion off --ptx-version 87 --only t06 --variants fwd --attn-shape 1,2,256
      (TRITON: a facebookexperimental/triton checkout, python/tutorials)
  attn_mask.ptx, attn_qk.bin, attn_mask.txt
      gpu/attn_mask.cu's twelve masked-attention kernels:
        nvcc -O2 -std=c++17 -arch=sm_90a -ptx -fmad=false -Iinclude -Igpu gpu/attn_mask.cu -o attn_mask.ptx
      and its inputs and manifest lines (`attn_mask --gen DIR > DIR/attn_mask.txt`,
      the host program built with libtc5; no GPU needed)
  shared_wrap.ptx
      a .shared address is 32 bits wide: [%r+imm] wraps modulo 2^32 (by hand)
  q_dD.bin, k_dD.bin, v_dD.bin, kernels.txt
      this script: tests/ptx/triton_attention.py's inputs (the tutorial's
      normal(0, 0.5) fp16, seeded) and the manifest of both
usage: python3 gen_inputs.py   (needs numpy, ml_dtypes)"""
import importlib.util
import os

here = os.path.dirname(os.path.abspath(__file__))


def main():
    path = os.path.join(here, "..", "..", "..", "ptx", "triton_attention.py")
    spec = importlib.util.spec_from_file_location("triton_attention", path)
    ta = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ta)
    lines = ["# FILE NAME GRID BLOCK SHARED ARG... (gen_inputs.py; args as tc5 run's, outputs by size)"]
    lines += ta.manifest(here)
    lines += [x.strip() for x in open(os.path.join(here, "attn_mask.txt")) if x.strip()]
    lines.append("shared_wrap.ptx shared_wrap 1 32 0 in:attn_qk.bin out:256")
    open(os.path.join(here, "kernels.txt"), "w").write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
