#!/usr/bin/env bash
# Writes the HTML report of `meeple sim` for Cheater's Game (alone, and against Win The Race) and
# screenshots both pages with headless Chromium, to look at them as a person would. Not run in
# CI. Installs Chromium with apt-get if it is missing (needs root).
#
#   scripts/look-at-report.sh [OUT_DIR]     # default: target/look-at-report
#
# Prints the paths of the pages and of the PNG screenshots.
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

for page in cheaters_game cheaters_game-vs-win_the_race; do
  profile="$(mktemp -d)"
  chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --no-first-run --disable-sync --hide-scrollbars \
    --user-data-dir="$profile" --window-size=1200,1600 \
    --screenshot="$out/$page.png" "file://$out/$page.html" 2>/dev/null
  rm -rf "$profile"
  echo "$out/$page.html"
  echo "$out/$page.png"
done
