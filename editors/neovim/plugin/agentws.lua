-- Loaded by Neovim from the runtimepath: registers :AgentwsPreview and the autocmds that start
-- the agentws language server for workspace files. Configure with require('agentws').setup({...}).
if vim.g.loaded_agentws then
  return
end
vim.g.loaded_agentws = true

vim.api.nvim_create_user_command('AgentwsPreview', function(opts)
  require('agentws').preview(opts.fargs[1], opts.fargs[2])
end, { nargs = '*', desc = 'agentws: preview the system prompt for [user] [session]' })

vim.api.nvim_create_user_command('AgentwsCheckStore', function()
  require('agentws').check_store()
end, { nargs = 0, desc = "agentws: check the files of the project's store now" })

require('agentws').enable()
