"""tc5.zcmask_show / zcmask_find and tc5.layout_addr against the CLI."""
import json
import os
import re
import subprocess

import pytest
from hypothesis import given, settings, strategies as st

import tc5

CLI = os.environ.get("TC5_CLI")


@pytest.mark.skipif(not CLI, reason="TC5_CLI not set")
@settings(max_examples=60, deadline=None)
@given(raw=st.integers(0, 2**62 - 1), m=st.sampled_from([32, 64, 128]), n=st.sampled_from([16, 64, 128, 256]))
def test_zcmask_as_the_cli(raw, m, n):
    raw &= ~(0b111 << 36)  # reserved bits 36-38 clear
    r = subprocess.run([CLI, "zcmask", "show", hex(raw), "--m", str(m), "--n", str(n), "--json"],
                       capture_output=True, text=True)
    try:
        mask, text = tc5.zcmask_show(raw, m, n)
    except tc5.Error:
        assert r.returncode != 0
        return
    assert r.returncode == 0
    assert mask == "".join(s["bits"] for s in json.loads(r.stdout)["submasks"])
    assert text.startswith(f"zero-column mask, M = {m}, N = {n}")
    if "1" in mask:  # what it generates, synthesis gives back a descriptor of
        found = tc5.zcmask_find(m, mask, tc5.ZcmaskDesc.decode(raw).column_shift)
        assert tc5.zcmask_show(found, m, n)[0] == mask


def test_zcmask_find_not_representable():
    with pytest.raises(tc5.NotRepresentableError) as e:
        tc5.zcmask_find(128, "0" * 63 + "1" + "0" * 60 + "1")
    assert "not representable" in e.value.messages[0]


@pytest.mark.skipif(not CLI, reason="TC5_CLI not set")
@settings(max_examples=40, deadline=None)
@given(sw=st.sampled_from([0, 2, 4, 6]), mn=st.integers(0, 63), k=st.integers(0, 31),
       ty=st.sampled_from([("f16", "bf16"), ("f8f6f4", "e4m3"), ("tf32", "tf32")]))
def test_layout_addr_as_the_cli(sw, mn, k, ty):
    kind, t = ty
    desc = tc5.SmemDesc(start_address=0x400, lbo=16, sbo=1024, swizzle=sw).encode()
    r = subprocess.run([CLI, "layout", "addr", hex(desc), "--type", t, "--major", "K", "--at", f"{mn},{k}"],
                       capture_output=True, text=True)
    want = re.search(r"byte 0x[0-9a-f]+ \((\d+)\), bit (\d+), (\d+) bits", r.stdout)
    assert want, r.stdout + r.stderr
    assert tc5.layout_addr(desc, mn, k, kind=kind, type=t) == tuple(int(x) for x in want.groups())
