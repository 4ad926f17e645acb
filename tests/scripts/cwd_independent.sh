#!/usr/bin/env bash
# Findings do not depend on where sparkcheck is started: `lint .` inside a project and
# `lint NAME` from its parent give the same findings (paths and messages differ only by the
# `NAME/` prefix). A Dockerfile in docker/ whose COPY names a file at the repository's top
# (the build context) is linked either way.
. "$(dirname "$0")/lib.bash"
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
P="$TMP/ws/proj"
mkdir -p "$P/.git" "$P/docker"
cat > "$P/docker/Dockerfile" <<'DF'
FROM nvcr.io/nvidia/pytorch:25.11-py3
COPY requirements-spark.txt /tmp/requirements-spark.txt
RUN pip install -r /tmp/requirements-spark.txt
DF
printf 'torch>=2.1\nflash-attn\n' > "$P/requirements-spark.txt"
cp -r "$SC_SOURCE_DIR/examples/spark-finetune" "$TMP/ws/finetune"
cp -r "$SC_SOURCE_DIR/fixtures/G9/container-contexts" "$TMP/ws/contexts"

# findings as "path:line:col rule level message", the NAME/ prefix taken off
norm() {
  jq -r --arg p "${2:+$2/}" '.findings[] | "\(.path | ltrimstr($p)):\(.line):\(.column) \(.rule) \(.level) \(if $p == "" then .message else (.message | split($p) | join("")) end)"' "$1" | sort
}
for name in proj finetune contexts; do
  (cd "$TMP/ws/$name" && "$SPARKCHECK" lint --no-config --exit-zero -f json . 2>/dev/null) > "$TMP/in.json"
  (cd "$TMP/ws" && "$SPARKCHECK" lint --no-config --exit-zero -f json "$name" 2>/dev/null) > "$TMP/up.json"
  (cd / && "$SPARKCHECK" lint --no-config --exit-zero -f json "$TMP/ws/$name" 2>/dev/null) > "$TMP/abs.json"
  norm "$TMP/in.json" "" > "$TMP/in.txt"
  norm "$TMP/up.json" "$name" > "$TMP/up.txt"
  check "$name: same findings from inside and from its parent" diff "$TMP/in.txt" "$TMP/up.txt"
  check "$name: same number of findings with an absolute path" \
    test "$(jq '.findings | length' "$TMP/in.json")" = "$(jq '.findings | length' "$TMP/abs.json")"
done
(cd "$TMP/ws" && "$SPARKCHECK" lint --no-config --exit-zero -f json proj 2>/dev/null) > "$TMP/proj.json"
check "the Dockerfile's COPY of a top-level file is linked: judged inside the NGC image" \
  grep -q 'requirements-spark.txt:1:1 G9 warning torch>=2.1 installed unpinned inside an NGC container' <(norm "$TMP/proj.json" proj)
finish
