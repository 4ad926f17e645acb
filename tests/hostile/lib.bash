# Shared by the hostile-input tests: a scratch directory, limits, checks.
# Each test generates its input here at run time (nothing large is committed).
set -u
SC=${SPARKCHECK:?set SPARKCHECK to the sparkcheck binary}
export SPARKCHECK_NO_CACHE=1  # 21_cache.sh turns the facts cache on
T=$(mktemp -d "${TMPDIR:-/tmp}/sc-hostile.XXXXXX")
trap 'chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
cd "$T"
mkdir -p repo/.git  # a repository root: config discovery stops here

# Under sanitizers a report must not look like "finished": make it exit 99.
if [ -n "${SC_SANITIZE:-}" ]; then
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=99"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}halt_on_error=1:exitcode=99:print_stacktrace=1"
fi

fail() { echo "FAIL: $*" >&2; exit 1; }

# Runs sparkcheck under a time limit and (outside sanitizer builds, whose shadow
# memory needs a huge address space) a 2 GB address-space limit. Under an emulator
# (the aarch64 suite runs in qemu-user, 5 to 10 times slower) the limit is 4 times longer:
# it still tells a hang or a quadratic scan from a run that is merely emulated.
# stdout -> $T/out, stderr -> $T/err, exit status -> $RC.
lim() {
  local limit="${LIMIT_S:-60}"
  [ -n "${SC_EMULATOR:-}" ] && limit=$((limit * 4))
  (
    [ -z "${SC_SANITIZE:-}" ] && ulimit -v 2000000
    exec timeout -s KILL "$limit" "$SC" "$@"
  ) >"$T/out" 2>"$T/err" </dev/null
  RC=$?
}

show() { echo "--- exit $RC; stderr:" >&2; head -c 2000 "$T/err" >&2; echo "--- stdout:" >&2; head -c 2000 "$T/out" >&2; }
expect_rc() { [ "$RC" = "$1" ] || { show; fail "exit $RC, expected $1"; }; }
# finished on its own (0 clean, 1 findings, 2 reported error): no signal, no timeout
finished() { [ "$RC" -le 2 ] || { show; fail "did not finish (exit $RC)"; }; }
has() { grep -qF -- "$1" "$2" || { show; fail "'$1' not in $2"; }; }
hasnt() { ! grep -qF -- "$1" "$2" || { show; fail "'$1' found in $2"; }; }
valid_json() { python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1" || fail "$1 is not valid JSON"; }
# repeat_into FILE HEAD WORD N TAIL: writes HEAD, then WORD N times, then TAIL.
repeat_into() { python3 -c 'import sys; f, h, w, n, t = sys.argv[1:]; open(f, "w").write(h + w * int(n) + t)' "$@"; }
json_get() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
