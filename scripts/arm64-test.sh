#!/usr/bin/env bash
# Cross-compiles sparkcheck and its tests for aarch64 (preset arm64), runs the
# whole test suite under qemu-aarch64 (ctest's CROSSCOMPILING_EMULATOR, no
# binfmt_misc needed), then builds the aarch64 wheel and runs the sparkcheck it
# installs under qemu (scripts/wheel-check.sh).
# Exits 77 (skipped) when the cross packages cannot be installed.
# Extra arguments go to ctest (e.g. -R 'fixture:').
#
# What qemu-user cannot do is reported as skipped by ctest, never as passed:
#   script:precommit   the hook's wheel would carry the aarch64 binary, which pip
#                      on the host will not install (exit 77; the native suite runs it)
#   probe spawn/real machine "missing program" cases: qemu runs glibc's vfork-style
#                      posix_spawn child as a plain fork, so a failed exec looks
#                      started (SKIP_REGULAR_EXPRESSION "SKIPPED under qemu-user")
# Binaries that tests install or unpack themselves run through $SC_EMULATOR.
set -euo pipefail
cd "$(dirname "$0")/.."
rc=0; scripts/arm64-deps.sh || rc=$?
if [ "$rc" -ne 0 ]; then echo "arm64-test: SKIP (cross packages unavailable)"; exit 77; fi
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
jobs="${JOBS:-$(nproc)}"
step() { echo "arm64-test: $1 ($(date -u +%H:%M:%S))"; }
step "cross build"
cmake --preset arm64 "${launcher[@]}" >/dev/null
cmake --build --preset arm64 -j"$jobs"
file build-arm64/sparkcheck
step "test suite under qemu"
failed=0
ctest --preset arm64 -j"$jobs" "$@" || failed=1
step "aarch64 wheel under qemu"
v="$(cat build-arm64/VERSION)"
rm -rf build-arm64/wheel
whl="$(scripts/wheel.sh build-arm64/sparkcheck "$v" build-arm64/wheel)"
scripts/wheel-check.sh "$whl" "$v" || failed=1
step "done ($([ "$failed" = 0 ] && echo passed || echo FAILED))"
exit "$failed"
