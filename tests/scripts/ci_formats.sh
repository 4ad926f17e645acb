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

# rdjson suggestions: reviewdog's DiagnosticResult structure (proto/rdf: Suggestion = range + text,
# columns in UTF-8 bytes, end exclusive), and applied as reviewdog applies them they give --fix's result
F="$TMP/fixable"
mkdir -p "$F"
printf 'FROM x\nENV NOTE="caf\xc3\xa9 \xe2\x9c\x93" TORCH_CUDA_ARCH_LIST="12.1"\nCMD ["vllm", "serve", "nvidia/Qwen3-8B-NVFP4"]\n' > "$F/Dockerfile"
printf '#!/bin/sh\npip install unsloth\n' > "$F/setup.sh"
(cd "$F" && "$SPARKCHECK" lint --no-config --format rdjson .) > "$TMP/fix.rdjson"
cp -r "$F" "$TMP/fixed"
(cd "$TMP/fixed" && "$SPARKCHECK" lint --no-config --fix --unsafe-fixes -q . >/dev/null)
check "rdjson: suggestions match reviewdog's schema and reproduce --fix" python3 - "$TMP/fix.rdjson" "$F" "$TMP/fixed" <<'PY'
import json, os, sys
r = json.load(open(sys.argv[1]))
pos = {"type": "object", "properties": {"line": {"type": "integer"}, "column": {"type": "integer"}}}
rng = {"type": "object", "required": ["start"], "properties": {"start": pos, "end": pos}}
schema = {  # reviewdog.rdf DiagnosticResult, the fields sparkcheck writes
    "type": "object", "required": ["diagnostics"],
    "properties": {
        "source": {"type": "object", "properties": {"name": {"type": "string"}, "url": {"type": "string"}}},
        "diagnostics": {"type": "array", "items": {
            "type": "object", "required": ["message", "location"],
            "properties": {
                "message": {"type": "string"},
                "location": {"type": "object", "required": ["path"],
                             "properties": {"path": {"type": "string"}, "range": rng}},
                "severity": {"enum": ["UNKNOWN_SEVERITY", "ERROR", "WARNING", "INFO"]},
                "code": {"type": "object", "properties": {"value": {"type": "string"}, "url": {"type": "string"}}},
                "suggestions": {"type": "array", "items": {
                    "type": "object", "required": ["range", "text"],
                    "properties": {"range": rng, "text": {"type": "string"}}}}}}}}}
try:
    import jsonschema
    jsonschema.Draft4Validator(schema).validate(r)
except ImportError:
    print("note: python3-jsonschema not installed; structure checked by hand only")
with_s = [d for d in r["diagnostics"] if d.get("suggestions")]
assert len(with_s) == 2, r  # the G7 arch list (safe) and pip install unsloth (unsafe)
for d in with_s:
    for s in d["suggestions"]:
        a, b = s["range"]["start"], s["range"].get("end", s["range"]["start"])
        assert (b["line"], b["column"]) >= (a["line"], a["column"]), s
def apply(text, sugg):
    """Replaces each range (lines from 1, columns in UTF-8 bytes from 1, end exclusive), last first."""
    lines = text.encode().split(b"\n")
    starts = [0]
    for l in lines[:-1]:
        starts.append(starts[-1] + len(l) + 1)
    off = lambda p: starts[p["line"] - 1] + p["column"] - 1
    data = text.encode()
    for s in sorted(sugg, key=lambda s: off(s["range"]["start"]), reverse=True):
        a, b = off(s["range"]["start"]), off(s["range"].get("end", s["range"]["start"]))
        data = data[:a] + s["text"].encode() + data[b:]
    return data.decode()
for name in ("Dockerfile", "setup.sh"):
    sugg = [s for d in with_s if d["location"]["path"] == name for s in d["suggestions"]]
    got = apply(open(os.path.join(sys.argv[2], name)).read(), sugg)
    want = open(os.path.join(sys.argv[3], name)).read()
    assert got == want, (name, got, want)
PY
check "gitlab and checkstyle carry the fix as text only (no fix field in their formats)" python3 - "$F" "$SPARKCHECK" <<'PY'
import json, subprocess, sys
run = lambda f: subprocess.run([sys.argv[2], "lint", "--no-config", "--format", f, "."], cwd=sys.argv[1],
                               capture_output=True, text=True).stdout
gl = [i for i in json.loads(run("gitlab")) if i["check_name"] == "G7"]
assert gl and "Fix:" in gl[0]["description"], gl
assert 'source="sparkcheck.G7"' in run("checkstyle")
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
