#!/usr/bin/env python3
"""Scores a list of counted games with livingblocks and with GNU Go, side by side.

GNU Go (`apt-get install gnugo`) is the reference, never a dependency: its `--score finish`
plays each record on until both sides pass, then counts. Both scorers get the rules and
komi livingblocks reads from the record (games.csv `rules`, `komi`), so that a missing KM
does not count against GNU Go. Prints, over all games and over the ones livingblocks calls
scorable, how often each margin equals RE, is within one point of it, and names the same
winner, then two upper bounds that peek at RE (livingblocks with whichever side starts the
finishing gives RE, and any of the three scorers), and the games only one scorer gets
right. GNU Go's outputs are kept in WORK (its finished records, WORK/gnugo/*.sgf, and what
it printed, *.txt) and reused on the next run.

    python3 scripts/gnugo-compare.py                      # the fixed sample, tests/fixtures
    python3 scripts/gnugo-compare.py LIST --root DIR --work /tmp/cmp --jobs 2
    python3 scripts/gnugo-compare.py --ogs                # GNU Go on the OGS positions

LIST has one record per line, relative to --root (default ../shared/corpus/pro/games).
With --ogs it asks GNU Go instead for the dead stones of each OGS score-estimator position
(GTP `final_status_list dead`, the player to move set) and counts the positions where they
are exactly the stones the set marks; this project's figure on them is the one
`cargo test --release --test integration ogs -- --nocapture` prints.
"""
import argparse
import csv
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("list", nargs="?", default=os.path.join(REPO, "tests/fixtures/pro-score-sample.txt"))
    p.add_argument("--root", default=os.path.join(REPO, "../shared/corpus/pro/games"))
    p.add_argument("--work", default="/tmp/gnugo-compare")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--timeout", type=int, default=120, help="seconds GNU Go may take a game")
    p.add_argument("--gnugo", default=shutil.which("gnugo") or "/usr/games/gnugo")
    p.add_argument("--bin", help="the livingblocks binary (default: this checkout's, built first)")
    p.add_argument("--ogs", nargs="?", const=os.path.join(
        REPO, "../shared/corpus/scored/ogs-score-estimator/test_games"), metavar="DIR",
        help="score the OGS positions under DIR instead")
    return p.parse_args()


def ogs_position(path):
    """An OGS test position as SGF (setup stones, player to move) and its dead stones, as
    GTP names them (columns without I, rows from the bottom)."""
    with open(path) as f:
        lines = [line for line in f if not line.startswith("#")]
    head = dict(line.split() for line in lines[:3])
    size = int(head["height"])
    grid = [[int(v) for v in line.split()] for line in lines[3:] if line.strip()]
    stones, marks = grid[:size], grid[size:]
    sgf_cols, gtp_cols = "abcdefghijklmnopqrs", "ABCDEFGHJKLMNOPQRST"
    setup = {1: [], -1: []}
    dead = set()
    for y in range(size):
        for x in range(size):
            v = stones[y][x]
            if v:
                setup[v].append(f"[{sgf_cols[x]}{sgf_cols[y]}]")
                if marks[y][x] == 1:
                    dead.add(f"{gtp_cols[x]}{size - y}")
    to_move = "W" if head["player_to_move"] == "-1" else "B"
    sgf = f"(;FF[4]GM[1]SZ[{size}]KM[0]PL[{to_move}]"
    sgf += "".join(f"{k}{''.join(v)}" for k, v in (("AB", setup[1]), ("AW", setup[-1])) if v)
    return sgf + ")", dead


def ogs(args):
    os.makedirs(args.work, exist_ok=True)
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(args.ogs) for f in fs
                   if f.endswith(".game"))
    if not files:
        sys.exit(f"gnugo-compare: no .game files under {args.ogs}")
    exact, misses = 0, []
    for path in files:
        sgf, truth = ogs_position(path)
        position = os.path.join(args.work, "ogs.sgf")
        with open(position, "w") as f:
            f.write(sgf)
        answer = subprocess.run([args.gnugo, "--mode", "gtp"], capture_output=True, text=True,
                                input=f"loadsgf {position}\nfinal_status_list dead\nquit\n",
                                timeout=args.timeout).stdout
        replies = [r for r in answer.split("\n\n") if r.strip()]
        dead = set(replies[1].strip("= \n").split()) if len(replies) > 1 else None
        if dead == truth:
            exact += 1
        else:
            name = os.path.relpath(path, args.ogs)
            wrong = "no answer" if dead is None else \
                f"called dead {sorted(dead - truth)}, missed {sorted(truth - dead)}"
            misses.append(f"  {name}: {wrong}")
    print(f"GNU Go `final_status_list dead`: exactly the marked stones in {exact} of {len(files)}")
    print("\n".join(misses))


def wanted(row):
    """RE as a signed margin (Black positive), or None for no margin."""
    if row["winner"] == "0":
        return 0.0
    if row["winner"] not in ("B", "W") or not row["margin"]:
        return None
    return (1 if row["winner"] == "B" else -1) * float(row["margin"])


def signed(text):
    """A count as livingblocks' `show` prints it: B+3.5, W+0.5, a draw."""
    text = text.strip()
    if text.startswith("a draw"):
        return 0.0
    m = re.match(r"([BW])\+([\d.]+)", text)
    return None if not m else float(m.group(2)) * (1 if m.group(1) == "B" else -1)


def gnugo_margin(printed):
    """GNU Go's count from what it printed: 'Black wins by 3.5 points', 'Jigo'."""
    if re.search(r"^Jigo$", printed, re.M):
        return 0.0
    m = re.search(r"^(White|Black) wins by ([\d.]+) points$", printed, re.M)
    return None if not m else float(m.group(2)) * (1 if m.group(1) == "Black" else -1)


def run_gnugo(args, row, name):
    out = os.path.join(args.work, "gnugo", name)
    if not os.path.exists(out + ".txt"):
        rules = "--chinese-rules" if row["rules"] in ("chinese", "ing") else "--japanese-rules"
        cmd = [args.gnugo, "--score", "finish", rules, "--komi", row["komi"] or "0",
               "-l", row["file"], "-o", out + ".sgf"]
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
            printed = done.stdout
        except subprocess.TimeoutExpired:
            printed = "timeout\n"
        with open(out + ".txt", "w") as f:
            f.write(printed)
    with open(out + ".txt") as f:
        return gnugo_margin(f.read())


def other_order(args, row):
    """livingblocks' count when the other side starts the finishing (`show` prints it)."""
    if "order" not in row["finish_unsure"]:
        return None
    shown = subprocess.run([args.bin, "show", row["file"], "--ascii"],
                           capture_output=True, text=True).stdout
    m = re.search(r"Counted after them: .*?; (.*?) if (Black|White) starts the finishing", shown)
    return None if not m else signed(m.group(1))


def tally(label, games, key):
    kept = [(g["want"], g[key]) for g in games]
    n = len(kept)
    got = [(w, m) for w, m in kept if m is not None]
    exact = sum(abs(m - w) < 1e-3 for w, m in got)
    within = sum(abs(m - w) <= 1 + 1e-3 for w, m in got)
    winner = sum((m > 0) == (w > 0) and (m < 0) == (w < 0) for w, m in got)
    pct = lambda k: f"{k} ({100 * k / n:.1f} %)" if n else "–"
    print(f"| {label} | {n} | {pct(exact)} | {pct(within)} | {pct(winner)} |")


def main():
    args = parse_args()
    if not os.path.exists(args.gnugo):
        sys.exit(f"gnugo-compare: no GNU Go at {args.gnugo} (apt-get install gnugo)")
    if args.ogs:
        return ogs(args)
    if not os.path.isdir(args.root):
        sys.exit(f"gnugo-compare: {args.root} is not a folder")
    os.makedirs(os.path.join(args.work, "gnugo"), exist_ok=True)
    if args.bin is None:
        # Built every time, so that the figures are this checkout's, not a stale binary's.
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=REPO, check=True)
        args.bin = os.path.join(REPO, "target/release/livingblocks")
    with open(args.list) as f:
        names = [line.strip() for line in f if line.strip()]
    listed = os.path.join(args.work, "files.txt")
    with open(listed, "w") as f:
        f.writelines(os.path.join(args.root, n) + "\n" for n in names)
    ours = os.path.join(args.work, "livingblocks")
    subprocess.run([args.bin, "analyze", "--files-from", listed, "--out", ours, "-q"], check=True)
    with open(os.path.join(ours, "games.csv"), newline="", encoding="utf-8") as f:
        rows = {r["file"]: r for r in csv.DictReader(f) if r["game"] == "0"}

    def one(name):
        row = rows.get(os.path.join(args.root, name))
        if row is None or wanted(row) is None or not row["margin_estimate"]:
            return None
        return {
            "name": name,
            "want": wanted(row),
            "scorable": row["unscorable"] == "",
            "ours": float(row["margin_estimate"]),
            "other": other_order(args, row),
            "gnugo": run_gnugo(args, row, name.replace("/", "_")),
        }

    with ThreadPoolExecutor(args.jobs) as pool:
        games = [g for g in pool.map(one, names) if g is not None]
    right = lambda g, k: g[k] is not None and abs(g[k] - g["want"]) < 1e-3
    for g in games:
        g["either"] = g["ours"] if right(g, "ours") or g["other"] is None else g["other"]
        g["any"] = next((g[k] for k in ("either", "gnugo") if right(g, k)), g["ours"])

    print(f"{len(games)} of {len(names)} listed games counted with a margin in RE\n")
    for title, subset in (("all", games), ("scorable by livingblocks", [g for g in games if g["scorable"]])):
        print(f"{title}:\n")
        print("| scorer | games | margin = RE | within 1 | same winner |")
        print("|---|---:|---:|---:|---:|")
        tally("livingblocks (`margin_estimate`)", subset, "ours")
        tally("GNU Go `--score finish`", subset, "gnugo")
        tally("upper bound: livingblocks, either side starting the finish", subset, "either")
        tally("upper bound: any of the three", subset, "any")
        print()
    only_gnugo = [g["name"] for g in games if right(g, "gnugo") and not right(g, "ours")]
    only_ours = [g["name"] for g in games if right(g, "ours") and not right(g, "gnugo")]
    print(f"GNU Go gives RE and livingblocks does not: {len(only_gnugo)}")
    print(f"livingblocks gives RE and GNU Go does not: {len(only_ours)}")
    for label, names_ in (("only GNU Go", only_gnugo), ("only livingblocks", only_ours)):
        print(f"\n{label}:\n" + "\n".join(f"  {n}" for n in names_))


if __name__ == "__main__":
    main()
