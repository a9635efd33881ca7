#!/usr/bin/env python3
"""Trains the learned evaluation (docs/NNUE.md) from stern-datagen files and
writes the engine's net file.

The recipe is the chess engines' (nnue-pytorch's docs): sparse one-hot inputs
per perspective, a wide first layer shared by both views, clipped ReLUs, and
a target that blends the search's score, read as a win probability through a
sigmoid of scale K, with the game's result: target = lambda * sigmoid(score / K)
+ (1 - lambda) * result; the loss is the squared difference from
sigmoid(net / K). K is fitted to the data (the scale at which the scores best
predict the results) unless given. The weights stay within what the file's
integers hold, so the export only rounds.

usage: nnue_train.py --out NET [--epochs N] ... DATA...
"""
import argparse
import math
import sys
import time

import numpy as np
import torch

import nnue_data
import nnue_model


def fit_k(score, result):
    """The sigmoid scale (cp) at which the scores best predict the results
    (least log loss over a grid)."""
    s = score.astype(np.float64)
    r = result.astype(np.float64)
    best = None
    for k in range(25, 2001, 25):
        p = 1 / (1 + np.exp(-s / k))
        p = np.clip(p, 1e-6, 1 - 1e-6)
        loss = -np.mean(r * np.log(p) + (1 - r) * np.log(1 - p))
        if best is None or loss < best[0]:
            best = (loss, k)
    return best[1]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="+", help="stern-datagen files")
    ap.add_argument("--out", required=True, help="net file to write")
    ap.add_argument("--variants", default=None, help="variants the net serves (default: the data's)")
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--batch", type=int, default=8192)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--lam", type=float, default=0.75, help="weight of the search score in the target")
    ap.add_argument("--k", type=float, default=0, help="sigmoid scale in cp (0: fitted)")
    ap.add_argument("--l1", type=int, default=128)
    ap.add_argument("--l2", type=int, default=32)
    ap.add_argument("--out-scale", type=int, default=400)
    ap.add_argument("--val", type=float, default=0.05, help="share of positions held out (the last ones)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1, help="torch threads (1: the same file every run)")
    ap.add_argument("--limit", type=int, default=None, help="read at most this many positions")
    a = ap.parse_args(argv)

    torch.manual_seed(a.seed)
    torch.set_num_threads(a.threads)
    t0 = time.time()
    try:
        d = nnue_data.load(a.data, a.limit)
    except (OSError, nnue_data.DataError) as e:
        sys.exit(f"nnue_train: {e}")
    n = len(d["score"])
    k = a.k or fit_k(d["score"], d["result"])
    res = d["result"]
    print(f"{n} positions of {d['header']['variant']} ({time.time() - t0:.1f} s); K = {k} cp; "
          f"results: win {np.mean(res == 1):.3f} draw {np.mean(res == 0.5):.3f} loss {np.mean(res == 0):.3f}",
          flush=True)
    us = torch.from_numpy(d["us"])
    them = torch.from_numpy(d["them"])
    target = torch.from_numpy((a.lam / (1 + np.exp(-d["score"] / k)) + (1 - a.lam) * res).astype(np.float32))
    nval = max(1, int(n * a.val))
    ntrain = n - nval
    net = nnue_model.Net(planes=d["header"]["nseats"], l1=a.l1, l2=a.l2, out_scale=a.out_scale)
    opt = torch.optim.Adam(net.parameters(), lr=a.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=max(1, a.epochs))
    scale = a.out_scale / k

    def loss_of(lo, hi):
        out = net(us[lo:hi], them[lo:hi])
        return torch.mean((torch.sigmoid(out * scale) - target[lo:hi]) ** 2)

    gen = torch.Generator().manual_seed(a.seed)
    for epoch in range(a.epochs):
        net.train()
        perm = torch.randperm(ntrain, generator=gen)
        total, batches = 0.0, 0
        for i in range(0, ntrain, a.batch):
            idx = perm[i:i + a.batch]
            out = net(us[idx], them[idx])
            loss = torch.mean((torch.sigmoid(out * scale) - target[idx]) ** 2)
            opt.zero_grad()
            loss.backward()
            opt.step()
            net.clip_weights()
            total += loss.item()
            batches += 1
        sched.step()
        net.eval()
        with torch.no_grad():
            val = loss_of(ntrain, n).item()
        print(f"epoch {epoch + 1}: train {total / max(1, batches):.5f} val {val:.5f} ({time.time() - t0:.0f} s)",
              flush=True)

    q = nnue_model.quantise(net)
    variants = a.variants.split(",") if a.variants else [d["header"]["variant"]]
    size = nnue_model.write_net(a.out, q, variants)
    # the exported integers against the float net on the held-out positions
    with torch.no_grad():
        fl = (net(us[ntrain:], them[ntrain:]) * a.out_scale).numpy()
    it = nnue_model.forward_int(q, d["us"][ntrain:], d["them"][ntrain:])
    print(f"wrote {a.out} ({size} bytes, serves {','.join(variants)}); quantised minus float on {nval} "
          f"held-out positions: mean |diff| {np.mean(np.abs(it - fl)):.1f} cp; corr(net, score) "
          f"{np.corrcoef(it, d['score'][ntrain:])[0, 1]:.3f}")


if __name__ == "__main__":
    main()
