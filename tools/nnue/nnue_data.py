"""Reads stern-datagen files (format: tools/datagen_main.c, docs/NNUE.md) into
the net's inputs: for each position, the active input indices of the side to
move's view and of the other seat's view, the search's score and the outcome.

A file that is not whole or intact is refused with the reason (ValueError).
"""
import numpy as np
import xxhash

HEADER = 1024
RECORD = 64
HOLES = 121


class DataError(ValueError):
    pass


def read_header(path, raw):
    if len(raw) < HEADER or raw[:8] != b"STERNDAT":
        raise DataError(f"{path}: not a stern-datagen file")
    h = np.frombuffer(raw[:HEADER], dtype=np.uint8)
    version = int.from_bytes(raw[8:12], "little")
    rec = int.from_bytes(raw[12:16], "little")
    if version != 1 or rec != RECORD:
        raise DataError(f"{path}: format version {version}, record {rec} bytes: this reader knows 1, {RECORD}")
    variant = raw[16:40].split(b"\0")[0].decode()
    records = int.from_bytes(raw[64:72], "little")
    checksum = int.from_bytes(raw[72:80], "little")
    nseats = raw[80]
    seats = list(raw[81:81 + nseats])
    view = h[128:128 + 6 * HOLES].reshape(6, HOLES).astype(np.int64)
    want = HEADER + records * RECORD
    if len(raw) < want:
        raise DataError(f"{path}: truncated: {len(raw)} of {want} bytes")
    if xxhash.xxh3_64_intdigest(raw[HEADER:want]) != checksum:
        raise DataError(f"{path}: checksum mismatch (the records are damaged)")
    return dict(variant=variant, records=records, nseats=nseats, seats=seats, view=view)


def features(cells, stm, seats, view, slots_max=None):
    """Input indices of each position from the view of `persp` (per record
    seat): plane (0 own, then the seats after it in turn order) * 121 + the
    hole turned to that seat's view. cells: (n, 121) 0 empty / seat + 1;
    returns for the side to move and for the seat after it, (n, k) int64 arrays
    padded with the index planes * 121 (a zero row)."""
    n = cells.shape[0]
    nseats = len(seats)
    slot = np.full(8, -1, dtype=np.int64)
    for i, s in enumerate(seats):
        slot[s] = i
    owner = cells.astype(np.int64) - 1  # -1 empty
    occupied = (owner >= 0) & (owner < 6)
    counts = occupied.sum(1)
    k = int(counts.max()) if slots_max is None else slots_max
    pad = nseats * HOLES
    out = []
    stm_slot = slot[stm]
    for offset in range(2 if nseats == 2 else nseats):
        persp = np.array(seats, dtype=np.int64)[(stm_slot + offset) % nseats]
        own_slot = np.where(occupied, slot[np.clip(owner, 0, 7)], 0)
        plane = (own_slot - slot[persp][:, None]) % nseats
        holes = view[persp][:, :]  # (n, 121): the hole in that view
        idx = plane * HOLES + holes
        idx = np.where(occupied, idx, pad)
        # the occupied entries first, in hole order
        order = np.argsort(~occupied, axis=1, kind="stable")[:, :k]
        out.append(np.take_along_axis(idx, order, axis=1))
    return out, counts


def load(paths, limit=None):
    """All records of `paths` (one variant), as a dict of numpy arrays:
    us, them (input indices), score (int, side to move's view, centi-moves),
    result (0 loss, 0.5 draw, 1 win for the side to move), and the header."""
    cells_all, stm_all, score_all, out_all = [], [], [], []
    head = None
    for path in paths:
        with open(path, "rb") as f:
            raw = f.read()
        h = read_header(path, raw)
        if head and (h["variant"], h["seats"]) != (head["variant"], head["seats"]):
            raise DataError(f"{path}: {h['variant']} data, the others are {head['variant']}")
        head = head or h
        rec = np.frombuffer(raw[HEADER:HEADER + h["records"] * RECORD], dtype=np.uint8).reshape(-1, RECORD)
        cells = np.empty((rec.shape[0], 122), dtype=np.uint8)
        cells[:, 0::2] = rec[:, :61] & 15
        cells[:, 1::2] = rec[:, :61] >> 4
        cells_all.append(cells[:, :HOLES])
        stm_all.append((rec[:, 61] & 15).astype(np.int64))
        out_all.append((rec[:, 61] >> 4).astype(np.int64))
        score_all.append(rec[:, 62:64].copy().view(np.int16).reshape(-1).astype(np.int64))
    if head is None:
        raise DataError("no data files given")
    cells = np.concatenate(cells_all)
    stm = np.concatenate(stm_all)
    score = np.concatenate(score_all)
    outcome = np.concatenate(out_all)
    if limit is not None:
        cells, stm, score, outcome = cells[:limit], stm[:limit], score[:limit], outcome[:limit]
    if head["nseats"] != 2:
        raise DataError(f"{head['variant']}: only two-seat data is trained so far")
    (us, them), counts = features(cells, stm, head["seats"], head["view"])
    if (counts > 20).any() or (counts < 20).any():
        raise DataError("a two-seat race position without 20 marbles")
    result = outcome.astype(np.float32) / 2.0
    return dict(us=us, them=them, score=score, result=result, cells=cells, stm=stm, header=head)
