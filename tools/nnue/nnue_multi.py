"""The net of three to six seats (net format version 2, docs/NNUE.md): every
seat's standing from its own view, in PyTorch (float, for training), its
export to the engine's integer file, and the engine's integer pass in numpy,
which must equal the C code's exactly.

A seat's view is the accumulator of version 1 (the planes in turn order after
the seat, the board turned to its home); its standing is

    b3[k] + lin(view) + w3[k] . clip(w2[k] . clip(view) + b2[k])

where k, the bucket, is how many plies the seat waits for its move (0 when it
is to move): each bucket has its own second and output layers, so the tempo
of the seats is read without a second view. Standings are centi-moves, higher
is better; the search compares them between seats (engine/eval/places.h).
"""
import struct

import numpy as np
import torch
import xxhash

import nnue_model

HOLES = nnue_model.HOLES
QA, QB, QO = nnue_model.QA, nnue_model.QB, nnue_model.QO
VERSION = 2
MARBLES_PER_SEAT = 15  # the engine's overflow check allows seats x 15 active inputs per view
B1_MAX = 4.0


def bounds(seats):
    """Float bounds of the weights, so that no position can take the engine's
    integer sums out of their types (engine/eval/nnue/format.c, sums_fit)."""
    active = seats * MARBLES_PER_SEAT
    w1 = (32767 / QA - B1_MAX) / active
    lin = (2 ** 30 / (QA * QO)) / active
    return dict(w1=w1, lin=lin, b1=B1_MAX, b2=2 ** 30 / (QA * QB), w2=127 / QB, w3=32767 / QO)


class MultiNet(torch.nn.Module):
    def __init__(self, seats, l1=64, l2=16, out_scale=400):
        super().__init__()
        self.seats, self.l1, self.l2, self.out_scale = seats, l1, l2, out_scale
        self.planes = seats
        self.inputs = seats * HOLES
        self.ft = torch.nn.Embedding(self.inputs + 1, l1, padding_idx=self.inputs)
        self.b1 = torch.nn.Parameter(torch.zeros(l1))
        self.lin = torch.nn.Embedding(self.inputs + 1, 1, padding_idx=self.inputs)
        self.w2 = torch.nn.Parameter(torch.empty(seats, l2, l1))
        self.b2 = torch.nn.Parameter(torch.zeros(seats, l2))
        self.w3 = torch.nn.Parameter(torch.empty(seats, l2))
        self.b3 = torch.nn.Parameter(torch.zeros(seats))
        with torch.no_grad():
            self.ft.weight.normal_(0, 0.05)
            self.ft.weight[self.inputs].zero_()
            self.b1.fill_(0.25)
            self.lin.weight.zero_()
            self.w2.uniform_(-1 / l1 ** 0.5, 1 / l1 ** 0.5)
            self.w3.uniform_(-1 / l2 ** 0.5, 1 / l2 ** 0.5)

    def forward(self, idx, bucket):
        """Standings / out_scale of views idx (n, k input indices, padded with
        `inputs`) waiting `bucket` (n,) plies for their move."""
        a = (self.ft(idx).sum(1) + self.b1).clamp(0, 1)
        h = (torch.einsum("nj,nmj->nm", a, self.w2[bucket]) + self.b2[bucket]).clamp(0, 1)
        return (h * self.w3[bucket]).sum(1) + self.b3[bucket] + self.lin(idx).sum(1).squeeze(1)

    def clip_weights(self):
        b = bounds(self.seats)
        with torch.no_grad():
            self.ft.weight.clamp_(-b["w1"], b["w1"])
            self.b1.clamp_(-b["b1"], b["b1"])
            self.lin.weight.clamp_(-b["lin"], b["lin"])
            self.b2.clamp_(-b["b2"], b["b2"])
            self.w2.clamp_(-b["w2"], b["w2"])
            self.w3.clamp_(-b["w3"], b["w3"])


def quantise(net):
    """The integer arrays of the file, as numpy."""
    r = lambda t: np.rint(t.detach().numpy().astype(np.float64))
    return dict(w1=r(net.ft.weight[:net.inputs] * QA).astype(np.int16), b1=r(net.b1 * QA).astype(np.int16),
                lin=r(net.lin.weight[:net.inputs, 0] * QA * QO).astype(np.int32),
                w2=np.clip(r(net.w2 * QB), -128, 127).astype(np.int8), b2=r(net.b2 * QA * QB).astype(np.int32),
                w3=np.clip(r(net.w3 * QO), -32768, 32767).astype(np.int16), b3=r(net.b3 * QA * QO).astype(np.int32),
                planes=net.seats, l1=net.l1, l2=net.l2, out_scale=net.out_scale, version=VERSION)


def write_net(path, q, variants):
    names = ",".join(variants).encode()
    if len(names) > nnue_model.FAMILIES:
        raise ValueError("variant list too long")
    head = nnue_model.MAGIC + struct.pack("<IIIIiI", VERSION, q["planes"], q["l1"], q["l2"], q["out_scale"], 0)
    head += names.ljust(nnue_model.FAMILIES, b"\0")
    assert len(head) == nnue_model.HEADER
    body = (q["w1"].astype("<i2").tobytes() + q["b1"].astype("<i2").tobytes() + q["lin"].astype("<i4").tobytes() +
            q["w2"].astype("i1").tobytes() + q["b2"].astype("<i4").tobytes() + q["w3"].astype("<i2").tobytes() +
            q["b3"].astype("<i4").tobytes())
    data = head + body
    data += struct.pack("<Q", xxhash.xxh3_64_intdigest(data))
    with open(path, "wb") as f:
        f.write(data)
    return len(data)


def read_body(data, planes, l1, l2):
    """The arrays of a version-2 file's body (after the 96-byte header)."""
    at = nnue_model.HEADER

    def take(dtype, count):
        nonlocal at
        a = np.frombuffer(data, dtype=dtype, count=count, offset=at)
        at += a.nbytes
        return a
    n, b = planes * HOLES, planes
    return dict(w1=take("<i2", n * l1).reshape(n, l1), b1=take("<i2", l1), lin=take("<i4", n),
                w2=take("i1", b * l2 * l1).reshape(b, l2, l1), b2=take("<i4", b * l2).reshape(b, l2),
                w3=take("<i2", b * l2).reshape(b, l2), b3=take("<i4", b))


def forward_int(q, idx, bucket):
    """The engine's integer standings (engine/eval/nnue/forward.c, version 2) of
    views idx (n, k; index planes * 121 is padding) in buckets (n,): int64 (n,) cp."""
    n_in = q["planes"] * HOLES
    assert (idx <= n_in).all()
    w1 = np.vstack([q["w1"].astype(np.int64), np.zeros((1, q["l1"]), dtype=np.int64)])
    a = w1[idx].sum(1) + q["b1"].astype(np.int64)
    assert (np.abs(a) < 32768).all(), "first-layer sum out of int16"
    x = np.clip(a, 0, 127)
    w2 = q["w2"].astype(np.int64)[bucket]  # (n, l2, l1)
    h = np.einsum("nj,nmj->nm", x, w2) + q["b2"].astype(np.int64)[bucket]
    h = np.clip(h >> 6, 0, 127)
    lin = np.concatenate([q["lin"].astype(np.int64), np.zeros(1, dtype=np.int64)])
    out = (h * q["w3"].astype(np.int64)[bucket]).sum(1) + q["b3"].astype(np.int64)[bucket] + lin[idx].sum(1)
    num = out * q["out_scale"]
    v = np.sign(num) * (np.abs(num) // (QA * QO))  # C's division truncates toward zero
    return np.clip(v, -nnue_model.VALUE_MAX, nnue_model.VALUE_MAX)
