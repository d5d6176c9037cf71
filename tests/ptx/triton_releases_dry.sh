#!/usr/bin/env bash
# scripts/triton_releases.sh without downloads or compilers (CTest triton_releases_dry): the script runs in
# a sandbox where git, pip, the release's python and scripts/data_archive.sh are stubs that log their calls
# (git archive hands back a tar whose python/tutorials/REV names the revision asked for). Checks which
# tutorial text each release's generator reads (release_branch, the Gluon commits), that each revision is
# extracted once (tutorials_src), and that a failing git archive stops the script before any generator runs.
# Usage: tests/ptx/triton_releases_dry.sh SOURCE_DIR   (prints "triton_releases.sh dry run: N checks passed")
set -euo pipefail
src=$(cd "${1:?usage: triton_releases_dry.sh SOURCE_DIR}" && pwd)
sb=$(mktemp -d)
trap 'rm -rf "$sb"' EXIT
L=$sb/calls.log
top=$sb/build/triton-releases
mkdir -p "$sb/scripts" "$sb/stub" "$top/venv/bin" "$top/tc5/tc5"
cp "$src/scripts/triton_releases.sh" "$sb/scripts/"
printf 'echo "data_archive $*" >> %s\n' "$L" > "$sb/scripts/data_archive.sh"
for v in 3.0.0 3.4.0 3.5.1 3.6.0 3.7.0 3.8.0 3.9.0 3.3.1; do mkdir -p "$top/triton-$v/triton"; done
cat > "$sb/stub/git" <<EOF
#!/bin/sh
echo "git archive \$3" >> "$L"
t=\$(mktemp -d); mkdir -p "\$t/python/tutorials"; echo "\$3" > "\$t/python/tutorials/REV"
tar -C "\$t" -c python; rm -rf "\$t"
EOF
cat > "$sb/stub/py" <<EOF
#!/bin/sh
# a generator call: the release (from PYTHONPATH) and the text revision it reads; its output folder with
# the one kernel the script copies unguarded (Gluon 07's pipelined matmul, where no 08 was compiled)
v=\${PYTHONPATH##*triton-}; v=\${v%%:*}
while [ \$# -gt 0 ]; do case \$1 in
  --src) echo "gen \$v \$(cat "\$2/python/tutorials/REV")" >> "$L" ;;
  --out) mkdir -p "\$2" && touch "\$2/g07_matmul_pipelined_kernel_mmav5_128x256x64_b4_w4".ptx "\$2/g07_matmul_pipelined_kernel_mmav5_128x256x64_b4_w4".json ;;
esac; shift; done
EOF
printf '#!/bin/sh\necho "pip $*" >> %s\n' "$L" > "$top/venv/bin/pip"
chmod +x "$sb/stub/git" "$sb/stub/py" "$top/venv/bin/pip"
ln -s "$sb/stub/py" "$top/venv/bin/python"
run() { (cd "$sb" && PATH=$sb/stub:$PATH MIRROR=/mirror bash scripts/triton_releases.sh "$@" > /dev/null 2>&1) || true; }
run tutorials 3.3.1 3.5.1 3.7.0 3.8.0 3.9.0
run sm90 3.0.0 3.4.0
run t06fwd 3.6.0
GLUON_VERSIONS="3.5.1 3.8.0" run gluon 3.5.1 3.6.0
run gluon1014 3.6.0 3.7.0 3.9.0
got=$(grep -E '^(gen|git)' "$L" | uniq)
# tutorials: each release its branch (3 generator calls a release); sm90: 3.0 reads 3.3.x's (2 calls); t06fwd
# (2); gluon: 06 and 07/08 from the commits its Gluon compiles, then the small 07/08 (and 10, 11, 14 for 3.6+);
# gluon1014: 10/11 and 14 from their texts
want="git archive release/3.3.x
gen 3.3.1 release/3.3.x
git archive release/3.5.x
gen 3.5.1 release/3.5.x
git archive release/3.7.x
gen 3.7.0 release/3.7.x
git archive release/3.8.x
gen 3.8.0 release/3.8.x
git archive HEAD
gen 3.9.0 HEAD
gen 3.0.0 release/3.3.x
gen 3.4.0 release/3.5.x
gen 3.6.0 release/3.7.x
git archive 4b9250533
gen 3.5.1 4b9250533
git archive b6201360e
gen 3.6.0 b6201360e
git archive f489981e2
gen 3.6.0 f489981e2
gen 3.5.1 4b9250533
gen 3.8.0 release/3.8.x
git archive a7b1dbfb2
gen 3.6.0 a7b1dbfb2
gen 3.6.0 release/3.7.x
git archive f27af4187
gen 3.7.0 f27af4187
gen 3.7.0 release/3.7.x
gen 3.9.0 HEAD"
if [ "$got" != "$want" ]; then
  echo "triton_releases.sh dry run: the generators read other texts than expected:"
  diff <(echo "$want") <(echo "$got") || true
  exit 1
fi
# a mirror without the revision: the script stops (non-zero) before any generator runs
printf '#!/bin/sh\nexit 128\n' > "$sb/stub/git"
rm -rf "$top"/src-* && : > "$L"
rc=0; (cd "$sb" && PATH=$sb/stub:$PATH MIRROR=/mirror bash scripts/triton_releases.sh tutorials 3.6.0 > /dev/null 2>&1) || rc=$?
if [ $rc = 0 ] || grep -q '^gen' "$L"; then
  echo "triton_releases.sh dry run: a failing git archive did not stop the script (exit $rc)"
  exit 1
fi
echo "triton_releases.sh dry run: $(echo "$want" | wc -l) calls as expected, a failing git archive stops it (exit $rc)"
