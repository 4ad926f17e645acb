#!/usr/bin/env bash
# docs/rules/ is generated from the embedded rule docs (scripts/gen-docs.sh):
# fail when the checked-in copy is out of date, and check the pages' shape.
. "$(dirname "$0")/lib.bash"
cp "$SC_SOURCE_DIR/README.md" "$TMP/README.md"
bash "$SC_SOURCE_DIR/scripts/gen-docs.sh" "$SPARKCHECK" "$TMP/rules" "$TMP/README.md" >/dev/null; rc=$?
check "gen-docs.sh runs" [ "$rc" -eq 0 ]
# tables of knowledge data in the rule sources (flags, images, versions) are current
# shellcheck disable=SC2086
$SC_EMULATOR "$SC_BUILD_DIR/knowledge_docs" --check "$SC_SOURCE_DIR"/rules/*/*.md; rc=$?
check "rules/*/*.md list the knowledge data as it is (scripts/gen-docs.sh writes their knowledge-table blocks)" [ "$rc" -eq 0 ]
check "the rule docs have knowledge-table blocks" grep -q "<!-- knowledge-table tp-flags:" "$SC_SOURCE_DIR/rules/G10-tensor-parallel-across-sparks/G10.md"
n_rules="$("$SPARKCHECK" rules --format json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')"
check "one page per rule + index" [ "$(ls "$TMP/rules" | wc -l)" -eq $((n_rules + 1)) ]
for f in "$TMP"/rules/G*.md; do
  id="$(basename "$f" .md)"
  check "$id page has a title and the rule text" bash -c 'head -2 "$1" | grep -q "^# $2: " && grep -q "^## Fix" "$1"' _ "$f" "$id"
done
check "index links every page" bash -c 'for f in "$1"/G*.md; do grep -q "($(basename "$f"))" "$1/README.md" || exit 1; done' _ "$TMP/rules"
# README's gotcha table is the registry's G-rules (gen-docs.sh writes it)
check "README's gotcha table is current (scripts/gen-docs.sh writes it from the registry)" diff "$SC_SOURCE_DIR/README.md" "$TMP/README.md"
check "README's gotcha table has a row per G-rule" \
  [ "$(grep -c '^| \[G[0-9]*\](docs/rules/G' "$TMP/README.md")" -eq "$("$SPARKCHECK" rules | grep -c '^G[0-9]')" ]
if diff -ru "$SC_SOURCE_DIR/docs/rules" "$TMP/rules" > "$TMP/diff.txt" 2>&1; then
  ok "docs/rules is up to date"
else
  head -40 "$TMP/diff.txt"
  fail "docs/rules is out of date: run scripts/gen-docs.sh and commit docs/rules"
fi
finish
