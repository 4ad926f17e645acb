#!/usr/bin/env bash
# Configuration, inline suppressions, baselines, --fail-on and the output
# formats (concise, github, junit, several at once), end to end.
. "$(dirname "$0")/lib.bash"
export -n GITHUB_STEP_SUMMARY 2>/dev/null; unset GITHUB_STEP_SUMMARY
S="$SPARKCHECK"
bad_yaml() { printf 'num_machines: 2\nparallelism_config:\n  parallelism_config_tp_size: 2\n'; }
P="$TMP/p"
mkdir -p "$P"
bad_yaml > "$P/accelerate.yaml"
lint() { (cd "$P" && "$S" lint --color never "$@"); }
out="$(lint)"; rc=$?
if ! grep -q 'G10' <<<"$out"; then echo "SKIP: G10 is not built in (no lint rule to exercise)"; exit 77; fi
check "precondition: finding exits 1" [ "$rc" -eq 1 ]

# ---- configuration ----
printf 'select: [G10]\nfail_on: error\n' > "$P/.sparkcheck.yaml"
err="$(lint 2>&1 >/dev/null)"; rc=$?
check "unknown config key: exit 2" [ "$rc" -eq 2 ]
check "unknown config key: file and line" grep -q '\.sparkcheck\.yaml:2: unknown key .fail_on.' <<<"$err"
check "unknown config key: suggestion and valid keys" grep -q "did you mean 'fail-on'.*valid keys: select" <<<"$err"
printf 'fail-on: sometimes\n' > "$P/.sparkcheck.yaml"
err="$(lint 2>&1 >/dev/null)"; rc=$?
check "bad config value: exit 2 with the valid choices" bash -c '[ "$1" -eq 2 ] && grep -q "valid choices: error, warning, note, none" <<<"$2"' _ "$rc" "$err"
printf 'severity:\n  G10: note\nfail-on: warning\n' > "$P/.sparkcheck.yaml"
out="$(lint)"; rc=$?
check "severity override + fail-on: exit 0" [ "$rc" -eq 0 ]
check "severity override shows as note" grep -q 'note\[G10\]' <<<"$out"
out="$(cd "$TMP" && "$S" lint p --color never)"; rc=$?
check "config found from the linted path upwards (run from elsewhere)" [ "$rc" -eq 0 ]
printf 'fail-on: note\n' > "$TMP/other.yaml"
(cd "$P" && "$S" lint --config "$TMP/other.yaml" >/dev/null); rc=$?
check "--config overrides the discovered file" [ "$rc" -eq 1 ]
(cd "$P" && "$S" lint --no-config >/dev/null); rc=$?
check "--no-config ignores it" [ "$rc" -eq 1 ]
(cd "$P" && "$S" lint --fail-on note >/dev/null); rc=$?
check "--fail-on on the command line beats the file" [ "$rc" -eq 1 ]
cfg="$(cd "$P" && "$S" config)"
check "sparkcheck config: value and file:line origin" grep -Eq '^fail-on: warning +# \.sparkcheck\.yaml:3$' <<<"$cfg"
check "sparkcheck config: defaults say default" grep -Eq '^inline-ignore: true +# default$' <<<"$cfg"
check "sparkcheck config --format json" bash -c '"$1" config "$2" --format json | python3 -c "import json,sys; d=json.load(sys.stdin); assert d[\"fail-on\"][\"value\"]==\"warning\""' _ "$S" "$P"
rm "$P/.sparkcheck.yaml"
printf '[project]\nname = "p"\n\n[tool.sparkcheck]\nper-file-ignores = { "accelerate.yaml" = ["G10"] }\n' > "$P/pyproject.toml"
lint --format sarif:"$TMP/pfi.sarif" >/dev/null; rc=$?
check "pyproject [tool.sparkcheck] per-file-ignores: exit 0" [ "$rc" -eq 0 ]
check "per-file-ignores: SARIF suppression kind external with origin" python3 - "$TMP/pfi.sarif" <<'PY'
import json, sys
r = [x for x in json.load(open(sys.argv[1]))["runs"][0]["results"] if x["ruleId"] == "G10"]
s = r[0]["suppressions"][0]
assert s["kind"] == "external" and "pyproject.toml:5" in s["justification"], s
PY
if [ -x "$MULTITOOL" ]; then check "SARIF with external suppressions validates" sarif_validate "$TMP/pfi.sarif"; fi
printf '[tool.sparkcheck]\nexclude = ["accelerate.yaml"]\n' > "$P/pyproject.toml"
out="$(lint --format json)"; rc=$?
check "exclude: file not linted, exit 0" bash -c '[ "$1" -eq 0 ] && python3 -c "import json,sys; assert json.loads(sys.argv[1])[\"files_linted\"] == 1" "$2"' _ "$rc" "$out"
(cd "$P" && "$S" lint accelerate.yaml >/dev/null); rc=$?
check "exclude applies to files named on the command line (pre-commit)" [ "$rc" -eq 0 ]
rm "$P/pyproject.toml"

# ---- inline suppressions ----
printf 'num_machines: 2\nparallelism_config:\n  # sparkcheck: ignore[G10] -- measuring the link itself\n  parallelism_config_tp_size: 2\n' > "$P/accelerate.yaml"
out="$(lint)"; rc=$?
check "suppressed: exit 0" [ "$rc" -eq 0 ]
check "suppressed: counted in the summary" grep -q '1 suppressed' <<<"$out"
lint --format sarif:"$TMP/sup.sarif" >/dev/null
check "suppressed: SARIF justification" grep -q '"justification": "measuring the link itself"' "$TMP/sup.sarif"
if [ -x "$MULTITOOL" ]; then check "SARIF with suppressions validates" sarif_validate "$TMP/sup.sarif"; fi
(cd "$P" && "$S" lint --no-inline-ignore >/dev/null); rc=$?
check "--no-inline-ignore: exit 1" [ "$rc" -eq 1 ]
out="$(lint --show-suppressed --format concise)"
check "--show-suppressed lists it" grep -q 'suppressed: measuring the link itself' <<<"$out"
printf 'num_machines: 2  # sparkcheck: ignore[G10] -- nothing here\nparallelism_config:\n  parallelism_config_tp_size: 1\n' > "$P/accelerate.yaml"
out="$(lint --format concise)"; rc=$?
check "unused suppression: reported, exit 1" bash -c '[ "$1" -eq 1 ] && grep -q "accelerate.yaml:1:[0-9]*: warning: \[unused-suppression\]" <<<"$2"' _ "$rc" "$out"
lint --format sarif:"$TMP/unused.sarif" >/dev/null
if [ -x "$MULTITOOL" ]; then check "SARIF with unused-suppression validates" sarif_validate "$TMP/unused.sarif"; fi
check "sparkcheck rule unused-suppression" bash -c '"$1" rule unused-suppression | grep -q "## Fix"' _ "$S"
printf 'num_machines: 2\nparallelism_config:\n  parallelism_config_tp_size: 2  # sparkcheck: ignore[G01O] -- typo\n' > "$P/accelerate.yaml"
out="$(lint --format concise 2>&1)"; rc=$?
check "unknown rule in a suppression: exit 2" [ "$rc" -eq 2 ]
check "unknown rule in a suppression: file, line and column" grep -q 'accelerate.yaml:3:[0-9]*: error: \[suppression-unknown-rule\] unknown rule .G01O.' <<<"$out"

# ---- baseline ----
bad_yaml > "$P/accelerate.yaml"
(cd "$P" && "$S" lint --write-baseline "$TMP/base.json" >/dev/null 2>"$TMP/wb.err"); rc=$?
check "--write-baseline: exit 0" [ "$rc" -eq 0 ]
check "--write-baseline: says how many" grep -q 'wrote 1 finding' "$TMP/wb.err"
(cd "$P" && "$S" lint --baseline "$TMP/base.json" >/dev/null); rc=$?
check "--baseline: known finding hidden, exit 0" [ "$rc" -eq 0 ]
printf '# training config\n\n# for two Sparks\nnum_machines: 2\nparallelism_config:\n    parallelism_config_tp_size:   2\n' > "$P/accelerate.yaml"
out="$(lint --baseline "$TMP/base.json")"; rc=$?
check "--baseline survives moved and re-indented lines" [ "$rc" -eq 0 ]
check "--baseline: summary mentions it" grep -q '1 in the baseline' <<<"$out"
mkdir -p "$P/second"; bad_yaml > "$P/second/accelerate.yaml"
out="$(lint --baseline "$TMP/base.json" --format concise)"; rc=$?
lint --baseline "$TMP/base.json" --format sarif:"$TMP/bl.sarif" >/dev/null
check "--baseline: SARIF marks results baselineState new" grep -q '"baselineState": "new"' "$TMP/bl.sarif"
if [ -x "$MULTITOOL" ]; then check "SARIF with baselineState validates" sarif_validate "$TMP/bl.sarif"; fi
check "--baseline: a new finding is reported" bash -c '[ "$1" -eq 1 ] && grep -q "^second/accelerate.yaml:3" <<<"$2" && ! grep -q "^accelerate.yaml" <<<"$2"' _ "$rc" "$out"
rm -r "$P/second"
printf '{"version": 1, "findings": [\n  {"fingerprint": 12}\n' > "$TMP/broken.json"
err="$(lint --baseline "$TMP/broken.json" 2>&1 >/dev/null)"; rc=$?
check "malformed baseline: exit 2 with file:line" bash -c '[ "$1" -eq 2 ] && grep -q "broken.json:[0-9]*:[0-9]*: not a valid baseline" <<<"$2"' _ "$rc" "$err"
printf '{"findings": [{"rule": "G10"}]}' > "$TMP/noprint.json"
err="$(lint --baseline "$TMP/noprint.json" 2>&1 >/dev/null)"; rc=$?
check "baseline without fingerprints: exit 2" bash -c '[ "$1" -eq 2 ] && grep -q "findings\[0\]" <<<"$2"' _ "$rc" "$err"
lint --baseline "$TMP/none.json" >/dev/null 2>&1; rc=$?
check "missing baseline: exit 2" [ "$rc" -eq 2 ]
(cd "$P" && "$S" lint --write-baseline base.json >/dev/null 2>&1)
printf 'baseline: base.json\n' > "$P/.sparkcheck.yaml"
(cd "$TMP" && "$S" lint p >/dev/null); rc=$?
check "config baseline is relative to the config file and matches from another cwd" [ "$rc" -eq 0 ]
rm "$P/.sparkcheck.yaml" "$P/base.json"

# ---- formats ----
bad_yaml > "$P/accelerate.yaml"
out="$(lint --format concise --format sarif:"$TMP/m.sarif" --format junit:"$TMP/m.xml" --format json:"$TMP/m.json")"; rc=$?
check "several formats: exit 1" [ "$rc" -eq 1 ]
check "concise line shape" grep -Eq '^accelerate\.yaml:3:[0-9]+: error: \[G10\] ' <<<"$out"
check "sarif file written" grep -q '"ruleId": "G10"' "$TMP/m.sarif"
check "json file written" python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["findings"]' "$TMP/m.json"
check "junit is well-formed XML with one failure" python3 - "$TMP/m.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "testsuites" and root.get("failures") == "1", root.attrib
f = root.find(".//failure")
assert f.get("type") == "G10" and "accelerate.yaml:3" in f.text
PY
# github: escaping in properties and the per-step annotation cap
for i in $(seq 1 13); do mkdir -p "$P/d$i"; bad_yaml > "$P/d$i/accelerate.yaml"; done
mkdir -p "$P/odd"; bad_yaml > "$P/odd/a,b%c:d.yaml"
: > "$TMP/summary.md"
out="$(cd "$P" && GITHUB_STEP_SUMMARY="$TMP/summary.md" "$S" lint --format github)"; rc=$?
check "github: exit 1" [ "$rc" -eq 1 ]
check "github: at most 10 error annotations" [ "$(grep -c '^::error ' <<<"$out")" -eq 10 ]
check "github: annotation shape" grep -Eq '^::error file=d1/accelerate\.yaml,line=3,col=[0-9]+,endLine=3,endColumn=[0-9]+,title=G10 [a-z-]+::' <<<"$out"
check "github: message newline escaped as %0A" grep -q '%0AFix: ' <<<"$out"
check "github: the overflow goes to the job summary table" bash -c 'grep -q "^| Level | Rule | Location | Message |" "$1" && [ "$(grep -c "^| error | G10" "$1")" -eq 5 ]' _ "$TMP/summary.md"
out="$(cd "$P" && "$S" lint --format github odd)"
check "github: file property escapes , % :" grep -q '^::error file=odd/a%2Cb%25c%3Ad.yaml,line=3' <<<"$out"

# ---- probe command line (the checks themselves are tested with the probe) ----
"$S" probe G42 >/dev/null 2>&1; rc=$?
check "probe: unknown check exits 2" [ "$rc" -eq 2 ]
"$S" probe --format nope >/dev/null 2>&1; rc=$?
check "probe: unknown format exits 2" [ "$rc" -eq 2 ]
check "probe: --help lists the options" bash -c '"$1" probe --help | grep -q -- "--need-gb" && "$1" probe --help | grep -q -- "--sample-seconds"' _ "$S"
finish
