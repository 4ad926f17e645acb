# Row 2: ~64k nested { } groups in a shell script and a Dockerfile RUN: never
# handed to tree-sitter (0.20.7 double-frees); reported as too deep.
. "$(dirname "$0")/lib.bash"
python3 - <<'PY'
n = 65536
body = "{ " * n + "true" + "; }" * n
open("repo/deep.sh", "w").write("#!/bin/bash\n" + body + "\n")
open("repo/Dockerfile", "w").write("FROM ubuntu:22.04\nRUN " + body + "\n")
PY
lim lint repo -f json -o "$T/r.json"
finished
valid_json "$T/r.json"
has 'deep.sh' "$T/r.json"
has 'Dockerfile' "$T/r.json"
has '"too-deep"' "$T/r.json"
