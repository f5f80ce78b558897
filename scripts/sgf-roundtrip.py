#!/usr/bin/env python3
"""Checks that the SGF `show --sgf` writes is one a Go editor counts as the tool counted it.

Picks counted professional games: every third line of tests/fixtures/pro-score-sample.txt
(100 games over its three eras), then the first 10 files (sorted) of pro/games with
RU[Chinese] and a counted RE, and the first 10 with HA[2-9] and a counted RE. Writes each
with `livingblocks show FILE --sgf OUT`, then:

1. analyses the written files with `livingblocks analyze` and compares each game's
   `margin_markup` (the count of the file's TB/TW) with the count its closing comment
   states (`Black X (...), White Y (...): W+2.5`);
2. replays each written file with sgfmill (setup, then every move; an occupied point, a
   suicide or a simple-ko retake is a fault), checks that the colours alternate, that
   HA, KM and RU are written, that no block the marks leave alive ends in atari once the
   stones on the opponent's marks are lifted (but on a teire point, which no mark counts),, and counts the file the way an editor does: under territory
   counting each side's TB/TW points plus its prisoners (the stones it took in the replay
   and the opponent's stones standing on its marks) plus komi for White; under area
   counting the stones standing off the opponent's marks plus the marks, komi and the
   handicap compensation (Chinese: HA, AGA: HA - 1) for White. That count must be the
   stated one.

Prints one line per group and one per fault, and exits 1 when any game fails a check.

    cargo build --release
    python3 scripts/sgf-roundtrip.py [--games ../shared/corpus/pro/games] [--out /tmp/sgf-rt]
"""
import argparse
import csv
import glob
import os
import re
import subprocess
import sys

from sgfmill import boards, sgf

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COUNTED = re.compile(rb"RE\[\s*[BW]\+\d")
STATED = re.compile(r"Black (-?[\d.]+) \(.*?\), White (-?[\d.]+) \(.*?\): (\S+)")
HANDICAP_BONUS = {"chinese": lambda h: h if h >= 2 else 0, "aga": lambda h: h - 1 if h >= 2 else 0}
AREA = {"chinese", "aga", "nz", "ing"}


def pick(games):
    """The sample: (group, path relative to `games`), in a fixed order."""
    with open(os.path.join(REPO, "tests/fixtures/pro-score-sample.txt")) as f:
        sample = [line.strip() for line in f if line.strip()]
    out = [("sample", p) for p in sample[::3]]
    everything = sorted(
        os.path.relpath(p, games) for p in glob.glob(os.path.join(games, "**/*.sgf"), recursive=True)
    )
    chinese, handicap = [], []
    for p in everything:
        if len(chinese) >= 10 and len(handicap) >= 10:
            break
        with open(os.path.join(games, p), "rb") as f:
            text = f.read()
        if not COUNTED.search(text) or p in sample:
            continue
        if len(chinese) < 10 and re.search(rb"RU\[\s*Chinese", text, re.I):
            chinese.append(("chinese", p))
        elif len(handicap) < 10 and re.search(rb"HA\[\s*[2-9]\s*\]", text):
            handicap.append(("handicap", p))
    return out + chinese + handicap


def stated(root_game):
    """The margin the last node's comment states, Black − White − komi."""
    node = root_game.get_last_node()
    comment = node.get("C") if node.has_property("C") else ""
    m = STATED.search(comment)
    if not m:
        return None
    return float(m.group(1)) - float(m.group(2))


def editor_count(game):
    """(margin an editor counts, faults) for a written game."""
    faults = []
    root = game.get_root()
    for prop in ("HA", "KM", "RU"):
        if not root.has_property(prop):
            faults.append(f"no {prop}")
    size = game.get_size()
    board = boards.Board(size)
    ab, aw, _ = root.get_setup_stones()
    for colour, points in (("b", ab), ("w", aw)):
        for r, c in points:
            board.play(r, c, colour)
    taken = {"b": 0, "w": 0}
    before = None
    last = None
    for node in game.get_main_sequence()[1:]:
        colour, move = node.get_move()
        if colour is None:
            continue
        if last == colour:
            faults.append(f"{colour} plays twice at node {node}")
        last = colour
        if move is None:
            before, now = None, None
            continue
        r, c = move
        if board.get(r, c) is not None:
            faults.append(f"{colour} on an occupied point {move}")
            break
        snapshot = board.copy()
        other = "w" if colour == "b" else "b"
        n_other = len([1 for pc, _ in board.list_occupied_points() if pc == other])
        board.play(r, c, colour)
        if board.get(r, c) != colour:
            faults.append(f"{colour} suicide at {move}")
            break
        gone = n_other - len([1 for pc, _ in board.list_occupied_points() if pc == other])
        taken[colour] += gone
        if before is not None and board.list_occupied_points() == before.list_occupied_points():
            faults.append(f"{colour} retakes a ko at {move}")
        before = snapshot
    last_node = game.get_last_node()
    marks = {
        "b": set(last_node.get("TB")) if last_node.has_property("TB") else set(),
        "w": set(last_node.get("TW")) if last_node.has_property("TW") else set(),
    }
    if marks["b"] & marks["w"]:
        faults.append("a point marked for both")
    counted = board.copy()
    counted.apply_setup([], [], [p for c in "bw" for p in marks[c] if board.get(*p) not in (None, c)])
    for colour, other in (("b", "w"), ("w", "b")):
        for p, liberty in in_atari(counted, colour):
            # A last liberty on no mark is a teire point the count leaves out: the block's
            # owner connects there, for no point.
            if p not in marks[other] and (liberty in marks[colour] or liberty in marks[other]):
                faults.append(f"{colour} block at {p}, counted alive, ends in atari")
    rules = root.get("RU").lower() if root.has_property("RU") else ""
    komi = float(root.get("KM")) if root.has_property("KM") else 0.0
    handicap = int(root.get("HA")) if root.has_property("HA") else 0
    points = {}
    for colour, other in (("b", "w"), ("w", "b")):
        if rules in AREA:
            standing = sum(
                1 for p in all_points(size) if board.get(*p) == colour and p not in marks[other]
            )
            points[colour] = standing + sum(1 for p in marks[colour] if board.get(*p) != colour)
        else:
            dead = sum(1 for p in marks[colour] if board.get(*p) == other)
            points[colour] = len(marks[colour]) + taken[colour] + dead
    bonus = HANDICAP_BONUS.get(rules, lambda h: 0)(handicap) if rules in AREA else 0
    return points["b"] - points["w"] - komi - bonus, faults


def in_atari(board, colour):
    """(a stone, its liberty) of each block of `colour` with a single liberty."""
    seen, out = set(), []
    for p in all_points(board.side):
        if board.get(*p) != colour or p in seen:
            continue
        block, liberties, stack = {p}, set(), [p]
        while stack:
            r, c = stack.pop()
            for q in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if not (0 <= q[0] < board.side and 0 <= q[1] < board.side):
                    continue
                if board.get(*q) is None:
                    liberties.add(q)
                elif board.get(*q) == colour and q not in block:
                    block.add(q)
                    stack.append(q)
        seen |= block
        if len(liberties) == 1:
            out.append((p, liberties.pop()))
    return out


def all_points(size):
    return [(r, c) for r in range(size) for c in range(size)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", default=os.path.join(REPO, "../shared/corpus/pro/games"))
    ap.add_argument("--out", default="/tmp/sgf-roundtrip")
    ap.add_argument("--bin", default=os.path.join(REPO, "target/release/livingblocks"))
    args = ap.parse_args()
    games = os.path.abspath(args.games)
    os.makedirs(args.out, exist_ok=True)
    sample = pick(games)
    written = []
    for k, (group, p) in enumerate(sample):
        out = os.path.abspath(os.path.join(args.out, f"{k:03}.sgf"))
        subprocess.run([args.bin, "show", os.path.join(games, p), "--sgf", out, "-q"], check=True)
        written.append((group, p, out))
    listing = os.path.join(args.out, "written.txt")
    with open(listing, "w") as f:
        f.writelines(out + "\n" for _, _, out in written)
    run = os.path.join(args.out, "run")
    subprocess.run(
        [args.bin, "analyze", "--files-from", listing, "--out", run, "-q", "--threads", "1"],
        check=True,
    )
    with open(os.path.join(run, "games.csv"), newline="", encoding="utf-8") as f:
        markup = {row["file"]: row["margin_markup"] for row in csv.DictReader(f)}
    groups = {}
    bad = 0
    for group, p, out in written:
        with open(out, "rb") as f:
            game = sgf.Sgf_game.from_bytes(f.read())
        want = stated(game)
        got = markup.get(out, "")
        editor, faults = editor_count(game)
        if want is None:
            faults.append("no count stated")
        else:
            if got == "" or abs(float(got) - want) > 1e-6:
                faults.append(f"margin_markup {got or 'empty'}, stated {want}")
            if abs(editor - want) > 1e-6:
                faults.append(f"editor's count {editor}, stated {want}")
        g = groups.setdefault(group, [0, 0, 0])
        g[0] += 1
        g[1] += want is not None and got != "" and abs(float(got) - want) < 1e-6
        g[2] += want is not None and abs(editor - want) < 1e-6 and not faults
        if faults:
            bad += 1
            print(f"FAULT {group} {p} ({out}): {'; '.join(faults)}")
    for group, (n, equal, editor) in groups.items():
        print(f"{group}: {n} games, margin_markup = stated in {equal}, editor's replay and count = stated in {editor}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
