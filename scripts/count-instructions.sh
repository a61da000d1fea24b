#!/usr/bin/env bash
# Counts the instructions the engine executes per decision of random playouts, with callgrind:
# a count that, unlike CPU time, does not move with the load of a shared machine (the same
# binary and games give the same count to within a few hundred instructions in millions), so
# two versions can be compared across sessions and machines. Not run in CI. Needs valgrind.
#
#   scripts/count-instructions.sh [GAMES] [FILTER...]    # default: 100 games, every rules file
#   BENCH=/path/to/playouts-… scripts/count-instructions.sh …   # a bench binary built before
#
# Builds the `playouts` bench, then for every rules file (whose path contains a FILTER) and
# player count runs `playouts --count GAMES --players N FILE` under callgrind, counting only
# the instructions inside the bench's `playouts` function (the games, not loading the rules),
# and prints them per decision. Instructions are not time: a change that saves instructions
# but misses the cache can still be slower; CPU-time benches remain the measure of speed.
set -euo pipefail
cd "$(dirname "$0")/.."
games=100
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then
  games=$1
  shift
fi
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 1; }
# BENCH=path counts with a `playouts` bench binary built before (another commit's, to compare).
bench=${BENCH:-$(cargo bench --bench playouts --no-run --message-format=json 2>/dev/null \
  | sed -n 's/.*"executable":"\([^"]*playouts-[^"]*\)".*/\1/p' | tail -n 1)}
[[ -x "$bench" ]] || { echo "could not build the playouts bench" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '%-50s %7s %6s %10s %15s %12s\n' rules players games decisions instructions "per decision"
# The rows: every rules file and player count the bench plays (one game each, to list them).
"$bench" --count 1 "$@" | grep ' players: ' | while read -r name players _; do
  valgrind --tool=callgrind --callgrind-out-file="$out/cg" \
    --toggle-collect='playouts::playouts*' \
    "$bench" --count "$games" --players "$players" "$name" >"$out/stdout" 2>"$out/stderr"
  decisions=$(sed -n "s|^$name $players players: .* games, \([0-9]*\) decisions.*|\1|p" "$out/stdout")
  instructions=$(sed -n 's/^==[0-9]*== Collected : \([0-9]*\).*/\1/p' "$out/stderr")
  per=$(( decisions > 0 ? instructions / decisions : 0 ))
  printf '%-50s %7s %6s %10s %15s %12s\n' "$name" "$players" "$games" "$decisions" "$instructions" "$per"
done
