#!/usr/bin/env bash
# Rewrites tests/golden/* from the current build (run after an intended change
# to findings or output formats, then review `git diff tests/golden`).
#   scripts/update-golden.sh [path/to/sparkcheck]   (default: build/sparkcheck)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-$root/build/sparkcheck}"
[ -x "$bin" ] || { echo "no sparkcheck binary at $bin (build it first)" >&2; exit 2; }
rm -f "$root"/tests/golden/*.{txt,concise,json,sarif,exit}   # a project dropped from golden.sh goes too
SPARKCHECK="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")" SC_SOURCE_DIR="$root" \
  bash "$root/tests/scripts/golden.sh" --update >/dev/null
git -C "$root" status --short -- tests/golden
