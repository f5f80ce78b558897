#!/usr/bin/env python3
"""Hostile runs against output folders: analyze, merge and report killed at random instants
(SIGKILL, SIGTERM, SIGKILL at a chosen step of the commit), run two at a time into one
folder, and shards run again while merge reads them. Then the faults a hostile user or a
second crash brings: re-runs over the same inputs killed in their commit and again in the
recovery of it, symbolic links planted where the tool writes (lock, plots, a table, a stage,
the journal), manifests and journals edited to lead out of the folder, stale journals, and
folders last written by another version or another user. After each round every folder
must, once a command has been into it, verify against its manifest, its tables must be the
tables of one of the clean runs, and nothing outside the output folders may have changed.

    python3 scripts/stress.py [--binary PATH] [--seconds S] [--rounds N] [--seed K]

Ends with 0 and a line of counts when every check held; with 1 and the first broken check.
"""

import argparse
import hashlib
import json
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
# games.csv as the runs write it (`--compress`: games.csv.zst).
GAMES = TABLES[0]
KILL_AT = "LIVINGBLOCKS_KILL_AT_COMMIT_STEP"
KILL_RECOVERY_AT = "LIVINGBLOCKS_KILL_AT_RECOVERY_STEP"
JOURNAL = ".livingblocks-commit"
# The fault kinds a hostile user or a second crash brings, each run once in the first rounds.
FAULTS = [
    "second fault",
    "planted link",
    "edited manifest",
    "edited journal",
    "stale journal",
    "other version",
    "other user",
]


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


def tree(folder):
    """Every path under `folder` with its bytes (links by target): what must not change."""
    out = {}
    for p in sorted(folder.rglob("*")):
        rel = str(p.relative_to(folder))
        if p.is_symlink():
            out[rel] = "link " + os.readlink(p)
        elif p.is_file():
            out[rel] = hashlib.sha256(p.read_bytes()).hexdigest()
        else:
            out[rel] = "folder"
    return out


def file_row(name, data):
    return f"file:{name}\t{len(data)} {hashlib.sha256(data).hexdigest()}\n"


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
    def __init__(self, binary, work, rng, judge, compress):
        self.binary = binary
        self.judge = judge
        self.compress = compress
        self.work = work
        self.rng = rng
        self.counts = {}

    def count(self, what):
        self.counts[what] = self.counts.get(what, 0) + 1

    def start(self, args, kill_step=None, quiet=True, recovery_step=None, user=None):
        env = dict(os.environ)
        env.pop(KILL_AT, None)
        env.pop(KILL_RECOVERY_AT, None)
        if kill_step is not None:
            env[KILL_AT] = str(kill_step)
        if recovery_step is not None:
            env[KILL_RECOVERY_AT] = str(recovery_step)
        who = [] if user is None else ["setpriv", f"--reuid={user}", f"--regid={user}",
                                       "--clear-groups", "--"]
        if args[0] == "analyze":
            args = [args[0], "--judge", self.judge, *(["--compress"] if self.compress else []),
                    *args[1:]]
        return subprocess.Popen(
            [*who, str(self.binary), *args, *(["-q"] if quiet else [])],
            cwd=self.work,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )

    def run(self, args, quiet=True, **kw):
        p = self.start(args, quiet=quiet, **kw)
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


class Faults:
    """The faults of a hostile user or a second crash, each against the folder `out` (which
    holds one clean run) with `sentinel` beside it: files outside every output folder, which
    must never change."""

    def __init__(self, runs, work, clean):
        self.runs = runs
        self.work = work
        self.clean = clean
        self.out = work / "out"
        self.sentinel = work / "sentinel"
        (self.sentinel / "dir").mkdir(parents=True)
        (self.sentinel / "dir" / "a.svg").write_text("the user's drawing")
        (self.sentinel / "file").write_text("the user's file")

    def expect(self, rc, err, codes, what):
        if rc not in codes:
            fail(f"{what}: exit {rc}, expected {codes}: {err}")

    def round(self, kind):
        runs, out = self.runs, self.out
        both = {self.clean["a"], self.clean["b"]}
        held = tables_of(out)
        name = "a" if held == self.clean["a"] else "b"
        outside = tree(self.sentinel)
        getattr(self, kind.replace(" ", "_"))(name, held)
        if tree(self.sentinel) != outside:
            fail(f"{kind}: files outside the output folder changed")
        runs.settle(out, both, kind)

    def second_fault(self, name, held):
        """A re-run over the same inputs killed in its commit, and the recovery of it killed
        again, as often as chance has it: the folder keeps the run, byte for byte."""
        runs = self.runs
        rc, err = runs.run(["analyze", name, "--out", "out"], kill_step=runs.rng.randrange(30))
        if rc == -signal.SIGKILL:
            runs.count("second fault: commits killed")
            for _ in range(20):
                rc, err = runs.run(["report", "out"], recovery_step=runs.rng.randrange(8))
                if rc != -signal.SIGKILL:
                    break
                runs.count("second fault: recoveries killed")
            else:
                rc, err = runs.run(["report", "out"])
        self.expect(rc, err, (0,), "second fault")
        if tables_of(self.out) != held:
            fail("second fault: the folder lost the run's tables")

    def planted_link(self, name, held):
        """A symbolic link where the tool writes, leading to the sentinel."""
        runs, out, work = self.runs, self.out, self.work
        where = runs.rng.choice(["lock", "plots", "table", "stage", "journal", "journal tmp"])
        runs.count(f"planted link: {where}")
        moved = None
        if where == "plots":
            moved = (out / "plots", work / "plots-kept")
        elif where == "table":
            moved = (out / GAMES, work / "games-kept")
        if moved:
            moved[0].rename(moved[1])
        link, to, refused = {
            "lock": (".livingblocks.lock", "file", True),
            "plots": ("plots", "dir", True),
            "table": (GAMES, "file", True),
            "stage": (".livingblocks-stage.planted", "dir", False),
            "journal": (JOURNAL, "file", True),
            "journal tmp": (JOURNAL + ".tmp", "file", False),
        }[where]
        (out / link).symlink_to(self.sentinel / to)
        cmd = runs.rng.choice([["analyze", name, "--out", "out"], ["report", "out"]])
        rc, err = runs.run(cmd)
        self.expect(rc, err, (1, 2) if refused else (0,), f"planted link: {where}")
        if (out / link).is_symlink():
            (out / link).unlink()
        if moved:
            moved[1].rename(moved[0])
        if tables_of(out) != held:
            fail(f"planted link: {where}: the folder's tables changed")

    def edited_manifest(self, name, held):
        """Manifest rows that lead out of the folder, or leave out a table."""
        runs, out = self.runs, self.out
        how = runs.rng.choice(["row ../", "absolute row", "table row removed"])
        runs.count(f"edited manifest: {how}")
        m = out / "manifest.tsv"
        text, games = m.read_bytes(), (out / GAMES).read_bytes()
        data = (self.sentinel / "file").read_bytes()
        if how == "row ../":
            m.write_bytes(text + file_row("../sentinel/file", data).encode())
        elif how == "absolute row":
            m.write_bytes(text + file_row(str(self.sentinel / "file"), data).encode())
        else:
            kept = [l for l in text.splitlines(True) if not l.startswith(f"file:{GAMES}\t".encode())]
            m.write_bytes(b"".join(kept))
            (out / GAMES).write_bytes(games + games.splitlines(True)[-1])
        for cmd in (["report", "out"], ["report", "out", "--edited"], ["analyze", name, "--out", "out"]):
            rc, err = runs.run(cmd)
            self.expect(rc, err, (2,), f"edited manifest: {how}: {' '.join(cmd)}")
        m.write_bytes(text)
        (out / GAMES).write_bytes(games)

    def edited_journal(self, name, held):
        """A journal whose names lead out of the folder."""
        runs, out = self.runs, self.out
        how = runs.rng.choice(["old ../", "new ../", "absolute stage"])
        runs.count(f"edited journal: {how}")
        stage = str(self.sentinel / "dir") if how == "absolute stage" else ".livingblocks-stage.e"
        j = {"stage": stage, "manifest": "1 x", "old": ["manifest.tsv"], "new": [GAMES]}
        j["old" if how == "old ../" else "new"].append("../sentinel/file")
        (out / JOURNAL).write_text(json.dumps(j))
        rc, err = runs.run(runs.rng.choice([["analyze", name, "--out", "out"], ["report", "out"]]))
        self.expect(rc, err, (1,), f"edited journal: {how}")
        (out / JOURNAL).unlink()

    def stale_journal(self, name, held):
        """A journal a killed run left, found after the folder was completed by other means."""
        runs, out, work = self.runs, self.out, self.work
        how = runs.rng.choice(["stage gone", "stage kept"])
        runs.count(f"stale journal: {how}")
        other = "b" if name == "a" else "a"
        if how == "stage gone":
            j = {"stage": ".livingblocks-stage.gone", "manifest": "1 x",
                 "old": ["manifest.tsv", *TABLES], "new": TABLES}
            (out / JOURNAL).write_text(json.dumps(j))
            final = held
        else:
            # A run killed in its commit; its journal and stage kept aside while the folder is
            # emptied and filled by a whole run (as a livingblocks without journals would).
            rc, _ = runs.run(["analyze", other, "--out", "out"],
                             kill_step=runs.rng.randrange(3, 12))
            if rc != -signal.SIGKILL or not (out / JOURNAL).exists():
                runs.count("stale journal: commit ended before the kill")
                return
            stage = json.loads((out / JOURNAL).read_text())["stage"]
            aside = work / "aside"
            shutil.rmtree(aside, ignore_errors=True)
            aside.mkdir()
            (out / JOURNAL).rename(aside / JOURNAL)
            (out / stage).rename(aside / stage)
            shutil.rmtree(out)
            rc, err = runs.run(["analyze", name, "--out", "out"])
            self.expect(rc, err, (0,), "stale journal: the whole run")
            (aside / JOURNAL).rename(out / JOURNAL)
            (aside / stage).rename(out / stage)
            final = tables_of(out)
        rc, err = runs.run(["report", "out"])
        self.expect(rc, err, (0,), f"stale journal: {how}")
        if tables_of(out) != final:
            fail(f"stale journal: {how}: the journal undid a folder that verified")

    def other_version(self, name, held):
        """A folder last written by another version: one that names its files (taken as the
        tool's), or an older one whose manifest names none (its files refused, never
        replaced)."""
        runs, out = self.runs, self.out
        how = runs.rng.choice(["newer version", "no file rows"])
        runs.count(f"other version: {how}")
        m = out / "manifest.tsv"
        text = m.read_text()
        lines = text.splitlines(True)
        if how == "newer version":
            m.write_text("".join(
                "livingblocks\t99.0.0\n" if l.startswith("livingblocks\t") else l for l in lines))
            rc, err = runs.run(["analyze", name, "--out", "out"])
            self.expect(rc, err, (0,), "other version")
        else:
            m.write_text("".join(l for l in lines if not l.startswith("file:")))
            rc, err = runs.run(["analyze", name, "--out", "out"])
            self.expect(rc, err, (2,), "other version: no file rows")
            if tables_of(out) != held:
                fail("other version: tables of an older run replaced")
            m.write_text(text)

    def other_user(self, name, held):
        """A run killed in a shared folder (mode 777), then another user's run there."""
        runs, work = self.runs, self.work
        if os.geteuid() != 0 or shutil.which("setpriv") is None:
            runs.count("other user: skipped (needs root and setpriv)")
            return
        shared = work / "shared"
        shutil.rmtree(shared, ignore_errors=True)
        shared.mkdir()
        os.chmod(work, 0o755)
        os.chmod(shared, 0o777)
        p = runs.start(["analyze", name, "--out", "shared"])
        time.sleep(runs.rng.uniform(0, 0.6) * self.span)
        p.send_signal(signal.SIGKILL)
        p.communicate()
        if (shared / JOURNAL).exists():
            # Its stage is root's own (0700): only root can finish or undo the commit.
            rc, err = runs.run(["report", "shared"])
            runs.count("other user: root's half-done commit recovered by root first")
        rc, err = runs.run(["analyze", name, "--out", "shared"], user=65534)
        self.expect(rc, err, (0,), "other user")
        runs.count("other user: run after root's killed run")
        if tables_of(shared) != held or verify(shared):
            fail("other user: the folder does not hold the run")
        shutil.rmtree(shared)


def main():
    global TABLES, GAMES
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", type=Path)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--rounds", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=48)
    # The outputs' protocol is what is stressed: the estimate judges, so that a run lasts
    # tenths of a second; `--judge b10` stresses the default run, the net's load included.
    ap.add_argument("--judge", choices=["estimate", "b10"], default="estimate")
    # Every run writes compressed tables (games.csv.zst, ...).
    ap.add_argument("--compress", action="store_true")
    a = ap.parse_args()
    if a.compress:
        TABLES = [t + ".zst" for t in TABLES]
        GAMES = TABLES[0]
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
        runs = Runs(binary, work, rng, a.judge, a.compress)

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

        faults = Faults(runs, work, clean)
        faults.span = span
        deadline = time.monotonic() + a.seconds
        rounds = 0
        kinds = ["analyze", "two at once", "report beside analyze", "shards"]
        while rounds < a.rounds and time.monotonic() < deadline:
            rounds += 1
            # Each fault kind once first, then any round by chance.
            kind = FAULTS[rounds - 1] if rounds <= len(FAULTS) else rng.choice(kinds + FAULTS)
            runs.count(f"round: {kind}")
            both = {clean["a"], clean["b"]}
            if kind in FAULTS:
                faults.round(kind)
            elif kind == "analyze":
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
    print(f"stress: every check held ({binary}, seed {a.seed}, {rounds} rounds):")
    for k, v in sorted(runs.counts.items()):
        print(f"  {v:5}  {k}")


if __name__ == "__main__":
    main()
