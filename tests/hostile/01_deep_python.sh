# Row 1: deep Python nesting (parentheses, unary minus, attribute/call chains,
# lists), also in a notebook cell: no crash; the file is named; -o still written.
. "$(dirname "$0")/lib.bash"
# the parsers are under test: parse every file, even those without trigger words (knowledge/triggers.yaml)
export SPARKCHECK_NO_PREFILTER=1
python3 - <<'PY'
n = 13000
open("repo/parens.py", "w").write("x = " + "(" * n + "1" + ")" * n + "\n")
open("repo/unary.py", "w").write("x = " + "- " * n + "1\n")
open("repo/chain.py", "w").write("x = a" + ".b()" * n + "\nimport torch\n")
open("repo/attrs.py", "w").write("x = a" + ".b" * n + "\n")
open("repo/lists.py", "w").write("x = " + "[" * 900 + "]" * 900 + "\n")
import json
cell = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
        "source": ["y = " + "- " * n + "1\n"]}
json.dump({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, open("repo/nb.ipynb", "w"))
PY
lim lint repo -f json -o "$T/r.json"
finished
valid_json "$T/r.json"
has '"too-deep"' "$T/r.json"
has 'parens.py' "$T/r.json"
[ "$(json_get "$T/r.json" 'd["files_linted"]')" -ge 5 ] || fail "other files not linted"
