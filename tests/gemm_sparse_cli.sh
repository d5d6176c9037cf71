#!/bin/sh
# tc5 gemm --meta (sparse A), its scale factors (one a `block` kept
# elements) and --saturate, on small hand-made files (issue 38):
#   - sparse mxf8f6f4, K = 64: one scale a row (B200 word
#     sparse-mxf8f6f4-logical-k-scale-association: 0x42000000); two are refused
#   - sparse tf32 (1:2, a nibble a pair) with a NaN and an Inf of B where
#     elided: absent (class [1]: 8.0 = 0x41000000); at a kept position: NaN
#   - sparse mxf4 (4:8 in pairs, a nibble a group of eight), K = 128 (B200
#     word sparse-mxf4-pairwise: 0x42000000)
#   - i8 with and without --saturate; --saturate on a float kind refused
#   - a tf32 nibble other than 0x4 / 0xe refused, naming row, elements, value
# usage: gemm_sparse_cli.sh TC5
set -u
tc5=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2
fail=0
# bytes FILE HEX...: the bytes, in order
bytes() {
  f=$1; shift; : > "$f"
  for h in "$@"; do printf "\\$(printf %03o "0x$h")" >> "$f"; done
}
# rep N WORDS...: the words N times
rep() {
  n=$1; shift; i=0
  while [ "$i" -lt "$n" ]; do printf '%s ' "$@"; i=$((i + 1)); done
}
word() { od -An -tx4 "$1" | tr -d ' \n'; }
check() { # name, want, got
  if [ "$2" = "$3" ]; then echo "$1: $3"; else echo "$1: got '$3', want '$2'"; fail=1; fi
}
expect_fail() { # name, regex, then tc5's arguments
  name=$1 re=$2; shift 2
  if "$tc5" "$@" > out.txt 2>&1; then echo "$name: accepted, should fail"; fail=1; return; fi
  if grep -q -- "$re" out.txt; then echo "$name: refused ($re)"; else echo "$name: message:"; cat out.txt; fail=1; fi
}

# sparse mxf8f6f4 e4m3, K = 64 logical: 32 kept 1.0 (0x38) a row, B 1.0, one scale 0x7f a row and column
bytes a.bin $(rep 32 38); bytes b.bin $(rep 64 38); bytes meta.bin $(rep 16 4); bytes s1.bin 7f; bytes s2.bin 7f 80
"$tc5" gemm --kind mxf8f6f4 --atype e4m3 --btype e4m3 --m 1 --n 1 --k 64 --a a.bin --b b.bin --meta meta.bin \
  --stype ue8m0 --block 32 --sa s1.bin --sb s1.bin --out d.bin || fail=1
check "sparse mxf8f6f4, one scale a 32 kept" 42000000 "$(word d.bin)"
expect_fail "sparse mxf8f6f4, two scales" "has 2 bytes; 1 elements of 1 bytes need 1" gemm --kind mxf8f6f4 \
  --atype e4m3 --btype e4m3 --m 1 --n 1 --k 64 --a a.bin --b b.bin --meta meta.bin --stype ue8m0 --block 32 \
  --sa s2.bin --sb s2.bin --out d.bin

# sparse tf32, K = 16: 8 kept 1.0 (the first of each pair: 0x4), B 1.0 with NaN / +Inf at elided position 1
bytes a.bin $(rep 8 00 00 80 3f); bytes meta.bin $(rep 8 4)
bytes b.bin 00 00 80 3f 00 00 c0 7f $(rep 7 00 00 80 3f 00 00 00 00)
"$tc5" gemm --kind tf32 --atype tf32 --btype tf32 --m 1 --n 1 --k 16 --a a.bin --b b.bin --meta meta.bin \
  --out d.bin || fail=1
check "sparse tf32, NaN of B elided" 41000000 "$(word d.bin)"
bytes b.bin 00 00 80 3f 00 00 80 7f $(rep 7 00 00 80 3f 00 00 00 00)
"$tc5" gemm --kind tf32 --atype tf32 --btype tf32 --m 1 --n 1 --k 16 --a a.bin --b b.bin --meta meta.bin \
  --out d.bin || fail=1
check "sparse tf32, +Inf of B elided" 41000000 "$(word d.bin)"
bytes meta.bin e $(rep 7 4)
"$tc5" gemm --kind tf32 --atype tf32 --btype tf32 --m 1 --n 1 --k 16 --a a.bin --b b.bin --meta meta.bin \
  --out d.bin || fail=1
check "sparse tf32, +Inf of B kept" 7f800000 "$(word d.bin)"
bytes meta.bin 4 4 4 6 4 4 4 4
expect_fail "sparse tf32, nibble 0x6" "metadata of row 0, elements 6-7, is 0x6: a pair's nibble is 0b0100" gemm \
  --kind tf32 --atype tf32 --btype tf32 --m 1 --n 1 --k 16 --a a.bin --b b.bin --meta meta.bin --out d.bin

# sparse mxf4, K = 128: kept pairs 0, 1 of each group of eight (0x4) hold 0, 0, 1.0, 1.0 (e2m1 2); B 1.0
bytes a.bin $(rep 16 0 0 2 2); bytes b.bin $(rep 128 2); bytes meta.bin $(rep 16 4); bytes s.bin 7f 7f
"$tc5" gemm --kind mxf4 --atype e2m1 --btype e2m1 --m 1 --n 1 --k 128 --a a.bin --b b.bin --meta meta.bin \
  --stype ue8m0 --block 32 --sa s.bin --sb s.bin --out d.bin || fail=1
check "sparse mxf4, pairs" 42000000 "$(word d.bin)"

# i8: 32 x 127 x 127 = 516128 onto C = 0x7fff0000: wraps, or saturates with --saturate
bytes a.bin $(rep 32 7f); bytes c.bin 00 00 ff 7f
"$tc5" gemm --kind i8 --atype s8 --btype s8 --m 1 --n 1 --k 32 --a a.bin --b a.bin --c c.bin --out d.bin || fail=1
check "i8, wrapping" 8006e020 "$(word d.bin)"
"$tc5" gemm --kind i8 --atype s8 --btype s8 --m 1 --n 1 --k 32 --a a.bin --b a.bin --c c.bin --saturate \
  --out d.bin || fail=1
check "i8, --saturate" 7fffffff "$(word d.bin)"
expect_fail "--saturate on f16" "--saturate is for .kind::i8" gemm --kind f16 --atype f16 --btype f16 --m 1 --n 1 \
  --k 16 --a a.bin --b a.bin --saturate --out d.bin
exit $fail
