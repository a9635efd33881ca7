#!/usr/bin/env bash
# tools/slurm/local-cluster.sh start DIR | stop DIR - a one-node Slurm cluster on
# this machine, for trying the job scripts of docs/CLUSTER.md (and for `make
# test-slurm`): Debian's munged with a key and socket of its own, and slurmctld
# and slurmd on localhost with a slurm.conf written to DIR/slurm.conf (one
# partition, `stern`, of this machine's CPUs; state, spool and logs under DIR).
#
# start: DIR is best a new, empty directory (its mode becomes 755); refused when
#        it holds a running cluster; waits until the node is idle (20 s at most)
#        and prints the line to give the shell: export SLURM_CONF=... When start
#        fails it stops what it started.
# stop:  cancels every job, stops slurmctld, slurmd and munged (TERM, then KILL
#        after 5 s); exit status 1 when one had to be killed.
# Needs root (the daemons run as root) and `make slurm-deps`. Exit status 2 on a
# missing program or a wrong argument.
set -euo pipefail
cmd=${1:-}
W=${2:-}
[ -n "$W" ] && { [ "$cmd" = start ] || [ "$cmd" = stop ]; } ||
  { echo "usage: local-cluster.sh start|stop DIR" >&2; exit 2; }
mkdir -p "$W"
W=$(cd "$W" && pwd)
export SLURM_CONF=$W/slurm.conf
MUNGE_SOCK=$W/munge/socket

if [ "$cmd" = stop ]; then
  status=0 pids=
  set +e
  squeue -h -o %i 2>/dev/null | xargs -r scancel >/dev/null 2>&1 && sleep 1
  scontrol shutdown >/dev/null 2>&1
  for f in "$W/slurmctld.pid" "$W/slurmd.pid" "$W/munge/pid"; do
    [ -f "$f" ] && pids="$pids $(cat "$f")"
  done
  [ -f "$W/munge/pid" ] && kill -TERM "$(cat "$W/munge/pid")" 2>/dev/null
  for pid in $pids; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && { echo "local-cluster: $pid would not stop: killed" >&2; kill -9 "$pid"; status=1; }
  done
  rm -f "$W/slurmctld.pid" "$W/slurmd.pid" "$W/munge/pid"
  exit $status
fi

[ "$(id -u)" = 0 ] || { echo "local-cluster: start needs root (the daemons run as root)" >&2; exit 2; }
for f in "$W/slurmctld.pid" "$W/slurmd.pid" "$W/munge/pid"; do
  if [ -f "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null; then
    echo "local-cluster: $W holds a running cluster ($f): stop it first" >&2
    exit 2
  fi
done
for p in munged munge unmunge slurmctld slurmd sinfo; do
  command -v "$p" >/dev/null || { echo "local-cluster: $p is missing: run make slurm-deps" >&2; exit 2; }
done
# Two free ports below Linux's ephemeral range (32768 and up).
port_free() { ! command -v ss >/dev/null || [ -z "$(ss -Htln "sport = :$1")" ]; }
for _ in $(seq 20); do
  CTLD_PORT=$((10000 + RANDOM % 20000))
  SLURMD_PORT=$((CTLD_PORT + 1))
  port_free $CTLD_PORT && port_free $SLURMD_PORT && break
done

trap '"$0" stop "$W" >/dev/null 2>&1' ERR

# ---- munge: a key of our own, a socket of our own ----
mkdir -p "$W/munge" "$W/state" "$W/spool" "$W/log"
chmod 755 "$W"
chmod 700 "$W/munge"
dd if=/dev/urandom of="$W/munge/key" bs=1024 count=1 status=none
chmod 600 "$W/munge/key"
munged --socket="$MUNGE_SOCK" --key-file="$W/munge/key" --pid-file="$W/munge/pid" \
  --log-file="$W/munge/log" --seed-file="$W/munge/seed" --force
munge --socket="$MUNGE_SOCK" -n | unmunge --socket="$MUNGE_SOCK" >/dev/null

# ---- slurmctld and slurmd on localhost ----
cat > "$SLURM_CONF" <<EOF
ClusterName=sternlocal
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
AuthType=auth/munge
AuthInfo=socket=$MUNGE_SOCK
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$W/state
SlurmdSpoolDir=$W/spool
SlurmctldPidFile=$W/slurmctld.pid
SlurmdPidFile=$W/slurmd.pid
SlurmctldLogFile=$W/log/slurmctld.log
SlurmdLogFile=$W/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$W/log/jobcomp.txt
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MinJobAge=600
ReturnToService=2
MpiDefault=none
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=stern Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -i
slurmd -N localhost
for _ in $(seq 100); do
  sinfo -h -o %T 2>/dev/null | grep -q idle && break
  sleep 0.2
done
if ! sinfo -h -o %T 2>/dev/null | grep -q idle; then
  echo "local-cluster: the node is not idle after 20 s (logs in $W/log): stopped" >&2
  "$0" stop "$W" >/dev/null 2>&1
  exit 1
fi
trap - ERR
printf 'export SLURM_CONF=%q\n' "$SLURM_CONF"
