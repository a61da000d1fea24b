#!/usr/bin/env bash
# Writes the HTML report of `meeple sim` for Cheater's Game (alone, and against Win The Race) and
# screenshots both pages with headless Chromium, to look at them as a person would. Not run in
# CI. Installs Chromium with apt-get if it is missing (needs root).
#
#   scripts/look-at-report.sh [OUT_DIR]     # default: target/look-at-report
#
# Prints the paths of the pages and of the PNG screenshots (the first 1600 pixels of each page,
# and the whole page).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/look-at-report}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

if ! command -v chromium >/dev/null 2>&1; then
  apt-get update
  apt-get install -y chromium
fi

cargo build --release --quiet
meeple=target/release/meeple
$meeple sim rules/cheaters_game.rules --players 3 --games 2000 \
  --html "$out/cheaters_game.html" >/dev/null
$meeple sim rules/cheaters_game.rules --players 3 --games 2000 \
  --against rules/cheaters_game/win_the_race.rules \
  --html "$out/cheaters_game-vs-win_the_race.html" >/dev/null

# shot PAGE PNG HEIGHT: a screenshot 1200 pixels wide of the top HEIGHT pixels of the page.
shot() {
  local profile
  profile="$(mktemp -d)"
  chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --no-first-run --disable-sync --hide-scrollbars \
    --user-data-dir="$profile" --window-size="1200,$3" \
    --screenshot="$2" "file://$1" 2>/dev/null
  rm -rf "$profile"
  echo "$2"
}

for page in cheaters_game cheaters_game-vs-win_the_race; do
  echo "$out/$page.html"
  shot "$out/$page.html" "$out/$page.png" 1600       # the first screen
  shot "$out/$page.html" "$out/$page-full.png" 3200  # the whole page
done
