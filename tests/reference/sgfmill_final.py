#!/usr/bin/env python3
"""Final positions by an independent board implementation: sgfmill (PyPI).

For every .sgf file under ROOT, replays the first game's main line with sgfmill's Board
(setup AB/AW/AE in any node, captures, self-capture allowed, B[tt] a pass up to 19x19) and
prints one tab-separated line:

    relative/path.sgf  ok  <black points>  <white points>
    relative/path.sgf  illegal  <move number>
    relative/path.sgf  error  <message>

Points are SGF coordinates (x = column, y = row from the top), sorted, space-separated.
Used by tests/replay_reference.rs.
"""
import os
import sys
from multiprocessing import Pool

from sgfmill import boards, sgf


def sgf_point(size, row, col):
    # sgfmill counts rows from the bottom; SGF counts them from the top.
    return chr(ord("a") + col) + chr(ord("a") + size - 1 - row)


def final_position(path):
    try:
        with open(path, "rb") as f:
            game = sgf.Sgf_game.from_bytes(f.read())
        size = game.get_size()
        board = boards.Board(size)
        moves = 0
        for node in game.get_main_sequence():
            black, white, empty = node.get_setup_stones()
            if black or white or empty:
                board.apply_setup(black, white, empty)
            colour, point = node.get_move()
            if colour is None:
                continue
            moves += 1
            if point is None:
                continue
            try:
                board.play(point[0], point[1], colour)
            except ValueError:
                return ("illegal", str(moves))
        stones = {"b": [], "w": []}
        for colour, (row, col) in board.list_occupied_points():
            stones[colour].append(sgf_point(size, row, col))
        return ("ok", " ".join(sorted(stones["b"])), " ".join(sorted(stones["w"])))
    except Exception as e:  # noqa: BLE001 - every failure is a result to compare
        return ("error", type(e).__name__ + ": " + str(e).replace("\t", " ").replace("\n", " "))


def main():
    root = sys.argv[1]
    files = []
    for dirpath, _, names in os.walk(root):
        for name in names:
            if name.lower().endswith(".sgf"):
                files.append(os.path.relpath(os.path.join(dirpath, name), root))
    files.sort()
    with Pool(os.cpu_count() or 1) as pool:
        results = pool.map(final_position, [os.path.join(root, f) for f in files], chunksize=64)
    out = sys.stdout
    for rel, result in zip(files, results):
        out.write("\t".join((rel.replace(os.sep, "/"),) + result) + "\n")


if __name__ == "__main__":
    main()
