#!/bin/sh
# manifest.sh DIR - files.json of a web build (docs/WEB.md): the variants whose
# net (DIR/nets/*.nnue) and book (DIR/book/*.bin) the page may fetch.
set -eu
list() { ls "$1" 2>/dev/null | sed -n "s/\\$2\$//p" | sed 's/.*/"&"/' | paste -sd, -; }
printf '{"nets": [%s], "book": [%s]}\n' "$(list "$1/nets" .nnue)" "$(list "$1/book" .bin)"
