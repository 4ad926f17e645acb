#!/usr/bin/env bash
# Exit codes, text format shape, --stdin-filename, .gitignore handling, rule docs.
. "$(dirname "$0")/lib.bash"
P="$TMP/proj"
mkdir -p "$P/ignored" "$P/.venv/lib" "$P/node_modules/x"
printf 'torch==2.5.1+cu124\n' > "$P/requirements.txt"
cp "$P/requirements.txt" "$P/ignored/requirements.txt"
cp "$P/requirements.txt" "$P/.venv/lib/requirements.txt"
cp "$P/requirements.txt" "$P/node_modules/x/requirements.txt"
printf 'ignored/\n' > "$P/.gitignore"
out="$(cd "$P" && "$SPARKCHECK" lint --color never)"; rc=$?
check "findings exit 1" [ "$rc" -eq 1 ]
check "text line shape path:line:col: level[GN]:" grep -Eq '^requirements\.txt:1:[0-9]+: error\[G1\]: ' <<<"$out"
check "text shows a marker line" grep -q '\^' <<<"$out"
check "text shows a fix" grep -q 'fix:' <<<"$out"
check "summary line" grep -Eq '^Found [0-9]+ finding' <<<"$out"
check ".gitignore honoured (outside a git repo)" bash -c '! grep -q "^ignored/" <<<"$1"' _ "$out"
check "virtualenv and node_modules skipped" bash -c '! grep -Eq "^(\.venv|node_modules)/" <<<"$1"' _ "$out"
out="$(cd "$P" && "$SPARKCHECK" lint --no-ignore --color never)"
check "--no-ignore lints ignored files" grep -q '^ignored/requirements.txt' <<<"$out"
(cd "$P" && git init -q . && git add requirements.txt .gitignore)
out="$(cd "$P" && "$SPARKCHECK" lint --color never)"
check ".gitignore honoured (inside a git repo)" bash -c '! grep -q "^ignored/" <<<"$1"' _ "$out"
printf 'transformers==4.57.1\n' > "$TMP/clean.txt"
out="$(printf 'torch==2.4.0+cu121\n' | "$SPARKCHECK" lint --stdin-filename "$P/requirements.txt" --color never)"; rc=$?
check "--stdin-filename lints stdin as that file" grep -q 'requirements.txt:1' <<<"$out"
check "--stdin-filename exit 1" [ "$rc" -eq 1 ]
mkdir -p "$TMP/clean"
printf 'print("hello")\n' > "$TMP/clean/train.py"
(cd "$TMP/clean" && "$SPARKCHECK" lint >/dev/null); rc=$?
check "clean project exits 0" [ "$rc" -eq 0 ]
for g in $("$SPARKCHECK" rules --format json | python3 -c 'import json,sys; print(" ".join(r["id"] for r in json.load(sys.stdin)))'); do
  check "rule $g documented" bash -c '"$1" rule "$2" | grep -qi "fix"' _ "$SPARKCHECK" "$g"
done
n="$("$SPARKCHECK" rules --format json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')"
n_docs="$(ls "$SC_SOURCE_DIR"/rules/*/*.md | wc -l)"
check "rules lists every rule doc ($n_docs)" [ "$n" = "$n_docs" ]
"$SPARKCHECK" rule G42 >/dev/null 2>&1; rc=$?
check "unknown rule id exits 2" [ "$rc" -eq 2 ]
finish
