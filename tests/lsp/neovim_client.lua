-- Drives `sparkcheck server` through Neovim's built-in LSP client (headless):
--   SPARKCHECK=bin PROJECT=dir SESSION_LOG=file nvim --headless -u NONE -c "luafile THIS" (server_neovim.sh)
-- Opens PROJECT/requirements.txt, waits for the diagnostics (also the Dockerfile's, not open),
-- hovers, applies the "Suppress" code action and checks the buffer and the republished diagnostics.
local bin, project, log_path = os.getenv("SPARKCHECK"), os.getenv("PROJECT"), os.getenv("SESSION_LOG")
local log = io.open(log_path, "w")
local failures = 0

local function say(fmt, ...)
  log:write(string.format(fmt, ...) .. "\n")
  log:flush()
end

local function check(what, ok)
  say("%s - %s", ok and "ok  " or "FAIL", what)
  if not ok then failures = failures + 1 end
  return ok
end

local function finish()
  say("%d failure(s)", failures)
  log:close()
  if failures == 0 then vim.cmd("qall!") else vim.cmd("cquit 1") end
end

local function codes(bufnr, quiet)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if not quiet then say("  %s:%d:%d %s [%s] %s", vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ":t"), d.lnum + 1,
        d.col + 1, d.source or "?", tostring(d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)),
        (d.message:gsub("\n.*", ""))) end
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
    out[#out + 1] = { code = code, lnum = d.lnum, diag = d }
  end
  return out
end

local function has_code(list, code)
  for _, c in ipairs(list) do if c.code == code then return c end end
  return nil
end

say("neovim %s", tostring(vim.version().major) .. "." .. vim.version().minor .. "." .. vim.version().patch)
vim.cmd("edit " .. vim.fn.fnameescape(project .. "/requirements.txt"))
local buf = vim.api.nvim_get_current_buf()
local config = { name = "sparkcheck", cmd = { bin, "server" }, root_dir = project }
local client_id
if vim.lsp.start then
  client_id = vim.lsp.start(config)
else
  client_id = vim.lsp.start_client(config)
  vim.lsp.buf_attach_client(buf, client_id)
end
check("client started", client_id ~= nil)

-- 1. diagnostics for the open buffer, and for the Dockerfile that installs it (not open)
vim.wait(15000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
local req = codes(buf)
local g1 = has_code(req, "G1")
check("requirements.txt has a G1 diagnostic", g1 ~= nil)
local docker = vim.fn.bufadd(project .. "/Dockerfile")
vim.wait(5000, function() return #vim.diagnostic.get(docker) > 0 end, 50)
check("the Dockerfile (not open) has diagnostics too", #codes(docker) > 0)
if not g1 then return finish() end

-- 2. hover on the finding shows the rule's documentation
local pos = { line = g1.lnum, character = g1.diag.col }
local hover = vim.lsp.buf_request_sync(buf, "textDocument/hover",
  { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = pos }, 5000)
local text = ""
for _, r in pairs(hover or {}) do
  if r.result and r.result.contents then text = text .. (r.result.contents.value or "") end
end
say("hover: %s", (text:gsub("\n.*", "")))
check("hover shows the G1 rule documentation", text:find("cuda%-major%-mismatch") ~= nil)

-- 3. the suppression code action, applied by the client
local params = { textDocument = { uri = vim.uri_from_bufnr(buf) },
                 range = { start = pos, ["end"] = pos }, context = { diagnostics = {} } }
local res = vim.lsp.buf_request_sync(buf, "textDocument/codeAction", params, 5000)
local action
for _, r in pairs(res or {}) do
  for _, a in ipairs(r.result or {}) do
    say("code action: %s", a.title)
    if a.title:find("^Suppress G1") then action = a end
  end
end
if not check("a 'Suppress G1' code action is offered", action ~= nil) then return finish() end
vim.lsp.util.apply_workspace_edit(action.edit, "utf-16")
local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
local inserted = lines[g1.lnum + 1] or ""
say("line %d is now: %s", g1.lnum + 1, inserted)
check("the comment is inserted above the flagged line",
  inserted:find("^# sparkcheck: ignore%[G1%] %-%- ") ~= nil)

-- 4. the edit goes to the server (didChange) and the G1 diagnostic is withdrawn
local gone = vim.wait(15000, function() return has_code(codes(buf, true), "G1") == nil end, 100)
check("the G1 diagnostic is gone after the suppression", gone)
codes(buf)
finish()
