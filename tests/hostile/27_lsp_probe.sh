# Round 2, rows 6-7: the language server answers a Content-Length of 10^18 with an
# error and reads the messages after it (it used to wait for the 10^18 bytes);
# SIGTERM to `sparkcheck probe` stops and reaps its interpreter.
LSP_DIR="$(cd "$(dirname "$0")/../lsp" && pwd)"
. "$(dirname "$0")/lib.bash"
timeout -s KILL 60 python3 - "$SC" "$LSP_DIR" <<'PY' || fail "language server"
import sys
sys.path.insert(0, sys.argv[2])
from lsp_client import Client, frame
c = Client([sys.argv[1], "server"])
init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None, "capabilities": {}}}
c.raw(b"Content-Length: 1000000000000000000\r\n\r\n" + frame(init))
got = {}
while 1 not in got:
    m = c.inbox.get(timeout=20)
    assert m is not None, "server closed its output"
    got[m.get("id")] = m
assert "over the" in got[None]["error"]["message"], got
assert "result" in got[1], got
# a huge length with a body that is really sent after it, then a request: still answered
c.raw(b"Content-Length: 99999999999\r\n\r\n" + b"x" * 100000 + b"\r\n" + frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
while 2 not in got:
    m = c.inbox.get(timeout=20)
    assert m is not None, "server closed its output"
    got[m.get("id")] = m
assert "result" in got[2], got
c.raw(frame({"jsonrpc": "2.0", "method": "exit"}))
assert c.proc.wait(timeout=20) == 0
print("ok")
PY

# probe: the interpreter (a stand-in that sleeps) is stopped and reaped on SIGTERM and SIGINT
printf '#!/bin/sh\necho $$ > "%s/child.pid"\nexec sleep 60\n' "$T" > slow-python && chmod +x slow-python
for sig in TERM INT; do
  rm -f child.pid
  "$SC" probe G1 --python "$T/slow-python" >/dev/null 2>&1 </dev/null & pid=$!
  for _ in $(seq 100); do [ -s child.pid ] && break; sleep 0.1; done
  [ -s child.pid ] || { kill "$pid"; fail "the probe did not start its interpreter"; }
  child=$(cat child.pid)
  start=$(date +%s%N)
  kill -"$sig" "$pid"; wait "$pid"
  for _ in $(seq 20); do kill -0 "$child" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$child" 2>/dev/null; then kill -KILL "$child"; fail "SIG$sig: interpreter $child still running after the probe exited"; fi
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  [ "$ms" -lt 3000 ] || fail "SIG$sig: took $ms ms"
done
exit 0
