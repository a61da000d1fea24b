-- `.rules` is also the extension of Snort rules (Neovim's `hog`), udev rules and Firebase
-- security rules, so a `.rules` file becomes `meeple` by its content (see lua/meeple.lua). This
-- autocommand is defined after Neovim's own detection, so it runs after it and may overrule it.
vim.api.nvim_create_autocmd({ "BufRead", "BufNewFile" }, {
  group = vim.api.nvim_create_augroup("filetypedetect", { clear = false }),
  pattern = "*.rules",
  -- Setting the filetype from here must run the FileType autocommands (ftplugin, syntax).
  nested = true,
  callback = function(args)
    require("meeple").detect(args.buf)
  end,
})
