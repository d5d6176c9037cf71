# writes scan.ptx (tests/ptx/fastpath_scan): python3 gen_scan.py scan.ptx
# the fast paths of issue 50's test_sort step (Triton's scans and their reads of partial results):
# shfl.sync.up/.down of the whole warp with b = 0-31 (c = 0 up, 31 down; other c and partial warps the
# general path), in place or not, with and without the predicate; ld.shared.v2/.v4 of one address in every
# lane (exec_mem.c ld_same_settled), racing with another warp's stores or not, bytes never written, a
# partial mask, per-warp addresses, the destination the address register, the same instruction three times;
# selp of each width with per-lane predicates, whole and partial warps
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fastpath_rows"))
from ptxgen import PLACE, head, store  # noqa: E402
L = []
a = L.append
a(head(40, 200, 60))
a(PLACE)
a("""  st.shared.v4.b32 [%r12], {%r1, %r4, %r2, %r3};
  st.shared.v4.b32 [%r12+2048], {%r4, %r1, %r3, %r2};
  bar.sync 0;
  mul.wide.u32 %rd2, %r1, 2048;
  add.u64 %rd3, %rd1, %rd2;
  // warp 0, lanes 0-3: stores no barrier orders before the other warps' reads (granules 0, 6, 12, 18)
  setp.eq.u32 %p1, %r3, 0;
  setp.lt.u32 %p2, %r2, 4;
  and.pred %p3, %p1, %p2;
  mul.lo.u32 %r13, %r2, 96;
  add.u32 %r14, %r10, %r13;
  @%p3 st.shared.b32 [%r14+4], %r4;
  setp.lt.u32 %p6, %r2, 20;
  mov.u32 %r20, 0;
  mov.u64 %rd4, %rd3;""")
n = 0


def out(cls, d):
    global n
    store(a, "", cls, d, f"%rd4+{8 * n}", 199)
    n += 1


a("LOOP:")
# ld.shared of one address in every lane
loads = [("v4.b32", "r", "[smem+1056]"),          # granule 2: written, no race
         ("v4.b32", "r", "[smem+1024]"),          # granule 0: warp 0 lane 0's racing store
         ("v2.b32", "r", "[smem+7000]"),          # never written
         ("v2.b64", "rd", "[smem+1104]"),
         ("v4.b16", "h", "[smem+1128]"),
         ("v2.b32", "r", "[smem+1120]"),          # partial mask (lanes 0-19)
         ("v4.b32", "r", "[%r21+256]"),           # one address a warp
         ("v2.b32", "r", "[%r22]"),               # the destination is the address register
         ("v2.b32", "r", "[%r14+8]")]             # lanes apart: the lane loop
a("  shl.b32 %r21, %r3, 4;\n  add.u32 %r21, %r21, %r10;\n  add.u32 %r22, %r10, 1168;")
for i, (ty, cls, at) in enumerate(loads):
    k = 4 if ty.startswith("v4") else 2
    base = 30 + 4 * i if cls != "h" else 10 + 4 * i
    regs = [f"%{cls}{base + j}" for j in range(k)]
    if at == "[%r22]":
        regs[0] = "%r22"
    guard = "@%p6 " if i == 5 else ""
    a(f"  {guard}ld.shared.{ty} {{{', '.join(regs)}}}, {at};")
    for r in regs:
        out(cls, r)
a("""  add.u64 %rd4, %rd4, 8;
  add.u32 %r20, %r20, 1;
  setp.lt.u32 %p7, %r20, 3;
  @%p7 bra LOOP;""")
n += 3
# shfl: the whole warp, c = 0 up / 31 down (the fast form) and others
a("  mul.lo.u32 %r80, %r4, 2246822519;\n  xor.b32 %r81, %r80, %r1;")
reg = 100
for b in (0, 1, 2, 5, 16, 31):
    for mode, c in (("up", 0), ("down", 31), ("up", 31), ("down", 0), ("up", 0x1800), ("bfly", 31)):
        a(f"  shfl.sync.{mode}.b32 %r{reg}|%p8, %r80, {b}, {c}, -1;")
        out("r", f"%r{reg}")
        a(f"  selp.b32 %r{reg + 1}, 1, 0, %p8;")
        out("r", f"%r{reg + 1}")
        a(f"  mov.u32 %r{reg + 2}, %r81;\n  shfl.sync.{mode}.b32 %r{reg + 2}, %r{reg + 2}, {b}, {c}, -1;")
        out("r", f"%r{reg + 2}")
        reg = 100 + (reg - 97) % 90
# a partial warp (lanes 0-15, membermask 0xffff): the general path
a("""  setp.lt.u32 %p9, %r2, 16;
  @!%p9 bra SKIP;
  shfl.sync.up.b32 %r190|%p10, %r80, 3, 0, 0xffff;
  shfl.sync.down.b32 %r191, %r80, 3, 15, 0xffff;
SKIP:""")
out("r", "%r190")
out("r", "%r191")
# selp of each width, per-lane predicates, whole and partial warps
a("""  and.b32 %r192, %r4, 7;
  setp.lt.u32 %p11, %r192, 3;
  selp.b32 %r193, %r80, %r81, %p11;
  cvt.u16.u32 %h30, %r80;
  cvt.u16.u32 %h31, %r81;
  selp.b16 %h32, %h30, %h31, %p11;
  mul.wide.u32 %rd30, %r80, %r81;
  selp.b64 %rd31, %rd30, -7, %p11;
  selp.f32 %r194, 0f3F800000, %r81, %p11;
  mov.u32 %r195, 77;
  @%p6 selp.b32 %r195, %r81, %r80, %p11;
  mov.u32 %r196, %r80;
  selp.b32 %r196, %r196, %r81, %p11;
  mov.u32 %r197, %r81;
  selp.b32 %r197, %r80, %r197, %p11;
  mov.b64 %rd32, %rd30;
  selp.b64 %rd32, %rd32, %rd32, %p11;
  mul.wide.u32 %rd33, %r81, %r4;
  mad.wide.u32 %rd34, %r80, %r81, %rd33;
  mad.wide.s32 %rd35, %r80, %r81, %rd33;
  mad.wide.s32 %rd36, %r80, -2147483648, %rd30;
  mad.wide.u32 %rd37, %r80, 4, %rd1;
  mad.wide.s32 %rd38, %r81, 4, %rd1;
  @%p6 mad.wide.s32 %rd38, %r80, %r4, %rd38;
  cvt.u16.u32 %h33, %r4;
  mad.wide.s16 %r198, %h30, %h31, %r81;
  mad.wide.u16 %r199, %h30, %h33, %r80;""")
out("r", "%r193")
out("h", "%h32")
out("rd", "%rd31")
out("r", "%r194")
out("r", "%r195")
out("r", "%r196")
out("r", "%r197")
out("rd", "%rd32")
for r in range(34, 39):
    out("rd", f"%rd{r}")
out("r", "%r198")
out("r", "%r199")
a("""  ret;
}""")
assert n * 8 <= 2048
open(sys.argv[1], "w").write("\n".join(L) + "\n")
