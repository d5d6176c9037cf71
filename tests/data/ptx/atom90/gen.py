#!/usr/bin/env python3
"""The vector atomics of sm_90 (issue 50) on silicon and in tc5: writes vec_atom.ptx (one
kernel a form), the inputs and kernels.txt. Deterministic (seed 50).

Forms (PTX ISA 8.1+, "atom" and "red", vector types; .global or a generic address of global
memory): .add.{v2,v4}.f32; .{add,min,max}.noftz.{v2,v4,v8}.{f16,bf16};
.{add,min,max}.noftz.{v2,v4}.{f16x2,bf16x2}; each as atom (old values to d) and as red. Beside
them the scalar forms the vector ones extend, to pin what they share: atom/red .add.f32 on
global memory and atom.add.f32 on shared memory (whether subnormals flush), and
atom.add.noftz.{f16,bf16x2}.

Every thread owns 16 bytes: b (the operand, from the format's b file), a (the memory,
inout: the format's a file) and d (atom's old values, out). 256 threads (2 CTAs of 128), so
each kernel does 4096 16-bit or 1024 32-bit element operations with no two threads on one
address (the result is defined: atomicity is per element, PTX ISA "atom"). The semantics and
scope qualifiers rotate through the forms (Triton's red.global.gpu.relaxed.add.v4.f32 and
atom.global.gpu.acq_rel.add.v4.f32 among them); every fourth form takes a generic address.
"""
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
THREADS, GRID, BLOCK = 256, 2, 128
SLOT = 16

# (exponent bits, mantissa bits) of each element format
FMT = {"f16": (5, 10), "bf16": (8, 7), "f32": (8, 23)}


def special(rng, eb, mb):
    """one element's bits: NaNs (quiet and signalling, random payloads and signs), infinities,
    zeros, subnormals, the largest finite, 1.0, random finite"""
    w = 1 + eb + mb
    sign = rng.getrandbits(1) << (w - 1)
    emax = (1 << eb) - 1
    k = rng.randrange(10)
    if k == 0:
        return sign | (emax << mb) | (1 << (mb - 1)) | rng.getrandbits(mb - 1)
    if k == 1:
        return sign | (emax << mb) | (rng.getrandbits(mb - 1) | 1)
    if k == 2:
        return sign | (emax << mb)
    if k == 3:
        return sign
    if k == 4:
        return sign | (rng.getrandbits(mb) | 1)
    if k == 5:
        return sign | ((emax - 1) << mb) | rng.getrandbits(mb)
    if k == 6:
        return sign | ((emax >> 1) << mb)
    # random finite, mostly of moderate exponent so that sums round and cancel
    e = rng.randrange(1, emax) if k == 7 else rng.randrange(max(1, (emax >> 1) - 6), (emax >> 1) + 6)
    return sign | (e << mb) | rng.getrandbits(mb)


def pair_b(rng, a, eb, mb):
    """b for the memory's a: often a's negation, or a neighbour of it (cancellation), or a
    value a few binades below (rounding ties and sticky bits), else independent"""
    w = 1 + eb + mb
    k = rng.randrange(8)
    if k == 0:
        return a ^ (1 << (w - 1))
    if k == 1:
        return (a ^ (1 << (w - 1))) + rng.choice((-1, 1)) & ((1 << w) - 1)
    if k == 2:
        e = (a >> mb) & ((1 << eb) - 1)
        d = rng.randrange(1, mb + 3)
        if e > d and e < (1 << eb) - 1:
            return (a & ~(((1 << eb) - 1) << mb)) ^ ((e - d) << mb) ^ (rng.getrandbits(1) << (w - 1))
    return special(rng, eb, mb)


def data(rng, fmt):
    eb, mb = FMT[fmt]
    w = 1 + eb + mb
    n = THREADS * SLOT * 8 // w
    a = [special(rng, eb, mb) for _ in range(n)]
    b = [pair_b(rng, x, eb, mb) for x in a]
    code = "<%d%s" % (n, "H" if w == 16 else "I")
    for name, v in (("a", a), ("b", b)):
        with open(os.path.join(HERE, f"{name}_{fmt}.bin"), "wb") as f:
            f.write(struct.pack(code, *v))


SEMS = ["", ".relaxed", ".acq_rel", ".acquire", ".release"]
SCOPES = ["", ".gpu", ".sys", ".cta", ".cluster"]


def load(L, ld, regk, first, n, addr):
    """n elements (16- or 32-bit registers %{regk}first..) from addr: 16-bit ones through
    32-bit words (ptxas has no ld.v8.b16)"""
    if regk == "r":
        regs = ", ".join(f"%r{first + i}" for i in range(n))
        L.append(f"\t{ld}.v{n}.b32 \t{{{regs}}}, [{addr}];" if n > 1 else f"\t{ld}.b32 \t%r{first}, [{addr}];")
        return
    w = n // 2
    L.append(f"\t{ld}.v{w}.b32 \t{{{', '.join(f'%r{16 + i}' for i in range(w))}}}, [{addr}];" if w > 1
             else f"\t{ld}.b32 \t%r16, [{addr}];")
    for i in range(w):
        L.append(f"\tmov.b32 \t{{%h{first + 2 * i}, %h{first + 2 * i + 1}}}, %r{16 + i};")


def store(L, st, regk, first, n, addr):
    if regk == "r":
        regs = ", ".join(f"%r{first + i}" for i in range(n))
        L.append(f"\t{st}.v{n}.b32 \t[{addr}], {{{regs}}};" if n > 1 else f"\t{st}.b32 \t[{addr}], %r{first};")
        return
    w = n // 2
    for i in range(w):
        L.append(f"\tmov.b32 \t%r{16 + i}, {{%h{first + 2 * i}, %h{first + 2 * i + 1}}};")
    L.append(f"\t{st}.v{w}.b32 \t[{addr}], {{{', '.join(f'%r{16 + i}' for i in range(w))}}};" if w > 1
             else f"\t{st}.b32 \t[{addr}], %r16;")


def kernel(name, op, form, vec, typ, ebits, sem, scope, generic, shared=False):
    """one kernel: b and a of this thread's slot, the atomic, d stored (atom)"""
    regk = "h" if ebits == 16 else "r"
    n = vec
    b = ", ".join(f"%{regk}{i}" for i in range(n))
    d = ", ".join(f"%{regk}{i + 8}" for i in range(n))
    L = [f".visible .entry {name}(", "\t.param .u64 p_b,", "\t.param .u64 p_a,"]
    L += ["\t.param .u64 p_d", ")"] if op == "atom" else ["\t.param .u64 p_d", ")"]
    L += ["{", "\t.reg .b16 \t%h<16>;", "\t.reg .b32 \t%r<24>;", "\t.reg .b64 \t%rd<16>;"]
    if shared:
        L.append(f"\t.shared .align 16 .b8 sm[{BLOCK * SLOT}];")
    L += ["\tld.param.u64 \t%rd1, [p_b];", "\tld.param.u64 \t%rd2, [p_a];", "\tld.param.u64 \t%rd3, [p_d];"]
    if not generic:
        L += [f"\tcvta.to.global.u64 \t%rd{i}, %rd{i};" for i in (1, 2, 3)]
    L += ["\tmov.u32 \t%r20, %ctaid.x;", "\tmov.u32 \t%r21, %ntid.x;", "\tmov.u32 \t%r22, %tid.x;",
          "\tmad.lo.s32 \t%r23, %r20, %r21, %r22;", f"\tmul.wide.u32 \t%rd4, %r23, {SLOT};",
          "\tadd.s64 \t%rd5, %rd1, %rd4;", "\tadd.s64 \t%rd6, %rd2, %rd4;", "\tadd.s64 \t%rd7, %rd3, %rd4;"]
    sp = "" if generic else ".global"
    ld = "ld" if generic else "ld.global"
    st = "st" if generic else "st.global"
    vq = f".v{n}" if n > 1 else ""
    if n > 1:
        load(L, ld, regk, 0, n, "%rd5")
    if shared:
        # the memory's slot copied to shared memory, the atomic there, copied back
        L += ["\tmul.wide.u32 \t%rd8, %r22, 16;", "\tmov.u64 \t%rd9, sm;", "\tadd.s64 \t%rd9, %rd9, %rd8;",
              "\tld.global.v4.b32 \t{%r16, %r17, %r18, %r19}, [%rd6];",
              "\tst.shared.v4.b32 \t[%rd9], {%r16, %r17, %r18, %r19};"]
    ops = [(f"{op}{sem}{scope}{sp}.{form}{vq}.{typ}", 0)] if n > 1 else []
    if n == 1:
        # scalar: every element of the slot in turn
        per = SLOT * 8 // ebits
        load(L, ld, regk, 0, per, "%rd5")
        for i in range(per):
            where = f"[%rd9+{i * ebits // 8}]" if shared else f"[%rd6+{i * ebits // 8}]"
            s = ".shared" if shared else sp
            if op == "atom":
                L.append(f"\tatom{sem}{scope}{s}.{form}.{typ} \t%{regk}{i + 8}, {where}, %{regk}{i};")
            else:
                L.append(f"\tred{sem}{scope}{s}.{form}.{typ} \t{where}, %{regk}{i};")
        if shared:
            L += ["\tld.shared.v4.b32 \t{%r16, %r17, %r18, %r19}, [%rd9];",
                  "\tst.global.v4.b32 \t[%rd6], {%r16, %r17, %r18, %r19};"]
        if op == "atom":
            store(L, st, regk, 8, per, "%rd7")
    else:
        text = ops[0][0]
        if op == "atom":
            L.append(f"\t{text} \t{{{d}}}, [%rd6], {{{b}}};")
            store(L, st, regk, 8, n, "%rd7")
        else:
            L.append(f"\t{text} \t[%rd6], {{{b}}};")
    L += ["\tret;", "}", ""]
    return "\n".join(L)


def main():
    rng = random.Random(50)
    for fmt in ("f16", "bf16", "f32"):
        data(rng, fmt)
    forms = []  # (op, form, vec, type, element bits, data format)
    for op in ("atom", "red"):
        for v in (2, 4):
            forms.append((op, "add", v, "f32", 32, "f32"))
        for t in ("f16", "bf16"):
            for v in (2, 4, 8):
                for o in ("add", "min", "max"):
                    forms.append((op, f"{o}.noftz", v, t, 16, t))
        for t in ("f16x2", "bf16x2"):
            for v in (2, 4):
                for o in ("add", "min", "max"):
                    forms.append((op, f"{o}.noftz", v, t, 32, t[:-2]))
    ptx = [".version 8.1", ".target sm_90a", ".address_size 64", ""]
    man = ["# FILE NAME GRID BLOCK SHARED ARG... (gen.py; args as tc5 run's: in:FILE inout:FILE out:BYTES)"]
    nbytes = THREADS * SLOT
    for i, (op, form, v, t, eb, fmt) in enumerate(forms):
        # Triton's two forms exactly; the others rotate through the qualifiers
        if (op, form, v, t) == ("red", "add", 4, "f32"):
            sem, scope, generic = ".relaxed", ".gpu", False
            txt_scope_first = True
        elif (op, form, v, t) == ("atom", "add", 4, "f32"):
            sem, scope, generic = ".acq_rel", ".gpu", False
            txt_scope_first = True
        else:
            sems = SEMS if op == "atom" else ["", ".relaxed", ".release"]
            sem, scope, generic = sems[i % len(sems)], SCOPES[(i // 2) % len(SCOPES)], i % 4 == 3
            txt_scope_first = False
        name = f"{op}_{form.split('.')[0]}_v{v}_{t}"
        k = kernel(name, op, form, v, t, eb, sem, scope, generic)
        if txt_scope_first:  # Triton writes the scope before the semantics
            k = k.replace(f"{op}{sem}{scope}.global", f"{op}.global{scope}{sem}")
        ptx.append(k)
        man.append(f"vec_atom.ptx {name} {GRID} {BLOCK} 0 in:b_{fmt}.bin inout:a_{fmt}.bin out:{nbytes}")
    # the scalar forms beside them
    for op, form, t, eb, fmt, shared in (("atom", "add", "f32", 32, "f32", False), ("red", "add", "f32", 32, "f32", False),
                                         ("atom", "add", "f32", 32, "f32", True),
                                         ("atom", "add.noftz", "f16", 16, "f16", False),
                                         ("red", "add.noftz", "bf16x2", 32, "bf16", False)):
        name = f"{op}_{form.split('.')[0]}_{t}{'_shared' if shared else ''}"
        ptx.append(kernel(name, op, form, 1, t, eb, "", "", False, shared))
        man.append(f"vec_atom.ptx {name} {GRID} {BLOCK} 0 in:b_{fmt}.bin inout:a_{fmt}.bin out:{nbytes}")
    with open(os.path.join(HERE, "vec_atom.ptx"), "w") as f:
        f.write("// generated by gen.py (issue 50): the vector atom/red forms of sm_90, one kernel a form\n")
        f.write("\n".join(ptx))
    with open(os.path.join(HERE, "kernels.txt"), "w") as f:
        f.write("\n".join(man) + "\n")


if __name__ == "__main__":
    main()
