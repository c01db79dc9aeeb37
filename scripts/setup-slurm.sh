#!/usr/bin/env bash
# A one-machine SLURM cluster for the SLURM e2e test (test/e2e/slurm.test.ts), from Debian's
# packages (slurmctld, slurmd, slurm-client, munge).
#
#   setup-slurm.sh install   install the packages (CI; idempotent, nothing started)
#   setup-slurm.sh start     write a private slurm.conf under $GAIA2_SLURM_DIR (default
#                            /run/gaia2-slurm), start munged if none runs, then slurmctld and
#                            slurmd on it; prints `SLURM_CONF=<file>` when the node is idle
#   setup-slurm.sh stop      stop this cluster's slurmctld and slurmd (munged is left running)
#
# The configuration is private (SLURM_CONF), so a machine's own /etc/slurm is not touched. One
# node, this machine, with its CPUs and memory; no accounting, no cgroups (process tracking by
# /proc: it runs in containers and VMs without a cgroup delegation).
set -euo pipefail
cmd=${1:-}
dir=${GAIA2_SLURM_DIR:-/run/gaia2-slurm}
conf=$dir/slurm.conf
say() { echo "setup-slurm: $*" >&2; }

need_root() { if [[ $(id -u) -ne 0 ]]; then say "run as root"; exit 3; fi; }

install_packages() {
  if command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v sbatch >/dev/null && command -v munged >/dev/null; then return 0; fi
  need_root
  inst() { DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends slurmctld slurmd slurm-client munge >/dev/null; }
  inst || { apt-get update -qq && inst; }
}

start_munge() {
  if [[ -S /run/munge/munge.socket.2 ]] && munge -n </dev/null >/dev/null 2>&1; then return 0; fi
  [[ -s /etc/munge/munge.key ]] || { mungekey --create --keyfile=/etc/munge/munge.key; chown munge:munge /etc/munge/munge.key; chmod 600 /etc/munge/munge.key; }
  install -d -o munge -g munge -m 0755 /run/munge
  install -d -o munge -g munge -m 0700 /var/lib/munge /var/log/munge
  runuser -u munge -- /usr/sbin/munged
  for _ in $(seq 50); do munge -n </dev/null >/dev/null 2>&1 && return 0; sleep 0.1; done
  say "munged did not answer"; exit 1
}

write_conf() {
  local host cpus mem
  host=$(hostname -s)
  cpus=$(nproc)
  mem=$(awk '/MemTotal/ { printf "%d", $2 / 1024 * 0.9 }' /proc/meminfo)
  mkdir -p "$dir/state" "$dir/spool" "$dir/log"
  cat >"$conf" <<EOF
ClusterName=gaia2-test
SlurmctldHost=$host
SlurmUser=root
SlurmctldPort=${GAIA2_SLURM_PORT:-6917}
SlurmdPort=$(( ${GAIA2_SLURM_PORT:-6917} + 1 ))
AuthType=auth/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SchedulerType=sched/backfill
MpiDefault=none
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=gaia2 Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
}

stop_cluster() {
  local d pidf pid
  for d in slurmd slurmctld; do
    pidf=$dir/$d.pid
    pid=$(cat "$pidf" 2>/dev/null || true)
    if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then
      kill "$pid"
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    fi
    rm -f "$pidf"
  done
}

case $cmd in
  install) install_packages ;;
  start)
    need_root
    install_packages
    start_munge
    stop_cluster
    write_conf
    export SLURM_CONF=$conf
    slurmctld -i
    slurmd
    # Ready when the node takes jobs.
    for _ in $(seq 100); do
      state=$(sinfo -h -N -o '%T' 2>/dev/null | head -1 || true)
      if [[ $state == idle* ]]; then echo "SLURM_CONF=$conf"; exit 0; fi
      sleep 0.2
    done
    say "the node did not become idle (state: ${state:-none}); logs in $dir/log"
    exit 1
    ;;
  stop) stop_cluster ;;
  *) echo "usage: setup-slurm.sh install|start|stop" >&2; exit 2 ;;
esac
