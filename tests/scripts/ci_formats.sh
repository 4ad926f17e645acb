#!/usr/bin/env bash
# gitlab (Code Quality), checkstyle (XML) and rdjson (reviewdog) output: parsed
# as their consumers parse them, with the fields those consumers require, on a
# project whose path needs escaping in every format.
. "$(dirname "$0")/lib.bash"
D='we<ird> & "q"'
P="$TMP/proj"
mkdir -p "$P/$D"
printf 'torch==2.5.1+cu124\n' > "$P/$D/requirements.txt"
printf 'FROM ubuntu:24.04\nRUNN echo hi\n' > "$P/Dockerfile"
cd "$P" || exit 1
"$SPARKCHECK" lint --format gitlab:"$TMP/gl.json" --format checkstyle:"$TMP/cs.xml" --format rdjson:"$TMP/rd.json"; rc=$?
check "lint with three file formats exits 1" [ "$rc" -eq 1 ]

check "gitlab: Code Quality fields" python3 - "$TMP/gl.json" "$D" <<'PY'
import json, sys
issues = json.load(open(sys.argv[1]))
assert isinstance(issues, list) and issues, issues
for i in issues:
    assert isinstance(i["description"], str) and i["description"]
    assert isinstance(i["check_name"], str) and i["check_name"]
    assert isinstance(i["fingerprint"], str) and i["fingerprint"]
    assert i["severity"] in ("info", "minor", "major", "critical", "blocker")
    assert isinstance(i["location"]["path"], str)
    assert isinstance(i["location"]["lines"]["begin"], int) and i["location"]["lines"]["begin"] >= 1
assert len({i["fingerprint"] for i in issues}) == len(issues), "fingerprints must be unique"
assert any(i["location"]["path"] == sys.argv[2] + "/requirements.txt" for i in issues)
PY

check "checkstyle: parses as XML with checkstyle's structure" python3 - "$TMP/cs.xml" "$D" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "checkstyle" and root.get("version")
files = root.findall("file")
assert files and all(f.get("name") for f in files)
assert sys.argv[2] + "/requirements.txt" in [f.get("name") for f in files]
for f in files:
    for e in f:
        assert e.tag == "error", e.tag
        assert int(e.get("line")) >= 1 and int(e.get("column")) >= 1
        assert e.get("severity") in ("error", "warning", "info", "ignore")
        assert e.get("message") and e.get("source", "").startswith("sparkcheck.")
assert any(e.get("source") == "sparkcheck.dockerfile-syntax" for e in root.iter("error")), "parse errors listed"
PY
if command -v xmllint >/dev/null; then check "checkstyle: xmllint accepts it" xmllint --noout "$TMP/cs.xml"; fi

check "rdjson: reviewdog DiagnosticResult fields" python3 - "$TMP/rd.json" "$D" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["source"]["name"] == "sparkcheck"
assert r["diagnostics"]
for d in r["diagnostics"]:
    assert isinstance(d["message"], str) and d["message"]
    assert isinstance(d["location"]["path"], str)
    s = d["location"]["range"]["start"]
    assert isinstance(s["line"], int) and s["line"] >= 1
    assert d["severity"] in ("ERROR", "WARNING", "INFO")
    assert isinstance(d["code"]["value"], str)
    end = d["location"]["range"].get("end")
    if end is not None:
        assert (end["line"], end.get("column", 0)) >= (s["line"], s.get("column", 0))
assert any(d["location"]["path"] == sys.argv[2] + "/requirements.txt" for d in r["diagnostics"])
PY

# control characters in a path: still well-formed XML and JSON
B="$TMP/bad"
mkdir -p "$B/$(printf 'x\001y')"
printf 'torch==2.5.1+cu124\n' > "$B/$(printf 'x\001y')/requirements.txt"
(cd "$B" && "$SPARKCHECK" lint --format checkstyle) > "$TMP/bad.xml"
check "checkstyle with a control character in a path parses" python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$TMP/bad.xml"
for f in gitlab rdjson; do
  (cd "$B" && "$SPARKCHECK" lint --format $f) > "$TMP/bad.$f"
  check "$f with a control character in a path parses" python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$TMP/bad.$f"
done
finish
