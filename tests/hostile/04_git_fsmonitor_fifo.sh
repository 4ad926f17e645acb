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
