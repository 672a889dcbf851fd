#!/usr/bin/env bash
# A real single-node SLURM cluster on localhost, for testing `snakemake --profile slurm`.
#   scripts/slurm_cluster.sh up      install (Debian packages) and start munge, MariaDB, slurmdbd,
#                                    slurmctld, slurmd; create account `ci` and partition `debug`
#   scripts/slurm_cluster.sh down    stop every daemon it started, by PID, in reverse order
#   scripts/slurm_cluster.sh status  sinfo + sacctmgr
# Needs root and Debian 12 (slurm-wlm 22.05); no systemd: daemons run in the foreground under setsid.
# Recipe and measurements: ../shared/notes/local-slurm.md.
set -euo pipefail

state=${MSBENCH_SLURM_STATE:-/tmp/msbench-slurm}
pids="$state/pids"
log() { echo "[slurm-cluster] $*"; }

wait_for() {  # wait_for SECONDS DESCRIPTION COMMAND...
  local seconds=$1 what=$2; shift 2
  for _ in $(seq 1 $((seconds * 5))); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.2
  done
  log "timed out waiting for $what"; return 1
}

start() {  # start NAME COMMAND...  (records the PID of the daemon itself)
  local name=$1; shift
  setsid "$@" >"$state/$name.out" 2>&1 &
  echo "$name $!" >>"$pids"
}

install_packages() {
  if command -v slurmctld >/dev/null && command -v slurmdbd >/dev/null && command -v mariadbd >/dev/null; then
    return
  fi
  log "installing slurm-wlm, munge, slurmdbd and MariaDB (Debian packages)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client slurmdbd munge mariadb-server >/dev/null
}

write_config() {
  local host node
  host=$(hostname -s)
  node=$(slurmd -C | sed -n 1p | sed "s/NodeName=[^ ]*/NodeName=$host/")
  mkdir -p /etc/slurm /var/log/slurm /run/slurm /var/lib/slurm/slurmctld /var/lib/slurm/slurmd /run/munge
  chown slurm:slurm /var/log/slurm /run/slurm /var/lib/slurm /var/lib/slurm/slurmctld
  chown munge:munge /run/munge
  cat >/etc/slurm/slurm.conf <<CONF
ClusterName=ci
SlurmctldHost=$host(127.0.0.1)
SlurmUser=slurm
AuthType=auth/munge
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
JobAcctGatherType=jobacct_gather/linux
# memory is enforced as on a real cluster: a step over its request is killed (OUT_OF_MEMORY),
# sampled every second; MaxRSS is recorded in accounting (sacct -o MaxRSS)
JobAcctGatherParams=OverMemoryKill
JobAcctGatherFrequency=task=1
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=500
MailProg=/bin/true
MinJobAge=300
StateSaveLocation=/var/lib/slurm/slurmctld
SlurmdSpoolDir=/var/lib/slurm/slurmd
SlurmctldPidFile=/run/slurm/slurmctld.pid
SlurmdPidFile=/run/slurm/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=127.0.0.1
AccountingStoragePort=6819
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
  cat >/etc/slurm/slurmdbd.conf <<CONF
AuthType=auth/munge
DbdHost=localhost
DbdAddr=127.0.0.1
DbdPort=6819
SlurmUser=slurm
StorageType=accounting_storage/mysql
StorageHost=localhost
StorageUser=slurm
StoragePass=slurmci
StorageLoc=slurm_acct_db
LogFile=/var/log/slurm/slurmdbd.log
PidFile=/run/slurm/slurmdbd.pid
CONF
  chown slurm:slurm /etc/slurm/slurmdbd.conf
  chmod 600 /etc/slurm/slurmdbd.conf
  [ -f /etc/munge/munge.key ] || mungekey --create >/dev/null
  chown munge:munge /etc/munge/munge.key
}

up() {
  [ "$(id -u)" = 0 ] || { log "must run as root"; exit 1; }
  if [ -f "$pids" ]; then log "stopping what an earlier run left ($pids)"; down; fi
  install_packages
  mkdir -p "$state"
  : >"$pids"
  write_config
  start munged setpriv --reuid=munge --regid=munge --init-groups /usr/sbin/munged -F
  wait_for 20 munge sh -c 'munge -n | unmunge'
  mkdir -p /run/mysqld && chown mysql:mysql /run/mysqld
  [ -d /var/lib/mysql/mysql ] || mariadb-install-db --user=mysql >/dev/null 2>&1
  start mariadbd mariadbd --user=mysql --skip-networking --socket=/run/mysqld/mysqld.sock --innodb-lock-wait-timeout=900
  wait_for 60 MariaDB mariadb-admin ping
  mariadb -e "CREATE USER IF NOT EXISTS 'slurm'@'localhost' IDENTIFIED BY 'slurmci';
              GRANT ALL ON slurm_acct_db.* TO 'slurm'@'localhost'; FLUSH PRIVILEGES;"
  start slurmdbd slurmdbd -D
  wait_for 60 slurmdbd sacctmgr -n show cluster
  sacctmgr -n show cluster format=cluster | grep -qw ci || sacctmgr -i add cluster ci >/dev/null
  sacctmgr -n show account format=account | grep -qw ci || sacctmgr -i add account ci Cluster=ci >/dev/null
  sacctmgr -n show assoc user=root format=account | grep -qw ci || sacctmgr -i add user root Account=ci >/dev/null
  start slurmctld slurmctld -D
  start slurmd slurmd -D
  wait_for 60 "an idle node" sh -c 'sinfo -h -N -o %T | grep -q idle'
  log "up: $(sinfo -h -o '%P %D %T') ; account ci, partition debug"
}

down() {
  [ -f "$pids" ] || { log "not up"; return 0; }
  tac "$pids" | while read -r name pid; do
    if kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 50); do
        kill -0 "$pid" 2>/dev/null || break
        [ "$(ps -o stat= -p "$pid" 2>/dev/null | cut -c1)" = Z ] && break
        sleep 0.1
      done
      kill -9 "$pid" 2>/dev/null || true
    fi
    log "stopped $name ($pid)"
  done
  rm -f "$pids"
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) sinfo; sacctmgr -n show assoc format=cluster,account,user ;;
  *) echo "usage: $0 up|down|status" >&2; exit 2 ;;
esac
