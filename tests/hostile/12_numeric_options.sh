# Row 12: --max-file-size (and probe's numeric options) refuse inf, nan, 0,
# negatives and absurd sizes with exit 2; the config key too.
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
for v in inf nan 0 -1; do
  lim probe --sample-seconds "$v"
  expect_rc 2
done
