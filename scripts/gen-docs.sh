#!/usr/bin/env bash
# Regenerates docs/rules/ from the rule documentation embedded in the binary
# (rules/*.md -> `sparkcheck rule GN --format markdown`), so the docs, `sparkcheck
# rule` and SARIF help are the same text.
#   scripts/gen-docs.sh [SPARKCHECK_BINARY] [OUT_DIR]
# Defaults: build/sparkcheck (built first when missing) and docs/rules.
# tests/scripts/rule_docs.sh fails when the checked-in docs/rules are stale.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-build/sparkcheck}"
out="${2:-docs/rules}"
if [ ! -x "$bin" ]; then
  scripts/build.sh
fi
mkdir -p "$out"
rm -f "$out"/*.md
ids="$("$bin" rules --format json | sed -n 's/^    "id": "\(.*\)",$/\1/p')"
for id in $ids; do
  "$bin" rule "$id" --format markdown > "$out/$id.md"
done
"$bin" rules --format markdown > "$out/README.md"
echo "gen-docs: wrote $(ls "$out" | wc -l) files to $out"
