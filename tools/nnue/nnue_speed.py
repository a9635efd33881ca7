#!/usr/bin/env python3
"""Speed of the learned evaluation against the hand-written one: searches
each position of a FEN file for MS milliseconds with EvalFile none and with
the net, alternately (the machine's load falls on both alike), and prints
the nodes per second and the depth reached of each, and their ratio.

usage: nnue_speed.py STERN NET FENS [MS]
"""
import statistics
import subprocess
import sys


class Engine:
    def __init__(self, cmd, evalfile):
        self.p = subprocess.Popen([cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("setoption name OwnBook value false")
        self.send(f"setoption name EvalFile value {evalfile}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, prefix):
        lines = []
        for line in self.p.stdout:
            lines.append(line.strip())
            if line.startswith("info string error"):
                sys.exit(f"nnue_speed: {line.strip()}")
            if line.startswith(prefix):
                return lines
        sys.exit("nnue_speed: the engine ended")

    def search(self, fen, ms):
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send(f"go movetime {ms}")
        last = None
        for line in self.wait("bestmove"):
            if line.startswith("info depth") and " nps " in line:
                last = line.split()
        if not last:
            return None
        return int(last[last.index("depth") + 1]), int(last[last.index("nps") + 1])

    def close(self):
        self.send("quit")
        self.p.wait()


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__.strip().split("\n")[-1])
    stern, net, fens = sys.argv[1:4]
    ms = int(sys.argv[4]) if len(sys.argv) == 5 else 1000
    with open(fens) as f:
        positions = [line.strip() for line in f if line.strip()]
    engines = {"hand-written": Engine(stern, "none"), "net": Engine(stern, net)}
    got = {k: [] for k in engines}
    for fen in positions:
        for name, e in engines.items():
            r = e.search(fen, ms)
            if r:
                got[name].append(r)
    for e in engines.values():
        e.close()
    for name, rs in got.items():
        print(f"{name}: {len(rs)} positions, {ms} ms each: mean depth {statistics.mean(d for d, _ in rs):.2f}, "
              f"median nodes/s {statistics.median(n for _, n in rs):,.0f}")
    hand = statistics.median(n for _, n in got["hand-written"])
    netn = statistics.median(n for _, n in got["net"])
    print(f"net / hand-written nodes per second: {netn / hand:.2f}")


if __name__ == "__main__":
    main()
