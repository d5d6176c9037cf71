"""Ray, tc5's engine for work spread over many cores or machines (issue 48):
sweeps (tc5.sweep), autotuning (tc5.triton.tune). Ray is an optional
dependency (`pip install 'tc5[ray]'`); without it these raise ImportError
naming the extra. Tasks, retries, scheduling and placement are Ray's; the
progress bar is tqdm's."""
from __future__ import annotations

import os

EXTRA = "tc5[ray]"


def ray_module():
    """the ray module, or ImportError naming the extra that brings it"""
    try:
        import ray
    except ImportError as e:
        raise ImportError(f"this needs Ray, tc5's optional dependency: pip install '{EXTRA}' "
                          f"(or pip install ray tqdm); {e}") from None
    return ray


def _tqdm(total: int, desc: str, enabled: bool):
    try:
        from tqdm.auto import tqdm
    except ImportError:
        enabled = False
        tqdm = None
    if not enabled:
        class _Quiet:
            def update(self, n=1):
                pass

            def close(self):
                pass

            def set_postfix_str(self, s):
                pass
        return _Quiet()
    return tqdm(total=total, desc=desc, unit="point", smoothing=0)


def init(address: str | None = None, runtime_env: dict | None = None, num_cpus: int | None = None):
    """ray.init unless Ray is initialised already: address (else RAY_ADDRESS)
    names a cluster ("auto": the one `ray start` made on this machine); none:
    a local Ray of this machine's cores (num_cpus). Returns True when this
    call started Ray (the caller then shuts it down)."""
    ray = ray_module()
    if ray.is_initialized():
        return False
    address = address or os.environ.get("RAY_ADDRESS") or None
    kw = dict(include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    if runtime_env:
        kw["runtime_env"] = runtime_env
    if address:
        ray.init(address=address, **kw)
    else:
        ray.init(num_cpus=num_cpus, **kw)
    return True


def map_tasks(fn, items, *, address: str | None = None, max_retries: int = 3, num_cpus: float = 1,
              progress: bool = True, desc: str = "tc5", runtime_env: dict | None = None, on_result=None,
              failed=None, ray_num_cpus: int | None = None):
    """fn(item) for every item as Ray tasks (num_cpus each; a task whose
    worker or node died is run again, up to max_retries times: Ray's
    retries of system failures; an exception fn raises is not retried).
    Returns the results in the items' order; a task that failed for good
    gives failed(item, exception) (else the exception is raised).
    on_result(i, result) is called as each result arrives."""
    ray = ray_module()
    started = init(address, runtime_env, ray_num_cpus)
    try:
        remote = ray.remote(num_cpus=num_cpus, max_retries=max_retries, retry_exceptions=False)(fn)
        refs = {remote.remote(item): i for i, item in enumerate(items)}
        out = [None] * len(refs)
        bar = _tqdm(len(refs), desc, progress)
        pending = list(refs)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for r in done:
                i = refs[r]
                try:
                    out[i] = ray.get(r)
                except Exception as e:  # the task died for good (its retries spent), or fn raised
                    if failed is None:
                        raise
                    out[i] = failed(items[i], e)
                if on_result is not None:
                    on_result(i, out[i])
                bar.update(1)
        bar.close()
        return out
    finally:
        if started:
            ray.shutdown()
