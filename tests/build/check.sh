#!/usr/bin/env bash
# Checks of the build itself, run by .ci/run after `make test`:
# - a second build with nothing changed compiles and links nothing (objects and
#   archives are kept; nothing is printed after the game or the tests);
# - `make install` puts the engine, the tools and the docs under DESTDIR/PREFIX,
#   and the installed engine runs and finds its shipped opening book.
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
for f in usr/bin/stern usr/bin/stern-arena usr/bin/stern-play usr/share/doc/stern/LICENSE usr/share/doc/stern/docs/PROTOCOL.md usr/share/doc/stern/tools/ARENA.md usr/share/stern/book/classic-2.bin; do
  [ -e "$dest/$f" ] || { echo "build check: make install did not install $f"; exit 1; }
done
"$dest/usr/bin/stern" --version | grep -q '^Stern ' || { echo "build check: the installed stern does not run"; exit 1; }
printf 'position startpos\ngo movetime 100\n' | "$dest/usr/bin/stern" | grep -q '^info string book ' ||
  { echo "build check: the installed stern does not find its shipped book"; exit 1; }
echo "build check: nothing rebuilt, make install complete, its book found"
