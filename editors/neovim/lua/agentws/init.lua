-- agentws for Neovim: starts `agentws serve` (native vim.lsp) for AgentScope Harness workspace
-- files, and renders agentws/previewPrompt into a scratch buffer (:AgentwsPreview [user] [session]).
-- Files the server reads from a remote-mode store are `agentws-store:///…` buffers, filled
-- read-only from agentws/storeDocument (:AgentwsCheckStore reads the store again).
-- Works on Neovim 0.7 (Debian bookworm) and current releases: newer APIs are feature-detected,
-- never assumed. No global state besides the plugin's own module table.

local M = {}

M.config = {
  -- Command that starts the server; `agentws` must be on PATH unless this is an absolute path.
  cmd = { 'agentws', 'serve' },
  -- Sent as initializationOptions.profile: "harness" or "strict".
  profile = 'harness',
  -- Default preview context (nil: the server's default).
  user = nil,
  session = nil,
  harness = nil,
  -- Files that get the server (Vim autocmd patterns, matched against the full path).
  patterns = {
    '*/SKILL.md',
    '*/subagents/*.md',
    '*/tools.json',
    '*/AGENTS.md',
    '*/agentws.toml',
    '*/.agentscope/workspace/*',
  },
}

local PREVIEW_METHOD = 'agentws/previewPrompt'
local STORE_DOCUMENT_METHOD = 'agentws/storeDocument'
local CHECK_STORE_METHOD = 'agentws/checkStore'
-- The buffers of stored files (docs/protocol.md, "Stored files").
local STORE_PATTERN = 'agentws-store://*'
local METHOD_NOT_FOUND = -32601
local namespace = vim.api.nvim_create_namespace('agentws-preview')
local uv = vim.loop

-- Clients started through vim.lsp.start_client on Neovim 0.7, one per root.
local clients_by_root = {}
-- Last exit of a server process, so a caller can tell "never started" from "still starting".
M.last_exit = nil
-- Say once per session that the binary is missing, not on every file opened.
local missing_binary_reported = false
-- The preview buffer and the context it shows.
local preview = { buf = nil, context = nil, root = nil }

local function has(feature)
  return vim.fn.has(feature) == 1
end

local function exists(path)
  return uv.fs_stat(path) ~= nil
end

local function dirname(path)
  return vim.fn.fnamemodify(path, ':h')
end

--- The project folder for a file: the nearest folder upward holding agentws.toml, else the nearest
--- holding .agentscope/workspace (the two markers the server discovers projects by).
function M.find_root(path)
  local dir = vim.fn.fnamemodify(path, ':p')
  if not exists(dir) or vim.fn.isdirectory(dir) == 0 then
    dir = dirname(dir)
  end
  local workspace_root = nil
  while true do
    if exists(dir .. '/agentws.toml') then
      return dir
    end
    if workspace_root == nil and vim.fn.isdirectory(dir .. '/.agentscope/workspace') == 1 then
      workspace_root = dir
    end
    local parent = dirname(dir)
    if parent == dir then
      return workspace_root
    end
    dir = parent
  end
end

--- Every running agentws client (vim.lsp.get_clients from 0.10, get_active_clients before).
local function agentws_clients()
  local get = vim.lsp.get_clients or vim.lsp.get_active_clients
  local found = {}
  for _, client in ipairs(get()) do
    if client.name == 'agentws' then
      table.insert(found, client)
    end
  end
  return found
end

local function client_for_root(root)
  for _, client in ipairs(agentws_clients()) do
    if client.config.root_dir == root then
      return client
    end
  end
  return nil
end

--- Sends a request; Neovim 0.11 made client methods take `self`.
local function client_request(client, method, params, handler, bufnr)
  if has('nvim-0.11') then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

--- Sends a request and waits for its answer: `{ result = …, err = … }`, or nil and an error.
local function client_request_sync(client, method, params, timeout_ms, bufnr)
  if has('nvim-0.11') then
    return client:request_sync(method, params, timeout_ms, bufnr)
  end
  return client.request_sync(method, params, timeout_ms, bufnr)
end

local function client_config(root)
  return {
    name = 'agentws',
    cmd = M.config.cmd,
    root_dir = root,
    workspace_folders = {
      { uri = vim.uri_from_fname(root), name = vim.fn.fnamemodify(root, ':t') },
    },
    init_options = { profile = M.config.profile },
    on_exit = function(code, signal)
      M.last_exit = { code = code, signal = signal, root = root }
      clients_by_root[root] = nil
    end,
  }
end

--- Starts (or reuses) the server for the buffer's project and attaches the buffer.
function M.attach(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' then
    return nil
  end
  local root = M.find_root(name)
  if root == nil then
    return nil
  end
  if vim.fn.executable(M.config.cmd[1]) == 0 then
    if missing_binary_reported then
      return nil
    end
    missing_binary_reported = true
    vim.notify(
      'agentws: "' .. M.config.cmd[1] .. '" is not executable. Install it (cargo install --path server) '
        .. "or set require('agentws').setup({ cmd = { '/path/to/agentws', 'serve' } }).",
      vim.log.levels.ERROR
    )
    return nil
  end
  if vim.lsp.start then
    -- 0.8+: reuses a client with the same name and root_dir.
    return vim.lsp.start(client_config(root), { bufnr = bufnr })
  end
  local id = clients_by_root[root]
  if id == nil or vim.lsp.get_client_by_id(id) == nil then
    id = vim.lsp.start_client(client_config(root))
    if id == nil then
      return nil
    end
    clients_by_root[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

--- The line (0-based) a byte offset falls on in `text`.
local function line_of_offset(text, offset)
  local line = 0
  local from = 1
  while true do
    local nl = text:find('\n', from, true)
    if nl == nil or nl > offset then
      return line
    end
    line = line + 1
    from = nl + 1
  end
end

--- The section list of a preview, read by the names the server sends (`PreviewPromptResult` in
--- server/src/lsp/protocol.rs, as editors/vscode/src/protocol.ts reads them): `range` in UTF-8
--- bytes, `sources` with `lines` (1-based, inclusive; null when only the file mattered).
function M.sections(result)
  local out = {}
  for _, s in ipairs(result.sections or {}) do
    local range = type(s.range) == 'table' and s.range or {}
    local start = range.start or 0
    local finish = range['end'] or start
    local sources = {}
    for _, src in ipairs(s.sources or {}) do
      if type(src.path) == 'string' then
        local lines = type(src.lines) == 'table' and src.lines or {}
        local line = lines.start or 1
        table.insert(sources, { path = src.path, line = line, end_line = lines['end'] or line })
      end
    end
    table.insert(out, {
      -- The server's `label` (the tag or heading the prompt shows), not its `kind` identifier.
      title = type(s.label) == 'string' and s.label or 'section',
      kind = type(s.kind) == 'string' and s.kind or '',
      start = start,
      finish = finish,
      tokens = s.estimatedTokens or 0,
      sources = sources,
    })
  end
  return out
end

local function notes_of(result)
  local notes = {}
  for _, note in ipairs(result.notes or {}) do
    if type(note) == 'table' and type(note.message) == 'string' then
      table.insert(notes, note.message)
    end
  end
  return notes
end

local function context_label(context)
  return 'user ' .. (context.userId or '(none)') .. ' · session ' .. (context.sessionId or '(default)')
    .. (context.harness and (' · harness ' .. context.harness) or '')
end

local function preview_buffer()
  if preview.buf and vim.api.nvim_buf_is_valid(preview.buf) then
    return preview.buf
  end
  local buf = vim.api.nvim_create_buf(false, true)
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'hide'
  vim.bo[buf].swapfile = false
  vim.bo[buf].filetype = 'markdown'
  vim.api.nvim_buf_set_name(buf, 'agentws://prompt')
  vim.api.nvim_buf_set_keymap(buf, 'n', '<CR>', '', {
    noremap = true,
    silent = true,
    callback = function()
      M.open_source()
    end,
  })
  preview.buf = buf
  return buf
end

--- Fills the preview buffer: the prompt text exactly, section labels as virtual lines above each
--- section (title, estimated tokens and their share of the prompt, source file:line), notes below.
--- The memory budget (`[agent] max_context_tokens`) bounds the loaded context and cuts MEMORY.md
--- alone to fit: only the MEMORY.md label names it (as the VS Code panel does).
function M.render(buf, result, context)
  local text = result.text or ''
  local lines = vim.split(text, '\n', { plain = true })
  if lines[#lines] == '' and #lines > 1 then
    table.remove(lines)
  end
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.api.nvim_buf_clear_namespace(buf, namespace, 0, -1)
  local budget = result.budget or {}
  local max = budget.maxContextTokens or 0
  local truncated = budget.truncated == true
  local sections = M.sections(result)
  local prompt = 0
  for _, s in ipairs(sections) do
    prompt = prompt + s.tokens
  end
  local placed = {}
  for _, s in ipairs(sections) do
    local first = math.min(line_of_offset(text, s.start), #lines - 1)
    local last = math.max(first, math.min(line_of_offset(text, math.max(s.start, s.finish - 1)), #lines - 1))
    local where = {}
    for _, src in ipairs(s.sources) do
      table.insert(where, src.path .. ':' .. src.line)
    end
    local share = prompt > 0 and string.format(' · %.1f%% of the prompt', s.tokens * 100 / prompt) or ''
    if s.kind == 'memory-context' and max > 0 then
      share = share .. string.format(truncated and ' · cut to fit the %d-token memory budget'
        or ' · within the %d-token memory budget', max)
    end
    local label = string.format('── %s · ≈%d tokens%s%s', s.title, s.tokens, share,
      #where > 0 and (' · ' .. table.concat(where, ' ')) or '')
    vim.api.nvim_buf_set_extmark(buf, namespace, first, 0, {
      virt_lines = { { { label, 'Comment' } } },
      virt_lines_above = true,
    })
    table.insert(placed, { first = first, last = last, title = s.title, sources = s.sources, tokens = s.tokens })
  end
  local notes = notes_of(result)
  if #notes > 0 and #lines > 0 then
    local virt = { { { '── notes', 'Comment' } } }
    for _, note in ipairs(notes) do
      table.insert(virt, { { '  • ' .. note, 'WarningMsg' } })
    end
    vim.api.nvim_buf_set_extmark(buf, namespace, #lines - 1, 0, { virt_lines = virt })
  end
  vim.api.nvim_buf_set_var(buf, 'agentws_sections', placed)
  vim.api.nvim_buf_set_var(buf, 'agentws_notes', notes)
  vim.api.nvim_buf_set_var(buf, 'agentws_context', context_label(context))
  return placed
end

--- Jumps from the preview line under the cursor to the file and line its section came from.
function M.open_source()
  local buf = vim.api.nvim_get_current_buf()
  local ok, placed = pcall(vim.api.nvim_buf_get_var, buf, 'agentws_sections')
  if not ok then
    return
  end
  local line = vim.api.nvim_win_get_cursor(0)[1] - 1
  for _, s in ipairs(placed) do
    if line >= s.first and line <= s.last and s.sources[1] then
      local path = s.sources[1].path
      if not path:match('^/') and preview.root then
        path = preview.root .. '/' .. path
      end
      vim.cmd('wincmd p')
      vim.cmd('edit ' .. vim.fn.fnameescape(path))
      vim.api.nvim_win_set_cursor(0, { math.max(1, s.sources[1].line), 0 })
      return
    end
  end
  vim.notify('agentws: this part of the prompt is built in (no workspace file)', vim.log.levels.INFO)
end

local function show_buffer(buf)
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_buf(win) == buf then
      return
    end
  end
  local current = vim.api.nvim_get_current_win()
  vim.cmd('vsplit')
  vim.api.nvim_win_set_buf(0, buf)
  vim.api.nvim_set_current_win(current)
end

--- Asks the server for the preview of `context` and renders it; `done(err)` runs afterwards.
function M.refresh(done)
  done = done or function() end
  local root = preview.root
  local client = root and client_for_root(root)
  if client == nil then
    local message = 'agentws: no server running for ' .. tostring(root) .. '; open a workspace file first'
    vim.notify(message, vim.log.levels.ERROR)
    return done({ message = message })
  end
  local context = preview.context
  local params = { uri = vim.uri_from_fname(root), context = next(context) and context or vim.empty_dict() }
  client_request(client, PREVIEW_METHOD, params, function(err, result)
    if err then
      local suffix = err.code == METHOD_NOT_FOUND and ' (this agentws has no prompt preview yet)' or ''
      vim.notify('agentws: preview failed: ' .. tostring(err.message) .. suffix, vim.log.levels.ERROR)
      return done(err)
    end
    local buf = preview_buffer()
    M.render(buf, result or {}, context)
    show_buffer(buf)
    done(nil)
  end, vim.api.nvim_get_current_buf())
end

--- :AgentwsPreview [user] [session]
function M.preview(user, session, done)
  local name = vim.api.nvim_buf_get_name(0)
  local root = (name ~= '' and not name:match('^agentws://') and M.find_root(name))
    or preview.root
    or M.find_root(vim.fn.getcwd())
  if root == nil then
    vim.notify('agentws: no agentws.toml or .agentscope/workspace above this file', vim.log.levels.ERROR)
    if done then
      done({ message = 'no project' })
    end
    return
  end
  local context = {}
  context.userId = (user ~= nil and user ~= '') and user or M.config.user
  context.sessionId = (session ~= nil and session ~= '') and session or M.config.session
  context.harness = M.config.harness
  preview.context = context
  preview.root = root
  M.refresh(done)
end

local filetypes = { md = 'markdown', json = 'json' }

--- Fills the buffer of a stored file (`agentws-store:///…`, named by the server's diagnostics)
--- with its text, read-only, from whichever running server holds it. Returns nil, or the error
--- message it also shows.
function M.read_store_document(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local uri = vim.api.nvim_buf_get_name(bufnr)
  local problem = 'no agentws server is running; open a workspace file first'
  for _, client in ipairs(agentws_clients()) do
    local reply, err = client_request_sync(client, STORE_DOCUMENT_METHOD, { uri = uri }, 30000, bufnr)
    if reply and reply.result then
      local lines = vim.split(reply.result.text, '\n', { plain = true })
      if lines[#lines] == '' then
        table.remove(lines)
      end
      vim.bo[bufnr].modifiable = true
      vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, lines)
      vim.bo[bufnr].buftype = 'nofile'
      vim.bo[bufnr].swapfile = false
      vim.bo[bufnr].modifiable = false
      vim.bo[bufnr].readonly = true
      vim.bo[bufnr].filetype = filetypes[uri:match('%.(%w+)$') or ''] or ''
      return nil
    end
    problem = (reply and reply.err and reply.err.message) or tostring(err or problem)
  end
  vim.notify('agentws: cannot open ' .. uri .. ': ' .. problem, vim.log.levels.ERROR)
  return problem
end

--- :AgentwsCheckStore: every server reads its project's store again now; `done(summaries)`
--- gets the answers (docs/protocol.md, agentws/checkStore).
function M.check_store(done)
  local summaries = {}
  for _, client in ipairs(agentws_clients()) do
    local reply, err = client_request_sync(client, CHECK_STORE_METHOD, vim.empty_dict(), 120000)
    if reply and reply.result then
      for _, entry in ipairs(reply.result) do
        table.insert(summaries, entry)
        vim.notify(string.format('agentws: %s: %d files of %d owners, %d diagnostics', entry.store,
          entry.files, entry.owners, entry.diagnostics), vim.log.levels.INFO)
      end
    else
      local problem = (reply and reply.err and reply.err.message) or tostring(err)
      vim.notify('agentws: the store could not be checked: ' .. problem, vim.log.levels.WARN)
    end
  end
  if done then
    done(summaries)
  end
end

local function on_write()
  if preview.buf and vim.api.nvim_buf_is_valid(preview.buf) and preview.context then
    M.refresh()
  end
end

local group = nil

--- Registers the autocmds (called by plugin/agentws.lua; call again after changing patterns).
function M.enable()
  group = vim.api.nvim_create_augroup('agentws', { clear = true })
  vim.api.nvim_create_autocmd({ 'BufReadPost', 'BufNewFile' }, {
    group = group,
    pattern = M.config.patterns,
    callback = function(args)
      M.attach(args.buf)
    end,
  })
  vim.api.nvim_create_autocmd('BufWritePost', {
    group = group,
    pattern = M.config.patterns,
    callback = on_write,
  })
  vim.api.nvim_create_autocmd('BufReadCmd', {
    group = group,
    pattern = STORE_PATTERN,
    callback = function(args)
      M.read_store_document(args.buf)
    end,
  })
end

function M.setup(opts)
  M.config = vim.tbl_deep_extend('force', M.config, opts or {})
  M.enable()
end

return M
