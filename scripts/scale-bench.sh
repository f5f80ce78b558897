#!/usr/bin/env bash
# The scale bench of docs/performance.md ("A million games"): writes the synthetic set
# (examples/synthetic_games.rs) into DIR/games unless it is there, then runs, with the
# release build at -j 2: analyze with plain tables, analyze --compress, two shards of
# --compress merged; and prints each one's wall time and peak RSS, the tables' sizes, and
# whether the compressed and merged tables hold the plain run's bytes.
#
#   scripts/scale-bench.sh DIR [COLLECTIONS GAMES]     (default 1000 collections of 1000)
#
# A million games need 1.4 GB for the set, 6 GB for the outputs, and about 15 minutes;
# zstd and GNU time (apt install zstd time) do the checking and the timing.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: scripts/scale-bench.sh DIR [COLLECTIONS GAMES]" >&2; exit 2; }
dir=$(realpath -m "$1")
collections=${2:-1000}
games=${3:-1000}
cargo build --release --locked --quiet --example synthetic_games --bin livingblocks
bin=target/release/livingblocks
if [ ! -d "$dir/games" ]; then
  echo "scale-bench: writing $collections collections of $games games into $dir/games"
  target/release/examples/synthetic_games "$dir/games" "$collections" "$games"
fi
timed() {
  local what=$1
  shift
  /usr/bin/time -f "%e %M" -o "$dir/time" "$@"
  read -r wall rss <"$dir/time"
  printf 'scale-bench: %-34s %8.1f s  %9d KB peak RSS\n' "$what" "$wall" "$rss"
}
rm -rf "$dir/plain" "$dir/zst" "$dir/s0" "$dir/s1" "$dir/merged"
timed "analyze" "$bin" analyze "$dir/games" --out "$dir/plain" -j 2 -q
timed "analyze --compress" "$bin" analyze "$dir/games" --out "$dir/zst" -j 2 -q --compress
for k in 0 1; do
  timed "analyze --compress --shard $k/2" "$bin" analyze "$dir/games" --out "$dir/s$k" \
    --shard "$k/2" -j 2 -q --compress
done
timed "merge of the two shards" "$bin" merge "$dir/s0" "$dir/s1" --out "$dir/merged" -q
for out in plain zst; do
  total=0
  for t in games blocks chains big_eyes; do
    f=$(ls "$dir/$out/$t".csv*)
    total=$((total + $(stat -c %s "$f")))
  done
  echo "scale-bench: the four tables of $out: $total bytes"
done
for t in games blocks chains big_eyes; do
  zstd -dcq "$dir/zst/$t.csv.zst" | cmp -s - "$dir/plain/$t.csv" ||
    { echo "scale-bench: $t.csv.zst does not hold $t.csv" >&2; exit 1; }
  cmp -s "$dir/merged/$t.csv.zst" "$dir/zst/$t.csv.zst" ||
    { echo "scale-bench: the merged $t.csv.zst differs from one run's" >&2; exit 1; }
done
echo "scale-bench: ok: the compressed tables hold the plain bytes; merged equals one run"
