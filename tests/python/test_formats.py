"""ml_dtypes' decoding of every code of every element type of at most 8 bits
equals tc5's (`tc5 fmt table`: exact decimal values), sign of zero and NaN
included; the codes the Python layer takes from ml_dtypes arrays are those."""
import decimal
import os
import subprocess

import ml_dtypes
import numpy as np
import pytest

import tc5

CLI = os.environ.get("TC5_CLI")
TYPES = {
    "e4m3": ml_dtypes.float8_e4m3fn, "e5m2": ml_dtypes.float8_e5m2, "e2m3": ml_dtypes.float6_e2m3fn,
    "e3m2": ml_dtypes.float6_e3m2fn, "e2m1": ml_dtypes.float4_e2m1fn, "ue8m0": ml_dtypes.float8_e8m0fnu,
}


def tc5_table(t):
    out = subprocess.run([CLI, "fmt", "table", t], check=True, capture_output=True, text=True).stdout
    rows = {}
    for line in out.splitlines()[1:]:
        code, value = line.split()[:2]
        rows[int(code, 16)] = value
    return rows


@pytest.mark.skipif(not CLI, reason="TC5_CLI not set")
@pytest.mark.parametrize("t", sorted(TYPES))
def test_every_code(t):
    table = tc5_table(t)
    bits = tc5._tc5.type_bits(t)
    assert len(table) == 1 << bits
    codes = np.arange(1 << bits, dtype=np.uint8)
    values = codes.view(TYPES[t]).astype(np.float64)
    for code, value in zip(codes.tolist(), values.tolist()):
        want = table[code]
        if want == "NaN":
            assert np.isnan(value), (t, code)
        elif want in ("inf", "-inf"):
            assert value == float(want), (t, code)
        else:
            assert decimal.Decimal(value) == decimal.Decimal(want), (t, code, value, want)
            assert (str(value)[0] == "-") == (want[0] == "-"), (t, code)  # the sign of zero
    # and the codes tc5.gemm takes from such an array are the codes themselves
    got, name = tc5._codes(codes.view(TYPES[t]).reshape(1, -1), "a", None)
    assert name == t and got.tolist() == [codes.tolist()]
