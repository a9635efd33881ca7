#!/bin/bash
# tools/book/books-merge.sh BUILD OUT SHARDS DEST - after tools/book/books-array.sh:
# merges each book's SHARDS parts from OUT into DEST/VARIANT.bin, verifies it and
# prints its stats. Exit status 1 when a part is missing or a merge or verify
# fails (stern-book names the shard to build again). Run from the top of the
# source tree (a Slurm job: SLURM_SUBMIT_DIR).
#SBATCH --job-name=stern-books-merge
#SBATCH --cpus-per-task=1
#SBATCH --open-mode=append
#SBATCH --output=stern-books-merge.out
set -euo pipefail
usage="usage: books-merge.sh BUILD OUT SHARDS DEST"
BUILD=${1:?$usage} OUT=${2:?$usage} SHARDS=${3:?$usage} DEST=${4:?$usage}
cd "${SLURM_SUBMIT_DIR:-.}"
mkdir -p "$DEST"
status=0
while read -r variant _; do
  parts=()
  for k in $(seq "$SHARDS"); do parts+=("$OUT/$variant-$k.part"); done
  if "$BUILD/stern-book" merge -o "$DEST/$variant.bin" "${parts[@]}" &&
    "$BUILD/stern-book" verify "$DEST/$variant.bin"; then
    "$BUILD/stern-book" stats "$DEST/$variant.bin"
  else
    status=1
  fi
done < <(grep '^[a-z]' book/books.conf)
exit $status
