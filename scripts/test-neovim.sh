#!/usr/bin/env bash
# Checks the Neovim support in editors/neovim with the `nvim` on the PATH (0.7 or later), headless:
# a Meeple `.rules` file (comments, then `game "..."`) and a new one get the filetype `meeple`,
# a Snort and a Firebase `.rules` file do not, and in a Meeple file the language server starts
# and reports the file's error as a diagnostic. The server is `$MEEPLE lsp`; MEEPLE defaults to
# target/debug/meeple. Exits non-zero on the first failure. tests/editors.rs runs it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
meeple="${MEEPLE:-$root/target/debug/meeple}"
[ -x "$meeple" ] || { echo "no meeple binary at $meeple (cargo build, or set MEEPLE)" >&2; exit 2; }
command -v nvim >/dev/null || { echo "nvim is not on the PATH" >&2; exit 2; }
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
# Nothing of the user's Neovim (plugins, state, logs) is read or written.
export XDG_CONFIG_HOME="$dir/config" XDG_DATA_HOME="$dir/data" XDG_STATE_HOME="$dir/state"
export XDG_CACHE_HOME="$dir/cache"

cat >"$dir/game.rules" <<'RULES'
# A game whose header is not on the first line, and whose flow names no declared action.
game "Headless" { players 2 }
flow { for p in players { turn p only nothing_here } }
action pass "Pass" { }
RULES
cat >"$dir/snort.rules" <<'RULES'
# Snort rules
alert tcp any any -> any 80 (msg:"web"; sid:1000001; rev:1;)
RULES
cat >"$dir/firestore.rules" <<'RULES'
rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents { allow read: if false; }
}
RULES

cat >"$dir/init.lua" <<LUA
vim.opt.runtimepath:prepend("$root/editors/neovim")
vim.g.meeple_cmd = { "$meeple", "lsp" }
LUA

# Prints the file's filetype; for a Meeple file, its commentstring (set by the ftplugin), and
# for one on disk, the first diagnostic's code and line once the server has answered (or
# "no-diagnostic" after 20 s).
cat >"$dir/report.lua" <<'LUA'
local out = { vim.fn.expand("%:t") .. " " .. vim.bo.filetype }
if vim.bo.filetype == "meeple" then
  out[#out + 1] = "(" .. vim.bo.commentstring .. ")"
end
if vim.bo.filetype == "meeple" and vim.fn.filereadable(vim.fn.expand("%")) == 1 then
  local got = vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end, 50)
  local d = got and vim.diagnostic.get(0)[1]
  out[#out + 1] = d and (tostring(d.code) .. " line " .. (d.lnum + 1)) or "no-diagnostic"
end
io.stdout:write(table.concat(out, " ") .. "\n")
LUA

status=0
check() {
  local file="$1" want="$2" got
  got="$(cd "$dir" && timeout 60 nvim --headless -u "$dir/init.lua" "$file" \
    -c "luafile $dir/report.lua" -c 'qa!' 2>&1 </dev/null | tr -d '\r')" || true
  if [ "$got" = "$want" ]; then
    echo "ok: $got"
  else
    echo "FAILED: $file: wanted \`$want\`, got \`$got\`" >&2
    status=1
  fi
}
nvim --version | head -1
check game.rules "game.rules meeple (# %s) unknown-action line 3"
check new.rules "new.rules meeple (# %s)"
check snort.rules "snort.rules hog"
check firestore.rules "firestore.rules hog"
exit $status
