#!/usr/bin/env bash
# The VS Code extension (editors/vscode): compiles it with the pinned TypeScript, then runs its
# node harness (test/extension.test.js): activate() with a fake `vscode` module starts this
# build's `sparkcheck server` through vscode-languageclient and gets the Dockerfile's G1
# diagnostic; the restart command, the missing-binary message, the settings and the manifest.
# Fails (never skips) without node or the packages: scripts/setup.sh --test installs them.
source "$(dirname "$0")/lib.bash"
EXT="$SC_SOURCE_DIR/editors/vscode"
if ! command -v node >/dev/null 2>&1; then
  fail "node is not installed (scripts/setup.sh installs npm and node)"
  finish; exit
fi
if [ ! -x "$EXT/node_modules/.bin/tsc" ] || [ ! -d "$EXT/node_modules/vscode-languageclient" ]; then
  fail "editors/vscode/node_modules is missing: run scripts/setup.sh --test (npm ci there)"
  finish; exit
fi
check "the extension compiles (tsc -p editors/vscode)" "$EXT/node_modules/.bin/tsc" -p "$EXT"
(cd "$EXT" && SPARKCHECK="$SPARKCHECK" node --test test/extension.test.js) > "$TMP/harness.out" 2>&1
rc=$?
cat "$TMP/harness.out"
check "node harness passed (exit $rc)" [ "$rc" -eq 0 ]
check "the harness ran its tests" grep -Eq '^# pass [1-9]' "$TMP/harness.out"
finish
