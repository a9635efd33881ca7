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
(cd tools/nnue && "$python" nnue_train.py "$dir/d.bin" --out "$dir/n.nnue" --epochs 1 --l1 32 --l2 8 \
  --variants classic-2,ccerl-2 --batch 1024) | tail -1
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
echo "nnue smoke: data, training, export, exact inference and play all pass"
