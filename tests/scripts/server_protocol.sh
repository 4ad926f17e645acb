#!/usr/bin/env bash
# `sparkcheck server` over pipes (tests/lsp/protocol_test.py): initialize, diagnostics for every
# file of a project, cross-file republishing after a change, hover, code actions, config,
# malformed and hostile messages, shutdown/exit status.
source "$(dirname "$0")/lib.bash"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not installed"; exit 77; }
timeout 120 python3 "$SC_SOURCE_DIR/tests/lsp/protocol_test.py" "$SPARKCHECK" "$SC_SOURCE_DIR/tests/lsp/project" "$TMP"
check "protocol tests" [ $? -eq 0 ]
finish
