#!/usr/bin/env python3
"""Hostile runs against output folders: analyze, merge and report killed at random instants
(SIGKILL, SIGTERM, SIGKILL at a chosen step of the commit), run two at a time into one
folder, and shards run again while merge reads them. After each round every folder must,
once a command has been into it, verify against its manifest, and its tables must be the
tables of one of the clean runs.

    python3 scripts/stress.py [--binary PATH] [--seconds S] [--rounds N] [--seed K]

Ends with 0 and a line of counts when every check held; with 1 and the first broken check.
"""

import argparse
import hashlib
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLES = ["games.csv", "blocks.csv", "chains.csv", "big_eyes.csv"]
KILL_AT = "LIVINGBLOCKS_KILL_AT_COMMIT_STEP"


def fail(why):
    print(f"stress: FAILED: {why}", file=sys.stderr)
    sys.exit(1)


def tables_of(folder):
    """The tables' SHA-256s, or None where one is missing."""
    sums = []
    for t in TABLES:
        p = folder / t
        if not p.is_file():
            return None
        sums.append(hashlib.sha256(p.read_bytes()).hexdigest())
    return tuple(sums)


def verify(folder):
    """Checks each file the manifest names against its size and SHA-256, as `sha256sum`
    would, without livingblocks."""
    m = folder / "manifest.tsv"
    if not m.is_file():
        return "no manifest.tsv"
    named = 0
    for line in m.read_text(encoding="utf-8").splitlines():
        key, _, value = line.partition("\t")
        if not key.startswith("file:"):
            continue
        named += 1
        size, _, digest = value.partition(" ")
        p = folder / key[len("file:"):]
        if not p.is_file():
            return f"{p.name}: named by the manifest, missing"
        data = p.read_bytes()
        if len(data) != int(size) or hashlib.sha256(data).hexdigest() != digest:
            return f"{p}: does not match the manifest"
    return None if named else "the manifest names no file"


class Runs:
    def __init__(self, binary, work, rng):
        self.binary = binary
        self.work = work
        self.rng = rng
        self.counts = {}

    def count(self, what):
        self.counts[what] = self.counts.get(what, 0) + 1

    def start(self, args, kill_step=None, quiet=True):
        env = dict(os.environ)
        env.pop(KILL_AT, None)
        if kill_step is not None:
            env[KILL_AT] = str(kill_step)
        return subprocess.Popen(
            [str(self.binary), *args, *(["-q"] if quiet else [])],
            cwd=self.work,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )

    def run(self, args, quiet=True):
        p = self.start(args, quiet=quiet)
        _, err = p.communicate()
        return p.returncode, err.decode(errors="replace")

    def hostile(self, args, span):
        """Starts a command and, by chance, kills it at a random instant, or at a random
        step of its commit, or not at all."""
        how = self.rng.choice(["sigkill", "sigterm", "commit-step", "none"])
        step = self.rng.randrange(40) if how == "commit-step" else None
        p = self.start(args, step)
        if how in ("sigkill", "sigterm"):
            # Half the kills near the end of a run, where its commit is.
            late = self.rng.random() < 0.5
            time.sleep(self.rng.uniform(0.8, 1.1) * span if late else self.rng.uniform(0, span))
            if p.poll() is None:
                p.send_signal(signal.SIGKILL if how == "sigkill" else signal.SIGTERM)
        return p, how

    def finish(self, started):
        """Waits for the commands and counts how each ended."""
        for p, how in started:
            _, err = p.communicate()
            rc = p.returncode
            if rc == -signal.SIGKILL:
                self.count("killed by SIGKILL")
            elif rc == 128 + signal.SIGTERM:
                self.count("stopped by SIGTERM")
            elif rc == -signal.SIGTERM:
                # Before the command set up its handlers: as SIGKILL then.
                self.count("ended by SIGTERM at start")
            elif rc == 0:
                self.count("ended normally")
            elif b"another livingblocks run" in err or b"lock" in err:
                self.count("refused: folder in use")
            elif rc == 2 and b"shard" in err:
                self.count("merge refused a shard being rewritten")
            elif rc == 2 and b"manifest" in err:
                self.count("refused: folder not complete")
            else:
                fail(f"{how}: exit {rc}: {err.decode(errors='replace')}")

    def settle(self, folder, allowed, what):
        """`report FOLDER` (which first clears what a killed command left), then the checks:
        the folder verifies and its tables are one clean run's."""
        rc, err = self.run(["report", str(folder)], quiet=False)
        if rc != 0:
            fail(f"report {folder.name} after {what}: exit {rc}: {err}")
        if "finished the commit a killed run" in err:
            self.count("half-done commits finished")
        if "undid the commit a killed run" in err:
            self.count("half-done commits undone")
        problem = verify(folder)
        if problem:
            fail(f"{folder.name} after {what}: {problem}")
        if tables_of(folder) not in allowed:
            fail(f"{folder.name} after {what}: tables of no clean run")
        self.count("folders verified")
        return rc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", type=Path)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--rounds", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=48)
    a = ap.parse_args()
    binary = a.binary.resolve() if a.binary else None
    if binary is None:
        found = [ROOT / "target" / k / "livingblocks" for k in ("release", "debug")]
        found = [b for b in found if b.is_file()]
        if not found:
            fail("no target/*/livingblocks: build it first (cargo build)")
        binary = max(found, key=lambda b: b.stat().st_mtime)
    rng = random.Random(a.seed)
    records = sorted((ROOT / "corpus").rglob("*.sgf"))[: a.games]
    if len(records) < 4:
        fail("corpus/ holds too few records")

    with tempfile.TemporaryDirectory(prefix="livingblocks-stress.") as tmp:
        work = Path(tmp)
        # Two input sets whose runs give different tables.
        for name, chosen in (("a", records), ("b", records[: len(records) // 2])):
            (work / name).mkdir()
            for i, r in enumerate(chosen):
                shutil.copy(r, work / name / f"{i:03}.sgf")
        runs = Runs(binary, work, rng)

        # The clean runs: each input set whole and in two shards, merged.
        clean = {}
        t0 = time.monotonic()
        for name in ("a", "b"):
            rc, err = runs.run(["analyze", name, "--out", f"clean-{name}"])
            if rc != 0:
                fail(f"clean run of {name}: {err}")
            clean[name] = tables_of(work / f"clean-{name}")
        span = max(0.05, (time.monotonic() - t0) / 2)
        for k in (0, 1):
            runs.run(["analyze", "a", "--shard", f"{k}/2", "--out", f"shard{k}"])
        rc, err = runs.run(["merge", "shard0", "shard1", "--out", "merged"])
        if rc != 0 or tables_of(work / "merged") != clean["a"]:
            fail(f"merged shards differ from one run: {err}")
        shutil.copytree(work / "clean-a", work / "out")
        shard_tables = {k: {tables_of(work / f"shard{k}")} for k in (0, 1)}

        deadline = time.monotonic() + a.seconds
        rounds = 0
        while rounds < a.rounds and time.monotonic() < deadline:
            rounds += 1
            kind = rng.choice(["analyze", "two at once", "report beside analyze", "shards"])
            runs.count(f"round: {kind}")
            both = {clean["a"], clean["b"]}
            if kind == "analyze":
                started = [runs.hostile(["analyze", rng.choice("ab"), "--out", "out"], span)]
                runs.finish(started)
                runs.settle(work / "out", both, kind)
            elif kind == "two at once":
                started = [
                    runs.hostile(["analyze", x, "--out", "out"], span) for x in ("a", "b")
                ]
                runs.finish(started)
                runs.settle(work / "out", both, kind)
            elif kind == "report beside analyze":
                started = [
                    runs.hostile(["analyze", rng.choice("ab"), "--out", "out"], span),
                    runs.hostile(["report", "out"], span),
                ]
                runs.finish(started)
                runs.settle(work / "out", both, kind)
            else:
                # A shard run again (killed or not) while merge reads it.
                k = rng.randrange(2)
                started = [
                    runs.hostile(
                        ["analyze", "a", "--shard", f"{k}/2", "--out", f"shard{k}"], span
                    ),
                    runs.hostile(["merge", "shard0", "shard1", "--out", "merged"], span),
                ]
                runs.finish(started)
                for j in (0, 1):
                    runs.settle(work / f"shard{j}", shard_tables[j], kind)
                runs.settle(work / "merged", {clean["a"]}, kind)

    runs.counts["rounds"] = rounds
    counts = ", ".join(f"{v} {k}" for k, v in sorted(runs.counts.items()))
    print(f"stress: every check held ({binary}, seed {a.seed}): {counts}")


if __name__ == "__main__":
    main()
