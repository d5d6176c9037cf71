"""The Python tests' own Triton cache: Triton keys a compiled kernel by its
text, not by the file it sits in, and the PTX it keeps carries the `.loc`
paths of the first compilation. With a cache shared between two checkouts
of tc5 (or an installed copy of these tests), the kernels of
test_triton_driver.py would name the other checkout's file, and the tests
that check the Python line of an error would fail. So the tests compile
into a cache of this checkout's own: TC5_TEST_TRITON_CACHE_DIR names it
(default: tc5-triton-cache-<hash of this directory> in the temporary
directory), whatever TRITON_CACHE_DIR says. Set before Triton is imported;
subprocesses (the TC5_TRITON=1 test) inherit it."""
import hashlib
import os
import tempfile

_here = os.path.dirname(os.path.abspath(__file__))
os.environ["TRITON_CACHE_DIR"] = os.environ.get("TC5_TEST_TRITON_CACHE_DIR") or os.path.join(
    tempfile.gettempdir(), "tc5-triton-cache-" + hashlib.sha256(_here.encode()).hexdigest()[:12])
