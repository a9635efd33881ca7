#!/bin/sh
# The learned evaluation end to end, small (make test): stern-datagen plays a
# few self-play games, the trainer (tools/nnue) trains a small net one epoch
# and exports it, nnue_check.py finds the engine's values equal to the
# trainer's integer pass on every position, and the engine plays with it as
# EvalFile. Then a damaged copy of the net is refused and the engine still
# answers go. Usage: tests/nnue/smoke.sh BUILD_DIR [PYTHON]
set -eu
build=$1
python=${2:-/usr/bin/python3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
root=$(pwd)
"$build/stern-datagen" -o "$dir/d.bin" -games 40 -nodes 400 -seed 7 -threads 2 >/dev/null
# a resumed run writes the same file as one run, also after a kill left part
# of a game's records behind the last header (here: 200 bytes of them)
"$build/stern-datagen" -o "$dir/part.bin" -games 15 -nodes 400 -seed 7 -threads 2 >/dev/null
head -c 200 /dev/urandom >> "$dir/part.bin"
"$build/stern-datagen" -o "$dir/part.bin" -games 40 -nodes 400 -seed 7 -threads 1 -resume >/dev/null
cmp "$dir/d.bin" "$dir/part.bin" || { echo "smoke: a resumed datagen run differs from one run"; exit 1; }
# (the trainer's output taken whole, so that its failure stops the test)
trained=$(cd tools/nnue && "$python" nnue_train.py "$dir/d.bin" --out "$dir/n.nnue" --epochs 1 --l1 32 --l2 8 \
  --variants classic-2,ccerl-2 --batch 1024)
echo "$trained" | tail -1
(cd tools/nnue && "$python" nnue_check.py "$root/$build/stern-nnue" "$dir/n.nnue" "$dir/d.bin" 1000)
out=$(printf 'setoption name OwnBook value false\nsetoption name EvalFile value %s\nposition startpos\ngo nodes 3000\nisready\nquit\n' \
  "$dir/n.nnue" | "$build/stern")
echo "$out" | grep -q '^info string error' && { echo "smoke: the engine refused the trained net:"; echo "$out"; exit 1; }
echo "$out" | grep -q '^bestmove ' || { echo "smoke: no bestmove with the net"; exit 1; }
# a damaged net: refused with its reason, the hand-written evaluation answers
cp "$dir/n.nnue" "$dir/bad.nnue"
printf 'X' | dd of="$dir/bad.nnue" bs=1 seek=500 conv=notrunc 2>/dev/null
out=$(printf 'setoption name EvalFile value %s\nposition startpos\ngo nodes 1000\nisready\nquit\n' "$dir/bad.nnue" | "$build/stern")
echo "$out" | grep -q "^info string error setoption: EvalFile: $dir/bad.nnue: checksum mismatch" ||
  { echo "smoke: a damaged net was not refused:"; echo "$out"; exit 1; }
echo "$out" | grep -q '^bestmove ' || { echo "smoke: no bestmove after a refused net"; exit 1; }
# three seats (data format 3, net format 2): two shards merged are one process's
# data byte for byte; a file another engine began is not resumed; the trainer
# refuses the same data given twice; a net trained on it equals the engine's
# integers and plays
"$build/stern-datagen" -variant classic-3 -o "$dir/m.bin" -games 4 -nodes 300 -seed 9 -threads 2 >/dev/null
for k in 0 1; do
  "$build/stern-datagen" -variant classic-3 -o "$dir/m$k.bin" -games 4 -nodes 300 -seed 9 -threads 1 -shard $k/2 >/dev/null
done
"$build/stern-datagen" -merge -o "$dir/mm.bin" "$dir/m1.bin" "$dir/m0.bin" >/dev/null
cmp "$dir/m.bin" "$dir/mm.bin" || { echo "smoke: two merged shards differ from one process's data"; exit 1; }
cp "$dir/m0.bin" "$dir/other.bin"
printf 'stern-datagen exe 0000000000000000' | dd of="$dir/other.bin" bs=1 seek=864 conv=notrunc 2>/dev/null
"$build/stern-datagen" -variant classic-3 -o "$dir/other.bin" -games 4 -nodes 300 -seed 9 -shard 0/2 -resume 2>&1 |
  grep -q 'written by another engine' || { echo "smoke: another engine's data was resumed"; exit 1; }
(cd tools/nnue && "$python" nnue_train.py "$dir/m.bin" "$dir/mm.bin" --out "$dir/x.nnue" 2>&1) |
  grep -q 'a file or shard given twice' || { echo "smoke: the trainer took the same data twice"; exit 1; }
trained=$(cd tools/nnue && "$python" nnue_train.py "$dir/m.bin" --out "$dir/m.nnue" --epochs 1 --l1 32 --l2 8 --batch 256)
echo "$trained" | tail -1
(cd tools/nnue && "$python" nnue_check.py "$root/$build/stern-nnue" "$dir/m.nnue" "$dir/m.bin" 100000)
out=$(printf 'setoption name Variant value classic-3\nsetoption name EvalFile value %s\nposition startpos\ngo nodes 3000\nresult\nquit\n' \
  "$dir/m.nnue" | "$build/stern")
echo "$out" | grep -q '^info string' && { echo "smoke: the engine refused the three-seat net:"; echo "$out"; exit 1; }
echo "$out" | grep -q '^bestmove ' || { echo "smoke: no bestmove with the three-seat net"; exit 1; }
# -teacher net: the records hold the playing net's standings (and the
# hand-written data above does not pass the same check)
"$build/stern-datagen" -variant classic-3 -o "$dir/t.bin" -games 2 -nodes 300 -seed 5 -threads 2 -net "$dir/m.nnue" \
  -teacher net >/dev/null
(cd tools/nnue && "$python" nnue_check.py --teacher "$dir/m.nnue" "$dir/t.bin" 100000)
(cd tools/nnue && "$python" nnue_check.py --teacher "$dir/m.nnue" "$dir/m.bin" 100000 2>/dev/null) &&
  { echo "smoke: hand-written standings passed for the net's"; exit 1; }
# every shipped net: the engine's integers equal the trainer's on positions
# of the first variant it serves (a few self-play games)
for net in nets/*.nnue; do
  [ -e "$net" ] || continue
  v=$("$build/stern-nnue" info "$net" | sed -n 's/.*a Stern net for \([a-z0-9-]*\).*/\1/p')
  [ -n "$v" ] || { echo "smoke: stern-nnue info names no variant for $net"; exit 1; }
  "$build/stern-datagen" -variant "$v" -o "$dir/ship-$v.bin" -games 3 -nodes 300 -seed 5 -threads 2 >/dev/null
  (cd tools/nnue && "$python" nnue_check.py "$root/$build/stern-nnue" "$root/$net" "$dir/ship-$v.bin" 100000)
done
echo "nnue smoke: data, training, export, exact inference and play all pass (two and three seats, the shipped nets)"
