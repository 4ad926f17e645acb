#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# usage: action-key.sh ACTION_DIR [REF]  (writes key=... to $GITHUB_OUTPUT, else stdout)
# The Actions-cache key of the action's source build: the ref it is used at and a
# SHA-256 over the path and content of every source file. The runner unpacks an
# action without .git, so a commit cannot be read there; the content can.
set -euo pipefail
dir="$1"; ref="${2:-}"
sum="$(cd "$dir" && find . \( -name .git -o -name node_modules -o -name 'build*' -o -name dist \) -prune \
         -o -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-32)"
ref="$(printf '%s' "$ref" | tr -c 'A-Za-z0-9._-' '_' | cut -c1-40)"
echo "key=${ref:-noref}-$sum" >> "${GITHUB_OUTPUT:-/dev/stdout}"
