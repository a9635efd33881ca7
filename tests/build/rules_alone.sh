#!/usr/bin/env bash
# The rules library stands alone: no object of librules.a refers to a symbol
# that libsearch.a defines. usage: rules_alone.sh BUILD_DIR
set -euo pipefail
build=${1:-build}
searchdefs=$(nm --defined-only -g "$build/libsearch.a" | awk 'NF == 3 {print $3}' | sort -u)
rulesneeds=$(nm -u "$build/librules.a" | awk '$1 == "U" {print $2}' | sort -u)
both=$(comm -12 <(echo "$searchdefs") <(echo "$rulesneeds"))
if [ -n "$both" ]; then
  echo "rules library: refers to search symbols:"; echo "$both"; exit 1
fi
echo "rules library: stands alone ($(echo "$rulesneeds" | wc -l) outside symbols, none from the search)"
