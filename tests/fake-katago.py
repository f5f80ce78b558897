#!/usr/bin/env python3
"""A stand-in for KataGo's analysis engine (`katago analysis ...`), speaking its JSON protocol
with canned answers, for the tests of `--katago`: no net, no GPU, answers in microseconds.

Each stone's ownership is its colour's (+1 Black, -1 White), except that a block with at most
one liberty is given to the opponent: the canned engine calls blocks in atari dead. The lead
is Black's stones minus White's minus komi, so the tests can check it exactly.

Answers come two by two in reverse order (as a real engine's threads finish out of order).
Options for the faults the client must survive:
  --model NAME       the net's name (default fake-net)
  --die-after N      exit after N answers, as long as STATE (a file) counts fewer than
                     --deaths starts that died
  --refuse-komi K    answer an error for positions with komi K
  --refuse-moves     answer an error for queries with moves (the client asks again with
                     the stones)
  --garbage          print a line that is not JSON first
  --silent           read queries, answer nothing
  --delay SECONDS    sleep before each answer
  --pidfile F        append this process's pid to F
Unknown arguments (a real engine's -model, -config, -override-config) are ignored.
"""

import json
import os
import sys
import time


def arg(name, default=None):
    if name in sys.argv:
        return sys.argv[sys.argv.index(name) + 1]
    return default


def flag(name):
    return name in sys.argv


COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


def point(size, where):
    return (COLUMNS.index(where[0]), size - int(where[1:]))


def neighbours(size, p):
    x, y = p
    for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
        if 0 <= n[0] < size and 0 <= n[1] < size:
            yield n


def block_of(board, size, start):
    colour, block, libs, todo = board[start], {start}, set(), [start]
    while todo:
        for n in neighbours(size, todo.pop()):
            if n not in board:
                libs.add(n)
            elif board[n] == colour and n not in block:
                block.add(n)
                todo.append(n)
    return block, libs


def play(board, size, colour, p):
    board[p] = colour
    for n in list(neighbours(size, p)):
        if n in board and board[n] != colour:
            block, libs = block_of(board, size, n)
            if not libs:
                for s in block:
                    del board[s]


def answer(q):
    size = q["boardXSize"]
    board = {}
    for colour, where in q["initialStones"]:
        board[point(size, where)] = colour
    for colour, where in q["moves"]:
        if where != "pass":
            play(board, size, colour, point(size, where))
    seen = {}
    for start in board:
        if start in seen:
            continue
        colour = board[start]
        block, libs, todo = [], set(), [start]
        seen[start] = True
        while todo:
            p = todo.pop()
            block.append(p)
            x, y = p
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if not (0 <= n[0] < size and 0 <= n[1] < size):
                    continue
                if n not in board:
                    libs.add(n)
                elif board[n] == colour and n not in seen:
                    seen[n] = True
                    todo.append(n)
        sign = 1.0 if colour == "B" else -1.0
        if len(libs) <= 1:
            sign = -sign
        for p in block:
            seen[p] = sign
    ownership = [0.0] * (size * size)
    for (x, y), sign in seen.items():
        ownership[y * size + x] = sign
    stones = [c for c in board.values()]
    lead = stones.count("B") - stones.count("W") - q["komi"]
    return {
        "id": q["id"],
        "isDuringSearch": False,
        "turnNumber": 0,
        "moveInfos": [],
        # The score a quarter point apart from the lead, so that the tables show which is which.
        "rootInfo": {
            "scoreLead": lead,
            "scoreSelfplay": lead + 0.25,
            "currentPlayer": q["initialPlayer"],
            "visits": 1,
        },
        "ownership": ownership,
    }


def main():
    pidfile = arg("--pidfile")
    if pidfile:
        with open(pidfile, "a") as f:
            f.write(f"{os.getpid()}\n")
    state = arg("--state")
    die_after = int(arg("--die-after", "0"))
    deaths = int(arg("--deaths", "1"))
    if state and die_after:
        died = int(open(state).read()) if os.path.exists(state) else 0
        if died >= deaths:
            die_after = 0
    refuse = arg("--refuse-komi")
    delay = float(arg("--delay", "0"))
    model = arg("--model", "fake-net")
    out = sys.stdout
    if flag("--garbage"):
        out.write("Loading the net...\n")
        out.flush()
    answered = 0
    held = []

    def send(obj):
        nonlocal answered
        if delay:
            time.sleep(delay)
        out.write(json.dumps(obj) + "\n")
        out.flush()
        if "rootInfo" in obj:
            answered += 1
            if die_after and answered >= die_after:
                died = int(open(state).read()) if os.path.exists(state) else 0
                with open(state, "w") as f:
                    f.write(str(died + 1))
                os._exit(3)

    for line in sys.stdin:
        q = json.loads(line)
        if flag("--silent"):
            continue
        if q.get("action") == "query_version":
            send({"id": q["id"], "action": "query_version", "version": "fake-1.0", "git_hash": "0"})
        elif q.get("action") == "query_models":
            send({"id": q["id"], "action": "query_models", "models": [{"internalName": model, "name": model}]})
        elif refuse is not None and q["komi"] == float(refuse):
            send({"id": q["id"], "error": "komi refused by the fake engine", "field": "komi"})
        elif flag("--refuse-moves") and q["moves"]:
            send({"id": q["id"], "error": "illegal move 1 (fake engine)", "field": "moves"})
        else:
            held.append(answer(q))
            if len(held) == 2:
                for a in reversed(held):
                    send(a)
                held = []
        # A single query left waiting is answered when no other follows at once.
        if held and not more_input():
            send(held.pop())
    for a in reversed(held):
        send(a)


def more_input():
    import select

    r, _, _ = select.select([sys.stdin], [], [], 0.05)
    return bool(r)


if __name__ == "__main__":
    main()
