#!/usr/bin/env python3
"""derive_all.py - derive the MUFU interpolation tables of the NVIDIA H100 from H100 dumps alone.

Usage:  python3 derive_all.py [DUMPDIR [OUTDIR]] [--no-tanh] [--compare CODEDIR]
  DUMPDIR  directory with the call1 dumps (dump_*.bin.xz, hash32_*.bin) [../call1]
           tanh dumps (tanh_eXX.bin.xz) are looked up in DUMPDIR/../call2 [or --tanhdir]
  OUTDIR   where sfu_tables_derived.h, sfu_tab_sqrt_derived.h, sfu_tab_tanh_derived.h
           and derive_report.txt are written [this script's directory]

Input data (written on one H100, sm_90a, 2026-11-24, by gpu/sfu_probe.cu (`gpu/run.sh sfu-probe DIR`:
  the dumps and hashes) and by the research run's tanh sweep (tanh_eXX: every positive binade
  of tanh.approx.f32, not committed)):
  dump_<op>_<range>.bin.xz : outputs for a contiguous range of f32 inputs, stored as
      byte planes of int32 residuals  ordf(out) - ordf(ref32(op, x)),  ref32 = (float)libm(double x)
  tanh_eXX.bin.xz : tanh outputs over binade XX, byte planes of successive differences of ordf(out)
  hash32_<op>.bin : per 65536-input block, sum of splitmix64(x<<32 | out(x)) over all 2^32 inputs;
      every decoded dump is checked block by block against these hashes (a hash mismatch aborts).

Method (per function): the datapath *shape* is the one documented in sfu.md and implemented in
src/sfu/sfu_model.h (slice index = top significand bits, lo = next bits, truncated 17-bit squarer sq17,
Q = A + C1*lo + C2eff*sq, output = Q >> sr, normalised/truncated where the output exponent
varies).  Each observed output is turned into an exact integer interval [L, H] for Q at that
input; outputs seen several times for the same (slice, lo) are intersected.  Per slice we then
find ALL integer (C1, C2eff, A) with L <= A + C1*lo + C2eff*sq <= H at every point:
  1. an LP relaxation over a subset of the constraints bounds C1 and C2eff (a subset of the
     constraints gives a superset of the real feasible set, so the bounding box is rigorous;
     it is widened by 2 for floating-point safety);
  2. every integer (C1, C2eff) in that box is tested exactly (int64) on all points, giving the
     exact feasible A interval [amin, amax] (empty = infeasible).
C2eff is fitted with multiplier 1; the datapath's fixed left shift s2 of the C2 product is the
largest power of two dividing every C2eff.  A = (C0 << s0) + K: the rounding constant K is
determined modulo 2^s0 as the residue common to the A intervals of all slices; the header
stores C0 = (A - K_model) >> s0 with K_model the constant hard-coded in src/sfu/sfu_model.h.
Only numpy and scipy are used; nothing is read except the dumps and hashes.
"""
import numpy as np, lzma, math, os, sys, time, re, datetime
from scipy.optimize import linprog

U64 = np.uint64
T0 = time.time()
LOG = []
def log(*a):
    s = ' '.join(str(x) for x in a)
    print(s, flush=True); LOG.append(s)

# ------------------------------------------------------------------ decoding and hash check
def mix64(z):
    z = z + U64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> U64(30))) * U64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> U64(27))) * U64(0x94D049BB133111EB)
    return z ^ (z >> U64(31))
def block_hashes(x, y):
    h = mix64((x.astype(U64) << U64(32)) | y.astype(U64))
    return h.reshape(-1, 65536).sum(axis=1, dtype=U64)
def ordf(b):
    b = b.astype(np.int64)
    return np.where(b & 0x80000000, -(b & 0x7fffffff), b)
def unordf(o):
    return np.where(o < 0, 0x80000000 | (-o), o).astype(np.uint32)
def f32(u): return u.view(np.float32)

def _libm(fn):
    return lambda xd: np.frompyfunc(fn, 1, 1)(xd).astype(np.float64)
REF = {  # ref32 of code/common.h: the double-precision function, rounded to float
    'rcp':   lambda xd: 1.0 / xd,
    'rsqrt': lambda xd: 1.0 / np.sqrt(xd),
    'sqrt':  np.sqrt,
    'ex2':   _libm(math.exp2),
    'lg2':   _libm(math.log2),
    'sin':   _libm(math.sin),
    'cos':   _libm(math.cos),
}
HASH_OP = {'ex2': 0, 'rcp': 2, 'rsqrt': 4, 'sqrt': 6, 'lg2': 8, 'sin': 10, 'cos': 12, 'tanh': 14}

def read_planes(path, n):
    b = np.frombuffer(lzma.open(path).read(), dtype=np.uint8)
    assert b.size == 4 * n, (path, b.size, n)
    return (b[:n].astype(np.uint32) | b[n:2*n].astype(np.uint32) << 8 | b[2*n:3*n].astype(np.uint32) << 16
            | b[3*n:].astype(np.uint32) << 24).view(np.int32).astype(np.int64)

def hash_check(op, x, y, hashdir):
    """check decoded outputs against the exhaustive block hashes; a decoded +0 may really be -0
    (ordf cannot tell them apart), so in a failing block such zeros are tried with the sign set."""
    H = np.fromfile(os.path.join(hashdir, f'hash32_{HASH_OP[op]}.bin'), dtype=U64)
    b0 = int(x[0]) >> 16
    bh = block_hashes(x, y)
    bad = np.nonzero(bh != H[b0:b0 + bh.size])[0]
    fixed = 0
    for bi in bad:
        sl = slice(bi * 65536, (bi + 1) * 65536)
        z = np.nonzero(y[sl] == 0)[0]
        ok = False
        for m in range(1, 1 << min(len(z), 8)):      # subsets of up to 8 zeros
            yy = y[sl].copy()
            for j in range(len(z)):
                if m >> j & 1: yy[z[j]] = 0x80000000
            if block_hashes(x[sl], yy)[0] == H[b0 + bi]:
                y[sl] = yy; ok = True; fixed += 1; break
        if not ok:
            raise SystemExit(f'hash mismatch for {op} in block {b0 + bi:04x}: cannot decode this dump')
    return len(bad), fixed

def load_dump(dumpdir, name, op, lo, n, mode='R'):
    x = (np.uint32(lo) + np.arange(n, dtype=np.uint32))
    c = read_planes(os.path.join(dumpdir, name), n)
    if mode == 'R':
        ref = REF[op](f32(x).astype(np.float64)).astype(np.float32).view(np.uint32)
        y = unordf(ordf(ref) + c)
    else:
        y = unordf(np.cumsum(c))
    nb, nf = hash_check(op, x, y, HASHDIR)
    log(f'  {name}: {n} outputs decoded; all {n >> 16} blocks match the H100 hashes'
        + (f' ({nf} block(s) after restoring -0 outputs)' if nb else ''))
    return x, y

# ------------------------------------------------------------------ datapath helpers
def sq17(x):
    """truncated 17-bit squarer: partial products x_i * (x >> (18-i)), summed and halved"""
    x = np.asarray(x, dtype=np.int64); r = np.zeros_like(x)
    for i in range(1, 17): r += (x >> (18 - i)) * ((x >> i) & 1)
    return r >> 1

def merge_intervals(key, L, H, nkeys):
    """intersect the intervals given for the same key; returns (covered mask, L, H) per key"""
    Lk = np.full(nkeys, np.iinfo(np.int64).min, dtype=np.int64)
    Hk = np.full(nkeys, np.iinfo(np.int64).max, dtype=np.int64)
    np.maximum.at(Lk, key, L); np.minimum.at(Hk, key, H)
    cov = np.zeros(nkeys, bool); cov[key] = True
    if (Lk[cov] > Hk[cov]).any():
        k = np.nonzero(cov & (Lk > Hk))[0]
        raise SystemExit(f'inconsistent observations for {len(k)} keys, e.g. {k[:5]}')
    return cov, Lk, Hk

def var_interval(y, ex_off):
    """outputs that are a non-negative integer r normalised and truncated to 24 bits:
    float exponent ex <-> top bit p = ex - ex_off.  Returns the exact interval [lo, hi] of r."""
    y = y.astype(np.int64) & 0x7fffffff
    ex = y >> 23; M = (y & 0x7fffff) | (1 << 23); p = ex - ex_off
    k = p - 23
    lo = np.where(k >= 0, M << np.maximum(k, 0), M >> np.maximum(-k, 0))
    hi = np.where(k >= 0, ((M + 1) << np.maximum(k, 0)) - 1, lo)
    zero = y == 0
    if ((~zero) & (k < 0) & ((M & ((1 << np.maximum(-k, 0)) - 1)) != 0)).any():
        raise SystemExit('low-order output bits set where the datapath has none')
    lo = np.where(zero, 0, lo); hi = np.where(zero, 0, hi)
    return lo, hi

# ------------------------------------------------------------------ the integer fitter
def lp_box(lo, S, L, H, nsub=6000):
    """rigorous bounding box of the real (C1, C2eff) feasible set: LP over a subset of the
    constraints (a relaxation).  For conditioning, an integer least-squares guess (c1g, c2g, ag)
    is subtracted exactly first and the residual constraints are scaled by the median width."""
    n = len(lo)
    idx = np.unique(np.r_[np.linspace(0, n - 1, min(n, nsub)).astype(np.int64),
                          np.argsort(H - L, kind='stable')[:min(n, 2000)]])   # plus the tightest points
    lo_, S_, L_, H_ = lo[idx], S[idx], L[idx], H[idx]
    B = np.stack([np.ones(len(idx)), lo_ / 2**17, S_ / 2**16], 1)
    g = np.linalg.lstsq(B, (L_ + (H_ - L_) / 2).astype(float), rcond=None)[0]
    c1g, c2g = int(round(g[1] / 2**17)), int(round(g[2] / 2**16))
    Lr = L_ - c1g * lo_ - c2g * S_; Hr = H_ - c1g * lo_ - c2g * S_
    ag = int(np.median(Lr)); W = max(1.0, float(np.median(H_ - L_)) + 1)
    Lc = (Lr - ag) / W; Hc = (Hr - ag) / W
    A_ub = np.vstack([B, -B]); b_ub = np.r_[Hc, -Lc]
    box = []
    for j, scale, cg in ((1, 2**17, c1g), (2, 2**16, c2g)):
        vals = []
        for sgn in (1, -1):
            c = np.zeros(3); c[j] = sgn
            r = linprog(c, A_ub=A_ub, b_ub=b_ub, bounds=[(None, None)] * 3, method='highs')
            if r.status != 0: return None          # infeasible (even the relaxation)
            vals.append(cg + r.x[j] * W / scale)
        box.append((math.floor(vals[0]) - 2, math.ceil(vals[1]) + 2))
    return box

def int_solutions(lo, S, L, H, box=None):
    """all integer (C1, C2eff) with a non-empty A interval; exact"""
    if box is None: box = lp_box(lo, S, L, H)
    if box is None: return []
    (c1a, c1b), (c2a, c2b) = box
    assert (c1b - c1a + 1) * (c2b - c2a + 1) <= 200000, box
    sols = []
    C1 = np.arange(c1a, c1b + 1, dtype=np.int64)[:, None]
    for C2 in range(c2a, c2b + 1):
        base = C2 * S
        for ch in range(0, len(C1), 16):
            t = C1[ch:ch + 16] * lo[None, :] + base[None, :]
            amin = (L[None, :] - t).max(1); amax = (H[None, :] - t).min(1)
            for k in np.nonzero(amin <= amax)[0]:
                sols.append((int(C1[ch + k, 0]), C2, int(amin[k]), int(amax[k])))
    for s in sols:   # a solution on the box edge would mean the box was too small
        assert box[0][0] < s[0] < box[0][1] and box[1][0] < s[1] < box[1][1], (s, box)
    return sols

def fit_table(name, slices, s0, Kmodel, s2model):
    """slices: list of (lo, S, L, H).  Returns (table rows C0,C1,C2; report info)"""
    res = []
    for j, (lo, S, L, H) in enumerate(slices):
        sols = int_solutions(lo, S, L, H)
        if len(sols) != 1:
            log(f'  {name} slice {j}: {len(sols)} integer (C1,C2) solutions: {sols[:6]}')
        res.append(sols)
    nonuniq = [j for j, s in enumerate(res) if len(s) != 1]
    if any(len(s) == 0 for s in res):
        raise SystemExit(f'{name}: no integer solution for slices {[j for j, s in enumerate(res) if not s]}')
    # shift of the C2 product: largest power of two dividing all C2eff of unique slices
    c2s = [s[0][1] for s in res if len(s) == 1]
    s2 = 0
    while all(c % (2 << s2) == 0 for c in c2s): s2 += 1
    # rounding constant: residues of A mod 2^s0 allowed by every slice
    allowed = None; M = 1 << s0
    for sols in res:
        r = set()
        for (_, _, a, b) in sols:
            if b - a + 1 >= M: r = set(range(M)); break
            r.update(v % M for v in range(a, b + 1))
        allowed = r if allowed is None else allowed & r
    widths = [s[0][3] - s[0][2] + 1 for s in res if len(s) == 1]
    # largest modulus 2^s for which a common residue exists (data-derived alignment of C0)
    sbest = 0
    for s in range(1, 24):
        m = 1 << s; ok = None
        for sols in res:
            r = set()
            for (_, _, a, b) in sols:
                if b - a + 1 >= m: r = None; break
                r.update(v % m for v in range(a, b + 1))
            if r is None: continue
            ok = r if ok is None else ok & r
        if ok is None or ok: sbest = s
        else: break
    rows = []
    for j, sols in enumerate(res):
        C1, C2e, a, b = sols[0]
        assert C2e % (1 << s2model) == 0, (name, j, C2e, s2model)
        # C0 with the model's K: A = (C0 << s0) + K must lie in [a, b]
        c0 = [(A - Kmodel) >> s0 for A in range(a, b + 1) if (A - Kmodel) % M == 0]
        if len(c0) != 1:
            log(f'  {name} slice {j}: C0 not unique for K={Kmodel:#x}: {c0[:4]}')
        rows.append((c0[0], C1, C2e >> s2model))
    info = dict(nonuniq=nonuniq, s2=s2, allowed=sorted(allowed) if allowed is not None else None,
                Awidth=(min(widths), max(widths)) if widths else None, sbest=sbest,
                c1odd=sum(s[0][0] & 1 for s in res), c2odd=sum((s[0][1] >> s2) & 1 for s in res))
    K = Kmodel % M
    log(f'  {name}: {len(res)} slices, unique (C1,C2) in {len(res) - len(nonuniq)}; '
        f'C2 product shift s2={s2} (model {s2model}); feasible A interval widths {info["Awidth"]}; '
        f'K mod 2^{s0} allowed: {fmt_allowed(info["allowed"])} (model K={Kmodel:#x} -> {K:#x} '
        f'{"OK" if allowed is not None and K in allowed else "NOT ALLOWED"}); largest common A alignment 2^{sbest}; '
        f'slices with odd C1: {info["c1odd"]}, odd C2: {info["c2odd"]}')
    return rows, info

def fmt_allowed(a):
    if a is None: return 'any'
    if len(a) <= 4: return '{' + ','.join(hex(v) for v in a) + '}'
    return f'{len(a)} values in [{a[0]:#x},{a[-1]:#x}]'

def by_slice(idx_all, nslice, lobits, S_of_lo, cov, L, H):
    out = []
    for j in range(nslice):
        keys = np.arange(j << lobits, (j + 1) << lobits)
        m = cov[keys]
        lo = (keys[m] & ((1 << lobits) - 1)).astype(np.int64)
        out.append((lo, S_of_lo(lo), L[keys[m]], H[keys[m]]))
    return out

# ------------------------------------------------------------------ per function
def derive_rcp():
    x, y = load_dump(DUMPDIR, 'dump_rcp_ftz_1_2.bin.xz', 'rcp', 0x3F800000, 1 << 23)
    f = (x & 0x7fffff).astype(np.int64)
    M = y.astype(np.int64) - (126 << 23) + (1 << 23)          # 1.23 mantissa of 2^-1..2^0 result
    assert ((M >= 1 << 23) & (M <= 1 << 24)).all()
    sr = 15
    cov, L, H = merge_intervals(f, M << sr, ((M + 1) << sr) - 1, 1 << 23)
    sl = by_slice(None, 128, 16, lambda lo: sq17(lo << 1), cov, L, H)
    log(f'  rcp: {cov.sum()} of {1 << 23} (slice, lo) points covered')
    return fit_table('rcp', sl, 13, 0x47e7, 0)

def derive_rsqrt():
    x, y = load_dump(DUMPDIR, 'dump_rsqrt_ftz_1_4.bin.xz', 'rsqrt', 0x3F800000, 1 << 24)
    i = (x - np.uint32(0x3F800000)).astype(np.int64)           # = exponent parity << 23 | fraction
    M = y.astype(np.int64) - (126 << 23) + (1 << 23)
    keep = i != 0                                             # x = 1: exact power of four, special-cased
    sr = 16
    cov, L, H = merge_intervals(i[keep], (M << sr)[keep], (((M + 1) << sr) - 1)[keep], 1 << 24)
    sl = by_slice(None, 128, 17, sq17, cov, L, H)
    return fit_table('rsqrt', sl, 14, 0x7fff, 2)

def derive_sqrt():
    x, y = load_dump(DUMPDIR, 'dump_sqrt_ftz_1_4.bin.xz', 'sqrt', 0x3F800000, 1 << 24)
    i = (x - np.uint32(0x3F800000)).astype(np.int64)
    M = y.astype(np.int64) - (127 << 23) + (1 << 23)
    sr = 17
    cov, L, H = merge_intervals(i, M << sr, ((M + 1) << sr) - 1, 1 << 24)
    sl = by_slice(None, 128, 17, sq17, cov, L, H)
    return fit_table('sqrt', sl, 15, 0x7fff, 1)

def ex2_fixed(x):
    """MUFU.EX2 input conversion (sign-magnitude 7.23 fixed point, truncated) -> (F, result exponent)"""
    s = (x >> 31).astype(np.int64); e = (x >> 23 & 0xff).astype(np.int64); f = (x & 0x7fffff).astype(np.int64)
    m = f | (1 << 23); sh = e - 127
    assert ((sh < 7) & (sh > -25)).all()
    v = np.where(sh >= 0, m << np.maximum(sh, 0), m >> np.maximum(-sh, 0))
    I = v >> 23; F = v & 0x7fffff
    ex = np.where(s == 1, -I - 1 + (F == 0), I) + 127
    F = np.where((s == 1) & (F != 0), ~F & 0x7fffff, F)
    return F, ex

def derive_ex2():
    keys, Ls, Hs = [], [], []
    sr = 15
    for name, lo in (('dump_ex2_ftz_h_2.bin.xz', 0x3F000000), ('dump_ex2_ftz_m2_mh.bin.xz', 0xBF000000)):
        x, y = load_dump(DUMPDIR, name, 'ex2', lo, 1 << 24)
        F, ex = ex2_fixed(x)
        M = y.astype(np.int64) - (ex << 23) + (1 << 23)       # (Q >> 15), may carry to 2^24
        assert ((M >= 1 << 23) & (M <= 1 << 24)).all()
        keys.append(F); Ls.append(M << sr); Hs.append(((M + 1) << sr) - 1)
    cov, L, H = merge_intervals(np.concatenate(keys), np.concatenate(Ls), np.concatenate(Hs), 1 << 23)
    log(f'  ex2: {cov.sum()} of {1 << 23} fraction values covered')
    sl = by_slice(None, 64, 17, sq17, cov, L, H)
    return fit_table('ex2', sl, 13, 0x77e2, 0)

def derive_lg2():
    x, y = load_dump(DUMPDIR, 'dump_lg2_ftz_h_2.bin.xz', 'lg2', 0x3F000000, 1 << 24)
    e = (x >> 23 & 0xff).astype(np.int64); f = (x & 0x7fffff).astype(np.int64)
    sg = (y >> 31).astype(np.int64)
    rlo, rhi = var_interval(y, 91)                  # r (or ~r) in units of 2^-36
    keep = ~((e == 127) & (f == 0))                 # lg2(1) = 0 is special-cased
    # x in [1,2): r = Q >> 2 >= 0;  x in [0.5,1): r = (Q >> 2) - 2^36 < 0, output shows ~r
    assert (sg[keep] == (e[keep] == 126)).all()
    qlo = np.where(e == 127, rlo, (1 << 36) - 1 - rhi); qhi = np.where(e == 127, rhi, (1 << 36) - 1 - rlo)
    cov, L, H = merge_intervals(f[keep], (qlo << 2)[keep], ((qhi << 2) + 3)[keep], 1 << 23)
    log(f'  lg2: {cov.sum()} of {1 << 23} fraction values covered')
    sl = by_slice(None, 64, 17, sq17, cov, L, H)
    return fit_table('lg2', sl, 12, 0x3345, 1)

def fmul_rz_inv2pi(x):
    """FMUL.RZ x * 0x3E22F983 (exact product in double, then round toward zero to f32)"""
    p = f32(x).astype(np.float64) * float(np.float32(0.15915493667125701904))
    r = p.astype(np.float32)
    over = np.abs(r.astype(np.float64)) > np.abs(p)
    rb = r.view(np.uint32).copy(); rb[over] -= 1
    return rb

def turns_to_q(t):
    e = (t >> 23 & 0xff).astype(np.int64); m = (t & 0x7fffff).astype(np.int64) | (1 << 23)
    sh = e - 127 + 2
    assert ((sh < 25) & (sh > -40) & (e > 0)).all()
    return np.where(sh >= 0, (m << np.maximum(sh, 0)) & 0x1ffffff, (m >> np.maximum(-sh, 0)) & 0x1ffffff)

def derive_sin():
    keys, Ls, Hs = [], [], []
    for name, op, lo in (('dump_sin_ftz_1_2.bin.xz', 'sin', 0x3F800000), ('dump_sin_ftz_h_1.bin.xz', 'sin', 0x3F000000),
                         ('dump_cos_ftz_1_2.bin.xz', 'cos', 0x3F800000)):
        x, y = load_dump(DUMPDIR, name, op, lo, 1 << 23)
        v = turns_to_q(fmul_rz_inv2pi(x))
        q = v >> 23; F = v & 0x7fffff
        if op == 'cos': q = q + 1
        F = np.where(q & 1, ~F & 0x7fffff, F)
        sg = (q >> 1) & 1
        assert ((y >> 31).astype(np.int64) == sg).all(), 'quadrant sign'
        rlo, rhi = var_interval(y, 90)             # r in units of 2^-37
        keys.append(F); Ls.append(rlo); Hs.append(rhi)
    cov, L, H = merge_intervals(np.concatenate(keys), np.concatenate(Ls), np.concatenate(Hs), 1 << 23)
    log(f'  sin/cos: {cov.sum()} of {1 << 23} quarter-wave fraction values covered')
    sl = by_slice(None, 64, 17, sq17, cov, L, H)
    return fit_table('sin', sl, 11, 0, 0)

# ------------------------------------------------------------------ tanh (segments, variable shift)
TANH_KBITS = {0x77: 0, 0x78: 0, 0x79: 0, 0x7a: 1, 0x7b: 1, 0x7c: 2, 0x7d: 2, 0x7e: 2, 0x7f: 3, 0x80: 4, 0x81: 3}
def derive_tanh(tanhdir):
    rows = []; nonuniq = []
    for e, k in TANH_KBITS.items():
        fn = os.path.join(tanhdir, f'tanh_e{e:02x}.bin.xz')
        if not os.path.exists(fn):   # binades 0x7e, 0x7f were dumped in call1 (same coding)
            fn = os.path.join(DUMPDIR, {0x7e: 'dump_tanh_h_1.bin.xz', 0x7f: 'dump_tanh_1_2.bin.xz'}[e])
        x, y = load_dump(os.path.dirname(fn), os.path.basename(fn), 'tanh', e << 23, 1 << 23, mode='D')
        drop = 23 - k - 17
        for j in range(1 << k):
            ys = y[j << (23 - k):(j + 1) << (23 - k)].reshape(-1, 1 << drop)
            assert (ys == ys[:, :1]).all(), 'low input bits matter'
            ys = ys[:, 0].astype(np.int64)
            ex = (ys >> 23) & 0xff; emin = int(ex.min())
            V = ((ys & 0x7fffff) | (1 << 23)) << (ex - emin); U = np.int64(1) << (ex - emin)
            lo = np.arange(1 << 17, dtype=np.int64); S = sq17(lo)
            for sr in range(0, 24):
                sols = int_solutions(lo, S, V << sr, ((V + U) << sr) - 1)
                if sols: break
            if len(sols) != 1: nonuniq.append((e, j, len(sols)))
            C1, C2, amin, amax = sols[0]
            rows.append(dict(e=e, k=k, j=j, emin=emin, sr=sr, A=amin, C1=C1, C2=C2, nsol=len(sols), arange=amax - amin))
            log(f'    e={e:#x} seg {j}: sr={sr} C1={C1} C2={C2} A in [{amin},{amax}] ({len(sols)} (C1,C2) solution(s))')
    log(f'  tanh: {len(rows)} segments; (C1,C2) unique at the smallest feasible shift in '
        f'{len(rows) - len(nonuniq)}; non-unique: {nonuniq}; A stored as the smallest feasible value')
    return rows

# ------------------------------------------------------------------ header output / comparison
def h32(v): return v & 0xffffffff
def emit_tab(name, rows):
    s = f'static const int32_t {name}[{len(rows)}][3] = {{\n'
    for c0, c1, c2 in rows:
        s += f'  {{(int32_t)0x{h32(c0):07x}, (int32_t)0x{h32(c1):04x}, (int32_t)0x{h32(c2):03x}}},\n'
    return s + '};\n'

def parse_tab(text, name):
    m = re.search(re.escape(name) + r'\[\d+\]\[3\]\s*=\s*\{(.*?)\n\};', text, re.S)
    if not m: return None
    rows = []
    for t in re.findall(r'\{([^{}]*)\}', m.group(1)):
        v = [int(z.replace('(int32_t)', '').strip(), 0) for z in t.split(',')]
        rows.append(tuple(((a + 2**31) % 2**32) - 2**31 for a in v))
    return rows

def main():
    global DUMPDIR, HASHDIR
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    here = os.path.dirname(os.path.abspath(__file__))
    DUMPDIR = os.path.abspath(args[0]) if args else os.path.join(here, '..', 'call1')
    HASHDIR = DUMPDIR
    OUT = os.path.abspath(args[1]) if len(args) > 1 else here
    opt = dict(a.split('=', 1) if '=' in a else (a, '1') for a in sys.argv[1:] if a.startswith('--'))
    tanhdir = opt.get('--tanhdir', os.path.join(DUMPDIR, '..', 'call2'))
    compare = opt.get('--compare', os.path.join(here, '..', 'code'))
    only = opt.get('--only', 'rcp,rsqrt,ex2,lg2,sin,sqrt,tanh').split(',')
    if '--no-tanh' in opt: only = [o for o in only if o != 'tanh']
    log(f'derive_all.py  {datetime.datetime.now().isoformat(timespec="seconds")}  dumps: {DUMPDIR}')
    tabs, infos = {}, {}
    for nm, fn in (('rcp', derive_rcp), ('rsqrt', derive_rsqrt), ('ex2', derive_ex2), ('lg2', derive_lg2),
                   ('sin', derive_sin), ('sqrt', derive_sqrt)):
        if nm not in only: continue
        log(f'[{nm}]  t={time.time() - T0:.0f}s')
        tabs[nm], infos[nm] = fn()
    tanh = None
    if 'tanh' in only:
        log(f'[tanh]  t={time.time() - T0:.0f}s'); tanh = derive_tanh(tanhdir)
    date = datetime.date.today().isoformat()
    prov = (f' * Provenance: derived {date} by research/sfu/derived/derive_all.py solely from H100 (sm_90a)\n'
            f' * measurements (dumps and exhaustive block hashes written by research/sfu/code/probe.cu and\n'
            f' * verify.cu); every slice is the integer solution of the exact interval constraints the\n'
            f' * measured outputs put on C0<<s0 + C1*lo + C2*(sq17 << s2) + K.  No third-party tables used.\n')
    main_tabs = [t for t in ('rcp', 'rsqrt', 'sin', 'ex2', 'lg2') if t in tabs]
    if main_tabs:
        txt = ('/* SFU quadratic-interpolation coefficient tables (C0, C1, C2 per slice), same names and\n'
               ' * layout as sfu_tables.h; drop-in replacement for sfu_model.c (whose rounding constants\n'
               ' * K and shifts are unchanged: rcp 0x47e7, rsqrt 0x7fff, ex2 0x77e2, lg2 0x3345, sin 0).\n'
               + prov + ' */\n#pragma once\n#include <stdint.h>\n')
        names = {'rcp': 'sfu_tab_rcp', 'rsqrt': 'sfu_tab_rsqrt', 'sin': 'sfu_tab_sin', 'ex2': 'sfu_tab_ex2', 'lg2': 'sfu_tab_lg2'}
        for t in main_tabs: txt += emit_tab(names[t], tabs[t])
        open(os.path.join(OUT, 'sfu_tables_derived.h'), 'w').write(txt)
    if 'sqrt' in tabs:
        txt = ('/* MUFU.SQRT coefficient table (same layout as sfu_tab_sqrt.h):\n'
               ' * m = (C0<<15 + C1*lo + 2*C2*sq17(lo) + 0x7fff) >> 17.\n' + prov + ' */\n'
               'static const int32_t sfu_tab_sqrt[128][3] = {\n'
               + ''.join(f'  {{{a}, {b}, {c}}},\n' for a, b, c in tabs['sqrt']) + '};\n')
        open(os.path.join(OUT, 'sfu_tab_sqrt_derived.h'), 'w').write(txt)
    if tanh:
        kb = [TANH_KBITS[e] for e in sorted(TANH_KBITS)]; base = np.cumsum([0] + [1 << k for k in kb])[:-1]
        txt = ('/* MUFU.TANH segment table (same layout as sfu_tab_tanh.h). Segment = (input binade e, top k\n'
               ' * fraction bits); lo = next 17 fraction bits; P = A + C1*lo + C2*sq17(lo) counts units of\n'
               ' * 2^-sr ulp of binade emin; the result is P normalized and truncated to 24 bits.\n'
               ' * sr = smallest shift admitting an integer solution; A = smallest feasible A.\n' + prov + ' */\n'
               'typedef struct { int64_t A; int32_t C1, C2; uint8_t sr, emin; } sfu_tanh_seg;\n'
               f'static const uint8_t sfu_tanh_base[11] = {{{", ".join(str(int(b)) for b in base)}}};\n'
               f'static const uint8_t sfu_tanh_kbits[11] = {{{", ".join(str(k) for k in kb)}}};\n'
               f'static const sfu_tanh_seg sfu_tab_tanh[{len(tanh)}] = {{\n'
               + ''.join(f'  {{{r["A"]}LL, {r["C1"]}, {r["C2"]}, {r["sr"]}, {r["emin"]}}},\n' for r in tanh) + '};\n')
        open(os.path.join(OUT, 'sfu_tab_tanh_derived.h'), 'w').write(txt)
    # comparison with the tables in the code directory
    if os.path.isdir(compare):
        ref = open(os.path.join(compare, 'sfu_tables.h')).read()
        for t in main_tabs:
            old = parse_tab(ref, names[t]); new = [tuple(r) for r in tabs[t]]
            diff = [j for j in range(len(new)) if old is None or old[j] != new[j]]
            log(f'compare {names[t]}: {"IDENTICAL to" if not diff else f"{len(diff)} slices DIFFER from"} sfu_tables.h'
                + (f' (slices {diff[:10]})' if diff else ''))
        if 'sqrt' in tabs:
            old = [tuple(int(v) for v in r) for r in re.findall(r'\{(-?\d+), (-?\d+), (-?\d+)\}',
                   open(os.path.join(compare, 'sfu_tab_sqrt.h')).read())]
            diff = [j for j in range(128) if old[j] != tuple(tabs['sqrt'][j])]
            log(f'compare sfu_tab_sqrt: {"IDENTICAL to" if not diff else f"{len(diff)} slices DIFFER from"} sfu_tab_sqrt.h')
        if tanh:
            old = re.findall(r'\{(-?\d+)LL, (-?\d+), (-?\d+), (\d+), (\d+)\}', open(os.path.join(compare, 'sfu_tab_tanh.h')).read())
            new = [(str(r['A']), str(r['C1']), str(r['C2']), str(r['sr']), str(r['emin'])) for r in tanh]
            diff = [j for j in range(len(new)) if j >= len(old) or old[j] != new[j]]
            log(f'compare sfu_tab_tanh: {"IDENTICAL to" if not diff else f"{len(diff)} segments DIFFER from"} sfu_tab_tanh.h'
                + (f' {diff}' if diff else ''))
    log(f'done in {time.time() - T0:.0f}s')
    open(os.path.join(OUT, 'derive_report.txt'), 'w').write('\n'.join(LOG) + '\n')

if __name__ == '__main__':
    main()
