#!/bin/bash
# gpu/run.sh peer-liger|peer-flaggems OUTDIR: a peer suite's whole test files (issue 50: Liger-Kernel
# 0.8.5's test/transformers, FlagGems 5.0.2's tests/) through tc5 on the lent machine's CPUs. The GPU
# is not used: CUDA_VISIBLE_DEVICES= hides it, so PyTorch sees no CUDA and tc5.device answers for the
# "cuda" tensors as on a CPU machine (checked, OUTDIR/env.txt). tc5 is built from this checkout into a
# virtual environment on the machine's site packages (--system-site-packages: its torch, Triton,
# transformers, pytest; no network), so Triton finds tc5's backend by the installed entry point and
# the .pth start-up hooks run; the peer harness (scripts/peer_harness.py) runs the suite's cases with
# --every 1, its local engine (chunk processes, a deadline, resume).
#
# Environment (all optional):
#   TC5_PEER_JOBS       chunk processes at a time (default: the CPUs of TC5_PEER_CPUS, or nproc)
#   TC5_PEER_CPUS       taskset CPU list for the suite (default: all)
#   TC5_PEER_CHUNK      cases a pytest process (default 16)
#   TC5_PEER_BUDGET     wall seconds for this whole command (default 0: no deadline); the harness's
#                       --deadline is what is left after the build, less 40 s for the chunks' stop (SIGINT:
#                       the cases a chunk finished are kept, the rest not run) and for writing the results
#   TC5_PEER_RESUME     a work.tar.xz of an earlier call (OUTDIR/work.tar.xz): its finished chunks are
#                       kept (the same ids file, the same chunk size) and the rest run
#   TC5_PEER_IDS        the cases (a file of node ids; default: the suite's collection, written to
#                       OUTDIR/ids.txt, --every 1)
#   TC5_PEER_GROUPS     a file of lines "IDSFILE CHUNK JOBS": each a harness run of its own (work dir g0, g1...),
#                       all at the same time, their results merged (in the order of TC5_PEER_IDS): heavy
#                       cases in small chunks beside light ones in large (a deadline stops a chunk whole,
#                       and each chunk is a process start); default one group (the ids, CHUNK, JOBS)
#   TC5_PEER_FILES      the suite's --files (comma-separated test files; default all)
#   TC5_PEER_PKG        a tc5-site.tar.xz of an earlier call (OUTDIR/tc5-site.tar.xz): tc5 installed
#                       from it instead of built (the same checkout, the same machine image)
#   TC5_PEER_CPU_LIMIT  CPU seconds a case (default 120: the harness's per-case limit)
#   TC5_THREADS, OMP_NUM_THREADS  host threads a chunk process (default 1 each: the processes share the cores)
#   TC5_PEER_VENV, TC5_PEER_WORK  the virtual environment and the work directory (default /tmp/tc5-peer-venv,
#                       /tmp/tc5-peer-SUITE): the two suites can run at the same time on one machine with two
#                       environments (the second with TC5_PEER_PKG of the first: flag_gems stays out of Liger's)
#   TC5_LIGER_SDIST     liger_kernel-0.8.5.tar.gz (peer-liger; its SHA-256 is checked by liger_peer.py)
#   TC5_FLAGGEMS_TESTS  a tar of FlagGems' tests/ at the pin (peer-flaggems; git archive PIN tests,
#                       xz or gz; its manifest is checked by flaggems_peer.py)
#   TC5_FLAGGEMS_SITE   a tar of FlagGems' wheel's installed package (flag_gems/, and any of its
#                       dependencies the machine lacks), unpacked into the environment
#   TC5_PEER_MEASURE    a file of node ids: each also run alone, beside the suite, on 2 cores of its own
#                       (taskset), TC5_THREADS=2, a 120 s wall limit (TC5_PEER_TIMEOUT=120: the harness's
#                       SIGALRM, as pytest-timeout's signal method), no CPU limit, one after another
#                       (OUTDIR/measure2/: the issue's measure, "within their timeouts on 2 cores"); on CPUs 0,1,
#                       or with TC5_PEER_MEASURE_PAIRS=P on P pairs of CPUs at the same time, each pair two
#                       physical cores (lscpu's CORE column: one CPU a core), the ids dealt round-robin; with
#                       TC5_PEER_MEASURE1=1 also each on one thread, no limit, on the next 3 CPUs
#                       (OUTDIR/measure1/). Leave those CPUs out of TC5_PEER_CPUS. TC5_PEER_GROUPS=/dev/null runs
#                       the measurement alone (the command then waits for it, within TC5_PEER_BUDGET).
# Output, OUTDIR: env.txt (versions, the checks), build.log, ids.txt, whole_results.tsv and
# whole_results.cost.tsv (the harness's, so far: --from-work; the groups' gK.tsv), run.log, runK.log, work.tar.xz (the chunks'
# selections and junit XML, for TC5_PEER_RESUME), logs.tar.xz (the chunks' pytest logs), tc5-site.tar.xz.
set -u
suite=${1:?usage: gpu/run.sh peer-liger|peer-flaggems OUTDIR}
out=${2:-build-gpu/out}
T0=$(date +%s)
mkdir -p "$out"
out=$(cd "$out" && pwd)
repo=$(cd "$(dirname "$0")/.." && pwd)
case $suite in liger|flaggems) ;; *) echo "gpu/peer_whole.sh: suite $suite: liger or flaggems" >&2; exit 2;; esac
export CUDA_VISIBLE_DEVICES= PYTHONUNBUFFERED=1
venv=${TC5_PEER_VENV:-/tmp/tc5-peer-venv}
work=${TC5_PEER_WORK:-/tmp/tc5-peer-$suite}
cpus=${TC5_PEER_CPUS:-}
if [ -n "$cpus" ]; then
  ncpu=$(taskset -c "$cpus" nproc)
  pin="taskset -c $cpus"
else
  ncpu=$(nproc)
  pin=""
fi
jobs=${TC5_PEER_JOBS:-$ncpu}
chunk=${TC5_PEER_CHUNK:-16}
export TC5_PEER_CPU_LIMIT=${TC5_PEER_CPU_LIMIT:-120}

# --- tc5 into a virtual environment on the machine's packages ---
[ -x "$venv/bin/python" ] || python3 -m venv --system-site-packages "$venv"
py=$venv/bin/python
# where python3 is itself a virtual environment's (the lent machine's /opt/torch/.venv), --system-site-packages
# reaches its base interpreter's packages, not that environment's: add them (and their .pth files) by a .pth
parent=$(python3 -c "import sys, sysconfig; print(sysconfig.get_paths()['purelib'] if sys.prefix != sys.base_prefix else '')")
if [ -n "$parent" ]; then
  echo "import site; site.addsitedir('$parent')" > "$("$py" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")/_tc5_peer_parent.pth"
fi
if ! "$py" -c "import tc5._tc5" 2>/dev/null && [ -n "${TC5_PEER_PKG:-}" ]; then
  site=$("$py" -c "import sysconfig; print(sysconfig.get_paths()['platlib'])")
  tar xJf "$TC5_PEER_PKG" -C "$site" && echo "tc5: installed from $TC5_PEER_PKG" | tee -a "$out/env.txt"
fi
if ! "$py" -c "import tc5._tc5" 2>/dev/null; then
  if true; then
    # a copy of the source, so that the build's fallback (below) never touches the checkout
    src=/tmp/tc5-peer-src
    rm -rf "$src" && mkdir -p "$src"
    (cd "$repo" && tar cf - CMakeLists.txt pyproject.toml README.md cmake include src python cli bridge gpu) | tar xf - -C "$src"
    bflags=(--no-deps --no-build-isolation --config-settings=cmake.define.TC5_CUDA=OFF
            --config-settings=build-dir=/tmp/tc5-peer-build)
    CMAKE_BUILD_PARALLEL_LEVEL=$(nproc) "$venv/bin/pip" install -q "${bflags[@]}" "$src" > "$out/build.log" 2>&1
    if ! "$py" -c "import tc5._tc5" 2>/dev/null; then
      # another compiler's warnings (-Werror): the same build with warnings as warnings, said in env.txt
      echo "--- the build failed with -Werror; again without it" >> "$out/build.log"
      sed -i 's/-Werror;//' "$src/CMakeLists.txt"
      rm -rf /tmp/tc5-peer-build
      CMAKE_BUILD_PARALLEL_LEVEL=$(nproc) "$venv/bin/pip" install -q "${bflags[@]}" "$src" >> "$out/build.log" 2>&1
      echo "tc5 built without -Werror (build.log has the warnings that stopped it)" >> "$out/env.txt"
    fi
    if ! "$py" -c "import tc5._tc5"; then tail -40 "$out/build.log"; echo "gpu/peer_whole.sh: tc5 did not build" >&2; exit 1; fi
  fi
  site=$("$py" -c "import sysconfig; print(sysconfig.get_paths()['platlib'])")
  (cd "$site" && tar cJf "$out/tc5-site.tar.xz" tc5 tc5-*.dist-info tc5_*.pth tc5_*boot*.py 2>/dev/null)
fi
echo "tc5 ready at $(( $(date +%s) - T0 )) s" | tee -a "$out/env.txt"

if [ "$suite" = flaggems ] && [ -n "${TC5_FLAGGEMS_SITE:-}" ]; then
  site=$("$py" -c "import sysconfig; print(sysconfig.get_paths()['platlib'])")
  tar xf "$TC5_FLAGGEMS_SITE" -C "$site"
fi

# --- the checks: no CUDA without the shim; with it, tc5's device and Triton's tc5 backend ---
{
  echo "machine: $(nproc) CPUs, $(free -g | awk '/Mem:/{print $2}') GiB, $(. /etc/os-release; echo "$PRETTY_NAME")"
  "$py" - <<'EOF'
import sys, torch, triton
print("python", sys.version.split()[0], "torch", torch.__version__, "triton", triton.__version__)
print("without the shim: torch.cuda.is_available()", torch.cuda.is_available(), "device_count", torch.cuda.device_count())
for m in ("transformers", "tokenizers", "numpy", "pytest", "xdist", "pytest_timeout", "yaml", "sqlalchemy", "scipy",
          "cutlass.cute", "flag_gems"):
    try:
        mod = __import__(m, fromlist=["_"])
        print(m, getattr(mod, "__version__", "imports"))
    except Exception as e:
        print(m, "absent:", type(e).__name__, str(e)[:100])
from importlib.metadata import entry_points
print("triton.backends entry points:", sorted(e.name + "=" + e.value for e in entry_points(group="triton.backends")))
EOF
  # Triton reads a kernel's source from its file
  cat > /tmp/tc5-peer-check-$suite.py <<'EOF'
import torch, triton, tc5, tc5.triton
import triton.language as tl
print("tc5", tc5.__file__)
print("under the shim: torch.cuda.is_available()", torch.cuda.is_available(), torch.cuda.get_device_name(0),
      torch.cuda.get_device_capability(0))
print("Triton's active driver:", type(triton.runtime.driver.active).__module__)
@triton.jit
def add(x, y, n, B: tl.constexpr):
    i = tl.program_id(0) * B + tl.arange(0, B)
    tl.store(y + i, tl.load(x + i, mask=i < n) + 1, mask=i < n)
x = torch.arange(100, device="cuda", dtype=torch.float32)
y = torch.empty_like(x)
add[(1,)](x, y, 100, B=128)
print("a Triton kernel on tc5:", bool((y == x + 1).all()), "x.device", x.device, "is_cuda", x.is_cuda,
      "launches", tc5.triton.launches())
EOF
  TC5_TRITON=1 TC5_TRITON_TORCH_CUDA=1 "$py" /tmp/tc5-peer-check-$suite.py
} >> "$out/env.txt" 2>&1
cat "$out/env.txt"

# --- the suite ---
# one host thread a process (tc5's launches, PyTorch's CPU operators): the chunk processes share the cores (set
# here, after the build and the checks: nproc counts OMP_NUM_THREADS)
export TC5_THREADS=${TC5_THREADS:-1} OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
cd "$repo"
if [ "$suite" = liger ]; then
  src_args=(--sdist "${TC5_LIGER_SDIST:?TC5_LIGER_SDIST: liger_kernel-0.8.5.tar.gz}")
else
  tdir=/tmp/tc5-peer-flaggems-src
  if [ ! -d "$tdir/tests" ]; then mkdir -p "$tdir" && tar xf "${TC5_FLAGGEMS_TESTS:?TC5_FLAGGEMS_TESTS}" -C "$tdir"; fi
  src_args=(--src "$tdir")
fi
[ -n "${TC5_PEER_FILES:-}" ] && src_args+=(--files "$TC5_PEER_FILES")
mkdir -p "$work"
if [ -n "${TC5_PEER_RESUME:-}" ]; then tar xJf "$TC5_PEER_RESUME" -C "$work"; fi
ids=${TC5_PEER_IDS:-}
if [ -z "$ids" ]; then
  ids=$out/ids.txt
  if [ -f "$work/ids.txt" ]; then cp "$work/ids.txt" "$ids"
  else "$py" scripts/${suite}_peer.py "${src_args[@]}" --every 1 --list --work "$work" > "$ids" 2> "$out/list.err"; fi
fi
cp "$ids" "$work/ids.txt" 2>/dev/null
echo "$(grep -c . "$ids") cases at $(( $(date +%s) - T0 )) s" | tee -a "$out/env.txt"

budget=${TC5_PEER_BUDGET:-0}
dl=()
if [ "$budget" -gt 0 ]; then dl=(--deadline $(( budget - ($(date +%s) - T0) - 40 ))); fi
mpids=()
if [ -n "${TC5_PEER_MEASURE:-}" ]; then
  # the cases alone, beside the suite: each on 2 cores (one CPU of each of two physical cores), one after
  # another, TC5_THREADS=2, a 120 s wall limit (the harness's SIGALRM, as pytest-timeout's signal method would),
  # no CPU limit; and (TC5_PEER_MEASURE1=1) at the same time each on one thread (TC5_THREADS=1), no limit, on
  # the next 3 CPUs (its CPU seconds, which sharing a CPU does not change)
  pairs=${TC5_PEER_MEASURE_PAIRS:-1}
  mapfile -t mcpu < <(lscpu -p=CPU,CORE 2>/dev/null | grep -v '^#' | awk -F, '!seen[$2]++ {print $1}')
  [ "${#mcpu[@]}" -ge 2 ] || mcpu=($(seq 0 $(( $(nproc) - 1 ))))
  if [ "$pairs" -gt $(( ${#mcpu[@]} / 2 )) ]; then pairs=$(( ${#mcpu[@]} / 2 )); fi
  mkdir -p "$out/measure2" "$out/measure1"
  echo "measure: $pairs pair(s) of CPUs from one-a-core list ${mcpu[*]}" >> "$out/env.txt"
  for ((q = 0; q < pairs; q++)); do
    awk 'NF' "$TC5_PEER_MEASURE" | awk -v q=$q -v n=$pairs '(NR - 1) % n == q' > "/tmp/tc5-peer-measure-ids$q.txt"
    TC5_THREADS=2 OMP_NUM_THREADS=2 TC5_PEER_CPU_LIMIT=0 TC5_PEER_TIMEOUT=120 \
      taskset -c "${mcpu[$((2 * q))]},${mcpu[$((2 * q + 1))]}" "$py" scripts/${suite}_peer.py "${src_args[@]}" \
      --ids "/tmp/tc5-peer-measure-ids$q.txt" --engine local --jobs 1 --chunk 1 "${dl[@]}" \
      --work "/tmp/tc5-peer-measure2/q$q" --out "$out/measure2/q$q.tsv" > "$out/measure2/run$q.log" 2>&1 &
    mpids+=($!)
  done
  if [ "${TC5_PEER_MEASURE1:-0}" = 1 ]; then
    c0=$((2 * pairs))
    TC5_THREADS=1 TC5_PEER_CPU_LIMIT=0 TC5_PEER_TIMEOUT=1800 \
      taskset -c "${mcpu[$c0]},${mcpu[$((c0 + 1))]},${mcpu[$((c0 + 2))]}" "$py" scripts/${suite}_peer.py \
      "${src_args[@]}" --ids "$TC5_PEER_MEASURE" --engine local --jobs 3 --chunk 1 --work /tmp/tc5-peer-measure1 \
      --out "$out/measure1/results.tsv" > "$out/measure1/run.log" 2>&1 &
  fi
fi

# the groups: one harness run (the ids, TC5_PEER_CHUNK, TC5_PEER_JOBS), or TC5_PEER_GROUPS's, all at the same time
groups=${TC5_PEER_GROUPS:-$out/groups.txt}
[ -n "${TC5_PEER_GROUPS:-}" ] || echo "$ids $chunk $jobs" > "$groups"
k=0
pids=()
while read -r gids gchunk gjobs; do
  [ -n "$gids" ] || continue
  mkdir -p "$work/g$k"
  $pin "$py" scripts/${suite}_peer.py "${src_args[@]}" --ids "$gids" --engine local --jobs "$gjobs" \
    --chunk "$gchunk" "${dl[@]}" --work "$work/g$k" --out "$out/g$k.tsv" > "$out/run$k.log" 2>&1 &
  pids+=($!)
  k=$((k + 1))
done < "$groups"
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=$?; done
echo "suite rc=$rc at $(( $(date +%s) - T0 )) s" | tee -a "$out/env.txt"
# the results so far (every finished chunk of every group), whatever stopped the run, merged in the ids' order
for ((g = 0; g < k; g++)); do
  "$py" scripts/${suite}_peer.py --from-work "$work/g$g" --out "$out/g$g.tsv" >> "$out/run$g.log" 2>&1
done
"$py" scripts/peer_merge.py --combine "$ids" "$out/whole_results.tsv" "$out"/g[0-9]*.tsv >> "$out/run.log" 2>&1
"$py" scripts/${suite}_peer.py --triage-only "$out/whole_results.tsv" >> "$out/run.log" 2>&1
(cd "$work" && tar cJf "$out/work.tar.xz" ids.txt $(ls -d g*/chunk* | grep -E '/chunk[0-9]+\.(txt|xml|dropped)$'))
(cd "$work" && tar cJf "$out/logs.tar.xz" $(ls -d g*/chunk* | grep -E '/chunk[0-9]+\.log$'))
if [ "${#mpids[@]}" -gt 0 ]; then
  # the measurement: waited for when it runs alone (TC5_PEER_GROUPS empty: its deadline bounds it), else its
  # cases so far (the command's end stops the rest); its pairs' rows merged in TC5_PEER_MEASURE's order
  if [ "$k" = 0 ]; then for p in "${mpids[@]}"; do wait "$p"; done; fi
  for ((q = 0; q < pairs; q++)); do
    [ -d "/tmp/tc5-peer-measure2/q$q" ] && "$py" scripts/${suite}_peer.py --from-work "/tmp/tc5-peer-measure2/q$q" \
      --out "$out/measure2/q$q.tsv" >> "$out/measure2/run$q.log" 2>&1
    mkdir -p "$out/measure2/q$q" && cp /tmp/tc5-peer-measure2/q$q/chunk*.log "$out/measure2/q$q/" 2>/dev/null
  done
  "$py" scripts/peer_merge.py --combine "$TC5_PEER_MEASURE" "$out/measure2/results.tsv" "$out"/measure2/q[0-9]*.tsv \
    >> "$out/run.log" 2>&1
  if [ -d /tmp/tc5-peer-measure1 ]; then
    "$py" scripts/${suite}_peer.py --from-work /tmp/tc5-peer-measure1 --out "$out/measure1/results.tsv" \
      >> "$out/measure1/run.log" 2>&1
  fi
fi
tail -n 4 "$out"/run[0-9]*.log
tail -40 "$out/run.log"
echo "done at $(( $(date +%s) - T0 )) s"
exit $rc
