#!/usr/bin/env bash
# Fetches the KataGo nets that `--net` is tested against, out of KaTrain's wheels on the
# Python package index. The project ships no weights; each net's own licence applies.
#
#   b10  b10c384h6nbttflrs.bin.gz                      (in KaTrain 1.20.0)
#   b15  g170e-b15c192-s1672170752-d466197061.bin.gz   (in KaTrain 1.13.0)
#
#   scripts/get-net.sh [b10|b15|all] [DIR]
#
# DIR defaults to $LIVINGBLOCKS_NETS, else ~/.cache/livingblocks/nets. Prints each net's
# path, one a line; a net already there (with the expected SHA-256) is kept. Without the package
# index it says "get-net: skipped: <why>" on stderr and exits 3 (under CI, it fails).
set -euo pipefail

# KaTrain's version, the net, and the SHA-256 of the file the tests were made with.
B10=1.20.0:b10c384h6nbttflrs:0ba27eced5180b3e3d0b898b280c541112989765e789d1eb6cd0d31b2b2c1229
B15=1.13.0:g170e-b15c192-s1672170752-d466197061:1579a64e6190c3a8d73eeb96feb4dee1879f9e5e114279b15d6c56dbab3b0f78
case ${1:-all} in
  b10) nets=$B10 ;;
  b15) nets=$B15 ;;
  all) nets="$B10 $B15" ;;
  *) echo "usage: $0 [b10|b15|all] [DIR]" >&2; exit 2 ;;
esac
dir=${2:-${LIVINGBLOCKS_NETS:-$HOME/.cache/livingblocks/nets}}
mkdir -p "$dir"
tmp=
trap '[ -z "$tmp" ] || rm -rf "$tmp"' EXIT

for entry in $nets; do
  IFS=: read -r version net sha <<<"$entry"
  file=$dir/$net.bin.gz
  if [ ! -f "$file" ] || ! echo "$sha  $file" | sha256sum --check --status; then
    tmp=$(mktemp -d "$dir/.get-net.XXXXXX")
    if ! python3 -m pip download --quiet --disable-pip-version-check --no-deps \
        "katrain==$version" -d "$tmp" >"$tmp/pip.log" 2>&1; then
      why="cannot download katrain $version from the package index ($(tail -n 1 "$tmp/pip.log"))"
      if [ -n "${CI:-}" ]; then echo "get-net: $why" >&2; exit 1; fi
      echo "get-net: skipped: $why" >&2
      exit 3
    fi
    # The wheel's name is KaTrain-… in old releases, katrain-… in new ones.
    python3 - "$tmp" "katrain/models/$net.bin.gz" <<'PY'
import glob, shutil, sys, zipfile
tmp, member = sys.argv[1:]
(wheel,) = glob.glob(f"{tmp}/*.whl")
with zipfile.ZipFile(wheel) as z, z.open(member) as src, open(f"{tmp}/net", "wb") as dst:
    shutil.copyfileobj(src, dst)
PY
    echo "$sha  $tmp/net" | sha256sum --check --status \
      || { echo "get-net: $net in katrain $version is not the file the tests were made with" >&2; exit 1; }
    mv "$tmp/net" "$file"
    rm -rf "$tmp"
    tmp=
  fi
  echo "$file"
done
