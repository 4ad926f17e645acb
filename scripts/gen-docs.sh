#!/usr/bin/env bash
# Regenerates docs/rules/ from the rule documentation embedded in the binary
# (rules/*.md -> `sparkcheck rule GN --format markdown`), so the docs, `sparkcheck
# rule` and SARIF help are the same text.
# It also rewrites README's gotcha table (between its gotcha-table markers) from the registry, and
# first the knowledge-table blocks of rules/*/*.md from knowledge data (build/knowledge_docs), then
# rebuilds the binary, which embeds them.
#   scripts/gen-docs.sh [SPARKCHECK_BINARY] [OUT_DIR] [README]
# Defaults: build/sparkcheck (built first when missing), docs/rules and README.md.
# tests/scripts/rule_docs.sh fails when the checked-in docs/rules are stale.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-build/sparkcheck}"
out="${2:-docs/rules}"
readme="${3:-README.md}"
if [ ! -x "$bin" ]; then
  scripts/build.sh
fi
tables="$(dirname "$bin")/knowledge_docs"
if [ "$out" = docs/rules ] && [ -f "$(dirname "$bin")/CMakeCache.txt" ]; then
  # the binary embeds rules/*/*.md: bring it up to date with the sources first
  [ -x "$tables" ] && "$tables" rules/*/*.md
  cmake --build "$(dirname "$bin")" --target sparkcheck >/dev/null
fi
mkdir -p "$out"
rm -f "$out"/*.md
ids="$("$bin" rules --format json | sed -n 's/^    "id": "\(.*\)",$/\1/p')"
for id in $ids; do
  "$bin" rule "$id" --format markdown > "$out/$id.md"
done
"$bin" rules --format markdown > "$out/README.md"
# README's table: one row per G-rule, its summary and whether lint / probe check it
rows="$("$bin" rules | awk '$1 ~ /^G[0-9]+$/ {
  short = $0; sub(/^[^ ]+ +[^ ]+ +[^ ]+ +/, "", short); gsub(/\|/, "\\|", short)
  printf "| [%s](docs/rules/%s.md) | %s | %s | %s |\n", $1, $1, short, ($3 ~ /lint/) ? "✓" : "", ($3 ~ /probe/) ? "✓" : "" }')"
awk -v rows="$rows" '/<!-- gotcha-table -->/ {print; print "| id | gotcha | lint | probe |"; print "|---|---|---|---|"; print rows; skip = 1; next}
  /<!-- \/gotcha-table -->/ {skip = 0} !skip' "$readme" > "$readme.tmp" && mv "$readme.tmp" "$readme"
echo "gen-docs: wrote $(ls "$out" | wc -l) files to $out"
