#!/bin/sh
# gpu/run.sh liger [OUTDIR]: Liger-Kernel 0.8.5's own tests that fail under tc5, run natively on
# the GPU (issue 50: "a test that fails on silicon too is not tc5's"). The release's sdist,
# pinned by SHA-256 (TC5_LIGER_SDIST, default ~/.cache/tc5/liger_kernel-0.8.5.tar.gz, as
# scripts/liger_peer.py keeps it), is unpacked unmodified; pytest runs the test ids of
# TC5_LIGER_IDS (default tests/data/liger/h200_ids.txt) from the sdist's root, whose pyproject
# puts src/ and the root on sys.path. No network is needed: Liger is pure Python and is imported
# from src/; its tests need torch, triton, numpy, packaging, transformers and tokenizers, which
# must be installed (a PYTHONPATH set by the caller is kept). The verdicts are the installed
# PyTorch's and Triton's on this GPU: a Hopper build, so the test's verdict is compared, not bytes.
# Liger picks a kernel per operator by what imports and the compute capability
# (liger_kernel/backends): OUTDIR/env.txt says which it resolved here.
# Output: OUTDIR/env.txt (versions, GPU, resolved implementations), OUTDIR/pytest.txt (pytest -v,
# short tracebacks), OUTDIR/h200_verdicts.tsv (nodeid, outcome, seconds, message: the failure's
# last line). Exit status: pytest's.
set -eu
out=${1:-build-gpu/out}
sdist=${TC5_LIGER_SDIST:-$HOME/.cache/tc5/liger_kernel-0.8.5.tar.gz}
ids=${TC5_LIGER_IDS:-tests/data/liger/h200_ids.txt}
sha=4e8f8f611a8ad735c37c989410d09820bb08881f131851a3967c34baa7889d66
mkdir -p "$out"
out=$(cd "$out" && pwd)
ids=$(cd "$(dirname "$ids")" && pwd)/$(basename "$ids")
if [ ! -f "$sdist" ]; then echo "gpu/run.sh liger: no sdist at $sdist (TC5_LIGER_SDIST)" >&2; exit 2; fi
got=$(sha256sum "$sdist" | cut -d' ' -f1)
if [ "$got" != "$sha" ]; then echo "gpu/run.sh liger: $sdist has SHA-256 $got, not $sha" >&2; exit 2; fi
work=$(mktemp -d)
tar xzf "$sdist" -C "$work"
cd "$work"/liger_kernel-0.8.5
export PYTHONPATH=$PWD/src:$PWD${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
{
  echo "sdist: $(basename "$sdist") sha256 $got"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  python3 - <<'EOF'
import sys, torch, triton
print("python", sys.version.split()[0], "torch", torch.__version__, "triton", triton.__version__, "cuda", torch.version.cuda)
try:
    print("gpu", torch.cuda.get_device_name(), "cc", torch.cuda.get_device_capability())
except Exception as e:
    print("gpu: none:", type(e).__name__, str(e)[:80])
for m in ("transformers", "tokenizers", "numpy", "pytest", "cutlass.cute", "cuda.tile"):
    try:
        mod = __import__(m, fromlist=["_"])
        print(m, getattr(mod, "__version__", "imports"))
    except Exception as e:
        print(m, "absent:", type(e).__name__, str(e)[:80])
import importlib
import liger_kernel.ops  # noqa: F401  (registers the implementations)
dispatch = importlib.import_module("liger_kernel.backends.dispatch")
for op in ("cross_entropy", "cross_entropy_loss_and_grad", "jsd", "jsd_loss_and_grad", "fused_linear_jsd",
           "kl_div", "kl_loss_and_grad"):
    try:
        print("liger impl", op, dispatch.resolve_impl(op).impl_name, "of", dispatch.all_impls(op))
    except Exception as e:
        print("liger impl", op, "-", type(e).__name__, str(e)[:100])
EOF
} > "$out/env.txt" 2>&1 || true
cat "$out/env.txt"
set -f
rc=0
# the ids one a line (comments and blank lines skipped); -p no:cacheprovider: nothing written
# into the sdist; log_cli off (Liger's pyproject turns it on)
python3 -m pytest -p no:cacheprovider -v --tb=short -o log_cli=false \
  --junitxml="$out/junit.xml" $(grep -v '^#' "$ids" | grep .) > "$out/pytest.txt" 2>&1 || rc=$?
python3 - "$out/junit.xml" "$out/h200_verdicts.tsv" <<'EOF' || true
import sys, xml.etree.ElementTree as ET
rows = []
for tc in ET.parse(sys.argv[1]).iter("testcase"):
    node = tc.get("classname").replace(".", "/") + ".py::" + tc.get("name")
    outcome, msg = "passed", ""
    for tag in ("failure", "error", "skipped"):
        e = tc.find(tag)
        if e is not None:
            outcome = {"failure": "failed", "error": "error", "skipped": "skipped"}[tag]
            lines = [ln for ln in (e.get("message") or e.text or "").splitlines() if ln.strip()]
            msg = (lines[0] if lines else "")[:300].replace("\t", " ")
            break
    rows.append(f"{node}\t{outcome}\t{float(tc.get('time') or 0):.1f}\t{msg}")
with open(sys.argv[2], "w") as f:
    f.write("# nodeid\toutcome\tseconds\tmessage\n" + "\n".join(rows) + "\n")
print("\n".join(rows))
EOF
tail -3 "$out/pytest.txt"
cd / && rm -rf "$work"
exit $rc
