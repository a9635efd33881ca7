#!/usr/bin/env bash
# same-as-native.sh BUILD - the WebAssembly engine answers as the native one
# (docs/WEB.md): for the start position of every variant, and a position a few
# plies on, `go depth N` (Threads 1, no book) under node (BUILD/web/stern-node.js,
# both builds: threads and one thread) and by BUILD/stern give the same lines
# (each depth's first line and the last one: score, nodes, hashfull and PV; nps
# and time aside) and the same bestmove. Prints one line per case; exits 1 on the first difference.
set -euo pipefail
build=${1:-build}
web=$build/web
[ -f "$web/stern-node.js" ] || { echo "no $web/stern-node.js: make web first" >&2; exit 2; }
variants=$(printf 'uci\n' | "$build/stern" | sed -n 's/^option name Variant type combo default [^ ]* //p' | sed 's/var //g')
[ -n "$variants" ] || { echo "cannot read the variants from $build/stern" >&2; exit 2; }
# the lines a search gives at fixed node counts: the first of each depth, the
# last one and the answer (a search also reports a line now and then by the
# clock, MCTS at any playout: those differ from run to run, natively too)
strip() {
  grep -E '^(info depth|bestmove)' | sed -E 's/ (nps|time) [0-9]+//g' |
    awk '/^bestmove/ { if (last != "" && last != said) print last; print; next }
         { last = $0; if (!($3 in seen)) { seen[$3] = 1; print; said = $0 } }'
}
cases=0
for v in $variants; do
  case $v in capture*-2) depth=4 ;; *-2) depth=6 ;; *) depth=4 ;; esac
  head="setoption name Variant value $v
setoption name OwnBook value false
setoption name Threads value 1"
  # a position a few plies on: the native engine's own first moves at depth 2
  moves=""
  for _ in 1 2 3; do
    m=$(printf '%s\nposition startpos moves%s\ngo depth 2\n' "$head" "$moves" | "$build/stern" | sed -n 's/^bestmove \([^ ]*\).*/\1/p')
    [ -n "$m" ] && [ "$m" != "(none)" ] || break
    moves="$moves $m"
  done
  for pos in "position startpos" "position startpos moves$moves"; do
    script=$(printf '%s\n%s\ngo depth %s\n' "$head" "$pos" "$depth")
    want=$(printf '%s\n' "$script" | "$build/stern" | strip)
    for b in mt st; do
      flag=$([ $b = st ] && echo --st || true)
      got=$(printf '%s\n' "$script" | node "$web/stern-node.js" $flag | strip)
      if [ "$got" != "$want" ]; then
        echo "FAIL $v ($b) $pos, go depth $depth"
        diff <(printf '%s\n' "$want") <(printf '%s\n' "$got") | head -n 10
        exit 1
      fi
    done
    cases=$((cases + 1))
    echo "ok $v $(printf '%s\n' "$want" | tail -n 2 | sed -nE 's/.*nodes ([0-9]+).*/nodes \1/p') $(printf '%s\n' "$want" | tail -n 1) ($pos)"
  done
done
echo "$cases positions: the WebAssembly builds give the native engine's lines and answers"
# a Hash beyond 32 bits of memory is halved until it fits, as natively (the
# bucket count once overflowed a 32-bit size_t and the engine hung)
for b in mt st; do
  flag=$([ $b = st ] && echo --st || true)
  got=$(printf 'setoption name Hash value 65536\nisready\n' | timeout 60 node "$web/stern-node.js" $flag || true)
  if ! grep -q '^info string error out of memory: Hash is [0-9]* MiB, not 65536$' <<<"$got" || ! grep -qx readyok <<<"$got"; then
    echo "FAIL Hash 65536 ($b): $got"
    exit 1
  fi
done
echo "ok Hash 65536: halved until it fits, in both builds"
# ucinewgame clears the table: the same search twice, the same nodes, as
# natively (emscripten's madvise does nothing, and the table kept its entries)
script='position startpos
go depth 7
ucinewgame
go depth 7'
want=$(printf '%s\n' "$script" | "$build/stern" | grep -E '^bestmove|^info depth 7 ' | sed -E 's/ (nps|time) [0-9]+//g')
for b in mt st; do
  flag=$([ $b = st ] && echo --st || true)
  got=$(printf '%s\n' "$script" | node "$web/stern-node.js" $flag | grep -E '^bestmove|^info depth 7 ' | sed -E 's/ (nps|time) [0-9]+//g')
  if [ "$got" != "$want" ]; then
    echo "FAIL ucinewgame ($b): the second search differs from the native one"
    diff <(printf '%s\n' "$want") <(printf '%s\n' "$got") | head -n 6
    exit 1
  fi
done
echo "ok ucinewgame clears the table, in both builds"
