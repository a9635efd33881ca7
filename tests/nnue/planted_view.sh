#!/usr/bin/env bash
# Shows that a wrong seat view fails the net's tests: accumulator.c is
# compiled again with every view of a multi-seat net turned as the first
# seat's (the board of each seat no longer turned to its own home), linked
# into test_nnue_multi ahead of the engine's libraries, and that test must
# fail; the unplanted source, built the same way, must pass.
# usage: planted_view.sh [BUILD_DIR [OPT]] (run from the top directory, after
# make; OPT: the build's optimisation and sanitizer flags, which the objects
# linked with need, e.g. "-O1 -g -fsanitize=address,undefined")
set -euo pipefail
build=${1:-build}
opt=${2:--O2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc=${CC:-cc}
src=engine/eval/nnue/accumulator.c
flags="$opt -std=gnu17 -pthread -Iengine/rules -Iengine/eval -Iengine/eval/nnue"
support=$(ls "$build"/tests/support/*.o)
libs="$build/libproto.a $build/libtools.a $build/libbook.a $build/libsearch.a $build/libsolve.a $build/libeval.a $build/librules.a"
# link NAME SOURCE: test_nnue_multi with SOURCE as its accumulator
link() {
  $cc $flags -c -o "$tmp/$1.o" "$2"
  $cc $opt -pthread -o "$tmp/$1" "$build/tests/test_nnue_multi.o" "$tmp/$1.o" $support $libs -lxxhash -lm -lcmocka
}
sed 's/net->view_hole\[v->seats\[view\]\]/net->view_hole[v->seats[0]]/g' "$src" > "$tmp/planted.c"
if [ "$(diff "$src" "$tmp/planted.c" | grep -c '^>')" -lt 2 ]; then
  echo "planted_view: the views' turning is no longer where this script plants (accumulator.c changed)"
  exit 1
fi
link plain "$src"
link planted "$tmp/planted.c"
if ! "$tmp/plain" >"$tmp/plain.out" 2>&1; then
  echo "planted_view: test_nnue_multi fails without the plant:"
  cat "$tmp/plain.out"
  exit 1
fi
if "$tmp/planted" >"$tmp/planted.out" 2>&1; then
  echo "planted_view: every view turned as the first seat's, yet test_nnue_multi passed"
  exit 1
fi
echo "planted_view: a wrong seat view caught: $(grep -m1 -E 'ERROR|differ|want' "$tmp/planted.out")"
