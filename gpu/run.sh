#!/bin/sh
# Builds and runs tc5's GPU programs on a Hopper GPU (sm_90a).
#   gpu/run.sh arith [OUTDIR]   wgmma arithmetic vs tc5's Hopper model
#   gpu/run.sh layout [OUTDIR]  shared-memory layouts read by wgmma vs tc5
#   gpu/run.sh ptx [OUTDIR]     the sm_90a PTX kernels of tests/data/ptx/sm90 on the
#                               GPU: OUTDIR/h100_out.bin and h100_printf.txt, which
#                               tests/ptx/silicon.sh compares with tc5 run
#   gpu/run.sh mma [OUTDIR]     the mma.sync kernels of tests/data/ptx/mma90 (gpu/mma_sync.cu's
#                               PTX: every shape and type tc5 models) the same way
#                               (OUTDIR/h100_out.bin; CTest ptx_silicon_mma)
#   gpu/run.sh f64nan [OUTDIR]  the f64 NaN kernels of tests/data/ptx/f64nan (gpu/f64_nan.cu's PTX:
#                               which NaN add/sub/mul/fma/div/sqrt/rcp/min/max/cvt .f64 give;
#                               alu_carry.ptx: copysign and the carry chain of add.cc/sub.cc/mad.cc)
#                               the same way (OUTDIR/h100_out.bin; CTest ptx_silicon_f64nan)
#   gpu/run.sh atomics [OUTDIR] the vector atom/red forms of sm_90 (tests/data/ptx/atom90, gen.py:
#                               .add.{v2,v4}.f32, .{add,min,max}.noftz.{v2,v4,v8}.{f16,bf16} and
#                               .{v2,v4}.{f16x2,bf16x2}, as atom and as red, and the scalar forms
#                               beside them) the same way (OUTDIR/h100_out.bin; CTest ptx_silicon_atomics)
#   gpu/run.sh dp4a [OUTDIR]    dp4a.{u32,s32}.{u32,s32} (tests/data/ptx/dp4a90, gen.py: issue 51's real
#                               addition) the same way (OUTDIR/h100_out.bin; CTest ptx_silicon_dp4a)
#   gpu/run.sh tma [OUTDIR]     the TMA kernels of tests/data/ptx/tma90 the same way, and
#                               the driver's verdicts on tmap_rules.txt's tensor maps
#   gpu/run.sh gemm [OUTDIR]    the GPU GEMM (gpu/gemm_cuda.cu) against the CPU's tc5_gemm,
#                               every kind and type pair, every output bit (gemm_check.txt)
#   gpu/run.sh bench [OUTDIR]   the GPU GEMM's speed at 8192^3 (bf16, e4m3, mxf4nvf4) beside
#                               cuBLAS bf16 in the same run, and the CPU's (bench.txt)
#   gpu/run.sh litmus [OUTDIR]  the PTX memory model's litmus tests (MP, SB, LB, IRIW with every
#                               fence/scope (.cta .cluster .gpu) and one-CTA / cross-CTA / one-cluster
#                               placement: gpu/litmus.cu),
#                               many randomised instances; OUTDIR/litmus.txt (docs/check.md's table)
#   gpu/run.sh cluster          shared-memory addresses in a cluster of 4 (cvta, mapa,
#                               getctarank: docs/tma.md quotes them)
#   gpu/run.sh smem             shared-memory addresses of static and dynamic
#                               variables (tests/ptx/smem_layout.sh quotes them)
#   gpu/run.sh mask [OUTDIR]    bitmask (R2P) vs compare masking: SASS counts,
#                               times, and the masked scores vs tc5's masks
#   gpu/run.sh mask-ncu [OUTDIR] issue 47: Nsight Compute (`ncu --set full`, clocks not locked) on
#                               r2p_mask's six timed kernels (built with -lineinfo), each the first
#                               launch of its timed loop (picked by launch index among attn_scores
#                               launches: 35 check launches, then 51 a variant): OUTDIR/ncu_<mask>_<way>.
#                               {ncu-rep,raw.csv (every metric),details.txt,source.csv (per SASS line)},
#                               ncu-version.txt, smi.csv (clocks before/after), sass (cuobjdump)
#   gpu/run.sh sparse [OUTDIR]  the arithmetic of sparse wgmma.mma_async.sp against
#                               four hypotheses (docs/arithmetic.md, "Sparse MMA")
#   gpu/run.sh sfu [OUTDIR]     every approximate instruction (ex2 rcp rsqrt sqrt lg2 sin
#                               cos tanh, div.approx/full; f32, f16/bf16 and x2, f64)
#                               against tc5's special-function unit on every input
#                               (gpu/sfu_check.cu; OUTDIR/sfu_check.txt)
#                               and the PTX ISA's stated error bounds on every input
#                               (gpu/sfu_bounds.cu, tests/sfu/sfu_bounds.h; OUTDIR/sfu_bounds.txt)
#   gpu/run.sh sfu-bounds [OUTDIR] the bounds alone
#   gpu/run.sh sfu-probe OUTDIR the measurements the special-function unit's tables were
#                               solved from (gpu/sfu_probe.cu: SASS, block hashes of all
#                               2^32 outputs, range dumps; tests/data/sfu/derive_tables.py)
#   gpu/run.sh fa4-ex2 [OUTDIR] FlashAttention-4's ex2 emulation (tests/data/sfu/fa4_ex2, CuTe
#                               DSL's PTX) on every f32 input on the GPU (gpu/fa4_ex2.cu: block
#                               hashes) and in tc5 (tests/sfu/test_fa4_ex2.c, TC5_FA4_EX2_FULL)
#   gpu/run.sh attention [OUTDIR] the sm_90a attention kernels of tests/data/ptx/attn90 (Triton's
#                               tutorial 06 forward, gpu/attn_mask.cu's masked attention rows) on
#                               the GPU: OUTDIR/h100_out.bin, which tests/ptx/silicon.sh compares
#                               with tc5 run (CTest ptx_silicon_attention; docs/attention.md)
#   gpu/run.sh descriptors [OUTDIR] wgmma's shared-memory descriptor fields on silicon (issue 52):
#                               LBO/SBO 0, 1, large per swizzle mode and major-ness, base offset,
#                               the bits beyond Hopper's fields (gpu/wgmma_descriptors.cu;
#                               OUTDIR/descriptors.txt and descriptors-far0..4.txt, which
#                               tests/data/h100/wgmma-descriptors*.txt keep and CTest
#                               desc_wgmma_silicon compares with tc5)
#   gpu/run.sh rel90 [OUTDIR]   the compiler releases' sm_90a kernels of tests/data/ptx/rel90
#                               (Triton 3.6.0's tutorial 03 matmul, its first autotune config
#                               128x256x64 among them) the same way as attention (CTest
#                               ptx_silicon_rel90)
#   gpu/run.sh rel38 [OUTDIR]   Triton 3.8.0's other sm_90a tutorial kernels (tests/data/ptx/rel90/t38:
#                               02, 05, 06 forward, 09's matmuls; CTest ptx_silicon_rel38)
#   gpu/run.sh tmreplace [OUTDIR] tensormap.replace.global_stride's unit in PTX ISA 8.4 and 8.6
#                               (tests/data/ptx/tmreplace90; CTest ptx_silicon_tmreplace)
#   gpu/run.sh disagree [OUTDIR] issue 38's classes [1] and [3] (docs/fidelity.md): NaN/Inf
#                               of B where wgmma.sp's metadata elides, and f16-accumulator
#                               negatives that round to zero (disagree-summary.txt)
#   gpu/run.sh timing-micro [OUTDIR [SECTION...]] issue 47's unit-level microbenchmarks (gpu/timing_micro.cu: SM
#                               clock, issue rates and latencies of instruction classes, shared
#                               memory, L2/HBM bandwidth and latency, TMA, barriers, wgmma per shape
#                               and type, launch overhead under graph replay): OUTDIR/micro.tsv, the
#                               source of src/timing/params_h200.def's measured rows; sections base (the
#                               above), mma (mma.sync, ldmatrix), cpasync (cp.async pipelines), l1 (ld.global L1 hits), l2warm
#                               (L2 residency across re-launches), rowchain (tutorial 02's softmax row at 1-8
#                               CTAs/SM, bar.sync at 8 CTAs/SM), zfill (cp.async src-size 0), l2write
#                               (re-launched write and copy streams), intf (issue/latency interference:
#                               a dependent chain with independent work, 1-16 CTAs of one warp a
#                               scheduler on every SM), alu (issue rates of compare/select/min/max,
#                               FADD/FMUL, IMAD mixes; CUDA events beside clock64), loop (a loop
#                               trip's cost against a chain's latency), mufu (the MUFU.EX2 share of a
#                               fixed 64-instruction trip, with FFMA or SEL, 1-16 CTAs an SM), imadw
#                               (IMAD.HI / IMAD.WIDE rates and latencies), hbmmix (HBM streams of reads,
#                               writes and 2:1, 1:1, 1:2 mixes over 1 GiB arrays), l2reuse (a re-read of N
#                               bytes after D bytes of other reads or writes: the share L2 serves); default all
#   gpu/run.sh timing-alu-share [OUTDIR] timing-micro's alushare section alone (OUTDIR/alushare.tsv), the clocks
#     before and after, and the alushare kernels' SASS (t47y, run 11: tests/data/timing/h200_micro_run11.tsv)
#   gpu/run.sh timing-imad [OUTDIR] timing-micro's imadw section alone (OUTDIR/imadw.tsv: the IMAD pipe's
#     IMAD.HI / IMAD.WIDE forms' rates at 1-8 warps a scheduler and chain latencies), the clocks before and
#     after, and the imadw kernels' SASS (t47i, run 13: tests/data/timing/h200_micro_run13.tsv)
#   gpu/run.sh timing-mufu [OUTDIR] timing-micro's mufu section alone (OUTDIR/mufu.tsv), the clocks
#                               before and after (smi_mufu.csv), the binary's mufu SASS (sass_mufu.txt)
#   gpu/run.sh timing-tma-loaded [OUTDIR]  a 2-D TMA load's latency and rate against the loads
#                               in flight per SM and the SMs loading (gpu/timing_tma_loaded.cu):
#                               OUTDIR/tma_loaded.tsv (issue 47, the loaded-latency mechanism)
#   gpu/run.sh tma-lat [OUTDIR] a chain of dependent 2-D TMA loads from L2 and from HBM, one SM and
#                               every SM (gpu/tma_latency.cu): OUTDIR/tma_latency.tsv (issue 47, t47u:
#                               the model's TMA latency for L2 hits and misses)
#   gpu/run.sh tmem [OUTDIR]    NEEDS A B200 (sm_100a; skipped elsewhere): issue 47's Tensor Memory
#                               microbenchmarks (gpu/tmem_micro.cu: tcgen05.ld/st latency against size,
#                               rate per SM against warps, tutorial 06's load-scale-store step; MUFU ex2,
#                               FFMA and FFMA2 rates; mbarrier signal latency; 2-D TMA latency from L2
#                               and HBM): OUTDIR/tmem.tsv, the
#                               figures docs/timing.md "What decides tutorial 06's rows" asks for
#   gpu/run.sh tmem-build       gpu/tmem_micro.cu compiled for sm_100a only (no GPU needed)
#   gpu/run.sh timing [OUTDIR]  issue 47's Hopper validation: the Triton tutorial launches of
#                               tests/data/timing/h200 (scripts/timing_corpus.py) from their PTX
#                               (gpu/ptx_timing.cu), timed by CUDA-graph replay (median):
#                               OUTDIR/h200_measured.tsv; gpu/r2p_mask.cu's timed kernels from
#                               their nvcc PTX (tests/data/timing/mask): OUTDIR/mask_measured.tsv;
#                               the clocks seen (OUTDIR/smi.csv)
#   gpu/run.sh timing OUTDIR SET...  those sets only (h200, mask, heldout: issue 47's held-out kernels,
#                               tests/data/timing/heldout, scripts/timing_heldout.py: OUTDIR/h200_heldout_measured.tsv)
#   gpu/run.sh reduce [OUTDIR]  PyTorch's eager CUDA sum and mean (gpu/reduce_probe.py's cases: seeded inputs made on
#                               the CPU, reduced on the GPU): OUTDIR/reduce_h200.tsv, which tests/data/device_reduce/
#                               keeps and tests/python/test_device_reduce.py compares with tc5.device_reduce (Python
#                               and PyTorch only, no tc5 built)
#   gpu/run.sh reduce-compile [OUTDIR]  torch.compile's Triton sum against the eager CUDA sum of the same 64 float32
#                               values (gpu/reduce_compile_probe.py: Liger TVD's losses as tc5 computes them, 200
#                               seeded vectors): OUTDIR/reduce_compile_h200.tsv (tests/data/device_reduce/ keeps it)
#   gpu/run.sh intdiv [OUTDIR]  PyTorch's CUDA integer division where the CPU's refuses (gpu/intdiv_probe.py: floor_divide,
#                               //, remainder, %, fmod, div(rounding_mode=trunc|floor) of int8/16/32/64 and uint8 by 0,
#                               by -1 of the minimum, by a tensor, a 0-d tensor, a Python int, in place):
#                               OUTDIR/intdiv_cuda.tsv, env_cuda.txt (Python and PyTorch only, no tc5 built;
#                               `python gpu/intdiv_probe.py OUTDIR --device cpu` is the CPU's answers, anywhere);
#                               tests/data/device_intdiv/ keeps them (tests/python/test_device_intdiv.py)
#   gpu/run.sh intdiv-edges [OUTDIR]  int64 dividends by 0 between the two paths intdiv showed (101 .. 2^63 - 3:
#                               where the compiler's 32-bit path ends): OUTDIR/intdiv_edges_cuda.tsv (ran 2026-11-30:
#                               tests/data/device_intdiv/intdiv_edges_cuda.tsv, the split at 2^32)
#   gpu/run.sh intdiv-ptx [OUTDIR]  PTX div and rem .{s,u}{16,32,64} by 0, the minimum by -1 and others
#                               (tests/data/ptx/intdiv90, gen.py) the same way as dp4a (OUTDIR/h100_out.bin; ran
#                               2026-11-30, all ones by 0 for every width: CTest ptx_silicon_intdiv)
#   gpu/run.sh liger [OUTDIR]   Liger-Kernel 0.8.5's tests that fail on tc5 (tests/data/liger/h200_ids.txt),
#                               natively with the installed PyTorch and Triton, from the release's sdist
#                               (TC5_LIGER_SDIST, SHA-256 checked; gpu/liger_h200.sh): OUTDIR/h200_verdicts.tsv,
#                               pytest.txt, env.txt (versions, the implementations Liger picked), which
#                               tests/data/liger/h200_failures.tsv keeps (no libtc5 built)
#   gpu/run.sh peer-liger OUTDIR    Liger-Kernel 0.8.5's test/transformers, whole, through tc5 on the
#   gpu/run.sh peer-flaggems OUTDIR machine's CPUs (FlagGems 5.0.2's tests/ for peer-flaggems), the GPU hidden
#                               (gpu/peer_whole.sh: builds tc5 into a venv, runs the peer harness with
#                               --every 1, its local engine, deadline and resume; OUTDIR/whole_results.tsv
#                               and .cost.tsv). Needs no nvcc and no GPU.
# Needs nvcc (CUDA 12.3+) and gcc; builds libtc5 itself (no cmake needed).
# Exit status: the program's (0 all match, 1 mismatch, 2 error); 77 without
# a GPU (what CTest reads as "skipped").
set -eu
cd "$(dirname "$0")/.."
what=${1:-arith}
out=${2:-build-gpu/out}
# the peer suites run on the CPUs (tc5 is the device): no nvcc, no GPU
case $what in peer-liger|peer-flaggems) exec bash gpu/peer_whole.sh "${what#peer-}" "$out" ;; esac
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$NVCC" ]; then echo "gpu/run.sh: nvcc not found: skipped"; exit 77; fi
tmem_build() { # the B200 microbenchmark (gpu/tmem_micro.cu), sm_100a
  mkdir -p build-gpu
  "$NVCC" -O2 -std=c++17 -gencode=arch=compute_100a,code=sm_100a -Igpu gpu/tmem_micro.cu -o build-gpu/tmem_micro -lcuda
}
micro_section() { # timing_micro's section $1 alone (timing-mufu, timing-alu-share): OUTDIR/$1.tsv, the
  # clocks before and after (OUTDIR/smi_$1.csv) and the device binary's SASS of its $1_kernel kernels
  # (OUTDIR/sass_$1.txt); returns the program's exit status
  "$NVCC" -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Igpu gpu/timing_micro.cu \
    -o build-gpu/timing_micro -lcuda
  nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,power.draw,power.limit,temperature.gpu \
    --format=csv > "$out/smi_$1.csv"
  local rc=0
  build-gpu/timing_micro "$out/$1.tsv" "$1" || rc=$?
  nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,power.draw,power.limit,temperature.gpu \
    --format=csv,noheader >> "$out/smi_$1.csv"
  local OBJ
  OBJ=$(dirname "$NVCC")/cuobjdump
  [ -x "$OBJ" ] && "$OBJ" -sass build-gpu/timing_micro | awk "/Function : .*$1_kernel/{f=1} /Function : /&&!/$1_kernel/{f=0} f" \
    > "$out/sass_$1.txt" || true
  return $rc
}
if [ "$what" = tmem-build ]; then tmem_build; echo "gpu/run.sh: build-gpu/tmem_micro built for sm_100a"; exit 0; fi
if ! nvidia-smi -L >/dev/null 2>&1; then echo "gpu/run.sh: no GPU: skipped"; exit 77; fi
# Liger's tests natively: Python only, no tc5 built
if [ "$what" = liger ]; then exec sh gpu/liger_h200.sh "$out"; fi
if [ "$what" = reduce ]; then exec "${PYTHON:-python3}" gpu/reduce_probe.py "$out"; fi
if [ "$what" = intdiv ]; then exec "${PYTHON:-python3}" gpu/intdiv_probe.py "$out"; fi
if [ "$what" = intdiv-edges ]; then exec "${PYTHON:-python3}" gpu/intdiv_probe.py "$out" --edges; fi
if [ "$what" = reduce-compile ]; then exec "${PYTHON:-python3}" gpu/reduce_compile_probe.py "$out"; fi
mkdir -p build-gpu/obj "$out"
# the library, plainly (the same sources as the CMake build), in parallel
# (timing-micro needs none of it)
rm -f build-gpu/obj/*.o build-gpu/libtc5.a
case $what in timing-micro | timing-mufu | timing-alu-share | timing-imad | tmem | tma-lat) nolib=1 ;; *) nolib= ;; esac
[ -n "$nolib" ] || for f in src/*/*.c; do
  # the CMake build's per-file options (CMakeLists.txt)
  case $f in src/ptx/exec_float.c) x=-frounding-math ;; src/sfu/sfu.c) x=-ffp-contract=off ;; *) x= ;; esac
  gcc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L $x -Iinclude -Isrc -c "$f" \
    -o "build-gpu/obj/$(basename "$f" .c).o" &
done
wait
[ -n "$nolib" ] || ar rcs build-gpu/libtc5.a build-gpu/obj/*.o
# the GPU GEMM's objects (the CMake build's tc5_cuda), in parallel
gemm_objs() {
  GEMM_OBJS=
  for f in gemm_cuda gemm_tiled gemm_wgmma; do
    "$NVCC" -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Isrc -Igpu -c gpu/$f.cu \
      -o build-gpu/$f.o &
    GEMM_OBJS="$GEMM_OBJS build-gpu/$f.o"
  done
  wait
}
case "$what" in
  arith)
    "$NVCC" -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude \
      gpu/wgmma_arith.cu build-gpu/libtc5.a -o build-gpu/wgmma_arith -lpthread
    exec build-gpu/wgmma_arith "$out" ;;
  layout)
    "$NVCC" -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude \
      gpu/wgmma_layout.cu build-gpu/libtc5.a -o build-gpu/wgmma_layout -lpthread
    exec build-gpu/wgmma_layout "$out" ;;
  mask)
    "$NVCC" -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude \
      gpu/r2p_mask.cu build-gpu/libtc5.a -o build-gpu/r2p_mask -lpthread
    CUOBJDUMP=${CUOBJDUMP:-$(command -v cuobjdump || echo "$(dirname "$NVCC")/cuobjdump")}
    "$CUOBJDUMP" -sass build-gpu/r2p_mask > "$out/r2p_mask.sass"
    # instructions per kernel (the timed ones: STORE = false), as in the notes
    awk -f gpu/sass_count.awk "$out/r2p_mask.sass" > "$out/sass-counts.txt"
    cat "$out/sass-counts.txt"
    rc=0
    build-gpu/r2p_mask "$out" || rc=$?
    cat "$out/mask-summary.txt"
    exit $rc ;;
  mask-ncu)
    # issue 47 (t47w): why the bitmask local mask saves 9.3 %: pipes, issue, stalls per SASS line
    NCU=${NCU:-$(command -v ncu || echo "$(dirname "$NVCC")/ncu")}
    "$NVCC" -O2 -std=c++17 -lineinfo -gencode=arch=compute_90a,code=sm_90a -Iinclude \
      gpu/r2p_mask.cu build-gpu/libtc5.a -o build-gpu/r2p_mask_li -lpthread
    CUOBJDUMP=${CUOBJDUMP:-$(command -v cuobjdump || echo "$(dirname "$NVCC")/cuobjdump")}
    "$CUOBJDUMP" -sass build-gpu/r2p_mask_li > "$out/r2p_mask_li.sass"
    "$NCU" --version > "$out/ncu-version.txt"
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu \
      --format=csv > "$out/smi.csv"
    rc=0
    # launch index among attn_scores launches: 35 + 51 * (2 * mask + bitmask); local first
    for mk in 2 0 1; do
      for r in 0 1; do
        name=ncu_$(echo len causal local | cut -d' ' -f$((mk + 1)))_$([ $r = 1 ] && echo bitmask || echo compare)
        mkdir -p "$out/prog_$name"
        "$NCU" -k regex:attn_scores --launch-skip $((35 + 51 * (2 * mk + r))) --launch-count 1 \
          --set full --import-source yes --clock-control none -f -o "$out/$name" \
          build-gpu/r2p_mask_li "$out/prog_$name" > "$out/$name.log" 2>&1 || rc=$?
        [ -f "$out/$name.ncu-rep" ] || { tail -5 "$out/$name.log"; continue; }
        "$NCU" -i "$out/$name.ncu-rep" --page raw --csv > "$out/$name.raw.csv" || rc=$?
        "$NCU" -i "$out/$name.ncu-rep" --page details > "$out/$name.details.txt" || rc=$?
        "$NCU" -i "$out/$name.ncu-rep" --page source --csv --print-source sass > "$out/$name.source.csv" || rc=$?
      done
    done
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu \
      --format=csv,noheader >> "$out/smi.csv"
    exit $rc ;;
  gemm)
    gemm_objs
    gcc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Iinclude -Isrc -Igpu -c gpu/gemm_check.c -o build-gpu/gemm_check.o
    "$NVCC" build-gpu/gemm_check.o $GEMM_OBJS build-gpu/libtc5.a -o build-gpu/gemm_check -lpthread -lm
    rc=0
    build-gpu/gemm_check > "$out/gemm_check.txt" || rc=$?
    cat "$out/gemm_check.txt"
    exit $rc ;;
  bench)
    gemm_objs
    "$NVCC" -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Isrc -Igpu gpu/bench_gemm.cu \
      $GEMM_OBJS build-gpu/libtc5.a -o build-gpu/bench_gemm -lcublas -lpthread -lm
    build-gpu/bench_gemm | tee "$out/bench.txt" ;;
  litmus)
    "$NVCC" -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a gpu/litmus.cu -o build-gpu/litmus
    build-gpu/litmus | tee "$out/litmus.txt" ;;
  cluster)
    "$NVCC" -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a gpu/cluster_addr.cu -o build-gpu/cluster_addr
    build-gpu/cluster_addr | tee "$out/cluster_addr.txt" ;;
  ptx)
    "$NVCC" -O2 -std=c++17 -Iinclude gpu/ptx_silicon.cu build-gpu/libtc5.a -o build-gpu/ptx_silicon -lcuda
    exec build-gpu/ptx_silicon tests/data/ptx/sm90 "$out/h100_out.bin" > "$out/h100_printf.txt" ;;
  mma|f64nan|atomics|dp4a|intdiv-ptx)
    "$NVCC" -O2 -std=c++17 -Iinclude gpu/ptx_silicon.cu build-gpu/libtc5.a -o build-gpu/ptx_silicon -lcuda
    case $what in mma) data=tests/data/ptx/mma90 ;; f64nan) data=tests/data/ptx/f64nan ;; dp4a) data=tests/data/ptx/dp4a90 ;;
      intdiv-ptx) data=tests/data/ptx/intdiv90 ;; *) data=tests/data/ptx/atom90 ;; esac
    exec build-gpu/ptx_silicon $data "$out/h100_out.bin" > "$out/h100_printf.txt" ;;
  tma|attention|rel90|rel38|tmreplace)
    "$NVCC" -O2 -std=c++17 -Iinclude gpu/ptx_silicon.cu build-gpu/libtc5.a -o build-gpu/ptx_silicon -lcuda
    data=tests/data/ptx/tma90
    if [ "$what" = tma ]; then
      build-gpu/ptx_silicon --rules tests/data/ptx/tma90/tmap_rules.txt "$out/h100_tmap_rules.txt"
    elif [ "$what" = rel90 ]; then
      sh scripts/data_archive.sh unpack rel90
      data=tests/data/ptx/rel90
    elif [ "$what" = rel38 ]; then
      sh scripts/data_archive.sh unpack rel90
      data=tests/data/ptx/rel90/t38
    elif [ "$what" = tmreplace ]; then
      data=tests/data/ptx/tmreplace90
    else
      data=tests/data/ptx/attn90
    fi
    # one process a kernel: a kernel that faults names itself and spares the others
    n=$(grep -vc '^#' $data/kernels.txt); i=0; rc=0
    : > "$out/h100_out.bin"; : > "$out/h100_printf.txt"
    while [ $i -lt "$n" ]; do
      if TC5_ONLY=$i timeout 20 build-gpu/ptx_silicon $data "$out/k.bin" >> "$out/h100_printf.txt" 2> "$out/err.txt"; then
        cat "$out/k.bin" >> "$out/h100_out.bin"
      else
        echo "kernel $i ($(grep -v '^#' $data/kernels.txt | sed -n "$((i + 1))p" | cut -d' ' -f2)) failed: $(tail -1 "$out/err.txt")"; rc=1
      fi
      i=$((i + 1))
    done
    rm -f "$out/k.bin" "$out/err.txt"
    echo "$what: $i kernels run on the GPU, $(wc -c < "$out/h100_out.bin") output bytes in $out/h100_out.bin"
    exit $rc ;;
  sfu-probe)
    "$NVCC" -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fopenmp gpu/sfu_probe.cu \
      -o build-gpu/sfu_probe
    exec build-gpu/sfu_probe "$out" ;;
  sfu|sfu-bounds)
    # sfu: the model against the H100 on every input, then the ISA's error bounds on every input;
    # sfu-bounds: the bounds alone (OUTDIR/sfu_bounds.txt)
    [ "$what" = sfu ] && "$NVCC" -O2 -std=c++17 -fmad=false -gencode=arch=compute_90a,code=sm_90a -Iinclude -Isrc \
      gpu/sfu_check.cu -o build-gpu/sfu_check &
    "$NVCC" -O2 -std=c++17 -fmad=false -gencode=arch=compute_90a,code=sm_90a -Iinclude -Isrc -Itests \
      gpu/sfu_bounds.cu -o build-gpu/sfu_bounds &
    wait
    rc=0
    if [ "$what" = sfu ]; then
      build-gpu/sfu_check > "$out/sfu_check.txt" || rc=$?
      cat "$out/sfu_check.txt"
    fi
    build-gpu/sfu_bounds > "$out/sfu_bounds.txt" || rc=$?
    cat "$out/sfu_bounds.txt"
    exit $rc ;;
  fa4-ex2)
    # FA4's ex2 emulation: the sample the CTest ptx_silicon_fa4_ex2 reads (OUTDIR/fa4_h100_out.bin,
    # to tests/data/sfu/fa4_ex2/h100_out.bin), every f32 input on the GPU reduced to 4096 block
    # hashes (OUTDIR/h100_block_hashes.txt, to the same folder), and tc5 on all of them here
    d=tests/data/sfu/fa4_ex2
    "$NVCC" -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a gpu/fa4_ex2.cu -o build-gpu/fa4_ex2 -lcuda &
    "$NVCC" -O2 -std=c++17 -Iinclude gpu/ptx_silicon.cu build-gpu/libtc5.a -o build-gpu/ptx_silicon -lcuda &
    gcc -O2 -std=c11 -Iinclude tests/sfu/test_fa4_ex2.c build-gpu/libtc5.a -o build-gpu/test_fa4_ex2 -lpthread -lm &
    wait
    build-gpu/ptx_silicon $d "$out/fa4_h100_out.bin" > "$out/fa4_h100_printf.txt"
    build-gpu/fa4_ex2 $d/fa4_ex2_sm90a.ptx kernel_cutlass_kern_ptrf32gmemalign16_ptrf32gmemalign16_0 \
      "$out/h100_block_hashes.txt"
    TC5_FA4_EX2_FULL=1 TC5_FA4_EX2_HASHES="$out/h100_block_hashes.txt" exec build-gpu/test_fa4_ex2 $d ;;
  sparse)
    "$NVCC" -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude \
      gpu/wgmma_sparse.cu build-gpu/libtc5.a -o build-gpu/wgmma_sparse -lpthread
    exec build-gpu/wgmma_sparse "$out" ;;
  descriptors)
    "$NVCC" -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Igpu \
      gpu/wgmma_descriptors.cu build-gpu/libtc5.a -o build-gpu/wgmma_descriptors -lpthread
    rc=0
    build-gpu/wgmma_descriptors "$out" || rc=$?
    # the far groups, a process each: a fault loses only its group (and says so)
    for g in 0 1 2 3 4; do
      timeout 30 build-gpu/wgmma_descriptors --far $g "$out" > "$out/far$g.log" 2>&1 ||
        echo "far group $g: exit $? ($(tail -1 "$out/far$g.log"))" | tee -a "$out/far-faults.txt"
    done
    exit $rc ;;
  disagree)
    "$NVCC" -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude \
      gpu/wgmma_disagree.cu build-gpu/libtc5.a -o build-gpu/wgmma_disagree -lpthread
    exec build-gpu/wgmma_disagree "$out" ;;
  timing-micro)
    "$NVCC" -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Igpu gpu/timing_micro.cu \
      -o build-gpu/timing_micro -lcuda
    nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,power.draw,power.limit,temperature.gpu \
      --format=csv > "$out/smi_micro.csv"
    rc=0
    if [ $# -ge 2 ]; then shift 2; else shift $#; fi
    build-gpu/timing_micro "$out/micro.tsv" "$@" || rc=$?
    nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,power.draw,power.limit,temperature.gpu \
      --format=csv,noheader >> "$out/smi_micro.csv"
    exit $rc ;;
  tmem)
    # a B200 only: the H100/H200 have no Tensor Memory (CTest-style skip elsewhere)
    cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1)
    if [ "$cc" != 10.0 ]; then echo "gpu/run.sh tmem: needs a B200/GB200 (compute capability 10.0), found $cc: skipped"; exit 77; fi
    tmem_build
    nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,power.draw,power.limit,temperature.gpu \
      --format=csv > "$out/smi_tmem.csv"
    rc=0
    build-gpu/tmem_micro "$out/tmem.tsv" || rc=$?
    nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,power.draw,power.limit,temperature.gpu \
      --format=csv,noheader >> "$out/smi_tmem.csv"
    exit $rc ;;
  timing-tma-loaded)
    # loaded TMA latency against concurrency (gpu/timing_tma_loaded.cu): OUTDIR/tma_loaded.tsv,
    # committed as tests/data/timing/h200_tma_loaded.tsv (docs/timing.md "Loaded TMA latency")
    "$NVCC" -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Igpu gpu/timing_tma_loaded.cu \
      -o build-gpu/timing_tma_loaded -lcuda
    exec build-gpu/timing_tma_loaded "$out/tma_loaded.tsv" ;;
  tma-lat)
    # TMA latency from L2 vs HBM (gpu/tma_latency.cu): OUTDIR/tma_latency.tsv, committed as
    # tests/data/timing/h200_tma_latency.tsv (docs/timing.md "TMA latency from L2 and from HBM")
    "$NVCC" -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Igpu gpu/tma_latency.cu \
      -o build-gpu/tma_latency -lcuda
    exec build-gpu/tma_latency "$out/tma_latency.tsv" ;;
  timing-mufu)
    # issue 47's MUFU share at a fixed dispatch count (t47v, run 10): timing_micro's mufu section, the
    # clocks before and after, and the device binary's SASS of the mufu kernels
    micro_section mufu; exit $? ;;
  timing-imad)
    # issue 47's IMAD.HI / IMAD.WIDE rates and latencies (t47i, run 13): timing_micro's imadw section, the
    # clocks before and after, and the device binary's SASS of the imadw kernels
    micro_section imadw; exit $? ;;
  timing-alu-share)
    # issue 47's ALU-pipe share at a fixed dispatch count (t47y, run 11): timing_micro's alushare section,
    # the clocks before and after, and the device binary's SASS of the alushare kernels
    micro_section alushare; exit $? ;;
  timing)
    "$NVCC" -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Isrc -Igpu gpu/ptx_timing.cu \
      build-gpu/libtc5.a -o build-gpu/ptx_timing -lcuda
    # the clocks while the launches run (every 200 ms), one process a launch (a fault spares the others)
    nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 200 \
      > "$out/smi.csv" &
    smi=$!
    rc=0
    if [ $# -ge 2 ]; then shift 2; else shift $#; fi
    for set in ${@:-h200 mask}; do
      data=tests/data/timing/$set
      case $set in h200) tsv="$out/h200_measured.tsv" ;; heldout) tsv="$out/h200_heldout_measured.tsv" ;;
        *) tsv="$out/${set}_measured.tsv" ;; esac
      n=$(grep -vc '^#' $data/launches.txt); i=0
      : > "$tsv"
      while [ $i -lt "$n" ]; do
        TC5_ONLY=$i timeout 60 build-gpu/ptx_timing $data "$tsv" || { echo "$set launch $i failed"; rc=1; }
        i=$((i + 1))
      done
    done
    kill $smi
    exit $rc ;;
  smem)
    "$NVCC" -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a gpu/smem_layout.cu -o build-gpu/smem_layout
    exec build-gpu/smem_layout ;;
  *) echo "usage: gpu/run.sh arith|layout|mask|mask-ncu|smem|cluster|gemm|bench|ptx|mma|f64nan|atomics|dp4a|tma|sparse|attention|rel90|descriptors|disagree|sfu|sfu-bounds|sfu-probe|fa4-ex2|timing-micro|timing-mufu|timing-alu-share|tma-lat|tmem|tmem-build|timing|liger|reduce|reduce-compile|intdiv|intdiv-edges|intdiv-ptx|peer-liger|peer-flaggems [OUTDIR]" >&2; exit 2 ;;
esac
