# Small hostile files with large memory: every file's parse has a budget (core/parse_budget.h),
# a file that spends it fails alone with a "parse-budget" notification naming it, and the
# other files are still linted. Before: a 400 KB Python `y()()()...` chain took 1.6 GB, a 7 MB
# `| cat` pipeline 3.6 GB (under ulimit -v 2 GB the run died without a word) and a 6.4 MB v4
# .git/index whose entries each keep the last path and add to it aborted the run (rc 134).
. "$(dirname "$0")/lib.bash"
LIMIT_S=120
printf 'FROM nvcr.io/nvidia/pytorch:23.10-py3\n' > repo/Dockerfile

# lim, also writing the peak resident set (KB) to $T/rss where /usr/bin/time is there
# (outside sanitizer builds, whose shadow memory counts).
limrss() {
  if [ -x /usr/bin/time ] && [ -z "${SC_SANITIZE:-}" ]; then
    (
      ulimit -v 2000000
      exec /usr/bin/time -f '%M' -o "$T/rss" timeout -s KILL "$LIMIT_S" "$SC" "$@"
    ) >"$T/out" 2>"$T/err" </dev/null
    RC=$?
  else
    echo 0 > "$T/rss"
    lim "$@"
  fi
}
small() {  # peak under 512 MB
  local kb; kb=$(tail -n 1 "$T/rss")
  [ "${kb:-0}" -lt 524288 ] || { show; fail "peak RSS $kb KB, over 512 MB"; }
}
g1() { has '"G1"' "$T/r.json"; has 'Dockerfile' "$T/r.json"; }

# 1. A call chain: each call's callee is the call before it (Python walker).
python3 -c "open('repo/t.py','w').write('import torch\ntp_size = 2\ny' + '()' * 200000 + '\n')"
for env in SPARKCHECK_NO_PREFILTER=0 SPARKCHECK_NO_PREFILTER=1; do
  export $env
  limrss lint repo -f json -o "$T/r.json"
  finished
  valid_json "$T/r.json"
  g1
  small
done
unset SPARKCHECK_NO_PREFILTER
rm repo/t.py

# 2. A 7 MB pipeline on one line (tree-sitter's parse stack): over its budget.
python3 -c "open('repo/p.sh','w').write('#!/bin/bash\necho a' + ' | cat' * 1150000 + '\n')"
limrss lint repo -f json -o "$T/r.json"
finished
valid_json "$T/r.json"
g1
has 'parse-budget' "$T/r.json"
has 'p.sh' "$T/r.json"
small
# the same script inside a Markdown block: the Markdown file is the one named
{ printf '# Setup\n\n```bash\n'; cat repo/p.sh; printf '```\n'; } > repo/README.md
rm repo/p.sh
limrss lint repo -f json -o "$T/r.json"
finished
g1
has 'parse-budget' "$T/r.json"
has 'README.md' "$T/r.json"
small
rm repo/README.md

# 3. A v4 index of 50000 entries that each keep the whole last path and add 64 bytes to it:
# 80 GB of paths. Read in part (as malformed); the files are linted.
python3 - <<'PY'
import struct
entry = bytes(60) + struct.pack('>H', 0xFFF) + b'\x00' + b'a' * 64 + b'\x00'
open('repo/.git/index', 'wb').write(b'DIRC' + struct.pack('>II', 4, 50000) + entry * 50000)
PY
limrss lint repo -f json -o "$T/r.json"
finished
valid_json "$T/r.json"
g1
small
# garbage, and a valid header with a huge entry count over too few bytes
head -c 6500000 /dev/urandom > repo/.git/index
limrss lint repo -f json -o "$T/r.json"
finished
g1
small
{ printf 'DIRC\0\0\0\2\377\377\377\377'; head -c 6500000 /dev/zero; } > repo/.git/index
limrss lint repo -f json -o "$T/r.json"
finished
g1
small
