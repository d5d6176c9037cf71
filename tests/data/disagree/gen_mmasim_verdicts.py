#!/usr/bin/env python3
"""MMA-Sim's word on each case of minimal.txt (issue 38's disagreement classes).

usage: gen_mmasim_verdicts.py --mmasim DIR [--minimal FILE] [--out FILE]

DIR is a checkout of github.com/microsoft/MMA-Sim at commit c785138 (the commit the oracle's golden
vectors come from): MMA-Sim is imported from there (mmasim.simulator.nv_ptx), nothing of it is
copied here. It needs torch >= 2.7 (MMA-Sim's own dependency; float8_e8m0fnu). CI cannot fetch
MMA-Sim, so the output, mmasim_verdicts.txt beside this file, is committed and test_disagree reads it.

For each case the script builds MMA-Sim's instruction object of the case's kind and types
(tcgen05mma, or tcgen05mma_block_scale, architecture "Blackwell"), puts the case's raw codes in row 0
of A, column 0 of B and element (0, 0) of C (zeros elsewhere, unit scales elsewhere), runs the whole
instruction as MMA-Sim does and writes D[0, 0]'s raw code. MMA-Sim has no tcgen05.mma.sp: for the
sparse cases the line says so ("none") and, for information only, what its dense arithmetic gives
under each reading of the sparse instruction (A expanded with zeros and B whole; the kept pairs only).

Output, one line a case:  <name> class=<n> mmasim=<hex word>  or  <name> class=<n> mmasim=none why=<...>
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def parse(line):
    cfg, rest = line.split("|", 1)
    conf = dict(kv.split("=", 1) for kv in cfg.split())
    toks = rest.split()
    case = {"name": toks[0]}
    for kv in toks[1:]:
        k, v = kv.split("=", 1)
        case[k] = v
    return conf, case


def codes(text):
    return [int(x, 16) for x in text.split(",")]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mmasim", required=True, help="a checkout of microsoft/MMA-Sim (mmasim/ inside)")
    ap.add_argument("--minimal", default=os.path.join(HERE, "minimal.txt"))
    ap.add_argument("--out", default=os.path.join(HERE, "mmasim_verdicts.txt"))
    args = ap.parse_args()
    sys.path.insert(0, os.path.abspath(args.mmasim))
    import torch
    from mmasim.simulator.nv_ptx import tcgen05mma, tcgen05mma_block_scale

    width = {torch.float32: 4, torch.float16: 2, torch.bfloat16: 2, torch.uint8: 1, torch.float8_e4m3fn: 1,
             torch.float8_e5m2: 1, torch.float8_e8m0fnu: 1}

    def tensor(vals, dtype, shape):
        """a tensor of dtype whose first elements (row-major) hold the raw codes vals, zeros after"""
        w, n = width[dtype], 1
        for s in shape:
            n *= s
        buf = bytearray(n * w)
        for i, v in enumerate(vals):
            buf[i * w:(i + 1) * w] = int(v).to_bytes(w, "little")
        return torch.frombuffer(buf, dtype=torch.uint8).view(dtype).reshape(shape).clone()

    def word(x):
        w = width[x.dtype]
        return f"{int.from_bytes(bytes(x.reshape(1).view(torch.uint8).tolist()), 'little'):0{2 * w}x}"

    def dense(qual, a, b, c):
        ins = tcgen05mma("Blackwell", qual)
        A = tensor(a, ins.a_type, (ins.m, ins.k))
        Bt = tensor(b, ins.b_type, (ins.n, ins.k))
        return word(ins(A, Bt.T, tensor([c], ins.c_type, (ins.m, ins.n)))[0, 0])

    def scaled(qual, a, b, c, sa, sb):
        ins = tcgen05mma_block_scale("Blackwell", qual)
        if ins.packing == 2:  # fp4: two a byte, element 2i in the low nibble
            a = [a[2 * i] | a[2 * i + 1] << 4 for i in range(len(a) // 2)]
            b = [b[2 * i] | b[2 * i + 1] << 4 for i in range(len(b) // 2)]
        kk, ns = ins.k // ins.packing, ins.k // ins.block_size
        one = 0x7F if ins.s_type == torch.float8_e8m0fnu else 0x38
        SA = tensor(list(sa) + [one] * (ins.m * ns - len(sa)), ins.s_type, (ins.m, ns))
        SBt = tensor(list(sb) + [one] * (ins.n * ns - len(sb)), ins.s_type, (ins.n, ns))
        D = ins(tensor(a, ins.a_type, (ins.m, kk)), tensor(b, ins.b_type, (ins.n, kk)).T,
                tensor([c], ins.c_type, (ins.m, ins.n)), SA, SBt.T)
        return word(D[0, 0])

    def kept_pairs(conf, case):
        a, b, k = codes(case["a"]), codes(case["b"]), int(conf["k"])
        nib = [w >> 4 * i & 15 for w in codes(case["meta"]) for i in range(8)]
        if conf["sparse"] == "tf32":
            keep = [2 * g + (nib[g] == 0xE) for g in range(k // 2)]
        else:
            keep = [4 * g + p for g in range(k // 4) for p in (nib[g] & 3, nib[g] >> 2 & 3)]
        return [a[i] for i in keep], [b[i] for i in keep]

    def chain(qual, step, a, b, c):
        for s in range(0, len(a), step):
            c = int(dense(qual, a[s:s + step], b[s:s + step], c), 16)
        return c

    out = ["# MMA-Sim (github.com/microsoft/MMA-Sim at c785138) on each case of minimal.txt: D[0, 0] of one",
           f"# instruction with the case in row 0 / column 0; written by gen_mmasim_verdicts.py (torch {torch.__version__}).",
           "# format: <name> class=<n> mmasim=<word> | mmasim=none why=<MMA-Sim has no model of the case>"]
    for line in open(args.minimal):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        conf, case = parse(line)
        kind, at, bt, dt, k = conf["kind"], conf["atype"], conf["btype"], conf["dtype"], int(conf["k"])
        a, b, c = codes(case["a"]), codes(case["b"]), int(case["c"], 16)
        if "sparse" in conf:
            step = {"tf32": 8, "f16": 16, "f8f6f4": 32}[kind]
            qual = f"m64n8k{step}.{dt}.{at}.{bt}"
            ka, kb = kept_pairs(conf, case)
            w = 4 if dt == "f16" else 8
            verdict = ("none why=no_tcgen05.mma.sp_in_MMA-Sim_(isa/nv_ptx/nv_tcgen05mma.py:_dense_K_only);"
                       f"_for_information_its_dense_arithmetic_gives_{chain(qual, step, a, b, c):0{w}x}_on_A_expanded"
                       f"_with_zeros_and_{chain(qual, step, ka, kb, c):0{w}x}_on_the_kept_pairs_only")
        elif "stype" in conf:
            qual = f"m128n8k{k}.block{conf['block']}.{dt}.{at}.{bt}.{conf['stype']}"
            verdict = scaled(qual, a, b, c, codes(case["sa"]), codes(case["sb"]))
        else:
            verdict = dense(f"m64n8k{k}.{dt}.{at}.{bt}", a, b, c)
        out.append(f"{case['name']} class={conf['class']} mmasim={verdict}")
        print(out[-1][:100], file=sys.stderr)
    with open(args.out, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
