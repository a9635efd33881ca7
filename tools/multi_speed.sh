#!/usr/bin/env bash
# multi_speed.sh [ENGINE] [MS] - speed of every multi-seat algorithm: for the
# middle-game positions of `bench` with three, four and six seats (bench
# positions 7, 8 and 10), `go movetime MS` (default 1000) with each Search
# value; prints the depth completed, nodes and nodes per second of the last
# `info depth` line. One thread, default Hash, no opponent model (every seat
# searched). Timings: run it on an idle machine.
set -euo pipefail
engine=${1:-build/stern}
ms=${2:-1000}
fens=$("$engine" bench 1 | awk '$3 == "bench" && ($4 == 7 || $4 == 8 || $4 == 10) {
    fen = $6; for (i = 7; i <= 9; i++) fen = fen " " $i; print $4 "|" $5 "|" fen }')
printf '%-9s %-3s %-10s %6s %10s %10s\n' algorithm pos variant depth nodes nps
for algo in paranoid maxn brs brs+ mcts; do
  while IFS='|' read -r num variant fen; do
    line=$( (printf 'setoption name Variant value %s\nsetoption name Search value %s\nsetoption name OpponentModel value false\nposition fen %s\ngo movetime %s\n' \
               "$variant" "$algo" "$fen" "$ms"; sleep $(( ms / 1000 + 2 ))) | "$engine" | grep '^info depth' | tail -1)
    depth=$(awk '{for (i = 1; i < NF; i++) if ($i == "depth") print $(i + 1)}' <<<"$line")
    nodes=$(awk '{for (i = 1; i < NF; i++) if ($i == "nodes") print $(i + 1)}' <<<"$line")
    nps=$(awk '{for (i = 1; i < NF; i++) if ($i == "nps") print $(i + 1)}' <<<"$line")
    printf '%-9s %-3s %-10s %6s %10s %10s\n' "$algo" "$num" "$variant" "$depth" "$nodes" "$nps"
  done <<<"$fens"
done
