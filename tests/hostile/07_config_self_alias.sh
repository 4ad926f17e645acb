# Row 7: `select: &a [*a]` in .sparkcheck.yaml: a configuration error, no crash.
. "$(dirname "$0")/lib.bash"
printf 'select: &a [*a]\n' > repo/.sparkcheck.yaml
echo 'import os' > repo/a.py
lim lint repo
expect_rc 2
has '.sparkcheck.yaml' "$T/err"
lim config repo
expect_rc 2
