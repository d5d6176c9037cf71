"""Descriptor classes: decode / encode round trips (hypothesis over raw
values), the broken rules as the CLI reports them, construction by fields."""
import os
import subprocess

import pytest
from hypothesis import given, settings, strategies as st

import tc5

CLI = os.environ.get("TC5_CLI")
KINDS = ["f16", "tf32", "f8f6f4", "i8", "mxf8f6f4", "mxf4", "mxf4nvf4"]


@settings(max_examples=300, deadline=None)
@given(raw=st.integers(0, 2**64 - 1))
def test_smem_round_trip(raw):
    d = tc5.SmemDesc.decode(raw)
    if not d.issues:
        assert d.encode() == raw
        assert d.check() == []
    else:
        with pytest.raises(tc5.Error):
            d.encode()


@settings(max_examples=300, deadline=None)
@given(raw=st.integers(0, 2**64 - 1))
def test_zcmask_round_trip(raw):
    d = tc5.ZcmaskDesc.decode(raw)
    if not d.issues:
        assert d.encode() == raw


@settings(max_examples=300, deadline=None)
@given(raw=st.integers(0, 2**32 - 1), kind=st.sampled_from(KINDS))
def test_idesc_round_trip(raw, kind):
    d = tc5.InstrDesc.decode(raw, kind=kind)
    if not d.issues:
        assert d.encode() == raw


@pytest.mark.skipif(not CLI, reason="TC5_CLI not set")
@settings(max_examples=40, deadline=None)
@given(raw=st.integers(0, 2**64 - 1))
def test_smem_rules_as_the_cli(raw):
    d = tc5.SmemDesc.decode(raw)
    r = subprocess.run([CLI, "desc", "decode", "smem", hex(raw)], capture_output=True, text=True)
    assert (r.returncode == 0) == (not d.issues)
    for msg in d.issues:
        assert msg.split(": ", 1)[-1] in r.stdout + r.stderr


def test_fields():
    s = tc5.SmemDesc(start_address=0x400, lbo=16, sbo=1024, swizzle=2)
    assert s.encode() == 0x4000404000010040
    assert tc5.SmemDesc.decode(0x4000404000010040).sbo == 1024
    i = tc5.InstrDesc("f16", m=128, n=256, dtype=1, atype=1, btype=1)
    assert tc5.InstrDesc.decode(i.encode(), kind="f16").n == 256
    z = tc5.ZcmaskDesc.decode(0x0203028301020100)
    assert z.start_count == [0, 1, 2, 1] and z.column_shift == 2
    assert z.encode() == 0x0203028301020100
    with pytest.raises(tc5.AlignmentError) as e:
        tc5.SmemDesc(start_address=3).encode()
    assert "16-byte aligned" in e.value.messages[0]
    assert tc5.SmemDesc(start_address=3).check()
    with pytest.raises(KeyError):
        tc5.SmemDesc(no_such_field=1)
    with pytest.raises(ValueError):
        tc5.InstrDesc.decode(0, kind="nope")
