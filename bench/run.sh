#!/usr/bin/env bash
# Benchmark: sparkcheck lint vs ripgrep (and grep) over the same corpus, in the
# same run, plus peak memory. Speed is reported here, never asserted in tests.
#
# Corpus (built in a temp dir, nothing downloaded):
#   - the Python standard library of Debian's python3 (/usr/lib/python3.X), and
#   - every fixture of this repository copied 40 times (Dockerfiles, requirements,
#     YAML/JSON/TOML configs, notebooks, shell launchers).
# Usage: bench/run.sh [RUNS]     (needs hyperfine, ripgrep, GNU time: apt-get install hyperfine ripgrep time)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-5}"
for t in hyperfine rg /usr/bin/time; do
  command -v "$t" >/dev/null || { echo "bench: missing $t (apt-get install hyperfine ripgrep time)"; exit 2; }
done
[ -x build/sparkcheck ] || scripts/build.sh
SC="$PWD/build/sparkcheck"
CORPUS="$(mktemp -d)"
trap 'rm -rf "$CORPUS"' EXIT
PYLIB="$(ls -d /usr/lib/python3.[0-9]* 2>/dev/null | head -1)"
mkdir -p "$CORPUS/stdlib"
(cd "$PYLIB" && find . -name '*.py' -not -path '*/site-packages/*' -not -path '*/dist-packages/*' -print0 \
   | xargs -0 cp --parents -t "$CORPUS/stdlib")
for i in $(seq 1 40); do mkdir -p "$CORPUS/projects/p$i" && cp -r fixtures/. "$CORPUS/projects/p$i/"; done
files=$(find "$CORPUS" -type f | wc -l)
bytes=$(du -sb "$CORPUS" | cut -f1)
echo "corpus: $files files, $((bytes / 1000000)) MB ($PYLIB + fixtures x40)"
echo
PATTERN='torch|flash.attn|nvfp4|tensor.parallel|cu12[0-9]|attn_implementation|FROM '
hyperfine -N -i --warmup 1 --runs "$RUNS" --export-json "$CORPUS/h.json" \
  -n sparkcheck "$SC lint --no-ignore --format json $CORPUS" \
  -n "rg (2 threads)" "rg -j2 -c -e '$PATTERN' $CORPUS" \
  -n "rg -j1" "rg -j1 -c -e '$PATTERN' $CORPUS" \
  -n "grep -rcE" "grep -rcE '$PATTERN' $CORPUS"
python3 - "$CORPUS/h.json" "$bytes" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); mb = int(sys.argv[2]) / 1e6
res = {r["command"]: r for r in d["results"]}
sc = res["sparkcheck"]["median"]
print(f"\n{'tool':16} {'median s':>9} {'MB/s':>8} {'vs sparkcheck':>14}")
for name, r in res.items():
    print(f"{name:16} {r['median']:9.3f} {mb / r['median']:8.1f} {r['median'] / sc:13.2f}x")
print(f"\nsparkcheck takes {sc / res['rg (2 threads)']['median']:.1f}x the time of rg (2 threads): "
      "it parses every file (tree-sitter, yaml-cpp, toml++) and links them; rg only matches bytes.")
PY
echo
for cmd in "$SC lint --no-ignore --format json $CORPUS" "rg -j2 -c -e $PATTERN $CORPUS"; do
  /usr/bin/time -f "%M KB peak RSS, %e s wall, %U s user: ${cmd%% *}" $cmd >/dev/null 2>"$CORPUS/t" || true
  tail -1 "$CORPUS/t"
done
