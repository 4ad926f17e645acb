#!/usr/bin/env bash
# Negative harness test: the fixture harness must FAIL on a deliberately wrong
# case (tests/harness-negative/CASE) and print every line of CASE.want.
#   negative.sh FIXTURE_HARNESS CASE
set -uo pipefail
harness="$1" case="$2"
out="$("$harness" "$case")"; rc=$?
echo "$out"
if [ "$rc" -ne 1 ]; then echo "FAIL: harness exited $rc on $case, expected 1 (a failed case)"; exit 1; fi
bad=0
while IFS= read -r want; do
  [ -n "$want" ] || continue
  grep -qF -- "$want" <<<"$out" || { echo "FAIL: harness output lacks: $want"; bad=1; }
done <"$case.want"
[ "$bad" -eq 0 ] && echo "ok: harness rejected $(basename "$case") as expected"
exit "$bad"
