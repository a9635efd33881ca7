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


def train_epochs(net, a, loss_on, train_idx, val_idx, t0):
    """Adam with a cosine learning rate over a.epochs: each epoch the rows
    train_idx in a random order (a.seed's), a.batch at a time, the weights
    clipped after each step to what the file's integers hold; then the loss
    on the rows val_idx, printed."""
    opt = torch.optim.Adam(net.parameters(), lr=a.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=max(1, a.epochs))
    gen = torch.Generator().manual_seed(a.seed)
    for epoch in range(a.epochs):
        net.train()
        perm = train_idx[torch.randperm(len(train_idx), generator=gen)]
        total, batches = 0.0, 0
        for i in range(0, len(perm), a.batch):
            loss = loss_on(perm[i:i + a.batch])
            opt.zero_grad()
            loss.backward()
            opt.step()
            net.clip_weights()
            total += loss.item()
            batches += 1
        sched.step()
        net.eval()
        with torch.no_grad():
            val = loss_on(val_idx).item()
        print(f"epoch {epoch + 1}: train {total / max(1, batches):.5f} val {val:.5f} ({time.time() - t0:.0f} s)",
              flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="+", help="stern-datagen files")
    ap.add_argument("--out", required=True, help="net file to write")
    ap.add_argument("--variants", default=None, help="variants the net serves (default: the data's)")
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--batch", type=int, default=8192)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--lam", type=float, default=0.75, help="weight of the search score in the target")
    ap.add_argument("--teacher", choices=("leaf", "static"), default="leaf",
                    help="three to six seats: the standings the net learns (the hand-written ones, or "
                         "with stern-datagen -teacher net the playing net's), at the leaf of the "
                         "search's line (format 3 data) or at the position itself")
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
        with open(a.data[0], "rb") as f:  # the format decides the net: versions 2 and 3 have 3-6 seats
            version = int.from_bytes(f.read(12)[8:12], "little")
        if version in nnue_data.MULTI:
            return train_multi(a, nnue_data.load_multi(a.data, a.limit), t0)
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
    scale = a.out_scale / k

    def loss_of(idx):
        out = net(us[idx], them[idx])
        return torch.mean((torch.sigmoid(out * scale) - target[idx]) ** 2)

    train_epochs(net, a, lambda idx: loss_of(idx), torch.arange(ntrain), torch.arange(ntrain, n), t0)

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


def pairs_of(nseats):
    return [(i, j) for i in range(nseats) for j in range(i + 1, nseats)]


def fit_k_pairs(standing, place, placed):
    """The sigmoid scale (cp) at which differences of the data's standings
    best predict which of two seats still racing finishes ahead (least log
    loss over a grid; shared places count half)."""
    diffs, wins = [], []
    for i, j in pairs_of(standing.shape[1]):
        open_ = ~placed[:, i] & ~placed[:, j]
        diffs.append((standing[open_, i] - standing[open_, j]).astype(np.float64))
        wins.append(np.where(place[open_, i] < place[open_, j], 1.0,
                             np.where(place[open_, i] == place[open_, j], 0.5, 0.0)))
    return fit_k(np.concatenate(diffs), np.concatenate(wins))


def train_multi(a, d, t0):
    """Three to six seats (nnue_multi.py): every seat's standing from its view,
    trained on pairs of seats still racing: sigmoid((y_i - y_j) / K) against
    lambda * sigmoid((standing_i - standing_j) / K) + (1 - lambda) * (1 if i
    finished ahead of j, 0.5 level, else 0), the standings those at the leaf
    of the search's line (--teacher leaf) or at the position (static). Whole
    games are held out: the last --val share of the games."""
    import nnue_multi
    head = d["header"]
    nseats = head["nseats"]
    idx, bucket, place, placed = d["idx"], d["bucket"], d["place"], d["placed"]
    standing = d["standing"]
    teach = d["leaf"] if a.teacher == "leaf" else standing
    n = len(idx)
    k = a.k or fit_k_pairs(teach, place, placed)
    games = np.unique(d["game"])
    nval_games = max(1, int(len(games) * a.val))
    val_mask = np.isin(d["game"], games[-nval_games:])
    train_rows, val_rows = np.nonzero(~val_mask)[0], np.nonzero(val_mask)[0]
    print(f"{n} positions of {head['variant']} in {len(games)} games ({time.time() - t0:.1f} s), played with "
          f"net {', '.join(d['nets'])}; teacher: standings {'at the line leaf (mean depth %.2f plies)' % d['depth'].mean() if a.teacher == 'leaf' else 'static'}; K = {k} cp; "
          f"{nval_games} games ({len(val_rows)} positions) held out", flush=True)
    pairs = pairs_of(nseats)
    pi = torch.tensor([i for i, _ in pairs])
    pj = torch.tensor([j for _, j in pairs])
    idx_t = torch.from_numpy(idx)
    bucket_t = torch.from_numpy(bucket)
    place_t = torch.from_numpy(place)
    open_t = torch.from_numpy(~placed)
    st = torch.from_numpy(teach.astype(np.float32))
    net = nnue_multi.MultiNet(nseats, l1=a.l1, l2=a.l2, out_scale=a.out_scale)
    scale = a.out_scale / k

    def loss_of(rows):
        m = len(rows)
        y = net(idx_t[rows].reshape(m * nseats, -1), bucket_t[rows].reshape(-1)).reshape(m, nseats)
        pred = torch.sigmoid((y[:, pi] - y[:, pj]) * scale)
        pa, pb = place_t[rows][:, pi], place_t[rows][:, pj]
        outcome = torch.where(pa < pb, 1.0, torch.where(pa == pb, 0.5, 0.0))
        teacher = torch.sigmoid((st[rows][:, pi] - st[rows][:, pj]) / k)
        target = a.lam * teacher + (1 - a.lam) * outcome
        w = (open_t[rows][:, pi] & open_t[rows][:, pj]).float()
        return ((pred - target) ** 2 * w).sum() / w.sum().clamp(min=1)

    train_epochs(net, a, loss_of, torch.from_numpy(train_rows), torch.from_numpy(val_rows), t0)
    q = nnue_multi.quantise(net)
    variants = a.variants.split(",") if a.variants else [head["variant"]]
    size = nnue_multi.write_net(a.out, q, variants)
    rows = val_rows
    with torch.no_grad():
        fl = (net(idx_t[rows].reshape(len(rows) * nseats, -1), bucket_t[rows].reshape(-1)) * a.out_scale).numpy()
    it = nnue_multi.forward_int(q, idx[rows].reshape(len(rows) * nseats, -1), bucket[rows].reshape(-1))
    # how often the net orders two seats still racing as they finished, against the data's standings
    y = it.reshape(len(rows), nseats)
    agree_net, agree_hand, agree_leaf, count = 0, 0, 0, 0
    for i, j in pairs:
        m = ~placed[rows, i] & ~placed[rows, j] & (place[rows, i] != place[rows, j])
        ahead = place[rows, i][m] < place[rows, j][m]
        agree_net += np.sum((y[m, i] > y[m, j]) == ahead)
        agree_hand += np.sum((standing[rows, i][m] > standing[rows, j][m]) == ahead)
        agree_leaf += np.sum((d["leaf"][rows, i][m] > d["leaf"][rows, j][m]) == ahead)
        count += m.sum()
    who = "hand-written" if all(n.endswith("(hand's standings)") for n in d["nets"]) else "the data's"
    print(f"wrote {a.out} ({size} bytes, serves {','.join(variants)}); quantised minus float on the held-out "
          f"views: mean |diff| {np.mean(np.abs(it - fl)):.1f} cp; pairs ordered as they finished: net "
          f"{agree_net / max(1, count):.3f}, {who} {agree_hand / max(1, count):.3f}, {who} at the line "
          f"leaf {agree_leaf / max(1, count):.3f} ({count} pairs)")


if __name__ == "__main__":
    main()
