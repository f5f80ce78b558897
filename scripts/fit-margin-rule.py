#!/usr/bin/env python3
"""Fits the rule by which a judged game's margin is chosen (src/score/decision.rs, `pick`) on
one set of games and reports it on another; RE is what the rule is scored against, never one
of its inputs.

    scripts/fit-margin-rule.py OUT [--report-on LIST]

OUT is the output folder of a run judged by a net (the default run, `--net` or `--katago`).
The games named in LIST (default tests/fixtures/pro-score-sample.txt, paths relative to
../shared/corpus/pro/games) are held back: the rule is fitted on every other counted game
(each once: copies, `duplicate_of`, left out) and then reported on LIST's games.

The family: the count with the judge's dead stones (`margin_katago`) where it lies within D
of the score the judge expects (`katago_score`), else that score on the grid of margins
(`margin_katago_score`). D = -1 never takes the count, D = 1000 always does. The fit picks
the D with the most exact margins (ties: the smaller D).
"""
import csv
import os
import sys

csv.field_size_limit(1 << 24)
args = sys.argv[1:]
if not args:
    sys.exit(__doc__)
out = args[0]
listing = "tests/fixtures/pro-score-sample.txt"
if "--report-on" in args:
    listing = args[args.index("--report-on") + 1]
held = {l.strip() for l in open(listing) if l.strip()}


def num(x):
    try:
        return float(x)
    except ValueError:
        return None


games = []
for g in csv.DictReader(open(os.path.join(out, "games.csv"))):
    if g["duplicate_of"] or g["how"] != "score" or num(g["margin"]) is None:
        continue
    # games.csv's `margin` is RE's, unsigned; `winner` gives its sign.
    g["re"] = num(g["margin"]) * (1 if g["winner"] == "B" else -1)
    if num(g["katago_score"]) is None:
        continue
    name = g["file"]
    key = name.split("pro/games/", 1)[-1]
    g["held"] = key in held
    games.append(g)


def pick(g, d):
    count, score = num(g["margin_katago"]), num(g["katago_score"])
    if count is not None and abs(count - score) <= d:
        return count
    return num(g["margin_katago_score"])


def exact(gs, f):
    return sum(1 for g in gs if f(g) == g["re"])


def within1(gs, f):
    return sum(1 for g in gs if f(g) is not None and abs(f(g) - g["re"]) <= 1)


fit = [g for g in games if not g["held"]]
rep = [g for g in games if g["held"]]
ds = [-1, 0, 0.5, 0.6, 1, 1.5, 2, 3, 5, 1000]
best = max(ds, key=lambda d: (exact(fit, lambda g: pick(g, d)), -d))
print(f"fitted on {len(fit)} counted games, reported on {len(rep)} ({listing})")
print(f"D = {best}")
print("| margin | fit: exact | fit: within 1 | report: exact | report: within 1 |")
print("|---|---:|---:|---:|---:|")
rows = [
    ("the rule", lambda g: pick(g, best)),
    # What the run stands by (its own rule, on the score before it is written to two places).
    ("the run's margin (score_source)", lambda g: num(g["margin_" + g["score_source"]])),
    ("the count (margin_katago)", lambda g: num(g["margin_katago"])),
    ("the lead (margin_katago_lead)", lambda g: num(g["margin_katago_lead"])),
    ("the expected score (margin_katago_score)", lambda g: num(g["margin_katago_score"])),
    ("the estimate (margin_estimate)", lambda g: num(g["margin_estimate"])),
]
for name, f in rows:
    a, b, c, d = exact(fit, f), within1(fit, f), exact(rep, f), within1(rep, f)
    pct = lambda x, n: f"{x} ({100 * x / max(n, 1):.1f} %)"
    print(f"| {name} | {pct(a, len(fit))} | {pct(b, len(fit))} | {pct(c, len(rep))} | {pct(d, len(rep))} |")
