#!/usr/bin/env bash
# Sets KataGo up from nothing on a machine without a GPU and analyses counted professional
# positions with `--katago`, twice, checking that the tables are byte-identical; then with
# `--net` (the same net in-process), at one and two threads, checking its answers against
# KataGo's.
#
# KaTrain (on the Python package index) bundles KataGo as a Linux AppImage (OpenCL build) and
# a net; Debian's pocl runs OpenCL on the CPU. KataGo's OpenCL autotuner crashes under pocl,
# so the tuning file it looks for is written here instead (its format: KataGo's
# cpp/neuralnet/opencltuner.cpp, version 13, every kernel at its default parameters).
#
#   scripts/katago-check.sh            # 30 positions of tests/fixtures/pro-score-sample.txt
#   N=300 scripts/katago-check.sh      # the whole sample
#
# Fails when --net's tables differ between thread counts or its lead (beyond 0.05) or dead
# stones differ from KataGo's. Leaves the engine in $KATAGO_WORK (default
# /tmp/livingblocks-katago) and prints the command line to give --katago.
#
# Where it cannot run (no ../shared, no package index, no OpenCL and no root with apt-get to
# install it) it says why and exits 3, as scripts/get-net.sh does; under CI (`CI` set), which
# must run it, that is a failure (exit 1).
set -euo pipefail
cd "$(dirname "$0")/.."

skip() {
  if [ -n "${CI:-}" ]; then
    echo "katago-check: cannot run under CI: $*" >&2
    exit 1
  fi
  echo "katago-check: skipped: $*" >&2
  exit 3
}

KATRAIN=1.20.0
NET=b10c384h6nbttflrs
WORK=${KATAGO_WORK:-/tmp/livingblocks-katago}
N=${N:-30}
GAMES=../shared/corpus/pro/games

[ -d "$GAMES" ] || skip "$GAMES is absent"
mkdir -p "$WORK"

katago="$WORK/katago/squashfs-root/AppRun"
net="$WORK/katrain/models/$NET.bin.gz"
if [ ! -x "$katago" ] || [ ! -f "$net" ]; then
  if ! python3 -m pip download --quiet --disable-pip-version-check --no-deps \
      "katrain==$KATRAIN" -d "$WORK/wheel" 2>"$WORK/pip.log"; then
    skip "cannot download katrain $KATRAIN from the package index ($(tail -n 1 "$WORK/pip.log"))"
  fi
  python3 - "$WORK" "$KATRAIN" "$NET" <<'PY'
import sys, zipfile
work, version, net = sys.argv[1:]
with zipfile.ZipFile(f"{work}/wheel/katrain-{version}-py3-none-any.whl") as z:
    z.extract("katrain/KataGo/katago", f"{work}/katago-image")
    z.extract(f"katrain/models/{net}.bin.gz", work)
PY
  chmod +x "$WORK/katago-image/katrain/KataGo/katago"
  (mkdir -p "$WORK/katago" && cd "$WORK/katago" &&
    ../katago-image/katrain/KataGo/katago --appimage-extract >/dev/null)
fi

if ! ldconfig -p | grep libOpenCL.so.1 >/dev/null || [ ! -d /etc/OpenCL/vendors ]; then
  { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; } ||
    skip "no OpenCL, and only root with apt-get installs it here (pocl-opencl-icd, ocl-icd-libopencl1)"
  opencl() {
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q pocl-opencl-icd ocl-icd-libopencl1 \
      >>"$WORK/apt.log" 2>&1
  }
  : >"$WORK/apt.log"
  opencl || { apt-get update -q >>"$WORK/apt.log" 2>&1 && opencl; } ||
    skip "apt-get cannot install pocl-opencl-icd and ocl-icd-libopencl1 ($(tail -n 1 "$WORK/apt.log"))"
fi

cat >"$WORK/tune.txt" <<'TUNE'
VERSION=13
#canUseFP16Storage
0
#canUseFP16Compute
0
#canUseFP16TensorCores
0
#canUseFP16TensorCoresFor1x1
0
#shouldUseFP16Storage
0
#shouldUseFP16Compute
0
#shouldUseFP16TensorCores
0
#shouldUseFP16TensorCoresFor1x1
0
#xGemmDirect
WGD=8 MDIMCD=1 NDIMCD=1 MDIMAD=1 NDIMBD=1 KWID=1 VWMD=1 VWND=1 PADA=1 PADB=1
#xGemm
MWG=8 NWG=8 KWG=8 MDIMC=1 NDIMC=1 MDIMA=1 NDIMB=1 KWI=1 VWM=1 VWN=1 STRM=0 STRN=0 SA=0 SB=0
#xGemm16
MWG=8 NWG=8 KWG=8 MDIMC=1 NDIMC=1 MDIMA=1 NDIMB=1 KWI=1 VWM=1 VWN=1 STRM=0 STRN=0 SA=0 SB=0
#hGemmWmma
MWG=16 NWG=16 KWG=16 MWAVE=16 NWAVE=16 MWARP=16 NWARP=16 VWM=2 VWN=2 SA=0 SB=0
#hGemmWmmaNCHW
MWG=16 NWG=16 KWG=16 MWAVE=16 NWAVE=16 MWARP=16 NWARP=16 VWM=1 VWN=2 SB=0
#conv3x3
INTILE_XSIZE=4 INTILE_YSIZE=4 OUTTILE_XSIZE=2 OUTTILE_YSIZE=2 transLocalSize0=1 transLocalSize1=1 untransLocalSize0=1 untransLocalSize1=1 untransLocalSize2=1
#conv5x5
INTILE_XSIZE=6 INTILE_YSIZE=6 OUTTILE_XSIZE=2 OUTTILE_YSIZE=2 transLocalSize0=1 transLocalSize1=1 untransLocalSize0=1 untransLocalSize1=1 untransLocalSize2=1
#gPool
XYSTRIDE=1 CHANNELSTRIDE=1 BATCHSTRIDE=1
#transformer
ATTN_BLOCK_Q=32 ATTN_BLOCK_KV=32 Q_PER_THREAD=1 USE_TILED_ATTN=1
#transformerRMSNorm
WG_C_SIZE=64 WG_XY_SIZE=1 C_PER_THREAD=4
#pointWise
ELTS_PER_THREAD=1 LOCAL_SIZE=32
#addChannelBiasesNCHW
XY_ELTS_PER_THREAD=1 NC_ELTS_PER_THREAD=1
#spatialRMSNorm
TILE_SIZE=32 APPLY_ELTS_PER_THREAD=1
TUNE

cat >"$WORK/analysis.cfg" <<CFG
logDir = $WORK/logs
reportAnalysisWinratesAs = BLACK
maxVisits = 1
numAnalysisThreads = 2
numSearchThreads = 1
nnMaxBatchSize = 8
nnCacheSizePowerOfTwo = 16
nnMutexPoolSizePowerOfTwo = 12
openclTunerFile = $WORK/tune.txt
CFG

cmd="$katago analysis -model $net -config $WORK/analysis.cfg"
# The test build's binary: KataGo's time is all of it, and CI has that one built already.
cargo build --locked --quiet --bin livingblocks
head -n "$N" tests/fixtures/pro-score-sample.txt | sed "s|^|$GAMES/|" >"$WORK/list.txt"
for run in a b; do
  rm -rf "$WORK/out-$run"
  target/debug/livingblocks analyze --files-from "$WORK/list.txt" --out "$WORK/out-$run" \
    --katago "$cmd" --diagrams 0 -j 2 2>"$WORK/run-$run.log" \
    || { cat "$WORK/run-$run.log"; exit 1; }
done
for t in games.csv blocks.csv summary.csv; do
  cmp "$WORK/out-a/$t" "$WORK/out-b/$t" || { echo "katago-check: $t differs between two runs"; exit 1; }
done
grep KataGo "$WORK/run-a.log"
python3 - "$WORK/out-a/games.csv" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["margin"]]
asked = [r for r in rows if r["katago_lead"]]
if len(asked) != len(rows):
    sys.exit(f"katago-check: {len(rows) - len(asked)} counted games without a KataGo lead")
def same(col):
    return sum(1 for r in rows if r[col] and abs(float(r[col]) - float(r["margin"]) * (1 if r["winner"] == "B" else -1)) < 1e-3)
n = len(rows)
for col in ["margin_katago_score", "margin_katago_lead", "margin_katago", "margin_estimate"]:
    print(f"  {col} = RE: {same(col)} of {n}")
PY
# The same positions judged by the net in-process (`--net`), at one thread and at two: the
# tables byte-identical, and the net's answers KataGo's.
for j in 1 2; do
  rm -rf "$WORK/out-net$j"
  target/debug/livingblocks analyze --files-from "$WORK/list.txt" --out "$WORK/out-net$j" \
    --net "$net" --diagrams 0 -j "$j" 2>"$WORK/run-net$j.log" \
    || { cat "$WORK/run-net$j.log"; exit 1; }
done
for t in games.csv blocks.csv summary.csv; do
  cmp "$WORK/out-net1/$t" "$WORK/out-net2/$t" \
    || { echo "katago-check: --net's $t differs between 1 and 2 threads"; exit 1; }
done
grep "KataGo net" "$WORK/run-net1.log"
python3 - "$WORK/out-a/games.csv" "$WORK/out-net1/games.csv" <<'PY'
import csv, sys
katago, net = ([r for r in csv.DictReader(open(f))] for f in sys.argv[1:])
asked = [(k, n) for k, n in zip(katago, net) if k["katago_lead"]]
assert all(k["file"] == n["file"] for k, n in zip(katago, net))
off = [k["file"] for k, n in asked
       if not n["katago_lead"] or abs(float(k["katago_lead"]) - float(n["katago_lead"])) > 0.05
       or k["dead_katago"] != n["dead_katago"]]
print(f"  --net against KataGo: lead within 0.05 and the same dead stones in {len(asked) - len(off)} of {len(asked)}")
if off:
    sys.exit(f"katago-check: --net differs from KataGo on {' '.join(off)}")
PY
echo "katago-check: ok; --katago \"$cmd\""
