#!/usr/bin/env bash
# Git repositories side by side (engine/units.h): a root in no git work tree that holds several
# repositories is linted one repository at a time, each its own project. Checked here:
# - project-wide evidence stays inside a repository (a 12.1a target in one does not silence
#   G7's note in another; --one-project lints the folder as one project, as before);
# - the findings of the split run are those of each repository linted alone, plus the files
#   in no repository, and every output format still shows their lines (snippets, context);
# - a repository inside a repository stays with it; a root inside a work tree never splits;
# - the facts cache keeps one file per unit, and a warm run prints the same findings.
# The workspace is made in $TMP, outside any work tree (the source tree is one).
. "$(dirname "$0")/lib.bash"
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
G7="$SC_SOURCE_DIR/fixtures/G7/targets-121a-elsewhere"
EX="$SC_SOURCE_DIR/examples/spark-finetune"
WS="$TMP/ws"
mkdir -p "$WS/serve/.git" "$WS/build/.git" "$WS/loose"
cp "$G7/serve.sh" "$WS/serve/serve.sh"
cp "$G7/docker/Dockerfile" "$WS/build/Dockerfile"
cp -r "$EX" "$WS/finetune" && mkdir "$WS/finetune/.git"
cp -r "$EX" "$WS/finetune/vendor" && : > "$WS/finetune/vendor/.git"  # a submodule: its .git is a file
cp "$EX/requirements.txt" "$WS/loose/requirements.txt"
ln -s ../build/Dockerfile "$WS/serve/Dockerfile"  # into another repository of the run: skipped quietly
git -C "$TMP" rev-parse 2>/dev/null && { echo "SKIP: $TMP is in a git work tree"; exit 77; }

lint() { (cd "$WS" && "$SPARKCHECK" lint --no-config --exit-zero "$@" 2>/dev/null); }
g7_notes() { jq -c '[.findings[] | select(.rule == "G7" and (.path | startswith("serve/"))) | .path]' "$1"; }

lint --format json . > "$TMP/split.json"
lint --format json --one-project . > "$TMP/one.json"
check "G7 notes NVFP4 in serve/ (no 12.1a target in that repository)" \
  test "$(g7_notes "$TMP/split.json")" = '["serve/serve.sh"]'
check "--one-project: build/'s 12.1a target counts for serve/ (no G7 note)" \
  test "$(g7_notes "$TMP/one.json")" = '[]'

check "a link into another repository of the run is no 'outside the tree' note" \
  test "$(jq '[.notifications[] | select(.id == "symlink")] | length' "$TMP/split.json")" = 0

# Each unit alone (--one-project on its folder, from the same root) gives the same findings.
: > "$TMP/alone"
for d in loose build finetune serve; do lint --format json --one-project "$d" | jq -c '.findings[]' >> "$TMP/alone"; done
check "split findings = each repository alone + the files in none" \
  cmp -s <(sort "$TMP/alone") <(jq -c '.findings[]' "$TMP/split.json" | sort)
check "split findings: the same with --jobs 1 and 4, and without the prefilter" \
  bash -c "cmp -s <(cd '$WS' && '$SPARKCHECK' lint --no-config --exit-zero --format json --jobs 1 . 2>/dev/null | jq -c .findings) \
                  <(cd '$WS' && '$SPARKCHECK' lint --no-config --exit-zero --format json --jobs 4 . 2>/dev/null | jq -c .findings) &&
           cmp -s <(jq -c .findings '$TMP/split.json') \
                  <(cd '$WS' && SPARKCHECK_NO_PREFILTER=1 '$SPARKCHECK' lint --no-config --exit-zero --format json . 2>/dev/null | jq -c .findings)"
check "split findings come sorted by path" \
  cmp -s <(jq -r '.findings[].path' "$TMP/split.json") <(jq -r '.findings[].path' "$TMP/split.json" | sort -s)
nested_linted() { jq -e '[.findings[].path | select(startswith("finetune/vendor/"))] | length > 0' "$TMP/split.json" >/dev/null; }
check "the nested repository stays with finetune/ (its files are linted)" nested_linted
# Files named on the command line go to their repository's project too.
lint --format json serve/serve.sh build/Dockerfile > "$TMP/named.json"
check "named files: serve/serve.sh judged with serve/ alone (G7 note)" \
  test "$(g7_notes "$TMP/named.json")" = '["serve/serve.sh"]'
lint --format json serve/serve.sh . > "$TMP/twice.json"
check "a file named and walked is linted once" \
  test "$(jq .files_linted "$TMP/twice.json")" = "$(jq .files_linted "$TMP/split.json")"
check "a file named and walked: same findings" cmp -s <(jq -c .findings "$TMP/twice.json") <(jq -c .findings "$TMP/split.json")
check "-v says how many projects" \
  bash -c "cd '$WS' && '$SPARKCHECK' lint --no-config -v . 2>&1 >/dev/null | grep -q '^sparkcheck: 4 projects, linted one after another'"

# Outputs read the flagged lines of files whose facts are gone: same text as one project,
# but for the G7 note. The example's findings are all in finetune/ and loose/.
for fmt in text sarif github; do
  lint --format "$fmt" finetune loose | grep -v '"commandLine"' > "$TMP/split.$fmt"
  lint --format "$fmt" --one-project finetune loose | grep -v '"commandLine"' > "$TMP/one.$fmt"
  check "$fmt output: split = one project (finetune/ and loose/ share no evidence)" cmp -s "$TMP/split.$fmt" "$TMP/one.$fmt"
done
check "text output shows the flagged lines" grep -q '^ *[0-9]* | ' "$TMP/split.text"

# A root inside a work tree is one project.
mkdir "$WS/.git"
lint --format json . > "$TMP/inside.json"
check "root in a work tree: one project (as --one-project)" cmp -s <(jq -c .findings "$TMP/inside.json") <(jq -c .findings "$TMP/one.json")
rmdir "$WS/.git"

# The facts cache: one file per unit; a warm run prints the same.
unset SPARKCHECK_NO_CACHE
cold="$(lint --format json . | jq -c .findings)"
check "cache: one file per unit (4)" test "$(ls "$WS/.sparkcheck_cache"/facts-*.bin | wc -l)" -eq 4
warm="$(lint --format json . | jq -c .findings)"
check "cache: cold = no cache" test "$cold" = "$(jq -c .findings "$TMP/split.json")"
check "cache: warm = cold" test "$warm" = "$cold"
check "cache: a warm run hits every file" \
  bash -c "cd '$WS' && '$SPARKCHECK' lint --no-config -v . 2>&1 >/dev/null | grep -q ' 0 misses;.*and 3 more cache files'"
finish
