# Shell functions are run again at each call with the call's words: a function calling
# itself, two functions calling each other, and a large body called thousands of times must
# stay bounded (call depth 3, at most 1 MiB plus twice the file's size of bodies re-read).
# A script of 128k installs stays linear: "is there a venv before this line?" and "is torch
# pinned later?" were once asked by scanning the whole file for each install (minutes).
. "$(dirname "$0")/lib.bash"
LIMIT_S=30
python3 - <<'PY'
body = "".join('  pip install "$@" torch==2.%d\n' % (i % 10) for i in range(4000))
calls = "big torch\n" * 40000
text = "#!/bin/bash\nf() { f \"$@\" \"$@\"; g \"$@\"; }\ng() { f \"$@\"; pip install \"$@\"; }\nf torch\n"
text += "big() {\n" + body + "}\n" + calls
open("repo/x.sh", "w").write(text)
open("repo/flat.sh", "w").write("#!/bin/bash\n" + "".join("pip install torch==2.%d\n" % (i % 10) for i in range(128000)))
PY
lim lint repo -f json -o "$T/r.json"
finished
valid_json "$T/r.json"
has 'x.sh' "$T/r.json"
has 'flat.sh' "$T/r.json"
