#!/usr/bin/env bash
# Golden end-to-end outputs (snapshots): `sparkcheck lint` on fixed projects in
# text, concise, JSON and SARIF, plus the exit status, compared byte for byte
# with tests/golden/<name>.<ext>. Rewrite them with scripts/update-golden.sh
# (that runs this script with --update).
# Each project is linted from its own directory (`lint .`), so every path is
# relative; version strings, the binary's path and the working directory are
# normalized away, and SARIF rule help texts (the rule docs, checked by
# rule_docs.sh) are left out so that the snapshots guard findings.
. "$(dirname "$0")/lib.bash"
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
GOLDEN="$SC_SOURCE_DIR/tests/golden"
UPDATE=0; [ "${1:-}" = "--update" ] && UPDATE=1

# name:directory (relative to the source root)[:extra lint arguments]
# One all-rules snapshot (spark-finetune); every other project runs only the rules it is about,
# so a new rule changes its own goldens and, where it finds something there, spark-finetune's.
PROJECTS=(
  spark-finetune:examples/spark-finetune
  "fixtures-G1:fixtures/G1:--select G1"
  "fixtures-G2:fixtures/G2:--select G2"
  "fixtures-G7:fixtures/G7:--select G7"
  "fixtures-G9:fixtures/G9:--select G9"
  "fixtures-G10:fixtures/G10:--select G10"
  "fixtures-links:fixtures/links:--select G1,G9"
  "fixtures-bad-input:fixtures/bad-input:--select G9"
  "fixtures-suppressions:fixtures/suppressions:--select G1,G9,unused-suppression"
)
FORMATS=(text:txt concise:concise json:json sarif:sarif)

SARIF_NORMALIZE='
  .runs[] |= (
    .tool.driver.version = "VERSION" | .tool.driver.semanticVersion = "VERSION"
    # only the rules the results name (a new rule changes no snapshot it finds nothing in);
    # every ruleIndex is checked against the full list first
    | (.tool.driver.rules | map(.id)) as $ids
    | .results |= map(if $ids[.ruleIndex] == .ruleId then del(.ruleIndex) else .ruleIndex = "WRONG" end)
    | ([.results[].ruleId] | unique) as $used
    | .tool.driver.rules |= map(select(.id as $i | $used | index($i) != null) | del(.help, .fullDescription))
    | .originalUriBaseIds["%SRCROOT%"].uri = "file:///SRCROOT/"
    | .invocations[] |= (.commandLine |= sub("^[^ ]*sparkcheck "; "sparkcheck ")
                        | .workingDirectory.uri = "file:///SRCROOT/"))'

# lint DIR FORMAT [ARGS]: the normalized output on stdout; the exit status in $TMP/rc
lint() {
  local dir="$1" fmt="$2" args="${3:-}"
  # shellcheck disable=SC2086  # ARGS are words
  (cd "$SC_SOURCE_DIR/$dir" && "$SPARKCHECK" lint . --no-config --no-ignore --color never --format "$fmt" $args) \
    >"$TMP/raw" 2>"$TMP/err"
  echo $? >"$TMP/rc"
  case "$fmt" in
    sarif) jq "$SARIF_NORMALIZE" "$TMP/raw" ;;
    json) jq '.version = "VERSION"' "$TMP/raw" ;;
    *) cat "$TMP/raw" ;;
  esac
  cat "$TMP/err"
}

# same NAME FILE: FILE equals the golden copy (or replaces it with --update)
same() {
  local want="$GOLDEN/$1"
  if [ "$UPDATE" -eq 1 ]; then cp "$2" "$want"; return 0; fi
  [ -f "$want" ] || { echo "missing golden file tests/golden/$1 (run scripts/update-golden.sh)"; return 1; }
  diff -u --label "tests/golden/$1" --label "now" "$want" "$2"
}

mkdir -p "$TMP/out"
for p in "${PROJECTS[@]}"; do
  name="${p%%:*}" rest="${p#*:}"
  dir="${rest%%:*}" args=""
  [ "$rest" != "$dir" ] && args="${rest#*:}"
  for f in "${FORMATS[@]}"; do
    fmt="${f%%:*}" ext="${f#*:}"
    lint "$dir" "$fmt" "$args" >"$TMP/out/$name.$ext"
    check "$name ($fmt) matches tests/golden/$name.$ext" same "$name.$ext" "$TMP/out/$name.$ext"
    rc="$(cat "$TMP/rc")"
    if [ "$fmt" = text ]; then echo "$rc" >"$TMP/out/$name.exit"; else echo "$rc" >"$TMP/out/$name.$ext.exit"; fi
  done
  # every format exits the same way; one file records it
  for f in "${FORMATS[@]:1}"; do
    ext="${f#*:}"
    check "$name: $ext exits like text" cmp -s "$TMP/out/$name.exit" "$TMP/out/$name.$ext.exit"
  done
  check "$name exit status matches tests/golden/$name.exit" same "$name.exit" "$TMP/out/$name.exit"
done
# nothing absolute or machine-specific may leak into the snapshots
check "no absolute paths in outputs" bash -c "! grep -rlF -e '$SC_SOURCE_DIR' -e '$SPARKCHECK' '$TMP/out'"
finish
