-- End to end with a real editor: headless Neovim (0.7 or later) runs
-- `keylint lsp` through its built-in LSP client, opens a file of a small
-- project, and checks the diagnostics it shows, how they follow edits of
-- the buffer (incremental sync, on a line with non-ASCII text), a code
-- action applied through the client, hover, and a clean shutdown.
--
-- Driven by tests/nvim_lsp_test.sh: KEYLINT (the binary), KEYLINT_WS (the
-- project) and KEYLINT_ENC ("utf-16" or "utf-8": the position encoding
-- the client negotiates) come from the environment. Exits Neovim with 0
-- on success, 1 with a message on stderr otherwise.

local keylint = os.getenv('KEYLINT')
local ws = os.getenv('KEYLINT_WS')
local enc = os.getenv('KEYLINT_ENC') or 'utf-16'
local TIMEOUT = 20000

local function fail(msg)
  io.stderr:write('nvim_lsp.lua [' .. enc .. ']: FAIL: ' .. msg .. '\n')
  vim.cmd('cquit 1')
end

local function say(msg)
  io.stdout:write('nvim_lsp.lua [' .. enc .. ']: ' .. msg .. '\n')
end

local function find(diags, code)
  for _, d in ipairs(diags) do
    if d.code == code then
      return d
    end
  end
  return nil
end

local function main()
  local exited = nil
  local config = {
    name = 'keylint',
    cmd = { keylint, 'lsp' },
    root_dir = ws,
    workspace_folders = { { uri = vim.uri_from_fname(ws), name = 'ws' } },
    offset_encoding = enc,
    flags = { debounce_text_changes = 20 },
    on_exit = function(code, signal)
      exited = { code = code, signal = signal }
    end,
  }
  if enc == 'utf-8' then
    config.before_init = function(params)
      params.capabilities.general = { positionEncodings = { 'utf-8', 'utf-16' } }
    end
  end
  local client_id = vim.lsp.start_client(config)
  if not client_id then
    return fail('vim.lsp.start_client failed')
  end
  vim.cmd('edit ' .. vim.fn.fnameescape(ws .. '/src/service.ts'))
  local buf = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buf, client_id)

  -- 1. diagnostics arrive, at the right byte columns whatever the encoding
  local ok = vim.wait(TIMEOUT, function()
    return find(vim.diagnostic.get(buf), 'magic-string') ~= nil
  end, 20)
  if not ok then
    return fail('no magic-string diagnostic: ' .. vim.inspect(vim.diagnostic.get(buf)))
  end
  local client = vim.lsp.get_client_by_id(client_id)
  if client.offset_encoding ~= enc then
    return fail('client offset_encoding is ' .. tostring(client.offset_encoding))
  end
  local ms = find(vim.diagnostic.get(buf), 'magic-string')
  -- row 5: "  const note = 'héllo 😀'; ... pk: `ORDER#${tenantCode}`"; 'ORDER#'
  -- starts at byte 100 (character 96, UTF-16 unit 97)
  if ms.lnum ~= 5 or ms.col ~= 100 or ms.end_col ~= 106 then
    return fail('magic-string at ' .. ms.lnum .. ':' .. ms.col .. '-' .. ms.end_col ..
                ', expected 5:100-106')
  end
  if ms.source ~= 'keylint' or ms.severity ~= vim.diagnostic.severity.WARN then
    return fail('magic-string source/severity: ' .. vim.inspect(ms))
  end
  local vs = find(vim.diagnostic.get(buf), 'versioned-sk-read')
  if not vs or vs.lnum ~= 8 or vs.col ~= 56 or vs.severity ~= vim.diagnostic.severity.ERROR then
    return fail('versioned-sk-read: ' .. vim.inspect(vs))
  end
  say('diagnostics at the right positions')

  -- 2. typing after the emoji (an incremental change in the negotiated
  -- units) moves the finding along
  vim.api.nvim_buf_set_text(buf, 5, 27, 5, 27, { 'ab' })
  ok = vim.wait(TIMEOUT, function()
    local d = find(vim.diagnostic.get(buf), 'magic-string')
    return d ~= nil and d.col == 102
  end, 20)
  if not ok then
    return fail('magic-string did not move to byte 102: ' ..
                vim.inspect(vim.diagnostic.get(buf)))
  end
  -- replacing the prefix with the constant makes it go away
  vim.api.nvim_buf_set_text(buf, 5, 102, 5, 108, { '${ORDER_PREFIX}' })
  ok = vim.wait(TIMEOUT, function()
    local all = vim.diagnostic.get(buf)
    return find(all, 'magic-string') == nil and find(all, 'versioned-sk-read') ~= nil
  end, 20)
  if not ok then
    return fail('magic-string still shown after the edit: ' ..
                vim.inspect(vim.diagnostic.get(buf)))
  end
  say('diagnostics follow the edits')

  -- 3. the quick fix for versioned-sk-read, applied by the client
  local uri = vim.uri_from_bufnr(buf)
  local params = {
    textDocument = { uri = uri },
    range = { start = { line = 8, character = 56 }, ['end'] = { line = 8, character = 56 } },
    context = { diagnostics = {} },
  }
  local responses = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params, TIMEOUT)
  local fix
  for _, r in pairs(responses or {}) do
    for _, a in ipairs(r.result or {}) do
      if a.title:find("^Replace 'sk'") then
        fix = a
      end
    end
  end
  if not fix then
    return fail('no quick fix for versioned-sk-read: ' .. vim.inspect(responses))
  end
  vim.lsp.util.apply_workspace_edit(fix.edit, client.offset_encoding)
  local line = vim.api.nvim_buf_get_lines(buf, 8, 9, true)[1]
  if not line:find('{ pk, sk: removeSortKeyVersion%(sk%) }', 1, false) then
    return fail('the fix did not apply as expected: ' .. line)
  end
  ok = vim.wait(TIMEOUT, function()
    return find(vim.diagnostic.get(buf), 'versioned-sk-read') == nil
  end, 20)
  if not ok then
    return fail('versioned-sk-read still shown after the fix: ' ..
                vim.inspect(vim.diagnostic.get(buf)))
  end
  say('quick fix applied')

  -- 4. hover on a finding shows its rule's docs: put one back first
  vim.api.nvim_buf_set_lines(buf, 9, 9, true,
    { '  const again = `ORDER#${tenantCode}`; await data.dataService.getItem({ pk: again, sk });' })
  ok = vim.wait(TIMEOUT, function()
    return find(vim.diagnostic.get(buf), 'magic-string') ~= nil
  end, 20)
  if not ok then
    return fail('no diagnostic on the added line')
  end
  local hov = vim.lsp.buf_request_sync(buf, 'textDocument/hover', {
    textDocument = { uri = uri }, position = { line = 9, character = 18 } }, TIMEOUT)
  local text = ''
  for _, r in pairs(hov or {}) do
    if r.result and r.result.contents then
      text = r.result.contents.value or ''
    end
  end
  if not text:find('magic-string', 1, true) or not text:find('# magic-string', 1, true) then
    return fail('hover without the rule docs: ' .. vim.inspect(hov))
  end
  say('hover shows the rule docs')

  -- 5. a clean shutdown: the server exits with 0
  vim.lsp.stop_client(client_id)
  ok = vim.wait(TIMEOUT, function() return exited ~= nil end, 20)
  if not ok then
    return fail('the server did not exit')
  end
  if exited.code ~= 0 then
    return fail('the server exited with ' .. tostring(exited.code))
  end
  say('server exited with 0')
  vim.cmd('qall!')
end

local ok, err = pcall(main)
if not ok then
  fail('error: ' .. tostring(err))
end
