#!/usr/bin/env bash
# How sparkcheck reads a tree changes no finding (issue 14). Over every fixture case, all
# fixtures at once, the example project and a small generated benchmark tree, the JSON is
# byte-identical for --jobs 1, 2 and 4 and, when the binary has an on-disk cache
# (--no-cache in its help), for no cache, a cold cache and a warm cache; with the prefilter
# off (SPARKCHECK_NO_PREFILTER=1: files without a trigger word in knowledge/triggers.yaml are
# then parsed too) the findings are byte-identical and the notifications differ only by the
# python-syntax notes of files the prefilter does not parse.
# Cache runs lint copies under the build tree; nothing is written into fixtures/.
. "$(dirname "$0")/lib.bash"
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
export SPARKCHECK_NO_CACHE=1  # runs on the sources write no cache (cache runs unset it)
HAS_CACHE=0
"$SPARKCHECK" lint --help 2>/dev/null | grep -q -- '--no-cache' && HAS_CACHE=1
SCRATCH="${SC_BUILD_DIR:-$TMP}/findings_same"
rm -rf "$SCRATCH" && mkdir -p "$SCRATCH"
export XDG_CACHE_HOME="$SCRATCH/xdg"  # where a cache that cannot sit beside the tree goes

lint() {  # CASE ARGS...: JSON of `sparkcheck lint` on a case (a directory or a file), from its parent
  local d="$1"
  shift
  (cd "$(dirname "$d")" && "$SPARKCHECK" lint --no-config --format json "$@" "$(basename "$d")" 2>/dev/null)
}
notes() { jq -c '(.notifications // [])[] | select(.id != "python-syntax")' "$1"; }
differs() {  # WHAT A B: prints the first differing lines
  echo "  $1:"
  diff <(jq . "$2" 2>&1) <(jq . "$3" 2>&1) | head -8 | sed 's/^/    /'
  diff -q <(jq . "$2" 2>&1) <(jq . "$3" 2>&1) >/dev/null && echo "    (same content, different bytes)"
}
same_prefilter_jobs() {  # CASE: default == no prefilter (findings, notes) == --jobs 1/2/4
  local d="$1" j ok=0
  lint "$d" > "$TMP/ref"
  SPARKCHECK_NO_PREFILTER=1 lint "$d" > "$TMP/nopre"
  cmp -s <(jq -c .findings "$TMP/ref") <(jq -c .findings "$TMP/nopre") &&
    cmp -s <(notes "$TMP/ref") <(notes "$TMP/nopre") || { differs "no prefilter" "$TMP/ref" "$TMP/nopre"; ok=1; }
  for j in 1 2 4; do
    lint "$d" --jobs "$j" > "$TMP/j$j"
    cmp -s "$TMP/ref" "$TMP/j$j" || { differs "--jobs $j" "$TMP/ref" "$TMP/j$j"; ok=1; }
  done
  return "$ok"
}
same_cache() {  # CASE COPY: the case's JSON == its copy's with no cache, a cold and a warm cache
  local d="$1" c="$2" m ok=0
  lint "$d" > "$TMP/ref"
  lint "$c" --no-cache > "$TMP/none"
  find "$(dirname "$c")" -name .sparkcheck_cache -prune -exec rm -rf {} + && rm -rf "$XDG_CACHE_HOME"
  (unset SPARKCHECK_NO_CACHE; lint "$c" > "$TMP/cold"; lint "$c" > "$TMP/warm")
  for m in none cold warm; do
    cmp -s "$TMP/ref" "$TMP/$m" || { differs "cache: $m" "$TMP/ref" "$TMP/$m"; ok=1; }
  done
  return "$ok"
}
each_case() {  # FUNCTION: runs it on every fixture case (and its copy); one line per failure
  local d n=0 bad=0
  for d in "$SC_SOURCE_DIR"/fixtures/*/*; do
    [ "$(basename "$d")" = README.md ] && continue
    n=$((n + 1))
    "$1" "$d" "$SCRATCH/fixtures/${d#"$SC_SOURCE_DIR"/fixtures/}" ||
      { fail "$1: ${d#"$SC_SOURCE_DIR"/}"; bad=$((bad + 1)); }
  done
  [ "$bad" -eq 0 ] && ok "$1: $n fixture cases"
}

# the copies and the generated tree first: by the time the cache runs read them, their
# files are older than the 2 s in which a stat stamp is not trusted
cp -r "$SC_SOURCE_DIR/fixtures" "$SCRATCH/fixtures"
cp -r "$SC_SOURCE_DIR/examples" "$SCRATCH/examples"
JSONPKG="$(python3 -c 'import json, os; print(os.path.dirname(json.__file__))')"
python3 "$SC_SOURCE_DIR/bench/build_tree.py" "$SCRATCH/tree" --stdlib-copies 1 --stdlib "$JSONPKG" --projects 12
ok "generated tree: $(find "$SCRATCH/tree" -type f | wc -l) files"

each_case same_prefilter_jobs
check "all fixtures at once (cross-file context): prefilter, --jobs" same_prefilter_jobs "$SC_SOURCE_DIR/fixtures"
check "the example project: prefilter, --jobs" same_prefilter_jobs "$SC_SOURCE_DIR/examples"
check "generated tree: prefilter, --jobs" same_prefilter_jobs "$SCRATCH/tree"
if [ "$HAS_CACHE" = 1 ]; then
  each_case same_cache
  check "all fixtures at once: no, cold and warm cache" same_cache "$SC_SOURCE_DIR/fixtures" "$SCRATCH/fixtures"
  check "the example project: no, cold and warm cache" same_cache "$SC_SOURCE_DIR/examples" "$SCRATCH/examples"
  check "generated tree: no, cold and warm cache" same_cache "$SCRATCH/tree" "$SCRATCH/tree"
else
  ok "no on-disk cache in this binary (no --no-cache): cache modes not compared"
fi
check "nothing written into fixtures/" bash -c "[ -z \"\$(find '$SC_SOURCE_DIR/fixtures' -name .sparkcheck_cache)\" ]"

# the prefilter really skips: a file with no trigger word yields no syntax note, unless disabled
printf 'def f(:\n    pass\n' > "$TMP/lib.py"
check "python file without trigger words: not parsed" \
  bash -c "! (cd '$TMP' && '$SPARKCHECK' lint --no-config --format json . | grep -q python-syntax)"
check "SPARKCHECK_NO_PREFILTER=1 parses it" \
  bash -c "cd '$TMP' && SPARKCHECK_NO_PREFILTER=1 '$SPARKCHECK' lint --no-config --format json . | grep -q python-syntax"
check "--no-prefilter parses it" \
  bash -c "cd '$TMP' && '$SPARKCHECK' lint --no-config --no-prefilter --format json . | grep -q python-syntax"
# a JSON file without trigger words is skipped only when valid: a syntax error is still reported
printf '{"lm loss": {"values": {"1": NaN}}}\n' > "$TMP/golden.json"
check "invalid JSON without trigger words: parsed, its syntax error reported" \
  bash -c "cd '$TMP' && '$SPARKCHECK' lint --no-config --format json golden.json | grep -q 'JSON syntax error'"
rm -rf "$SCRATCH"
finish
