# writes race.ptx (tests/data/ptx/fastpath): python3 gen_race.py race.ptx
# reads of shared granules by several warps (the read slots r[0]/r[1]), then stores that race with some of them
import sys
L = []
a = L.append
a(""".version 8.7
.target sm_100a
.address_size 64
.extern .shared .align 16 .b8 smem[];
.visible .entry k(.param .u64 out) {
  .reg .pred %p<16>;
  .reg .b32 %r<200>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 31;
  shr.u32 %r3, %r1, 5;
  mov.u32 %r10, smem;
  add.u32 %r10, %r10, 1024;
  shl.b32 %r11, %r1, 4;
  add.u32 %r12, %r10, %r11;
  mul.lo.u32 %r4, %r1, 2654435761;
  st.shared.v4.b32 [%r12], {%r1, %r4, %r2, %r3};
  st.shared.v4.b32 [%r12+2048], {%r4, %r1, %r3, %r2};
  bar.sync 0;
  mul.wide.u32 %rd2, %r1, 256;
  add.u64 %rd3, %rd1, %rd2;""")
reg = 20
# patterns: byte offset per lane as an expression of lane (r2) and warp (r3)
pats = [("shl.b32 %r{t}, %r2, 2", 4, "b32"),                # 4 lanes a granule
        ("shl.b32 %r{t}, %r2, 3", 4, "b32"),                # 2 lanes a granule, holes
        ("shl.b32 %r{t}, %r2, 4", 16, "v4.b32"),            # one granule a lane
        ("and.b32 %r{t}, %r2, 7; shl.b32 %r{t}, %r{t}, 2", 4, "b32"),  # 8 distinct words, repeated
        ("mov.u32 %r{t}, 40", 8, "v2.b32"),                 # one address for all
        ("shl.b32 %r{t}, %r2, 1", 2, "u16"),
        ("xor.b32 %r{t}, %r2, 9; shl.b32 %r{t}, %r{t}, 3", 8, "v2.b32")]
out = 0
for i, (expr, n, ty) in enumerate(pats):
    for w in range(4):
        if (i + w) % 3 == 2: continue   # some warps skip some patterns
        t = reg; reg += 1
        a(f"  setp.eq.u32 %p1, %r3, {w};")
        a("  " + expr.replace("{t}", str(t)) + ";")
        a(f"  add.u32 %r{t}, %r{t}, %r10;")
        base = 2048 * (i % 2)
        if ty.startswith("v4"):
            d = [reg, reg + 1, reg + 2, reg + 3]; reg += 4
            a(f"  @%p1 ld.shared.{ty} {{%r{d[0]}, %r{d[1]}, %r{d[2]}, %r{d[3]}}}, [%r{t}+{base}];")
        elif ty.startswith("v2"):
            d = [reg, reg + 1]; reg += 2
            a(f"  @%p1 ld.shared.{ty} {{%r{d[0]}, %r{d[1]}}}, [%r{t}+{base}];")
        else:
            d = [reg]; reg += 1
            a(f"  @%p1 ld.shared.{ty} %r{d[0]}, [%r{t}+{base}];")
        for x in d:
            if out < 60:
                a(f"  @%p1 st.global.b32 [%rd3+{4*out}], %r{x};"); out += 1
# stores racing with some of the reads (no barrier): warp 3 stores granules 0..31 of both halves, warp 1 a few
a("  setp.eq.u32 %p2, %r3, 3;")
a("  @%p2 st.shared.b32 [%r12], %r4;")
a("  @%p2 st.shared.v2.b32 [%r12+2048], {%r4, %r1};")
a("  setp.eq.u32 %p3, %r3, 1;")
a("  and.b32 %r190, %r2, 3;")
a("  shl.b32 %r191, %r190, 2;")
a("  add.u32 %r192, %r10, %r191;")
a("  @%p3 st.shared.b32 [%r192+8], %r1;")
a("  bar.sync 0;")
a("  ld.shared.b32 %r193, [%r12+4];")
a("  st.global.b32 [%rd3+248], %r193;")
a("  ret;\n}")
L[0] = L[0].replace(".reg .b32 %r<200>;", f".reg .b32 %r<{max(reg, 200) + 1}>;")
open(sys.argv[1], "w").write("\n".join(L) + "\n")
