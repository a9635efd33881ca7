#!/usr/bin/env bash
# tests/slurm/test-slurm.sh BUILD - a real one-node Slurm cluster on this
# machine (Debian's munge, slurmctld and slurmd on localhost, with a
# configuration written here), used as docs/CLUSTER.md says: a 4-task array job
# (two tasks at a time, logs appended) plays a 3-seat tournament with -shard
# auto and a job that depends on it merges the shards; another builds a book with
# -shard auto, and a 2-task array makes 3-seat training data with -shard auto;
# the records are merged and compared, game for game and table for table, with
# the same tournament played by one process here, the merged book with a
# one-process build and the merged data with one process's, byte for byte; a
# shard played again by a rebuilt engine is refused by the merge; the books
# of a books.conf are built as one array job and merged by a dependent job,
# each equal to its one-process build; a 4-task
# two-engine match is cancelled by the SPRT watcher once it decides, and one
# process's SPRT over the games it decided on agrees; a tuner cancelled in its
# second iteration and submitted again prints the uncut run's lines. Every daemon started is stopped, and
# checked gone, however the test ends. Needs root (the daemons run as root);
# `make slurm-deps` installs the packages. Exit status 0 when all agree.
set -euo pipefail
BUILD=$(cd "${1:-build}" && pwd)
TOP=$(cd "$(dirname "$0")/../.." && pwd)
for p in munged munge unmunge slurmctld slurmd sbatch squeue scontrol scancel sinfo; do
  command -v "$p" >/dev/null || { echo "test-slurm: $p is missing: run make slurm-deps" >&2; exit 2; }
done

W=$(mktemp -d /tmp/stern-slurm-XXXXXX)
chmod 755 "$W"
export SLURM_CONF=$W/slurm.conf
JOBS=

# Cancels the jobs, stops the cluster (tools/slurm/local-cluster.sh stop), and
# fails when a daemon had to be killed or a job step or a job's program is left.
stop_daemons() {
  local status=$?
  set +e
  [ -n "$JOBS" ] && scancel $JOBS >/dev/null 2>&1 && sleep 1
  "$TOP/tools/slurm/local-cluster.sh" stop "$W" || status=1
  left=$(pgrep -x slurmstepd; pgrep -f "$W"; pgrep -f -- "$BUILD/stern-(arena|book) .*-shard ")
  if [ -n "$left" ]; then
    echo "test-slurm: processes left:" >&2
    ps -o pid,args -p $left >&2
    kill -9 $left 2>/dev/null
    status=1
  else
    echo "daemons stopped: slurmctld, slurmd, munged, every job step and engine gone"
  fi
  rm -rf "$W"
  exit $status
}
trap stop_daemons EXIT

# ---- munged, slurmctld and slurmd on localhost ----
"$TOP/tools/slurm/local-cluster.sh" start "$W" > /dev/null
mkdir -p "$W/runs"
echo "== the cluster"
sinfo

# ---- the jobs: the batch scripts of docs/CLUSTER.md, made small ----
# Stern searches to a node count with no clock (a clock's soft stops would make its
# games depend on the machine's load), one thread, a new process each game.
ARENA_ARGS=(-variant classic-3
  -engine "cmd=$BUILD/stern-greedy" name=Greedy st=1
  -engine "cmd=$BUILD/stern-greedy -random 5" name=Random st=1 restart=on
  -engine "cmd=$BUILD/stern" name=Stern nodes=400 restart=on option.OwnBook=false option.Threads=1
  -rounds 4 -openings random=4 -quiet)
BOOK_ARGS=(-variant classic-2 -plies 6 -width 2 -nodes 1000 -concurrency 1 -engine "$BUILD/stern")
DATA_ARGS=(-variant classic-3 -games 4 -nodes 300 -seed 9 -threads 1)
q() { printf '%q ' "$@"; }

cat > "$W/arena.sh" <<EOF
#!/bin/bash
#SBATCH --job-name=stern-arena
#SBATCH --array=1-4%2
#SBATCH --cpus-per-task=1
#SBATCH --open-mode=append
#SBATCH --output=$W/log/arena-%a.out
cd $W/runs
exec $(q "$BUILD/stern-arena" "${ARENA_ARGS[@]}") -shard auto/4 -pgnout shard-\$SLURM_ARRAY_TASK_ID.pgn -resume
EOF
cat > "$W/book.sh" <<EOF
#!/bin/bash
#SBATCH --job-name=stern-book
#SBATCH --array=1-4
#SBATCH --cpus-per-task=1
#SBATCH --output=$W/log/book-%a.out
cd $W/runs
exec $(q "$BUILD/stern-book" build "${BOOK_ARGS[@]}") -shard auto/4 -o book-\$SLURM_ARRAY_TASK_ID.part
EOF

cat > "$W/datagen.sh" <<EOF
#!/bin/bash
#SBATCH --job-name=stern-datagen
#SBATCH --array=1-2
#SBATCH --cpus-per-task=1
#SBATCH --output=$W/log/datagen-%a.out
cd $W/runs
exec $(q "$BUILD/stern-datagen" "${DATA_ARGS[@]}") -shard auto -o data-\$SLURM_ARRAY_TASK_ID.bin -resume
EOF

t0=$(date +%s)
arena_job=$(sbatch --parsable "$W/arena.sh")
JOBS=$arena_job
# the merge as a job that waits for every task of the array, whatever their end
merge_job=$(sbatch --parsable --dependency=afterany:$arena_job --job-name=stern-merge --output="$W/log/merge.out" \
  --wrap "cd $W/runs && $(q "$BUILD/stern-arena") -merge shard-1.pgn shard-2.pgn shard-3.pgn shard-4.pgn")
JOBS="$arena_job $merge_job"
book_job=$(sbatch --parsable "$W/book.sh")
JOBS="$arena_job $merge_job $book_job"
data_job=$(sbatch --parsable "$W/datagen.sh")
JOBS="$arena_job $merge_job $book_job $data_job"
echo "== submitted: array job $arena_job (tournament, 2 tasks at a time), job $merge_job (its merge, after it)," \
  "array job $book_job (book), array job $data_job (data)"
squeue
for _ in $(seq 1800); do
  [ -z "$(squeue -h -j "$arena_job,$merge_job,$book_job,$data_job" 2>/dev/null)" ] && break
  sleep 0.2
done
echo "== the array tasks, $(( $(date +%s) - t0 )) s after submission"
status=0
for j in $arena_job $book_job $data_job; do
  tasks=$([ "$j" = "$data_job" ] && echo 2 || echo 4)
  scontrol -o show job "$j" | tr ' ' '\n' | grep -E '^(JobId|ArrayTaskId|JobName|JobState|ExitCode)=' |
    paste -d' ' - - - - - | sort -t= -k3 -n
  states=$(scontrol -o show job "$j" | grep -o 'JobState=[A-Z]*' | sort | uniq -c)
  echo "$states"
  [ "$(scontrol -o show job "$j" | grep -c 'JobState=COMPLETED')" = "$tasks" ] || { echo "FAILED: not every task of $j completed"; status=1; }
done
[ $status = 0 ] || { tail -n 20 "$W"/log/*.out "$W/log/slurmctld.log" >&2; exit 1; }
echo "== the merge job, after the array"
cat "$W/log/merge.out"
grep -q '^classic-3: 12 games' "$W/log/merge.out" || { echo "FAILED: the dependent merge job did not merge the 12 games"; exit 1; }

# ---- merged against one process ----
cd "$W"
echo "== stern-arena -merge of the 4 shards"
"$BUILD/stern-arena" -merge runs/shard-[1-4].pgn -pgnout merged.pgn | tee merged.txt
"$BUILD/stern-arena" "${ARENA_ARGS[@]}" -pgnout local.pgn > /dev/null
"$BUILD/stern-arena" -ratings local.pgn > local.txt
# the records without where and when they ran, the shard and the comments (times)
strip() { grep -v -E '^\[(Site|Date|Shard) ' "$1" | tr '\n' ' ' | sed -E 's/\{[^}]*\}//g; s/ +/ /g; s/\] /]\n/g'; }
if diff <(strip local.pgn) <(strip merged.pgn) > /dev/null; then
  echo "merged records = one-process records: $(grep -c '^\[Round ' local.pgn) games, game for game (same moves)"
else
  echo "FAILED: the merged records differ from the one-process records"; diff <(strip local.pgn) <(strip merged.pgn) | head; status=1
fi
if diff local.txt <(sed -n '/^classic-3:/,$p' merged.txt) > /dev/null; then
  echo "merged table = one-process table"
else
  echo "FAILED: the tables differ"; status=1
fi
# a task run again with a rebuilt engine (stern-greedy with a byte added: the
# same moves, another executable) does not merge with the others
cp "$BUILD/stern-greedy" rebuilt-greedy && printf x >> rebuilt-greedy
rebuilt=("${ARENA_ARGS[@]}")
rebuilt[3]="cmd=$W/rebuilt-greedy"
"$BUILD/stern-arena" "${rebuilt[@]}" -shard 2/4 -pgnout rebuilt-2.pgn > /dev/null
if "$BUILD/stern-arena" -merge runs/shard-1.pgn rebuilt-2.pgn runs/shard-3.pgn runs/shard-4.pgn > rebuilt.txt 2>&1; then
  echo "FAILED: a shard of a rebuilt engine merged"; status=1
elif grep -q 'records of two builds of an engine do not merge' rebuilt.txt; then
  echo "a shard played by a rebuilt engine is refused: $(grep -o 'was played by engine 1 built as [^,]*' rebuilt.txt)"
else
  echo "FAILED: the merge with a rebuilt engine's shard said:"; cat rebuilt.txt; status=1
fi

echo "== stern-book merge of the 4 parts"
"$BUILD/stern-book" merge -o merged.book runs/book-[1-4].part
"$BUILD/stern-book" build "${BOOK_ARGS[@]}" -o local.book > /dev/null 2> local-book.log
md5sum local.book merged.book
if cmp -s local.book merged.book; then
  echo "merged book = one-process book, byte for byte"
else
  echo "FAILED: the books differ"; status=1
fi
echo "== stern-datagen -merge of the 2 shards"
"$BUILD/stern-datagen" -merge -o merged.data runs/data-1.bin runs/data-2.bin
"$BUILD/stern-datagen" "${DATA_ARGS[@]}" -o local.data > /dev/null
if cmp -s local.data merged.data; then
  echo "merged data = one-process data, byte for byte"
else
  echo "FAILED: the data files differ"; status=1
fi
echo "== every book of a books.conf as one array job (tools/book/books-array.sh), merged by the job after it"
# a tree of two small books, submitted from its top as docs/CLUSTER.md says
mkdir -p "$W/tree/book"
printf '%s\n' '# two small books' 'classic-2 -plies 5 -width 2 -nodes 800' 'classic-3 -plies 3 -width 2 -nodes 300' \
  > "$W/tree/book/books.conf"
books_job=$(cd "$W/tree" && sbatch --parsable --array=1-4%2 --output="$W/log/books-%a.out" \
  "$TOP/tools/book/books-array.sh" "$BUILD" parts 2)
books_merge=$(cd "$W/tree" && sbatch --parsable --dependency=afterany:$books_job --output="$W/log/books-merge.out" \
  "$TOP/tools/book/books-merge.sh" "$BUILD" parts 2 out)
JOBS="$JOBS $books_job $books_merge"
for _ in $(seq 600); do
  [ -z "$(squeue -h -j "$books_job,$books_merge" 2>/dev/null)" ] && break
  sleep 0.2
done
books_ok=1
for v in classic-2 classic-3; do
  args=$(sed -n "s/^$v //p" "$W/tree/book/books.conf")
  # shellcheck disable=SC2086 # the book's options, words on purpose
  "$BUILD/stern-book" build -variant $v $args -concurrency 1 -engine "$BUILD/stern" -o "local-$v.book" > /dev/null 2>&1 ||
    echo "FAILED: the one-process build of $v"
  cmp -s "local-$v.book" "$W/tree/out/$v.bin" || books_ok=0
done
merged=$(scontrol -o show job "$books_merge" | grep -c 'JobState=COMPLETED' || true)
if [ $books_ok = 1 ] && [ "$merged" = 1 ] && [ "$(grep -c ', 0 illegal;' "$W/log/books-merge.out")" = 2 ]; then
  echo "4 tasks ($(cat "$W"/log/books-[1-4].out | grep -o '^classic-[23] shard [12]/2' | tr '\n' ',' | sed 's/,$//')), merged and verified;" \
    "each book = its one-process build, byte for byte"
else
  echo "FAILED: the books of the array job"; tail -n 5 "$W"/log/books-*.out; status=1
fi
echo "== an SPRT across a 4-task array, stopped by the watcher"
# greedy against one that crashes at its first move: every pair goes to the
# first; 1,600 games planned, the SPRT decides within a few dozen
cat > "$W/sprt.sh" <<EOF
#!/bin/bash
#SBATCH --job-name=stern-sprt
#SBATCH --array=1-4
#SBATCH --cpus-per-task=1
#SBATCH --open-mode=append
#SBATCH --output=$W/log/sprt-%a.out
cd $W/runs
exec $(q "$BUILD/stern-arena" -engine "cmd=$BUILD/stern-greedy -sleep-ms 40" name=Good \
  -engine "cmd=$BUILD/stern-greedy -crash-at 1" name=Bad -each st=0.2 -rounds 800 -quiet) \
  -shard auto/4 -pgnout sprt-\$SLURM_ARRAY_TASK_ID.pgn -resume
EOF
sprt_job=$(sbatch --parsable "$W/sprt.sh")
JOBS="$JOBS $sprt_job"
timeout 300 "$BUILD/stern-arena" -merge runs/sprt-1.pgn runs/sprt-2.pgn runs/sprt-3.pgn runs/sprt-4.pgn \
  -sprt elo0=0 elo1=50 -watch 0.5 -pgnout sprt-decided.pgn -on-decision "scancel $sprt_job" | tee sprt-watch.txt
for _ in $(seq 300); do
  [ -z "$(squeue -h -j "$sprt_job" 2>/dev/null)" ] && break
  sleep 0.2
done
cancelled=$(scontrol -o show job "$sprt_job" | grep -c 'JobState=CANCELLED' || true)
said=$(grep -o 'LLR [-0-9.]* \[[-0-9., ]*\]: H1 accepted' sprt-watch.txt || true)
recorded=$(sed -n 's/.*: \([0-9]*\) of 1600 games recorded.*H1 accepted/\1/p' sprt-watch.txt)
if [ -z "$said" ] || [ -z "$recorded" ] || [ "$recorded" -ge 800 ]; then
  echo "FAILED: the watcher decided nothing, or late"; status=1
elif [ "$cancelled" -lt 1 ]; then
  echo "FAILED: the array was not cancelled on the decision"; scontrol -o show job "$sprt_job"; status=1
elif ! "$BUILD/stern-arena" -ratings sprt-decided.pgn -sprt elo0=0 elo1=50 | grep -qF "$said"; then
  echo "FAILED: one process's SPRT over the decided games differs from the watcher's ($said)"; status=1
else
  echo "decided on $recorded of 1600 games ($said), the array cancelled ($cancelled tasks CANCELLED);" \
    "one process over the same games: the same LLR"
fi
echo "== stern-spsa as a batch job, cancelled in its second iteration and submitted again"
# the stand-in engines of tests/test_spsa.c (tests/support/spsa-standin.sh); the
# third build (iteration 2's first) waits while the file 'hold' is there, so the
# job is cancelled mid-run
SPSA_ARGS=(-param W_A=50,0,100,10,0.02 -iterations 3 -games 12 -seed 1 -arena "$BUILD/stern-arena"
  -build "sh $TOP/tests/support/spsa-standin.sh $BUILD/stern-greedy {dir} {flags}")
touch "$W/spsa-builds"
"$BUILD/stern-spsa" "${SPSA_ARGS[@]}" -workdir "$W/spsa-local" > spsa-local.txt
: > "$W/spsa-builds"
touch "$W/hold"
cat > "$W/spsa.sh" <<EOF
#!/bin/bash
#SBATCH --job-name=stern-spsa
#SBATCH --cpus-per-task=1
#SBATCH --open-mode=append
#SBATCH --output=$W/log/spsa.out
cd $W
export STANDIN_LOG=$W/spsa-builds STANDIN_HOLD=$W/hold
exec $(q "$BUILD/stern-spsa" "${SPSA_ARGS[@]}" -workdir "$W/spsa" -checkpoint "$W/spsa.ck" -resume)
EOF
spsa_job=$(sbatch --parsable "$W/spsa.sh")
JOBS="$JOBS $spsa_job"
for _ in $(seq 300); do [ "$(wc -l < "$W/spsa-builds")" -ge 3 ] && break; sleep 0.2; done
scancel "$spsa_job"
for _ in $(seq 100); do [ -z "$(squeue -h -j "$spsa_job" 2>/dev/null)" ] && break; sleep 0.2; done
rm -f "$W/hold"
spsa_job2=$(sbatch --parsable "$W/spsa.sh")
JOBS="$JOBS $spsa_job2"
for _ in $(seq 600); do [ -z "$(squeue -h -j "$spsa_job2" 2>/dev/null)" ] && break; sleep 0.2; done
if diff spsa-local.txt <(grep -E '^(iteration [0-9]+:|final:)' "$W/log/spsa.out") > /dev/null &&
  grep -q 'resuming from .*spsa.ck after iteration 1' "$W/log/spsa.out"; then
  echo "cancelled after iteration 1 and resumed by the same script: its lines (one log, appended) = the uncut run's:"
  sed 's/^/  /' spsa-local.txt
else
  echo "FAILED: the resumed tuner's lines differ from the uncut run's"; cat "$W/log/spsa.out"; cat spsa-local.txt; status=1
fi
[ $status = 0 ] && echo "test-slurm: passed"
exit $status
