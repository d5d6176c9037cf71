# the pieces gen_rdrace.py, gen_strace.py and gen_shift.py share (one place): the module's header with its
# registers, the threads' place and shared-memory base, and a value's store to global memory by its register class
def head(h, r, rd, smem=True):
    """.version .. .entry k(out) { and the registers: %p<16> (%p<4> without shared memory), %h<h>, %r<r>, %rd<rd>"""
    return "\n".join([".version 8.7", ".target sm_100a", ".address_size 64"] +
                     ([".extern .shared .align 16 .b8 smem[];"] if smem else []) +
                     [".visible .entry k(.param .u64 out) {", f"  .reg .pred %p<{16 if smem else 4}>;",
                      f"  .reg .b16 %h<{h}>;", f"  .reg .b32 %r<{r}>;", f"  .reg .b64 %rd<{rd}>;",
                      "  ld.param.u64 %rd1, [out];", "  mov.u32 %r1, %tid.x;"])


# %r2 the lane, %r3 the warp, %r10 shared memory past the reserved KiB, %r12 the thread's 16 bytes there, %r4 a hash
PLACE = """  and.b32 %r2, %r1, 31;
  shr.u32 %r3, %r1, 5;
  mov.u32 %r10, smem;
  add.u32 %r10, %r10, 1024;
  shl.b32 %r11, %r1, 4;
  add.u32 %r12, %r10, %r11;
  mul.lo.u32 %r4, %r1, 2654435761;"""


def store(a, guard, cls, d, at, tmp):
    """st.global of register d (class h, r or rd) at address text `at`; a 16-bit one widened into %r`tmp` first"""
    if cls == "h":
        a(f"  cvt.u32.u16 %r{tmp}, {d};")
        a(f"  {guard}st.global.b32 [{at}], %r{tmp};")
    elif cls == "rd":
        a(f"  {guard}st.global.b64 [{at}], {d};")
    else:
        a(f"  {guard}st.global.b32 [{at}], {d};")
