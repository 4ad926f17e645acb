#!/usr/bin/env bash
# Bad input never crashes or hangs the run: each problem is reported with the
# file's name and every other file is still linted.
. "$(dirname "$0")/lib.bash"
P="$TMP/proj"
mkdir -p "$P/sub"
printf 'torch==2.5.1+cu124\n' > "$P/requirements.txt"                 # a real finding
mkfifo "$P/Dockerfile"                                                  # FIFO named Dockerfile
ln -s .. "$P/sub/loop"                                                  # symlink (a loop): not followed
ln -s / "$P/sub/root"                                                   # symlink out of the tree: reported
printf 'a: [1, 2\n' > "$P/broken.yaml"                                  # malformed YAML
printf 'x = \n[t\n' > "$P/bad.toml"                                    # malformed TOML
printf '{"a": }' > "$P/bad.json"                                        # malformed JSON
head -c 2000 /dev/urandom > "$P/binary-requirements.txt"               # binary
printf 'torch==2.9.1\xff\xfe\n' > "$P/latin-requirements.txt"           # not UTF-8
printf '\xef\xbb\xbftransformers==4.57.1\r\n' > "$P/bom-requirements.txt" # BOM + CRLF
python3 - "$P/huge-requirements.txt" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("# big\n" * (50 * 1024 * 1024 // 6))
PY
out="$(timeout 60 "$SPARKCHECK" lint "$P" --format json 2>&1)"; rc=$?
check "run finishes (no hang) with exit 1" [ "$rc" -eq 1 ]
j() { echo "$out" | python3 -c "import json,sys; d=json.load(sys.stdin); $1"; }
check "finding in requirements.txt still reported" j "assert any(f['path']=='requirements.txt' and f['rule']=='G1' for f in d['findings'])"
for pair in "Dockerfile:not-regular-file" "sub/root:symlink" "broken.yaml:parse-error" "bad.toml:parse-error" \
            "bad.json:parse-error" "binary-requirements.txt:binary-file" "latin-requirements.txt:not-utf8" \
            "huge-requirements.txt:file-too-large" "bom-requirements.txt:bom"; do
  f="${pair%%:*}"; id="${pair##*:}"
  check "notification $id names $f" j "assert any(n['path']=='$f' and n['id']=='$id' and n['message'] for n in d['notifications']), d['notifications']"
done
out2="$("$SPARKCHECK" lint "$TMP/does-not-exist" 2>&1)"; rc=$?
check "missing path exits 2" [ "$rc" -eq 2 ]
check "missing path is named" grep -q "does-not-exist" <<<"$out2"
"$SPARKCHECK" lint --format nope . >/dev/null 2>&1; rc=$?
check "unknown format exits 2" [ "$rc" -eq 2 ]
"$SPARKCHECK" lint --select G99 . >/dev/null 2>&1; rc=$?
check "unknown rule exits 2" [ "$rc" -eq 2 ]
finish
