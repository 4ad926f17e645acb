#!/usr/bin/env bash
# Configures and builds into build/ (Release with debug info). Reuses an existing build.
# SPARKCHECK_WERROR=ON (set by scripts/run-tests.sh, hence CI) makes warnings errors.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS="${JOBS:-$(nproc)}"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSPARKCHECK_WERROR="${SPARKCHECK_WERROR:-OFF}" >/dev/null
cmake --build build -j"$JOBS"
