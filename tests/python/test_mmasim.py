"""MMA-Sim's golden dot products (../shared/oracle/mmasim, or TC5_ORACLE_DIR)
through the Python API: every vector of every file as an element of
tc5.gemm (vectors batched 128 at a time; the diagonal of A.B + C), with the
kind, types and scales of the file name's qualifier (as `tc5 vectors check`
reads them)."""
import os
import pathlib

import numpy as np
import pytest

import tc5

ROOT = pathlib.Path(__file__).resolve().parents[2]
ORACLE = pathlib.Path(os.environ.get("TC5_ORACLE_DIR", ROOT.parent / "shared" / "oracle")) / "mmasim"
FILES = sorted(ORACLE.glob("*.txt")) if ORACLE.is_dir() else []


def qualifier(name):
    """(model, kind, d type, a type, b type, scale type, block) of a file name"""
    parts = name.split(".")
    model, rest = parts[0], parts[1:-1]
    block = 0
    rest = rest[1:]  # mMnNkK
    if rest[0].startswith("block"):
        block = int(rest[0][5:])
        rest = rest[1:]
    dt, at, bt = rest[:3]
    stype = rest[3] if len(rest) > 3 else None
    if at in ("f16", "bf16"):
        kind = "f16"
    elif at == "tf32":
        kind = "tf32"
    elif not block:
        kind = "f8f6f4"
    elif at == bt == "e2m1" and "k64" in parts[1]:
        kind = "mxf4nvf4"
    else:
        kind = "mxf8f6f4"
    return model, kind, dt, at, bt, stype, block


def hexes(s):
    return [int(x, 16) for x in s.split(",")]


def unpack_fp4(bytes_):
    out = []
    for b in bytes_:
        out += [b & 0xF, b >> 4]
    return out


@pytest.mark.skipif(not FILES, reason="no MMA-Sim oracle (../shared/oracle/mmasim)")
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_mmasim_file(path):
    model, kind, dt, at, bt, stype, block = qualifier(path.name)
    rows = []
    for line in path.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        f = dict(kv.split("=", 1) for kv in line.split())
        a, b = hexes(f["a"]), hexes(f["b"])
        if kind == "mxf4nvf4" or (kind == "mxf8f6f4" and at == "e2m1"):
            a, b = unpack_fp4(a), unpack_fp4(b)
        rows.append((a, b, int(f["c"], 16), hexes(f["sa"]) if "sa" in f else None,
                     hexes(f["sb"]) if "sb" in f else None, int(f["d"], 16)))
    assert rows
    bad = 0
    for i in range(0, len(rows), 128):
        chunk = rows[i:i + 128]
        n = len(chunk)
        A = np.array([r[0] for r in chunk], dtype=np.uint32)
        B = np.array([r[1] for r in chunk], dtype=np.uint32).T.copy()
        C = np.zeros((n, n), dtype=np.uint32)
        C[np.arange(n), np.arange(n)] = [r[2] for r in chunk]
        kw = {}
        if block:
            kw = dict(scale_a=np.array([r[3] for r in chunk], dtype=np.uint32),
                      scale_b=np.array([r[4] for r in chunk], dtype=np.uint32).T.copy(),
                      scale_type=stype, block=block)
        c_arr = C.astype(np.uint16).view(np.float16) if dt == "f16" else C.view(np.float32)
        D = tc5.gemm(A, B, c_arr, kind=kind, model=model, a_type=at, b_type=bt, d_type=dt, **kw)
        got = np.diagonal(D.view(np.uint16) if dt == "f16" else D.view(np.uint32))
        bad += int(np.sum(got != np.array([r[5] for r in chunk], dtype=got.dtype)))
    assert bad == 0, f"{bad} of {len(rows)} differ"
