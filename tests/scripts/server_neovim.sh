#!/usr/bin/env bash
# A real LSP client: Debian's neovim, headless, drives `sparkcheck server` through its built-in
# client (tests/lsp/neovim_client.lua): diagnostics, hover, a code action applied to the buffer.
# Skipped (77) when nvim is not installed; scripts/setup.sh --test installs it.
source "$(dirname "$0")/lib.bash"
if ! command -v nvim >/dev/null 2>&1; then
  echo "SKIP: nvim not installed (apt-get install --no-install-recommends neovim); the Neovim LSP test did not run"
  exit 77
fi
nvim --headless -u NONE -i NONE -n -c 'lua if not vim.lsp or not vim.lsp.buf_attach_client then vim.cmd("cquit 3") end' -c 'qall!' ||
  { echo "SKIP: this nvim has no built-in LSP client (vim.lsp)"; exit 77; }
P="$TMP/project"
mkdir -p "$P/.git"   # the configuration search stops here
cp -r "$SC_SOURCE_DIR/tests/lsp/project/." "$P/"
export SPARKCHECK PROJECT="$P" SESSION_LOG="$TMP/session.log"
timeout 90 nvim --headless -u NONE -i NONE -n -c "luafile $SC_SOURCE_DIR/tests/lsp/neovim_client.lua" </dev/null
rc=$?
cat "$SESSION_LOG" 2>/dev/null
[ -n "${SC_BUILD_DIR:-}" ] && cp "$SESSION_LOG" "$SC_BUILD_DIR/neovim-session.log" 2>/dev/null
check "neovim session passed (nvim exit $rc)" [ "$rc" -eq 0 ]
finish
