# SPDX-License-Identifier: Apache-2.0
"""Re-lint latency of `sparkcheck server` after an edit.

usage: python3 bench/lsp_relint.py SPARKCHECK ROOT RELATIVE_FILE [EDITS]
Initializes on ROOT, opens RELATIVE_FILE, sends EDITS full-text changes (a comment line added and
removed in turn) and prints, per edit, the server's own "linted N files in T ms", the time from
sending the change to receiving that log line (which follows the publications), and the server's
CPU time for it (wall time on a loaded machine mostly measures the wait for a core).
"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "lsp"))
from lsp_client import Client  # noqa: E402


def linted(c, timeout=120):
    n = c.wait_note(lambda m: m["method"] == "window/logMessage" and "linted" in m["params"]["message"], timeout)
    return n["params"]["message"]


def cpu_ms(pid):
    """User + system CPU time of the server so far (load-independent, unlike wall time)."""
    fields = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000.0 / os.sysconf("SC_CLK_TCK")


def main():
    binary, root, rel = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
    edits = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    c = Client([binary, "server"])
    t0 = time.time()
    # debounceMs 0: lint as soon as the edit is read (the round trip measures the lint, not the typing pause)
    c.request("initialize", {"processId": None, "rootUri": "file://" + root, "capabilities": {},
                             "initializationOptions": {"debounceMs": 0}})
    c.notify("initialized", {})
    print("initial: %s (%.0f ms round trip)" % (linted(c), (time.time() - t0) * 1000))
    uri, text = "file://" + os.path.join(root, rel), open(os.path.join(root, rel)).read()
    # opened as it is on disk: no re-lint (the server compares the buffer with the file)
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "x", "version": 1, "text": text}})
    for i in range(edits):
        body = text + ("# edit %d\n" % i if i % 2 == 0 else "")
        t0, cpu0 = time.time(), cpu_ms(c.proc.pid)
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": i + 2},
                                             "contentChanges": [{"text": body}]})
        msg = linted(c)
        print("edit %d: %s (%.0f ms round trip, %.0f ms CPU)" % (i + 1, msg, (time.time() - t0) * 1000,
                                                               cpu_ms(c.proc.pid) - cpu0))
    c.request("shutdown")
    c.notify("exit", {})
    c.proc.wait(10)


main()
