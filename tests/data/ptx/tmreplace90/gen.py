#!/usr/bin/env python3
"""tensormap.replace.global_stride's unit on the H200 (issue 52): Triton 3.3 writes the stride of its
sm_90a device-side tensor maps shifted right by 4 (PTX ISA 8.4: "workaround for a ptxas bug",
Triton's TMAToLLVM.cpp, gated on PTX <= 8.5), CUTLASS does the same under CUDA < 12.5 ("4 LSBs are not
included"). The same kernel as PTX ISA 8.4 and 8.6 (replace_84.ptx, replace_86.ptx: this script)
builds a map of an 8 x 8 f16 tensor from zeros with global_stride = 32, copies it to a .global map
(tensormap.cp_fenceproxy), loads the 8 x 8 box by TMA and writes it out (128 bytes): with the operand
in bytes the rows are 32 bytes apart, in 16-byte units 512. in.bin: 4096 distinct f16 codes (8 KiB).
Result on the H200 (2026-11-29; its driver's ptxas 13.0 JITs the PTX): both versions 32 bytes apart,
as tc5 computes. ptxas 12.4 (Triton 3.3's for sm_90a) stores the operand 32 into the map's field (its
SASS: STS [map+0xc] of 0x20; the field counts 16 bytes), ptxas 12.8 and 13.0 store 32 >> 4 = 2: the
16-byte reading is ptxas 12.4's, which Triton's and CUTLASS's shifts work around.
gpu/run.sh tmreplace records h100_out.bin; CTest ptx_silicon_tmreplace compares tc5 byte for byte.
Standard library only."""
import os
import struct

here = os.path.dirname(os.path.abspath(__file__))
KERNEL = """.version {v}
.target sm_90a
.address_size 64
.global .align 128 .b8 gmap[128];
.visible .entry replace_{tag}(.param .u64 src, .param .u64 out) {{
 .reg .pred %p<4>; .reg .b32 %r<16>; .reg .b64 %rd<16>;
 .shared .align 128 .b8 smap[128];
 .shared .align 128 .b8 tile[128];
 .shared .align 8 .b64 bar;
 mov.u32 %r1, %tid.x; setp.eq.u32 %p1, %r1, 0;
 mov.u32 %r2, smap; shl.b32 %r3, %r1, 2; add.u32 %r4, %r2, %r3; mov.u32 %r5, 0;
 st.shared.u32 [%r4], %r5;
 bar.warp.sync -1;
 cvt.u64.u32 %rd2, %r2; ld.param.u64 %rd3, [src]; mov.u64 %rd4, 32;
 @%p1 tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%rd2], %rd3;
 @%p1 tensormap.replace.tile.rank.shared::cta.b1024.b32 [%rd2], 1;
 @%p1 tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%rd2], 0, 8;
 @%p1 tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%rd2], 1, 8;
 @%p1 tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%rd2], 0, 8;
 @%p1 tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%rd2], 1, 8;
 @%p1 tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [%rd2], 0, %rd4;
 @%p1 tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%rd2], 0, 1;
 @%p1 tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%rd2], 1, 1;
 @%p1 tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [%rd2], 6;
 @%p1 tensormap.replace.tile.interleave_layout.shared::cta.b1024.b32 [%rd2], 0;
 @%p1 tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [%rd2], 0;
 @%p1 tensormap.replace.tile.fill_mode.shared::cta.b1024.b32 [%rd2], 0;
 bar.warp.sync -1;
 mov.u64 %rd5, gmap;
 tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd5], [%rd2], 128;
 fence.proxy.tensormap::generic.acquire.gpu [%rd5], 128;
 mov.u32 %r6, bar; mov.u32 %r7, tile;
 @%p1 mbarrier.init.shared.b64 [%r6], 1;
 fence.proxy.async.shared::cta;
 bar.warp.sync -1;
 @%p1 mbarrier.arrive.expect_tx.shared.b64 %rd6, [%r6], 128;
 mov.u32 %r8, 0;
 @%p1 cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r7], [%rd5, {{%r8, %r8}}], [%r6];
WAIT: mbarrier.try_wait.parity.shared.b64 %p2, [%r6], 0;
 @!%p2 bra WAIT;
 add.u32 %r9, %r7, %r3; ld.shared.u32 %r10, [%r9];
 ld.param.u64 %rd7, [out]; cvt.u64.u32 %rd8, %r3; add.u64 %rd9, %rd7, %rd8; st.global.u32 [%rd9], %r10;
 ret;
}}
"""
for v, tag in (("8.4", "84"), ("8.6", "86")):
    open(os.path.join(here, f"replace_{tag}.ptx"), "w").write(KERNEL.format(v=v, tag=tag))
open(os.path.join(here, "in.bin"), "wb").write(struct.pack("<4096H", *[0x3c00 + i for i in range(4096)]))
with open(os.path.join(here, "kernels.txt"), "w") as f:
    f.write("# FILE NAME GRID BLOCK SHARED ARG... (gen.py)\n")
    for tag in ("84", "86"):
        f.write(f"replace_{tag}.ptx replace_{tag} 1 32 0 in:in.bin out:128\n")
