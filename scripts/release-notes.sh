#!/usr/bin/env bash
# usage: scripts/release-notes.sh vX.Y.Z — prints that version's CHANGELOG.md section.
set -euo pipefail
cd "$(dirname "$0")/.."
v="${1#v}"
awk -v v="$v" '/^## \[/ { on = index($0, "## [" v "]") == 1; next } on' CHANGELOG.md
