#!/usr/bin/env bash
# Measures sparkcheck against `rg -l` of the trigger words over the benchmark tree:
# wall time and peak RSS (GNU time), and callgrind instruction counts on a subset
# (stable on a shared machine, unlike wall time). Prints a table of ratios.
#   bench/measure.sh TREE [SPARKCHECK...]     (TREE from bench/build_tree.py)
# Each SPARKCHECK binary gets a row (e.g. main's build and this one). Needs ripgrep,
# GNU time and valgrind; flake8/yamllint rows appear when Debian's are installed.
set -euo pipefail
cd "$(dirname "$0")/.."
TREE="${1:?usage: bench/measure.sh TREE [SPARKCHECK...]}"
shift
BINS=("$@")
[ ${#BINS[@]} -gt 0 ] || BINS=("$PWD/build/sparkcheck")
for t in rg /usr/bin/time valgrind; do command -v "$t" >/dev/null || { echo "bench: missing $t"; exit 2; }; done
OUT="$(mktemp -d)"
trap 'cp "$OUT/rows" "${KEEP_ROWS:-/dev/null}" 2>/dev/null; rm -rf "$OUT"' EXIT
# the trigger words, as rg arguments
mapfile -t WORDS < <(python3 -c 'import yaml
for e in yaml.safe_load(open("knowledge/triggers.yaml"))["python-triggers"]["entries"]: print(e["name"])')
RG=(rg -l -i -F --no-ignore --hidden)
for w in "${WORDS[@]}"; do RG+=(-e "$w"); done
SUB="$OUT/subset"  # callgrind subset: part of one stdlib copy and 20 projects
mkdir -p "$SUB" && cp -r "$TREE"/stdlib-0/json "$TREE"/stdlib-0/email "$TREE"/stdlib-0/asyncio "$SUB"/
for p in $(ls "$TREE/projects" | head -20); do cp -r "$TREE/projects/$p" "$SUB/"; done
row() {  # name, then the command (its last argument the tree); records: name wall_s rss_kb instructions
  local name="$1"; shift
  /usr/bin/time -f "%e %M" -o "$OUT/t" "$@" >/dev/null 2>"$OUT/err" || true
  local sub=("${@:1:$#-1}") ir=0
  [ -n "${NO_CALLGRIND:-}" ] || valgrind --tool=callgrind --callgrind-out-file="$OUT/cg" "${sub[@]}" "$SUB" >/dev/null 2>"$OUT/cgerr" || true
  [ -n "${NO_CALLGRIND:-}" ] || ir=$(sed -n 's/.*Collected : *//p' "$OUT/cgerr" | tr -d ' ')
  echo "$name $(tail -1 "$OUT/t") ${ir:-0}" >> "$OUT/rows"  # time -o: a status line may come first
}
export SPARKCHECK_JOBS=1
export SPARKCHECK_NO_CACHE=1  # parsing is measured here; the facts cache has its own numbers (docs/speed.md, Cache)
row "rg-l" "${RG[@]}" "$TREE"
for b in "${BINS[@]}"; do row "sparkcheck:$(basename "$(dirname "$(dirname "$b")")")" "$b" lint --no-ignore --no-config --format json "$TREE"; done
SMALL="$TREE/stdlib-0/email"
export NO_CALLGRIND=1  # python tools: wall time and RSS only
if command -v flake8 >/dev/null; then row "flake8(email)" flake8 --jobs=1 "$SMALL"; fi
if command -v yamllint >/dev/null; then row "yamllint(p000)" yamllint -f parsable "$TREE/projects/p000"; fi
files=$(find "$TREE" -type f | wc -l); bytes=$(du -sb "$TREE" | cut -f1)
echo "tree: $TREE, $files files, $((bytes / 1000000)) MB; callgrind subset: $(find "$SUB" -type f | wc -l) files"
echo "machine: $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1); wall times are one run each"
python3 - "$OUT/rows" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1])]
base = {r[0]: r for r in rows}["rg-l"]
print(f"| {'tool':24} | {'wall s':>7} | {'x rg':>6} | {'peak RSS MB':>11} | {'Ir (subset)':>15} | {'x rg Ir':>8} |")
print(f"|{'-'*26}|{'-'*9}|{'-'*8}|{'-'*13}|{'-'*17}|{'-'*10}|")
for name, wall, rss, ir in rows:
    xr = float(wall) / max(float(base[1]), 1e-3)
    irs = f"{int(ir):15,}" if int(ir) else f"{'-':>15}"
    xi = f"{int(ir) / max(int(base[3]), 1):8.1f}" if int(ir) else f"{'-':>8}"
    print(f"| {name:24} | {float(wall):7.2f} | {xr:6.1f} | {int(rss)/1024:11.1f} | {irs} | {xi} |")
PY
