#!/usr/bin/env bash
# Runs the README's Slurm job array and merge on a single-node Slurm cluster set up here, over
# 96 records of corpus/ in 4 shards, and checks that the merged outputs equal one run's byte for byte.
#
# The job script and the submit commands are taken from README.md (section "Slurm job
# array"), so the documentation cannot drift from what is tested; only the data folder
# (/data/games → a folder of corpus/'s first 96 records, so that the default run's net, in
# the test build, judges a few dozen positions rather than a thousand) and the array size (SBATCH_ARRAY_INX=0-3, an sbatch input variable)
# are changed. Needs root and apt (it installs slurm-wlm and munge if missing); anywhere else
# it says why and exits 3, as scripts/get-net.sh does, and under CI (`CI` set), which must run
# it, that is a failure (exit 1). Everything it starts lives in a temporary folder and is
# stopped and removed at the end, whatever happens.
#
#   scripts/slurm-check.sh            (CI runs it from .ci/run)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

skip() {
  if [ -n "${CI:-}" ]; then
    echo "slurm-check: cannot run under CI: $*" >&2
    exit 1
  fi
  echo "slurm-check: skipped: $*" >&2
  exit 3
}
[ "$(id -u)" = 0 ] || skip "needs root (to run munged and the Slurm daemons)"

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  command -v apt-get >/dev/null || skip "needs apt-get to install slurm-wlm and munge"
  echo "slurm-check: installing slurm-wlm and munge"
  apt_log=$(mktemp /tmp/slurm-check-apt.XXXXXX)
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
      --no-install-recommends slurm-wlm munge; } >"$apt_log" 2>&1 ||
    skip "apt-get cannot install slurm-wlm and munge ($(tail -n 1 "$apt_log"))"
  rm -f "$apt_log"
fi

# The test build's binary (CI has it built already): what is checked is the job array and
# the merge, not the speed.
cargo build --quiet --bin livingblocks
export PATH="$repo/target/debug:$PATH"

work=$(mktemp -d /tmp/slurm-check.XXXXXX)
chmod 755 "$work"
host=$(hostname -s)
export SLURM_CONF="$work/slurm.conf"
cleanup() {
  set +e
  [ -f "$work/slurmd.pid" ] && kill "$(cat "$work/slurmd.pid")" 2>/dev/null
  [ -f "$work/slurmctld.pid" ] && kill "$(cat "$work/slurmctld.pid")" 2>/dev/null
  [ -f "$work/munged.pid" ] && kill "$(cat "$work/munged.pid")" 2>/dev/null
  sleep 1
  rm -rf "$work"
}
trap cleanup EXIT

# munge, with its key, socket and state in the temporary folder.
mkdir -p "$work/munge"
dd if=/dev/urandom of="$work/munge/key" bs=1024 count=1 status=none
chmod 400 "$work/munge/key"
munged --force --key-file="$work/munge/key" --socket="$work/munge/socket" \
  --pid-file="$work/munged.pid" --log-file="$work/munge/log" --seed-file="$work/munge/seed"

# One node, one partition. The node claims 8 CPUs and 16 GB (config_overrides) so that the
# README's --cpus-per-task=4 and --mem=2G fit on a small machine; the work itself runs on
# whatever cores there are.
mkdir -p "$work/state" "$work/spool" "$work/job"
cat >"$SLURM_CONF" <<CONF
ClusterName=lbcheck
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge/socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SlurmdParameters=config_overrides
ReturnToService=2
SchedulerType=sched/backfill
MpiDefault=none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=8 RealMemory=16000 State=UNKNOWN
PartitionName=check Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 60); do
  sinfo -h -o %T 2>/dev/null | grep -E '^(idle|mixed)' >/dev/null && break
  sleep 1
done
sinfo -h -o %T | grep -E '^(idle|mixed)' >/dev/null || {
  echo "slurm-check: the node did not come up" >&2
  tail -20 "$work/slurmctld.log" "$work/slurmd.log" >&2
  exit 1
}

# The README's two code blocks under "### Slurm job array": the job script, then the submit
# commands.
awk '/^### Slurm job array/ {on=1} on && /^```bash/ {n++; keep=1; next} on && /^```/ {keep=0; if (n==2) exit} keep {print > (n==1 ? f1 : f2)}' \
  f1="$work/job/analyze.sbatch" f2="$work/job/submit.sh" README.md
[ -s "$work/job/analyze.sbatch" ] && [ -s "$work/job/submit.sh" ] || {
  echo "slurm-check: README.md has no Slurm job array section with two bash blocks" >&2
  exit 1
}
mkdir -p "$work/games"
# No `head` inside a pipeline: under pipefail, the writer it stops early dies of SIGPIPE
# (exit 141) whenever it has not finished writing.
(cd "$repo/corpus" && find . -name '*.sgf' -print0 | sort -z >"$work/records")
head -z -n 96 "$work/records" | (cd "$repo/corpus" && xargs -0 cp --parents -t "$work/games")
sed -i "s#/data/games#$work/games#g" "$work/job/analyze.sbatch"
echo "slurm-check: the job script, as the README gives it (data folder: 96 records of corpus/):"
sed 's/^/    /' "$work/job/analyze.sbatch"
echo "slurm-check: submitting, 4 shards:"
sed 's/^/    /' "$work/job/submit.sh"
(cd "$work/job" && SBATCH_ARRAY_INX=0-3 bash submit.sh)

# Wait for the array and the merge to leave the queue.
for _ in $(seq 600); do
  [ -z "$(squeue -h 2>/dev/null)" ] && break
  sleep 1
done
[ -z "$(squeue -h)" ] || { echo "slurm-check: jobs still queued after 10 minutes" >&2; squeue >&2; exit 1; }
if grep -l . "$work"/job/slurm-*.out >/dev/null 2>&1; then
  echo "slurm-check: what the jobs printed:"
  for f in "$work"/job/slurm-*.out; do sed "s#^#    $(basename "$f"): #" "$f"; done
fi
[ -f "$work/job/reports/manifest.tsv" ] || {
  echo "slurm-check: the merge job wrote no reports/" >&2
  tail -20 "$work/slurmctld.log" >&2
  exit 1
}

# One run over everything, for comparison.
livingblocks analyze "$work/games" --out "$work/single" -q
if diff -r "$work/single" "$work/job/reports" >"$work/diff" 2>&1; then
  echo "slurm-check: ok: 4 shards merged by Slurm equal one run byte for byte ($(ls "$work/single" | wc -l) entries)"
else
  echo "slurm-check: the merged outputs differ from one run:" >&2
  head -20 "$work/diff" >&2
  exit 1
fi
