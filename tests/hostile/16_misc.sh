# Row 16: concurrent -o writers; SIGTERM leaves no temp file; mutually including
# requirement files; Markdown in the job summary; nothing lintable -> exit 2.
. "$(dirname "$0")/lib.bash"
for i in $(seq 0 299); do printf -- '-r r%d.txt\ntorch\n' $(( (i + 1) % 300 )) > repo/r$i.txt; done
lim lint repo -f json -o "$T/cyc.json"
finished
[ "$(stat -c %s "$T/cyc.json")" -lt 5000000 ] || fail "include cycle output too large"
( "$SC" lint repo -f json -o "$T/same.json" & "$SC" lint repo -f json -o "$T/same.json" & wait ) >/dev/null 2>&1
valid_json "$T/same.json"
ls -a "$T" | grep -q 'sparkcheck-' && fail "temporary file left"
mkdir -p md && printf 'nvidia-modelopt\n' > 'md/requirements`x`[a](e).txt'
: > summary.md
GITHUB_STEP_SUMMARY="$T/summary.md" "$SC" lint md -f github >/dev/null 2>&1
grep -q '`x`' summary.md && fail "backtick unescaped in the job summary"
mkdir -p none && mkfifo none/a.py none/b.sh && head -c 2000000 /dev/zero | tr '\0' 'x' > none/c.py
lim lint none --max-file-size 1
expect_rc 2
has 'nothing was linted' "$T/err"
# SIGTERM while linting: no temporary file is left behind, in $TMPDIR or beside -o
mkdir -p big tmp && python3 -c '
for i in range(3000): open("big/f%d.py" % i, "w").write("import torch\n" * 50)'
TMPDIR="$T/tmp" "$SC" lint big -f json -o "$T/big.json" & pid=$!
sleep 0.3; kill -TERM $pid; wait $pid
ls -a "$T" "$T/tmp" | grep -q 'sparkcheck' && fail "temporary file left after SIGTERM"
true
