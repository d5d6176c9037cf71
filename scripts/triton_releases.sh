#!/usr/bin/env bash
# Triton releases against tc5 (issue 52): every release that targets sm_100 (3.3 ... 3.9).
#   scripts/triton_releases.sh door [VERSION...]    the Triton door's NumPy-only tests
#       (tests/python/test_triton.py, test_triton_driver.py, test_triton_gluon.py) under each release: one line of
#       pytest's summary a release, the failures' first error lines in build/triton-releases/door-V.txt
#   scripts/triton_releases.sh tutorials [VERSION...]  the other tutorials and Gluon's for sm_100a
#       (tests/data/ptx/rel100/tutorials/V, CTest triton_releases_tutorials; t02/t05 for sm_90a in
#       tests/data/ptx/rel90/tutorials/V, triton_releases_tutorials_sm90; needs MIRROR, below)
#   scripts/triton_releases.sh corpus [VERSION...]  tutorial 03's matmul (its first autotune config)
#       compiled by each release for sm_100a (tests/data/ptx/rel100) and sm_90a (rel90), then each
#       folder's gen_inputs.py; the silicon outputs of rel90 come from gpu/run.sh rel90 on an H100/H200
#   scripts/triton_releases.sh t08t09 [VERSION...]  tutorials 08 and 09 (f16) for sm_100a (needs MIRROR)
#   scripts/triton_releases.sh sm90 [VERSION...]    the sm_90a corpus from Triton 3.0: tutorials 02, 03, 05,
#       06 (forward), 08, 09 (needs MIRROR; 3.0-3.2 compile release/3.3.x's texts, the oldest branch there)
#   scripts/triton_releases.sh gluon [VERSION...]   Gluon's tutorials 06, 07, 08 for 3.5-3.7 from the
#       upstream texts their Gluon compiles (needs MIRROR); then 07/08's matmuls small for 3.5-3.9
#       (tests/data/ptx/rel100/gluon, CTest triton_releases_gluon_V) and 10, 11, 14 for 3.6-3.9
#       (GLUON_VERSIONS: those releases)
#   scripts/triton_releases.sh gluon1014 [VERSION...]  Gluon's tutorials 10 (tcgen05.cp), 11 (block-scaled MMA) and
#       14 (multi-CTA) for 3.6-3.9, every kernel under $top/g1014-V (the table of docs/fidelity.md), a subset copied to
#       tests/data/ptx/rel100/gluon1014/V (CTest triton_releases_gluon1014_V; needs MIRROR)
#   scripts/triton_releases.sh t06fwd [VERSION...]  tutorial 06's 17 forward variants for sm_100a (3.4-3.9; needs
#       MIRROR), five a release in tests/data/ptx/rel100/attn_fwd/V (CTest triton_releases_t06_fwd_V)
# VERSION defaults to 3.3.1 3.4.0 3.5.1 3.6.0 3.7.0 3.8.0 3.9.0 (sm90: 3.0.0 3.1.0 3.2.0 too). Each release is installed (pip
# --target, no dependencies: a few hundred MB, one at a time) under build/triton-releases/triton-V,
# with one virtualenv (numpy, ml_dtypes, pytest, scikit-build-core) and tc5's package built from this
# checkout (pip --target build/triton-releases/tc5: the CMake build, minutes). TUTORIALS names a
# checkout of facebookexperimental/triton holding python/tutorials (gen_triton_corpus.py's --src);
# TUTORIALS_3_3 one of its release/3.3.x branch (3.3's tutorial 03 uses an API its later text does not).
# Not in the default suite (downloads; minutes a release). Needs scripts/build.sh's build/tc5.
# tests/ptx/triton_releases_dry.sh (CTest triton_releases_dry) runs it with stubs for git, pip and the generators.
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:?usage: scripts/triton_releases.sh door|corpus|tutorials|t08t09|sm90|gluon|gluon1014|t06fwd [VERSION...]}
shift
versions=${*:-3.3.1 3.4.0 3.5.1 3.6.0 3.7.0 3.8.0 3.9.0}
top=$(pwd)/build/triton-releases
mkdir -p "$top"
# tests/data/ptx/rel100 and rel90 are committed as archives (scripts/data_archive.sh): unpack them
# first, and pack what this run wrote into them when it ends
sh scripts/data_archive.sh unpack
trap 'case $what in door) ;; *) sh scripts/data_archive.sh pack ;; esac' EXIT
venv=$top/venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q numpy ml_dtypes pytest scikit-build-core
fi
install_release() { # the release's wheel, alone, under $top/triton-V
  [ -d "$top/triton-$1/triton" ] || "$venv/bin/pip" install -q --no-deps --target "$top/triton-$1" "triton==$1"
}
release_branch() { # the branch of facebookexperimental/triton whose tutorial texts release $1 compiles: its own
  # release branch (3.4 and 3.5: 3.5.x, 3.6 and 3.7: 3.7.x), HEAD for 3.9; 3.0-3.2 have none there: 3.3.x's, the oldest
  case $1 in 3.[0-3].*) echo release/3.3.x ;; 3.4.*|3.5.*) echo release/3.5.x ;; 3.6.*|3.7.*) echo release/3.7.x ;;
             3.8.*) echo release/3.8.x ;; *) echo HEAD ;; esac
}
tutorials_src() { # MIRROR REV: $top/src-REV (a branch without its release/) holding MIRROR's python/tutorials at REV,
  # extracted once; prints its path
  local src=$top/src-${2#release/}
  if [ ! -d "$src/python/tutorials" ]; then
    mkdir -p "$src/python/examples"
    git --git-dir="$1" archive "$2" python/tutorials | tar -x -C "$src" || return
  fi
  echo "$src"
}
gluon_small() { # Gluon 07 and 08's matmuls at M=256 N=512 K=256 for 3.5-3.9 (CTest triton_releases_gluon_V:
  # tests/data/ptx/rel100/gluon/V), and 10, 11, 14 for 3.6-3.9 from their release branch's texts (3.5.x has none)
  local mirror=$1 gen=tests/data/ptx/census/gen_triton_corpus.py v c src out n
  for v in ${GLUON_VERSIONS:-3.5.1 3.6.0 3.7.0 3.8.0 3.9.0}; do
    install_release "$v"
    case $v in 3.5.*) c=4b9250533 ;; 3.6.*|3.7.*) c=f489981e2 ;; 3.8.*) c=release/3.8.x ;; *) c=HEAD ;; esac
    src=$(tutorials_src "$mirror" "$c")
    out=$top/gluon-small-$v
    rm -rf "$out"
    PYTHONPATH="$top/triton-$v" nice "$venv/bin/python" $gen --src "$src" --out "$out" --arch 100 --only '^(g07|g08)' \
      --variants matmul --gemm-size 256,512,256 --work "$top/work-$v" > "$out.log" 2>&1 || true
    echo "triton $v 07/08 small (text of $c): $(ls "$out"/*.ptx 2>/dev/null | wc -l) kernels ($out.log)"
    mkdir -p "tests/data/ptx/rel100/gluon/$v"
    for n in g07_persistent_matmul_pipelined_kernel_grouped8_128x256x64_b3_w4 g08_matmul_warp_specialized_kernel_grouped8_128x256x64_b4_sub4; do
      [ -f "$out/$n.ptx" ] && cp "$out/$n.ptx" "$out/$n.json" "tests/data/ptx/rel100/gluon/$v/"
    done
    # 3.7.0 compiles no 08 matmul (its frontend: "error encountered during parsing"): 07's pipelined one instead
    n=g07_matmul_pipelined_kernel_mmav5_128x256x64_b4_w4
    [ -f "$out/g08_matmul_warp_specialized_kernel_grouped8_128x256x64_b4_sub4.ptx" ] || cp "$out/$n.ptx" "$out/$n.json" "tests/data/ptx/rel100/gluon/$v/"
    case $v in 3.5.*) continue ;; 3.6.*|3.7.*) c=release/3.7.x ;; esac
    src=$(tutorials_src "$mirror" "$c")
    PYTHONPATH="$top/triton-$v" nice "$venv/bin/python" $gen --src "$src" --out "$out-101114" --arch 100 \
      --only '^(g10|g11|g14)' --work "$top/work-$v" > "$out-101114.log" 2>&1 || true
    echo "  10, 11, 14 (text of $c): $(ls "$out-101114"/*.ptx 2>/dev/null | wc -l) kernels ($out-101114.log)"
  done
}
gluon_1014() { # Gluon 10, 11, 14 for 3.6-3.9 (issue 52, r52e): 3.8 and 3.9 from their own branch (release/3.8.x,
  # HEAD); 3.6 and 3.7 take 10 and 11 from release/3.7.x texts of the API their Gluon has (tensor_memory_descriptor.
  # load(layout), get_tmem_reg_layout, aggregates with their own __init__): 3.6 from a7b1dbfb2 (the first, 2026-04-21,
  # which doubles an fp4-padded operand's TMA coordinate along K, as 3.6.0's compiler needs), 3.7 from f27af4187
  # (2026-04-24, #9082: the compiler doubles it, 3.7.0's does); 14 from release/3.7.x (its only text). Every kernel
  # under $top/g1014-V; the CTest subset (keep, below) to tests/data/ptx/rel100/gluon1014/V
  local mirror=$1 gen=tests/data/ptx/census/gen_triton_corpus.py v c n out part only src
  shift
  local keep="g10_tcgen05_copy_kernel_256x64_tmem16_swz32 g10_matmul_accumulate_kernel_128x64x64_b3
    g11_simple_mma_scaled_kernel_nvfp4xnvfp4 g11_mma_scaled_contig_kernel_mxfp4xmxfp4 g11_mma_scaled_pipelined_kernel_nvfp4xnvfp4
    g11_mma_scaled_warp_specialized_kernel_mxfp8xmxfp4 g14_multicta_softmax_kernel_16x65536_ctas4
    g14_tma_multicast_copy_kernel g14_tma_tcgen05_kernel"
  for v in "$@"; do
    install_release "$v"
    out=$top/g1014-$v
    rm -rf "$out" && mkdir -p "$out"
    for part in 1011 14; do
      only='^(g10|g11)'; [ $part = 14 ] && only='^g14'
      case $v-$part in 3.6.*-1011) c=a7b1dbfb2 ;; 3.7.*-1011) c=f27af4187 ;; 3.[67].*) c=release/3.7.x ;; 3.8.*) c=release/3.8.x ;; *) c=HEAD ;; esac
      src=$(tutorials_src "$mirror" "$c")
      PYTHONPATH="$top/triton-$v" nice "$venv/bin/python" $gen --src "$src" --out "$out/$part" --arch 100 \
        --only "$only" --work "$top/work-$v" > "$out/$part.log" 2>&1 || true
      echo "triton $v, Gluon $part (text of $c): $(ls "$out/$part"/*.ptx 2>/dev/null | wc -l) kernels ($out/$part.log)"
    done
    rm -rf "tests/data/ptx/rel100/gluon1014/$v" && mkdir -p "tests/data/ptx/rel100/gluon1014/$v"
    local more=g14_multicta_softmax_kernel_64x256_ctas1
    # 3.6.0's tcgen05.cp of B's second block of scale factors lands on the first block's columns (docs/fidelity.md)
    case $v in 3.6.*) more="$more g11_mma_scaled_tcgen05_copy_kernel_mxfp8xmxfp8" ;; esac
    for n in $keep $more; do
      # 3.7.0 compiles no 4-CTA softmax (its ReduceOpToLLVM asserts a reduction within a CTA): the 1-CTA one instead
      if [ "$n" = g14_multicta_softmax_kernel_64x256_ctas1 ] && [ -f "$out/14/g14_multicta_softmax_kernel_16x65536_ctas4.ptx" ]; then
        continue
      fi
      for f in "$out"/*/"$n".ptx; do
        if [ -f "$f" ]; then cp "$f" "${f%.ptx}.json" "tests/data/ptx/rel100/gluon1014/$v/"; fi
      done
    done
  done
}
case $what in
  gluon1014)
    gluon_1014 "${MIRROR:?MIRROR: a git directory of facebookexperimental/triton}" ${*:-3.6.0 3.7.0 3.8.0 3.9.0} ;;
  door)
    [ -d "$top/tc5/tc5" ] || "$venv/bin/pip" install -q --no-deps --no-build-isolation --target "$top/tc5" .
    for v in $versions; do
      install_release "$v"
      log=$top/door-$v.txt
      (cd build && PYTHONPATH="$top/triton-$v:$top/tc5" TC5_CLI="$(pwd)/tc5" "$venv/bin/python" -m pytest -q \
        -p no:cacheprovider -rf --continue-on-collection-errors ../tests/python/test_triton.py ../tests/python/test_triton_driver.py ../tests/python/test_triton_gluon.py > "$log" 2>&1) || true
      echo "triton $v: $(grep -E '(passed|failed|skipped|error).* in [0-9.]+s' "$log" | tail -1)"
      grep '^FAILED' "$log" | sed 's/^/  /' || true
    done ;;
  corpus)
    src=${TUTORIALS:?TUTORIALS: a checkout holding python/tutorials}
    gen=tests/data/ptx/census/gen_triton_corpus.py
    for v in $versions; do
      install_release "$v"
      s=$src
      case $v in 3.3.*) s=${TUTORIALS_3_3:?TUTORIALS_3_3: the release/3.3.x tutorials} ;; esac
      for arch in 100 90; do
        out=$top/corpus-$v-$arch
        # sm_90a from 3.8 on: PTX ISA 8.7, as the earlier releases write (the H200's driver
        # loads no newer: gpu/run.sh rel90)
        opt=; case $arch-$v in 90-3.[89].*) opt="--ptx-version 87" ;; esac
        PYTHONPATH="$top/triton-$v" "$venv/bin/python" $gen --src "$s" --out "$out" --arch $arch --only t03 \
          --variants fp16_128x256x64_w8s3 --work "$top/work-$v" $opt > "$out.log" 2>&1 || true
        tail -1 "$out.log"
        f=$out/t03_matmul_kernel_fp16_128x256x64_w8s3
        [ -f "$f.ptx" ] || continue
        dst=tests/data/ptx/rel$arch/t03_matmul_fp16_128x256x64_w8s3_$v
        cp "$f.ptx" "$dst.ptx"
        cp "$f.json" "$dst.json"
      done
    done
    python3 tests/data/ptx/rel100/gen_inputs.py
    python3 tests/data/ptx/rel90/gen_inputs.py ;;
  tutorials)
    # the other tutorials (01, 02, 05, 10, 11) and Gluon's 06 and 12 for sm_100a, each release with the
    # tutorial texts of its own release branch of MIRROR (a git directory of facebookexperimental/triton:
    # release/3.3.x for 3.3, 3.5.x for 3.4 and 3.5, 3.7.x for 3.6 and 3.7, 3.8.x for 3.8, HEAD for 3.9);
    # every kernel under $top/tut-V (the table of docs/fidelity.md), the ones the CTest
    # triton_releases_tutorials runs copied to tests/data/ptx/rel100/tutorials/V
    mirror=${MIRROR:?MIRROR: a git directory of facebookexperimental/triton}
    gen=tests/data/ptx/census/gen_triton_corpus.py
    keep='^(t02_softmax_kernel_fp32_256x1024|t05_layer_norm_fwd_fused_fp16_256x1024|t10_block_scaled_matmul_mxfp8|g06_small_mma_kernel_lhssmem_commit_m64|g12_persistent_matmul_kernel_clc)$'
    for v in $versions; do
      install_release "$v"
      b=$(release_branch "$v")
      src=$(tutorials_src "$mirror" "$b")
      out=$top/tut-$v
      rm -rf "$out"
      PYTHONPATH="$top/triton-$v" nice "$venv/bin/python" $gen --src "$src" --out "$out" --arch 100 \
        --only '^(t01|t02|t05|t10|t11|g06|g12)' --variants '256x1024|mxfp|nvfp4|mixed|commit_m64|clc|fp32$' \
        --work "$top/work-$v" > "$out.log" 2>&1 || true
      echo "triton $v ($b): $(ls "$out"/*.ptx 2>/dev/null | wc -l) kernels; $(grep -c '^\[FAIL\]' "$out.log") not compiled ($out.log)"
      dst=tests/data/ptx/rel100/tutorials/$v
      rm -rf "$dst" && mkdir -p "$dst"
      for f in "$out"/*.ptx; do
        n=$(basename "$f" .ptx)
        [[ $n =~ $keep ]] && cp "$f" "$out/$n.json" "$dst/"
      done
      # tutorial 06's forward, fp16, d 64 (CTest triton_releases_t06_V)
      PYTHONPATH="$top/triton-$v" nice "$venv/bin/python" $gen --src "$src" --out "$out-t06" --arch 100 \
        --only '^t06' --variants 'fp16_d64_full$' --work "$top/work-$v" > "$out-t06.log" 2>&1 || true
      if [ -f "$out-t06/t06_attn_fwd_fp16_d64_full.ptx" ]; then
        mkdir -p "tests/data/ptx/rel100/attn/$v"
        cp "$out-t06"/t06_attn_fwd_fp16_d64_full.{ptx,json} "tests/data/ptx/rel100/attn/$v/"
      fi
      f=$out-t06/t06_attn_bwd_fp16_d64_full  # the backward (CTest triton_releases_t06_bwd)
      [ -f "$f.ptx" ] && mkdir -p tests/data/ptx/rel100/attn_bwd && cp "$f.ptx" "tests/data/ptx/rel100/attn_bwd/t06_attn_bwd_fp16_d64_full_$v.ptx" &&
        cp "$f.json" "tests/data/ptx/rel100/attn_bwd/t06_attn_bwd_fp16_d64_full_$v.json"
      # sm_90a: tutorials 02 and 05 (CTest triton_releases_tutorials_sm90)
      PYTHONPATH="$top/triton-$v" nice "$venv/bin/python" $gen --src "$src" --out "$out-90" --arch 90 \
        --only '^(t02|t05)' --variants '256x1024' --work "$top/work-$v" > "$out-90.log" 2>&1 || true
      dst=tests/data/ptx/rel90/tutorials/$v
      rm -rf "$dst" && mkdir -p "$dst"
      for n in t02_softmax_kernel_fp32_256x1024 t05_layer_norm_fwd_fused_fp16_256x1024; do
        [ -f "$out-90/$n.ptx" ] && cp "$out-90/$n.ptx" "$out-90/$n.json" "$dst/"
      done
    done ;;
  t08t09|sm90)
    # t08t09: tutorials 08 (grouped GEMM) and 09 (persistent matmul), f16, for sm_100a, 3.3 on
    #   (every kernel under $top/t0809-V; the CTest subset copied to tests/data/ptx/rel100/tutorials/V);
    # sm90: the sm_90a corpus from Triton 3.0: tutorials 02, 03 (its first config), 05, 08, 09 (f16)
    #   under $top/sm90-V (the CTest subset to tests/data/ptx/rel90/tutorials/V; tutorial 03 to
    #   tests/data/ptx/rel90, what gpu/run.sh rel90 runs on the H200) and 06's forward (fp16, d 64,
    #   Z,H,N_CTX = 1,2,256) under $top/sm90-V-t06 (tests/data/ptx/rel90/attn/V).
    # Tutorial texts as `tutorials` takes them; 3.0-3.2 have no release branch in
    # facebookexperimental/triton: they compile release/3.3.x's (the oldest it has)
    mirror=${MIRROR:?MIRROR: a git directory of facebookexperimental/triton}
    gen=tests/data/ptx/census/gen_triton_corpus.py
    [ "$what" = sm90 ] && versions=${*:-3.0.0 3.1.0 3.2.0 $versions}
    for v in $versions; do
      install_release "$v"
      b=$(release_branch "$v")
      src=$(tutorials_src "$mirror" "$b")
      if [ "$what" = t08t09 ]; then
        out=$top/t0809-$v arch=100 only='^(t08|t09)' vars='fp16'; opt=
      else
        out=$top/sm90-$v arch=90 only='^(t02|t03|t05|t08|t09)' vars='256x1024|fp16_128x256x64_w8s3$|t0[89].*fp16'
        opt=; case $v in 3.[89].*) opt="--ptx-version 87" ;; esac
      fi
      rm -rf "$out"
      PYTHONPATH="$top/triton-$v" nice "$venv/bin/python" $gen --src "$src" --out "$out" --arch $arch \
        --only "$only" --variants "$vars" --work "$top/work-$v" $opt > "$out.log" 2>&1 || true
      echo "triton $v ($b, sm_$arch): $(ls "$out"/*.ptx 2>/dev/null | wc -l) kernels; $(grep -c '^\[FAIL\]' "$out.log") not compiled ($out.log)"
      # the CTest subset (triton_releases_tutorials_V, triton_releases_tutorials_sm90_V)
      if [ "$what" = t08t09 ]; then
        dst=tests/data/ptx/rel100/tutorials/$v
        keep="t08_grouped_matmul_tma_kernel_fp16_128x128x64_w4s3 t09_matmul_kernel_descriptor_persistent_fp16_128x256x64_w8s3_subtile_ws"
      else
        dst=tests/data/ptx/rel90/tutorials/$v
        keep="t02_softmax_kernel_fp32_256x1024 t05_layer_norm_fwd_fused_fp16_256x1024 t08_grouped_matmul_tma_kernel_fp16_128x128x64_w4s3
              t09_matmul_kernel_descriptor_persistent_fp16_128x256x64_w8s3_subtile"
        case $v in 3.[012].*) keep="$keep t08_grouped_matmul_kernel_fp16_128x128x64 t09_matmul_kernel_fp16_128x256x64_w8s3" ;; esac
        n=t03_matmul_kernel_fp16_128x256x64_w8s3
        [ -f "$out/$n.ptx" ] && cp "$out/$n.ptx" "tests/data/ptx/rel90/t03_matmul_fp16_128x256x64_w8s3_$v.ptx" &&
          cp "$out/$n.json" "tests/data/ptx/rel90/t03_matmul_fp16_128x256x64_w8s3_$v.json"
      fi
      mkdir -p "$dst"
      for n in $keep; do [ -f "$out/$n.ptx" ] && cp "$out/$n.ptx" "$out/$n.json" "$dst/"; done
      if [ "$what" = sm90 ]; then
        rm -rf "$out-t06"
        PYTHONPATH="$top/triton-$v" nice "$venv/bin/python" $gen --src "$src" --out "$out-t06" --arch 90 \
          --only '^t06' --variants 'fp16_d64_full$' --attn-shape 1,2,256 --bwd-90 --work "$top/work-$v" $opt > "$out-t06.log" 2>&1 || true
        echo "  t06: $(ls "$out-t06"/*.ptx 2>/dev/null | wc -l) kernels ($out-t06.log)"
        f=$out-t06/t06_attn_fwd_fp16_d64_full
        [ -f "$f.ptx" ] && mkdir -p tests/data/ptx/rel90/attn && cp "$f.ptx" "tests/data/ptx/rel90/attn/t06_attn_fwd_fp16_d64_full_$v.ptx" &&
          cp "$f.json" "tests/data/ptx/rel90/attn/t06_attn_fwd_fp16_d64_full_$v.json"
        f=$out-t06/t06_attn_bwd_fp16_d64_full  # the backward (CTest triton_releases_t06_bwd_sm90)
        [ -f "$f.ptx" ] && mkdir -p tests/data/ptx/rel90/attn_bwd && cp "$f.ptx" "tests/data/ptx/rel90/attn_bwd/t06_attn_bwd_fp16_d64_full_$v.ptx" &&
          cp "$f.json" "tests/data/ptx/rel90/attn_bwd/t06_attn_bwd_fp16_d64_full_$v.json"
      fi
    done
    [ "$what" = sm90 ] && python3 tests/data/ptx/rel90/gen_inputs.py  # the manifest of gpu/run.sh rel90
    ;;
  gluon)
    # Gluon's tutorial 06 (tcgen05) for the releases whose own release branch's Gluon tutorials use API
    # newer than the release (3.5-3.7): the text of the upstream commit, in facebookexperimental/triton's
    # history, that the release's Gluon compiles (3.5: 4b9250533, "[Gluon][Tutorials] Add Tutorials
    # (#7657)", 2025-08-13; 3.6, 3.7: b6201360e, "[RELAND][LAYOUTS] Generate distributed layouts for
    # tcgen05.ld/st generically (#8421)", 2025-10-29; the next change of the file, c72bdad9e, takes the
    # register layout from the memory, 3.8's API). 3.4's Gluon lacks NVMMASharedLayout.get_default_for,
    # which every version of the tutorial uses; 3.3 has no Gluon.
    mirror=${MIRROR:?MIRROR: a git directory of facebookexperimental/triton}
    gen=tests/data/ptx/census/gen_triton_corpus.py
    for v in ${*:-3.5.1 3.6.0 3.7.0}; do
      install_release "$v"
      case $v in 3.5.*) c=4b9250533 ;; *) c=b6201360e ;; esac
      src=$(tutorials_src "$mirror" "$c")
      out=$top/gluon-$v
      rm -rf "$out"
      PYTHONPATH="$top/triton-$v" nice "$venv/bin/python" $gen --src "$src" --out "$out" --arch 100 \
        --only '^g06' --work "$top/work-$v" > "$out.log" 2>&1 || true
      echo "triton $v (tutorial text of $c): $(ls "$out"/*.ptx 2>/dev/null | wc -l) kernels ($out.log)"
      # 07 (persistence) and 08 (warp specialisation): 3.6 and 3.7 need f489981e2's text (its aggregates'
      # __init__ as their frontend takes them; #7657's fails there: "Unsupported function referenced")
      case $v in 3.5.*) c78=4b9250533 ;; *) c78=f489981e2 ;; esac
      src78=$(tutorials_src "$mirror" "$c78")
      PYTHONPATH="$top/triton-$v" nice "$venv/bin/python" $gen --src "$src78" --out "$out-78" --arch 100 \
        --only '^(g07|g08)' --work "$top/work-$v" > "$out-78.log" 2>&1 || true
      echo "  07, 08 (text of $c78): $(ls "$out-78"/*.ptx 2>/dev/null | wc -l) kernels ($out-78.log)"
      f=$out/g06_small_mma_kernel_lhssmem_commit_m64
      [ -f "$f.ptx" ] && mkdir -p "tests/data/ptx/rel100/tutorials/$v" && cp "$f.ptx" "$f.json" "tests/data/ptx/rel100/tutorials/$v/"
    done
    gluon_small "$mirror" ;;
  t06fwd)
    # tutorial 06's 17 forward variants (fp16 and fp8 e5m2, d 64 and 128, full and causal, with and without
    # warp specialisation, d 128's 128/128/3/8 config) for sm_100a, each release's branch text (as tutorials),
    # Z,H,N_CTX = 1,2,256 under $top/t06fwd-V (the table of docs/fidelity.md; tests/ptx/triton_attention.py
    # DIR runs them); the fp8 ones again with one head (1,1,256: the tutorial's fp8 V descriptor names V's
    # elements only for Z H = 1) under $top/t06fwd1-V; five a release copied to tests/data/ptx/rel100/attn_fwd/V
    # (CTest triton_releases_t06_fwd_V). 3.3.1 compiles none (its text fills the descriptors on the host).
    mirror=${MIRROR:?MIRROR: a git directory of facebookexperimental/triton}
    gen=tests/data/ptx/census/gen_triton_corpus.py
    for v in ${*:-3.4.0 3.5.1 3.6.0 3.7.0 3.8.0 3.9.0}; do
      install_release "$v"
      b=$(release_branch "$v")
      src=$(tutorials_src "$mirror" "$b")
      out=$top/t06fwd-$v
      rm -rf "$out" "$out-1"
      PYTHONPATH="$top/triton-$v" nice "$venv/bin/python" $gen --src "$src" --out "$out" --arch 100 \
        --only '^t06' --variants fwd --attn-shape 1,2,256 --work "$top/work-$v" > "$out.log" 2>&1 || true
      PYTHONPATH="$top/triton-$v" nice "$venv/bin/python" $gen --src "$src" --out "$out-1" --arch 100 \
        --only '^t06' --variants 'fwd_fp8' --attn-shape 1,1,256 --work "$top/work-$v" > "$out-1.log" 2>&1 || true
      echo "triton $v ($b): $(ls "$out"/*.ptx 2>/dev/null | wc -l) + $(ls "$out-1"/*.ptx 2>/dev/null | wc -l) kernels ($out.log)"
      dst=tests/data/ptx/rel100/attn_fwd/$v
      rm -rf "$dst" && mkdir -p "$dst"
      for n in fp16_d64_causal fp16_d64_causal_ws fp16_d128_full; do
        [ -f "$out/t06_attn_fwd_$n.ptx" ] && cp "$out/t06_attn_fwd_$n".{ptx,json} "$dst/"
      done
      for n in fp8e5_d64_causal fp8e5_d128_full_ws; do
        [ -f "$out-1/t06_attn_fwd_$n.ptx" ] && cp "$out-1/t06_attn_fwd_$n".{ptx,json} "$dst/"
      done
    done ;;
  *) echo "usage: scripts/triton_releases.sh door|corpus|tutorials|t08t09|sm90|gluon|gluon1014|t06fwd [VERSION...]" >&2; exit 2 ;;
esac
