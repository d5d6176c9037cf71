#!/bin/sh
# One case of the checker's seeded-bug catalogue (tests/check/catalogue.txt),
# or a correct kernel: ck_ok (tests/data/check/kernels.ptx, --check=strict
# --werror: no finding at all) and tr_ok (the unedited Triton kernel,
# --check=default: no finding). A bug case must end with exit 1, name its
# rule ("[rule]"), and leave the output as the catalogue says (same as the
# correct kernel's, changed, or none written).
# usage: catalogue.sh TC5 PTX_DATA ROOT NAME [SCHEDULES]
# With SCHEDULES (a count), the case runs instead with --check=none
# --schedules SCHEDULES (docs/check.md, "Schedules") and prints
# "NAME: schedules differ|agree|stop" (the run's first line under it).
set -eu
tc5=$1 gen=$2 root=$3 name=$4 nsched=${5:-}
cat=$root/tests/check/catalogue.txt
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# inputs and the reference of each kernel family
cuda_inputs() {
  "$gen" gen bf16 $((128 * 256)) 11 a.bin
  "$gen" gen bf16 $((64 * 256)) 12 b.bin
  "$tc5" gemm --kind f16 --atype bf16 --btype bf16 --m 128 --n 64 --k 256 --a a.bin --b b.bin --b-major K --out r1.bin
  cat r1.bin r1.bin > ref.bin # two tiles, the same product
}
cuda_run() { # entry mode
  "$tc5" run "$root/tests/data/check/kernels.ptx" --entry "$1" --grid 1 --block 128 --arg in:a.bin --arg in:b.bin \
    --arg "out:d.bin:$((2 * 128 * 64 * 4))" $2
}
triton_inputs() { # file: 256 x 256 x 192, as the corpus test of mm_bf16_f32_w4_s2
  "$gen" gen bf16 $((256 * 192)) 1 a.bin
  "$gen" gen bf16 $((192 * 256)) 2 b.bin
  triton_run "$root/tests/data/ptx/$1.ptx" --check=default >/dev/null 2>&1
  mv d.bin ref.bin
}
triton_run() { # ptx mode
  "$tc5" run "$1" --grid 2,2 --block 128 --shared-bytes 65552 --arg in:a.bin --arg in:b.bin \
    --arg "out:d.bin:$((256 * 256 * 4))" --arg u32:256 --arg u32:256 --arg u32:192 --arg null --arg null $2
}
# a hand-written kernel of tests/data/check/seeded (issue 33): FILE.ptx, entry k(out, bug, in), one CTA of
# BLOCK threads; bug = 0 is the correct kernel (its output is the reference: it must be silent in strict mode),
# bug = 1 the seeded bug; in: 512 bytes, out: 512 bytes
# (BLOCK xN: a cluster of N such CTAs, issue 53)
seeded_run() { # file block bug flags
  grid="--grid 1 --block $2"
  case $2 in *x*) grid="--grid ${2#*x} --cluster ${2#*x} --block ${2%x*}" ;; esac
  # shellcheck disable=SC2086
  "$tc5" run "$root/tests/data/check/seeded/$1.ptx" $grid --arg out:d.bin:512 --arg "u32:$3" \
    --arg in:x.bin $4
}
seeded_inputs() { # file block
  "$gen" gen bf16 256 7 x.bin
  seeded_run "$1" "$2" 0 "--check=strict --werror" > ref.txt 2>&1 || {
    echo "$name: the correct kernel (bug = 0) is not silent in strict mode"; cat ref.txt; exit 1; }
  mv d.bin ref.bin
}
# edit FILE OP ARG: the Triton PTX, edited, to k.ptx
edit() {
  awk -v op="$2" -v arg="$3" '
    BEGIN { i = index(arg, "|"); a = i ? substr(arg, 1, i - 1) : arg; b = i ? substr(arg, i + 1) : ""; done = 0 }
    op == "delete" && index($0, a) { next }
    op == "delete-line" && NR == a + 0 { next }
    op == "replace" { while ((p = index($0, a)) > 0) $0 = substr($0, 1, p - 1) b substr($0, p + length(a)) }
    { print }
    op == "after" && !done && index($0, a) { print b; done = 1 }
  ' "$1" > k.ptx
  cmp -s "$1" k.ptx && { echo "$name: the edit '$2 $3' changed nothing"; exit 1; }
  return 0
}

case $name in
ck_ok)
  cuda_inputs
  cuda_run ck_ok "--check=strict --werror"
  cmp -s d.bin ref.bin || { echo "ck_ok: output differs from tc5 gemm"; exit 1; }
  echo "ck_ok: no finding in strict mode; 16384 outputs equal to tc5 gemm"
  exit 0 ;;
tr_ok)
  "$gen" gen bf16 $((256 * 192)) 1 a.bin
  "$gen" gen bf16 $((192 * 256)) 2 b.bin
  triton_run "$root/tests/data/ptx/mm_bf16_f32_w4_s2.ptx" --check=default
  echo "tr_ok: no finding"
  exit 0 ;;
esac

line=$(grep "^$name " "$cat") || { echo "$name: not in the catalogue"; exit 1; }
set -- $line
rule=$2 mode=$3 want=$4 kind=$5
flags=--check=default
[ "$mode" = strict ] && flags="--check=strict --werror"
[ -n "$nsched" ] && flags="--check=none --schedules $nsched"
set +e
if [ "$kind" = cuda ]; then
  cuda_inputs
  cuda_run "$6" "$flags" > out.txt 2>&1
  rc=$?
elif [ "$kind" = ptx ]; then
  seeded_inputs "$6" "$7"
  seeded_run "$6" "$7" 1 "$flags" > out.txt 2>&1
  rc=$?
else
  file=$6 op=$7
  arg=$(printf '%s\n' "$line" | sed "s/^.* $op //")
  triton_inputs "$file"
  edit "$root/tests/data/ptx/$file.ptx" "$op" "$arg"
  triton_run k.ptx "$flags" > out.txt 2>&1
  rc=$?
fi
set -e
if [ -n "$nsched" ]; then
  if [ $rc = 0 ] && grep -q "schedules agreed" out.txt; then v=agree
  elif [ $rc = 1 ] && grep -q "schedules disagree" out.txt; then v=differ
  else v=stop; fi
  echo "$name: schedules $v"
  grep -m1 "^tc5 run" out.txt || true
  exit 0
fi
out=none
[ -f d.bin ] && { if cmp -s d.bin ref.bin; then out=same; else out=changed; fi; }
fail=0
[ $rc = 1 ] || { echo "$name: exit status $rc, not 1"; fail=1; }
grep -q "\[$rule\]" out.txt || { echo "$name: the rule [$rule] is not named"; fail=1; }
[ "$out" = "$want" ] || { echo "$name: output '$out', the catalogue says '$want'"; fail=1; }
if [ $fail = 0 ]; then
  echo "$name: [$rule] found ($mode); output $out"
  grep -m1 -A3 "\[$rule\]" out.txt
else
  cat out.txt | head -30
fi
exit $fail
