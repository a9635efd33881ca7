#!/usr/bin/env bash
# The layers of the engine, checked on the built objects (nm):
# - the rules (librules.a) refer to nothing of the layers above them; the
#   evaluation (libeval.a) to nothing of the solvers, the search, the book, the
#   protocol or the tools; the solvers (libsolve.a) to nothing of the search
#   and above; the search (libsearch.a) and the book (libbook.a) to nothing of
#   the protocol or the tools (nor the book to the evaluation, the solvers or
#   the search); the protocol (libproto.a) to nothing of the tools; no tool
#   (tools/) to anything of the protocol;
# - no two files of one folder (engine/rules, engine/eval, engine/solve,
#   engine/search, engine/book, protocol, tools/lib, and the modules of each
#   tool's folder, tools/NAME/NAME.a) call each other, directly or round a
#   circle (a file-level call graph sorted by tsort, which names the files of a
#   loop);
# - every symbol a file of the engine, the protocol, tools/lib or a tool's
#   folder exports carries the file's name as its prefix (node.c: node_...),
#   or its folder's (engine/eval/nnue/forward.c: nnue_...), or the field's short
#   word for it (position.c: pos_; see short() below).
# usage: layering.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
defs() { nm --defined-only -g "$@" 2>/dev/null | awk 'NF == 3 {print $3}' | sort -u; }
needs() { nm -u "$@" 2>/dev/null | awk '$1 == "U" {print $2}' | sort -u; }
fail=0
# check LIB ABOVE...: LIB refers to no symbol that a library ABOVE defines
check() {
  local lib=$1; shift
  local above bad
  for above in "$@"; do
    bad=$(comm -12 <(needs "$build/$lib.a") <(defs "$build/$above.a"))
    [ -z "$bad" ] && continue
    echo "layering: $lib.a refers to $above.a, a layer above it:"
    for sym in $bad; do
      nm -A -u "$build/$lib.a" 2>/dev/null | awk -v s="$sym" '$NF == s {sub(/^[^:]*:/, "", $1); sub(/:$/, "", $1); print "  " $1 " needs " s}' | sort -u
    done
    fail=1
  done
}
check librules libeval libsolve libsearch libbook libproto libtools
check libeval libsolve libsearch libbook libproto libtools
check libsolve libsearch libbook libproto libtools
check libsearch libbook libproto libtools
check libbook libeval libsolve libsearch libproto libtools
check libproto libtools
# the tools (their programs and tools/lib) use the engine's libraries, never
# the protocol: a tool speaks to an engine over its pipes
tool_objs=$(find "$build/tools" -name '*.o')
bad=$(comm -12 <(needs $tool_objs) <(defs "$build/libproto.a"))
if [ -n "$bad" ]; then
  echo "layering: tools refer to the protocol (libproto.a):"
  for sym in $bad; do
    for o in $tool_objs; do needs "$o" | grep -qx "$sym" && echo "  ${o#"$build/"} needs $sym"; done
  done
  fail=1
fi
# members DIR LIB: the objects of LIB, found under the build's DIR (a folder
# of DIR, such as engine/eval/nnue, holds some)
members() {
  local o
  for o in $(ar t "$build/$2.a"); do find "$build/$1" -name "$o" | head -n 1; done
}
# circle DIR LIB: no two files of DIR (the objects in LIB, not stale ones left in
# the build tree) call each other, directly or round a circle; sets `edges`
circle() {
  local dir=$1 lib=$2 objs loops
  objs=$(members "$dir" "$lib")
  edges=$(for o in $objs; do
    for u in $(needs "$o"); do echo "$(basename "$o" .o) $u"; done
  done | sort -k2 | join -1 2 -2 2 - <(for o in $objs; do defs "$o" | sed "s|\$| $(basename "$o" .o)|"; done | sort -k1,1 | awk '{print $2, $1}' | sort -k2) 2>/dev/null |
    awk '$2 != $3 {print $2, $3}' | sort -u)
  if ! loops=$(echo "$edges" | tsort 2>&1 >/dev/null) || [ -n "$loops" ]; then
    echo "layering: files of $dir call each other round a circle:"
    echo "$loops" | sed -n 's/^tsort: //p' | grep -v 'input contains a loop' | sed 's/^/  /'
    fail=1
  fi
}
circle engine/rules librules
circle engine/eval libeval
eval_edges=$(echo "$edges" | grep -c . || true)
circle engine/solve libsolve
circle engine/search libsearch
search_edges=$(echo "$edges" | grep -c . || true)
circle engine/book libbook
circle protocol libproto
circle tools/lib libtools
# the modules of each tool's folder (a tool's main is not in its archive)
tool_archives=$(cd "$build" && find tools -mindepth 2 -maxdepth 2 -name '*.a' 2>/dev/null | sort || true)
for a in $tool_archives; do circle "$(dirname "$a")" "${a%.a}"; done
# short FILE: the shorter prefix a file's exports may carry instead of its name,
# where the field's short word is what every caller writes (position.c: pos_,
# movegen.c: gen_, ccpcells.c: ccp_, notation.c: move_; board.c's one table is
# the board's geometry, geo; the tools' engine_proc.c and the files beside it,
# engine_talk.c and engine_base.c: ep_; pgn_read.c: pgn_)
short() {
  case $1 in
    position) echo pos ;;
    movegen) echo gen ;;
    ccpcells) echo ccp ;;
    notation) echo move ;;
    board) echo geo ;;
    engine_proc | engine_talk | engine_base) echo ep ;;
    pgn_read) echo pgn ;;
    *) echo "$1" ;;
  esac
}
# prefixes DIR LIB: every symbol a file of DIR exports is named after the file
# (FILE_..., or FILE itself), a file of a folder of DIR after the folder
# (engine/eval/nnue/forward.c: nnue_...), so a reader finds a function from
# its name
prefixes() {
  local dir=$1 lib=$2 bad
  bad=$(for o in $(members "$dir" "$lib"); do
    f=$(basename "$o" .o)
    sub=$(dirname "${o#"$build/$dir"}")
    [ "$sub" != / ] && f=$(basename "$sub") # a folder's files carry the folder's name
    s=$(short "$f")
    # symbols a sanitizer adds (__odr_asan.NAME) are the compiler's, not the file's
    defs "$o" | { grep -v -e "^${f}_" -e "^${f}\$" -e "^${s}_" -e "^${s}\$" -e "^__" || true; } |
      sed "s|^|  ${o#"$build/"} exports |"
  done)
  if [ -n "$bad" ]; then
    echo "layering: exports not named after their file:"
    echo "$bad"
    fail=1
  fi
}
prefixes engine/rules librules
prefixes engine/eval libeval
prefixes engine/solve libsolve
prefixes engine/search libsearch
prefixes engine/book libbook
prefixes protocol libproto
prefixes tools/lib libtools
for a in $tool_archives; do prefixes "$(dirname "$a")" "${a%.a}"; done
[ $fail = 0 ] || exit 1
echo "layering: rules < eval < solve < search, book < protocol < tools hold; no circle in any folder" \
  "(engine/eval has $eval_edges file-level calls, engine/search $search_edges); exports carry their file's name"
