#!/usr/bin/env bash
# Issue 13's command-line habits and the bugs found trying sparkcheck as a new
# user: glob excludes, several stdout formats, parse errors and --fail-on,
# --stdin-filename with paths, --statistics, -q/-v, --exit-zero, --extend-*,
# '-' as stdin, --show-files, "did you mean", completions and the man page.
. "$(dirname "$0")/lib.bash"
P="$TMP/proj"
mkdir -p "$P/a/b"
printf 'torch==2.5.1+cu124\n' > "$P/a/requirements.txt"
cp "$P/a/requirements.txt" "$P/a/b/requirements.txt"
lint() { (cd "$P" && "$SPARKCHECK" lint --color never "$@"); }

# --exclude 'a/*.txt': '*' stops at '/'; '**' crosses directories
out="$(lint --format concise --exclude 'a/*.txt')"
check "--exclude a/*.txt skips a/requirements.txt" bash -c '! grep -q "^a/requirements.txt" <<<"$1"' _ "$out"
check "--exclude a/*.txt keeps a/b/requirements.txt" grep -q '^a/b/requirements.txt' <<<"$out"
out="$(lint --format concise --exclude 'a/**/*.txt')"; rc=$?
check "--exclude a/**/*.txt skips both (nothing left: exit 0)" [ -z "$out" ]
check "--exclude a/**/*.txt skips both (nothing left: exit 0)" [ "$rc" -eq 0 ]
# config exclude and per-file-ignores use the same matcher
printf 'exclude: ["a/*.txt"]\nper-file-ignores:\n  "a/*/*.txt": [G1]\n' > "$P/.sparkcheck.yaml"
out="$(lint --format concise)"; rc=$?
check "config exclude a/*.txt keeps a/b; per-file-ignores a/*/*.txt suppresses it" [ -z "$out" ]
check "config exclude a/*.txt keeps a/b; per-file-ignores a/*/*.txt suppresses it" [ "$rc" -eq 0 ]
printf 'per-file-ignores:\n  "a/*.txt": [G1]\n' > "$P/.sparkcheck.yaml"
out="$(lint --format concise)"
check "per-file-ignores a/*.txt leaves a/b/requirements.txt reported" grep -q '^a/b/requirements.txt' <<<"$out"
check "per-file-ignores a/*.txt suppresses a/requirements.txt" bash -c '! grep -q "^a/requirements.txt" <<<"$1"' _ "$out"
rm "$P/.sparkcheck.yaml"

# several formats on standard output: an error
out="$(lint --format json --format concise 2>&1)"; rc=$?
check "two formats to stdout: exit 2" [ "$rc" -eq 2 ]
check "two formats to stdout: says why" grep -q 'several formats' <<<"$out"
lint --format json --format concise:"$TMP/c.txt" >/dev/null; rc=$?
check "one to stdout, one to a file: fine" [ "$rc" -eq 1 ]
check "one to stdout, one to a file: fine" [ -s "$TMP/c.txt" ]

# a parse error fails the run like a finding
mkdir -p "$TMP/docker"
printf 'FROM ubuntu:24.04\nRUNN echo hi\n' > "$TMP/docker/Dockerfile"
out="$(cd "$TMP/docker" && "$SPARKCHECK" lint --color never 2>&1)"; rc=$?
check "RUNN reported as error" grep -q 'error' <<<"$out"
check "RUNN exits 1" [ "$rc" -eq 1 ]
(cd "$TMP/docker" && "$SPARKCHECK" lint --fail-on none >/dev/null 2>&1); rc=$?
check "RUNN with --fail-on none exits 0" [ "$rc" -eq 0 ]

# --stdin-filename with a path, and '-' as standard input
out="$(printf 'x\n' | lint --stdin-filename requirements.txt a 2>&1)"; rc=$?
check "--stdin-filename X path: exit 2" [ "$rc" -eq 2 ]
check "--stdin-filename X path: names the path" grep -q 'remove the paths (a)' <<<"$out"
out="$(printf 'torch==2.4.0+cu121\n' | lint --stdin-filename requirements.txt -)"; rc=$?
check "'-' with --stdin-filename lints stdin" grep -q '^requirements.txt:1' <<<"$out"
check "'-' with --stdin-filename exits 1" [ "$rc" -eq 1 ]
printf 'x\n' | lint - >/dev/null 2>&1; rc=$?
check "'-' without --stdin-filename: exit 2" [ "$rc" -eq 2 ]

# --statistics, --exit-zero, -q, -v, --show-files
out="$(lint --statistics)"; rc=$?
check "--statistics: count, rule, name" grep -Eq '^2	G1	[a-z-]+$' <<<"$out"
check "--statistics exit 1" [ "$rc" -eq 1 ]
lint --exit-zero >/dev/null; rc=$?
check "--exit-zero exits 0" [ "$rc" -eq 0 ]
(cd "$TMP" && "$SPARKCHECK" lint --exit-zero missing-path >/dev/null 2>&1); rc=$?
check "--exit-zero still exits 2 on bad input" [ "$rc" -eq 2 ]
err="$(lint -v 2>&1 >/dev/null)"
check "-v: configuration" grep -q '^sparkcheck: configuration: none' <<<"$err"
check "-v: timing" grep -Eq '^sparkcheck: linted 2 files in [0-9.]+ s' <<<"$err"
lint -q --write-baseline "$TMP/b.json" >/dev/null 2>"$TMP/q.err"
check "-q: no message on stderr" [ ! -s "$TMP/q.err" ]
out="$(lint --show-files)"; rc=$?
check "--show-files lists the files" [ "$out" = "$(printf 'a/b/requirements.txt\na/requirements.txt')" ]
check "--show-files lists the files" [ "$rc" -eq 0 ]

# progress: only when standard error is a terminal
lint >/dev/null 2>"$TMP/plain.err"
check "no progress when stderr is not a terminal" [ ! -s "$TMP/plain.err" ]
if command -v script >/dev/null; then
  script -qec "cd '$P' && '$SPARKCHECK' lint --color never >/dev/null" /dev/null > "$TMP/tty.out" 2>&1
  check "progress (files done/total) on a terminal" grep -q 'sparkcheck: 2/2 files' "$TMP/tty.out"
  script -qec "cd '$P' && '$SPARKCHECK' lint -q --color never >/dev/null" /dev/null > "$TMP/ttyq.out" 2>&1
  check "-q: no progress on a terminal" bash -c '! grep -q "files" "$1"' _ "$TMP/ttyq.out"
fi

# --extend-select / --extend-ignore
printf 'select: [G9]\n' > "$P/.sparkcheck.yaml"
out="$(lint --format concise)"
check "config select G9: no G1" bash -c '! grep -q "\[G1\]" <<<"$1"' _ "$out"
out="$(lint --format concise --extend-select G1)"
check "--extend-select G1 adds G1 to the config's select" grep -q '\[G1\]' <<<"$out"
rm "$P/.sparkcheck.yaml"
out="$(lint --format concise --extend-ignore G1)"; rc=$?
check "--extend-ignore G1 drops G1" [ -z "$out" ]
check "--extend-ignore G1 drops G1" [ "$rc" -eq 0 ]

# did you mean
out="$("$SPARKCHECK" lnt 2>&1)"; rc=$?
check "mistyped subcommand: exit 2 and a suggestion" [ "$rc" -eq 2 ]
check "mistyped subcommand: exit 2 and a suggestion" grep -q "did you mean 'lint'" <<<"$out"
out="$("$SPARKCHECK" lint --statistic . 2>&1)"
check "mistyped option: a suggestion" grep -q 'did you mean --statistics' <<<"$out"

# completions and the man page
"$SPARKCHECK" completions bash > "$TMP/sc.bash"
out="$(bash -c '. "$1"; COMP_WORDS=(sparkcheck lint --form); COMP_CWORD=2; _sparkcheck_complete; echo "${COMPREPLY[*]}"' _ "$TMP/sc.bash")"
check "bash completion completes --form to --format" [ "$out" = "--format" ]
out="$(bash -c '. "$1"; COMP_WORDS=(sparkcheck lint --format r); COMP_CWORD=3; _sparkcheck_complete; echo "${COMPREPLY[*]}"' _ "$TMP/sc.bash")"
check "bash completion offers the formats" [ "$out" = "rdjson" ]
out="$(bash -c '. "$1"; COMP_WORDS=(sparkcheck lint --select G1); COMP_CWORD=3; _sparkcheck_complete; echo "${COMPREPLY[*]}"' _ "$TMP/sc.bash")"
g1_ids="$("$SPARKCHECK" rules --format json | sed -n 's/^    "id": "\(G1[0-9]*\)",$/\1/p' | paste -sd' ')"
check "bash completion offers the registry's rule ids after --select" [ "$out" = "$g1_ids" ]
out="$(bash -c '. "$1"; COMP_WORDS=(sparkcheck pr); COMP_CWORD=1; _sparkcheck_complete; echo "${COMPREPLY[*]}"' _ "$TMP/sc.bash")"
check "bash completion completes subcommands" [ "$out" = "probe" ]
# (zsh and fish load their scripts in completions.sh)
"$SPARKCHECK" completions tcsh >/dev/null 2>&1; rc=$?
check "unknown shell: exit 2" [ "$rc" -eq 2 ]
"$SPARKCHECK" man > "$TMP/sparkcheck.1"
check "man page has every subcommand" bash -c 'for c in lint config rules rule probe completions man; do grep -q "^\.SS .*sparkcheck $c" "$1" || exit 1; done' _ "$TMP/sparkcheck.1"
check "man page documents --statistics" grep -q 'statistics' "$TMP/sparkcheck.1"
if command -v groff >/dev/null; then
  out="$(groff -man -Tutf8 -ww -z "$TMP/sparkcheck.1" 2>&1)"
  check "groff renders the man page without warnings" [ -z "$out" ]
fi
# ---- issue 26's habits ----
v="$("$SPARKCHECK" --version)"
check "-V prints the version" [ "$("$SPARKCHECK" -V)" = "$v" ]
check "'sparkcheck version' prints the version" [ "$("$SPARKCHECK" version)" = "$v" ]
out="$("$SPARKCHECK" 2>&1)"; rc=$?
check "bare sparkcheck prints the help (exit 2)" bash -c '[ "$1" -eq 2 ] && grep -q "lint" <<<"$2" && grep -q "probe" <<<"$2"' _ "$rc" "$out"
out="$(lint --output-format json)"
check "--output-format is --format" python3 -c 'import json,sys; json.loads(sys.argv[1])' "$out"
out="$(cd "$P" && SPARKCHECK_OUTPUT_FORMAT=concise "$SPARKCHECK" lint --color never)"
check "SPARKCHECK_OUTPUT_FORMAT picks the format" grep -q '^a/requirements.txt:1:1: error: \[G1\]' <<<"$out"
out="$(cd "$P" && SPARKCHECK_OUTPUT_FORMAT=concise "$SPARKCHECK" lint --color never --format json)"
check "--format wins over SPARKCHECK_OUTPUT_FORMAT" python3 -c 'import json,sys; json.loads(sys.argv[1])' "$out"
tty_lint() { (cd "$P" && env "$@" python3 -c 'import pty,sys; pty.spawn(sys.argv[1:])' "$SPARKCHECK" lint -q a/requirements.txt); }
esc=$'\e[1m'
check "on a terminal: colour" grep -qF "$esc" <<<"$(tty_lint -u NO_COLOR -u FORCE_COLOR)"
check "NO_COLOR=1: no colour" bash -c '! grep -qF "$1" <<<"$2"' _ "$esc" "$(tty_lint -u FORCE_COLOR NO_COLOR=1)"
check "an empty NO_COLOR keeps colour (no-color.org)" grep -qF "$esc" <<<"$(tty_lint -u FORCE_COLOR NO_COLOR=)"
check "FORCE_COLOR=1 colours a pipe" grep -qF "$esc" <<<"$(cd "$P" && FORCE_COLOR=1 "$SPARKCHECK" lint -q a/requirements.txt)"
check "--color never beats FORCE_COLOR" bash -c '! grep -qF "$1" <<<"$2"' _ "$esc" "$(cd "$P" && FORCE_COLOR=1 "$SPARKCHECK" lint -q --color never a/requirements.txt)"
err="$(lint --select G3 2>&1 >/dev/null)"
check "--select G3 for lint says G3 is a probe check" grep -q 'G3 has no static check; `sparkcheck probe G3`' <<<"$err"
check "rule G1 starts with its id and title" grep -Eq '^G1 .*cuda' <<<"$("$SPARKCHECK" rule G1 | head -1)"
"$SPARKCHECK" completions bash > "$TMP/sc2.bash"
out="$(bash -c '. "$1"; COMP_WORDS=(sparkcheck rule G); COMP_CWORD=2; _sparkcheck_complete; echo "${COMPREPLY[*]}"' _ "$TMP/sc2.bash")"
check "bash completion of 'rule' offers rule ids, not files" bash -c '[[ "$1" == G1\ * ]]' _ "$out"
out="$(bash -c '. "$1"; COMP_WORDS=(sparkcheck probe G); COMP_CWORD=2; _sparkcheck_complete; echo "${COMPREPLY[*]}"' _ "$TMP/sc2.bash")"
check "bash completion of 'probe' offers its checks" grep -qw G3 <<<"$out"
(cd "$P" && "$SPARKCHECK" lint -q --write-baseline base.json >/dev/null 2>&1)
out="$(cd "$P" && "$SPARKCHECK" lint --baseline base.json --show-files 2>/dev/null)"
check "the baseline file itself is not linted" bash -c '! grep -q "base.json" <<<"$1" && grep -q requirements.txt <<<"$1"' _ "$out"
rm -f "$P/base.json"
finish
