#!/usr/bin/env bash
# The layers depend one way (cmake/layers.cmake): every #include "x/..." in a layer's
# sources names the layer itself or one below it, and no include climbs with "..".
set -uo pipefail
cd "${SC_SOURCE_DIR:?}"
declare -A rank=([core]=0 [parsers]=1 [analysis]=2 [knowledge]=3 [query]=4 [rules]=4 [engine]=5
                 [output]=6 [config]=6 [probe]=7 [server]=7 [cluster]=7 [cli]=8)
layer_of() {  # source path -> layer name
  case "$1" in rules/*) echo rules ;; linter/*) p=${1#linter/}; echo "${p%%/*}" ;; esac
}
bad=0
while IFS= read -r f; do
  me=$(layer_of "$f")
  [ -n "${rank[$me]+x}" ] || { echo "FAIL: $f is in no known layer"; bad=1; continue; }
  while IFS= read -r inc; do
    case "$inc" in *..*) echo "FAIL: $f includes \"$inc\" (climbs with ..)"; bad=1; continue ;; esac
    dep=${inc%%/*}
    [ "$dep" = "$inc" ] && continue   # generated or same-folder header
    [ -n "${rank[$dep]+x}" ] || continue
    # probe, server and cluster sit above output and config; layers of one rank do not see each other
    if [ "${rank[$dep]}" -gt "${rank[$me]}" ] || { [ "$dep" != "$me" ] && [ "${rank[$dep]}" -eq "${rank[$me]}" ] && [ "$me" != rules ] && [ "$me" != query ]; }; then
      echo "FAIL: $f ($me) includes $inc ($dep): upward"; bad=1
    fi
  done < <(grep -oE '^#include "[^"]+"' "$f" | sed -E 's/#include "(.*)"/\1/')
done < <(find linter rules -name '*.cpp' -o -name '*.h' | sort)
# the check itself fails on a planted parser include
planted=$(mktemp -d); mkdir -p "$planted/rules/G5-x"
printf '#include "query/finding.h"\n#include "parsers/packaging.h"\n' > "$planted/rules/G5-x/G5.cpp"
if bash cmake/rule_includes.sh "$planted" >/dev/null; then echo "FAIL: rule_includes.sh passed a rule that includes parsers/"; bad=1; fi
rm -rf "$planted"
bash cmake/rule_includes.sh . || bad=1
# linter/query/README.md names every header of the query layer
for h in linter/query/*.h; do
  grep -q "\`$(basename "$h")\`" linter/query/README.md || { echo "FAIL: linter/query/README.md does not name $(basename "$h")"; bad=1; }
done  # rules: core/, query/, knowledge/, their own folder
[ $bad -eq 0 ] && echo "PASS: every include goes down the layers; rules include only core, query, knowledge and their own folder"
exit $bad
