#!/usr/bin/env bash
# The Action's helper scripts: action-download.sh takes the release binary for the
# runner only when its SHA-256 matches SHA256SUMS and falls back to a source build
# otherwise; action-sarif.sh writes the category into automationDetails.id and warns
# past 5,000 results.
. "$(dirname "$0")/lib.bash"
command -v curl >/dev/null || { echo "SKIP: curl missing"; exit 77; }
S="$SC_SOURCE_DIR/scripts"
REL="$TMP/releases/v9.8.7"; mkdir -p "$REL"
printf '#!/bin/sh\necho fake sparkcheck\n' > "$REL/sparkcheck-9.8.7-linux-x86_64"
(cd "$REL" && sha256sum sparkcheck-9.8.7-linux-x86_64 > SHA256SUMS)
dl() {  # dl VERSION ARCH [OS] -> status; outputs in $TMP/out
  : > "$TMP/out"
  env SC_GIVEN="" SC_VERSION="$1" SC_ARCH="$2" RUNNER_OS="${3:-Linux}" SC_ACTION_REF="" \
      RUNNER_TEMP="$TMP/rt" GITHUB_OUTPUT="$TMP/out" SC_DOWNLOAD_BASE="file://$TMP/releases" \
      bash "$S/action-download.sh" > "$TMP/log" 2>&1
}
dl 9.8.7 X64; rc=$?
check "download: matching checksum gives bin=" grep -qx "bin=$TMP/rt/sparkcheck-9.8.7/sparkcheck-9.8.7-linux-x86_64" "$TMP/out"
check "download: exit 0" [ "$rc" -eq 0 ]
check "download: the binary is executable" [ -x "$TMP/rt/sparkcheck-9.8.7/sparkcheck-9.8.7-linux-x86_64" ]
dl v9.8.7 X64
check "download: a v prefix on the version is accepted" grep -q '^bin=' "$TMP/out"
dl 9.8.7 ARM64
check "download: no arm64 asset -> source build" grep -qx 'build=true' "$TMP/out"
dl "" X64
check "download: no version -> source build with a notice" bash -c 'grep -qx build=true "$1" && grep -q "::notice" "$2"' _ "$TMP/out" "$TMP/log"
dl 9.8.7 X64 macOS
check "download: other OS -> source build" grep -qx 'build=true' "$TMP/out"
echo "tampered" >> "$REL/sparkcheck-9.8.7-linux-x86_64"
dl 9.8.7 X64; rc=$?
check "download: checksum mismatch fails the step" [ "$rc" -ne 0 ]
check "download: checksum mismatch says so" grep -q '::error.*checksum' "$TMP/log"
check "download: checksum mismatch gives no binary" bash -c '! grep -q "^bin=" "$1"' _ "$TMP/out"
: > "$TMP/out"
env SC_GIVEN=/opt/sc GITHUB_OUTPUT="$TMP/out" bash "$S/action-download.sh" >/dev/null
check "download: a given binary wins" grep -qx 'bin=/opt/sc' "$TMP/out"

# action-key.sh: the source build's cache key follows the action's content, not .git
A="$TMP/action"; mkdir -p "$A/linter" "$A/.git"; echo 'int x;' > "$A/linter/a.cpp"; echo v1 > "$A/.git/HEAD"
k1="$(bash "$S/action-key.sh" "$A" v1.0.0)"
echo v2 > "$A/.git/HEAD"; mkdir -p "$A/build"; echo junk > "$A/build/o"
check "key: same sources, same key (.git and build folders do not count)" [ "$k1" = "$(bash "$S/action-key.sh" "$A" v1.0.0)" ]
echo 'int y;' > "$A/linter/a.cpp"
k2="$(bash "$S/action-key.sh" "$A" v1.0.0)"
check "key: a changed source file changes the key" [ "$k1" != "$k2" ]
check "key: the ref is part of the key" bash -c '[[ "$1" == key=v1.0.0-* ]] && [ "$1" != "$(bash "$2" "$3" main)" ]' _ "$k2" "$S/action-key.sh" "$A"
check "key: a hostile ref is reduced to safe characters" bash -c '[[ "$(bash "$1" "$2" "a b;\$(x)")" =~ ^key=[A-Za-z0-9._-]+$ ]]' _ "$S/action-key.sh" "$A"

# action-sarif.sh
python3 - "$TMP/a.sarif" 3 <<'PY'
import json, sys
json.dump({"version": "2.1.0", "runs": [{"automationDetails": {"id": "sparkcheck/lint/"},
           "results": [{"ruleId": "G1"}] * int(sys.argv[2])}]}, open(sys.argv[1], "w"))
PY
: > "$TMP/out"
GITHUB_OUTPUT="$TMP/out" bash "$S/action-sarif.sh" "$TMP/a.sarif" gpu-jobs > "$TMP/log" 2>&1
check "sarif: category becomes automationDetails.id" python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["runs"][0]["automationDetails"]["id"] == "gpu-jobs/"' "$TMP/a.sarif"
check "sarif: results counted" grep -qx 'results=3' "$TMP/out"
check "sarif: no warning under 5,000" bash -c '! grep -q "::warning" "$1"' _ "$TMP/log"
python3 - "$TMP/b.sarif" 5001 <<'PY'
import json, sys
json.dump({"version": "2.1.0", "runs": [{"results": [{"ruleId": "G1"}] * int(sys.argv[2])}]}, open(sys.argv[1], "w"))
PY
bash "$S/action-sarif.sh" "$TMP/b.sarif" sparkcheck > "$TMP/log" 2>&1
check "sarif: warns past 5,000 results" grep -q '::warning.*5,000' "$TMP/log"

AV="$SC_SOURCE_DIR/tests/tools/node_modules/.bin/action-validator"
if [ -x "$AV" ]; then
  for w in "$SC_SOURCE_DIR"/.github/workflows/*.yml; do check "$(basename "$w") validates" "$AV" "$w"; done
  check "release notes for the CHANGELOG's version are not empty" bash -c '[ -n "$("$1"/scripts/release-notes.sh "v$2")" ]' _ "$SC_SOURCE_DIR" \
    "$(sed -n 's/^## \[\([0-9.]*\)\].*/\1/p' "$SC_SOURCE_DIR/CHANGELOG.md" | head -1)"
fi
finish
