# writes rdrace.ptx (tests/ptx/fastpath_rows): python3 gen_rdrace.py rdrace.ptx
# whole-warp ld.shared (s53: the checker's lanes at once, check_impl.h chk_rd_rows): warp 0 stores into some
# granules with no barrier after (an smem-race for the warps that read them later), the other warps read every
# width, the same instructions three times (a loop), lanes far apart, bytes never written, a partial mask
import sys
from ptxgen import PLACE, head, store
L = []
a = L.append
a(head(80, 160, 80))
a(PLACE)
a("""  st.shared.v4.b32 [%r12], {%r1, %r4, %r2, %r3};
  st.shared.v4.b32 [%r12+2048], {%r4, %r1, %r3, %r2};
  setp.lt.u32 %p5, %r1, 96;
  @%p5 st.shared.v4.b32 [%r12+4096], {%r4, %r4, %r1, %r1};
  bar.sync 0;
  mul.wide.u32 %rd2, %r1, 512;
  add.u64 %rd3, %rd1, %rd2;
  // warp 0: stores no barrier orders before the other warps' reads (lanes 0-3: granules 0, 6, 12, 18; lane 5: 1 byte of granule 40)
  setp.eq.u32 %p1, %r3, 0;
  setp.lt.u32 %p2, %r2, 4;
  and.pred %p3, %p1, %p2;
  mul.lo.u32 %r13, %r2, 96;
  add.u32 %r14, %r10, %r13;
  @%p3 st.shared.b32 [%r14+4], %r4;
  setp.eq.u32 %p4, %r2, 5;
  and.pred %p4, %p4, %p1;
  cvt.u16.u32 %h1, %r4;
  @%p4 st.shared.u8 [%r10+643], %h1;
  mov.u32 %r20, 0;
  mov.u64 %rd4, %rd3;
LOOP:""")
pats = [("shl.b32 %r30, %r2, 2", "b32", "r"),           # 4 lanes a granule (granules 0-7: one races)
        ("shl.b32 %r30, %r2, 1", "b16", "h"),           # 8 lanes a granule
        ("mov.u32 %r30, %r2", "u8", "h"),               # 16 lanes a granule
        ("shl.b32 %r30, %r2, 3", "b64", "rd"),          # 2 lanes a granule
        ("mul.lo.u32 %r30, %r2, 40", "b32", "r"),       # 2.5 granules apart: 80 granules (too far at once)
        ("mul.lo.u32 %r30, %r2, 20; add.u32 %r30, %r30, 608", "b32", "r"),  # granule 40's racing byte (lane 1)
        ("shl.b32 %r30, %r3, 2; add.u32 %r30, %r30, 2048", "b32", "r"),     # one word a warp (a broadcast)
        # after the loop (a warp whose registers hold never-written bytes takes no fast way after):
        ("shl.b32 %r30, %r2, 4; add.u32 %r30, %r30, 5376", "b32", "r"),     # lanes 16-31 never written (lanes 1-31 at once: no)
        ("shl.b32 %r30, %r2, 4; add.u32 %r30, %r30, 5632", "b32", "r"),     # granules 352+: those of threads 96 on never written
        ]
LOOPED = 7
n = 0
for i, (expr, ty, cls) in enumerate(pats):
    if i == LOOPED:
        a(f"""  add.u64 %rd4, %rd4, {8 * n};
  add.u32 %r20, %r20, 1;
  setp.lt.u32 %p7, %r20, 3;
  @%p7 bra LOOP;""")
    a("  " + expr + ";")
    a("  add.u32 %r31, %r30, %r10;")
    d = f"%{cls}{50 + i}"
    guard = "@%p6 " if i == 2 else ""
    if i == 2:
        a("  setp.lt.u32 %p6, %r2, 20;")
    a(f"  {guard}ld.shared.{ty} {d}, [%r31+{(i % 2) * 16}];")
    store(a, guard, cls, d, f"%rd4+{8 * n}", 60 + i)
    n += 1
a("""  ret;
}""")
open(sys.argv[1], "w").write("\n".join(L) + "\n")
