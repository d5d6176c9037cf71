#!/usr/bin/env bash
# The main job: installs missing dependencies, builds tc5, runs `tc5 demo`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh >/dev/null
exec build/tc5 demo "$@"
