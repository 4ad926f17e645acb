#!/usr/bin/env bash
# Issue 14's table: sparkcheck against rg (and flake8/yamllint) over the same trees, in the
# same run, one run of each tool per row. Prints Markdown on standard output.
#   bench/report.sh [--max-copies N] [--no-real] [--no-small] [--only LETTERS] OUT [SPARKCHECK]
# OUT holds the generated trees (deterministic; built on the first run, reused after).
# SPARKCHECK defaults to build/sparkcheck. Rows (see bench/README.md):
#   a  benchmark tree 1x: rg -l of the trigger words; sparkcheck --no-cache and warm cache
#   b  peak RSS over the tree and 1..N-1 clones of it (--max-copies, default 8; skipped without
#      disk), each clone a repository (a .git folder: its own project); 8x also as one project
#   c  50k vs 200k small files (linear: ratio <= 4.5)
#   d  pre-commit: ~3,000-file repository, 10 files edited, warm cache (hyperfine)
#   e  start-up: --version and an empty directory (hyperfine)
#   f  real trees under $BENCH_REPOS (default /work/repos-bench): rg -c vs sparkcheck
#   g  callgrind instruction counts on a subset (stable where wall time is not)
#   h  flake8 / yamllint on a subset, for reference (when installed)
# Needs ripgrep, hyperfine, GNU time, valgrind, jq. Nothing here is a pass/fail gate.
set -euo pipefail
cd "$(dirname "$0")/.."
SRC="$PWD"
MAX_COPIES=8 REAL=1 SMALL=1 ONLY=abcdefgh
while [[ "${1:-}" == --* ]]; do
  case "$1" in
    --max-copies) MAX_COPIES="$2"; shift 2 ;;
    --no-real) REAL=0; shift ;;
    --no-small) SMALL=0; shift ;;
    --only) ONLY="$2"; shift 2 ;;
    *) echo "bench: unknown option $1" >&2; exit 2 ;;
  esac
done
OUT="$(realpath -m "${1:?usage: bench/report.sh [--max-copies N] [--no-real] [--no-small] [--only LETTERS] OUT [SPARKCHECK]}")"
SC="$(realpath "${2:-build/sparkcheck}")"
REPOS="${BENCH_REPOS:-/work/repos-bench}"
ROW_TIMEOUT="${ROW_TIMEOUT:-300}"  # seconds; a row past it shows "timeout"
for t in rg hyperfine /usr/bin/time valgrind jq timeout; do
  command -v "$t" >/dev/null || { echo "bench: missing $t" >&2; exit 2; }
done
START=$(date +%s)
unset SPARKCHECK_JOBS SPARKCHECK_NO_PREFILTER SPARKCHECK_NO_CACHE SPARKCHECK_CACHE_DIR  # the defaults, as users get them
LOAD0="$(cut -d' ' -f1-3 /proc/loadavg)"
mkdir -p "$OUT"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
export XDG_CACHE_HOME="$OUT/xdg-cache"  # a cache that falls back to XDG stays out of ~
HAS_CACHE=0; NOCACHE=()
# Not a pipe into grep -q: it would end the help output early (SIGPIPE fails the pipe under pipefail).
if grep -q -- '--no-cache' <<< "$("$SC" lint --help 2>/dev/null)"; then HAS_CACHE=1; NOCACHE=(--no-cache); fi
LINT=(lint --no-ignore --no-config --format json -q)
mapfile -t WORDS < <(python3 -c 'import yaml
for e in yaml.safe_load(open("knowledge/triggers.yaml"))["python-triggers"]["entries"]:
    "pattern" in e or print(e["name"])')
RG=(rg -i -F --no-ignore --hidden -g '!.sparkcheck_cache')
for w in "${WORDS[@]}"; do RG+=(-e "$w"); done
RGFLAG=-l  # rg -l for the generated trees, rg -c for the real ones
ROWS="$WORK/rows"

# --- measuring -------------------------------------------------------------------------
timed() {  # one run of the command, output discarded: "WALL_S RSS_KB", or why there is none
  local rc=0
  /usr/bin/time -f "%e %M" -o "$WORK/t" timeout "$ROW_TIMEOUT" "$@" >/dev/null 2>"$WORK/err" || rc=$?
  if [ "$rc" -eq 124 ]; then echo "> ${ROW_TIMEOUT} s (timeout)"
  elif [ "$rc" -gt 1 ]; then echo "failed (exit $rc)"  # 1 is findings (sparkcheck) or no match (rg)
  else tail -1 "$WORK/t"; fi
}
measured() { [[ "$1" =~ ^[0-9.]+\ [0-9]+$ ]]; }  # a "WALL_S RSS_KB" result
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f×", a / b; else print "-" }'; }
wall() { measured "$1" && awk -v w="${1%% *}" 'BEGIN { printf "%.2f s", w }' || echo "$1"; }
rss() { measured "$1" && awk -v k="${1##* }" 'BEGIN { printf "%.0f MB", k / 1024 }' || echo "-"; }
row() {  # SECTION LABEL RG_RESULT TOOL_RESULT TARGET (RG_RESULT "-": none)
  local r="-"
  measured "$3" && measured "$4" && r="$(ratio "${4%% *}" "${3%% *}")"
  echo "| $1 | $2 | $(wall "$3") | $(wall "$4") | $r | $(rss "$4") | $5 |" >> "$ROWS"
}
describe() {  # PATH...: "N files, M MB"
  local n b
  n=$(find "$@" -type f -not -path '*/.sparkcheck_cache/*' | wc -l)
  b=$(du -scb --exclude=.sparkcheck_cache "$@" | tail -1 | cut -f1)
  echo "$(group "$n") files, $(awk -v b="$b" 'BEGIN { printf (b < 1e7 ? "%.1f" : "%.0f"), b / 1e6 }') MB"
}
group() { echo "$1" | sed -E ':a; s/([0-9])([0-9]{3})($|,)/\1,\2\3/; ta'; }  # 1234567 -> 1,234,567
clear_cache() {  # PATH...: the caches in and beside the paths (a root of several paths is their parent)
  find "$@" -maxdepth 3 -name .sparkcheck_cache -prune -exec rm -rf {} + 2>/dev/null || true
  local p; for p in "$@"; do rm -rf "$(dirname "$p")/.sparkcheck_cache"; done
}
lint_nocache() { timed "$SC" "${LINT[@]}" "${NOCACHE[@]}" "$@"; }
lint_warm() {  # the second of two runs with the cache on (the first fills it)
  clear_cache "$@"
  timed "$SC" "${LINT[@]}" "$@" >/dev/null
  timed "$SC" "${LINT[@]}" "$@"
  clear_cache "$@"
}
pair() {  # SECTION LABEL TARGET MODE(nocache|warm) PATH...: rg, then sparkcheck, same paths
  local sec="$1" label="$2" target="$3" mode="$4" r s
  shift 4
  r="$(timed "${RG[@]}" "$RGFLAG" "$@")"
  s="$(lint_"$mode" "$@")"
  row "$sec" "$label" "$r" "$s" "$target"
  echo "$s" > "$WORK/last"
}
cache_modes() {  # SECTION LABEL TARGET PATH...: no cache (when the binary has one) and warm
  local sec="$1" label="$2" target="$3"
  shift 3
  if [ "$HAS_CACHE" = 1 ]; then
    pair "$sec" "$label, --no-cache" "$target" nocache "$@"
    pair "$sec" "$label, warm cache" "$target" warm "$@"
  else
    pair "$sec" "$label (no cache in this binary)" "$target" nocache "$@"
  fi
}

# --- trees (deterministic; rebuilt only when bench/build_tree.py changes) -----------------
tree() {  # NAME ARGS...: OUT/NAME from build_tree.py ARGS
  local name="$1" stamp
  shift
  stamp="$(sha1sum bench/build_tree.py | cut -c1-12) $*"
  if [ "$(cat "$OUT/$name.stamp" 2>/dev/null)" != "$stamp" ]; then
    rm -rf "${OUT:?}/$name" && nice python3 bench/build_tree.py "$OUT/$name" "$@" && echo "$stamp" > "$OUT/$name.stamp"
  fi
}
copies() {  # N: OUT/copies/c1..c(N-1), copies of this OUT/tree (disk permitting); prints how many exist
  local n="$1" k need free
  for ((k = 1; k < n; k++)); do
    if [ "$(cat "$OUT/copies/c$k.done" 2>/dev/null)" != "$(cat "$OUT/tree.stamp")" ]; then
      need=$(du -sb "$OUT/tree" | cut -f1)
      free=$(df -B1 --output=avail "$OUT" | tail -1)
      [ "$free" -gt $((need * 2)) ] || break
      rm -rf "$OUT/copies/c$k" && mkdir -p "$OUT/copies" && cp -r "$OUT/tree" "$OUT/copies/c$k" && cp "$OUT/tree.stamp" "$OUT/copies/c$k.done"
    fi
    mkdir -p "$OUT/copies/c$k/.git"  # a clone: a repository of its own (docs/cli.md#projects)
  done
  echo "$k"
}

# --- sections ----------------------------------------------------------------------------
sec_a() {
  tree tree
  cache_modes a "benchmark tree 1× ($(describe "$OUT/tree"))" "≤ 1.5× rg, < 64 MB" "$OUT/tree"
}
sec_b() {
  local have n paths k
  tree tree
  have=$(copies "$MAX_COPIES")
  for n in 2 4 8; do
    [ "$n" -le "$MAX_COPIES" ] || continue
    if [ "$n" -gt "$have" ]; then
      echo "| b | tree $n×: skipped (not enough free disk for the copies) | - | - | - | - | flat |" >> "$ROWS"
      continue
    fi
    paths=("$OUT/tree"); for ((k = 1; k < n; k++)); do paths+=("$OUT/copies/c$k"); done
    cache_modes b "tree $n× ($(describe "${paths[@]}")): the tree and $((n - 1)) clone$([ "$n" -gt 2 ] && echo s)" "RSS flat (< 64 MB)" "${paths[@]}"
  done
  # the same files as one project: every file's facts held until the rules run
  if [ "$have" -ge 8 ] && [ "$MAX_COPIES" -ge 8 ]; then
    local saved=("${LINT[@]}")
    LINT+=(--one-project)
    pair b "tree 8× as one project (--one-project), no cache" "" nocache "${paths[@]}"
    LINT=("${saved[@]}")
  fi
}
sec_c() {
  local s50 s200
  tree small-50000 --small 50000
  tree small-200000 --small 200000
  pair c "50k small files ($(describe "$OUT/small-50000")), no cache" "" nocache "$OUT/small-50000"
  s50="$(cat "$WORK/last")"
  pair c "200k small files ($(describe "$OUT/small-200000")), no cache" "" nocache "$OUT/small-200000"
  s200="$(cat "$WORK/last")"
  local r="-"; measured "$s50" && measured "$s200" && r="$(ratio "${s200%% *}" "${s50%% *}")"
  echo "| c | 200k ÷ 50k sparkcheck wall time | - | - | $r | - | ≤ 4.5× |" >> "$ROWS"
}
hyper() {  # DIR JSON HYPERFINE-ARGS...: hyperfine without a shell, run in DIR
  local dir="$1" json="$2"
  shift 2
  (cd "$dir" && hyperfine -N -i --style none --export-json "$json" "$@" >/dev/null 2>&1) || true
}
ms() { jq -r ".results[$2] | \"\(.median * 1000) \(.stddev * 1000)\"" "$1" | awk '{ printf "%.1f ± %.1f ms", $1, $2 }'; }
hrow() {  # SECTION LABEL JSON RG_INDEX TOOL_INDEX RSS_RESULT TARGET: a hyperfine row (median ± sd)
  local r m
  r="$(jq -r ".results[$4].median" "$3")"; m="$(jq -r ".results[$5].median" "$3")"
  echo "| $1 | $2 | $(ms "$3" "$4") | $(ms "$3" "$5") | $(ratio "$m" "$r") | $(rss "$6") | $7 |" >> "$ROWS"
}
sec_d() {
  tree precommit --stdlib-copies 0 --projects 73
  local d="$OUT/precommit" j="$WORK/d.json" mode="no cache in this binary" rs
  [ "$HAS_CACHE" = 1 ] && mode="warm cache"
  clear_cache "$d"
  (cd "$d" && "$SC" lint --format concise . >/dev/null 2>&1) || true  # fills the cache
  hyper "$d" "$j" --warmup 2 --runs 10 --prepare "python3 $SRC/bench/edit_files.py $d 10" \
    -n rg "${RG[*]} -l ." -n sparkcheck "$SC lint --format concise ."
  python3 bench/edit_files.py "$d" 10
  rs="$(cd "$d" && timed "$SC" lint --format concise .)"
  python3 bench/edit_files.py "$d" 10
  hrow d "pre-commit \`lint --format concise .\`: $(describe "$d"), 10 files edited, $mode (hyperfine, 10 runs)" \
    "$j" 0 1 "$rs" "< 50 ms"
  clear_cache "$d"
}
sec_e() {
  local d="$OUT/empty" j="$WORK/e.json" rs
  rm -rf "$d" && mkdir -p "$d"
  hyper "$d" "$j" --warmup 5 --runs 50 -n rg-version "rg --version" -n version "$SC --version" \
    -n rg-empty "${RG[*]} -l ." -n empty "$SC lint ."
  rs="$(timed "$SC" --version)"
  hrow e "start-up: \`--version\` (hyperfine, 50 runs; rg: \`rg --version\`)" "$j" 0 1 "$rs" "< 5 ms"
  rs="$(cd "$d" && timed "$SC" lint .)"
  hrow e "start-up: \`lint .\` in an empty directory (hyperfine, 50 runs)" "$j" 2 3 "$rs" "< 5 ms"
  rm -rf "$d"
}
sec_f() {
  local name d
  RGFLAG=-c
  for name in NVIDIA+Megatron-LM unslothai+notebooks; do
    d="$REPOS/$name"
    if [ -d "$d" ]; then cache_modes f "$name ($(describe "$d")), rg -c" "≤ 3× rg -c" "$d"
    else echo "| f | $name: not checked out under $REPOS | - | - | - | - | ≤ 3× rg -c |" >> "$ROWS"; fi
  done
  RGFLAG=-l
}
irs() {  # instructions callgrind counts for the command
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" >/dev/null 2>"$WORK/cg" || true
  sed -n 's/.*Collected : *//p' "$WORK/cg" | tr -d ' '
}
sec_g() {
  local sub="$WORK/subset" p a b
  tree tree
  mkdir -p "$sub" && cp -r "$OUT/tree"/stdlib-0/{json,email,asyncio} "$sub"/
  for p in $(ls "$OUT/tree/projects" | head -20); do cp -r "$OUT/tree/projects/$p" "$sub/"; done
  a="$(irs "${RG[@]}" -l -j1 "$sub")"
  b="$(irs "$SC" "${LINT[@]}" "${NOCACHE[@]}" --jobs 1 "$sub")"
  echo "| g | callgrind instructions, 1 thread, no cache: subset ($(describe "$sub")) | $(group "${a:-0}") |" \
    "$(group "${b:-0}") | $(ratio "${b:-0}" "${a:-0}") | - | - |" >> "$ROWS"
}
reference() {  # TOOL LABEL PATH... : rg, the tool, and sparkcheck over the same paths
  local tool="$1" label="$2" r t s
  shift 2
  command -v "${tool%% *}" >/dev/null || { echo "| h | ${tool%% *} not installed | - | - | - | - | reference |" >> "$ROWS"; return; }
  r="$(timed "${RG[@]}" -l "$@")"
  t="$(timed $tool "$@")"
  s="$(lint_nocache "$@")"
  row h "\`$tool\`, $label ($(describe "$@"))" "$r" "$t" "reference"
  row h "sparkcheck, the same files, no cache" "$r" "$s" ""
}
sec_h() {
  tree tree
  reference "flake8 --jobs=1" "stdlib email/" "$OUT/tree/stdlib-0/email"
  reference "yamllint -f parsable" "projects p000–p019" "$OUT"/tree/projects/p0{0,1}[0-9]
}

machine() {
  echo "- machine: $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)," \
    "$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo) RAM, load average at start $LOAD0"
  echo "- sparkcheck: $("$SC" --version 2>&1 | head -1) ($SC); on-disk cache: $([ "$HAS_CACHE" = 1 ] && echo yes || echo no)"
  echo "- $(rg --version | head -1), $(hyperfine --version), $(valgrind --version); $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "- one run of each tool per row (hyperfine rows: median ± sd); ratio = tool ÷ rg in the same row;" \
    "wall times on this shared machine vary ±30 %, callgrind counts do not"
}
main() {
  local s
  machine
  for s in a b c d e f g h; do
    [[ "$ONLY" == *"$s"* ]] || continue
    case "$s" in
      b) [ "$MAX_COPIES" -gt 1 ] || continue ;;
      c) [ "$SMALL" = 1 ] || continue ;;
      f) [ "$REAL" = 1 ] || continue ;;
    esac
    echo "bench: section $s ($(($(date +%s) - START)) s)" >&2
    "sec_$s"
  done
  echo
  echo "| # | measurement | rg | tool | ratio | peak RSS | target |"
  echo "|---|---|--:|--:|--:|--:|---|"
  cat "$ROWS"
  echo
  echo "- total time of this report: $(($(date +%s) - START)) s; load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
}
main
