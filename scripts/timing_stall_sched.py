#!/usr/bin/env python3
"""Issue 47 (t47z): ptxas's static schedule of the local R2P kernels, read from the control bits of their SASS, against
what Nsight Compute measured on the H200 (tests/data/timing/h200_r2p_ncu.*, t47w).

Every 128-bit SASS instruction of sm_70 ... sm_100 carries ptxas's control bits in bits 105-127 (bits 41-63 of its second
64-bit word, the one nvdisasm -hex prints on the line after the instruction): from the low bit the stall count (4 bits),
the yield bit, the write scoreboard (3), the read scoreboard (3), the wait mask (6) and the reuse flags (4) (Jia et al.,
"Dissecting the NVIDIA Volta GPU Architecture via Microbenchmarking", arXiv:1804.06826, section 2.1; CuAssembler's
CuSMVersion.splitControlCodes_7x_8x; the model's decoder is src/timing/sass_weights.c tm_sass_ctrl, tested in
test_timing's test_sass_ctrl with the same words as --selftest here).

The script assembles tests/data/timing/mask/r2p_mask.ptx with ptxas -arch=sm_90a, disassembles it with nvdisasm -hex,
matches each local kernel's SASS, instruction by instruction, with ncu's source page (same opcodes, same order), and
prints per warp: the instructions executed (S), the sum of their stall counts (ptxas's static issue time of one warp),
ncu's stall reasons per issue split into the warp's own (selected, wait, barrier, scoreboards, gmma, branch, dispatch,
no instruction) and the co-resident warps' (not selected, math-pipe throttle, MIO throttle), and the issue slot's exact
MVA (tm_issue_queue at beta 1, 5 warps a scheduler) on the measured own path.

Usage: scripts/timing_stall_sched.py            (needs ptxas and nvdisasm: $TC5_PTXAS/$TC5_NVDISASM, PATH, Triton's wheel)
       scripts/timing_stall_sched.py --selftest (the decoder against hand-decoded words; no tools)
Standard library only."""
import csv
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data", "timing")
KERNELS = {"compare": "_Z11attn_scoresILi2ELb0ELb0EEvPKh4SpecmmjjPfiS3_",
           "bitmask": "_Z11attn_scoresILi2ELb1ELb0EEvPKh4SpecmmjjPfiS3_"}
OWN = ("selected", "wait", "barrier", "short_scoreboard", "long_scoreboard", "gmma", "branch_resolving",
       "dispatch_stall", "no_instruction", "imc_miss", "drain", "sleeping", "membar", "lg_throttle", "tex_throttle")
OTHERS = ("not_selected", "math_pipe_throttle", "mio_throttle")


def ctrl(hi):
    """the control bits of a SASS instruction from its high 64-bit word"""
    k = hi >> 41
    return {"stall": k & 15, "yield": (k >> 4) & 1, "wbar": (k >> 5) & 7, "rbar": (k >> 8) & 7,
            "wait": (k >> 11) & 63, "reuse": (k >> 17) & 15}


# ptxas 13.0 -arch=sm_90a's words, decoded by hand (test_timing.c test_sass_ctrl has the same)
SELFTEST = [
    (0x000fe20007ffe0ff, (1, 1, 7, 7, 0, 0)),   # IADD3 R0, R0, 0x1, RZ
    (0x000fc80000000005, (4, 0, 7, 7, 0, 0)),   # FFMA R5, R5, R5, 1: the chain's latency
    (0x000e640000000800, (2, 1, 1, 7, 0, 0)),   # MUFU.EX2 R4, R4: sets scoreboard 1
    (0x002fce0000000000, (7, 0, 7, 7, 2, 0)),   # FADD R5, R5, R4: waits for scoreboard 1
    (0x040fe40003f06270, (2, 1, 7, 7, 0, 1)),   # ISETP ... R0.reuse: operand A reused
    (0x001172000c1e1900, (9, 1, 5, 0, 1, 0)),   # LDG.E R5: writes 5, reads 0, waits for 0
    (0x000fc00003800000, (0, 0, 7, 7, 0, 0)),   # NOP: 0x7e0, CuAssembler's [B------:R-:W-:Y:S00]
]


def selftest():
    for hi, want in SELFTEST:
        c = ctrl(hi)
        got = (c["stall"], c["yield"], c["wbar"], c["rbar"], c["wait"], c["reuse"])
        if got != want:
            print(f"timing_stall_sched: {hi:#018x}: {got} != {want}")
            return 1
    print(f"timing_stall_sched: {len(SELFTEST)} control words decoded as by hand")
    return 0


def find(env, name):
    if os.environ.get(env):
        return os.environ[env]
    for d in os.environ.get("PATH", "").split(os.pathsep) + ["/usr/local/cuda/bin"]:
        if os.access(os.path.join(d, name), os.X_OK):
            return os.path.join(d, name)
    try:
        import triton  # its wheel carries nvdisasm
        p = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", name)
        if os.access(p, os.X_OK):
            return p
    except ImportError:
        pass
    sys.exit(f"timing_stall_sched: no {name} (${env}, PATH, Triton's wheel)")


def sass_of(listing, fn):
    """(opcode text, control bits) of function fn's SASS, NOPs dropped"""
    out, on, lines, i = [], False, listing.split("\n"), 0
    while i < len(lines):
        ln = lines[i]
        if ln.startswith(".text."):
            on = ln[6:].rstrip(":") == fn
        m = re.match(r"\s*/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;\s*/\* 0x[0-9a-f]{16} \*/", ln)
        if m:
            hi = int(re.search(r"0x([0-9a-f]{16})", lines[i + 1]).group(1), 16)
            if on and m.group(1).strip() != "NOP":
                out.append((m.group(1).strip(), ctrl(hi)))
            i += 2
        else:
            i += 1
    return out


def ncu_page(v):
    rows = list(csv.reader(open(os.path.join(DATA, f"h200_r2p_ncu.local_{v}.sass.csv"))))
    ie = rows[1].index("Instructions Executed")
    return [(re.sub(r"\s+", " ", r[1]).strip(), int(r[ie])) for r in rows[2:] if r and r[0].startswith("0x")
            and r[1].strip() != "NOP"]


def ncu_stalls(v):
    rows = list(csv.reader(open(os.path.join(DATA, "h200_r2p_ncu.raw.csv"))))
    m = {k: x for k, x in zip(rows[0], next(r for r in rows[2:] if r[0] == f"local_{v}"))}
    pre, suf = "smsp__average_warps_issue_stalled_", "_per_issue_active.ratio"
    return {k[len(pre):-len(suf)]: float(x.replace(",", "")) for k, x in m.items() if k.startswith(pre) and k.endswith(suf)}


def mva(P, S, n, beta=1.0):
    """tm_issue_queue (src/timing/launch_schedule.c) at an integer n"""
    Z, Q, R = max(P - S, 0.0), 0.0, S
    for k in range(1, n + 1):
        R = S * (1 + beta * Q)
        Q = k * R / (R + Z)
    return max(R + Z, n * S, P)


def opc(t):
    f = t.split()
    return (f[1] if f[0].startswith("@") else f[0]).split(".")[0]


def main():
    if "--selftest" in sys.argv:
        return selftest()
    ptxas, nvd = find("TC5_PTXAS", "ptxas"), find("TC5_NVDISASM", "nvdisasm")
    with tempfile.TemporaryDirectory() as d:
        cubin = os.path.join(d, "r2p.cubin")
        subprocess.run([ptxas, "-arch=sm_90a", "-o", cubin, os.path.join(DATA, "mask", "r2p_mask.ptx")], check=True)
        listing = subprocess.run([nvd, "-hex", "-c", cubin], check=True, capture_output=True, text=True).stdout
    res = {}
    print("local | SASS a warp (ncu) | stall sum a warp (ptxas) | ncu selected + wait a warp | own path a warp (ncu) | "
          "co-resident warps' stalls a warp | cycles a warp (ncu) | MVA on the own path, 5 warps")
    for v, fn in KERNELS.items():
        s, n = sass_of(listing, fn), ncu_page(v)
        if len(s) != len(n) or any(opc(a[0]) != opc(b[0]) for a, b in zip(s, n)):
            sys.exit(f"timing_stall_sched: {v}: ptxas's SASS here is not the SASS ncu profiled")
        warps = n[0][1]  # the first instruction runs once a warp
        S = sum(b[1] for b in n) / warps
        stall = sum(a[1]["stall"] * b[1] for a, b in zip(s, n)) / warps
        st = ncu_stalls(v)
        own = sum(st.get(k, 0) for k in OWN) * S
        oth = sum(st.get(k, 0) for k in OTHERS) * S
        tot = sum(st.values()) * S
        res[v] = (S, stall, own, tot, mva(own, S, 5))
        print(f"{v} | {S:.1f} | {stall:.0f} | {(st['selected'] + st['wait']) * S:.0f} | {own:.0f} | {oth:.0f} | "
              f"{tot:.0f} | {res[v][4]:.0f}")
    c, b = res["compare"], res["bitmask"]
    print(f"ratio compare / bitmask: S {c[0] / b[0]:.3f}, stall sum {c[1] / b[1]:.3f}, own path {c[2] / b[2]:.3f}, "
          f"cycles a warp {c[3] / b[3]:.3f}, MVA on the own path {c[4] / b[4]:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
