-- Meeple rules: `#` comments, and the language server (unless vim.g.meeple_lsp is false).
if vim.b.did_ftplugin then
  if vim.b.undo_ftplugin ~= nil then
    return
  end
  -- Set with no way to undo it: what Neovim's hog ftplugin (0.7 to 0.9) leaves when a `.rules`
  -- file it took for Snort rules becomes `meeple` (by content, a modeline or `:set ft`). Undo
  -- what it set, and go on.
  vim.cmd("setlocal formatoptions< comments< commentstring< define< include<")
  vim.cmd("silent! nunmap <buffer> ]]")
  vim.cmd("silent! nunmap <buffer> [[")
end
vim.b.did_ftplugin = 1
vim.bo.commentstring = "# %s"
vim.bo.comments = ":#"
vim.b.undo_ftplugin = "setlocal commentstring< comments<"
require("meeple").start_lsp(vim.api.nvim_get_current_buf())
