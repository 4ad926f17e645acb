#!/usr/bin/env bash
# SARIF from the example project and from every fixture passes Microsoft's
# SARIF Multitool with GitHub's rules (zero errors, zero warnings).
. "$(dirname "$0")/lib.bash"
if [ ! -x "$MULTITOOL" ]; then echo "SKIP: SARIF Multitool not installed (scripts/setup.sh --test)"; exit 77; fi
cd "$SC_SOURCE_DIR"
"$SPARKCHECK" lint examples/spark-finetune --format sarif -o "$TMP/example.sarif"; rc=$?
check "example lint exits 1 (findings)" [ "$rc" -eq 1 ]
check "example SARIF has results" grep -q '"ruleId"' "$TMP/example.sarif"
check "example SARIF validates" sarif_validate "$TMP/example.sarif"
"$SPARKCHECK" lint fixtures --no-ignore --format sarif -o "$TMP/fixtures.sarif"; rc=$?
check "fixtures lint completes" [ "$rc" -le 1 ]
check "fixtures SARIF (with notifications) validates" sarif_validate "$TMP/fixtures.sarif"
check "fixtures SARIF carries toolExecutionNotifications" grep -q '"toolExecutionNotifications"' "$TMP/fixtures.sarif"
# an empty run is valid too
mkdir -p "$TMP/empty"
(cd "$TMP/empty" && "$SPARKCHECK" lint . --format sarif -o "$TMP/empty.sarif"); rc=$?
check "empty project exits 0" [ "$rc" -eq 0 ]
check "empty SARIF validates" sarif_validate "$TMP/empty.sarif"
finish
