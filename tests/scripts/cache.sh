#!/usr/bin/env bash
# The facts cache (issue 14) changes no finding: for every fixture case, and all fixtures at
# once, the JSON is byte-identical with --no-cache, a cold cache, a warm cache, and after a
# file is edited between runs. Works on a copy in $TMP (never writes into the source tree).
. "$(dirname "$0")/lib.bash"
unset SPARKCHECK_NO_CACHE SPARKCHECK_CACHE_DIR
cp -r "$SC_SOURCE_DIR/fixtures" "$TMP/fx"
lint() {  # lint CASE [flags...]: JSON of the case, from its parent
  local d="$1"; shift
  (cd "$(dirname "$d")" && "$SPARKCHECK" lint --no-config --format json "$@" "$(basename "$d")" 2>/dev/null)
}
same_runs() {  # case: no cache == cold == warm == warm after an edit (vs no cache after it)
  local d="$1" c="$TMP/cache/$2" a b w
  a="$(lint "$d" --no-cache)"; b="$(lint "$d" --cache-dir "$c")"; w="$(lint "$d" --cache-dir "$c")"
  [ "$a" = "$b" ] && [ "$a" = "$w" ] || { echo "differs before the edit: $d"; return 1; }
  local f; f="$(find "$d" -type f | sort | head -1)"
  [ -n "$f" ] || return 0
  printf '\n' >> "$f"
  [ "$(lint "$d" --no-cache)" = "$(lint "$d" --cache-dir "$c")" ] || { echo "differs after editing $f"; return 1; }
}
n=0; bad=0
for d in "$TMP"/fx/*/*; do
  [ "$(basename "$d")" = README.md ] && continue
  n=$((n + 1))
  same_runs "$d" "$n" || bad=$((bad + 1))
done
[ "$bad" -eq 0 ] && ok "$n fixture cases: same JSON without a cache, cold, warm and after an edit" || fail "$bad cases differ"
check "all fixtures at once (cross-file context)" same_runs "$TMP/fx" all

# a warm run reads nothing: every file a hit; an edited file is the one miss
proj="$TMP/fx/G9"
v() { (cd "$proj" && "$SPARKCHECK" lint --no-config -v --format json "$@" . 2>&1 >/dev/null | grep 'cache:'); }
# Files changed in the last seconds are re-hashed on every run (their stamp is not trusted yet),
# and the loop above just edited some of these: date them back so the warm check is not timing-bound.
find "$proj" -type f -exec touch -d "@$(( $(date +%s) - 60 ))" {} +
v >/dev/null
check "warm: every file a hit, nothing written" bash -c "$(declare -f v); proj='$proj' SPARKCHECK='$SPARKCHECK'; v | grep -q ' 0 misses;.*unchanged, not written'"
f="$(find "$proj" -name '*.txt' -o -name 'Dockerfile*' | sort | head -1)"
printf '\n' >> "$f"
check "an edited file is the one miss" bash -c "$(declare -f v); proj='$proj' SPARKCHECK='$SPARKCHECK'; v | grep -q ' 1 misses;'"
check "the cache lies in .sparkcheck_cache with a .gitignore and CACHEDIR.TAG" \
  test -f "$proj/.sparkcheck_cache/.gitignore" -a -f "$proj/.sparkcheck_cache/CACHEDIR.TAG"
check "the cache dir is not linted" bash -c "cd '$proj' && ! '$SPARKCHECK' lint --no-config --show-files . | grep -q sparkcheck_cache"
check "--no-cache writes nothing" bash -c "cd '$TMP' && mkdir nc && cp '$f' nc/ && cd nc && '$SPARKCHECK' lint --no-cache . >/dev/null; ! test -e .sparkcheck_cache"
check "SPARKCHECK_NO_CACHE=1 writes nothing" bash -c "cd '$TMP/nc' && SPARKCHECK_NO_CACHE=1 '$SPARKCHECK' lint . >/dev/null; ! test -e .sparkcheck_cache"
# a second install of the same build: the real binary copied (under a cross build's emulator
# $SPARKCHECK is a wrapper script naming it), with another modification time
bin="$SPARKCHECK"
[ -n "${SC_EMULATOR:-}" ] && bin="$(awk '/^exec/ {print $(NF-1)}' "$SPARKCHECK")"
mkdir "$TMP/copy" && cp "$bin" "$TMP/copy/sparkcheck" && touch -d 2020-01-01 "$TMP/copy/sparkcheck"
check "a second install of the same build (a copy, another mtime) reads the cache" bash -c \
  "cd '$proj' && '$SPARKCHECK' lint . >/dev/null 2>&1; ${SC_EMULATOR:-} '$TMP/copy/sparkcheck' lint -v . 2>&1 | grep -q ' 0 misses'"
check "a run with nothing to cache (an empty folder) creates nothing" bash -c "mkdir '$TMP/empty' && cd '$TMP/empty' && '$SPARKCHECK' lint . >/dev/null 2>&1; ! test -e .sparkcheck_cache"
check "standard input writes nothing" bash -c "cd '$TMP/nc' && '$SPARKCHECK' lint --stdin-filename Dockerfile < '$f' >/dev/null; ! test -e .sparkcheck_cache"
check "SPARKCHECK_CACHE_DIR is used" bash -c "cd '$TMP/nc' && SPARKCHECK_CACHE_DIR='$TMP/envc' '$SPARKCHECK' lint . >/dev/null; ls '$TMP/envc' | grep -q '^facts-'"
# a pre-commit style call naming a few files after a whole-tree lint: parsed directly, the
# cache neither decoded nor rewritten; the findings those of --no-cache
named=(G1/plain-torch.sh G9/requirements-unpinned.txt)
for n in "${named[@]}"; do [ -f "$TMP/fx/$n" ] || fail "fixture $n is missing"; done
(cd "$TMP/fx" && "$SPARKCHECK" lint --no-config --cache-dir "$TMP/pc" . >/dev/null 2>&1)
pc_before="$(ls -l --time-style=+%s.%N "$TMP/pc" | md5sum)"
check "a few named files: parsed directly, the cache left as it is" bash -c \
  "cd '$TMP/fx' && '$SPARKCHECK' lint --no-config --cache-dir '$TMP/pc' -v ${named[*]} 2>&1 >/dev/null | grep -q 'named file(s) parsed directly'"
check "... the cache file untouched" test "$pc_before" = "$(ls -l --time-style=+%s.%N "$TMP/pc" | md5sum)"
check "... the same JSON as --no-cache" test "$(cd "$TMP/fx" && "$SPARKCHECK" lint --no-config --format json --cache-dir "$TMP/pc" "${named[@]}" 2>/dev/null)" = \
  "$(cd "$TMP/fx" && "$SPARKCHECK" lint --no-config --format json --no-cache "${named[@]}" 2>/dev/null)"
check "a named folder still uses the cache" bash -c \
  "cd '$TMP/fx' && '$SPARKCHECK' lint --no-config --cache-dir '$TMP/pc' -v G9 2>&1 >/dev/null | grep -q ' hits, '"
printf 'cache-dir: ../cfgc\n' > "$TMP/nc/.sparkcheck.yaml"
check "a discovered config's cache-dir outside its folder is not used" bash -c "cd '$TMP/nc' && '$SPARKCHECK' lint . >/dev/null 2>&1; ! test -e '$TMP/cfgc'"
check "--config's cache-dir is used (relative to the config file)" bash -c "cd '$TMP/nc' && '$SPARKCHECK' lint --config .sparkcheck.yaml . >/dev/null; ls '$TMP/cfgc' | grep -q '^facts-'"
check "sparkcheck config shows cache-dir" bash -c "cd '$TMP/nc' && '$SPARKCHECK' config --config .sparkcheck.yaml | grep -q '^cache-dir: .*cfgc'"
finish
