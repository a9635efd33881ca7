#!/usr/bin/env bash
# Instructions a node of the learned evaluation against the hand-written one,
# counted by valgrind's callgrind (exact, whatever the machine's load): each
# FEN of the file is searched with `go GO` (a fixed depth, so the node count
# is the search's own) once with EvalFile none and once with the net, one
# process each; prints the instructions, nodes and instructions a node of
# each (start-up included: about 2 million a process) and their ratio.
# usage: nnue_instructions.sh STERN NET FENS VARIANT "GO"
#   e.g. nnue_instructions.sh build/stern nets/classic-2.nnue /tmp/c2.fen classic-2 "depth 8"
set -euo pipefail
if [ $# -ne 5 ]; then
  sed -n 's/^# usage: /usage: /p; s/^#   e\.g\./  e.g./p' "$0" >&2
  exit 2
fi
stern=$1 net=$2 fens=$3 variant=$4 go=$5
command -v valgrind >/dev/null || { echo "nnue_instructions: valgrind is not installed" >&2; exit 2; }
[ -r "$fens" ] || { echo "nnue_instructions: cannot read $fens" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# count EVALFILE: "instructions nodes" summed over the FENs
count() {
  local ti=0 tn=0 line=0 f out n i
  while IFS= read -r f; do
    line=$((line + 1))
    [ -n "$f" ] || continue
    out=$(printf 'setoption name Variant value %s\nsetoption name OwnBook value false\nsetoption name EvalFile value %s\nposition fen %s\ngo %s\n' \
      "$variant" "$1" "$f" "$go" | valgrind --tool=callgrind --callgrind-out-file=/dev/null "$stern" 2>"$tmp/err")
    if grep -q '^info string error' <<<"$out"; then
      echo "nnue_instructions: $fens line $line: $(grep -m1 '^info string error' <<<"$out")" >&2
      exit 1
    fi
    n=$(grep '^info depth' <<<"$out" | tail -n 1 | sed 's/.* nodes \([0-9]*\).*/\1/')
    i=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/err")
    ti=$((ti + i)) tn=$((tn + n))
  done <"$fens"
  echo "$ti $tn"
}
count none >"$tmp/hand"
count "$net" >"$tmp/net"
read -r hi hn <"$tmp/hand"
read -r ni nn <"$tmp/net"
echo "hand-written: $hi instructions, $hn nodes, $((hi / hn)) a node"
echo "net:          $ni instructions, $nn nodes, $((ni / nn)) a node"
awk -v a=$((ni / nn)) -v b=$((hi / hn)) 'BEGIN { printf "net / hand-written: %.3f a node\n", a / b }'
