"""A tc5.sweep kernel for tests/python/test_sweep.py: docs/examples/st_unwaited.ptx
(one warp stores 7 to Tensor Memory and loads it back; `wait` says whether
it waits for the store), a given PTX run by tc5.run_ptx. Parameters: wait
(0: the checker flags the read), variant ("good"; "broken": PTX tc5 cannot
parse, the point fails to compile). Shape: ctas (the grid); nap: seconds
inputs() sleeps (a slow point, for the test that kills a Ray worker)."""
import os
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
PTX = open(os.path.join(HERE, "..", "..", "..", "docs", "examples", "st_unwaited.ptx")).read()


def inputs(shape, seed):
    time.sleep(shape.get("nap", 0))
    return {"out": np.zeros(32, np.uint32)}


def ptx(shape, wait, variant="good"):
    text = PTX if variant == "good" else PTX.replace("tcgen05.wait::st", "tcgen05.wait::nonsense")
    return dict(ptx=text, grid=shape["ctas"], block=32, args=["out", wait], name="st_unwaited.ptx")


def reference(arrays, shape):
    return {"out": np.full(32, 7, np.uint32)}


def flops(shape):
    return 0.0
