#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for Ratchet's Slurm tests and bench:slurm (issue #18).
#
#   scripts/slurm-local.sh start    install what is missing, write the config, start the daemons,
#                                   wait until `sinfo` shows the node idle (idempotent)
#   scripts/slurm-local.sh stop     stop the daemons it started (idempotent)
#   scripts/slurm-local.sh status   say what runs
#
# Debian 12 as root, no systemd (a container, CI): the daemons are started directly, their pid
# files, logs and state under $RATCHET_SLURM_DIR (default /var/tmp/ratchet-slurm).
#
# Why slurmdbd and MariaDB: `sacct` reads job states and elapsed times from slurmdbd only
# (Slurm 22.05 has no file-based accounting sacct can read: accounting_storage/filetxt is gone and
# `sacct --completion` with it), and Ratchet reads finished tasks' states and cluster-seconds with
# sacct, as it would on a real cluster. MariaDB is Debian's; it costs about 40 s of apt the first
# time and 1 to 2 s to start.
#
# The config is written to /etc/slurm (where every Slurm command looks), marked as this script's;
# a slurm.conf that is not is left alone and the script stops, so a real cluster's is never touched.
set -euo pipefail

STATE=${RATCHET_SLURM_DIR:-/var/tmp/ratchet-slurm}
CONF_DIR=/etc/slurm
MARK='# Written by Ratchet scripts/slurm-local.sh'
CLUSTER=ratchet
DB_PASS=ratchet-local
WAIT_S=${RATCHET_SLURM_WAIT_S:-120}

say() { printf 'slurm-local: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

need_root() { [ "$(id -u)" = 0 ] || die "run as root (it installs packages and starts the Slurm daemons)"; }

install_missing() {
  local missing=()
  for cmd in munged slurmctld slurmd slurmdbd sbatch sacct mariadbd; do command -v "$cmd" >/dev/null 2>&1 || missing+=("$cmd"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing slurm-wlm, slurmdbd, munge and mariadb-server with apt (missing: ${missing[*]})"
  export DEBIAN_FRONTEND=noninteractive
  # The daemons must not be started by the packages' scripts (there is no init system here).
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
    trap 'rm -f /usr/sbin/policy-rc.d' RETURN
  fi
  apt-get install -y slurm-wlm slurmdbd munge mariadb-server >/dev/null 2>&1 || {
    apt-get update >/dev/null
    apt-get install -y slurm-wlm slurmdbd munge mariadb-server >/dev/null
  }
}

alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# wait_for SECONDS DESCRIPTION COMMAND...: polls COMMAND every 0.2 s until it succeeds.
wait_for() {
  local limit=$1 what=$2
  shift 2
  local end=$((SECONDS + limit))
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $end ] || return 1
    sleep 0.2
  done
  say "$what"
}

write_config() {
  local node conf=$CONF_DIR/slurm.conf line
  node=$(hostname -s)
  if [ -f "$conf" ] && ! grep -qF "$MARK" "$conf"; then
    die "$conf exists and was not written by this script: not touching a cluster's config"
  fi
  mkdir -p "$CONF_DIR" "$STATE/ctld" "$STATE/d"
  # `slurmd -C` prints this machine's node line (CPUs, sockets, cores, RealMemory) as slurmd will
  # find it, so the node never registers with less than it is configured for (it would be drained).
  line=$(slurmd -C | head -1)
  case "$line" in NodeName=*) ;; *) die "slurmd -C printed no node line: $line" ;; esac
  cat >"$conf.tmp" <<EOF
$MARK: a one-node test cluster on $node.
ClusterName=$CLUSTER
SlurmctldHost=$node
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$STATE/ctld
SlurmdSpoolDir=$STATE/d
SlurmctldPidFile=$STATE/slurmctld.pid
SlurmdPidFile=$STATE/slurmd.pid
SlurmctldLogFile=$STATE/slurmctld.log
SlurmdLogFile=$STATE/slurmd.log
SlurmctldPort=6817
SlurmdPort=6818
# No cgroups in a container: processes are tracked by their parent chain, tasks are not bound.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
# Cores are scheduled; memory is checked against the node but not consumed (no cgroup enforces it).
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=30
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=$node
JobCompType=jobcomp/none
SchedulerType=sched/backfill
# Schedule at once on submit and when a task ends, not in batches: tests wait on job states.
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0,defer_batch=0
MaxArraySize=1001
MinJobAge=300
KillWait=5
OverTimeLimit=0
InactiveLimit=0
ReturnToService=2
SlurmdTimeout=300
MpiDefault=none
${line%% UpTime=*} State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
  mv "$conf.tmp" "$conf"
  cat >"$CONF_DIR/slurmdbd.conf" <<EOF
$MARK.
AuthType=auth/munge
DbdHost=$node
SlurmUser=root
PidFile=$STATE/slurmdbd.pid
LogFile=$STATE/slurmdbd.log
StorageType=accounting_storage/mysql
StorageHost=localhost
StorageUser=slurm
StoragePass=$DB_PASS
StorageLoc=slurm_acct_db
EOF
  chmod 600 "$CONF_DIR/slurmdbd.conf"
}

start_munge() {
  if alive /run/munge/munged.pid; then return 0; fi
  mkdir -p /run/munge /var/lib/munge /var/log/munge
  chown munge:munge /run/munge /var/lib/munge /var/log/munge
  chmod 755 /run/munge
  [ -f /etc/munge/munge.key ] || { mungekey --create >/dev/null 2>&1 || dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 2>/dev/null; }
  chown munge:munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key
  runuser -u munge -- munged
  wait_for 20 "munged is up" sh -c 'munge -n | unmunge' || die "munged did not start (see /var/log/munge/munged.log)"
}

start_mariadb() {
  if ! mariadb -e 'select 1' >/dev/null 2>&1; then
    mkdir -p /run/mysqld "$STATE/mysql"
    chown mysql:mysql /run/mysqld "$STATE/mysql"
    [ -d /var/lib/mysql/mysql ] || mariadb-install-db --user=mysql --datadir=/var/lib/mysql >/dev/null
    # No TCP: slurmdbd reaches it on its Unix socket (StorageHost=localhost).
    (setsid mariadbd --user=mysql --skip-networking --pid-file="$STATE/mysql/mariadb.pid" --log-error="$STATE/mysql/mariadb.log" </dev/null >/dev/null 2>&1 &)
    wait_for 60 "MariaDB is up" mariadb -e 'select 1' || die "MariaDB did not start (see $STATE/mysql/mariadb.log)"
  fi
  mariadb -e "CREATE USER IF NOT EXISTS 'slurm'@'localhost' IDENTIFIED BY '$DB_PASS'; GRANT ALL ON slurm_acct_db.* TO 'slurm'@'localhost';"
}

start_slurm() {
  if ! alive "$STATE/slurmdbd.pid"; then
    slurmdbd
    wait_for 60 "slurmdbd is up" sacctmgr -n list cluster || die "slurmdbd did not start (see $STATE/slurmdbd.log)"
  fi
  sacctmgr -n list cluster format=cluster | grep -qw "$CLUSTER" || sacctmgr -i add cluster "$CLUSTER" >/dev/null
  if ! alive "$STATE/slurmctld.pid"; then
    slurmctld
    wait_for 60 "slurmctld is up" scontrol ping || die "slurmctld did not start (see $STATE/slurmctld.log)"
  fi
  if ! alive "$STATE/slurmd.pid"; then slurmd; fi
  local node
  node=$(hostname -s)
  # A node left down or drained by an earlier run (a stop mid-job) is returned to service.
  scontrol update nodename="$node" state=resume >/dev/null 2>&1 || true
  if ! wait_for "$WAIT_S" "the node $node is idle: the local cluster is ready" sh -c "sinfo -h -n '$node' -o %t | grep -qx idle"; then
    die "the node $node did not become idle within $WAIT_S s (sinfo says: $(sinfo -h -N -o '%N %t %E' 2>&1 | tr '\n' ' ')); see $STATE/slurmd.log and $STATE/slurmctld.log"
  fi
}

stop_pid() {
  local file=$1 name=$2 pid
  alive "$file" || return 0
  pid=$(cat "$file")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || { say "$name stopped"; return 0; }; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
  say "$name killed"
}

case "${1:-}" in
  start)
    need_root
    t0=$SECONDS
    install_missing
    write_config
    start_munge
    start_mariadb
    start_slurm
    say "started in $((SECONDS - t0)) s; logs and state in $STATE"
    ;;
  stop)
    need_root
    # Jobs still running would hold the node; the tests cancel theirs, this cancels any left.
    if alive "$STATE/slurmctld.pid"; then scancel --full --quiet --user=root 2>/dev/null || true; fi
    stop_pid "$STATE/slurmd.pid" slurmd
    stop_pid "$STATE/slurmctld.pid" slurmctld
    stop_pid "$STATE/slurmdbd.pid" slurmdbd
    stop_pid "$STATE/mysql/mariadb.pid" MariaDB
    stop_pid /run/munge/munged.pid munged
    ;;
  status)
    for d in slurmd slurmctld slurmdbd; do alive "$STATE/$d.pid" && echo "$d: running" || echo "$d: stopped"; done
    alive "$STATE/mysql/mariadb.pid" && echo "mariadb: running" || echo "mariadb: stopped"
    alive /run/munge/munged.pid && echo "munged: running" || echo "munged: stopped"
    sinfo -h -N -o '%N %t' 2>/dev/null || true
    ;;
  *)
    echo "usage: $0 start|stop|status" >&2
    exit 2
    ;;
esac
