#!/usr/bin/env python3
"""ps-histcraft.py DB RUN SIDE SHAPE [SIZE]: put a hand-made snapshot into a
pipescope history, as a hostile file could hold one (issue 24).

SHAPE is what the snapshot's JSON looks like once inflated:
  zeros      one object holding one array of SIZE bytes of "0,0,..." (the
             issue's 16 MiB record that is 16 KB on disk)
  ints       as zeros, up to the record's value bound
  members    one object of short distinct keys, each a number
  objects    an array of empty objects (the costliest value: a table each)
  strings    an array of short strings
  liar       zlib data that inflates to far more than the size it claims
SIZE is the inflated text's length in bytes (default 4 MiB, just within what
one part may be). The row is replaced when the run has one for SIDE (0: this
end, 1: the far end).
"""
import sqlite3
import sys
import zlib


def text(shape, size):
    if shape in ("zeros", "ints", "liar"):
        n = (size - 10) // 2
        return '{"a":[' + ",".join(["0"] * n) + "]}"
    if shape == "members":
        parts, used, i = [], 2, 0
        while True:
            p = '"k%x":%d' % (i, i % 10)
            if used + len(p) + 1 > size:
                break
            parts.append(p)
            used += len(p) + 1
            i += 1
        return "{" + ",".join(parts) + "}"
    if shape == "objects":
        n = (size - 10) // 3
        return '{"a":[' + ",".join(["{}"] * n) + "]}"
    if shape == "strings":
        n = (size - 10) // 4
        return '{"a":[' + ",".join(['"x"'] * n) + "]}"
    raise SystemExit("unknown shape " + shape)


def main():
    if len(sys.argv) < 5:
        raise SystemExit(__doc__)
    db, run, side, shape = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    size = int(sys.argv[5]) if len(sys.argv) > 5 else 4 << 20
    t = text(shape, size).encode()
    data = zlib.compress(t, 9)
    claimed = len(t)
    if shape == "liar":
        claimed = 4096
    c = sqlite3.connect(db)
    c.execute("DELETE FROM snapshots WHERE run = ? AND side = ?", (run, side))
    c.execute(
        "INSERT INTO snapshots (run, side, encoding, size, data) VALUES (?, ?, 'zlib', ?, ?)",
        (run, side, claimed, data),
    )
    c.commit()
    print(len(t), len(data))


main()
