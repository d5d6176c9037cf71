# writes strace.ptx (tests/ptx/fastpath_rows): python3 gen_strace.py strace.ptx
# whole-warp st.shared (s53: the checker's lanes at once, check_impl.h chk_smem_store_rows): stores of every width into
# fresh granules, into granules another warp read with no barrier between (a write-after-read race) or with one, the
# same instructions three times (a loop), lanes far apart, a partial mask, then a store of a value read from bytes never
# written (followed in shared memory) and stores after it
import sys
from ptxgen import PLACE, head
L = []
a = L.append
a(head(20, 100, 20))
a(PLACE)
a("""  cvt.u16.u32 %h1, %r4;
  cvt.u64.u32 %rd5, %r4;
  mul.lo.u64 %rd5, %rd5, 40503;
  st.shared.v4.b32 [%r12], {%r1, %r4, %r2, %r3};
  st.shared.v4.b32 [%r12+2048], {%r4, %r1, %r3, %r2};
  bar.sync 0;
  // every warp reads granules 120-127 (all before the barrier below: the stores there after it are ordered)
  shl.b32 %r13, %r2, 2;
  add.u32 %r14, %r13, %r10;
  ld.shared.b32 %r16, [%r14+1920];
  bar.sync 0;
  // warp 1 reads granules 128-135 (with no barrier between them and the other warps' stores there)
  setp.eq.u32 %p1, %r3, 1;
  mov.u32 %r15, 0;
  @%p1 ld.shared.b32 %r15, [%r14+2048];
  mul.wide.u32 %rd2, %r1, 64;
  add.u64 %rd3, %rd1, %rd2;
  st.global.b32 [%rd3], %r15;
  st.global.b32 [%rd3+4], %r16;
  mov.u32 %r20, 0;
LOOP:""")
pats = [("shl.b32 %r30, %r2, 2; add.u32 %r30, %r30, 4096", "b32", "%r4"),   # fresh granules, 4 lanes each
        ("shl.b32 %r30, %r2, 1; add.u32 %r30, %r30, 2048", "b16", "%h1"),   # granules warp 1 read: a race (warps 0, 2, 3)
        ("add.u32 %r30, %r2, 4608", "u8", "%h1"),                           # 16 lanes a granule
        ("shl.b32 %r30, %r2, 3; add.u32 %r30, %r30, 4864", "b64", "%rd5"),  # 2 lanes a granule
        ("mul.lo.u32 %r30, %r2, 40; add.u32 %r30, %r30, 5376", "b32", "%r4"),  # 80 granules: too far at once
        ("shl.b32 %r30, %r2, 2; add.u32 %r30, %r30, 1920", "b32", "%r1"),   # granules read before the barrier
        ("shl.b32 %r30, %r2, 2; shl.b32 %r31, %r3, 7; add.u32 %r30, %r30, %r31; add.u32 %r30, %r30, 6656", "b32", "%r4"),
        ]
for i, (expr, ty, v) in enumerate(pats):
    a("  " + expr + ";")
    a("  add.u32 %r32, %r30, %r10;")
    guard = ""
    if i == 6:  # a partial mask
        a("  setp.lt.u32 %p2, %r2, 20;")
        guard = "@%p2 "
    a(f"  {guard}st.shared.{ty} [%r32], {v};")
a("""  add.u32 %r20, %r20, 1;
  setp.lt.u32 %p7, %r20, 3;
  @%p7 bra LOOP;
  // a value read from bytes never written, stored (shared memory then holds a followed value), then plain stores
  shl.b32 %r40, %r2, 2;
  add.u32 %r41, %r40, %r10;
  ld.shared.b32 %r42, [%r41+7168];
  st.shared.b32 [%r41+7680], %r42;
  st.shared.b32 [%r41+7936], %r4;
  st.shared.b32 [%r41+4096], %r1;
  bar.sync 0;
  ld.shared.b32 %r50, [%r14+4096];
  ld.shared.b32 %r51, [%r14+2048];
  ld.shared.b32 %r52, [%r14+4608];
  ld.shared.b32 %r53, [%r14+6656];
  ld.shared.b32 %r54, [%r14+7936];
  st.global.v4.b32 [%rd3+16], {%r50, %r51, %r52, %r53};
  st.global.b32 [%rd3+32], %r54;
  ld.shared.b32 %r55, [%r41+7680];
  st.global.b32 [%rd3+36], %r55;
  ret;
}""")
open(sys.argv[1], "w").write("\n".join(L) + "\n")
