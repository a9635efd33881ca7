#!/bin/bash
# tools/book/books-merge.sh BUILD OUT SHARDS DEST - after tools/book/books-array.sh
# (submit it with --dependency=afterany: it checks the parts itself): merges
# each book's SHARDS parts from OUT into DEST/VARIANT.bin, verifies it and
# prints its stats. A book whose parts are not all there, or whose merge or
# verify fails, is not written (DEST keeps its old file); a missing part is
# named with the command that builds it again. Exit status 1 when a book was not
# written, 2 when book/books.conf cannot be read or holds no book. Run from the
# top of the source tree (a Slurm job: SLURM_SUBMIT_DIR).
#SBATCH --job-name=stern-books-merge
#SBATCH --cpus-per-task=1
#SBATCH --open-mode=append
#SBATCH --output=stern-books-merge.out
set -euo pipefail
usage="usage: books-merge.sh BUILD OUT SHARDS DEST"
BUILD=${1:?$usage} OUT=${2:?$usage} SHARDS=${3:?$usage} DEST=${4:?$usage}
cd "${SLURM_SUBMIT_DIR:-.}"
[ -r book/books.conf ] || { echo "books-merge: $(pwd)/book/books.conf cannot be read (run from the top of the tree)" >&2; exit 2; }
books=$(grep '^[a-z]' book/books.conf | cut -d' ' -f1) || true
[ -n "$books" ] || { echo "books-merge: book/books.conf holds no book" >&2; exit 2; }
mkdir -p "$DEST"
status=0 b=0
for variant in $books; do
  b=$((b + 1))
  parts=() missing=0
  for k in $(seq "$SHARDS"); do
    if [ -e "$OUT/$variant-$k.part" ]; then
      parts+=("$OUT/$variant-$k.part")
    else
      echo "books-merge: $variant: $OUT/$variant-$k.part is missing: build it again with" \
        "sbatch --array=$(( (b - 1) * SHARDS + k )) tools/book/books-array.sh $BUILD $OUT $SHARDS" >&2
      missing=1
    fi
  done
  if [ $missing = 0 ] && "$BUILD/stern-book" merge -o "$DEST/$variant.bin.tmp" "${parts[@]}" &&
    "$BUILD/stern-book" verify "$DEST/$variant.bin.tmp"; then
    mv "$DEST/$variant.bin.tmp" "$DEST/$variant.bin"
    "$BUILD/stern-book" stats "$DEST/$variant.bin" || true
  else
    rm -f "$DEST/$variant.bin.tmp"
    status=1
  fi
done
exit $status
