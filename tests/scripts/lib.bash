# Shared helpers for tests/scripts/*.sh (sourced, not a test itself).
set -uo pipefail
: "${SPARKCHECK:?set by ctest}" "${SC_SOURCE_DIR:?set by ctest}"
# no facts cache: tests lint the source tree (fixtures, examples); cache.sh turns it on in $TMP
export SPARKCHECK_NO_CACHE=1
FAILS=0
TMP="$(mktemp -d)"
trap '[ -n "${KEEP_TMP:-}" ] || rm -rf "$TMP"' EXIT
ok()   { echo "ok   - $*"; }
fail() { echo "FAIL - $*"; FAILS=$((FAILS + 1)); }
check() { local what="$1"; shift; if "$@"; then ok "$what"; else fail "$what"; fi; }
finish() { echo "$FAILS failure(s)"; [ "$FAILS" -eq 0 ]; }
MULTITOOL="$SC_SOURCE_DIR/tests/tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
# validate FILE: Microsoft SARIF Multitool with GitHub's rules; zero errors and warnings
sarif_validate() {
  local out
  out="$("$MULTITOOL" validate "$1" --rule-kind "Sarif;Gh" 2>&1)" || { echo "$out"; return 1; }
  if echo "$out" | grep -Eq ': (error|warning) [A-Z]+[0-9]+'; then echo "$out" | grep -E ': (error|warning) '; return 1; fi
  return 0
}
