-- Meeple rules files in Neovim 0.7 and later: detection by content, and the language server
-- (`meeple lsp`). Settings, read when they are needed:
--   vim.g.meeple_cmd = { "meeple", "lsp" }  -- the server's command line
--   vim.g.meeple_lsp = false                -- do not start the server (you start it yourself)
local M = {}

-- How many lines from the top are looked at for a `game` or `variant` header.
M.lines_read = 200

--- What the first lines of a `.rules` file say it is: "meeple" (a `game "..."` or `variant
--- "..."` header stands at the start of a line), "blank" (nothing but blank lines and `#`
--- comments: a new file) or "other".
function M.kind_of(lines)
  local blank = true
  for _, line in ipairs(lines) do
    if line:match('^%s*game%s*"') or line:match('^%s*variant%s*"') then
      return "meeple"
    end
    if not (line:match("^%s*$") or line:match("^%s*#")) then
      blank = false
    end
  end
  return blank and "blank" or "other"
end

--- Sets the filetype of `buf`, a `.rules` file, to `meeple` when its content says it is one. A
--- new or blank file is Meeple's too, unless Neovim has placed it by its folder (udev, polkit,
--- ufw); any other file keeps what Neovim found (such as `hog` for Snort rules).
function M.detect(buf)
  local kind = M.kind_of(vim.api.nvim_buf_get_lines(buf, 0, M.lines_read, false))
  local found = vim.bo[buf].filetype
  local blank_and_unplaced = kind == "blank" and (found == "" or found == "hog")
  if found ~= "meeple" and (kind == "meeple" or blank_and_unplaced) then
    vim.bo[buf].filetype = "meeple"
  end
end

local function command()
  return vim.g.meeple_cmd or { "meeple", "lsp" }
end

-- Neovim 0.7 has no vim.lsp.start: one client serves every Meeple buffer, started with the
-- first and started again if it has stopped.
local client_id

--- Starts `meeple lsp` for `buf`, or attaches `buf` to the server already running.
function M.start_lsp(buf)
  if vim.g.meeple_lsp == false then
    return
  end
  local config = { name = "meeple", cmd = command(), root_dir = vim.fn.getcwd() }
  if vim.lsp.start then -- Neovim 0.8 and later: reuses a client of the same name and folder.
    vim.lsp.start(config, { bufnr = buf })
    return
  end
  local client = client_id and vim.lsp.get_client_by_id(client_id)
  if not client or client.is_stopped() then
    client_id = vim.lsp.start_client(config)
  end
  if client_id then
    vim.lsp.buf_attach_client(buf, client_id)
  end
end

return M
