-- Headless test of the Neovim plugin (run by .ci/run):
--   nvim --headless -u NONE -i NONE --cmd 'set rtp^=editors/neovim' -c 'luafile editors/neovim/test/run.lua'
-- Part 1 needs no server: root detection, the command, rendering of the fixture preview.
-- Part 2 drives the real binary (AGENTWS_BIN, default target/debug/agentws) on a copy of
-- tests/fixtures/editors-basic; it is skipped, loudly, only when the binary has no language server
-- (the process exits before initializing) or lacks agentws/previewPrompt (-32601).

local script = debug.getinfo(1, 'S').source:sub(2)
local repo = vim.fn.fnamemodify(script, ':p:h:h:h:h')
local failures = 0
local passes = 0
local skips = {}

local function log(line)
  io.stderr:write(line .. '\n')
end

local function check(name, fn)
  local ok, err = pcall(fn)
  if ok then
    passes = passes + 1
    log('ok - ' .. name)
  else
    failures = failures + 1
    log('not ok - ' .. name .. ': ' .. tostring(err))
  end
end

local function eq(actual, expected, what)
  if not vim.deep_equal(actual, expected) then
    error(string.format('%s: expected %s, got %s', what or 'value', vim.inspect(expected), vim.inspect(actual)), 2)
  end
end

local function finish()
  log(string.format('# neovim %s', tostring(vim.version and vim.version().minor and
    ('0.' .. vim.version().minor .. '.' .. vim.version().patch) or '?')))
  -- The plain closing line CI summaries read: "N passed, N failed, N skipped".
  log(string.format('neovim: %d passed, %d failed, %d skipped', passes, failures, #skips))
  for _, reason in ipairs(skips) do
    log('# SKIP ' .. reason)
  end
  vim.cmd(failures == 0 and 'qall!' or 'cquit 1')
end

vim.cmd('runtime! plugin/agentws.lua')
local agentws = require('agentws')

-- A private copy of the fixture project: the write test edits files.
local tmp = vim.fn.tempname()
vim.fn.mkdir(tmp, 'p')
local project = tmp .. '/editors-basic'
vim.fn.system({ 'cp', '-r', repo .. '/tests/fixtures/editors-basic', project })
local ws = project .. '/.agentscope/workspace'

check('find_root: agentws.toml above a skill; nothing above an unrelated file', function()
  eq(agentws.find_root(ws .. '/skills/pdf/SKILL.md'), project, 'skill root')
  eq(agentws.find_root(ws .. '/alice/AGENTS.md'), project, 'override root')
  eq(agentws.find_root('/'), nil, 'no project at /')
end)

check(':AgentwsPreview exists and takes arguments', function()
  local commands = vim.api.nvim_get_commands({})
  eq(commands.AgentwsPreview ~= nil, true, 'command defined')
  eq(commands.AgentwsPreview.nargs, '*', 'nargs')
end)

check('render: exact prompt lines, one label per section at its first line, notes kept', function()
  local file = io.open(repo .. '/editors/vscode/test/fixtures/preview.json', 'r')
  local fixture = vim.fn.json_decode(file:read('*a'))
  file:close()
  local buf = vim.api.nvim_create_buf(false, true)
  local placed = agentws.render(buf, fixture, { userId = 'alice', sessionId = 's1' })
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  eq(table.concat(lines, '\n') .. '\n', fixture.text, 'buffer text')
  eq(#placed, #fixture.sections, 'sections')
  -- Byte offsets, not characters: the AGENTS.md section (with CJK text) starts on its own line.
  eq(lines[placed[7].first + 1], '<loaded_context>', 'AGENTS.md section start line')
  eq(placed[7].sources[1].path, '.agentscope/workspace/alice/AGENTS.md', 'source path')
  eq(lines[placed[11].first + 1], '', 'subagents section starts with its blank line')
  local marks = vim.api.nvim_buf_get_extmarks(buf, vim.api.nvim_create_namespace('agentws-preview'), 0, -1, { details = true })
  eq(#marks, #fixture.sections + 1, 'a label per section plus the notes')
  local first_label = marks[1][4].virt_lines[1][1][1]
  -- Each section's share of the prompt (the shares add up to 100 %); the memory budget on the
  -- MEMORY.md section alone.
  eq(first_label, '── System prompt · ≈7 tokens · 0.7% of the prompt · agentws.toml:7', 'first label')
  eq(marks[8][4].virt_lines[1][1][1]:match('^── [^·]*· ≈472 tokens · 49.3%% of the prompt · cut to fit the 500%-token memory budget') ~= nil,
    true, 'MEMORY.md label: ' .. marks[8][4].virt_lines[1][1][1])
  local messages = {}
  for _, note in ipairs(fixture.notes) do
    table.insert(messages, note.message)
  end
  eq(vim.api.nvim_buf_get_var(buf, 'agentws_notes'), messages, 'notes')
  eq(vim.bo[buf].modifiable, false, 'read-only')
end)

local bin = os.getenv('AGENTWS_BIN') or (repo .. '/target/debug/agentws')

local function server_part()
  if vim.fn.executable(bin) == 0 then
    error(bin .. ' is missing: build it with `cargo build --bin agentws` (or set AGENTWS_BIN)')
  end
  agentws.setup({ cmd = { bin, 'serve' } })
  vim.cmd('edit ' .. vim.fn.fnameescape(ws .. '/skills/broken/SKILL.md'))
  local buf = vim.api.nvim_get_current_buf()
  local get = vim.lsp.get_clients or vim.lsp.get_active_clients
  local function client()
    for _, c in ipairs(get()) do
      if c.name == 'agentws' then
        return c
      end
    end
  end
  local started = vim.wait(30000, function()
    local c = client()
    return (c ~= nil and c.initialized) or agentws.last_exit ~= nil
  end, 50)
  if agentws.last_exit ~= nil and (client() == nil or not client().initialized) then
    table.insert(skips, 'binary lacks the language server: `' .. bin .. ' serve` exited with code '
      .. tostring(agentws.last_exit.code) .. ' before initializing')
    return
  end
  assert(started, 'the agentws client did not initialize within 30 s')
  eq(client().config.root_dir, project, 'root_dir')

  check('diagnostics arrive for the skill whose name is a YAML boolean', function()
    local arrived = vim.wait(30000, function()
      return #vim.diagnostic.get(buf) > 0
    end, 50)
    assert(arrived, 'no diagnostics within 30 s')
    local errors = vim.diagnostic.get(buf, { severity = vim.diagnostic.severity.ERROR })
    assert(#errors >= 1, 'expected an error: ' .. vim.inspect(vim.diagnostic.get(buf)))
    local on_name_line = false
    for _, d in ipairs(errors) do
      assert(tostring(d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)):match('^%u%u%d%d%d$'),
        'rule code: ' .. vim.inspect(d))
      on_name_line = on_name_line or d.lnum == 1
    end
    assert(on_name_line, 'an error on the "name: yes" line: ' .. vim.inspect(errors))
  end)

  local function preview_and_wait(user, session)
    local result = nil
    agentws.preview(user, session, function(err)
      result = { err = err }
    end)
    assert(vim.wait(30000, function()
      return result ~= nil
    end, 50), 'no preview answer within 30 s')
    return result.err
  end

  local err = preview_and_wait('alice', 's1')
  if err and err.code == -32601 then
    table.insert(skips, 'binary lacks agentws/previewPrompt: ' .. tostring(err.message))
    return
  end
  check(':AgentwsPreview alice s1 renders her prompt in a scratch buffer', function()
    assert(err == nil, 'preview error: ' .. vim.inspect(err))
    local pbuf = vim.fn.bufnr('agentws://prompt')
    assert(pbuf > 0, 'no preview buffer')
    local text = table.concat(vim.api.nvim_buf_get_lines(pbuf, 0, -1, false), '\n')
    assert(text:find('You are a helpful assistant.', 1, true) == 1, 'prompt start: ' .. text:sub(1, 200))
    assert(text:find('回答は簡潔に。', 1, true), 'alice AGENTS.md in the prompt')
    eq(vim.bo[pbuf].buftype, 'nofile', 'scratch buffer')
    assert(#vim.api.nvim_buf_get_var(pbuf, 'agentws_sections') >= 3, 'sections')
    -- The real server's labels: its section titles (not kinds), shares of the prompt, and the
    -- memory budget it sends as `maxContextTokens` on the MEMORY.md label.
    local labels = {}
    for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(pbuf, vim.api.nvim_create_namespace('agentws-preview'), 0, -1, { details = true })) do
      table.insert(labels, mark[4].virt_lines[1][1][1])
    end
    local all = table.concat(labels, '\n')
    assert(all:find('── memory_context · ≈%d+ tokens · [%d.]+%% of the prompt · within the 8000%-token memory budget'), all)
    assert(all:find('── agents_context · ≈%d+ tokens · [%d.]+%% of the prompt'), all)
    assert(not all:find('memory-context', 1, true), all)
    -- Source lines as the server sends them (`lines: {start, end}`): alice's AGENTS.md, lines 1-3.
    local agents
    for _, section in ipairs(vim.api.nvim_buf_get_var(pbuf, 'agentws_sections')) do
      if section.title == 'agents_context' then
        agents = section.sources[1]
      end
    end
    assert(agents and agents.path:find('alice/AGENTS.md', 1, true), vim.inspect(agents))
    eq({ agents.line, agents.end_line }, { 1, 3 }, 'AGENTS.md source lines')
  end)

  check('the preview refreshes when a workspace file is written', function()
    vim.cmd('edit ' .. vim.fn.fnameescape(ws .. '/alice/AGENTS.md'))
    vim.api.nvim_buf_set_lines(0, 0, -1, false, { '# Assistant (alice)', '', 'WRITTEN-MARKER' })
    vim.cmd('silent write')
    local pbuf = vim.fn.bufnr('agentws://prompt')
    local refreshed = vim.wait(30000, function()
      return table.concat(vim.api.nvim_buf_get_lines(pbuf, 0, -1, false), '\n'):find('WRITTEN-MARKER', 1, true) ~= nil
    end, 50)
    assert(refreshed, 'the preview did not show the written text within 30 s')
  end)

  -- A second project in remote mode whose store holds bob's broken skill: the server checks the
  -- stored files and the plugin opens them read-only.
  local stored = tmp .. '/stored'
  vim.fn.system({ 'cp', '-r', repo .. '/tests/fixtures/editors-basic', stored })
  vim.fn.system({ os.getenv('AGENTWS_PYTHON') or 'python3', repo .. '/editors/test-support/seed-store.py',
    stored .. '/store.db', 'assistant' })
  assert(vim.v.shell_error == 0, 'seeding the store failed')
  local toml = io.open(stored .. '/agentws.toml', 'a')
  toml:write('\n[filesystem]\nmode = "remote"\n\n[store]\nurl = "sqlite://store.db"\n')
  toml:close()

  -- What `agentws check --all-users` prints for the stored files: uri → sorted "CODE@line".
  local function store_uri(location)
    local rest = location:gsub('^store:', '')
    return 'agentws-store:///' .. rest:gsub('[^%w%-%._~/]', function(c)
      return string.format('%%%02X', c:byte())
    end)
  end
  local report = vim.fn.json_decode(vim.fn.system(table.concat({
    vim.fn.shellescape(bin), 'check --all-users --format json', vim.fn.shellescape(stored), '2>/dev/null' }, ' ')))
  local expected = {}
  for _, d in ipairs(report.diagnostics) do
    if d.path:match('^store:') then
      local uri = store_uri(d.path)
      expected[uri] = expected[uri] or {}
      table.insert(expected[uri], d.code .. '@' .. (d.range.start.line - 1))
    end
  end
  local broken = 'agentws-store:///agents/assistant/users/bob/skills%3A/broken/SKILL.md'

  check('stored files get the diagnostics check --all-users prints', function()
    assert(expected[broken] ~= nil, 'check reports the broken stored skill: ' .. vim.inspect(report))
    vim.cmd('edit ' .. vim.fn.fnameescape(stored .. '/.agentscope/workspace/skills/pdf/SKILL.md'))
    local function published()
      local seen = {}
      for uri, _ in pairs(expected) do
        local codes = {}
        for _, d in ipairs(vim.diagnostic.get(vim.uri_to_bufnr(uri))) do
          table.insert(codes, tostring(d.code or d.user_data.lsp.code) .. '@' .. d.lnum)
        end
        table.sort(codes)
        seen[uri] = codes
      end
      return seen
    end
    for _, codes in pairs(expected) do
      table.sort(codes)
    end
    vim.wait(30000, function()
      return vim.deep_equal(published(), expected)
    end, 100)
    eq(published(), expected, 'diagnostics of the stored files')
  end)

  check('a stored file opens read-only with its stored text; :AgentwsCheckStore reads again', function()
    vim.cmd('edit ' .. vim.fn.fnameescape(broken))
    local sbuf = vim.api.nvim_get_current_buf()
    eq(vim.api.nvim_buf_get_name(sbuf), broken, 'buffer name')
    eq(vim.api.nvim_buf_get_lines(sbuf, 0, -1, false), { '---', 'name: broken', 'description: never closed' }, 'text')
    eq({ vim.bo[sbuf].modifiable, vim.bo[sbuf].readonly, vim.bo[sbuf].filetype }, { false, true, 'markdown' }, 'options')
    local summaries = nil
    agentws.check_store(function(s)
      summaries = s
    end)
    eq(#summaries, 1, 'one project with a store')
    eq({ summaries[1].store, summaries[1].owners, summaries[1].files }, { 'sqlite://store.db', 2, 4 }, 'summary')
    eq(agentws.read_store_document(vim.uri_to_bufnr(broken:gsub('broken', 'absent'))) ~= nil, true,
      'a file the store does not hold is an error')
  end)

  for _, c in ipairs(get()) do
    if vim.fn.has('nvim-0.11') == 1 then
      c:stop()
    else
      c.stop()
    end
  end
end

check('against the real server', server_part)
vim.fn.delete(tmp, 'rf')
finish()
