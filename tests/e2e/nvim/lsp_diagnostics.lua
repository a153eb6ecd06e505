-- Driven by tests/e2e/lsp.rs (neovim_receives_the_diagnostics): starts `agentws serve` as a
-- Neovim LSP client (API of Neovim 0.7+), opens a file of the fixture, waits until the server's
-- diagnostics for that buffer and for the symbolic-link loop of the fixture arrived, and writes
-- what Neovim received to $OUT, one line per diagnostic: `<file>|<line>|<col>|<code>`.
local root = os.getenv("FIXTURE")
local file = os.getenv("FILE")
local out = os.getenv("OUT")
local loop_uri = vim.uri_from_fname(root .. "/.agentscope/workspace/skills/loop")
local file_uri = vim.uri_from_fname(file)

local received = {}
local default_handler = vim.lsp.handlers["textDocument/publishDiagnostics"]
vim.lsp.handlers["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
  received[result.uri] = result.diagnostics
  return default_handler(err, result, ctx, config)
end

local client_id = vim.lsp.start_client({
  cmd = { os.getenv("AGENTWS"), "serve" },
  root_dir = root,
  workspace_folders = { { uri = vim.uri_from_fname(root), name = "fixture" } },
  init_options = { debounceMs = 0 },
})
vim.cmd("edit " .. vim.fn.fnameescape(file))
vim.lsp.buf_attach_client(0, client_id)

local arrived = vim.wait(30000, function()
  return received[loop_uri] ~= nil and received[file_uri] ~= nil
end, 20)

local lines = {}
if not arrived then
  table.insert(lines, "TIMEOUT")
end
for _, uri in ipairs({ loop_uri, file_uri }) do
  for _, d in ipairs(received[uri] or {}) do
    table.insert(lines, string.format("%s|%d|%d|%s", vim.uri_to_fname(uri), d.range.start.line, d.range.start.character, d.code))
  end
end
-- The buffer's diagnostics as Neovim stores them (what the user sees).
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(lines, string.format("buffer|%d|%d|%s", d.lnum, d.col, d.code or ""))
end
vim.fn.writefile(lines, out)
vim.lsp.stop_client(client_id)
vim.cmd("qa!")
