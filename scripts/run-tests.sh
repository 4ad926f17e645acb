#!/usr/bin/env bash
# One command: install what is missing, build, and run the whole test suite with ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test
SPARKCHECK_WERROR=ON scripts/build.sh
ctest --test-dir build --output-on-failure -j"${JOBS:-$(nproc)}" "$@"
