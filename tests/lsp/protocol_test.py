# SPDX-License-Identifier: Apache-2.0
"""Protocol-level tests of `sparkcheck server`, driven over pipes.

usage: protocol_test.py SPARKCHECK PROJECT_TEMPLATE WORKDIR
Prints ok/FAIL lines; exits 1 on any failure. Also prints the re-lint latency it measured.
"""
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_client import Client, frame  # noqa: E402

BIN, TEMPLATE, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
FAILS = 0


def check(what, ok, detail=""):
    global FAILS
    print(("ok   - " if ok else "FAIL - ") + what + ("" if ok or not detail else ": " + str(detail)[:600]))
    if not ok:
        FAILS += 1
    return ok


def uri(path):
    return "file://" + path.replace("%", "%25").replace(" ", "%20")


def codes(diags):
    return sorted(d["code"] for d in diags)


def start(root, capabilities=None, options=None, folders=None):
    c = Client([BIN, "server"])
    params = {"processId": None, "rootUri": uri(root), "capabilities": capabilities or {}}
    if options is not None:
        params["initializationOptions"] = options
    if folders is not None:
        params["workspaceFolders"] = [{"uri": uri(f), "name": os.path.basename(f)} for f in folders]
    r = c.request("initialize", params)
    c.notify("initialized", {})
    return c, r


def copy_project(name):
    root = os.path.join(WORK, name)
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(TEMPLATE, root)
    os.makedirs(os.path.join(root, ".git"))  # the configuration search stops here
    return root


def lints(notes):
    return sum(1 for n in notes if n["method"] == "window/logMessage" and "linted" in n["params"]["message"])


def publications(notes):
    return [n["params"]["uri"] for n in notes if n["method"] == "textDocument/publishDiagnostics"]


def stop(c):
    c.request("shutdown")
    c.notify("exit", {})
    c.proc.wait(10)


def project():
    return copy_project("proj with space")


def test_session(root):
    c, init = start(root)
    caps = init["result"]["capabilities"]
    check("initialize answers full sync, code actions, hover",
          caps["textDocumentSync"]["change"] == 1 and caps["hoverProvider"] and "codeActionProvider" in caps, caps)
    docker, req = uri(root + "/Dockerfile"), uri(root + "/requirements.txt")
    base = uri(root + "/requirements-base.txt")
    d_docker, d_req = c.diagnostics(docker), c.diagnostics(req)
    check("Dockerfile diagnostics on start (not open)", codes(d_docker) == ["G1"], d_docker)
    check("no file watchers asked of a client that cannot register them", c.server_requests == [], c.server_requests)
    check("requirements.txt diagnostics on start", codes(d_req) == ["G1"], d_req)
    g1 = d_req[0] if d_req else None
    if not g1:
        return c
    check("diagnostic fields: source, rule link, range",
          g1["source"] == "sparkcheck" and g1["codeDescription"]["href"].endswith("/G1.md")
          and g1["range"] == {"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 18}}, g1)
    check("config honoured: G1 is a warning (.sparkcheck.yaml severity)", g1["severity"] == 2, g1)
    check("related places point into the Dockerfile's RUN",
          [r["location"]["uri"] for r in g1.get("relatedInformation", [])] == [docker], g1)
    test_hover_action(c, req, g1)
    test_changes(c, root, docker, req, base)
    return c


def test_hover_action(c, req, g1):
    h = c.request("textDocument/hover", {"textDocument": {"uri": req}, "position": g1["range"]["start"]})
    value = (h.get("result") or {}).get("contents", {}).get("value", "")
    check("hover shows the G1 documentation", "cuda-major-mismatch" in value, h)
    off = c.request("textDocument/hover", {"textDocument": {"uri": req}, "position": {"line": 0, "character": 0}})
    check("hover away from findings: null", off.get("result", 1) is None, off)
    rng = g1["range"]
    a = c.request("textDocument/codeAction", {"textDocument": {"uri": req}, "range": rng,
                                              "context": {"diagnostics": [g1]}})
    sup = next((x for x in a.get("result") or [] if x["title"].startswith("Suppress G1")), None)
    check("code action offers the suppression", sup is not None, a)
    if sup:
        edit = sup["edit"]["changes"][req][0]
        check("the suppression edit inserts a comment line above the finding",
              edit["range"]["start"] == {"line": 2, "character": 0} and edit["range"]["end"] == edit["range"]["start"]
              and edit["newText"] == "# sparkcheck: ignore[G1] -- TODO: why this is safe\n", edit)
        check("the action names the diagnostic it resolves", sup["diagnostics"] == [g1], sup)


def test_changes(c, root, docker, req, base):
    dockerfile = open(root + "/Dockerfile").read()
    def lints():
        return sum(1 for n in c.notes if n["method"] == "window/logMessage" and "linted" in n["params"]["message"])
    before = lints()
    c.notify("textDocument/didOpen", {"textDocument": {"uri": docker, "languageId": "dockerfile", "version": 1,
                                                        "text": dockerfile}})
    c.request("textDocument/hover", {"textDocument": {"uri": docker}, "position": {"line": 0, "character": 0}})
    check("opening a file as it is on disk does not re-lint", lints() == before, lints() - before)
    # the Dockerfile's base image decides the findings of requirements-base.txt (not open)
    t0 = time.time()
    c.notify("textDocument/didChange", {"textDocument": {"uri": docker, "version": 2}, "contentChanges": [
        {"text": dockerfile.replace("nvcr.io/nvidia/pytorch:24.10-py3", "python:3.12-slim")}]})
    d_base = c.diagnostics(base)
    print("measured: didChange -> republished diagnostics of another file in %.1f ms" % ((time.time() - t0) * 1000))
    check("editing the Dockerfile publishes G9 on requirements-base.txt (bare pip now)", codes(d_base) == ["G9"], d_base)
    check("the Dockerfile's own G1 is cleared", c.diagnostics(docker) == [])
    # a ranged change (incremental sync) back to the NGC image: G9 withdrawn, G1 back
    c.notify("textDocument/didChange", {"textDocument": {"uri": docker, "version": 3}, "contentChanges": [
        {"range": {"start": {"line": 0, "character": 5}, "end": {"line": 0, "character": 21}},
         "text": "nvcr.io/nvidia/pytorch:24.10-py3"}]})
    check("requirements-base.txt cleared after the change back", c.diagnostics(base) == [])
    check("the Dockerfile's G1 is back", codes(c.diagnostics(docker)) == ["G1"])
    # an unsaved buffer that moved the finding: actions read the buffer, not the disk
    moved = "\n\n" + open(root + "/requirements.txt").read()
    c.notify("textDocument/didOpen", {"textDocument": {"uri": req, "languageId": "pip-requirements", "version": 1,
                                                        "text": moved}})
    d = c.settle(req, lambda x: [e["range"]["start"]["line"] for e in x] == [4])
    here = {"start": {"line": 4, "character": 0}, "end": {"line": 4, "character": 0}}
    a = c.request("textDocument/codeAction", {"textDocument": {"uri": req}, "range": here, "context": {"diagnostics": d}})
    sup = [x["edit"]["changes"][req][0]["range"]["start"]["line"] for x in a.get("result") or []
           if x["title"].startswith("Suppress")]
    check("in an unsaved buffer the suppression goes above the finding's new line", sup == [4], a)
    c.notify("textDocument/didClose", {"textDocument": {"uri": req}})
    # unsaved requirements.txt without the bad pin; closing the buffer brings the disk's text back
    c.notify("textDocument/didOpen", {"textDocument": {"uri": req, "languageId": "pip-requirements", "version": 1,
                                                        "text": "-r requirements-base.txt\n"}})
    d = c.settle(req, lambda x: x == [])
    check("requirements.txt cleared by the unsaved edit", d == [], d)
    c.notify("textDocument/didClose", {"textDocument": {"uri": req}})
    d = c.settle(req, lambda x: codes(x) == ["G1"])
    check("closing the buffer brings the disk's findings back", codes(d) == ["G1"], d)
    # an open, unsaved configuration is used as typed
    cfg = uri(root + "/.sparkcheck.yaml")
    c.notify("textDocument/didOpen", {"textDocument": {"uri": cfg, "languageId": "yaml", "version": 1,
                                                        "text": "severity:\n  G1: note\n"}})
    d = c.settle(req, lambda x: [e["severity"] for e in x] == [3])
    check("the unsaved .sparkcheck.yaml applies (G1 a note)", [e["severity"] for e in d] == [3], d)
    logs = [n["params"]["message"] for n in c.notes if n["method"] == "window/logMessage"]
    print("server log: " + "; ".join(logs[-3:]))


def test_malformed(root):
    c, _ = start(root)
    c.raw(frame(b"{not json"))
    r = c.reply(None)
    check("bad JSON: parse error -32700", r["error"]["code"] == -32700, r)
    c.raw(b"X-Nothing: 1\r\n\r\n")
    r = c.reply(None)
    check("header without Content-Length: -32600", r["error"]["code"] == -32600, r)
    c.raw(frame(b"[1, 2]"))
    check("a JSON array: invalid request", c.reply(None)["error"]["code"] == -32600)
    c.raw(frame(b"\"\xff\xfe\""))
    check("invalid UTF-8 in the body: parse error", c.reply(None)["error"]["code"] == -32700)
    c.raw(frame(b"[" * 200000 + b"]" * 200000))
    check("200000 nested arrays: an error, no crash", "error" in c.reply(None))
    r = c.request("textDocument/hover", {"textDocument": 5})
    check("params of the wrong type: -32602", r["error"]["code"] == -32602, r)
    r = c.request("textDocument/codeAction", {"textDocument": {"uri": "file:///nowhere/x"},
                                              "range": {"start": {"line": -4, "character": 10 ** 9},
                                                        "end": {"line": 2 ** 31 - 1, "character": 0}}})
    check("code action on an unknown file: empty list", r.get("result") == [], r)
    r = c.request("no/such/method", {})
    check("unknown method: -32601", r["error"]["code"] == -32601, r)
    c.notify("textDocument/didOpen", {"textDocument": {"uri": "untitled:1", "text": "x"}})
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri(root + "/nope")}, "contentChanges": 7})
    r = c.request("initialize", {"rootUri": 5})
    check("a second initialize: an error", "error" in r, r)
    fuzz(c, root)
    r = c.request("shutdown")
    check("still answering after hostile input: shutdown", "result" in r and r["result"] is None, r)
    r = c.request("textDocument/hover", {})
    check("requests after shutdown: -32600", r["error"]["code"] == -32600, r)
    c.notify("exit", {})
    check("exit after shutdown: status 0", c.proc.wait(10) == 0)


def fuzz(c, root):
    """Well-framed messages with random methods, params and bytes; the server must keep answering."""
    rnd = random.Random(13)
    values = [None, True, -1, 2 ** 63, 1.5e308, "", "x" * 5000, [], {}, [[[]]], {"uri": 7},
              {"uri": uri(root + "/Dockerfile")}, {"line": -1, "character": 2 ** 40}]
    methods = ["textDocument/didOpen", "textDocument/didChange", "textDocument/didClose", "textDocument/didSave",
               "textDocument/hover", "textDocument/codeAction", "workspace/didChangeWorkspaceFolders", "$/x", ""]
    for i in range(300):
        params = {k: rnd.choice(values) for k in rnd.sample(["textDocument", "position", "range", "contentChanges",
                                                             "context", "event", "text"], 3)}
        msg = {"jsonrpc": "2.0", "method": rnd.choice(methods), "params": rnd.choice([params, values[rnd.randrange(6)]])}
        if i % 2:
            msg["id"] = rnd.choice([i + 1000, "s%d" % i, 1.5, None, [1]])
        body = json.dumps(msg).encode()
        if i % 7 == 0:
            body = bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 64)))
        c.raw(frame(body))
    r = c.request("textDocument/hover", {"textDocument": {"uri": uri(root + "/Dockerfile")},
                                         "position": {"line": 0, "character": 7}})
    check("300 random messages later the server still answers", "result" in r or "error" in r, r)


def test_limits(root):
    c = Client([BIN, "server"])
    r = c.request("textDocument/hover", {})
    check("request before initialize: -32002", r["error"]["code"] == -32002, r)
    c.raw(b"Content-Length: 99999999999\r\n\r\n")
    r = c.reply(None)
    check("oversized message answered at once", "over the" in r["error"]["message"], r)
    check("end of input without shutdown: status 1", c.close() == 1)


def test_bad_config(root):
    with open(root + "/.sparkcheck.yaml", "w") as f:
        f.write("selekt: [G1]\n")
    c, _ = start(root)
    msg = c.wait_note(lambda m: m["method"] == "window/showMessage")
    check("a bad .sparkcheck.yaml is shown as an error message", msg["params"]["type"] == 1
          and "selekt" in msg["params"]["message"], msg)
    d = c.diagnostics(uri(root + "/Dockerfile"))
    check("... and the project is linted with the defaults (G1 an error again)",
          codes(d) == ["G1"] and d[0]["severity"] == 1, d)
    c.request("shutdown")
    c.notify("exit", {})
    c.proc.wait(10)


def latest_findings(c, root):
    """(path, line, column, rule, severity, message) of every finding the server last published."""
    latest = {}
    for n in c.notes:
        if n["method"] == "textDocument/publishDiagnostics":
            latest[n["params"]["uri"]] = n["params"]["diagnostics"]
    out = set()
    for u, diags in latest.items():
        path = u[len(uri(root)) + 1:].replace("%20", " ").replace("%25", "%")
        for d in diags:
            if d["code"][:1] == "G" and d["code"][1:].isdigit():
                out.add((path, d["range"]["start"]["line"] + 1, d["range"]["start"]["character"] + 1, d["code"],
                         d["severity"], d["message"]))
    return out


def cold_findings(root):
    """The same tuples from `sparkcheck lint` of the tree as it is on disk."""
    import subprocess
    r = subprocess.run([BIN, "lint", "--format", "json", "."], cwd=root, capture_output=True, text=True)
    level = {"error": 1, "warning": 2, "note": 3}
    return {(f["path"], f["line"], f["column"], f["rule"], level[f["level"]],
             f["message"] + ("\nFix: " + f["fix"] if f.get("fix") else ""))
            for f in json.loads(r.stdout)["findings"] if not f["suppressed"]}


def test_warm_matches_cold():
    """Edits re-parse only the changed files; the findings must equal a cold lint of the final tree."""
    root = copy_project("warm")
    c, _ = start(root)
    waited = lambda: c.wait_note(lambda m: m["method"] == "window/logMessage" and "linted" in m["params"]["message"])
    waited()
    edits = [("Dockerfile", open(root + "/Dockerfile").read().replace("nvcr.io/nvidia/pytorch:24.10-py3", "python:3.12-slim")),
             ("requirements.txt", "-r requirements-base.txt\ntorch==2.4.0+cu121\nflash-attn\n"),
             ("requirements-base.txt", "transformers\nbitsandbytes==0.41.0\n")]
    for name, text in edits:
        c.notify("textDocument/didOpen", {"textDocument": {"uri": uri(root + "/" + name), "languageId": "x",
                                                            "version": 1, "text": text}})
        msg = waited()["params"]["message"]
    check("an edit re-parses one file, not the project", "(1 parsed" in msg, msg)
    for name, text in edits:  # saved: the buffers go, the disk now holds the same text
        with open(root + "/" + name, "w") as f:
            f.write(text)
        c.notify("textDocument/didClose", {"textDocument": {"uri": uri(root + "/" + name)}})
    # closing a buffer that matches the disk does not re-lint: one more edit and close does
    docker = uri(root + "/Dockerfile")
    c.notify("textDocument/didOpen", {"textDocument": {"uri": docker, "languageId": "x", "version": 1,
                                                        "text": edits[0][1] + "# unsaved\n"}})
    waited()
    c.notify("textDocument/didClose", {"textDocument": {"uri": docker}})
    waited()
    warm, cold = latest_findings(c, root), cold_findings(root)
    check("findings after edits equal a cold lint of the final tree (%d)" % len(cold), warm == cold and len(cold) >= 3,
          (warm ^ cold) or cold)
    c.request("shutdown")
    c.notify("exit", {})
    c.proc.wait(10)


def burst(root, typed, options, gap=0.01, at_end=False):
    """Types `typed` into requirements.txt (open) one character per didChange, `gap` seconds
    apart, before its torch pin (at_end: after it); returns (lints, publications) the burst
    caused, and the client."""
    c, _ = start(root, options=options)
    c.drain(1.0)
    req = uri(root + "/requirements.txt")
    text = open(root + "/requirements.txt").read()
    c.notify("textDocument/didOpen", {"textDocument": {"uri": req, "languageId": "x", "version": 1, "text": text}})
    c.drain(0.3)
    first = len(c.notes)
    at = text.rindex("\n") if at_end else text.index("torch==")
    for i in range(1, len(typed) + 1):
        c.notify("textDocument/didChange", {"textDocument": {"uri": req, "version": i + 1},
                                            "contentChanges": [{"text": text[:at] + typed[:i] + text[at:]}]})
        time.sleep(gap)
    c.drain(1.5)
    return lints(c.notes[first:]), publications(c.notes[first:]), c


def test_typing():
    """A burst of keystrokes is linted once, after the input has been quiet for debounceMs."""
    root = copy_project("typing")
    keys = "peft\naccelerate\ntrl\n"  # 20 keystrokes; each one moves or renames the torch pin's finding
    n, pubs, c = burst(root, keys, None)
    print("measured: 20 keystrokes 10 ms apart, default debounce: %d lint(s), %d publication(s)" % (n, len(pubs)))
    stop(c)
    n, pubs, c = burst(root, keys, {"debounceMs": 0})
    print("measured: the same with debounceMs 0 (lint whenever no input waits): %d lint(s), %d publication(s)"
          % (n, len(pubs)))
    stop(c)
    n, pubs, c = burst(root, keys, {"debounceMs": 500})
    req = uri(root + "/requirements.txt")
    check("20 keystrokes (debounceMs 500): one lint, one publication", (n, pubs) == (1, [req]), (n, pubs))
    d = [x for x in c.notes if x["method"] == "textDocument/publishDiagnostics"][-1]["params"]["diagnostics"]
    check("... of the final text (the pin now on line 6)", [x["range"]["start"]["line"] for x in d] == [5], d)
    stop(c)
    n, pubs, c = burst(root, " # pinned for spark!", {"debounceMs": 500}, at_end=True)
    check("typing that leaves the findings as they were: linted, nothing published", (n, pubs) == (1, []), (n, pubs))
    stop(c)
    # typing without a pause: a lint at most a second after the first unlinted keystroke
    n, pubs, c = burst(root, "x" * 30, {"debounceMs": 500}, gap=0.05)
    check("30 keystrokes over 1.5 s (debounceMs 500): linted during the burst too", 2 <= n <= 4, n)
    stop(c)


def glob_regex(glob):
    """An LSP glob pattern (**, *, ?, {a,b}, [..]) as a regular expression over a relative path."""
    out, i = "", 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif glob[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif glob[i] == "?":
            out, i = out + "[^/]", i + 1
        elif glob[i] == "{":
            j = glob.index("}", i)
            out, i = out + "(?:" + "|".join(re.escape(x) for x in glob[i + 1:j].split(",")) + ")", j + 1
        elif glob[i] == "[":
            j = glob.index("]", i)
            out, i = out + glob[i:j + 1], j + 1
        else:
            out, i = out + re.escape(glob[i]), i + 1
    return re.compile(out + r"\Z")


def test_watch_globs(globs):
    """Every file `sparkcheck lint` reads among the fixtures is matched by a watcher, except
    scripts known only by their #! line."""
    fixtures = os.path.join(os.path.dirname(os.path.abspath(TEMPLATE)), "..", "..", "fixtures")
    r = subprocess.run([BIN, "lint", "--no-config", "--show-files", "."], cwd=fixtures, capture_output=True, text=True)
    files = r.stdout.split()
    res = [glob_regex(g) for g in globs]
    missed = []
    for f in files:
        if any(x.match(f) for x in res):
            continue
        with open(os.path.join(fixtures, f), "rb") as fh:
            if not fh.read(2) == b"#!":
                missed.append(f)
    check("the watchers cover every file kind linted in fixtures/ (%d files)" % len(files),
          len(files) > 100 and not missed, missed)


def test_watched_files():
    """Files changed outside the editor (git checkout, a generator) are linted again when the
    client reports them through the watchers the server registered."""
    root = copy_project("watched")
    caps = {"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": True}}}
    c, _ = start(root, capabilities=caps, options={"debounceMs": 50})
    req, docker = uri(root + "/requirements.txt"), uri(root + "/Dockerfile")
    c.diagnostics(req)
    reg = c.server_requests[0] if c.server_requests else {}
    ok = reg.get("method") == "client/registerCapability"
    r = reg["params"]["registrations"][0] if ok else {}
    check("a client with dynamicRegistration is asked to watch files",
          ok and r["method"] == "workspace/didChangeWatchedFiles" and r["registerOptions"]["watchers"], reg)
    if ok:
        test_watch_globs([w["globPattern"] for w in r["registerOptions"]["watchers"]])

    def changed(*events):
        c.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": uri(root + "/" + n), "type": t}
                                                                 for n, t in events]})
    with open(root + "/requirements.txt", "w") as f:  # a checkout drops the bad pin
        f.write("-r requirements-base.txt\n")
    changed(("requirements.txt", 2))
    check("a file changed on disk: its findings go", c.settle(req, lambda x: x == []) == [])
    with open(root + "/requirements-gen.txt", "w") as f:  # a generator writes a new file
        f.write("torch==2.4.0+cu121\n")
    changed(("requirements-gen.txt", 1))
    gen = uri(root + "/requirements-gen.txt")
    check("a file created on disk is linted", codes(c.settle(gen, lambda x: x != [])) == ["G1"])
    os.remove(root + "/requirements-gen.txt")
    changed(("requirements-gen.txt", 3))
    check("a file deleted on disk: its diagnostics are cleared", c.settle(gen, lambda x: x == []) == [])
    with open(root + "/.sparkcheck.yaml", "w") as f:  # the configuration, edited outside the editor
        f.write("severity:\n  G1: note\n")
    changed((".sparkcheck.yaml", 2))
    d = c.settle(docker, lambda x: [e["severity"] for e in x] == [3])
    check("an edited .sparkcheck.yaml is read again (G1 now a note)", [e["severity"] for e in d] == [3], d)
    c.drain(0.3)
    first = len(c.notes)
    c.notify("workspace/didChangeConfiguration", {"settings": {"sparkcheck": {"debounceMs": 20}}})
    c.drain(0.5)
    new = c.notes[first:]
    check("didChangeConfiguration re-lints; nothing changed, nothing published",
          (lints(new), publications(new)) == (1, []), new)
    stop(c)


def test_folders():
    """Several workspace folders, added and removed; a folder inside another is linted once."""
    one, two = copy_project("one"), copy_project("two")
    c, _ = start(one, folders=[one, two])
    d1, d2 = uri(one + "/Dockerfile"), uri(two + "/Dockerfile")
    check("both workspace folders are linted", codes(c.diagnostics(d1)) == ["G1"] and codes(c.diagnostics(d2)) == ["G1"])
    c.notify("workspace/didChangeWorkspaceFolders", {"event": {"added": [], "removed": [{"uri": uri(two), "name": "two"}]}})
    check("a removed folder's diagnostics are cleared", c.settle(d2, lambda x: x == []) == [])
    os.makedirs(one + "/sub")
    with open(one + "/sub/requirements.txt", "w") as f:
        f.write("torch==2.4.0+cu121\n")
    sub = uri(one + "/sub/requirements.txt")
    c.notify("workspace/didChangeWorkspaceFolders", {"event": {"removed": [], "added": [
        {"uri": uri(two), "name": "two"}, {"uri": uri(one + "/sub"), "name": "sub"}, {"uri": uri(one), "name": "one"}]}})
    check("an added folder is linted", codes(c.settle(d2, lambda x: x != [])) == ["G1"])
    c.drain(0.5)
    latest = {}
    for n in c.notes:
        if n["method"] == "textDocument/publishDiagnostics":
            latest[n["params"]["uri"]] = codes(n["params"]["diagnostics"])
    check("a folder inside another (and one added twice): findings once",
          latest.get(sub) == ["G1"] and latest.get(d1, ["G1"]) == ["G1"], latest)
    stop(c)


def test_seeded_from_cache():
    """The first lint starts from the CLI's facts cache: nothing unchanged is parsed again."""
    root = copy_project("seeded")
    saved = os.environ.pop("SPARKCHECK_NO_CACHE", None)
    try:
        subprocess.run([BIN, "lint", "-q", "."], cwd=root, capture_output=True)
        cached = os.path.isdir(os.path.join(root, ".sparkcheck_cache"))
        time.sleep(2.1)  # stamps of files changed in the last 2 s are not trusted
        c, _ = start(root)
        msg = c.wait_note(lambda m: m["method"] == "window/logMessage" and "linted" in m["params"]["message"])
        msg = msg["params"]["message"]
        check("the CLI wrote its cache", cached)
        check("the first lint reuses the CLI's cache", "(0 parsed" in msg, msg)
        warm, cold = latest_findings(c, root), cold_findings(root)
        check("findings from the cache equal a cold lint (%d)" % len(cold), warm == cold and len(cold) >= 2, (warm ^ cold) or cold)
        stop(c)
    finally:
        if saved is not None:
            os.environ["SPARKCHECK_NO_CACHE"] = saved
    os.environ["SPARKCHECK_NO_CACHE"] = "1"
    c, _ = start(root)
    msg = c.wait_note(lambda m: m["method"] == "window/logMessage" and "linted" in m["params"]["message"])
    check("SPARKCHECK_NO_CACHE=1: the server parses everything", "(0 parsed" not in msg["params"]["message"], msg)
    stop(c)
    if saved is None:
        del os.environ["SPARKCHECK_NO_CACHE"]


def main():
    test_seeded_from_cache()
    test_typing()
    test_watched_files()
    test_folders()
    test_warm_matches_cold()
    root = project()
    c = test_session(root)
    c.request("shutdown")
    c.notify("exit", {})
    check("clean exit", c.proc.wait(10) == 0)
    test_malformed(root)
    test_limits(root)
    test_bad_config(root)
    print("%d failure(s)" % FAILS)
    sys.exit(1 if FAILS else 0)


main()
