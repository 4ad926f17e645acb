# A lone backquote inside a quoted assignment (X='a `b') made the shell tokenizer's
# find('`') + 1 wrap to 0: 100 % CPU forever. Every place a shell line is parsed from
# (script, Markdown block, Dockerfile RUN, workflow run:, Makefile recipe, notebook !
# line) and the language server must finish.
. "$(dirname "$0")/lib.bash"
LIMIT_S=20
line="X='a \`b'"
printf '%s\npip install torch\n' "$line" > repo/x.sh
printf '# Setup\n\n```bash\n%s\npip install torch\n```\n' "$line" > repo/README.md
printf 'FROM ubuntu:22.04\nRUN %s && pip install torch\n' "$line" > repo/Dockerfile
mkdir -p repo/.github/workflows
printf 'on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: %s\n' "$line" > repo/.github/workflows/ci.yml
printf 'all:\n\t%s; pip install torch\n' "$line" > repo/Makefile
python3 - "$line" <<'PY'
import json, sys
cell = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
        "source": ["!" + sys.argv[1] + "\n", "!pip install torch\n"]}
json.dump({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5},
          open("repo/nb.ipynb", "w"))
PY
for f in x.sh README.md Dockerfile .github/workflows/ci.yml Makefile nb.ipynb; do
  SPARKCHECK_NO_PREFILTER=1 lim lint "repo/$f" -f json -o "$T/r.json"
  finished
  valid_json "$T/r.json"
done
lim lint repo -f json -o "$T/r.json"
finished
has 'x.sh' "$T/r.json"

# the language server: open the script, get its diagnostics, shut down
python3 - "$SC" "$T/repo" <<'PY'
import json, subprocess, sys, time
sc, root = sys.argv[1], sys.argv[2]
def frame(o):
    b = json.dumps(o).encode()
    return b"Content-Length: %d\r\n\r\n" % len(b) + b
uri = "file://" + root + "/x.sh"
msgs = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"rootUri": "file://" + root, "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "shellscript", "version": 1, "text": open(root + "/x.sh").read()}}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"}]
p = subprocess.run([sc, "server"], input=b"".join(frame(m) for m in msgs), capture_output=True, timeout=20)
if b'"id":2' not in p.stdout.replace(b" ", b""):
    sys.exit("server did not answer shutdown: rc %d, %r" % (p.returncode, p.stdout[-300:]))
PY
[ $? = 0 ] || fail "language server on a lone backquote"
