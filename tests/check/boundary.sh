#!/bin/sh
# The checker listens, never reaches back (issue 34): src/check/ includes no
# header of src/ptx/ and names nothing of the runner's (ptx_...). Until the
# conversion is complete, the lines of src/check/ that name ptx_ may not grow
# past LIMIT (a ratchet: lower it as sites move to the event interface; 0
# is the rule itself). The checker's own event header never includes src/ptx.
# usage: boundary.sh ROOT [LIMIT]
set -eu
root=$1
limit=${2:-0}
cd "$root/src/check"
fail=0
if grep -n '#include "ptx/' check_event.h rules.c; then
  echo "boundary.sh: check_event.h and rules.c must include no header of src/ptx/"
  fail=1
fi
n=$(cat ./*.c ./*.h | grep -c 'ptx_' || true)
if [ "$n" -gt "$limit" ]; then
  echo "boundary.sh: $n lines of src/check/ name ptx_ (the limit is $limit):"
  grep -n 'ptx_' ./*.c ./*.h | head -20
  fail=1
fi
if [ "$limit" -eq 0 ] && grep -ln '#include "ptx/' ./*; then
  echo "boundary.sh: src/check/ includes a header of src/ptx/"
  fail=1
fi
[ "$fail" -eq 0 ] && echo "src/check/: $n lines name ptx_ (limit $limit)"
exit "$fail"
