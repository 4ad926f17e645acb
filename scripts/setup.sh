#!/usr/bin/env bash
# Installs what building and testing sparkcheck needs on Debian/Ubuntu, then
# the pinned npm packages (grammars, test validators, the VS Code extension's).
# Safe to re-run: it only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

PKGS=(build-essential cmake pkg-config git
      libtree-sitter-dev libyaml-cpp-dev nlohmann-json3-dev libre2-dev libcli11-dev catch2
      libtomlplusplus-dev libcmark-dev libsodium-dev)
if [ "${1:-}" = "--test" ]; then
  PKGS+=(pre-commit python3 file dpkg-dev python3-setuptools python3-wheel python3-venv zsh fish)
fi
# a real LSP client for tests/scripts/server_neovim.sh (6 MB download, 27 MB installed, no recommends)
if [ "${1:-}" = "--test" ]; then PKGS+=(neovim); fi
command -v npm >/dev/null 2>&1 || PKGS+=(npm)

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Pinned tree-sitter grammars (also done by cmake configure when missing).
if [ ! -f grammars/node_modules/tree-sitter-bash/src/parser.c ]; then
  (cd grammars && npm ci --ignore-scripts --no-audit --no-fund)
fi
if [ "${1:-}" = "--test" ] && [ ! -d tests/tools/node_modules/@microsoft/sarif-multitool-linux ]; then
  (cd tests/tools && npm ci --ignore-scripts --no-audit --no-fund)
fi
# The VS Code extension's pinned packages (tests/scripts/vscode_extension.sh compiles and runs it).
if [ "${1:-}" = "--test" ] && [ ! -d editors/vscode/node_modules/vscode-languageclient ]; then
  (cd editors/vscode && npm ci --ignore-scripts --no-audit --no-fund)
fi
if [ -f tests/tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool ]; then
  chmod +x tests/tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
fi
