#!/usr/bin/env bash
# Builds the PTX parser's libFuzzer target with clang under ASan + UBSan and
# runs it, seeded with the Triton corpus (tests/data/ptx).
# usage: scripts/fuzz.sh [RUNS]   (default 2000: the short run of CI; the
#        documented long run used 10^7). Skips (exit 0) without clang.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-2000}
CC=${CLANG:-$(command -v clang || true)}
if [ -z "$CC" ]; then echo "fuzz.sh: no clang: skipped"; exit 0; fi
mkdir -p build-fuzz/corpus
cp tests/data/ptx/*.ptx build-fuzz/corpus/ 2>/dev/null || true
srcs=$(sed -n '/set(TC5_SOURCES/,/)/p' CMakeLists.txt | grep -o 'src/[^ ]*\.c')
"$CC" -std=c11 -D_POSIX_C_SOURCE=200809L -O1 -g -fsanitize=fuzzer,address,undefined \
  -fno-sanitize-recover=all -frounding-math -Iinclude -Isrc $srcs tests/fuzz/fuzz_ptx.c \
  -o build-fuzz/fuzz_ptx -lm -lpthread
ASAN_OPTIONS=detect_leaks=1 build-fuzz/fuzz_ptx -artifact_prefix=build-fuzz/ -runs="$runs" -max_len=65536 -timeout=20 \
  -rss_limit_mb=4096 build-fuzz/corpus
