#!/usr/bin/env bash
# Cross-compiles sparkcheck and its tests for aarch64 (preset arm64) and runs the
# test suite under qemu-aarch64 (ctest's CROSSCOMPILING_EMULATOR, no binfmt needed).
# Exits 77 (skipped) when the cross packages cannot be installed.
# Extra arguments go to ctest (e.g. -R 'fixture:').
set -euo pipefail
cd "$(dirname "$0")/.."
rc=0; scripts/arm64-deps.sh || rc=$?
if [ "$rc" -ne 0 ]; then echo "arm64-test: SKIP (cross packages unavailable)"; exit 77; fi
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
cmake --preset arm64 "${launcher[@]}" >/dev/null
cmake --build --preset arm64 -j"${JOBS:-$(nproc)}"
file build-arm64/sparkcheck
ctest --preset arm64 -j"${JOBS:-$(nproc)}" "$@"
