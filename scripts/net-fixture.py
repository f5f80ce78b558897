#!/usr/bin/env python3
"""Makes tests/fixtures/net-fidelity.jsonl: KataGo's raw-net answers (one visit, symmetry 0)
for positions of corpus/, as `livingblocks analyze --katago` asks them, and variants of them.
Run it from the repository's root.

    scripts/net-fixture.py games > LIST         # 50 counted games of corpus/
    (run livingblocks on LIST with --katago, its queries copied: see net-fidelity.md)
    scripts/net-fixture.py build QUERIES GAMES_CSV NET... > tests/fixtures/net-fidelity.jsonl

`build` takes the queries livingblocks sent (one JSON a line; its handshake is skipped) and
its games.csv (which names the game of each query, in the same order), adds the variants
(other rules and komi, stones only, cut mid-game, ko captures, synthetic small boards, the
empty board) and asks KataGo about every position with each NET. KataGo is
$KATAGO_WORK/katago/squashfs-root/AppRun (default KATAGO_WORK /tmp/livingblocks-katago, as
scripts/katago-check.sh leaves it) with $KATAGO_WORK/analysis.cfg.
"""
import csv
import json
import os
import random
import re
import subprocess
import sys
import threading

WORK = os.environ.get("KATAGO_WORK", "/tmp/livingblocks-katago")
COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
FORCED = {"includeOwnership": True, "includePolicy": True, "maxVisits": 1}


def games():
    """50 counted games (RE with a points margin), round robin over corpus/'s folders,
    none of the held-back or sample lists."""
    listed = set()
    for f in ["pro-held-back.txt", "pro-score-sample.txt"]:
        listed |= set(open(f"tests/fixtures/{f}").read().split())
    folders = {}
    for root, _, files in os.walk("corpus"):
        for f in sorted(files):
            path = os.path.join(root, f)
            rel = os.path.relpath(path, "corpus")
            head = open(path, "rb").read(4000)
            if f.endswith(".sgf") and rel not in listed and re.search(rb"RE\[[BW]\+\d", head):
                folders.setdefault(rel.split("/")[0], []).append(path)
    rng = random.Random(1900)
    queues = [rng.sample(sorted(v), len(v)) for _, v in sorted(folders.items())]
    picked = []
    while len(picked) < 50:
        for q in queues:
            if q and len(picked) < 50:
                picked.append(q.pop())
    return sorted(picked)


# A Go board with captures, enough to replay a query's moves.
def point(v, size):
    return (COLUMNS.index(v[0]), size - int(v[1:]))


def vertex(p, size):
    return f"{COLUMNS[p[0]]}{size - p[1]}"


def play(board, size, color, p):
    """Plays color at p on board (a dict point -> "B"/"W"); returns the points captured, or
    None for an illegal move (occupied or suicide)."""
    if p in board:
        return None
    board[p] = color

    def neighbours(q):
        x, y = q
        return [(a, b) for a, b in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1))
                if 0 <= a < size and 0 <= b < size]

    def group(q):
        seen, todo, libs = {q}, [q], set()
        while todo:
            for n in neighbours(todo.pop()):
                if n not in board:
                    libs.add(n)
                elif board[n] == board[q] and n not in seen:
                    seen.add(n)
                    todo.append(n)
        return seen, libs

    captured = set()
    for n in neighbours(p):
        if board.get(n, color) != color:
            stones, libs = group(n)
            if not libs:
                captured |= stones
    for q in captured:
        del board[q]
    if not group(p)[1]:
        del board[p]
        return None
    return captured


def replay(query, upto=None):
    """The stones after the query's first `upto` moves, and the player to move."""
    size = query["boardXSize"]
    board = {point(v, size): c for c, v in query["initialStones"]}
    moves = query["moves"][:upto]
    for c, v in moves:
        if v != "pass" and play(board, size, c, point(v, size)) is None:
            raise ValueError(f"illegal move {c} {v}")
    to_move = {"B": "W", "W": "B"}[moves[-1][0]] if moves else query["initialPlayer"]
    return board, to_move


def single_captures(query):
    """The move numbers after which the last move took one stone, alone in atari: a ko."""
    size = query["boardXSize"]
    board = {point(v, size): c for c, v in query["initialStones"]}
    found = []
    for i, (c, v) in enumerate(query["moves"]):
        if v == "pass":
            continue
        p = point(v, size)
        taken = play(board, size, c, p)
        if taken is None:
            raise ValueError(f"illegal move {c} {v}")
        if len(taken) == 1:
            (q,) = taken
            x, y = p
            around = [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
            libs = [n for n in around if 0 <= n[0] < size and 0 <= n[1] < size and n not in board]
            alone = all(board.get(n) != c for n in around)
            if libs == [q] and alone:
                found.append(i + 1)
    return found


def synthetic(size, n, seed, rules):
    """A position of n random legal moves (no suicide, no retaking a ko at once)."""
    rng = random.Random(seed)
    board, moves, ko = {}, [], None
    while len(moves) < n:
        color = "BW"[len(moves) % 2]
        p = (rng.randrange(size), rng.randrange(size))
        trial = dict(board)
        taken = play(trial, size, color, p)
        if taken is None or p == ko:
            continue
        ko = next(iter(taken)) if len(taken) == 1 else None
        board = trial
        moves.append([color, vertex(p, size)])
    return {"initialStones": [], "moves": moves, "initialPlayer": "B", "rules": rules,
            "komi": 7, "whiteHandicapBonus": "0", "boardXSize": size, "boardYSize": size,
            "overrideSettings": {"reportAnalysisWinratesAs": "BLACK"}}


def positions(queries_file, games_csv):
    """(name, query) for each position of the fixture."""
    sent = [json.loads(l) for l in open(queries_file) if l.strip()]
    sent = [q for q in sent if "action" not in q]
    rows = [r for r in csv.DictReader(open(games_csv)) if r["katago_lead"]]
    by_id = {}
    for q in sent:  # a query refused with its moves is sent again as stones: keep the first
        by_id.setdefault(q["id"], q)
    base = [by_id[i] for i in sorted(by_id, key=int)]
    if [int(r["moves"]) for r in rows] != [len(q["moves"]) for q in base]:
        sys.exit("net-fixture: the queries are not those of the games with KataGo's lead")
    counted = [r["file"] for r in rows]
    for q in base:
        for k in FORCED:
            q.pop(k, None)
    out = [(f"{f}#final", q) for f, q in zip(counted, base)]

    rules = ["chinese", "korean", "aga", "new-zealand"]
    komi = [7.5, 6.5, 0.5, -3]
    for i, (f, q) in enumerate(zip(counted[::4], base[::4])):
        if i == 12:
            break
        r, k = rules[i % 4], komi[(i // 4 + i) % 4]
        out.append((f"{f}#rules={r},komi={k}", dict(q, rules=r, komi=k)))
    for f, q in list(zip(counted[1::6], base[1::6]))[:8]:
        board, to_move = replay(q)
        stones = [[c, vertex(p, q["boardXSize"])] for p, c in sorted(board.items())]
        out.append((f"{f}#stones", dict(q, initialStones=stones, moves=[], initialPlayer=to_move)))
    cuts = [60, 120, 180]
    for i, (f, q) in enumerate(list(zip(counted[2::5], base[2::5]))[:10]):
        m = cuts[i % 3]
        if len(q["moves"]) > m:
            out.append((f"{f}#move-{m}", dict(q, moves=q["moves"][:m])))
    kos = 0
    for f, q in zip(counted[3:], base[3:]):
        found = [m for m in single_captures(q) if m < len(q["moves"]) - 1]
        if found and kos < 3:
            m = found[len(found) // 2]
            out.append((f"{f}#ko-{m}", dict(q, moves=q["moves"][:m])))
            kos += 1
    out.append(("synthetic#9x9-60", synthetic(9, 60, 9, "chinese")))
    out.append(("synthetic#13x13-60", synthetic(13, 60, 13, "japanese")))
    out.append(("synthetic#13x13-100", synthetic(13, 100, 1300, "korean")))
    empty = {"initialStones": [], "moves": [], "initialPlayer": "B", "rules": "japanese",
             "komi": 6.5, "whiteHandicapBonus": "0", "boardXSize": 19, "boardYSize": 19,
             "overrideSettings": {"reportAnalysisWinratesAs": "BLACK"}}
    out.append(("synthetic#empty", empty))
    out.append(("synthetic#pass", dict(empty, moves=[["B", "pass"]])))
    return [(name, dict(q, id=name)) for name, q in out]


def ask(net, queries):
    """KataGo's answer (a dict: the one with rootInfo, or with error) to each query."""
    argv = [f"{WORK}/katago/squashfs-root/AppRun", "analysis", "-model", net,
            "-config", f"{WORK}/analysis.cfg", "-override-config", "nnRandomize=false"]
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)

    def feed():
        for q in queries:
            proc.stdin.write(json.dumps(dict(q, **FORCED)) + "\n")
        proc.stdin.close()

    threading.Thread(target=feed, daemon=True).start()
    answers = {}
    for line in proc.stdout:
        a = json.loads(line)
        if "error" in a or "rootInfo" in a:
            answers.setdefault(a["id"], a)
    proc.wait()
    return [answers[q["id"]] for q in queries]


def model_name(net):
    """The net's name as KataGo's query_models reports it."""
    out = subprocess.run(
        [f"{WORK}/katago/squashfs-root/AppRun", "analysis", "-model", net,
         "-config", f"{WORK}/analysis.cfg"],
        input='{"id":"v","action":"query_version"}\n{"id":"m","action":"query_models"}\n',
        capture_output=True, text=True, check=True).stdout.splitlines()
    version = json.loads(out[0])["version"]
    return version, json.loads(out[1])["models"][0]["internalName"]


def build(queries_file, games_csv, nets):
    todo = positions(queries_file, games_csv)
    answers = {}
    for net in nets:
        version, name = model_name(net)
        answers[name] = ask(net, [q for _, q in todo])
    for i, (name, q) in enumerate(todo):
        got = {n: a[i] for n, a in answers.items()}
        refused = [a["error"] for a in got.values() if "error" in a]
        if refused:
            print(f"net-fixture: {name}: refused: {refused[0]}", file=sys.stderr)
            continue
        print(json.dumps({"name": name, "query": q, "katago": version, "answers": {
            n: {"lead": a["rootInfo"]["scoreLead"], "score": a["rootInfo"]["scoreSelfplay"],
                "winrate": a["rootInfo"]["winrate"], "scoreStdev": a["rootInfo"]["scoreStdev"],
                "ownership": [round(x, 6) for x in a["ownership"]],
                "policy": [round(x, 6) for x in a["policy"]]}
            for n, a in got.items()}}, separators=(",", ":")))


if __name__ == "__main__":
    if sys.argv[1:2] == ["games"]:
        print("\n".join(games()))
    elif sys.argv[1:2] == ["build"] and len(sys.argv) >= 5:
        build(sys.argv[2], sys.argv[3], sys.argv[4:])
    else:
        sys.exit(__doc__)
