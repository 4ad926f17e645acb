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

# docs/editors.md's Neovim 0.7 snippet, as written (its command pointed at this build), as init.lua
python3 - "$SC_SOURCE_DIR/docs/editors.md" "$SPARKCHECK" > "$TMP/init.lua" <<'PY'
import re, sys
doc = open(sys.argv[1]).read()
snippet = re.search(r"Neovim 0\.7, in `init\.lua`.*?```lua\n(.*?)```", doc, re.S).group(1)
print(snippet.replace('cmd = { "sparkcheck", "server" }', 'cmd = { "%s", "server" }' % sys.argv[2]))
PY
cat > "$TMP/check.lua" <<'LUA'
vim.cmd("edit Dockerfile")
local ok = vim.wait(15000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local out = io.open(os.getenv("OUT_FILE"), "w")
out:write(string.format("diagnostics %d clients %d\n", #vim.diagnostic.get(0), #vim.lsp.get_active_clients()))
out:close()
vim.cmd(ok and "qall!" or "cquit 1")
LUA
(cd "$P" && OUT_FILE="$TMP/snippet.out" timeout 60 nvim --headless -u "$TMP/init.lua" -i NONE -n -c "luafile $TMP/check.lua" </dev/null)
check "docs/editors.md's Neovim 0.7 snippet starts the server and shows the Dockerfile's diagnostics" \
  grep -qx 'diagnostics [1-9][0-9]* clients 1' "$TMP/snippet.out"
finish
