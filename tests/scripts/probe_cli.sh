#!/usr/bin/env bash
# `sparkcheck probe` end to end on replayed machines (SPARKCHECK_PROBE_FAKE):
# the `^G[0-9]+ ` text contract, exit codes, JSON, and SARIF that passes the
# Multitool with GitHub's rules (zero errors, zero warnings).
. "$(dirname "$0")/lib.bash"
if ! "$SPARKCHECK" probe --help >/dev/null 2>&1; then echo "SKIP: this sparkcheck has no probe command"; exit 77; fi
FX="$SC_SOURCE_DIR/fixtures-probe"

SPARKCHECK_PROBE_FAKE="$FX/gb10-healthy" "$SPARKCHECK" probe > "$TMP/healthy.txt"; rc=$?
check "healthy GB10 exits 0" [ "$rc" -eq 0 ]
check "ten G lines" [ "$(grep -cE '^G[0-9]+ (PASS|FAIL|WARN|SKIP|INFO): ' "$TMP/healthy.txt")" -eq 10 ]
check "G5 skipped unless asked" grep -q '^G5 SKIP: intrusive' "$TMP/healthy.txt"

SPARKCHECK_PROBE_FAKE="$FX/gb10-healthy" "$SPARKCHECK" probe G5 G3 > "$TMP/g5.txt"; rc=$?
check "named checks only" [ "$(grep -cE '^G[0-9]+ ' "$TMP/g5.txt")" -eq 2 ]
check "naming G5 measures" grep -q '^G5 INFO: device-to-device copy 187.4 GB/s' "$TMP/g5.txt"

SPARKCHECK_PROBE_FAKE="$FX/gb10-throttling" "$SPARKCHECK" probe --format json -o "$TMP/t.json"; rc=$?
check "troubled GB10 exits 1" [ "$rc" -eq 1 ]
check "JSON names the failures" grep -q '"verdict": "FAIL"' "$TMP/t.json"

SPARKCHECK_PROBE_FAKE="$FX/gb10-throttling" "$SPARKCHECK" probe G42 >/dev/null 2>&1; rc=$?
check "unknown check is a usage error" [ "$rc" -eq 2 ]

if [ -x "$MULTITOOL" ]; then
  for fx in gb10-healthy gb10-throttling h200-real no-gpu; do
    SPARKCHECK_PROBE_FAKE="$FX/$fx" "$SPARKCHECK" probe --intrusive --format sarif -o "$TMP/$fx.sarif"
    check "$fx SARIF validates" sarif_validate "$TMP/$fx.sarif"
  done
  check "recorded H200 SARIF validates" sarif_validate "$FX/h200-real/output.sarif"
else
  echo "note: SARIF Multitool not installed, SARIF not validated"
fi
finish
