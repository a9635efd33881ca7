#!/usr/bin/env bash
# Checks of the build itself, run by .ci/run after `make test`:
# - a second build with nothing changed compiles and links nothing (objects and
#   archives are kept; nothing is printed after the game or the tests);
# - `make install` puts the engine, the tools and the docs under DESTDIR/PREFIX,
#   and the installed engine runs and finds its shipped opening book, and the
#   installed stern-board serves its page.
set -euo pipefail
cd "$(dirname "$0")/../.."
tests=$(ls tests/test_*.c | sed 's|^tests/\(.*\)\.c$|build/tests/\1|')
again=$(make -n all build/stern-stress $tests | grep -E ' -c | -o |^ar |^rm ' || true)
if [ -n "$again" ]; then
  echo "build check: a second build would run:"; echo "$again" | head -5; exit 1
fi
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
make -s install DESTDIR="$dest" PREFIX=/usr >/dev/null
for f in usr/bin/stern usr/bin/stern-arena usr/bin/stern-play usr/bin/stern-annotate usr/bin/stern-suite usr/share/stern/suites/race-classic-2.epd usr/share/doc/stern/LICENSE usr/share/doc/stern/docs/PROTOCOL.md usr/share/doc/stern/tools/ARENA.md usr/share/stern/book/classic-2.bin; do
  [ -e "$dest/$f" ] || { echo "build check: make install did not install $f"; exit 1; }
done
# every picture and document an installed page links to is installed beside it
doc="$dest/usr/share/doc/stern"
for md in "$doc"/README.md "$doc"/docs/*.md "$doc"/docs/results/*.md "$doc"/tools/*.md; do
  for link in $(grep -o '](\([^)#: ]*\))' "$md" | sed 's/^](\(.*\))$/\1/' | sort -u); do
    [ -e "$(dirname "$md")/$link" ] || { echo "build check: installed ${md#$dest} links to $link, not installed"; exit 1; }
  done
done
"$dest/usr/bin/stern" --version | grep -q '^Stern ' || { echo "build check: the installed stern does not run"; exit 1; }
printf 'position startpos\ngo movetime 100\n' | "$dest/usr/bin/stern" | grep -q '^info string book ' ||
  { echo "build check: the installed stern does not find its shipped book"; exit 1; }
board_out="$dest/board.out"
"$dest/usr/bin/stern-board" -port 0 >"$board_out" 2>&1 &
board=$!
for _ in $(seq 100); do grep -q http "$board_out" && break; sleep 0.1; done
port=$(grep -o ':[0-9]*/' "$board_out" | tr -d ':/' || true)
page=""
if [ -n "$port" ]; then
  exec 3<>"/dev/tcp/127.0.0.1/$port"
  printf 'GET / HTTP/1.0\r\n\r\n' >&3
  page=$(cat <&3)
  exec 3<&-
fi
kill "$board" 2>/dev/null || true
wait "$board" 2>/dev/null || true
echo "$page" | grep -q '<title>The table' ||
  { echo "build check: the installed stern-board does not serve its page: $(cat "$board_out")"; exit 1; }
echo "build check: nothing rebuilt, make install complete, its book found, its board served"
