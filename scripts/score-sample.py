#!/usr/bin/env python3
"""Draws the fixed sample of counted professional games that scoring is measured on.

Reads a games.csv of ../shared/corpus/pro/games, keeps the 19x19 games with status ok whose
RE gives a winner and a margin, puts each in an era by the first four-digit year of DT
(1950-1989, 1990-2009, 2010 on), and draws 100 per era with Python's random.Random(25)
from the files in sorted order. Prints the files, one per line, relative to pro/games.

    livingblocks analyze ../shared/corpus/pro/games --out /tmp/pro -q
    python3 scripts/score-sample.py /tmp/pro/games.csv > tests/fixtures/pro-score-sample.txt
"""
import csv
import random
import re
import sys

ERAS = [(1950, 1989), (1990, 2009), (2010, 9999)]


def main(path):
    eras = [[] for _ in ERAS]
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if row["status"] != "ok" or row["board_size"] != "19":
                continue
            if row["how"] != "score" or row["winner"] not in ("B", "W") or not row["margin"]:
                continue
            year = re.search(r"\d{4}", row["DT"])
            if not year:
                continue
            for k, (lo, hi) in enumerate(ERAS):
                if lo <= int(year.group()) <= hi:
                    eras[k].append(row["file"])
    rng = random.Random(25)
    for files in eras:
        for f in rng.sample(sorted(files), 100):
            print(f)


if __name__ == "__main__":
    main(sys.argv[1])
