#!/usr/bin/env bash
# The functions of the engine, the protocol and the tools that are longer than
# a reader takes in at once, and the largest files: the figures of issue 54's
# closing note ("functions over 100 lines, wc -l of the largest files"), before
# and after a change.
#
# A function is what the tree's style writes: its head at column 0 (a name and
# its parameters, on one line or more), `{` alone on the next line and `}` at
# column 0 where it ends; its length counts the head to the closing brace, as
# ctags' line and end fields do.
# usage: long_functions.sh [LINES [DIR...]]   (default 100; engine protocol tools)
# prints: "file:line name length" for every function longer than LINES, the
# longest first, then the 10 largest C files by `wc -l`
set -euo pipefail
cd "$(dirname "$0")/../.."
limit=${1:-100}
shift || true
dirs=("$@")
[ ${#dirs[@]} -gt 0 ] || dirs=(engine protocol tools)
files=$(find "${dirs[@]}" -name '*.c' | sort)
echo "functions over $limit lines:"
# shellcheck disable=SC2086 # one word a file
awk -v limit="$limit" '
  FNR == 1 { head = 0; body = 0 }
  # a head: a name and "(" at column 0 (not a preprocessor line, a comment or a brace)
  !body && /^[A-Za-z_]/ {
    if (match($0, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
      name = substr($0, RSTART, RLENGTH); sub(/[ \t]*\($/, "", name)
      head = FNR
    } else
      head = 0
    next
  }
  !body && /^\{[ \t]*$/ && head { body = 1; next }
  body && /^\}/ {
    body = 0
    n = FNR - head + 1
    if (n > limit) printf "%d %s:%d %s %d\n", n, FILENAME, head, name, n
    head = 0
  }
' $files | sort -k1,1nr -k2 | cut -d' ' -f2- | sed 's/^/  /'
echo "the 10 largest files (wc -l):"
# shellcheck disable=SC2046 # one word a file
wc -l $(find "${dirs[@]}" -name '*.[ch]') | grep -v ' total$' | sort -k1,1nr -k2 | head -n 10 | sed 's/^ */  /'
