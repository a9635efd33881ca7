"""Reads stern-datagen files (format: tools/datagen_main.c, docs/NNUE.md) into
the net's inputs. Format 1 (two seats): for each position, the active input
indices of the side to move's view and of the other seat's view, the search's
score and the outcome. Formats 2 and 3 (three to six seats): every seat's
view, how many plies it waits for its move, its final place, its hand-written
standing (format 3: also at the leaf of the search's line) and whether it had
arrived, and the game each position is of.

A file that is not whole or intact, or one given twice (the same records,
under any name), is refused with the reason (ValueError).
"""
import numpy as np
import xxhash

HEADER = 1024
RECORD = 64
HOLES = 121


class DataError(ValueError):
    pass


RECORD2 = 88
RECORD3 = 100
RECORDS = {1: RECORD, 2: RECORD2, 3: RECORD3}
MULTI = (2, 3)  # the formats of three to six seats


def teacher_of(path, byte):
    """Whose standings a file holds (header byte 104): hand (the
    hand-written evaluation's) or net (the playing net's, -teacher net)."""
    if byte not in (0, 1):
        raise DataError(f"{path}: a damaged header (teacher {byte})")
    return "net" if byte else "hand"


def read_header(path, raw):
    if len(raw) < HEADER or raw[:8] != b"STERNDAT":
        raise DataError(f"{path}: not a stern-datagen file")
    h = np.frombuffer(raw[:HEADER], dtype=np.uint8)
    version = int.from_bytes(raw[8:12], "little")
    rec = int.from_bytes(raw[12:16], "little")
    if RECORDS.get(version) != rec:
        raise DataError(f"{path}: format version {version}, record {rec} bytes: this reader knows "
                        f"{', '.join(f'{v} ({r} bytes)' for v, r in RECORDS.items())}")
    variant = raw[16:40].split(b"\0")[0].decode()
    records = int.from_bytes(raw[64:72], "little")
    checksum = int.from_bytes(raw[72:80], "little")
    nseats = raw[80]
    seats = list(raw[81:81 + nseats])
    view = h[128:128 + 6 * HOLES].reshape(6, HOLES).astype(np.int64)
    want = HEADER + records * rec
    if len(raw) < want:
        raise DataError(f"{path}: truncated: {len(raw)} of {want} bytes")
    if xxhash.xxh3_64_intdigest(raw[HEADER:want]) != checksum:
        raise DataError(f"{path}: checksum mismatch (the records are damaged)")
    text = lambda a, b: raw[a:b].split(b"\0")[0].decode(errors="replace")
    return dict(variant=variant, records=records, nseats=nseats, seats=seats, view=view, version=version,
                record=rec, seed=int.from_bytes(raw[40:48], "little"), checksum=checksum,
                shard=(int.from_bytes(raw[88:92], "little"), int.from_bytes(raw[92:96], "little")),
                engine=text(864, 928) if version >= 2 else "", net=text(928, 1024) if version >= 2 else "",
                teacher=teacher_of(path, raw[104]))


def refuse_twice(seen, path, h):
    """Refuses a file whose records were read already (the same seed, shard and
    record checksum: a copy, or one shard given twice)."""
    key = (h["variant"], h["seed"], h["shard"], h["records"], h["checksum"])
    if key in seen:
        raise DataError(f"{path}: the same records as {seen[key]} (seed {h['seed']}, shard "
                        f"{h['shard'][0]}/{h['shard'][1]}): a file or shard given twice")
    seen[key] = path


def read_files(paths, versions):
    """Each file's header and records (n, record bytes), the files checked
    whole and against each other: all of `versions` ((1,): two seats, load;
    MULTI: three to six, load_multi), of one variant, none given twice. Files
    of several engines or nets (generations) may be trained on together."""
    seen, head = {}, None
    for path in paths:
        with open(path, "rb") as f:
            raw = f.read()
        h = read_header(path, raw)
        refuse_twice(seen, path, h)
        if h["version"] not in versions:
            raise DataError(f"{path}: format {h['version']} data, read by "
                            f"{'load_multi (three or more seats)' if h['version'] in MULTI else 'load (two seats)'}")
        if head and (h["variant"], h["seats"]) != (head["variant"], head["seats"]):
            raise DataError(f"{path}: {h['variant']} data, the others are {head['variant']}")
        head = head or h
        rec = h["record"]
        yield h, np.frombuffer(raw[HEADER:HEADER + h["records"] * rec], dtype=np.uint8).reshape(-1, rec)


def features(cells, stm, seats, view, slots_max=None, views=None):
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
    for offset in range(views or (2 if nseats == 2 else nseats)):
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
    for h, rec in read_files(paths, (1,)):
        head = head or h
        cells_all.append(unpack_cells(rec))
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


def unpack_cells(rec):
    """The 121 holes of records rec (n, record bytes): 0 empty, seat + 1."""
    cells = np.empty((rec.shape[0], 122), dtype=np.uint8)
    cells[:, 0::2] = rec[:, :61] & 15
    cells[:, 1::2] = rec[:, :61] >> 4
    return cells[:, :HOLES]


def load_multi(paths, limit=None):
    """All records of format-2 and format-3 `paths` (one variant of three to
    six seats), as numpy arrays over positions n and seat slots N (the
    variant's seats in turn order): idx (n, N, k) each slot's view, its input
    indices padded with N * 121; bucket (n, N) plies the slot waits for its
    move; place (n, N) final places (1 first); standing (n, N) the file's
    standings (cp: the hand-written ones, or with -teacher net the playing
    net's); leaf (n, N) the same at the leaf of the search's line (format 2,
    which has no line: the standings); depth (n,)
    the plies of that line;
    placed (n, N) whether the slot had arrived at that position; score (n,)
    the search's score of the side to move; game (n,) the game's number (whole
    games are held out by it; the file's index above bit 32); nets, the nets
    that played them and whose standings the files hold; and the header."""
    recs, head, nets, file_of = [], None, [], []
    for i, (h, rec) in enumerate(read_files(paths, MULTI)):
        head = head or h
        if h["version"] == 2:  # as format 3 with a line of no plies: its leaf is the position
            wide = np.zeros((len(rec), RECORD3), dtype=np.uint8)
            wide[:, :RECORD2] = rec
            wide[:, 88:100] = rec[:, 68:80]
            rec = wide
        recs.append(rec)
        file_of.append(np.full(len(rec), i, dtype=np.int64))
        played = f"{h['net'] or 'unnamed'} ({h['teacher']}'s standings)"
        nets += [played] if played not in nets else []
    if head is None:
        raise DataError("no data files given")
    rec = np.concatenate(recs)
    file_of = np.concatenate(file_of)
    if limit is not None:
        rec, file_of = rec[:limit], file_of[:limit]
    nseats = head["nseats"]
    seats = head["seats"]
    cells = unpack_cells(rec)
    stm = (rec[:, 61] & 15).astype(np.int64)
    score = rec[:, 62:64].copy().view(np.int16).reshape(-1).astype(np.int64)
    nib = np.stack([rec[:, 64 + i // 2] >> (4 * (i % 2)) & 15 for i in range(nseats)], axis=1).astype(np.int64)
    placed = np.stack([(rec[:, 67] >> i) & 1 for i in range(nseats)], axis=1).astype(bool)
    standing = rec[:, 68:80].copy().view(np.int16).reshape(-1, 6)[:, :nseats].astype(np.int64)
    leaf = rec[:, 88:100].copy().view(np.int16).reshape(-1, 6)[:, :nseats].astype(np.int64)
    depth = rec[:, 86].astype(np.int64)
    # a game's number within its file, made unique over the files
    game = rec[:, 80:84].copy().view(np.uint32).reshape(-1).astype(np.int64) + (file_of << 32)
    slot = np.full(8, -1, dtype=np.int64)
    for i, s in enumerate(seats):
        slot[s] = i
    if (slot[stm] < 0).any() or (nib < 1).any() or (nib > nseats).any():
        raise DataError(f"{head['variant']}: a record with a side to move or a place out of range")
    idx = []
    for i in range(nseats):  # each slot's view: the planes after it in turn order, its own board
        persp = np.full(len(stm), seats[i], dtype=np.int64)
        one, counts = features(cells, persp, seats, head["view"], slots_max=nseats * 15, views=1)
        idx.append(one[0])
    idx = np.stack(idx, axis=1)
    k = int((idx < nseats * HOLES).sum(2).max())  # the most marbles any view holds
    bucket = (np.arange(nseats)[None, :] - slot[stm][:, None]) % nseats
    return dict(idx=idx[:, :, :k].copy(), bucket=bucket, place=nib, standing=standing, leaf=leaf, depth=depth,
                placed=placed,
                score=score, game=game, stm=stm, cells=cells, header=head, nets=nets)
