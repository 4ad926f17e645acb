#!/usr/bin/env bash
# A rule sees the project only through the query layer: every #include "x/..." in rules/
# names core/, query/, knowledge/ or the rule's own folder. Run by the build before the
# rules compile (cmake/layers.cmake) and by tests/scripts/layers.sh.
#   cmake/rule_includes.sh SOURCE_DIR
set -uo pipefail
cd "${1:?source dir}" || exit 2
bad=0
while IFS= read -r f; do
  own="rules/$(cut -d/ -f2 <<<"$f")/"
  while IFS=: read -r line inc; do
    case "$inc" in
      core/*|query/*|knowledge/*|"$own"*) ;;
      */*) echo "$f:$line: a rule includes \"$inc\": rules include only core/, query/, knowledge/ and $own (query/project.h has the project model)"; bad=1 ;;
    esac
  done < <(grep -noE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]+"' "$f" | sed -E 's/^([0-9]+):.*"(.*)"/\1:\2/')
done < <(find rules -name '*.cpp' -o -name '*.h' | sort)
exit $bad
