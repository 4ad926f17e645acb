# Row 10: -o to /dev/full (and to a directory that cannot be written): exit 2
# naming the path; no partial file; --write-baseline too.
. "$(dirname "$0")/lib.bash"
echo 'import os' > repo/a.py
for f in sarif json text junit; do
  lim lint repo -f $f -o /dev/full
  expect_rc 2
  has '/dev/full' "$T/err"
done
lim lint repo --write-baseline /dev/full
expect_rc 2
lim lint repo -f json -o "$T/nodir/r.json"
expect_rc 2
has 'nodir' "$T/err"
# stdout is checked too
( [ -z "${SC_SANITIZE:-}" ] && ulimit -v 2000000; timeout 60 "$SC" lint repo -f sarif >/dev/full 2>"$T/err" ); RC=$?
expect_rc 2
lim lint repo -f json -o "$T/ok.json"
valid_json "$T/ok.json"
ls -a "$T" | grep -q sparkcheck- && fail "temporary file left"
true
