#!/bin/sh
# tests/support/spsa-standin.sh GREEDY DIR -DW_A=V - the stand-in build of
# stern-spsa's tests (tests/test_spsa.c, tests/slurm/test-slurm.sh): writes
# DIR/stern, which is GREEDY (build/stern-greedy) when V > 50, else GREEDY
# -crash-at 1, an engine that loses every game at its first move; so a tuner's
# result depends only on W_A's sign-flipped steps. With STANDIN_LOG set, each
# build appends a line to that file, and the third build waits while the file
# STANDIN_HOLD is there (a job held in its second iteration, to be cancelled).
greedy=$1; dir=$2; v=${3#-DW_A=}
if [ -n "${STANDIN_LOG:-}" ]; then
  echo x >> "$STANDIN_LOG"
  [ "$(wc -l < "$STANDIN_LOG")" = 3 ] && while [ -e "${STANDIN_HOLD:-/nonexistent}" ]; do sleep 0.2; done
fi
mkdir -p "$dir" || exit 1
if [ "$v" -gt 50 ]; then opt=; else opt='-crash-at 1'; fi
printf '#!/bin/sh\nexec %s %s\n' "$greedy" "$opt" > "$dir/stern" && chmod +x "$dir/stern"
