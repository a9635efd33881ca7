"""The net of engine/eval/nnue/nnue.h in PyTorch (float, for training), its export
to the engine's integer file, and the engine's integer forward pass in numpy,
which must equal the C code's exactly (docs/NNUE.md)."""
import struct

import numpy as np
import torch
import xxhash

HOLES = 121
QA, QB, QO = 127, 64, 256
MAGIC = b"STERNNUE"
VERSION = 1
FAMILIES = 64
HEADER = 96
VALUE_MAX = 28999  # NNUE_VALUE_MAX: the engine's values stay below its mate scores

# What the file's integers can hold, as float bounds the trainer keeps the
# weights within (quantisation-aware: the export only rounds).
W2_MAX = 127 / QB
W3_MAX = 32767 / QO
W1_MAX = (32767 / QA) / 24  # 20 marbles and a bias never leave int16
# the engine's load checks (engine/eval/nnue/format.c, sums_fit) for up to 30 active inputs
B1_MAX = 16.0
LIN_MAX = (2 ** 30 / (QA * QO)) / 30
B2_MAX = 2 ** 30 / (QA * QB)


class Net(torch.nn.Module):
    def __init__(self, planes=2, l1=128, l2=32, out_scale=400):
        super().__init__()
        self.planes, self.l1, self.l2, self.out_scale = planes, l1, l2, out_scale
        self.inputs = planes * HOLES
        # one extra zero row: the padding index of data with fewer marbles
        self.ft = torch.nn.Embedding(self.inputs + 1, l1, padding_idx=self.inputs)
        self.b1 = torch.nn.Parameter(torch.zeros(l1))
        # the linear path: a weight per input, half the views' difference added to the output
        self.lin = torch.nn.Embedding(self.inputs + 1, 1, padding_idx=self.inputs)
        self.fc2 = torch.nn.Linear(2 * l1, l2)
        self.fc3 = torch.nn.Linear(l2, 1)
        with torch.no_grad():
            self.ft.weight.normal_(0, 0.05)
            self.ft.weight[self.inputs].zero_()
            self.b1.fill_(0.25)
            self.lin.weight.zero_()

    def forward(self, us, them):
        a = self.ft(us).sum(1) + self.b1
        b = self.ft(them).sum(1) + self.b1
        x = torch.cat([a.clamp(0, 1), b.clamp(0, 1)], dim=1)
        h = self.fc2(x).clamp(0, 1)
        linear = (self.lin(us).sum(1) - self.lin(them).sum(1)) / 2
        return (self.fc3(h) + linear).squeeze(1)  # cp / out_scale

    def clip_weights(self):
        with torch.no_grad():
            self.ft.weight.clamp_(-W1_MAX, W1_MAX)
            self.b1.clamp_(-B1_MAX, B1_MAX)
            self.lin.weight.clamp_(-LIN_MAX, LIN_MAX)
            self.fc2.bias.clamp_(-B2_MAX, B2_MAX)
            self.fc2.weight.clamp_(-W2_MAX, W2_MAX)
            self.fc3.weight.clamp_(-W3_MAX, W3_MAX)


def quantise(net):
    """The integer arrays of the file, as numpy."""
    r = lambda t: np.rint(t.detach().numpy().astype(np.float64))
    w1 = r(net.ft.weight[:net.inputs] * QA).astype(np.int16)
    b1 = r(net.b1 * QA).astype(np.int16)
    lin = r(net.lin.weight[:net.inputs, 0] * QA * QO).astype(np.int32)
    w2 = np.clip(r(net.fc2.weight * QB), -128, 127).astype(np.int8)
    b2 = r(net.fc2.bias * QA * QB).astype(np.int32)
    w3 = np.clip(r(net.fc3.weight[0] * QO), -32768, 32767).astype(np.int16)
    b3 = np.int32(r(net.fc3.bias * QA * QO)[0])
    return dict(w1=w1, b1=b1, lin=lin, w2=w2, b2=b2, w3=w3, b3=b3, planes=net.planes, l1=net.l1, l2=net.l2,
                out_scale=net.out_scale)


def write_net(path, q, variants):
    names = ",".join(variants).encode()
    if len(names) > FAMILIES:
        raise ValueError("variant list too long")
    head = MAGIC + struct.pack("<IIIIiI", VERSION, q["planes"], q["l1"], q["l2"], q["out_scale"], 0)
    head += names.ljust(FAMILIES, b"\0")
    assert len(head) == HEADER
    body = (q["w1"].astype("<i2").tobytes() + q["b1"].astype("<i2").tobytes() + q["lin"].astype("<i4").tobytes() +
            q["w2"].astype("i1").tobytes() +
            q["b2"].astype("<i4").tobytes() + q["w3"].astype("<i2").tobytes() + struct.pack("<i", int(q["b3"])))
    data = head + body
    data += struct.pack("<Q", xxhash.xxh3_64_intdigest(data))
    with open(path, "wb") as f:
        f.write(data)
    return len(data)


def read_net(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != MAGIC:
        raise ValueError(f"{path}: not a Stern net")
    if xxhash.xxh3_64_intdigest(data[:-8]) != struct.unpack("<Q", data[-8:])[0]:
        raise ValueError(f"{path}: checksum mismatch")
    version, planes, l1, l2, out_scale, _ = struct.unpack("<IIIIiI", data[8:32])
    variants = data[32:96].split(b"\0")[0].decode().split(",")
    if version == 2:  # three to six seats: nnue_multi.py
        import nnue_multi
        q = nnue_multi.read_body(data, planes, l1, l2)
        q.update(planes=planes, l1=l1, l2=l2, out_scale=out_scale, variants=variants, version=version)
        return q
    at = HEADER
    def take(dtype, count):
        nonlocal at
        a = np.frombuffer(data, dtype=dtype, count=count, offset=at)
        at += a.nbytes
        return a
    n = planes * HOLES
    w1 = take("<i2", n * l1).reshape(n, l1)
    b1 = take("<i2", l1)
    lin = take("<i4", n)
    w2 = take("i1", l2 * 2 * l1).reshape(l2, 2 * l1)
    b2 = take("<i4", l2)
    w3 = take("<i2", l2)
    b3 = take("<i4", 1)[0]
    return dict(w1=w1, b1=b1, lin=lin, w2=w2, b2=b2, w3=w3, b3=b3, planes=planes, l1=l1, l2=l2, out_scale=out_scale,
                variants=variants, version=version)


def forward_int(q, us, them):
    """The engine's integer forward pass (engine/eval/nnue/forward.c) for input index arrays
    (n, k) of the side to move's and the other seat's view (index planes * 121
    is padding): centi-moves for the side to move, int64 (n,)."""
    n_in = q["planes"] * HOLES
    w1 = np.vstack([q["w1"].astype(np.int64), np.zeros((1, q["l1"]), dtype=np.int64)])
    def acc(idx):
        a = w1[idx].sum(1) + q["b1"].astype(np.int64)
        # the engine sums in int16: the trainer keeps the weights where it cannot wrap
        assert (np.abs(a) < 32768).all(), "first-layer sum out of int16"
        return np.clip(a, 0, 127)
    assert (us <= n_in).all() and (them <= n_in).all()
    x = np.concatenate([acc(us), acc(them)], axis=1)
    h = x @ q["w2"].astype(np.int64).T + q["b2"].astype(np.int64)
    h = np.clip(h >> 6, 0, 127)
    lin = np.concatenate([q["lin"].astype(np.int64), np.zeros(1, dtype=np.int64)])
    linear = (lin[us].sum(1) - lin[them].sum(1)) >> 1  # rounded down, as the engine's shift
    out = h @ q["w3"].astype(np.int64) + np.int64(q["b3"]) + linear
    num = out * q["out_scale"]
    den = QA * QO
    v = np.sign(num) * (np.abs(num) // den)  # C's division truncates toward zero
    return np.clip(v, -VALUE_MAX, VALUE_MAX)
