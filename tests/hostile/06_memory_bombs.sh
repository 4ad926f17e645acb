# Row 6: YAML alias bomb (linted file and configuration), nested $(...) growth,
# `baseline: /dev/zero`, a sparse 4 GB config: bounded memory (ulimit -v 2 GB).
. "$(dirname "$0")/lib.bash"
cat > repo/bomb.yaml <<'Y'
a: &a ["x","x","x","x","x","x","x","x","x","x"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g,*g]
Y
python3 - <<'PY'
n = 900
open("repo/nest.sh", "w").write("#!/bin/bash\n" + "echo $(" * n + "x" + ")" * n + "\n" +
                                "".join("X%d=$X%d$X%d$X%d\n" % (i, i, i, i) for i in range(60)) +
                                "A=a\n" + "A=$A$A\n" * 64 + "pip install torch==$A\n")
PY
echo 'import torch' > repo/ok.py
lim lint repo -f json -o "$T/r.json"
finished
valid_json "$T/r.json"
has 'bomb.yaml' "$T/r.json"
cp repo/bomb.yaml repo/.sparkcheck.yaml
lim lint repo
expect_rc 2
has '.sparkcheck.yaml' "$T/err"
rm repo/.sparkcheck.yaml
printf 'baseline: /dev/zero\n' > repo/.sparkcheck.yaml
lim lint repo
expect_rc 2
has "'baseline'" "$T/err"  # outside a discovered config's directory: refused before reading (25_config_trust.sh)
rm repo/.sparkcheck.yaml
lim lint repo --baseline /dev/zero  # named by the user: read, and bounded
expect_rc 2
has '/dev/zero' "$T/err"
truncate -s 4G repo/.sparkcheck.yaml
lim lint repo
expect_rc 2
has 'limit' "$T/err"
