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
# a region spanning a '\'-continued Dockerfile instruction: the context region holds all of it (SARIF1008)
mkdir -p "$TMP/cont"
printf 'FROM nvcr.io/nvidia/pytorch:25.11-py3\nCOPY requirements.txt .\nRUN pip install \\\n    -r requirements.txt\n' > "$TMP/cont/Dockerfile"
printf 'torch==2.5.1+cu124\n' > "$TMP/cont/requirements.txt"
"$SPARKCHECK" lint "$TMP/cont" --format sarif -o "$TMP/cont.sarif"
check "continued-line SARIF validates" sarif_validate "$TMP/cont.sarif"
check "continued-line SARIF: every contextRegion contains its region" python3 - "$TMP/cont.sarif" <<'PY'
import json, sys
def places(o):
    if isinstance(o, dict):
        if "region" in o and "contextRegion" in o: yield o
        for v in o.values(): yield from places(v)
    elif isinstance(o, list):
        for v in o: yield from places(v)
found = list(places(json.load(open(sys.argv[1]))))
assert any(p["region"]["endLine"] > p["region"]["startLine"] for p in found), "no multi-line region to check"
for p in found:
    r, c = p["region"], p["contextRegion"]
    assert c["startLine"] <= r["startLine"] and c["endLine"] >= r["endLine"], (r, c)
PY
# an empty run is valid too
mkdir -p "$TMP/empty"
(cd "$TMP/empty" && "$SPARKCHECK" lint . --format sarif -o "$TMP/empty.sarif"); rc=$?
check "empty project exits 0" [ "$rc" -eq 0 ]
check "empty SARIF validates" sarif_validate "$TMP/empty.sarif"
finish
