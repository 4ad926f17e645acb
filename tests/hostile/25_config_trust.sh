# Round 2, rows 1-3: a discovered .sparkcheck.yaml (the repository's, not the user's)
# cannot choose where sparkcheck writes (cache-dir) or which outside file it reads
# (baseline); config and baseline errors quote no file contents and print no
# control bytes; a NUL in the YAML is a configuration error, not an abort.
. "$(dirname "$0")/lib.bash"
unset SPARKCHECK_NO_CACHE SPARKCHECK_CACHE_DIR  # the cache is what cache-dir steers
export XDG_CACHE_HOME="$T/xdg"
no_esc() { ! grep -q "$(printf '[\001-\010\016-\037\177]')" "$1" || { show; fail "raw control bytes in $1"; }; }
mkdir -p w/x/repo/.git && R=w/x/repo
printf 'torch==2.5.1\n' > $R/requirements.txt

# cache-dir: an absolute path, a climb out, a link out: ignored with a warning, nothing made there
for v in "$T/outside" ../.. link; do
  rm -rf "$T/outside" && mkdir -p "$T/outside" && ln -sfn "$T/outside" $R/link
  ls -A w > "$T/before"
  printf 'cache-dir: %s\n' "$v" > $R/.sparkcheck.yaml
  lim lint $R
  finished
  [ -z "$(ls -A "$T/outside")" ] || fail "cache-dir: $v: wrote into $T/outside: $(ls -A "$T/outside")"
  ls -A w | cmp -s - "$T/before" || fail "cache-dir: $v: wrote into w/: $(ls -A w)"
  has "'cache-dir'" "$T/err"
  has "--cache-dir" "$T/err"
  [ "$(grep -c . "$T/err")" = 1 ] || { show; fail "cache-dir: $v: expected one warning line"; }
done
rm $R/link
# ... honoured inside the configuration's directory, and from --config, --cache-dir, $SPARKCHECK_CACHE_DIR
printf 'cache-dir: .cache\n' > $R/.sparkcheck.yaml
lim lint $R; finished; hasnt "cache-dir" "$T/err"
ls $R/.cache/facts-*.bin >/dev/null 2>&1 || fail "cache-dir inside the repository not used"
printf 'cache-dir: %s\n' "$T/mine" > "$T/mine.yaml"
lim lint $R --config "$T/mine.yaml"; finished; hasnt "warning" "$T/err"
ls "$T/mine"/facts-*.bin >/dev/null 2>&1 || fail "cache-dir from --config not used"
printf 'cache-dir: %s\n' "$T/outside" > $R/.sparkcheck.yaml
lim lint $R --cache-dir "$T/cli"; finished; hasnt "warning" "$T/err"
ls "$T/cli"/facts-*.bin >/dev/null 2>&1 || fail "--cache-dir not used"
SPARKCHECK_CACHE_DIR="$T/env" lim lint $R; finished
ls "$T/env"/facts-*.bin >/dev/null 2>&1 || fail "\$SPARKCHECK_CACHE_DIR not used"
[ -z "$(ls -A "$T/outside")" ] || fail "wrote into the discovered cache-dir"

# baseline: outside the configuration's directory (a path, a climb, a link): exit 2, no contents shown
printf 'TOPSECRET-TOKEN and more\n' > "$T/secret.txt"
ln -s "$T/secret.txt" $R/inside-link.json
for v in "$T/secret.txt" ../../../secret.txt inside-link.json; do
  printf 'baseline: %s\n' "$v" > $R/.sparkcheck.yaml
  lim lint $R
  expect_rc 2
  has "'baseline'" "$T/err"
  has ".sparkcheck.yaml" "$T/err"
  hasnt "TOPSECRET" "$T/err"
  lim config $R
  expect_rc 2
  hasnt "TOPSECRET" "$T/err"
done
# ... a broken baseline inside the tree, or one named on the command line: where and what, not the bytes
printf 'TOPSECRET-TOKEN and more\n' > $R/bl.json
printf 'baseline: bl.json\n' > $R/.sparkcheck.yaml
lim lint $R; expect_rc 2; hasnt "TOPSECRET" "$T/err"; has "bl.json:1:1:" "$T/err"; has "byte offset 0" "$T/err"
lim lint $R --no-config --baseline "$T/secret.txt"; expect_rc 2; hasnt "TOPSECRET" "$T/err"; has "secret.txt:1:1:" "$T/err"
printf '{"version": 1, "findings": [1e400]}' > $R/bl.json
lim lint $R; expect_rc 2; hasnt "1e400" "$T/err"
printf '{"version": "TOPSECRET", "findings": []}' > $R/bl.json
lim lint $R; expect_rc 2; hasnt "TOPSECRET" "$T/err"
printf '{"findings": ["\033]0;TOPSECRET\007"' > $R/bl.json
lim lint $R; expect_rc 2; hasnt "TOPSECRET" "$T/err"; no_esc "$T/err"
# ... and inside the tree a valid one is used
printf '{"version": 1, "findings": []}' > $R/bl.json
lim lint $R; finished

# control bytes in a configuration error are escaped
printf 'ignore: ["\033]0;pwned\007G1"]\n' > $R/.sparkcheck.yaml
lim lint $R; expect_rc 2; no_esc "$T/err"; has 'x1b' "$T/err"
printf 'baseline: "bl\033[2J.json"\n' > $R/.sparkcheck.yaml
lim lint $R; expect_rc 2; no_esc "$T/err"
printf 'sel\033[31mect: [G1]\n' > $R/.sparkcheck.yaml
lim config $R; expect_rc 2; no_esc "$T/err"

# a NUL and other control bytes in the YAML: a configuration error (was an abort, exit 134)
printf 'baseline: fail___________-\0___\27\27s]ue;e\1uee9 ' > $R/.sparkcheck.yaml
lim config $R; expect_rc 2; no_esc "$T/err"; has ".sparkcheck.yaml" "$T/err"
lim lint $R; expect_rc 2; no_esc "$T/err"
printf 'select: [G1]\0\n' > $R/.sparkcheck.yaml
lim config $R; expect_rc 2; no_esc "$T/err"
exit 0
