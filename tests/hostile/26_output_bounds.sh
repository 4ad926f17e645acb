# Round 2, rows 4-5: --stdin-filename reads at most the file size limit (not
# /dev/zero forever); output does not grow out of proportion to the input: include
# cycles among 300 requirements files, a long unknown Dockerfile instruction.
. "$(dirname "$0")/lib.bash"
# standard input: capped at --max-file-size (10 MB by default), exit 2
( ulimit -v 2000000; exec timeout -s KILL 20 "$SC" lint --stdin-filename x.py </dev/zero ) >"$T/out" 2>"$T/err"
RC=$?; expect_rc 2; has "standard input" "$T/err"; has "10 MB" "$T/err"
head -c 2000000 /dev/zero | ( exec timeout -s KILL 20 "$SC" lint --stdin-filename x.py --max-file-size 1 ) >"$T/out" 2>"$T/err"
RC=$?; expect_rc 2; has "1 MB" "$T/err"
printf 'import torch\n' | ( exec timeout -s KILL 20 "$SC" lint --stdin-filename x.py ) >"$T/out" 2>"$T/err"
RC=$?; finished

bounded() {  # bounded MAX_BYTES WHAT: stdout and stderr together at most MAX_BYTES
  local n=$(( $(wc -c < "$T/out") + $(wc -c < "$T/err") ))
  [ "$n" -le "$1" ] || { show; fail "$2: $n bytes of output (at most $1)"; }
}
# 300 requirements files, each including all the others
mkdir -p repo/reqs
python3 - repo/reqs <<'PY'
import sys
d, n = sys.argv[1], 300
for i in range(n):
    with open(f"{d}/requirements-{i:03}.txt", "w") as f:
        f.write("".join(f"-r requirements-{j:03}.txt\n" for j in range(n) if j != i))
PY
LIMIT_S=120 lim lint repo/reqs
finished; bounded 2000000 "include cycles"
has "include cycle" "$T/out"
has "more" "$T/out"
rm -rf repo/reqs

# an unknown Dockerfile instruction of 1 MB: echoed cut short
mkdir -p repo/d
{ head -c 1000000 /dev/zero | tr '\0' A; printf ' x\nFROM ubuntu:22.04\n'; } > repo/d/Dockerfile
lim lint repo/d
finished; bounded 20000 "long Dockerfile instruction"
has "unknown instruction" "$T/out"
rm -rf repo/d

exit 0

# 20,000 lines of one install in a Markdown block: 60,000 findings with 3 messages. Text output
# shows 10 of each in full and counts the rest (it printed 27.7 MB); JSON still lists them all.
python3 -c "open('repo/README.md','w').write('\`\`\`bash\n' + 'pip install flash-attn torch\n' * 20000 + '\`\`\`\n')"
lim lint repo/README.md
expect_rc 1
bytes=$(wc -c < "$T/out")
[ "$bytes" -lt 100000 ] || fail "text output of $bytes bytes"
has 'more warning[G2] findings with the message of' "$T/out"
has 'Found 60000 findings' "$T/out"
