# writes shift.ptx (tests/ptx/fastpath_rows): python3 gen_shift.py shift.ptx
# shl, shr.u and shr.s of 16, 32 and 64 bits with each lane's own count 0-80 (past the width too), hashed values, whole
# warps and a partial mask (s53: exec_alu.c shift_rows, the whole warp by rows in AVX2); bfe whose position and length
# differ between lanes above their low byte only (one for the warp: bfe_rows) or in it for one lane
import sys
from ptxgen import head, store
L = []
a = L.append
a(head(40, 60, 60, smem=False))
a("""  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.u32 %r4, %r2, %r3, %r1;
  and.b32 %r5, %r1, 31;
  // the count: (7 ctaid + 3 lane + tid / 32) mod 81
  shr.u32 %r6, %r1, 5;
  mul.lo.u32 %r7, %r2, 7;
  mad.lo.u32 %r7, %r5, 3, %r7;
  add.u32 %r7, %r7, %r6;
  rem.u32 %r8, %r7, 81;
  // a value: a 64-bit hash of the thread
  cvt.u64.u32 %rd2, %r4;
  mul.lo.u64 %rd3, %rd2, -7046029254386353131;
  xor.b64 %rd3, %rd3, 0x9e3779b97f4a7c15;
  shr.u64 %rd4, %rd3, 29;
  xor.b64 %rd3, %rd3, %rd4;
  mul.lo.u64 %rd3, %rd3, 0xbf58476d1ce4e5b9;
  cvt.u32.u64 %r9, %rd3;
  cvt.u16.u64 %h1, %rd3;
  mul.wide.u32 %rd5, %r4, 144;
  add.u64 %rd6, %rd1, %rd5;
  mul.wide.u32 %rd8, %r4, 16;
  add.u64 %rd7, %rd1, 1119744;
  add.u64 %rd7, %rd7, %rd8;
  setp.ne.u32 %p1, %r5, 5;
  setp.lt.u32 %p2, %r5, 29;
  and.pred %p1, %p1, %p2;""")
n = 0
for part in (False, True):
    g = "@%p1 " if part else ""
    for op in ("shl.b", "shr.u", "shr.s"):
        for w, src, cls in ((16, "%h1", "h"), (32, "%r9", "r"), (64, "%rd3", "rd")):
            d = f"%{cls}{20 + n}"
            a(f"  {g}{op}{w} {d}, {src}, %r8;")
            store(a, g, cls, d, f"%rd6+{8 * n}", 40 + n % 18)
            n += 1
# bfe: position 5 + 256 lane and length 7 + 512 lane (the same low bytes), then lane 17's position 6
a("""  shl.b32 %r50, %r5, 8;
  add.u32 %r50, %r50, 5;
  shl.b32 %r51, %r5, 9;
  add.u32 %r51, %r51, 7;
  bfe.u32 %r52, %r9, %r50, %r51;
  bfe.s64 %rd52, %rd3, %r50, %r51;
  setp.eq.u32 %p3, %r5, 17;
  selp.u32 %r53, 6, 5, %p3;
  bfe.s32 %r54, %r9, %r53, %r51;
  bfe.u64 %rd54, %rd3, %r53, 60;
  st.global.b32 [%rd6+128], %r52;
  st.global.b32 [%rd6+132], %r54;
  st.global.b64 [%rd7], %rd52;
  st.global.b64 [%rd7+8], %rd54;""")
a("  ret;\n}")
open(sys.argv[1], "w").write("\n".join(L) + "\n")
