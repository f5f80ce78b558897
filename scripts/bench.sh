#!/usr/bin/env bash
# Runs the release binary over a folder at one thread and at N threads (best of R runs each),
# once as the default run and once with `--estimate never`, and writes reports/bench/bench.md,
# bench.csv (default) and bench_estimate_never.md, bench_estimate_never.csv: wall time, games/s, peak RSS,
# speed-up, whether the outputs are byte-identical, and the one-thread rate against the baseline
# of issue 5 (sgf-parse alone reading, parsing and walking the main lines), with the system
# allocator (examples/parse_baseline.rs, as sgf-parse's users run it) and with mimalloc, the
# binary's allocator (examples/parse_baseline_mimalloc.rs).
#
#   scripts/bench.sh [DIR] [N] [R]     defaults: ../shared/corpus/pro/games, nproc, 3
# docs/performance.md quotes these files.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-../shared/corpus/pro/games}
threads=${2:-$(nproc)}
repeats=${3:-3}
[ -d "$dir" ] || { echo "bench: $dir is not a folder" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench: needs GNU time (/usr/bin/time; apt-get install time)" >&2; exit 2; }
cargo build --release --quiet --bin livingblocks --example parse_baseline --example parse_baseline_mimalloc
bin=target/release/livingblocks
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run() { # threads -> "wall_s games rss_kib" of one run
  # shellcheck disable=SC2086
  /usr/bin/time -f "%e %M" -o "$work/time" "$bin" analyze "$dir" --out "$work/j$1" -j "$1" -q $args 2>"$work/log"
  # The games are games.csv's rows, as summary.csv counts them: -q prints no summary line.
  local games wall rss; games=$(awk -F, '$1 == "rows" {print $4}' "$work/j$1/summary.csv")
  [ -n "$games" ] || { echo "bench: no games counted in run at -j $1" >&2; cat "$work/log" >&2; exit 1; }
  read -r wall rss <"$work/time"
  echo "$wall $games $rss"
}
faster() { # "wall games rss" candidates -> the one with the least wall time
  awk 'NF && (best == "" || $1 < w) {w = $1; best = $0} END {print best}'
}
baseline_rate() { # example -> games/s of one run
  target/release/examples/"$1" "$dir" | grep -o '[0-9]* games/s' | grep -o '^[0-9]*'
}

# One untimed pass first, so that every timed run reads the files from the page cache.
target/release/examples/parse_baseline "$dir" >/dev/null

measure() { # name [analyze arguments]: writes reports/bench/NAME.md and NAME.csv
  local name=$1; shift
  args="$*"
  # The two baselines and the one-thread run take turns, so that the machine's drift during the
  # run weighs on all three alike.
  baseline=0 baseline_mi=0 ones=""
  for _ in $(seq "$repeats"); do
    b=$(baseline_rate parse_baseline); [ "$b" -gt "$baseline" ] && baseline=$b
    b=$(baseline_rate parse_baseline_mimalloc); [ "$b" -gt "$baseline_mi" ] && baseline_mi=$b
    ones+="$(run 1)"$'\n'
  done
  read -r w1 g1 r1 <<<"$(faster <<<"$ones")"
  ns=""
  for _ in $(seq "$repeats"); do ns+="$(run "$threads")"$'\n'; done
  read -r wn gn rn <<<"$(faster <<<"$ns")"
  same=yes
  for f in games.csv blocks.csv chains.csv big_eyes.csv manifest.tsv summary.csv report.md; do
    cmp -s "$work/j1/$f" "$work/j$threads/$f" || same=no
  done
  cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
  rate() { awk -v g="$1" -v w="$2" 'BEGIN{printf "%.0f", g/w}'; }
  mib() { awk -v k="$1" 'BEGIN{printf "%.1f", k/1024}'; }
  speedup=$(awk -v a="$w1" -v b="$wn" 'BEGIN{printf "%.2f", a/b}')

  mkdir -p reports/bench
  {
    echo "threads,wall_s,games,games_per_s,peak_rss_mib"
    echo "1,$w1,$g1,$(rate "$g1" "$w1"),$(mib "$r1")"
    echo "$threads,$wn,$gn,$(rate "$gn" "$wn"),$(mib "$rn")"
  } >"reports/bench/$name.csv"
  cat >"reports/bench/$name.md" <<MD
# livingblocks throughput

\`scripts/bench.sh $dir $threads $repeats\`, \`analyze ${args:-(default)}\`, on $(date -u +%Y-%m-%d): $(nproc) cores ($cpu),
$(free -g | awk '/Mem:/{print $2}') GiB, release build, best of $repeats runs, files in the page cache.

| threads | wall | games | games/s | peak RSS |
|---|---|---|---|---|
| 1 | ${w1} s | $g1 | $(rate "$g1" "$w1") | $(mib "$r1") MiB |
| $threads | ${wn} s | $gn | $(rate "$gn" "$wn") | $(mib "$rn") MiB |

Speed-up at $threads threads: ${speedup}×. Outputs byte-identical at 1 and $threads threads: $same.

Baseline (sgf-parse alone reading, parsing and walking the main lines, one thread; best of
$repeats runs taking turns with the one-thread runs): $baseline games/s with the system allocator (\`cargo run --release --example
parse_baseline -- $dir\`), $baseline_mi games/s with mimalloc, the binary's allocator
(\`--example parse_baseline_mimalloc\`). One thread of the full run reaches $(awk -v g="$g1" -v w="$w1" -v b="$baseline" 'BEGIN{printf "%.0f", 100*g/w/b}') % of the
first and $(awk -v g="$g1" -v w="$w1" -v b="$baseline_mi" 'BEGIN{printf "%.0f", 100*g/w/b}') % of the second.
MD
  cat "reports/bench/$name.md"
}

measure bench
measure bench_estimate_never --estimate never
