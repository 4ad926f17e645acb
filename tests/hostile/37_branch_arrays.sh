# Argument lists are kept per case/if branch. A script with 1,500 nested ifs and 20,000 array
# assignments inside them stays bounded: the branch is tracked while walking, not looked up by
# climbing the tree from each assignment (which took seconds here).
. "$(dirname "$0")/lib.bash"
LIMIT_S=60
python3 - <<'PY'
import os
os.makedirs("repo", exist_ok=True)
d = 1500
lines = ["#!/bin/bash"] + ['if [ -n "$X%d" ]; then' % i for i in range(d)]
lines += ["A%d=(--tensor-parallel-size 2 --port 8000)" % i for i in range(20000)]
lines += ["fi"] * d
open("repo/deep.sh", "w").write("\n".join(lines) + "\n")
PY
lim lint repo -f json -o "$T/r.json"
finished
valid_json "$T/r.json"
has '"G10"' "$T/r.json"
