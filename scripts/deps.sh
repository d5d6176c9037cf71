#!/usr/bin/env bash
# Installs what tc5 needs to build and test, from Debian's packages, when it
# is missing: a C compiler, CMake, pkg-config, cmocka and OpenBLAS (the
# benchmarks' baseline), Python's headers and venv (the Python package). Safe to
# run repeatedly.
set -euo pipefail
pkgs=(build-essential cmake pkg-config libcmocka-dev libopenblas-dev python3-dev python3-venv)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "tc5: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
