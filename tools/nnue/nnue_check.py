#!/usr/bin/env python3
"""Checks that the engine's inference equals the trainer's integer forward
pass exactly: runs `stern-nnue eval NET DATA N` and compares each value with
nnue_model.forward_int (a net of three to six seats: every seat's standing
with nnue_multi.forward_int) on the same positions. Prints the count compared
and exits 1 on the first difference.

With --teacher instead of STERN_NNUE, checks that the standings three-to-six
seat data holds (stern-datagen -teacher net) are NET's: every unplaced seat's
recorded standing equals the trainer's integer pass of NET on the position.

usage: nnue_check.py STERN_NNUE NET DATA [N]
       nnue_check.py --teacher NET DATA [N]
"""
import subprocess
import sys

import numpy as np

import nnue_data
import nnue_model


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__.strip().split("\n")[-1])
    tool, net, data = sys.argv[1:4]
    n = int(sys.argv[4]) if len(sys.argv) == 5 else 1000
    q = nnue_model.read_net(net)
    if tool == "--teacher":
        check_teacher(q, data, n)
        return
    if q["version"] == 2:
        import nnue_multi
        d = nnue_data.load_multi([data], n)
        m, seats = d["idx"].shape[:2]
        want = nnue_multi.forward_int(q, d["idx"].reshape(m * seats, -1), d["bucket"].reshape(-1))
    else:
        d = nnue_data.load([data], n)
        want = nnue_model.forward_int(q, d["us"], d["them"])
    got = subprocess.run([tool, "eval", net, data, str(n)], check=True, capture_output=True, text=True).stdout
    got = np.array([int(x) for x in got.split()], dtype=np.int64)
    if len(got) != len(want):
        sys.exit(f"nnue_check: the engine gave {len(got)} values for {len(want)} positions")
    bad = np.nonzero(got != want)[0]
    if len(bad):
        i = bad[0]
        sys.exit(f"nnue_check: position {i}: engine {got[i]}, trainer {want[i]} ({len(bad)} differ)")
    print(f"nnue_check: {len(want)} {'values' if q['version'] == 2 else 'positions'}, engine equals trainer exactly "
          f"(values {want.min()} to {want.max()} cp)")


def check_teacher(q, data, n):
    """Exits 1 unless the standings of data's first n positions are net q's."""
    import nnue_multi
    if q["version"] != 2:
        sys.exit("nnue_check: --teacher takes a net of three to six seats")
    d = nnue_data.load_multi([data], n)
    m, seats = d["idx"].shape[:2]
    want = nnue_multi.forward_int(q, d["idx"].reshape(m * seats, -1), d["bucket"].reshape(-1)).reshape(m, seats)
    racing = ~d["placed"]
    bad = np.nonzero(racing & (d["standing"] != want))
    if len(bad[0]):
        i, s = bad[0][0], bad[1][0]
        sys.exit(f"nnue_check: position {i}, seat slot {s}: data {d['standing'][i, s]}, net {want[i, s]} "
                 f"({len(bad[0])} differ)")
    # at the leaf of the line (not stored): a line of no plies has the position as its leaf
    still = racing & (d["depth"] == 0)[:, None]
    bad = np.nonzero(still & (d["leaf"] != want))
    if len(bad[0]):
        i, s = bad[0][0], bad[1][0]
        sys.exit(f"nnue_check: position {i}, seat slot {s}: data at the leaf {d['leaf'][i, s]}, net {want[i, s]}")
    print(f"nnue_check: {int(racing.sum())} standings of {m} positions are the net's")


if __name__ == "__main__":
    main()
