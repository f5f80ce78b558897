#!/usr/bin/env python3
"""Checks Cargo.toml's rust-version: no crate the build uses (dependencies and build
dependencies, not dev-dependencies) may ask for a newer Rust. Clippy's incompatible_msrv lint,
which CI runs with -D warnings, checks the project's own use of the standard library against
it. Exit 1, naming the crates, when the declared version is too old."""
import json
import subprocess
import sys


def version(v):
    parts = [int(x) for x in v.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


meta = json.loads(subprocess.check_output(
    ["cargo", "metadata", "--format-version", "1", "--locked"]))
packages = {p["id"]: p for p in meta["packages"]}
nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}
root = meta["resolve"]["root"]
ours = packages[root]["rust_version"]

# The crates reachable from ours through normal and build dependencies.
seen, todo = set(), [root]
while todo:
    node = nodes[todo.pop()]
    for dep in node["deps"]:
        kinds = {k["kind"] for k in dep["dep_kinds"]}
        if node["id"] == root and kinds <= {"dev"}:
            continue
        if dep["pkg"] not in seen:
            seen.add(dep["pkg"])
            todo.append(dep["pkg"])

newer = sorted(
    (version(packages[p]["rust_version"]), packages[p]["name"], packages[p]["version"])
    for p in seen
    if packages[p].get("rust_version") and version(packages[p]["rust_version"]) > version(ours))
if newer:
    for v, name, ver in newer:
        print(f"msrv-check: {name} {ver} needs Rust {'.'.join(map(str, v))}", file=sys.stderr)
    print(f"msrv-check: Cargo.toml says rust-version = {ours}: raise it", file=sys.stderr)
    sys.exit(1)
top = max((version(packages[p]["rust_version"]), packages[p]["name"])
          for p in seen if packages[p].get("rust_version"))
print(f"msrv-check: ok: rust-version {ours}; the newest any dependency needs is "
      f"{'.'.join(map(str, top[0]))} ({top[1]})")
