#!/usr/bin/env python3
"""Writes src/timing/params_h200.def and params_h100.def (issue 47) from the
lent H200's unit-level microbenchmarks (tests/data/timing/h200_micro.tsv, run 3,
written by gpu/run.sh timing-micro; runs 1 and 2 in h200_micro_run1.tsv, _run2.tsv; run 4's
sections mma, cpasync, l2warm and l1 in h200_micro_run4.tsv; run 5's in _run5.tsv; run 6's intf and alu in
_run6.tsv: issue_fsel, fsel_alu_pipe, and issue_queue through scripts/timing_intf_fit.py's fit) and the
vendor's datasheets. Every row says where its number comes from; no row is
fitted to a kernel-level time. The H100 carries the SM-level numbers of the
same GH100 SM measured on the H200 and its own memory (3.35 TB/s HBM3).
usage: timing_params_hopper.py [--check]   (--check: exit 1 if the files differ)"""
import os
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data", "timing")


def micro(name):
    m = {}
    for line in open(os.path.join(DATA, name)):
        if line.startswith("#") or line.startswith("key\t"):
            continue
        k, v, u, how = line.rstrip("\n").split("\t")
        m[k] = float(v)
    return m


M, M2, M1 = micro("h200_micro.tsv"), micro("h200_micro_run2.tsv"), micro("h200_micro_run1.tsv")
M4 = micro("h200_micro_run4.tsv")  # run 4 (t47h): mma.sync, cp.async pipelines, L2 residency across re-launches, L1
M5 = micro("h200_micro_run5.tsv")  # run 5 (t47h2): the softmax row's units, cp.async zero-fill, re-launched write and copy streams
M6 = micro("h200_micro_run6.tsv")  # run 6 (t47r): issue/latency interference (intf) and the compare/select/min/max issue rates (alu)
M8 = micro("h200_micro_run8.tsv")  # run 8 (t47s): FADD/FMUL finite, IMAD mixes, a loop trip
M10 = micro("h200_micro_run10.tsv")  # run 10 (t47v): the MUFU.EX2 share of a fixed 64-instruction trip (mufu)


def meas4(key, note=""):
    return f"{SRC4} {key}{'; ' + note if note else ''})"


def meas5(key, note=""):
    return f"{SRC5} {key}{'; ' + note if note else ''})"


def l2_write_rate():
    """a re-launched (warm) write stream's rate, B/clk: the slope between its 8 and 32 MiB points (the
    launch's own cost cancels); the read stream's slope between 8 and 24 MiB beside it"""
    w8, w32 = M5["l2warm_write_us_8mib"], M5["l2warm_write_us_32mib"]
    wr = 24 * 1048576 / ((w32 - w8) * 1e-6) / (CLK * 1e6)
    r8, r24 = M4["l2warm_read_us_8mib"], M4["l2warm_read_us_24mib"]
    rd = 16 * 1048576 / ((r24 - r8) * 1e-6) / (CLK * 1e6)
    return wr, rd


def l2_resident():
    """the largest working set (MiB) whose graph-replayed read stream stays on the L2 line: the
    line through the 8 and 24 MiB points, within 5 %; scanning up, the first size beyond stops it"""
    sizes = sorted(int(k[len("l2warm_read_us_"):-3]) for k in M4 if k.startswith("l2warm_read_us_"))
    t = {m: M4[f"l2warm_read_us_{m}mib"] for m in sizes}
    slope = (t[24] - t[8]) / 16
    res = 8
    for m in sizes:
        if m < 8:
            continue
        if t[m] > 1.05 * (t[8] + slope * (m - 8)):
            break
        res = m
    return res, slope, t


def tma_intercept(source="l2"):
    """the zero-byte intercept of one TMA load's time from L2 (source "l2") or HBM ("hbm", t47u) under every
    SM's load: least squares over h200_tma_loaded.tsv's rows of that source, 132 CTAs, 1 stage (one box in
    flight); (intercept, B/clk, points)"""
    pts = []
    for line in open(os.path.join(DATA, "h200_tma_loaded.tsv")):
        f = line.rstrip("\n").split("\t")
        if line.startswith("#") or f[0] == "source":
            continue
        if f[0] == source and f[1] == "132" and f[3] == "1":
            pts.append((int(f[2]), float(f[6])))
    pts.sort()
    n = len(pts)
    mx, my = sum(b for b, _ in pts) / n, sum(t for _, t in pts) / n
    slope = sum((b - mx) * (t - my) for b, t in pts) / sum((b - mx) ** 2 for b, _ in pts)
    return my - slope * mx, 1 / slope, pts


CLK = M["clock_mhz"]
SRC = f"measured: gpu/run.sh timing-micro on the lent H200 at {CLK:.0f} MHz SM clock (tests/data/timing/h200_micro.tsv"
SRC4 = SRC.replace("h200_micro.tsv", "h200_micro_run4.tsv")
SRC5 = SRC.replace("h200_micro.tsv", "h200_micro_run5.tsv")
SRC6 = SRC.replace("h200_micro.tsv", "h200_micro_run6.tsv")
SRC8 = SRC.replace("h200_micro.tsv", "h200_micro_run8.tsv")
SRC10 = SRC.replace("h200_micro.tsv", "h200_micro_run10.tsv")


def fit_sfu_fp32():
    """sfu_fp32_clk from run 10's mufu span rows (t47v): a trip is 4 x (k MUFU.EX2 + 16 - k FFMA or SEL) and the loop's
    UIADD3, ISETP, BRA (67 dispatches, the device SASS); at C = 4, 8, 16 CTAs an SM the span per CTA is the scheduler's
    work a warp-trip, max(dispatch 67, SFU 8 M, FP32 F + c M, ALU 2 S + 2) with M = 4k MUFU, F FFMA, S SEL. The c (clk of
    the FP32 pipe a MUFU holds) of least worst |error| over the 54 rows, 0 ... 8 by 0.5 (ties: the smaller median);
    returns (c, median %, worst %, worst % at c = 0)"""
    def err(c):
        e = []
        for mix in ("ffma", "sel"):
            for k in (0, 1, 2, 3, 4, 6, 8, 12, 16):
                for C in (4, 8, 16):
                    m, o = 4 * k, 64 - 4 * k
                    fp, alu = (o + c * m, 2) if mix == "ffma" else (c * m, 2 * o + 2)
                    meas = M10[f"mufu_{mix}_k{k}_c{C}_span"] / C
                    e.append(abs(max(67, 8 * m, fp, alu) - meas) / meas * 100)
        return statistics.median(e), max(e)
    best = min((err(c / 2)[1], err(c / 2)[0], c / 2) for c in range(17))
    return best[2], best[1], best[0], err(0)[1]


def meas(key, note=""):
    return f"{SRC} {key}{'; ' + note if note else ''})"


def r(x, d=0):
    return round(x, d) if d else int(round(x))


HEAD = """/* tc5 timing model — parameters of the NVIDIA {what}
 * WRITTEN BY scripts/timing_params_hopper.py from tests/data/timing/h200_micro.tsv: edit the script.
 * Format (owned by src/timing, read by params.c through an X-macro):
 *   TM_PARAM(name, value, unit, provenance)
 * One row per parameter; every GPU's file has the same names in any order
 * (params.c checks). Provenance is a string that says where the number
 * comes from: "datasheet: ..." (the vendor's published figure),
 * "derived: ..." (arithmetic on other rows, shown), "published-ubench:
 * ..." (a unit-level microbenchmark someone published, cited),
 * "measured: gpu/run.sh ..." (the project's own unit-level microbenchmark
 * on a lent GPU), or "estimate: ..." (a placeholder until measured; the
 * reason it is plausible). Never a value fitted to a kernel-level figure.
 * Cycles are SM clock cycles at `clock_ghz`. */
"""


def rows(gpu):
    h200 = gpu == "h200"
    same = "" if h200 else "H200 measurement, same GH100 SM: "
    out = []

    def P(name, value, unit, prov):
        if not h200 and prov.startswith("measured"):
            prov = same + prov
        out.append(f'TM_PARAM({name}, {value}, "{unit}", "{prov}")')

    wg = M["wgmma_f16_n256_w2"]
    P("sm_count", 132, "SMs", f"datasheet: {'H200 SXM' if h200 else 'H100 SXM5'}, 132 SMs (cudaGetDeviceProperties on the lent H200: 132)")
    if h200:
        P("clock_ghz", r(CLK / 1000, 3), "GHz", meas("clock_mhz", "clock64 over %globaltimer with every SM busy; nvidia-smi read 1935-1980 MHz while the validation launches ran, 700 W limit"))
        P("hbm_bytes_per_s", "4.8e12", "B/s", "datasheet: H200 SXM HBM3e, 4.8 TB/s")
    else:
        P("clock_ghz", r(CLK / 1000, 3), "GHz", meas("clock_mhz", "the H100 SXM5's max boost is also 1980 MHz (datasheet); not measured on an H100"))
        P("hbm_bytes_per_s", "3.35e12", "B/s", "datasheet: H100 SXM5 HBM3, 3.35 TB/s (not measured: no H100 lent)")
    reads = [m["hbm_read_bytes_per_s"] for m in (M1, M2, M)]
    eff = sum(reads) / len(reads) / 4.8e12
    P("hbm_efficiency", r(eff, 3), "fraction",
      f"{SRC} hbm_read_bytes_per_s: 4 GiB read stream, " + ", ".join(f"{x / 1e12:.2f}" for x in reads) +
      f" TB/s in three runs, mean / 4.8 TB/s; a copy stream moved {M['hbm_copy_bytes_per_s'] / 1e12:.2f} TB/s (read+write, "
      f"{M['hbm_copy_bytes_per_s'] / 4.8e12:.2f})" + ("" if h200 else "; HBM3e's share carried to HBM3, not measured") + ")")
    cp = M["hbm_copy_bytes_per_s"] / 4.8e12
    wr = 1 / (2 / cp - 1 / eff)
    P("hbm_write_efficiency", r(wr, 3), "fraction",
      f"derived: {SRC} hbm_copy_bytes_per_s: a copy stream moved {M['hbm_copy_bytes_per_s'] / 1e12:.2f} TB/s read+write ({cp:.3f} of 4.8 TB/s); "
      f"equal read and write bytes at read efficiency {eff:.3f} leave 1 / (2 / {cp:.3f} - 1 / {eff:.3f}) = {wr:.3f} for writes"
      + ("" if h200 else "; HBM3e's share carried to HBM3, not measured") + ")")
    P("l2_bytes", 50331648, "B", f"datasheet: {'H200 SXM' if h200 else 'H100 SXM5'}, 50 MB L2")
    l2 = M["tma2d_bytes_per_clk_allsm_l2"] * 132
    P("l2_bytes_per_clk", r(l2), "B/clk",
      f"{SRC} tma2d_bytes_per_clk_allsm_l2 x 132 SMs: 2-D tensor-map TMA from a 16 MiB L2-resident set on every SM, "
      f"{M['tma2d_bytes_per_clk_allsm_l2']:.1f} B/clk/SM, the highest L2 read rate a valid unit benchmark reached; "
      f"plain ld.global.cg.v4 loops reached {M1['l2_bytes_per_clk']:.0f}, {M2['l2_bytes_per_clk']:.0f}, {M['l2_bytes_per_clk']:.0f} B/clk "
      "(about one load in flight per thread); the 8-loads-per-thread rows of run 3 are invalid)")
    P("l2_latency", r(M["l2_latency"]), "clk", meas("l2_latency", f"pointer chase, 8 MiB set walked whole first; 1 MiB set {M['l2_latency_1mib']:.0f}"))
    P("dram_latency", r(M["dram_latency"]), "clk", meas("dram_latency", f"pointer chase from cold, 64 MiB set after a 1 GiB eviction pass; 2 GiB set (TLB misses) {M['dram_latency_tlb']:.0f}" + ("" if h200 else "; HBM3e, not HBM3")))
    for name, val, unit, prov in [
        ("smem_per_sm", 233472, "B", "datasheet: 228 KB shared memory per SM (CUDA occupancy calculator, cc 9.0)"),
        ("smem_per_cta_reserved", 1024, "B", "datasheet: 1 KB of shared memory reserved per CTA (CUDA programming guide, cc 9.0)"),
        ("regs_per_sm", 65536, "regs", "datasheet: 64K 32-bit registers per SM (cc 9.0)"),
        ("reg_alloc_unit", 256, "regs", "datasheet: registers are allocated per warp in units of 256 (occupancy calculator, cc 9.0)"),
        ("max_threads_per_sm", 2048, "threads", "datasheet: cc 9.0"),
        ("max_ctas_per_sm", 32, "CTAs", "datasheet: cc 9.0"),
        ("tmem_cols_per_sm", 0, "columns", "datasheet: Hopper has no Tensor Memory (tcgen05 is sm_100a's): occupancy has no Tensor Memory bound (t47u)"),
        ("schedulers", 4, "per SM", "datasheet: 4 warp schedulers (SM sub-partitions) per SM"),
    ]:
        P(name, val, unit, prov)
    P("issue_int", r(M["issue_int_lop3"]), "clk/warp-insn", meas("issue_int_lop3", f"LOP3 {M['issue_int_lop3']:.2f}, IMAD {M['issue_int_mad']:.2f}; add.u32 chains became IADD3+IMAD.IADD on two pipes: {M['issue_int_add']:.2f}") + "; run 6 (" + SRC6.split("(", 1)[1] + " issue_*: " + ", ".join(f"{n} {M6['issue_' + k]:.2f}" for n, k in (("SEL", "sel"), ("IMNMX", "imnmx"), ("ISETP+SEL", "isetp_sel"), ("SHF", "shf"), ("PRMT", "prmt"))) + ")")
    P("issue_fp32", r(M["issue_fp32_fma"]), "clk/warp-insn", meas("issue_fp32_fma", f"FFMA {M['issue_fp32_fma']:.3f}"))
    P("issue_fp16x2", r(M["issue_fp16x2_fma"]), "clk/warp-insn", meas("issue_fp16x2_fma", f"HFMA2 {M['issue_fp16x2_fma']:.3f}"))
    P("issue_fp64", r(M["issue_fp64_fma"]), "clk/warp-insn", meas("issue_fp64_fma", f"DFMA {M['issue_fp64_fma']:.3f}"))
    P("issue_sfu", r(M["issue_sfu_ex2"]), "clk/warp-insn", meas("issue_sfu_ex2", f"MUFU ex2/rsqrt/tanh all {M['issue_sfu_ex2']:.3f}"))
    P("issue_conv", r(M["issue_cvt_f32_s32"]), "clk/warp-insn", meas("issue_cvt_f32_s32", f"F2I and I2F {M['issue_cvt_f32_s32']:.2f}: conversions between integer and float; float-width conversions: issue_conv_float"))
    P("issue_conv_float", r(M["issue_cvt_f16_pair"]), "clk/warp-insn", meas("issue_cvt_f16_pair", f"cvt between float widths (f32<->f16/bf16: F2FP.PACK, HADD2.F32) {M['issue_cvt_f16_pair']:.2f}"))
    P("issue_other", 1, "clk/warp-insn", "estimate: moves, branches, predicates, fences at one warp-instruction per clock (not measured)")
    P("issue_shfl", r(M["issue_shfl_bfly"]), "clk/warp-insn", meas("issue_shfl_bfly", f"SHFL.BFLY {M['issue_shfl_bfly']:.2f}; votes and the other warp collectives charged the same (not measured)"))
    P("lat_alu", r(M["lat_fp32_fma"]), "clk", meas("lat_fp32_fma", f"FFMA chain {M['lat_fp32_fma']:.2f}"))
    P("lat_fp64", r(M["lat_fp64_fma"]), "clk", meas("lat_fp64_fma", f"DFMA chain {M['lat_fp64_fma']:.2f}"))
    P("lat_sfu", r(M["lat_sfu_ex2"]), "clk", meas("lat_sfu_ex2", f"MUFU.EX2 chain {M['lat_sfu_ex2']:.2f}"))
    P("lat_conv", r(M["lat_cvt_f32_s32"]), "clk", meas("lat_cvt_f32_s32", f"F2I/I2F chain {M['lat_cvt_f32_s32']:.2f} per conversion"))
    P("lat_shfl", r(M["lat_shfl_bfly"]), "clk", meas("lat_shfl_bfly", f"SHFL.BFLY chain {M['lat_shfl_bfly']:.2f}"))
    P("lat_smem", r(M["lat_smem"]), "clk", meas("lat_smem", f"ld.shared pointer chase {M['lat_smem']:.2f}, the chase's address arithmetic included"))
    P("smem_bytes_per_clk", r(M["smem_bytes_per_clk"]), "B/clk", meas("smem_bytes_per_clk", f"ld.volatile.shared.v4 {M['smem_bytes_per_clk']:.1f} B/clk/SM; 32-bit loads with lanes 2^k words apart take 2^k times as long (smem_u32_stride*)"))
    P("lat_atomic", r(M["lat_atomic"]), "clk", meas("lat_atomic", "dependent atomicAdd chain on global, one thread"))
    P("lat_local", 260, "clk", "estimate: local memory behind L1/L2 (not measured)")
    P("lat_bar", r(M["lat_bar_128"]), "clk", meas("lat_bar_128", f"bar.sync back to back, 4 warps; 8 warps {M['lat_bar_256']:.1f}, 32 warps {M['lat_bar_1024']:.1f}"))
    P("lat_bar_per_warp", r((M["lat_bar_1024"] - M["lat_bar_128"]) / 28, 1), "clk/warp",
      meas("lat_bar_1024", f"bar.sync 0 back to back: {M['lat_bar_128']:.2f}, {M['lat_bar_256']:.2f}, {M['lat_bar_1024']:.2f} clk at 4, 8, 32 warps "
           f"(lat_bar_128, lat_bar_256, lat_bar_1024), one line: ({M['lat_bar_1024']:.2f} - {M['lat_bar_128']:.2f}) / 28 clk for every warp "
           "the barrier releases beyond 4 (t47b2)"))
    P("lat_mbar", r(M["lat_mbar"]), "clk", meas("lat_mbar", "mbarrier.arrive then try_wait.parity of that phase, one thread"))
    a, bpc, pts = tma_intercept()
    P("tma_latency", r(a), "clk",
      "measured: gpu/run.sh timing-tma-loaded on the lent H200 (tests/data/timing/h200_tma_loaded.tsv, source l2, 132 CTAs, 1 stage: "
      f"one 2-D box in flight on every SM, {', '.join(f'{b // 1024} KiB {t:.1f}' for b, t in pts)} clk issue to completion): "
      f"the least-squares line's zero-byte intercept, {a:.1f} clk + bytes / {bpc:.1f} B/clk; the model adds bytes / the SM's TMA rate "
      f"itself, so this is the latency without the transfer (was {M['tma2d_latency_16384']:.0f}, h200_micro.tsv tma2d_latency_16384: "
      "a whole 16 KiB box, transfer included, counted twice)")
    a, bpc, pts = tma_intercept("hbm")
    P("tma_latency_dram", r(a), "clk",
      "measured: gpu/run.sh timing-tma-loaded on the lent H200 (tests/data/timing/h200_tma_loaded.tsv, source hbm (a 2 GiB set, "
      f"each box once), 132 CTAs, 1 stage: {', '.join(f'{b // 1024} KiB {t:.1f}' for b, t in pts)} clk): the least-squares line's "
      f"zero-byte intercept, {a:.1f} clk + bytes / {bpc:.1f} B/clk, the L2-miss counterpart of tma_latency (same rows, same fit); "
      "gpu/run.sh tma-lat (tests/data/timing/h200_tma_latency.tsv, t47u: a chain of dependent loads 64 KiB apart after an L2 "
      "eviction) gives 836 clk one SM alone and 845 every SM, from L2 330 and 310: a miss costs 2.4-2.7 times a hit; the model "
      "takes the mean of the two for a launch whose footprint exceeds L2, as for ld.global and cp.async (docs/timing.md, t47u)")
    P("tma_bytes_per_clk", r(M["tma2d_bytes_per_clk_1sm_l2"], 1), "B/clk", meas("tma2d_bytes_per_clk_1sm_l2", f"cp.async.bulk.tensor.2d, 16 KiB boxes x 8 in flight, one SM alone from L2 (every SM at once {M['tma2d_bytes_per_clk_allsm_l2']:.1f}); 1-D cp.async.bulk {M['tma_bytes_per_clk_1sm_l2']:.1f}"))
    one = [M4[k] for k in ("cpasync_1sm_s2_l2", "cpasync_1sm_s4_l2", "cpasync_1sm_s8_l2", "cpasync_1sm_s4_hbm", "cpasync_1sm_s8_hbm",
                           "cpasync_allsm_s2_l2", "cpasync_allsm_s4_l2", "cpasync_allsm_s8_l2")]
    P("cp_async_bytes_per_clk_cta", r(M4["cpasync_1sm_s4_l2"], 1), "B/clk", meas4("cpasync_1sm_s4_l2",
      f"one CTA's cp.async.cg stream (128 threads x 8 x 16 B a stage, 4 stages in flight) from L2; 1 CTA a SM at 2, 4, 8 stages, "
      f"L2 or DRAM, one SM or every SM: {min(one):.1f}-{max(one):.1f} B/clk; 2, 3 and 8 CTAs a SM on every SM: "
      f"{M4['cpasync_allsm_2cta_s4_l2']:.1f}, {M4['cpasync_allsm_3cta_s4_l2']:.1f}, {M4['cpasync_allsm_8cta64_s4_l2']:.1f} B/clk/SM (the SM's L2 share)"))
    P("cp_async_latency_l2", r(M4["cpasync_lat_512_l2"]), "clk", meas4("cpasync_lat_512_l2",
      f"cp.async.cg of 512 B (a warp x 16 B), commit_group, wait_group 0, repeated, from a 16 MiB L2-resident set; 16 KiB (128 threads x 8): {M4['cpasync_lat_16k_l2']:.0f}"))
    P("cp_async_latency_dram", r(M4["cpasync_lat_512_hbm"]), "clk", meas4("cpasync_lat_512_hbm",
      f"the same from a 4 GiB set (DRAM); 16 KiB: {M4['cpasync_lat_16k_hbm']:.0f}"))
    P("tc_flops_per_clk", r(wg), "FLOP/clk/SM", meas("wgmma_f16_n256_w2", f"wgmma m64n256k16 f16/bf16 -> f32, 2 warpgroups/SM, every SM; 1 warpgroup {M['wgmma_f16_n256_w1']:.0f}; datasheet 4096"))
    P("tc_tf32_scale", r(M["wgmma_tf32_n256_w2"] / wg, 3), "x bf16", meas("wgmma_tf32_n256_w2", f"{M['wgmma_tf32_n256_w2']:.0f} / {wg:.0f}"))
    P("tc_fp8_scale", r(M["wgmma_e4m3_n256_w2"] / wg, 3), "x bf16", meas("wgmma_e4m3_n256_w2", f"{M['wgmma_e4m3_n256_w2']:.0f} / {wg:.0f}"))
    P("tc_fp4_scale", 2, "x bf16", "datasheet: Hopper has no fp4; treated as fp8 (unused on sm_90)")
    P("tc_int8_scale", r(M["wgmma_s8_n256_w2"] / wg, 3), "x bf16", meas("wgmma_s8_n256_w2", f"{M['wgmma_s8_n256_w2']:.0f} / {wg:.0f}"))
    P("tc_fp64_scale", 0.016, "x bf16", "derived: 67 TFLOP/s fp64 tensor / 989 TFLOP/s bf16 (datasheet; not measured)")
    n128 = 2 * 64 * 128 * 16 / M["wgmma_f16_n128_w2"]
    P("mma_latency", r(M["wgmma_f16_n128_lat"] - n128), "clk",
      f"{SRC} wgmma_f16_n128_lat - its throughput cycles: {M['wgmma_f16_n128_lat']:.0f} - {n128:.0f}; "
      f"n64 {M['wgmma_f16_n64_lat'] - 2 * 64 * 64 * 16 / M['wgmma_f16_n64_w2']:.0f}, n256 {M['wgmma_f16_n256_lat'] - 2 * 64 * 256 * 16 / wg:.0f}; "
      "small shapes have a floor of about 17 + N/4 clk per wgmma (wgmma_f16_n8..64_w2))")
    P("tmem_ld_latency", 0, "clk", "datasheet: Hopper has no Tensor Memory (unused on sm_90)")
    P("tmem_bytes_per_clk", 0, "B/clk", "datasheet: Hopper has no Tensor Memory (unused on sm_90)")
    P("tc_floor_clk", 0, "clk", "datasheet: Hopper has no tcgen05.mma (unused on sm_90; wgmma's small-N floor is not modelled)")
    P("tc_floor_n_per_clk", 0, "columns/clk", "datasheet: Hopper has no tcgen05.mma (unused on sm_90)")
    cta = (M["launch_us_grid2112"] - M["launch_us_grid132"]) * CLK / 15
    P("cta_launch", r(cta), "clk", f"{SRC} launch_us_grid2112 - launch_us_grid132: 15 more empty 128-thread CTAs per SM cost "
      f"{(M['launch_us_grid2112'] - M['launch_us_grid132']) * 1000:.0f} ns)")
    P("launch_overhead_us", r(M["launch_us_grid1"], 2), "us", meas("launch_us_grid1", "an empty 1-CTA kernel's period in a CUDA graph of 1000 launches"))
    res, slope, t = l2_resident()
    P("l2_resident_bytes", res << 20, "B", meas4(f"l2warm_read_us_{res}mib",
      f"a read stream re-launched on the same buffer (CUDA-graph replay, no flush) stays on the L2 line (8 and 24 MiB: "
      f"{t[8]:.3f}, {t[24]:.3f} us, {1.048576 / slope:.2f} TB/s) within 5 % up to {res} MiB; "
      + ", ".join(f"{m} MiB {t[m]:.2f}" for m in sorted(t) if m > res and m <= 64) + " us (HBM's rate beyond)"
      + ("" if h200 else "; the H100's L2 is also 50 MB, not measured")))
    P("mma_sync_flops_per_clk", r(M4["mma_sync_f16_w32"]), "FLOP/clk/SM", meas4("mma_sync_f16_w32",
      f"mma.sync.m16n8k16 f16 -> f32, 32 warps/SM x 4 independent accumulators, every SM: {M4['mma_sync_f16_w32_issue']:.2f} clk per warp-instruction "
      f"per scheduler; 4 warps x 8: {M4['mma_sync_f16_w4']:.0f} (wgmma: tc_flops_per_clk)"))
    P("mma_sync_latency", r(M4["mma_sync_f16_lat"]), "clk", meas4("mma_sync_f16_lat", "mma.sync m16n8k16 f16 -> f32, one dependent accumulator chain"))
    wr, rd = l2_write_rate()
    P("l2_write_bytes_per_clk", r(wr), "B/clk", meas5("l2warm_write_us_8mib, l2warm_write_us_32mib",
      f"a write stream (st.global.v4) re-launched on the same buffer (CUDA-graph replay): "
      f"{M5['l2warm_write_us_8mib']:.3f} and {M5['l2warm_write_us_32mib']:.3f} us a launch, the slope {wr:.0f} B/clk "
      f"({wr * CLK * 1e6 / 1e12:.2f} TB/s; the read stream's slope {rd:.0f} B/clk); the copy stream (read a, write c) "
      f"{M5['l2warm_copy_us_32mib']:.3f} us at 32 MiB"))
    P("issue_from_sass", 1, "flag", "derived: each PTX instruction issues as the SASS instructions ptxas -lineinfo -arch=sm_90a makes of its line "
      "(src/timing/sass_weights.c); validated on every row of the H200 table (docs/timing.md); unit evidence: run 5's rowchain_* "
      "(tutorial 02's softmax row: 91 PTX, 119 SASS instructions)" + ("" if h200 else "; the H100 runs the same SASS"))
    F = fit_intf()
    bq = round(F["beta"], 2)
    P("issue_queue", int(bq) if bq == int(bq) else bq, "fraction", f"{SRC6} intf_*_c1 and _c2, {F['err'][2]} pairs; scripts/timing_intf_fit.py): a CTA's latency path P "
      "stretched by its wait for the issue slot shared with the co-resident CTAs (src/timing/launch_schedule.c tm_issue_queue, exact "
      f"mean-value analysis at beta = this); fitted on the rows whose median CTA is the SM's last (2 CTAs an SM) within 0...1: "
      f"{F['beta']:.2f}, median |error| {100 * F['err'][0]:.1f} %, worst {100 * F['err'][1]:.1f} % (max(P, nS) without it: "
      f"{100 * F['err0'][0]:.1f} %, {100 * F['err0'][1]:.1f} %; unbounded {F['bfree']:.2f}: {100 * F['errfree'][0]:.1f} %, "
      f"{100 * F['errfree'][1]:.1f} %); bounded by 1 because the ALU-bound rows at 3-16 CTAs finish one CTA every S (throughput "
      f"n CTAs an n S, which beta > 1 breaks); the issue count needs no scale (joint fit kappa {F['kappa']:.2f}, beta {F['kbeta']:.2f})")
    P("issue_fsel", r(M6["issue_fsel"]), "clk/warp-insn", f"{SRC6} issue_fsel, issue_fmnmx, issue_fsetp_fsel; f32 setp/selp/min/max: "
      f"FSEL {M6['issue_fsel']:.2f}, FMNMX {M6['issue_fmnmx']:.2f}, FSETP+FSEL {M6['issue_fsetp_fsel']:.2f} a SASS instruction, "
      f"half the FFMA rate (FADD/FMUL's 0.26 in the same run is an artefact, docs/timing.md run 6)")
    P("fsel_alu_pipe", 1, "flag", f"{SRC6} issue_fsetp_fsel, issue_isetp_sel: FSETP+FSEL pairs issue at {M6['issue_fsetp_fsel']:.2f} clk a SASS "
      f"instruction together (one half-rate pipe), as ISETP+SEL ({M6['issue_isetp_sel']:.2f}), SEL, IMNMX, SHF, PRMT; that it is the "
      f"integer ALU's pipe (issue_int's: the SM sub-partition's 16-lane ALU), not a second one, is the SM's design: a stream mixing "
      f"FSEL with ISETP was not measured")
    P("pipe_dispatch", 1, "flag", f"{SRC6} issue_isetp_sel, intf_ffma_isetp_sel_*; h200_micro_run7.tsv intf_*; h200_micro.tsv issue_fp32_fma): a scheduler "
      f"dispatches one warp-instruction a clock and a class's pipe is then busy its issue cost, so only the next instruction of the same "
      f"pipe waits for it, not the warp (src/timing/warp_clock.c tm_dispatch_take): ISETP+SEL pairs {M6['issue_isetp_sel']:.2f} clk a "
      f"SASS instruction on one half-rate pipe beside FFMA's 1.02, and intf's ffma_isetp_sel loops at one dispatch a SASS instruction "
      f"and 2 clk an ALU instruction with no extra cost for mixing them (t47r2)")
    P("ptxas_order", 1, "flag", f"{SRC6} intf_*_c1, one CTA an SM; the loops' SASS, ptxas 13.0 -arch=sm_90a): ptxas list-schedules "
      f"straight-line code, so an arithmetic instruction waiting for an operand holds back only what depends on it (src/timing/"
      f"warp_clock.c tm_order_of; where ptxas's SASS is known): the ffma_isetp_sel loops' SASS reads ISETP, ISETP, FFMA, SEL, ISETP, "
      f"FFMA, ... and run 6 measures them at the ALU pipe's 4 clk a pair ({M6['intf_ffma_isetp_sel_j6_c1']:.0f} clk an iteration at "
      f"J = 6: 16 x 6 pairs x 4 = 384 plus the loop), where issue in PTX order reads 6 (589); memory operations, shuffles and mma.sync "
      f"keep their order among themselves, branches, barriers, waits and the asynchronous units wait for everything before them "
      f"(t47s; the model's 31 loops against run 6: tests/data/timing/h200_intf_c1_model.tsv, scripts/timing_intf_model.py)")
    P("imad_pipe", 1, "flag", f"{SRC8} issue_imad_lop3, issue_imad_ffma; h200_micro.tsv issue_int_mad, issue_int_lop3): integer "
      f"mul/mad (IMAD) issue on a pipe of their own, not the integer ALU's: IMAD and LOP3 alternating read "
      f"{M8['issue_imad_lop3']:.3f} clk a warp-instruction and IMAD with FFMA {M8['issue_imad_ffma']:.3f} (dispatch-bound), "
      f"each {M['issue_int_mad']:.2f} / {M['issue_int_lop3']:.2f} alone (src/timing/warp_clock.c tm_pipe_of, TM_C_IMAD at issue_int; t47s)")
    c, med, worst, worst0 = fit_sfu_fp32()
    P("sfu_fp32_clk", c, "clk/warp-insn", f"{SRC10} mufu_*_c4/_c8/_c16_span; the SASS h200_sass_run10.txt): a MUFU holds the FP32 "
      f"pipe {c:g} clk beside its SFU's issue_sfu: trips of k MUFU.EX2 + 16 - k FFMA saturate above max(dispatch, SFU, FFMA) where "
      f"the two balance (k = 2: {M10['mufu_ffma_k2_c16_span'] / 16:.1f} clk a warp-trip against 67 dispatches, 64 SFU, 56 FFMA clk), "
      f"with SEL instead of FFMA at max(ALU, SFU) within 1.5 % (k = 3: {M10['mufu_sel_k3_c16_span'] / 16:.1f} against 106, 96): the "
      f"MUFU shares the FP32 pipe, not the ALU's or the dispatch. Fitted on those 54 span rows alone (least worst |error|, 0.5 steps): "
      f"median {med:.1f} %, worst {worst:.1f} % (without: {worst0:.1f} %); counted in the CTA's FP32 pipe work (U), not on the warp's "
      f"calendar (FFMA's 1 clk is not kept there either; src/timing/warp_clock.c, TM_C_SFU; t47v)")
    P("stall_sched", 1, "flag", f"{SRC6} intf_*_c1, one CTA an SM, against the model's path: tests/data/timing/h200_intf_c1_model.tsv "
      "column t47z, scripts/timing_intf_model.py) with the compiler's own static schedule: a PTX instruction holds its warp the stall "
      "counts ptxas 13.0 -arch=sm_90a wrote in the control bits of its SASS (bits 105-108 of the 128-bit word: Jia et al., "
      "arXiv:1804.06826, section 2.1; CuAssembler's CuSMVersion.splitControlCodes_7x_8x; read with nvdisasm -hex per PTX line, "
      "src/timing/sass_weights.c tm_sass_ctrl), at least its dispatches, and a fixed-latency result (INT, IMAD, FP32, FP16x2, "
      "FSEL, F2FP) is ready when the warp may issue again; MUFU, memory, conversions and shuffles keep their latencies "
      "(src/timing/warp_clock.c). Run 6's 31 loops: median |error| 7.1 % (t47s) to 3.9 %, the FFMA chains 9.3 % to 2.7 % (a "
      "chain link's 4.2 clk and a trip's branch are in the stalls). No number of its own; the local R2P kernels' executed "
      "stall sums (4,129 and 3,959 clk a warp) are ncu's selected + wait within 6 % (scripts/timing_stall_sched.py; t47z)")
    P("mem_space_order", 1, "flag", "compiler: ptxas 13.0 -arch=sm_90a keeps memory operations in order within a state space "
      "(shared, global), not across them: r2p_mask's local kernels' copy loop issues its 16 LDG.E.128 and then the 16 STS.128 "
      "(tests/data/timing/mask/r2p_mask.ptx through ptxas and nvdisasm), so a store that waits for its data lets the "
      "instructions after it (the next loads) go first; stores and loads of one space stay in order (src/timing/warp_clock.c; "
      "t47z; ptxas_order's rule refined)")
    P("tc_queue", 1, "flag", "derived: the issue slot's queue law (issue_queue, beta 1: run 6's intf rows) with the SM's tensor "
      "core as its second station: a co-resident CTA's wgmma takes its own cycles on the warp's path and waits for the others' "
      "by the exact MVA over both stations (src/timing/launch_schedule.c tm_issue_tc_queue), not share x its cycles (the "
      "saturated bound share x U keeps a tensor-bound kernel's); no number of its own (t47z)")
    return out


def fit_intf():
    """issue_queue from run 6's intf rows (scripts/timing_intf_fit.py: the one fit, here and on the command line)"""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import timing_intf_fit
    return timing_intf_fit.summary(timing_intf_fit.rows_of(os.path.join(DATA, "h200_micro_run6.tsv")))


def render(gpu):
    what = ("H200 SXM (sm_90/sm_90a): the H100 SXM5 die (GH100, same SM) with 141 GB HBM3e." if gpu == "h200" else
            "H100 SXM5 (sm_90/sm_90a): the SM-level rows are the lent H200's measurements (the same\n * GH100 SM); memory from the H100's datasheet.")
    return HEAD.format(what=what) + "\n".join(rows(gpu)) + "\n"


def main():
    bad = 0
    for gpu in ("h200", "h100"):
        path = os.path.join(ROOT, "src", "timing", f"params_{gpu}.def")
        text = render(gpu)
        if "--check" in sys.argv:
            if open(path).read() != text:
                print(f"{path} differs from scripts/timing_params_hopper.py's output")
                bad = 1
        else:
            open(path, "w").write(text)
    return bad


if __name__ == "__main__":
    sys.exit(main())
