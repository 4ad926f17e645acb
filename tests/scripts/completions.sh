#!/usr/bin/env bash
# `sparkcheck completions zsh|fish` loaded by the real shells: zsh's completion
# system (compinit, driven in a pseudo-terminal by zsh_complete.zsh) and fish's
# `complete -C` must offer the options, values, subcommands and rule ids.
# A shell that is not installed is skipped with a message (scripts/setup.sh --test
# installs both); with neither, the test reports skipped (77).
. "$(dirname "$0")/lib.bash"
export HOME="$TMP/home" XDG_CONFIG_HOME="$TMP/home/.config" XDG_DATA_HOME="$TMP/home/.local/share"
mkdir -p "$HOME" "$TMP/zfunc"
"$SPARKCHECK" completions zsh > "$TMP/zfunc/_sparkcheck"
"$SPARKCHECK" completions fish > "$TMP/sc.fish"

# the rule ids starting with G1, from the registry (sorted like `candidates`)
G1_IDS="$("$SPARKCHECK" rules --format json | sed -n 's/^    "id": "\(G1[0-9]*\)",$/\1/p' | sort | paste -sd' ')"

# candidates SHELL LINE: what SHELL offers for LINE, sorted, on one line
candidates() {
  case "$1" in
    zsh) timeout 30 zsh -f "$SC_SOURCE_DIR/tests/scripts/zsh_complete.zsh" "$TMP/zfunc" "$2" ;;
    fish) timeout 30 fish --no-config -c 'source $argv[1]; complete -C $argv[2]' "$TMP/sc.fish" "$2" | cut -f1 ;;
  esac | sort | paste -sd' '
}
# offers SHELL LINE WANT: SHELL completes LINE to exactly WANT
offers() {
  local got; got="$(candidates "$1" "$2")"
  [ "$got" = "$3" ] || { echo "  $1: '$2' -> '$got', want '$3'"; return 1; }
}

ran=0
for sh in zsh fish; do
  if ! command -v "$sh" >/dev/null; then
    echo "SKIP: $sh not installed; its completion script is not exercised"
    continue
  fi
  ran=$((ran + 1))
  check "$sh: completion script parses ($sh -n)" "$sh" -n "$TMP/$([ $sh = zsh ] && echo zfunc/_sparkcheck || echo sc.fish)"
  check "$sh: lint --for completes to --format" offers "$sh" 'sparkcheck lint --for' '--format'
  check "$sh: lint --fo offers --follow-symlinks and --format" offers "$sh" 'sparkcheck lint --fo' '--follow-symlinks --format'
  check "$sh: probe --fo offers --force and --format" offers "$sh" 'sparkcheck probe --fo' '--force --format'
  check "$sh: --format values" offers "$sh" 'sparkcheck lint --format r' 'rdjson'
  check "$sh: rule ids after --select" offers "$sh" 'sparkcheck lint --select G1' "$G1_IDS"
  check "$sh: subcommands" offers "$sh" 'sparkcheck pr' 'probe'
  check "$sh: cluster subcommand" offers "$sh" 'sparkcheck clu' 'cluster'
  check "$sh: cluster --fo offers --format" offers "$sh" 'sparkcheck cluster --fo' '--format'
done
[ "$ran" -gt 0 ] || exit 77
finish
