#!/usr/bin/env bash
# The pre-commit hook entry (python/sparkcheck_hook) without a wheel binary: two hook
# processes started together build the checkout once (a lock; the second waits),
# show "building sparkcheck, first run only" with the build's percentage, and both
# then run the built binary. cmake is a stand-in here that records its calls. A
# `sparkcheck` wheel in the environment is run only when it was built from the
# hook's commit; one from another commit is named and the build runs instead.
. "$(dirname "$0")/lib.bash"
PY=python3; [ -x /usr/bin/python3 ] && PY=/usr/bin/python3
"$PY" -m venv --without-pip "$TMP/venv" 2>/dev/null || { echo "SKIP: python3 -m venv unavailable (python3-venv)"; exit 77; }
SRC="$TMP/src"; mkdir -p "$SRC/python" "$TMP/fake"
cp -r "$SC_SOURCE_DIR/python/sparkcheck_hook" "$SRC/python/"
cat > "$TMP/fake/cmake" <<'SH'
#!/usr/bin/env bash
if [ "$1" = --build ]; then
  echo build >> "$CALLS"
  echo "[ 40%] Building CXX object a.o"; sleep 2; echo "[100%] Linking CXX executable sparkcheck"
  printf '#!/bin/sh\necho "built sparkcheck $*"\n' > "$2/sparkcheck"; chmod +x "$2/sparkcheck"
else
  echo configure >> "$CALLS"
fi
SH
chmod +x "$TMP/fake/cmake"
hook() {
  (cd "$TMP" && env -u SPARKCHECK CALLS="$TMP/calls" PATH="$TMP/fake:$PATH" PYTHONPATH="$SRC/python" \
     "$TMP/venv/bin/python" -c 'import sys, sparkcheck_hook; sys.exit(sparkcheck_hook.main())' lint "$1")
}
hook a.py > "$TMP/out1" 2> "$TMP/err1" & p1=$!
hook b.py > "$TMP/out2" 2> "$TMP/err2" & p2=$!
wait $p1; rc1=$?; wait $p2; rc2=$?
check "both hook processes succeed" [ "$rc1" -eq 0 ] && [ "$rc2" -eq 0 ]
check "one build for both (cmake --build called once)" [ "$(grep -c build "$TMP/calls")" -eq 1 ]
check "the first-run line is shown" grep -q 'building sparkcheck, first run only' "$TMP/err1" "$TMP/err2"
check "the build's percentage is shown" grep -q 'first run only: 100%' "$TMP/err1" "$TMP/err2"
check "both ran the built binary with their arguments" bash -c 'grep -qx "built sparkcheck lint a.py" "$1" && grep -qx "built sparkcheck lint b.py" "$2"' _ "$TMP/out1" "$TMP/out2"
hook c.py > "$TMP/out3" 2> "$TMP/err3"
check "a later run builds nothing and prints nothing extra" bash -c '[ "$(grep -c build "$1")" -eq 1 ] && [ ! -s "$2" ]' _ "$TMP/calls" "$TMP/err3"

# a wheel in the hook's environment: used only when built from the hook's own commit
A=$(printf 'a%.0s' {1..40}); B=$(printf 'b%.0s' {1..40})
printf 'SOURCE_DIR = "%s"\nCOMMIT = "%s"\n' "$SRC" "$A" > "$SRC/python/sparkcheck_hook/_source.py"
mkdir -p "$SRC/python/sparkcheck_wheel" "$TMP/venv/bin"
printf '#!/bin/sh\necho "wheel sparkcheck $*"\n' > "$TMP/venv/bin/sparkcheck"; chmod +x "$TMP/venv/bin/sparkcheck"
printf 'COMMIT = "%s"\n' "$A" > "$SRC/python/sparkcheck_wheel/_commit.py"
hook d.py > "$TMP/out4" 2> "$TMP/err4"
check "a wheel of the hook's commit is run" grep -qx "wheel sparkcheck lint d.py" "$TMP/out4"
printf 'COMMIT = "%s"\n' "$B" > "$SRC/python/sparkcheck_wheel/_commit.py"
hook e.py > "$TMP/out5" 2> "$TMP/err5"
check "a wheel of another commit is not run" grep -qx "built sparkcheck lint e.py" "$TMP/out5"
check "and the hook says why, naming both commits" grep -q "built from bbbbbbbbbbbb, the hook's rev is aaaaaaaaaaaa" "$TMP/err5"

# no cmake or compiler: the hook says what it needs instead of a traceback
rm -rf "$SRC/build-hook" "$SRC/python/sparkcheck_wheel"
mkdir -p "$TMP/bare"; ln -s "$(command -v sh)" "$TMP/bare/sh"
out="$(cd "$TMP" && env -u SPARKCHECK PATH="$TMP/bare" PYTHONPATH="$SRC/python" \
       "$TMP/venv/bin/python" -c 'import sys, sparkcheck_hook; sys.exit(sparkcheck_hook.main())' lint f.py 2>&1)"; rc=$?
check "without cmake the hook exits 2" [ "$rc" -eq 2 ]
check "and names what is missing and scripts/setup.sh" bash -c 'grep -q "needs cmake, a C++20 compiler" <<<"$1" && grep -q "scripts/setup.sh" <<<"$1" && ! grep -q Traceback <<<"$1"' _ "$out"
finish
