#!/usr/bin/env python3
"""Inputs and manifest of tests/data/ptx/rel90 (issue 52): Triton's tutorial 03
matmul as a release compiled it for sm_90a (gen_triton_corpus.py --arch 90
--only t03, run under that release; NAME_<release>.ptx/.json), on random f16
A (128 x 128) and B (128 x 256) (a.bin, b.bin; finite, moderate magnitudes),
C 128 x 256: M, N, K and the strides are the kernel's arguments, so the
sizes are ours (the specialisation the JSON records holds: each a multiple
of 16). gpu/run.sh
rel90 runs the manifest on the H200 (h100_out.bin: every C, in order);
CTest ptx_silicon_rel90 compares tc5 run with it byte for byte.
Standard library only; deterministic (seed 52): rel100/gen_inputs.py's write()."""
import importlib.util
import os

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("rel100_gen_inputs", os.path.join(here, "..", "rel100", "gen_inputs.py"))
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)
gen.write(here)  # the same inputs and manifest as rel100's, for this folder's kernels
