# Row 4: no git process (core.fsmonitor would run a command); a FIFO named
# .gitignore never blocks; .gitignore semantics still apply.
. "$(dirname "$0")/lib.bash"
printf '[core]\n\tfsmonitor = "touch %s/pwned; false"\n' "$T" > repo/.git/config
printf 'ignored.py\nbuild/\n*.log.py\n!keep.log.py\n/anchored.py\n' > repo/.gitignore
mkdir -p repo/build repo/sub repo/fifo
for f in ignored.py build/x.py a.log.py keep.log.py anchored.py sub/anchored.py sub/ignored.py main.py; do
  echo 'import os' > "repo/$f"
done
mkfifo repo/fifo/.gitignore repo/fifo/pipe.py
echo 'import os' > repo/fifo/x.py
lim lint repo -f json -o "$T/r.json"
finished
[ -e "$T/pwned" ] && fail "a command from .git/config ran"
valid_json "$T/r.json"
n=$(json_get "$T/r.json" 'd["files_linted"]')
[ "$n" = 4 ] || { cat "$T/r.json"; fail "linted $n files, expected 4 (keep.log.py main.py sub/anchored.py fifo/x.py)"; }
has 'pipe.py' "$T/r.json"
# tracked files are never ignored (git's rule), read from the index itself (v2 and v4)
if command -v git >/dev/null; then
  for v in 2 4; do
    rm -rf g && mkdir g && git -C g init -q && printf 'ign*.py\n' > g/.gitignore
    mkdir -p g/sub && echo 'import os' > g/sub/ign_tracked.py && echo 'import os' > g/ign_untracked.py
    git -C g add -f sub/ign_tracked.py && git -C g update-index --index-version $v
    lim lint g -f json -o "$T/g.json"
    finished
    [ "$(json_get "$T/g.json" 'd["files_linted"]')" = 1 ] || fail "index v$v: tracked file not linted (or untracked one linted)"
  done
fi
# a hostile index: huge entry count, truncated entries
printf 'DIRC\0\0\0\2\377\377\377\377%s' "$(head -c 100 /dev/zero | tr '\0' 'a')" > repo/.git/index
lim lint repo -f json -o "$T/r2.json"
finished
valid_json "$T/r2.json"
