"""Type stubs of tc5 (the Python package): see docs/python.md."""
from typing import Any, Sequence

import numpy as np

class Error(Exception):
    status: str
    messages: list[str]

class InvalidArgumentError(Error): ...
class RangeError(Error): ...
class ReservedError(Error): ...
class AlignmentError(Error): ...
class IllegalError(Error): ...
class NotRepresentableError(Error): ...
class TruncatedError(Error): ...
class OutOfMemoryError(Error): ...
class ParseError(Error): ...
class FileError(Error): ...
class MismatchError(Error): ...
class WouldBlockError(Error): ...
class StateError(Error): ...
class AccessError(Error): ...
class UninitializedError(Error): ...
class BoundsError(Error): ...
class UnsupportedError(Error): ...
class HazardError(Error): ...

def type_of(array: Any) -> str | None: ...
def gemm(
    a: Any, b: Any, c: Any | None = None, *, kind: str, model: str = "blackwell", a_type: str | None = None,
    b_type: str | None = None, d_type: str | None = None, scale_a: Any | None = None, scale_b: Any | None = None,
    scale_type: str | None = None, block: int | None = None, saturate: bool = False, negate_a: bool = False,
    negate_b: bool = False, scale_input_d: int = 0, threads: int | None = None, device: str = "cpu",
    out: Any | None = None, meta: Any | None = None,
) -> Any: ...
def run_ptx(
    ptx_text: str, grid: int | Sequence[int], block: int | Sequence[int], args: Sequence[Any], *,
    entry: str | None = None, shared_bytes: int = 0, check: str = "default", threads: int | None = None,
    name: str = "kernel.ptx", cluster: int | Sequence[int] | None = None, buffers: Sequence[Any] = (),
    host_addresses: bool = False, rules: dict[str, str] | None = None, schedule: int = 0, schedules: int = 0,
    timing: str | None = None, timing_trace: str | None = None, timing_sample: int | None = None,
    timing_regs: int | None = None,
) -> RunResult: ...

class RunResult(tuple[list[dict[str, Any]], str]):
    timing: dict[str, Any] | None
    @property
    def findings(self) -> list[dict[str, Any]]: ...
    @property
    def printed(self) -> str: ...

TIMING_SAMPLE_ALL: int

class _Desc:
    kind: str | None
    issues: list[str]
    def __init__(self, **fields: Any) -> None: ...
    @classmethod
    def decode(cls, raw: int, kind: str | None = None) -> "_Desc": ...
    def encode(self) -> int: ...
    def check(self) -> list[str]: ...

class SmemDesc(_Desc):
    start_address: int
    lbo: int
    sbo: int
    base_offset: int
    lbo_mode: int
    swizzle: int
    fixed_46_48: int
    fixed_53_60: int
    unused_14_15: int
    unused_30_31: int

class InstrDesc(_Desc):
    sparse_selector: int
    sparse: int
    saturate: int
    dtype: int
    atype: int
    btype: int
    negate_a: int
    negate_b: int
    transpose_a: int
    transpose_b: int
    n: int
    m: int
    max_shift: int
    scale_type: int
    sfa_id: int
    sfb_id: int
    k96: int
    reserved_bits: int
    def __init__(self, kind: str = "f16", **fields: Any) -> None: ...

class ZcmaskDesc(_Desc):
    start_count: list[int]
    first_span: list[int]
    non_zero: int
    skip_span: int
    use_span: int
    column_shift: int
    reserved_36_38: int
    reserved_62_63: int

def zcmask_show(raw: int, m: int, n: int) -> tuple[str, str]: ...
def zcmask_find(m: int, mask: str | Sequence[bool], shift: int = 0) -> int: ...
def layout_addr(desc: int, mn: int, k: int, *, kind: str, type: str, major: str = "K") -> tuple[int, int, int]: ...
def dot(
    a: Any, b: Any, c: Any | None = None, *, kind: str, model: str = "blackwell", a_type: str | None = None,
    b_type: str | None = None, d_type: str | None = None, scale_a: Any | None = None, scale_b: Any | None = None,
    scale_type: str | None = None, block: int | None = None, saturate: bool = False, negate_a: bool = False,
    negate_b: bool = False, scale_input_d: int = 0,
) -> tuple[Any, str]: ...
