#!/usr/bin/env bash
# scripts/new-rule.sh: refuses a bad id, name or an id already there; docs/CONTRIBUTING.md's
# worked example is its output, word for word (the scaffold:fixture and scaffold:unit tests
# build and run that output, under the first G-number no rule holds).
. "$(dirname "$0")/lib.bash"
new_rule="$SC_SOURCE_DIR/scripts/new-rule.sh"
scaffold="$TMP/g11"  # what the worked example shows (the build's own scaffold takes the first free id)
bash "$new_rule" G11 latest-image-tag --root "$scaffold" >/dev/null

bash "$new_rule" 11 x --root "$TMP/a" 2>/dev/null; check "an id without G: exit 2" [ $? -eq 2 ]
bash "$new_rule" G11 Latest_Tag --root "$TMP/a" 2>/dev/null; check "a name not in lower-case words: exit 2" [ $? -eq 2 ]
mkdir -p "$TMP/b/rules/G11-other"
bash "$new_rule" G11 x --root "$TMP/b" 2>/dev/null; check "an id already there: exit 1" [ $? -eq 1 ]
check "nothing written for a refused id" [ ! -e "$TMP/b/rules/G11-x" ]
bash "$new_rule" G12 a-b --root "$TMP/c" >/dev/null
check "four files written" [ "$(find "$TMP/c" -type f | wc -l)" -eq 4 ]
check "the rule's id is in its code, doc, fixture and test" \
  bash -c 'grep -q "return \"G12\"" "$1/rules/G12-a-b/G12.cpp" && grep -q "^id: G12$" "$1/rules/G12-a-b/G12.md" &&
           grep -q "expect: G12" "$1/fixtures/G12/untagged-image.Dockerfile" && grep -q "run_rule(\"G12\"" "$1/tests/unit/test_G12.cpp"' _ "$TMP/c"
check "the doc has its front matter and the sections rule_docs.sh needs" \
  bash -c 'd="$1/rules/G12-a-b/G12.md"; for k in id name short level precision tags; do grep -q "^$k: " "$d" || exit 1; done
           grep -q "^## Fix" "$d" && grep -q "^## Sources" "$d"' _ "$TMP/c"
bash "$SC_SOURCE_DIR/cmake/rule_includes.sh" "$TMP/c" >/dev/null
check "the new rule includes only core/, query/ and knowledge/" [ $? -eq 0 ]

# the worked example: the fenced blocks after its heading, against the scaffold the build wrote
doc="$SC_SOURCE_DIR/docs/CONTRIBUTING.md"
block() {  # block LANG N: the Nth ```LANG block of the worked example
  awk -v lang="$1" -v n="$2" '/^## Worked example/{on=1} on && /^## / && !/Worked example/{on=0}
    on && $0 == "```" lang {k++; if (k == n) {inb=1; next}} inb && /^```$/ {inb=0} inb' "$doc"
}
check "CONTRIBUTING.md shows new-rule.sh's G11.cpp" diff <(block cpp 1) "$scaffold/rules/G11-latest-image-tag/G11.cpp"
check "CONTRIBUTING.md shows new-rule.sh's fixture" diff <(block dockerfile 1) "$scaffold/fixtures/G11/untagged-image.Dockerfile"
check "CONTRIBUTING.md shows new-rule.sh's unit test" diff <(block cpp 2) "$scaffold/tests/unit/test_G11.cpp"
finish
