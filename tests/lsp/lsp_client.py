# SPDX-License-Identifier: Apache-2.0
"""A minimal LSP client over pipes, for tests: frames messages, collects notifications."""
import json
import queue
import subprocess
import threading
import time


def frame(obj_or_bytes):
    body = obj_or_bytes if isinstance(obj_or_bytes, bytes) else json.dumps(obj_or_bytes).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class Client:
    def __init__(self, argv, cwd=None):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=cwd)
        self.inbox = queue.Queue()
        self.notes = []  # every notification received, in order
        self.server_requests = []  # requests from the server (answered with a null result)
        self.next_id = 1
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.inbox.put(None)
                    return
                if line in (b"\r\n", b"\n"):
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            self.inbox.put(json.loads(out.read(length)))

    def raw(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, obj):
        self.raw(frame(obj))

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def _pump(self, timeout):
        msg = self.inbox.get(timeout=timeout)
        if msg is None:
            raise EOFError("server closed its output")
        if "method" in msg and "id" not in msg:
            self.notes.append(msg)
        elif "method" in msg:
            self.server_requests.append(msg)
            self.send({"jsonrpc": "2.0", "id": msg["id"], "result": None})
        return msg

    def request(self, method, params=None, timeout=30):
        rid = self.next_id
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        return self.reply(rid, timeout)

    def reply(self, rid, timeout=30):
        end = time.time() + timeout
        while True:
            msg = self._pump(max(0.01, end - time.time()))
            if msg.get("id") == rid and "method" not in msg:
                return msg

    def wait_note(self, pred, timeout=30):
        """The first notification (old or new) matching pred, removed from the list."""
        end = time.time() + timeout
        while True:
            for i, n in enumerate(self.notes):
                if pred(n):
                    return self.notes.pop(i)
            self._pump(max(0.01, end - time.time()))

    def diagnostics(self, uri, timeout=30):
        """The next publishDiagnostics for uri."""
        n = self.wait_note(lambda m: m["method"] == "textDocument/publishDiagnostics"
                           and m["params"]["uri"] == uri, timeout)
        return n["params"]["diagnostics"]

    def settle(self, uri, pred, timeout=30):
        """Publications for uri until one satisfies pred (a file may be republished on the way,
        e.g. when only a related place changed); returns it, or the last one seen on timeout."""
        end, last = time.time() + timeout, None
        while time.time() < end:
            try:
                last = self.diagnostics(uri, max(0.01, end - time.time()))
            except queue.Empty:
                break
            if pred(last):
                break
        return last

    def drain(self, quiet=0.5):
        """Reads everything the server sends until it has been silent for `quiet` seconds."""
        while True:
            try:
                self._pump(quiet)
            except queue.Empty:
                return

    def close(self, timeout=10):
        self.proc.stdin.close()
        return self.proc.wait(timeout)
