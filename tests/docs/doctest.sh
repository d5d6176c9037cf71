#!/bin/sh
# The doc test (docs/README.md says the conventions): every line starting
# with `tc5 ` in a ```sh block of the given Markdown files runs in a scratch
# directory holding a copy of docs/examples/, with the built tc5 first on
# PATH; a trailing `# exit N` gives the expected status (0 otherwise); a
# ```text block right after the ```sh block (blank lines between allowed) is
# the block's expected output — stdout and stderr of its commands, in order —
# compared exactly, trailing spaces ignored (```text nocheck: not compared).
# Commands naming ../shared/ (the oracle data next to the checkout) are
# skipped when it is not there. A ```c block compiles (with the library and
# its headers) and runs, exit 0; without a main its statements are wrapped
# in one; ```c fragment blocks are only shown. A ```python run block runs as
# a script with $TC5_DOC_PYTHON (an interpreter with tc5 installed), exit 0,
# its stdout compared with a following ```text block; skipped, counted, when
# TC5_DOC_PYTHON is unset (other ```python blocks are only shown).
# usage: doctest.sh TC5 ROOT [--lib LIBTC5.a --include DIR] FILE.md...
#        (TC5_DOC_CFLAGS: extra flags for the C blocks, e.g. the sanitizers)
set -u
tc5=$1 root=$2
shift 2
lib= inc=
if [ "${1:-}" = --lib ]; then lib=$2 inc=$4; shift 4; fi
CC=${CC:-cc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/cases"
ln -s "$tc5" "$work/bin/tc5"
[ -d "$root/../shared" ] && ln -s "$root/../shared" "$work/shared"
fail=0 ran=0 skipped=0 pyskipped=0
for md in "$@"; do
  rel=${md#"$root"/}
  rm -f "$work/cases/"*
  awk -v dir="$work/cases" -v file="$rel" '
    state == 0 && /^```c[ \t]*$/ { state = 4; n++; cf = dir "/" n ".c"; printf "" > cf; print file ":" NR > (dir "/" n ".loc"); next }
    state == 4 && /^```[ \t]*$/ { state = 0; close(cf); next }
    state == 4 { print >> cf; next }
    state == 0 && /^```python run[ \t]*$/ { state = 5; n++; pf = dir "/" n ".py"; printf "" > pf; print file ":" NR > (dir "/" n ".loc"); next }
    state == 5 && /^```[ \t]*$/ { state = 2; close(pf); next }
    state == 5 { print >> pf; next }
    state == 0 && /^```sh[ \t]*$/ { state = 1; n++; cmds = dir "/" n ".cmd"; printf "" > cmds; print file ":" NR > (dir "/" n ".loc"); next }
    state == 1 && /^```[ \t]*$/ { state = 2; close(cmds); next }
    state == 1 && cont != "" { $0 = cont " " $0; cont = "" }
    state == 1 && /\\$/ { cont = substr($0, 1, length($0) - 1); next }
    state == 1 {
      if ($0 ~ /^tc5 /) {
        line = $0; st = 0
        if (match(line, /#[ \t]*exit[ \t]+[0-9]+[ \t]*$/)) { st = substr(line, RSTART); gsub(/[^0-9]/, "", st); line = substr(line, 1, RSTART - 1) }
        else if (match(line, /[ \t]+#[^"]*$/)) line = substr(line, 1, RSTART - 1)
        print st "\t" line >> cmds
      }
      next
    }
    state == 2 && /^[ \t]*$/ { next }
    state == 2 && /^```text[ \t]*$/ { state = 3; ef = dir "/" n ".exp"; printf "" > ef; next }
    state == 2 { state = 0 }
    state == 3 && /^```[ \t]*$/ { state = 0; close(ef); next }
    state == 3 { sub(/[ \t]+$/, ""); print >> ef; next }
  ' "$md"
  for c in "$work/cases/"*.c; do
    [ -f "$c" ] || continue
    b=${c%.c}
    loc=$(cat "$b.loc")
    [ -n "$lib" ] || { skipped=$((skipped + 1)); continue; }
    { echo "#include <stdbool.h>"; echo "#include <stdint.h>"; echo "#include <stdio.h>"; echo "#include <stdlib.h>"
      grep '^#include' "$c"
      if grep -q 'main(' "$c"; then grep -v '^#include' "$c"
      else echo "int main(void) {"; grep -v '^#include' "$c"; echo "return 0;"; echo "}"; fi
    } > "$b.prog.c"
    ran=$((ran + 1))
    # shellcheck disable=SC2086 # TC5_DOC_CFLAGS: the library's sanitizer flags, word by word
    if ! $CC -std=c11 -Wall ${TC5_DOC_CFLAGS:-} -I"$inc" "$b.prog.c" "$lib" -lm -lpthread -o "$b.prog" > "$b.cc" 2>&1; then
      echo "$loc: the C block does not compile:"; head -10 "$b.cc"; fail=1; continue
    fi
    "$b.prog" > "$b.out" 2>&1
    rc=$?
    if [ $rc != 0 ]; then echo "$loc: the C block's program failed (exit $rc):"; head -5 "$b.out"; fail=1; fi
  done
  for p in "$work/cases/"*.py; do
    [ -f "$p" ] || continue
    b=${p%.py}
    loc=$(cat "$b.loc")
    if [ -z "${TC5_DOC_PYTHON:-}" ]; then pyskipped=$((pyskipped + 1)); continue; fi
    rm -rf "$work/s" && mkdir -p "$work/s/run" && cp -r "$root/docs/examples/." "$work/s/run/" 2>/dev/null
    cp "$p" "$work/s/run/doc_block.py"
    (cd "$work/s/run" && "$TC5_DOC_PYTHON" doc_block.py) > "$b.out" 2> "$b.err"
    rc=$?
    ok=1
    if [ $rc != 0 ]; then echo "$loc: the Python block failed (exit $rc):"; tail -5 "$b.err"; ok=0; fi
    if [ -f "$b.exp" ]; then
      sed 's/[ \t]*$//' "$b.out" > "$b.outs"
      if ! cmp -s "$b.outs" "$b.exp"; then
        echo "$loc: the output differs from the documented one:"; diff "$b.exp" "$b.outs" | head -10; ok=0
      fi
    fi
    ran=$((ran + 1))
    [ $ok = 1 ] || fail=1
  done
  for c in "$work/cases/"*.cmd; do
    [ -s "$c" ] || continue
    b=${c%.cmd}
    loc=$(cat "$b.loc")
    if grep -q '\.\./shared/' "$c" && [ ! -d "$root/../shared" ]; then skipped=$((skipped + 1)); continue; fi
    rm -rf "$work/s" && mkdir -p "$work/s/run" && cp -r "$root/docs/examples/." "$work/s/run/" 2>/dev/null
    ln -s "$root/../shared" "$work/s/shared" 2>/dev/null
    : > "$b.out"
    ok=1
    while IFS='	' read -r want cmd; do
      (cd "$work/s/run" && PATH="$work/bin:$PATH" sh -c "$cmd") >> "$b.out" 2>&1
      got=$?
      if [ "$got" != "$want" ]; then echo "$loc: '$cmd' exited $got, the docs say $want"; ok=0; fi
    done < "$c"
    if [ -f "$b.exp" ]; then
      sed 's/[ \t]*$//' "$b.out" > "$b.outs"
      if ! cmp -s "$b.outs" "$b.exp"; then
        echo "$loc: the output differs from the documented one:"; diff "$b.exp" "$b.outs" | head -10; ok=0
      fi
    fi
    ran=$((ran + 1))
    [ $ok = 1 ] || fail=1
  done
done
echo "doctest: $ran blocks run, $skipped skipped (no ../shared), $pyskipped Python blocks skipped (no TC5_DOC_PYTHON), $([ $fail = 0 ] && echo 'all as documented' || echo 'FAILED')"
exit $fail
