#!/usr/bin/env bash
# Function size limits (.clang-tidy: readability-function-size, LineThreshold 80;
# readability-function-cognitive-complexity, Threshold 25) over linter/ and rules/, with the
# build's compile_commands.json. tests/scripts/tidy-pending.txt lists the functions over the limits
# when the check came in ("FILE FUNCTION"); the test fails on any other function over them, and on
# a listed one that is now within them (delete its line: the list only shrinks).
# Skipped (77) without clang-tidy.   SC_SOURCE_DIR=. SC_BUILD_DIR=build bash tests/scripts/tidy.sh
set -uo pipefail
cd "${SC_SOURCE_DIR:?}"
build="${SC_BUILD_DIR:-build}"
tidy="$(command -v clang-tidy || command -v clang-tidy-14 || true)"
[ -n "$tidy" ] || { echo "SKIP: clang-tidy not installed"; exit 77; }
[ -f "$build/compile_commands.json" ] || { echo "FAIL: $build/compile_commands.json missing (CMAKE_EXPORT_COMPILE_COMMANDS)"; exit 1; }
jobs="${TIDY_JOBS:-$(nproc)}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
find linter rules -name '*.cpp' | sort |
  xargs -P "$jobs" -n 4 "$tidy" -p "$build" --quiet --extra-arg=-Wno-unknown-warning-option >"$tmp/out" 2>"$tmp/err"
# "FILE FUNCTION" for every function over a limit (a lambda is named "lambda")
sed -nE "s|^($PWD/)?([^:]+):[0-9]+:[0-9]+: error: (function '([^']+)'\|(lambda)) .*\[readability-function-.*|\2 \4\5|p" "$tmp/out" |
  sort -u >"$tmp/over"
sed -E 's/#.*//; /^[[:space:]]*$/d' tests/scripts/tidy-pending.txt | sort -u >"$tmp/pending"
bad=0
new="$(comm -23 "$tmp/over" "$tmp/pending")"
gone="$(comm -13 "$tmp/over" "$tmp/pending")"
if [ -n "$new" ]; then echo "FAIL: over the limits (split them):"; echo "$new" | sed 's/^/  /'
  grep -E 'readability-function-' "$tmp/out" | sed "s|^$PWD/||" | grep -F -f <(echo "$new" | cut -d' ' -f1) | sed 's/^/    /'; bad=1; fi
if [ -n "$gone" ]; then echo "FAIL: now within the limits, delete from tests/scripts/tidy-pending.txt:"; echo "$gone" | sed 's/^/  /'; bad=1; fi
other="$(grep -E '^[^ ]+: error: ' "$tmp/out" | grep -v 'readability-function-' | head -5)"
if [ -n "$other" ]; then echo "FAIL: clang-tidy could not check every file:"; echo "$other"; bad=1; fi
[ $bad -eq 0 ] && echo "PASS: no function over the limits beyond the $(wc -l <"$tmp/pending") pending ones"
exit $bad
