#!/usr/bin/env bash
# Builds the extension: installs the pinned packages when missing, then `npm run package`
# (vsce package, which compiles src/ into out/ first) writes sparkcheck-VERSION.vsix here.
# Install it with `code --install-extension sparkcheck-VERSION.vsix`.
set -euo pipefail
cd "$(dirname "$0")"
[ -d node_modules/vscode-languageclient ] || npm ci --ignore-scripts --no-audit --no-fund
npm run package -- "$@"
