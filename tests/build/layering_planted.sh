#!/usr/bin/env bash
# Shows that tests/build/layering.sh catches each kind of fault it checks: on
# copies of a build's objects and libraries, it plants one fault a copy (a
# rules file calling the search, two search files calling each other, an
# evaluation export without its file's name, a tool calling the protocol) and
# expects the check to fail naming it; the unplanted copy must pass.
# usage: layering_planted.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc=${CC:-cc}
# copy NAME: a fresh copy of the build's libraries and objects in $tmp/NAME
copy() {
  mkdir -p "$tmp/$1"
  cp "$build"/*.a "$tmp/$1/"
  (cd "$build" && find engine protocol tools -name '*.o' | tar cf - -T -) | (cd "$tmp/$1" && tar xf -)
}
# plant COPY DIR LIB NAME SOURCE: compiles SOURCE as DIR/NAME.o of COPY and
# adds it to LIB (none: a program's object, in no library)
plant() {
  local c=$tmp/$1 o=$tmp/$1/$2/$4.o
  mkdir -p "$(dirname "$o")"
  printf '%s\n' "$5" | $cc -x c -c -o "$o" -
  [ "$3" = none ] || ar rc "$c/$3.a" "$o"
}
# expect COPY TEXT: the check fails on COPY, saying TEXT
fails=0
expect() {
  local out
  if out=$("$here/layering.sh" "$tmp/$1" 2>&1); then
    echo "layering_planted: $1 was planted, yet the check passed"
    fails=1
  elif ! grep -qF "$2" <<<"$out"; then
    echo "layering_planted: $1 failed without saying '$2':"
    echo "$out"
    fails=1
  else
    echo "layering_planted: $1 caught: $(grep -F "$2" <<<"$out" | head -n 1)"
  fi
}
copy clean
"$here/layering.sh" "$tmp/clean" >/dev/null || { echo "layering_planted: the unplanted copy fails"; exit 1; }
copy layer
plant layer engine/rules librules planted 'void session_delete(void *s); void planted(void) { session_delete(0); }'
expect layer "librules.a refers to libsearch.a"
copy circle
plant circle engine/search libsearch planted_a 'void planted_b(void); void planted_a(void) { planted_b(); }'
plant circle engine/search libsearch planted_b 'void planted_a(void); void planted_b(void) { planted_a(); }'
expect circle "files of engine/search call each other round a circle"
copy prefix
plant prefix engine/eval libeval planted 'int helper_value(void) { return 1; }'
expect prefix "engine/eval/planted.o exports helper_value"
copy tools
plant tools tools none planted_main 'void output_free(void *o); int main(void) { output_free(0); return 0; }'
expect tools "tools/planted_main.o needs output_free"
[ $fails = 0 ] && echo "layering_planted: each planted fault is caught"
exit $fails
