# Row 12: --max-file-size and --sparks (and probe's numeric options) refuse inf, nan, 0,
# negatives and absurd sizes with exit 2; the config keys too.
. "$(dirname "$0")/lib.bash"
echo 'import os' > repo/a.py
for v in inf 1e300 0 -1 nan -inf 1e7 abc ''; do
  lim lint repo --max-file-size="$v"
  expect_rc 2
done
lim lint repo --max-file-size 0.5
finished
for v in inf nan 0 -1; do
  printf 'max-file-size: %s\n' "$v" > repo/.sparkcheck.yaml
  lim lint repo
  expect_rc 2
done
rm -f repo/.sparkcheck.yaml
for v in 0 -1 2.5 1e3 abc '' 99999999999 4097 inf; do
  lim lint repo --sparks="$v"
  expect_rc 2
done
lim lint repo --sparks 3 -v
finished
grep -q 'target: 3 DGX Sparks (command line (--sparks))' "$T/err" || { show; fail "-v does not show --sparks"; }
for v in 0 -1 2.5 abc; do
  printf 'target:\n  sparks: %s\n' "$v" > repo/.sparkcheck.yaml
  lim lint repo
  expect_rc 2
done
rm -f repo/.sparkcheck.yaml
for v in inf nan 0 -1; do
  lim probe --sample-seconds "$v"
  expect_rc 2
done
