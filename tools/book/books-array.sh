#!/bin/bash
# tools/book/books-array.sh BUILD OUT SHARDS - one task of the array job that
# builds every shipped book (book/books.conf) as SHARDS shards each:
#
#   n=$(grep -c '^[a-z]' book/books.conf)                 # books
#   job=$(sbatch --parsable --array=1-$((n * 2))%2 tools/book/books-array.sh build parts 2)
#   sbatch --dependency=afterok:$job tools/book/books-merge.sh build parts 2 book
#
# Submitted from the top of the source tree (SLURM_SUBMIT_DIR: sbatch runs a copy
# of this script). Task T (SLURM_ARRAY_TASK_ID, from 1) builds shard
# (T - 1) % SHARDS + 1 of the book on line (T - 1) / SHARDS + 1 of books.conf's
# book lines, one engine process (a task holds one CPU), into
# OUT/VARIANT-K.part, and logs the part's build time. A task run again (requeued,
# or the array resubmitted) builds its part again, to the same bytes.
#SBATCH --job-name=stern-books
#SBATCH --cpus-per-task=1
#SBATCH --open-mode=append
#SBATCH --output=stern-books-%a.out
set -euo pipefail
BUILD=${1:?usage: books-array.sh BUILD OUT SHARDS}
OUT=${2:?usage: books-array.sh BUILD OUT SHARDS}
SHARDS=${3:?usage: books-array.sh BUILD OUT SHARDS}
cd "${SLURM_SUBMIT_DIR:-.}"
T=${SLURM_ARRAY_TASK_ID:?not a task of an array job}
line=$(grep '^[a-z]' book/books.conf | sed -n "$(( (T - 1) / SHARDS + 1 ))p")
[ -n "$line" ] || { echo "books-array: task $T: book/books.conf has no book $(( (T - 1) / SHARDS + 1 )) (array too long)" >&2; exit 2; }
read -r variant args <<< "$line"
k=$(( (T - 1) % SHARDS + 1 ))
mkdir -p "$OUT"
start=$(date +%s)
# shellcheck disable=SC2086 # args are the book's options, words on purpose
"$BUILD/stern-book" build -variant "$variant" $args -concurrency 1 -engine "$BUILD/stern" \
  -shard "$k/$SHARDS" -o "$OUT/$variant-$k.part" < /dev/null
echo "$variant shard $k/$SHARDS: $(( $(date +%s) - start )) s on $(hostname)"
