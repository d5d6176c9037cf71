"""conftest.py for Liger-Kernel's tests on tc5 (issue 50; tests/python/test_liger_guard.py copies
it beside the sdist's src/ and test/): the Triton door and the torch.cuda shim before the tests
import, the kernels launched per test written to TC5_LAUNCH_LOG (nodeid, outcome, launches),
and TC5_EVERY=K, the peer suites' selection (every K-th case of each test function)."""
import os
os.environ.setdefault("TC5_TRITON", "1")
os.environ.setdefault("TC5_TRITON_TORCH_CUDA", "1")
import tc5.triton  # noqa: E402

tc5.triton.activate()
import torch  # noqa: E402

if not getattr(torch.cuda.mem_get_info, "__module__", "").startswith("tc5"):
    # until the shim answers it (issue 49): a B200's 192 GB, 180 free (three of Liger's files ask at collection)
    torch.cuda.mem_get_info = lambda device=None: (180 * 2**30, 192 * 2**30)

import pytest  # noqa: E402


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    """the kernels the door launched during the test, as a user property (junit XML) and a
    line in the report: a test that passes with none launched did not run on tc5"""
    n0 = tc5.triton.launches()
    yield
    item.user_properties.append(("tc5_launches", tc5.triton.launches() - n0))


def pytest_runtest_logreport(report):
    if report.when == "call":
        n = dict(report.user_properties).get("tc5_launches")
        with open(os.environ.get("TC5_LAUNCH_LOG", "/dev/null"), "a") as f:
            f.write(f"{report.nodeid}\t{report.outcome}\t{n}\n")


def pytest_collection_modifyitems(config, items):
    """TC5_EVERY=K: of each test function's cases, in collection order, every K-th, starting
    with the first (the peer suites' selection rule; never by outcome)"""
    k = int(os.environ.get("TC5_EVERY", "1"))
    if k <= 1:
        return
    seen = {}
    keep = []
    for it in items:
        key = (it.fspath, getattr(it, "originalname", it.name))
        i = seen.get(key, 0)
        seen[key] = i + 1
        if i % k == 0:
            keep.append(it)
    items[:] = keep
