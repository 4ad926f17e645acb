#!/usr/bin/env bash
# Entry point of the `language: script` pre-commit hooks: runs sparkcheck with
# the given arguments. Finds the binary in this order: $SPARKCHECK, a build
# cached in this checkout (build-hook/), `sparkcheck` on PATH; otherwise builds
# this checkout once into build-hook/ (pre-commit keeps its clone, so that
# happens on first use only).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${SPARKCHECK:-}"
if [ -z "$bin" ] && [ -x "$here/build-hook/sparkcheck" ]; then bin="$here/build-hook/sparkcheck"; fi
if [ -z "$bin" ] && command -v sparkcheck >/dev/null 2>&1; then bin="$(command -v sparkcheck)"; fi
if [ -z "$bin" ]; then
  echo "sparkcheck: building the hook binary once into $here/build-hook (needs scripts/setup.sh's packages)" >&2
  cmake -S "$here" -B "$here/build-hook" -DCMAKE_BUILD_TYPE=Release -DSPARKCHECK_TESTS=OFF >/dev/null
  cmake --build "$here/build-hook" -j"$(nproc)" --target sparkcheck >&2
  bin="$here/build-hook/sparkcheck"
fi
exec "$bin" "$@"
