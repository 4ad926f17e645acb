#!/usr/bin/env bash
# docs/rules/ is generated from the embedded rule docs (scripts/gen-docs.sh):
# fail when the checked-in copy is out of date, and check the pages' shape.
. "$(dirname "$0")/lib.bash"
bash "$SC_SOURCE_DIR/scripts/gen-docs.sh" "$SPARKCHECK" "$TMP/rules" >/dev/null; rc=$?
check "gen-docs.sh runs" [ "$rc" -eq 0 ]
n_rules="$("$SPARKCHECK" rules --format json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')"
check "one page per rule + index" [ "$(ls "$TMP/rules" | wc -l)" -eq $((n_rules + 1)) ]
for f in "$TMP"/rules/G*.md; do
  id="$(basename "$f" .md)"
  check "$id page has a title and the rule text" bash -c 'head -2 "$1" | grep -q "^# $2: " && grep -q "^## Fix" "$1"' _ "$f" "$id"
done
check "index links every page" bash -c 'for f in "$1"/G*.md; do grep -q "($(basename "$f"))" "$1/README.md" || exit 1; done' _ "$TMP/rules"
# README's gotcha table: a row per G-rule of the registry, its lint and probe marks as registered
want="$("$SPARKCHECK" rules --format text | awk '$1 ~ /^G[0-9]+$/ {l = ($3 ~ /lint/) ? "lint" : "-"; p = ($3 ~ /probe/) ? "probe" : "-"; print $1, l, p}')"
have="$(awk -F'|' '$2 ~ /^ G[0-9]+ $/ {gsub(/ /, "", $2); print $2, ($4 ~ /✓/) ? "lint" : "-", ($5 ~ /✓/) ? "probe" : "-"}' "$SC_SOURCE_DIR/README.md")"
check "README's gotcha table lists the registry's rules and their checks" diff <(echo "$want") <(echo "$have")
if diff -ru "$SC_SOURCE_DIR/docs/rules" "$TMP/rules" > "$TMP/diff.txt" 2>&1; then
  ok "docs/rules is up to date"
else
  head -40 "$TMP/diff.txt"
  fail "docs/rules is out of date: run scripts/gen-docs.sh and commit docs/rules"
fi
finish
