#!/usr/bin/env bash
# `sparkcheck cluster` end to end: exit codes (0 agree, 1 drift, 2 unreadable), text/JSON/SARIF,
# hostile strings escaped, a huge report refused by size, the recorded reports in
# fixtures-probe/reports/, and the collection recipes of docs/cluster.md (ssh loop, pdsh, srun -N2,
# ansible ad-hoc) run verbatim against stand-ins of those tools that "log in" to fake GB10 nodes.
. "$(dirname "$0")/lib.bash"
if ! "$SPARKCHECK" cluster --help >/dev/null 2>&1; then echo "SKIP: this sparkcheck has no cluster command"; exit 77; fi
FX="$SC_SOURCE_DIR/fixtures-probe"
R="$FX/reports"
DOC="$SC_SOURCE_DIR/docs/cluster.md"

"$SPARKCHECK" cluster "$R/gb10-node-a.json" "$R/gb10-node-b.json" > "$TMP/agree.txt"; rc=$?
check "matching nodes exit 0" [ "$rc" -eq 0 ]
check "matching nodes: says so" grep -q 'the nodes agree' "$TMP/agree.txt"

"$SPARKCHECK" cluster "$R/gb10-node-b-drift.json" "$R/gb10-node-a.json" > "$TMP/drift.txt"; rc=$?
check "drift exits 1" [ "$rc" -eq 1 ]
check "G1 driver drift names both nodes and values" grep -q '^G1 drift: NVIDIA driver differs: 580.82.09 on spark-b; 580.95.05 on spark-a$' "$TMP/drift.txt"
check "G9 package drift" grep -q '^G9 drift: transformers differs: 4.56.2 on spark-b; 4.57.1 on spark-a$' "$TMP/drift.txt"
check "G10 MTU of the NCCL interface" grep -q '^G10 drift: MTU of the chosen nccl interface differs: 1500 on spark-b; 9000 on spark-a$' "$TMP/drift.txt"
check "G10 NCCL version" grep -q '^G10 drift: NCCL the loader finds (libnccl.so.2) differs' "$TMP/drift.txt"
check "each finding has a fix" [ "$(grep -c '^G[0-9]* drift: ' "$TMP/drift.txt")" -eq "$(grep -c '^  fix: ' "$TMP/drift.txt")" ]
check "grouped under headings" grep -q '^## G10 interconnect$' "$TMP/drift.txt"

"$SPARKCHECK" cluster "$R/gb10-node-a.json" "$R/gb10-node-b-drift.json" --format json -o "$TMP/drift.json"; rc=$?
check "JSON: exit 1" [ "$rc" -eq 1 ]
check "JSON: parses, findings carry rule and values" python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
assert j["command"] == "cluster" and j["exit_code"] == 1
f = [x for x in j["findings"] if x["key"] == "driver.version"][0]
assert f["rule"] == "G1" and f["values"] == {"spark-a": "580.95.05", "spark-b": "580.82.09"}, f
' "$TMP/drift.json"

"$SPARKCHECK" cluster "$FX/h200-real/output.json" "$R/gb10-node-a.json" > "$TMP/old.txt"; rc=$?
check "schema-1 report read (drift: exit 1)" [ "$rc" -eq 1 ]
check "schema-1 report: a note of what cannot be compared" grep -q 'note\[old-schema\]: .*output.json: schema 1 report without a node block' "$TMP/old.txt"

# a schema-2 report recorded on a real NVIDIA H100 (the lent GPU machine) beside a fake GB10
"$SPARKCHECK" cluster "$R/h100-real-node.json" "$R/gb10-node-a.json" > "$TMP/real.txt"; rc=$?
check "real H100 node vs GB10: drift, exit 1" [ "$rc" -eq 1 ]
check "real H100 node: the GPUs differ" grep -q '^G10 drift: GPU capability differs: 9.0 on vm; 12.1 on spark-a$' "$TMP/real.txt"
check "real H100 node: the torch difference is one finding" [ "$(grep -c ': torch differs: ' "$TMP/real.txt")" -eq 1 ]

# bad input: truncated, not a report, missing, a FIFO, huge, hostile strings
head -c 300 "$R/gb10-node-a.json" > "$TMP/trunc.json"
"$SPARKCHECK" cluster "$R/gb10-node-a.json" "$TMP/trunc.json" > "$TMP/bad.txt"; rc=$?
check "truncated report: exit 2" [ "$rc" -eq 2 ]
check "truncated report: named" grep -q 'note\[unreadable-report\]: .*trunc.json: not valid JSON' "$TMP/bad.txt"
echo '{"command": "probe", "host": []}' > "$TMP/types.json"
"$SPARKCHECK" cluster "$R/gb10-node-a.json" "$TMP/types.json" >/dev/null; rc=$?
check "wrong types: exit 2" [ "$rc" -eq 2 ]
"$SPARKCHECK" cluster "$R/gb10-node-a.json" "$TMP/missing.json" >/dev/null; rc=$?
check "missing report: exit 2" [ "$rc" -eq 2 ]
"$SPARKCHECK" cluster "$R/gb10-node-a.json" >/dev/null 2>&1; rc=$?
check "one report: usage error 2" [ "$rc" -eq 2 ]
mkfifo "$TMP/fifo.json"
timeout 10 "$SPARKCHECK" cluster "$R/gb10-node-a.json" "$TMP/fifo.json" >/dev/null; rc=$?
check "a FIFO is refused, never opened blocking" [ "$rc" -eq 2 ]
truncate -s 3G "$TMP/huge.json"
( ulimit -v 1000000; "$SPARKCHECK" cluster "$R/gb10-node-a.json" "$TMP/huge.json" > "$TMP/huge.txt" ); rc=$?
check "huge report: refused by size, exit 2" [ "$rc" -eq 2 ]
check "huge report: says why" grep -q 'huge.json: cannot read the report: larger than the 16 MB limit' "$TMP/huge.txt"
python3 - "$R/gb10-node-b.json" "$TMP/evil.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
j["node"]["driver.version"]["value"] = "\x1b]0;owned\x07\x1b[2J580\r\n::error::x"
j["node"]["hostname"]["value"] = "spark-\x1b[31mb"
json.dump(j, open(sys.argv[2], "w"))
PY
for f in text json sarif; do
  "$SPARKCHECK" cluster "$R/gb10-node-a.json" "$TMP/evil.json" --format $f > "$TMP/out-evil.$f"; rc=$?
  check "hostile strings: $f exit 1" [ "$rc" -eq 1 ]
  check "hostile strings: no escape byte in $f" bash -c "! grep -q \$'\\x1b' '$TMP/out-evil.$f'"
  check "hostile strings: no carriage return in $f" bash -c "! grep -q \$'\\r' '$TMP/out-evil.$f'"
done
check "hostile strings: no line starts a workflow command" bash -c "! grep -q '^::' '$TMP/out-evil.text'"

if [ -x "$MULTITOOL" ]; then
  "$SPARKCHECK" cluster "$R/gb10-node-a.json" "$R/gb10-node-b-drift.json" "$FX/h200-real/output.json" --format sarif -o "$TMP/c.sarif"
  check "SARIF validates" sarif_validate "$TMP/c.sarif"
  check "SARIF (hostile) validates" sarif_validate "$TMP/out-evil.sarif"
else
  check "SARIF is JSON with results" python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["version"]=="2.1.0" and j["runs"][0]["results"]' "$TMP/out-evil.sarif"
  echo "note: SARIF Multitool not installed, SARIF not validated"
fi

# ---- the collection recipes of docs/cluster.md, run against stand-ins -------------------
[ -n "${SC_EMULATOR:-}" ] && { echo "note: recipes not run under an emulator"; finish; exit $?; }
BIN="$TMP/bin"; mkdir -p "$BIN" "$TMP/remote/spark-a" "$TMP/remote/spark-b" "$TMP/shared"
ln -s "$SPARKCHECK" "$BIN/sparkcheck"
# on HOST CMD: CMD as if run on HOST (its fake machine, its hostname, its home directory)
cat > "$BIN/on" <<SH
#!/usr/bin/env bash
h="\$1"; shift
cd "\${ON_CWD:-$TMP/remote/\$h}" && FAKE_HOST="\$h" SPARKCHECK_PROBE_FAKE="$FX/gb10-node-\${h#spark-}" bash -c "\$*"
SH
printf '#!/usr/bin/env bash\necho "${FAKE_HOST:-local}"\n' > "$BIN/hostname"
printf '#!/usr/bin/env bash\nh="$1"; shift; exec on "$h" "$@"\n' > "$BIN/ssh"
cat > "$BIN/pdsh" <<'SH'
#!/usr/bin/env bash
[ "$1" = -w ] || exit 2
IFS=, read -ra hosts <<<"$2"; shift 2
for h in "${hosts[@]}"; do on "$h" "$*" | sed "s/^/$h: /"; done
SH
cat > "$BIN/srun" <<SH
#!/usr/bin/env bash
while [ "\${1#-}" != "\$1" ]; do shift; done
for h in spark-a spark-b; do ON_CWD="\$PWD" on "\$h" "\$(printf '%q ' "\$@")"; done
SH
cat > "$BIN/ansible" <<'SH'
#!/usr/bin/env bash
# ansible HOSTS -i INVENTORY, -m MODULE -a ARGS: shell runs ARGS on each host; fetch copies src to dest
hosts="$1"; shift; mod= args=
while [ $# -gt 0 ]; do case "$1" in -m) mod="$2"; shift 2 ;; -a) args="$2"; shift 2 ;; *) shift ;; esac; done
IFS=, read -ra hs <<<"$hosts"
for h in "${hs[@]}"; do
  case "$mod" in
    shell) on "$h" "$args" >/dev/null ;;
    fetch) a="${args//\{\{ inventory_hostname \}\}/$h}"
           src=$(sed -E 's/.*src=([^ ]+).*/\1/' <<<"$a"); dest=$(sed -E 's/.*dest=([^ ]+).*/\1/' <<<"$a")
           mkdir -p "$(dirname "$dest")"; cp "$TMP_REMOTE/$h/$src" "$dest" ;;
  esac
done
SH
chmod +x "$BIN"/*
export PATH="$BIN:$PATH" TMP_REMOTE="$TMP/remote"

# recipe NAME: the lines of docs/cluster.md's block after "<!-- recipe: NAME -->", run in a fresh directory
recipe() {
  local d="$TMP/run-$1"; mkdir -p "$d"
  python3 - "$DOC" "$1" > "$d/recipe.sh" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r"<!-- recipe: " + re.escape(sys.argv[2]) + r" -->\s*```sh\n(.*?)```", text, re.S)
print(m.group(1) if m else "exit 3")
PY
  (cd "$d" && bash -e "$d/recipe.sh" > "$d/out.txt" 2>&1); echo $? > "$d/rc"
}
for r in ssh pdsh srun ansible; do
  recipe "$r"
  check "recipe $r: ran, and cluster found the nodes agree (exit 0)" [ "$(cat "$TMP/run-$r/rc")" -eq 0 ]
  check "recipe $r: one report per host" bash -c "ls '$TMP/run-$r'/reports/probe-spark-a.json '$TMP/run-$r'/reports/probe-spark-b.json >/dev/null"
  check "recipe $r: the reports are the hosts'" grep -q '"value": "spark-b"' "$TMP/run-$r/reports/probe-spark-b.json"
done
finish
