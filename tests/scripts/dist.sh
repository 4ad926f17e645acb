#!/usr/bin/env bash
# scripts/dist.sh builds every release artifact and scripts/dist-check.sh accepts
# them. Slow (a static x86_64 build and an aarch64 cross build): runs only with
# SPARKCHECK_DIST_TEST=1 (SPARKCHECK_DIST_ARCHES=x86_64 for one arch).
. "$(dirname "$0")/lib.bash"
if [ "${SPARKCHECK_DIST_TEST:-}" != 1 ]; then echo "SKIP: set SPARKCHECK_DIST_TEST=1 to build the release artifacts"; exit 77; fi
cd "$SC_SOURCE_DIR" || exit 1
scripts/dist.sh > "$TMP/dist.log" 2>&1; rc=$?
check "scripts/dist.sh succeeds" [ "$rc" -eq 0 ] || tail -30 "$TMP/dist.log"
scripts/dist-check.sh dist; rc=$?
check "scripts/dist-check.sh accepts dist/" [ "$rc" -eq 0 ]
finish
