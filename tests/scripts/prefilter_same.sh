#!/usr/bin/env bash
# The prefilter (knowledge/triggers.yaml: files without a trigger word are not parsed)
# and the thread count change no finding: every fixture case, and all fixtures at once,
# give the same findings with SPARKCHECK_NO_PREFILTER=1 and with SPARKCHECK_JOBS=1.
# Notifications may differ only by the python-syntax notes of files not parsed.
. "$(dirname "$0")/lib.bash"
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
lint() {  # JSON of `sparkcheck lint` on a fixture case (a directory or a file), from its parent
  (cd "$(dirname "$1")" && "$SPARKCHECK" lint --no-config --format json "$(basename "$1")" 2>/dev/null)
}
findings() { lint "$1" | jq -c '.findings[]?' 2>/dev/null; }
notes() { lint "$1" | jq -c '(.notifications // [])[] | select(.id != "python-syntax")' 2>/dev/null; }
same() {  # dir: default == no prefilter == one thread
  local d="$1" a b c
  a="$(findings "$d")"
  b="$(SPARKCHECK_NO_PREFILTER=1 findings "$d")"
  c="$(SPARKCHECK_JOBS=1 findings "$d")"
  [ "$a" = "$b" ] && [ "$a" = "$c" ] && [ "$(notes "$d")" = "$(SPARKCHECK_NO_PREFILTER=1 notes "$d")" ]
}
n=0; bad=0
for d in "$SC_SOURCE_DIR"/fixtures/*/*; do
  [ "$(basename "$d")" = README.md ] && continue
  n=$((n + 1))
  same "$d" || { fail "prefilter or --jobs changes findings in ${d#"$SC_SOURCE_DIR"/}"; bad=$((bad + 1)); }
done
[ "$bad" -eq 0 ] && ok "$n fixture cases: same findings with and without the prefilter, 1 thread or many"
check "all fixtures at once (cross-file context)" same "$SC_SOURCE_DIR/fixtures"
check "the example project" same "$SC_SOURCE_DIR/examples"
# the prefilter really skips: a file with no trigger word yields no syntax note, unless disabled
printf 'def f(:\n    pass\n' > "$TMP/lib.py"
check "python file without trigger words: not parsed" \
  bash -c "! (cd '$TMP' && '$SPARKCHECK' lint --no-config --format json . | grep -q python-syntax)"
check "SPARKCHECK_NO_PREFILTER=1 parses it" \
  bash -c "cd '$TMP' && SPARKCHECK_NO_PREFILTER=1 '$SPARKCHECK' lint --no-config --format json . | grep -q python-syntax"
check "--no-prefilter parses it" \
  bash -c "cd '$TMP' && '$SPARKCHECK' lint --no-config --no-prefilter --format json . | grep -q python-syntax"
check "--jobs 1 and --jobs 3 give the same JSON" \
  bash -c "cd '$SC_SOURCE_DIR/fixtures' && cmp <('$SPARKCHECK' lint --no-config --jobs 1 --format json .) <('$SPARKCHECK' lint --no-config --jobs 3 --format json .)"
finish
