#!/usr/bin/env bash
# Whether two builds of the engine search alike: bench's node count (with the
# shipped net and with EvalFile none) and the whole output of `go nodes N`
# (info lines but their time and nodes/s, and bestmove) on the start position
# and a position 12 plies in, of one variant of each family, under each
# Search value the variant takes. Prints each difference; exits 1 on any.
# usage: same_engine.sh OLD_STERN NEW_STERN [NODES]
set -euo pipefail
old=$1 new=$2 nodes=${3:-4000}
diffs=0
# strip: the output without what a clock decides
strip() { sed -E 's/ time [0-9]+//; s/ nps [0-9]+//; s/ hashfull [0-9]+//' ; }
# run STERN COMMANDS: what the engine answers; `result` waits for the search
# (a query keeps its place in line), where quit would stop it
run() { printf '%s\nresult\nquit\n' "$2" | "$1" 2>&1 | strip; }
compare() {
  local what=$1 cmds=$2 a b
  a=$(run "$old" "$cmds")
  b=$(run "$new" "$cmds")
  if [ "$a" != "$b" ]; then
    echo "same_engine: $what differs:"
    diff <(echo "$a") <(echo "$b") | head -n 10 || true
    diffs=$((diffs + 1))
  fi
}
for evalfile in auto none; do
  a=$(printf 'setoption name EvalFile value %s\nbench\nisready\nquit\n' $evalfile | "$old" 2>&1 | grep 'Nodes searched')
  b=$(printf 'setoption name EvalFile value %s\nbench\nisready\nquit\n' $evalfile | "$new" 2>&1 | grep 'Nodes searched')
  echo "bench EvalFile $evalfile: old $a, new $b"
  [ "$a" = "$b" ] || diffs=$((diffs + 1))
done
checked=0
for variant in classic-2 classic-3 classic-4 classic-6 capture-2 capture-3 capture-6 longjumps-2 symmetric-6 \
  fifteen-2 pairs-4 masters-2 ccerl-2; do
  for algo in auto paranoid maxn brs brs+ mcts pvs; do
    # 12 plies of the engine's own play from the start, at 300 nodes a move
    pre="setoption name OwnBook value false
setoption name Variant value $variant
setoption name Search value $algo"
    printf '%s\nposition startpos\ngo nodes 10\nresult\nquit\n' "$pre" | "$new" 2>&1 | grep -q '^info string error setoption' && continue
    moves=""
    for _ in $(seq 12); do
      m=$(printf '%s\nposition startpos moves %s\ngo nodes 300\nresult\nquit\n' "$pre" "$moves" | "$new" 2>/dev/null |
        awk '/^bestmove/ {print $2}')
      [ -z "$m" ] || [ "$m" = "(none)" ] && break
      moves="$moves $m"
    done
    compare "$variant $algo startpos" "$pre
position startpos
go nodes $nodes"
    compare "$variant $algo after$moves" "$pre
position startpos moves $moves
go nodes $nodes"
    checked=$((checked + 2))
  done
done
echo "same_engine: $checked go nodes $nodes outputs compared, $diffs difference(s)"
[ $diffs = 0 ]
