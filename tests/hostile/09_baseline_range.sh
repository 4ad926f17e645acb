# Row 9: a baseline holding 1e400 (and other out-of-range numbers): exit 2 naming it.
. "$(dirname "$0")/lib.bash"
echo 'import os' > repo/a.py
printf '{"version": 1, "findings": [{"fingerprint": "x", "line": 1e400}]}' > bl.json
lim lint repo --baseline bl.json
expect_rc 2
has 'bl.json' "$T/err"
printf '{"version": 1e400, "findings": []}' > bl2.json
lim lint repo --baseline bl2.json
expect_rc 2
mkfifo fifo.json
lim lint repo --baseline fifo.json
expect_rc 2
has 'FIFO' "$T/err"
