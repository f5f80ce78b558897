#!/usr/bin/env python3
"""The built-in estimate against KataGo's judgement, from the tables of a run with `--net`
(or `--katago`): how often each margin equals RE over the counted games, and where the
estimate's dead stones differ from the net's, per game and per block, by kind.

    scripts/judge-agreement.py OUT        # OUT: the run's output folder

Each game counts once: later copies (`duplicate_of`) are left out. A game is compared where
both judged it (`margin_estimate` and `katago_lead` are filled); a block is dead by the
estimate when its anchor is among `dead_estimate`, by the net when `katago_own` < 0.
Prints Markdown tables.
"""
import csv
import sys
from collections import Counter

csv.field_size_limit(1 << 24)
out = sys.argv[1]
games = [g for g in csv.DictReader(open(f"{out}/games.csv")) if not g["duplicate_of"]]


def num(x):
    try:
        return float(x)
    except ValueError:
        return None


def rule(g):
    """docs/scoring.md's count rule: the count with the net's dead stones where it lies
    within 0.6 of the score the net expects, else that score as a count."""
    m, s = num(g["margin_katago"]), num(g["katago_score"])
    return m if m is not None and s is not None and abs(m - s) < 0.6 else num(g["margin_katago_score"])


counted = [g for g in games if g["how"] == "score" and num(g["margin"]) is not None]
print(f"## Margin = RE over {len(counted):,} counted games (each once)\n")
print("| margin | exact | within 1 point |")
print("|---|---:|---:|")
sources = [
    ("margin_estimate", lambda g: num(g["margin_estimate"])),
    ("margin_katago (the net's dead stones, finished and counted)", lambda g: num(g["margin_katago"])),
    ("margin_katago_lead", lambda g: num(g["margin_katago_lead"])),
    ("margin_katago_score", lambda g: num(g["margin_katago_score"])),
    ("the count rule", rule),
]
for name, get in sources:
    exact = within = 0
    for g in counted:
        m = get(g)
        if m is None:
            continue
        re = num(g["margin"]) * (1 if g["winner"] == "B" else -1)
        exact += abs(m - re) < 1e-3
        within += abs(m - re) <= 1 + 1e-3
    n = max(len(counted), 1)
    print(f"| {name} | {exact:,} ({100 * exact / n:.1f} %) | {within:,} ({100 * within / n:.1f} %) |")

both = {(g["file"], g["game"]): g for g in games if g["margin_estimate"] and g["katago_lead"]}
same = sum(set(g["dead_estimate"].split()) == set(g["dead_katago"].split()) for g in both.values())
print(f"\n## Dead stones, estimate against the net\n")
print(f"Games judged by both: {len(both):,}; the same dead stones in {same:,} "
      f"({100 * same / max(len(both), 1):.1f} %).\n")

kinds = Counter()
blocks = agree = 0
for b in csv.DictReader(open(f"{out}/blocks.csv")):
    g = both.get((b["file"], b["game"]))
    if g is None or not b["katago_own"]:
        continue
    blocks += 1
    est_dead = b["anchor"] in set(g["dead_estimate"].split())
    own = float(b["katago_own"])
    net_dead = own < 0
    if est_dead == net_dead:
        agree += 1
        continue
    stones, libs, eyes = int(b["stones"]), int(b["liberties"]), int(b["own_eyes"])
    share = num(b["dead_share"])
    kinds[("direction", "the estimate kills, the net keeps alive" if est_dead
           else "the estimate keeps alive, the net kills")] += 1
    kinds[("the net's ownership", "sure (beyond ±0.5)" if abs(own) >= 0.5
           else "unsure (within ±0.5: seki, unsettled)")] += 1
    kinds[("the estimate's playouts", "no share (special rules decided)" if share is None
           else "sure (share <= 0.2 or >= 0.8)" if share <= 0.2 or share >= 0.8
           else "unsure (share between 0.2 and 0.8)")] += 1
    kinds[("stones", "1" if stones == 1 else "2-4" if stones <= 4 else "5-9" if stones <= 9 else "10+")] += 1
    kinds[("liberties", "1" if libs == 1 else "2" if libs == 2 else "3-4" if libs <= 4 else "5+")] += 1
    kinds[("own eyes", str(min(eyes, 2)) + ("+" if eyes >= 2 else ""))] += 1
    kinds[("the game's finish", "sure" if not g["finish_unsure"] else "unsure")] += 1

print(f"Blocks of those games: {blocks:,}; judged alike {agree:,} "
      f"({100 * agree / max(blocks, 1):.2f} %); {blocks - agree:,} differ:\n")
print("| kind | value | blocks | share of the differing |")
print("|---|---|---:|---:|")
for (kind, value), n in sorted(kinds.items()):
    print(f"| {kind} | {value} | {n:,} | {100 * n / max(blocks - agree, 1):.1f} % |")
